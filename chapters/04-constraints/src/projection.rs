//! Post-stabilisation: instead of feedback inside the solve (Baumgarte), let the
//! integrator take its step and then move the state back onto the constraints: the
//! positions onto C = 0 by Gauss–Newton steps of least mass-weighted length, the
//! velocities onto J v = 0 by one projection (Ascher and Petzold, *Computer Methods
//! for Ordinary Differential Equations and Differential-Algebraic Equations*, 1998,
//! on stabilising invariants; Cline and Pai, "Post-stabilization for rigid body
//! simulation with contact and constraints", 2003).

use crate::block_matrix::BlockMatrix;
use crate::system::{ConstrainedSystem, default_iterations, solve_multipliers};
use pbm_particles::particle::Vector;
use pbm_prelim::PbmError;

/// The most Gauss–Newton steps a position projection may take. From a state one
/// step's drift off C = 0 it converges quadratically in two or three.
pub const MAX_NEWTON_STEPS: usize = 20;

/// What the projections have cost so far.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ProjectionCost {
    /// Linear solves J W Jᵀ μ = b (one per Gauss–Newton step, one per velocity
    /// projection).
    pub solves: usize,
    /// CG iterations over all of them.
    pub cg_iterations: usize,
}

// ANCHOR: least_norm
/// The smallest change δ, measured in the mass-weighted norm δᵀ M δ, with J δ = b:
/// δ = W Jᵀ μ where J W Jᵀ μ = b. Writes δ, D numbers per particle (zero for
/// particles no force moves, whose W is zero).
fn least_norm_change(
    j: &BlockMatrix,
    w: &[f64],
    b: &[f64],
    cost: &mut ProjectionCost,
) -> Result<Vec<f64>, PbmError> {
    let mut mu = vec![0.0; b.len()];
    let limit = (1e-12, default_iterations(b.len()));
    cost.cg_iterations += solve_multipliers(j, w, b, &mut mu, limit)?.iterations;
    cost.solves += 1;
    let mut delta = vec![0.0; j.n_cols];
    j.mul_transpose_vec(&mu, &mut delta);
    for (d, w) in delta.iter_mut().zip(w) {
        *d *= w;
    }
    Ok(delta)
}
// ANCHOR_END: least_norm

// ANCHOR: project
/// Moves the state back onto the constraints after a step: positions by Gauss–Newton,
/// x ← x − W Jᵀ μ with J W Jᵀ μ = C, until max |C| ≤ `tolerance`; then velocities
/// by one projection, v ← v − W Jᵀ μ with J W Jᵀ μ = Ċ = J v, at the new positions.
pub fn post_stabilise<const D: usize>(
    system: &mut ConstrainedSystem<D>,
    tolerance: f64,
    cost: &mut ProjectionCost,
) -> Result<(), PbmError> {
    let w = system.inverse_masses();
    let mut steps = 0;
    while system.max_abs_c()? > tolerance {
        if steps == MAX_NEWTON_STEPS {
            return Err(not_converged(system.max_abs_c()?, tolerance));
        }
        let dx = least_norm_change(system.jacobian(), &w, system.c(), cost)?;
        for (p, dx) in system.particles.particles.iter_mut().zip(dx.chunks(D)) {
            p.x -= Vector::<D>::from_column_slice(dx);
        }
        steps += 1;
    }
    // max_abs_c evaluated C, Ċ and J at the projected positions.
    let dv = least_norm_change(system.jacobian(), &w, system.c_dot(), cost)?;
    for (p, dv) in system.particles.particles.iter_mut().zip(dv.chunks(D)) {
        p.v -= Vector::<D>::from_column_slice(dv);
    }
    Ok(())
}
// ANCHOR_END: project

fn not_converged(residual: f64, tolerance: f64) -> PbmError {
    PbmError::degenerate(
        "position projection",
        format!(
            "after {MAX_NEWTON_STEPS} Gauss–Newton steps max |C| is {residual:.3e}, \
             still above {tolerance:e}: the state is too far off the constraints for \
             Newton's method to find its way back"
        ),
    )
}
