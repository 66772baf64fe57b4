//! The error type shared by chapters. Every error says whose fault it is: the
//! reader's input (an unknown name, a value out of range, a model built from
//! impossible values) or the computation (a solver that did not converge, a model
//! that degenerated, a simulation that blew up). The command line exits with 2 for
//! the first kind and 1 for the second.

use crate::params::ParamError;
use crate::snapshot::{round_sig, short};

/// Everything that can go wrong when a chapter runs an exercise or draws a figure.
#[derive(Debug, thiserror::Error)]
pub enum PbmError {
    // ANCHOR: error_input
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
    /// A run that would take far longer than the few seconds an exercise promises;
    /// it is refused before it starts (see [`crate::budget`]).
    #[error("{}", too_much(*work, unit, *limit, change))]
    TooMuchWork {
        /// The estimated work, in `unit`s.
        work: f64,
        /// What is counted, e.g. "particle-steps".
        unit: &'static str,
        /// The most the exercise accepts.
        limit: f64,
        /// Which parameters to change, and which way.
        change: &'static str,
    },
    // ANCHOR_END: error_input
    // ANCHOR: error_computation
    /// An iterative solver gave up: it names itself, how far it got and why it
    /// stopped.
    #[error(
        "{solver} failed after {iterations} iterations (relative residual {}): {why}",
        short(*residual)
    )]
    Solver {
        /// The solver, e.g. "conjugate gradient".
        solver: &'static str,
        /// Iterations taken before it stopped.
        iterations: usize,
        /// ‖b − A x‖ / ‖b‖ when it stopped.
        residual: f64,
        /// Why it stopped: no convergence, or a matrix that is not what it needs.
        why: String,
    },
    /// A model reached a state where its equations have no unique answer: coincident
    /// spring ends, a singular matrix, a parametrisation that folds over.
    #[error("degenerate {what}: {why}")]
    Degenerate {
        /// What degenerated, e.g. "spring".
        what: &'static str,
        /// What happened.
        why: String,
    },
    /// A simulation produced a non-finite state.
    #[error(
        "simulation diverged at step {step} (t = {} s): the state is no longer \
         finite",
        short(*time)
    )]
    Diverged {
        /// Index of the first step whose result was not finite.
        step: usize,
        /// Simulation time at the start of that step.
        time: f64,
    },
    // ANCHOR_END: error_computation
    /// Something failed inside a step of a simulation: the step and time say where.
    #[error("at step {step} (t = {} s): {source}", short(*time))]
    AtStep {
        /// Index of the step that failed.
        step: usize,
        /// Simulation time at the start of that step.
        time: f64,
        /// What failed.
        source: Box<PbmError>,
    },
    /// A result that should be a number is not finite (JSON has no infinity; writing
    /// `null` would hide it).
    #[error("the result `{field}` is not a finite number")]
    NotFinite {
        /// Where in the result, as a JSON pointer without the leading slash.
        field: String,
    },
    /// A run finished, but a measure of its own accuracy is outside what its page
    /// calls right ([`crate::registry::Promise`]): a wrong answer is reported like a
    /// diverged run, never printed as a result.
    #[error(
        "the run finished, but its {measure} came to {}, more than the {} it promises: {says}",
        short(*value),
        short(*bound)
    )]
    Broken {
        /// The measure, as the result names it (with what it is relative to).
        measure: String,
        /// Its value.
        value: f64,
        /// The largest value the page calls right.
        bound: f64,
        /// The promise in the page's words.
        says: &'static str,
    },
    /// An exercise failed; says which, and with which parameters the reader set.
    #[error("{source} ({exercise} with {set})")]
    InRun {
        /// The exercise, `chapter/id`.
        exercise: String,
        /// The reader's `--set` values, `key=value` separated by spaces.
        set: String,
        /// What failed.
        source: Box<PbmError>,
    },
    /// A figure could not be drawn.
    /// The book build names the figure (its registry entry) when it reports this.
    #[error("cannot draw the figure: {why}")]
    Figure {
        /// What failed.
        why: String,
    },
}

/// Whose fault an error is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// The reader's input: fix the parameters (exit code 2).
    Input,
    /// The computation: a solver, a model or a simulation failed (exit code 1).
    Computation,
}

impl PbmError {
    /// Shorthand for [`PbmError::Invalid`].
    pub fn invalid(what: &'static str, why: impl Into<String>) -> Self {
        PbmError::Invalid { what, why: why.into() }
    }

    /// Shorthand for [`PbmError::Degenerate`].
    pub fn degenerate(what: &'static str, why: impl Into<String>) -> Self {
        PbmError::Degenerate { what, why: why.into() }
    }

    // ANCHOR: fault
    /// Whose fault it is. An error inside a step is the fault of what failed there.
    pub fn fault(&self) -> Fault {
        match self {
            PbmError::Param(_)
            | PbmError::Invalid { .. }
            | PbmError::TooMuchWork { .. } => Fault::Input,
            PbmError::AtStep { source, .. } | PbmError::InRun { source, .. } => {
                source.fault()
            }
            PbmError::NotFinite { .. } => Fault::Computation,
            PbmError::Solver { .. }
            | PbmError::Degenerate { .. }
            | PbmError::Diverged { .. }
            | PbmError::Broken { .. }
            | PbmError::Figure { .. } => Fault::Computation,
        }
    }
    // ANCHOR_END: fault

    /// The same error, saying that it happened in step `step`, which started at
    /// `time`. An error that already names its step is returned as it is: the
    /// innermost step is the one that knows where it failed.
    pub fn at_step(self, step: usize, time: f64) -> Self {
        match self {
            PbmError::AtStep { .. } | PbmError::Diverged { .. } => self,
            other => PbmError::AtStep { step, time, source: Box::new(other) },
        }
    }

    /// The error a step reports, with any [`PbmError::AtStep`] or
    /// [`PbmError::InRun`] wrapping removed.
    pub fn cause(&self) -> &PbmError {
        match self {
            PbmError::AtStep { source, .. } | PbmError::InRun { source, .. } => {
                source.cause()
            }
            other => other,
        }
    }
}

/// The most work a refusal states as a number: beyond it a run never ends (a step
/// thousands of orders of magnitude too small), and "about 1e202" says no more.
const WORK_SHOWN: f64 = 1e15;

/// The refusal of `work` over `limit`: "this run needs about 2.52 estimated
/// seconds, more than the 2.5 …", to two significant digits or as many more as it takes
/// to show the work above the limit (20000000.5 against 2e7, never "2e7, more than the
/// 2e7"), or, for work that never ends, that it would never finish.
fn too_much(work: f64, unit: &str, limit: f64, change: &str) -> String {
    let limit_shown = short(limit);
    if work.is_nan() || work > WORK_SHOWN {
        return format!(
            "this run would never finish: it needs over {} {unit}, against the \
             {limit_shown} that finish in a few seconds; {change}",
            short(WORK_SHOWN)
        );
    }
    let shown = (2..=6)
        .map(|digits| round_sig(work, digits))
        .find(|w| *w > limit)
        .map_or_else(|| work.to_string(), short);
    format!(
        "this run needs about {shown} {unit}, more than the {limit_shown} that finish \
         in a few seconds; {change}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_inside_a_step_names_the_step_the_time_and_the_solver() {
        let cg = PbmError::Solver {
            solver: "conjugate gradient",
            iterations: 3,
            residual: 2.0999999e-3,
            why: "no convergence to 1e-12".into(),
        };
        let err = cg.at_step(412, 4.12);
        assert_eq!(
            err.to_string(),
            "at step 412 (t = 4.12 s): conjugate gradient failed after 3 iterations \
             (relative residual 0.0021): no convergence to 1e-12"
        );
        assert_eq!(err.fault(), Fault::Computation);
        assert!(matches!(err.cause(), PbmError::Solver { iterations: 3, .. }));
        // Wrapping twice keeps the innermost step.
        let again = err.at_step(7, 0.07);
        assert!(again.to_string().starts_with("at step 412"), "{again}");
    }

    #[test]
    fn input_errors_stay_input_errors_inside_a_step() {
        let err = PbmError::invalid("step size", "h = 0").at_step(3, 0.3);
        assert_eq!(err.fault(), Fault::Input);
        let diverged = PbmError::Diverged { step: 9, time: 0.9 }.at_step(1, 0.1);
        assert!(matches!(diverged, PbmError::Diverged { step: 9, .. }));
    }

    #[test]
    fn too_much_work_shows_the_work_above_the_limit() {
        let refuse = |work, limit| {
            PbmError::TooMuchWork {
                work,
                unit: "steps",
                limit,
                change: "lower t_end",
            }
            .to_string()
        };
        assert!(refuse(2.52, 2.5).contains("about 2.52 steps, more than the 2.5 "));
        // Closer than six digits: every digit, never "2e7, more than the 2e7".
        let close = refuse(20_000_000.5, 2e7);
        assert!(
            close.contains("about 20000000.5 steps, more than the 2e7 "),
            "{close}"
        );
        // A run that never ends is not given a number of steps.
        for never in [f64::INFINITY, 1e202] {
            let said = refuse(never, 2e7);
            assert!(
                said.contains("would never finish: it needs over 1e15 steps"),
                "{said}"
            );
        }
        assert!(
            refuse(3.14159e7, 1.2e7).contains("about 3.1e7 steps"),
            "{}",
            refuse(3.14159e7, 1.2e7)
        );
        assert!(refuse(1.20004e7, 1.2e7).contains("about 1.20004e7 steps"));
    }
}
