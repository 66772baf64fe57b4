//! The gyroscopic term at a large step (appendix C.2: ω̇ = I⁻¹(τ − ω × Iω), here
//! with τ = 0 and written in the body frame, where I is constant): forward Euler, as
//! many engines step it, against backward Euler solved by Newton's method, the
//! treatment Catto recommends ("Numerical Methods", GDC 2015).

use crate::rotation::star;
use nalgebra::{Matrix3, Vector3};
use pbm_prelim::PbmError;
use pbm_prelim::validate::all_finite;

/// A body's spin in its own frame: ω in body coordinates and the constant I_body.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BodySpin {
    inertia: Matrix3<f64>,
    inverse: Matrix3<f64>,
}

impl BodySpin {
    /// The spin of a body with inertia tensor `inertia` (body coordinates, about the
    /// centre of mass). Fails unless it is symmetric positive definite.
    pub fn new(inertia: Matrix3<f64>) -> Result<Self, PbmError> {
        all_finite("body spin", "inertia tensor", inertia.iter().copied())?;
        let symmetric =
            (inertia - inertia.transpose()).norm() <= 1e-12 * inertia.norm();
        match (inertia.cholesky(), symmetric) {
            (Some(c), true) => Ok(BodySpin { inertia, inverse: c.inverse() }),
            _ => Err(PbmError::invalid(
                "body spin",
                "the inertia tensor must be symmetric positive definite",
            )),
        }
    }

    /// The kinetic energy of the spin, ½ ωᵀ I ω (J).
    pub fn energy(&self, omega: &Vector3<f64>) -> f64 {
        0.5 * omega.dot(&(self.inertia * omega))
    }

    /// The angular momentum in body coordinates, L_b = I ω (kg m²/s).
    pub fn momentum(&self, omega: &Vector3<f64>) -> Vector3<f64> {
        self.inertia * omega
    }

    // ANCHOR: explicit
    /// One forward-Euler step of the torque-free Euler equations:
    /// ω₂ = ω₁ − h I⁻¹ (ω₁ × I ω₁).
    pub fn explicit_step(&self, omega: &Vector3<f64>, h: f64) -> Vector3<f64> {
        omega - self.inverse * omega.cross(&(self.inertia * omega)) * h
    }
    // ANCHOR_END: explicit

    // ANCHOR: implicit
    /// One backward-Euler step: the ω₂ with f(ω₂) = I (ω₂ − ω₁) + h ω₂ × I ω₂ = 0,
    /// by `newton` Newton steps from ω₁ (one is Catto's choice). The Jacobian is
    /// ∂f/∂ω = I + h (ω* I − (I ω)*).
    pub fn implicit_step(
        &self,
        omega: &Vector3<f64>,
        h: f64,
        newton: usize,
    ) -> Result<Vector3<f64>, PbmError> {
        let i = &self.inertia;
        let mut w = *omega;
        for _ in 0..newton {
            let f = i * (w - omega) + w.cross(&(i * w)) * h;
            let jacobian = i + (star(&w) * i - star(&(i * w))) * h;
            w -= jacobian.lu().solve(&f).ok_or_else(|| {
                PbmError::degenerate("backward Euler spin", "singular Jacobian")
            })?;
        }
        Ok(w)
    }
    // ANCHOR_END: implicit

    /// |f(ω₂)| / |I ω₁|: how far `next` is from solving backward Euler's equation.
    pub fn implicit_residual(
        &self,
        omega: &Vector3<f64>,
        next: &Vector3<f64>,
        h: f64,
    ) -> f64 {
        let i = &self.inertia;
        (i * (next - omega) + next.cross(&(i * next)) * h).norm() / (i * omega).norm()
    }
}
