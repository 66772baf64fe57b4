//! The cloth: its implicit step is chapter 3's, it drapes stably at frame-size
//! steps where explicit integration diverges, its answers do not depend on the
//! number of threads, and bad cloths are clear errors.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use nalgebra::Vector3;
use pbm_cloth::cloth::{Cloth, Material};
use pbm_cloth::energy::Curvature;
use pbm_cloth::hinge::{Bend, RestHinge};
use pbm_cloth::scenes::{Scene, SolidKind, cloth, fan, grid, on_solid, run};
use pbm_cloth::triangle::{Shear, Stretch};
use pbm_implicit::mass_spring::MassSpring;
use pbm_particles::condition::SoftCondition;
use pbm_particles::forces::Gravity;
use pbm_particles::particle::{Motion, Particle, ParticleSystem};
use std::collections::BTreeMap;

#[test]
fn the_cloth_step_is_chapter_3s_backward_euler_step() {
    // A 5 × 5 curtain, built once as a cloth and once as a chapter 3 mass-spring
    // system with the same conditions as soft forces: one step each must agree.
    let material = Material { damping: 0.01, ..Material::COTTON };
    let mut fast = cloth(Scene::Curtain, 5, material).unwrap();
    fast.drag = 0.0;
    // Chapter 3's soft conditions give the Gauss–Newton Hessian.
    fast.curvature = Curvature::GaussNewton;
    fast.cg_tolerance = 1e-13;
    // Disturb it so that every condition is off its rest and moving.
    for (i, (x, v)) in fast.x.iter_mut().zip(&mut fast.v).enumerate().skip(5) {
        let s = i as f64;
        *x += Vector3::new(0.01 * s.sin(), 0.02 * s.cos(), 0.03 * (2.0 * s).sin());
        *v = Vector3::new(0.1 * s.cos(), 0.0, -0.2);
    }
    let particles = (0..fast.len())
        .map(|i| {
            let p = Particle::new(fast.mass[i], fast.x[i], fast.v[i]).unwrap();
            if fast.pinned[i] { p.with_motion(Motion::Fixed) } else { p }
        })
        .collect();
    let mut system = ParticleSystem::new(particles);
    let soft = |k: f64| (k, material.damping * k);
    let mut edges: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
    for (t, rest) in fast.triangles.iter().enumerate() {
        let (k, k_d) = soft(material.stretch);
        system
            .add_force(SoftCondition::new(Stretch(rest.clone()), k, k_d).unwrap())
            .unwrap();
        let (k, k_d) = soft(material.shear);
        system
            .add_force(SoftCondition::new(Shear(rest.clone()), k, k_d).unwrap())
            .unwrap();
        for e in 0..3 {
            let (a, b) = (rest.corners[e], rest.corners[(e + 1) % 3]);
            edges.entry((a.min(b), a.max(b))).or_default().push(t);
        }
    }
    for sharing in edges.values().filter(|s| s.len() == 2) {
        let hinge = RestHinge::between(
            &fast.triangles[sharing[0]],
            &fast.triangles[sharing[1]],
        )
        .unwrap();
        let (k, k_d) = soft(material.bend);
        system.add_force(SoftCondition::new(Bend(hinge), k, k_d).unwrap()).unwrap();
    }
    system.add_force(Gravity { g: fast.gravity }).unwrap();
    let mut reference = MassSpring::from_system(system);
    let h = 1.0 / 30.0;
    fast.backward_euler_step(h).unwrap();
    reference.backward_euler_step(h).unwrap();
    for (p, x) in reference.system.particles.iter().zip(&fast.x) {
        assert!((p.x - x).norm() < 1e-9, "{} vs {}", p.x, x);
    }
}

#[test]
fn the_drape_is_stable_for_ten_seconds_and_explicit_euler_diverges() {
    let model = cloth(Scene::Drape, 12, Material::COTTON).unwrap();
    let h = 1.0 / 30.0;
    let implicit = run(model.clone(), h, 300, false, 30, |c| {
        assert!(c.x.iter().all(|x| x.iter().all(|v| v.is_finite())));
    })
    .unwrap();
    assert!(implicit.stable, "{:?}", implicit.failure);
    // At rest on the sphere: it hangs over it and barely moves.
    let end = implicit.energies.last().unwrap().1;
    assert!(end.kinetic < 1e-3, "{end:?}");
    let deepest = implicit.cloth.x.iter().map(|x| 0.3 - x.norm()).fold(0.0, f64::max);
    assert!(deepest < 1e-3, "{deepest} m inside the sphere");
    let explicit = run(model, h, 300, true, 30, |_| {}).unwrap();
    assert!(!explicit.stable);
    let why = explicit.failure.unwrap();
    // It fails as it blows up: a triangle crushed flat, or the state no longer
    // finite, and says at which step.
    assert!(why.contains("at step"), "{why}");
}

#[test]
fn a_drape_that_gains_energy_says_it_diverged_though_every_solve_converged() {
    // Gauss-Newton integrates the sideways motion of stretched threads as if
    // explicitly: at 24 particles a side the drape ends its first half second holding
    // tens of joules (0.2 kg of cloth, a metre across), with every CG converged. The
    // run must report it, so that no figure or page takes its numbers for a drape.
    let h = 1.0 / 30.0;
    let mut model = cloth(Scene::Drape, 24, Material::COTTON).unwrap();
    let projected = run(model.clone(), h, 15, false, usize::MAX, |_| {}).unwrap();
    assert!(projected.stable, "{:?}", projected.failure);
    model.curvature = Curvature::GaussNewton;
    let gauss_newton = run(model, h, 15, false, usize::MAX, |_| {}).unwrap();
    assert!(!gauss_newton.stable);
    let why = gauss_newton.failure.unwrap();
    assert!(why.contains("at step 15") && why.contains("has diverged"), "{why}");
    // Not a failed solve: the run took every step.
    assert_eq!(gauss_newton.steps, 15);
}

#[test]
fn the_curtain_hangs_its_full_length_below_the_rail() {
    let r = run(
        cloth(Scene::Curtain, 12, Material::COTTON).unwrap(),
        1.0 / 30.0,
        300,
        false,
        300,
        |_| {},
    )
    .unwrap();
    assert!(r.stable, "{:?}", r.failure);
    let lowest = r.cloth.x.iter().map(|x| x.z).fold(f64::INFINITY, f64::min);
    // 1 m of cloth, stretched a little by its own weight.
    assert!((-1.05..-0.95).contains(&lowest), "{lowest}");
}

#[test]
fn the_answers_do_not_depend_on_the_number_of_threads() {
    let pool = |n| rayon::ThreadPoolBuilder::new().num_threads(n).build().unwrap();
    let go = || {
        let r = run(
            cloth(Scene::Drape, 10, Material::COTTON).unwrap(),
            1.0 / 30.0,
            20,
            false,
            20,
            |_| {},
        )
        .unwrap();
        r.cloth.x
    };
    assert_eq!(pool(1).install(go), pool(2).install(go));
}

#[test]
fn a_consistent_fan_rests_unstressed_and_an_inconsistent_one_cannot() {
    let settle = |deficit: f64| {
        let r = run(
            fan(4, deficit.to_radians(), Material::COTTON).unwrap(),
            0.05,
            400,
            false,
            400,
            |_| {},
        )
        .unwrap();
        let e = r.energies.last().unwrap().1;
        e.stretch + e.shear + e.bend
    };
    let flat = settle(0.0);
    let cone = settle(30.0);
    assert!(flat < 1e-12, "{flat}");
    assert!(cone > 1e-6, "{cone}");
}

#[test]
fn the_projected_hessian_finds_indefinite_conditions_in_a_falling_curtain() {
    let mut model = cloth(Scene::Curtain, 8, Material::COTTON).unwrap();
    model.curvature = Curvature::Projected;
    let r = run(model, 1.0 / 30.0, 30, false, 30, |_| {}).unwrap();
    assert!(r.stable, "{:?}", r.failure);
    assert!(r.indefinite > 0);
}

#[test]
fn bad_cloths_are_clear_errors() {
    let (pattern, triangles) = grid(3, 1.0).unwrap();
    let x: Vec<_> = pattern.iter().map(|p| Vector3::new(p[0], p[1], 0.0)).collect();
    let negative = Material { stretch: -1.0, ..Material::COTTON };
    let e = Cloth::new(&pattern, x.clone(), &triangles, negative).err().unwrap();
    assert!(e.to_string().contains("stretch stiffness"), "{e}");
    let mut flat = pattern.clone();
    for p in &mut flat {
        p[1] = 0.0; // every pattern place on one line: no triangle has area
    }
    let e = Cloth::new(&flat, x.clone(), &triangles, Material::COTTON).err().unwrap();
    assert!(e.to_string().contains("no area"), "{e}");
    let e = Cloth::new(&pattern[..4], x.clone(), &triangles, Material::COTTON)
        .err()
        .unwrap();
    assert!(e.to_string().contains("pattern places"), "{e}");
    assert!(grid(1, 1.0).is_err());
    assert!(grid(4, 0.0).is_err());
    assert!(fan(4, 4.0, Material::COTTON).is_err());
    let mut model = cloth(Scene::Curtain, 4, Material::COTTON).unwrap();
    assert!(model.backward_euler_step(-1.0).is_err());
}

#[test]
fn a_cloth_at_rest_costs_cg_few_iterations_once_the_stopping_rule_has_a_floor() {
    // At rest b → 0, and a test relative to ‖b‖ alone asks for ever more digits;
    // the floor tied to h‖Mg‖ asks for the same absolute accuracy as in flight.
    let r = run(
        cloth(Scene::Drape, 8, Material::COTTON).unwrap(),
        1.0 / 30.0,
        300,
        false,
        usize::MAX,
        |_| {},
    )
    .unwrap();
    let mean = |s: &[usize]| s.iter().sum::<usize>() as f64 / s.len() as f64;
    let (landing, rest) =
        (mean(&r.cg_iterations[..30]), mean(&r.cg_iterations[270..]));
    assert!(rest < landing / 3.0, "landing {landing}, at rest {rest}");
}

#[test]
fn a_cloth_held_on_a_box_stays_on_its_surface_and_the_box_carries_its_weight() {
    for friction in [0.0, 1000.0] {
        let model = on_solid(SolidKind::Box, 12, Material::COTTON, friction).unwrap();
        let weight: f64 = model.mass.iter().sum::<f64>() * pbm_particles::forces::G;
        let r = run(model, 1.0 / 30.0, 150, false, usize::MAX, |_| {}).unwrap();
        assert!(r.stable, "{:?}", r.failure);
        let c = &r.cloth;
        // Never more than a millimetre inside, and the top's particles on the top.
        assert!(r.deepest < 1e-3, "{friction}: {} m inside", r.deepest);
        for x in c.x.iter().filter(|x| x.x.abs() < 0.2 && x.y.abs() < 0.2) {
            assert!((x.z - 0.3).abs() < 1e-3, "{friction}: a particle at {x}");
        }
        // At rest the solid's force (normal and friction) balances the weight.
        let kinetic = c.energies().unwrap().kinetic;
        let force = c.contact_force();
        assert!(kinetic < 1e-4, "{friction}: still moving, {kinetic} J");
        assert!(
            (force.z - weight).abs() < 0.02 * weight,
            "{friction}: {force} against {weight} N"
        );
        assert!(force.xy().norm() < 0.01 * weight, "{friction}: {force}");
    }
}

#[test]
fn friction_on_the_sphere_keeps_the_cloth_from_sliding_off() {
    // Frictionless, the drape slides off the ball; with the notes' linear
    // friction it hangs on it like the penalty drape.
    let lowest = |friction| {
        let model =
            on_solid(SolidKind::Sphere, 12, Material::COTTON, friction).unwrap();
        let r = run(model, 1.0 / 30.0, 120, false, usize::MAX, |_| {}).unwrap();
        r.cloth.x.iter().map(|x| x.z).fold(f64::INFINITY, f64::min)
    };
    let (slipping, holding) = (lowest(0.0), lowest(1000.0));
    assert!(holding > -0.3 && slipping < holding - 0.05, "{slipping} vs {holding}");
}

#[test]
fn notes_errata_the_continuum_bend_energy_does_not_see_a_twist_and_the_hinges_do() {
    // z = c x y: every thread stays straight (∂²z/∂x² = ∂²z/∂y² = 0), so the notes'
    // ½k∫(κ_u² + κ_v²) is zero; the surface is twisted all the same, and the
    // hinges across the cells' diagonals fold. Their energy converges as the grid
    // is refined: a charge for twist, not an artefact of the mesh.
    let c = 0.2;
    let bend = |n: usize| {
        let (pattern, triangles) = grid(n, 1.0).unwrap();
        let x = pattern
            .iter()
            .map(|p| {
                Vector3::new(p[0] - 0.5, p[1] - 0.5, c * (p[0] - 0.5) * (p[1] - 0.5))
            })
            .collect();
        let cloth = Cloth::new(&pattern, x, &triangles, Material::COTTON).unwrap();
        cloth.energies().unwrap().bend
    };
    let (coarse, fine) = (bend(9), bend(33));
    assert!(coarse > 0.0 && fine > 0.0);
    assert!((coarse / fine - 1.0).abs() < 0.2, "{coarse} vs {fine}");
    // The flat sheet stores nothing.
    assert_eq!(
        {
            let (pattern, triangles) = grid(9, 1.0).unwrap();
            let x = pattern.iter().map(|p| Vector3::new(p[0], p[1], 0.0)).collect();
            Cloth::new(&pattern, x, &triangles, Material::COTTON)
                .unwrap()
                .energies()
                .unwrap()
                .bend
        },
        0.0
    );
}

#[test]
fn baraff_and_witkins_shear_agrees_with_the_angle_to_first_order_and_scales_as_area_squared()
 {
    use pbm_cloth::triangle::{RestTriangle, bw98_shear};
    use pbm_particles::condition::Condition;
    // A right triangle of pattern legs s, its v leg turned towards u by γ.
    for s in [0.01, 0.1] {
        let t =
            RestTriangle::new([0, 1, 2], [[0.0, 0.0], [s, 0.0], [0.0, s]]).unwrap();
        let shear = Shear(t.clone());
        for gamma in [1e-4, 1e-2, 0.3] {
            let x = [
                Vector3::zeros(),
                Vector3::new(s, 0.0, 0.0),
                Vector3::new(s * f64::sin(gamma), s * f64::cos(gamma), 0.0),
            ];
            let mut ours = [0.0];
            let mut j = [Vector3::zeros(); 3];
            shear.position(&x, &mut ours, &mut j).unwrap();
            // Ours: √A (θ − π/2) = −√A γ. Theirs: A sin γ.
            let theirs = bw98_shear(&t, &x);
            assert!((ours[0] + t.area.sqrt() * gamma).abs() < 1e-12, "{ours:?}");
            assert!((theirs - t.area * gamma.sin()).abs() < 1e-15, "{theirs}");
            // Energies with one k: theirs / ours = A (1 + O(γ²)).
            let ratio = theirs * theirs / (ours[0] * ours[0]);
            assert!(
                (ratio / t.area - 1.0).abs() < gamma * gamma,
                "{s} {gamma}: {ratio}"
            );
        }
    }
}

#[test]
fn a_cloth_whose_energy_overflows_is_reported_as_diverged() {
    // Speeds of 1e160 m/s are finite numbers, but ½ m v² of them is not: a step that
    // checks only that the state is made of numbers would call this cloth stable.
    let mut model = cloth(Scene::Drape, 4, Material::COTTON).unwrap();
    assert!(model.energies().unwrap().kinetic.is_finite());
    for v in &mut model.v {
        *v = Vector3::new(0.0, 0.0, -1e160);
    }
    let e = model.energies().unwrap_err().to_string();
    assert!(e.contains("kinetic energy is inf") && e.contains("diverged"), "{e}");
}

#[test]
fn the_hinges_charge_each_direction_of_bending_as_the_page_derives() {
    // Small bends of the chequerboard grid: the page works out, from the slopes of
    // the triangles' planes, that the hinges store ½k(¾f_xx² + ¾f_yy² + 3f_xy²) per
    // unit area, against the continuum's ½k(f_xx² + 2f_xy² + f_yy²). So a cylinder
    // along a thread and a saddle along the threads keep ¾ of the continuum's
    // energy, the cylinder on the bias 9/8 and the twist 3/2, at every cell size.
    // The cylinders are rolled exactly; the two saddles are height fields, whose
    // true curvature falls short of κ by a part in (κ L)², 1e-4 at κ = 0.01 m⁻¹.
    use pbm_cloth::scenes::{Bending, bend_ratio};
    let expected = [0.75, 0.75, 9.0 / 8.0, 1.5];
    for n in [9, 17, 33] {
        for (bending, want) in Bending::ALL.into_iter().zip(expected) {
            let ratio = bend_ratio(bending, n, 0.01).unwrap();
            assert!(
                (ratio - want).abs() < 2e-4 * want,
                "{bending:?} at {n}: {ratio}"
            );
        }
    }
    // A rolled cylinder's hinges fold by exactly the angle between the chords, at
    // any curvature.
    let strong = bend_ratio(Bending::CylinderAlongThread, 9, 2.0).unwrap();
    assert!((strong - 0.75).abs() < 1e-12, "{strong}");
}
