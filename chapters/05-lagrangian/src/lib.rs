//! Chapter 5: parametric constraints (Lagrangian dynamics).
//!
//! Instead of adding forces that keep a state legal, write the state as a function
//! q(u) of fewer coordinates that can only describe legal states, and solve for ü
//! directly: Jᵀ M J ü + Jᵀ M J̇ u̇ − Jᵀ Q = 0 with J = ∂q/∂u. No drift and fewer
//! unknowns, at the price of finding a parametrisation and losing easy, interactive
//! combination of constraints.

// The practice files name the crate as a reader's code does (`pbm_lagrangian::…`).
extern crate self as pbm_lagrangian;

pub mod demos;
#[cfg(feature = "book")]
pub mod exercises;
#[cfg(feature = "book")]
pub mod figures;
pub mod models;
#[cfg(feature = "book")]
pub mod pages;
pub mod parametric;
#[cfg(feature = "book")]
pub mod practice;
pub mod scenes;
pub mod wire;

/// The chapter's registry entry: everything its pages show (exercises, figures, the runs
/// and numbers quoted, timing tables, live demos).
#[cfg(feature = "book")]
pub fn chapter() -> pbm_prelim::Chapter {
    use pbm_prelim::Chapter;
    Chapter {
        id: "lagrangian",
        number: 5,
        title: "Lagrangian Dynamics",
        pages: "05-lagrangian",
        exercises: exercises::all(),
        figures: figures::all(),
        shown: pages::shown(),
        tables: pages::TABLES,
        demos: demos::DEMOS,
        agreements: demos::AGREEMENTS,
        practice: practice::TASKS,
    }
}
