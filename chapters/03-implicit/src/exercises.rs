//! The chapter's runnable experiments: `pbm run implicit/<id> --set key=value`.

use crate::backward_euler::backward_euler_step;
use crate::mass_spring::Preconditioner;
use crate::minimization::{backward_euler_residual, minimization_step};
use crate::scenes::nailed_bob;
use crate::sheet::{Solve, explicit_sheet_stays_bounded, implicit_sheet_run};
use crate::stiff::{StiffExample, max_stable_step, penalty_needed};
use nalgebra::Vector3;
use pbm_ode::system::state_of;
use pbm_ode::tableau::{EULER, RK4};
use pbm_particles::spring::{spring_force, spring_jacobians};
use pbm_prelim::finite_difference::{EPSILON, central_jacobian};
use pbm_prelim::parallel::map_range;
use pbm_prelim::sampling::{sample, sample_vector};
use pbm_prelim::{Choice, PbmError, params};
use pbm_prelim::{Exercise, Optional, budget};
use serde_json::{Value, json};
use std::time::Instant;

impl Choice for Preconditioner {
    const OPTIONS: &'static [(&'static str, Self)] = &[
        ("multigrid", Preconditioner::Multigrid),
        ("jacobi", Preconditioner::BlockJacobi),
    ];
}

/// Every exercise of the chapter, in reading order.
pub fn all() -> Vec<Exercise> {
    vec![
        Exercise::new(
            "stiff-blowup",
            "largest stable explicit steps on x' = -x, y' = -ky, against backward Euler",
            stiff_blowup,
        ),
        Exercise::new(
            "particle-on-line",
            "a penalty spring holding a dragged particle within ε of a line: the k it needs and the step it allows",
            particle_on_line,
        ),
        Exercise::new(
            "stable-step-sweep",
            "largest stable Euler and RK4 steps for k from 10 to 1e6, swept in parallel",
            stable_step_sweep,
        ),
        Exercise::new(
            "one-big-step",
            "one backward Euler step with h = 1e9 lands on the origin, as the notes claim",
            one_big_step,
        ),
        Exercise::new(
            "newton",
            "one backward Euler step of a bob on a spring, by Newton's method on Φ: ‖∇Φ‖ per iteration, against the linearized step",
            newton,
        )
        .optional(&[Optional {
                field: "predicted_rate",
                null_when: "if the spring ends stretched (the clamp leaves nothing out)",
            }]),
        Exercise::new(
            "jacobian-check",
            "analytic spring Jacobians against central finite differences",
            jacobian_check,
        ),
        Exercise::new(
            "sheet",
            "a pinned n x n stiff sheet at frame-size steps: RK4 explodes, backward Euler does not",
            sheet,
        )
        // A 256 × 256 sheet runs for a step or two (`--set n=256 --set h=1`).
        .joint(&["n"])
        .heavy()
        .limit(
            (
                "n² × (171 + (steps − 1) (170 + n (7 + 23 s) d / 10)) with \
                 preconditioner=jacobi, s = log10(k / 1000) / 4 clamped to [0, 1], \
                 d = −log10(tolerance)",
                "particle-iterations",
            ),
            (SHEET_JACOBI_LIMIT, SHEET_CHANGE),
            jacobi_work,
        )
        .limit(
            (
                "n² × (60 + (steps − 1) (6 + √n (1 + 3 s) d max(1, n / 64))) with \
                 preconditioner=multigrid, s and d as above",
                "particle-iterations",
            ),
            (SHEET_MULTIGRID_LIMIT, SHEET_CHANGE),
            multigrid_work,
        ),
        Exercise::new(
            "sheet-sizes",
            "the implicit sheet at n = 32, 64 and 128: CG iterations and time per step",
            sheet_sizes,
        )
        .heavy()
        .limit(
            ("steps of 1/30 s × (0.26 s with jacobi, 0.092 s with multigrid)", "estimated seconds"),
            (2.8, "lower t_end"),
            sizes_seconds,
        ),
    ]
}

params! {
    /// `implicit/stiff-blowup`.
    pub struct StiffBlowupParams {
        k: f64 = float("stiffness", "1/s", 1000.0, 1e-3, 1e7),
    }
}

fn stiff_blowup(p: StiffBlowupParams) -> Result<Value, PbmError> {
    let k = p.k;
    let euler = max_stable_step(EULER, k)?;
    let rk4 = max_stable_step(RK4, k)?;
    // Backward Euler at steps from 1e-3 to 1e3: every step must shrink both
    // coordinates.
    let mut implicit_stable = true;
    for exponent in -3..=3 {
        let h = 10f64.powi(exponent);
        let mut system = StiffExample::new(k, 1.0, 1.0)?;
        for _ in 0..100 {
            let before = state_of(&system);
            backward_euler_step(&mut system, h)?;
            let after = state_of(&system);
            implicit_stable &=
                after.iter().zip(&before).all(|(a, b)| a.abs() <= b.abs());
        }
    }
    Ok(json!({
        "k": k,
        // The slower mode x' = -x limits the step once k < 1.
        "theory_euler_limit": 2.0 / k.max(1.0),
        "explicit_euler_max_stable_h": euler,
        "rk4_max_stable_h": rk4,
        "rk4_over_euler": rk4 / euler,
        "implicit_stable": implicit_stable,
    }))
}

params! {
    /// `implicit/particle-on-line`.
    pub struct ParticleOnLineParams {
        epsilon: f64 = float("allowed distance from the line", "m", 1e-3, 1e-9, 1.0),
        // At least 1 N, so that k = f_max/ε ≥ 1 and the penalty direction, not the
        // x' = -x drag of the test system, limits the step.
        f_max: f64 = float("largest pull", "N", 100.0, 1.0, 1e6),
    }
}

fn particle_on_line(p: ParticleOnLineParams) -> Result<Value, PbmError> {
    let (epsilon, f_max) = (p.epsilon, p.f_max);
    let (k, h_theory) = penalty_needed(epsilon, f_max)?;
    let h_measured = max_stable_step(EULER, k)?;
    // Dragging along x at 1 m/s: how many steps does one metre take at the largest
    // stable step?
    Ok(json!({
        "epsilon": epsilon,
        "f_max": f_max,
        "k_needed": k,
        "theory_max_h": h_theory,
        "measured_max_h": h_measured,
        "steps_per_metre_at_1_m_per_s": (1.0 / h_measured).ceil(),
    }))
}

params! {
    /// `implicit/stable-step-sweep`.
    pub struct StableStepSweepParams {
        points: usize = int("values of k, evenly spaced in log k", 11, 2, 21),
    }
}

fn stable_step_sweep(p: StableStepSweepParams) -> Result<Value, PbmError> {
    let points = p.points;
    let ks: Vec<f64> = (0..points)
        .map(|i| 10f64.powf(1.0 + 5.0 * i as f64 / (points - 1) as f64))
        .collect();
    // Each k is an independent search: an embarrassingly parallel sweep, collected in
    // order.
    let rows = map_range(ks.len(), |i| {
        let k = ks[i];
        Ok(json!({"k": k, "euler_max_h": max_stable_step(EULER, k)?, "rk4_max_h": max_stable_step(RK4, k)?}))
    })
    .into_iter()
    .collect::<Result<Vec<Value>, PbmError>>()?;
    Ok(json!({ "rows": rows }))
}

params! {
    /// `implicit/one-big-step`.
    pub struct OneBigStepParams {
        k: f64 = positive("stiffness", "1/s", 1000.0, 1e7),
        h: f64 = step(1e9, 0.0, 1e12),
    }
}

fn one_big_step(p: OneBigStepParams) -> Result<Value, PbmError> {
    let (k, h) = (p.k, p.h);
    let mut system = StiffExample::new(k, 1.0, 1.0)?;
    backward_euler_step(&mut system, h)?;
    let x = state_of(&system);
    Ok(
        json!({ "k": k, "h": h, "state_after_one_step": x, "distance_to_origin_after_one_step": x[0].hypot(x[1]) }),
    )
}

params! {
    /// `implicit/newton`.
    pub struct NewtonParams {
        below: f64 = float("bob's start below the nail", "m", 1.2, 0.1, 3.0),
        vy: f64 = float("bob's start speed upward", "m/s", 0.0, -20.0, 20.0),
        h: f64 = step(0.05, 1e-4, 10.0),
        k: f64 = float("spring stiffness", "N/m", 100.0, 1.0, 1e5),
    }
}

fn newton(p: NewtonParams) -> Result<Value, PbmError> {
    let (below, vy, h, k) = (p.below, p.vy, p.h, p.k);
    let bob = || nailed_bob(below, vy, k, 0.0);
    let (x0, v0) = {
        let m = bob()?;
        let parts = m.system.particles.iter();
        (
            parts.clone().map(|p| p.x).collect::<Vec<_>>(),
            parts.map(|p| p.v).collect::<Vec<_>>(),
        )
    };
    // The linearized step of the previous page, and what it leaves of the equations.
    let mut linear = bob()?;
    linear.backward_euler_step(h)?;
    let linearized_residual = backward_euler_residual(&mut linear, &x0, &v0, h)?;
    // Newton, stopped after 0, 1, 2, ... iterations: the method is deterministic, so
    // each run's last iterate is the long run's.
    const MAX: usize = 40;
    let mut norms = Vec::new();
    let (mut newton_x, mut shortened) = (x0[1], 0);
    for k_max in 0..=MAX {
        let mut model = bob()?;
        let report = minimization_step(&mut model, h, 0.0, k_max)?;
        norms.push(report.gradient_norm);
        shortened = report.shortened;
        newton_x = model.system.particles[1].x;
        if report.gradient_norm <= 1e-12 || report.iterations < k_max {
            break;
        }
    }
    let length = newton_x.norm();
    // Across a compressed spring the clamp leaves out k (1 − r/L) < 0: each
    // iteration keeps h² k (r/L − 1)/m of the error across it.
    let predicted = (length < 1.0).then(|| h * h * k * (1.0 / length - 1.0));
    let ratios: Vec<f64> = norms.windows(2).map(|w| w[1] / w[0]).collect();
    Ok(json!({
        "h": h,
        "k": k,
        "linearized_residual": linearized_residual,
        "linearized_distance": (linear.system.particles[1].x - newton_x).norm(),
        "newton_iterations": norms.len() - 1,
        "gradient_norms": norms,
        "ratios": ratios,
        "final_gradient_norm": norms.last().copied().unwrap_or(f64::NAN),
        "final_length": length,
        "predicted_rate": predicted,
        "below": below,
        "side": x0[1].x,
        "line_search_shortened": shortened,
    }))
}

/// Largest difference between the analytic Jacobians of one random spring state and
/// central differences of the force, relative to the Jacobian's size (step 1e-6:
/// truncation ~1e-12, rounding ~1e-10).
pub fn jacobian_fd_error(seed: u64) -> Result<f64, PbmError> {
    let (xa, xb, va, vb) = (
        sample_vector::<3>(4 * seed),
        sample_vector::<3>(4 * seed + 1) * 2.0 + Vector3::new(3.0, 0.0, 0.0),
        sample_vector::<3>(4 * seed + 2),
        sample_vector::<3>(4 * seed + 3),
    );
    let consts = (
        1.0 + 9.0 * sample(7 * seed).abs(),
        sample(11 * seed).abs(),
        0.5 + 2.0 * sample(13 * seed).abs(),
    );
    let (dfdx, dfdv) = spring_jacobians((&xa, &va), (&xb, &vb), consts)?;
    // The force on a as a function of a's position, or of a's velocity.
    let force = |by_velocity: bool| {
        move |probe: &[f64], out: &mut [f64]| -> Result<(), PbmError> {
            let p = Vector3::from_column_slice(probe);
            let (x, v) = if by_velocity { (xa, p) } else { (p, va) };
            out.copy_from_slice(
                spring_force((&x, &v), (&xb, &vb), consts)?.as_slice(),
            );
            Ok(())
        }
    };
    let fd_dfdx = central_jacobian(force(false), xa.as_slice(), 3, EPSILON)?;
    let fd_dfdv = central_jacobian(force(true), va.as_slice(), 3, EPSILON)?;
    // Relative to the size of the whole Jacobian: a nearly undamped spring's tiny
    // ∂f/∂v must not turn rounding noise into a large "relative" error.
    let scale = dfdx.norm() + dfdv.norm();
    let mut worst: f64 = 0.0;
    for (analytic, numeric) in [(dfdx, fd_dfdx), (dfdv, fd_dfdv)] {
        for r in 0..3 {
            for c in 0..3 {
                worst =
                    worst.max((analytic[(r, c)] - numeric[3 * r + c]).abs() / scale);
            }
        }
    }
    Ok(worst)
}

params! {
    /// `implicit/jacobian-check`.
    pub struct JacobianCheckParams {
        samples: usize = int("random spring states", 200, 1, 100_000),
    }
}

fn jacobian_check(p: JacobianCheckParams) -> Result<Value, PbmError> {
    let samples = p.samples;
    let mut worst: f64 = 0.0;
    for s in 0..samples as u64 {
        worst = worst.max(jacobian_fd_error(s)?);
    }
    Ok(json!({ "samples": samples, "max_relative_fd_error": worst }))
}

/// The sizes `sheet-sizes` runs.
const SHEET_SIZES: [usize; 3] = [32, 64, 128];

params! {
    /// `implicit/sheet-sizes`.
    pub struct SheetSizesParams {
        t_end: f64 = duration(0.25, 0.0, 1.0).from_zero(),
        preconditioner: Preconditioner = choice(
            "CG's preconditioner", Solve::FRAME.preconditioner,
        ),
    }
}

/// `sheet-sizes`' time per step of the three sheets together, measured in release on
/// one thread of the book's 2-core machine with nothing else running: block Jacobi
/// 2.47 s for 12 steps and 7.58 s for 30, multigrid 1.03 s for 12 and 2.73 s for 30
/// (the first steps from rest cost less, so a step of a longer run costs more:
/// these are the long runs' rates, rounded up). The limit of 2.8 estimated seconds
/// admits the whole range of t_end with multigrid, and ten steps with Jacobi.
fn sizes_seconds(p: &SheetSizesParams) -> f64 {
    let per_step = match p.preconditioner {
        Preconditioner::BlockJacobi => 0.26,
        Preconditioner::Multigrid => 0.092,
    };
    budget::steps(p.t_end, 1.0 / 30.0) * per_step
}

fn sheet_sizes(p: SheetSizesParams) -> Result<Value, PbmError> {
    let t_end = p.t_end;
    let preconditioner = p.preconditioner;
    let h = 1.0 / 30.0;
    let solve = Solve { preconditioner, ..Solve::FRAME };
    let mut rows = Vec::new();
    for n in SHEET_SIZES {
        let start = Instant::now();
        let run = implicit_sheet_run(n, 1000.0, h, t_end, solve)?;
        let ms_per_step = start.elapsed().as_secs_f64() * 1e3 / run.steps as f64;
        rows.push(json!({
            "n": n,
            "unknowns": 3 * n * n,
            "mean_cg_iterations": run.mean_cg_iterations,
            "ms_per_step": ms_per_step,
        }));
    }
    Ok(json!({ "preconditioner": preconditioner.word(), "rows": rows }))
}

params! {
    /// `implicit/sheet`.
    pub struct SheetParams {
        n: usize = int("particles along a side", 32, 2, 256),
        k: f64 = positive("spring stiffness", "N/m", 1000.0, 1e7),
        h: f64 = step(1.0 / 30.0, 0.0, 1.0),
        t_end: f64 = duration(2.0, 0.0, 10.0).from_zero(),
        tolerance: f64 = float(
            "CG's relative residual per step", "", Solve::FRAME.tolerance, 1e-12, 0.1,
        ),
        warm: bool = boolean(
            "start CG from the last step's Δv (false: from zero)",
            Solve::FRAME.warm_start,
        ),
        preconditioner: Preconditioner = choice(
            "CG's preconditioner", Solve::FRAME.preconditioner,
        ),
    }
}

/// The most particle-iterations a block-Jacobi run may take: about 2.9 s at the worst
/// measured rate ([`jacobi_work`]).
const SHEET_JACOBI_LIMIT: f64 = 7e7;

/// The most a multigrid run may take: about 2.5 s ([`multigrid_work`]).
const SHEET_MULTIGRID_LIMIT: f64 = 2.5e7;

/// What to change when the sheet is over its limit.
const SHEET_CHANGE: &str = "lower n, t_end or k, raise h, or loosen tolerance";

/// The sheet's steps, particles, digits asked of CG and stiffness in [0, 1].
fn sheet_size(p: &SheetParams) -> (f64, f64, f64, f64) {
    let digits = (-p.tolerance.log10()).clamp(1.0, 12.0);
    let stiffness = ((p.k / 1000.0).log10() / 4.0).clamp(0.0, 1.0);
    let steps = budget::steps(p.t_end, p.h);
    (steps, (p.n * p.n) as f64, digits, stiffness)
}

/// Block Jacobi's cost per step and particle: about 170 CG iterations' worth for the
/// RK4 run and the assembly, plus the iterations themselves, measured at 7n for
/// k ≤ 1000 and up to 30n at k = 1e7 to ten digits, and in proportion to the digits
/// asked for. The first step, from rest, costs the assembly and one iteration
/// whatever the sheet: gravity alone moves every particle alike, which no spring
/// resists, so CG's first direction is the answer (`tests` pin it). Measured in
/// release on one thread of the book's machine: 1.7 s at n = 64 and the defaults
/// (0.94 of the limit), 6.2 s to ten digits from zero (1.9 of it).
fn jacobi_work(p: &SheetParams) -> f64 {
    if p.preconditioner != Preconditioner::BlockJacobi {
        return 0.0;
    }
    let (steps, particles, digits, stiffness) = sheet_size(p);
    let iterations = p.n as f64 * (7.0 + 23.0 * stiffness) * digits / 10.0;
    particles * (171.0 + (steps - 1.0) * (170.0 + iterations))
}

/// Multigrid's, measured on the book's machine: about √n (1 + 3 stiffness)
/// iterations per digit (13 at the defaults with n = 40, 63 at k = 1e7, 230 at
/// k = 1e7 to ten digits from zero), each taking about 0.1 µs per particle, a little
/// more as n grows past 64 and the matrices outgrow the caches, plus about six
/// iterations' worth per particle for forces and assembly; the first step from rest
/// (see [`jacobi_work`]) costs building the hierarchy, about 60 units a particle
/// (0.36 s at n = 256). The defaults at n = 93 come to the limit and took 1.8 s in
/// release on one thread; n = 40 at k = 1e7 to ten digits from zero, 2.4 s at 0.96
/// of it; one step at n = 256, 0.36 s.
fn multigrid_work(p: &SheetParams) -> f64 {
    if p.preconditioner != Preconditioner::Multigrid {
        return 0.0;
    }
    let (steps, particles, digits, stiffness) = sheet_size(p);
    let iterations = (p.n as f64).sqrt() * (1.0 + 3.0 * stiffness) * digits;
    let cache = (p.n as f64 / 64.0).max(1.0);
    particles * (60.0 + (steps - 1.0) * (6.0 + iterations * cache))
}

fn sheet(p: SheetParams) -> Result<Value, PbmError> {
    let (n, k, h) = (p.n, p.k, p.h);
    let t_end = p.t_end;
    let tolerance = p.tolerance;
    let preconditioner = p.preconditioner;
    let explicit_stable = explicit_sheet_stays_bounded(n, k, h, t_end)?;
    let start = Instant::now();
    let solve = Solve { tolerance, warm_start: p.warm, preconditioner };
    let implicit = implicit_sheet_run(n, k, h, t_end, solve)?;
    let ms_per_step = start.elapsed().as_secs_f64() * 1e3 / implicit.steps as f64;
    Ok(json!({
        "n": n,
        "k": k,
        "h": h,
        "explicit_stable": explicit_stable,
        "implicit_stable": implicit.stable,
        "cg_tolerance": solve.tolerance,
        "warm_start": solve.warm_start,
        "preconditioner": solve.preconditioner.word(),
        "mean_cg_iterations": implicit.mean_cg_iterations,
        "ms_per_step": ms_per_step,
        "lowest_z_at_end": implicit.lowest_z,
    }))
}
