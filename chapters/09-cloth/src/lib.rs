//! Chapter 9: cloth and hair energy functions (Kass, "Cloth and Fur Energy
//! Functions", in the course notes; Baraff and Witkin, *Large Steps in Cloth
//! Simulation*, 1998).
//!
//! Every energy here is written as a condition function C of a few particles'
//! positions, with E = ½ k |C|²: the vocabulary of chapter 2, so that chapter 3's
//! implicit step, chapter 4's constraints and chapter 10's projections can use each
//! one unchanged. A hair is a chain of particles with stretch and joint-angle
//! conditions; a cloth is a triangle mesh with stretch, shear and bend conditions.

// The practice files name the crate as a reader's code does (`pbm_cloth::…`).
extern crate self as pbm_cloth;

pub mod check;
pub mod cloth;
pub mod contact;
pub mod demos;
pub mod energy;
pub mod hinge;
pub mod scenes;
pub mod self_contact;
pub mod strand;
pub mod triangle;

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

pbm_prelim::chapter!(id: "cloth", number: 9, pages: "09-cloth",
    title: "Cloth and Hair Energy Functions");
