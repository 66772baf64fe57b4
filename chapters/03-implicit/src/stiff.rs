//! The stiff example of the notes ("Implicit Methods", section 2): ẋ = −x, ẏ = −k y.
//! The y part wants to vanish quickly, the x part slowly; an explicit method must
//! take steps small enough for the fast part, long after it has died out.

use nalgebra::{DMatrix, DVector};
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::scenes::{Field, circle_field};
use pbm_ode::system::{OdeSystem, VectorField, state_of};
use pbm_ode::tableau::ButcherTableau;
use pbm_prelim::PbmError;
use pbm_prelim::finite_difference::{EPSILON, central_jacobian};
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

/// The five [`OdeSystem`] methods of a wrapper whose field `system` is the model it
/// wraps (owned or borrowed): each hands the call on unchanged.
macro_rules! forward_to_system {
    () => {
        pbm_ode::forward_state!(system);
        fn derivative(&mut self, xdot: &mut [f64]) -> Result<(), PbmError> {
            self.system.derivative(xdot)
        }
    };
}

/// A linear system, ẋ = f(x) with f′ the same matrix everywhere, paired with that
/// matrix so that backward Euler can step it.
pub struct Linear<S> {
    /// The system.
    pub system: S,
    /// Its Jacobian ∂f/∂x.
    pub jacobian: DMatrix<f64>,
}

impl<S: OdeSystem> OdeSystem for Linear<S> {
    forward_to_system!();
}

impl<S: OdeSystem> Linearizable for Linear<S> {
    fn jacobian(&mut self) -> DMatrix<f64> {
        self.jacobian.clone()
    }
}

/// Any system, its Jacobian taken by central differences of its derivative (step
/// [`EPSILON`]): for a model whose Jacobian is not written out, such as a
/// particle system stepped by a method that needs the whole f′. A derivative that
/// fails while probing gives a Jacobian of NaN, which the step using it reports.
pub struct Differenced<'a, S: ?Sized> {
    /// The system.
    pub system: &'a mut S,
}

impl<S: OdeSystem + ?Sized> OdeSystem for Differenced<'_, S> {
    forward_to_system!();
}

impl<S: OdeSystem + ?Sized> Linearizable for Differenced<'_, S> {
    fn jacobian(&mut self) -> DMatrix<f64> {
        let (n, t) = (self.system.dimension(), self.system.time());
        let x = state_of(&*self.system);
        let system = &mut *self.system;
        let entries = central_jacobian(
            |probe: &[f64], out: &mut [f64]| {
                system.scatter_state(probe, t);
                system.derivative(out)
            },
            &x,
            n,
            EPSILON,
        );
        system.scatter_state(&x, t);
        match entries {
            Ok(entries) => DMatrix::from_row_slice(n, n, &entries),
            Err(_) => DMatrix::from_element(n, n, f64::NAN),
        }
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

// ANCHOR: amplification
/// |R(z)|: how much one step of `tableau` multiplies the solution of ẏ = λ y, with
/// z = hλ = re + i·im. A complex y is a point of the plane and multiplying by λ is a
/// scaled rotation, so the step is taken by the chapter-1 stepper itself on the
/// real system (ẏ₁, ẏ₂) = (re y₁ − im y₂, im y₁ + re y₂), with h = 1.
pub fn amplification(
    tableau: ButcherTableau,
    re: f64,
    im: f64,
) -> Result<f64, PbmError> {
    let field = move |_: f64, y: &[f64], d: &mut [f64]| {
        d[0] = re * y[0] - im * y[1];
        d[1] = im * y[0] + re * y[1];
    };
    let mut system = VectorField::new(&[1.0, 0.0], 0.0, field)?;
    RungeKutta::new(tableau).step(&mut system, 1.0)?;
    let y = state_of(&system);
    Ok(y[0].hypot(y[1]))
}
// ANCHOR_END: amplification

// ANCHOR: stability_boundary
/// The boundary of the stability region {z : |R(z)| ≤ 1} of `tableau`, as points
/// found along `rays` rays from z = −1 (inside the regions of Euler, midpoint and
/// RK4, each of which every ray from there leaves once): march out in steps of
/// 0.01 to the first point outside, then bisect.
pub fn stability_boundary(
    tableau: ButcherTableau,
    rays: usize,
) -> Result<Vec<(f64, f64)>, PbmError> {
    let mut points = Vec::with_capacity(rays + 1);
    for k in 0..=rays {
        let angle = std::f64::consts::TAU * k as f64 / rays as f64;
        let (c, s) = (angle.cos(), angle.sin());
        let outside = |r: f64| -> Result<bool, PbmError> {
            Ok(amplification(tableau, -1.0 + r * c, r * s)? > 1.0)
        };
        let mut r = 0.0;
        while !outside(r + 0.01)? && r < 10.0 {
            r += 0.01;
        }
        let (mut inside, mut out) = (r, r + 0.01);
        for _ in 0..40 {
            let mid = 0.5 * (inside + out);
            if outside(mid)? { out = mid } else { inside = mid }
        }
        points.push((-1.0 + inside * c, inside * s));
    }
    Ok(points)
}
// ANCHOR_END: stability_boundary

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

#[cfg(test)]
mod tests {
    use super::*;
    use pbm_ode::tableau::{EULER, RK4};

    #[test]
    fn amplification_is_the_stability_polynomial() {
        // Euler: R(z) = 1 + z. RK4: R(z) = 1 + z + z²/2 + z³/6 + z⁴/24.
        let (re, im) = (-0.7, 1.3);
        assert!(
            (amplification(EULER, re, im).unwrap() - (1.0 + re).hypot(im)).abs()
                < 1e-15
        );
        let (mut sum_re, mut sum_im, mut term_re, mut term_im) = (1.0, 0.0, 1.0, 0.0);
        for k in 1..=4 {
            let k = f64::from(k);
            (term_re, term_im) = (
                (term_re * re - term_im * im) / k,
                (term_re * im + term_im * re) / k,
            );
            sum_re += term_re;
            sum_im += term_im;
        }
        let rk4 = amplification(RK4, re, im).unwrap();
        assert!((rk4 - sum_re.hypot(sum_im)).abs() < 1e-14, "{rk4}");
    }

    #[test]
    fn rk4_reaches_2_785_along_the_real_axis_and_2_83_along_the_imaginary() {
        let boundary = stability_boundary(RK4, 720).unwrap();
        let leftmost = boundary.iter().map(|p| p.0).fold(0.0, f64::min);
        assert!((leftmost + 2.785).abs() < 1e-3, "{leftmost}");
        // Where the boundary crosses the imaginary axis: 2√2.
        let top = boundary
            .iter()
            .filter(|p| p.0.abs() < 0.02)
            .map(|p| p.1)
            .fold(0.0, f64::max);
        assert!((top - 8f64.sqrt()).abs() < 0.02, "{top}");
        let euler = stability_boundary(EULER, 360).unwrap();
        assert!(euler.iter().all(|p| ((p.0 + 1.0).hypot(p.1) - 1.0).abs() < 1e-9));
    }
}
