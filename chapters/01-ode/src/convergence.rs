//! Measuring accuracy: the global error after a fixed time as a function of h, and
//! the order p read off as the slope of log(error) against log(h) (course notes,
//! section 2's Taylor-series argument: local error O(h^{p+1}), global error O(h^p)).

use crate::adaptive::{
    AdaptiveRun, Controller, EmbeddedPair, ErrorEstimatingStep, EulerDoubling,
    distance, integrate_adaptive,
};
use crate::runge_kutta::RungeKutta;
use crate::scenes::{KEPLER_PERIOD, kepler_initial_state, kepler_orbit};
use crate::system::{OdeSystem, state_of};
use crate::tableau::{ButcherTableau, DORMAND_PRINCE, EULER};
use pbm_prelim::PbmError;

/// Eccentricity of the orbit used to measure orders: eccentric enough to be a real
/// test, round enough that Euler reaches its asymptotic regime at affordable step
/// counts.
pub const CONVERGENCE_ECCENTRICITY: f64 = 0.5;

/// Global error of `tableau` after one period of the orbit of eccentricity `e` in
/// `steps` equal steps: the distance between the final state and the exact one (the
/// initial state).
pub fn orbit_error(
    tableau: ButcherTableau,
    e: f64,
    steps: usize,
) -> Result<f64, PbmError> {
    if steps == 0 {
        return Err(PbmError::invalid("step count", "steps must be at least 1"));
    }
    let mut orbit = kepler_orbit(e)?;
    let mut stepper = RungeKutta::new(tableau);
    let h = KEPLER_PERIOD / steps as f64;
    for _ in 0..steps {
        stepper.step(&mut orbit, h)?;
    }
    Ok(distance(&state_of(&orbit), &kepler_initial_state(e)?))
}

// ANCHOR: fit_slope
/// Least-squares slope of log y against log x: the exponent p in y ≈ C x^p.
pub fn log_log_slope(points: &[(f64, f64)]) -> f64 {
    let n = points.len() as f64;
    let logs: Vec<(f64, f64)> =
        points.iter().map(|(x, y)| (x.ln(), y.ln())).collect();
    let mean_x = logs.iter().map(|p| p.0).sum::<f64>() / n;
    let mean_y = logs.iter().map(|p| p.1).sum::<f64>() / n;
    let sxy: f64 = logs.iter().map(|(x, y)| (x - mean_x) * (y - mean_y)).sum();
    let sxx: f64 = logs.iter().map(|(x, _)| (x - mean_x) * (x - mean_x)).sum();
    sxy / sxx
}
// ANCHOR_END: fit_slope

/// Error against step size for a range of step counts: rows of (h, global error).
pub fn error_curve(
    tableau: ButcherTableau,
    e: f64,
    step_counts: &[usize],
) -> Result<Vec<(f64, f64)>, PbmError> {
    step_counts
        .iter()
        .map(|&n| Ok((KEPLER_PERIOD / n as f64, orbit_error(tableau, e, n)?)))
        .collect()
}

/// The fewest equal steps with which `tableau` gets within `target` of the exact
/// orbit, with the error it then makes. Doubles the step count until the target is
/// met, then bisects. Assumes the error falls as steps are added, true in the
/// asymptotic regime this is used in.
pub fn fixed_steps_for_error(
    tableau: ButcherTableau,
    e: f64,
    target: f64,
) -> Result<(usize, f64), PbmError> {
    const MAX_STEPS: usize = 1 << 26;
    let mut hi = 1;
    let mut hi_error = orbit_error(tableau, e, hi).unwrap_or(f64::INFINITY);
    while hi_error > target {
        if hi >= MAX_STEPS {
            return Err(PbmError::invalid(
                "fixed-step search",
                format!("{} needs more than {MAX_STEPS} steps", tableau.name),
            ));
        }
        hi *= 2;
        // A step so large that the orbit blows up counts as "not accurate enough".
        hi_error = orbit_error(tableau, e, hi).unwrap_or(f64::INFINITY);
    }
    let mut lo = hi / 2;
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        let err = orbit_error(tableau, e, mid).unwrap_or(f64::INFINITY);
        if err <= target {
            (hi, hi_error) = (mid, err);
        } else {
            lo = mid;
        }
    }
    Ok((hi, hi_error))
}

/// The two adaptive methods of the chapter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AdaptiveMethod {
    /// Euler with the notes' step doubling.
    EulerDoubling,
    /// The Dormand–Prince 5(4) embedded pair.
    DormandPrince,
}

impl AdaptiveMethod {
    /// The fixed-step method of the same order, for a fair comparison.
    pub fn fixed_step_tableau(self) -> ButcherTableau {
        match self {
            AdaptiveMethod::EulerDoubling => EULER,
            AdaptiveMethod::DormandPrince => DORMAND_PRINCE,
        }
    }

    /// A fresh stepper.
    pub fn stepper<S: OdeSystem + ?Sized>(
        self,
    ) -> Result<Box<dyn ErrorEstimatingStep<S>>, PbmError> {
        Ok(match self {
            AdaptiveMethod::EulerDoubling => Box::new(EulerDoubling::new()),
            AdaptiveMethod::DormandPrince => {
                Box::new(EmbeddedPair::new(DORMAND_PRINCE)?)
            }
        })
    }
}

/// Initial step of the adaptive runs; the controller corrects it within a few steps.
pub const ADAPTIVE_FIRST_STEP: f64 = 0.01;

/// One period of the orbit of eccentricity `e` with an adaptive method at tolerance
/// `tol`: the run's record and the final global error.
pub fn adaptive_orbit(
    method: AdaptiveMethod,
    e: f64,
    tol: f64,
) -> Result<(AdaptiveRun, f64), PbmError> {
    let control = Controller::new(tol)?;
    let mut orbit = kepler_orbit(e)?;
    let mut stepper = method.stepper()?;
    let run = integrate_adaptive(
        &mut orbit,
        stepper.as_mut(),
        &control,
        (ADAPTIVE_FIRST_STEP, KEPLER_PERIOD),
    )?;
    let error = distance(&state_of(&orbit), &kepler_initial_state(e)?);
    Ok((run, error))
}

/// Eccentricity of the orbit in the adaptive exercise: the planet's speed varies by a
/// factor of (1 + e)/(1 − e) = 19 around the orbit, so no single step size suits all
/// of it.
pub const ADAPTIVE_ECCENTRICITY: f64 = 0.9;

/// Tolerances of the work-precision comparison for Euler with step doubling: below
/// 1e-9 its runs pass half a million evaluations.
pub const DOUBLING_TOLERANCES: [f64; 7] = [1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9];

/// Tolerances of the work-precision comparison for adaptive Dormand–Prince, from one
/// that loses the orbit to one near the fixed-step methods' rounding floor.
pub const DOPRI_TOLERANCES: [f64; 9] =
    [1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10];

/// One adaptive run of the work-precision comparison.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AdaptivePoint {
    /// The tolerance per step.
    pub tol: f64,
    /// Derivative evaluations the run cost, rejected attempts included.
    pub evaluations: usize,
    /// Distance from the exact state after one period.
    pub final_error: f64,
}

/// One period of the orbit of eccentricity `e` with `method` at each of `tols`.
pub fn adaptive_sweep(
    method: AdaptiveMethod,
    e: f64,
    tols: &[f64],
) -> Result<Vec<AdaptivePoint>, PbmError> {
    tols.iter()
        .map(|&tol| {
            let (run, final_error) = adaptive_orbit(method, e, tol)?;
            Ok(AdaptivePoint { tol, evaluations: run.evaluations, final_error })
        })
        .collect()
}

/// Step counts over which each method's order is fitted: small enough steps that the
/// leading error term dominates, large enough that rounding does not.
pub fn fit_step_counts(tableau: &ButcherTableau) -> Vec<usize> {
    let (first, last) = match tableau.order {
        1 => (14, 18),
        _ => (8, 12),
    };
    (first..=last).map(|k| 1usize << k).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slope_of_an_exact_power_law() {
        let pts: Vec<(f64, f64)> = [0.1, 0.05, 0.02, 0.01]
            .iter()
            .map(|&h: &f64| (h, 3.0 * h.powi(3)))
            .collect();
        assert!((log_log_slope(&pts) - 3.0).abs() < 1e-12);
    }
}
