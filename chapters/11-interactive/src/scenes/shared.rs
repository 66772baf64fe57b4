//! What the scenes share: the layer of the solids that touch, the rectangles of
//! the fixed frames, and the scripted hand on the mouse.

use crate::world::World;
use nalgebra::Vector2;
use pbm_collision::polygon::ConvexPolygon;
use pbm_prelim::PbmError;

pub(super) type V2 = Vector2<f64>;

/// Layer of the blocks, the pusher and the frame (they touch).
pub const SOLIDS: u32 = 0;

/// The rectangle from corner (x0, y0) to corner (x1, y1), for the fixed frames.
pub(super) fn rect(
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
) -> Result<ConvexPolygon, PbmError> {
    ConvexPolygon::rectangle(
        V2::new(0.5 * (x0 + x1), 0.5 * (y0 + y1)),
        V2::new(0.5 * (x1 - x0), 0.5 * (y1 - y0)),
    )
}

/// One step of `world` with the mouse moved to `target` first: a scripted hand,
/// which sets where the mouse is from the clock before every step.
pub(super) fn scripted_step(world: &mut World, target: V2) -> Result<f64, PbmError> {
    if let Some(mouse) = &mut world.mouse {
        mouse.target = target;
    }
    world.step()
}
