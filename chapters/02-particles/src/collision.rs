//! Particles against planes (course notes, "Particle System Dynamics", section 7):
//! detect by the sign of (X − P)·N, respond by reversing the normal part of the
//! velocity scaled by the coefficient of restitution, and, for a particle resting on
//! the plane, cancel the part of the applied force that pushes into it.

use crate::particle::Force;
use crate::particle::{Motion, Particle, ParticleSystem, Vector};
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::system::{OdeSystem, state_of};
use pbm_prelim::PbmError;
use pbm_prelim::validate::{all_finite, positive};

/// A plane through `point` whose unit `normal` points to the legal side.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Plane<const D: usize> {
    /// A point on the plane.
    pub point: Vector<D>,
    /// Unit normal, pointing to where particles may be.
    pub normal: Vector<D>,
}

impl<const D: usize> Plane<D> {
    /// A plane with the given normal (normalized here; it must not be zero).
    pub fn new(point: Vector<D>, normal: Vector<D>) -> Result<Self, PbmError> {
        all_finite("plane", "point", point.iter().copied())?;
        let length = positive("plane", "|normal|", normal.norm())?;
        Ok(Plane { point, normal: normal / length })
    }

    // ANCHOR: detect
    /// (X − P)·N: positive on the legal side, zero on the plane, negative through it.
    pub fn signed_distance(&self, x: &Vector<D>) -> f64 {
        (x - self.point).dot(&self.normal)
    }
    // ANCHOR_END: detect
}

// ANCHOR: response
/// The normal part of `v`: (N·v) N.
pub fn normal_part<const D: usize>(n: &Vector<D>, v: &Vector<D>) -> Vector<D> {
    n * n.dot(v)
}

/// The tangential part of `v`: v − (N·v) N.
pub fn tangential_part<const D: usize>(n: &Vector<D>, v: &Vector<D>) -> Vector<D> {
    v - normal_part(n, v)
}

/// Collision response: keep the tangential velocity, reverse the normal one scaled by
/// the coefficient of restitution r (0: no bounce, 1: perfectly elastic).
pub fn bounce<const D: usize>(
    n: &Vector<D>,
    v: &Vector<D>,
    restitution: f64,
) -> Vector<D> {
    tangential_part(n, v) - normal_part(n, v) * restitution
}
// ANCHOR_END: response

// ANCHOR: contact
/// Resting contact: a force pushing into the plane (N·f < 0) is met by the contact
/// force −(N·f) N, which cancels its normal part; a force pulling away is left alone.
/// The linear friction model adds −k_f (−N·f) v_t, a drag along the plane
/// proportional to the push.
pub fn contact_and_friction<const D: usize>(
    n: &Vector<D>,
    f: &Vector<D>,
    v: &Vector<D>,
    k_friction: f64,
) -> Vector<D> {
    let push = n.dot(f);
    if push >= 0.0 {
        return Vector::zeros();
    }
    -n * push - tangential_part(n, v) * (k_friction * -push)
}
// ANCHOR_END: contact

/// Contact forces for particles resting on a plane. Add it after every other force,
/// since it reacts to the total force on each particle.
pub struct PlaneContact<const D: usize> {
    /// The plane.
    pub plane: Plane<D>,
    /// Linear friction coefficient k_f (s/m, ≥ 0): newtons of drag per newton of
    /// push and metre per second of sliding.
    pub k_friction: f64,
    /// A particle within this distance and normal speed counts as in contact.
    pub tolerance: f64,
}

impl<const D: usize> Force<D> for PlaneContact<D> {
    fn name(&self) -> &'static str {
        "plane contact"
    }
    // ANCHOR: contact_conditions
    /// In contact means on the plane and not moving through it, both to within the
    /// tolerance δ: |(X − P)·N| < δ and |N·v| < δ. Only then does the plane push.
    fn apply(&self, _t: f64, particles: &mut [Particle<D>]) -> Result<(), PbmError> {
        let n = self.plane.normal;
        for p in particles.iter_mut().filter(|p| matches!(p.motion, Motion::Free)) {
            let touching = self.plane.signed_distance(&p.x).abs() < self.tolerance
                && n.dot(&p.v).abs() < self.tolerance;
            if touching {
                p.f += contact_and_friction(&n, &p.f, &p.v, self.k_friction);
            }
        }
        Ok(())
    }
    // ANCHOR_END: contact_conditions
}

/// How a step that ends with a particle through a plane is repaired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// Find the instant of contact, roll the whole system back to it, bounce, and go
    /// on.
    Rollback,
    /// Keep the step, move the particle back onto the plane and bounce: simpler, less
    /// exact.
    Displace,
}

/// The free particles through `plane`: the ones a roll-back must bring back to it.
fn through<const D: usize>(
    system: &ParticleSystem<D>,
    plane: &Plane<D>,
) -> Vec<usize> {
    system
        .particles
        .iter()
        .enumerate()
        .filter(|(_, p)| matches!(p.motion, Motion::Free))
        .filter(|(_, p)| plane.signed_distance(&p.x) < 0.0)
        .map(|(i, _)| i)
        .collect()
}

/// Bounces every free particle that is on or through the plane and heading into it.
fn bounce_all<const D: usize>(
    system: &mut ParticleSystem<D>,
    plane: &Plane<D>,
    restitution: f64,
    slack: f64,
) -> usize {
    let mut count = 0;
    for p in system.particles.iter_mut().filter(|p| matches!(p.motion, Motion::Free))
    {
        if plane.signed_distance(&p.x) < slack && plane.normal.dot(&p.v) < 0.0 {
            p.v = bounce(&plane.normal, &p.v, restitution);
            count += 1;
        }
    }
    count
}

// ANCHOR: step_with_collisions
/// One step of size `h` against `plane`, repairing penetrations with `strategy`.
/// Returns the number of bounces.
pub fn step_with_collisions<const D: usize>(
    system: &mut ParticleSystem<D>,
    stepper: &mut RungeKutta,
    plane: &Plane<D>,
    restitution: f64,
    strategy: Strategy,
    h: f64,
) -> Result<usize, PbmError> {
    let mut bounces = 0;
    let mut remaining = h;
    // A ball that has come to rest touches the plane again at once after every
    // roll-back; after a few, the rest of the step is repaired by displacement.
    let mut rollbacks = 0;
    while remaining > 1e-12 * h {
        let start = (state_of(system), system.time());
        stepper.step(system, remaining)?;
        let through = through(system, plane);
        if through.is_empty() {
            break;
        }
        rollbacks += 1;
        let strategy = if rollbacks > 16 { Strategy::Displace } else { strategy };
        match strategy {
            Strategy::Displace => {
                displace_onto(system, plane);
                return Ok(bounces + bounce_all(system, plane, restitution, 1e-12));
            }
            Strategy::Rollback => {
                let s = roll_back_to_contact(
                    system, stepper, plane, &start, remaining, &through,
                )?;
                bounces += bounce_all(system, plane, restitution, 1e-9);
                remaining -= s * remaining;
            }
        }
    }
    Ok(bounces)
}
// ANCHOR_END: step_with_collisions

/// Moves every free particle that is through the plane back onto it.
fn displace_onto<const D: usize>(system: &mut ParticleSystem<D>, plane: &Plane<D>) {
    for p in system.particles.iter_mut().filter(|p| matches!(p.motion, Motion::Free))
    {
        let d = plane.signed_distance(&p.x);
        if d < 0.0 {
            p.x -= plane.normal * d;
        }
    }
}

// ANCHOR: roll_back
/// Finds the fraction s of a step of size `h` from `start` at which the first of the
/// particles `through` the plane at the step's end touched it, and leaves the whole
/// system at that instant. The root is that of g(s) = min over those particles of
/// their distance to the plane: positive before the earliest crossing, negative
/// after it. Each guess of a [`Bracket`] re-integrates from the start of the step.
fn roll_back_to_contact<const D: usize>(
    system: &mut ParticleSystem<D>,
    stepper: &mut RungeKutta,
    plane: &Plane<D>,
    (x0, t0): &(Vec<f64>, f64),
    h: f64,
    through: &[usize],
) -> Result<f64, PbmError> {
    let g = |x: &dyn Fn(usize) -> Vector<D>| {
        through
            .iter()
            .map(|&i| plane.signed_distance(&x(i)))
            .fold(f64::INFINITY, f64::min)
    };
    let mut bracket = Bracket {
        lo: (0.0, g(&|i| system_x(x0, i))),
        hi: (1.0, g(&|i| system.particles[i].x)),
        replaced: 0,
    };
    let mut s = 1.0;
    for _ in 0..12 {
        s = bracket.guess();
        system.scatter_state(x0, *t0);
        stepper.step(system, s * h)?;
        let d = g(&|i| system.particles[i].x);
        if d.abs() < 1e-12 {
            break;
        }
        bracket.replace(s, d);
    }
    Ok(s)
}
// ANCHOR_END: roll_back

// ANCHOR: bracket
/// A bracket [s_lo, s_hi] around a root of g, g(s_lo) > 0 > g(s_hi), narrowed by
/// regula falsi, with the Illinois variant: an end kept twice has its g halved, so
/// that a curved g cannot pin one end and slow the search to a crawl.
struct Bracket {
    /// (s, g(s)) at each end (g of a kept end perhaps halved).
    lo: (f64, f64),
    hi: (f64, f64),
    /// Which end the last guess replaced: 1 the low end, −1 the high end, 0 none.
    replaced: i8,
}

impl Bracket {
    /// Where the chord crosses zero; the middle while g(s_lo) ≤ 0 (a bounce).
    fn guess(&self) -> f64 {
        let ((s_lo, g_lo), (s_hi, g_hi)) = (self.lo, self.hi);
        if g_lo > 0.0 {
            s_lo + (s_hi - s_lo) * g_lo / (g_lo - g_hi)
        } else {
            0.5 * (s_lo + s_hi)
        }
    }

    /// Replaces the end on the side of g(s) = `g` by (s, g), halving the other
    /// end's g if this side was also the one replaced last time.
    fn replace(&mut self, s: f64, g: f64) {
        if g > 0.0 {
            self.lo = (s, g);
            if self.replaced == 1 {
                self.hi.1 *= 0.5;
            }
            self.replaced = 1;
        } else {
            self.hi = (s, g);
            if self.replaced == -1 {
                self.lo.1 *= 0.5;
            }
            self.replaced = -1;
        }
    }
}
// ANCHOR_END: bracket

/// Position of particle `i` in a gathered state vector.
fn system_x<const D: usize>(state: &[f64], i: usize) -> Vector<D> {
    Vector::from_column_slice(&state[2 * D * i..2 * D * i + D])
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Vector3;

    #[test]
    fn errata_normal_component_is_n_dot_x_times_n() {
        // The notes write the normal component as (N·x)x; it is (N·x)N. Only the
        // latter makes x_n parallel to N and x − x_n perpendicular to it.
        let n = Vector3::new(0.0, 1.0, 0.0);
        let x = Vector3::new(3.0, 2.0, -1.0);
        let xn = normal_part(&n, &x);
        assert_eq!(xn, Vector3::new(0.0, 2.0, 0.0));
        assert_eq!(tangential_part(&n, &x).dot(&n), 0.0);
        let as_printed = x * n.dot(&x);
        assert!(
            (x - as_printed).dot(&n).abs() > 1.0,
            "the printed form is not a projection"
        );
    }

    #[test]
    fn errata_contact_force_cancels_the_normal_part_of_f() {
        // The notes write the contact force as −(N·f)f; it is −(N·f)N.
        let n = Vector3::new(0.0, 1.0, 0.0);
        let f = Vector3::new(2.0, -5.0, 1.0);
        let total = f + contact_and_friction(&n, &f, &Vector3::zeros(), 0.0);
        assert_eq!(total, Vector3::new(2.0, 0.0, 1.0));
        let as_printed = f + f * -n.dot(&f);
        assert!(as_printed.dot(&n).abs() > 1.0);
        // A force pulling away from the plane gets no contact force.
        let away = Vector3::new(0.0, 3.0, 0.0);
        assert_eq!(
            contact_and_friction(&n, &away, &Vector3::zeros(), 0.5),
            Vector3::zeros()
        );
    }

    /// Two particles falling without gravity onto y = 0 in one step of 0.05 s: the
    /// first, 0.1 m up at 10 m/s, crosses at 0.01 s and ends 0.4 m under; the second,
    /// 2 m up at 50 m/s, crosses at 0.04 s and ends 0.5 m under, the deeper.
    fn two_crossings() -> (ParticleSystem<2>, Plane<2>) {
        use nalgebra::Vector2;
        let a = Particle::new(1.0, Vector2::new(0.0, 0.1), Vector2::new(0.0, -10.0));
        let b = Particle::new(1.0, Vector2::new(1.0, 2.0), Vector2::new(0.0, -50.0));
        let system = ParticleSystem::new(vec![a.unwrap(), b.unwrap()]);
        let floor = Plane::new(Vector2::zeros(), Vector2::new(0.0, 1.0)).unwrap();
        (system, floor)
    }

    #[test]
    fn roll_back_goes_to_the_earliest_crossing_not_the_deepest() {
        use pbm_ode::tableau::RK4;
        let (mut system, floor) = two_crossings();
        let mut stepper = RungeKutta::new(RK4);
        let bounces = step_with_collisions(
            &mut system,
            &mut stepper,
            &floor,
            1.0,
            Strategy::Rollback,
            0.05,
        )
        .unwrap();
        assert_eq!(bounces, 2);
        // Elastic bounces at 0.01 s and 0.04 s: at 0.05 s the first is 0.4 m up going
        // up at 10 m/s, the second 0.5 m up at 50 m/s. Rolled back to the deeper
        // one's crossing instead, the first would be bounced 0.3 m under the floor
        // and end there, 0.2 m under.
        let (a, b) = (&system.particles[0], &system.particles[1]);
        assert!((a.x.y - 0.4).abs() < 1e-9, "{}", a.x.y);
        assert!((b.x.y - 0.5).abs() < 1e-9, "{}", b.x.y);
        assert!((a.v.y - 10.0).abs() < 1e-9 && (b.v.y - 50.0).abs() < 1e-9);
        assert!((system.t - 0.05).abs() < 1e-15);
    }

    #[test]
    fn the_illinois_search_finds_a_crossing_to_a_picometre() {
        use pbm_ode::tableau::RK4;
        let (mut system, floor) = two_crossings();
        let mut stepper = RungeKutta::new(RK4);
        let start = (state_of(&system), system.t);
        stepper.step(&mut system, 0.05).unwrap();
        let through = through(&system, &floor);
        assert_eq!(through, vec![0, 1]);
        let s = roll_back_to_contact(
            &mut system,
            &mut stepper,
            &floor,
            &start,
            0.05,
            &through,
        )
        .unwrap();
        assert!((s - 0.2).abs() < 1e-10, "{s}");
        assert!(system.particles[0].x.y.abs() < 1e-12);
    }

    #[test]
    fn bounce_scales_the_normal_velocity_by_minus_r() {
        let n = Vector3::new(0.0, 1.0, 0.0);
        let v = Vector3::new(1.0, -4.0, 0.5);
        assert_eq!(bounce(&n, &v, 0.5), Vector3::new(1.0, 2.0, 0.5));
        assert!(Plane::new(Vector3::zeros(), Vector3::zeros()).is_err());
    }
}
