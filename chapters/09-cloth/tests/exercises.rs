//! Snapshots of every exercise's default result, and bad input refused.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use pbm_cloth::chapter;
use pbm_prelim::PbmError;
use pbm_prelim::testing::bound;
use serde_json::Value;

// The drape reports its wall-clock time per step, which varies between machines, and
// energies and derivative errors at the level of rounding vary in their last bits:
// the snapshot records that each is within its bound (the cloth tests assert the
// bounds themselves).
pbm_prelim::exercise_tests!(
    chapter,
    digits = 6,
    mask = |value: &mut Value| {
        bound(value, "ms_per_step", |ms| ms > 0.0);
        bound(value, "kinetic_energy_at_end_j", |e| e < 1e-20);
        bound(value, "max_gradient_error", |e| e < 1e-6);
        bound(value, "max_hessian_error", |e| e < 1e-6);
        if let Some(energy) = value.get_mut("energy_at_end_j") {
            bound(energy, "kinetic", |e| e < 1e-9);
        }
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
    assert!(matches!(run("drape", &["nothing=1"]), Err(PbmError::Param(_))));
}
