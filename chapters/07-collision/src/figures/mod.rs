//! The chapter's figures, computed with the chapter's own code (the timings from the
//! criterion run committed beside it), one file for each page they illustrate:
//! the broad phase, the narrow phase, GJK and EPA, and the collision time.

mod broad_phase;
mod collision_time;
mod gjk;
mod narrow_phase;
pub mod parts;

use crate::polygon::ConvexPolygon;
use broad_phase::{box_scene, sweep_exchange, sweep_timing};
use collision_time::{collision_time_trials, tunnelling};
use gjk::gjk_epa;
use nalgebra::Vector2;
use narrow_phase::{separating_axis, separating_plane, table_edge};
use pbm_prelim::plot::prelude::*;

pub use broad_phase::BROAD_PHASE_TIMINGS;

/// Every figure of the chapter, in reading order.
pub fn all() -> Vec<Figure> {
    vec![
        Figure::new(
            "box-scene",
            "A hundred moving boxes, ten steps apart",
            box_scene,
        ),
        Figure::new(
            "sweep-exchange",
            "One exchange of the coherent sort begins an overlap",
            sweep_exchange,
        ),
        Figure::new(
            "sweep-timing",
            "Time per step against the number of boxes",
            sweep_timing,
        ),
        Figure::new(
            "separating-axis",
            "Candidate axes, the shapes' shadows on them, and the gap",
            separating_axis,
        ),
        Figure::new(
            "gjk-epa",
            "The Minkowski difference, GJK's simplices and EPA's polygon",
            gjk_epa,
        ),
        Figure::new(
            "separating-plane",
            "A separating plane kept as a witness",
            separating_plane,
        ),
        Figure::new(
            "table-edge",
            "The contacts of a box over a table's edge",
            table_edge,
        ),
        Figure::new(
            "collision-time-trials",
            "The separation over the overshooting step and the search's trials",
            collision_time_trials,
        ),
        Figure::new("tunnelling", "A thin fast plate and a wall", tunnelling),
    ]
}

/// The colour of what overlaps, or of what the figure is about.
const OVERLAPPING: RGBColor = RGBColor(213, 94, 0);

/// A figure error saying what went wrong with its data.
fn figure_error(why: impl Into<String>) -> PbmError {
    PbmError::Figure { why: why.into() }
}

/// The two polygons of the separating-axis figure, which the GJK figure meets
/// again: a pentagon A and a rectangle B.
fn axis_polygons() -> Result<(ConvexPolygon, ConvexPolygon), PbmError> {
    let v = Vector2::new;
    let a = ConvexPolygon::new(vec![
        v(0.0, 0.0),
        v(1.4, -0.2),
        v(1.9, 0.8),
        v(1.0, 1.6),
        v(-0.2, 1.0),
    ])?;
    let b = ConvexPolygon::rectangle(Vector2::zeros(), v(0.75, 0.35))?
        .placed(v(3.1, 1.7), 0.6);
    Ok((a, b))
}
