//! Snapshots of every exercise's default result, and the numbers the checks
//! read.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

// The chapter's other tests, in one binary with the snapshots (one link, not one per file).
mod projection;
mod rigid;
mod sheet;

use pbm_pbd::chapter;
use pbm_prelim::testing::bound;
use serde_json::Value;

// Values at the level of rounding differ between machines; bounds are asserted.
pbm_prelim::exercise_tests!(
    chapter,
    digits = 3,
    mask = |value: &mut Value| {
        bound(value, "xpbd_extension_spread", |e| e < 1e-4);
        bound(value, "pbd_per_pass_off_one_pass", |e| e < 1e-6);
        bound(value, "lagrange_max_length_error", |e| e < 1e-8);
        bound(value, "lagrange_energy_change_j", |e| e.abs() < 1e-8);
    },
);

#[test]
fn xpbd_is_flat_over_the_grid_and_pbd_is_not() {
    let v = run("stiffness-vs-steps", &[]).unwrap();
    // The 1 %: XPBD's extension over 6 substep counts × 3 iteration counts.
    assert!(v["xpbd_extension_spread"].as_f64().unwrap() < 0.01, "{v}");
    assert!(v["pbd_extension_spread"].as_f64().unwrap() > 100.0, "{v}");
    let expected = v["expected_extension"].as_f64().unwrap();
    assert!((expected - 1e-3 * 9.81).abs() < 1e-15, "{v}");
}

#[test]
fn xpbd_stays_within_a_few_centimetres_of_chapter_4_over_the_first_second() {
    let v = run("compare-lagrange", &[]).unwrap();
    // First order in h (tests/projection.rs): 4.7 cm at 1/1200 s.
    let d = v["max_position_difference_first_second"].as_f64().unwrap();
    assert!(d < 0.06, "{v}");
    assert!(v["xpbd_energy_change_j"].as_f64().unwrap() < 0.0, "XPBD damps: {v}");
}

#[test]
fn the_drag_keeps_its_joints_closed_and_follows_the_mouse() {
    let v = run("drag", &[]).unwrap();
    assert!(v["max_joint_gap_mm"].as_f64().unwrap() < 1.0, "{v}");
    assert!(v["max_lag_behind_mouse_mm"].as_f64().unwrap() < 100.0, "{v}");
    // rigid.md: the lag is the compliance times the force, read twice. After its
    // pass the mouse joint holds C + α̃λ = 0 to within its linearization, so at the
    // worst frame lag = α F: 1e-3 m/N times newtons is millimetres.
    let (lag, force) = (
        v["max_lag_behind_mouse_mm"].as_f64().unwrap(),
        v["peak_mouse_force_n"].as_f64().unwrap(),
    );
    assert!((lag / force - 1.0).abs() < 1e-3, "{v}");
}

#[test]
fn a_chain_counts_its_body_moves_in_its_budget() {
    // 68 links at one pass and 200 substeps for 10 s: 8.2e6 joint solves, but each
    // step also moves every box, 1.6e7 in all (it took 3.1 s), so it is refused.
    let refused = run("chain", &["links=68", "substeps=200", "t_end=10"]);
    assert!(
        matches!(
            refused.as_ref().map_err(pbm_prelim::PbmError::cause),
            Err(pbm_prelim::PbmError::TooMuchWork { work, .. }) if *work > 1.6e7
        ),
        "{refused:?}"
    );
}
