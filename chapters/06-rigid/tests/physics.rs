//! The chapter's physics against closed forms, the notes' worked examples,
//! conservation laws and nalgebra's own rotation code.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use nalgebra::{Matrix3, Quaternion, UnitQuaternion, Vector2, Vector3};
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::system::{OdeSystem, state_of};
use pbm_ode::tableau::RK4;
use pbm_particles::forces::G;
use pbm_prelim::sampling::sample;
use pbm_rigid::body::{
    Body, Gravity, Orientation, PointForce, Representation, RigidBody, RigidBodyDef,
    RigidSystem,
};
use pbm_rigid::body2d::{
    Gravity2, PointForce2, RigidBody2, RigidBody2Def, RigidSystem2,
};
use pbm_rigid::exercises::test_solids;
use pbm_rigid::mass::MassProperties;
use pbm_rigid::mesh::{TriMesh, box_mesh, tetrahedron, uv_sphere};
use pbm_rigid::rotation::{
    Quat, quat_from_axis_angle, quat_from_matrix, quat_mul, quat_to_matrix, star,
};
use pbm_rigid::scenes::{
    DZHANIBEKOV_T_END, dzhanibekov_run, push, rotation_free, scattered_blocks,
    sign_changes, torque_free, translation_free,
};

fn rel(a: &Matrix3<f64>, b: &Matrix3<f64>) -> f64 {
    (a - b).norm() / b.norm()
}

#[test]
fn polyhedral_block_is_equation_5_3() {
    for (i, size) in
        [Vector3::new(1.0, 2.0, 3.0), Vector3::new(0.1, 5.0, 0.7)].iter().enumerate()
    {
        let exact = MassProperties::block(*size, 2.5 * size.product()).unwrap();
        let poly =
            MassProperties::polyhedron(&box_mesh(*size).unwrap(), 2.5).unwrap();
        assert!(rel(&poly.inertia, &exact.inertia) < 1e-12, "box {i}");
        assert!((poly.mass / exact.mass - 1.0).abs() < 1e-12);
        assert!(poly.centre.norm() < 1e-12);
    }
}

#[test]
fn closed_form_tetrahedron_matches_hand_values_and_the_polyhedral_integrals() {
    // The unit right tetrahedron: V = 1/6, centroid (1/4, 1/4, 1/4), and about the
    // origin I_xx = ∫ y² + z² = 1/30, I_xy = −∫ xy = −1/120.
    let unit = [Vector3::zeros(), Vector3::x(), Vector3::y(), Vector3::z()];
    let t = MassProperties::tetrahedron(&unit, 1.0).unwrap();
    let about_origin = t.inertia_about(&Vector3::zeros());
    assert!((t.mass - 1.0 / 6.0).abs() < 1e-15);
    assert!((t.centre - Vector3::repeat(0.25)).norm() < 1e-15);
    assert!((about_origin[(0, 0)] - 1.0 / 30.0).abs() < 1e-15);
    assert!((about_origin[(0, 1)] + 1.0 / 120.0).abs() < 1e-15);
    for i in 0..20u64 {
        let v: [Vector3<f64>; 4] = std::array::from_fn(|k| {
            Vector3::new(
                sample(i * 12 + 3 * k as u64),
                sample(i * 12 + 3 * k as u64 + 1),
                sample(i * 12 + 3 * k as u64 + 2),
            ) * 2.0
        });
        let Ok(mesh) = tetrahedron(v) else { continue };
        let exact = MassProperties::tetrahedron(&v, 1.3).unwrap();
        let poly = MassProperties::polyhedron(&mesh, 1.3).unwrap();
        assert!(rel(&poly.inertia, &exact.inertia) < 1e-10, "tetrahedron {i}");
        assert!((poly.centre - exact.centre).norm() < 1e-12);
    }
}

#[test]
fn every_method_gives_a_physical_tensor_and_sampling_is_within_2_percent() {
    for (shape, mesh, exact) in test_solids().unwrap() {
        let poly = MassProperties::polyhedron(&mesh, 1.0).unwrap();
        assert!(poly.relative_error(&exact) < 1e-12, "{shape}");
        let sampled = MassProperties::point_sampling(&mesh, 1.0, 32).unwrap();
        assert!(sampled.relative_error(&exact) < 0.02, "{shape}");
        for props in
            [exact, poly, sampled, MassProperties::bounding_box(&mesh, 1.0).unwrap()]
        {
            let i = props.inertia;
            assert!(
                (i - i.transpose()).norm() <= 1e-14 * i.norm(),
                "{shape}: symmetric"
            );
            let m = props.principal_moments();
            assert!(m[0] > 0.0, "{shape}: positive definite");
            // No principal moment exceeds the sum of the other two.
            assert!(
                m[2] <= m[0] + m[1] + 1e-12 * m[2],
                "{shape}: triangle inequality"
            );
        }
    }
}

#[test]
fn parallel_axis_theorem_matches_direct_sums() {
    let points: Vec<(f64, Vector3<f64>)> = (0..50u64)
        .map(|i| {
            (
                1.0 + sample(4 * i).abs(),
                Vector3::new(sample(4 * i + 1), sample(4 * i + 2), sample(4 * i + 3))
                    * 3.0,
            )
        })
        .collect();
    let props = MassProperties::point_masses(&points).unwrap();
    let p = Vector3::new(0.3, -1.0, 2.0);
    let direct: Matrix3<f64> = points
        .iter()
        .map(|(m, r)| {
            let d = r - p;
            (Matrix3::identity() * d.dot(&d) - d * d.transpose()) * *m
        })
        .sum();
    assert!(rel(&props.inertia_about(&p), &direct) < 1e-13);
    // A dumbbell: two 1 kg masses 2 m apart along x have I = diag(0, 2, 2) about the
    // middle.
    let bell =
        MassProperties::point_masses(&[(1.0, Vector3::x()), (1.0, -Vector3::x())])
            .unwrap();
    assert!(
        (bell.inertia - Matrix3::from_diagonal(&Vector3::new(0.0, 2.0, 2.0))).norm()
            < 1e-15
    );
}

#[test]
fn translating_a_mesh_moves_its_centre_not_its_inertia() {
    // A mesh and its translate have the same inertia about their centres. Moved
    // 10^k sizes away (k up to 6), the translate's vertices are rounded to 1e-16 of
    // their distance, so the inertia can agree only to about that, relative to the
    // size: 1e-10 at a million sizes. Integrating about the world origin lost
    // (distance / size)² of that instead (26% at 10⁴ sizes).
    let solids = test_solids().unwrap();
    // A squashed 34-vertex sphere: no symmetry a cancellation could hide behind.
    let sphere = uv_sphere(1.0, 5, 8).unwrap();
    let squashed = TriMesh::new(
        sphere
            .vertices()
            .iter()
            .map(|v| v.component_mul(&Vector3::new(1.3, 0.8, 0.5)))
            .collect(),
        sphere.triangles().to_vec(),
    )
    .unwrap();
    let direction = Vector3::new(0.6, -0.48, 0.64);
    for (name, mesh) in [("L", &solids[2].1), ("squashed sphere", &squashed)] {
        let exact = MassProperties::polyhedron(mesh, 1.0).unwrap();
        let (lo, hi) = mesh.bounds();
        let size = (hi - lo).norm();
        let mut worst = 0.0f64;
        for k in 0..=6 {
            let distance = 10f64.powi(k);
            let shift = direction * distance * size;
            let moved = TriMesh::new(
                mesh.vertices().iter().map(|v| v + shift).collect(),
                mesh.triangles().to_vec(),
            )
            .unwrap();
            let props = MassProperties::polyhedron(&moved, 1.0).unwrap();
            let error = rel(&props.inertia, &exact.inertia);
            worst = worst.max(error / distance);
            assert!(
                error < 1e-14 * distance.max(10.0),
                "{name} at 1e{k} sizes: {error:e}"
            );
            let centre = (props.centre - shift - exact.centre).norm() / size;
            assert!(
                centre < 1e-15 * distance.max(10.0),
                "{name} at 1e{k}: {centre:e}"
            );
        }
        println!("{name}: inertia error / distance in sizes at most {worst:e}");
    }
    // The closed-form tetrahedron, moved the same way.
    let corners = [
        Vector3::new(0.0, 0.0, 0.0),
        Vector3::new(2.0, 0.0, 0.0),
        Vector3::new(0.5, 1.5, 0.0),
        Vector3::new(0.7, 0.4, 1.2),
    ];
    let exact = MassProperties::tetrahedron(&corners, 1.0).unwrap();
    // The same closed form taken about the world origin, as the first version did.
    let about_origin = |v: &[Vector3<f64>; 4]| {
        let volume = (v[1] - v[0]).dot(&(v[2] - v[0]).cross(&(v[3] - v[0]))) / 6.0;
        let s: Vector3<f64> = v.iter().sum();
        let second = (v.iter().map(|p| p * p.transpose()).sum::<Matrix3<f64>>()
            + s * s.transpose())
            * (volume / 20.0);
        let d = s / 4.0;
        Matrix3::identity() * second.trace()
            - second
            - (Matrix3::identity() * d.dot(&d) - d * d.transpose()) * volume
    };
    // The diagonal of its bounding box, as for the meshes above.
    let size = 2.0f64.hypot(1.5).hypot(1.2);
    let errors = |k: i32| {
        let far = corners.map(|c| c + direction * size * 10f64.powi(k));
        let new = MassProperties::tetrahedron(&far, 1.0).unwrap().inertia;
        (rel(&about_origin(&far), &exact.inertia), rel(&new, &exact.inertia))
    };
    // The page: 7e-9 at a thousand sizes and 3e-3 at a million about the origin;
    // 6e-11 at a million about a corner.
    let (old_k3, _) = errors(3);
    let (old_k6, new_k6) = errors(6);
    assert!((1e-9..1e-7).contains(&old_k3), "about the origin, 1e3: {old_k3:e}");
    assert!((1e-4..1e-1).contains(&old_k6), "about the origin, 1e6: {old_k6:e}");
    assert!(new_k6 < 1e-9, "tetrahedron at 1e6 sizes: {new_k6:e}");
}

#[test]
fn worked_examples_of_section_5() {
    for f in [1.0, 2.5, -4.0] {
        let (force, torque) = translation_free(f).unwrap();
        assert_eq!(torque, Vector3::new(0.0, 6.0 * f, 0.0), "5.4");
        assert_eq!(force, Vector3::zeros());
        let (force, torque) = rotation_free(f).unwrap();
        assert_eq!(torque, Vector3::zeros(), "5.3");
        assert_eq!(force, Vector3::new(0.0, 0.0, 2.0 * f));
    }
}

#[test]
fn uniform_gravity_exerts_no_torque() {
    // Section 5.2, on a sampled body: Σ (r_i − c) × m_i g = (Σ m_i (r_i − c)) × g
    // = 0.
    let (_, mesh, _) = test_solids().unwrap().remove(2);
    let props = MassProperties::point_sampling(&mesh, 1.0, 12).unwrap();
    let g = Vector3::new(0.0, -G, 0.0);
    let (lo, hi) = mesh.bounds();
    let cell = (hi - lo) / 12.0;
    let mut torque = Vector3::zeros();
    for i in 0..12 {
        for j in 0..12 {
            for k in 0..12 {
                let p = lo
                    + cell.component_mul(&Vector3::new(
                        i as f64 + 0.5,
                        j as f64 + 0.5,
                        k as f64 + 0.5,
                    ));
                if mesh.contains(&p) {
                    torque += (p - props.centre).cross(&(g * cell.product()));
                }
            }
        }
    }
    assert!(torque.norm() < 1e-12, "{torque}");
    // And the body accelerates at g whatever its mass (Mg/M, not Mg/g).
    let body = RigidBody::new(RigidBodyDef {
        mass: 7.0,
        inertia: props.inertia,
        position: Vector3::zeros(),
        orientation: UnitQuaternion::identity(),
        velocity: Vector3::zeros(),
        angular_velocity: Vector3::zeros(),
        representation: Representation::Quaternion,
    })
    .unwrap();
    let mut system = RigidSystem::new(vec![body]).unwrap();
    system.add_force(Gravity { g }).unwrap();
    let mut ydot = vec![0.0; 13];
    system.derivative(&mut ydot).unwrap();
    assert_eq!(Vector3::from_column_slice(&ydot[7..10]) / 7.0, g);
    assert_eq!(Vector3::from_column_slice(&ydot[10..13]), Vector3::zeros());
}

#[test]
fn off_centre_push_gains_exactly_the_extra_work() {
    let centred = push(Vector3::zeros(), 2.0, 1e-3).unwrap();
    let off = push(Vector3::new(1.5, 0.0, 0.0), 2.0, 1e-3).unwrap();
    // Same force, same time: same momentum, so the same speed of the centre of mass.
    assert!((centred.speed - 2.0).abs() < 1e-12 && (off.speed - 2.0).abs() < 1e-12);
    let difference = off.kinetic_energy - centred.kinetic_energy;
    let extra_work = off.work - centred.work;
    assert!(difference > 0.5, "{difference}");
    assert!(
        (difference - extra_work).abs() < 1e-3 * extra_work,
        "{difference} vs {extra_work}"
    );
    // Each push's energy is its own work, too.
    assert!((centred.kinetic_energy - centred.work).abs() < 1e-9);
}

#[test]
fn intermediate_axis_flips_while_l_and_energy_stay() {
    let samples = dzhanibekov_run(DZHANIBEKOV_T_END).unwrap();
    assert!(sign_changes(&samples, 1) >= 4, "flips: {}", sign_changes(&samples, 1));
    let (l0, e0) = (samples[0].l, samples[0].energy);
    for s in &samples {
        assert!((s.l - l0).norm() <= 1e-9 * l0.norm());
        assert!((s.energy - e0).abs() <= 1e-6 * e0);
        assert!(s.orientation_error < 1e-15, "renormalized quaternion stays unit");
    }
    // Spin about the largest or the smallest axis is stable: no flip, ω stays near
    // its axis.
    for (axis, omega) in
        [(0, Vector3::new(5.0, 0.01, 0.01)), (2, Vector3::new(0.01, 0.01, 5.0))]
    {
        let s = torque_free(omega, Representation::Quaternion, true, 1e-3, 30.0, 10)
            .unwrap();
        assert_eq!(sign_changes(&s, axis), 0);
        assert!(s.iter().all(|s| s.body_omega[axis] > 4.9));
    }
}

#[test]
fn matrix_and_quaternion_forms_agree_and_drift_differently() {
    let omega = Vector3::new(1.0, 2.0, 3.0);
    let m =
        torque_free(omega, Representation::Matrix, false, 1e-3, 2.0, 100).unwrap();
    let q = torque_free(omega, Representation::Quaternion, false, 1e-3, 2.0, 100)
        .unwrap();
    for (a, b) in m.iter().zip(&q) {
        assert!((a.r - b.r).norm() < 1e-9, "t = {}", a.t);
    }
    let worst = |r| {
        torque_free(omega, r, false, 0.02, 100.0, 1)
            .unwrap()
            .iter()
            .fold(0.0_f64, |w, s| w.max(s.orientation_error))
    };
    assert!(worst(Representation::Matrix) > 10.0 * worst(Representation::Quaternion));
}

#[test]
fn rotation_algebra_matches_nalgebra() {
    for i in 0..100u64 {
        let a = Quat::new(
            sample(8 * i),
            sample(8 * i + 1),
            sample(8 * i + 2),
            sample(8 * i + 3),
        );
        let b = Quat::new(
            sample(8 * i + 4),
            sample(8 * i + 5),
            sample(8 * i + 6),
            sample(8 * i + 7),
        );
        let ours = quat_mul(&a, &b);
        let theirs = Quaternion::new(a[0], a[1], a[2], a[3])
            * Quaternion::new(b[0], b[1], b[2], b[3]);
        assert!(
            (ours - Quat::new(theirs.w, theirs.i, theirs.j, theirs.k)).norm() < 1e-15
        );
        let unit = a.normalize();
        let r = UnitQuaternion::from_quaternion(Quaternion::new(
            unit[0], unit[1], unit[2], unit[3],
        ));
        assert!(
            (quat_to_matrix(&unit) - r.to_rotation_matrix().into_inner()).norm()
                < 1e-14
        );
        let (u, v) = (Vector3::new(a[0], a[1], a[2]), Vector3::new(b[0], b[1], b[2]));
        assert!((star(&u) * v - u.cross(&v)).norm() < 1e-15);
    }
    let q = quat_from_axis_angle(&Vector3::z(), std::f64::consts::FRAC_PI_2);
    assert!((quat_to_matrix(&q) * Vector3::x() - Vector3::y()).norm() < 1e-15);
}

#[test]
fn slides_errata_star_and_discrete_inertia_signs() {
    // ω* b is ω × b (the slides call ω* the matrix of −(ω×)).
    let (w, b) = (Vector3::new(1.0, 2.0, 3.0), Vector3::new(-0.5, 0.4, 2.0));
    assert_eq!(star(&w) * b, w.cross(&b));
    // Σ m r* r* is −I: the slides' "discrete inertia" has its sign flipped.
    let points =
        [(1.0, Vector3::new(1.0, 0.5, 0.0)), (2.0, Vector3::new(-0.5, -0.25, 0.3))];
    let props = MassProperties::point_masses(&points).unwrap();
    let slides: Matrix3<f64> = points
        .iter()
        .map(|(m, r)| {
            let d = r - props.centre;
            star(&d) * star(&d) * *m
        })
        .sum();
    assert!((slides + props.inertia).norm() < 1e-14);
}

#[test]
fn notes_errata_the_torque_is_a_cross_product() {
    // In appendix D the torque line joins two triples with `*`, which the notes'
    // code defines as the dot product: a scalar, −2f for the force of section 5.4,
    // where the torque is (0, 3f, 0). Their cross operator `^` gives the torque.
    let (r, f) = (Vector3::new(-3.0, 0.0, -2.0), Vector3::new(0.0, 0.0, 1.0));
    let (_, torque) =
        pbm_rigid::scenes::net_force_and_torque(Vector3::zeros(), &[(r, f)]).unwrap();
    assert_eq!(torque, Vector3::new(0.0, 3.0, 0.0));
    assert_eq!(torque, r.cross(&f), "the notes' `^`");
    assert_eq!(r.dot(&f), -2.0, "the notes' `*`, as printed");
}

#[test]
fn notes_errata_c2_a_steady_spin_needs_a_principal_axis_not_a_symmetry_axis() {
    // Appendix C.2 (000:2631): ω̇ ≠ 0 without torque "when the body has a rotational
    // velocity axis that is not an axis of symmetry". The term is ω × Iω, zero exactly
    // when Iω ∥ ω, that is about a principal axis (an eigenvector of I).
    let gyroscopic = |inertia: &Matrix3<f64>, w: Vector3<f64>| {
        w.cross(&(inertia * w)).norm() / (inertia * w).norm()
    };
    // A tetrahedron with no symmetry at all still has three axes of steady spin...
    let corners = [
        Vector3::new(0.0, 0.0, 0.0),
        Vector3::new(1.0, 0.0, 0.0),
        Vector3::new(0.3, 2.0, 0.0),
        Vector3::new(0.2, 0.5, 3.0),
    ];
    let inertia = MassProperties::tetrahedron(&corners, 1.0).unwrap().inertia;
    let eigen = inertia.symmetric_eigen();
    for k in 0..3 {
        let axis = eigen.eigenvectors.column(k).into_owned();
        assert!(gyroscopic(&inertia, axis) < 1e-12, "principal axis {k}");
    }
    // ...and between two of them it wanders.
    let between =
        (eigen.eigenvectors.column(0) + eigen.eigenvectors.column(1)).normalize();
    assert!(gyroscopic(&inertia, between) > 0.01);
    // A cube's I is a multiple of 1: every axis is principal, almost none a symmetry
    // axis (face, edge and corner directions are the only ones).
    let cube = box_mesh(Vector3::new(1.0, 1.0, 1.0)).unwrap();
    let inertia = MassProperties::polyhedron(&cube, 1.0).unwrap().inertia;
    let generic = Vector3::new(0.36, 0.48, 0.8);
    assert!(gyroscopic(&inertia, generic) < 1e-12);
}

#[test]
fn notes_errata_the_frame_loop_braces() {
    // As printed, the solver call sits inside the loop that copies the state, so one
    // frame calls the solver once per state entry, each time from a half-copied
    // state. Entry j is copied after j calls and then advanced again by the last one:
    // every entry but the first moves twice. A body drifting at (1, 1, 1) m/s moves
    // 1/24 m in x but 2/24 m in y and z.
    let body = || {
        RigidBody::new(RigidBodyDef {
            mass: 1.0,
            inertia: Matrix3::identity(),
            position: Vector3::zeros(),
            orientation: UnitQuaternion::identity(),
            velocity: Vector3::repeat(1.0),
            angular_velocity: Vector3::zeros(),
            representation: Representation::Quaternion,
        })
        .unwrap()
    };
    let frame = 1.0 / 24.0;
    let mut printed = RigidSystem::new(vec![body()]).unwrap();
    let mut x_final = state_of(&printed);
    let mut x0 = x_final.clone();
    for i in 0..x0.len() {
        x0[i] = x_final[i];
        printed.scatter_state(&x0, 0.0);
        RungeKutta::new(RK4).step(&mut printed, frame).unwrap();
        x_final = state_of(&printed);
    }
    assert!((x_final[0] - frame).abs() < 1e-15);
    assert!((x_final[1] - 2.0 * frame).abs() < 1e-15, "{}", x_final[1]);
    assert!((x_final[2] - 2.0 * frame).abs() < 1e-15);
    // With the call after the copy, one frame is one step.
    let mut fixed = RigidSystem::new(vec![body()]).unwrap();
    RungeKutta::new(RK4).step(&mut fixed, frame).unwrap();
    assert!((fixed.bodies[0].position() - Vector3::repeat(frame)).norm() < 1e-15);
    // The loop's comment says the array then holds d/dt X(t + 1/24). It holds
    // X(t + 1/24) itself: its position entries are x + v/24 = 1/24 m, where the
    // derivative's would be the velocity, 1 m/s.
    let after = state_of(&fixed);
    let mut derivative = vec![0.0; after.len()];
    fixed.derivative(&mut derivative).unwrap();
    assert!((after[0] - frame).abs() < 1e-15 && derivative[0] == 1.0);
}

#[test]
fn derivative_is_identical_on_one_and_two_threads() {
    let bodies = scattered_blocks(2000, 1.0).unwrap();
    let run = |threads| {
        let pool =
            rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| {
            let mut system = RigidSystem::new(bodies.clone()).unwrap();
            system.add_force(Gravity { g: Vector3::new(0.0, -G, 0.0) }).unwrap();
            let mut rk4 = RungeKutta::new(RK4);
            rk4.step(&mut system, 0.01).unwrap();
            state_of(&system)
        })
    };
    assert_eq!(run(1), run(2));
}

#[test]
fn bad_input_is_an_error() {
    let box_ = box_mesh(Vector3::new(1.0, 1.0, 1.0)).unwrap();
    let (v, mut t) = (box_.vertices().to_vec(), box_.triangles().to_vec());
    t.pop();
    let err = TriMesh::new(v.clone(), t).unwrap_err();
    assert!(err.to_string().contains("not closed"), "{err}");
    let (iv, it) = box_.inverted();
    let err = TriMesh::new(iv, it).unwrap_err();
    assert!(err.to_string().contains("inside out"), "{err}");
    assert!(TriMesh::new(v.clone(), vec![[0, 1, 99]]).is_err());
    assert!(TriMesh::new(vec![Vector3::new(f64::NAN, 0.0, 0.0)], vec![]).is_err());
    assert!(TriMesh::new(v, vec![[0, 0, 1]]).is_err());
    assert!(uv_sphere(1.0, 1, 8).is_err());
    let ok = |m: f64, i: Matrix3<f64>, x: Vector3<f64>, q: UnitQuaternion<f64>| {
        RigidBody::new(RigidBodyDef {
            mass: m,
            inertia: i,
            position: x,
            orientation: q,
            velocity: Vector3::zeros(),
            angular_velocity: Vector3::zeros(),
            representation: Representation::Matrix,
        })
    };
    let (i, q) = (Matrix3::identity(), UnitQuaternion::identity());
    assert!(ok(0.0, i, Vector3::zeros(), q).is_err());
    assert!(ok(f64::NAN, i, Vector3::zeros(), q).is_err());
    assert!(ok(1.0, -i, Vector3::zeros(), q).is_err());
    assert!(
        ok(
            1.0,
            Matrix3::new(1.0, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0),
            Vector3::zeros(),
            q
        )
        .is_err()
    );
    assert!(ok(1.0, i, Vector3::new(f64::INFINITY, 0.0, 0.0), q).is_err());
    // A zero quaternion cannot be normalized: its NaNs are refused.
    let zero = UnitQuaternion::from_quaternion(Quaternion::new(0.0, 0.0, 0.0, 0.0));
    assert!(ok(1.0, i, Vector3::zeros(), zero).is_err());
    assert!(MassProperties::block(Vector3::new(1.0, 0.0, 1.0), 1.0).is_err());
    assert!(MassProperties::point_masses(&[]).is_err());
    assert!(MassProperties::point_sampling(&box_, 1.0, 0).is_err());
    assert!(MassProperties::polyhedron(&box_, -1.0).is_err());
    let a = ok(1.0, i, Vector3::zeros(), q).unwrap();
    let b = RigidBody::new(RigidBodyDef {
        mass: 1.0,
        inertia: i,
        position: Vector3::zeros(),
        orientation: q,
        velocity: Vector3::zeros(),
        angular_velocity: Vector3::zeros(),
        representation: Representation::Quaternion,
    })
    .unwrap();
    assert!(RigidSystem::new(vec![a, b]).is_err());
}

#[test]
fn a_body_def_fills_in_what_it_is_not_told() {
    let def = RigidBodyDef::default();
    assert_eq!((def.mass, def.representation), (1.0, Representation::Quaternion));
    let props = MassProperties::block(Vector3::new(1.0, 2.0, 3.0), 6.0).unwrap();
    let body = RigidBody::new(RigidBodyDef {
        velocity: Vector3::new(1.0, 0.0, 0.0),
        ..RigidBodyDef::of(&props)
    })
    .unwrap();
    assert_eq!(body.mass(), 6.0);
    assert_eq!(body.i_body(), &props.inertia);
    assert_eq!(body.momentum(), Vector3::new(6.0, 0.0, 0.0));
    assert_eq!(body.angular_velocity(), Vector3::zeros());
}

#[test]
fn an_impulse_at_a_point_changes_both_momenta() {
    // A unit block hit by 2 N s along y at (0.5, 0, 0) from its centre: ΔP = (0,
    // 2, 0) and ΔL = r × j = (0, 0, 1); the velocities follow at once.
    let props = MassProperties::block(Vector3::new(1.0, 1.0, 1.0), 1.0).unwrap();
    let mut body = RigidBody::new(RigidBodyDef {
        position: Vector3::new(3.0, 0.0, 0.0),
        ..RigidBodyDef::of(&props)
    })
    .unwrap();
    body.apply_impulse_at(&Vector3::new(3.5, 0.0, 0.0), &Vector3::new(0.0, 2.0, 0.0));
    assert_eq!(body.momentum(), Vector3::new(0.0, 2.0, 0.0));
    assert_eq!(body.angular_momentum(), Vector3::new(0.0, 0.0, 1.0));
    assert_eq!(body.velocity(), Vector3::new(0.0, 2.0, 0.0));
    // I = M (1 + 1)/12 = 1/6 about every axis, so ω = 6 rad/s about z.
    assert!((body.angular_velocity() - Vector3::new(0.0, 0.0, 6.0)).norm() < 1e-12);
    // The kinetic energy is the impulse's work: ½ (P·v + L·ω) = ½ (4 + 6).
    assert!((body.kinetic_energy() - 5.0).abs() < 1e-12);
}

#[test]
fn summed_momenta_are_the_impulses_applied_one_by_one() {
    // Three impulses at three points, one by one and as ΔP = Σ j, ΔL = Σ (p − x) × j
    // in one call: the same momenta and velocities, on a turned, lopsided body.
    let props = MassProperties::block(Vector3::new(1.0, 2.0, 0.5), 3.0).unwrap();
    let def = RigidBodyDef {
        position: Vector3::new(1.0, 2.0, -1.0),
        orientation: nalgebra::UnitQuaternion::from_euler_angles(0.3, -0.2, 0.7),
        ..RigidBodyDef::of(&props)
    };
    let (mut one_by_one, mut summed) =
        (RigidBody::new(def).unwrap(), RigidBody::new(def).unwrap());
    let hits = [
        (Vector3::new(1.5, 2.0, -1.0), Vector3::new(0.0, 2.0, 0.0)),
        (Vector3::new(1.0, 3.0, -0.8), Vector3::new(-1.0, 0.5, 0.3)),
        (Vector3::new(0.6, 1.9, -1.2), Vector3::new(0.2, -0.7, 1.1)),
    ];
    let (mut dp, mut dl) = (Vector3::zeros(), Vector3::zeros());
    for (p, j) in &hits {
        one_by_one.apply_impulse_at(p, j);
        dp += j;
        dl += (p - def.position).cross(j);
    }
    summed.apply_momentum(&dp, &dl);
    assert!((one_by_one.velocity() - summed.velocity()).norm() < 1e-12);
    assert!(
        (one_by_one.angular_velocity() - summed.angular_velocity()).norm() < 1e-12
    );
}

#[test]
fn a_force_on_a_body_that_does_not_exist_is_refused() {
    let mut system =
        RigidSystem::new(vec![RigidBody::new(RigidBodyDef::default()).unwrap()])
            .unwrap();
    let force = PointForce {
        body: [1],
        point: Vector3::zeros(),
        force: Vector3::x(),
        until: 1.0,
    };
    let err = system.add_force(force).unwrap_err().to_string();
    assert!(err.contains("point force names body 1, but the system has 1"), "{err}");
}

/// The 3-D body restricted to the plane: inertia diag(a, b, I), turned by θ about z,
/// moving in the x–y plane and spinning about z.
fn planar_pair(
    theta: f64,
    v: Vector2<f64>,
    omega: f64,
) -> (RigidSystem, RigidSystem2) {
    let (mass, inertia) = (2.5, 0.7);
    let axis = Vector3::z();
    let body3 = RigidBody::new(RigidBodyDef {
        mass,
        inertia: Matrix3::from_diagonal(&Vector3::new(1.3, 0.4, inertia)),
        position: Vector3::new(0.2, -0.1, 0.0),
        orientation: UnitQuaternion::from_axis_angle(
            &nalgebra::Unit::new_normalize(axis),
            theta,
        ),
        velocity: Vector3::new(v.x, v.y, 0.0),
        angular_velocity: axis * omega,
        representation: Representation::Quaternion,
    })
    .unwrap();
    let body2 = RigidBody2::new(RigidBody2Def {
        mass,
        inertia,
        position: Vector2::new(0.2, -0.1),
        angle: theta,
        velocity: v,
        angular_velocity: omega,
    })
    .unwrap();
    let (point, force) = (Vector2::new(0.4, 0.3), Vector2::new(-1.0, 2.0));
    let mut s3 = RigidSystem::new(vec![body3]).unwrap();
    s3.add_force(Gravity { g: Vector3::new(0.0, -G, 0.0) }).unwrap();
    let f3 = PointForce {
        body: [0],
        point: Vector3::new(point.x, point.y, 0.0),
        force: Vector3::new(force.x, force.y, 0.0),
        until: f64::INFINITY,
    };
    s3.add_force(f3).unwrap();
    let mut s2 = RigidSystem2::new(vec![body2]).unwrap();
    s2.add_force(Gravity2 { g: Vector2::new(0.0, -G) }).unwrap();
    s2.add_force(PointForce2 { body: [0], point, force, until: f64::INFINITY })
        .unwrap();
    (s3, s2)
}

/// The angle of a rotation about z from its quaternion [cos θ/2, 0, 0, sin θ/2].
fn angle_of(body: &RigidBody) -> f64 {
    let Orientation::Quaternion(q) = body.orientation() else {
        panic!("quaternion body")
    };
    2.0 * q[3].atan2(q[0])
}

#[test]
fn the_planar_body_is_the_3d_body_restricted_to_the_plane() {
    // The derivatives agree exactly at random planar states: v, F and τ_z component
    // by component, and θ̇ = ω_z.
    for seed in 0..50u64 {
        let s = |k: u64| sample(10 * seed + k);
        let (mut s3, mut s2) =
            planar_pair(3.0 * s(0), Vector2::new(s(1), s(2)), 4.0 * s(3));
        let (mut d3, mut d2) = (vec![0.0; 13], vec![0.0; 6]);
        s3.derivative(&mut d3).unwrap();
        s2.derivative(&mut d2).unwrap();
        let b3 = &s3.bodies[0];
        assert!((d3[0] - d2[0]).abs() < 1e-15 && (d3[1] - d2[1]).abs() < 1e-15);
        assert!((b3.angular_velocity().z - d2[2]).abs() < 1e-12);
        assert!((d3[7] - d2[3]).abs() < 1e-12 && (d3[8] - d2[4]).abs() < 1e-12);
        assert!((d3[12] - d2[5]).abs() < 1e-12, "torque {} vs {}", d3[12], d2[5]);
        assert!(d3[9].abs() < 1e-15 && d3[10].abs() < 1e-12 && d3[11].abs() < 1e-12);
    }
    // And so do the motions: 2 s of RK4 at 1 ms, pushed and spun by an off-centre
    // force.
    let (mut s3, mut s2) = planar_pair(0.3, Vector2::new(0.5, 1.0), 2.0);
    let (mut rk3, mut rk2) = (RungeKutta::new(RK4), RungeKutta::new(RK4));
    for _ in 0..2000 {
        rk3.step(&mut s3, 1e-3).unwrap();
        s3.renormalize();
        rk2.step(&mut s2, 1e-3).unwrap();
    }
    let (b3, b2) = (&s3.bodies[0], &s2.bodies[0]);
    let x3 = b3.position();
    assert!(
        (Vector2::new(x3.x, x3.y) - b2.position()).norm() < 1e-9,
        "{x3} vs {}",
        b2.position()
    );
    assert!(x3.z.abs() < 1e-12);
    let turn = (angle_of(b3) - b2.angle()).rem_euclid(std::f64::consts::TAU);
    assert!(
        turn.min(std::f64::consts::TAU - turn) < 1e-9,
        "{} vs {}",
        angle_of(b3),
        b2.angle()
    );
    assert!((b3.angular_velocity().z - b2.angular_velocity()).abs() < 1e-9);
    assert!((b3.kinetic_energy() - b2.kinetic_energy()).abs() < 1e-9);
}

#[test]
fn the_winding_number_is_a_half_on_a_face_and_nothing_in_a_face_plane() {
    // The 2 × 1 × 0.5 block centred on the origin: its face x = 1, an edge, a point
    // in the plane of the face y = 0.5 but outside the block, and plain inside and
    // outside points. Each triangle seen edge-on contributes exactly nothing.
    let block = box_mesh(Vector3::new(2.0, 1.0, 0.5)).unwrap();
    let w = |x: f64, y: f64, z: f64| block.winding_number(&Vector3::new(x, y, z));
    assert!((w(0.1, 0.2, 0.1) - 1.0).abs() < 1e-12);
    assert!(w(3.0, 0.2, 0.1).abs() < 1e-12);
    assert!((w(1.0, 0.1, 0.05) - 0.5).abs() < 1e-12, "{}", w(1.0, 0.1, 0.05));
    assert!((w(1.0, 0.5, 0.05) - 0.25).abs() < 1e-12, "{}", w(1.0, 0.5, 0.05));
    assert!(w(3.0, 0.5, 0.1).abs() < 1e-12, "{}", w(3.0, 0.5, 0.1));
    assert!(w(0.3, 0.5, 3.0).abs() < 1e-12, "{}", w(0.3, 0.5, 3.0));
}

#[test]
fn point_sampling_weighs_centres_on_faces_by_half_and_converges_at_second_order() {
    // At n = 33 the L-shape's inner faces x = 1 and y = 1 pass through a layer of
    // cell centres; each counts half (a quarter more on the reflex edge), so the
    // sampled mass is exact and the error follows the even n around it.
    let solids = test_solids().unwrap();
    let (_, l, exact) = &solids[2];
    let odd = MassProperties::point_sampling(l, 1.0, 33).unwrap();
    assert!((odd.mass - 3.0).abs() < 1e-10, "{}", odd.mass);
    let even =
        |n| MassProperties::point_sampling(l, 1.0, n).unwrap().relative_error(exact);
    let e33 = odd.relative_error(exact);
    // No spike: within a factor 1.5 of its even neighbours (measured: 1.04e-3, 8.97e-4,
    // 9.20e-4; with the solid-angle jump left in it was 1.8e-2 at n = 33).
    let (e32, e34) = (even(32), even(34));
    assert!(
        e33 < 1.5 * e32.max(e34) && e33 > e32.min(e34) / 1.5,
        "{e32} {e33} {e34}"
    );
    // The tetrahedron's faces cut the grid obliquely; its error still falls at
    // about second order (fitted slope 1.86 from n = 16 to 128; here 16 to 64).
    let (_, tet, exact) = &solids[1];
    let points: Vec<(f64, f64)> = [16usize, 24, 32, 48, 64]
        .iter()
        .map(|&n| {
            let e = MassProperties::point_sampling(tet, 1.0, n)
                .unwrap()
                .relative_error(exact);
            (n as f64, e)
        })
        .collect();
    let slope = -pbm_ode::convergence::log_log_slope(&points);
    assert!((1.6..2.2).contains(&slope), "{slope}");
}

#[test]
fn rk4_shrinks_a_steady_rotation_by_theta_to_the_sixth_and_the_quaternion_turns_at_half()
 {
    // A body with I = 1 spinning steadily at 3 rad/s about z: ω is constant, so each
    // RK4 step multiplies the turning components by |P(iθ)| = 1 − θ⁶/144 + …, with θ
    // = h|ω| for the matrix's columns and θ = h|ω|/2 for the quaternion. After N
    // steps the x and y columns of R have shrunk by δ = N θ⁶/144 (to first order),
    // so ‖RᵀR − 1‖ = ‖−2δ diag(1, 1, 0)‖ = 2√2 δ; the quaternion's length by N
    // (θ/2)⁶/144. The ratio is 2√2 · 2⁶ ≈ 181, whatever h.
    let (omega, h, steps) = (3.0, 0.02, 2000);
    let drift = |representation| {
        let body = RigidBody::new(RigidBodyDef {
            angular_velocity: Vector3::new(0.0, 0.0, omega),
            representation,
            ..RigidBodyDef::default()
        })
        .unwrap();
        let mut system = RigidSystem::new(vec![body]).unwrap();
        let mut rk4 = RungeKutta::new(RK4);
        for _ in 0..steps {
            rk4.step(&mut system, h).unwrap();
        }
        system.bodies[0].orientation_error()
    };
    let theta = h * omega;
    let delta = steps as f64 * theta.powi(6) / 144.0;
    let matrix = drift(Representation::Matrix);
    let quaternion = drift(Representation::Quaternion);
    assert!((matrix / (2.0 * 2f64.sqrt() * delta) - 1.0).abs() < 0.01, "{matrix:e}");
    assert!((quaternion / (delta / 64.0) - 1.0).abs() < 0.01, "{quaternion:e}");
    let ratio = matrix / quaternion;
    assert!((ratio / (2.0 * 2f64.sqrt() * 64.0) - 1.0).abs() < 0.02, "{ratio}");
}

#[test]
fn notes_errata_velocity_of_a_body_point() {
    // A body point p = R r0 + x moves with ṗ = v + ω × r' (r' = R r0) = v − r'* ω,
    // checked against a finite difference of the rotation exp(ω* t); the notes' C.1
    // form v + r'* ω has the rotational part backwards. Their Figure 4: the tip of r
    // moves on a circle whose radius is |b|, b the part of r across the axis, at
    // speed |ω| |b|.
    let (w, r0, v) = (
        Vector3::new(0.3, -1.1, 0.7),
        Vector3::new(0.4, 0.9, -0.2),
        Vector3::new(0.5, 0.0, -1.0),
    );
    let dt = 1e-6;
    let rotation =
        |t: f64| quat_to_matrix(&quat_from_axis_angle(&w.normalize(), w.norm() * t));
    let point = |t: f64| rotation(t) * r0 + v * t;
    let p_dot = (point(dt) - point(-dt)) / (2.0 * dt);
    assert!((p_dot - (v - star(&r0) * w)).norm() < 1e-9, "{p_dot}");
    assert!((p_dot - (v + star(&r0) * w)).norm() > 1.0);
    let b = r0 - w.normalize() * w.normalize().dot(&r0);
    let tip_speed = (rotation(dt) * r0 - rotation(-dt) * r0).norm() / (2.0 * dt);
    assert!((tip_speed - w.norm() * b.norm()).abs() < 1e-9);
    // The summary's Σ m ṙ × r' is −L.
    let (m, r) = (2.0, Vector3::new(1.0, 0.0, 0.0));
    let r_dot = Vector3::new(0.0, 1.0, 0.0); // rotating about +z
    assert_eq!((r * m).cross(&r_dot), Vector3::new(0.0, 0.0, 2.0));
    assert_eq!((r_dot * m).cross(&r), -Vector3::new(0.0, 0.0, 2.0));
}

#[test]
fn the_flip_grows_at_the_rate_euler_s_equations_predict() {
    // Linearising Euler's equations about a spin Ω about the middle axis gives
    // ε̈ = σ² ε with σ = Ω √((I₁ − I₂)(I₂ − I₃)/(I₁ I₃)): 2.402 s⁻¹ for the 1 × 2 × 3
    // block at 5 rad/s. Started 1e-5 rad/s off the axis, the simulated |ω_x| grows
    // at that rate while it is small (the decaying mode e^{−σt} has died by t = 2 s).
    let (i1, i2, i3, spin): (f64, f64, f64, f64) =
        (13.0 / 12.0, 10.0 / 12.0, 5.0 / 12.0, 5.0);
    let predicted = spin * ((i1 - i2) * (i2 - i3) / (i1 * i3)).sqrt();
    assert!((predicted - 2.402).abs() < 1e-3, "{predicted}");
    let samples = torque_free(
        Vector3::new(1e-5, spin, 1e-5),
        Representation::Quaternion,
        true,
        1e-3,
        4.0,
        10,
    )
    .unwrap();
    let at = |t: f64| {
        let s = samples
            .iter()
            .min_by(|a, b| (a.t - t).abs().total_cmp(&(b.t - t).abs()))
            .unwrap();
        s.body_omega.x.abs()
    };
    let measured = (at(4.0) / at(2.0)).ln() / 2.0;
    assert!((measured / predicted - 1.0).abs() < 0.01, "{measured} vs {predicted}");
}

#[test]
fn a_rotation_matrix_converts_back_to_its_quaternion_at_every_angle() {
    // Random rotations, and the hard cases: the identity, and half-turns about each
    // axis and about a diagonal, where s = 0 and the trace-based formula would divide
    // by zero. q and −q are the same rotation; the conversion returns s ≥ 0.
    let mut cases: Vec<Quat> = (0..200u64)
        .map(|i| {
            Quat::new(
                sample(4 * i),
                sample(4 * i + 1),
                sample(4 * i + 2),
                sample(4 * i + 3),
            )
            .normalize()
        })
        .collect();
    cases.push(Quat::new(1.0, 0.0, 0.0, 0.0));
    for axis in
        [Vector3::x(), Vector3::y(), Vector3::z(), Vector3::new(1.0, 1.0, 1.0)]
    {
        cases.push(quat_from_axis_angle(&axis, std::f64::consts::PI));
        cases.push(quat_from_axis_angle(&axis, std::f64::consts::PI - 1e-9));
    }
    for q in cases {
        let back = quat_from_matrix(&quat_to_matrix(&q));
        let same = if q[0] < 0.0 { -q } else { q };
        // At s = 0 exactly, q and −q both have s = 0: compare up to sign.
        let error = (back - same).norm().min((back + same).norm());
        assert!(error < 1e-14, "{q:?} came back as {back:?}");
        assert!((back.norm() - 1.0).abs() < 1e-15);
    }
}

#[test]
fn principal_axes_diagonalise_the_inertia_and_lie_along_the_l_s_diagonals() {
    let mesh = pbm_rigid::mesh::l_shape().unwrap();
    let props = MassProperties::polyhedron(&mesh, 1.0).unwrap();
    let (moments, axes) = props.principal_axes();
    assert_eq!(moments, props.principal_moments());
    // Aᵀ I A is diag(moments) to rounding, and A is a rotation or a reflection.
    let diagonal = axes.transpose() * props.inertia * axes;
    assert!((diagonal - Matrix3::from_diagonal(&moments)).norm() < 1e-14);
    assert!((axes.transpose() * axes - Matrix3::identity()).norm() < 1e-14);
    // The L is symmetric about x = y: one in-plane axis along (1, 1), one across it,
    // the third along z (the figure l-mass draws the first two).
    let s = std::f64::consts::FRAC_1_SQRT_2;
    let along =
        |k: usize, d: Vector3<f64>| axes.column(k).dot(&d).abs() > 1.0 - 1e-12;
    assert!((0..3).any(|k| along(k, Vector3::new(s, s, 0.0))));
    assert!((0..3).any(|k| along(k, Vector3::new(-s, s, 0.0))));
    assert!((0..3).any(|k| along(k, Vector3::z())));
    // The inner edge of the L, where the faces x = 1 and y = 1 meet, is three
    // quarters inside.
    let w = mesh.winding_number(&Vector3::new(1.0, 1.0, 0.5));
    assert!((w - 0.75).abs() < 1e-12, "{w}");
}

#[test]
fn notes_errata_appendix_a_with_its_stars_and_dots_restored() {
    // Appendix A as transcribed drops stars and dots. Restored, A-19
    // is −(Σ m r′* ṙ′*) ω − (Σ m r′* r′*) ω̇ = τ, A-22 is Σ m ṙ′* r′* ω = 0, and
    // A-24 is İ = −Σ m (ṙ′* r′* + r′* ṙ′*), with ṙ′ = ω × r′. Checked on ten
    // random point masses about their centre of mass, spinning at a random ω.
    let raw: Vec<(f64, Vector3<f64>)> = (0..10u64)
        .map(|i| {
            let s = |k| sample(10 * i + k);
            (1.5 + s(0), Vector3::new(s(1), s(2), s(3)))
        })
        .collect();
    let props = MassProperties::point_masses(&raw).unwrap();
    let arms: Vec<(f64, Vector3<f64>)> =
        raw.iter().map(|(m, r)| (*m, r - props.centre)).collect();
    let (omega, omega_dot) =
        (Vector3::new(0.7, -1.3, 0.4), Vector3::new(0.2, 0.5, -0.9));
    let sum = |f: &dyn Fn(&Vector3<f64>) -> Matrix3<f64>| -> Matrix3<f64> {
        arms.iter().map(|(m, r)| f(r) * *m).sum()
    };
    let r_star_r_dot_star = sum(&|r| star(r) * star(&omega.cross(r)));
    let r_dot_star_r_star = sum(&|r| star(&omega.cross(r)) * star(r));
    let i_now = -sum(&|r| star(r) * star(r));
    assert!((i_now - props.inertia).norm() < 1e-13, "A-20: I = −Σ m r′* r′*");
    // the term added to A-21 is zero.
    assert!((r_dot_star_r_star * omega).norm() < 1e-13);
    // A-24 against a central difference of I(t) = R(t) I Rᵀ(t), R(t) turning at ω.
    let i_dot = -(r_dot_star_r_star + r_star_r_dot_star);
    let h = 1e-5;
    let turned = |t: f64| {
        let r = nalgebra::Rotation3::new(omega * t);
        r.matrix() * props.inertia * r.matrix().transpose()
    };
    let difference = (turned(h) - turned(-h)) / (2.0 * h);
    // Central differences err by h² times the third derivative, |ω|³ |I| ≈ 10.
    assert!((difference - i_dot).norm() < 1e-8, "{}", (difference - i_dot).norm());
    // A-19 is then d(Iω)/dt = İω + Iω̇, the torque, for any ω̇.
    let a19 = -(r_star_r_dot_star * omega) - sum(&|r| star(r) * star(r)) * omega_dot;
    assert!((a19 - (i_dot * omega + props.inertia * omega_dot)).norm() < 1e-13);
}
