//! Chapter 3: implicit methods, stiffness, and how to survive it.
//!
//! A stiff system has motions on very different time scales; explicit methods must
//! step at the fastest one. Backward Euler evaluates the derivative where the step
//! lands, which, linearized, turns each step into a linear solve. For mass–spring
//! systems the solve has the springs' sparsity: a block-sparse matrix and a
//! preconditioned conjugate gradient. The same step is also the minimizer of an
//! energy, which Newton's method finds.

pub mod backward_euler;
pub mod block_sparse;
pub mod cg;
pub mod demos;
#[cfg(feature = "book")]
pub mod exercises;
#[cfg(feature = "book")]
pub mod figures;
pub mod mass_spring;
pub mod minimization;
pub mod multigrid;
#[cfg(feature = "book")]
pub mod pages;
#[cfg(feature = "book")]
pub mod practice;
pub mod scenes;
pub mod sheet;
pub mod stiff;

/// The chapter's registry entry: everything its pages show (exercises, figures, the runs
/// and numbers quoted, timing tables, live demos).
#[cfg(feature = "book")]
pub fn chapter() -> pbm_prelim::Chapter {
    use pbm_prelim::Chapter;
    Chapter {
        id: "implicit",
        number: 3,
        title: "Implicit Methods",
        pages: "03-implicit",
        exercises: exercises::all(),
        figures: figures::all(),
        shown: pages::shown(),
        tables: pages::TABLES,
        demos: demos::DEMOS,
        agreements: demos::AGREEMENTS,
        practice: practice::TASKS,
    }
}
