//! The chapter's runnable experiments: `pbm run ode/<id> --set key=value`. Each
//! returns one JSON object whose keys are a contract with the tests and the book.

use crate::convergence::{
    ADAPTIVE_ECCENTRICITY, AdaptiveMethod, CONVERGENCE_ECCENTRICITY,
    DOPRI_TOLERANCES, DOUBLING_TOLERANCES, adaptive_orbit, adaptive_sweep,
    error_curve, fit_step_counts, fixed_steps_for_error, log_log_slope,
};
use crate::runge_kutta::integrate;
use crate::scenes::{
    KEPLER_PERIOD, circle_field, euler_radius_ratio, kepler_energy, kepler_exact,
    kepler_initial_state, kepler_orbit,
};
use crate::stability::{
    euler_decay, euler_decay_factor, observed_regime, predicted_regime,
};
use crate::step_control::{Control, StepControl, Tolerance, dense_run};
use crate::symplectic::{
    EnergyRecord, SYMPLECTIC_EVALUATIONS, SYMPLECTIC_ORBITS, dopri_orbit,
    verlet_orbit,
};
use crate::tableau::{ButcherTableau, EULER, MIDPOINT, RK4};
use pbm_prelim::{Choice, Exercise, Optional, PbmError, Promise, params};
use serde_json::{Value, json};

impl Choice for AdaptiveMethod {
    const OPTIONS: &'static [(&'static str, Self)] = &[
        ("dopri5", AdaptiveMethod::DormandPrince),
        ("euler-doubling", AdaptiveMethod::EulerDoubling),
    ];
}

/// Every exercise of the chapter, in reading order.
pub fn all() -> Vec<Exercise> {
    vec![
        Exercise::new(
            "euler-spiral",
            "Euler on the circular field: each step multiplies the radius by sqrt(1+h^2)",
            euler_spiral,
        )
        .promises(&[Promise {
            field: "/max_ratio_deviation",
            over: None,
            max: 1e-12,
            says: "every step multiplies the radius by √(1 + h²), to rounding",
        }]),
        Exercise::new(
            "stability",
            "Euler on x' = -kx: monotone for h < 1/k, oscillating up to 2/k, divergent beyond",
            stability,
        )
        .optional(&[Optional {
            field: "overflowed_at_step",
            null_when: "if |x| never overflowed",
        }]),
        Exercise::new(
            "convergence",
            "global error against step size on a Kepler orbit; the slopes are the orders",
            convergence,
        ),
        Exercise::new(
            "adaptive",
            "adaptive steps on an eccentric orbit against the fixed steps that match their error",
            adaptive,
        )
        .heavy()
        .limit(
            ("1.8e4 × √(1e-6 / tol) × (0.5 / (1 − eccentricity))² with method=euler-doubling", "Euler steps"),
            (3.5e6, "raise tol or lower eccentricity, or use method=dopri5"),
            euler_steps,
        ),
        Exercise::new(
            "work-precision",
            "the adaptive runs of the work-precision diagram, and each Dormand-Prince run's saving",
            work_precision,
        ),
        Exercise::new(
            "step-control",
            "a mixed error norm, the integral and PI controllers, and dense output at frame times",
            step_control,
        ),
        Exercise::new(
            "symplectic",
            "Stormer-Verlet against Dormand-Prince at equal evaluations: bounded energy error against drift",
            symplectic,
        )
        .limit(
            ("orbits × evaluations_per_orbit", "evaluations per integrator"),
            (SYMPLECTIC_LIMIT, "lower orbits or evaluations_per_orbit"),
            symplectic_evaluations,
        ),
    ]
}

fn radius(p: &[f64]) -> f64 {
    p[0].hypot(p[1])
}

params! {
    /// `ode/euler-spiral`.
    pub struct EulerSpiralParams {
        h: f64 = step(0.1, 0.0, 2.0),
        steps: usize = int(
            "number of steps (63 x 0.1 s is about one turn)", 63, 1, 1_000_000,
        ),
    }
}

fn euler_spiral(
    EulerSpiralParams { h, steps }: EulerSpiralParams,
) -> Result<Value, PbmError> {
    let final_radius = |tableau: ButcherTableau| -> Result<f64, PbmError> {
        let states = integrate(&mut circle_field(1.0, 0.0)?, tableau, h, steps)?;
        Ok(radius(&states[steps]))
    };
    let states = integrate(&mut circle_field(1.0, 0.0)?, EULER, h, steps)?;
    let expected = euler_radius_ratio(h);
    let max_deviation = states
        .windows(2)
        .map(|w| (radius(&w[1]) / radius(&w[0]) - expected).abs())
        .fold(0.0, f64::max);
    let euler_final = radius(&states[steps]);
    Ok(json!({
        "h": h,
        "steps": steps,
        "radius_ratio_per_step": euler_final.powf(1.0 / steps as f64),
        "expected_ratio": expected,
        "max_ratio_deviation": max_deviation,
        "euler_final_radius": euler_final,
        "euler_log_final_radius": euler_final.ln(),
        "midpoint_final_radius": final_radius(MIDPOINT)?,
        "rk4_final_radius": final_radius(RK4)?,
    }))
}

params! {
    /// `ode/stability`.
    pub struct StabilityParams {
        k: f64 = float("decay rate", "1/s", 10.0, 1e-6, 1e6).label("stiffness k"),
        h: f64 = step(0.15, 0.0, 100.0),
        steps: usize = int("number of steps", 20, 1, 100_000),
    }
}

fn stability(
    StabilityParams { k, h, steps }: StabilityParams,
) -> Result<Value, PbmError> {
    let (xs, overflow) = euler_decay(k, h, steps)?;
    let regime = if overflow.is_some() {
        predicted_regime(k, h)
    } else {
        observed_regime(&xs)
    };
    Ok(json!({
        "k": k,
        "h": h,
        "regime": regime.as_str(),
        "predicted_regime": predicted_regime(k, h).as_str(),
        "factor_per_step": euler_decay_factor(k, h),
        "monotone_below_h": 1.0 / k,
        "stable_below_h": 2.0 / k,
        "trajectory": xs.iter().take(11).collect::<Vec<_>>(),
        "final_abs_x": xs.last().map(|x| x.abs()),
        "overflowed_at_step": overflow,
    }))
}

params! {
    /// `ode/convergence`.
    pub struct ConvergenceParams {
        eccentricity: f64 =
            float("eccentricity of the test orbit", "", CONVERGENCE_ECCENTRICITY, 0.0, 0.8),
    }
}

fn convergence(
    ConvergenceParams { eccentricity: e }: ConvergenceParams,
) -> Result<Value, PbmError> {
    let mut orders = serde_json::Map::new();
    let mut curves = serde_json::Map::new();
    for tableau in [EULER, MIDPOINT, RK4] {
        let curve = error_curve(tableau, e, &fit_step_counts(&tableau))?;
        let rows: Vec<Value> =
            curve.iter().map(|(h, err)| json!({"h": h, "error": err})).collect();
        let key = tableau.name.to_lowercase();
        orders.insert(key.clone(), json!(log_log_slope(&curve)));
        curves.insert(key, Value::Array(rows));
    }
    Ok(json!({ "eccentricity": e, "orders": orders, "errors": curves }))
}

// ANCHOR: adaptive_exercise
params! {
    /// `ode/adaptive`.
    pub struct AdaptiveParams {
        tol: f64 = float("largest local error per step", "", 1e-6, 1e-10, 0.1),
        method: AdaptiveMethod =
            choice("adaptive method", AdaptiveMethod::DormandPrince),
        eccentricity: f64 =
            float("eccentricity of the orbit", "", ADAPTIVE_ECCENTRICITY, 0.0, 0.95),
    }
}

fn adaptive(p: AdaptiveParams) -> Result<Value, PbmError> {
    let AdaptiveParams { tol, method, eccentricity: e } = p;
    let (run, final_error) = adaptive_orbit(method, e, tol)?;
    let fixed = method.fixed_step_tableau();
    let (fixed_steps, fixed_error) = fixed_steps_for_error(fixed, e, final_error)?;
    let fixed_evals = fixed.evaluations_for(fixed_steps);
    let steps = run.accepted.iter().map(|s| s.1);
    Ok(json!({
        "method": method.word(),
        "tol": tol,
        "adaptive_evals": run.evaluations,
        "accepted_steps": run.accepted.len(),
        "rejected_steps": run.rejected,
        "min_step": steps.clone().fold(f64::INFINITY, f64::min),
        "max_step": steps.fold(0.0, f64::max),
        "max_error_estimate": run.accepted.iter().map(|s| s.2).fold(0.0, f64::max),
        "final_error": final_error,
        "fixed_steps": fixed_steps,
        "fixed_evals": fixed_evals,
        "fixed_final_error": fixed_error,
        "evals_saved_factor": fixed_evals as f64 / run.evaluations as f64,
    }))
}
// ANCHOR_END: adaptive_exercise

/// The steps of the fixed-step Euler run that matches an Euler-doubling run's error
/// (zero for the other methods), which is nearly all of the run's time. It grows as
/// tol^-1/2 and as (1 - e)^-2: the perihelion's pass, where the fixed step must be as
/// small as the adaptive run's smallest, shortens as the orbit stretches. Measured in
/// release on the book's machine: 18,223 steps at e = 0.5 and tol = 1e-6, 437,261 at
/// e = 0.9 (0.29 s) and 1,694,625 at e = 0.95 (1.2 s), about 0.72 µs a step; the limit,
/// 3.5e6 steps, is about 2.5 s. (A model in (1 - e)^-1/2 let a run at e = 0.95 and
/// tol = 1.6e-7 take 3.7 s.)
fn euler_steps(p: &AdaptiveParams) -> f64 {
    match p.method {
        AdaptiveMethod::EulerDoubling => {
            1.8e4 * (1e-6 / p.tol).sqrt() * (0.5 / (1.0 - p.eccentricity)).powi(2)
        }
        _ => 0.0,
    }
}

params! {
    /// `ode/work-precision`.
    pub struct WorkPrecisionParams {
        eccentricity: f64 =
            float("eccentricity of the orbit", "", ADAPTIVE_ECCENTRICITY, 0.0, 0.95),
    }
}

/// The adaptive runs the work-precision figure draws: Euler with step doubling and
/// Dormand–Prince over their tolerances, each Dormand–Prince run with the fixed-step
/// evaluations that match its error. Every run is one `ode/adaptive` allows, and all
/// of them together take under a second in release at e = 0.95, so no budget check.
fn work_precision(p: WorkPrecisionParams) -> Result<Value, PbmError> {
    let e = p.eccentricity;
    let doubling =
        adaptive_sweep(AdaptiveMethod::EulerDoubling, e, &DOUBLING_TOLERANCES)?;
    let mut dopri = Vec::new();
    let mut factors = Vec::new();
    for point in adaptive_sweep(AdaptiveMethod::DormandPrince, e, &DOPRI_TOLERANCES)?
    {
        let fixed = AdaptiveMethod::DormandPrince.fixed_step_tableau();
        let (steps, _) = fixed_steps_for_error(fixed, e, point.final_error)?;
        let fixed_evals = fixed.evaluations_for(steps);
        let factor = fixed_evals as f64 / point.evaluations as f64;
        factors.push(factor);
        dopri.push(json!({
            "tol": point.tol,
            "evaluations": point.evaluations,
            "final_error": point.final_error,
            "fixed_evals": fixed_evals,
            "evals_saved_factor": factor,
        }));
    }
    let doubling: Vec<Value> = doubling
        .iter()
        .map(|p| json!({"tol": p.tol, "evaluations": p.evaluations, "final_error": p.final_error}))
        .collect();
    Ok(json!({
        "eccentricity": e,
        "euler_doubling": doubling,
        "dopri5": dopri,
        "saved_factor_min": factors.iter().copied().fold(f64::INFINITY, f64::min),
        "saved_factor_max": factors.iter().copied().fold(0.0, f64::max),
        "saving_grows_with_every_tightening": factors.windows(2).all(|w| w[1] >= w[0]),
    }))
}

impl Choice for Control {
    const OPTIONS: &'static [(&'static str, Self)] =
        &[("pi", Control::ProportionalIntegral), ("integral", Control::Integral)];
}

params! {
    /// `ode/step-control`.
    pub struct StepControlParams {
        rtol: f64 = float("relative tolerance per component", "", 1e-6, 1e-12, 0.1),
        atol: f64 = float("absolute tolerance per component", "", 1e-8, 1e-14, 1.0),
        eccentricity: f64 =
            float("eccentricity of the orbit", "", ADAPTIVE_ECCENTRICITY, 0.0, 0.95),
        frames: usize = int(
            "equally spaced output times over the orbit", 600, 1, 100_000,
        ),
    }
}

/// One period of the orbit under each controller, with the mixed norm; the PI run
/// also samples the orbit at the frame times, by the Hermite cubic and by straight
/// lines, against Kepler's exact solution. At the tightest rtol and e = 0.95 the
/// two runs take about 2,000 steps: no budget check.
fn step_control(p: StepControlParams) -> Result<Value, PbmError> {
    let tol = Tolerance::new(p.atol, p.rtol)?;
    let e = p.eccentricity;
    let mut runs = serde_json::Map::new();
    let mut frames = json!(null);
    for (name, control) in
        [("integral", Control::Integral), ("pi", Control::ProportionalIntegral)]
    {
        let mut system = kepler_orbit(e)?;
        let dense =
            dense_run(&mut system, (tol, control), (1e-3, KEPLER_PERIOD), p.frames)?;
        let end = &dense.steps[dense.steps.len() - 1].1;
        let exact = kepler_exact(e, KEPLER_PERIOD);
        runs.insert(
            name.into(),
            json!({
                "set_point": StepControl::new(control, 5.0).set_point(),
                "evaluations": dense.run.evaluations,
                "accepted_steps": dense.run.accepted,
                "rejected_steps": dense.run.rejected,
                "final_error": (end[0] - exact[0]).hypot(end[1] - exact[1]),
            }),
        );
        if control == Control::ProportionalIntegral {
            let worst = |states: &[Vec<f64>]| {
                dense
                    .times
                    .iter()
                    .zip(states)
                    .map(|(t, x)| {
                        let truth = kepler_exact(e, *t);
                        (x[0] - truth[0]).hypot(x[1] - truth[1])
                    })
                    .fold(0.0, f64::max)
            };
            frames = json!({
                "frames": p.frames,
                "cubic_error_max": worst(&dense.cubic),
                "linear_error_max": worst(&dense.linear),
            });
        }
    }
    Ok(json!({ "rtol": p.rtol, "atol": p.atol, "eccentricity": e,
               "integral": runs["integral"], "pi": runs["pi"], "dense_output": frames }))
}

params! {
    /// `ode/symplectic`.
    pub struct SymplecticParams {
        eccentricity: f64 =
            float("eccentricity of the orbit", "", ADAPTIVE_ECCENTRICITY, 0.0, 0.95),
        // Each range reaches the limit with the other at its default.
        orbits: usize = int(
            "periods to run",
            SYMPLECTIC_ORBITS as u64,
            1,
            SYMPLECTIC_LIMIT as u64 / SYMPLECTIC_EVALUATIONS as u64,
        ),
        evaluations_per_orbit: usize =
            int(
                "force evaluations per period, for each integrator",
                SYMPLECTIC_EVALUATIONS as u64,
                60,
                SYMPLECTIC_LIMIT as u64 / SYMPLECTIC_ORBITS as u64,
            ),
    }
}

/// Most evaluations each integrator may spend: the two runs at the limit take
/// about 2 s together in release.
const SYMPLECTIC_LIMIT: f64 = 3e7;

/// What `ode/symplectic` spends per integrator.
fn symplectic_evaluations(p: &SymplecticParams) -> f64 {
    p.orbits as f64 * p.evaluations_per_orbit as f64
}

/// Both integrators on `orbits` periods at equal evaluations: Verlet takes one a
/// step, Dormand–Prince six (its first step seven), so it takes a sixth of the steps.
fn symplectic(p: SymplecticParams) -> Result<Value, PbmError> {
    let (e, n) = (p.eccentricity, p.evaluations_per_orbit);
    let verlet = verlet_orbit(e, p.orbits, n, n)?;
    let dopri = dopri_orbit(e, p.orbits, n / 6, n / 6)?;
    let exact = kepler_exact(e, KEPLER_PERIOD * p.orbits as f64);
    let report = |r: &EnergyRecord| {
        json!({
            "evaluations": r.evaluations,
            "position_error_final": (r.end[0] - exact[0]).hypot(r.end[1] - exact[1]),
            "energy_error_max": r.max_error,
            "energy_error_final": r.final_error,
        })
    };
    Ok(json!({
        "eccentricity": e,
        "orbits": p.orbits,
        "energy": kepler_energy(&kepler_initial_state(e)?),
        "verlet": report(&verlet),
        "dormand_prince": report(&dopri),
        "energy_error_max_ratio": dopri.max_error / verlet.max_error,
    }))
}
