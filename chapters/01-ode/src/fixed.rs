//! The adaptive loop once more, for a state whose size the compiler knows. The
//! chapter's steppers keep the state in vectors whose length only the run knows, so
//! one stepper serves every system; the price on a small state is that each loop over
//! its components is a loop of unknown length, and each copy of the state a call to
//! `memmove`. Here the state is an array `[f64; N]` and the tableau is copied into
//! arrays of its `S` stages: every loop has a constant length the compiler unrolls,
//! and the stages live in registers. The method, the controller and the sequence of
//! steps are the same as [`crate::adaptive::integrate_adaptive`]'s with an
//! [`crate::adaptive::EmbeddedPair`].

use crate::adaptive::Controller;
use crate::runge_kutta::check_step_size;
use crate::tableau::ButcherTableau;
use pbm_prelim::PbmError;

/// An embedded pair of `S` stages, its tableau copied into arrays of that length.
#[derive(Debug, Clone, PartialEq)]
pub struct FixedPair<const S: usize> {
    /// Stage coefficients, row i holding its i entries and zeros after them.
    a: [[f64; S]; S],
    /// Weights of the step.
    b: [f64; S],
    /// Weights of the error estimate, b − b̂.
    e: [f64; S],
    /// Stage times as fractions of the step.
    c: [f64; S],
    /// 1/(q+1), where q is the lower order of the pair.
    exponent: f64,
    /// Whether the last stage is the next step's first.
    first_same_as_last: bool,
}

impl<const S: usize> FixedPair<S> {
    /// Fails if `tableau` has no embedded weights or not `S` stages.
    pub fn new(tableau: &ButcherTableau) -> Result<Self, PbmError> {
        let Some((low, low_order)) = tableau.embedded else {
            let why = format!("{} has no embedded weights", tableau.name);
            return Err(PbmError::invalid("fixed-size pair", why));
        };
        if tableau.stages() != S {
            let why =
                format!("{} has {} stages, not {S}", tableau.name, tableau.stages());
            return Err(PbmError::invalid("fixed-size pair", why));
        }
        let mut a = [[0.0; S]; S];
        for (row, coefficients) in a.iter_mut().zip(tableau.a) {
            row[..coefficients.len()].copy_from_slice(coefficients);
        }
        Ok(FixedPair {
            a,
            b: std::array::from_fn(|i| tableau.b[i]),
            e: std::array::from_fn(|i| tableau.b[i] - low[i]),
            c: std::array::from_fn(|i| tableau.c[i]),
            exponent: 1.0 / (f64::from(low_order) + 1.0),
            first_same_as_last: tableau.first_same_as_last(),
        })
    }

    // ANCHOR: fixed_attempt
    /// One attempt of size `h` from `x` at time `t`, with `k[0]` = f(t, x) already
    /// evaluated: fills the other stages and returns x + h Σ b_i k_i and the error
    /// estimate ‖h Σ (b_i − b̂_i) k_i‖.
    fn attempt<const N: usize>(
        &self,
        f: &impl Fn(f64, &[f64; N], &mut [f64; N]),
        (t, x): (f64, &[f64; N]),
        h: f64,
        k: &mut [[f64; N]; S],
    ) -> ([f64; N], f64) {
        for i in 1..S {
            let mut stage = *x; // x + h Σ_j a_ij k_j
            for (a_ij, k_j) in self.a[i].iter().zip(&k[..i]) {
                for (s, k_jn) in stage.iter_mut().zip(k_j) {
                    *s += h * a_ij * k_jn;
                }
            }
            f(t + self.c[i] * h, &stage, &mut k[i]);
        }
        let (mut x1, mut sum_sq) = (*x, 0.0);
        for (n, x1_n) in x1.iter_mut().enumerate() {
            let (mut step, mut error) = (0.0, 0.0);
            for ((b_i, e_i), k_i) in self.b.iter().zip(&self.e).zip(k.iter()) {
                step += b_i * k_i[n];
                error += e_i * k_i[n];
            }
            *x1_n += h * step;
            sum_sq += (h * error) * (h * error);
        }
        (x1, sum_sq.sqrt())
    }
    // ANCHOR_END: fixed_attempt
}

/// Where a fixed-size run ended, and what it cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FixedRun<const N: usize> {
    /// The state at the end time.
    pub x: [f64; N],
    /// Derivative evaluations, rejected attempts included.
    pub evaluations: usize,
    /// Accepted steps.
    pub accepted: usize,
    /// Rejected attempts.
    pub rejected: usize,
}

/// Integrates x' = f(t, x) from `x0` at `t0` to `t_end` with the pair, starting with
/// step `h0`: the loop of [`crate::adaptive::integrate_adaptive`], on arrays. A
/// rejected attempt leaves `x` as it was, so its first stage is still good; an
/// accepted one hands its last stage on as the next first when the pair allows.
pub fn integrate_fixed<const N: usize, const S: usize>(
    pair: &FixedPair<S>,
    f: impl Fn(f64, &[f64; N], &mut [f64; N]),
    control: &Controller,
    (x0, t0): ([f64; N], f64),
    (h0, t_end): (f64, f64),
) -> Result<FixedRun<N>, PbmError> {
    check_step_size(h0)?;
    let (mut x, mut t, mut h) = (x0, t0, h0);
    let mut k = [[0.0; N]; S];
    f(t, &x, &mut k[0]);
    let mut run = FixedRun { x, evaluations: 1, accepted: 0, rejected: 0 };
    while t < t_end {
        control.check_attempts(run.accepted + run.rejected)?;
        h = h.min(t_end - t); // land exactly on t_end
        let (x1, error) = pair.attempt(&f, (t, &x), h, &mut k);
        run.evaluations += S - 1;
        if !error.is_finite() || x1.iter().any(|v| !v.is_finite()) {
            return Err(PbmError::Diverged { step: run.accepted, time: t });
        }
        let factor = control.factor(error, pair.exponent);
        if error <= control.tol {
            (x, t) = (x1, t + h);
            run.accepted += 1;
            if pair.first_same_as_last {
                k[0] = k[S - 1];
            } else {
                f(t, &x, &mut k[0]);
                run.evaluations += 1;
            }
        } else {
            run.rejected += 1;
        }
        h *= factor;
        if h <= f64::EPSILON * t.abs().max(1.0) {
            let why = format!("step size underflow at t = {t}");
            return Err(PbmError::invalid("adaptive run", why));
        }
    }
    run.x = x;
    Ok(run)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adaptive::{EmbeddedPair, integrate_adaptive};
    use crate::scenes::{KEPLER_PERIOD, kepler_derivative, kepler_initial_state};
    use crate::system::{VectorField, state_of};
    use crate::tableau::{DORMAND_PRINCE, RK4};

    #[test]
    fn the_fixed_size_loop_takes_the_steps_of_the_chapters_loop() {
        for (e, tol) in [(0.5, 1e-10), (0.9, 1e-11)] {
            let start = kepler_initial_state(e).unwrap();
            let control = Controller::new(tol).unwrap();
            let span = (0.01, KEPLER_PERIOD);
            let mut orbit = VectorField::new(&start, 0.0, kepler_derivative).unwrap();
            let mut pair = EmbeddedPair::new(DORMAND_PRINCE).unwrap();
            let slow =
                integrate_adaptive(&mut orbit, &mut pair, &control, span).unwrap();
            let fixed = FixedPair::<7>::new(&DORMAND_PRINCE).unwrap();
            let f =
                |t: f64, x: &[f64; 4], d: &mut [f64; 4]| kepler_derivative(t, x, d);
            let fast =
                integrate_fixed(&fixed, f, &control, (start, 0.0), span).unwrap();
            // The same attempts, the same evaluations (the last stage handed on)…
            assert_eq!(fast.accepted, slow.accepted.len(), "e = {e}");
            assert_eq!(fast.rejected, slow.rejected, "e = {e}");
            assert_eq!(fast.evaluations, slow.evaluations, "e = {e}");
            // …and the same end, but for the rounding of sums taken in another order
            // over thousands of steps: a hundredth of the method's own error after
            // one period, which brings the planet back to within 1e-6 of where it started.
            let error = crate::adaptive::distance(&fast.x, &start);
            assert!(error < 1e-6, "e = {e}: {error}");
            let apart = crate::adaptive::distance(&fast.x, &state_of(&orbit));
            assert!(apart < 1e-2 * error, "e = {e}: {apart} apart, error {error}");
        }
    }

    #[test]
    fn a_pair_of_the_wrong_size_or_with_no_estimate_is_refused() {
        let err = FixedPair::<6>::new(&DORMAND_PRINCE).unwrap_err().to_string();
        assert!(err.contains("7 stages, not 6"), "{err}");
        let err = FixedPair::<4>::new(&RK4).unwrap_err().to_string();
        assert!(err.contains("no embedded weights"), "{err}");
    }

    #[test]
    fn a_run_that_blows_up_names_its_step() {
        let pair = FixedPair::<7>::new(&DORMAND_PRINCE).unwrap();
        let control = Controller::new(1e3).unwrap();
        // x' = x² from 1e200: the first stage is already past the largest float.
        let f = |_: f64, x: &[f64; 1], d: &mut [f64; 1]| d[0] = x[0] * x[0];
        let err = integrate_fixed(&pair, f, &control, ([1e200], 0.0), (0.5, 2.0));
        assert!(matches!(err, Err(PbmError::Diverged { .. })), "{err:?}");
    }
}
