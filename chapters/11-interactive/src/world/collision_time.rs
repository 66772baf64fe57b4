//! Stage 5: a step that drove a pair deeper than ε is cut back to the time the pair
//! first touched, found on the paper's interpolation of the step.

use super::*;

impl World {
    // ANCHOR: collision_time
    /// Finds when the deepest pair of the step (`pair`) first touched, on the
    /// paper's interpolation of the step ([`Interpolation`]). Regula falsi on the
    /// pair's depth, with a bisection whenever an end is kept twice, stops at a
    /// depth between −ε/2 and ε/2 (up to ε for a pair already deeper than ε/2 at
    /// the start of the step); then every pair is checked and one deeper than ε
    /// (another collision, earlier) restarts the search on the shorter interval.
    /// Leaves the world in the interpolated state and returns s.
    pub(super) fn collision_time(
        &mut self,
        y0: &[f64],
        t0: f64,
        h: f64,
        mut pair: (usize, usize),
    ) -> Result<f64, PbmError> {
        let eps = self.settings.epsilon;
        let path = self.interpolation(y0, t0, h)?;
        let mut bracket = self.bracket(&path, pair);
        for _ in 0..60 {
            let s = bracket.next(eps);
            self.scatter_state(&path.at(s), t0 + s);
            let d = self.depth(pair.0, pair.1);
            if bracket.narrow(s, d, eps) {
                continue;
            }
            // This pair touches; is another already deeper?
            let (deepest, other) = self.deepest()?;
            match other {
                Some(other) if other != pair && deepest > eps => {
                    pair = other;
                    bracket = self.rebracket(&path, pair, bracket.lo, (s, deepest));
                }
                _ => return Ok(s),
            }
        }
        self.settle_apart(&path, &bracket, pair)
    }
    // ANCHOR_END: collision_time

    // ANCHOR: interpolation
    /// The step's interpolation from the world's state, Y₁, and the state `y0` it
    /// started from at `t0`; leaves the world at the start.
    fn interpolation<'a>(
        &mut self,
        y0: &'a [f64],
        t0: f64,
        h: f64,
    ) -> Result<Interpolation<'a>, PbmError> {
        let y1 = state_of(self);
        self.scatter_state(y0, t0);
        let mut k1 = vec![0.0; y0.len()];
        self.derivative(&mut k1)?;
        Ok(Interpolation { t0, h, y0, k1, y1 })
    }
    // ANCHOR_END: interpolation

    // ANCHOR: bracket
    /// The first bracket on `pair`'s depth: the whole step.
    fn bracket(&mut self, path: &Interpolation, pair: (usize, usize)) -> Bracket {
        self.scatter_state(path.y0, path.t0);
        let d_lo = self.depth(pair.0, pair.1);
        self.scatter_state(&path.y1, path.t0 + path.h);
        let d_hi = self.depth(pair.0, pair.1);
        let top = window(d_lo, self.settings.epsilon);
        Bracket { lo: 0.0, hi: path.h, d_lo, d_hi, top, kept: (0, 0) }
    }

    /// The bracket on `pair`'s depth after it was found too deep (`deepest`) at
    /// `s` while another pair's time was sought: from `lo`, still apart, to `s`.
    fn rebracket(
        &mut self,
        path: &Interpolation,
        pair: (usize, usize),
        lo: f64,
        (s, deepest): (f64, f64),
    ) -> Bracket {
        self.scatter_state(&path.at(lo), path.t0 + lo);
        let d_lo = self.depth(pair.0, pair.1);
        self.scatter_state(path.y0, path.t0);
        let top = window(self.depth(pair.0, pair.1), self.settings.epsilon);
        Bracket { lo, hi: s, d_lo, d_hi: deepest, top, kept: (0, 0) }
    }
    // ANCHOR_END: bracket

    // ANCHOR: settle_apart
    /// When the search cannot close in: the last state that was apart, or, if
    /// none was after the start, an error naming the pair.
    fn settle_apart(
        &mut self,
        path: &Interpolation,
        bracket: &Bracket,
        pair: (usize, usize),
    ) -> Result<f64, PbmError> {
        let (lo, d_lo) = (bracket.lo, bracket.d_lo);
        if lo == 0.0 {
            let (a, b) = (self.name(pair.0), self.name(pair.1));
            let why = format!(
                "no time in the step where {a} and {b} touch \
                 (depth {d_lo:.3e} m at its start)"
            );
            return Err(PbmError::degenerate("collision time", why));
        }
        self.scatter_state(&path.at(lo), path.t0 + lo);
        Ok(lo)
    }
    // ANCHOR_END: settle_apart
}

// ANCHOR: interpolation_at
/// The paper's interpolation of a step of length h from Y₀ at t₀ to Y₁:
/// Y(t₀ + s) ≈ Y₀ + s ((1 − s/h) k₁ + (s/h) k₅) with k₁ the derivative at the
/// start and k₅ = (Y₁ − Y₀)/h the step's average.
struct Interpolation<'a> {
    t0: f64,
    h: f64,
    y0: &'a [f64],
    k1: Vec<f64>,
    y1: Vec<f64>,
}

impl Interpolation<'_> {
    /// The interpolated state at t₀ + `s`.
    fn at(&self, s: f64) -> Vec<f64> {
        let h = self.h;
        self.y0
            .iter()
            .zip(&self.k1)
            .zip(&self.y1)
            .map(|((y0, k1), y1)| {
                let k5 = (y1 - y0) / h;
                y0 + s * ((1.0 - s / h) * k1 + (s / h) * k5)
            })
            .collect()
    }
}
// ANCHOR_END: interpolation_at

// ANCHOR: window
/// The top of the depths accepted as touching, [−ε/2, top], for a pair `d_start`
/// deep at the start of the step: ε/2 for a pair that was apart; for a pair
/// already more than ε/2 deep (a resting corner, while another vertex of the pair
/// strikes or the pair sinks), anything up to ε, which the correction at the end
/// of the step then takes back. (Asking for no deeper than at the start shrank
/// the step towards zero when the depth grew from the first instant.)
fn window(d_start: f64, eps: f64) -> f64 {
    if d_start > eps / 2.0 { eps } else { eps / 2.0 }
}

/// A bracket on a pair's depth d(s): d(lo) = `d_lo` below the window, d(hi) =
/// `d_hi` above its `top`, and how many times in a row each end has been kept.
struct Bracket {
    lo: f64,
    hi: f64,
    d_lo: f64,
    d_hi: f64,
    top: f64,
    kept: (u32, u32),
}
// ANCHOR_END: window

// ANCHOR: regula_falsi
impl Bracket {
    /// The next s to try: the false position aiming at the window's middle, kept
    /// a hundredth of the bracket from its ends, or the midpoint when an end has
    /// been kept twice or the depths do not rise across the bracket.
    fn next(&mut self, eps: f64) -> f64 {
        let (lo, hi) = (self.lo, self.hi);
        let target = 0.5 * (self.top - eps / 2.0);
        if self.kept.0 >= 2 || self.kept.1 >= 2 || self.d_lo >= self.d_hi {
            self.kept = (0, 0);
            0.5 * (lo + hi)
        } else {
            let s = lo + (hi - lo) * (target - self.d_lo) / (self.d_hi - self.d_lo);
            s.clamp(lo + 0.01 * (hi - lo), hi - 0.01 * (hi - lo))
        }
    }

    /// Moves an end to `s` if the depth `d` there is outside the window; returns
    /// whether it did (false: the pair touches at `s`).
    fn narrow(&mut self, s: f64, d: f64, eps: f64) -> bool {
        if d > self.top {
            (self.hi, self.d_hi) = (s, d);
            self.kept = (self.kept.0 + 1, 0);
            true
        } else if d < -eps / 2.0 {
            (self.lo, self.d_lo) = (s, d);
            self.kept = (0, self.kept.1 + 1);
            true
        } else {
            false
        }
    }
}
// ANCHOR_END: regula_falsi
