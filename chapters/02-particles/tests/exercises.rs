//! Snapshots of every exercise's default result, and the exercises' contracts.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

// The chapter's other tests, in one binary with the snapshots (one link, not one per file).
mod physics;

use pbm_particles::chapter;
use pbm_prelim::PbmError;
use pbm_prelim::testing::{bound, bound_each, bound_rows};
use serde_json::Value;

// Timings, thread counts and rounding-level differences vary between machines; the
// tests below assert their bounds instead.
pbm_prelim::exercise_tests!(
    chapter,
    digits = 6,
    mask = |value: &mut Value| {
        bound_rows(value, &["brute_ms", "grid_ms"], |ms| ms > 0.0);
        // Brute force sums in index order, the grid cell by cell.
        bound_rows(value, &["max_force_difference"], |d| d < 1e-12);
        bound(value, "grid_median_ms", |ms| ms > 0.0);
        bound(value, "pair_interactions_per_second", |r| r > 0.0);
        bound(value, "one_thread_pairs_per_second", |r| r > 0.0);
        // The pool is never much slower than one thread of it.
        bound(value, "speedup", |s| s > 0.5);
        if let Some(obj) = value.as_object_mut() {
            obj.remove("threads");
        }
        let drifts =
            ["max_force_difference", "max_momentum_drift", "relative_momentum_drift"];
        bound_each(value, &drifts, |d| d < 1e-9);
        if value.get("strategy").is_some_and(|s| s == "rollback") {
            value["max_ratio_deviation"] = Value::Bool(true);
        }
    },
);

#[test]
fn spring_from_behavior_matches_equation_1() {
    let v = run("spring-from-behavior", &["samples=5000"]).unwrap();
    // Both compute the same products in a slightly different order: rounding only.
    assert!(v["max_force_difference"].as_f64().unwrap() <= 1e-12, "{v}");
}

#[test]
fn rollback_bounces_reach_r_squared() {
    for r in ["0.3", "0.5", "0.8", "0.95"] {
        // Three bounces: for r = 0.3 a fourth flight would be shorter than one step.
        let v = run("bouncing-ball", &[&format!("restitution={r}"), "bounces=3"])
            .unwrap();
        let r: f64 = r.parse().unwrap();
        for ratio in v["bounce_height_ratios"].as_array().unwrap() {
            assert!((ratio.as_f64().unwrap() - r * r).abs() < 0.02, "r = {r}: {v}");
        }
    }
}

#[test]
fn flights_shorter_than_a_step_stop_the_measurement_rather_than_mismeasure() {
    // For r = 0.3 the fourth flight lasts 0.9 · 0.3⁴ s = 7 ms, under one 10 ms step.
    let v = run("bouncing-ball", &["restitution=0.3", "bounces=6"]).unwrap();
    assert_eq!(v["bounces_measured"], 3, "{v}");
    assert_eq!(v["flights_shorter_than_a_step"], true, "{v}");
    assert!(v["max_ratio_deviation"].as_f64().unwrap() < 0.02, "{v}");
    // The whole declared range runs: 20 bounces, and a ball that does not bounce.
    let v = run("bouncing-ball", &["bounces=20"]).unwrap();
    assert!(v["bounces_measured"].as_u64().unwrap() >= 15, "{v}");
    // A first flight of 0.9 ms fits inside the first 10 ms step: nothing to measure.
    let v = run("bouncing-ball", &["restitution=0.001"]).unwrap();
    assert_eq!(v["bounces_measured"], 0, "{v}");
    assert!(v["max_ratio_deviation"].is_null(), "{v}");
    // A ball that does not bounce comes to rest on the floor.
    let v = run("bouncing-ball", &["restitution=0"]).unwrap();
    assert_eq!(v["came_to_rest"], true, "{v}");
    assert!(v["max_ratio_deviation"].is_null(), "{v}");
    // At a small step, the bounces are measured down to the contact band (1 µm), where
    // the resting-contact force takes over, and they are all r².
    let v =
        run("bouncing-ball", &["restitution=0.5", "h=1e-5", "bounces=20"]).unwrap();
    assert_eq!(v["came_to_rest"], true, "{v}");
    assert!(v["bounces_measured"].as_u64().unwrap() >= 8, "{v}");
    assert!(v["max_ratio_deviation"].as_f64().unwrap() < 1e-6, "{v}");
}

#[test]
fn displacement_gains_energy_and_rollback_does_not() {
    let displaced = run("bouncing-ball", &["strategy=displace"]).unwrap();
    let rolled = run("bouncing-ball", &[]).unwrap();
    let dev = |v: &Value| v["max_ratio_deviation"].as_f64().unwrap();
    assert!(dev(&displaced) > 0.02 && dev(&rolled) < 1e-6, "{displaced} {rolled}");
}

#[test]
fn momentum_is_conserved_under_internal_forces() {
    let v = run("momentum", &["particles=60", "t_end=10"]).unwrap();
    // Equal and opposite spring forces: any drift is rounding in sums of O(10)
    // numbers.
    assert!(v["max_momentum_drift"].as_f64().unwrap() < 1e-9, "{v}");
    assert!(v["energy_end"].as_f64().unwrap() < v["energy_start"].as_f64().unwrap());
}

#[test]
fn grid_agrees_with_brute_force_and_wins_at_20000() {
    let v = run("interaction-scaling", &["n_max=20000"]).unwrap();
    let rows = v["rows"].as_array().unwrap();
    for row in rows {
        assert!(row["max_force_difference"].as_f64().unwrap() <= 1e-12, "{row}");
    }
    assert_eq!(rows.last().unwrap()["n"], 20000);
    // Timing: the best of three runs of each, so that one descheduled run on a busy
    // machine (tests run in parallel) cannot decide the outcome. Measured ratio here:
    // about 25.
    let law = pbm_particles::scenes::scaling_law().unwrap();
    let (mut brute, mut grid) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..3 {
        let (b, g, _) = pbm_particles::exercises::scaling_row(&law, 20_000).unwrap();
        (brute, grid) = (brute.min(b), grid.min(g));
    }
    assert!(brute >= 5.0 * grid, "brute {brute} ms vs grid {grid} ms");
}

#[test]
fn the_beam_settles() {
    let v = run("hanging-structure", &[]).unwrap();
    assert_eq!(v["settled"], true, "{v}");
    // The mouse really lifted the tip above the wall before letting go.
    assert!(v["tip_height_at_release"].as_f64().unwrap() > 0.1, "{v}");
}

#[test]
fn bad_parameters_are_errors() {
    for (id, arg) in [
        ("bouncing-ball", "restitution=1.5"),
        ("bouncing-ball", "h=0"),
        ("bouncing-ball", "strategy=teleport"),
        ("momentum", "particles=1"),
        ("interaction-scaling", "n_max=NaN"),
        ("hanging-structure", "mouse=maybe"),
    ] {
        assert!(matches!(run(id, &[arg]), Err(PbmError::Param(_))), "{id} {arg}");
    }
}
