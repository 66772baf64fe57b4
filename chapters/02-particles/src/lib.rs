//! Chapter 2: particle system dynamics.
//!
//! A particle system is one point in a 2·D·n-dimensional phase space to chapter 1's
//! solvers (it implements `OdeSystem`), and a list of particles and force objects
//! from inside. This crate builds the force objects of the course notes (gravity,
//! drag, damped springs, forces derived from condition functions, spatial interaction
//! through a uniform grid), collisions and contact with planes, controlled particles,
//! and the scenes the chapter measures. Everything is generic over the dimension D,
//! with 2D and 3D aliases. Forces carry their Jacobians for chapter 3, and condition
//! functions are the vocabulary chapters 3, 4, 9 and 10 build on.

// The practice files name the crate as a reader's code does (`pbm_particles::…`).
extern crate self as pbm_particles;

pub mod collision;
pub mod condition;
pub mod demos;
pub mod forces;
pub mod interaction;
pub mod particle;
pub mod scenes;
pub mod spring;

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

pbm_prelim::chapter!(id: "particles", number: 2, pages: "02-particles",
    title: "Particle System Dynamics");
