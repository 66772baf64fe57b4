//! Blocks placed overlapping, for the tolerance correction (the paper's Figures 9
//! and 10).

use super::shared::{SOLIDS, V2};
use crate::shape::Shape;
use crate::world::{Settings, World};
use pbm_prelim::PbmError;

/// Five square blocks placed overlapping in a first-order world with no gravity,
/// where nothing moves but the tolerance correction (the paper's Figures 9 and 10).
/// Block B, turned, has a corner `deep` ε into block A, four times its mass; block
/// C, turned with B, overlaps B's far face by `shallow` ε; D and E, apart from the
/// three, overlap face to face by `shallow` ε.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Overlaps {
    /// How far B's corner is into A, in ε: past the warning depth ¾ ε.
    pub deep: f64,
    /// How far C is into B, and D into E, in ε: short of it.
    pub shallow: f64,
    /// B's and C's turn (rad).
    pub tilt: f64,
}

impl Overlaps {
    /// B's corner 0.9 ε into A; 0.5 ε between B and C and between D and E.
    pub const BOOK: Overlaps = Overlaps { deep: 0.9, shallow: 0.5, tilt: 0.3 };

    /// The side of B, C, D and E (m): five ε. A's is twice it.
    pub const SIDE: f64 = 0.1;

    /// The world, its bodies A to E in that order.
    pub fn build(&self) -> Result<World, PbmError> {
        let settings = Settings {
            order: crate::world::Order::First,
            gravity: V2::zeros(),
            ..Settings::default()
        };
        let eps = settings.epsilon;
        let mut world = World::new(settings)?;
        let s = Self::SIDE;
        let small = Shape::rectangle(s, s, 1.0)?;
        let corners =
            small.parts[0].placed(V2::zeros(), self.tilt).vertices().to_vec();
        let left = corners
            .iter()
            .copied()
            .fold(V2::zeros(), |l, v| if v.x < l.x { v } else { l });
        // A's right face `deep` ε beyond B's leftmost corner, covering all of B
        // that crosses it (no corner of A in B), and A a little higher than the
        // corner, so that the push turns A too.
        let a = V2::new(left.x + self.deep * eps - s, left.y + 0.2 * s);
        // C along B's own x, `shallow` ε short of a side apart.
        let along = V2::new(self.tilt.cos(), self.tilt.sin());
        let c = along * (s - self.shallow * eps);
        let d = V2::new(c.x + 2.0 * s, -s);
        let e = V2::new(d.x + s - self.shallow * eps, -s);
        let still = (V2::zeros(), 0.0);
        let big = Shape::rectangle(2.0 * s, 2.0 * s, 1.0)?;
        world.add_body(big, SOLIDS, (a, 0.0), still)?;
        for at in [(V2::zeros(), self.tilt), (c, self.tilt), (d, 0.0), (e, 0.0)] {
            world.add_body(small.clone(), SOLIDS, at, still)?;
        }
        Ok(world)
    }
}
