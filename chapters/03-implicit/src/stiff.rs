//! The stiff example of the notes ("Implicit Methods", section 2): ẋ = −x, ẏ = −k y.
//! The y part wants to vanish quickly, the x part slowly; an explicit method must
//! take steps small enough for the fast part, long after it has died out.

use nalgebra::{DMatrix, DVector};
use pbm_ode::problems::{Field, circle_field};
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::system::{OdeSystem, state_of};
use pbm_ode::tableau::ButcherTableau;
use pbm_prelim::PbmError;
use pbm_prelim::validate::{all_finite, positive};

/// A system that can also give the Jacobian f′ = ∂f/∂x of its derivative at the
/// current state.
pub trait Linearizable: OdeSystem {
    /// ∂f/∂x at the state and time last scattered.
    fn jacobian(&mut self) -> DMatrix<f64>;
}

// ANCHOR: stiff_example
/// ẋ = −x, ẏ = −k y: a particle pulled gently towards x = 0 and hard towards y = 0.
pub struct StiffExample {
    /// The stiffness k (1/s).
    pub k: f64,
    state: [f64; 2],
    t: f64,
}

impl OdeSystem for StiffExample {
    fn dimension(&self) -> usize {
        2
    }
    fn time(&self) -> f64 {
        self.t
    }
    fn gather_state(&self, x: &mut [f64]) {
        x.copy_from_slice(&self.state);
    }
    fn scatter_state(&mut self, x: &[f64], t: f64) {
        self.state.copy_from_slice(x);
        self.t = t;
    }
    fn derivative(&mut self, xdot: &mut [f64]) -> Result<(), PbmError> {
        xdot[0] = -self.state[0];
        xdot[1] = -self.k * self.state[1];
        Ok(())
    }
}

impl Linearizable for StiffExample {
    fn jacobian(&mut self) -> DMatrix<f64> {
        DMatrix::from_diagonal(&DVector::from_vec(vec![-1.0, -self.k]))
    }
}
// ANCHOR_END: stiff_example

/// A linear system, ẋ = f(x) with f′ the same matrix everywhere, paired with that
/// matrix so that backward Euler can step it.
pub struct Linear<S> {
    /// The system.
    pub system: S,
    /// Its Jacobian ∂f/∂x.
    pub jacobian: DMatrix<f64>,
}

impl<S: OdeSystem> OdeSystem for Linear<S> {
    fn dimension(&self) -> usize {
        self.system.dimension()
    }
    fn time(&self) -> f64 {
        self.system.time()
    }
    fn gather_state(&self, x: &mut [f64]) {
        self.system.gather_state(x);
    }
    fn scatter_state(&mut self, x: &[f64], t: f64) {
        self.system.scatter_state(x, t);
    }
    fn derivative(&mut self, xdot: &mut [f64]) -> Result<(), PbmError> {
        self.system.derivative(xdot)
    }
}

impl<S: OdeSystem> Linearizable for Linear<S> {
    fn jacobian(&mut self) -> DMatrix<f64> {
        self.jacobian.clone()
    }
}

// ANCHOR: circle_jacobian
/// Chapter 1's circular field f(x, y) = (−y, x) with its Jacobian. Row i holds the
/// derivatives of f_i: ∂(−y)/∂x = 0, ∂(−y)/∂y = −1; ∂x/∂x = 1, ∂x/∂y = 0. The field
/// is linear, so f′ is the same at every point: a quarter turn.
pub fn circle_with_jacobian(x0: f64, y0: f64) -> Result<Linear<Field>, PbmError> {
    let jacobian = DMatrix::from_row_slice(2, 2, &[0.0, -1.0, 1.0, 0.0]);
    Ok(Linear { system: circle_field(x0, y0)?, jacobian })
}
// ANCHOR_END: circle_jacobian

impl StiffExample {
    /// The example with stiffness `k` (positive, finite) starting at (x0, y0).
    pub fn new(k: f64, x0: f64, y0: f64) -> Result<Self, PbmError> {
        let k = positive("stiff example", "k", k)?;
        all_finite("stiff example", "initial state", [x0, y0])?;
        Ok(StiffExample { k, state: [x0, y0], t: 0.0 })
    }
}

/// Whether `steps` explicit steps of size `h` keep the stiff example bounded (|y|
/// never exceeds its start, nothing overflows).
pub fn explicit_stays_bounded(
    tableau: ButcherTableau,
    k: f64,
    h: f64,
    steps: usize,
) -> Result<bool, PbmError> {
    let mut system = StiffExample::new(k, 1.0, 1.0)?;
    let mut stepper = RungeKutta::new(tableau);
    for _ in 0..steps {
        if stepper.step(&mut system, h).is_err() {
            return Ok(false);
        }
        if state_of(&system)[1].abs() > 1.0 {
            return Ok(false);
        }
    }
    Ok(true)
}

// ANCHOR: max_stable_h
/// The largest step for which an explicit method stays bounded on the stiff example
/// over a long run, found by bisection between a step known to be stable and one
/// known not to be.
pub fn max_stable_step(tableau: ButcherTableau, k: f64) -> Result<f64, PbmError> {
    let (mut stable, mut unstable) = (1e-3 / k, 10.0 / k);
    // A long run: a factor only slightly above 1 in size must have time to show.
    let steps = 20_000;
    for _ in 0..50 {
        let mid = 0.5 * (stable + unstable);
        if explicit_stays_bounded(tableau, k, mid, steps)? {
            stable = mid;
        } else {
            unstable = mid;
        }
    }
    Ok(stable)
}
// ANCHOR_END: max_stable_h

// ANCHOR: particle_on_line
/// The slides' particle-on-line, in a first-order world (velocity = force, as in the
/// stiff example): a penalty force −k y holds the particle near the x-axis while the
/// user pulls on it with up to f_max. At rest under the pull, k y = f_max, so staying
/// within ε needs k ≥ f_max/ε, and explicit Euler is then stable only for h < 2/k =
/// 2ε/f_max.
pub fn penalty_needed(epsilon: f64, f_max: f64) -> Result<(f64, f64), PbmError> {
    let epsilon = positive("particle on line", "epsilon", epsilon)?;
    let k = positive("particle on line", "f_max", f_max)? / epsilon;
    Ok((k, 2.0 / k))
}
// ANCHOR_END: particle_on_line
