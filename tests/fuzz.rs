//! The reader as an adversary. Every exercise is run with parameters drawn inside its
//! declared ranges (log-uniform where a range spans decades, uniform otherwise, and
//! both ends of every range), and with values drawn outside them. A declared range is
//! a promise:
//!
//! - inside it, a run finishes within its time budget with finite numbers (a `null`
//!   only at a field the exercise declares optional), or it stops with one line that
//!   names a parameter the reader set: diverged at a stated step (never refused as
//!   too much work: the draws stay inside the joint limits `pbm list` prints, and a
//!   quarter of them sit on a limit's edge, where an estimate that counts otherwise
//!   than its words would refuse);
//! - outside it, the value is refused in one line naming the parameter, with the
//!   input fault that makes `pbm` exit with code 2.
//!
//! `PBM_FUZZ_CASES` sets the number of in-range cases over all exercises (default: one
//! per exercise, so that `cargo test` stays quick; CI runs 2,000 in release). The time
//! budget is asserted only in optimized builds, where "a few seconds" means something.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use pbm_prelim::params::next_up;
use pbm_prelim::{Exercise, Fault, ParamKind, ParamSpec, PbmError};
use proptest::prelude::*;
use proptest::test_runner::{
    Config, RngAlgorithm, TestCaseError, TestRng, TestRunner,
};
use serde_json::Value;
use std::cell::{Cell, RefCell};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The longest an in-range run may take in an optimized build. Exercises aim at "a few
/// seconds": their limits are set near 2.5 s on one core of the book's machine (the
/// cloth's near 3.5 s, the XPBD sheet's near 3 s), and the two in-range tests run at
/// once, a core each; the margin is for a slower or busier CI machine.
const TIME_LIMIT: Duration = Duration::from_secs(10);

fn every_exercise() -> Vec<(&'static str, Exercise)> {
    pbm::chapters()
        .into_iter()
        .flat_map(|c| {
            let id = c.id;
            c.exercises.into_iter().map(move |e| (id, e))
        })
        .collect()
}

fn total_cases(exercises: usize) -> usize {
    match std::env::var("PBM_FUZZ_CASES") {
        Ok(text) => text.trim().parse().unwrap_or_else(|_| {
            panic!("PBM_FUZZ_CASES = {text:?} is not a whole number")
        }),
        Err(_) => exercises,
    }
}

/// The same cases on every run, so that CI is repeatable, but different cases for each
/// exercise and parameter (the seed is a hash of `name`); a failure prints the
/// (shrunk) assignments that reproduce it.
fn runner(cases: usize, name: &str) -> TestRunner {
    let config = Config {
        cases: cases as u32,
        failure_persistence: None,
        max_shrink_iters: 64,
        ..Config::default()
    };
    // FNV-1a, spread over the 32 bytes of a ChaCha seed.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut seed = [0u8; 32];
    for (i, byte) in name.bytes().chain(0..32).enumerate() {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        seed[i % 32] ^= hash.to_le_bytes()[i % 8];
    }
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &seed))
}

/// How a float is written on the command line: `{:e}` round-trips and stays short
/// (`1e-300`, not three hundred zeros).
fn float_text(x: f64) -> String {
    format!("{x:e}")
}

/// `exp` of a uniform draw between `ln lo` and `ln hi` (both positive).
fn log_uniform(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    (0.0..=1.0f64)
        .prop_map(move |u| (lo.ln() + u * (hi.ln() - lo.ln())).exp().min(hi))
}

/// A value inside the declared range of `spec`, as the reader would type it.
fn inside(spec: &ParamSpec) -> BoxedStrategy<String> {
    match spec.kind.clone() {
        ParamKind::Float { min, max, min_exclusive, .. } => {
            // The smallest admitted value: `min`, or the next float above it.
            let low = if min_exclusive { next_up(min) } else { min };
            let uniform = (0.0..=1.0f64)
                .prop_map(move |u| (min + u * (max - min)).clamp(low, max))
                .boxed();
            let spread = if min > 0.0 && max / min > 100.0 {
                log_uniform(min, max).prop_map(move |x| x.clamp(low, max)).boxed()
            } else if max > 0.0 && min <= 0.0 {
                // Every decade from the top down to the smallest float, of either
                // sign where both are allowed (a reference that fails only at 1e-300
                // is wrong there too).
                let negative = min < 0.0;
                (log_uniform(f64::from_bits(1), max), any::<bool>())
                    .prop_map(move |(x, flip)| {
                        let x = if negative && flip { -x } else { x };
                        x.clamp(low, max)
                    })
                    .boxed()
            } else {
                uniform.clone()
            };
            prop_oneof![
                1 => Just(low),
                1 => Just(next_up(low).min(max)),
                1 => Just(max),
                2 => uniform,
                4 => spread,
            ]
            .prop_map(float_text)
            .boxed()
        }
        ParamKind::Int { min, max, .. } => {
            let uniform = (min..=max).boxed();
            let spread = if max / min.max(1) > 100 {
                log_uniform(min.max(1) as f64, max as f64)
                    .prop_map(move |x| (x.round() as u64).clamp(min, max))
                    .boxed()
            } else {
                uniform.clone()
            };
            prop_oneof![1 => Just(min), 1 => Just(max), 2 => uniform, 4 => spread]
                .prop_map(|n| n.to_string())
                .boxed()
        }
        ParamKind::Bool { .. } => {
            prop::sample::select(vec!["true", "false", "yes", "no", "1", "0"])
                .prop_map(str::to_string)
                .boxed()
        }
        ParamKind::Choice { options, .. } => {
            prop::sample::select(options).prop_map(str::to_string).boxed()
        }
    }
}

/// A value a hostile or careless reader might type that `spec` must refuse (draws
/// that happen to be valid are discarded by the test).
fn outside(spec: &ParamSpec) -> BoxedStrategy<String> {
    let junk = prop_oneof![
        Just(String::new()),
        Just("NaN".to_string()),
        Just("inf".to_string()),
        Just("-inf".to_string()),
        Just("1e-400".to_string()),
        Just("0x10".to_string()),
        Just("1,5".to_string()),
        Just("lots".to_string()),
        Just("9".repeat(100_000)),
        Just("1\n2".to_string()),
        "\\PC{0,30}",
    ];
    let specific = match spec.kind.clone() {
        ParamKind::Float { min, max, min_exclusive, .. } => {
            let below =
                if min_exclusive { Just(min).boxed() } else { Just(-1e300).boxed() };
            let width = (max - min).max(1.0);
            prop_oneof![
                below,
                (1e-9..1e6f64).prop_map(move |u| min - u * width),
                (1e-9..1e6f64).prop_map(move |u| max + u * width),
                Just(f64::MAX),
            ]
            .prop_map(float_text)
            .boxed()
        }
        ParamKind::Int { min, max, .. } => prop_oneof![
            Just("-1".to_string()),
            Just("2.5".to_string()),
            Just("1e3".to_string()),
            Just(u64::MAX.to_string() + "0"),
            (max.saturating_add(1)..=max.saturating_mul(10).max(max + 1))
                .prop_map(|n| n.to_string()),
            Just(min.saturating_sub(1).to_string()),
        ]
        .boxed(),
        ParamKind::Bool { .. } => prop_oneof![
            Just("maybe".to_string()),
            Just("2".to_string()),
            Just("TRUE!".to_string()),
        ]
        .boxed(),
        ParamKind::Choice { options, .. } => prop::sample::select(options)
            .prop_map(|o| format!("{}x", o.to_uppercase()))
            .boxed(),
    };
    prop_oneof![1 => junk, 2 => specific].boxed()
}

/// Each parameter either left at its default or set to a value inside its range.
fn assignments(specs: &[ParamSpec]) -> BoxedStrategy<Vec<String>> {
    let per_param: Vec<_> = specs
        .iter()
        .map(|spec| {
            let name = spec.name;
            prop::option::weighted(
                0.7,
                inside(spec).prop_map(move |v| format!("{name}={v}")),
            )
        })
        .collect();
    per_param.prop_map(|set| set.into_iter().flatten().collect()).boxed()
}

/// `set` with one numeric parameter (the `pick`th) moved to the edge of what the joint
/// limits admit with the others as drawn, toward its range's end (`up`) or start:
/// the last admitted value, exactly at a limit where the limit cuts the range, or the
/// range's own end. A declared limit is a promise up to its last value, which is
/// where an estimate that counts differently from its words shows.
fn at_an_edge(
    exercise: &Exercise,
    set: Vec<String>,
    pick: prop::sample::Index,
    up: bool,
) -> Vec<String> {
    let numeric: Vec<&ParamSpec> = exercise
        .params
        .iter()
        .filter(|p| matches!(p.kind, ParamKind::Float { .. } | ParamKind::Int { .. }))
        .collect();
    if numeric.is_empty() {
        return set;
    }
    let spec = numeric[pick.index(numeric.len())];
    let Some((lo, hi)) = exercise.reach_from(&set, spec) else {
        return set;
    };
    let text = spec.text_of(if up { hi } else { lo });
    let prefix = format!("{}=", spec.name);
    let mut moved: Vec<String> =
        set.into_iter().filter(|a| !a.starts_with(&prefix)).collect();
    moved.push(format!("{prefix}{text}"));
    moved
}

/// Whether a run with `set` is inside `exercise`'s joint limits: the fuzz test draws
/// inside them, as it draws inside each parameter's range, for a declared limit is
/// part of the promise (`pbm list` prints it).
fn within_limits(exercise: &Exercise, set: &[String]) -> bool {
    exercise.admit("fuzz", set).is_ok()
}

/// The error inside the context `run_with` adds when the reader set parameters.
fn innermost(error: &PbmError) -> &PbmError {
    match error {
        PbmError::InRun { source, .. } => innermost(source),
        other => other,
    }
}

/// The top-level fields `exercise` may leave `null`, and any `null` elsewhere.
fn stray_null(exercise: &Exercise, value: &Value, path: &str) -> Option<String> {
    match value {
        Value::Null => {
            let top = path.trim_start_matches('/');
            let optional = exercise.optional.iter().any(|o| o.field == top);
            (!optional).then(|| path.to_string())
        }
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, v)| stray_null(exercise, v, &format!("{path}/{i}"))),
        Value::Object(map) => map
            .iter()
            .find_map(|(k, v)| stray_null(exercise, v, &format!("{path}/{k}"))),
        Value::Number(n) if !n.as_f64().is_some_and(f64::is_finite) => {
            Some(path.to_string())
        }
        _ => None,
    }
}

/// What one in-range run did, for the summary.
#[derive(Default)]
struct Tally {
    finished: usize,
    diverged: usize,
    slowest: (Duration, String),
}

/// How long a case may run before the watchdog gives up on it: the time limit in an
/// optimized build, ten times it otherwise (a hang still fails, in minutes, not never).
fn deadline() -> Duration {
    if cfg!(debug_assertions) { 10 * TIME_LIMIT } else { TIME_LIMIT }
}

/// Runs the case on a thread of its own and waits at most `deadline` for it, so that a
/// run that never returns fails the test with its command instead of blocking it (the
/// thread is left behind; the test process ends with the failure).
///
/// The run gets a one-thread pool of its own. In rayon's global pool, shared by the
/// fuzz tests running side by side, a run's many short parallel calls can each wait
/// behind a long task the other test's run holds a worker with (a cloth run that
/// takes 1.9 s alone was once stopped there at 10 s); and one thread is what the
/// limits are calibrated on.
fn run_watched(
    chapter: &'static str,
    exercise: &Exercise,
    set: &[String],
    deadline: Duration,
) -> Option<Result<Value, PbmError>> {
    let (send, receive) = mpsc::channel();
    let (exercise, set) = (exercise.clone(), set.to_vec());
    std::thread::spawn(move || {
        let result = match rayon::ThreadPoolBuilder::new().num_threads(1).build() {
            Ok(pool) => pool.install(|| exercise.run_with(chapter, &set)),
            Err(e) => {
                Err(PbmError::invalid("fuzz case", format!("no thread pool: {e}")))
            }
        };
        let _ = send.send(result);
    });
    receive.recv_timeout(deadline).ok()
}

#[test]
fn the_watchdog_gives_up_on_a_run_that_does_not_return() {
    let sleeper = |pause: Duration| Exercise {
        id: "sleeper",
        summary: "sleeps",
        params: Vec::new(),
        run: std::sync::Arc::new(move |_| {
            std::thread::sleep(pause);
            Ok(serde_json::json!({}))
        }),
        optional: &[],
        limits: Vec::new(),
        heavy: false,
        joint: &[],
        promises: &[],
    };
    let limit = Duration::from_millis(50);
    let hung = run_watched("test", &sleeper(Duration::from_secs(3600)), &[], limit);
    assert!(hung.is_none());
    let quick = run_watched("test", &sleeper(Duration::ZERO), &[], limit);
    assert!(matches!(quick, Some(Ok(_))));
}

fn check_inside(
    chapter: &'static str,
    exercise: &Exercise,
    set: &[String],
    tally: &mut Tally,
) -> Result<(), TestCaseError> {
    let command = format!("pbm run {chapter}/{} {}", exercise.id, set.join(" "));
    let start = Instant::now();
    let Some(result) = run_watched(chapter, exercise, set, deadline()) else {
        return Err(TestCaseError::fail(format!(
            "{command} did not finish within {:.0?}: a hang",
            deadline()
        )));
    };
    let elapsed = start.elapsed();
    if elapsed > tally.slowest.0 {
        tally.slowest = (elapsed, command.clone());
    }
    if !cfg!(debug_assertions) {
        prop_assert!(elapsed < TIME_LIMIT, "{command} took {elapsed:.1?}");
    }
    match result {
        Ok(value) => {
            let null = stray_null(exercise, &value, "");
            prop_assert!(null.is_none(), "{command}: no finite number at {null:?}");
            tally.finished += 1;
        }
        Err(error) => {
            let text = error.to_string();
            prop_assert!(!text.contains('\n'), "{command}: a two-line error: {text}");
            prop_assert!(text.len() < 600, "{command}: a {}-byte error", text.len());
            let names_one = set.iter().any(|a| {
                let name = a.split('=').next().unwrap();
                text.contains(&format!("{name}="))
            });
            prop_assert!(
                set.is_empty() || names_one,
                "{command}: the error names none of the reader's parameters: {text}"
            );
            match innermost(&error) {
                // Inside the declared ranges and limits, and at their edges, a
                // refusal is a limit the exercise did not declare, or one that
                // counts differently from its words.
                PbmError::TooMuchWork { .. } => {
                    return Err(TestCaseError::fail(format!(
                        "{command}: refused inside the declared ranges and joint limits: {text}"
                    )));
                }
                // A run that finished with a measure of its own accuracy beyond
                // what its page calls right (a pin metres off).
                PbmError::Broken { .. } => {
                    return Err(TestCaseError::fail(format!(
                        "{command}: a wrong answer: {text}"
                    )));
                }
                PbmError::AtStep { .. } | PbmError::Diverged { .. } => {
                    tally.diverged += 1
                }
                other => {
                    return Err(TestCaseError::fail(format!(
                        "{command}: a value inside the declared ranges was refused: {other}"
                    )));
                }
            }
        }
    }
    Ok(())
}

// The cases inside the ranges are most of the test's time: four tests share them, every
// fourth exercise each, so that the test harness keeps both of its threads busy until the
// end (two halves of unequal cost left one thread idle for seconds).
const PARTS: usize = 4;

#[test]
fn values_inside_the_declared_ranges_run_within_budget_or_say_why_in_one_line() {
    inside_the_ranges(0);
}

#[test]
fn the_same_holds_for_a_second_quarter_of_the_exercises() {
    inside_the_ranges(1);
}

#[test]
fn the_same_holds_for_a_third_quarter_of_the_exercises() {
    inside_the_ranges(2);
}

#[test]
fn the_same_holds_for_the_last_quarter_of_the_exercises() {
    inside_the_ranges(3);
}

/// Draws cases inside the ranges and the joint limits of every [`PARTS`]th exercise,
/// starting with the `first`.
fn inside_the_ranges(first: usize) {
    let exercises = every_exercise();
    let total = total_cases(exercises.len());
    let per_exercise = total.div_ceil(exercises.len()).max(1);
    for (chapter, exercise) in exercises.iter().skip(first).step_by(PARTS) {
        // The runner takes an `Fn`, hence the cell.
        let tally = RefCell::new(Tally::default());
        let drawn_outside = Cell::new(0_usize);
        let outside = &drawn_outside;
        let mut runner = runner(per_exercise, &format!("{chapter}/{}", exercise.id));
        // Half the cases as drawn, a quarter each with one parameter moved to the
        // low or the high edge of what the limits admit.
        let inside = (
            assignments(&exercise.params).prop_filter(
                "inside the joint limits",
                move |set| {
                    let within = within_limits(exercise, set);
                    outside.set(outside.get() + usize::from(!within));
                    within
                },
            ),
            any::<prop::sample::Index>(),
            0..4u8,
        )
            .prop_map(move |(set, pick, mode)| match mode {
                0 => at_an_edge(exercise, set, pick, false),
                1 => at_an_edge(exercise, set, pick, true),
                _ => set,
            });
        let result = runner.run(&inside, |set| {
            check_inside(chapter, exercise, &set, &mut tally.borrow_mut())
        });
        let tally = tally.into_inner();
        if let Err(failure) = result {
            panic!("{chapter}/{}: {failure}", exercise.id);
        }
        let line = format!(
            "{chapter}/{}: {} finished, {} diverged, \
             {} drawn outside the joint limits and drawn again; slowest {:.2?} ({})",
            exercise.id,
            tally.finished,
            tally.diverged,
            drawn_outside.get(),
            tally.slowest.0,
            tally.slowest.1
        );
        eprintln!("{line}");
    }
}

#[test]
fn values_outside_the_declared_ranges_are_refused_in_one_line() {
    let exercises = every_exercise();
    for (chapter, exercise) in &exercises {
        for spec in &exercise.params {
            let mut runner =
                runner(24, &format!("{chapter}/{} {}", exercise.id, spec.name));
            let result = runner.run(&outside(spec), |text| {
                // A draw the parameter happens to accept is not an out-of-range case.
                prop_assume!(spec.parse(&text).is_err());
                let set = [format!("{}={text}", spec.name)];
                let what = format!("{chapter}/{} --set {:.60}", exercise.id, set[0]);
                let Err(error) = exercise.run_with(chapter, &set) else {
                    return Err(TestCaseError::fail(format!("{what}: accepted")));
                };
                let message = error.to_string();
                prop_assert!(
                    matches!(error, PbmError::Param(_)),
                    "{what}: {message}"
                );
                prop_assert_eq!(error.fault(), Fault::Input);
                prop_assert!(
                    !message.contains('\n'),
                    "{}: two lines: {}",
                    what,
                    message
                );
                prop_assert!(message.len() < 400, "{what}: {} bytes", message.len());
                prop_assert!(
                    message.contains(&format!("`{}`", spec.name)),
                    "{what}: the message does not name the parameter: {message}"
                );
                Ok(())
            });
            if let Err(failure) = result {
                panic!("{chapter}/{} {}: {failure}", exercise.id, spec.name);
            }
        }
    }
}
