//! Force objects (course notes, "Particle System Dynamics", section 4), each an
//! implementation of [`Force`] (declared beside the particle system that calls it): unary forces
//! act on each particle alone (gravity, drag), n-ary forces on a fixed set (springs,
//! see `spring`), and spatial interaction forces on whichever pairs are close (see
//! `interaction`). Every force object adds into the particles' force accumulators;
//! none of them knows about the solver. A force may also carry its Jacobians ∂f/∂x
//! and ∂f/∂v, which implicit integration needs (chapter 3).

use crate::particle::{Force, JacobianSink, Matrix, Particle, Vector};
use pbm_prelim::PbmError;
use pbm_prelim::validate::non_negative;

/// The acceleration of gravity at the Earth's surface, as every chapter uses it
/// (m/s²).
pub const G: f64 = 9.81;

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
