//! Snapshots of every exercise's default result, and every parameter just outside
//! its range refused (both from `exercise_tests!`).

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

// The chapter's other tests, in one binary with the snapshots (one link, not one per file).
mod cloth;
mod derivatives;
mod strand;

use pbm_cloth::chapter;
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
