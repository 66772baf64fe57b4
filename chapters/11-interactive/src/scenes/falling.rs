//! Blocks falling onto a floor in a straight line, for the collisions page.

use super::shared::{SOLIDS, V2, rect};
use crate::shape::Shape;
use crate::world::{Fixture, Settings, World};
use pbm_prelim::PbmError;

/// A unit block whose bottom is `gap` above a floor whose top is y = 0, at `x`,
/// falling at `speed` with no gravity: it moves in a straight line, so the step's
/// interpolation is exact. Two of them make the collisions page's step with two
/// collisions in it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Falling {
    /// The block's centre along x (m).
    pub x: f64,
    /// The gap under it at the start (m).
    pub gap: f64,
    /// Its speed towards the floor (m/s).
    pub speed: f64,
}

impl Falling {
    /// 3 cm up at 10 m/s: it strikes 0.3 of a 10-ms step in.
    pub const EARLY: Falling = Falling { x: -3.0, gap: 0.03, speed: 10.0 };
    /// 26 cm up at 40 m/s: it strikes 0.65 of the step in, and ends the step the
    /// deeper of the two.
    pub const LATE: Falling = Falling { x: 3.0, gap: 0.26, speed: 40.0 };

    /// A world of `blocks` over a floor, with no gravity and no bounce.
    pub fn world(blocks: &[Falling]) -> Result<World, PbmError> {
        let settings = Settings {
            gravity: V2::zeros(),
            restitution: 0.0,
            ..Settings::default()
        };
        let mut world = World::new(settings)?;
        let floor = rect(-20.0, -1.0, 20.0, 0.0)?;
        world.add_fixture(Fixture { parts: vec![floor], layer: SOLIDS })?;
        for b in blocks {
            let block = Shape::rectangle(1.0, 1.0, 1.0)?;
            let at = (V2::new(b.x, 0.5 + b.gap), 0.0);
            world.add_body(block, SOLIDS, at, (V2::new(0.0, -b.speed), 0.0))?;
        }
        Ok(world)
    }

    /// Where its centre is `s` into the motion.
    pub fn centre_at(&self, s: f64) -> V2 {
        V2::new(self.x, 0.5 + self.gap - self.speed * s)
    }
}
