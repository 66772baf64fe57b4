//! Snapshots of every exercise's default result, and bad input refused.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use pbm_contact::chapter;
use pbm_prelim::PbmError;
use pbm_prelim::testing::bound;
use serde_json::Value;

// Residuals at the level of rounding vary between platforms' last bits: the snapshot
// records that they are below their bound, the LCP tests assert the bound itself.
pbm_prelim::exercise_tests!(
    chapter,
    digits = 6,
    mask = |value: &mut Value| {
        bound(value, "max_complementarity_residual", |r| r < 1e-9);
        bound(value, "residual", |r| r < 1e-9);
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
    assert!(matches!(run("drop", &["nothing=1"]), Err(PbmError::Param(_))));
}
