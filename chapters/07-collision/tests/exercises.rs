//! Snapshots of every exercise's default result, and every parameter just outside
//! its range refused (both from `exercise_tests!`).

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

// The chapter's other tests, in one binary with the snapshots (one link, not one per file).
mod broad_phase;
mod narrow_phase;
mod polyhedra;

use pbm_collision::chapter;
use pbm_prelim::testing::{bound, bound_rows};
use serde_json::Value;

// The sweep table times three methods: the times and the slope fitted to them vary
// between machines, so the snapshot records only that they are positive; the broad
// phase's tests assert the pairs and the coherence counts themselves.
pbm_prelim::exercise_tests!(
    chapter,
    digits = 6,
    mask = |value: &mut Value| {
        bound_rows(value, &["sweep_ms", "resort_ms", "brute_ms"], |ms| ms > 0.0);
        bound(value, "fitted_slope", |s| s > 0.0);
    },
);

#[test]
fn collision_time_with_a_vanishing_drag_is_the_drag_free_one() {
    // The reference the methods are measured against must hold across the whole
    // range of `drag`, down to its zero lower bound, the subnormals and one float
    // above zero: there the drag-free collision time, and the methods' errors as
    // without drag.
    let run = |drag: &str| {
        pbm_prelim::testing::run(&chapter(), "toi", &["spin=0", drag]).unwrap()
    };
    let free = run("drag=0");
    for drag in ["drag=5e-324", "drag=1e-300", "drag=1e-50", "drag=1e-16"] {
        let slight = run(drag);
        let (t, t0) =
            (slight["exact_t"].as_f64().unwrap(), free["exact_t"].as_f64().unwrap());
        assert!((t - t0).abs() < 1e-12, "{drag}: exact_t {t}, drag-free {t0}");
        for (row, row0) in slight["rows"]
            .as_array()
            .unwrap()
            .iter()
            .zip(free["rows"].as_array().unwrap())
        {
            let (e, e0) = (
                row["time_error"].as_f64().unwrap(),
                row0["time_error"].as_f64().unwrap(),
            );
            assert!(
                (e - e0).abs() < 1e-12,
                "{drag}: {} off by {e}, not {e0}",
                row["method"]
            );
        }
    }
}
