//! The contact constraints every solver of the chapter works on: one per touching
//! pair of parts, with a normal, a friction coefficient and one or two points, each
//! holding its anchors, effective masses and accumulated impulses. The pieces here
//! are the solvers' common vocabulary: warm starting, one pass over the points with
//! a choice of position feedback, the relax pass, the restitution pass and the
//! non-linear position pass of Box2D v2.

use crate::body::{Body, V2, cross, rotation};
use crate::soft::Softness;
use nalgebra::Matrix2;

/// Which impulses a point inherits from the last step: the pair of bodies, of parts,
/// and the manifold point's feature id.
pub type Key = (usize, usize, usize, usize, u32);

/// One point of a contact constraint.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    /// From A's centre to the point, in the world, when the step began (m).
    pub anchor_a: V2,
    /// From B's centre to the point, in the world, when the step began (m).
    pub anchor_b: V2,
    /// The same anchors in the bodies' own frames.
    pub local: [V2; 2],
    /// The gap when the step began (m): negative overlapping.
    pub separation: f64,
    /// The gap less the anchors' offset along the normal, so that the gap at any
    /// later pose is this plus (point of B − point of A) · n.
    pub base: f64,
    /// 1/(J M⁻¹ Jᵀ) along the normal (kg).
    pub normal_mass: f64,
    /// The same along the tangent (kg).
    pub tangent_mass: f64,
    /// Accumulated normal impulse (N s), never negative.
    pub normal_impulse: f64,
    /// Accumulated friction impulse (N s), within ±μ times the normal one.
    pub tangent_impulse: f64,
    /// Normal velocity when the step began, for restitution (m/s).
    pub approach: f64,
    /// Which impulses it inherits.
    pub key: Key,
}

/// The constraint of one touching pair of parts.
#[derive(Debug, Clone, PartialEq)]
pub struct Constraint {
    /// The body the normal points away from.
    pub a: usize,
    /// The body the normal points towards.
    pub b: usize,
    /// Unit normal from A towards B.
    pub normal: V2,
    /// √(μ_a μ_b).
    pub friction: f64,
    /// The soft coefficients of its normal rows for this step.
    pub softness: Softness,
    /// Its points.
    pub points: Vec<Point>,
}

impl Constraint {
    /// The tangent: the normal turned a quarter clockwise.
    pub fn tangent(&self) -> V2 {
        V2::new(self.normal.y, -self.normal.x)
    }
}

/// 1/(m_a⁻¹ + m_b⁻¹ + I_a⁻¹ (r_a × u)² + I_b⁻¹ (r_b × u)²): the effective mass of a
/// row along `u` at anchors `ra`, `rb`; zero when neither body can move.
pub fn effective_mass(a: &Body, b: &Body, (ra, rb): (&V2, &V2), u: &V2) -> f64 {
    let k = a.inv_mass
        + b.inv_mass
        + a.inv_inertia * cross(ra, u).powi(2)
        + b.inv_inertia * cross(rb, u).powi(2);
    if k > 0.0 { 1.0 / k } else { 0.0 }
}

/// Where a point's anchors are during a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchors {
    /// Where they were when the step began (PGS, soft PGS, soft step).
    Fixed,
    /// Turned with the bodies (TGS).
    Current,
}

/// What a pass over the points feeds back of the gap.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Feedback {
    /// Baumgarte: a velocity β/h of the overlap beyond `slop`, at most `max_speed`.
    Baumgarte {
        /// β, the share of the overlap removed per step.
        beta: f64,
        /// Overlap left alone (m).
        slop: f64,
        /// The largest push-out speed (m/s).
        max_speed: f64,
    },
    /// The constraint's soft coefficients, the push-out at most `max_speed` (m/s).
    Soft {
        /// The largest push-out speed (m/s).
        max_speed: f64,
    },
    /// None: a rigid solve of the velocities (the relax pass).
    Relax,
    /// None, and speculative points left out (Box2D v2's velocity pass).
    VelocityOnly,
}

/// Every body's rotation at its current angle: what a velocity pass turns the
/// anchors by (the poses do not change during such a pass, so one sine and cosine
/// per body serves every point).
pub fn turns(bodies: &[Body]) -> Vec<Matrix2<f64>> {
    bodies.iter().map(|b| rotation(b.angle)).collect()
}

/// The gap of point `p` at the bodies' current poses (the anchors turned with
/// them, by `turns`), from its base: no new collision test.
pub fn current_separation(
    bodies: &[Body],
    turns: &[Matrix2<f64>],
    c: &Constraint,
    p: &Point,
) -> f64 {
    let (ra, rb) = (turns[c.a] * p.local[0], turns[c.b] * p.local[1]);
    let (pa, pb) = (bodies[c.a].position + ra, bodies[c.b].position + rb);
    (pb - pa).dot(&c.normal) + p.base
}

fn anchors(
    turns: &[Matrix2<f64>],
    c: &Constraint,
    p: &Point,
    which: Anchors,
) -> (V2, V2) {
    match which {
        Anchors::Fixed => (p.anchor_a, p.anchor_b),
        Anchors::Current => (turns[c.a] * p.local[0], turns[c.b] * p.local[1]),
    }
}

fn relative_velocity(bodies: &[Body], c: &Constraint, (ra, rb): (&V2, &V2)) -> V2 {
    bodies[c.b].velocity_at(rb) - bodies[c.a].velocity_at(ra)
}

fn push(bodies: &mut [Body], c: &Constraint, (ra, rb): (&V2, &V2), impulse: &V2) {
    bodies[c.a].apply_impulse(ra, &-impulse);
    bodies[c.b].apply_impulse(rb, impulse);
}

/// Applies every point's accumulated impulses again: the last step's answer as this
/// one's first guess.
pub fn warm_start(bodies: &mut [Body], constraints: &[Constraint], which: Anchors) {
    let turns = turns(bodies);
    for c in constraints {
        for p in &c.points {
            let (ra, rb) = anchors(&turns, c, p, which);
            let impulse =
                c.normal * p.normal_impulse + c.tangent() * p.tangent_impulse;
            push(bodies, c, (&ra, &rb), &impulse);
        }
    }
}

// ANCHOR: bias
/// The velocity a pass adds to a point's normal velocity for a gap `s`, and the
/// softness it solves with; None for a point the pass leaves out. A point still apart
/// (s > 0) lets the bodies close by s in this step, no more: the speculative contact.
pub fn bias(
    feedback: Feedback,
    s: f64,
    h: f64,
    soft: Softness,
) -> Option<(f64, Softness)> {
    let rigid = Softness::RIGID;
    Some(match feedback {
        Feedback::VelocityOnly if s > 0.0 => return None,
        _ if s > 0.0 => (s / h, rigid),
        Feedback::Baumgarte { beta, slop, max_speed } => {
            ((beta / h * (s + slop).min(0.0)).max(-max_speed), rigid)
        }
        Feedback::Soft { max_speed } => ((soft.bias_rate * s).max(-max_speed), soft),
        Feedback::Relax | Feedback::VelocityOnly => (0.0, rigid),
    })
}
// ANCHOR_END: bias

// ANCHOR: accumulate
/// A point's new accumulated normal impulse, from its normal velocity `vn`, the
/// pass's bias and softness, its effective mass and the impulse so far: the soft
/// update Δλ = −m σ_m (v + b) − σ_λ λ₀, the total kept non-negative (a contact never
/// pulls).
pub fn accumulate(
    vn: f64,
    (bias, soft): (f64, Softness),
    (mass, total): (f64, f64),
) -> f64 {
    let delta = -mass * soft.mass_scale * (vn + bias) - soft.impulse_scale * total;
    (total + delta).max(0.0)
}
// ANCHOR_END: accumulate

// ANCHOR: solve
/// One Gauss–Seidel pass over every point: the normal impulse with the position
/// feedback `feedback` (the gap taken at the current poses when `current`), kept
/// non-negative, then friction.
pub fn solve(
    bodies: &mut [Body],
    constraints: &mut [Constraint],
    (h, feedback): (f64, Feedback),
    (which, current): (Anchors, bool),
) {
    let turns = turns(bodies);
    for c in constraints.iter_mut() {
        for k in 0..c.points.len() {
            let p = &c.points[k];
            let s = if current {
                current_separation(bodies, &turns, c, p)
            } else {
                p.separation
            };
            let arms = anchors(&turns, c, p, which);
            let Some((bias, soft)) = bias(feedback, s, h, c.softness) else {
                c.points[k].normal_impulse = 0.0;
                continue;
            };
            let vn = relative_velocity(bodies, c, (&arms.0, &arms.1)).dot(&c.normal);
            let p = &mut c.points[k];
            let total =
                accumulate(vn, (bias, soft), (p.normal_mass, p.normal_impulse));
            let applied = total - p.normal_impulse;
            p.normal_impulse = total;
            push(bodies, c, (&arms.0, &arms.1), &(c.normal * applied));
            friction(bodies, c, k, arms);
        }
    }
}
// ANCHOR_END: solve

// ANCHOR: friction
/// Friction at point `k`: no feedback and no softness, the accumulated impulse kept
/// within ±μ times the point's normal impulse.
fn friction(bodies: &mut [Body], c: &mut Constraint, k: usize, (ra, rb): (V2, V2)) {
    let t = c.tangent();
    let p = &c.points[k];
    let vt = relative_velocity(bodies, c, (&ra, &rb)).dot(&t);
    let bound = c.friction * p.normal_impulse;
    let total = (p.tangent_impulse - p.tangent_mass * vt).clamp(-bound, bound);
    let applied = total - p.tangent_impulse;
    c.points[k].tangent_impulse = total;
    push(bodies, c, (&ra, &rb), &(t * applied));
}
// ANCHOR_END: friction

/// Restitution, once after the step: a point that was approaching faster than
/// `threshold` (m/s) and pushed gets the normal velocity −e times its approach.
pub fn restitution(
    bodies: &mut [Body],
    constraints: &mut [Constraint],
    (e, threshold): (f64, f64),
) {
    if e == 0.0 {
        return;
    }
    for c in constraints.iter_mut() {
        for k in 0..c.points.len() {
            let p = &c.points[k];
            if p.approach > -threshold || p.normal_impulse == 0.0 {
                continue;
            }
            let (ra, rb) = (p.anchor_a, p.anchor_b);
            let vn = relative_velocity(bodies, c, (&ra, &rb)).dot(&c.normal);
            let p = &mut c.points[k];
            let total =
                (p.normal_impulse - p.normal_mass * (vn + e * p.approach)).max(0.0);
            let applied = total - p.normal_impulse;
            p.normal_impulse = total;
            push(bodies, c, (&ra, &rb), &(c.normal * applied));
        }
    }
}

// ANCHOR: ngs
/// One non-linear Gauss–Seidel pass of positions (Box2D v2): each point's overlap
/// beyond the slop, a share β of it and at most `max_correction`, removed by moving
/// and turning the bodies directly, with the effective mass at their current poses.
/// Velocities are not touched, so no energy is added as motion.
pub fn ngs_positions(
    bodies: &mut [Body],
    constraints: &[Constraint],
    (beta, slop, max_correction): (f64, f64, f64),
) {
    for c in constraints {
        for p in &c.points {
            // Each correction turns two bodies: the rotations are taken afresh.
            let turns = [rotation(bodies[c.a].angle), rotation(bodies[c.b].angle)];
            let (ra, rb) = (turns[0] * p.local[0], turns[1] * p.local[1]);
            let (pa, pb) = (bodies[c.a].position + ra, bodies[c.b].position + rb);
            let s = (pb - pa).dot(&c.normal) + p.base;
            let correction = (beta * (s + slop)).clamp(-max_correction, 0.0);
            let mass =
                effective_mass(&bodies[c.a], &bodies[c.b], (&ra, &rb), &c.normal);
            let impulse = c.normal * (-correction * mass);
            for (body, r, sign) in [(c.a, ra, -1.0), (c.b, rb, 1.0)] {
                let body = &mut bodies[body];
                body.position += impulse * (sign * body.inv_mass);
                body.angle += sign * cross(&r, &impulse) * body.inv_inertia;
            }
        }
    }
}
// ANCHOR_END: ngs
