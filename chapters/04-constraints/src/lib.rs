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
pub mod projection;
pub mod scenes;
pub mod system;
pub mod tree;

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

pbm_prelim::chapter!(id: "constraints", number: 4, pages: "04-constraints",
    title: "Constrained Dynamics");
