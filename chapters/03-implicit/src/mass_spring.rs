//! Backward Euler for mass–spring systems in second-order form ("Implicit Methods",
//! section 4): solve (M − h ∂f/∂v − h² ∂f/∂x) Δv = h (f₀ + h ∂f/∂x v₀), a system the
//! size of the positions alone, with the springs' analytic Jacobians, then Δx = h
//! (v₀ + Δv).

use crate::block_sparse::{Block, BlockBuilder, BlockSparse, Refill};
use crate::cg::{CgReport, solve_pcg};
use crate::multigrid::Multigrid;
use nalgebra::SVector;
use pbm_ode::runge_kutta::check_step_size;
use pbm_particles::forces::Gravity;
use pbm_particles::particle::JacobianSink;
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
    /// How CG is preconditioned.
    pub preconditioner: Preconditioner,
    /// The multigrid hierarchy, kept from step to step while the pattern holds.
    multigrid: Option<Multigrid<D>>,
    /// The last step's matrix, whose pattern the next step refills.
    matrix: Option<Refill<D>>,
}

/// CG's preconditioner for the implicit step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preconditioner {
    /// The inverse of each particle's diagonal block.
    BlockJacobi,
    /// One aggregation multigrid V-cycle.
    Multigrid,
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
            preconditioner: Preconditioner::BlockJacobi,
            multigrid: None,
            matrix: None,
        }
    }

    fn is_free(&self, i: usize) -> bool {
        matches!(self.system.particles[i].motion, Motion::Free)
    }

    /// The matrix A = M − h ∂f/∂v − h² ∂f/∂x and the product (∂f/∂x) v₀ for the
    /// right-hand side; see [`MassSpring::assemble`]. `reuse` is a matrix to refill
    /// when every block fits its pattern.
    pub fn system_matrices(
        &self,
        h: f64,
        reuse: Option<BlockSparse<D>>,
    ) -> Result<(BlockSparse<D>, Vec<f64>), PbmError> {
        let (a, dfdx_v0) = self.assemble(h, reuse.map(Refill::new))?;
        Ok((a.into_matrix(), dfdx_v0))
    }

    // ANCHOR: system_matrices
    /// A = M − h ∂f/∂v − h² ∂f/∂x and (∂f/∂x) v₀, from the Jacobian blocks every
    /// force adds. Rows and columns of nailed particles become identity, so their
    /// Δv is zero. `reuse` is last step's A: its pattern is refilled in place when
    /// every block still fits.
    fn assemble(
        &self,
        h: f64,
        reuse: Option<Refill<D>>,
    ) -> Result<(Refill<D>, Vec<f64>), PbmError> {
        let n = self.system.particles.len();
        let free: Vec<bool> = (0..n).map(|i| self.is_free(i)).collect();
        let v0: Vec<f64> =
            self.system.particles.iter().flat_map(|p| p.v.iter().copied()).collect();
        let a = match reuse {
            Some(mut a) if a.matrix().block_rows() == n => {
                a.start();
                Assembly::Refill(a)
            }
            _ => Assembly::Build(BlockBuilder::new(n)),
        };
        let dfdx_v0 = vec![0.0; D * n];
        let mut sink = ImplicitMatrices { h, free: &free, v0: &v0, a, dfdx_v0 };
        for (i, p) in self.system.particles.iter().enumerate() {
            let mass = if free[i] { p.mass } else { 1.0 };
            sink.a.add(i, i, &(Block::<D>::identity() * mass));
        }
        for force in &self.system.forces {
            force.add_jacobians(self.system.t, &self.system.particles, &mut sink)?;
        }
        match sink.a {
            Assembly::Refill(a) if a.is_complete() => Ok((a, sink.dfdx_v0)),
            Assembly::Build(b) => Ok((Refill::new(b.build()), sink.dfdx_v0)),
            // A force added a block the old pattern lacks: assemble afresh.
            Assembly::Refill(_) => self.assemble(h, None),
        }
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
        let reuse = self.matrix.take();
        let (a, dfdx_v0) =
            self.assemble(h, reuse).map_err(|e| e.at_step(step, t0))?;
        let b = self.right_hand_side(h, &dfdx_v0);
        // Start from the last step's Δv: the motion changes little in one frame.
        let mut dv = std::mem::take(&mut self.warm);
        if !self.warm_start || dv.len() != D * n {
            dv = vec![0.0; D * n];
        }
        let cg =
            self.solve(a.matrix(), &b, &mut dv).map_err(|e| e.at_step(step, t0))?;
        for (i, p) in self.system.particles.iter_mut().enumerate() {
            if matches!(p.motion, Motion::Free) {
                p.v += SVector::<f64, D>::from_column_slice(&dv[D * i..D * i + D]);
                p.x += p.v * h; // Δx = h (v₀ + Δv)
            }
        }
        self.system.t += h;
        self.steps += 1;
        self.warm = dv;
        self.matrix = Some(a);
        if self.system.particles.iter().any(|p| !p.x.iter().all(|c| c.is_finite())) {
            return Err(PbmError::Diverged { step, time: t0 });
        }
        Ok(StepReport { cg })
    }
    // ANCHOR_END: implicit_step

    // ANCHOR: implicit_solve
    /// b = h (f₀ + h ∂f/∂x v₀), zero for nailed particles.
    fn right_hand_side(&self, h: f64, dfdx_v0: &[f64]) -> Vec<f64> {
        let mut b = vec![0.0; D * self.system.particles.len()];
        for (i, p) in self.system.particles.iter().enumerate() {
            if self.is_free(i) {
                for k in 0..D {
                    b[D * i + k] = h * (p.f[k] + h * dfdx_v0[D * i + k]);
                }
            }
        }
        b
    }

    /// Solves A Δv = b by CG from the Δv given, with the chosen preconditioner.
    fn solve(
        &mut self,
        a: &BlockSparse<D>,
        b: &[f64],
        dv: &mut [f64],
    ) -> Result<CgReport, PbmError> {
        let limit = 10 * dv.len() + 100;
        match self.preconditioner {
            Preconditioner::BlockJacobi => {
                solve_pcg(a, b, dv, self.cg_tolerance, limit)
            }
            Preconditioner::Multigrid => {
                let multigrid = match self.multigrid.take() {
                    Some(mut mg) if mg.fits(a) => mg.refill(a).map(|()| mg),
                    _ => Multigrid::new(a),
                }?;
                let report = multigrid.solve(b, dv, self.cg_tolerance, limit);
                self.multigrid = Some(multigrid);
                report
            }
        }
    }
    // ANCHOR_END: implicit_solve

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
/// free particles) and into the product (∂f/∂x) v₀ (for the right-hand side).
struct ImplicitMatrices<'a, const D: usize> {
    h: f64,
    free: &'a [bool],
    v0: &'a [f64],
    a: Assembly<D>,
    dfdx_v0: Vec<f64>,
}

/// A new matrix, or an old one's pattern refilled.
enum Assembly<const D: usize> {
    Build(BlockBuilder<D>),
    Refill(Refill<D>),
}

impl<const D: usize> Assembly<D> {
    fn add(&mut self, i: usize, j: usize, block: &Block<D>) {
        match self {
            Assembly::Build(builder) => builder.add(i, j, block),
            Assembly::Refill(a) => a.add(i, j, block),
        }
    }
}

impl<const D: usize> JacobianSink<D> for ImplicitMatrices<'_, D> {
    fn add(&mut self, i: usize, j: usize, dfdx: &Block<D>, dfdv: &Block<D>) {
        if self.free[i] && self.free[j] {
            self.a.add(i, j, &-(dfdv * self.h + dfdx * (self.h * self.h)));
        }
        let product = dfdx * self.velocity(j);
        self.add_product(i, &product);
    }

    /// The same blocks as four calls of `add`, each combined once.
    fn add_pair(&mut self, [a, b]: [usize; 2], dfdx: &Block<D>, dfdv: &Block<D>) {
        let block = -(dfdv * self.h + dfdx * (self.h * self.h));
        let (at_a, at_b) = (dfdx * self.velocity(a), dfdx * self.velocity(b));
        for (i, j, sign, product) in [
            (a, a, 1.0, at_a),
            (a, b, -1.0, at_b),
            (b, a, -1.0, at_a),
            (b, b, 1.0, at_b),
        ] {
            if self.free[i] && self.free[j] {
                self.a.add(i, j, &(block * sign));
            }
            self.add_product(i, &(product * sign));
        }
    }
}

impl<const D: usize> ImplicitMatrices<'_, D> {
    fn velocity(&self, j: usize) -> SVector<f64, D> {
        SVector::<f64, D>::from_column_slice(&self.v0[D * j..D * j + D])
    }

    /// (∂f/∂x v₀)_i += product.
    fn add_product(&mut self, i: usize, product: &SVector<f64, D>) {
        for k in 0..D {
            self.dfdx_v0[D * i + k] += product[k];
        }
    }
}
