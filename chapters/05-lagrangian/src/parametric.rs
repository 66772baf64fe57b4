//! Parametric constraints ("Constrained Dynamics", section 5): the particles'
//! positions q are a function q(u) of fewer generalised coordinates u, so every u is
//! legal and the constraint can never drift. The equations of motion are written for
//! u.

use nalgebra::{DMatrix, DVector};
use pbm_ode::system::OdeSystem;
use pbm_prelim::PbmError;

// ANCHOR: model
/// A model whose legal configurations are q(u): it supplies q, J = ∂q/∂u and J̇, the
/// diagonal mass matrix M of q, and the applied forces Q.
pub trait ParametricModel {
    /// Number of generalised coordinates u (the degrees of freedom).
    fn dof(&self) -> usize;
    /// The diagonal of M, one mass per coordinate of q.
    fn masses(&self) -> &[f64];
    /// q(u).
    fn positions(&self, u: &[f64]) -> DVector<f64>;
    /// J = ∂q/∂u, dim q × dim u.
    fn jacobian(&self, u: &[f64]) -> DMatrix<f64>;
    /// J̇ = (∂J/∂u) u̇.
    fn jacobian_dot(&self, u: &[f64], u_dot: &[f64]) -> DMatrix<f64>;
    /// Gravity g (m/s², along −y), which the default applied force puts on every
    /// mass.
    fn gravity(&self) -> f64;
    /// The applied force Q at positions q and velocities q̇: gravity unless the
    /// model says otherwise.
    fn applied_force(
        &self,
        _q: &DVector<f64>,
        _q_dot: &DVector<f64>,
    ) -> DVector<f64> {
        gravity_force(self.masses(), self.gravity())
    }
    /// Potential energy of the applied forces (zero if they are not conservative).
    fn potential_energy(&self, q: &DVector<f64>) -> f64 {
        gravity_potential(self.masses(), self.gravity(), q)
    }
}
// ANCHOR_END: model

/// The applied force Q on point masses in the plane under gravity g along −y: q holds
/// (x, y) pairs and `masses` M's diagonal, each mass twice.
pub fn gravity_force(masses: &[f64], g: f64) -> DVector<f64> {
    DVector::from_iterator(
        masses.len(),
        masses.iter().enumerate().map(|(i, m)| if i % 2 == 1 { -m * g } else { 0.0 }),
    )
}

/// The potential energy of [`gravity_force`]: Σ m g y.
pub fn gravity_potential(masses: &[f64], g: f64, q: &DVector<f64>) -> f64 {
    masses.iter().zip(q.iter()).skip(1).step_by(2).map(|(m, y)| m * g * y).sum()
}

// ANCHOR: acceleration
/// Equation 13: Jᵀ M J ü = Jᵀ Q − Jᵀ M J̇ u̇, solved for ü. Jᵀ M J is symmetric
/// positive definite whenever J has full column rank; where it does not (a singular
/// parametrisation) the Cholesky factorization fails and so does this function.
pub fn generalized_acceleration<M: ParametricModel + ?Sized>(
    model: &M,
    u: &[f64],
    u_dot: &[f64],
) -> Result<DVector<f64>, PbmError> {
    let j = model.jacobian(u);
    let j_dot = model.jacobian_dot(u, u_dot);
    let u_dot_v = DVector::from_column_slice(u_dot);
    let q = model.positions(u);
    let q_dot = &j * &u_dot_v;
    let mass = DVector::from_column_slice(model.masses());
    let force = model.applied_force(&q, &q_dot);
    let mj = DMatrix::from_diagonal(&mass) * &j; // M J
    let lhs = j.transpose() * &mj; // Jᵀ M J
    let rhs = j.transpose() * (force - (&j_dot * &u_dot_v).component_mul(&mass));
    lhs.cholesky().map(|llt| llt.solve(&rhs)).ok_or_else(|| {
        PbmError::degenerate(
            "parametrisation",
            "Jᵀ M J is singular: the coordinates fold over here",
        )
    })
}
// ANCHOR_END: acceleration

// ANCHOR: constraint_force
/// The constraint force equation 13 never computes, recovered afterwards from
/// Newton's law: Q̂ = M q̈ − Q with q̈ = J ü + J̇ u̇. It does no work on any legal
/// motion, Jᵀ Q̂ = 0.
pub fn constraint_force<M: ParametricModel + ?Sized>(
    model: &M,
    u: &[f64],
    u_dot: &[f64],
) -> Result<DVector<f64>, PbmError> {
    let u_ddot = generalized_acceleration(model, u, u_dot)?;
    let u_dot_v = DVector::from_column_slice(u_dot);
    let q_ddot = model.jacobian(u) * u_ddot + model.jacobian_dot(u, u_dot) * &u_dot_v;
    let q_dot = model.jacobian(u) * &u_dot_v;
    let force = model.applied_force(&model.positions(u), &q_dot);
    let mass = DVector::from_column_slice(model.masses());
    Ok(q_ddot.component_mul(&mass) - force)
}
// ANCHOR_END: constraint_force

/// A parametric model in motion: state (u, u̇) for the ODE solver.
pub struct LagrangianSystem<M> {
    /// The model.
    pub model: M,
    /// Generalised coordinates.
    pub u: Vec<f64>,
    /// Their velocities.
    pub u_dot: Vec<f64>,
    /// The clock (s).
    pub t: f64,
}

/// A borrowed model is the model: a system can run on a model it does not own.
impl<M: ParametricModel + ?Sized> ParametricModel for &M {
    fn dof(&self) -> usize {
        (**self).dof()
    }
    fn masses(&self) -> &[f64] {
        (**self).masses()
    }
    fn positions(&self, u: &[f64]) -> DVector<f64> {
        (**self).positions(u)
    }
    fn jacobian(&self, u: &[f64]) -> DMatrix<f64> {
        (**self).jacobian(u)
    }
    fn jacobian_dot(&self, u: &[f64], u_dot: &[f64]) -> DMatrix<f64> {
        (**self).jacobian_dot(u, u_dot)
    }
    fn gravity(&self) -> f64 {
        (**self).gravity()
    }
    fn applied_force(&self, q: &DVector<f64>, q_dot: &DVector<f64>) -> DVector<f64> {
        (**self).applied_force(q, q_dot)
    }
    fn potential_energy(&self, q: &DVector<f64>) -> f64 {
        (**self).potential_energy(q)
    }
}

impl<M: ParametricModel> LagrangianSystem<M> {
    /// The model at u with velocities u̇ (both finite, of length dof).
    pub fn new(model: M, u: Vec<f64>, u_dot: Vec<f64>) -> Result<Self, PbmError> {
        let n = model.dof();
        if u.len() != n || u_dot.len() != n {
            return Err(PbmError::invalid(
                "Lagrangian system",
                format!(
                    "the model has {n} coordinates; got {} and {} values",
                    u.len(),
                    u_dot.len()
                ),
            ));
        }
        if u.iter().chain(&u_dot).any(|v| !v.is_finite()) {
            return Err(PbmError::invalid(
                "Lagrangian system",
                "coordinates must be finite",
            ));
        }
        Ok(LagrangianSystem { model, u, u_dot, t: 0.0 })
    }

    /// Particle positions q(u).
    pub fn positions(&self) -> DVector<f64> {
        self.model.positions(&self.u)
    }

    /// Kinetic energy ½ q̇ᵀ M q̇ (with q̇ = J u̇) plus potential energy.
    pub fn energy(&self) -> f64 {
        let q_dot =
            self.model.jacobian(&self.u) * DVector::from_column_slice(&self.u_dot);
        let kinetic: f64 =
            q_dot.iter().zip(self.model.masses()).map(|(v, m)| 0.5 * m * v * v).sum();
        kinetic + self.model.potential_energy(&self.positions())
    }
}

impl<M: ParametricModel> OdeSystem for LagrangianSystem<M> {
    fn dimension(&self) -> usize {
        2 * self.u.len()
    }
    fn time(&self) -> f64 {
        self.t
    }
    fn gather_state(&self, x: &mut [f64]) {
        let n = self.u.len();
        x[..n].copy_from_slice(&self.u);
        x[n..].copy_from_slice(&self.u_dot);
    }
    fn scatter_state(&mut self, x: &[f64], t: f64) {
        let n = self.u.len();
        self.u.copy_from_slice(&x[..n]);
        self.u_dot.copy_from_slice(&x[n..]);
        self.t = t;
    }
    fn derivative(&mut self, xdot: &mut [f64]) -> Result<(), PbmError> {
        let n = self.u.len();
        xdot[..n].copy_from_slice(&self.u_dot);
        let acceleration =
            generalized_acceleration(&self.model, &self.u, &self.u_dot)?;
        xdot[n..].copy_from_slice(acceleration.as_slice());
        Ok(())
    }
}
