//! Chapter 7: collision detection.
//!
//! Two questions, asked every step: which pairs of bodies are close enough to need a
//! closer look (the broad phase: bounding boxes, sorted along each axis and kept
//! sorted from step to step), and, for those, are they apart, touching or
//! interpenetrating, and where (the narrow phase: separating planes between convex
//! shapes, cached as witnesses).

// The practice files name the crate as a reader's code does (`pbm_collision::…`).
extern crate self as pbm_collision;

pub mod aabb;
pub mod bvh;
pub mod demos;
#[cfg(feature = "book")]
pub mod exercises;
#[cfg(feature = "book")]
pub mod figures;
pub mod grid;
#[cfg(feature = "book")]
pub mod pages;
pub mod polygon;
pub mod polyhedron;
#[cfg(feature = "book")]
pub mod practice;
pub mod scenes;
pub mod sweep;
pub mod toi;
pub mod tunnel;

/// The chapter's registry entry: everything its pages show (exercises, figures, the runs
/// and numbers quoted, timing tables, live demos).
#[cfg(feature = "book")]
pub fn chapter() -> pbm_prelim::Chapter {
    pbm_prelim::Chapter {
        id: "collision",
        number: 7,
        title: "Collision Detection",
        pages: "07-collision",
        exercises: exercises::all(),
        figures: figures::all(),
        shown: pages::shown(),
        tables: pages::TABLES,
        demos: demos::DEMOS,
        agreements: demos::AGREEMENTS,
        practice: practice::TASKS,
    }
}
