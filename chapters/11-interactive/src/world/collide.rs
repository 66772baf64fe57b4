//! Stage 2: the contacts closing faster than the resting speed collide, and one
//! simultaneous impulse LCP stops them.

use super::*;

impl World {
    // ANCHOR: collide
    /// Stops every closing contact with one simultaneous impulse LCP (chapter 8):
    /// for each contact of the bodies involved, j ≥ 0, v⁺ = A j + b ≥ 0,
    /// complementary, with b = (1 + e) v⁻ where it closes; every pin joins in with
    /// an impulse of any sign that leaves its two ends moving together. Contacts
    /// closing faster than the resting speed bounce with the world's restitution
    /// e; slower ones are stopped dead (e = 0), or they would bounce for ever in
    /// steps of the speed gravity gives back in one step.
    pub(super) fn collide(&mut self, found: &[Found]) -> Result<(), PbmError> {
        let mut states = self.states();
        let Some((mut rows, mut b, impact)) = self.impact_rows(found, &states) else {
            return Ok(());
        };
        // The pins take their share of every impulse, or an impact on one part of
        // a linkage would tear it apart: their ends must move together after it.
        self.pin_rows(&states, &mut rows, &mut b);
        apply_row_impulses(&mut states, &rows, b)?;
        self.write_states(&states);
        self.stats.impacts += usize::from(impact);
        Ok(())
    }
    // ANCHOR_END: collide

    // ANCHOR: impact_rows
    /// The normal rows of the collision and their b, and whether any contact
    /// closes faster than the resting speed; None if no contact in `found` closes.
    /// Every contact of the bodies involved takes part, so that an impulse at one
    /// corner cannot drive another into the ground.
    fn impact_rows(
        &self,
        found: &[Found],
        states: &[BodyState],
    ) -> Option<(Vec<Row>, Vec<f64>, bool)> {
        let all: Vec<Contact> =
            found.iter().map(|f| self.contact_of(&f.held)).collect();
        let speed = |c: &Contact| relative_velocity(states, c);
        let closing: Vec<&Contact> = all.iter().filter(|c| speed(c) < 0.0).collect();
        if closing.is_empty() {
            return None;
        }
        let involved = |k: usize| closing.iter().any(|c| c.a == k || c.b == k);
        let contacts: Vec<Contact> =
            all.iter().copied().filter(|c| involved(c.a) || involved(c.b)).collect();
        let (e, slow) = (self.settings.restitution, self.settings.resting_speed);
        let impact = contacts.iter().any(|c| speed(c) < -slow);
        let rows: Vec<Row> = contacts
            .iter()
            .map(|c| Row { a: c.a, b: c.b, p: c.p, along: c.n, role: Role::Normal })
            .collect();
        let b: Vec<f64> = contacts
            .iter()
            .map(|c| {
                let v = speed(c);
                if v < -slow { (1.0 + e) * v } else { v }
            })
            .collect();
        Some((rows, b, impact))
    }
    // ANCHOR_END: impact_rows

    /// Every pin's two rows (x and y), bilateral, with its ends' relative velocity
    /// as b.
    fn pin_rows(&self, states: &[BodyState], rows: &mut Vec<Row>, b: &mut Vec<f64>) {
        for pin in &self.pins {
            let [(a, pa), (b_end, pb)] = self.pin_ends(pin);
            let c_dot = flat(states[a].point_velocity(&lift(pa)))
                - flat(states[b_end].point_velocity(&lift(pb)));
            for axis in [V2::x(), V2::y()] {
                rows.push(Row {
                    a,
                    b: b_end,
                    p: lift(pa),
                    along: lift(axis),
                    role: Role::Bilateral,
                });
                b.push(axis.dot(&c_dot));
            }
        }
    }

    /// The bodies' momenta from `states`.
    fn write_states(&mut self, states: &[BodyState]) {
        for (body, s) in self.bodies.iter_mut().zip(states) {
            let mut y = [0.0; STATE_SIZE];
            body.write_state(&mut y);
            y[3] = s.v.x * body.mass();
            y[4] = s.v.y * body.mass();
            y[5] = s.omega.z * body.inertia();
            body.read_state(&y);
        }
    }

    // ANCHOR: catch
    /// One impulse that makes every pin's two ends move together: what a pin added
    /// to a moving body needs at once, since the step's pin forces hold only
    /// accelerations. A perfectly inelastic catch: the energy the impulse takes is
    /// gone.
    pub(super) fn catch_pins(&mut self) -> Result<(), PbmError> {
        let mut states = self.states();
        let (mut rows, mut b) = (Vec::new(), Vec::new());
        self.pin_rows(&states, &mut rows, &mut b);
        if rows.is_empty() {
            return Ok(());
        }
        apply_row_impulses(&mut states, &rows, b)?;
        self.write_states(&states);
        Ok(())
    }
    // ANCHOR_END: catch
}

// ANCHOR: row_impulses
/// Solves the bounded LCP v⁺ = A j + b for the impulses j along `rows` (a normal
/// row's j ≥ 0 with v⁺ ≥ 0, complementary; a pin row's j of either sign with
/// v⁺ = 0) and applies them to `states`.
fn apply_row_impulses(
    states: &mut [BodyState],
    rows: &[Row],
    b: Vec<f64>,
) -> Result<(), PbmError> {
    let a = row_matrix(states, rows);
    let j = solve_bounded(&a, &DVector::from_vec(b), &frictionless_bounds(rows))?.f;
    for (r, &j) in rows.iter().zip(j.iter()) {
        states[r.a].apply_impulse(&r.p, &(r.along * j));
        states[r.b].apply_impulse(&r.p, &(r.along * -j));
    }
    Ok(())
}
// ANCHOR_END: row_impulses
