//! The linear complementarity problem of contact forces: given a square matrix A and
//! a vector b, find f with
//!
//! a = A f + b,   f ≥ 0,   a ≥ 0,   fᵢ aᵢ = 0 for every i.
//!
//! Each row is a contact: fᵢ is the force pushing the bodies apart, aᵢ their
//! relative normal acceleration. Either the bodies separate (aᵢ > 0) and no force
//! acts, or they stay in contact (aᵢ = 0) and the force is whatever keeps them so.
//! The solver is Dantzig's principal pivoting method in the form Baraff (1994) gives
//! it: contacts are brought into complementarity one at a time, each by increasing its
//! force while keeping every contact already settled settled.
//!
//! By stage, a file each: [`problem`] (A, b, the bounds, a solution and its
//! residual, random instances), [`factor`] (the direction of one pivot, through a
//! factor of the clamped rows kept up to date), [`pivoting`] (the pivoting itself),
//! [`least_norm`] (the forces nearest a reference where rows depend on each other),
//! [`warm`] (last step's partition as this step's guess) and [`study`] (what the
//! exercises measure on random problems).

mod factor;
mod least_norm;
mod pivoting;
mod problem;
mod study;
mod warm;

pub(crate) use factor::ClampedFactor;
pub use factor::REFINEMENTS;
pub use pivoting::{solve, solve_basis, solve_bounded};
pub(crate) use problem::Checked;
pub use problem::{
    Bounds, Kind, LcpSolution, Rows, dependent_problem, enumerate, random_problem,
    scale,
};
pub use study::{
    DependentStudy, WarmStartStudy, dependent_rows_study, warm_start_study,
};
pub(crate) use warm::solve_warm_pivoting_with;
pub use warm::{solve_warm, solve_warm_pivoting};
