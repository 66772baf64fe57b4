//! The chapter's runnable experiments: `pbm run solvers/<id> --set key=value`.

use crate::bench::{Outcome, run};
use crate::scenes::Scene;
use crate::soft::Softness;
use crate::solvers::SolverKind;
use crate::world::Settings;
use pbm_prelim::{Choice, Exercise, PbmError, params};
use serde_json::{Value, json};

/// Every exercise of the chapter, in reading order.
pub fn all() -> Vec<Exercise> {
    vec![
        Exercise::new(
            "softness",
            "a soft contact's three coefficients from its frequency and damping ratio, against implicit Euler of the spring",
            softness,
        ),
        Exercise::new(
            "pyramid",
            "a pyramid of boxes placed touching, under one solver: does its top stay where it was put?",
            pyramid,
        )
        .limit(
            WORK,
            (MAX_WORK, "lower base, t_end or iterations"),
            |p: &PyramidParams| {
                let passes = passes(p.solver, p.iterations, p.relax);
                work(p.base * (p.base + 1) / 2, p.t_end, passes)
            },
        ),
        Exercise::new(
            "bench",
            "every scene of the bench under every solver: penetration, drift, energy gained, whether it stands, cost",
            bench,
        )
        .limit(WORK, (BENCH_MAX_WORK, "lower base, t_end or iterations"), |p: &BenchParams| {
            // Every solver runs every scene: four pyramids of the base (the pyramid
            // and the heavy tops' three), the net of (2 base)² knots, and about a
            // hundred bodies besides.
            let boxes = 4 * p.base * (p.base + 1) / 2 + 4 * p.base * p.base + 100;
            let most = SolverKind::ALL.iter().map(|&s| passes(s, count(p, s), p.relax));
            SolverKind::ALL.len() as f64 * work(boxes, p.t_end, most.fold(0, usize::max))
        }),
    ]
}

/// What a run costs: bodies × steps × (14 + passes over the contacts per step), the
/// 14 standing for the detection and the step's other work per body, measured as
/// a share of one pass.
const WORK: (&str, &str) = ("boxes × steps × (14 + passes)", "box-passes");

/// The most work a run may take: about 2.5 s on one core of the book's machine.
const MAX_WORK: f64 = 2e7;

/// The most the bench may take: measured in release on one thread of the book's
/// machine at 74 ns a box-pass at the defaults (1.3 s), 78 with 16 iterations and
/// 105 with base = 20 (6.4 s), so about 2.7 s at the limit; the ranges below reach it
/// with the others at their defaults.
const BENCH_MAX_WORK: f64 = 2.6e7;

fn work(boxes: usize, t_end: f64, passes: usize) -> f64 {
    boxes as f64
        * (t_end / Settings::default().h).ceil().max(1.0)
        * (14 + passes) as f64
}

/// Passes over the contacts a step of `solver` makes.
fn passes(solver: SolverKind, iterations: usize, relax: usize) -> usize {
    if solver == SolverKind::Xpbd {
        // A position pass and a velocity pass per substep.
        2 * iterations
    } else if solver.substeps() {
        iterations * (1 + usize::from(relax > 0))
    } else {
        iterations + relax
    }
}

params! {
    /// `solvers/softness`.
    pub struct SoftnessParams {
        hertz: f64 = float("contact frequency", "Hz", 30.0, 0.01, 1000.0),
        zeta: f64 = float("damping ratio ζ", "", 10.0, 0.0, 100.0).label("damping ratio ζ"),
        // From a microsecond: a step of a few subnormal seconds overflows ω/(2ζ + hω).
        h: f64 = step(1.0 / 240.0, 1e-6, 0.1),
    }
}

fn softness(p: SoftnessParams) -> Result<Value, PbmError> {
    let soft = Softness::new(p.hertz, p.zeta, p.h)?;
    // A 1 kg mass on the same spring and damper, 1 cm deep and closing at 1 m/s:
    // the soft update's velocity against implicit Euler solved directly.
    let (m, c0, v1) = (1.0, -0.01, -1.0);
    let omega = 2.0 * std::f64::consts::PI * p.hertz;
    let (k, c) = (m * omega * omega, 2.0 * m * p.zeta * omega);
    let implicit = (m * v1 - p.h * k * c0) / (m + p.h * c + p.h * p.h * k);
    let soft_velocity = v1 + soft.impulse(m, v1, c0, 0.0) / m;
    Ok(json!({
        "hertz": p.hertz,
        "zeta": p.zeta,
        "h": p.h,
        "bias_rate_per_s": soft.bias_rate,
        "mass_scale": soft.mass_scale,
        "impulse_scale": soft.impulse_scale,
        "soft_velocity_m_s": soft_velocity,
        "implicit_euler_velocity_m_s": implicit,
    }))
}

params! {
    /// `solvers/pyramid`.
    pub struct PyramidParams {
        solver: SolverKind = choice("contact solver", SolverKind::SoftStep),
        base: usize = int("boxes in the bottom row", 20, 1, 40),
        t_end: f64 = duration(10.0, 0.0, 60.0),
        iterations: usize = int("velocity passes, or substeps for a substepping solver", 4, 1, 64)
            .label("passes or substeps"),
        relax: usize = int("relax or position passes", 2, 0, 16)
            .label("relax passes"),
        warm_start: bool = boolean("start each step from the last one's impulses", true),
        contact_hertz: f64 = float("the soft contacts' frequency", "Hz", 30.0, 1.0, 240.0)
            .label("contact frequency"),
        damping_ratio: f64 = float("the soft contacts' damping ratio ζ", "", 10.0, 0.0, 100.0)
            .label("damping ratio ζ"),
    }
}

fn settings(
    solver: SolverKind,
    iterations: usize,
    relax: usize,
    warm_start: bool,
) -> Settings {
    Settings { solver, iterations, relax, warm_start, ..Settings::default() }
}

fn report(o: &Outcome) -> Value {
    json!({
        "stands": o.stands,
        "max_penetration_m": o.max_penetration,
        "sink_m": o.sink,
        "drift_m": o.drift,
        "energy_gain_j": o.energy_gain,
        "max_speed_settled_m_s": o.max_speed_settled,
        "max_joint_error_m": o.max_joint_error,
        "steps": o.steps,
        "ms_per_step": o.ms_per_step,
    })
}

fn pyramid(p: PyramidParams) -> Result<Value, PbmError> {
    let s = Settings {
        contact_hertz: p.contact_hertz,
        damping_ratio: p.damping_ratio,
        ..settings(p.solver, p.iterations, p.relax, p.warm_start)
    };
    let o = run(Scene::Pyramid, s, p.base, p.t_end)?;
    Ok(json!({
        "solver": p.solver.word(),
        "base": p.base,
        "boxes": p.base * (p.base + 1) / 2,
        "t_end": p.t_end,
        "contact_hertz": p.contact_hertz,
        "damping_ratio": p.damping_ratio,
        "stands": o.stands,
        "top_sink_m": o.sink,
        "top_drift_m": o.drift,
        "max_penetration_m": o.max_penetration,
        "energy_gain_j": o.energy_gain,
        "steps": o.steps,
        "ms_per_step": o.ms_per_step,
    }))
}

params! {
    /// `solvers/bench`.
    pub struct BenchParams {
        t_end: f64 = duration(3.0, 0.0, 5.0),
        base: usize = int("boxes in the bottom row of the pyramid", 10, 1, 13),
        iterations: usize = int("velocity passes, or substeps for a substepping solver", 4, 1, 10),
        relax: usize = int("relax or position passes", 2, 0, 8),
        warm_start: bool = boolean("start each step from the last one's impulses", true),
        exact: bool = boolean("run chapter 11's exact loop beside them, where it can", true),
        equal_cost: bool = boolean(
            "give each solver Solver2D's count for equal cost instead of iterations",
            false
        ),
    }
}

/// The count each solver gets: `iterations`, or its count for equal cost.
fn count(p: &BenchParams, solver: SolverKind) -> usize {
    if p.equal_cost { solver.equal_cost_count() } else { p.iterations }
}

/// The exact loop's row of the bench: each scene's outcome, or why it was not run.
fn exact_row(p: &BenchParams) -> Result<Value, PbmError> {
    let mut row = serde_json::Map::new();
    for scene in Scene::ALL {
        let entry = match crate::exact::reference(scene, p.base, p.t_end)? {
            Ok(o) => report(&o),
            Err(why) => json!({ "not_run": why }),
        };
        row.insert(scene.word().into(), entry);
    }
    Ok(Value::Object(row))
}

fn bench(p: BenchParams) -> Result<Value, PbmError> {
    let mut scenes = serde_json::Map::new();
    for scene in Scene::ALL {
        let mut row = serde_json::Map::new();
        for solver in SolverKind::ALL {
            let s = settings(solver, count(&p, solver), p.relax, p.warm_start);
            row.insert(
                solver.word().into(),
                report(&run(scene, s, p.base, p.t_end)?),
            );
        }
        scenes.insert(scene.word().into(), Value::Object(row));
    }
    // Without the exact loop its row is empty (a result holds no nulls).
    let exact = if p.exact { exact_row(&p)? } else { json!({}) };
    Ok(json!({
        "t_end": p.t_end,
        "base": p.base,
        "equal_cost": p.equal_cost,
        "scenes": scenes,
        "exact": exact,
    }))
}
