//! Revolute pins: a point of one body held on a point of another (or of a fixed
//! body, the world). The pin's error is the gap between the two points,
//! C = (x_b + r_b) − (x_a + r_a), a vector: two rows, solved together as one 2 × 2
//! block. The rows take the same kinds of feedback as the contacts
//! ([`Feedback`]), and a pin never lets go, so its impulse is not clamped. Its arms
//! always turn with the bodies (as Box2D v3's joints do, even in soft step, whose
//! contacts keep theirs): a link of a chain may turn far within a step, and an arm
//! left where it was would pull the pin apart.

use crate::body::{Body, V2, cross, rotation, spin};
use crate::contact::Feedback;
use crate::soft::Softness;
use nalgebra::Matrix2;

/// A pin between bodies `a` and `b`, at points fixed in each.
#[derive(Debug, Clone, PartialEq)]
pub struct Joint {
    /// The first body.
    pub a: usize,
    /// The second body.
    pub b: usize,
    /// The pinned point in each body's own frame (m).
    pub local: [V2; 2],
    /// The impulse of the last step (N s), for warm starting.
    pub impulse: V2,
}

/// A pin as a step solves it: its softness and its accumulated impulse.
#[derive(Debug, Clone, PartialEq)]
pub struct PinRow {
    /// The first body.
    pub a: usize,
    /// The second body.
    pub b: usize,
    /// The pinned point in each body's own frame (m).
    pub local: [V2; 2],
    /// The soft coefficients of its rows for this step.
    pub softness: Softness,
    /// Accumulated impulse (N s).
    pub impulse: V2,
}

/// The arms of `row` at the bodies' current angles.
fn arms(bodies: &[Body], row: &PinRow) -> (V2, V2) {
    (
        rotation(bodies[row.a].angle) * row.local[0],
        rotation(bodies[row.b].angle) * row.local[1],
    )
}

/// The pin's error now: B's point less A's (m).
pub fn error(bodies: &[Body], a: usize, b: usize, local: &[V2; 2]) -> V2 {
    bodies[b].world_point(&local[1]) - bodies[a].world_point(&local[0])
}

/// K = J M⁻¹ Jᵀ of the two rows at arms `ra`, `rb`: how the pinned points' relative
/// velocity answers an impulse.
fn block(a: &Body, b: &Body, (ra, rb): (&V2, &V2)) -> Matrix2<f64> {
    let (ma, mb, ia, ib) = (a.inv_mass, b.inv_mass, a.inv_inertia, b.inv_inertia);
    Matrix2::new(
        ma + mb + ia * ra.y * ra.y + ib * rb.y * rb.y,
        -ia * ra.x * ra.y - ib * rb.x * rb.y,
        -ia * ra.x * ra.y - ib * rb.x * rb.y,
        ma + mb + ia * ra.x * ra.x + ib * rb.x * rb.x,
    )
}

fn push(bodies: &mut [Body], row: &PinRow, (ra, rb): (&V2, &V2), impulse: &V2) {
    bodies[row.a].apply_impulse(ra, &-impulse);
    bodies[row.b].apply_impulse(rb, impulse);
}

/// Applies every pin's accumulated impulse again.
pub fn warm_start(bodies: &mut [Body], rows: &[PinRow]) {
    for row in rows {
        let (ra, rb) = arms(bodies, row);
        push(bodies, row, (&ra, &rb), &row.impulse);
    }
}

// ANCHOR: solve_pins
/// One pass over the pins: each 2 × 2 block solved for the impulse that stops the
/// points' relative velocity, plus the feedback of the error C (Baumgarte's β C / h,
/// or the soft βₛ C with the pin's softness; none in a relax pass).
pub fn solve(
    bodies: &mut [Body],
    rows: &mut [PinRow],
    (h, feedback): (f64, Feedback),
) {
    for row in rows.iter_mut() {
        let (ra, rb) = arms(bodies, row);
        let c = error(bodies, row.a, row.b, &row.local);
        let (bias, soft) = match feedback {
            Feedback::Baumgarte { beta, .. } => (c * (beta / h), Softness::RIGID),
            Feedback::Soft { .. } => (c * row.softness.bias_rate, row.softness),
            Feedback::Relax | Feedback::VelocityOnly => {
                (V2::zeros(), Softness::RIGID)
            }
        };
        let (a, b) = (&bodies[row.a], &bodies[row.b]);
        let velocity = b.velocity + spin(b.angular_velocity, &rb)
            - a.velocity
            - spin(a.angular_velocity, &ra);
        let Some(k_inv) = block(a, b, (&ra, &rb)).try_inverse() else { continue };
        let impulse = -(k_inv * (velocity + bias)) * soft.mass_scale
            - row.impulse * soft.impulse_scale;
        row.impulse += impulse;
        push(bodies, row, (&ra, &rb), &impulse);
    }
}
// ANCHOR_END: solve_pins

/// One position pass over the pins (Box2D v2): each error removed by moving and
/// turning the two bodies directly, through the block at their current poses.
pub fn solve_positions(bodies: &mut [Body], rows: &[PinRow]) {
    for row in rows {
        let (ra, rb) = arms(bodies, row);
        let c = error(bodies, row.a, row.b, &row.local);
        let Some(k_inv) =
            block(&bodies[row.a], &bodies[row.b], (&ra, &rb)).try_inverse()
        else {
            continue;
        };
        let impulse = -(k_inv * c);
        for (i, r, sign) in [(row.a, ra, -1.0), (row.b, rb, 1.0)] {
            let body = &mut bodies[i];
            body.position += impulse * (sign * body.inv_mass);
            body.angle += sign * cross(&r, &impulse) * body.inv_inertia;
        }
    }
}

/// The largest error of `joints` now (m).
pub fn largest_error(bodies: &[Body], joints: &[Joint]) -> f64 {
    joints
        .iter()
        .map(|j| error(bodies, j.a, j.b, &j.local).norm())
        .fold(0.0, f64::max)
}
