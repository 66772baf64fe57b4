//! Adaptive step sizes (course notes, section 3). A method that can estimate its own
//! local error lets a controller grow h where the solution is easy and shrink it
//! where it is hard. Two estimators: the notes' step doubling for Euler, and an
//! embedded Runge–Kutta pair.

use crate::runge_kutta::{RungeKutta, check_step_size};
use crate::system::OdeSystem;
use crate::tableau::ButcherTableau;
use pbm_prelim::PbmError;
use pbm_prelim::validate::positive;

// ANCHOR: doubling_rule
/// The notes' rule: an error estimate `e` that scales like h² at step `h` becomes
/// `tol` at h (tol/e)^{1/2}. With exponent 1/(p+1) the same rule serves a method of
/// local order p+1.
pub fn rescaled_step(h: f64, error: f64, tol: f64, exponent: f64) -> f64 {
    h * (tol / error).powf(exponent)
}
// ANCHOR_END: doubling_rule

/// A step that also estimates its own local error, on systems of type `S` (any
/// system, through `dyn OdeSystem`, unless a caller names one: then the compiler
/// writes the step for that system, with no dynamic calls).
pub trait ErrorEstimatingStep<S: OdeSystem + ?Sized = dyn OdeSystem> {
    /// Advances `system` by `h` and returns the local error estimate (Euclidean
    /// norm).
    fn attempt(&mut self, system: &mut S, h: f64) -> Result<f64, PbmError>;
    /// 1/(p+1), where the estimate scales like h^{p+1}.
    fn exponent(&self) -> f64;
    /// Derivative evaluations so far.
    fn evaluations(&self) -> usize;
}

// ANCHOR: step_doubling
/// Euler with step doubling: x_a is one step of h, x_b two steps of h/2; e = |x_a −
/// x_b|. The full step and the first half step both start from f(x0), so an attempt
/// costs two evaluations, not three. The step keeps x_b, the better of the two.
pub struct EulerDoubling {
    x0: Vec<f64>,
    x_a: Vec<f64>,
    x_b: Vec<f64>,
    k: Vec<f64>,
    evaluations: usize,
    attempts: usize,
}
// ANCHOR_END: step_doubling

// ANCHOR: step_doubling_attempt
impl<S: OdeSystem + ?Sized> ErrorEstimatingStep<S> for EulerDoubling {
    fn attempt(&mut self, system: &mut S, h: f64) -> Result<f64, PbmError> {
        check_step_size(h)?;
        let n = system.dimension();
        for v in [&mut self.x0, &mut self.x_a, &mut self.x_b, &mut self.k] {
            v.resize(n, 0.0);
        }
        let t0 = system.time();
        system.gather_state(&mut self.x0);
        // f(x0), shared: x_a = x0 + h f(x0), and the first half step.
        self.evaluate(system, t0)?;
        for i in 0..n {
            self.x_a[i] = self.x0[i] + h * self.k[i];
            self.x_b[i] = self.x0[i] + 0.5 * h * self.k[i];
        }
        // The second half step, from the middle.
        system.scatter_state(&self.x_b, t0 + 0.5 * h);
        self.evaluate(system, t0)?;
        for (x, k) in self.x_b.iter_mut().zip(&self.k) {
            *x += 0.5 * h * k;
        }
        system.scatter_state(&self.x_b, t0 + h);
        self.attempts += 1;
        if self.x_b.iter().any(|v| !v.is_finite()) {
            return Err(PbmError::Diverged { step: self.attempts - 1, time: t0 });
        }
        Ok(distance(&self.x_a, &self.x_b))
    }
    fn exponent(&self) -> f64 {
        0.5
    }
    fn evaluations(&self) -> usize {
        self.evaluations
    }
}
// ANCHOR_END: step_doubling_attempt

impl EulerDoubling {
    /// Derivative evaluations so far (the trait's, callable without naming a system).
    pub fn evaluations(&self) -> usize {
        self.evaluations
    }

    /// A new step-doubling Euler stepper.
    pub fn new() -> Self {
        EulerDoubling {
            x0: Vec::new(),
            x_a: Vec::new(),
            x_b: Vec::new(),
            k: Vec::new(),
            evaluations: 0,
            attempts: 0,
        }
    }

    /// f where the system is now, into `k`; on failure the system goes back to the
    /// attempt's start and the error names the attempt.
    fn evaluate<S: OdeSystem + ?Sized>(
        &mut self,
        system: &mut S,
        t0: f64,
    ) -> Result<(), PbmError> {
        self.evaluations += 1;
        system.derivative(&mut self.k).map_err(|e| {
            system.scatter_state(&self.x0, t0);
            e.at_step(self.attempts, t0)
        })
    }
}

impl Default for EulerDoubling {
    fn default() -> Self {
        Self::new()
    }
}

// ANCHOR: richardson
/// Richardson's extrapolation: x_a (one step of h) and x_b (two of h/2) of a method
/// of order p have errors about C h^{p+1} and C h^{p+1} / 2^p; the combination
/// x_b + (x_b − x_a) / (2^p − 1) cancels that term. For Euler (p = 1): 2 x_b − x_a.
pub fn richardson(x_a: &[f64], x_b: &[f64], order: i32, out: &mut [f64]) {
    let r = 2f64.powi(order) - 1.0;
    for ((o, a), b) in out.iter_mut().zip(x_a).zip(x_b) {
        *o = b + (b - a) / r;
    }
}
// ANCHOR_END: richardson

/// An embedded pair (e.g. Dormand–Prince 5(4)): the error estimate comes from the
/// same stages, at no extra evaluations. The step keeps the higher-order solution.
/// Its stepper reuses a first stage it already knows ([`RungeKutta::reusing`]): the
/// adaptive loop changes nothing but the state between attempts.
pub struct EmbeddedPair {
    rk: RungeKutta,
}

impl EmbeddedPair {
    /// Fails if `tableau` has no embedded weights.
    pub fn new(tableau: ButcherTableau) -> Result<Self, PbmError> {
        if tableau.embedded.is_none() {
            return Err(PbmError::invalid(
                "embedded pair",
                format!("{} has no embedded weights", tableau.name),
            ));
        }
        Ok(EmbeddedPair { rk: RungeKutta::reusing(tableau) })
    }
}

impl<S: OdeSystem + ?Sized> ErrorEstimatingStep<S> for EmbeddedPair {
    fn attempt(&mut self, system: &mut S, h: f64) -> Result<f64, PbmError> {
        self.rk
            .step(system, h)?
            .ok_or_else(|| PbmError::invalid("embedded pair", "no estimate"))
    }
    fn exponent(&self) -> f64 {
        // The estimate is the error of the lower-order solution, O(h^{q+1}).
        let (_, low_order) = self.rk.tableau().embedded.unwrap_or((&[], 0));
        1.0 / (f64::from(low_order) + 1.0)
    }
    fn evaluations(&self) -> usize {
        self.rk.evaluations()
    }
}

/// Knobs of the step-size controller.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Controller {
    /// Largest acceptable local error per step (absolute, Euclidean norm of the
    /// state).
    pub tol: f64,
    /// The rescaled step is multiplied by this, so the next step aims a little below
    /// `tol`.
    pub safety: f64,
    /// Largest factor by which h may shrink in one go.
    pub min_factor: f64,
    /// Largest factor by which h may grow in one go.
    pub max_factor: f64,
    /// Give up after this many attempts (accepted plus rejected).
    pub max_attempts: usize,
}

impl Controller {
    /// The usual settings (Hairer, Nørsett, Wanner I, section II.4) for tolerance
    /// `tol`.
    pub fn new(tol: f64) -> Result<Self, PbmError> {
        Ok(Controller {
            tol: positive("tolerance", "tol", tol)?,
            safety: 0.9,
            min_factor: 0.2,
            max_factor: 5.0,
            max_attempts: 10_000_000,
        })
    }

    // ANCHOR: step_factor
    /// What to multiply h by after an attempt with this error estimate: the rule of
    /// [`rescaled_step`] for the method's `exponent`, aimed a little low, and
    /// clamped; as much as allowed after an attempt with no error at all.
    pub(crate) fn factor(&self, error: f64, exponent: f64) -> f64 {
        if error == 0.0 {
            self.max_factor
        } else {
            let ideal = rescaled_step(1.0, error, self.tol, exponent);
            (self.safety * ideal).clamp(self.min_factor, self.max_factor)
        }
    }
    // ANCHOR_END: step_factor

    /// An error once a run has made `attempts` attempts, the most allowed.
    pub(crate) fn check_attempts(&self, attempts: usize) -> Result<(), PbmError> {
        if attempts >= self.max_attempts {
            let why = "too many attempts; is tol too small?";
            return Err(PbmError::invalid("adaptive run", why));
        }
        Ok(())
    }
}

/// What an adaptive run did.
#[derive(Debug, Clone, PartialEq)]
pub struct AdaptiveRun {
    /// Derivative evaluations, rejected attempts included.
    pub evaluations: usize,
    /// Accepted steps as (start time, step size, error estimate).
    pub accepted: Vec<(f64, f64, f64)>,
    /// Number of rejected attempts.
    pub rejected: usize,
}

// ANCHOR: adaptive_loop
/// Integrates `system` to `t_end`, starting with step `h0`: every attempt whose error
/// estimate exceeds `tol` is undone and retried smaller; every step picks the next h
/// from its estimate.
pub fn integrate_adaptive<S, M>(
    system: &mut S,
    method: &mut M,
    control: &Controller,
    (h0, t_end): (f64, f64),
) -> Result<AdaptiveRun, PbmError>
where
    S: OdeSystem + ?Sized,
    M: ErrorEstimatingStep<S> + ?Sized,
{
    check_step_size(h0)?;
    let mut x0 = vec![0.0; system.dimension()];
    let mut run = AdaptiveRun { evaluations: 0, accepted: Vec::new(), rejected: 0 };
    let mut h = h0;
    while system.time() < t_end {
        control.check_attempts(run.accepted.len() + run.rejected)?;
        let t0 = system.time();
        h = h.min(t_end - t0); // land exactly on t_end
        system.gather_state(&mut x0);
        let error = method.attempt(system, h)?;
        let factor = control.factor(error, method.exponent());
        if error <= control.tol {
            run.accepted.push((t0, h, error));
        } else {
            system.scatter_state(&x0, t0); // undo the attempt
            run.rejected += 1;
        }
        h *= factor;
        if h <= f64::EPSILON * t0.abs().max(1.0) {
            let why = format!("step size underflow at t = {t0}");
            return Err(PbmError::invalid("adaptive run", why));
        }
    }
    run.evaluations = method.evaluations();
    Ok(run)
}
// ANCHOR_END: adaptive_loop

/// Euclidean distance between two states.
pub fn distance(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum::<f64>().sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_notes_worked_examples_of_the_doubling_rule() {
        // Section 3: tolerance 1e-4 with error 1e-8 allows 100 h; with error 1e-3,
        // about 0.316 h.
        assert!((rescaled_step(1.0, 1e-8, 1e-4, 0.5) - 100.0).abs() < 1e-9);
        assert!((rescaled_step(1.0, 1e-3, 1e-4, 0.5) - 0.316).abs() < 5e-4);
    }

    #[test]
    fn richardsons_extrapolation_of_euler_is_a_second_order_step() {
        // x' = −x from x = 1: one Euler step gives 1 − h, two halves (1 − h/2)²;
        // the truth is e^{−h}. Halving h divides the local error of x_b by about 4
        // (error h²/4) and that of 2 x_b − x_a by about 8 (error h³/6).
        let local = |h: f64| {
            let (x_a, x_b) = ([1.0 - h], [(1.0 - 0.5 * h) * (1.0 - 0.5 * h)]);
            let mut x = [0.0];
            richardson(&x_a, &x_b, 1, &mut x);
            assert_eq!(x[0], 2.0 * x_b[0] - x_a[0]);
            let truth = (-h).exp();
            ((x_b[0] - truth).abs(), (x[0] - truth).abs())
        };
        let (b1, r1) = local(0.1);
        let (b2, r2) = local(0.05);
        assert!((b1 / b2 - 4.0).abs() < 0.2, "{}", b1 / b2);
        assert!((r1 / r2 - 8.0).abs() < 0.5, "{}", r1 / r2);
        assert!((r1 - 0.1f64.powi(3) / 6.0).abs() < 0.1 * r1, "{r1}");
        // Order p = 4 on a quantity with error C h⁵: the combination is exact.
        let (c, h): (f64, f64) = (3.0, 0.2);
        let (a, b) = ([1.0 + c * h.powi(5)], [1.0 + 2.0 * c * (h / 2.0).powi(5)]);
        let mut x = [0.0];
        richardson(&a, &b, 4, &mut x);
        assert!((x[0] - 1.0).abs() < 1e-15, "{}", x[0]);
    }

    #[test]
    fn step_doubling_costs_two_evaluations_and_matches_two_half_steps() {
        use crate::system::{VectorField, state_of};
        use crate::tableau::EULER;
        let field = |t: f64, x: &[f64], d: &mut [f64]| d[0] = t * x[0] * x[0] + 1.0;
        let mut sys = VectorField::new(&[0.5], 0.3, field).unwrap();
        let mut doubling = EulerDoubling::new();
        let e = doubling.attempt(&mut sys, 0.2).unwrap();
        assert_eq!(doubling.evaluations(), 2);
        // The same numbers from the general stepper: one step of h, two of h/2.
        let mut euler = RungeKutta::new(EULER);
        let mut full = VectorField::new(&[0.5], 0.3, field).unwrap();
        euler.step(&mut full, 0.2).unwrap();
        let mut halves = VectorField::new(&[0.5], 0.3, field).unwrap();
        euler.step(&mut halves, 0.1).unwrap();
        euler.step(&mut halves, 0.1).unwrap();
        assert_eq!(euler.evaluations(), 3);
        assert_eq!(state_of(&sys), state_of(&halves));
        assert_eq!(e, (state_of(&full)[0] - state_of(&halves)[0]).abs());
        assert!((sys.time() - 0.5).abs() < 1e-15);
    }

    #[test]
    fn errata_the_summarys_adaptive_rule_is_inverted() {
        // The reader's summary writes (e/tol)^½ h. On the notes' examples it grows the
        // step that failed and shrinks the one that had room to spare.
        let summary = |h: f64, e: f64, tol: f64| h * (e / tol).sqrt();
        assert!((summary(1.0, 1e-3, 1e-4) - 3.162).abs() < 1e-3);
        assert!((summary(1.0, 1e-8, 1e-4) - 0.01).abs() < 1e-12);
        // The notes' rule: a step that missed shrinks, one with room grows, and one
        // that hit the tolerance exactly stays.
        assert!(rescaled_step(1.0, 1e-3, 1e-4, 0.5) < 1.0);
        assert!(rescaled_step(1.0, 1e-8, 1e-4, 0.5) > 1.0);
        assert_eq!(rescaled_step(0.25, 1e-4, 1e-4, 0.5), 0.25);
    }

    #[test]
    fn bad_controller_settings_are_errors() {
        for tol in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(Controller::new(tol).is_err());
        }
        assert!(EmbeddedPair::new(crate::tableau::RK4).is_err());
    }
}
