//! Chapter 8: colliding and resting contact.
//!
//! Collision detection (chapter 7) says which bodies touch and where. This chapter
//! decides what happens there: an impulse where bodies meet with closing velocity
//! (colliding contact), and contact forces where they rest on each other (resting
//! contact). The forces are the solution of a linear complementarity problem, which
//! the chapter solves with Dantzig's principal pivoting method as Baraff (1994)
//! adapted it.

pub mod dantzig;
pub mod demos;
#[cfg(feature = "book")]
pub mod exercises;
#[cfg(feature = "book")]
pub mod figures;
pub mod friction;
pub mod impulse;
pub mod lcp;
#[cfg(feature = "book")]
pub mod pages;
#[cfg(feature = "book")]
pub mod practice;
pub mod resting;
pub mod rows;
pub mod scenes;
pub mod sequential;
pub mod singular;
pub mod world;

/// The chapter's registry entry: everything its pages show (exercises, figures, the runs
/// and numbers quoted, timing tables, live demos).
#[cfg(feature = "book")]
pub fn chapter() -> pbm_prelim::Chapter {
    pbm_prelim::Chapter {
        id: "contact",
        number: 8,
        title: "Colliding and Resting Contact",
        pages: "08-contact",
        exercises: exercises::all(),
        figures: figures::all(),
        shown: pages::shown(),
        tables: pages::TABLES,
        demos: demos::DEMOS,
        agreements: demos::AGREEMENTS,
        practice: practice::TASKS,
    }
}
