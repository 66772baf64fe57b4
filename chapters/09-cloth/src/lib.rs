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
#[cfg(feature = "book")]
pub mod exercises;
#[cfg(feature = "book")]
pub mod figures;
pub mod hinge;
#[cfg(feature = "book")]
pub mod pages;
#[cfg(feature = "book")]
pub mod practice;
pub mod scenes;
pub mod strand;
pub mod triangle;

/// The chapter's registry entry: everything its pages show (exercises, figures, the runs
/// and numbers quoted, timing tables, live demos).
#[cfg(feature = "book")]
pub fn chapter() -> pbm_prelim::Chapter {
    use pbm_prelim::Chapter;
    Chapter {
        id: "cloth",
        number: 9,
        title: "Cloth and Hair Energy Functions",
        pages: "09-cloth",
        exercises: exercises::all(),
        figures: figures::all(),
        shown: pages::shown(),
        tables: pages::TABLES,
        demos: demos::DEMOS,
        agreements: demos::AGREEMENTS,
        practice: practice::TASKS,
    }
}
