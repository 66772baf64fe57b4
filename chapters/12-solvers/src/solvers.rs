//! The solvers of the bench, each one step of a world's contacts: the same
//! constraints, warm starting and passes ([`crate::contact`]), put together in the
//! orders that games have tried. Every solver gets the same budget of two numbers:
//! `iterations` (velocity passes, or substeps for the substepping solvers) and
//! `relax` (relax or position passes; for the soft substepping solvers, whether
//! each substep ends with one relax pass; XPBD makes one position pass and one
//! velocity pass per substep and reads no `relax`).

use crate::body::{Body, V2};
use crate::contact::{
    Anchors, Constraint, Feedback, ngs_positions, restitution, solve, warm_start,
};
use crate::joint::{self, PinRow};
use crate::world::{
    BAUMGARTE, LINEAR_SLOP, MAX_BIAS_VELOCITY, MAX_CORRECTION, RESTITUTION_THRESHOLD,
    Settings,
};
use pbm_prelim::Choice;

/// The contact solvers of the chapter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SolverKind {
    /// Projected Gauss–Seidel with Baumgarte feedback (box2d-lite).
    Pgs,
    /// PGS on velocities, then non-linear Gauss–Seidel on positions (Box2D v2).
    PgsNgs,
    /// PGS with soft contacts and relax passes.
    SoftPgs,
    /// Substeps, soft contacts, anchors turned with the bodies, a relax pass each.
    TgsSoft,
    /// Substeps, soft contacts, fixed anchors, a relax pass each, restitution once
    /// after (Box2D v3).
    SoftStep,
    /// Substeps that move the bodies, push overlaps apart by changes of pose, read
    /// the velocities off the poses and end with a velocity pass (Müller et al.).
    Xpbd,
}

impl Choice for SolverKind {
    const OPTIONS: &'static [(&'static str, Self)] = &[
        ("pgs", SolverKind::Pgs),
        ("pgs-ngs", SolverKind::PgsNgs),
        ("soft-pgs", SolverKind::SoftPgs),
        ("tgs-soft", SolverKind::TgsSoft),
        ("soft-step", SolverKind::SoftStep),
        ("xpbd", SolverKind::Xpbd),
    ];
}

impl SolverKind {
    /// Every solver, in the order the chapter builds them.
    pub const ALL: [SolverKind; 6] = pbm_prelim::all_choices();

    /// Its `iterations` for a step that costs about what the others' do, from Erin
    /// Catto's count of each solver's loops over the bodies and the constraints in
    /// Solver2D: eight for PGS, six for the other one-step solvers, four for those
    /// that substep.
    pub fn equal_cost_count(self) -> usize {
        match self {
            SolverKind::Pgs => 8,
            SolverKind::PgsNgs | SolverKind::SoftPgs => 6,
            SolverKind::TgsSoft | SolverKind::SoftStep | SolverKind::Xpbd => 4,
        }
    }

    /// Whether it divides the step into `iterations` substeps.
    pub fn substeps(self) -> bool {
        matches!(self, SolverKind::TgsSoft | SolverKind::SoftStep | SolverKind::Xpbd)
    }

    /// The largest soft-contact frequency it allows at step `h`, as a share of 1/h: a
    /// spring much faster than the step cannot be followed.
    pub fn frequency_cap(self) -> f64 {
        if self.substeps() { 0.25 } else { 0.333 }
    }
}

/// Adds gravity to every moving body's velocity over `h`.
pub fn integrate_velocities(bodies: &mut [Body], s: &Settings, h: f64) {
    for b in bodies.iter_mut().filter(|b| !b.is_fixed()) {
        b.velocity += s.gravity * h;
    }
}

/// Moves every body by its velocity over `h`.
pub fn integrate_positions(bodies: &mut [Body], h: f64) {
    for b in bodies.iter_mut().filter(|b| !b.is_fixed()) {
        b.position += b.velocity * h;
        b.angle += b.angular_velocity * h;
    }
}

/// A step's rows: the contacts and the pins.
pub type Rows<'a> = (&'a mut [Constraint], &'a mut [PinRow]);

fn warm(bodies: &mut [Body], (cs, pins): &mut Rows, s: &Settings, which: Anchors) {
    if s.warm_start {
        joint::warm_start(bodies, pins);
        warm_start(bodies, cs, which);
    } else {
        pins.iter_mut().for_each(|p| p.impulse = V2::zeros());
        for p in cs.iter_mut().flat_map(|c| c.points.iter_mut()) {
            (p.normal_impulse, p.tangent_impulse) = (0.0, 0.0);
        }
    }
}

/// One pass over the pins, then the contacts, with one feedback.
fn pass(
    bodies: &mut [Body],
    (cs, pins): &mut Rows,
    (h, feedback): (f64, Feedback),
    (which, current): (Anchors, bool),
) {
    joint::solve(bodies, pins, (h, feedback));
    solve(bodies, cs, (h, feedback), (which, current));
}

// ANCHOR: pgs
/// PGS with Baumgarte: kick, warm start, `iterations` passes that feed back a share
/// β of the overlap as a velocity, drift.
pub fn pgs(bodies: &mut [Body], mut rows: Rows, s: &Settings) {
    let h = s.h;
    integrate_velocities(bodies, s, h);
    warm(bodies, &mut rows, s, Anchors::Fixed);
    let feedback = Feedback::Baumgarte {
        beta: BAUMGARTE,
        slop: LINEAR_SLOP,
        max_speed: MAX_BIAS_VELOCITY,
    };
    for _ in 0..s.iterations {
        pass(bodies, &mut rows, (h, feedback), (Anchors::Fixed, false));
    }
    integrate_positions(bodies, h);
}
// ANCHOR_END: pgs

// ANCHOR: pgs_ngs
/// Box2D v2: velocity passes without feedback, drift, then `relax` passes that move
/// the bodies out of each other directly.
pub fn pgs_ngs(bodies: &mut [Body], mut rows: Rows, s: &Settings) {
    let h = s.h;
    integrate_velocities(bodies, s, h);
    warm(bodies, &mut rows, s, Anchors::Fixed);
    for _ in 0..s.iterations {
        pass(bodies, &mut rows, (h, Feedback::VelocityOnly), (Anchors::Fixed, false));
    }
    integrate_positions(bodies, h);
    for _ in 0..s.relax {
        joint::solve_positions(bodies, rows.1);
        ngs_positions(bodies, rows.0, (BAUMGARTE, LINEAR_SLOP, MAX_CORRECTION));
    }
}
// ANCHOR_END: pgs_ngs

// ANCHOR: soft_pgs
/// Soft PGS: passes with soft contacts, drift, then `relax` rigid passes without
/// feedback, which take back the velocity the feedback added.
pub fn soft_pgs(bodies: &mut [Body], mut rows: Rows, s: &Settings) {
    let h = s.h;
    integrate_velocities(bodies, s, h);
    warm(bodies, &mut rows, s, Anchors::Fixed);
    let soft = Feedback::Soft { max_speed: 0.5 * MAX_BIAS_VELOCITY };
    for _ in 0..s.iterations {
        pass(bodies, &mut rows, (h, soft), (Anchors::Fixed, false));
    }
    integrate_positions(bodies, h);
    for _ in 0..s.relax {
        pass(bodies, &mut rows, (h, Feedback::Relax), (Anchors::Fixed, false));
    }
}
// ANCHOR_END: soft_pgs

// ANCHOR: substepped
/// The substepping solvers: `iterations` substeps of h/n, each a kick, a warm start,
/// one soft pass with the gaps updated from the bodies' motion (no new collision
/// test), a drift and, if `relax` > 0, one relax pass. TGS turns the anchors with the
/// bodies; soft step keeps them fixed and applies restitution once at the end.
pub fn substepped(
    bodies: &mut [Body],
    mut rows: Rows,
    s: &Settings,
    kind: SolverKind,
) {
    let sub = s.h / s.iterations.max(1) as f64;
    let (which, max_speed) = match kind {
        SolverKind::TgsSoft => (Anchors::Current, MAX_BIAS_VELOCITY),
        _ => (Anchors::Fixed, 0.5 * MAX_BIAS_VELOCITY),
    };
    for _ in 0..s.iterations.max(1) {
        integrate_velocities(bodies, s, sub);
        warm(bodies, &mut rows, s, which);
        pass(bodies, &mut rows, (sub, Feedback::Soft { max_speed }), (which, true));
        integrate_positions(bodies, sub);
        if s.relax > 0 {
            pass(bodies, &mut rows, (sub, Feedback::Relax), (which, true));
        }
    }
    if kind == SolverKind::SoftStep {
        restitution(bodies, rows.0, (s.restitution, RESTITUTION_THRESHOLD));
    }
}
// ANCHOR_END: substepped

/// One step of the world's contacts and pins `rows` by `kind`.
pub fn step(bodies: &mut [Body], rows: Rows, s: &Settings, kind: SolverKind) {
    match kind {
        SolverKind::Pgs => pgs(bodies, rows, s),
        SolverKind::PgsNgs => pgs_ngs(bodies, rows, s),
        SolverKind::SoftPgs => soft_pgs(bodies, rows, s),
        SolverKind::TgsSoft | SolverKind::SoftStep => {
            substepped(bodies, rows, s, kind)
        }
        SolverKind::Xpbd => crate::xpbd::xpbd(bodies, rows, s),
    }
}
