//! Chapter 8: colliding and resting contact.
//!
//! Collision detection (chapter 7) says which bodies touch and where. This chapter
//! decides what happens there: an impulse where bodies meet with closing velocity
//! (colliding contact), and contact forces where they rest on each other (resting
//! contact). The forces are the solution of a linear complementarity problem, which
//! the chapter solves with Dantzig's principal pivoting method as Baraff (1994)
//! adapted it.

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

pbm_prelim::chapter!(id: "contact", number: 8, pages: "08-contact",
    title: "Colliding and Resting Contact");
