//! Preliminaries: the vocabulary every chapter of pbm shares.
//!
//! Nothing here is physics. Always built: the error type ([`PbmError`], which says
//! whose fault an error is), the work budget of an exercise ([`budget`]), the checks constructors make ([`validate`]),
//! what a live demo is ([`demo`]) and how one draws solids ([`orbit`]), deterministic samples ([`sampling`]), finite-difference derivatives for tests
//! ([`finite_difference`]), loops that run in parallel with the same results on any
//! number of threads ([`parallel`]), rounding ([`snapshot`]) and exercise parameters
//! ([`params`]).
//!
//! With the `book` feature (on by default): how a chapter describes itself as a
//! [`Chapter`], with runnable [`Exercise`]s that return JSON and [`Figure`]s that
//! draw SVG; the shared figure style ([`plot`]); and what the chapters' tests share
//! ([`testing`]). The physics crates build without it, for WebAssembly.

pub mod budget;
pub mod demo;
pub mod error;
pub mod finite_difference;
pub mod orbit;
pub mod parallel;
pub mod params;
#[cfg(feature = "book")]
pub mod plot;
pub mod practice;
#[cfg(feature = "book")]
pub mod registry;
pub mod sampling;
pub mod snapshot;
#[cfg(feature = "book")]
pub mod testing;
pub mod validate;

pub use error::{Fault, PbmError};
pub use params::{
    Choice, FromParam, ParamError, ParamKind, ParamSet, ParamSpec, ParamValue,
    Params, Quantity, all_choices,
};
#[cfg(feature = "book")]
pub use registry::{Chapter, Exercise, Figure, Limit, Optional, Promise, Shown};
#[cfg(feature = "book")]
pub use snapshot::round_json;
pub use snapshot::{round_sig, short};

/// A chapter crate's registration, the last line of its `lib.rs`: writes `chapter()`,
/// the `Chapter` its modules make up — `exercises`, `figures`, `pages` and `practice`
/// (which the crate declares behind its `book` feature) and the live demos of its
/// `demos` module (declared without it: the WebAssembly build needs them).
///
/// ```ignore
/// pub mod demos;
/// #[cfg(feature = "book")]
/// pub mod exercises; // and figures, pages, practice
/// pbm_prelim::chapter!(id: "ode", number: 1, pages: "01-ode",
///     title: "Differential Equation Basics");
/// ```
#[macro_export]
macro_rules! chapter {
    (
        id: $id:literal,
        number: $number:literal,
        pages: $pages:literal,
        title: $title:literal $(,)?
    ) => {
        /// The chapter's registry entry: everything its pages show (exercises,
        /// figures, the runs and numbers quoted, timing tables, live demos, practice).
        #[cfg(feature = "book")]
        pub fn chapter() -> $crate::Chapter {
            $crate::Chapter {
                id: $id,
                number: $number,
                title: $title,
                pages: $pages,
                exercises: exercises::all(),
                figures: figures::all(),
                shown: pages::shown(),
                tables: pages::TABLES,
                demos: demos::DEMOS,
                practice: practice::TASKS,
            }
        }
    };
}
