//! Chapter 4: constrained dynamics with Lagrange multipliers.
//!
//! Instead of stiff springs that fight other forces through displacements, constraint
//! forces are computed directly: the force, normal to the legal motions, that makes
//! the acceleration legal. For a whole system it is Jᵀλ with λ from J W Jᵀ λ = −J̇ q̇
//! − J W Q − k_s C − k_d Ċ, a sparse symmetric system solved by conjugate gradients
//! without ever forming its matrix.

// The practice files name the crate as a reader's code does (`pbm_constraints::…`).
extern crate self as pbm_constraints;

pub mod bead;
pub mod block_matrix;
pub mod constraint;
pub mod demos;
#[cfg(feature = "book")]
pub mod exercises;
#[cfg(feature = "book")]
pub mod figures;
#[cfg(feature = "book")]
pub mod pages;
#[cfg(feature = "book")]
pub mod practice;
pub mod scenes;
pub mod system;
pub mod tree;

/// The chapter's registry entry: everything its pages show (exercises, figures, the runs
/// and numbers quoted, timing tables, live demos).
#[cfg(feature = "book")]
pub fn chapter() -> pbm_prelim::Chapter {
    use pbm_prelim::Chapter;
    Chapter {
        id: "constraints",
        number: 4,
        title: "Constrained Dynamics",
        pages: "04-constraints",
        exercises: exercises::all(),
        figures: figures::all(),
        shown: pages::shown(),
        tables: pages::TABLES,
        demos: demos::DEMOS,
        agreements: demos::AGREEMENTS,
        practice: practice::TASKS,
    }
}
