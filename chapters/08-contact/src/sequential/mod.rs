//! Sequential impulses: the contact solve of production engines (Catto's, in Box2D;
//! rapier's is the same idea). Where the exact solver pivots to the answer of the
//! complementarity problem on accelerations, this one works on velocities and never
//! forms the matrix: it sweeps over the rows, and for each changes that row's
//! impulse so that its relative velocity would reach its target, clamped to the
//! row's bounds, then applies the change to the bodies at once. A fixed number of
//! sweeps makes the cost predictable and linear in the rows; the price is an answer
//! that is only as complementary as the sweeps made it.
//!
//! In the terms of this chapter: the impulses λ must satisfy the LCP
//! A λ + b ≥ 0, λ ≥ 0, complementary, with the same A as the force solve
//! ([`crate::rows::row_matrix`]) and b the rows' velocities before the impulses
//! minus their targets. One sweep is projected Gauss–Seidel on that LCP:
//! λᵢ ← clamp(λᵢ − (A λ + b)ᵢ / Aᵢᵢ), row after row, each update seeing the ones
//! before it. Reading row i's velocity off the bodies after applying every impulse
//! so far *is* (A λ + b)ᵢ, which is why the matrix is never needed.
//!
//! Everything a sweep reads that does not change during a step is computed once,
//! when the step begins ([`Sweeper::new`]): each row's Jacobian and what a unit
//! impulse along it does to its bodies ([`Prepared`]), and each face's block matrix
//! and its factor ([`Manifold`]). The sweeps then touch only the bodies' velocities
//! ([`Velocity`]), a flat array.
//!
//! A file per concern: [`prepared`] (a row made ready, and the velocities it reads),
//! [`manifold`] (a body pair's normal rows as a block), [`sweeper`] (the sweeps),
//! [`dense`] (the same on an assembled matrix) and [`step`] (what a step of either
//! world's sequential impulses is made of besides the sweeps).

mod dense;
mod manifold;
mod prepared;
mod step;
mod sweeper;

pub use dense::pgs_dense;
pub use manifold::Manifold;
pub use prepared::{Prepared, Targets, Velocity, row_velocity, velocities};
pub use step::{
    BAUMGARTE, PUSH_OUT_SWEEPS, Remembered, RememberedFace, SUBSTEPS, bounces_now,
    move_gaps, split_impulses, targets,
};
pub use sweeper::{Sweeper, Sweeps, solve_sequential, velocity_error};
