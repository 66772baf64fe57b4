//! Chapter 7: collision detection.
//!
//! Two questions, asked every step: which pairs of bodies are close enough to need a
//! closer look (the broad phase: bounding boxes, sorted along each axis and kept
//! sorted from step to step), and, for those, are they apart, touching or
//! interpenetrating, and where (the narrow phase: separating planes between convex
//! shapes, cached as witnesses; and the distance or depth through their Minkowski
//! difference, by GJK and EPA).

// The practice files name the crate as a reader's code does (`pbm_collision::…`).
extern crate self as pbm_collision;

pub mod aabb;
pub mod bvh;
pub mod demos;
pub mod gjk;
pub mod grid;
pub mod polygon;
pub mod polyhedron;
pub mod scenes;
pub mod sweep;
pub mod toi;
pub mod tunnel;

// The book's parts: built only with the `book` feature (the WebAssembly build has the
// physics, the scenes and the demos alone).
#[cfg(feature = "book")]
pub mod exercises;
#[cfg(feature = "book")]
pub mod figures;
#[cfg(feature = "book")]
pub mod pages;
#[cfg(feature = "book")]
pub mod practice;

pbm_prelim::chapter!(id: "collision", number: 7, pages: "07-collision",
    title: "Collision Detection");
