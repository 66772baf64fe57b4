//! The pieces of a step of sequential impulses that do not depend on the world's
//! dimension, shared by chapter 8's box world and chapter 11's planar one: the
//! substeps, each row's target and bounce, the split impulses that push
//! interpenetrating bodies apart, the gaps moved between substeps, and the
//! impulses remembered as the next step's warm start.

use super::prepared::Velocity;
use super::sweeper::Sweeper;
use crate::rows::{Role, Row};
use nalgebra::Vector3;

type V3 = Vector3<f64>;

/// The share of a contact's interpenetration beyond the tolerance that the push
/// out removes per substep (Baumgarte's β). Catto's Box2D uses 0.2: larger moves
/// bodies apart visibly fast; smaller lets a stack sink further before it is
/// pushed back.
pub const BAUMGARTE: f64 = 0.2;

/// Sweeps of the split solve that pushes interpenetrating bodies apart
/// ([`split_impulses`]), at most. It need not be accurate: what it leaves of a
/// depth, the next substep pushes out again. Rapier sweeps once a substep with its
/// push out folded in; two sweeps leave a stack of forty standing as straight as
/// ten did, sunk a little deeper.
pub const PUSH_OUT_SWEEPS: usize = 2;

/// Substeps per step of sequential impulses. Each solves the same contacts with the
/// bodies moved by the substeps before, so that a stack's weight reaches its bottom
/// in a step even though each sweep passes it down only a box or so (Box2D and
/// rapier take four too).
pub const SUBSTEPS: usize = 4;

/// A face's friction impulses of one step (its two tangent rows and its twist; N s
/// and N m s), kept as the next step's warm start, with the pair it joins.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RememberedFace {
    /// The body the normal points towards.
    pub a: usize,
    /// The other body (or fixture).
    pub b: usize,
    /// The impulses.
    pub impulses: [f64; 3],
}

/// A contact's impulses of one step (normal, then the two tangents; N s), kept as
/// the next step's warm start, with what recognises the contact again: the pair
/// and where it sits on body a, in a's frame. Chapter 8's world keeps only the
/// normal here and the friction per face ([`RememberedFace`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Remembered {
    /// The body the normal points towards.
    pub a: usize,
    /// The other body (or fixture).
    pub b: usize,
    /// The contact point in a's frame (m).
    pub anchor: V3,
    /// The impulses (N s).
    pub impulses: [f64; 3],
}

// ANCHOR: bounces_now
/// The bounce speeds that apply in a substep of length `sub`: a row's, taken from
/// `bounce` so that it applies once, if at the velocities `vel` its gap closes
/// within the substep; zero for every other row. A contact that meets later in the
/// step keeps falling until the substep that closes its gap.
pub fn bounces_now(
    sweeper: &Sweeper,
    vel: &[Velocity],
    (bounce, gaps): (&mut [f64], &[f64]),
    sub: f64,
) -> Vec<f64> {
    let rows = sweeper.rows().iter().enumerate();
    rows.map(|(i, row)| {
        let meets = gaps[i] + sub * row.velocity(vel) <= 0.0;
        if bounce[i] > 0.0 && meets { std::mem::take(&mut bounce[i]) } else { 0.0 }
    })
    .collect()
}
// ANCHOR_END: bounces_now

// ANCHOR: targets
/// The rows' target velocities for a substep of length `sub`: a normal row still
/// apart may close its gap within the substep (−gap / sub) but no more, and one
/// that bounces in this substep (`bounce`, from [`bounces_now`]) must leave at its
/// bounce speed; tangent and bilateral rows aim at no relative motion. Also each
/// row's push-out velocity for the split solve: β of a normal row's depth beyond
/// the tolerance `eps`, per substep.
pub fn targets(
    rows: &[Row],
    gaps: &[f64],
    bounce: &[f64],
    (sub, eps): (f64, f64),
) -> (Vec<f64>, Vec<f64>) {
    (0..rows.len())
        .map(|i| match rows[i].role {
            Role::Normal => {
                let close = (-gaps[i] / sub).min(0.0);
                let aim = if bounce[i] > 0.0 { close.max(bounce[i]) } else { close };
                (aim, BAUMGARTE * (-gaps[i] - eps).max(0.0) / sub)
            }
            _ => (0.0, 0.0),
        })
        .unzip()
}
// ANCHOR_END: targets

/// Split impulses (as Bullet has them): the normal rows solved again, from bodies
/// at rest, for the pseudo-velocities that move interpenetrating bodies apart at
/// their push-out targets. They move the positions for this step only; had they
/// gone into the velocities (Baumgarte's way), every push out would leave the
/// bodies moving apart, energy that a stack turns into jitter. Returns the
/// pseudo-velocities of the `bodies` bodies.
pub fn split_impulses(
    sweeper: &Sweeper,
    push_out: &[f64],
    sweeps: usize,
    bodies: usize,
) -> Vec<Velocity> {
    let mut still = vec![Velocity::default(); bodies];
    if push_out.iter().any(|&p| p > 0.0) {
        let mut lambda = vec![0.0; push_out.len()];
        sweeper.solve(&mut still, (push_out, 0.0, false), (&mut lambda, sweeps));
    }
    still
}

/// Moves each normal row's gap by its relative normal motion over a substep, the
/// bodies' velocities `vel` (after the impulses) and pseudo-velocities both.
pub fn move_gaps(
    sweeper: &Sweeper,
    vel: &[Velocity],
    gaps: &mut [f64],
    pseudo: &[Velocity],
    sub: f64,
) {
    for (i, row) in sweeper.rows().iter().enumerate() {
        if sweeper.roles()[i] == Role::Normal {
            gaps[i] += sub * (row.velocity(vel) + row.velocity(pseudo));
        }
    }
}
