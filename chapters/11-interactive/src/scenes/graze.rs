//! A square grazing the corner of a fixed one within a step.

use super::shared::{SOLIDS, V2, rect};
use crate::shape::Shape;
use crate::world::{Fixture, Settings, World};
use pbm_collision::polygon::ConvexPolygon;
use pbm_prelim::PbmError;

/// A unit square moving diagonally across the top-left corner of a fixed unit
/// square (corners (0, 0) and (1, 1)), with no gravity: apart at both ends of a
/// step and overlapping in between, the graze the loop never sees.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Graze {
    /// Where the moving square's bottom-right corner starts (m).
    pub corner: V2,
    /// Its velocity (m/s).
    pub velocity: V2,
}

impl Graze {
    /// 3 cm left of the fixed square at the start of a 10-ms step, 3 cm above it
    /// at the end, 4 cm (2ε) deep half-way.
    pub const BOOK: Graze =
        Graze { corner: V2::new(-0.03, 0.89), velocity: V2::new(14.0, 14.0) };

    /// The fixed square.
    pub fn fixed() -> Result<ConvexPolygon, PbmError> {
        rect(0.0, 0.0, 1.0, 1.0)
    }

    /// The moving square's centre `s` into the motion.
    pub fn centre_at(&self, s: f64) -> V2 {
        self.corner + V2::new(-0.5, 0.5) + self.velocity * s
    }

    /// The world: the fixed square and the moving one, no gravity.
    pub fn world(&self) -> Result<World, PbmError> {
        let settings = Settings { gravity: V2::zeros(), ..Settings::default() };
        let mut world = World::new(settings)?;
        world.add_fixture(Fixture { parts: vec![Self::fixed()?], layer: SOLIDS })?;
        let square = Shape::rectangle(1.0, 1.0, 1.0)?;
        let at = (self.centre_at(0.0), 0.0);
        world.add_body(square, SOLIDS, at, (self.velocity, 0.0))?;
        Ok(world)
    }
}
