//! Snapshots of every exercise's default result, and bad input refused.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use pbm_collision::chapter;
use pbm_prelim::PbmError;
use pbm_prelim::testing::bound;
use serde_json::Value;

// The sweep table times three methods: the times and the slope fitted to them vary
// between machines, so the snapshot records only that they are positive; the broad
// phase's tests assert the pairs and the coherence counts themselves.
pbm_prelim::exercise_tests!(
    chapter,
    digits = 6,
    mask = |value: &mut Value| {
        if let Some(rows) = value.get_mut("rows").and_then(Value::as_array_mut) {
            for row in rows {
                for key in ["sweep_ms", "resort_ms", "brute_ms"] {
                    bound(row, key, |ms| ms > 0.0);
                }
            }
        }
        bound(value, "fitted_slope", |s| s > 0.0);
    },
);

#[test]
fn bad_parameters_are_errors_not_panics() {
    let chapter = chapter();
    for exercise in &chapter.exercises {
        // One past each declared float's range, and a value that is no number.
        for spec in &exercise.params {
            let too_big = match spec.kind {
                pbm_prelim::ParamKind::Float { max, .. } => {
                    format!("{}={}", spec.name, max * 2.0 + 1.0)
                }
                pbm_prelim::ParamKind::Int { max, .. } => {
                    format!("{}={}", spec.name, max + 1)
                }
                _ => format!("{}=not-a-value", spec.name),
            };
            match run(exercise.id, &[&too_big]) {
                Err(PbmError::Param(e)) => {
                    assert!(
                        e.to_string().contains("allowed")
                            || e.to_string().contains("cannot read"),
                        "{} {too_big}: {e}",
                        exercise.id
                    )
                }
                other => panic!(
                    "{} {too_big}: expected a parameter error, got {other:?}",
                    exercise.id
                ),
            }
        }
    }
    assert!(matches!(run("toi", &["nothing=1"]), Err(PbmError::Param(_))));
}
