//! The solver's view of a model (course notes, "Differential Equation Basics",
//! section 4): a solver sees only a state vector of known dimension that it can read
//! and write, a clock, and a way to evaluate the derivative at the current state.
//! Every later chapter's model (particles, rigid bodies, cloth) implements this one
//! trait.

use pbm_prelim::PbmError;

// ANCHOR: ode_system
/// A model as an ODE solver sees it: x' = f(x, t) with x a flat vector of
/// `dimension()` numbers.
pub trait OdeSystem {
    /// Length of the state vector.
    fn dimension(&self) -> usize;
    /// The simulation clock.
    fn time(&self) -> f64;
    /// Copies the current state into `x` (of length `dimension()`).
    fn gather_state(&self, x: &mut [f64]);
    /// Installs a new state and time; multi-stage solvers call this for trial states
    /// too.
    fn scatter_state(&mut self, x: &[f64], t: f64);
    /// Writes f(x, t), at the state and time last scattered, into `xdot`. A model
    /// whose evaluation can fail (a constraint solve that does not converge, a
    /// degenerate geometry) says so here; the solver adds the step and the time.
    fn derivative(&mut self, xdot: &mut [f64]) -> Result<(), PbmError>;
}
// ANCHOR_END: ode_system

/// Writes the four state methods of [`OdeSystem`] (`dimension`, `time`,
/// `gather_state`, `scatter_state`) for a type that wraps a system in its field
/// `$field` (owned or borrowed) and hands each call on unchanged: the wrapper writes
/// only the `derivative` it changes.
#[macro_export]
macro_rules! forward_state {
    ($field:ident) => {
        fn dimension(&self) -> usize {
            self.$field.dimension()
        }
        fn time(&self) -> f64 {
            self.$field.time()
        }
        fn gather_state(&self, x: &mut [f64]) {
            self.$field.gather_state(x);
        }
        fn scatter_state(&mut self, x: &[f64], t: f64) {
            self.$field.scatter_state(x, t);
        }
    };
}

/// The current state of `system` as a new vector.
pub fn state_of<S: OdeSystem + ?Sized>(system: &S) -> Vec<f64> {
    let mut x = vec![0.0; system.dimension()];
    system.gather_state(&mut x);
    x
}

// ANCHOR: vector_field
/// The simplest model: a state vector driven by a derivative function `f(t, x,
/// xdot)`. Chapter 1's examples are all of this kind.
pub struct VectorField<F> {
    x: Vec<f64>,
    t: f64,
    f: F,
}

impl<F: FnMut(f64, &[f64], &mut [f64])> VectorField<F> {
    /// A field with initial state `x0` at time `t0`. The state must be non-empty and
    /// finite.
    pub fn new(x0: &[f64], t0: f64, f: F) -> Result<Self, PbmError> {
        if x0.is_empty() {
            return Err(PbmError::invalid(
                "initial state",
                "it must have at least one entry",
            ));
        }
        if !t0.is_finite() || x0.iter().any(|v| !v.is_finite()) {
            return Err(PbmError::invalid(
                "initial state",
                "all entries and t0 must be finite",
            ));
        }
        Ok(VectorField { x: x0.to_vec(), t: t0, f })
    }
}
// ANCHOR_END: vector_field

// ANCHOR: vector_field_ode
impl<F: FnMut(f64, &[f64], &mut [f64])> OdeSystem for VectorField<F> {
    fn dimension(&self) -> usize {
        self.x.len()
    }
    fn time(&self) -> f64 {
        self.t
    }
    fn gather_state(&self, x: &mut [f64]) {
        x.copy_from_slice(&self.x);
    }
    fn scatter_state(&mut self, x: &[f64], t: f64) {
        self.x.copy_from_slice(x);
        self.t = t;
    }
    fn derivative(&mut self, xdot: &mut [f64]) -> Result<(), PbmError> {
        (self.f)(self.t, &self.x, xdot);
        Ok(())
    }
}
// ANCHOR_END: vector_field_ode

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gather_returns_what_scatter_installed() {
        let mut field =
            VectorField::new(&[1.0, 2.0], 0.0, |_, x, d| d.copy_from_slice(x))
                .unwrap();
        field.scatter_state(&[3.0, 4.0], 0.5);
        assert_eq!(state_of(&field), vec![3.0, 4.0]);
        assert_eq!(field.time(), 0.5);
        let mut d = [0.0; 2];
        field.derivative(&mut d).unwrap();
        assert_eq!(d, [3.0, 4.0]);
    }

    #[test]
    fn rejects_empty_or_non_finite_state() {
        let f = |_: f64, _: &[f64], _: &mut [f64]| {};
        assert!(VectorField::new(&[], 0.0, f).is_err());
        assert!(VectorField::new(&[f64::NAN], 0.0, f).is_err());
        assert!(VectorField::new(&[1.0], f64::INFINITY, f).is_err());
    }
}
