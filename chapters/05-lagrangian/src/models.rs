//! Two parametric models in the plane: the bead on a circle (one angle) and the
//! double pendulum (two angles), both under uniform gravity.

use crate::parametric::ParametricModel;
use nalgebra::{DMatrix, DVector};
use pbm_prelim::PbmError;
use pbm_prelim::validate::positive;

// ANCHOR: bead
/// A bead of mass m on a circle of radius r about the origin: q = r (cos θ, sin θ),
/// so J = r (−sin θ, cos θ)ᵀ (the tangent T) and J̇ = −r (cos θ, sin θ)ᵀ θ̇.
#[derive(Debug, Clone)]
pub struct Bead {
    masses: [f64; 2],
    radius: f64,
    g: f64,
}

impl ParametricModel for Bead {
    fn dof(&self) -> usize {
        1
    }
    fn masses(&self) -> &[f64] {
        &self.masses
    }
    fn positions(&self, u: &[f64]) -> DVector<f64> {
        DVector::from_vec(vec![self.radius * u[0].cos(), self.radius * u[0].sin()])
    }
    fn jacobian(&self, u: &[f64]) -> DMatrix<f64> {
        let r = self.radius;
        DMatrix::from_column_slice(2, 1, &[-r * u[0].sin(), r * u[0].cos()])
    }
    fn jacobian_dot(&self, u: &[f64], u_dot: &[f64]) -> DMatrix<f64> {
        let w = u_dot[0] * self.radius;
        DMatrix::from_column_slice(2, 1, &[-w * u[0].cos(), -w * u[0].sin()])
    }
    fn gravity(&self) -> f64 {
        self.g
    }
}
// ANCHOR_END: bead

impl Bead {
    /// A bead of `mass` on a circle of `radius` under gravity `g` (pointing down,
    /// −y).
    pub fn new(mass: f64, radius: f64, g: f64) -> Result<Self, PbmError> {
        Ok(Bead {
            masses: [positive("bead", "mass", mass)?; 2],
            radius: positive("bead", "radius", radius)?,
            g: positive("bead", "g", g)?,
        })
    }

    /// The circle's radius.
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// The slides' closed form for this model: dotting the tangent T = J into m ẍ =
    /// f + f_c removes the constraint force, and Jᵀ J̇ = 0 on a circle, so θ̈ = T·f /
    /// (m T·T).
    pub fn closed_form_theta_ddot(&self, theta: f64) -> f64 {
        let t = [-self.radius * theta.sin(), self.radius * theta.cos()];
        let f = [0.0, -self.masses[0] * self.g];
        (t[0] * f[0] + t[1] * f[1]) / (self.masses[0] * (t[0] * t[0] + t[1] * t[1]))
    }
}

// ANCHOR: ellipse_bead
/// A bead of mass m on the ellipse q = (a cos θ, b sin θ) under gravity. J = (−a sin
/// θ, b cos θ)ᵀ and J̇ = −(a cos θ, b sin θ)ᵀ θ̇. Unlike the circle's, Jᵀ J̇ = (a² −
/// b²) sin θ cos θ θ̇ is not zero: the bead's speed along θ changes with where it is,
/// and equation 13's J̇ term carries that.
#[derive(Debug, Clone)]
pub struct EllipseBead {
    masses: [f64; 2],
    axes: [f64; 2],
    g: f64,
}
// ANCHOR_END: ellipse_bead

impl ParametricModel for EllipseBead {
    // ANCHOR: ellipse_bead_kinematics
    fn positions(&self, u: &[f64]) -> DVector<f64> {
        let [a, b] = self.axes;
        DVector::from_vec(vec![a * u[0].cos(), b * u[0].sin()])
    }
    fn jacobian(&self, u: &[f64]) -> DMatrix<f64> {
        let [a, b] = self.axes;
        DMatrix::from_column_slice(2, 1, &[-a * u[0].sin(), b * u[0].cos()])
    }
    fn jacobian_dot(&self, u: &[f64], u_dot: &[f64]) -> DMatrix<f64> {
        let [a, b] = self.axes;
        let w = u_dot[0];
        DMatrix::from_column_slice(2, 1, &[-a * w * u[0].cos(), -b * w * u[0].sin()])
    }
    // ANCHOR_END: ellipse_bead_kinematics
    fn dof(&self) -> usize {
        1
    }
    fn masses(&self) -> &[f64] {
        &self.masses
    }
    fn gravity(&self) -> f64 {
        self.g
    }
}

impl EllipseBead {
    /// A bead of `mass` on the ellipse with half-axes `a` (x) and `b` (y) about the
    /// origin, under gravity `g` along −y.
    pub fn new(mass: f64, a: f64, b: f64, g: f64) -> Result<Self, PbmError> {
        Ok(EllipseBead {
            masses: [positive("ellipse bead", "mass", mass)?; 2],
            axes: [
                positive("ellipse bead", "half-axis a", a)?,
                positive("ellipse bead", "half-axis b", b)?,
            ],
            g: positive("ellipse bead", "g", g)?,
        })
    }
}

// ANCHOR: double_pendulum
/// The double pendulum in its two angles from straight down:
/// p₁ = l₁ (sin θ₁, −cos θ₁), p₂ = p₁ + l₂ (sin θ₂, −cos θ₂), q = (p₁, p₂).
/// Column k of J is ∂q/∂θ_k; J̇ differentiates each entry once more along θ̇.
#[derive(Debug, Clone)]
pub struct DoublePendulum {
    masses: [f64; 4],
    lengths: [f64; 2],
    g: f64,
}
// ANCHOR_END: double_pendulum

impl ParametricModel for DoublePendulum {
    // ANCHOR: double_pendulum_kinematics
    fn positions(&self, u: &[f64]) -> DVector<f64> {
        let [l1, l2] = self.lengths;
        let p1 = [l1 * u[0].sin(), -l1 * u[0].cos()];
        DVector::from_vec(vec![
            p1[0],
            p1[1],
            p1[0] + l2 * u[1].sin(),
            p1[1] - l2 * u[1].cos(),
        ])
    }
    fn jacobian(&self, u: &[f64]) -> DMatrix<f64> {
        let [l1, l2] = self.lengths;
        let (c1, s1, c2, s2) = (u[0].cos(), u[0].sin(), u[1].cos(), u[1].sin());
        DMatrix::from_row_slice(
            4,
            2,
            &[l1 * c1, 0.0, l1 * s1, 0.0, l1 * c1, l2 * c2, l1 * s1, l2 * s2],
        )
    }
    fn jacobian_dot(&self, u: &[f64], u_dot: &[f64]) -> DMatrix<f64> {
        let [l1, l2] = self.lengths;
        let (w1, w2) = (u_dot[0], u_dot[1]);
        let (c1, s1, c2, s2) = (u[0].cos(), u[0].sin(), u[1].cos(), u[1].sin());
        DMatrix::from_row_slice(
            4,
            2,
            &[
                -l1 * s1 * w1,
                0.0,
                l1 * c1 * w1,
                0.0,
                -l1 * s1 * w1,
                -l2 * s2 * w2,
                l1 * c1 * w1,
                l2 * c2 * w2,
            ],
        )
    }
    // ANCHOR_END: double_pendulum_kinematics
    fn dof(&self) -> usize {
        2
    }
    fn masses(&self) -> &[f64] {
        &self.masses
    }
    fn gravity(&self) -> f64 {
        self.g
    }
}

impl DoublePendulum {
    /// Bobs of mass m₁, m₂ on links l₁, l₂ under gravity g.
    pub fn new(m: [f64; 2], l: [f64; 2], g: f64) -> Result<Self, PbmError> {
        let what = "double pendulum";
        let (m1, m2) = (positive(what, "m1", m[0])?, positive(what, "m2", m[1])?);
        let lengths = [positive(what, "l1", l[0])?, positive(what, "l2", l[1])?];
        Ok(DoublePendulum {
            masses: [m1, m1, m2, m2],
            lengths,
            g: positive(what, "g", g)?,
        })
    }
}
