//! Snapshots of every exercise's default result, and the exercises' contracts.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

// The chapter's other tests, in one binary with the snapshots (one link, not one per file).
mod physics;
mod projection;
mod tree;

use pbm_constraints::chapter;
use pbm_prelim::PbmError;
use pbm_prelim::testing::{bound, bound_each, refused_as_too_much_work};
use serde_json::Value;

// Errors at the level of rounding differ between machines; bounds are asserted below.
pbm_prelim::exercise_tests!(
    chapter,
    digits = 3,
    mask = |value: &mut Value| {
        let errors =
            ["max_constraint_error", "relative_energy_drift", "rod_length_error"];
        bound_each(value, &errors, |e| e < 1e-6);
        // The tree solve's timings vary by machine; its agreement with CG is a bound.
        bound(value, "tree_solve_us", |t| t > 0.0 && t < 1e5);
        bound(value, "cg_solve_us", |t| t > 0.0 && t < 1e7);
        bound(value, "cg_over_tree", |r| r > 1.0);
        bound(value, "max_relative_difference", |e| e < 1e-9);
        // The projection stops as soon as max |C| ≤ 1e-12: what is left is rounding.
        if let Some(projected) = value.get_mut("projection") {
            bound_each(projected, &["max_abs_c", "final_abs_c"], |c| c <= 1e-12);
        }
    },
);

#[test]
fn drift_reports_both_runs() {
    let v = run("drift", &[]).unwrap();
    let (without, with) = (
        v["max_abs_c_without_feedback"].as_f64().unwrap(),
        v["max_abs_c_with_feedback"].as_f64().unwrap(),
    );
    assert!(with < 1e-6 && without > 1e3 * with, "{v}");
    // With feedback off both runs are the same run.
    let off = run("drift", &["feedback=false", "t_end=10"]).unwrap();
    assert_eq!(off["max_abs_c_without_feedback"], off["max_abs_c_with_feedback"]);
}

#[test]
fn double_pendulum_meets_its_bounds() {
    let v = run("double-pendulum", &[]).unwrap();
    assert!(v["max_constraint_error"].as_f64().unwrap() < 1e-6, "{v}");
    assert!(v["relative_energy_drift"].as_f64().unwrap() < 1e-4, "{v}");
}

#[test]
fn redundant_constraints_are_solved() {
    let v = run("redundant", &[]).unwrap();
    assert_eq!(v["solved"], true, "{v}");
    assert!(v["max_constraint_error"].as_f64().unwrap() < 1e-6, "{v}");
    assert_eq!(v["constraint_rows"], 4);
    assert_eq!(v["jacobian_rank"], 2);
}

#[test]
fn rods_allow_bigger_steps_and_hold_their_length() {
    let v = run("rods-vs-springs", &[]).unwrap();
    let (rod, spring) = (
        v["rod_max_stable_h"].as_f64().unwrap(),
        v["spring_max_stable_h"].as_f64().unwrap(),
    );
    assert!(rod > 5.0 * spring, "{v}");
    assert!(v["spring_length_error"].as_f64().unwrap() > 1e-3, "{v}");
    assert!(v["rod_length_error"].as_f64().unwrap() < 1e-6, "{v}");
    // Stiffer springs: smaller error, smaller step.
    let stiff = run("rods-vs-springs", &["k=1e6"]).unwrap();
    assert!(stiff["spring_max_stable_h"].as_f64().unwrap() < spring);
    assert!(
        stiff["spring_length_error"].as_f64().unwrap()
            < v["spring_length_error"].as_f64().unwrap()
    );
}

#[test]
fn rods_vs_springs_refuses_runs_over_its_budget_before_running_them() {
    // Measured in release on one thread: at the limit of 64 chain-seconds, 5 s of
    // chain (k = 1.64e7 N/m) took 2.0 s, 3.5 s (k = 3.34e7) 1.9 s, and k = 1e8 for
    // 2.02 s 1.8 s. Over it, refused before any work.
    for args in [["k=2.56e7", "t_end=5"], ["k=1e8", "t_end=2.1"]] {
        let refused = run("rods-vs-springs", &args);
        assert!(refused_as_too_much_work(&refused), "{args:?}: {refused:?}");
    }
}

#[test]
fn bad_parameters_are_errors() {
    for (id, set) in [
        ("drift", "h=0"),
        ("drift", "solver=verlet"),
        ("drift", "k_s=-1"),
        ("double-pendulum", "h=nan"),
        ("rods-vs-springs", "k=0"),
        ("redundant", "t_end=-1"),
    ] {
        assert!(matches!(run(id, &[set]), Err(PbmError::Param(_))), "{id} {set}");
    }
}

#[test]
fn the_moving_bead_asks_m_v_squared_over_r_more_of_the_wire() {
    // Unit mass on the unit circle: the constraint force grows by exactly v²; at rest
    // what is left of gravity is its tangential part, m g cos 40°.
    for speed in ["0.5", "2.5", "7"] {
        let v = run("bead-forces", &[&format!("speed={speed}")]).unwrap();
        let speed: f64 = speed.parse().unwrap();
        let grown = v["centripetal_n"].as_f64().unwrap();
        assert!((grown - speed * speed).abs() < 1e-12, "{speed}: {grown}");
    }
    let v = run("bead-forces", &[]).unwrap();
    let tangential = v["tangential_force_at_rest_n"].as_f64().unwrap();
    let expected = pbm_particles::forces::G * 40f64.to_radians().cos();
    assert!((tangential - expected).abs() < 1e-12, "{tangential} vs {expected}");
}
