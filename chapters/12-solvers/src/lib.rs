//! Chapter 12: after Baraff, the contact solvers games use. Every solver here works
//! on the same bodies, contact manifolds and constraints, and each is a few lines
//! that put the same passes together in a different order: projected Gauss–Seidel
//! with Baumgarte feedback, Box2D v2's velocity passes with non-linear position
//! passes, soft contacts with relax passes, and the substepping solvers (TGS soft,
//! and soft step, the one Box2D v3 kept). The bench runs them on hard scenes from
//! Erin Catto's Solver2D and measures where each fails.

pub mod bench;
pub mod body;
pub mod contact;
pub mod demos;
pub mod exact;
pub mod joint;
pub mod manifold;
pub mod scenes;
pub mod soft;
pub mod solvers;
pub mod world;
pub mod xpbd;

// The book's parts: built only with the `book` feature.
#[cfg(feature = "book")]
pub mod exercises;
#[cfg(feature = "book")]
pub mod figures;
#[cfg(feature = "book")]
pub mod pages;
#[cfg(feature = "book")]
pub mod practice;

pbm_prelim::chapter!(id: "solvers", number: 12, pages: "12-solvers",
    title: "Contact Solvers for Games");
