//! Polygons of mixed shapes dropped into a box to pile up.

use super::shared::{SOLIDS, V2, rect};
use crate::shape::Shape;
use crate::world::{Fixture, Settings, World};
use pbm_collision::polygon::ConvexPolygon;
use pbm_prelim::PbmError;
use std::f64::consts::TAU;

/// `count` convex polygons of mixed shapes and sizes dropped into a box, to pile up
/// and settle: many contacts at once, none of them scripted.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pile {
    /// Number of polygons.
    pub count: usize,
    /// Inner width of the box (m).
    pub width: f64,
    /// Seed of the shapes' sizes, sides and turns.
    pub seed: u64,
}

impl Pile {
    /// Polygons in a box 8 m wide; the exercise drops 20 of them by default.
    pub const BOOK: Pile = Pile { count: 20, width: 8.0, seed: 1995 };

    /// The polygons on a grid above the box, each with 3 to 6 sides, a radius of 0.3
    /// to 0.5 m and a turn, all from `seed`: the same seed, the same pile.
    pub fn build(&self, settings: Settings) -> Result<World, PbmError> {
        if !(self.width.is_finite() && self.width >= 2.0) {
            let why = format!("its width must be at least 2 m, not {}", self.width);
            return Err(PbmError::invalid("pile", why));
        }
        let mut world = World::new(settings)?;
        let pitch = 1.1;
        let across = ((self.width / pitch).floor() as usize).max(1);
        let rows = self.count.div_ceil(across);
        let half = 0.5 * self.width;
        let top = 1.0 + rows as f64 * pitch + 1.0;
        let walls = vec![
            rect(-half - 0.5, -0.5, half + 0.5, 0.0)?,
            rect(-half - 0.5, 0.0, -half, top)?,
            rect(half, 0.0, half + 0.5, top)?,
        ];
        world.add_fixture(Fixture { parts: walls, layer: SOLIDS })?;
        let mut random = Lcg(self.seed);
        for k in 0..self.count {
            let sides = 3 + (random.next() * 4.0) as usize % 4;
            let radius = 0.3 + 0.2 * random.next();
            let turn = TAU * random.next();
            let corners = (0..sides)
                .map(|i| {
                    let a = turn + TAU * i as f64 / sides as f64;
                    V2::new(a.cos(), a.sin()) * radius
                })
                .collect();
            let (shape, _) = Shape::new(vec![ConvexPolygon::new(corners)?], 1.0)?;
            let (row, column) = (k / across, k % across);
            let x = -half + pitch * (column as f64 + 0.5) + 0.1 * (row % 2) as f64;
            let y = 1.0 + pitch * row as f64;
            world.add_body(
                shape,
                SOLIDS,
                (V2::new(x, y), 0.0),
                (V2::zeros(), 0.0),
            )?;
        }
        Ok(world)
    }
}

/// A small linear congruential generator (Knuth's MMIX constants): the pile needs
/// the same numbers on every machine, not good ones.
struct Lcg(u64);

impl Lcg {
    /// A number in [0, 1).
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}
