//! Contact with the ground, friction and restitution for PBD particles, in the
//! two passes of Müller et al. (*Detailed Rigid Body Simulation with Extended
//! Position Based Dynamics*, 2020, §3.5–3.6): the position pass pushes a particle
//! out of the ground and undoes its sliding while static friction can hold it; the
//! velocity pass, after the velocities are read off the motion, applies dynamic
//! friction and restitution, which are about velocities and are lost if written as
//! positions.

use pbm_particles::particle::Vector;
use pbm_prelim::PbmError;
use pbm_prelim::validate::{finite, non_negative};

/// A flat ground x·n ≥ height, with its friction and restitution.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ground<const D: usize> {
    /// The unit normal, pointing out of the ground.
    pub normal: Vector<D>,
    /// The ground's surface, as a distance along the normal from the origin (m).
    pub height: f64,
    /// Static friction μ_s: a particle stays put while its sliding is under μ_s
    /// times the push out of the ground.
    pub static_friction: f64,
    /// Dynamic friction μ_d: a sliding particle's tangential velocity falls by
    /// μ_d times its normal velocity change.
    pub dynamic_friction: f64,
    /// Restitution e: a particle that hits the ground at normal speed v leaves at e v.
    pub restitution: f64,
}

impl<const D: usize> Ground<D> {
    /// Checks the coefficients and makes the normal a unit vector.
    pub fn checked(mut self) -> Result<Self, PbmError> {
        let length = self.normal.norm();
        if !(length.is_finite() && length > 0.0) {
            return Err(PbmError::invalid("ground", "its normal has no direction"));
        }
        self.normal /= length;
        finite("ground", "height", self.height)?;
        non_negative("ground", "static friction", self.static_friction)?;
        non_negative("ground", "dynamic friction", self.dynamic_friction)?;
        non_negative("ground", "restitution", self.restitution)?;
        Ok(self)
    }
}

/// What the position pass found at one particle, for the velocity pass.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Touch {
    /// How far the position pass pushed the particle out along the normal (m);
    /// zero for a particle not touching.
    pub push: f64,
    /// The normal velocity the particle had before the step's solve (m/s).
    pub approach: f64,
}

// ANCHOR: position_pass
/// The position pass for one free particle at `x`, which started the step at
/// `previous` and had velocity `v` after the prediction: if it is below the
/// ground, push it up to the surface (C = x·n − height, Δx = −C n), and if the
/// sliding over the step is shorter than μ_s times that push, undo it (static
/// friction).
pub fn project_ground<const D: usize>(
    ground: &Ground<D>,
    x: &mut Vector<D>,
    previous: &Vector<D>,
    v: &Vector<D>,
) -> Touch {
    let n = ground.normal;
    let c = x.dot(&n) - ground.height;
    if c >= 0.0 {
        return Touch::default();
    }
    *x -= n * c;
    let moved = *x - previous;
    let sliding = moved - n * moved.dot(&n);
    if sliding.norm() < ground.static_friction * -c {
        *x -= sliding;
    }
    Touch { push: -c, approach: v.dot(&n) }
}
// ANCHOR_END: position_pass

// ANCHOR: velocity_pass
/// The velocity pass for one particle that touched the ground in the step of size
/// h: dynamic friction takes min(μ_d |Δv_n|, |v_t|) off the sliding speed, Δv_n =
/// push/h being the normal velocity the push gave; restitution sets the normal
/// velocity to e times the approach speed, or to zero for an approach slower than
/// 2|g|h (`resting`), which would otherwise jitter.
pub fn ground_velocity<const D: usize>(
    ground: &Ground<D>,
    v: &mut Vector<D>,
    touch: Touch,
    h: f64,
    resting: f64,
) {
    if touch.push <= 0.0 {
        return;
    }
    let n = ground.normal;
    let v_n = v.dot(&n);
    let sliding = *v - n * v_n;
    let speed = sliding.norm();
    if speed > 0.0 {
        let slowing = (ground.dynamic_friction * touch.push / h).min(speed);
        *v -= sliding * (slowing / speed);
    }
    let e = if -touch.approach <= resting { 0.0 } else { ground.restitution };
    *v += n * (-v_n + (-e * touch.approach).max(0.0));
}
// ANCHOR_END: velocity_pass

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Vector2;

    const GROUND: Ground<2> = Ground {
        normal: Vector2::new(0.0, 1.0),
        height: 0.0,
        static_friction: 0.5,
        dynamic_friction: 0.5,
        restitution: 0.5,
    };

    #[test]
    fn a_particle_below_the_ground_is_pushed_to_its_surface_and_bounces() {
        let mut x = Vector2::new(1.0, -0.01);
        let previous = Vector2::new(0.0, 0.1);
        let v = Vector2::new(0.0, -4.0);
        let touch = project_ground(&GROUND, &mut x, &previous, &v);
        assert_eq!(x, Vector2::new(1.0, 0.0));
        assert_eq!(touch, Touch { push: 0.01, approach: -4.0 });
        let mut after = (x - previous) / 0.01;
        ground_velocity(&GROUND, &mut after, touch, 0.01, 0.0);
        // Leaves at e times the approach speed; the sliding, 100 m/s, loses
        // μ_d push/h = 0.5 m/s.
        assert!(
            (after.y - 2.0).abs() < 1e-12 && (after.x - 99.5).abs() < 1e-12,
            "{after}"
        );
    }

    #[test]
    fn static_friction_undoes_a_short_slide_and_a_slow_approach_does_not_bounce() {
        let mut x = Vector2::new(0.001, -0.01);
        let touch = project_ground(
            &GROUND,
            &mut x,
            &Vector2::zeros(),
            &Vector2::new(0.1, -0.01),
        );
        assert_eq!(x, Vector2::zeros());
        let mut v = Vector2::new(0.0, 1.0);
        ground_velocity(&GROUND, &mut v, touch, 0.01, 0.02);
        assert_eq!(v, Vector2::zeros());
    }
}
