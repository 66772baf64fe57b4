//! Chapter 10: position based dynamics (Müller, *Basic Rigid Body Simulation*, Ten
//! Minute Physics; Macklin, Müller and Chentanez, *XPBD*, 2016; Müller et al.,
//! *Detailed Rigid Body Simulation with Extended Position Based Dynamics*, 2020).
//!
//! Instead of computing forces and integrating them, predict where everything would
//! go with no constraints, then move the positions until the constraints hold, and
//! read the velocities off the motion. The constraints are chapter 2's condition
//! functions, used through their position part alone (C and ∇C); XPBD adds a
//! compliance that makes a soft constraint an implicit-Euler spring, independent of
//! the step and of the iteration count. The same projection moves rigid bodies,
//! through their generalized inverse masses.

// The practice files name the crate as a reader's code does (`pbm_pbd::…`).
extern crate self as pbm_pbd;

pub mod box_scenes;
pub mod contact;
pub mod demos;
pub mod joint;
pub mod net;
pub mod particles;
pub mod projection;
pub mod rigid;
pub mod rigid_contact;
pub mod scenes;
pub mod sheet_static;

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

pbm_prelim::chapter!(id: "pbd", number: 10, pages: "10-position-based",
    title: "Position Based Dynamics");
