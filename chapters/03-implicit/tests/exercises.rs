//! Snapshots of every exercise's default result, and the exercises' contracts.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

// The chapter's other tests, in one binary with the snapshots (one link, not one per file).
mod physics;

use pbm_implicit::chapter;
use pbm_prelim::PbmError;
use pbm_prelim::testing::{bound, bound_rows, refused_as_too_much_work};
use serde_json::Value;

// Wall-clock time and rounding-level errors vary by machine; bounds are asserted
// below. Four digits: the bisected step limits are exact to far more, the CG
// iteration mean depends on rounding in a long solve.
pbm_prelim::exercise_tests!(
    chapter,
    digits = 4,
    mask = |value: &mut Value| {
        bound(value, "ms_per_step", |t| t > 0.0);
        bound(value, "max_relative_fd_error", |e| e < 1e-6);
        bound_rows(value, &["ms_per_step"], |t| t > 0.0);
    },
);

#[test]
fn stiff_blowup_limits() {
    let v = run("stiff-blowup", &[]).unwrap();
    let theory = v["theory_euler_limit"].as_f64().unwrap();
    assert_eq!(theory, 2.0 / 1000.0);
    let euler = v["explicit_euler_max_stable_h"].as_f64().unwrap();
    assert!((euler - theory).abs() < 0.02 * theory, "{v}");
    assert_eq!(v["implicit_stable"], true);
}

#[test]
fn particle_on_line_grinds_to_a_halt() {
    // Slides, "particle-on-line": ε = 1 mm against 100 N needs k = 1e5 N/m, and then
    // h < 20 µs.
    let v = run("particle-on-line", &[]).unwrap();
    assert_eq!(v["k_needed"], 1e5);
    let (theory, measured) =
        (v["theory_max_h"].as_f64().unwrap(), v["measured_max_h"].as_f64().unwrap());
    assert!((measured - theory).abs() < 0.02 * theory, "{v}");
    assert!(v["steps_per_metre_at_1_m_per_s"].as_f64().unwrap() >= 50_000.0);
}

#[test]
fn one_big_step_reaches_the_origin() {
    let v = run("one-big-step", &[]).unwrap();
    assert!(v["distance_to_origin_after_one_step"].as_f64().unwrap() < 1e-6, "{v}");
}

#[test]
fn sweep_rows_follow_two_over_k() {
    let v = run("stable-step-sweep", &["points=6"]).unwrap();
    for row in v["rows"].as_array().unwrap() {
        let (k, h) =
            (row["k"].as_f64().unwrap(), row["euler_max_h"].as_f64().unwrap());
        assert!((h * k - 2.0).abs() < 0.04, "{row}");
    }
}

#[test]
fn bad_parameters_are_errors() {
    for (id, arg) in [
        ("stiff-blowup", "k=0"),
        ("sheet", "n=1"),
        ("sheet", "h=-1"),
        ("one-big-step", "h=NaN"),
    ] {
        assert!(matches!(run(id, &[arg]), Err(PbmError::Param(_))), "{id} {arg}");
    }
}

#[test]
fn sheet_sizes_refuses_runs_longer_than_its_budget_before_running_them() {
    // About 0.092 s a step with multigrid and 0.26 s with block Jacobi (measured in
    // release on one thread): eleven Jacobi steps are over the 2.8 estimated seconds,
    // while multigrid runs the whole range of t_end, the review's 0.37 s among it.
    for args in [
        ["t_end=0.34", "preconditioner=jacobi"],
        ["t_end=1", "preconditioner=jacobi"],
    ] {
        let refused = run("sheet-sizes", &args);
        assert!(refused_as_too_much_work(&refused), "{args:?}: {refused:?}");
    }
    let chapter = pbm_implicit::chapter();
    let sizes = chapter.exercises.iter().find(|e| e.id == "sheet-sizes").unwrap();
    for t_end in ["0.37", "1"] {
        let set = [format!("t_end={t_end}"), "preconditioner=multigrid".to_string()];
        assert!(sizes.admit("implicit", &set).is_ok(), "{set:?}");
    }
    // One step of the largest sheet (the review's case) is admitted too: a first
    // step from rest costs the assembly and one CG iteration.
    let sheet = chapter.exercises.iter().find(|e| e.id == "sheet").unwrap();
    for extra in ["preconditioner=multigrid", "preconditioner=jacobi"] {
        let set = ["n=256", "h=1", "t_end=0.1", extra];
        assert!(sheet.admit("implicit", &set).is_ok(), "{set:?}");
    }
}
