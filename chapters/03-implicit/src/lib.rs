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
pub mod mass_spring;
pub mod minimization;
pub mod multigrid;
pub mod scenes;
pub mod sheet;
pub mod stiff;

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

pbm_prelim::chapter!(id: "implicit", number: 3, pages: "03-implicit",
    title: "Implicit Methods");
