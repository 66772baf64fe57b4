//! Backward Euler for mass–spring systems in second-order form ("Implicit Methods",
//! section 4): solve (M − h ∂f/∂v − h² ∂f/∂x) Δv = h (f₀ + h ∂f/∂x v₀), a system the
//! size of the positions alone, with the springs' analytic Jacobians, then Δx = h
//! (v₀ + Δv).

use crate::block_sparse::{Block, BlockBuilder, BlockSparse};
use crate::cg::{CgReport, solve_pcg};
use nalgebra::SVector;
use pbm_ode::runge_kutta::check_step_size;
use pbm_particles::forces::{Gravity, JacobianSink};
use pbm_particles::particle::{Motion, Particle, ParticleSystem, Vector};
use pbm_particles::spring::DampedSpring;
use pbm_prelim::PbmError;

/// A particle system whose forces carry their Jacobians (springs, gravity, drag, soft
/// conditions, and chapter 9's cloth), steppable explicitly (as a chapter 2 particle
/// system) and implicitly. Each force is held once, by the particle system, and gives
/// both its force and its Jacobian blocks.
pub struct MassSpring<const D: usize> {
    /// The particle system and its force objects.
    pub system: ParticleSystem<D>,
    /// Implicit steps taken, so that a failure can say at which step it happened.
    steps: usize,
    /// CG's relative residual for the implicit step, ‖b − A Δv‖ ≤ tol ‖b‖.
    pub cg_tolerance: f64,
    /// Whether CG starts from the last step's Δv (true) or from zero.
    pub warm_start: bool,
    /// The last step's Δv, CG's starting guess for the next (empty before the first
    /// step, or when the number of particles changed).
    warm: Vec<f64>,
}

/// CG's default relative residual for an implicit step.
pub const CG_TOLERANCE: f64 = 1e-10;

/// What one implicit step cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepReport {
    /// The conjugate-gradient solve.
    pub cg: CgReport,
}

impl<const D: usize> MassSpring<D> {
    /// Particles joined by damped springs under uniform gravity `g`. The springs must
    /// name existing particles.
    pub fn new(
        particles: Vec<Particle<D>>,
        springs: Vec<DampedSpring>,
        g: Vector<D>,
    ) -> Result<Self, PbmError> {
        let mut system = ParticleSystem::new(particles);
        for s in springs {
            system.add_force(s)?;
        }
        system.add_force(Gravity { g })?;
        Ok(Self::from_system(system))
    }

    /// Any particle system; every force in it must provide its Jacobians, or the
    /// first implicit step says which one does not.
    pub fn from_system(system: ParticleSystem<D>) -> Self {
        MassSpring {
            system,
            steps: 0,
            cg_tolerance: CG_TOLERANCE,
            warm_start: true,
            warm: Vec::new(),
        }
    }

    fn is_free(&self, i: usize) -> bool {
        matches!(self.system.particles[i].motion, Motion::Free)
    }

    // ANCHOR: system_matrices
    /// The matrix A = M − h ∂f/∂v − h² ∂f/∂x and the ∂f/∂x used for the right-hand
    /// side, from the Jacobian blocks every force adds. Rows and columns of nailed
    /// particles become identity, so their Δv is zero.
    pub fn system_matrices(
        &self,
        h: f64,
    ) -> Result<(BlockSparse<D>, BlockSparse<D>), PbmError> {
        let n = self.system.particles.len();
        let free: Vec<bool> = (0..n).map(|i| self.is_free(i)).collect();
        let mut sink = ImplicitMatrices {
            h,
            free: &free,
            a: BlockBuilder::new(n),
            dfdx: BlockBuilder::new(n),
        };
        for (i, p) in self.system.particles.iter().enumerate() {
            let mass = if free[i] { p.mass } else { 1.0 };
            sink.a.add(i, i, &(Block::<D>::identity() * mass));
        }
        for force in &self.system.forces {
            force.add_jacobians(self.system.t, &self.system.particles, &mut sink)?;
        }
        Ok((sink.a.build(), sink.dfdx.build()))
    }
    // ANCHOR_END: system_matrices

    // ANCHOR: implicit_step
    /// One backward Euler step of size h: assemble, solve for Δv with CG, update v
    /// and x.
    pub fn backward_euler_step(&mut self, h: f64) -> Result<StepReport, PbmError> {
        check_step_size(h)?;
        let (step, t0) = (self.steps, self.system.t);
        let n = self.system.particles.len();
        self.system.accumulate_forces().map_err(|e| e.at_step(step, t0))?;
        let (a, dfdx) = self.system_matrices(h).map_err(|e| e.at_step(step, t0))?;
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
        // Start from the last step's Δv: the motion changes little in one frame.
        let mut dv = std::mem::take(&mut self.warm);
        if !self.warm_start || dv.len() != D * n {
            dv = vec![0.0; D * n];
        }
        let cg = solve_pcg(&a, &b, &mut dv, self.cg_tolerance, 10 * D * n + 100)
            .map_err(|e| e.at_step(step, t0))?;
        for (i, p) in self.system.particles.iter_mut().enumerate() {
            if matches!(p.motion, Motion::Free) {
                p.v += SVector::<f64, D>::from_column_slice(&dv[D * i..D * i + D]);
                p.x += p.v * h; // Δx = h (v₀ + Δv)
            }
        }
        self.system.t += h;
        self.steps += 1;
        self.warm = dv;
        if self.system.particles.iter().any(|p| !p.x.iter().all(|c| c.is_finite())) {
            return Err(PbmError::Diverged { step, time: t0 });
        }
        Ok(StepReport { cg })
    }
    // ANCHOR_END: implicit_step

    // ANCHOR: symplectic_euler
    /// One step of symplectic (semi-implicit) Euler: new velocity from the old
    /// positions, then new positions from the new velocity.
    pub fn symplectic_euler_step(&mut self, h: f64) -> Result<(), PbmError> {
        check_step_size(h)?;
        self.system.accumulate_forces()?;
        for p in self
            .system
            .particles
            .iter_mut()
            .filter(|p| matches!(p.motion, Motion::Free))
        {
            p.v += p.f * (h / p.mass);
            p.x += p.v * h;
        }
        self.system.t += h;
        Ok(())
    }
    // ANCHOR_END: symplectic_euler
}

/// Collects the forces' Jacobian blocks into A = M − h ∂f/∂v − h² ∂f/∂x (only between
/// free particles) and into ∂f/∂x (for the right-hand side).
struct ImplicitMatrices<'a, const D: usize> {
    h: f64,
    free: &'a [bool],
    a: BlockBuilder<D>,
    dfdx: BlockBuilder<D>,
}

impl<const D: usize> JacobianSink<D> for ImplicitMatrices<'_, D> {
    fn add(&mut self, i: usize, j: usize, dfdx: &Block<D>, dfdv: &Block<D>) {
        if self.free[i] && self.free[j] {
            self.a.add(i, j, &-(dfdv * self.h + dfdx * (self.h * self.h)));
        }
        self.dfdx.add(i, j, dfdx);
    }
}
