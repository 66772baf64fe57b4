//! Force objects (course notes, "Particle System Dynamics", section 4): unary forces
//! act on each particle alone (gravity, drag), n-ary forces on a fixed set (springs,
//! see `spring`), and spatial interaction forces on whichever pairs are close (see
//! `interaction`). Every force object adds into the particles' force accumulators;
//! none of them knows about the solver. A force may also carry its Jacobians ∂f/∂x
//! and ∂f/∂v, which implicit integration needs (chapter 3).

use crate::particle::Vector;
use crate::particle::{Matrix, Particle};
use pbm_prelim::PbmError;
use pbm_prelim::validate::non_negative;

/// The acceleration of gravity at the Earth's surface, as every chapter uses it
/// (m/s²).
pub const G: f64 = 9.81;

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

/// Receives Jacobian blocks from forces: for particles i and j, the D × D blocks
/// ∂f_i/∂x_j and ∂f_i/∂v_j. A force adds the blocks an implicit step should use:
/// where the exact Jacobian would make the step's matrix non-symmetric or indefinite,
/// a force may leave a term out and must say which in its documentation (as the
/// damped spring does).
pub trait JacobianSink<const D: usize> {
    /// Adds `dfdx` to ∂f_i/∂x_j and `dfdv` to ∂f_i/∂v_j.
    fn add(&mut self, i: usize, j: usize, dfdx: &Matrix<D>, dfdv: &Matrix<D>);
}
// ANCHOR_END: force

/// Uniform gravity: f = m g on every particle.
pub struct Gravity<const D: usize> {
    /// Acceleration of gravity (m/s²).
    pub g: Vector<D>,
}

impl<const D: usize> Force<D> for Gravity<D> {
    fn name(&self) -> &'static str {
        "gravity"
    }
    fn apply(&self, _t: f64, particles: &mut [Particle<D>]) -> Result<(), PbmError> {
        for p in particles {
            p.f += self.g * p.mass;
        }
        Ok(())
    }
    fn potential_energy(&self, particles: &[Particle<D>]) -> f64 {
        particles.iter().map(|p| -p.mass * self.g.dot(&p.x)).sum()
    }
    fn is_conservative(&self) -> bool {
        true
    }
    /// A constant force: both Jacobians are zero.
    fn add_jacobians(
        &self,
        _t: f64,
        _particles: &[Particle<D>],
        _out: &mut dyn JacobianSink<D>,
    ) -> Result<(), PbmError> {
        Ok(())
    }
}

/// Viscous drag: f = −k_drag v on every particle.
pub struct ViscousDrag {
    k_drag: f64,
}

impl ViscousDrag {
    /// Drag with coefficient `k_drag` ≥ 0 (kg/s).
    pub fn new(k_drag: f64) -> Result<Self, PbmError> {
        Ok(ViscousDrag { k_drag: non_negative("viscous drag", "k_drag", k_drag)? })
    }
}

impl<const D: usize> Force<D> for ViscousDrag {
    fn name(&self) -> &'static str {
        "viscous drag"
    }
    fn apply(&self, _t: f64, particles: &mut [Particle<D>]) -> Result<(), PbmError> {
        for p in particles {
            p.f -= p.v * self.k_drag;
        }
        Ok(())
    }
    /// ∂f_i/∂v_i = −k_drag I; nothing depends on position.
    fn add_jacobians(
        &self,
        _t: f64,
        particles: &[Particle<D>],
        out: &mut dyn JacobianSink<D>,
    ) -> Result<(), PbmError> {
        let dfdv = -Matrix::<D>::identity() * self.k_drag;
        for i in 0..particles.len() {
            out.add(i, i, &Matrix::zeros(), &dfdv);
        }
        Ok(())
    }
}
