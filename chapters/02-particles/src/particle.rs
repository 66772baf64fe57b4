//! Particles in phase space (course notes, "Particle System Dynamics", sections 2 and
//! 3): a particle has mass, position and velocity; F = m a becomes the first-order
//! system ẋ = v, v̇ = f/m. From outside, a particle system is one state vector for
//! the solver; from inside, a list of particles and a list of force objects.

use nalgebra::{SMatrix, SVector};
use pbm_ode::system::OdeSystem;
use pbm_prelim::PbmError;
use pbm_prelim::validate::{all_finite, indices, positive};

/// A D-dimensional vector.
pub type Vector<const D: usize> = SVector<f64, D>;

/// A D × D matrix: one block of a force's Jacobian.
pub type Matrix<const D: usize> = SMatrix<f64, D, D>;

// ANCHOR: force
/// Something that adds forces into particles' accumulators.
pub trait Force<const D: usize>: Send + Sync {
    /// What it is, for error messages.
    fn name(&self) -> &'static str;
    /// Adds this object's forces at time `t` into `particles[i].f`. Fails if the
    /// force is not defined at this state (a degenerate geometry).
    fn apply(&self, t: f64, particles: &mut [Particle<D>]) -> Result<(), PbmError>;
    /// The particles this object names (checked when it is added to a system).
    fn particles(&self) -> &[usize] {
        &[]
    }
    /// Potential energy, for conservative forces; zero for dissipative ones.
    fn potential_energy(&self, _particles: &[Particle<D>]) -> f64 {
        0.0
    }
    /// Whether the force is exactly −∇ of [`Force::potential_energy`]: it depends on
    /// positions alone, not on velocities or time. Only such forces can be folded
    /// into an objective to minimize (chapter 3's implicit step as minimization).
    fn is_conservative(&self) -> bool {
        false
    }
    /// Adds this force's Jacobian blocks ∂f_i/∂x_j and ∂f_i/∂v_j into `out`, for
    /// implicit integration. A force that does not know its Jacobians says so.
    fn add_jacobians(
        &self,
        _t: f64,
        _particles: &[Particle<D>],
        _out: &mut dyn JacobianSink<D>,
    ) -> Result<(), PbmError> {
        Err(PbmError::invalid(
            "implicit step",
            format!("the force `{}` does not provide its Jacobians", self.name()),
        ))
    }
}
// ANCHOR_END: force

// ANCHOR: jacobian_sink
/// Receives Jacobian blocks from forces: for particles i and j, the D × D blocks
/// ∂f_i/∂x_j and ∂f_i/∂v_j. A force adds the blocks an implicit step should use:
/// where the exact Jacobian would make the step's matrix non-symmetric or indefinite,
/// a force may leave a term out and must say which in its documentation (as the
/// damped spring does).
pub trait JacobianSink<const D: usize> {
    /// Adds `dfdx` to ∂f_i/∂x_j and `dfdv` to ∂f_i/∂v_j.
    fn add(&mut self, i: usize, j: usize, dfdx: &Matrix<D>, dfdv: &Matrix<D>);

    /// A pair force's four blocks, which are one block with signs: + at (a, a) and
    /// (b, b), − at (a, b) and (b, a). A sink may override this to combine the
    /// block once instead of four times.
    fn add_pair(&mut self, [a, b]: [usize; 2], dfdx: &Matrix<D>, dfdv: &Matrix<D>) {
        for (i, j, sign) in [(a, a, 1.0), (a, b, -1.0), (b, a, -1.0), (b, b, 1.0)] {
            self.add(i, j, &(dfdx * sign), &(dfdv * sign));
        }
    }
}
// ANCHOR_END: jacobian_sink

/// A scripted motion: position, velocity and acceleration as functions of time.
pub type Script<const D: usize> = fn(f64) -> (Vector<D>, Vector<D>, Vector<D>);

/// Who moves a particle.
#[derive(Clone, Copy)]
pub enum Motion<const D: usize> {
    /// Forces, through the solver.
    Free,
    /// Nothing: an anchor or a nail. Its velocity stays zero.
    Fixed,
    /// A script (a motor, a mouse): position *and* velocity follow it, so that
    /// velocity-dependent forces such as spring damping see the right velocity.
    Scripted(Script<D>),
}

/// One particle: mass, phase-space state, and a force accumulator.
#[derive(Clone)]
pub struct Particle<const D: usize> {
    /// Mass (kg), positive and finite.
    pub mass: f64,
    /// Position (m).
    pub x: Vector<D>,
    /// Velocity (m/s).
    pub v: Vector<D>,
    /// Force accumulator (N), cleared and refilled on every derivative evaluation.
    pub f: Vector<D>,
    /// Who moves it.
    pub motion: Motion<D>,
}

impl<const D: usize> Particle<D> {
    /// A free particle. Mass must be positive and finite, position and velocity
    /// finite.
    pub fn new(mass: f64, x: Vector<D>, v: Vector<D>) -> Result<Self, PbmError> {
        let mass = positive("particle", "mass", mass)?;
        all_finite("particle", "position", x.iter().copied())?;
        all_finite("particle", "velocity", v.iter().copied())?;
        Ok(Particle { mass, x, v, f: Vector::zeros(), motion: Motion::Free })
    }

    /// The same particle with another kind of motion.
    pub fn with_motion(mut self, motion: Motion<D>) -> Self {
        if let Motion::Fixed = motion {
            self.v = Vector::zeros();
        }
        self.motion = motion;
        self
    }
}

/// The two ends `[a, b]` of a pair object (a spring, a distance, a rod), which must
/// be different particles; `what` names the object in the error.
pub fn two_ends(
    what: &'static str,
    a: usize,
    b: usize,
) -> Result<[usize; 2], PbmError> {
    if a == b {
        return Err(PbmError::invalid(what, format!("both ends are particle {a}")));
    }
    Ok([a, b])
}

/// Particles and the forces between them.
pub struct ParticleSystem<const D: usize> {
    /// The particles, indexed by the force objects.
    pub particles: Vec<Particle<D>>,
    /// Force objects, applied in order on every derivative evaluation.
    pub forces: Vec<Box<dyn Force<D>>>,
    /// The simulation clock (s).
    pub t: f64,
}

/// Particles in the plane.
pub type ParticleSystem2 = ParticleSystem<2>;
/// Particles in space.
pub type ParticleSystem3 = ParticleSystem<3>;

impl<const D: usize> ParticleSystem<D> {
    /// A system of `particles` with no forces, at t = 0.
    pub fn new(particles: Vec<Particle<D>>) -> Self {
        let mut system = ParticleSystem { particles, forces: Vec::new(), t: 0.0 };
        system.apply_scripts();
        system
    }

    /// Adds a force object after checking that the particles it names exist.
    pub fn add_force(
        &mut self,
        force: impl Force<D> + 'static,
    ) -> Result<(), PbmError> {
        indices(force.name(), "particle", force.particles(), self.particles.len())?;
        self.forces.push(Box::new(force));
        Ok(())
    }

    // ANCHOR: accumulate_forces
    /// The derivative-evaluation loop of the notes: clear the accumulators, let every
    /// force object add its forces. A force that cannot be evaluated (a degenerate
    /// geometry) stops the loop with its error.
    pub fn accumulate_forces(&mut self) -> Result<(), PbmError> {
        for p in &mut self.particles {
            p.f = Vector::zeros();
        }
        for force in &self.forces {
            force.apply(self.t, &mut self.particles)?;
        }
        Ok(())
    }
    // ANCHOR_END: accumulate_forces

    /// Total linear momentum Σ m v.
    pub fn momentum(&self) -> Vector<D> {
        self.particles.iter().map(|p| p.v * p.mass).sum()
    }

    /// Kinetic energy plus the potential energy of every conservative force.
    pub fn energy(&self) -> f64 {
        let kinetic: f64 =
            self.particles.iter().map(|p| 0.5 * p.mass * p.v.norm_squared()).sum();
        kinetic
            + self
                .forces
                .iter()
                .map(|f| f.potential_energy(&self.particles))
                .sum::<f64>()
    }

    /// The largest particle speed.
    pub fn max_speed(&self) -> f64 {
        self.particles.iter().map(|p| p.v.norm()).fold(0.0, f64::max)
    }

    /// Puts scripted particles where their scripts say at the current time.
    fn apply_scripts(&mut self) {
        for p in &mut self.particles {
            match p.motion {
                Motion::Scripted(script) => (p.x, p.v, _) = script(self.t),
                Motion::Fixed => p.v = Vector::zeros(),
                Motion::Free => {}
            }
        }
    }
}

// ANCHOR: ode_system
impl<const D: usize> OdeSystem for ParticleSystem<D> {
    fn dimension(&self) -> usize {
        2 * D * self.particles.len()
    }
    fn time(&self) -> f64 {
        self.t
    }
    fn gather_state(&self, x: &mut [f64]) {
        for (p, chunk) in self.particles.iter().zip(x.chunks_exact_mut(2 * D)) {
            chunk[..D].copy_from_slice(p.x.as_slice());
            chunk[D..].copy_from_slice(p.v.as_slice());
        }
    }
    fn scatter_state(&mut self, x: &[f64], t: f64) {
        for (p, chunk) in self.particles.iter_mut().zip(x.chunks_exact(2 * D)) {
            p.x = Vector::from_column_slice(&chunk[..D]);
            p.v = Vector::from_column_slice(&chunk[D..]);
        }
        self.t = t;
        self.apply_scripts(); // the solver does not move controlled particles
    }
    fn derivative(&mut self, xdot: &mut [f64]) -> Result<(), PbmError> {
        self.accumulate_forces()?;
        self.write_derivative(xdot);
        Ok(())
    }
}
// ANCHOR_END: ode_system

// ANCHOR: write_derivative
impl<const D: usize> ParticleSystem<D> {
    /// Writes (v, f/m) for every particle from the accumulated forces: the last step
    /// of the derivative evaluation (chapter 4 inserts constraint forces just before
    /// it).
    pub fn write_derivative(&self, xdot: &mut [f64]) {
        for (p, chunk) in self.particles.iter().zip(xdot.chunks_exact_mut(2 * D)) {
            let (v, a) = match p.motion {
                Motion::Free => (p.v, p.f / p.mass),
                Motion::Fixed => (Vector::zeros(), Vector::zeros()),
                Motion::Scripted(script) => {
                    let (_, v, a) = script(self.t);
                    (v, a)
                }
            };
            chunk[..D].copy_from_slice(v.as_slice());
            chunk[D..].copy_from_slice(a.as_slice());
        }
    }
}
// ANCHOR_END: write_derivative
