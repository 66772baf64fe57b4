//! Force objects (course notes, "Particle System Dynamics", section 4): unary forces act on
//! each particle alone (gravity, drag), n-ary forces on a fixed set (springs), and spatial
//! interaction forces on whichever pairs are close (see `interaction`). Every force object
//! adds into the particles' force accumulators; none of them knows about the solver.

use crate::particle::{Particle, Vector};
use pbm_prelim::PbmError;

/// Something that adds forces into particles' accumulators.
pub trait Force<const D: usize>: Send + Sync {
    /// Adds this object's forces at time `t` into `particles[i].f`.
    fn apply(&self, t: f64, particles: &mut [Particle<D>]);
    /// The particles this object names (checked when it is added to a system).
    fn particles(&self) -> Vec<usize> {
        Vec::new()
    }
    /// Potential energy, for conservative forces; zero for dissipative ones.
    fn potential_energy(&self, _particles: &[Particle<D>]) -> f64 {
        0.0
    }
}

fn check_coefficient(what: &'static str, value: f64) -> Result<f64, PbmError> {
    if value >= 0.0 && value.is_finite() {
        Ok(value)
    } else {
        Err(PbmError::invalid(what, format!("{value}; it must be non-negative and finite")))
    }
}

/// Uniform gravity: f = m g on every particle.
pub struct Gravity<const D: usize> {
    /// Acceleration of gravity (m/s²).
    pub g: Vector<D>,
}

impl<const D: usize> Force<D> for Gravity<D> {
    fn apply(&self, _t: f64, particles: &mut [Particle<D>]) {
        for p in particles {
            p.f += self.g * p.mass;
        }
    }
    fn potential_energy(&self, particles: &[Particle<D>]) -> f64 {
        particles.iter().map(|p| -p.mass * self.g.dot(&p.x)).sum()
    }
}

/// Viscous drag: f = −k_drag v on every particle.
pub struct ViscousDrag {
    k_drag: f64,
}

impl ViscousDrag {
    /// Drag with coefficient `k_drag` ≥ 0 (kg/s).
    pub fn new(k_drag: f64) -> Result<Self, PbmError> {
        Ok(ViscousDrag { k_drag: check_coefficient("drag coefficient", k_drag)? })
    }
}

impl<const D: usize> Force<D> for ViscousDrag {
    fn apply(&self, _t: f64, particles: &mut [Particle<D>]) {
        for p in particles {
            p.f -= p.v * self.k_drag;
        }
    }
}

// ANCHOR: spring_force
/// Equation 1 of the notes: the force on particle a of a spring to particle b, with
/// l = x_a − x_b: f_a = −[k_s(|l| − r) + k_d (l̇·l)/|l|] l/|l|. Coincident particles give no
/// direction, which is an error.
pub fn spring_force<const D: usize>(
    (x_a, v_a): (&Vector<D>, &Vector<D>),
    (x_b, v_b): (&Vector<D>, &Vector<D>),
    (k_s, k_d, rest): (f64, f64, f64),
) -> Result<Vector<D>, PbmError> {
    let l = x_a - x_b;
    let length = l.norm();
    if length == 0.0 || !length.is_finite() {
        return Err(PbmError::invalid("spring", "its two ends coincide: no direction"));
    }
    let l_dot = v_a - v_b;
    let magnitude = k_s * (length - rest) + k_d * l_dot.dot(&l) / length;
    Ok(-(l / length) * magnitude)
}
// ANCHOR_END: spring_force

/// A damped spring between particles `a` and `b` (equation 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DampedSpring {
    /// First particle.
    pub a: usize,
    /// Second particle.
    pub b: usize,
    /// Stiffness k_s (N/m).
    pub k_s: f64,
    /// Damping k_d (N s/m).
    pub k_d: f64,
    /// Rest length r (m).
    pub rest: f64,
}

impl DampedSpring {
    /// Validates: two different particles, non-negative finite constants and rest length.
    pub fn new(
        a: usize,
        b: usize,
        k_s: f64,
        k_d: f64,
        rest: f64,
    ) -> Result<Self, PbmError> {
        if a == b {
            return Err(PbmError::invalid("spring", format!("both ends are particle {a}")));
        }
        Ok(DampedSpring {
            a,
            b,
            k_s: check_coefficient("spring stiffness", k_s)?,
            k_d: check_coefficient("spring damping", k_d)?,
            rest: check_coefficient("spring rest length", rest)?,
        })
    }

    /// A spring whose rest length is the current distance between its ends, which must differ.
    pub fn at_rest<const D: usize>(
        particles: &[Particle<D>],
        a: usize,
        b: usize,
        k_s: f64,
        k_d: f64,
    ) -> Result<Self, PbmError> {
        let (pa, pb) = (particles.get(a), particles.get(b));
        let (Some(pa), Some(pb)) = (pa, pb) else {
            return Err(PbmError::invalid(
                "spring",
                format!("particles {a}, {b}: no such particle"),
            ));
        };
        let rest = (pa.x - pb.x).norm();
        if rest == 0.0 {
            return Err(PbmError::invalid(
                "spring",
                format!("particles {a} and {b} coincide"),
            ));
        }
        Self::new(a, b, k_s, k_d, rest)
    }

    /// The force on particle `a` (that on `b` is its negative).
    pub fn force_on_a<const D: usize>(
        &self,
        particles: &[Particle<D>],
    ) -> Result<Vector<D>, PbmError> {
        let (pa, pb) = (&particles[self.a], &particles[self.b]);
        spring_force((&pa.x, &pa.v), (&pb.x, &pb.v), (self.k_s, self.k_d, self.rest))
    }
}

impl<const D: usize> Force<D> for DampedSpring {
    fn apply(&self, _t: f64, particles: &mut [Particle<D>]) {
        // Coincident ends have no direction; they exert nothing until they separate (a
        // zero-rest-length spring's force −k_s l vanishes there anyway).
        if let Ok(f) = self.force_on_a(particles) {
            particles[self.a].f += f;
            particles[self.b].f -= f;
        }
    }
    fn particles(&self) -> Vec<usize> {
        vec![self.a, self.b]
    }
    fn potential_energy(&self, particles: &[Particle<D>]) -> f64 {
        let stretch = (particles[self.a].x - particles[self.b].x).norm() - self.rest;
        0.5 * self.k_s * stretch * stretch
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Vector2;

    #[test]
    fn bad_constants_are_errors() {
        assert!(DampedSpring::new(0, 0, 1.0, 0.0, 1.0).is_err());
        assert!(DampedSpring::new(0, 1, -1.0, 0.0, 1.0).is_err());
        assert!(DampedSpring::new(0, 1, 1.0, f64::NAN, 1.0).is_err());
        assert!(DampedSpring::new(0, 1, 1.0, 0.0, -0.5).is_err());
        assert!(ViscousDrag::new(-1.0).is_err());
        let z = Vector2::zeros();
        assert!(spring_force((&z, &z), (&z, &z), (1.0, 1.0, 1.0)).is_err());
    }
}
