//! Tunnelling: a thin, fast body that is clear of a wall at the end of one step and
//! clear on its far side at the end of the next, so a test made only at the ends of
//! steps never sees the collision. Two cures: test more often (sub-steps), or bound
//! the whole motion over the step and advance only as far as is provably safe
//! (conservative advancement).

use crate::polygon::{ConvexPolygon, separation};
use nalgebra::Vector2;
use pbm_prelim::PbmError;
use pbm_prelim::validate::positive;

/// A thin plate flying at a wall, spinning as it goes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shot {
    /// Speed towards the wall (m/s).
    pub speed: f64,
    /// Spin (rad/s).
    pub spin: f64,
    /// The plate's thickness (m); it is 0.6 m tall.
    pub plate: f64,
    /// The wall's thickness (m); its near face is at x = 2.
    pub wall: f64,
    /// The step (s).
    pub h: f64,
}

/// Half the plate's height (m).
pub const PLATE_HALF_HEIGHT: f64 = 0.3;
/// Where the wall's near face stands (m).
pub const WALL_X: f64 = 2.0;

/// How a run ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Flight {
    /// The plate's centre x and angle θ at every instant tested, from the start.
    pub track: Vec<(f64, f64)>,
    /// The time a collision was detected, if it was.
    pub hit: Option<f64>,
    /// The plate ended beyond the wall without a collision being detected.
    pub tunnelled: bool,
    /// Placements of the shapes tested.
    pub tests: usize,
}

impl Flight {
    /// A flight that has been tested only at its start, where the plate is at `start`.
    fn from_start(start: (f64, f64)) -> Self {
        Flight { track: vec![start], hit: None, tunnelled: false, tests: 0 }
    }
}

impl Shot {
    /// Checks the numbers: all finite, sizes and the step positive.
    pub fn new(
        speed: f64,
        spin: f64,
        plate: f64,
        wall: f64,
        h: f64,
    ) -> Result<Self, PbmError> {
        positive("speed", "speed", speed)?;
        positive("plate thickness", "plate", plate)?;
        positive("wall thickness", "wall", wall)?;
        positive("step", "h", h)?;
        if !spin.is_finite() {
            return Err(PbmError::invalid("spin", format!("{spin} is not finite")));
        }
        Ok(Shot { speed, spin, plate, wall, h })
    }

    /// The plate starts 1 m before the wall.
    pub fn at(&self, t: f64) -> (f64, f64) {
        (WALL_X - 1.0 + self.speed * t, self.spin * t)
    }

    /// The wall and the plate at time t.
    pub fn shapes(&self, t: f64) -> Result<(ConvexPolygon, ConvexPolygon), PbmError> {
        let wall = ConvexPolygon::rectangle(
            Vector2::new(WALL_X + 0.5 * self.wall, 0.0),
            Vector2::new(0.5 * self.wall, 2.0),
        )?;
        let plate = ConvexPolygon::rectangle(
            Vector2::zeros(),
            Vector2::new(0.5 * self.plate, PLATE_HALF_HEIGHT),
        )?;
        let (x, theta) = self.at(t);
        Ok((wall, plate.placed(Vector2::new(x, 0.0), theta)))
    }

    /// The plate is past the wall's far face altogether.
    fn beyond(&self, t: f64) -> bool {
        self.at(t).0 - self.radius() > WALL_X + self.wall
    }

    /// The farthest any point of the plate is from its centre.
    fn radius(&self) -> f64 {
        (0.25 * self.plate * self.plate + PLATE_HALF_HEIGHT * PLATE_HALF_HEIGHT)
            .sqrt()
    }

    fn steps(&self) -> usize {
        // Long enough to reach 1 m past the wall.
        ((2.0 + self.wall + self.radius()) / (self.speed * self.h)).ceil() as usize
            + 1
    }

    // ANCHOR: discrete
    /// Tests at the end of every step, or of every one of `substeps` equal parts of
    /// it: a collision is seen only if some tested instant finds the shapes within ε.
    pub fn discrete(
        &self,
        substeps: usize,
        epsilon: f64,
    ) -> Result<Flight, PbmError> {
        let dt = self.h / substeps.max(1) as f64;
        let mut flight = Flight::from_start(self.at(0.0));
        for k in 1..=self.steps() * substeps.max(1) {
            let t = k as f64 * dt;
            let (wall, plate) = self.shapes(t)?;
            flight.tests += 1;
            flight.track.push(self.at(t));
            if separation(&wall, &plate).0 <= epsilon {
                flight.hit = Some(t);
                return Ok(flight);
            }
        }
        flight.tunnelled = self.beyond(self.steps() as f64 * self.h);
        Ok(flight)
    }
    // ANCHOR_END: discrete

    // ANCHOR: advance
    /// Conservative advancement: no point of the plate moves faster than
    /// |v| + |ω| r (r its farthest point from the centre), and the separating-axis
    /// gap never exceeds the true distance, so moving ahead by gap / (|v| + |ω| r)
    /// cannot pass through anything. Repeat until the gap is below ε (a collision) or
    /// the step is used up.
    pub fn advancing(&self, epsilon: f64) -> Result<Flight, PbmError> {
        let bound = self.speed + self.spin.abs() * self.radius();
        let mut flight = Flight::from_start(self.at(0.0));
        let mut t = 0.0;
        for step in 1..=self.steps() {
            let end = step as f64 * self.h;
            while t < end {
                let (wall, plate) = self.shapes(t)?;
                flight.tests += 1;
                if t > 0.0 {
                    flight.track.push(self.at(t));
                }
                let gap = separation(&wall, &plate).0;
                if gap <= epsilon {
                    flight.hit = Some(t);
                    return Ok(flight);
                }
                if flight.tests > 1_000_000 {
                    let why = format!("over a million advances by t = {t} s");
                    return Err(PbmError::degenerate(
                        "conservative advancement",
                        why,
                    ));
                }
                t = (t + gap / bound).min(end);
                if t == end {
                    break;
                }
            }
        }
        flight.tunnelled = self.beyond(self.steps() as f64 * self.h);
        Ok(flight)
    }
    // ANCHOR_END: advance
}

/// The least speed (m/s) on a geometric grid from `lo` to `hi` at which the plate
/// tunnels through with `substeps` tests per step, or `None` if it never does.
pub fn first_tunnelling_speed(
    shot: &Shot,
    substeps: usize,
    epsilon: f64,
    (lo, hi): (f64, f64),
    points: usize,
) -> Result<Option<f64>, PbmError> {
    for k in 0..points {
        let speed = lo * (hi / lo).powf(k as f64 / (points - 1).max(1) as f64);
        let trial = Shot { speed, ..*shot };
        if trial.discrete(substeps, epsilon)?.tunnelled {
            return Ok(Some(speed));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slow_plate_is_caught_and_a_fast_one_tunnels_unless_cured() {
        let eps = 1e-3;
        let slow = Shot::new(5.0, 0.0, 0.02, 0.1, 1.0 / 60.0).unwrap();
        assert!(slow.discrete(1, eps).unwrap().hit.is_some());
        // 0.12 m of plate and wall together; at 60 Hz a plate faster than 7.2 m/s can
        // step over them.
        let fast = Shot { speed: 40.0, ..slow };
        let plain = fast.discrete(1, eps).unwrap();
        assert!(plain.tunnelled && plain.hit.is_none());
        let cured = fast.advancing(eps).unwrap();
        let t = cured.hit.unwrap();
        // The plate's front face meets the wall's at x = 2: 1 m − 0.01 m at 40 m/s.
        assert!((t - 0.99 / 40.0).abs() < eps / 40.0 + 1e-12, "{t}");
        assert!(!cured.tunnelled);
    }

    #[test]
    fn the_plain_test_fails_just_above_thickness_over_step() {
        let eps = 1e-6;
        let shot = Shot::new(1.0, 0.0, 0.02, 0.1, 1.0 / 60.0).unwrap();
        let found = first_tunnelling_speed(&shot, 1, eps, (1.0, 100.0), 400)
            .unwrap()
            .unwrap();
        // The plate jumps v h per step; it can only slip through if that exceeds the
        // plate and wall together.
        let limit = (0.02 + 0.1) / shot.h;
        assert!(found > limit && found < 1.3 * limit, "{found} vs {limit}");
        let four = first_tunnelling_speed(&shot, 4, eps, (1.0, 100.0), 400)
            .unwrap()
            .unwrap();
        assert!(four > 4.0 * limit && four < 1.3 * 4.0 * limit, "{four}");
    }

    #[test]
    fn conservative_advancement_catches_a_spinning_plate_at_any_speed() {
        for speed in [1.0, 30.0, 300.0, 3000.0] {
            let shot = Shot::new(speed, 40.0, 0.02, 0.05, 1.0 / 30.0).unwrap();
            let flight = shot.advancing(1e-4).unwrap();
            let t = flight.hit.expect("a hit");
            let (wall, plate) = shot.shapes(t).unwrap();
            let gap = separation(&wall, &plate).0;
            assert!((0.0..=1e-4).contains(&gap), "{speed}: gap {gap}");
            // Never closer before the hit.
            for k in 0..200 {
                let (w, p) = shot.shapes(t * k as f64 / 200.0).unwrap();
                assert!(separation(&w, &p).0 > 0.0);
            }
        }
    }

    #[test]
    fn bad_shots_are_errors() {
        assert!(Shot::new(0.0, 0.0, 0.1, 0.1, 0.1).is_err());
        assert!(Shot::new(1.0, f64::NAN, 0.1, 0.1, 0.1).is_err());
        assert!(Shot::new(1.0, 0.0, -0.1, 0.1, 0.1).is_err());
    }
}
