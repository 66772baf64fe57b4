//! Chapter 9: cloth and hair energy functions (Kass, "Cloth and Fur Energy
//! Functions", in the course notes; Baraff and Witkin, *Large Steps in Cloth
//! Simulation*, 1998).
//!
//! Every energy here is written as a condition function C of a few particles'
//! positions, with E = ½ k |C|²: the vocabulary of chapter 2, so that chapter 3's
//! implicit step, chapter 4's constraints and chapter 10's projections can use each
//! one unchanged. A hair is a chain of particles with stretch and joint-angle
//! conditions; a cloth is a triangle mesh with stretch, shear and bend conditions.

pub mod check;
pub mod cloth;
pub mod energy;
#[cfg(feature = "book")]
pub mod exercises;
#[cfg(feature = "book")]
pub mod figures;
pub mod hinge;
pub mod scenes;
pub mod strand;
pub mod triangle;

/// The chapter's registry entry: its exercises and figures.
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
    }
}
