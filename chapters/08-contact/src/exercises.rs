//! The chapter's exercises.

use crate::lcp::{
    Kind, dependent_rows_study, enumerate, random_problem, scale, solve,
    warm_start_study,
};
use crate::scenes::{self, orbit, run_stack, slip};
use crate::singular::{largest_jump, sweep};
use crate::world::{CollisionSearch, Order, Settings, Solver, SolverKind, World};
use pbm_prelim::{Choice, Exercise, Optional, PbmError, params};
use serde_json::{Value, json};

impl Choice for CollisionSearch {
    const OPTIONS: &'static [(&'static str, Self)] = &[
        ("interpolated", CollisionSearch::Interpolated),
        ("bisection", CollisionSearch::Bisection),
    ];
}

impl Choice for Kind {
    const OPTIONS: &'static [(&'static str, Self)] = &[
        ("definite", Kind::Definite),
        ("unsymmetric", Kind::Unsymmetric),
        ("redundant", Kind::Redundant),
    ];
}

/// Every exercise of the chapter, in reading order.
pub fn all() -> Vec<Exercise> {
    vec![
        Exercise::new(
            "drop",
            "a box dropped corner-first on the ground: impulses at every impact, then resting contact",
            drop,
        )
        .optional(&[Optional {
            field: "rest_time_s",
            null_when: "the box is still moving (or has just been hit) at t_end",
        },
        Optional {
            field: "series_rest_time_s",
            null_when: "restitution = 1: the bounces never end",
        }]),
        Exercise::new(
            "stack",
            "a stack of boxes resting on the ground: drift and contact forces over time",
            stack,
        )
        .heavy()
        .optional(&[Optional {
            field: "predicted_creep_m",
            null_when: "solver = sequential: no regularised force solve",
        }]),
        Exercise::new(
            "incline",
            "a block on a slope: the steepest slope it stays on, against tan θ = μ",
            incline,
        ),
        Exercise::new(
            "seesaw",
            "two cubes on a see-saw: the lever law, and how an unbalanced plank tips",
            seesaw,
        )
        .heavy()
        .optional(&[Optional {
                field: "theory_at_half_second_deg",
                null_when: "the formula's plank would have reached the ground by then",
            }]),
        Exercise::new(
            "turntable",
            "a ball rolling on a turntable: friction steers it round a circle at 2/7 of the table's rate",
            turntable,
        )
        .optional(&[Optional {
                field: "orbit_period_s",
                null_when: "the ball's velocity does not turn (no friction)",
            }]),
        Exercise::new(
            "lcp-random",
            "the pivoting LCP solver on random problems, checked against enumerating every complementary basis",
            lcp_random,
        ),
        Exercise::new(
            "singular",
            "a table on four legs with a load going round: leg forces by pivoting afresh and by the warm start that keeps them near the last",
            singular,
        ),
        Exercise::new(
            "time-stepping",
            "the time-stepping LCP beside Baraff's loop and sequential impulses on the drop, the incline and the stack",
            time_stepping,
        ),
    ]
}

params! {
    /// `contact/drop`.
    pub struct DropParams {
        height: f64 = float("drop height of the lowest corner", "m", 0.5, 0.05, 2.0).label("drop height"),
        restitution: f64 = restitution(0.5, 0.0, 1.0),
        t_end: f64 = duration(3.0, 0.5, 5.0),
        search: CollisionSearch = choice(
            "how a step that went too deep finds the collision time: on the step's \
             interpolation, or by re-taking it shorter",
            CollisionSearch::Interpolated
        ),
    }
}

/// The speed (m/s) below which `contact/drop` calls the box at rest.
pub const REST_SPEED: f64 = 1e-3;

fn drop(p: DropParams) -> Result<Value, PbmError> {
    let (height, t_end) = (p.height, p.t_end);
    let settings = Settings {
        restitution: p.restitution,
        search: p.search,
        ..Settings::default()
    };
    let mut world = scenes::drop(height, settings)?;
    let start = world.energy();
    let mut peak = start;
    // At rest: no point of the box faster than 1 mm/s (|v| + |ω| r bounds every
    // point's speed, r the half-diagonal) and no impact since.
    let reach = 0.5 * scenes::DROP_SIZE.norm();
    let (mut moving_until, mut impacts) = (0.0, 0);
    world.run_until(t_end, |w| {
        peak = peak.max(w.energy());
        let body = &w.bodies()[0];
        let speed = body.velocity().norm() + body.angular_velocity().norm() * reach;
        if speed > REST_SPEED || w.stats().impacts > impacts {
            moving_until = w.time();
            impacts = w.stats().impacts;
        }
    })?;
    let stats = world.stats();
    let at_rest = moving_until < world.time();
    // Kinetic energy across each impact: never more after than before for e ≤ 1
    // (to roundoff).
    let gain = if stats.impacts > 0 { stats.max_impact_energy_gain } else { 0.0 };
    Ok(json!({
        "impacts": stats.impacts,
        "rest_time_s": at_rest.then_some(moving_until),
        "series_rest_time_s": scenes::bounce_series(height, p.restitution, -settings.gravity.y),
        "energy_increased": gain > 1e-12 * start.abs().max(1.0),
        "max_energy_gain": gain,
        "start_energy_j": start,
        "end_energy_j": world.energy(),
        "end_height_m": world.bodies()[0].position().y,
        "peak_rise_j": peak - start,
        "tolerance_m": settings.tolerance,
        "resting_speed_m_s": settings.resting_speed,
        "bounce_speed_m_s": settings.bounce_steps * settings.gravity.norm() * settings.h,
        "rk4_steps": stats.rk4_steps,
        "collision_time_rk4_steps": stats.retaken,
        "separation_searches": stats.separations,
        "witness_reused": stats.witness_reused,
    }))
}

params! {
    /// `contact/stack`.
    pub struct StackParams {
        boxes: usize = int("boxes in the stack", 10, 1, 40),
        t_end: f64 = duration(10.0, 0.5, 10.0),
        friction: f64 = friction(0.5, 0.0, 1.5),
        h: f64 = step(0.01, 0.005, 0.02),
        solver: SolverKind = choice("contact solver", SolverKind::Exact),
        sweeps: usize = int("sweeps of sequential impulses per substep", 10, 1, 16),
    }
}

fn stack(p: StackParams) -> Result<Value, PbmError> {
    let (boxes, t_end, h) = (p.boxes, p.t_end, p.h);
    // No work budget: the longest run the ranges allow (forty boxes, sixteen sweeps,
    // 2,000 steps of 5 ms) takes about two t_end by either solver.
    let solver = p.solver.with(p.sweeps);
    let settings =
        Settings { friction: p.friction, h, solver, ..Settings::default() };
    let start = std::time::Instant::now();
    let (world, drift, _) = run_stack(boxes, t_end, settings)?;
    let ms_per_step = start.elapsed().as_secs_f64() * 1e3 / world.steps() as f64;
    let side = scenes::CUBE.0;
    let top = world.bodies().last().map(|b| b.position()).unwrap_or_default();
    let put = nalgebra::Vector3::new(0.0, side * (boxes as f64 - 0.5), 0.0);
    let top_drift = (top - put).norm();
    let stats = world.stats();
    Ok(json!({
        "boxes": boxes,
        "step_budget": crate::world::STEP_BUDGET,
        "t_end": t_end,
        // The old name of `t_end`, kept for one release for readers' scripts.
        "seconds": t_end,
        "max_drift_m": drift,
        "min_contact_force": stats.min_normal_force,
        "solves": stats.solves,
        "warm_held": stats.warm as f64 / stats.solves.max(1) as f64,
        "factor_reused": stats.reused as f64 / stats.solves.max(1) as f64,
        "pivots": stats.pivots,
        "sweeps": stats.sweeps,
        "substeps": crate::world::SUBSTEPS,
        "baumgarte": crate::world::BAUMGARTE,
        "push_out_sweeps": crate::world::PUSH_OUT_SWEEPS,
        "max_velocity_error_m_s": stats.max_velocity_error,
        "deepest_m": stats.deepest,
        "top_drift_m": top_drift,
        "predicted_creep_m": match p.solver {
            SolverKind::Exact => {
                Value::from(scenes::stack_creep_rate(boxes, h, -settings.gravity.y) * t_end)
            }
            _ => Value::Null,
        },
        "ms_per_step": ms_per_step,
        "separation_searches": stats.separations,
        "searches_after_witness": stats.searches_after_witness,
        "witness_found_again": stats.witness_found_again,
        "search_share_of_step": stats.search_seconds / stats.step_seconds.max(1e-300),
        "tolerance_corrections": stats.corrections,
        "unsettled_friction_solves": stats.unsettled,
        "cube_side_m": scenes::CUBE.0,
        "cube_mass_kg": scenes::CUBE.1,
    }))
}

/// The block counts as slipping once it has slid this far (m): far above what the
/// tolerance correction moves a block at rest (about 1e-9 m in a second), far below
/// what the smallest measured excess over the friction angle gives.
pub const SLIPPED: f64 = 1e-6;

/// The steepest slope (rad) on which the block stays put, by bisection between 0
/// and 80° until the bracket is no wider than `resolution` (at most 52 halvings).
pub fn slip_threshold(
    settings: Settings,
    t_end: f64,
    resolution: f64,
) -> Result<f64, PbmError> {
    let (mut lo, mut hi) = (0.0_f64, 80f64.to_radians());
    // Each pass halves the bracket, and past 52 halvings a float cannot narrow it.
    let passes = ((hi - lo) / resolution).log2().ceil().clamp(0.0, 52.0) as usize;
    for _ in 0..passes {
        let mid = 0.5 * (lo + hi);
        if slip(mid, settings, t_end)? > SLIPPED {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Ok(0.5 * (lo + hi))
}

params! {
    /// `contact/incline`.
    pub struct InclineParams {
        friction: f64 = friction(0.5, 0.05, 1.5),
        t_end: f64 = float("time each slope is watched", "s", 1.0, 0.25, 2.0),
        world: Order = choice(
            "second order (F = M v̇) or first order (F = M v)", Order::Second,
        ),
    }
}

fn incline(p: InclineParams) -> Result<Value, PbmError> {
    let (friction, t_end) = (p.friction, p.t_end);
    let order: Order = p.world;
    let settings = Settings { friction, order, ..Settings::default() };
    let theory = friction.atan();
    let measured = slip_threshold(settings, t_end, 1e-4)?;
    let margin = 1e-3;
    let mut below = scenes::incline(theory - margin, settings)?;
    below.run_until(t_end, |_| {})?;
    Ok(json!({
        "world": order.word(),
        "friction": friction,
        "slip_threshold_deg": measured.to_degrees(),
        "tan_theta_equals_mu_deg": theory.to_degrees(),
        "below_slip_m": slip(theory - margin, settings, t_end)?,
        "below_tolerance_corrections": below.stats().corrections,
        "above_slip_m": slip(theory + margin, settings, t_end)?,
    }))
}

params! {
    /// `contact/singular`.
    pub struct SingularParams {
        load: f64 = float("the moving load", "N", 50.0, 0.0, 1000.0),
        radius: f64 = float("radius of the load's circle", "m", 0.3, 0.0, 0.49),
        samples: usize = int("load positions round the circle", 200, 8, 2000),
    }
}

fn singular(p: SingularParams) -> Result<Value, PbmError> {
    let (load, radius, samples) = (p.load, p.radius, p.samples);
    let s = sweep(load, radius, samples)?;
    Ok(json!({
        "samples": samples,
        "jump_fresh_n": largest_jump(&s.scratch),
        "jump_warm_n": largest_jump(&s.warm),
        "warm_held": s.held as f64 / samples as f64,
        "warm_loop_gap_n": s.loop_gap,
        "residual": s.residual,
    }))
}

/// Enumeration checks sizes up to this (2ⁿ subsets each).
const ENUMERATE_UP_TO: usize = 12;

params! {
    /// `contact/lcp-random`.
    pub struct LcpRandomParams {
        problems: usize = int("random problems of each size", 20, 1, 50),
        n_max: usize = int("largest problem (sizes 1 … n_max)", 12, 1, 40),
        kind: Kind = choice("which kind of matrix A", Kind::Definite),
        seed: usize = int("first random seed", 0, 0, 1_000_000),
    }
}

fn lcp_random(p: LcpRandomParams) -> Result<Value, PbmError> {
    let (problems, n_max) = (p.problems, p.n_max);
    let (kind, seed): (Kind, u64) = (p.kind, p.seed as u64);
    let (mut worst, mut agrees, mut pivots, mut total) = (0.0_f64, true, 0, 0);
    let mut enumerated = 0;
    for n in 1..=n_max {
        for k in 0..problems as u64 {
            let (a, b) = random_problem(kind, n, seed + 1000 * n as u64 + k);
            let sol = solve(&a, &b)?;
            let s = scale(&a, &b);
            worst = worst.max(sol.residual(s));
            pivots += sol.pivots;
            total += 1;
            if n <= ENUMERATE_UP_TO {
                enumerated += 1;
                let all = enumerate(&a, &b, 1e-9 * s)?;
                // Definite problems have one solution; redundant ones one a.
                let same = all.iter().any(|f| {
                    let a_enum = &a * f + &b;
                    (&sol.a - a_enum).amax() <= 1e-8 * s
                });
                agrees &= same && (kind == Kind::Redundant || all.len() == 1);
            }
        }
    }
    // The warm start's saving, on the same kind of problem chapter 11's loop meets.
    let warm = warm_start_study(2 * problems as u64, seed)?;
    // Dependent rows: forces against the least-norm ones.
    let dependent = dependent_rows_study(5 * problems as u64)?;
    Ok(json!({
        "kind": kind.word(),
        "problems": total,
        "enumerated": enumerated,
        "max_complementarity_residual": worst,
        "agrees_with_enumeration": agrees,
        "mean_pivots": pivots as f64 / total as f64,
        "warm_start_problems": 2 * problems,
        "warm_start_pivots": warm.warm_pivots,
        "cold_start_pivots": warm.cold_pivots,
        "warm_start_same_answers": warm.same_answers,
        "dependent_problems": dependent.problems,
        "dependent_max_residual": dependent.max_residual,
        "dependent_max_force_ratio": dependent.max_force_ratio,
        "dependent_basis_max_force_ratio": dependent.basis_max_force_ratio,
    }))
}

params! {
    /// `contact/seesaw`.
    pub struct SeesawParams {
        left_mass: f64 = float("mass of the left cube", "kg", 1.05, 0.2, 5.0),
        left_distance: f64 = float("its distance from the ridge", "m", 1.2, 0.2, 1.4),
        right_mass: f64 = float("mass of the right cube", "kg", 2.0, 0.2, 5.0),
        right_distance: f64 = float(
            "its distance from the ridge", "m", 0.6, 0.2, 1.4,
        ),
        t_end: f64 = duration(2.0, 0.5, 2.0),
    }
}

fn seesaw(p: SeesawParams) -> Result<Value, PbmError> {
    let left = (p.left_mass, p.left_distance);
    let right = (p.right_mass, p.right_distance);
    let t_end = p.t_end;
    let settings =
        Settings { friction: 0.5, restitution: 0.0, ..Settings::default() };
    let g = -settings.gravity.y;
    let mut world = scenes::seesaw(left, right, settings)?;
    let tilt = |w: &World| w.bodies()[0].rotation()[(1, 0)].asin().to_degrees();
    let early_s = 0.5;
    world.run_until(early_s, |_| {})?;
    let early = tilt(&world);
    // The small-angle formula holds only until the plank's end reaches the ground.
    let landed = (scenes::SEESAW.0 / (0.5 * scenes::SEESAW.1.x)).asin().to_degrees();
    let theory = scenes::seesaw_tilt(left, right, g, early_s).to_degrees();
    world.run_until(t_end, |_| {})?;
    let stats = world.stats();
    Ok(json!({
        "net_torque_nm": g * (left.0 * left.1 - right.0 * right.1),
        "tilt_at_half_second_deg": early,
        "theory_at_half_second_deg": (theory.abs() < landed).then_some(theory),
        "tilt_deg": tilt(&world),
        "resting_on_ground_deg": landed,
        "impacts": stats.impacts,
        "min_contact_force": stats.min_normal_force,
        "unsettled_friction_solves": stats.unsettled,
        "early_time_s": early_s,
    }))
}

params! {
    /// `contact/turntable`.
    pub struct TurntableParams {
        spin: f64 = float("the table's rate", "turns/s", 1.0, 0.1, 3.0),
        speed: f64 = float("the ball's starting speed", "m/s", 0.2, 0.02, 0.5),
        friction: f64 = friction(0.5, 0.0, 1.5),
        t_end: f64 = duration(3.5, 0.5, 7.0),
    }
}

fn turntable(p: TurntableParams) -> Result<Value, PbmError> {
    let omega = p.spin * std::f64::consts::TAU;
    let (speed, friction, t_end) = (p.speed, p.friction, p.t_end);
    let orbit = orbit(omega, speed, friction, t_end)?;
    let table_period = std::f64::consts::TAU / omega;
    let g = -Settings::default().gravity.y;
    Ok(json!({
        "table_period_s": table_period,
        // Without friction the velocity does not turn: no orbit.
        "orbit_period_s": (orbit.rate.abs() > 1e-6).then(|| std::f64::consts::TAU / orbit.rate),
        "orbit_period_theory_s": 3.5 * table_period,
        "max_path_error_m": orbit.path_error,
        "friction_needed": 2.0 / 7.0 * omega * speed / g,
        "h": Settings::default().h,
    }))
}

params! {
    /// `contact/time-stepping`.
    pub struct TimeSteppingParams {
        boxes: usize = int("boxes in the stack", 10, 1, 12),
        t_end: f64 = float("simulated time of each scene", "s", 3.0, 1.5, 4.0),
        h: f64 = step(0.01, 0.005, 0.02),
        friction: f64 = friction(0.5, 0.0, 1.5),
    }
}

/// What one scene run by one solver shows: the deepest interpenetration (m), the
/// most energy above the start (J; nothing in these scenes adds any), how far any
/// body moved in the last second (m; every scene is at rest by then), the cost per
/// step (ms) and the steps taken.
fn scene_run(mut world: World, t_end: f64) -> Result<(f64, f64, f64, f64), PbmError> {
    let start = world.energy();
    let mut gain = 0.0_f64;
    let mut settled: Option<Vec<nalgebra::Vector3<f64>>> = None;
    let mut drift = 0.0_f64;
    let clock = std::time::Instant::now();
    world.run_until(t_end, |w| {
        gain = gain.max(w.energy() - start);
        if w.time() >= t_end - 1.0 {
            let now: Vec<_> = w.bodies().iter().map(|b| b.position()).collect();
            match &settled {
                None => settled = Some(now),
                Some(then) => {
                    let moved = now.iter().zip(then).map(|(a, b)| (a - b).norm());
                    drift = drift.max(moved.fold(0.0, f64::max));
                }
            }
        }
    })?;
    let ms = clock.elapsed().as_secs_f64() * 1e3 / world.steps().max(1) as f64;
    Ok((world.stats().deepest, gain, drift, ms))
}

fn time_stepping(p: TimeSteppingParams) -> Result<Value, PbmError> {
    let solvers = [
        ("exact", Solver::Exact),
        ("sequential", Solver::SequentialImpulses { sweeps: 10 }),
        ("time-stepping", Solver::TimeStepping),
    ];
    let mut runs = Vec::new();
    let (mut deepest, mut gain, mut ms_total, mut count) = (0.0_f64, 0.0_f64, 0.0, 0);
    for scene in ["drop", "incline", "stack"] {
        for (name, solver) in solvers {
            let settings = Settings {
                friction: p.friction,
                h: p.h,
                solver,
                restitution: 0.0,
                ..Settings::default()
            };
            let world = match scene {
                "drop" => scenes::drop(0.5, settings)?,
                "incline" => scenes::incline(0.8 * p.friction.atan(), settings)?,
                _ => scenes::stack(p.boxes, settings)?,
            };
            let (pen, up, drift, ms) = scene_run(world, p.t_end)?;
            if solver == Solver::TimeStepping {
                deepest = deepest.max(pen);
                gain = gain.max(up);
                ms_total += ms;
                count += 1;
            }
            runs.push(json!({
                "scene": scene,
                "solver": name,
                "max_penetration_m": pen,
                "energy_gain_j": up,
                "last_second_drift_m": drift,
                "ms_per_step": ms,
            }));
        }
    }
    Ok(json!({
        "boxes": p.boxes,
        "t_end": p.t_end,
        // The old name of `t_end`, kept for one release for readers' scripts.
        "seconds": p.t_end,
        "max_penetration_m": deepest,
        "energy_drift_j": gain,
        "ms_per_step": ms_total / count.max(1) as f64,
        "rows": runs,
    }))
}
