//! The springs: torsion springs between bodies, and the mouse, a damped spring from
//! a point of a body to where the mouse is. Both are loads, applied at every
//! derivative evaluation with gravity.

use super::*;

impl World {
    /// Adds a torsion spring. A body that does not exist, a spring from a body to
    /// itself, or a rest angle, stiffness or damping that is not finite (or is
    /// negative) is an error.
    pub fn add_spring(&mut self, spring: Torsion) -> Result<usize, PbmError> {
        let n = self.bodies.len();
        let why = if spring.a >= n || spring.b.is_some_and(|b| b >= n) {
            format!(
                "it joins bodies {} and {:?}, and there are {n}",
                spring.a, spring.b
            )
        } else if spring.b == Some(spring.a) {
            format!("both ends are on body {}", spring.a)
        } else if !spring.rest.is_finite() {
            format!("its rest angle is {}", spring.rest)
        } else if !(spring.stiffness.is_finite() && spring.stiffness >= 0.0) {
            format!("its stiffness is {}", spring.stiffness)
        } else if !(spring.damping.is_finite() && spring.damping >= 0.0) {
            format!("its damping is {}", spring.damping)
        } else {
            self.springs.push(spring);
            return Ok(self.springs.len() - 1);
        };
        Err(PbmError::invalid("torsion spring", why))
    }

    // ANCHOR: twist
    /// A spring's twist from rest (rad), the rate of twist (rad/s), and the reduced
    /// inertia it acts on (kg m²).
    pub(super) fn twist(&self, s: &Torsion) -> (f64, f64, f64) {
        let a = &self.bodies[s.a];
        let (angle, spin, inverse) = match s.b {
            Some(b) => {
                let b = &self.bodies[b];
                (b.angle(), b.angular_velocity(), 1.0 / b.inertia())
            }
            None => (0.0, 0.0, 0.0),
        };
        (
            a.angle() - angle - s.rest,
            a.angular_velocity() - spin,
            1.0 / (1.0 / a.inertia() + inverse),
        )
    }
    // ANCHOR_END: twist

    // ANCHOR: torsion
    /// The torsion springs' torques, equal and opposite on their two bodies.
    pub(super) fn apply_torsion(&mut self) -> Result<(), PbmError> {
        let first = self.settings.order == Order::First;
        for k in 0..self.springs.len() {
            let s = self.springs[k];
            let (twist, rate, inertia) = self.twist(&s);
            let torque = -inertia
                * if first {
                    // As the mouse: the massless limit turns at the rate k/c.
                    if s.damping <= 0.0 {
                        let why = "its damping is 0; a first-order world turns it \
                                   at the rate stiffness/damping";
                        return Err(PbmError::invalid("torsion spring", why));
                    }
                    s.stiffness / s.damping * twist
                } else {
                    s.stiffness * twist + s.damping * rate
                };
            self.bodies[s.a].apply_torque(torque);
            if let Some(b) = s.b {
                self.bodies[b].apply_torque(-torque);
            }
        }
        Ok(())
    }
    // ANCHOR_END: torsion

    // ANCHOR: mouse
    /// The mouse spring on the grabbed point. The spring is scaled by the least
    /// mass the grabbed point can have, that of the free body pushed at p:
    /// constraints only add to it, so k/m and c/m bound the spring's rates wherever
    /// the body is grabbed and however it is held, and RK4 stays stable at the step.
    pub(super) fn apply_mouse(&mut self, m: &Mouse) -> Result<(), PbmError> {
        let first = self.settings.order == Order::First;
        let body = &mut self.bodies[m.body];
        let p = body.world_point(&m.local);
        let r = p - body.position();
        let mass = 1.0 / (1.0 / body.mass() + r.norm_squared() / body.inertia());
        let f = if first {
            // The spring with no mass to carry, m ẍ + c ẋ + k x = 0 as m → 0:
            // ẋ = (k/c)(target − x), a rate of k/c. (k itself as a rate would
            // be 4000/s, and RK4 at 10 ms blows up at 280/s.)
            if m.damping.is_nan() || m.damping <= 0.0 {
                let why = format!(
                    "its damping is {}; a first-order world moves the point at \
                     the rate stiffness/damping",
                    m.damping
                );
                return Err(PbmError::invalid("mouse", why));
            }
            (m.target - p) * (m.stiffness / m.damping * mass)
        } else {
            (m.target - p) * (m.stiffness * mass)
                - body.point_velocity(&p) * (m.damping * mass)
        };
        body.apply_force_at(&p, &f);
        Ok(())
    }
    // ANCHOR_END: mouse
}

/// A mouse the world can pull with: on a body that exists, at finite points, with a
/// finite, non-negative stiffness and damping. (A mouse driven by a pointer that left
/// the window, or by a script that divided by zero, says so here, not as a blow-up.)
pub(super) fn check_mouse(m: &Mouse, bodies: usize) -> Result<(), PbmError> {
    let why = if m.body >= bodies {
        format!("it holds body {}, and there are {bodies}", m.body)
    } else if !(m.target.iter().all(|v| v.is_finite())) {
        format!("it is at a point that is not finite, {:?}", m.target.as_slice())
    } else if !(m.local.iter().all(|v| v.is_finite())) {
        format!("it holds a point that is not finite, {:?}", m.local.as_slice())
    } else if !(m.stiffness.is_finite() && m.stiffness >= 0.0) {
        format!("its stiffness is {}", m.stiffness)
    } else if !(m.damping.is_finite() && m.damping >= 0.0) {
        format!("its damping is {}", m.damping)
    } else {
        return Ok(());
    };
    Err(PbmError::invalid("mouse", why))
}
