//! Stage 5: the step's length. No step may be so long that a body passes through
//! the thickness of another solid within it unseen ([`step_limit`]), and a step that drives some pair
//! deeper than the tolerance is cut back to the collision time.

use super::{CollisionSearch, Found, Shape, World, step_limit, width};
use pbm_collision::toi::quadratic;
use pbm_ode::system::{OdeSystem, state_of};
use pbm_prelim::PbmError;

impl World {
    /// The step: h, or shorter where a body could pass through another solid within
    /// it ([`step_limit`]).
    fn step_size(&self) -> f64 {
        let bodies = &self.system.bodies;
        let speeds: Vec<f64> = (0..bodies.len())
            .map(|k| {
                let b = &bodies[k];
                b.velocity().norm() + b.angular_velocity().norm() * self.radius(k)
            })
            .collect();
        let widths: Vec<f64> = self
            .shapes
            .iter()
            .map(|shape| match shape {
                Shape::Polyhedron(solid) => width(solid),
                Shape::Ball(r) => 2.0 * r,
            })
            .collect();
        let fixed = self
            .fixtures
            .iter()
            .map(|f| width(&f.solid))
            .fold(f64::INFINITY, f64::min);
        step_limit(self.settings.h, &speeds, &widths, fixed)
    }

    // ANCHOR: collision_time
    /// Integrates one step, h or shorter by [`step_limit`], and returns its length.
    /// If it drove a pair deeper than both ε and where the deepest pair of `found`
    /// started (a pair already deeper than ε, which the correction has not yet
    /// pushed out, is no collision a shorter step could catch), the step is cut
    /// back to the collision time: where the deepest pair is between ¼ε and that
    /// limit deep. The time is found on chapter 7's interpolation of the step, and
    /// checked by taking the step that long; only if that fails is the step re-taken
    /// by bisection.
    pub(super) fn integrate_to_collision(
        &mut self,
        found: &[Found],
    ) -> Result<f64, PbmError> {
        let h = self.step_size();
        let start = (state_of(&*self), self.time());
        let limit =
            found.iter().map(|f| -f.gap).fold(self.settings.tolerance, f64::max);
        self.advance(h)?;
        if self.deepest()? <= limit {
            return Ok(h);
        }
        let first = self.stats.rk4_steps;
        let interpolated = match self.settings.search {
            CollisionSearch::Interpolated => {
                self.interpolated_time(&start, h, limit)?
            }
            CollisionSearch::Bisection => None,
        };
        let taken = match interpolated {
            Some(t) => t,
            None => self.bisection(&start, h, limit)?,
        };
        self.stats.shortened += usize::from(taken < h);
        self.stats.retaken += self.stats.rk4_steps - first;
        Ok(taken)
    }
    // ANCHOR_END: collision_time

    // ANCHOR: interpolated_time
    /// The collision time on Baraff's quadratic through the step just taken (chapter
    /// 7, exact for free fall), x(s) = x₀ + s h ((1 − s) ẋ₀ + s k̄): a bisection on s
    /// costs placements, no derivatives. The step is then taken that long; `None`
    /// if the interpolation missed the window (or found no time at all).
    fn interpolated_time(
        &mut self,
        (y0, t0): &(Vec<f64>, f64),
        h: f64,
        limit: f64,
    ) -> Result<Option<f64>, PbmError> {
        let y1 = state_of(&*self);
        self.scatter_state(y0, *t0);
        let mut f0 = vec![0.0; y0.len()];
        self.rate(&mut f0)?;
        let (mut lo, mut hi) = (0.0, 1.0);
        for _ in 0..30 {
            let mid = 0.5 * (lo + hi);
            self.scatter_state(&quadratic(y0, &f0, &y1, h, mid), t0 + mid * h);
            let depth = self.deepest()?;
            if depth > limit {
                hi = mid;
            } else {
                lo = mid;
                if depth >= 0.25 * self.settings.tolerance {
                    break;
                }
            }
        }
        self.scatter_state(y0, *t0);
        if lo == 0.0 {
            return Ok(None);
        }
        self.advance(lo * h)?;
        Ok((self.deepest()? <= limit).then_some(lo * h))
    }
    // ANCHOR_END: interpolated_time

    // ANCHOR: bisection
    /// The collision time by re-taking the step from `start`, shorter and shorter
    /// (the notes' way): each trial a whole RK4 step.
    fn bisection(
        &mut self,
        (y0, t0): &(Vec<f64>, f64),
        h: f64,
        limit: f64,
    ) -> Result<f64, PbmError> {
        let (mut lo, mut hi, mut at_lo) = (0.0, h, false);
        for _ in 0..30 {
            let mid = 0.5 * (lo + hi);
            self.scatter_state(y0, *t0);
            self.advance(mid)?;
            let depth = self.deepest()?;
            at_lo = depth <= limit;
            if !at_lo {
                hi = mid;
            } else {
                lo = mid;
                if depth >= 0.25 * self.settings.tolerance {
                    break;
                }
            }
        }
        // Every shorter step goes as deep: the pair is closing from the start. Take
        // the whole step and let the correction separate it, rather than a sliver
        // of a step that leaves time standing still.
        let taken = if lo > 0.0 { lo } else { h };
        if !at_lo || lo == 0.0 {
            self.scatter_state(y0, *t0);
            self.advance(taken)?;
        }
        Ok(taken)
    }
    // ANCHOR_END: bisection
}
