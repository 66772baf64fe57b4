//! Balls that roll, a see-saw, and a world without inertia, against closed forms.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use nalgebra::Vector3;
use pbm_contact::exercises::SLIPPED;
use pbm_contact::scenes::{self, SEESAW};
use pbm_contact::scenes::{orbit, slip};
use pbm_contact::world::{Order, Settings, World};
use pbm_particles::forces::G;
use std::f64::consts::TAU;

type V3 = Vector3<f64>;

/// How far body 0 moves in `seconds`.
fn moved(mut world: World, seconds: f64) -> f64 {
    let x0 = world.bodies()[0].position();
    world.run_until(seconds, |_| {}).unwrap();
    (world.bodies()[0].position() - x0).norm()
}

#[test]
fn a_ball_rolls_down_a_slope_at_five_sevenths_of_g_sin_theta() {
    // Rolling without slipping: m a = m g sin θ − F, I α = F r, a = α r with
    // I = 2/5 m r², so a = 5/7 g sin θ: less than the 1 a sliding block would get.
    let theta: f64 = 0.3;
    let settings = Settings { friction: 0.5, ..Settings::default() };
    let d = moved(scenes::rolling(theta, settings).unwrap(), 1.0);
    let expected = 0.5 * (5.0 / 7.0) * G * theta.sin();
    assert!(
        (d - expected).abs() < 1e-9 * expected,
        "rolled {d} m, expected {expected}"
    );
}

#[test]
fn a_ball_without_enough_friction_slides_as_it_rolls() {
    // Rolling needs F = 2/7 m g sin θ ≤ μ m g cos θ; with less friction the
    // contact slides and the centre accelerates at g (sin θ − μ cos θ).
    let (theta, mu): (f64, f64) = (0.3, 0.05);
    assert!(mu < 2.0 / 7.0 * theta.tan());
    let settings = Settings { friction: mu, ..Settings::default() };
    let d = moved(scenes::rolling(theta, settings).unwrap(), 1.0);
    let expected = 0.5 * G * (theta.sin() - mu * theta.cos());
    assert!(
        (d - expected).abs() < 1e-6 * expected,
        "moved {d} m, expected {expected}"
    );
}

#[test]
fn a_ball_on_a_turntable_circles_at_two_sevenths_of_its_rate() {
    let omega = TAU; // one turn a second
    let o = orbit(omega, 0.2, 0.5, 3.5).unwrap();
    let theory = 2.0 * omega / 7.0;
    assert!((o.rate - theory).abs() < 1e-6 * theory, "rate {} vs {theory}", o.rate);
    assert!(o.path_error < 1e-8, "off the closed-form path by {} m", o.path_error);
    // After one orbit (3.5 turns of the table) it is back where it started.
    let (first, last) = (o.path[0], o.path[o.path.len() - 1]);
    assert!(f64::hypot(last.0 - first.0, last.1 - first.1) < 1e-8);
}

#[test]
fn a_ball_at_rest_on_a_spinning_turntable_stays_put() {
    // Spun so that its lowest point moves with the table, the ball feels no
    // friction and never moves: ẋ = 0 solves ẍ = (2/7) Ω × ẋ.
    let settings = Settings { friction: 0.5, ..Settings::default() };
    let start = V3::new(0.3, 0.0, 0.1);
    let world = scenes::turntable(TAU, start, V3::zeros(), settings).unwrap();
    let d = moved(world, 2.0);
    assert!(d < 1e-9, "moved {d} m");
}

#[test]
fn the_seesaw_balances_by_the_lever_law_and_tips_as_predicted() {
    let settings =
        Settings { friction: 0.5, restitution: 0.0, ..Settings::default() };
    let tilt = |w: &World| w.bodies()[0].rotation()[(1, 0)].asin();
    // 1 kg at 1.2 m balances 2 kg at 0.6 m (an unstable balance, but rounding
    // takes far longer than 2 s to tip it).
    let mut level = scenes::seesaw((1.0, 1.2), (2.0, 0.6), settings).unwrap();
    level.run_until(2.0, |_| {}).unwrap();
    assert!(tilt(&level).abs() < 1e-6, "tilted {} rad", tilt(&level));
    // 5 % more on the left: it tips left as (τ/k)(cosh(√(k/I) t) − 1) ...
    let (left, right) = ((1.05, 1.2), (2.0, 0.6));
    let mut tipped = scenes::seesaw(left, right, settings).unwrap();
    tipped.run_until(0.5, |_| {}).unwrap();
    let theory = scenes::seesaw_tilt(left, right, G, 0.5);
    let measured = tilt(&tipped);
    assert!((measured - theory).abs() < 0.01 * theory, "{measured} vs {theory}");
    // ... until the plank's end rests on the ground, sin θ = height / half-length.
    tipped.run_until(2.0, |_| {}).unwrap();
    let (height, plank, ..) = SEESAW;
    let resting = (height / (0.5 * plank.x)).asin();
    assert!((tilt(&tipped) - resting).abs() < 1e-3, "{} vs {resting}", tilt(&tipped));
    assert!(tipped.stats().min_normal_force >= 0.0);
}

#[test]
fn lopsided_seesaws_finish_within_the_step_budget_tipped_onto_the_heavy_end() {
    // Value sets where a pair already deeper than ε would make every collision-time
    // search end at a sliver of a step. Each must finish within the step budget,
    // tipped onto its heavy (right) end, sin θ = height / half. (Such a plank need
    // not come to rest: worlds.md explains its rocking; the tilt is what is held.)
    let sets = [
        ((0.2, 1.0), (5.0, 0.5), 2.0),
        ((0.2, 1.08), (5.0, 0.5), 2.0),
        ((0.2, 0.8), (5.0, 0.5), 2.0),
        ((0.2, 1.4), (5.0, 0.5), 2.0),
        (
            (0.2, 1.083_912_210_696_295_5),
            (5.0, 0.504_526_098_985_565),
            1.931_335_485_749_739,
        ),
    ];
    let settings =
        Settings { friction: 0.5, restitution: 0.0, ..Settings::default() };
    let (height, plank, ..) = SEESAW;
    let resting = (height / (0.5 * plank.x)).asin();
    for (left, right, seconds) in sets {
        let mut world = scenes::seesaw(left, right, settings).unwrap();
        world.run_until(seconds, |_| {}).unwrap_or_else(|e| panic!("{left:?}: {e}"));
        let tilt = world.bodies()[0].rotation()[(1, 0)].asin();
        assert!((tilt + resting).abs() < 1e-3, "{left:?}: {tilt} vs −{resting}");
    }
}

#[test]
fn a_first_order_world_moves_at_force_over_mass() {
    // Pushed by gravity alone a box moves at g, not g t: after 0.15 s it has gone
    // 0.15 g, short of the ground 2 m below.
    let first = Settings { order: Order::First, ..Settings::default() };
    let d = moved(scenes::drop(2.0, first).unwrap(), 0.15);
    assert!((d - 0.15 * G).abs() < 1e-12, "fell {d} m");
    // On a frictionless slope it slides at g sin θ, the normal force cancelling
    // the rest of its weight.
    let theta: f64 = 0.3;
    let first = Settings { friction: 0.0, ..first };
    let d = moved(scenes::incline(theta, first).unwrap(), 1.0);
    assert!((d - G * theta.sin()).abs() < 1e-9, "slid {d} m");
}

#[test]
fn a_first_order_block_slips_if_and_only_if_tan_theta_exceeds_mu() {
    let mu: f64 = 0.5;
    let first = Settings { order: Order::First, friction: mu, ..Settings::default() };
    let theta = mu.atan();
    assert!(slip(theta - 1e-3, first, 1.0).unwrap() < SLIPPED);
    let above = slip(theta + 1e-3, first, 1.0).unwrap();
    // Above it the block slides at g (sin θ − μ cos θ): speed, not acceleration.
    let t = theta + 1e-3;
    let expected = G * (t.sin() - mu * t.cos());
    assert!((above - expected).abs() < 0.02 * expected, "{above} vs {expected}");
}
