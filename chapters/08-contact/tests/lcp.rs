//! The LCP solver against brute-force enumeration of complementary bases, on random
//! problems of every kind contact produces.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use pbm_contact::lcp::{Kind, enumerate, random_problem, scale, solve};

#[test]
fn definite_problems_match_enumeration_exactly() {
    for kind in [Kind::Definite, Kind::Unsymmetric] {
        for n in 1..=12 {
            for seed in 0..20 {
                let (a, b) = random_problem(kind, n, seed);
                let sol = solve(&a, &b).unwrap();
                let all = enumerate(&a, &b, 1e-10).unwrap();
                // A P-matrix has exactly one solution.
                assert_eq!(
                    all.len(),
                    1,
                    "{kind:?} n = {n} seed {seed}: {} found",
                    all.len()
                );
                let err = (&sol.f - &all[0]).amax() / all[0].amax().max(1.0);
                assert!(err < 1e-9, "{kind:?} n = {n} seed {seed}: off by {err}");
                assert!(sol.residual(scale(&a, &b)) < 1e-10);
            }
        }
    }
}

#[test]
fn large_definite_problems_are_complementary() {
    for kind in [Kind::Definite, Kind::Unsymmetric] {
        for n in [20, 30, 40] {
            for seed in 0..5 {
                let (a, b) = random_problem(kind, n, seed);
                let sol = solve(&a, &b).unwrap();
                let r = sol.residual(scale(&a, &b));
                assert!(r < 1e-10, "{kind:?} n = {n} seed {seed}: residual {r}");
                // a really is A f + b.
                assert!((&a * &sol.f + &b - &sol.a).amax() < 1e-9 * scale(&a, &b));
            }
        }
    }
}

#[test]
fn redundant_contacts_give_the_one_right_acceleration() {
    for n in 2..=12 {
        for seed in 0..20 {
            let (a, b) = random_problem(Kind::Redundant, n, seed);
            let sol = solve(&a, &b).unwrap();
            let s = scale(&a, &b);
            assert!(
                sol.residual(s) < 1e-9,
                "n = {n} seed {seed}: {}",
                sol.residual(s)
            );
            // Many force vectors may solve it, but they all give the same a.
            let all = enumerate(&a, &b, 1e-9).unwrap();
            assert!(!all.is_empty());
            let a_enum = &a * &all[0] + &b;
            let err = (&sol.a - a_enum).amax() / s;
            assert!(err < 1e-8, "n = {n} seed {seed}: accelerations differ by {err}");
        }
    }
}

#[test]
fn a_degenerate_problem_with_zero_b_needs_no_force() {
    let (a, _) = random_problem(Kind::Redundant, 6, 3);
    let b = nalgebra::DVector::zeros(6);
    let sol = solve(&a, &b).unwrap();
    assert_eq!(sol.f.amax(), 0.0);
    assert_eq!(sol.pivots, 0);
}

#[test]
fn the_exercise_names_the_fields_the_checks_read() {
    let exercise = pbm_contact::exercises::all()
        .into_iter()
        .find(|e| e.id == "lcp-random")
        .unwrap();
    for kind in ["definite", "unsymmetric", "redundant"] {
        let set = [format!("kind={kind}"), "problems=5".into(), "n_max=14".into()];
        let v = exercise.run_with("contact", &set).unwrap();
        assert_eq!(v["problems"], 70, "{v}");
        assert_eq!(v["agrees_with_enumeration"], true, "{kind}: {v}");
        assert!(v["max_complementarity_residual"].as_f64().unwrap() < 1e-9, "{v}");
    }
}
