//! A block on a table with a drop beside it.

use super::shared::{SOLIDS, V2, rect};
use crate::shape::Shape;
use crate::world::{Fixture, Mouse, Settings, World};
use pbm_prelim::PbmError;

/// A table with a drop beside it: the table's top is y = 0 and its edge x = 0, the
/// floor `drop` below; a block rests on the table, its right side `from` short of
/// the edge. Pushed off the edge it shows the held contacts of a step (the paper's
/// Figure 8, "road-runner physics") and, pushed by the mouse, what a first-order
/// world does that a second-order one does not.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ledge {
    /// The block's width and height (m), of density 1 kg/m².
    pub block: (f64, f64),
    /// How far the block's right side starts from the table's edge (m).
    pub from: f64,
    /// How far the floor is below the table's top (m).
    pub drop: f64,
}

impl Ledge {
    /// A block 0.25 m square a metre from the edge of a table 2 m high.
    pub const BOOK: Ledge = Ledge { block: (0.25, 0.25), from: 1.0, drop: 2.0 };

    /// The table, the floor, and the block on the table moving at `velocity`.
    pub fn build(&self, settings: Settings, velocity: V2) -> Result<World, PbmError> {
        let mut world = World::new(settings)?;
        let floor_y = -self.drop;
        let parts = vec![
            rect(-8.0, floor_y - 0.5, 0.0, 0.0)?,
            rect(0.0, floor_y - 0.5, 8.0, floor_y)?,
        ];
        world.add_fixture(Fixture { parts, layer: SOLIDS })?;
        let block = Shape::rectangle(self.block.0, self.block.1, 1.0)?;
        world.add_body(block, SOLIDS, (self.start(), 0.0), (velocity, 0.0))?;
        Ok(world)
    }

    /// Where the block's centre starts.
    pub fn start(&self) -> V2 {
        let (w, h) = self.block;
        V2::new(-self.from - 0.5 * w, 0.5 * h)
    }

    /// One step of a push by the mouse: it holds the block's centre and moves to
    /// the right at `speed` from where the block started, and at `release` (s) lets
    /// go. Its spring is the feeder's.
    pub fn push(
        &self,
        world: &mut World,
        speed: f64,
        release: f64,
    ) -> Result<f64, PbmError> {
        let t = world.time();
        world.mouse = (t < release - 1e-9).then(|| Mouse {
            body: 0,
            local: V2::zeros(),
            target: self.start() + V2::new(speed * t, 0.0),
            stiffness: 4000.0,
            damping: 120.0,
        });
        world.step()
    }
}
