//! The LCP solver against brute-force enumeration of complementary bases, on random
//! problems of every kind contact produces.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use pbm_contact::dantzig::dantzig;
use pbm_contact::lcp::{
    Bounds, Kind, dependent_rows_study, enumerate, random_problem, scale, solve,
    solve_bounded,
};

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
fn the_short_dantzig_matches_enumeration_and_the_production_solver() {
    for n in 1..=12 {
        for seed in 0..20 {
            let (a, b) = random_problem(Kind::Definite, n, seed);
            let short = dantzig(&a, &b).unwrap();
            let all = enumerate(&a, &b, 1e-10).unwrap();
            let err = (&short - &all[0]).amax() / all[0].amax().max(1.0);
            assert!(err < 1e-9, "n = {n} seed {seed}: off by {err}");
            let err =
                (&short - &solve(&a, &b).unwrap().f).amax() / short.amax().max(1.0);
            assert!(
                err < 1e-9,
                "n = {n} seed {seed}: {err} from the production solver"
            );
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

/// Every solution of a bounded problem by enumeration: each unknown at its lower
/// bound, at its upper bound, or clamped (a = 0) between them; 3ⁿ cases.
fn enumerate_bounded(
    a: &nalgebra::DMatrix<f64>,
    b: &nalgebra::DVector<f64>,
    bounds: &Bounds,
) -> Vec<nalgebra::DVector<f64>> {
    use nalgebra::{DMatrix, DVector};
    let n = b.len();
    let mut found = Vec::new();
    'case: for code in 0..3usize.pow(n as u32) {
        let state: Vec<usize> =
            (0..n).map(|i| code / 3usize.pow(i as u32) % 3).collect();
        let mut f = DVector::zeros(n);
        for i in 0..n {
            let bound = [bounds.lo[i], bounds.hi[i], 0.0][state[i]];
            if !bound.is_finite() {
                continue 'case;
            }
            f[i] = if state[i] == 2 { 0.0 } else { bound };
        }
        let c: Vec<usize> = (0..n).filter(|&i| state[i] == 2).collect();
        if !c.is_empty() {
            let rhs = -(b + a * &f);
            let acc = DMatrix::from_fn(c.len(), c.len(), |r, k| a[(c[r], c[k])]);
            let Some(x) =
                acc.lu().solve(&DVector::from_fn(c.len(), |r, _| rhs[c[r]]))
            else {
                continue;
            };
            for (r, &i) in c.iter().enumerate() {
                f[i] = x[r];
            }
        }
        let acc = a * &f + b;
        let tol = 1e-9;
        let ok = (0..n).all(|i| match state[i] {
            0 => acc[i] >= -tol,
            1 => acc[i] <= tol,
            _ => f[i] >= bounds.lo[i] - tol && f[i] <= bounds.hi[i] + tol,
        });
        if ok {
            found.push(f);
        }
    }
    found
}

/// Bounds of every kind: contact [0, ∞), bilateral (−∞, ∞), friction-like [−c, c].
fn mixed_bounds(n: usize, seed: u64) -> Bounds {
    let mut bounds = Bounds::contacts(n);
    for i in 0..n {
        match (i as u64 + seed) % 3 {
            0 => {}
            1 => {
                bounds.lo[i] = f64::NEG_INFINITY;
            }
            _ => {
                let c = 0.2 + 0.1 * ((i as u64 * 7 + seed) % 5) as f64;
                (bounds.lo[i], bounds.hi[i]) = (-c, c);
            }
        }
    }
    bounds
}

#[test]
fn bounded_problems_match_enumeration() {
    for kind in [Kind::Definite, Kind::Unsymmetric] {
        for n in 1..=7 {
            for seed in 0..20 {
                let (a, b) = random_problem(kind, n, seed);
                let bounds = mixed_bounds(n, seed);
                let sol = solve_bounded(&a, &b, &bounds).unwrap();
                let all = enumerate_bounded(&a, &b, &bounds);
                assert_eq!(all.len(), 1, "{kind:?} n = {n} seed {seed}");
                let err = (&sol.f - &all[0]).amax() / all[0].amax().max(1.0);
                assert!(err < 1e-9, "{kind:?} n = {n} seed {seed}: off by {err}");
                let r = sol.bounded_residual(&bounds, scale(&a, &b));
                assert!(r < 1e-10, "{kind:?} n = {n} seed {seed}: residual {r}");
            }
        }
    }
}

#[test]
fn all_bilateral_rows_are_a_linear_solve() {
    let (a, b) = random_problem(Kind::Definite, 8, 11);
    let bounds =
        Bounds { lo: vec![f64::NEG_INFINITY; 8], hi: vec![f64::INFINITY; 8] };
    let sol = solve_bounded(&a, &b, &bounds).unwrap();
    let direct = a.clone().lu().solve(&(-&b)).unwrap();
    assert!((&sol.f - direct).amax() < 1e-10);
    assert!(sol.a.amax() < 1e-12);
}

#[test]
fn bad_bounds_are_errors() {
    let (a, b) = random_problem(Kind::Definite, 2, 0);
    let mut bounds = Bounds::contacts(2);
    bounds.lo[1] = 0.5;
    let e = solve_bounded(&a, &b, &bounds).unwrap_err().to_string();
    assert!(e.contains("lo ≤ 0 ≤ hi"), "{e}");
    let e = solve_bounded(&a, &b, &Bounds::contacts(3)).unwrap_err().to_string();
    assert!(e.contains("3 lower"), "{e}");
}

#[test]
fn a_redundant_contact_left_at_roundoff_is_not_called_unsolvable() {
    // Found by the fuzz test: a redundant problem whose dependent contact is reached
    // with an acceleration of −1e-12 or so, which no force can change.
    for n in 1..=12 {
        for k in 0..23 {
            let (a, b) =
                random_problem(Kind::Redundant, n, 640750 + 1000 * n as u64 + k);
            let sol = solve(&a, &b).unwrap();
            assert!(sol.residual(scale(&a, &b)) < 1e-9, "n = {n}, k = {k}");
        }
    }
}

#[test]
fn dependent_rows_get_forces_of_the_size_of_the_least_norm_solution() {
    // Bilateral rows (joints) that are linearly dependent: A = J Jᵀ of rank < m, so
    // many forces give the same accelerations. Targets a = 0 reachable by
    // construction (b = −A f₀). Any solution is right, but one of 10⁷ N where 0.1 N
    // would do is noise a reader cannot use: the solver's forces must be within 10×
    // the least-norm solution's largest. Two cases: a row the sum of two others, and
    // two pins at one point (each row twice), the way chapter 11's mechanisms can be.
    use nalgebra::{DMatrix, DVector};
    let sum = DMatrix::from_row_slice(
        4,
        3,
        &[1.0, 0.2, -0.3, 0.1, 1.0, 0.4, 1.1, 1.2, 0.1, -0.2, 0.3, 1.0],
    );
    let pin = [1.0, 0.0, -0.35, 0.0, 1.0, 0.8];
    let twice = DMatrix::from_row_slice(4, 3, &[pin, pin].concat());
    for (name, j) in [("a sum", sum), ("a pin twice", twice)] {
        let a = &j * j.transpose();
        let f0 = DVector::from_vec(vec![0.1, -0.05, 0.08, 0.02]);
        let b = -(&a * &f0);
        let free =
            Bounds { lo: vec![f64::NEG_INFINITY; 4], hi: vec![f64::INFINITY; 4] };
        let sol = solve_bounded(&a, &b, &free).unwrap();
        let residual = (&a * &sol.f + &b).amax();
        assert!(residual < 1e-9, "{name}: accelerations off by {residual}");
        let least_norm = a.clone().pseudo_inverse(1e-9).unwrap() * (-&b);
        assert!(
            sol.f.amax() <= 10.0 * least_norm.amax(),
            "{name}: forces {} against the least-norm {}",
            sol.f,
            least_norm
        );
    }
}

#[test]
fn dependent_rows_of_every_kind_get_forces_within_ten_times_the_least_norm() {
    // Over 1,500 problems with rank-deficient A (sizes 3–40, rank deficits 1–5;
    // all unilateral, all bilateral, mixed), the accelerations meet the conditions
    // to 1e-9 of the problem's scale, and the largest force is within 10× of the
    // largest of the least-norm forces that give the same accelerations from the
    // same active rows (a dense SVD least-squares, independent of the pivoting).
    // The pivoting's basis forces alone miss that by far.
    let study = dependent_rows_study(100).unwrap();
    println!("{study:?}");
    assert!(study.problems >= 1000, "{study:?}");
    assert!(study.max_residual < 1e-9, "{study:?}");
    assert!(study.max_force_ratio <= 10.0, "{study:?}");
    assert!(study.basis_max_force_ratio > 100.0, "{study:?}");
}
