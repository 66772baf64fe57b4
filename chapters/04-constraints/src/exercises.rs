//! The chapter's runnable experiments: `pbm run constraints/<id> --set key=value`.

use crate::constraint::{OnCircle, Rod};
use crate::scenes::{
    BEAD_FORCES_ANGLE_DEG, BEAD_FORCES_SPEED, Chain, bead_forces, double_pendulum,
};
use crate::scenes::{Holder, bead_drift, max_stable_step, mobile_fill, run_chain};
use crate::scenes::{Stabiliser, stabilised_run};
use crate::system::{
    ConstrainedSystem, Feedback, default_iterations, solve_multipliers,
};
use crate::tree::TreeSolve;
use nalgebra::Vector2;
use pbm_ode::runge_kutta::{RungeKutta, step_count};
use pbm_ode::tableau::{ButcherTableau, EULER, MIDPOINT, RK4};
use pbm_particles::forces::G;
use pbm_prelim::{Choice, Exercise, Optional, PbmError, budget, params};
use serde_json::{Value, json};
use std::time::Instant;

/// Every exercise of the chapter, in reading order.
pub fn all() -> Vec<Exercise> {
    vec![
        Exercise::new(
            "bead-forces",
            "equation 7 at one point of the wire: the constraint force at rest and moving",
            bead_forces_exercise,
        ),
        Exercise::new(
            "drift",
            "the bead on a wire drifts off the circle without feedback and stays on with it",
            drift,
        )
        .limit(
            ("steps (two runs at about 2 µs a step)", "steps"),
            (6e5, "lower t_end or raise h"),
            |p: &DriftParams| budget::steps(p.t_end, p.h),
        )
        .optional(&[Optional {
            field: "feedback_time_constant_s",
            null_when: "if k_s = 0 (no feedback spring)",
        }]),
        Exercise::new(
            "double-pendulum",
            "a double pendulum from a circle constraint and a rod: constraint error and energy drift under RK4",
            double_pendulum_run,
        )
        .limit(
            ("steps (about 5 µs a step)", "steps"),
            (6e5, "lower t_end or raise h"),
            |p: &DoublePendulumParams| budget::steps(p.t_end, p.h),
        ),
        Exercise::new(
            "redundant",
            "a double pendulum with every constraint given twice: CG still finds the constraint forces",
            redundant,
        )
        .optional(&[
                Optional {
                    field: "max_constraint_error",
                    null_when: "if the solve failed (see error)",
                },
                Optional { field: "error", null_when: "if the solve succeeded" },
            ]),
        Exercise::new(
            "rods-vs-springs",
            "a falling chain held by rods or by stiff springs: largest stable RK4 step and length error",
            rods_vs_springs,
        )
        .heavy()
        .limit(
            ("t_end × √(max(k, 1e5 N/m) / 1e5 N/m)", "chain-seconds"),
            (64.0, "lower t_end or k"),
            chain_seconds,
        ),
        Exercise::new(
            "stabilise",
            "the falling chain held against drift three ways: no correction, Baumgarte feedback, projection after each step",
            stabilise,
        )
        .promises(&[pbm_prelim::Promise {
            field: "/projection/max_abs_c",
            over: None,
            max: crate::scenes::PROJECTION_TOLERANCE,
            says: "projection holds |C| to its tolerance at every step it finishes",
        }])
        .limit(
            // Measured: 5,000 steps of the three runs take 0.22 s in release, and
            // 50,000 took 2.9 s of CPU on a loaded machine; 35,000 stays under 2.5 s.
            ("steps (three runs, about 45 µs a step for all three)", "steps"),
            (3.5e4, "lower t_end or raise h"),
            |p: &StabiliseParams| budget::steps(p.t_end, p.h),
        )
        .optional(&[
            Optional { field: "none_broke_down_at_s", null_when: "if the run reached t_end" },
            Optional {
                field: "baumgarte_broke_down_at_s",
                null_when: "if the run reached t_end",
            },
            Optional {
                field: "projection_broke_down_at_s",
                null_when: "if the run reached t_end",
            },
        ]),
        Exercise::new(
            "tree-solve",
            "one solve for λ on a falling chain by Baraff's tree and by CG: time, iterations, agreement; the mobile's fill-in in both orders",
            tree_solve,
        ),
    ]
}

/// The explicit methods of chapter 1 the drift exercise can run.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Integrator {
    Euler,
    Midpoint,
    Rk4,
}

impl Choice for Integrator {
    const OPTIONS: &'static [(&'static str, Self)] = &[
        ("euler", Integrator::Euler),
        ("midpoint", Integrator::Midpoint),
        ("rk4", Integrator::Rk4),
    ];
}

impl Integrator {
    fn tableau(self) -> ButcherTableau {
        match self {
            Integrator::Euler => EULER,
            Integrator::Midpoint => MIDPOINT,
            Integrator::Rk4 => RK4,
        }
    }
}

fn max_of(track: &[(f64, f64)]) -> f64 {
    track.iter().fold(0.0, |m, p| m.max(p.1))
}

params! {
    /// `constraints/bead-forces`.
    pub struct BeadForcesParams {
        speed: f64 = float(
            "the bead's speed along the wire", "m/s", BEAD_FORCES_SPEED, 0.0, 10.0,
        ),
    }
}

/// The forces of the bead-forces figure at rest and at `speed`: what a point of the
/// wire asks of the constraint, and how much more it asks of a moving bead (m v²/r).
fn bead_forces_exercise(p: BeadForcesParams) -> Result<Value, PbmError> {
    let [f, rest, total_at_rest] = bead_forces(BEAD_FORCES_ANGLE_DEG, 0.0);
    let [_, moving, total_moving] = bead_forces(BEAD_FORCES_ANGLE_DEG, p.speed);
    Ok(json!({
        "angle_deg": BEAD_FORCES_ANGLE_DEG,
        "speed": p.speed,
        // The old name of `speed`, kept for one release for readers' scripts.
        "speed_m_s": p.speed,
        "gravity_n": f.norm(),
        "constraint_force_at_rest_n": rest.norm(),
        "tangential_force_at_rest_n": total_at_rest.norm(),
        "constraint_force_moving_n": moving.norm(),
        "centripetal_n": moving.norm() - rest.norm(),
        "total_force_moving_n": total_moving.norm(),
    }))
}

params! {
    /// `constraints/drift`.
    pub struct DriftParams {
        feedback: bool = boolean(
            "apply the k_s, k_d feedback in the second run (false: both runs without)",
            true,
        ),
        solver: Integrator = choice("integrator", Integrator::Rk4),
        h: f64 = step(0.01, 0.0, 0.5),
        // 6e5 steps at the default h.
        t_end: f64 = duration(100.0, 0.0, 6_000.0),
        k_s: f64 = float("feedback spring gain", "1/s²", 100.0, 0.0, 1e6).label("feedback stiffness"),
        k_d: f64 = float("feedback damping gain", "1/s", 20.0, 0.0, 1e4).label("feedback damping"),
    }
}

fn drift(p: DriftParams) -> Result<Value, PbmError> {
    let solver: Integrator = p.solver;
    let (h, t_end) = (p.h, p.t_end);
    let gains = Feedback::new(p.k_s, p.k_d)?;
    let with = if p.feedback { gains } else { Feedback::OFF };
    let without = bead_drift(solver.tableau(), Feedback::OFF, h, t_end)?;
    let with_feedback = bead_drift(solver.tableau(), with, h, t_end)?;
    Ok(json!({
        "solver": solver.word(),
        "steps": without.len() - 1,
        "max_abs_c_without_feedback": max_of(&without),
        "max_abs_c_with_feedback": max_of(&with_feedback),
        // The error equation C'' + k_d C' + k_s C = 0: τ = 1/√k_s (critically
        // damped when k_d = 2/τ).
        "feedback_time_constant_s": 1.0 / p.k_s.sqrt(),
    }))
}

/// Runs a constrained system with RK4 and reports max |C|, the largest energy change
/// relative to `scale`, and the CG effort.
fn run_and_measure(
    system: &mut ConstrainedSystem<2>,
    h: f64,
    t_end: f64,
    scale: f64,
) -> Result<(f64, f64), PbmError> {
    let mut stepper = RungeKutta::new(RK4);
    let e0 = system.energy();
    let (mut max_c, mut max_de) = (system.max_abs_c()?, 0.0_f64);
    for _ in 0..step_count(h, t_end)? {
        stepper.step(system, h)?;
        max_c = max_c.max(system.max_abs_c()?);
        max_de = max_de.max((system.energy() - e0).abs() / scale);
    }
    Ok((max_c, max_de))
}

/// The double pendulum's energy scale: the potential energy its bobs span, Σ m g
/// (l₁ + l₂) for 1 kg bobs on 1 m links.
const PENDULUM_ENERGY_SCALE: f64 = (1.0 + 1.0) * G * 2.0;

params! {
    /// `constraints/double-pendulum`.
    pub struct DoublePendulumParams {
        // 6e5 steps at the default h.
        t_end: f64 = duration(10.0, 0.0, 600.0),
        h: f64 = step(1e-3, 0.0, 0.1),
    }
}

fn double_pendulum_run(p: DoublePendulumParams) -> Result<Value, PbmError> {
    let (t_end, h) = (p.t_end, p.h);
    let mut system = double_pendulum()?;
    let (max_c, drift) =
        run_and_measure(&mut system, h, t_end, PENDULUM_ENERGY_SCALE)?;
    let stats = system.stats();
    Ok(json!({
        "steps": step_count(h, t_end)?,
        "max_constraint_error": max_c,
        "relative_energy_drift": drift,
        "mean_cg_iterations": stats.iterations as f64 / stats.solves.max(1) as f64,
        "max_cg_iterations": stats.max_iterations,
        "energy_scale_j": PENDULUM_ENERGY_SCALE,
    }))
}

// ANCHOR: redundant
/// The double pendulum with its circle constraint and its rod each added twice: four
/// rows of C, rank two. J W Jᵀ is singular, but the right-hand side lies in its
/// range, so CG converges (to the least-norm λ, which splits each force evenly
/// between the twins).
pub fn redundant_pendulum() -> Result<ConstrainedSystem<2>, PbmError> {
    let mut system = double_pendulum()?;
    system.add_constraint(OnCircle::new(0, Vector2::zeros(), 1.0)?)?;
    system.add_constraint(Rod::new(0, 1, 1.0)?)?;
    Ok(system)
}
// ANCHOR_END: redundant

params! {
    /// `constraints/redundant`.
    pub struct RedundantParams {
        t_end: f64 = duration(2.0, 0.0, 100.0),
    }
}

fn redundant(p: RedundantParams) -> Result<Value, PbmError> {
    let t_end = p.t_end;
    let mut system = redundant_pendulum()?;
    let outcome = run_and_measure(&mut system, 1e-3, t_end, PENDULUM_ENERGY_SCALE);
    let rank = system.jacobian().to_dense().rank(1e-9);
    let (solved, max_c, why) = match outcome {
        Ok((c, _)) => (true, c, Value::Null),
        Err(e) => (false, f64::NAN, Value::String(e.to_string())),
    };
    Ok(json!({
        "solved": solved,
        "max_constraint_error": if max_c.is_finite() { json!(max_c) } else { Value::Null },
        "constraint_rows": system.constraint_rows(),
        "jacobian_rank": rank,
        "error": why,
    }))
}

params! {
    /// `constraints/rods-vs-springs`.
    pub struct RodsVsSpringsParams {
        // Below 1e4 N/m the chain stretches by more than half a link and the search
        // for its stable step crawls: a minute at 1e3.
        k: f64 = float("spring stiffness", "N/m", 1e5, 1e4, 1e8),
        t_end: f64 = duration(2.0, 0.0, 5.0),
    }
}

/// The runs' step shrinks as 1/sqrt(k) above 1e5 N/m; t_end = 2 s at k = 1e8, the
/// range's end at the default t_end, counts 63 here (k = 7.5e7 for 2 s, 55 of them,
/// took 1.7 s in release alone).
fn chain_seconds(p: &RodsVsSpringsParams) -> f64 {
    p.t_end * (p.k.max(1e5) / 1e5).sqrt()
}

fn rods_vs_springs(p: RodsVsSpringsParams) -> Result<Value, PbmError> {
    let (k, t_end) = (p.k, p.t_end);
    let chain = Chain::BOOK;
    let rod_h = max_stable_step(chain, Holder::Rods, t_end)?;
    let spring_h = max_stable_step(chain, Holder::Springs(k), t_end)?;
    // Length errors at a step well inside both limits, so they measure the model, not
    // the integrator: the springs stretch because they must, the rods only by
    // truncation error.
    let h = 1e-4_f64.min(0.5 * spring_h);
    let rods = run_chain(chain, Holder::Rods, h, t_end)?;
    let springs = run_chain(chain, Holder::Springs(k), h, t_end)?;
    Ok(json!({
        "rod_max_stable_h": rod_h,
        "spring_max_stable_h": spring_h,
        "step_ratio": rod_h / spring_h,
        "length_error_h": h,
        "spring_length_error": springs.max_length_error,
        "rod_length_error": rods.max_length_error,
        "chain": {
            "links": chain.links,
            "link_length_m": chain.length,
            "bob_mass_kg": chain.mass,
        },
    }))
}

params! {
    /// `constraints/stabilise`.
    pub struct StabiliseParams {
        // RK4 holds the rod chain up to about 15 ms (`rods-vs-springs`).
        h: f64 = step(0.002, 0.0, 0.012),
        // 3.5e4 steps at the default h.
        t_end: f64 = duration(10.0, 0.0, 70.0),
    }
}

/// The book's chain at step h for t_end, once per stabiliser: its largest and final
/// |C|, its largest and final energy change relative to n m g · n L, what a step cost
/// in linear solves and CG iterations, and when the run broke down if it did (the
/// other numbers then stop there).
fn stabilise(p: StabiliseParams) -> Result<Value, PbmError> {
    let mut result = json!({ "steps": step_count(p.h, p.t_end)? });
    for stabiliser in Stabiliser::ALL {
        let run = stabilised_run(stabiliser, p.h, p.t_end)?;
        let track = &run.track;
        let (steps, last) = ((track.len() - 1).max(1) as f64, track[track.len() - 1]);
        let largest = |f: fn(&_) -> f64| track.iter().map(f).fold(0.0, f64::max);
        result[stabiliser.name()] = json!({
            "max_abs_c": largest(|s| s.abs_c),
            "final_abs_c": last.abs_c,
            "max_abs_energy_change": largest(|s| s.energy_change.abs()),
            "final_energy_change": last.energy_change,
            "solves_per_step": last.cost.solves as f64 / steps,
            "cg_iterations_per_step": last.cost.cg_iterations as f64 / steps,
        });
        result[format!("{}_broke_down_at_s", stabiliser.name())] =
            json!(run.broke_down_at);
    }
    Ok(result)
}

params! {
    /// `constraints/tree-solve`.
    pub struct TreeSolveParams {
        links: usize = int("rods in the falling chain", 1000, 1, 5000),
    }
}

/// One solve for λ on the chapter's chain of `links` rods after 20 ms of falling: by
/// the tree (factored and solved; the mean of enough repeats to take about 20 ms) and
/// by CG to a relative residual of 1e-12, timed, with their largest difference
/// relative to the largest |λ|; and the mobile's fill-in leaves first and root first.
fn tree_solve(p: TreeSolveParams) -> Result<Value, PbmError> {
    let mut system = Chain { links: p.links, length: 0.1, mass: 0.1 }.falling(20)?;
    system.particles.accumulate_forces()?;
    let (w, rhs) = system.assemble()?;
    let j = system.jacobian();
    let mut tree = TreeSolve::<2>::new(j, &w)?;
    let (mut by_tree, mut by_cg) = (vec![0.0; rhs.len()], vec![0.0; rhs.len()]);
    let repeats = (100_000 / p.links).clamp(1, 1000);
    let start = Instant::now();
    for _ in 0..repeats {
        tree.factor(j, &w)?;
        tree.solve(&rhs, &mut by_tree);
    }
    let tree_s = start.elapsed().as_secs_f64() / repeats as f64;
    let start = Instant::now();
    let limit = (1e-12, default_iterations(rhs.len()));
    let report = solve_multipliers(j, &w, &rhs, &mut by_cg, limit)?;
    let cg_s = start.elapsed().as_secs_f64();
    let scale = by_cg.iter().fold(0.0_f64, |m, l| m.max(l.abs()));
    let gap =
        by_tree.iter().zip(&by_cg).fold(0.0_f64, |m, (a, b)| m.max((a - b).abs()));
    let (leaves_first, root_first) = mobile_fill()?;
    Ok(json!({
        "rows": rhs.len(),
        "nodes": tree.len(),
        "tree_solve_us": tree_s * 1e6,
        "cg_solve_us": cg_s * 1e6,
        "cg_over_tree": cg_s / tree_s,
        "cg_iterations": report.iterations,
        "max_relative_difference": gap / scale.max(f64::MIN_POSITIVE),
        "mobile_fill_leaves_first": leaves_first,
        "mobile_fill_root_first": root_first,
    }))
}
