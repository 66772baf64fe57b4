//! The chapter's runnable experiments: `pbm run cloth/<id> --set key=value`.

use crate::check::derivative_errors;
use crate::cloth::{Cloth, Material as ClothMaterial};
use crate::energy::Curvature;
use crate::scenes::{
    Bending, SEGMENTS, SPHERE, Scene, SolidKind, bend_ratio, cloth, fan, napkin,
    on_solid, run,
};
use crate::strand::{
    Material, Scaling, cantilever, settle, small_sag, space_joint_hessian,
};
use nalgebra::Vector3;
use pbm_particles::forces::G;
use pbm_prelim::parallel::map_range;
use pbm_prelim::{Exercise, Optional, PbmError, budget, params};
use serde_json::{Value, json};

/// Every exercise of the chapter, in reading order.
pub fn all() -> Vec<Exercise> {
    vec![
        Exercise::new(
            "hair-discretization",
            "a clamped strand's sag at 10 to 80 segments, with spring constants per unit length and without",
            hair_discretization,
        ),
        Exercise::new(
            "space-joint",
            "the Hessian of a joint's ½k(θ − θ₀)² in 3-D near straight, by central differences: bounded for a straight rest, growing like θ₀/θ for a bent one",
            space_joint,
        ),
        Exercise::new(
            "gradient-check",
            "every cloth energy's gradient and Hessian against central differences",
            gradient_check,
        ),
        Exercise::new(
            "bend-directions",
            "the hinges' bend energy against the continuum's ½k|II|² for one grid bent four ways: along a thread, as a saddle, on the bias, twisted",
            bend_directions,
        ),
        Exercise::new(
            "drape",
            "a square cloth over a sphere, or a curtain, at frame-size implicit steps; explicit at the same h",
            drape,
        )
        .heavy()
        .limit(
            (
                "n² × (2,300 + Σ over steps (540 + I)) + 1,000 × steps, with I = 15 n max(1, stretch / 1000 N/m)^0.4 √(30 h / s) for the first 6 s and I / 4 after",
                "particle-iterations",
            ),
            (CLOTH_WORK, "lower n or t_end, or raise h"),
            drape_work,
        )
        // A finer or finer-stepped cloth runs for a shorter time: the pages run
        // n = 32 for half a second and h = 0.01 for 3 s.
        .joint(&["n", "h"])
        .optional(&[
                Optional {
                    field: "failure",
                    null_when: "every implicit step succeeded",
                },
                Optional {
                    field: "max_penetration_mm",
                    null_when: "the scene has no sphere (curtain)",
                },
                Optional {
                    field: "indefinite_fraction",
                    null_when: "the Hessian is not projected (only projecting looks at eigenvalues)",
                },
                Optional {
                    field: "explicit_diverged_at_step",
                    null_when: "symplectic Euler at the same h stayed finite",
                },
                Optional {
                    field: "sphere_radius_m",
                    null_when: "if the scene has no sphere (curtain)",
                },
            ]),
        Exercise::new(
            "contact",
            "the drape's square dropped on a sphere or a box, held on its surface by constraints inside CG (Baraff and Witkin's filter)",
            contact,
        )
        .heavy()
        .limit(
            (
                "n² × (2,300 + Σ over steps (540 + I)) + 1,000 × steps, with I = 15 n √(30 h / s) for the first 6 s and I / 4 after",
                "particle-iterations",
            ),
            (CLOTH_WORK, "lower n or t_end, or raise h"),
            |p: &ContactParams| {
                let iterations = cloth_iterations(p.n, 1000.0, p.h);
                cloth_work(p.n, p.t_end, p.h, iterations)
            },
        )
        .optional(&[Optional {
            field: "failure",
            null_when: "every step succeeded",
        }]),
        Exercise::new(
            "self-contact",
            "a napkin's flap falling shut onto its glued half: vertex–triangle pairs found by chapter 7's tree, pushed apart inside the implicit step, or only watched",
            self_contact,
        )
        .limit(
            (
                "steps × n² × (5 + 3 n) max(1, (30 h / s)^0.75), in µs of one step's work per particle",
                "particle-µs",
            ),
            (FOLD_WORK, "lower n or t_end, or raise h"),
            fold_work,
        )
        .optional(&[
            Optional {
                field: "failure",
                null_when: "every step succeeded",
            },
            Optional {
                field: "min_self_distance_m",
                null_when: "no vertex ever stood over a triangle within reach",
            },
        ]),
        Exercise::new(
            "over-constraint",
            "a fan of triangles whose rest shapes cannot all hold at once: the stress left at rest",
            over_constraint,
        ),
    ]
}

/// The strand of the page: 20 cm of 5 g/m, stretch stiffness 100 N.
fn strand(bend: f64) -> Material {
    Material { length: 0.2, density: 0.005, stretch: 100.0, bend }
}

/// The sag of the tip (m) of `material` at `segments` segments.
pub fn sag(
    material: &Material,
    segments: usize,
    scaling: Scaling,
) -> Result<f64, PbmError> {
    let mut model = cantilever(material, segments, scaling, G)?;
    Ok(-settle(&mut model)?.y)
}

params! {
    /// `cloth/hair-discretization`.
    pub struct HairDiscretizationParams {
        bend: f64 = float("bending stiffness B", "N m²", 1e-3, 2e-4, 1e-1),
        fixed_at: usize = int(
            "segments whose spring constants the unscaled strand keeps", 10, 2, 80,
        ),
    }
}

fn hair_discretization(p: HairDiscretizationParams) -> Result<Value, PbmError> {
    let material = strand(p.bend);
    let fixed = p.fixed_at;
    let cases: Vec<(usize, Scaling)> = SEGMENTS
        .iter()
        .flat_map(|&s| [(s, Scaling::PerLength), (s, Scaling::FixedAt(fixed))])
        .collect();
    let sags = map_range(cases.len(), |i| sag(&material, cases[i].0, cases[i].1))
        .into_iter()
        .collect::<Result<Vec<f64>, _>>()?;
    let rows: Vec<Value> = cases
        .iter()
        .zip(&sags)
        .map(|((segments, scaling), sag)| {
            let word = match scaling {
                Scaling::PerLength => "per-length",
                Scaling::FixedAt(_) => "fixed",
            };
            json!({"segments": segments, "scaling": word, "sag_m": sag})
        })
        .collect();
    // The per-length sags at 40 and 80 segments (entries 4 and 6): Richardson's
    // limit of a first-order sequence.
    let limit = 2.0 * sags[6] - sags[4];
    // How much the per-length sag grows at each doubling (10 → 20, 20 → 40,
    // 40 → 80 segments): each about half the last for a first-order error.
    let rises: Vec<f64> = [0, 2, 4].iter().map(|&i| sags[i + 2] - sags[i]).collect();
    Ok(json!({
        "bend": material.bend,
        "fixed_at": fixed,
        "rows": rows,
        "richardson_limit_m": limit,
        "beam_formula_m": small_sag(&material, G),
        "per_length_rises_m": rises,
    }))
}

params! {
    /// `cloth/space-joint`.
    pub struct SpaceJointParams {
        rest: f64 = float("the joint's rest angle θ₀", "rad", 0.3, 0.0, 3.0),
    }
}

/// The joint angles the Hessian is looked at (rad), each a tenth of the last.
const NEAR_STRAIGHT: [f64; 3] = [1e-1, 1e-2, 1e-3];

fn space_joint(p: SpaceJointParams) -> Result<Value, PbmError> {
    let rows: Vec<Value> = NEAR_STRAIGHT
        .iter()
        .map(|&theta| {
            // Unit segments, bent by θ in the x–y plane; coordinate 8 moves the last
            // particle out of that plane.
            let x = [
                Vector3::new(-1.0, 0.0, 0.0),
                Vector3::zeros(),
                Vector3::new(theta.cos(), theta.sin(), 0.0),
            ];
            let h = space_joint_hessian(&x, p.rest, 1e-2 * theta);
            let matrix = nalgebra::SMatrix::<f64, 9, 9>::from_fn(|i, j| h[i][j]);
            let lowest = matrix.symmetric_eigen().eigenvalues.min();
            let largest = h.iter().flatten().fold(0.0_f64, |m, v| m.max(v.abs()));
            json!({
                "theta": theta,
                "out_of_plane": h[8][8],
                "out_of_plane_formula": (theta - p.rest) / theta.tan(),
                "largest_entry": largest,
                "lowest_eigenvalue": lowest,
            })
        })
        .collect();
    Ok(json!({"rest": p.rest, "k_n_m": 1.0, "segment_m": 1.0, "rows": rows}))
}

params! {
    /// `cloth/gradient-check`.
    pub struct GradientCheckParams {
        samples: usize = int(
            "random shapes (each a stretch, a shear and a bend)", 200, 1, 5000,
        ),
    }
}

fn gradient_check(p: GradientCheckParams) -> Result<Value, PbmError> {
    let samples = p.samples;
    let errors = derivative_errors(samples)?;
    Ok(json!({
        "samples": samples,
        "conditions_checked": 3 * samples,
        "max_gradient_error": errors.gradient,
        "max_hessian_error": errors.hessian,
    }))
}

params! {
    /// `cloth/bend-directions`.
    pub struct BendDirectionsParams {
        n: usize = int("particles along a side", 33, 9, 513),
        curvature: f64 = float("curvature κ of each bend", "1/m", 0.01, 1e-3, 3.0),
    }
}

fn bend_directions(p: BendDirectionsParams) -> Result<Value, PbmError> {
    let ratio = |b: Bending| bend_ratio(b, p.n, p.curvature);
    let [thread, saddle, bias, twist] = Bending::ALL.map(ratio);
    let (thread, saddle, bias, twist) = (thread?, saddle?, bias?, twist?);
    Ok(json!({
        "n": p.n,
        "curvature": p.curvature,
        // The old name of `curvature`, kept for one release for readers' scripts.
        "curvature_per_m": p.curvature,
        "cylinder_along_thread": thread,
        "saddle_along_threads": saddle,
        "cylinder_on_bias": bias,
        "twist": twist,
        "bias_over_thread": bias / thread,
        "twist_over_saddle": twist / saddle,
    }))
}

params! {
    /// `cloth/drape`.
    pub struct DrapeParams {
        scene: Scene = choice("which cloth", Scene::Drape),
        n: usize = int("particles along a side", 16, 3, 64).label("particles per side"),
        // Stiffer threads take more CG iterations (as k^0.4): at the other defaults
        // the limit admits up to about 4,560 N/m.
        stretch: f64 = float("stretch stiffness", "N/m", 1000.0, 1.0, 4500.0),
        shear: f64 = float("shear stiffness", "N/m", 100.0, 0.0, 1e5),
        bend: f64 = float("bending stiffness", "N m", 1e-4, 0.0, 1.0),
        h: f64 = step(1.0 / 30.0, 1e-3, 0.1),
        // The limit's 6 s of falling and then some settling at the defaults.
        t_end: f64 = duration(8.0, 0.0, 10.0).from_zero(),
        curvature: Curvature = choice(
            "Hessian given to the solve", Curvature::Projected,
        ),
        tolerance: f64 = float("CG relative residual", "", 1e-6, 1e-10, 1e-2),
    }
}

/// Measured at one thread, in units of one CG iteration on one particle (about
/// 0.04 µs): a step costs its assembly, about 470 units per particle (each
/// condition's Hessian, projected by an eigensolve), the drape's explicit run at
/// the same h up to 70 more, 1,000 units whatever the size, and the CG
/// iterations: while the cloth falls and folds, up to about 15 n at h = 1/30 s and
/// the default stiffness, more for stiffer threads (as k^0.4) and fewer at smaller
/// steps (as √(30 h)); after the first 6 s, as it settles, a quarter of that.
/// Building the cloth and its first matrix costs about 2,300 units per particle.
/// The defaults (8 s: the drape is at rest from about 6 s) come to 4.6e7 units and
/// run in 1.5–1.7 s; the least favourable shapes at the limit (n = 24 at
/// h = 1/30 s; n = 3 at h = 1 ms) in 2.2 s and 1.5 s.
const CLOTH_WORK: f64 = 5.6e7;

/// The CG iterations a step may take at most while the cloth moves, about (see
/// [`CLOTH_WORK`]).
fn cloth_iterations(n: usize, stretch: f64, h: f64) -> f64 {
    15.0 * n as f64 * (stretch / 1000.0).max(1.0).powf(0.4) * (30.0 * h).sqrt()
}

/// A cloth run's work in [`CLOTH_WORK`]'s units.
fn cloth_work(n: usize, t_end: f64, h: f64, iterations: f64) -> f64 {
    let steps = budget::steps(t_end, h);
    let moving = steps.min((6.0 / h).ceil());
    let per_particle =
        steps * 540.0 + (moving + 0.25 * (steps - moving)) * iterations;
    (n * n) as f64 * (2300.0 + per_particle) + 1000.0 * steps
}

fn drape_work(p: &DrapeParams) -> f64 {
    cloth_work(p.n, p.t_end, p.h, cloth_iterations(p.n, p.stretch, p.h))
}

fn drape(p: DrapeParams) -> Result<Value, PbmError> {
    let scene: Scene = p.scene;
    let n = p.n;
    let (h, t_end) = (p.h, p.t_end);
    let material = ClothMaterial {
        stretch: p.stretch,
        shear: p.shear,
        bend: p.bend,
        ..ClothMaterial::COTTON
    };
    let curvature: Curvature = p.curvature;
    let steps = budget::steps(t_end, h);
    let mut model = cloth(scene, n, material)?;
    model.curvature = curvature;
    let mass_kg: f64 = model.mass.iter().sum();
    let (stretch, shear, bend) = model.condition_counts();
    let model_conditions = stretch + shear + bend;
    model.cg_tolerance = p.tolerance;
    let h2k_over_m = stiffness_over_mass(model.clone(), h)?;
    let explicit = run(model.clone(), h, steps as usize, true, usize::MAX, |_| {})?;
    let implicit = run(model, h, steps as usize, false, usize::MAX, |_| {})?;
    let iterations = &implicit.cg_iterations;
    let end = implicit.end_energies()?;
    Ok(json!({
        "scene": pbm_prelim::Choice::word(scene),
        "n": n,
        "h": h,
        "steps": implicit.steps,
        "stable": implicit.stable,
        "failure": implicit.failure,
        "ms_per_step": implicit.ms_per_step,
        "mean_cg_iterations": mean(iterations),
        "cg_iterations_at_rest": mean(last_second(iterations, h)),
        "max_cg_iterations": iterations.iter().max(),
        "indefinite_fraction": (curvature == Curvature::Projected).then(|| {
            implicit.indefinite as f64 / (steps * model_conditions as f64).max(1.0)
        }),
        "max_penetration_mm": penetration(&implicit.cloth, scene).map(|d| d * 1e3),
        "lowest_z_m": implicit.cloth.x.iter().map(|x| x.z).fold(f64::INFINITY, f64::min),
        "energy_at_end_j": {
            "stretch": end.stretch, "shear": end.shear, "bend": end.bend,
            "kinetic": end.kinetic,
        },
        "explicit_diverged_at_step": (!explicit.stable).then_some(explicit.steps),
        "h2k_over_m": h2k_over_m,
        "mass_kg": mass_kg,
        "sphere_radius_m": (scene == Scene::Drape).then_some(SPHERE.radius),
        "condition_damping_s": material.damping,
    }))
}

/// h²k/m of `model` as it starts: the largest eigenvalue of M⁻¹(A − M), with A the
/// matrix of its first backward Euler step (M, plus h times the damping, plus h²
/// times the stiffness), by power iteration over the free particles. For one
/// particle of mass m on a spring of stiffness k it is h²k/m (and h k_d/m); the
/// matrix CG solves has a condition number of about one more.
pub fn stiffness_over_mass(mut model: Cloth, h: f64) -> Result<f64, PbmError> {
    model.assemble(h)?;
    let free: Vec<bool> = model.pinned.iter().map(|&pinned| !pinned).collect();
    let len = 3 * model.len();
    // Every free coordinate at once, unevenly, so that no mode starts at zero.
    let mut x: Vec<f64> = (0..len)
        .map(|k| if free[k / 3] { 1.0 + (k % 7) as f64 } else { 0.0 })
        .collect();
    let mut y = vec![0.0; len];
    let mut lambda = 0.0;
    for _ in 0..300 {
        let norm = x.iter().map(|v| v * v).sum::<f64>().sqrt();
        if norm == 0.0 {
            return Ok(0.0);
        }
        x.iter_mut().for_each(|v| *v /= norm);
        model.system_matrix().mul_vec(&x, &mut y);
        for (k, (yk, xk)) in y.iter_mut().zip(&x).enumerate() {
            *yk = if free[k / 3] { *yk / model.mass[k / 3] - xk } else { 0.0 };
        }
        lambda = y.iter().map(|v| v * v).sum::<f64>().sqrt();
        std::mem::swap(&mut x, &mut y);
    }
    Ok(lambda)
}

/// The mean of a run's per-step counts (0 for none).
fn mean(counts: &[usize]) -> f64 {
    counts.iter().sum::<usize>() as f64 / counts.len().max(1) as f64
}

/// The mean of a run's per-step counts over each simulated second (the last one
/// perhaps shorter).
fn each_second(counts: &[usize], h: f64) -> Vec<f64> {
    let steps = ((1.0 / h).round() as usize).max(1);
    counts.chunks(steps).map(mean).collect()
}

/// The steps of the last simulated second (all of them in a shorter run).
fn last_second(counts: &[usize], h: f64) -> &[usize] {
    let steps = ((1.0 / h).round() as usize).clamp(1, counts.len().max(1));
    &counts[counts.len().saturating_sub(steps)..]
}

params! {
    /// `cloth/contact`.
    pub struct ContactParams {
        solid: SolidKind = choice("what the cloth falls on", SolidKind::Sphere),
        // What the limit admits for the default 8 s (the drape, which the pages run
        // finer and at smaller steps for shorter times, marks these joint instead).
        n: usize = int("particles along a side", 16, 3, 17),
        friction: f64 = float(
            "friction k_f: tangential drag per newton pressing",
            "s/m",
            1000.0,
            0.0,
            1e5,
        ),
        h: f64 = step(1.0 / 30.0, 0.03, 0.1),
        t_end: f64 = duration(8.0, 0.0, 10.0).from_zero(),
    }
}

fn contact(p: ContactParams) -> Result<Value, PbmError> {
    // The drape's cost, without its explicit run: see `drape_work`.
    let steps = budget::steps(p.t_end, p.h);
    let model = on_solid(p.solid, p.n, ClothMaterial::COTTON, p.friction)?;
    let r = run(model, p.h, steps as usize, false, usize::MAX, |_| {})?;
    let end = r.end_energies()?;
    Ok(json!({
        "solid": pbm_prelim::Choice::word(p.solid),
        "n": p.n,
        "friction_s_per_m": p.friction,
        "h": p.h,
        "steps": r.steps,
        "stable": r.stable,
        "failure": r.failure,
        "ms_per_step": r.ms_per_step,
        "mean_cg_iterations": mean(&r.cg_iterations),
        "cg_iterations_at_rest": mean(last_second(&r.cg_iterations, p.h)),
        "cg_iterations_each_second": each_second(&r.cg_iterations, p.h),
        "held_at_end": r.held.last().copied().unwrap_or(0),
        "most_held": r.held.iter().max().copied().unwrap_or(0),
        "particles": r.cloth.len(),
        "deepest_inside_mm": 1e3 * r.deepest,
        "lowest_z_m": r.cloth.x.iter().map(|x| x.z).fold(f64::INFINITY, f64::min),
        "kinetic_energy_at_end_j": end.kinetic,
    }))
}

/// How deep the deepest particle is inside the sphere (m), for the drape.
pub fn penetration(cloth: &Cloth, scene: Scene) -> Option<f64> {
    (scene == Scene::Drape).then(|| {
        cloth
            .x
            .iter()
            .map(|x| SPHERE.radius - (x - SPHERE.center).norm())
            .fold(0.0, f64::max)
    })
}

params! {
    /// `cloth/self-contact`.
    pub struct SelfContactParams {
        n: usize = int("particles along a side", 16, 4, 24),
        opening_deg: f64 = float(
            "how far the flap is opened at the start", "degrees", 10.0, 1.0, 60.0,
        ),
        thickness: f64 = float(
            "contact thickness τ: layers closer than this push apart",
            "m",
            0.01,
            0.001,
            0.05,
        ),
        stiffness: f64 = float("penalty stiffness k", "N/m", 100.0, 1.0, 1e5),
        respond: bool = boolean(
            "push the pairs apart (false: only watch them)", true,
        ),
        h: f64 = step(1.0 / 30.0, 1e-3, 0.1),
        t_end: f64 = duration(2.0, 0.0, 6.0).from_zero(),
    }
}

/// Measured at one thread: a step of the folded napkin costs up to
/// (5 + 3 n) µs per particle at h ≤ 1/30 s (the cloth's assembly and CG, the
/// tree, and the rounds that settle which pairs are in the solve; the most for a
/// flap opened wide, whose landing takes the most CG iterations), and more at
/// larger steps, as (30 h)^0.75. The defaults (16 × 16, 2 s at 1/30 s) come to
/// 8.1e5 µs and run in 0.4 s; at the limit the least favourable runs, with the
/// flap opened 60°, take 2.0 s (n = 32 at 1/30 s for 0.8 s) and about 2.1 s
/// (n = 24 at h = 0.1 s for 2.4 s; 2.6 s measured for 3 s).
const FOLD_WORK: f64 = 2.5e6;

fn fold_work(p: &SelfContactParams) -> f64 {
    let (n, steps) = (p.n as f64, budget::steps(p.t_end, p.h));
    steps * n * n * (5.0 + 3.0 * n) * (30.0 * p.h).powf(0.75).max(1.0)
}

fn self_contact(p: SelfContactParams) -> Result<Value, PbmError> {
    let contact = (p.thickness, p.stiffness);
    let model = napkin(p.n, p.opening_deg.to_radians(), contact, p.respond)?;
    let flap: Vec<bool> = model.pinned.iter().map(|&glued| !glued).collect();
    let lowest = |c: &Cloth| -> f64 {
        let z = c.x.iter().zip(&flap).filter(|(_, f)| **f).map(|(x, _)| x.z);
        z.fold(f64::INFINITY, f64::min)
    };
    let (mut lowest_flap, mut fastest) = (lowest(&model), 0.0_f64);
    let steps = budget::steps(p.t_end, p.h) as usize;
    let r = run(model, p.h, steps, false, 1, |c| {
        lowest_flap = lowest_flap.min(lowest(c));
        fastest = c.v.iter().map(|v| v.norm()).fold(fastest, f64::max);
    })?;
    let contact = r.cloth.self_contact.as_ref();
    let end = r.end_energies()?;
    Ok(json!({
        "n": p.n,
        "opening_deg": p.opening_deg,
        "thickness": p.thickness,
        "stiffness": p.stiffness,
        // The old names of `thickness` and `stiffness`, kept for one release for
        // readers' scripts.
        "thickness_m": p.thickness,
        "stiffness_n_per_m": p.stiffness,
        "respond": p.respond,
        "h": p.h,
        "steps": r.steps,
        "stable": r.stable,
        "failure": r.failure,
        "ms_per_step": r.ms_per_step,
        "min_self_distance_m": contact.and_then(|c| c.closest),
        "lowest_flap_z_m": lowest_flap,
        "max_step_travel_m": fastest * p.h,
        "most_pairs": r.pairs.iter().max().copied().unwrap_or(0),
        "mean_cg_iterations": mean(&r.cg_iterations),
        "kinetic_energy_at_end_j": end.kinetic,
    }))
}

params! {
    /// `cloth/over-constraint`.
    pub struct OverConstraintParams {
        triangles: usize = int("triangles around the centre", 4, 3, 24),
        deficit_deg: f64 = float(
            "angle missing from the pattern around the centre",
            "degrees",
            30.0,
            0.0,
            120.0,
        ),
        bend: f64 = float("bending stiffness", "N m", 1e-4, 0.0, 1.0),
    }
}

fn over_constraint(p: OverConstraintParams) -> Result<Value, PbmError> {
    let m = p.triangles;
    let deficit = p.deficit_deg;
    let material = ClothMaterial { bend: p.bend, ..ClothMaterial::COTTON };
    let model = fan(m, deficit.to_radians(), material)?;
    let (stretch, shear, bend) = model.condition_counts();
    // Rest conditions as the slides count them: a length for every edge, an angle
    // at every triangle corner and at every interior edge.
    let edges = 2 * m;
    let angles = 3 * m + m;
    let settled = run(model, 0.05, 400, false, usize::MAX, |_| {})?;
    if let Some(why) = settled.failure {
        return Err(PbmError::degenerate("fan at rest", why));
    }
    let e = settled.end_energies()?;
    Ok(json!({
        "triangles": m,
        "deficit_deg": deficit,
        "rest_lengths": edges,
        "rest_angles": angles,
        "constraints": edges + angles,
        "degrees_of_freedom": 3 * (m + 1),
        "conditions_in_model": {"stretch_rows": 2 * stretch, "shear": shear, "bend": bend},
        "energy_at_rest_j": {"stretch": e.stretch, "shear": e.shear, "bend": e.bend},
        "centre_rise_mm": 1e3 * (settled.cloth.x[0].z
            - settled.cloth.x[1..].iter().map(|x| x.z).sum::<f64>() / m as f64),
        "kinetic_energy_at_end_j": e.kinetic,
    }))
}
