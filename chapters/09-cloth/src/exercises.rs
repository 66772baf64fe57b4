//! The chapter's runnable experiments: `pbm run cloth/<id> --set key=value`.

use crate::check::derivative_errors;
use crate::cloth::{Cloth, Material as ClothMaterial};
use crate::energy::Curvature;
use crate::scenes::{SPHERE, Scene, cloth, fan, run};
use crate::strand::{Material, Scaling, cantilever, settle, small_sag};
use pbm_particles::forces::G;
use pbm_prelim::parallel::map_range;
use pbm_prelim::{Exercise, Optional, ParamSpec, Params, PbmError, budget};
use serde_json::{Value, json};

/// Every exercise of the chapter, in reading order.
pub fn all() -> Vec<Exercise> {
    vec![
        Exercise {
            id: "hair-discretization",
            summary: "a clamped strand's sag at 10 to 80 segments, with spring constants per unit length and without",
            params: vec![
                ParamSpec::float(
                    "bend",
                    "bending stiffness B (N m²)",
                    1e-3,
                    2e-4,
                    1e-1,
                ),
                ParamSpec::int(
                    "fixed_at",
                    "segments whose spring constants the unscaled strand keeps",
                    10,
                    2,
                    80,
                ),
            ],
            run: hair_discretization,
            optional: &[],
        },
        Exercise {
            id: "gradient-check",
            summary: "every cloth energy's gradient and Hessian against central differences",
            params: vec![ParamSpec::int(
                "samples",
                "random shapes (each a stretch, a shear and a bend)",
                200,
                1,
                5000,
            )],
            run: gradient_check,
            optional: &[],
        },
        Exercise {
            id: "drape",
            summary: "a square cloth over a sphere, or a curtain, at frame-size implicit steps; explicit at the same h",
            params: vec![
                ParamSpec::choice("scene", "which cloth", Scene::Drape),
                ParamSpec::int("n", "particles along a side", 16, 3, 64),
                ParamSpec::float(
                    "stretch",
                    "stretch stiffness (N/m)",
                    1000.0,
                    1.0,
                    1e5,
                ),
                ParamSpec::float("shear", "shear stiffness (N/m)", 100.0, 0.0, 1e5),
                ParamSpec::float("bend", "bending stiffness (N m)", 1e-4, 0.0, 1.0),
                ParamSpec::float("h", "step size (s)", 1.0 / 30.0, 1e-3, 0.1),
                ParamSpec::float("t_end", "simulated time (s)", 10.0, 0.0, 20.0),
                ParamSpec::choice(
                    "curvature",
                    "Hessian given to the solve",
                    Curvature::Projected,
                ),
                ParamSpec::float(
                    "tolerance",
                    "CG relative residual",
                    1e-6,
                    1e-10,
                    1e-2,
                ),
            ],
            run: drape,
            optional: &[
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
            ],
        },
        Exercise {
            id: "over-constraint",
            summary: "a fan of triangles whose rest shapes cannot all hold at once: the stress left at rest",
            params: vec![
                ParamSpec::int("triangles", "triangles around the centre", 4, 3, 24),
                ParamSpec::float(
                    "deficit_deg",
                    "angle missing from the pattern around the centre (degrees)",
                    30.0,
                    0.0,
                    120.0,
                ),
                ParamSpec::float("bend", "bending stiffness (N m)", 1e-4, 0.0, 1.0),
            ],
            run: over_constraint,
            optional: &[],
        },
    ]
}

/// The strand of the page: 20 cm of 5 g/m, stretch stiffness 100 N.
fn strand(bend: f64) -> Material {
    Material { length: 0.2, density: 0.005, stretch: 100.0, bend }
}

/// The resolutions the strand is sampled at.
pub const SEGMENTS: [usize; 4] = [10, 20, 40, 80];

/// The sag of the tip (m) of `material` at `segments` segments.
pub fn sag(
    material: &Material,
    segments: usize,
    scaling: Scaling,
) -> Result<f64, PbmError> {
    let mut model = cantilever(material, segments, scaling, G)?;
    Ok(-settle(&mut model)?.y)
}

fn hair_discretization(p: &Params) -> Result<Value, PbmError> {
    let material = strand(p.f64("bend")?);
    let fixed = p.usize("fixed_at")?;
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
    Ok(json!({
        "bend": material.bend,
        "fixed_at": fixed,
        "rows": rows,
        "richardson_limit_m": limit,
        "beam_formula_m": small_sag(&material, G),
    }))
}

fn gradient_check(p: &Params) -> Result<Value, PbmError> {
    let samples = p.usize("samples")?;
    let errors = derivative_errors(samples)?;
    Ok(json!({
        "samples": samples,
        "conditions_checked": 3 * samples,
        "max_gradient_error": errors.gradient,
        "max_hessian_error": errors.hessian,
    }))
}

fn drape(p: &Params) -> Result<Value, PbmError> {
    let scene: Scene = p.choice("scene")?;
    let n = p.usize("n")?;
    let (h, t_end) = (p.f64("h")?, p.f64("t_end")?);
    let material = ClothMaterial {
        stretch: p.f64("stretch")?,
        shear: p.f64("shear")?,
        bend: p.f64("bend")?,
        ..ClothMaterial::COTTON
    };
    let curvature: Curvature = p.choice("curvature")?;
    // Measured at n = 16: a step costs its assembly (about 260 CG iterations' worth
    // per particle, mostly the projected Hessians) plus the CG iterations, about
    // 15 n at h = 1/30 s and the default stiffness, fewer at smaller steps
    // (61 at h = 1/187 s, about as (30 h)^¾), each costing n² work. The default is
    // 3.8e7 of it, 4.5 s; the limit, 5e7, about 6 s.
    let steps = budget::steps(t_end, h).max(1.0);
    let stiff = (material.stretch / 1000.0).max(1.0).sqrt();
    let iterations = 15.0 * n as f64 * stiff * (30.0 * h).powf(0.75);
    let work = steps * (n * n) as f64 * (260.0 + iterations);
    budget::within(work, 5e7, "particle-iterations", "lower n or t_end, or raise h")?;
    let mut model = cloth(scene, n, material)?;
    model.curvature = curvature;
    let (stretch, shear, bend) = model.condition_counts();
    let model_conditions = stretch + shear + bend;
    model.cg_tolerance = p.f64("tolerance")?;
    let explicit = run(model.clone(), h, steps as usize, true, usize::MAX, |_| {})?;
    let implicit = run(model, h, steps as usize, false, usize::MAX, |_| {})?;
    let iterations = &implicit.cg_iterations;
    let mean =
        iterations.iter().sum::<usize>() as f64 / iterations.len().max(1) as f64;
    let end = implicit.cloth.energies()?;
    Ok(json!({
        "scene": pbm_prelim::Choice::word(scene),
        "n": n,
        "h": h,
        "steps": implicit.steps,
        "stable": implicit.stable,
        "failure": implicit.failure,
        "ms_per_step": implicit.ms_per_step,
        "mean_cg_iterations": mean,
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

fn over_constraint(p: &Params) -> Result<Value, PbmError> {
    let m = p.usize("triangles")?;
    let deficit = p.f64("deficit_deg")?;
    let material = ClothMaterial { bend: p.f64("bend")?, ..ClothMaterial::COTTON };
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
    let e = settled.cloth.energies()?;
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
