//! Chapter 7: collision detection.
//!
//! Two questions, asked every step: which pairs of bodies are close enough to need a
//! closer look (the broad phase: bounding boxes, sorted along each axis and kept
//! sorted from step to step), and, for those, are they apart, touching or
//! interpenetrating, and where (the narrow phase: separating planes between convex
//! shapes, cached as witnesses).

pub mod aabb;
pub mod bvh;
#[cfg(feature = "book")]
pub mod exercises;
pub mod polygon;
pub mod polyhedron;
pub mod scene;
pub mod sweep;
pub mod toi;
pub mod tunnel;
