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

pub mod collision;
pub mod condition;
pub mod demos;
#[cfg(feature = "book")]
pub mod exercises;
#[cfg(feature = "book")]
pub mod figures;
pub mod forces;
pub mod interaction;
#[cfg(feature = "book")]
pub mod pages;
pub mod particle;
#[cfg(feature = "book")]
pub mod practice;
pub mod scenes;
pub mod spring;

/// The chapter's registry entry: everything its pages show (exercises, figures, the runs
/// and numbers quoted, timing tables, live demos).
#[cfg(feature = "book")]
pub fn chapter() -> pbm_prelim::Chapter {
    use pbm_prelim::Chapter;
    Chapter {
        id: "particles",
        number: 2,
        title: "Particle System Dynamics",
        pages: "02-particles",
        exercises: exercises::all(),
        figures: figures::all(),
        shown: pages::shown(),
        tables: pages::TABLES,
        demos: demos::DEMOS,
        agreements: demos::AGREEMENTS,
        practice: practice::TASKS,
    }
}
