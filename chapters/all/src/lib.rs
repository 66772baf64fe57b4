//! Every chapter of the book, named once. The `pbm` binary, the demos' WebAssembly
//! module (`web/`) and the practice runner depend on this crate alone; each chapter
//! crate is re-exported under its own name, so `pbm_chapters::pbm_ode::tableau::RK4`
//! is chapter 1's tableau.
//!
//! With the `book` feature, [`chapters()`] gives every chapter's registry entry in
//! the book's order; always, [`DEMOS`] gives every chapter's live demos (the
//! WebAssembly build has no book).

pub use pbm_prelim;

/// Re-exports each chapter crate and lists it, in the book's order, in
/// `chapters()` and [`DEMOS`]: the one place the list of chapters is written.
macro_rules! chapters {
    ($($chapter:ident),+ $(,)?) => {
        $(pub use $chapter;)+

        /// Every chapter of the book, in order.
        #[cfg(feature = "book")]
        pub fn chapters() -> Vec<pbm_prelim::Chapter> {
            vec![$($chapter::chapter()),+]
        }

        /// Every chapter's live demos and their agreements with its exercises, in
        /// the book's order.
        pub const DEMOS: &[pbm_prelim::demo::Demos] = &[$($chapter::demos::DEMOS),+];
    };
}

// ANCHOR: chapters
chapters!(
    pbm_ode,
    pbm_particles,
    pbm_implicit,
    pbm_constraints,
    pbm_lagrangian,
    pbm_rigid,
    pbm_collision,
    pbm_contact,
    pbm_cloth,
    pbm_pbd,
    pbm_interactive,
    pbm_solvers,
);
// ANCHOR_END: chapters
