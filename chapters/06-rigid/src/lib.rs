//! Chapter 6: rigid body dynamics, unconstrained.
//!
//! A rigid body's state is its position, orientation, linear momentum and angular
//! momentum; its constants are its mass and its inertia tensor in body space. From
//! those the solver of chapter 1 integrates ẋ = v, Ṙ = ω* R (or q̇ = ½ ω q), Ṗ = F,
//! L̇ = τ. The same body in the plane (an angle, a scalar inertia) is what chapter
//! 11's interactive simulator moves.

// The practice files name the crate as a reader's code does (`pbm_rigid::…`).
extern crate self as pbm_rigid;

pub mod body;
pub mod body2d;
pub mod demos;
#[cfg(feature = "book")]
pub mod exercises;
#[cfg(feature = "book")]
pub mod figures;
pub mod mass;
pub mod mesh;
#[cfg(feature = "book")]
pub mod pages;
#[cfg(feature = "book")]
pub mod practice;
pub mod rotation;
pub mod scenes;

/// The chapter's registry entry: everything its pages show (exercises, figures, the runs
/// and numbers quoted, timing tables, live demos).
#[cfg(feature = "book")]
pub fn chapter() -> pbm_prelim::Chapter {
    use pbm_prelim::Chapter;
    Chapter {
        id: "rigid",
        number: 6,
        title: "Rigid Body Dynamics",
        pages: "06-rigid",
        exercises: exercises::all(),
        figures: figures::all(),
        shown: pages::shown(),
        tables: pages::TABLES,
        demos: demos::DEMOS,
        agreements: demos::AGREEMENTS,
        practice: practice::TASKS,
    }
}
