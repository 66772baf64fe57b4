//! The damped spring (course notes, "Particle System Dynamics", equation 1) and its
//! Jacobians. The force is chapter 2's; the Jacobians are what chapter 3's implicit
//! steps need, and they live beside the force so that a spring is one object that the
//! explicit and the implicit integrators both use.

use crate::particle::{Force, JacobianSink};
use crate::particle::{Matrix, Particle, Vector, two_ends};
use pbm_prelim::PbmError;
use pbm_prelim::validate::non_negative;

// ANCHOR: spring_force
/// Equation 1 of the notes: the force on particle a of a spring to particle b, with l
/// = x_a − x_b: f_a = −[k_s(|l| − r) + k_d (l̇·l)/|l|] l/|l|. Coincident particles
/// give no direction, which is an error.
pub fn spring_force<const D: usize>(
    (x_a, v_a): (&Vector<D>, &Vector<D>),
    (x_b, v_b): (&Vector<D>, &Vector<D>),
    (k_s, k_d, rest): (f64, f64, f64),
) -> Result<Vector<D>, PbmError> {
    let (l, length) = separation(x_a, x_b)?;
    let l_dot = v_a - v_b;
    let magnitude = k_s * (length - rest) + k_d * l_dot.dot(&l) / length;
    Ok(-(l / length) * magnitude)
}

/// l = x_a − x_b and its length |l|, which the force and its Jacobians divide by:
/// an error where the two ends coincide (or are not finite).
fn separation<const D: usize>(
    x_a: &Vector<D>,
    x_b: &Vector<D>,
) -> Result<(Vector<D>, f64), PbmError> {
    let l = x_a - x_b;
    let length = l.norm();
    if length == 0.0 || !length.is_finite() {
        return Err(PbmError::degenerate(
            "spring",
            "its two ends coincide: no direction",
        ));
    }
    Ok((l, length))
}
// ANCHOR_END: spring_force

/// A damped spring between two particles (equation 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DampedSpring {
    /// The two particles, a and b.
    pub ends: [usize; 2],
    /// Stiffness k_s (N/m).
    pub k_s: f64,
    /// Damping k_d (N s/m).
    pub k_d: f64,
    /// Rest length r (m).
    pub rest: f64,
}

impl DampedSpring {
    /// Validates: two different particles, non-negative finite constants and rest
    /// length.
    pub fn new(
        a: usize,
        b: usize,
        k_s: f64,
        k_d: f64,
        rest: f64,
    ) -> Result<Self, PbmError> {
        Ok(DampedSpring {
            ends: two_ends("spring", a, b)?,
            k_s: non_negative("spring", "k_s", k_s)?,
            k_d: non_negative("spring", "k_d", k_d)?,
            rest: non_negative("spring", "rest length", rest)?,
        })
    }

    /// A spring whose rest length is the current distance between its ends, which
    /// must differ.
    pub fn at_rest<const D: usize>(
        particles: &[Particle<D>],
        a: usize,
        b: usize,
        k_s: f64,
        k_d: f64,
    ) -> Result<Self, PbmError> {
        let (Some(pa), Some(pb)) = (particles.get(a), particles.get(b)) else {
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

    /// The force on particle a (that on b is its negative).
    pub fn force_on_a<const D: usize>(
        &self,
        particles: &[Particle<D>],
    ) -> Result<Vector<D>, PbmError> {
        let (pa, pb) = (&particles[self.ends[0]], &particles[self.ends[1]]);
        spring_force((&pa.x, &pa.v), (&pb.x, &pb.v), (self.k_s, self.k_d, self.rest))
    }
}

impl<const D: usize> Force<D> for DampedSpring {
    fn name(&self) -> &'static str {
        "damped spring"
    }
    fn apply(&self, _t: f64, particles: &mut [Particle<D>]) -> Result<(), PbmError> {
        let f = match self.force_on_a(particles) {
            Ok(f) => f,
            // A zero-rest-length spring's force −k_s l vanishes where its ends meet,
            // so coincidence there is no degeneracy: it exerts nothing until they
            // separate.
            Err(_) if self.rest == 0.0 => return Ok(()),
            Err(e) => return Err(e),
        };
        particles[self.ends[0]].f += f;
        particles[self.ends[1]].f -= f;
        Ok(())
    }
    fn particles(&self) -> &[usize] {
        &self.ends
    }
    fn potential_energy(&self, particles: &[Particle<D>]) -> f64 {
        let stretch = (particles[self.ends[0]].x - particles[self.ends[1]].x).norm()
            - self.rest;
        0.5 * self.k_s * stretch * stretch
    }
    /// Conservative when undamped: the damping force depends on velocity.
    fn is_conservative(&self) -> bool {
        self.k_d == 0.0
    }
    // ANCHOR: spring_add_jacobians
    /// The blocks of [`solver_jacobians`] with the signs of the spring's four
    /// pairs: + on (a, a) and (b, b), − on (a, b) and (b, a).
    fn add_jacobians(
        &self,
        _t: f64,
        particles: &[Particle<D>],
        out: &mut dyn JacobianSink<D>,
    ) -> Result<(), PbmError> {
        let [a, b] = self.ends;
        let (dfdx, dfdv) = solver_jacobians(
            &particles[a].x,
            &particles[b].x,
            (self.k_s, self.k_d, self.rest),
        )?;
        out.add_pair([a, b], &dfdx, &dfdv);
        Ok(())
    }
    // ANCHOR_END: spring_add_jacobians
}

// ANCHOR: spring_jacobians
/// Jacobians of equation 1's force on particle a, with l = x_a − x_b, L = |l|, u =
/// l/L and P = I − u uᵀ (the projection across the spring): ∂f_a/∂x_a = −k_s [u uᵀ +
/// (1 − r/L) P] − k_d [u l̇ᵀ P + (l̇·u) P] / L and ∂f_a/∂v_a = −k_d u uᵀ. The blocks
/// for b are the same with the signs flipped.
pub fn spring_jacobians<const D: usize>(
    (x_a, v_a): (&Vector<D>, &Vector<D>),
    (x_b, v_b): (&Vector<D>, &Vector<D>),
    (k_s, k_d, rest): (f64, f64, f64),
) -> Result<(Matrix<D>, Matrix<D>), PbmError> {
    let SpringFrame { length, u, uut, across } = SpringFrame::of(x_a, x_b)?;
    let l_dot = v_a - v_b;
    let dfdx = -(uut + across * (1.0 - rest / length)) * k_s
        - (u * (l_dot.transpose() * across) + across * l_dot.dot(&u))
            * (k_d / length);
    let dfdv = -uut * k_d;
    Ok((dfdx, dfdv))
}
// ANCHOR_END: spring_jacobians

// ANCHOR: solver_jacobians
/// The parts of [`spring_jacobians`] an implicit step uses, so that its matrix is
/// symmetric positive definite (what conjugate gradients needs), two terms are left
/// out: the non-symmetric damping part of ∂f/∂x (as in Baraff and Witkin's "Large
/// steps in cloth simulation"), and the negative stiffness across a compressed
/// spring, 1 − r/L < 0 clamped to zero (after Choi and Ko, "Stable but responsive
/// cloth").
pub fn solver_jacobians<const D: usize>(
    x_a: &Vector<D>,
    x_b: &Vector<D>,
    (k_s, k_d, rest): (f64, f64, f64),
) -> Result<(Matrix<D>, Matrix<D>), PbmError> {
    let SpringFrame { length, uut, across, .. } = SpringFrame::of(x_a, x_b)?;
    let dfdx = -(uut + across * (1.0 - rest / length).max(0.0)) * k_s;
    Ok((dfdx, -uut * k_d))
}
// ANCHOR_END: solver_jacobians

/// The geometry of a spring from b to a: length L, direction u, and the projections
/// along (u uᵀ) and across (P = I − u uᵀ) it.
struct SpringFrame<const D: usize> {
    length: f64,
    u: Vector<D>,
    uut: Matrix<D>,
    across: Matrix<D>,
}

impl<const D: usize> SpringFrame<D> {
    fn of(x_a: &Vector<D>, x_b: &Vector<D>) -> Result<Self, PbmError> {
        let (l, length) = separation(x_a, x_b)?;
        let u = l / length;
        let uut = u * u.transpose();
        Ok(SpringFrame { length, u, uut, across: Matrix::<D>::identity() - uut })
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
        let z = Vector2::zeros();
        assert!(spring_force((&z, &z), (&z, &z), (1.0, 1.0, 1.0)).is_err());
    }

    #[test]
    fn coincident_ends_fail_unless_the_rest_length_is_zero() {
        let p = |x: f64| {
            Particle::new(1.0, Vector2::new(x, 0.0), Vector2::zeros()).unwrap()
        };
        let mut particles = vec![p(0.0), p(0.0)];
        let stretched = DampedSpring::new(0, 1, 1.0, 0.0, 0.5).unwrap();
        let err = Force::<2>::apply(&stretched, 0.0, &mut particles).unwrap_err();
        assert!(matches!(err, PbmError::Degenerate { .. }), "{err}");
        let zero_rest = DampedSpring::new(0, 1, 1.0, 0.0, 0.0).unwrap();
        assert!(Force::<2>::apply(&zero_rest, 0.0, &mut particles).is_ok());
        assert_eq!(particles[0].f, Vector2::zeros());
    }
}
