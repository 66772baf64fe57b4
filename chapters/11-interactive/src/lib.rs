//! Chapter 11: Baraff's interactive simulator (*Interactive Simulation of Solid Rigid
//! Bodies*, IEEE CG&A 1995), rigid bodies in the plane with contact, friction and
//! pins, fast enough to drag about with a mouse.
//!
//! Nothing here is new physics. The bodies are chapter 6's planar bodies, stepped by
//! chapter 1's RK4; the broad phase is chapter 7's coherent sweep and the narrow
//! phase its polygons; contact, pin and friction forces come from chapter 8's
//! bounded LCP, fed planar rows through the plane embedded in space. What the paper
//! adds, and this chapter implements, is the loop around them that keeps it
//! interactive: contact geometry frozen for the whole step ("road-runner physics"),
//! collision times found by interpolating the step, a tolerance ε instead of exact
//! contact, a tolerance correction when a depth passes ¾ ε, and first-order worlds.

pub mod demos;
pub mod scenes;
pub mod shape;
pub mod world;

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

pbm_prelim::chapter!(id: "interactive", number: 11, pages: "11-interactive",
    title: "Baraff's Interactive Simulator");
