//! Chapter 1: differential equation basics.
//!
//! An initial value problem x' = f(x, t) is solved by stepping: a solver sees the
//! model only through the [`system::OdeSystem`] interface (dimension, gather,
//! scatter, derivative), and every explicit Runge–Kutta method (Euler, midpoint, RK4,
//! Dormand–Prince) is one [`tableau::ButcherTableau`] fed to one stepping loop in
//! [`runge_kutta`]. The chapter then measures what goes wrong: Euler's outward spiral
//! on circles, its instability on stiff decay, the order of each method's global
//! error, and how [`adaptive`] step sizes buy accuracy with fewer derivative
//! evaluations.

// The practice files name the crate as a reader's code does (`pbm_ode::…`).
extern crate self as pbm_ode;

pub mod adaptive;
pub mod convergence;
pub mod demos;
pub mod fixed;
pub mod runge_kutta;
pub mod scenes;
pub mod stability;
pub mod step_control;
pub mod symplectic;
pub mod system;
pub mod tableau;

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

pbm_prelim::chapter!(id: "ode", number: 1, pages: "01-ode",
    title: "Differential Equation Basics");
