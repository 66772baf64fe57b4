//! Projecting one constraint (Müller's slides, "PBD vs. XPBD"; Macklin, Müller and
//! Chentanez, *XPBD*, equations 17–18): move the positions of the particles a
//! condition names along its gradient, weighted by their inverse masses, until C = 0
//! (PBD, scaled by a stiffness factor s) or until C balances the force its
//! compliance allows (XPBD). Only the position part of chapter 2's [`Condition`] is
//! used: C and J = ∇C.

use pbm_particles::condition::Condition;
use pbm_particles::particle::Vector;
use pbm_prelim::PbmError;
use pbm_prelim::validate::{non_negative, unit_interval};

/// How a projected constraint resists being violated.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Stiffness {
    /// Position based dynamics: the full correction scaled by s ∈ (0, 1]. s has no
    /// physical unit, and the stiffness it gives depends on the step and on the
    /// iteration count.
    Pbd(f64),
    /// XPBD: compliance α ≥ 0, the inverse of a stiffness in the units of C (m/N
    /// for a distance). α = 0 is a rigid constraint.
    Xpbd(f64),
    /// The slides' XPBD update λ = −C / (Σ w + α̃), which forgets the multiplier
    /// already accumulated in this step. It is right for one iteration per step and
    /// grows stiffer with every further iteration; kept to show why (see the errata
    /// on the page).
    XpbdFirstIterationOnly(f64),
}

impl Stiffness {
    /// A rigid constraint: XPBD with zero compliance (the same as PBD with s = 1).
    pub const RIGID: Stiffness = Stiffness::Xpbd(0.0);

    /// PBD's stiffness factor; 0 < s ≤ 1.
    pub fn pbd(s: f64) -> Result<Self, PbmError> {
        let s = unit_interval("PBD constraint", "stiffness s", s)?;
        if s == 0.0 {
            return Err(PbmError::invalid(
                "PBD constraint",
                "stiffness s must be above 0 (s = 0 does nothing; 1 is rigid)",
            ));
        }
        Ok(Stiffness::Pbd(s))
    }

    /// XPBD's compliance α ≥ 0 (inverse stiffness).
    pub fn xpbd(compliance: f64) -> Result<Self, PbmError> {
        Ok(Stiffness::Xpbd(non_negative(
            "XPBD constraint",
            "compliance",
            compliance,
        )?))
    }

    /// The compliance, if this is an XPBD constraint with α > 0 (it then stores the
    /// potential energy ½ C²/α).
    pub fn compliance(&self) -> Option<f64> {
        match *self {
            Stiffness::Xpbd(alpha) | Stiffness::XpbdFirstIterationOnly(alpha)
                if alpha > 0.0 =>
            {
                Some(alpha)
            }
            _ => None,
        }
    }
}

// ANCHOR: multiplier_update
/// The change Δλ of one row's multiplier. `c` is the row's C, `lambda` the
/// multiplier it has accumulated in this step, `w_grad` = Σ_k w_k |∇_k C|² and `h`
/// the step:
/// PBD: Δλ = −s C / Σ w|∇C|²;  XPBD: Δλ = (−C − α̃ λ) / (Σ w|∇C|² + α̃), α̃ = α/h².
/// Zero when nothing can move (every particle fixed, or a zero gradient).
pub fn multiplier_update(
    stiffness: Stiffness,
    c: f64,
    lambda: f64,
    w_grad: f64,
    h: f64,
) -> f64 {
    let (numerator, denominator) = match stiffness {
        Stiffness::Pbd(s) => (-s * c, w_grad),
        Stiffness::Xpbd(alpha) => {
            let alpha_tilde = alpha / (h * h);
            (-c - alpha_tilde * lambda, w_grad + alpha_tilde)
        }
        Stiffness::XpbdFirstIterationOnly(alpha) => (-c, w_grad + alpha / (h * h)),
    };
    if denominator > 0.0 { numerator / denominator } else { 0.0 }
}
// ANCHOR_END: multiplier_update

/// Reused storage for one condition's positions, C and J.
#[derive(Debug, Clone, Default)]
pub struct Scratch<const D: usize> {
    x: Vec<Vector<D>>,
    c: Vec<f64>,
    j: Vec<Vector<D>>,
}

// ANCHOR: project
/// One Gauss–Seidel pass over the rows of `condition`: for each row, evaluate C and
/// ∇C at the current positions, update its multiplier and move every particle k by
/// Δx_k = w_k ∇_k C Δλ. `x` and `w` are all particles' positions and inverse
/// masses; `lambda` holds this condition's multipliers, one per row.
pub fn project<const D: usize>(
    condition: &dyn Condition<D>,
    stiffness: Stiffness,
    lambda: &mut [f64],
    w: &[f64],
    x: &mut [Vector<D>],
    h: f64,
    scratch: &mut Scratch<D>,
) -> Result<(), PbmError> {
    let ids = condition.particles();
    let n = ids.len();
    scratch.c.resize(condition.rows(), 0.0);
    scratch.j.resize(condition.rows() * n, Vector::zeros());
    for (r, lambda) in lambda.iter_mut().enumerate() {
        scratch.x.clear();
        scratch.x.extend(ids.iter().map(|&i| x[i]));
        condition.position(&scratch.x, &mut scratch.c, &mut scratch.j)?;
        let gradient = &scratch.j[r * n..(r + 1) * n];
        let w_grad: f64 =
            ids.iter().zip(gradient).map(|(&i, g)| w[i] * g.norm_squared()).sum();
        let d_lambda = multiplier_update(stiffness, scratch.c[r], *lambda, w_grad, h);
        *lambda += d_lambda;
        for (&i, g) in ids.iter().zip(gradient) {
            x[i] += g * (w[i] * d_lambda);
        }
    }
    Ok(())
}
// ANCHOR_END: project
