//! Chapter 8: colliding and resting contact.
//!
//! Collision detection (chapter 7) says which bodies touch and where. This chapter
//! decides what happens there: an impulse where bodies meet with closing velocity
//! (colliding contact), and contact forces where they rest on each other (resting
//! contact). The forces are the solution of a linear complementarity problem, which
//! the chapter solves with Dantzig's principal pivoting method as Baraff (1994)
//! adapted it.

// The practice files name the crate as a reader's code does (`pbm_contact::…`).
extern crate self as pbm_contact;

pub mod dantzig;
pub mod demos;
pub mod friction;
pub mod impulse;
pub mod lcp;
pub mod resting;
pub mod rows;
pub mod scenes;
pub mod sequential;
pub mod singular;
pub mod world;

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

pbm_prelim::chapter!(id: "contact", number: 8, pages: "08-contact",
    title: "Colliding and Resting Contact");
