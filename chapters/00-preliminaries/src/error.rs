//! The error type shared by chapters: bad parameters, invalid models, diverged simulations and
//! figures that could not be drawn.

use crate::params::ParamError;

/// Everything that can go wrong when a chapter runs an exercise or draws a figure.
#[derive(Debug, thiserror::Error)]
pub enum PbmError {
    /// An exercise parameter was unknown, unparsable or out of range.
    #[error(transparent)]
    Param(#[from] ParamError),
    /// A model or solver was constructed with values that make no physical sense.
    #[error("invalid {what}: {why}")]
    Invalid {
        /// What was being constructed, e.g. "step size".
        what: &'static str,
        /// Why it was rejected, naming what is allowed.
        why: String,
    },
    /// A simulation produced a non-finite state.
    #[error(
        "simulation diverged at step {step} (t = {time}): the state is no longer finite"
    )]
    Diverged {
        /// Index of the first step whose result was not finite.
        step: usize,
        /// Simulation time at the start of that step.
        time: f64,
    },
    /// A figure could not be drawn.
    #[error("figure {name}: {why}")]
    Figure {
        /// The figure's name.
        name: String,
        /// What failed.
        why: String,
    },
}

impl PbmError {
    /// Shorthand for [`PbmError::Invalid`].
    pub fn invalid(what: &'static str, why: impl Into<String>) -> Self {
        PbmError::Invalid { what, why: why.into() }
    }
}
