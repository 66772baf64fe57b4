//! Snapshots of every exercise's default result, and every parameter just outside
//! its range refused (both from `exercise_tests!`).

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

// The chapter's other tests, in one binary with the snapshots (one link, not one per file).
mod broad_phase;
mod narrow_phase;
mod polyhedra;

use pbm_collision::chapter;
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
