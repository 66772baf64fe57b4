//! One explicit Runge–Kutta step, for any tableau and any [`OdeSystem`] (course
//! notes, sections 2.1–2.2). Euler, midpoint and RK4 all run through this one loop.

use crate::system::OdeSystem;
use crate::tableau::ButcherTableau;
use pbm_prelim::PbmError;
use pbm_prelim::validate::{non_negative, positive};

/// Steps an [`OdeSystem`] with an explicit Runge–Kutta method, counting derivative
/// evaluations. Keeps its scratch vectors between steps so that stepping allocates
/// nothing.
#[derive(Debug, Clone)]
pub struct RungeKutta {
    tableau: ButcherTableau,
    x0: Vec<f64>,
    stage: Vec<f64>,
    k: Vec<Vec<f64>>,
    evaluations: usize,
    steps: usize,
    /// Whether to reuse a first stage already known (see [`RungeKutta::reusing`]).
    reuse: bool,
    /// The state the system is in as a step starts, before it is compared with the
    /// last step's start and end.
    incoming: Vec<f64>,
    /// Start and end time of the last step, while its stages are still valid.
    last: Option<(f64, f64)>,
}

impl RungeKutta {
    /// A stepper for `tableau`.
    pub fn new(tableau: ButcherTableau) -> Self {
        RungeKutta {
            tableau,
            x0: Vec::new(),
            stage: Vec::new(),
            k: vec![Vec::new(); tableau.stages()],
            evaluations: 0,
            steps: 0,
            reuse: false,
            incoming: Vec::new(),
            last: None,
        }
    }

    // ANCHOR: reusing
    /// A stepper for `tableau` that does not evaluate f where it already knows it:
    /// a step that starts where the last one ended, with a first-same-as-last
    /// tableau, takes the last one's final stage as its first; a step that starts
    /// where the last one started (an adaptive loop retrying after undoing an
    /// attempt) takes the same first stage again. Both are recognised by comparing
    /// the state and time exactly, so anything that moves the system between steps
    /// (a bounce, a drag) forces a fresh evaluation. Use it only where nothing but
    /// the state and time decides f: a parameter changed between steps with the
    /// state left alone would not be seen.
    pub fn reusing(tableau: ButcherTableau) -> Self {
        RungeKutta { reuse: true, ..RungeKutta::new(tableau) }
    }
    // ANCHOR_END: reusing

    // ANCHOR: first_stage_known
    /// Gathers the state the step starts from into `x0` and says whether the first
    /// stage, f(x0, t0), is already in `k[0]`.
    fn first_stage_known<S: OdeSystem + ?Sized>(
        &mut self,
        system: &S,
        t0: f64,
    ) -> bool {
        if !self.reuse {
            system.gather_state(&mut self.x0);
            return false;
        }
        system.gather_state(&mut self.incoming);
        let last_stage = self.k.len() - 1;
        let known = match self.last.take() {
            Some((_, end))
                if self.tableau.first_same_as_last()
                    && end == t0
                    && self.incoming == self.stage =>
            {
                self.k.swap(0, last_stage);
                true
            }
            Some((start, _)) => start == t0 && self.incoming == self.x0,
            None => false,
        };
        std::mem::swap(&mut self.x0, &mut self.incoming);
        known
    }
    // ANCHOR_END: first_stage_known

    /// The method.
    pub fn tableau(&self) -> &ButcherTableau {
        &self.tableau
    }

    /// Derivative evaluations made so far.
    pub fn evaluations(&self) -> usize {
        self.evaluations
    }

    /// Steps taken so far.
    pub fn steps(&self) -> usize {
        self.steps
    }

    // ANCHOR: rk_step
    /// Advances `system` by one step of size `h`. Returns the embedded error estimate
    /// ‖h Σ (b_i − b̂_i) k_i‖ when the tableau has one. If a derivative evaluation
    /// fails, the system is put back where the step began and the error names this
    /// step and its time.
    pub fn step<S: OdeSystem + ?Sized>(
        &mut self,
        system: &mut S,
        h: f64,
    ) -> Result<Option<f64>, PbmError> {
        check_step_size(h)?;
        self.prepare(system.dimension());
        let t0 = system.time();
        let known = self.first_stage_known(system, t0);
        self.evaluate_stages(system, h, t0, usize::from(known))?;
        // x1 = x0 + h Σ b_i k_i
        self.stage.copy_from_slice(&self.x0);
        let b = self.tableau.b;
        for (k_i, &b_i) in self.k.iter().zip(b).filter(|(_, b_i)| **b_i != 0.0) {
            axpy(&mut self.stage, h * b_i, k_i);
        }
        system.scatter_state(&self.stage, t0 + h);
        self.steps += 1;
        if self.stage.iter().any(|v| !v.is_finite()) {
            return Err(PbmError::Diverged { step: self.steps - 1, time: t0 });
        }
        self.last = Some((t0, system.time()));
        Ok(self.error_estimate(h))
    }
    // ANCHOR_END: rk_step

    // ANCHOR: rk_stages
    /// The stages k_i = f(x0 + h Σ_{j<i} a_ij k_j, t0 + c_i h) from stage `first` on.
    /// If an evaluation fails, puts the system back at (x0, t0) and names the step.
    fn evaluate_stages<S: OdeSystem + ?Sized>(
        &mut self,
        system: &mut S,
        h: f64,
        t0: f64,
        first: usize,
    ) -> Result<(), PbmError> {
        let ButcherTableau { a, b, c, .. } = self.tableau;
        for i in first..b.len() {
            self.stage.copy_from_slice(&self.x0);
            for (j, &a_ij) in
                a[i].iter().enumerate().filter(|(_, a_ij)| **a_ij != 0.0)
            {
                axpy(&mut self.stage, h * a_ij, &self.k[j]);
            }
            system.scatter_state(&self.stage, t0 + c[i] * h);
            self.evaluations += 1;
            if let Err(e) = system.derivative(&mut self.k[i]) {
                system.scatter_state(&self.x0, t0);
                return Err(e.at_step(self.steps, t0));
            }
        }
        Ok(())
    }
    // ANCHOR_END: rk_stages

    /// h ‖Σ (b_i − b̂_i) k_i‖ for an embedded pair, from the stages of the last step.
    fn error_estimate(&self, h: f64) -> Option<f64> {
        let mut sum_sq = 0.0;
        for component in 0..self.x0.len() {
            let e = self.error_component(h, component)?;
            sum_sq += e * e;
        }
        Some(sum_sq.sqrt())
    }

    /// Component `i` of the last step's embedded error, h Σ_j (b_j − b̂_j) k_j[i].
    pub fn error_component(&self, h: f64, i: usize) -> Option<f64> {
        let (low, _) = self.tableau.embedded?;
        let sum: f64 = (0..self.k.len())
            .map(|j| (self.tableau.b[j] - low[j]) * self.k[j][i])
            .sum();
        Some(h * sum)
    }

    /// The last step's start x₀, f(x₀) and its last stage, which is f(x₁) for a
    /// first-same-as-last tableau: what a cubic through the step's two ends needs.
    pub fn last_step_ends(&self) -> (&[f64], &[f64], &[f64]) {
        (&self.x0, &self.k[0], &self.k[self.k.len() - 1])
    }

    fn prepare(&mut self, n: usize) {
        if self.x0.len() != n {
            self.last = None;
            self.x0 = vec![0.0; n];
            self.incoming = vec![0.0; n];
            self.stage = vec![0.0; n];
            for k in &mut self.k {
                *k = vec![0.0; n];
            }
        }
    }
}

// ANCHOR: plain_euler
/// One Euler step, written out: x₁ = x₀ + h f(x₀, t₀). [`RungeKutta`] with the
/// Euler tableau does the same arithmetic, with scratch space kept between steps.
pub fn euler_step<S: OdeSystem + ?Sized>(
    system: &mut S,
    h: f64,
) -> Result<(), PbmError> {
    let (t0, mut x) = (system.time(), crate::system::state_of(system));
    let mut slope = vec![0.0; x.len()];
    system.derivative(&mut slope)?; // f(x₀, t₀)
    for (x_i, f_i) in x.iter_mut().zip(&slope) {
        *x_i += h * f_i;
    }
    system.scatter_state(&x, t0 + h);
    Ok(())
}
// ANCHOR_END: plain_euler

/// y += alpha x
#[inline]
fn axpy(y: &mut [f64], alpha: f64, x: &[f64]) {
    for (yi, xi) in y.iter_mut().zip(x) {
        *yi += alpha * xi;
    }
}

/// A step size must be positive and finite.
pub fn check_step_size(h: f64) -> Result<(), PbmError> {
    positive("step size", "h", h).map(|_| ())
}

/// How many steps of size `h` reach `t_end` (rounded), after checking that h is a
/// valid step, t_end is finite and non-negative, and the count is not absurd (at most
/// 10⁸).
pub fn step_count(h: f64, t_end: f64) -> Result<usize, PbmError> {
    check_step_size(h)?;
    non_negative("run length", "t_end", t_end)?;
    let n = (t_end / h).round();
    if n > 1e8 {
        return Err(PbmError::invalid(
            "run length",
            format!("t_end / h = {n:e} steps; at most 1e8 are allowed"),
        ));
    }
    Ok(n as usize)
}

/// Takes `steps` steps of size `h` and returns the states visited, the initial one
/// included.
pub fn integrate<S: OdeSystem + ?Sized>(
    system: &mut S,
    tableau: ButcherTableau,
    h: f64,
    steps: usize,
) -> Result<Vec<Vec<f64>>, PbmError> {
    check_step_size(h)?;
    let mut stepper = RungeKutta::new(tableau);
    let mut states = Vec::with_capacity(steps + 1);
    states.push(crate::system::state_of(system));
    for _ in 0..steps {
        stepper.step(system, h)?;
        states.push(crate::system::state_of(system));
    }
    Ok(states)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::system::{VectorField, state_of};
    use crate::tableau::{DORMAND_PRINCE, EULER, MIDPOINT, RK4};

    #[test]
    fn one_step_matches_the_hand_written_formulas() {
        // x' = t x^2 + 1, a nonlinear, time-dependent field, from x = 0.5 at t = 0.3.
        let f = |t: f64, x: f64| t * x * x + 1.0;
        let (x0, t0, h) = (0.5, 0.3, 0.2);
        let field = |t: f64, x: &[f64], d: &mut [f64]| d[0] = f(t, x[0]);
        let step = |tab| {
            let mut sys = VectorField::new(&[x0], t0, field).unwrap();
            RungeKutta::new(tab).step(&mut sys, h).unwrap();
            assert!((sys.time() - (t0 + h)).abs() < 1e-15);
            state_of(&sys)[0]
        };
        let euler = x0 + h * f(t0, x0);
        let midpoint = x0 + h * f(t0 + h / 2.0, x0 + h / 2.0 * f(t0, x0));
        let k1 = h * f(t0, x0);
        let k2 = h * f(t0 + h / 2.0, x0 + k1 / 2.0);
        let k3 = h * f(t0 + h / 2.0, x0 + k2 / 2.0);
        let k4 = h * f(t0 + h, x0 + k3);
        let rk4 = x0 + k1 / 6.0 + k2 / 3.0 + k3 / 3.0 + k4 / 6.0;
        assert!((step(EULER) - euler).abs() < 1e-15);
        assert!((step(MIDPOINT) - midpoint).abs() < 1e-15);
        assert!((step(RK4) - rk4).abs() < 1e-15);
    }

    #[test]
    fn counts_evaluations_and_estimates_error_only_for_pairs() {
        let mut sys = VectorField::new(&[1.0], 0.0, |_, x, d| d[0] = -x[0]).unwrap();
        let mut rk4 = RungeKutta::new(RK4);
        assert_eq!(rk4.step(&mut sys, 0.1).unwrap(), None);
        assert_eq!(rk4.evaluations(), 4);
        let mut dp = RungeKutta::new(DORMAND_PRINCE);
        let est = dp.step(&mut sys, 0.1).unwrap().unwrap();
        assert_eq!(dp.evaluations(), 7);
        assert!(est > 0.0 && est < 1e-6, "{est}");
    }

    #[test]
    fn dormand_prince_reuses_its_last_stage_and_changes_no_bit() {
        // The Kepler-like field x'' = -x/|x|^3 in the plane, from a point of an
        // ellipse: nothing special about it but that it is nonlinear.
        let field = |_: f64, x: &[f64], d: &mut [f64]| {
            let r3 = (x[0] * x[0] + x[1] * x[1]).powf(1.5);
            d.copy_from_slice(&[x[2], x[3], -x[0] / r3, -x[1] / r3]);
        };
        let start = [1.0, 0.0, 0.0, 1.3];
        let mut plain_sys = VectorField::new(&start, 0.0, field).unwrap();
        let mut fsal_sys = VectorField::new(&start, 0.0, field).unwrap();
        let mut plain = RungeKutta::new(DORMAND_PRINCE);
        let mut fsal = RungeKutta::reusing(DORMAND_PRINCE);
        for _ in 0..10 {
            let e1 = plain.step(&mut plain_sys, 0.05).unwrap();
            let e2 = fsal.step(&mut fsal_sys, 0.05).unwrap();
            assert_eq!(e1, e2);
            assert_eq!(state_of(&plain_sys), state_of(&fsal_sys));
        }
        assert_eq!(plain.evaluations(), 70);
        assert_eq!(fsal.evaluations(), 7 + 9 * 6);
        assert_eq!(fsal.evaluations(), DORMAND_PRINCE.evaluations_for(10));
        // An attempt undone and retried smaller (what the adaptive loop does) starts
        // where the last one started: its first stage is known too.
        let (x0, t0) = (state_of(&fsal_sys), fsal_sys.time());
        fsal.step(&mut fsal_sys, 0.5).unwrap();
        fsal_sys.scatter_state(&x0, t0);
        fsal.step(&mut fsal_sys, 0.05).unwrap();
        assert_eq!(fsal.evaluations(), 61 + 6 + 6);
        plain_sys.scatter_state(&x0, t0);
        plain.step(&mut plain_sys, 0.05).unwrap();
        assert_eq!(state_of(&plain_sys), state_of(&fsal_sys));
        // A state changed between steps (a bounce, say) is evaluated afresh.
        let mut moved = state_of(&fsal_sys);
        moved[3] = -moved[3];
        let t = fsal_sys.time();
        fsal_sys.scatter_state(&moved, t);
        fsal.step(&mut fsal_sys, 0.05).unwrap();
        assert_eq!(fsal.evaluations(), 73 + 7);
        // RK4's last stage is not where the step ends: nothing to reuse.
        let mut rk4 = RungeKutta::reusing(RK4);
        for _ in 0..3 {
            rk4.step(&mut fsal_sys, 0.05).unwrap();
        }
        assert_eq!(rk4.evaluations(), 12);
    }

    #[test]
    fn the_plain_euler_step_is_the_tableau_loop_with_one_stage() {
        let field = |t: f64, x: &[f64], d: &mut [f64]| {
            d[0] = t * x[0] * x[1] + 1.0;
            d[1] = -x[0];
        };
        let mut plain = VectorField::new(&[0.5, -0.2], 0.3, field).unwrap();
        let mut general = VectorField::new(&[0.5, -0.2], 0.3, field).unwrap();
        let mut rk = RungeKutta::new(EULER);
        for _ in 0..20 {
            euler_step(&mut plain, 0.05).unwrap();
            rk.step(&mut general, 0.05).unwrap();
        }
        assert_eq!(state_of(&plain), state_of(&general));
        assert_eq!(plain.time(), general.time());
    }

    #[test]
    fn bad_step_sizes_are_errors() {
        let mut sys = VectorField::new(&[1.0], 0.0, |_, x, d| d[0] = -x[0]).unwrap();
        for h in [0.0, -0.1, f64::NAN, f64::INFINITY] {
            assert!(RungeKutta::new(EULER).step(&mut sys, h).is_err(), "h = {h}");
        }
    }

    #[test]
    fn a_failing_derivative_names_the_step_and_time_and_undoes_the_step() {
        // A model that fails once x passes 1.5: x' = 1 from 0, h = 0.1, so the stage
        // that first sees x > 1.5 belongs to step 15 (which starts at t = 1.5, x =
        // 1.5).
        struct Fragile(f64, f64);
        impl OdeSystem for Fragile {
            fn dimension(&self) -> usize {
                1
            }
            fn time(&self) -> f64 {
                self.1
            }
            fn gather_state(&self, x: &mut [f64]) {
                x[0] = self.0;
            }
            fn scatter_state(&mut self, x: &[f64], t: f64) {
                (self.0, self.1) = (x[0], t);
            }
            fn derivative(&mut self, xdot: &mut [f64]) -> Result<(), PbmError> {
                if self.0 > 1.5 + 1e-9 {
                    return Err(PbmError::degenerate("model", "x passed 1.5"));
                }
                xdot[0] = 1.0;
                Ok(())
            }
        }
        let mut model = Fragile(0.0, 0.0);
        let err = integrate(&mut model, MIDPOINT, 0.1, 100).unwrap_err();
        let PbmError::AtStep { step, time, source } = &err else { panic!("{err}") };
        assert_eq!(*step, 15, "{err}");
        assert!((time - 1.5).abs() < 1e-12, "{err}");
        assert!(matches!(**source, PbmError::Degenerate { .. }), "{err}");
        assert!(
            err.to_string().starts_with("at step 15 (t = 1.5 s): degenerate model")
        );
        // The failed step was undone: the model is where step 15 began.
        assert!((model.0 - 1.5).abs() < 1e-12 && (model.1 - 1.5).abs() < 1e-12);
    }

    #[test]
    fn blow_up_is_reported_with_its_step() {
        // x' = x^2 from x = 1 reaches infinity at t = 1; Euler with h = 0.5 overflows
        // soon after.
        let mut sys =
            VectorField::new(&[1.0], 0.0, |_, x, d| d[0] = x[0] * x[0]).unwrap();
        let err = integrate(&mut sys, EULER, 0.5, 100).unwrap_err();
        match err {
            PbmError::Diverged { step, .. } => {
                assert!(step > 2 && step < 20, "{step}")
            }
            other => panic!("expected divergence, got {other}"),
        }
    }
}
