//! What can go wrong when `pbm` runs, and whose fault it is: the exit code says (2
//! for the reader's input, 1 for a computation or the machine), and the message says
//! what to do.

use pbm_prelim::params::quoted;
use pbm_prelim::{Fault, PbmError};
use std::io;
use std::path::PathBuf;

/// Everything the `pbm` binary can report.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An exercise id without a slash.
    #[error("expected CHAPTER/EXERCISE, got {} (see `pbm list`)", quoted(.0))]
    MalformedId(String),
    /// A chapter id that does not exist.
    #[error("unknown chapter {}; chapters: {known}", quoted(.name))]
    UnknownChapter {
        /// The id given.
        name: String,
        /// The chapter ids, comma separated.
        known: String,
    },
    /// An exercise id that does not exist in its chapter.
    #[error("unknown exercise {}; exercises: {known}", quoted(.name))]
    UnknownExercise {
        /// The id given.
        name: String,
        /// The chapter's exercise ids, comma separated.
        known: String,
    },
    /// A practice task id that does not exist.
    #[error("unknown practice task {}; tasks: {known}", quoted(.name))]
    UnknownTask {
        /// The id given.
        name: String,
        /// The task ids, comma separated.
        known: String,
    },
    /// A practice command that cannot go on (a task not started, a solution asked
    /// for before a try, a check that could not run).
    #[error("{0}")]
    Practice(String),
    /// A chapter's exercise failed: bad parameters, a solver, a model.
    #[error(transparent)]
    Chapter(#[from] PbmError),
    /// Figures that could not be drawn or written, one line each.
    #[error("{} figure(s) failed:\n{}", .0.len(), .0.join("\n"))]
    Figures(Vec<String>),
    /// A file that could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A file that could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// mdBook could not load or render the book.
    #[error("cannot build the book: {0}")]
    Book(String),

    /// A benchmark run that could not be recorded.
    #[error("cannot record the benchmarks: {0}")]
    Bench(String),
    /// Standard output could not be written (other than a closed pipe).
    #[error("cannot write the output: {0}")]
    Output(io::Error),
}

impl Error {
    /// The process exit code: 2 when the reader's input is at fault, 1 otherwise.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::MalformedId(_)
            | Error::UnknownChapter { .. }
            | Error::UnknownExercise { .. }
            | Error::UnknownTask { .. }
            | Error::Practice(_) => 2,
            Error::Chapter(e) => match e.fault() {
                Fault::Input => 2,
                Fault::Computation => 1,
            },
            Error::Figures(_)
            | Error::Read { .. }
            | Error::Write { .. }
            | Error::Book(_)
            | Error::Bench(_)
            | Error::Output(_) => 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_errors_exit_2_and_computation_errors_exit_1() {
        let solver = PbmError::Solver {
            solver: "conjugate gradient",
            iterations: 120,
            residual: 0.3,
            why: "no convergence to 1e-12".into(),
        };
        assert_eq!(Error::from(solver.at_step(50, 0.5)).exit_code(), 1);
        assert_eq!(
            Error::from(PbmError::Diverged { step: 3, time: 0.3 }).exit_code(),
            1
        );
        assert_eq!(
            Error::from(PbmError::degenerate("spring", "ends meet")).exit_code(),
            1
        );
        assert_eq!(
            Error::from(PbmError::invalid("particle", "mass = 0")).exit_code(),
            2
        );
        assert_eq!(Error::MalformedId("x".into()).exit_code(), 2);
        assert_eq!(Error::Book("no book.toml".into()).exit_code(), 1);
    }
}
