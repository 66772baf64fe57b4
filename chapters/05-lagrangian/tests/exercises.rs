//! Snapshots of every exercise's default result, and the exercises' contracts.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

// The chapter's other tests, in one binary with the snapshots (one link, not one per file).
mod physics;

use pbm_lagrangian::chapter;
use pbm_prelim::PbmError;
use pbm_prelim::testing::{bound, bound_each};
use serde_json::Value;

pbm_prelim::exercise_tests!(
    chapter,
    digits = 4,
    mask = |value: &mut Value| {
        // Rounding-level numbers differ between machines; bounds are asserted below.
        let errors = [
            "max_radius_error",
            "max_distance_first_second",
            "relative_energy_drift",
        ];
        bound_each(value, &errors, |e| e < 1e-6);
        // When a chaotic system's two solutions part depends on the last bits of
        // both; the contract test below bounds it.
        bound(value, "separation_time", |t| t > 5.0 && t < 20.0);
        if let Some(obj) = value.as_object_mut() {
            obj.remove("final_distance");
        }
    },
);

#[test]
fn bead_stays_on_its_circle_to_rounding() {
    let v = run("bead", &[]).unwrap();
    assert!(v["max_radius_error"].as_f64().unwrap() <= 4.0 * f64::EPSILON, "{v}");
}

#[test]
fn compare_agrees_then_separates() {
    let v = run("compare", &[]).unwrap();
    assert!(v["max_distance_first_second"].as_f64().unwrap() < 1e-6, "{v}");
    let t = v["separation_time"].as_f64().expect("the two part within 20 s");
    assert!(t > 5.0 && t < 20.0, "{v}");
    // Too short a run to part: reported as null, not as a number.
    let short = run("compare", &["t_end=2"]).unwrap();
    assert!(short["separation_time"].is_null(), "{short}");
}

#[test]
fn bad_parameters_are_errors() {
    for (id, set) in [("bead", "h=0"), ("bead", "t_end=inf"), ("compare", "h=1")] {
        assert!(matches!(run(id, &[set]), Err(PbmError::Param(_))), "{id} {set}");
    }
}
