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
pub mod gyroscopic;
pub mod mass;
pub mod mesh;
pub mod rotation;
pub mod scenes;

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

pbm_prelim::chapter!(id: "rigid", number: 6, pages: "06-rigid",
    title: "Rigid Body Dynamics");
