//! The step of production engines, on the same world: sequential impulses
//! ([`crate::sequential`]) on velocities in each of [`SUBSTEPS`] substeps, then the
//! positions move with the new velocities. Four things replace the exact loop's
//! stages:
//!
//! - **Speculative contacts** instead of collision times: a pair is a contact if it
//!   is within the distance its bodies can close during the step, and such a
//!   contact may close what gap it has left, but no more (its target velocity is
//!   −gap / h). Nothing tunnels, and no step is cut short.
//! - **Restitution** as a target: a contact closing faster than the bounce speed
//!   must leave at e times its closing speed, from the substep whose travel closes
//!   its gap (a pair still apart is not pushed apart before it meets).
//! - **Split impulses** instead of the tolerance correction: a contact
//!   interpenetrating deeper than the tolerance ε is pushed out by
//!   [`BAUMGARTE`](crate::sequential::BAUMGARTE) of the excess depth per substep,
//!   through a second solve that moves the positions and leaves the velocities
//!   alone.
//! - **The warm start** is last step's impulses, contact by contact and face by
//!   face.

use super::{Found, PARALLEL, V3, World, frames_of};
use crate::friction::{SETTLED, solve_friction};
use crate::impulse::{Contact, relative_velocity};
use crate::resting::Kind;
use crate::rows::{BodyState, Role, Row};
use crate::sequential::{
    PUSH_OUT_SWEEPS, Remembered, RememberedFace, SUBSTEPS, Sweeper, Velocity,
    bounces_now, move_gaps, split_impulses, targets, velocities,
};
use nalgebra::DVector;
use pbm_ode::system::{OdeSystem, state_of};
use pbm_prelim::PbmError;
use pbm_rigid::rotation::{Quat, quat_from_axis_angle, quat_mul};
use std::ops::Neg;
use std::ops::Range;

/// Each row's gap (m): the contact's gap on its normal row, zero on the others.
fn normal_gaps(rows: &[Row], found: &[Found]) -> Vec<f64> {
    let mut contacts = found.iter();
    rows.iter()
        .map(|row| match row.role {
            Role::Normal => contacts.next().map_or(0.0, |f| f.gap),
            _ => 0.0,
        })
        .collect()
}

/// Whether a contact is across two nearly parallel edges ([`PARALLEL`]).
fn parallel_edges(kind: &Kind) -> bool {
    match *kind {
        Kind::EdgeEdge { ea, eb } => {
            ea.cross(&eb).norm() < PARALLEL * ea.norm() * eb.norm()
        }
        _ => false,
    }
}

/// The contacts of one step of sequential impulses, which its substeps share: their
/// rows, prepared once for the sweeps, and each row's bounce speed, gap (m) and
/// accumulated impulse (N s).
struct Step {
    rows: Vec<Row>,
    layout: Layout,
    sweeper: Sweeper,
    bounce: Vec<f64>,
    gaps: Vec<f64>,
    lambda: Vec<f64>,
}

/// Where a step's rows are: each contact's normal row, and each face's first
/// friction row with the pair it joins (its two tangent rows, then its twist row if
/// it has more than one contact).
struct Layout {
    normals: Vec<usize>,
    faces: Vec<(usize, usize, Range<usize>)>,
}

impl World {
    // ANCHOR: step_sequential
    /// One step by sequential impulses: the contacts within reach found once, their
    /// rows and last step's impulses, then [`SUBSTEPS`] substeps of h / k over them.
    pub(super) fn step_sequential(&mut self, sweeps: usize) -> Result<f64, PbmError> {
        let h = self.settings.h;
        let found = self.speculative_contacts(0.0)?;
        let states = self.states();
        let (rows, bounce, layout) = self.speculative_rows(&found, &states);
        let (gaps, lambda) =
            (normal_gaps(&rows, &found), self.recall(&found, &layout, rows.len()));
        let sweeper = Sweeper::new(&states, &rows);
        let mut step = Step { rows, layout, sweeper, bounce, gaps, lambda };
        let (mut swept, mut error) = (0, 0.0_f64);
        for _ in 0..SUBSTEPS {
            let (done, e) = self.substep(&mut step, h / SUBSTEPS as f64, sweeps);
            (swept, error) = (swept + done, error.max(e));
        }
        self.remember(&found, &step.layout, &step.lambda);
        let deepest = found.iter().map(|f| -f.gap).fold(0.0, f64::max);
        self.note_sequential(&step.rows, &step.lambda, (swept, error), deepest)?;
        self.steps += 1;
        Ok(h)
    }
    // ANCHOR_END: step_sequential

    // ANCHOR: step_time_stepping
    /// One step of the time-stepping LCP (Stewart–Trinkle, Anitescu–Potra): the
    /// contacts within reach found once, as for sequential impulses, gravity's
    /// impulse, then one impulse problem on velocities over the whole step, solved
    /// exactly ([`World::impulses_exactly`]), and the positions moved with the new
    /// velocities.
    pub(super) fn step_time_stepping(&mut self) -> Result<f64, PbmError> {
        let h = self.settings.h;
        let found =
            self.speculative_contacts(h * h * self.settings.gravity.norm())?;
        for body in &mut self.system.bodies {
            let (x, j) = (body.position(), self.settings.gravity * (body.mass() * h));
            body.apply_impulse_at(&x, &j);
        }
        let states = self.states();
        let (rows, mut bounce, layout) = self.contact_rows(&found);
        let gaps = normal_gaps(&rows, &found);
        let sweeper = Sweeper::new(&states, &rows);
        let now =
            bounces_now(&sweeper, &velocities(&states), (&mut bounce, &gaps), h);
        let eps = self.settings.tolerance;
        let (target, push_out) = targets(&rows, &gaps, &now, (h, eps));
        let (lambda, pseudo) =
            self.impulses_exactly(&states, (&rows, &sweeper), &target, push_out)?;
        self.apply_row_impulses(&sweeper, &lambda);
        self.drift_positions(h, &pseudo);
        self.remember(&found, &layout, &lambda);
        let deepest = found.iter().map(|f| -f.gap).fold(0.0, f64::max);
        self.note_sequential(&rows, &lambda, (0, 0.0), deepest)?;
        self.steps += 1;
        Ok(h)
    }
    // ANCHOR_END: step_time_stepping

    // ANCHOR: speculative_contacts
    /// The contacts within the distance the bodies can close in a step (speculative
    /// contacts), `extra` metres added, less those across nearly parallel edges
    /// ([`PARALLEL`]).
    fn speculative_contacts(&mut self, extra: f64) -> Result<Vec<Found>, PbmError> {
        let (h, eps) = (self.settings.h, self.settings.tolerance);
        self.reach = eps + h * self.closing_bound() + extra;
        let frames = frames_of(&self.system.bodies, &self.spins);
        let found = self.detect()?.into_iter();
        Ok(found.filter(|f| !parallel_edges(&f.held.resting(&frames).kind)).collect())
    }
    // ANCHOR_END: speculative_contacts

    // ANCHOR: substep
    /// One substep of length `sub`: gravity changes the velocities, `sweeps` sweeps
    /// solve for the impulses (warm-started from the substep before), a second solve
    /// on the normal rows alone ([`PUSH_OUT_SWEEPS`] sweeps at most) finds the
    /// pseudo-velocities that push
    /// interpenetrating bodies apart; the positions move with both, the velocities
    /// keep only the first, and each gap moves by its contact's relative motion.
    /// Returns the sweeps made and the velocity error they left.
    fn substep(&mut self, step: &mut Step, sub: f64, sweeps: usize) -> (usize, f64) {
        for body in &mut self.system.bodies {
            let (x, j) =
                (body.position(), self.settings.gravity * (body.mass() * sub));
            body.apply_impulse_at(&x, &j);
        }
        let eps = self.settings.tolerance;
        let Step { rows, sweeper, lambda, gaps, bounce, .. } = step;
        let mut vel = velocities(&self.states());
        let now = bounces_now(sweeper, &vel, (bounce, gaps), sub);
        let (target, push_out) = targets(rows, gaps, &now, (sub, eps));
        let done =
            sweeper.solve(&mut vel, (&target, self.mu, true), (lambda, sweeps));
        let error = sweeper.velocity_error(&vel, &target, (lambda, self.mu));
        let push_sweeps = sweeps.min(PUSH_OUT_SWEEPS);
        let pseudo = split_impulses(sweeper, &push_out, push_sweeps, vel.len());
        self.apply_row_impulses(sweeper, lambda);
        move_gaps(sweeper, &velocities(&self.states()), gaps, &pseudo, sub);
        self.drift_positions(sub, &pseudo);
        (done.sweeps, error)
    }
    // ANCHOR_END: substep

    /// The fastest two bodies' point speeds summed (m/s): no pair closes faster.
    fn closing_bound(&self) -> f64 {
        let mut speeds: Vec<f64> = (0..self.system.bodies.len())
            .map(|k| {
                let b = &self.system.bodies[k];
                b.velocity().norm() + b.angular_velocity().norm() * self.radius(k)
            })
            .collect();
        speeds.sort_by(|a, b| b.total_cmp(a));
        speeds.iter().take(2).sum()
    }

    /// The rows of the contacts found, face by face (the consecutive contacts of one
    /// pair across one plane): each contact's normal row and, with friction, the
    /// face's friction rows ([`face_rows`]). For each row, the speed it must leave
    /// at if it bounces ([`World::bounce`]; zero for friction rows).
    fn speculative_rows(
        &self,
        found: &[Found],
        states: &[BodyState],
    ) -> (Vec<Row>, Vec<f64>, Layout) {
        let frames = frames_of(&self.system.bodies, &self.spins);
        let contacts: Vec<Contact> =
            found.iter().map(|f| f.held.resting(&frames).contact).collect();
        let (mut rows, mut bounce) = (Vec::new(), Vec::new());
        let mut layout = Layout { normals: Vec::new(), faces: Vec::new() };
        let mut start = 0;
        while start < found.len() {
            let c = &contacts[start];
            let same =
                |d: &Contact| d.a == c.a && d.b == c.b && d.n.dot(&c.n) > 1.0 - 1e-9;
            let end =
                start + contacts[start..].iter().take_while(|d| same(d)).count();
            let first = rows.len();
            for (f, c) in found[start..end].iter().zip(&contacts[start..end]) {
                layout.normals.push(rows.len());
                let role = Role::Normal;
                rows.push(Row { a: c.a, b: c.b, p: c.p, along: c.n, role });
                bounce.push(self.bounce(f, c, states));
            }
            if self.mu > 0.0 {
                let (t1, t2) = found[start].held.tangents;
                let r = frames[c.b].r;
                let friction =
                    face_rows(&contacts[start..end], first, (r * t1, r * t2));
                layout.faces.push((
                    c.a,
                    c.b,
                    rows.len()..rows.len() + friction.len(),
                ));
                bounce.extend(friction.iter().map(|_| 0.0));
                rows.extend(friction);
            }
            start = end;
        }
        (rows, bounce, layout)
    }

    // ANCHOR: impulses_exactly
    /// The time-stepping LCP's two solves: the impulses λ that leave every row at
    /// its `target` or faster (b = J v⁻ − t, friction bounded by μ λ_n), and the
    /// pseudo-velocities of a frictionless solve that push interpenetration out at
    /// the rows' `push_out` speeds, through the positions only.
    fn impulses_exactly(
        &mut self,
        states: &[BodyState],
        (rows, sweeper): (&[Row], &Sweeper),
        target: &[f64],
        push_out: Vec<f64>,
    ) -> Result<(Vec<f64>, Vec<Velocity>), PbmError> {
        let mut lambda = vec![0.0; rows.len()];
        let mut pseudo = vec![Velocity::default(); states.len()];
        if rows.is_empty() {
            return Ok((lambda, pseudo));
        }
        let vel = velocities(states);
        let b = DVector::from_fn(rows.len(), |i, _| {
            sweeper.rows()[i].velocity(&vel) - target[i]
        });
        let solved = solve_friction(states, rows, &b, self.mu, None)?;
        lambda.copy_from_slice(solved.solution.f.as_slice());
        self.stats.pivots += solved.solution.pivots;
        self.stats.unsettled += usize::from(solved.mismatch > SETTLED);
        if push_out.iter().any(|&p| p > 0.0) {
            let out = DVector::from_vec(push_out).neg();
            let out = solve_friction(states, rows, &out, 0.0, None)?.solution;
            for (row, &l) in sweeper.rows().iter().zip(out.f.iter()) {
                row.push(&mut pseudo, l);
            }
        }
        Ok((lambda, pseudo))
    }
    // ANCHOR_END: impulses_exactly

    // ANCHOR: contact_rows
    /// The rows of the time-stepping LCP: each contact's normal row and, with
    /// friction, its two tangent rows, each bounded by μ times that contact's own
    /// normal impulse (the friction pyramid of the exact loop, contact by contact).
    /// For each row, the speed it must leave at if it bounces: zero, since the
    /// problem is inelastic (restitution needs an impact phase of its own, which a
    /// single velocity problem per step does not have).
    fn contact_rows(&self, found: &[Found]) -> (Vec<Row>, Vec<f64>, Layout) {
        let frames = frames_of(&self.system.bodies, &self.spins);
        let (mut rows, mut bounce) = (Vec::new(), Vec::new());
        let mut layout = Layout { normals: Vec::new(), faces: Vec::new() };
        for f in found {
            let c = f.held.resting(&frames).contact;
            let normal = rows.len();
            layout.normals.push(normal);
            rows.push(Row { a: c.a, b: c.b, p: c.p, along: c.n, role: Role::Normal });
            bounce.push(0.0); // inelastic, as Stewart and Trinkle pose it
            if self.mu > 0.0 {
                let (t1, t2) = f.held.tangents;
                for t in [frames[c.b].r * t1, frames[c.b].r * t2] {
                    let role = Role::Tangent { normal };
                    rows.push(Row { a: c.a, b: c.b, p: c.p, along: t, role });
                    bounce.push(0.0);
                }
            }
        }
        (rows, bounce, layout)
    }
    // ANCHOR_END: contact_rows

    /// The speed contact `c` (found as `f`) must leave at if it bounces: −e v⁻ if it
    /// closes faster than the bounce speed and touches within the step (a pair that
    /// would still be apart at its end is not pushed apart before it meets), else
    /// zero.
    fn bounce(&self, f: &Found, c: &Contact, states: &[BodyState]) -> f64 {
        let s = &self.settings;
        let closing = relative_velocity(states, c);
        let touches = f.gap + closing * s.h <= 0.0;
        if closing < -s.bounce_steps * s.gravity.norm() * s.h && touches {
            -s.restitution * closing
        } else {
            0.0
        }
    }

    /// Last step's impulses for the contacts and faces found now (zero for a new
    /// one), one per row: a contact's normal impulse if it sits where a contact of
    /// the same pair sat, a face's friction if its pair had a face.
    fn recall(&self, found: &[Found], layout: &Layout, rows: usize) -> Vec<f64> {
        let near = 100.0 * self.settings.tolerance;
        let mut lambda = vec![0.0; rows];
        for (f, &row) in found.iter().zip(&layout.normals) {
            let (a, b, anchor) = (f.held.a, f.held.b, f.held.anchor());
            let same = |r: &&Remembered| {
                r.a == a && r.b == b && (r.anchor - anchor).norm() < near
            };
            if let Some(r) = self.remembered.iter().find(same) {
                lambda[row] = r.impulses[0];
            }
        }
        for (a, b, friction) in &layout.faces {
            let same = |r: &&RememberedFace| r.a == *a && r.b == *b;
            if let Some(r) = self.remembered_faces.iter().find(same) {
                let n = friction.len();
                lambda[friction.clone()].copy_from_slice(&r.impulses[..n]);
            }
        }
        lambda
    }

    /// Keeps this step's impulses for the next.
    fn remember(&mut self, found: &[Found], layout: &Layout, lambda: &[f64]) {
        self.remembered = found
            .iter()
            .zip(&layout.normals)
            .map(|(f, &row)| Remembered {
                a: f.held.a,
                b: f.held.b,
                anchor: f.held.anchor(),
                impulses: [lambda[row], 0.0, 0.0],
            })
            .collect();
        self.remembered_faces = layout
            .faces
            .iter()
            .map(|(a, b, friction)| {
                let mut impulses = [0.0; 3];
                impulses[..friction.len()].copy_from_slice(&lambda[friction.clone()]);
                RememberedFace { a: *a, b: *b, impulses }
            })
            .collect();
    }

    /// Applies each row's impulse to the bodies, summed per body first
    /// ([`Sweeper::momentum_changes`]; fixtures take nothing).
    fn apply_row_impulses(&mut self, sweeper: &Sweeper, lambda: &[f64]) {
        let change = sweeper.momentum_changes(lambda, self.system.bodies.len());
        for (body, (dp, dl)) in self.system.bodies.iter_mut().zip(&change) {
            body.apply_momentum(dp, dl);
        }
    }

    /// The time one solve's impulses act over (s): a substep of sequential
    /// impulses, the whole step of the time-stepping LCP.
    pub(super) fn impulse_span(&self) -> f64 {
        match self.settings.solver {
            super::Solver::TimeStepping => self.settings.h,
            _ => self.settings.h / SUBSTEPS as f64,
        }
    }

    /// Moves every body with its new velocities for the step plus its
    /// pseudo-velocities from the split solve: x += h (v + v_p), and the orientation
    /// turned by the angle h |ω + ω_p| about ω + ω_p (symplectic Euler: the
    /// positions use the velocities the step ends with).
    fn drift_positions(&mut self, h: f64, pseudo: &[Velocity]) {
        let mut y = state_of(&*self);
        for (k, body) in self.system.bodies.iter().enumerate() {
            let (v, turn) = (
                body.velocity() + pseudo[k].v,
                (body.angular_velocity() + pseudo[k].omega) * h,
            );
            let y = &mut y[k * 13..(k + 1) * 13];
            for d in 0..3 {
                y[d] += h * v[d];
            }
            if turn.norm() > 0.0 {
                let q = Quat::from_column_slice(&y[3..7]);
                let turned = quat_mul(&quat_from_axis_angle(&turn, turn.norm()), &q);
                y[3..7].copy_from_slice(turned.normalize().as_slice());
            }
        }
        let t = self.time() + h;
        self.scatter_state(&y, t);
    }

    /// Adds a solve to the statistics, with the deepest interpenetration the step
    /// started from; an error if it left a non-finite state.
    fn note_sequential(
        &mut self,
        rows: &[Row],
        lambda: &[f64],
        (sweeps, error): (usize, f64),
        deepest: f64,
    ) -> Result<(), PbmError> {
        let stats = &mut self.stats;
        stats.deepest = stats.deepest.max(deepest);
        if !rows.is_empty() {
            stats.solves += 1;
            stats.sweeps += sweeps;
            stats.max_velocity_error = stats.max_velocity_error.max(error);
        }
        let span = self.impulse_span();
        let stats = &mut self.stats;
        for (row, l) in rows.iter().zip(lambda) {
            if row.role == Role::Normal {
                // λ is a substep's impulse: the force is λ over the substep.
                let force = l / span;
                stats.min_normal_force = stats.min_normal_force.min(force);
            }
        }
        if !state_of(&*self).iter().all(|v| v.is_finite()) {
            return Err(PbmError::Diverged { step: self.steps, time: self.time() });
        }
        Ok(())
    }
}

// ANCHOR: face_rows
/// The friction rows of a face whose normal rows start at row `first`, one per
/// contact of `contacts` (one pair, one normal): two along the tangents `t1` and
/// `t2` at the centre of the contacts, each bounded by μ times the face's whole
/// normal impulse, and for more than one contact a twist row, the face's turning
/// about its normal, bounded by μ Σ λₖ rₖ ([`Role::Face`], [`Role::Twist`]).
pub fn face_rows(contacts: &[Contact], first: usize, (t1, t2): (V3, V3)) -> Vec<Row> {
    let Some(c) = contacts.first() else { return Vec::new() };
    let count = contacts.len();
    let centre = contacts.iter().map(|c| c.p).sum::<V3>() / count as f64;
    let row = |along, role| Row { a: c.a, b: c.b, p: centre, along, role };
    let face = Role::Face { first, count };
    let mut rows = vec![row(t1, face), row(t2, face)];
    if count > 1 {
        rows.push(row(c.n, Role::Twist { first, count }));
    }
    rows
}
// ANCHOR_END: face_rows
