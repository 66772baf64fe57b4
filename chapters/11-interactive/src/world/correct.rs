//! Stage 6: pairs deeper than the warning depth are pushed apart by the least
//! displacement in the kinetic-energy norm.

use super::*;

impl World {
    // ANCHOR: correct
    /// The tolerance correction. If any contact is deeper than ε_w = ¾ ε, every
    /// moving body joined to it through contacts and pins is displaced by the least
    /// displacement in the kinetic-energy norm that brings every pin's error to zero
    /// and leaves no contact among them interpenetrating (to first order). With
    /// chapter 8's matrix A and e the gaps and errors, that is the bounded LCP
    /// a = A f + e: a = 0 on pins (f of any sign), a ≥ 0 on contacts with f ≥ 0
    /// and f a = 0, whose answer moves each body by Δx = f/m along each row and
    /// Δθ = (r × f)/I. Contacts up to 2ε apart take part, so that pushing one body
    /// out of a wall cannot push it into a neighbour just outside the tolerance.
    /// Velocities are kept.
    pub(super) fn correct(&mut self) -> Result<(), PbmError> {
        let eps = self.settings.epsilon;
        let warn = 0.75 * eps;
        let found = self.detect_within(2.0 * eps)?;
        if found.iter().all(|f| f.gap >= -warn) {
            return Ok(());
        }
        let joined = self.joined_to_deep(&found, warn);
        let (rows, error) = self.correction_rows(&found, &joined);
        let f = self.least_displacement(&rows, error)?;
        self.displace(&rows, &f);
        self.stats.corrections += 1;
        Ok(())
    }
    // ANCHOR_END: correct

    // ANCHOR: joined_to_deep
    /// Which moving bodies are joined, through contacts in `found` and pins, to a
    /// contact deeper than `warn`: the deep contacts' bodies, grown along the links
    /// until no link adds one.
    fn joined_to_deep(&self, found: &[Found], warn: f64) -> Vec<bool> {
        let n = self.bodies.len();
        let mut joined = vec![false; n];
        let mut links: Vec<(usize, usize)> =
            found.iter().map(|f| (f.held.a, f.held.b)).collect();
        for pin in &self.pins {
            let [(a, _), (b, _)] = self.pin_ends(pin);
            links.push((a, b));
        }
        for f in found.iter().filter(|f| f.gap < -warn) {
            for k in [f.held.a, f.held.b] {
                if k < n {
                    joined[k] = true;
                }
            }
        }
        loop {
            let mut grew = false;
            for &(a, b) in &links {
                let on = |k: usize| k < n && joined[k];
                if on(a) || on(b) {
                    for k in [a, b] {
                        if k < n && !joined[k] {
                            joined[k] = true;
                            grew = true;
                        }
                    }
                }
            }
            if !grew {
                return joined;
            }
        }
    }
    // ANCHOR_END: joined_to_deep

    // ANCHOR: correction_rows
    /// The rows of the correction and their errors e: a normal row for each
    /// contact in `found` touching a `joined` body, its gap its error, and two
    /// bilateral rows (x and y) for each pin touching one, the pin's error on each.
    fn correction_rows(
        &self,
        found: &[Found],
        joined: &[bool],
    ) -> (Vec<Row>, Vec<f64>) {
        let n = self.bodies.len();
        let touches =
            |a: usize, b: usize| (a < n && joined[a]) || (b < n && joined[b]);
        let (mut rows, mut error) = (Vec::new(), Vec::new());
        for f in found.iter().filter(|f| touches(f.held.a, f.held.b)) {
            let c = self.contact_of(&f.held);
            rows.push(Row { a: c.a, b: c.b, p: c.p, along: c.n, role: Role::Normal });
            error.push(f.gap);
        }
        for pin in &self.pins {
            let [(a, pa), (b, pb)] = self.pin_ends(pin);
            if touches(a, b) {
                for e in [V2::x(), V2::y()] {
                    rows.push(Row {
                        a,
                        b,
                        p: lift(pa),
                        along: lift(e),
                        role: Role::Bilateral,
                    });
                    error.push(e.dot(&(pa - pb)));
                }
            }
        }
        (rows, error)
    }
    // ANCHOR_END: correction_rows

    // ANCHOR: least_displacement
    /// The row strengths f of the least displacement: the bounded LCP
    /// a = A f + e, with A regularised. Redundant rows (a face resting on two
    /// corners and a pin) make A singular; a diagonal of a millionth of its scale
    /// makes it definite and picks, among equal answers, the one with the smallest
    /// f. Where the rows conflict (a block wedged between a pinned pusher and a
    /// wall) it also bounds what they ask: directions A barely moves along are left
    /// nearly alone rather than pushed a metre.
    fn least_displacement(
        &self,
        rows: &[Row],
        error: Vec<f64>,
    ) -> Result<DVector<f64>, PbmError> {
        let mut a: DMatrix<f64> = row_matrix(&self.states(), rows);
        let delta = 1e-6 * a.diagonal().amax();
        for i in 0..rows.len() {
            a[(i, i)] += delta;
        }
        let bounds = frictionless_bounds(rows);
        Ok(solve_bounded(&a, &DVector::from_vec(error), &bounds)
            .map_err(|e| PbmError::degenerate("tolerance correction", e.to_string()))?
            .f)
    }
    // ANCHOR_END: least_displacement

    // ANCHOR: displace
    /// Moves each body by Δx = f/m along each row and turns it by Δθ = (r × f)/I,
    /// its velocities kept.
    fn displace(&mut self, rows: &[Row], f: &DVector<f64>) {
        let mut y = state_of(self);
        for (row, &f) in rows.iter().zip(f.iter()) {
            let push = flat(row.along) * f;
            for (k, sign) in [(row.a, 1.0), (row.b, -1.0)] {
                if let Some(body) = self.bodies.get(k) {
                    let r = flat(row.p) - body.position();
                    let y = &mut y[k * STATE_SIZE..(k + 1) * STATE_SIZE];
                    y[0] += sign * push.x / body.mass();
                    y[1] += sign * push.y / body.mass();
                    y[2] += sign * cross2(&r, &push) / body.inertia();
                }
            }
        }
        let t = self.t;
        self.scatter_state(&y, t);
    }
    // ANCHOR_END: displace
}
