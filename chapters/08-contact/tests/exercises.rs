//! Snapshots of every exercise's default result, and every parameter just outside
//! its range refused (both from `exercise_tests!`).

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

// The chapter's other tests, in one binary with the snapshots (one link, not one per file).
mod lcp;
mod rolling;
mod world;

use pbm_contact::chapter;
use pbm_prelim::testing::{bound, bound_rows};
use serde_json::Value;

// Residuals at the level of rounding vary between platforms' last bits: the snapshot
// records that they are below their bound, the LCP tests assert the bound itself.
pbm_prelim::exercise_tests!(
    chapter,
    digits = 6,
    mask = |value: &mut Value| {
        bound(value, "max_complementarity_residual", |r| r < 1e-9);
        bound(value, "residual", |r| r < 1e-9);
        bound(value, "ms_per_step", |ms| ms > 0.0);
        bound_rows(value, &["ms_per_step"], |ms| ms > 0.0);
        bound(value, "search_share_of_step", |x| (0.0..1.0).contains(&x));
    },
);
