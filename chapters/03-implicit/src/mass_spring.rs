//! Backward Euler for mass–spring systems in second-order form ("Implicit Methods", section 4):
//! solve (M − h ∂f/∂v − h² ∂f/∂x) Δv = h (f₀ + h ∂f/∂x v₀), a system the size of the positions
//! alone, with the springs' analytic Jacobians, then Δx = h (v₀ + Δv).

use crate::block_sparse::{Block, BlockBuilder, BlockSparse};
use crate::cg::{CgReport, solve_pcg};
use nalgebra::SVector;
use pbm_ode::runge_kutta::check_step_size;
use pbm_particles::forces::{DampedSpring, Gravity};
use pbm_particles::particle::{Motion, Particle, ParticleSystem, Vector};
use pbm_prelim::PbmError;

// ANCHOR: spring_jacobians
/// Jacobians of equation 1's force on particle a, with l = x_a − x_b, L = |l|, u = l/L and
/// P = I − u uᵀ (the projection across the spring):
/// ∂f_a/∂x_a = −k_s [u uᵀ + (1 − r/L) P] − k_d [u l̇ᵀ P + (l̇·u) P] / L and
/// ∂f_a/∂v_a = −k_d u uᵀ. The blocks for b are the same with the signs flipped.
pub fn spring_jacobians<const D: usize>(
    (x_a, v_a): (&Vector<D>, &Vector<D>),
    (x_b, v_b): (&Vector<D>, &Vector<D>),
    (k_s, k_d, rest): (f64, f64, f64),
) -> Result<(Block<D>, Block<D>), PbmError> {
    let SpringFrame { length, u, uut, across } = SpringFrame::of(x_a, x_b)?;
    let l_dot = v_a - v_b;
    let dfdx = -(uut + across * (1.0 - rest / length)) * k_s
        - (u * (l_dot.transpose() * across) + across * l_dot.dot(&u)) * (k_d / length);
    let dfdv = -uut * k_d;
    Ok((dfdx, dfdv))
}
// ANCHOR_END: spring_jacobians

/// Particles, springs and gravity, steppable explicitly (as a chapter 2 particle system) and
/// implicitly (with the springs' Jacobians).
pub struct MassSpring<const D: usize> {
    /// The particle system: the springs and gravity as force objects.
    pub system: ParticleSystem<D>,
    /// The springs again, for their Jacobians.
    pub springs: Vec<DampedSpring>,
    /// Implicit steps taken, so that a divergence can say at which step it happened.
    steps: usize,
}

/// What one implicit step cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepReport {
    /// The conjugate-gradient solve.
    pub cg: CgReport,
}

impl<const D: usize> MassSpring<D> {
    /// The model: springs must name existing particles.
    pub fn new(
        particles: Vec<Particle<D>>,
        springs: Vec<DampedSpring>,
        g: Vector<D>,
    ) -> Result<Self, PbmError> {
        let mut system = ParticleSystem::new(particles);
        for s in &springs {
            system.add_force(*s)?;
        }
        system.add_force(Gravity { g })?;
        Ok(MassSpring { system, springs, steps: 0 })
    }

    fn is_free(&self, i: usize) -> bool {
        matches!(self.system.particles[i].motion, Motion::Free)
    }

    /// The matrix A = M − h ∂f/∂v − h² ∂f/∂x and the ∂f/∂x used for the right-hand side.
    /// Rows and columns of nailed particles become identity, so their Δv is zero.
    /// For a symmetric positive definite A (what CG needs), two terms are left out, as in
    /// Baraff and Witkin's "Large steps in cloth simulation": the non-symmetric damping part of
    /// ∂f/∂x, and the negative stiffness across a compressed spring (1 − r/L < 0 is clamped).
    pub fn system_matrices(
        &self,
        h: f64,
    ) -> Result<(BlockSparse<D>, BlockSparse<D>), PbmError> {
        let n = self.system.particles.len();
        let (mut a, mut dfdx) = (BlockBuilder::<D>::new(n), BlockBuilder::<D>::new(n));
        for (i, p) in self.system.particles.iter().enumerate() {
            let diagonal = if self.is_free(i) {
                Block::<D>::identity() * p.mass
            } else {
                Block::<D>::identity()
            };
            a.add(i, i, &diagonal);
        }
        for s in &self.springs {
            let (pa, pb) = (&self.system.particles[s.a], &self.system.particles[s.b]);
            let (x_part, v_part) =
                symmetric_spring_jacobians(&pa.x, &pb.x, (s.k_s, s.k_d, s.rest))?;
            let block = -(v_part * h + x_part * (h * h));
            for (i, j, sign) in
                [(s.a, s.a, 1.0), (s.a, s.b, -1.0), (s.b, s.a, -1.0), (s.b, s.b, 1.0)]
            {
                if self.is_free(i) && self.is_free(j) {
                    a.add(i, j, &(block * sign));
                }
                dfdx.add(i, j, &(x_part * sign));
            }
        }
        Ok((a.build(), dfdx.build()))
    }

    // ANCHOR: implicit_step
    /// One backward Euler step of size h: assemble, solve for Δv with CG, update v and x.
    pub fn backward_euler_step(&mut self, h: f64) -> Result<StepReport, PbmError> {
        check_step_size(h)?;
        let n = self.system.particles.len();
        self.system.accumulate_forces();
        let (a, dfdx) = self.system_matrices(h)?;
        let v0: Vec<f64> = self
            .system
            .particles
            .iter()
            .flat_map(|p| p.v.iter().copied().collect::<Vec<_>>())
            .collect();
        let mut dfdx_v0 = vec![0.0; D * n];
        dfdx.mul_vec(&v0, &mut dfdx_v0);
        // b = h (f₀ + h ∂f/∂x v₀), zero for nailed particles.
        let mut b = vec![0.0; D * n];
        for (i, p) in self.system.particles.iter().enumerate() {
            if self.is_free(i) {
                for k in 0..D {
                    b[D * i + k] = h * (p.f[k] + h * dfdx_v0[D * i + k]);
                }
            }
        }
        let mut dv = vec![0.0; D * n];
        let cg = solve_pcg(&a, &b, &mut dv, 1e-10, 10 * D * n + 100)?;
        for (i, p) in self.system.particles.iter_mut().enumerate() {
            if matches!(p.motion, Motion::Free) {
                p.v += SVector::<f64, D>::from_column_slice(&dv[D * i..D * i + D]);
                p.x += p.v * h; // Δx = h (v₀ + Δv)
            }
        }
        self.system.t += h;
        self.steps += 1;
        if self.system.particles.iter().any(|p| !p.x.iter().all(|c| c.is_finite())) {
            return Err(PbmError::Diverged {
                step: self.steps - 1,
                time: self.system.t - h,
            });
        }
        Ok(StepReport { cg })
    }
    // ANCHOR_END: implicit_step

    // ANCHOR: symplectic_euler
    /// One step of symplectic (semi-implicit) Euler: new velocity from the old positions, then
    /// new positions from the new velocity.
    pub fn symplectic_euler_step(&mut self, h: f64) -> Result<(), PbmError> {
        check_step_size(h)?;
        self.system.accumulate_forces();
        for p in
            self.system.particles.iter_mut().filter(|p| matches!(p.motion, Motion::Free))
        {
            p.v += p.f * (h / p.mass);
            p.x += p.v * h;
        }
        self.system.t += h;
        Ok(())
    }
    // ANCHOR_END: symplectic_euler
}

/// The geometry of a spring from b to a: length L, direction u, and the projections along
/// (u uᵀ) and across (P = I − u uᵀ) it.
struct SpringFrame<const D: usize> {
    length: f64,
    u: Vector<D>,
    uut: Block<D>,
    across: Block<D>,
}

impl<const D: usize> SpringFrame<D> {
    fn of(x_a: &Vector<D>, x_b: &Vector<D>) -> Result<Self, PbmError> {
        let l = x_a - x_b;
        let length = l.norm();
        if length == 0.0 || !length.is_finite() {
            return Err(PbmError::invalid("spring", "its two ends coincide: no direction"));
        }
        let u = l / length;
        let uut = u * u.transpose();
        Ok(SpringFrame { length, u, uut, across: Block::<D>::identity() - uut })
    }
}

/// The symmetric parts of the spring Jacobians used by the solver (see
/// [`MassSpring::system_matrices`]).
fn symmetric_spring_jacobians<const D: usize>(
    x_a: &Vector<D>,
    x_b: &Vector<D>,
    (k_s, k_d, rest): (f64, f64, f64),
) -> Result<(Block<D>, Block<D>), PbmError> {
    let SpringFrame { length, uut, across, .. } = SpringFrame::of(x_a, x_b)?;
    let dfdx = -(uut + across * (1.0 - rest / length).max(0.0)) * k_s;
    Ok((dfdx, -uut * k_d))
}
