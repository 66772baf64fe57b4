//! Step control as production solvers do it (Hairer, Nørsett, Wanner I, section
//! II.4; Hairer and Wanner II, section IV.2): an error measured against a mixed
//! absolute and relative tolerance per component, a proportional–integral controller
//! that remembers the last step's error, and dense output, the solution between the
//! steps at whatever times the caller wants (a renderer's frames).

use crate::runge_kutta::{RungeKutta, check_step_size};
use crate::system::OdeSystem;
use crate::tableau::DORMAND_PRINCE;
use pbm_prelim::PbmError;
use pbm_prelim::validate::{non_negative, positive};

/// What error a component may carry: `atol + rtol · |x_i|`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tolerance {
    /// The floor, in the state's units: what a component near zero may be off by.
    pub atol: f64,
    /// The fraction of a component's size it may be off by.
    pub rtol: f64,
}

impl Tolerance {
    /// Fails unless `atol` ≥ 0, `rtol` ≥ 0 and at least one is positive.
    pub fn new(atol: f64, rtol: f64) -> Result<Self, PbmError> {
        let (atol, rtol) = (
            non_negative("atol", "atol", atol)?,
            non_negative("rtol", "rtol", rtol)?,
        );
        if atol == 0.0 && rtol == 0.0 {
            return Err(PbmError::invalid("tolerance", "atol and rtol are both 0"));
        }
        Ok(Tolerance { atol, rtol })
    }
}

// ANCHOR: mixed_norm
/// The step's error in units of what each component may carry: the root mean
/// square of e_i / sc_i with sc_i = atol + rtol · max(|x0_i|, |x1_i|). The step is
/// acceptable when this is at most 1.
pub fn mixed_norm(
    error: impl Iterator<Item = f64>,
    x0: &[f64],
    x1: &[f64],
    tol: Tolerance,
) -> f64 {
    let mut sum = 0.0;
    for ((e, a), b) in error.zip(x0).zip(x1) {
        let scale = tol.atol + tol.rtol * a.abs().max(b.abs());
        sum += (e / scale) * (e / scale);
    }
    (sum / x0.len().max(1) as f64).sqrt()
}
// ANCHOR_END: mixed_norm

/// How the next step is chosen from the errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    /// The rule of the adaptive page: h · (1/err)^{1/k}.
    Integral,
    /// Gustafsson's: h · (1/err)^{α} · err_prev^{β}, α = 0.7/k, β = 0.4/k.
    ProportionalIntegral,
}

/// The controller's state: the settings and the last accepted step's error.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepControl {
    /// Which rule.
    pub control: Control,
    /// k = q + 1, where the error estimate scales like h^{q+1}.
    pub k: f64,
    /// The last accepted step's error (in the mixed norm).
    previous: f64,
    /// Whether the last attempt was rejected: then the step may not grow.
    rejected: bool,
}

impl StepControl {
    /// A controller for an estimate that scales like h^k.
    pub fn new(control: Control, k: f64) -> Self {
        // Hairer's codes start with a previous error of 1e-4: the first step's
        // factor is then the integral rule's, a little larger.
        StepControl { control, k, previous: 1e-4, rejected: false }
    }

    // ANCHOR: pi_factor
    /// What to multiply h by after an attempt with error `err` (mixed norm, accept
    /// when ≤ 1). The integral rule uses this error alone; the PI rule also leans
    /// on the last accepted one: growing errors brake earlier, shrinking ones
    /// let the step grow sooner.
    pub fn factor(&mut self, err: f64) -> f64 {
        let err = err.max(1e-10); // an error of zero would allow any step
        let raw = match self.control {
            Control::Integral => err.powf(-1.0 / self.k),
            Control::ProportionalIntegral => {
                err.powf(-0.7 / self.k) * self.previous.powf(0.4 / self.k)
            }
        };
        let grow_at_most = if self.rejected { 1.0 } else { 5.0 };
        let factor = (0.9 * raw).clamp(0.2, grow_at_most);
        self.rejected = err > 1.0;
        if !self.rejected {
            self.previous = err;
        }
        factor
    }
    // ANCHOR_END: pi_factor

    /// The error the rule settles at when the errors stop changing (factor 1 with
    /// err = err_prev): 0.9^k for the integral rule, 0.9^{k/(α − β)} = 0.9^{k/0.3}
    /// for the PI rule, which therefore aims lower.
    pub fn set_point(&self) -> f64 {
        match self.control {
            Control::Integral => 0.9f64.powf(self.k),
            Control::ProportionalIntegral => 0.9f64.powf(self.k / 0.3),
        }
    }
}

// ANCHOR: hermite
/// The cubic through (t₀, x₀) and (t₀ + h, x₁) with slopes f₀ and f₁, at t₀ + θh
/// (0 ≤ θ ≤ 1): the Hermite basis h₀₀ = (1 + 2θ)(1 − θ)², h₁₀ = θ(1 − θ)²,
/// h₀₁ = θ²(3 − 2θ), h₁₁ = θ²(θ − 1). With a first-same-as-last pair both slopes
/// are stages the step computed anyway.
pub fn hermite(
    theta: f64,
    h: f64,
    ends: (&[f64], &[f64], &[f64], &[f64]),
    out: &mut [f64],
) {
    let (x0, f0, x1, f1) = ends;
    let s = 1.0 - theta;
    let (h00, h10) = ((1.0 + 2.0 * theta) * s * s, theta * s * s);
    let (h01, h11) =
        (theta * theta * (3.0 - 2.0 * theta), theta * theta * (theta - 1.0));
    for i in 0..out.len() {
        out[i] = h00 * x0[i] + h * h10 * f0[i] + h01 * x1[i] + h * h11 * f1[i];
    }
}
// ANCHOR_END: hermite

/// One accepted step as a dense-output caller sees it.
pub struct Accepted<'a> {
    /// Start time and size.
    pub t0: f64,
    /// Step size.
    pub h: f64,
    /// x₀, f(x₀), x₁, f(x₁).
    pub ends: (&'a [f64], &'a [f64], &'a [f64], &'a [f64]),
}

/// What a controlled run did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ControlledRun {
    /// Derivative evaluations, rejected attempts included.
    pub evaluations: usize,
    /// Accepted steps.
    pub accepted: usize,
    /// Rejected attempts.
    pub rejected: usize,
}

// ANCHOR: controlled_loop
/// Dormand–Prince to `t_end` with the mixed norm and `control`, handing every
/// accepted step to `on_step` (for dense output). The same loop as the adaptive
/// page's, with the error measured per component.
pub fn integrate_controlled<S: OdeSystem + ?Sized>(
    system: &mut S,
    (tol, control): (Tolerance, Control),
    (h0, t_end): (f64, f64),
    mut on_step: impl FnMut(Accepted),
) -> Result<ControlledRun, PbmError> {
    check_step_size(h0)?;
    let mut rk = RungeKutta::reusing(DORMAND_PRINCE);
    let mut controller = StepControl::new(control, 5.0);
    let (mut x1, mut h, mut run) =
        (vec![0.0; system.dimension()], h0, ControlledRun::default());
    while system.time() < t_end {
        let t0 = system.time();
        h = h.min(t_end - t0);
        rk.step(system, h)?;
        system.gather_state(&mut x1);
        let (x0, f0, f1) = rk.last_step_ends();
        let errors = (0..x1.len()).map(|i| rk.error_component(h, i).unwrap_or(0.0));
        let err = mixed_norm(errors, x0, &x1, tol);
        if err <= 1.0 {
            run.accepted += 1;
            on_step(Accepted { t0, h, ends: (x0, f0, &x1, f1) });
        } else {
            system.scatter_state(x0, t0); // undo the attempt
            run.rejected += 1;
        }
        h *= controller.factor(err);
        check_progress(h, t0, run.accepted + run.rejected)?;
    }
    run.evaluations = rk.evaluations();
    Ok(run)
}
// ANCHOR_END: controlled_loop

/// An error when the step has shrunk to rounding size or the attempts run away.
fn check_progress(h: f64, t0: f64, attempts: usize) -> Result<(), PbmError> {
    if h <= f64::EPSILON * t0.abs().max(1.0) {
        let why = format!("step size underflow at t = {t0}");
        return Err(PbmError::invalid("controlled run", why));
    }
    if attempts >= 10_000_000 {
        return Err(PbmError::invalid(
            "controlled run",
            "too many attempts; are atol and rtol too small?",
        ));
    }
    Ok(())
}

/// Samples of a controlled run at the `frames` + 1 equally spaced times of
/// [0, t_end]: by the Hermite cubic of the step that holds each, and by straight
/// lines between the step ends (what drawing the steps alone gives).
pub struct DenseRun {
    /// The run's counts.
    pub run: ControlledRun,
    /// The frame times.
    pub times: Vec<f64>,
    /// The state at each frame, by the cubic.
    pub cubic: Vec<Vec<f64>>,
    /// The state at each frame, by straight lines.
    pub linear: Vec<Vec<f64>>,
    /// The accepted steps' end states, with their times (the start state first).
    pub steps: Vec<(f64, Vec<f64>)>,
}

/// Runs `system` to `t_end` and samples it at `frames` + 1 equally spaced times.
pub fn dense_run<S: OdeSystem + ?Sized>(
    system: &mut S,
    (tol, control): (Tolerance, Control),
    (h0, t_end): (f64, f64),
    frames: usize,
) -> Result<DenseRun, PbmError> {
    positive("end time", "t_end", t_end)?;
    let times: Vec<f64> =
        (0..=frames).map(|i| t_end * i as f64 / frames.max(1) as f64).collect();
    let n = system.dimension();
    let (mut cubic, mut linear) = (Vec::new(), Vec::new());
    let mut steps = vec![(system.time(), crate::system::state_of(system))];
    let mut next = 0;
    let run = integrate_controlled(system, (tol, control), (h0, t_end), |step| {
        let (x0, _, x1, _) = step.ends;
        while next < times.len() && times[next] <= step.t0 + step.h {
            let theta = ((times[next] - step.t0) / step.h).clamp(0.0, 1.0);
            let mut x = vec![0.0; n];
            hermite(theta, step.h, step.ends, &mut x);
            cubic.push(x);
            linear
                .push(x0.iter().zip(x1).map(|(a, b)| a + theta * (b - a)).collect());
            next += 1;
        }
        steps.push((step.t0 + step.h, x1.to_vec()));
    })?;
    Ok(DenseRun { run, times, cubic, linear, steps })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenes::{KEPLER_PERIOD, kepler_exact, kepler_orbit};

    #[test]
    fn the_hermite_cubic_reproduces_any_cubic_and_its_error_falls_as_h_to_the_fourth()
    {
        // x = 2 − t + 3t² − t³: a cubic is its own Hermite interpolant.
        let x = |t: f64| 2.0 - t + 3.0 * t * t - t * t * t;
        let f = |t: f64| -1.0 + 6.0 * t - 3.0 * t * t;
        let (t0, h) = (0.4, 0.7);
        for theta in [0.0, 0.25, 0.6, 1.0] {
            let mut out = [0.0];
            let ends = ([x(t0)], [f(t0)], [x(t0 + h)], [f(t0 + h)]);
            hermite(theta, h, (&ends.0, &ends.1, &ends.2, &ends.3), &mut out);
            assert!((out[0] - x(t0 + theta * h)).abs() < 1e-14, "θ = {theta}");
        }
        // e^t: the largest error over the step, h then h/2, falls by 2⁴ (the
        // error is h⁴ x(ξ) θ²(1 − θ)²/24).
        let worst = |h: f64| {
            (0..=100)
                .map(|i| {
                    let theta = i as f64 / 100.0;
                    let mut out = [0.0];
                    let ends = ([1.0], [1.0], [h.exp()], [h.exp()]);
                    hermite(theta, h, (&ends.0, &ends.1, &ends.2, &ends.3), &mut out);
                    (out[0] - (theta * h).exp()).abs()
                })
                .fold(0.0, f64::max)
        };
        let ratio = worst(0.1) / worst(0.05);
        assert!((ratio - 16.0).abs() < 0.6, "{ratio}");
    }

    #[test]
    fn each_rule_holds_still_at_its_set_point() {
        for control in [Control::Integral, Control::ProportionalIntegral] {
            let mut c = StepControl::new(control, 5.0);
            let point = c.set_point();
            c.factor(point); // the first call sets the previous error
            assert!((c.factor(point) - 1.0).abs() < 1e-12, "{control:?}");
            // Above the set point the step shrinks, below it grows.
            assert!(c.factor(1.5 * point) < 1.0 && c.factor(0.5 * point) > 1.0);
        }
    }

    #[test]
    fn the_mixed_norm_weighs_each_component_by_its_own_size() {
        let tol = Tolerance::new(1e-6, 1e-3).unwrap();
        // A component of size 1000 may be off by about 1; one near zero by 1e-6.
        let big = mixed_norm([1.0].into_iter(), &[1000.0], &[1000.0], tol);
        assert!((big - 1.0 / (1e-6 + 1.0)).abs() < 1e-12, "{big}");
        let small = mixed_norm([1e-6].into_iter(), &[0.0], &[0.0], tol);
        assert!((small - 1.0).abs() < 1e-12, "{small}");
        // The mean over components: two at exactly their tolerance give 1.
        let two = mixed_norm([1e-6, 1e-6].into_iter(), &[0.0, 0.0], &[0.0, 0.0], tol);
        assert!((two - 1.0).abs() < 1e-12);
        assert!(Tolerance::new(0.0, 0.0).is_err());
        assert!(Tolerance::new(-1.0, 1e-3).is_err());
    }

    #[test]
    fn every_accepted_step_meets_the_mixed_tolerance_and_the_orbit_closes() {
        for control in [Control::Integral, Control::ProportionalIntegral] {
            let tol = Tolerance::new(1e-10, 1e-8).unwrap();
            let mut sys = kepler_orbit(0.9).unwrap();
            let dense =
                dense_run(&mut sys, (tol, control), (1e-3, KEPLER_PERIOD), 400)
                    .unwrap();
            let end = &dense.steps.last().unwrap().1;
            let exact = kepler_exact(0.9, KEPLER_PERIOD);
            let gap = (0..4).map(|i| (end[i] - exact[i]).abs()).fold(0.0, f64::max);
            assert!(gap < 1e-3, "{control:?}: {gap}");
            assert_eq!(dense.cubic.len(), 401);
            // The cubic at the frames is close to the exact orbit, much closer than
            // straight lines between the same steps.
            let (mut cubic, mut linear) = (0.0f64, 0.0f64);
            for (t, (c, l)) in
                dense.times.iter().zip(dense.cubic.iter().zip(&dense.linear))
            {
                let x = kepler_exact(0.9, *t);
                cubic = cubic.max((c[0] - x[0]).hypot(c[1] - x[1]));
                linear = linear.max((l[0] - x[0]).hypot(l[1] - x[1]));
            }
            assert!(
                cubic < 1e-3 && linear > 10.0 * cubic,
                "{control:?}: {cubic} {linear}"
            );
        }
    }
}
