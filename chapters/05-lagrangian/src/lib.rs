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
pub mod models;
pub mod parametric;
pub mod scenes;
pub mod wire;

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

pbm_prelim::chapter!(id: "lagrangian", number: 5, pages: "05-lagrangian",
    title: "Lagrangian Dynamics");
