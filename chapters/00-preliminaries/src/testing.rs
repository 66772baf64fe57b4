//! What every chapter's exercise tests share: running an exercise by id, collecting
//! every exercise's default result for a snapshot (checking on the way that each
//! declared parameter is read), and replacing machine-dependent numbers by the bounds
//! the tests assert.

use crate::error::PbmError;
use crate::params::Params;
use crate::registry::Chapter;
use crate::snapshot::round_json;
use serde_json::Value;

/// Runs exercise `id` of `chapter` with `--set` style assignments.
pub fn run(chapter: &Chapter, id: &str, set: &[&str]) -> Result<Value, PbmError> {
    let exercise = chapter.exercise(id).ok_or_else(|| {
        PbmError::invalid("exercise", format!("{}/{id} does not exist", chapter.id))
    })?;
    exercise.run_with(chapter.id, set)
}

/// Every exercise of `chapter` run with its defaults, as (id, result). Fails if an
/// exercise fails, or if it declares a parameter it never reads (a knob that does
/// nothing).
pub fn default_results(
    chapter: &Chapter,
) -> Result<Vec<(&'static str, Value)>, PbmError> {
    // The exercises run on the thread pool (each gives the same bits on any number of
    // threads), in order of declaration in the result.
    crate::parallel::map_range(chapter.exercises.len(), |i| {
        let exercise = &chapter.exercises[i];
        let params = Params::defaults(&exercise.params);
        let value = (exercise.run)(&params)?;
        let unread = params.unread();
        if !unread.is_empty() {
            return Err(PbmError::invalid(
                "exercise",
                format!(
                    "{}/{} declares parameters it never reads: {}",
                    chapter.id,
                    exercise.id,
                    unread.join(", ")
                ),
            ));
        }
        Ok((exercise.id, value))
    })
    .into_iter()
    .collect()
}

/// [`default_results`], each passed with its id through `mask` (which replaces
/// machine-dependent numbers, usually with [`bound`]) and rounded to `digits`
/// significant digits: what a snapshot holds.
pub fn snapshot_values(
    chapter: &Chapter,
    digits: u32,
    mut mask: impl FnMut(&str, &mut Value),
) -> Result<Vec<(&'static str, Value)>, PbmError> {
    let mut results = default_results(chapter)?;
    for (id, value) in &mut results {
        mask(id, value);
        *value = round_json(value, digits);
    }
    Ok(results)
}

/// If `object` has a value at `key`, asserts that it is a number of which `holds`
/// is true, and replaces it by `true`: for numbers whose last digits vary between
/// machines (timings, rounding-level errors), the snapshot records that the bound
/// holds. A number outside its bound fails the test there and then, naming the key
/// and the number, rather than freezing a `false` into the snapshot that the next
/// run would match.
pub fn bound(object: &mut Value, key: &str, holds: impl Fn(f64) -> bool) {
    if let Some(v) = object.get_mut(key) {
        let held = v.as_f64().is_some_and(&holds);
        assert!(held, "`{key}` = {v} is outside the bound its snapshot asserts");
        *v = Value::Bool(true);
    }
}

/// [`bound`] for each of `keys` in `object`.
pub fn bound_each(object: &mut Value, keys: &[&str], holds: impl Fn(f64) -> bool) {
    for key in keys {
        bound(object, key, &holds);
    }
}

/// [`bound`] for each of `keys` in every row of a table, the array at `"rows"`.
pub fn bound_rows(object: &mut Value, keys: &[&str], holds: impl Fn(f64) -> bool) {
    if let Some(rows) = object.get_mut("rows").and_then(Value::as_array_mut) {
        for row in rows {
            bound_each(row, keys, &holds);
        }
    }
}

/// Whether `result` is a refusal as too much work, under any wrapping: what the tests
/// that pin an exercise's joint limits assert of a run just over them.
pub fn refused_as_too_much_work(result: &Result<Value, PbmError>) -> bool {
    matches!(
        result.as_ref().map_err(PbmError::cause),
        Err(PbmError::TooMuchWork { .. })
    )
}

/// For each parameter, an assignment just outside what it allows: above a number's
/// range (or below it, where the range reaches the largest float), a word for a flag,
/// a word no choice offers.
pub fn outside_ranges(params: &[crate::ParamSpec]) -> Vec<String> {
    use crate::ParamKind;
    params
        .iter()
        .map(|p| match &p.kind {
            ParamKind::Float { min, max, .. } if *max < f64::MAX / 4.0 => {
                format!("{}={}", p.name, max + max.abs().max(1.0))
            }
            ParamKind::Float { min, .. } => {
                format!("{}={}", p.name, min - min.abs().max(1.0))
            }
            ParamKind::Int { max, .. } => {
                format!("{}={}", p.name, max.saturating_add(1))
            }
            ParamKind::Bool { .. } => format!("{}=perhaps", p.name),
            ParamKind::Choice { .. } => format!("{}=no-such-choice", p.name),
        })
        .collect()
}

/// Writes, in a chapter's `tests/exercises.rs`, what every chapter's exercise tests
/// share: `run(id, set)`, which runs one of the chapter's exercises, and the test
/// `snapshots_of_default_results`, which snapshots every exercise's default result
/// through [`snapshot_values`] (masked by `mask`, rounded to `digits`). The mask is
/// `|value| …` for one mask for every exercise, or, written `mask_by_id`,
/// `|id, value| …` for bounds that differ between exercises. The calling crate
/// needs `insta` and `serde_json`.
#[macro_export]
macro_rules! exercise_tests {
    ($chapter:path, digits = $digits:expr, mask = $mask:expr $(,)?) => {
        $crate::exercise_tests!($chapter, digits = $digits, mask_by_id = {
            let mut mask = $mask;
            move |_: &str, value: &mut ::serde_json::Value| mask(value)
        });
    };
    ($chapter:path, digits = $digits:expr, mask_by_id = $mask:expr $(,)?) => {
        /// Runs one of the chapter's exercises with `--set` style assignments.
        fn run(
            id: &str,
            set: &[&str],
        ) -> ::std::result::Result<::serde_json::Value, $crate::PbmError> {
            $crate::testing::run(&$chapter(), id, set)
        }

        #[test]
        fn every_parameter_just_outside_its_range_is_refused() {
            let chapter = $chapter();
            for exercise in &chapter.exercises {
                for assignment in $crate::testing::outside_ranges(&exercise.params) {
                    match run(exercise.id, &[&assignment]) {
                        Err($crate::PbmError::Param(_)) => {}
                        other => panic!(
                            "{}/{} {assignment}: expected a parameter error, got {other:?}",
                            chapter.id, exercise.id
                        ),
                    }
                }
            }
        }

        #[test]
        fn snapshots_of_default_results() {
            let values =
                $crate::testing::snapshot_values(&$chapter(), $digits, $mask);
            for (id, value) in values.unwrap_or_else(|e| panic!("{e}")) {
                ::insta::assert_json_snapshot!(id, value);
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::ParamSpec;
    use crate::registry::Exercise;
    use serde_json::json;

    fn chapter(read_k: bool) -> Chapter {
        let exercise = Exercise {
            id: "x",
            summary: "a test exercise",
            params: vec![
                ParamSpec::positive("h", "step", "s", 0.5, 1.0),
                ParamSpec::positive("k", "stiffness", "N/m", 2.0, 10.0),
            ],
            // Written by hand rather than with `Exercise::new` (which reads every
            // field), to show that a parameter nobody reads is caught.
            run: if read_k {
                std::sync::Arc::new(|p: &crate::Params| {
                    Ok(
                        json!({"hk": p.f64("h")? * p.f64("k")?, "noise": 1.23456789e-17}),
                    )
                })
            } else {
                std::sync::Arc::new(|p: &crate::Params| Ok(json!({"h": p.f64("h")?})))
            },
            optional: &[],
            limits: Vec::new(),
            heavy: false,
            joint: &[],
            promises: &[],
        };
        Chapter {
            id: "test",
            number: 0,
            title: "Test",
            pages: "00-test",
            exercises: vec![exercise],
            figures: vec![],
            shown: vec![],
            tables: &[],
            demos: crate::demo::Demos::NONE,
            practice: &[],
        }
    }

    #[test]
    fn snapshots_mask_round_and_insist_every_parameter_is_read() {
        let values = snapshot_values(&chapter(true), 3, |_, v| {
            bound(v, "noise", |e| e < 1e-12)
        })
        .unwrap();
        assert_eq!(values, vec![("x", json!({"hk": 1.0, "noise": true}))]);
        let err = default_results(&chapter(false)).unwrap_err().to_string();
        assert!(
            err.contains("test/x declares parameters it never reads: k"),
            "{err}"
        );
        assert_eq!(run(&chapter(true), "x", &["k=4"]).unwrap()["hk"], 2.0);
        assert!(run(&chapter(true), "y", &[]).is_err());
    }

    #[test]
    #[should_panic(expected = "`noise` = 1.23456789e-17 is outside the bound")]
    fn a_number_outside_its_snapshot_bound_fails_instead_of_freezing_false() {
        let _ =
            snapshot_values(&chapter(true), 3, |_, v| bound(v, "noise", |e| e < 0.0));
    }
}
