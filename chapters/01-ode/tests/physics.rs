//! The chapter's claims checked against independent references: closed forms,
//! hand-written formulas, reference solutions, and the numbers the course notes
//! state.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use pbm_ode::adaptive::{Controller, EmbeddedPair, distance, integrate_adaptive};
use pbm_ode::convergence::{
    AdaptiveMethod, adaptive_orbit, error_curve, log_log_slope, orbit_error,
};
use pbm_ode::runge_kutta::{RungeKutta, integrate};
use pbm_ode::scenes::{
    KEPLER_PERIOD, circle_derivative, circle_field, euler_radius_ratio,
    kepler_derivative, kepler_orbit,
};
use pbm_ode::stability::{Regime, euler_decay, observed_regime, predicted_regime};
use pbm_ode::system::{OdeSystem, VectorField, state_of};
use pbm_ode::tableau::{DORMAND_PRINCE, EULER, MIDPOINT, RK4};
use proptest::prelude::*;

proptest! {
    /// Section 2.1: every Euler step on the circular field multiplies the radius by
    /// sqrt(1+h^2), from any starting point.
    #[test]
    fn euler_radius_ratio_holds_everywhere(x in -10.0f64..10.0, y in -10.0f64..10.0, h in 1e-3f64..2.0) {
        prop_assume!(x.hypot(y) > 1e-3);
        let mut field = circle_field(x, y).unwrap();
        RungeKutta::new(EULER).step(&mut field, h).unwrap();
        let s = state_of(&field);
        let ratio = s[0].hypot(s[1]) / x.hypot(y);
        prop_assert!((ratio - euler_radius_ratio(h)).abs() < 1e-12);
    }
}

#[test]
fn shrinking_h_slows_the_spiral_but_never_stops_it() {
    // Over one turn the radius is (1 + h^2)^(n/2) with n = 2π/h: it falls towards 1
    // as h shrinks, and stays above 1 for every h.
    let mut previous = f64::INFINITY;
    for n in [16usize, 64, 256, 1024, 4096] {
        let h = KEPLER_PERIOD / n as f64;
        let states =
            integrate(&mut circle_field(1.0, 0.0).unwrap(), EULER, h, n).unwrap();
        let r = states[n][0].hypot(states[n][1]);
        assert!(r > 1.0 && r < previous, "n = {n}: r = {r}");
        assert!((r - euler_radius_ratio(h).powi(n as i32)).abs() < 1e-10);
        previous = r;
    }
}

#[test]
fn observed_regimes_match_the_factor_on_both_sides_of_each_boundary() {
    // Section 2.1: the boundaries are h = 1/k and h = 2/k.
    for k in [1.0, 10.0, 250.0] {
        for scale in [0.5, 0.99, 1.01, 1.5, 1.99, 2.01, 3.0] {
            let h = scale / k;
            let (xs, _) = euler_decay(k, h, 40).unwrap();
            assert_eq!(
                observed_regime(&xs),
                predicted_regime(k, h),
                "k = {k}, h = {h}"
            );
        }
    }
    assert_eq!(predicted_regime(10.0, 0.25), Regime::Divergent);
}

/// Errata, midpoint slide: f evaluated at (x + Δx)/2 instead of x + Δx/2.
fn literal_slide_step(x: &[f64; 2], h: f64) -> [f64; 2] {
    let mut f0 = [0.0; 2];
    circle_derivative(0.0, x, &mut f0);
    let wrong_mid = [(x[0] + h * f0[0]) / 2.0, (x[1] + h * f0[1]) / 2.0];
    let mut f_mid = [0.0; 2];
    circle_derivative(0.0, &wrong_mid, &mut f_mid);
    [x[0] + h * f_mid[0], x[1] + h * f_mid[1]]
}

#[test]
fn midpoint_slide_erratum() {
    // One turn of the circle. The corrected midpoint converges at second order; the
    // slide's literal formula does not converge at all: its error stays of order one
    // as h shrinks.
    let mut literal_errors = Vec::new();
    let mut midpoint_errors = Vec::new();
    for n in [100usize, 200, 400, 800] {
        let h = KEPLER_PERIOD / n as f64;
        let mut x = [1.0, 0.0];
        for _ in 0..n {
            x = literal_slide_step(&x, h);
        }
        literal_errors.push((h, distance(&x, &[1.0, 0.0])));
        let states =
            integrate(&mut circle_field(1.0, 0.0).unwrap(), MIDPOINT, h, n).unwrap();
        midpoint_errors.push((h, distance(&states[n], &[1.0, 0.0])));
    }
    assert!((log_log_slope(&midpoint_errors) - 2.0).abs() < 0.05);
    assert!(literal_errors.iter().all(|&(_, e)| e > 0.5), "{literal_errors:?}");
}

#[test]
fn notes_errata_the_taylor_term_is_f_prime_times_delta_x() {
    // The notes' equation 2 and the line after it (000:174, 000:182) and the summary
    // (003:37) write Δx f′(x₀). For a state vector f′ is the Jacobian matrix and only
    // f′(x₀) Δx is a product; Δx read as a row times f′ is the transpose's product,
    // f′ᵀΔx. On the circle f′ is the quarter turn and f′ᵀ the opposite one, so the
    // expansion with f′Δx is exact (f is linear) and the other is off by 2 f′Δx, of
    // length h; a midpoint step built on it has a local error of order h², not h³.
    let jacobian = [[0.0, -1.0], [1.0, 0.0]];
    let transposed = [[0.0, 1.0], [-1.0, 0.0]];
    let times = |m: [[f64; 2]; 2], v: [f64; 2]| {
        [m[0][0] * v[0] + m[0][1] * v[1], m[1][0] * v[0] + m[1][1] * v[1]]
    };
    let f = |x: [f64; 2]| {
        let mut d = [0.0; 2];
        circle_derivative(0.0, &x, &mut d);
        d
    };
    let x0 = [1.0, 0.0];
    let (mut right, mut wrong) = (Vec::new(), Vec::new());
    for h in [0.1, 0.05, 0.025, 0.0125] {
        let f0 = f(x0);
        let dx = [h / 2.0 * f0[0], h / 2.0 * f0[1]];
        let at_midpoint = f([x0[0] + dx[0], x0[1] + dx[1]]);
        let (column, row) = (times(jacobian, dx), times(transposed, dx));
        assert!(
            distance(&at_midpoint, &[f0[0] + column[0], f0[1] + column[1]]) < 1e-15
        );
        let off = distance(&at_midpoint, &[f0[0] + row[0], f0[1] + row[1]]);
        assert!((off - h).abs() < 1e-15, "{off} vs {h}");
        // One step x₀ + h (f₀ + term) against the exact point on the circle.
        let exact = [h.cos(), h.sin()];
        let step =
            |t: [f64; 2]| [x0[0] + h * (f0[0] + t[0]), x0[1] + h * (f0[1] + t[1])];
        right.push((h, distance(&step(column), &exact)));
        wrong.push((h, distance(&step(row), &exact)));
    }
    assert!((log_log_slope(&right) - 3.0).abs() < 0.05, "{right:?}");
    assert!((log_log_slope(&wrong) - 2.0).abs() < 0.05, "{wrong:?}");
}

#[test]
fn euler_is_first_order_globally() {
    // Errata, reader's summary: "Euler's method achieves O(h^2) accuracy" is the
    // local error. Local error: one step from the same state, against RK4 with tiny
    // substeps.
    let local: Vec<(f64, f64)> = [0.02, 0.01, 0.005]
        .iter()
        .map(|&h| {
            let mut a = kepler_orbit(0.5).unwrap();
            RungeKutta::new(EULER).step(&mut a, h).unwrap();
            let mut b = kepler_orbit(0.5).unwrap();
            integrate(&mut b, RK4, h / 100.0, 100).unwrap();
            (h, distance(&state_of(&a), &state_of(&b)))
        })
        .collect();
    assert!((log_log_slope(&local) - 2.0).abs() < 0.1, "local {local:?}");
    let global = error_curve(EULER, 0.5, &[1 << 15, 1 << 16, 1 << 17]).unwrap();
    assert!((log_log_slope(&global) - 1.0).abs() < 0.05, "global {global:?}");
}

#[test]
fn every_accepted_adaptive_step_keeps_its_true_local_error_below_tol() {
    // Replay the accepted steps of an adaptive run; compare each with a reference
    // solution of that one step (RK4 with 200 substeps, whose own error is many
    // orders smaller).
    let (e, tol) = (0.9, 1e-6);
    let mut orbit = kepler_orbit(e).unwrap();
    let mut pair = EmbeddedPair::new(DORMAND_PRINCE).unwrap();
    let run = integrate_adaptive(
        &mut orbit,
        &mut pair,
        &Controller::new(tol).unwrap(),
        (0.01, KEPLER_PERIOD),
    )
    .unwrap();
    assert!(run.rejected > 0, "the run should have had to reject some steps");
    let mut replay = kepler_orbit(e).unwrap();
    let mut stepper = RungeKutta::new(DORMAND_PRINCE);
    for &(t, h, _) in &run.accepted {
        assert_eq!(replay.time(), t);
        let start = state_of(&replay);
        let mut reference = VectorField::new(&start, t, kepler_derivative).unwrap();
        integrate(&mut reference, RK4, h / 200.0, 200).unwrap();
        stepper.step(&mut replay, h).unwrap();
        let true_error = distance(&state_of(&replay), &state_of(&reference));
        assert!(true_error <= tol, "step at t = {t}, h = {h}: {true_error}");
    }
    // The undo of rejected steps restored the state exactly: the replay ends where
    // the run did.
    assert_eq!(state_of(&replay), state_of(&orbit));
    assert!((orbit.time() - KEPLER_PERIOD).abs() < 1e-12);
}

#[test]
fn adaptive_saves_work_only_where_the_problem_is_uneven() {
    // On a circular orbit every part is equally hard: adaptivity cannot beat a fixed
    // step by much.
    let (circle, circle_error) =
        adaptive_orbit(AdaptiveMethod::DormandPrince, 0.0, 1e-6).unwrap();
    let (eccentric, _) =
        adaptive_orbit(AdaptiveMethod::DormandPrince, 0.9, 1e-6).unwrap();
    assert!(eccentric.evaluations > circle.evaluations);
    let fixed = pbm_ode::convergence::fixed_steps_for_error(
        DORMAND_PRINCE,
        0.0,
        circle_error,
    )
    .unwrap();
    assert!(fixed.0 * 7 > circle.evaluations / 2);
}

#[test]
fn higher_order_is_more_accurate_at_equal_cost() {
    // 4096 evaluations each on the orbit of eccentricity 0.5.
    let euler = orbit_error(EULER, 0.5, 4096).unwrap();
    let midpoint = orbit_error(MIDPOINT, 0.5, 2048).unwrap();
    let rk4 = orbit_error(RK4, 0.5, 1024).unwrap();
    assert!(
        euler > 10.0 * midpoint && midpoint > 10.0 * rk4,
        "{euler} {midpoint} {rk4}"
    );
}
