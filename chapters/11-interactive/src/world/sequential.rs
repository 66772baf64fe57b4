//! The production engines' step on this world: chapter 8's sequential impulses
//! (its [`solve_sequential`] and the pieces of its box world's step, shared), with
//! planar bodies. One detection per step finds every contact within reach of the
//! step (speculative contacts); then [`SUBSTEPS`] substeps each change the
//! velocities by the loads, solve the rows' impulses by a fixed number of sweeps,
//! and move the positions with the new velocities and the split impulses'
//! pseudo-velocities. Nothing is cut short, corrected after the fact or solved
//! exactly, so the cost of a step is the same whether the pile is falling or
//! settled: linear in its contacts.

use super::*;
use pbm_contact::sequential::{
    BAUMGARTE, PUSH_OUT_SWEEPS, Remembered, SUBSTEPS, Sweeper, Velocity, bounces_now,
    move_gaps, split_impulses, targets, velocities,
};

/// The most a step's speculative margin may reach beyond ε, in units of ε: farther,
/// chapter 7's contact finding would merge corners and extend edges by as much (it
/// reads the same distance as its tolerance), and a body closing faster than this
/// allows is caught by the split impulses instead, a little deep.
pub const MAX_MARGIN: f64 = 5.0;

/// The rows of one step and what each substep needs besides: each row's bounce
/// speed (m/s), gap (m; a normal row's, zero on the others) and anchor (the
/// contact's corner in its body a's frame, which recognises it next step).
#[derive(Default)]
struct Rows {
    rows: Vec<Row>,
    bounce: Vec<f64>,
    gaps: Vec<f64>,
    anchors: Vec<V3>,
}

impl Rows {
    /// Adds a row; returns its index.
    fn push(&mut self, row: Row, (bounce, gap): (f64, f64), anchor: V3) -> usize {
        self.rows.push(row);
        self.bounce.push(bounce);
        self.gaps.push(gap);
        self.anchors.push(anchor);
        self.rows.len() - 1
    }
}

impl World {
    // ANCHOR: step_sequential
    /// One step by sequential impulses with `sweeps` sweeps per substep.
    pub(super) fn step_sequential(&mut self, sweeps: usize) -> Result<f64, PbmError> {
        self.check_second_order()?;
        let (h, eps, mu) =
            (self.settings.h, self.settings.epsilon, self.settings.friction);
        self.apply_loads()?;
        self.margin = (h * self.closing_bound(h)).min(MAX_MARGIN * eps);
        let found = self.detect_within(eps + self.margin)?;
        self.held = found.iter().map(|f| f.held).collect();
        let Rows { mut rows, mut bounce, mut gaps, anchors } =
            self.speculative_rows(&found);
        let mut lambda = self.recall(&rows, &anchors);
        let (sub, t0) = (h / SUBSTEPS as f64, self.t);
        for _ in 0..SUBSTEPS {
            self.apply_loads()?;
            self.kick(sub);
            // Prepared at each substep's positions, the pins' rows at their ends'
            // present places: a pinned bar whipping round turns its pins' arms
            // within a step.
            self.place_pin_rows(&mut rows);
            let sweeper = Sweeper::new(&self.states(), &rows);
            let mut vel = velocities(&self.states());
            let now = bounces_now(&sweeper, &vel, (&mut bounce, &gaps), sub);
            let (mut target, push_out) = targets(&rows, &gaps, &now, (sub, eps));
            self.pin_targets(&rows, &mut target, sub);
            let solve = (lambda.as_mut_slice(), sweeps);
            let done = sweeper.solve(&mut vel, (&target, mu, true), solve);
            let error = sweeper.velocity_error(&vel, &target, (&lambda, mu));
            let push_sweeps = sweeps.min(PUSH_OUT_SWEEPS);
            let pseudo = split_impulses(&sweeper, &push_out, push_sweeps, vel.len());
            self.apply_changes(&sweeper.momentum_changes(&lambda, self.bodies.len()));
            move_gaps(&sweeper, &velocities(&self.states()), &mut gaps, &pseudo, sub);
            self.drift(sub, &pseudo);
            self.note_substep(done.sweeps, error);
        }
        self.t = t0 + h;
        self.remember(&rows, &anchors, &lambda);
        self.note_step(&found)?;
        Ok(h)
    }
    // ANCHOR_END: step_sequential

    /// An error if the world was switched to first order, where forces are
    /// velocities and there are none for impulses to change.
    fn check_second_order(&self) -> Result<(), PbmError> {
        if self.settings.order == Order::First {
            let why = "a first-order world has no velocities for impulses to change";
            return Err(PbmError::invalid("sequential impulses", why));
        }
        Ok(())
    }

    /// Adds a substep's sweeps and the velocity error they left to the statistics.
    fn note_substep(&mut self, sweeps: usize, error: f64) {
        self.stats.sweeps += sweeps;
        self.stats.max_velocity_error = self.stats.max_velocity_error.max(error);
    }

    /// The fastest two bodies' point speeds summed, each with what its loads
    /// (accumulated) add over `h` (m/s): no pair closes faster within the step.
    fn closing_bound(&self, h: f64) -> f64 {
        let mut speeds: Vec<f64> = self
            .bodies
            .iter()
            .zip(&self.reach)
            .map(|(b, r)| {
                let v = b.velocity() + b.force() * (h / b.mass());
                let omega = b.angular_velocity() + b.torque() * h / b.inertia();
                v.norm() + omega.abs() * r
            })
            .collect();
        speeds.sort_by(|a, b| b.total_cmp(a));
        speeds.iter().take(2).sum()
    }

    /// The pins' rows (two each), then each contact's normal row and, with friction,
    /// its tangent row; a normal row closing faster than the resting speed bounces
    /// at e times its closing speed.
    fn speculative_rows(&self, found: &[Found]) -> Rows {
        let states = self.states();
        let s = &self.settings;
        let (mut out, none) = (Rows::default(), (0.0, 0.0));
        for pin in &self.pins {
            let [(a, pa), (b, _)] = self.pin_ends(pin);
            for e in [V2::x(), V2::y()] {
                let role = Role::Bilateral;
                out.push(
                    Row { a, b, p: lift(pa), along: lift(e), role },
                    none,
                    V3::zeros(),
                );
            }
        }
        for f in found {
            let c = self.contact_of(&f.held);
            let closing = relative_velocity(&states, &c);
            // It bounces if it closes fast and touches within the step.
            let touches = f.gap + s.h * closing <= 0.0;
            let bounces = closing < -s.resting_speed && touches;
            let bounce = if bounces { -s.restitution * closing } else { 0.0 };
            let (row, anchor) = (
                Row { a: c.a, b: c.b, p: c.p, along: c.n, role: Role::Normal },
                lift(f.held.point),
            );
            let normal = out.push(row, (bounce, f.gap), anchor);
            if s.friction > 0.0 {
                let t = V3::new(-c.n.y, c.n.x, 0.0);
                let role = Role::Tangent { normal };
                out.push(
                    Row { a: c.a, b: c.b, p: c.p, along: t, role },
                    none,
                    anchor,
                );
            }
        }
        out
    }

    /// Moves each pin's two rows to where its end on body a is now.
    fn place_pin_rows(&self, rows: &mut [Row]) {
        for (k, pin) in self.pins.iter().enumerate() {
            let [(_, pa), _] = self.pin_ends(pin);
            for row in &mut rows[2 * k..2 * k + 2] {
                row.p = lift(pa);
            }
        }
    }

    // ANCHOR: pin_targets
    /// A pin's rows aim at closing β of its error per substep (Baumgarte's
    /// feedback, on the velocities: a pin that has drifted is pulled back).
    fn pin_targets(&self, rows: &[Row], target: &mut [f64], sub: f64) {
        for (k, pin) in self.pins.iter().enumerate() {
            let [(_, pa), (_, pb)] = self.pin_ends(pin);
            let error = pa - pb;
            for (d, row) in rows[2 * k..2 * k + 2].iter().enumerate() {
                debug_assert_eq!(row.role, Role::Bilateral);
                target[2 * k + d] = -BAUMGARTE * error[d] / sub;
            }
        }
    }
    // ANCHOR_END: pin_targets

    /// The loads accumulated on each body, acting for `sub`: ΔP = F sub, ΔL = τ sub.
    fn kick(&mut self, sub: f64) {
        for body in &mut self.bodies {
            let (f, tau) = (body.force(), body.torque());
            body.apply_momentum(&(f * sub), tau * sub);
        }
    }

    /// Each body's change of momenta from the rows' impulses (fixtures and the world
    /// take nothing).
    fn apply_changes(&mut self, change: &[(V3, V3)]) {
        for (body, (dp, dl)) in self.bodies.iter_mut().zip(change) {
            body.apply_momentum(&flat(*dp), dl.z);
        }
    }

    /// Moves every body by its velocity plus its pseudo-velocity for `sub`
    /// (symplectic Euler: the positions use the velocities the substep ends with).
    fn drift(&mut self, sub: f64, pseudo: &[Velocity]) {
        let mut y = [0.0; STATE_SIZE];
        for (body, p) in self.bodies.iter_mut().zip(pseudo) {
            body.write_state(&mut y);
            let v = body.velocity() + flat(p.v);
            y[0] += sub * v.x;
            y[1] += sub * v.y;
            y[2] += sub * (body.angular_velocity() + p.omega.z);
            body.read_state(&y);
        }
    }

    /// Last step's impulses for the contacts found now (zero for a new contact):
    /// the same pair, the same corner of a (its `anchors`, in a's frame).
    fn recall(&self, rows: &[Row], anchors: &[V3]) -> Vec<f64> {
        let mut lambda = vec![0.0; rows.len()];
        let near = 0.01 * self.settings.epsilon;
        for (i, row) in
            rows.iter().enumerate().filter(|(_, r)| r.role == Role::Normal)
        {
            let same = |r: &&Remembered| {
                r.a == row.a && r.b == row.b && (r.anchor - anchors[i]).norm() < near
            };
            if let Some(r) = self.remembered.iter().find(same) {
                lambda[i] = r.impulses[0];
                if let Some(Role::Tangent { .. }) = rows.get(i + 1).map(|r| r.role) {
                    lambda[i + 1] = r.impulses[1];
                }
            }
        }
        lambda
    }

    /// Keeps this step's contact impulses (normal, tangent) for the next step.
    fn remember(&mut self, rows: &[Row], anchors: &[V3], lambda: &[f64]) {
        self.remembered = (0..rows.len())
            .filter(|&i| rows[i].role == Role::Normal)
            .map(|i| {
                let tangent = match rows.get(i + 1).map(|r| r.role) {
                    Some(Role::Tangent { .. }) => lambda[i + 1],
                    _ => 0.0,
                };
                let (a, b) = (rows[i].a, rows[i].b);
                Remembered {
                    a,
                    b,
                    anchor: anchors[i],
                    impulses: [lambda[i], tangent, 0.0],
                }
            })
            .collect();
    }

    /// The step's statistics, and an error if the state has blown up.
    fn note_step(&mut self, found: &[Found]) -> Result<(), PbmError> {
        let deepest = found.iter().map(|f| -f.gap).fold(0.0, f64::max);
        self.stats.max_depth = self.stats.max_depth.max(deepest);
        self.stats.max_pin_error = self.stats.max_pin_error.max(self.max_pin_error());
        self.stats.solves += SUBSTEPS;
        let steps = self.stats.steps;
        if !state_of(self).iter().all(|v| v.is_finite() && v.abs() < 1e6) {
            return Err(PbmError::Diverged { step: steps, time: self.t });
        }
        self.stats.steps += 1;
        Ok(())
    }
}
