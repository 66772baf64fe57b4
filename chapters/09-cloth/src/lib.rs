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
pub mod energy;
pub mod hinge;
pub mod strand;
pub mod triangle;
