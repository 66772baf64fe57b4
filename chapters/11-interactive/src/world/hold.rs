//! Stages 2 and 3: the contacts held for the step, the rows of the pins, held
//! contacts and friction, and the forces that solve them, island by island.

use super::springs::check_mouse;
use super::*;

impl World {
    // ANCHOR: states
    /// Chapter 8's view of every object: moving bodies, fixtures, the world.
    pub(super) fn states(&self) -> Vec<BodyState> {
        let moving = self.bodies.iter().map(|b| BodyState {
            x: lift(b.position()),
            v: lift(b.velocity()),
            omega: V3::new(0.0, 0.0, b.angular_velocity()),
            inv_mass: 1.0 / b.mass(),
            inv_inertia: Matrix3::from_diagonal(&V3::new(
                0.0,
                0.0,
                1.0 / b.inertia(),
            )),
        });
        let fixed = (0..=self.fixtures.len()).map(|_| BodyState::fixed(V3::zeros()));
        moving.chain(fixed).collect()
    }
    // ANCHOR_END: states

    /// The acceleration of the point p of body k under the loads alone (forces and
    /// torques accumulated so far): F/m + α × r − ω² r. Zero for fixed objects.
    pub(super) fn load_acceleration(&self, k: usize, p: &V2) -> V2 {
        let Some(b) = self.bodies.get(k) else { return V2::zeros() };
        let r = p - b.position();
        let w = b.angular_velocity();
        b.force() / b.mass() + spin2(b.torque() / b.inertia(), &r) - r * (w * w)
    }

    /// The velocity of the point p of object k (zero for fixed objects).
    pub(super) fn velocity_at(&self, k: usize, p: &V2) -> V2 {
        self.bodies.get(k).map_or(V2::zeros(), |b| b.point_velocity(p))
    }

    pub(super) fn omega(&self, k: usize) -> f64 {
        self.bodies.get(k).map_or(0.0, |b| b.angular_velocity())
    }

    pub(super) fn pin_ends(&self, pin: &Pin) -> [(usize, V2); 2] {
        let world = self.world_index();
        [pin.a, pin.b].map(|a| match a {
            Anchor::Body { body, .. } => (body, self.anchor_point(&a)),
            Anchor::World(p) => (world, p),
        })
    }

    // ANCHOR: rows
    /// The rows of the pins and held contacts at the current state and their b:
    /// relative accelerations under the loads alone (second order) or relative
    /// velocities (first order, where the loads are velocities).
    pub(super) fn rows(&self) -> (Vec<Row>, Vec<f64>) {
        let (mut rows, mut bias) = (Vec::new(), Vec::new());
        for pin in &self.pins {
            self.pin_force_rows(pin, &mut rows, &mut bias);
        }
        for held in &self.held {
            self.contact_force_rows(held, &mut rows, &mut bias);
        }
        (rows, bias)
    }

    /// The velocity of the point `p` of body `k` as the rows see it: in a
    /// first-order world the loads are the velocities.
    fn row_velocity(&self, k: usize, p: &V2) -> V2 {
        if self.settings.order == Order::First {
            self.bodies.get(k).map_or(V2::zeros(), |b| {
                b.force() / b.mass()
                    + spin2(b.torque() / b.inertia(), &(p - b.position()))
            })
        } else {
            self.velocity_at(k, p)
        }
    }
    // ANCHOR_END: rows

    // ANCHOR: pin_rows
    /// A pin's two rows, along x and y: e·(C̈ + k_d Ċ + k_s C) with C = P_a − P_b.
    fn pin_force_rows(&self, pin: &Pin, rows: &mut Vec<Row>, bias: &mut Vec<f64>) {
        let first = self.settings.order == Order::First;
        let (ks, kd) = self.settings.feedback;
        let [(a, pa), (b, pb)] = self.pin_ends(pin);
        let c = pa - pb;
        let c_dot = self.row_velocity(a, &pa) - self.row_velocity(b, &pb);
        // First order: Ċ + k_d C = 0 (a rate, 1/s). Second: C̈ + k_d Ċ + k_s C = 0.
        let push = if first {
            c_dot + c * kd
        } else {
            self.load_acceleration(a, &pa) - self.load_acceleration(b, &pb)
                + c_dot * kd
                + c * ks
        };
        for e in [V2::x(), V2::y()] {
            let role = Role::Bilateral;
            rows.push(Row { a, b, p: lift(pa), along: lift(e), role });
            bias.push(e.dot(&push));
        }
    }
    // ANCHOR_END: pin_rows

    // ANCHOR: contact_rows
    /// A held contact's normal row, d̈ = n·(p̈_a − p̈_b) + 2 ṅ·(ṗ_a − ṗ_b) with
    /// ṅ = ω_b × n, and with friction its row along t = n⊥:
    /// t·(p̈_a − p̈_b) + ṫ·s + (t·s)/h with s the sliding velocity, so that sticking
    /// also stops sliding within the step.
    fn contact_force_rows(
        &self,
        held: &Held,
        rows: &mut Vec<Row>,
        bias: &mut Vec<f64>,
    ) {
        let first = self.settings.order == Order::First;
        let (fa, fb) = (self.frame(held.a), self.frame(held.b));
        let p = fa.point(&held.point);
        let n = fb.vector(&held.normal);
        let t = V2::new(-n.y, n.x);
        let s = self.row_velocity(held.a, &p) - self.row_velocity(held.b, &p);
        let (a, b) = (held.a, held.b);
        let normal = rows.len();
        rows.push(Row { a, b, p: lift(p), along: lift(n), role: Role::Normal });
        if first {
            bias.push(n.dot(&s));
        } else {
            let acc = self.load_acceleration(a, &p) - self.load_acceleration(b, &p);
            let n_dot = spin2(self.omega(b), &n);
            bias.push(n.dot(&acc) + 2.0 * n_dot.dot(&s));
        }
        if self.settings.friction > 0.0 {
            let role = Role::Tangent { normal };
            rows.push(Row { a, b, p: lift(p), along: lift(t), role });
            if first {
                bias.push(t.dot(&s));
            } else {
                let acc =
                    self.load_acceleration(a, &p) - self.load_acceleration(b, &p);
                let t_dot = spin2(self.omega(b), &t);
                let h = self.settings.h;
                bias.push(t.dot(&acc) + t_dot.dot(&s) + t.dot(&s) / h);
            }
        }
    }
    // ANCHOR_END: contact_rows

    // ANCHOR: loads
    /// The loads: gravity, the torsion springs and the mouse spring.
    pub(super) fn apply_loads(&mut self) -> Result<(), PbmError> {
        let g = self.settings.gravity;
        for body in &mut self.bodies {
            body.clear_accumulators();
            let weight = g * body.mass();
            let x = body.position();
            body.apply_force_at(&x, &weight);
        }
        self.apply_torsion()?;
        if let Some(m) = self.mouse {
            check_mouse(&m, self.bodies.len())?;
            self.apply_mouse(&m)?;
        }
        Ok(())
    }
    // ANCHOR_END: loads

    // ANCHOR: islands
    /// Solves for the constraint forces and adds them to the bodies, one island at a
    /// time: bodies joined by contacts and pins, through moving bodies only (a
    /// fixture or the world joins nothing, since nothing moves it). Forces in one
    /// island cannot change accelerations in another, so the islands' LCPs are
    /// independent, and solving them apart costs the sum of their sizes cubed, not
    /// the cube of their sum.
    pub(super) fn apply_constraint_forces(&mut self) -> Result<(), PbmError> {
        let (rows, bias) = self.rows();
        if rows.is_empty() {
            return Ok(());
        }
        let states = self.states();
        let islands = islands(self.bodies.len(), &rows);
        let last = std::mem::take(&mut self.previous);
        let warm_ok = last.len() == islands.len();
        let mut answers = Vec::with_capacity(islands.len());
        let (mut warm, mut unsettled) = (true, false);
        for (k, members) in islands.iter().enumerate() {
            let local = island_rows(&rows, members)?;
            let b = DVector::from_iterator(
                members.len(),
                members.iter().map(|&i| bias[i]),
            );
            let previous = if warm_ok { last.get(k) } else { None };
            let solved = self.solve_island(&states, &local, &b, previous)?;
            self.stats.rounds += solved.rounds;
            self.stats.pivots += solved.solution.pivots;
            warm &= solved.warm;
            unsettled |= solved.mismatch > SETTLED;
            self.apply_row_forces(&local, &solved.solution.f);
            answers.push(solved.solution);
        }
        self.stats.solves += 1;
        self.stats.islands += islands.len();
        self.stats.warm += usize::from(warm);
        self.stats.unsettled += usize::from(unsettled);
        self.previous = answers;
        Ok(())
    }
    // ANCHOR_END: islands

    // ANCHOR: apply_row_forces
    /// Adds each row's force f along its direction to body a at its point, and
    /// the opposite force to body b.
    fn apply_row_forces(&mut self, rows: &[Row], f: &DVector<f64>) {
        for (row, &f) in rows.iter().zip(f.iter()) {
            let push = flat(row.along) * f;
            let p = flat(row.p);
            for (k, sign) in [(row.a, 1.0), (row.b, -1.0)] {
                if let Some(body) = self.bodies.get_mut(k) {
                    body.apply_force_at(&p, &(push * sign));
                }
            }
        }
    }
    // ANCHOR_END: apply_row_forces

    /// One island's force solve, warm-started from `previous`.
    pub(super) fn solve_island(
        &mut self,
        states: &[BodyState],
        rows: &[Row],
        b: &DVector<f64>,
        previous: Option<&LcpSolution>,
    ) -> Result<FrictionSolution, PbmError> {
        let mu = self.settings.friction;
        match solve_friction(states, rows, b, mu, previous) {
            Ok(solved) => Ok(solved),
            // A simulator that must keep its frame rate cannot stop because the
            // friction rounds did not settle (a slide coming to rest can make them
            // swing): this one evaluation goes without friction, and says so.
            Err(PbmError::Degenerate { why, .. })
                if mu > 0.0 && why.contains("settle") =>
            {
                self.stats.friction_dropped += 1;
                solve_friction(states, rows, b, 0.0, None)
            }
            Err(other) => Err(other),
        }
    }
    /// Keeps the contacts that are not separating faster than the resting speed
    /// for this step's force solves. A different set than last step's makes the
    /// last answer no guess for this one.
    pub(super) fn hold(&mut self, found: &[Found]) {
        let states = self.states();
        let resting_speed = self.settings.resting_speed;
        let held: Vec<Held> = found
            .iter()
            .filter(|f| {
                relative_velocity(&states, &self.contact_of(&f.held)) <= resting_speed
            })
            .map(|f| f.held)
            .collect();
        let same = held.len() == self.held.len()
            && held.iter().zip(&self.held).all(|(x, y)| (x.a, x.b) == (y.a, y.b));
        if !same {
            self.previous.clear();
        }
        self.held = held;
    }

    /// A held contact as chapter 8's contact, at the current state.
    pub(super) fn contact_of(&self, held: &Held) -> Contact {
        let p = self.frame(held.a).point(&held.point);
        let n = self.frame(held.b).vector(&held.normal);
        Contact { a: held.a, b: held.b, p: lift(p), n: lift(n) }
    }
}
