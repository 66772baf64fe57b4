//! The chapter's runnable experiments: `pbm run particles/<id> --set key=value`.

use crate::collision::Strategy;
use crate::condition::{Distance, Evaluation, soft_forces};
use crate::interaction::{
    PairLaw, UniformGrid, brute_force_forces, grid_forces, interacting_pairs,
};
use crate::particle::Particle;
use crate::scenes::{
    beam, bouncing_ball, run_with_snapshots, scaling_law, scaling_points,
    spring_network,
};
use crate::spring::spring_force;
use nalgebra::Vector3;
use pbm_ode::runge_kutta::{RungeKutta, step_count};
use pbm_ode::tableau::RK4;
use pbm_prelim::budget;
use pbm_prelim::parallel::{on_one_thread, threads};
use pbm_prelim::sampling::{sample, sample_vector};
use pbm_prelim::{Choice, Exercise, Optional, PbmError, Promise, params};
use serde_json::{Value, json};
use std::time::Instant;

impl Choice for Strategy {
    const OPTIONS: &'static [(&'static str, Self)] =
        &[("rollback", Strategy::Rollback), ("displace", Strategy::Displace)];
}

/// Every exercise of the chapter, in reading order.
pub fn all() -> Vec<Exercise> {
    vec![
        Exercise::new(
            "spring-from-behavior",
            "the force derived from the condition C = |x1 - x2| - r equals the damped spring of equation 1",
            spring_from_behavior,
        )
        .promises(&[Promise {
            field: "/max_force_difference",
            over: Some(("/max_force", 1.0)),
            max: 1e-12,
            says: "the derived force and the spring's are one formula, equal to rounding",
        }]),
        Exercise::new(
            "bouncing-ball",
            "successive bounce heights of a ball dropped on the ground: the ratio is r^2",
            bouncing,
        )
        .optional(&[Optional {
                field: "max_ratio_deviation",
                null_when: "if no bounce could be measured (the first flight is shorter than a step, or the ball came to rest)",
            }])
        .limit(
            ("⌈(0.45 s + Σₖ 0.9 s × restitutionᵏ, k = 1…bounces) / h⌉", "steps"),
            (2e7, "raise h or lower bounces"),
            bounce_steps,
        ),
        Exercise::new(
            "momentum",
            "a free spring network conserves linear momentum: internal forces cancel in pairs",
            momentum,
        )
        .limit(
            ("particles² × steps", "particle-pair steps"),
            (1e8, "lower particles or t_end, or raise h"),
            pair_steps,
        ),
        Exercise::new(
            "interaction-scaling",
            "pair forces by brute force O(n^2) and by a uniform grid: same forces, far less work",
            interaction_scaling,
        )
        .heavy()
        .limit(
            ("n_max² + 2,100 n_grid", "pair checks"),
            (7e8, "lower n_max or n_grid"),
            scaling_work,
        ),
        Exercise::new(
            "hanging-structure",
            "a cantilever beam of masses and springs sags, is dragged by a scripted mouse, and settles",
            hanging_structure,
        )
        .optional(&[Optional {
                field: "tip_height_at_release",
                null_when: "if t_end ends before the release at 1.5 s",
            }]),
    ]
}

params! {
    /// `particles/spring-from-behavior`.
    pub struct SpringFromBehaviorParams {
        samples: usize = int("random spring states compared", 1000, 1, 1_000_000),
    }
}

fn spring_from_behavior(p: SpringFromBehaviorParams) -> Result<Value, PbmError> {
    let samples = p.samples;
    let mut max_difference: f64 = 0.0;
    let mut max_force: f64 = 0.0;
    let (mut eval, mut derived) = (Evaluation::default(), [Vector3::zeros(); 2]);
    for s in 0..samples as u64 {
        let x = [sample_vector::<3>(4 * s), sample_vector::<3>(4 * s + 1) * 2.0];
        let v = [sample_vector::<3>(4 * s + 2), sample_vector::<3>(4 * s + 3)];
        let (k_s, k_d, rest) = (
            1.0 + 9.0 * sample(7 * s).abs(),
            sample(11 * s).abs(),
            0.5 + sample(13 * s).abs(),
        );
        let spring = spring_force((&x[0], &v[0]), (&x[1], &v[1]), (k_s, k_d, rest))?;
        let particles =
            [Particle::new(1.0, x[0], v[0])?, Particle::new(1.0, x[1], v[1])?];
        eval.evaluate(&Distance::new(0, 1, rest)?, &particles, false)?;
        soft_forces(&eval, k_s, k_d, &mut derived);
        max_difference = max_difference
            .max((derived[0] - spring).norm())
            .max((derived[1] + spring).norm());
        max_force = max_force.max(spring.norm());
    }
    Ok(
        json!({ "samples": samples, "max_force_difference": max_difference, "max_force": max_force }),
    )
}

params! {
    /// `particles/bouncing-ball`.
    pub struct BouncingBallParams {
        restitution: f64 = float("coefficient of restitution r", "", 0.8, 0.0, 1.0).label("restitution r"),
        strategy: Strategy = choice("collision repair", Strategy::Rollback),
        h: f64 = step(0.01, 0.0, 0.1),
        bounces: usize = int("bounces to measure", 6, 1, 20),
    }
}

fn bouncing(p: BouncingBallParams) -> Result<Value, PbmError> {
    let r = p.restitution;
    let strategy: Strategy = p.strategy;
    let (h, bounces) = (p.h, p.bounces);
    let run = bouncing_ball(r, strategy, h, bounces)?;
    let ratios: Vec<f64> = run.apexes.windows(2).map(|w| w[1] / w[0]).collect();
    let deviation = ratios.iter().map(|q| (q - r * r).abs()).reduce(f64::max);
    Ok(json!({
        "restitution": r,
        "strategy": strategy.word(),
        "bounces_measured": ratios.len(),
        "flights_shorter_than_a_step": run.flights_too_short,
        "came_to_rest": run.at_rest,
        "apex_heights": run.apexes,
        "bounce_height_ratios": ratios,
        "expected_ratio": r * r,
        "max_ratio_deviation": deviation,
    }))
}

params! {
    /// `particles/momentum`.
    pub struct MomentumParams {
        // At most 1e8 pair-steps in the default 1000 steps.
        particles: usize = int("particles in the network", 40, 2, 316),
        t_end: f64 = duration(5.0, 0.0, 100.0).from_zero(),
        h: f64 = step(0.005, 0.0, 0.05),
    }
}

/// The bouncing ball's steps: dropped from 1 m, it falls for 0.45 s and its k-th
/// flight lasts 0.9 rᵏ s.
fn bounce_steps(p: &BouncingBallParams) -> f64 {
    let flights: f64 =
        (1..=p.bounces).map(|k| 0.9 * p.restitution.powi(k as i32)).sum();
    budget::steps(0.45 + flights, p.h)
}

/// The network joins each particle to the neighbours within a fixed reach of a unit
/// square, so its springs grow as n²; 1e8 pair-steps run in about 2 s.
fn pair_steps(p: &MomentumParams) -> f64 {
    (p.particles * p.particles) as f64 * budget::steps(p.t_end, p.h)
}

fn momentum(p: MomentumParams) -> Result<Value, PbmError> {
    let (n, t_end, h) = (p.particles, p.t_end, p.h);
    let mut system = spring_network(n, 0.5)?;
    let p0 = system.momentum();
    let e0 = system.energy();
    let mut stepper = RungeKutta::new(RK4);
    let mut drift: f64 = 0.0;
    for _ in 0..step_count(h, t_end)? {
        stepper.step(&mut system, h)?;
        drift = drift.max((system.momentum() - p0).norm());
    }
    Ok(json!({
        "particles": n,
        "springs": system.forces.len(),
        "initial_momentum": [p0.x, p0.y, p0.z],
        "max_momentum_drift": drift,
        "relative_momentum_drift": drift / p0.norm(),
        "energy_start": e0,
        "energy_end": system.energy(),
    }))
}

/// One row of the scaling experiment: n particles at constant density, timed both
/// ways.
pub fn scaling_row(law: &PairLaw, n: usize) -> Result<(f64, f64, f64), PbmError> {
    let x = scaling_points(n);
    let start = Instant::now();
    let brute = brute_force_forces(law, &x);
    let brute_ms = start.elapsed().as_secs_f64() * 1e3;
    let start = Instant::now();
    let grid = grid_forces(law, &x);
    let grid_ms = start.elapsed().as_secs_f64() * 1e3;
    let difference =
        brute.iter().zip(&grid).map(|(a, b)| (a - b).norm()).fold(0.0, f64::max);
    Ok((brute_ms, grid_ms, difference))
}

/// The grid alone on `n` particles at the experiment's density, all from one run:
/// the median time of five force evaluations after one to warm up (ms), on the
/// thread pool and then on one thread, and how many ordered pairs within the cutoff
/// each evaluation computes.
pub struct Throughput {
    /// Particles.
    pub n: usize,
    /// Median time of an evaluation on the whole thread pool (ms).
    pub median_ms: f64,
    /// Median time of an evaluation on one thread (ms).
    pub one_thread_ms: f64,
    /// Ordered pairs within the cutoff, the interactions an evaluation computes.
    pub pairs: u64,
}

/// Measures [`Throughput`] on `n` particles.
pub fn grid_throughput(law: &PairLaw, n: usize) -> Result<Throughput, PbmError> {
    let x = scaling_points(n);
    let pairs = interacting_pairs(law, &x);
    // One grid and one force array, reused as a simulation reuses them from one
    // evaluation to the next; the first evaluation warms them up.
    let (mut grid, mut forces) = (UniformGrid::build(&x, law.cutoff), Vec::new());
    let mut median = || {
        grid.forces(law, &x, &mut forces);
        let mut times: Vec<f64> = (0..5)
            .map(|_| {
                let start = Instant::now();
                grid.forces(law, &x, &mut forces);
                std::hint::black_box(&forces);
                start.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        times.sort_by(f64::total_cmp);
        times[2]
    };
    let median_ms = median();
    let one_thread_ms = on_one_thread(median).ok_or_else(|| {
        PbmError::degenerate(
            "thread pool",
            "a pool of one thread could not be started",
        )
    })?;
    Ok(Throughput { n, median_ms, one_thread_ms, pairs })
}

params! {
    /// `particles/interaction-scaling`.
    pub struct InteractionScalingParams {
        n_max: usize = int(
            "largest particle count timed both ways", 20_000, 16, 22_000,
        ),
        n_grid: usize = int(
            "particle count for the grid's throughput (median of 5 evaluations, then 5 on one thread)",
            100_000,
            1_000,
            140_000,
        ),
    }
}

/// The work of `interaction-scaling` in brute-force pair checks: the brute-force
/// sweep's n_max² dominates the timed rows, and one particle of the grid's throughput
/// run (counted, then timed five times on the pool and five on one thread) costs
/// about as much as 2,100 pair checks (measured in release on one core of the book's
/// 2-core machine while other builds ran: 1.8 s for n_max = 20,000 alone, 3.7 s for
/// n_grid = 400,000 alone). At the limit a run takes about 3 s on that busy machine,
/// 2.4 s on a quiet one.
fn scaling_work(p: &InteractionScalingParams) -> f64 {
    let (n_max, n_grid) = (p.n_max as f64, p.n_grid as f64);
    n_max * n_max + 2_100.0 * n_grid
}

fn interaction_scaling(p: InteractionScalingParams) -> Result<Value, PbmError> {
    let n_max = p.n_max;
    let law = scaling_law()?;
    let mut rows = Vec::new();
    for shift in (0..5).rev() {
        let n = n_max >> shift;
        if n < 2 {
            continue;
        }
        let (brute_ms, grid_ms, difference) = scaling_row(&law, n)?;
        rows.push(json!({"n": n, "brute_ms": brute_ms, "grid_ms": grid_ms, "max_force_difference": difference}));
    }
    let t = grid_throughput(&law, p.n_grid)?;
    let rate = |ms: f64| t.pairs as f64 / (ms * 1e-3);
    Ok(json!({
        "threads": threads(),
        "rows": rows,
        "grid_n": t.n,
        "grid_median_ms": t.median_ms,
        "interacting_pairs": t.pairs,
        "pair_interactions_per_second": rate(t.median_ms),
        "one_thread_pairs_per_second": rate(t.one_thread_ms),
        "speedup": t.one_thread_ms / t.median_ms,
    }))
}

params! {
    /// `particles/hanging-structure`.
    pub struct HangingStructureParams {
        mouse: bool = boolean("drag the free end with the scripted mouse", true),
        t_end: f64 = duration(12.0, 0.0, 60.0).from_zero(),
    }
}

fn hanging_structure(p: HangingStructureParams) -> Result<Value, PbmError> {
    let (with_mouse, t_end) = (p.mouse, p.t_end);
    let mut system = beam(with_mouse)?;
    let tip = crate::scenes::beam_index(crate::scenes::BEAM.0 - 1, 1);
    let h = 1e-3;
    let snaps = run_with_snapshots(&mut system, h, t_end, &[1.5])?;
    let lifted = snaps.first().map(|(_, xs)| xs[tip].y);
    let max_speed = system.max_speed();
    Ok(json!({
        "mouse": with_mouse,
        "t_end": t_end,
        "tip_height_at_release": lifted,
        "tip_sag_at_end": system.particles[tip].x.y,
        "max_speed_at_end": max_speed,
        "settled": max_speed < 1e-3,
        "h": h,
    }))
}
