//! Preliminaries: the vocabulary every chapter of pbm shares.
//!
//! Nothing here is physics. A chapter describes itself as a [`Chapter`]: its runnable
//! [`Exercise`]s (named, parameterised experiments that return JSON) and its [`Figure`]s
//! (functions that draw one SVG each). Exercise parameters are declared as [`ParamSpec`]s and
//! validated into [`Params`] before any physics runs, so bad input is an error, never a panic.
//! The [`plot`] module holds the shared figure style (an embedded font, a palette, sizes) and
//! [`snapshot`] the rounding that keeps insta snapshots stable across machines.

pub mod error;
pub mod params;
pub mod plot;
pub mod registry;
pub mod sampling;
pub mod snapshot;

pub use error::PbmError;
pub use params::{ParamError, ParamKind, ParamSpec, ParamValue, Params};
pub use registry::{Chapter, Exercise, Figure};
pub use snapshot::{round_json, round_sig};
