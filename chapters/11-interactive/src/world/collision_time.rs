//! Stage 5: a step that drove a pair deeper than ε is cut back to the time the pair
//! first touched, found on the paper's interpolation of the step.

use super::*;

impl World {
    // ANCHOR: collision_time
    /// Finds when the deepest pair of the step (`pair`) first touched, on the
    /// paper's interpolation of the step: Y(t₀ + s) ≈ Y₀ + s ((1 − s/h) k₁ + (s/h) k₅)
    /// with k₁ the derivative at the start and k₅ = (Y₁ − Y₀)/h the step's average.
    /// Regula falsi on the pair's depth, with a bisection whenever an end is kept
    /// twice, stops at a depth between −ε/2 and ε/2 (up to ε for a pair already
    /// deeper than ε/2 at the start of the step); then every pair is checked and one
    /// deeper than ε (another collision, earlier) restarts the search on the
    /// shorter interval. Leaves the world in the interpolated state and returns s.
    pub(super) fn collision_time(
        &mut self,
        y0: &[f64],
        t0: f64,
        h: f64,
        mut pair: (usize, usize),
    ) -> Result<f64, PbmError> {
        let eps = self.settings.epsilon;
        let y1 = state_of(self);
        self.scatter_state(y0, t0);
        let mut k1 = vec![0.0; y0.len()];
        self.derivative(&mut k1)?;
        let at = |s: f64| -> Vec<f64> {
            y0.iter()
                .zip(&k1)
                .zip(&y1)
                .map(|((y0, k1), y1)| {
                    let k5 = (y1 - y0) / h;
                    y0 + s * ((1.0 - s / h) * k1 + (s / h) * k5)
                })
                .collect()
        };
        let (mut lo, mut hi) = (0.0, h);
        self.scatter_state(y0, t0);
        let mut d_lo = self.depth(pair.0, pair.1);
        self.scatter_state(&y1, t0 + h);
        let mut d_hi = self.depth(pair.0, pair.1);
        // Accept depths in [−ε/2, top]: touching, for a pair that was apart at the
        // start; for a pair already more than ε/2 deep (a resting corner, while
        // another vertex of the pair strikes or the pair sinks), anything up to ε,
        // which the correction at the end of the step then takes back. (Asking for
        // no deeper than at the start shrank the step towards zero when the depth
        // grew from the first instant.)
        let window = |d_start: f64| if d_start > eps / 2.0 { eps } else { eps / 2.0 };
        let mut top = window(d_lo);
        let mut kept = (0, 0);
        for _ in 0..60 {
            let target = 0.5 * (top - eps / 2.0);
            let s = if kept.0 >= 2 || kept.1 >= 2 || d_lo >= d_hi {
                kept = (0, 0);
                0.5 * (lo + hi)
            } else {
                let s = lo + (hi - lo) * (target - d_lo) / (d_hi - d_lo);
                s.clamp(lo + 0.01 * (hi - lo), hi - 0.01 * (hi - lo))
            };
            self.scatter_state(&at(s), t0 + s);
            let d = self.depth(pair.0, pair.1);
            if d > top {
                (hi, d_hi) = (s, d);
                kept = (kept.0 + 1, 0);
                continue;
            }
            if d < -eps / 2.0 {
                (lo, d_lo) = (s, d);
                kept = (0, kept.1 + 1);
                continue;
            }
            // This pair touches; is another already deeper?
            let (deepest, other) = self.deepest()?;
            match other {
                Some(other) if other != pair && deepest > eps => {
                    pair = other;
                    (hi, d_hi) = (s, deepest);
                    self.scatter_state(&at(lo), t0 + lo);
                    d_lo = self.depth(pair.0, pair.1);
                    self.scatter_state(y0, t0);
                    top = window(self.depth(pair.0, pair.1));
                    kept = (0, 0);
                }
                _ => return Ok(s),
            }
        }
        if lo == 0.0 {
            let (a, b) = (self.name(pair.0), self.name(pair.1));
            let why = format!(
                "no time in the step where {a} and {b} touch \
                 (depth {d_lo:.3e} m at its start)"
            );
            return Err(PbmError::degenerate("collision time", why));
        }
        // The search could not close in; settle for the last state that was apart.
        self.scatter_state(&at(lo), t0 + lo);
        Ok(lo)
    }
    // ANCHOR_END: collision_time
}
