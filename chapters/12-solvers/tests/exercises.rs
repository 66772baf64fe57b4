//! Snapshots of every exercise's default result, and the solvers' physics.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

// The chapter's other tests, in one binary with the snapshots (one link, not one per file).
mod physics;

use pbm_prelim::testing::bound;
use pbm_solvers::chapter;
use serde_json::Value;

/// Every `ms_per_step` anywhere in `value` asserted positive: the machine's.
fn mask_timings(value: &mut Value) {
    bound(value, "ms_per_step", |t| t > 0.0);
    match value {
        Value::Object(map) => map.values_mut().for_each(mask_timings),
        Value::Array(rows) => rows.iter_mut().for_each(mask_timings),
        _ => {}
    }
}

// Wall-clock time is the machine's; everything else is the same on every machine to
// the digits kept.
pbm_prelim::exercise_tests!(chapter, digits = 4, mask = mask_timings);

fn num(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("{key} missing from {v}"))
}

#[test]
fn the_soft_step_pyramid_of_base_20_stands_for_ten_seconds() {
    let v = run("pyramid", &["solver=soft-step", "base=20"]).unwrap();
    assert_eq!(v["stands"], Value::Bool(true), "{v}");
    assert!(num(&v, "top_drift_m") < 0.01, "{v}");
}

#[test]
fn the_softness_exercise_matches_implicit_euler() {
    let v = run("softness", &[]).unwrap();
    let (soft, implicit) =
        (num(&v, "soft_velocity_m_s"), num(&v, "implicit_euler_velocity_m_s"));
    assert!((soft - implicit).abs() < 1e-12, "{v}");
}
