//! Stage 3: the contacts that are not parting are held for the step, and at every
//! derivative evaluation the world solves for the forces that keep them from
//! interpenetrating (and, with friction, from sliding while they can stick).

use super::{Found, Frame, Held, Order, SLOWEST_CLOSING, V3, World, frames_of};
use crate::friction::{
    FrictionSolution, REGULARIZATION, SETTLED, solve_friction_kept,
};
use crate::impulse::{Contact, relative_velocity};
use crate::lcp::solve;
use crate::resting::{Load, b_vector, sliding};
use crate::rows::{BodyState, Role, Row, island_rows, islands};
use nalgebra::DVector;
use pbm_prelim::PbmError;

// ANCHOR: rows
/// The rows of the held contacts and their b entries: a normal row per contact,
/// whose b is the normal acceleration without contact forces plus, if the contact
/// is closing, its closing speed over the step, v_n / h (a contact closing too
/// slowly for an impulse then slows as v̇ = −v/h, to 3/8 of its speed in an RK4
/// step, instead of sinking at that speed for ever); and when μ > 0 two tangent
/// rows, whose b is the rate of change of the sliding
/// velocity s along t without contact forces, t · ṡ + ṫ · s with ṫ = ω_b × t,
/// plus the sliding speed along t over the step, (t · s) / h: a sticking contact
/// then also stops sliding within the step, and one that cannot stick slides with
/// the friction force at its bound, opposing the motion.
fn rows(
    held: &[Held],
    frames: &[Frame],
    (states, loads): (&[BodyState], &[Load]),
    mu: f64,
    h: f64,
) -> (Vec<Row>, DVector<f64>) {
    let (mut rows, mut bias) = (Vec::new(), Vec::new());
    for held in held {
        let rc = held.resting(frames);
        let Contact { a, b, p, n } = rc.contact;
        let normal = rows.len();
        rows.push(Row { a, b, p, along: n, role: Role::Normal });
        let closing = relative_velocity(states, &rc.contact).min(0.0);
        bias.push(b_vector(states, loads, &[rc])[0] + closing / h);
        if mu > 0.0 {
            let (vel, accel) = sliding(states, loads, &rc);
            let (t1, t2) = held.tangents;
            for t in [frames[b].r * t1, frames[b].r * t2] {
                let t_dot = states[b].omega.cross(&t);
                let role = Role::Tangent { normal };
                rows.push(Row { a, b, p, along: t, role });
                bias.push(t.dot(&accel) + t_dot.dot(&vel) + t.dot(&vel) / h);
            }
        }
    }
    (rows, DVector::from_vec(bias))
}
// ANCHOR_END: rows

// ANCHOR: first_order_rows
/// The same rows in a first-order world, where the loads set velocities, v = F/M
/// and ω = I⁻¹ τ. Each row's b is the relative velocity along it that the loads
/// alone would give; the forces f then keep every contact from closing (normal
/// rows: v_n = A f + b ≥ 0, f ≥ 0, complementary) and every sticking contact from
/// sliding.
fn first_order_rows(
    held: &[Held],
    frames: &[Frame],
    (states, loads): (&[BodyState], &[Load]),
    mu: f64,
) -> (Vec<Row>, DVector<f64>) {
    let pushed: Vec<BodyState> = states
        .iter()
        .zip(loads)
        .map(|(s, load)| match s.inv_mass {
            0.0 => *s,
            m => BodyState {
                v: load.force * m,
                omega: s.inv_inertia * load.torque,
                ..*s
            },
        })
        .collect();
    let (rows, _) = rows(held, frames, (&pushed, loads), mu, 1.0);
    let b: Vec<f64> = rows
        .iter()
        .map(|r| {
            let (a, b) = (&pushed[r.a], &pushed[r.b]);
            r.along.dot(&(a.point_velocity(&r.p) - b.point_velocity(&r.p)))
        })
        .collect();
    (rows, DVector::from_vec(b))
}
// ANCHOR_END: first_order_rows

impl World {
    // ANCHOR: hold
    /// Holds the contacts of `found` that are not parting for the step. Those still
    /// closing (slower than the resting speed) faster than [`SLOWEST_CLOSING`] are
    /// first stopped by one inelastic impulse solved for all of them together,
    /// j ≥ 0, v⁺ = A j + v⁻ ≥ 0, complementary; slower ones by the force rows.
    pub(super) fn hold(&mut self, found: &[Found]) -> Result<(), PbmError> {
        let states = self.states();
        let resting: Vec<&Found> = found
            .iter()
            .filter(|f| {
                relative_velocity(&states, &f.contact) <= self.settings.resting_speed
            })
            .collect();
        let contacts: Vec<Contact> = resting.iter().map(|f| f.contact).collect();
        let v = DVector::from_iterator(
            contacts.len(),
            contacts.iter().map(|c| relative_velocity(&states, c)),
        );
        if v.iter().any(|&v| v < -SLOWEST_CLOSING) {
            // Four corners on a face make A singular: the same small diagonal as
            // the force solve picks the smallest of the equal answers.
            let mut a = crate::impulse::contact_matrix(&states, &contacts);
            let delta = REGULARIZATION * a.diagonal().amax();
            for i in 0..contacts.len() {
                a[(i, i)] += delta;
            }
            let j = solve(&a, &v)?.f;
            self.apply_impulses(&contacts, j.as_slice());
        }
        let held: Vec<Held> = resting.iter().map(|f| f.held).collect();
        let pairs = |h: &[Held]| h.iter().map(|h| (h.a, h.b)).collect::<Vec<_>>();
        if pairs(&self.held) != pairs(&held) {
            // A new contact set: last step's answers and factors are no guide to it.
            self.previous.clear();
            self.factors.clear();
            self.forces.clear();
        }
        self.held = held;
        Ok(())
    }
    // ANCHOR_END: hold

    /// Adds the held contacts' forces to the bodies' accumulators, which hold the
    /// other loads (gravity) already: the rows of chapter 8, solved island by island
    /// ([`islands`]) as LCPs with friction bounds, each warm-started from its last
    /// solve and refined through its kept factor.
    pub(super) fn contact_forces(&mut self) -> Result<(), PbmError> {
        if self.held.is_empty() {
            return Ok(());
        }
        let bodies = &self.system.bodies;
        let (states, frames) = (self.states(), frames_of(bodies, &self.spins));
        let mut loads: Vec<Load> = bodies
            .iter()
            .map(|b| Load { force: b.force(), torque: b.torque() })
            .collect();
        loads.resize(states.len(), Load { force: V3::zeros(), torque: V3::zeros() });
        let (held, mu) = (&self.held, self.mu);
        let (rows, bias) = match self.settings.order {
            Order::Second => {
                rows(held, &frames, (&states, &loads), mu, self.settings.h)
            }
            Order::First => first_order_rows(held, &frames, (&states, &loads), mu),
        };
        let islands = islands(self.system.bodies.len(), &rows);
        // The same contacts as the last solve make the same islands, in order.
        let same = self.previous.len() == islands.len();
        let (last, mut kept) =
            (std::mem::take(&mut self.previous), std::mem::take(&mut self.factors));
        let mut forces = vec![0.0; rows.len()];
        let mut all = (true, true);
        for (k, members) in islands.iter().enumerate() {
            let local = island_rows(&rows, members)?;
            let b = DVector::from_iterator(
                members.len(),
                members.iter().map(|&i| bias[i]),
            );
            let previous = last.get(k).filter(|_| same && self.warm_start);
            let factor = kept.get_mut(k).filter(|_| same).and_then(Option::take);
            let (solved, factor) =
                solve_friction_kept(&states, &local, &b, mu, (previous, factor))?;
            self.note_island(&solved);
            all = (all.0 && solved.warm, all.1 && solved.reused);
            for (&i, &f) in members.iter().zip(solved.solution.f.iter()) {
                forces[i] = f;
            }
            // The bodies move before the next solve: this factor is then an old A's.
            self.factors.push(factor.map(|mut f| {
                f.age();
                f
            }));
            self.previous.push(solved.solution);
        }
        let stats = &mut self.stats;
        (stats.solves, stats.islands) =
            (stats.solves + 1, stats.islands + islands.len());
        stats.warm += usize::from(all.0);
        stats.reused += usize::from(all.1);
        self.apply_row_forces(&rows, &forces);
        self.forces = forces;
        Ok(())
    }

    /// Adds one island's solve to the statistics.
    fn note_island(&mut self, solved: &FrictionSolution) {
        let stats = &mut self.stats;
        stats.pivots += solved.solution.pivots;
        stats.unsettled += usize::from(solved.mismatch > SETTLED);
        stats.max_mismatch = stats.max_mismatch.max(solved.mismatch);
    }

    /// Adds each row's force along its direction to body a at its point, and the
    /// opposite to body b (fixtures take nothing).
    fn apply_row_forces(&mut self, rows: &[Row], forces: &[f64]) {
        for (row, &f) in rows.iter().zip(forces) {
            if row.role == Role::Normal {
                self.stats.min_normal_force = self.stats.min_normal_force.min(f);
            }
            for (k, sign) in [(row.a, 1.0), (row.b, -1.0)] {
                if let Some(body) = self.system.bodies.get_mut(k) {
                    body.apply_force_at(&row.p, &(row.along * (f * sign)));
                }
            }
        }
    }
}
