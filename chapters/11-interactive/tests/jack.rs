//! The double-action jack and the torsion spring that keeps its pawls on the rack:
//! the spring against its closed forms, the jack climbing a tooth on every stroke,
//! and a swing too short to get the idle pawl past a tooth.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use nalgebra::Vector2;
use pbm_interactive::scenes::Jack;
use pbm_interactive::shape::Shape;
use pbm_interactive::world::{Order, Settings, Torsion, World};

type V2 = Vector2<f64>;

/// No gravity, and a 2 × 0.5 plate at the origin turned by `angle`.
fn floating(order: Order, angle: f64) -> World {
    let settings = Settings { gravity: V2::zeros(), order, ..Settings::default() };
    let mut world = World::new(settings).unwrap();
    let plate = Shape::rectangle(2.0, 0.5, 3.0).unwrap();
    world.add_body(plate, 0, (V2::zeros(), angle), (V2::zeros(), 0.0)).unwrap();
    world
}

#[test]
fn a_torsion_spring_to_the_world_swings_at_the_square_root_of_its_stiffness() {
    // θ̈ = −k θ per unit inertia: θ = θ₀ cos(√k t), with no damping; the couple
    // moves no centre of mass, and spring plus kinetic energy is conserved.
    let (k, theta0) = (25.0, 0.3);
    let mut world = floating(Order::Second, theta0);
    let spring = Torsion { a: 0, b: None, rest: 0.0, stiffness: k, damping: 0.0 };
    world.add_spring(spring).unwrap();
    let e0 = world.energy();
    let mut worst = 0.0_f64;
    world
        .run_until(1.0, |w| {
            let exact = theta0 * (k.sqrt() * w.time()).cos();
            worst = worst.max((w.bodies()[0].angle() - exact).abs());
        })
        .unwrap();
    assert!(worst < 1e-6, "{worst:e}");
    assert_eq!(world.bodies()[0].position(), V2::zeros());
    let drift = (world.energy() - e0).abs() / e0;
    assert!(drift < 1e-7, "{drift:e}");
}

#[test]
fn a_torsion_spring_between_two_bodies_twists_them_apart_equally_and_oppositely() {
    // Torques −I k φ and +I k φ with I = 1/(1/I_a + 1/I_b): the angular momenta sum
    // to zero for ever, and the twist φ = θ_a − θ_b − rest obeys φ̈ = −k φ.
    let (k, rest) = (16.0, 0.1);
    let mut world = floating(Order::Second, 0.5);
    let bar = Shape::rectangle(1.0, 0.2, 1.0).unwrap();
    world.add_body(bar, 1, (V2::new(3.0, 0.0), 0.0), (V2::zeros(), 0.0)).unwrap();
    let spring = Torsion { a: 0, b: Some(1), rest, stiffness: k, damping: 0.0 };
    world.add_spring(spring).unwrap();
    let phi0 = 0.5 - rest;
    let (mut worst, mut momentum) = (0.0_f64, 0.0_f64);
    world
        .run_until(2.0, |w| {
            let b = w.bodies();
            let phi = b[0].angle() - b[1].angle() - rest;
            let exact = phi0 * (k.sqrt() * w.time()).cos();
            worst = worst.max((phi - exact).abs());
            let l = b[0].inertia() * b[0].angular_velocity()
                + b[1].inertia() * b[1].angular_velocity();
            momentum = momentum.max(l.abs());
        })
        .unwrap();
    assert!(worst < 1e-6, "{worst:e}");
    assert!(momentum < 1e-12, "{momentum:e}");
}

#[test]
fn in_a_first_order_world_a_torsion_spring_turns_at_stiffness_over_damping() {
    // ω = τ/I = −(k/c) θ: θ = θ₀ e^(−(k/c) t).
    let (k, c, theta0) = (10.0, 5.0, 0.4);
    let mut world = floating(Order::First, theta0);
    let spring = Torsion { a: 0, b: None, rest: 0.0, stiffness: k, damping: c };
    world.add_spring(spring).unwrap();
    world.run_until(1.0, |_| {}).unwrap();
    let exact = theta0 * (-(k / c) * world.time()).exp();
    let angle = world.bodies()[0].angle();
    assert!((angle - exact).abs() < 1e-8, "{angle} against {exact}");
    // With no damping there is no rate: refused when the force is asked for.
    let mut world = floating(Order::First, theta0);
    let stiff = Torsion { damping: 0.0, ..spring };
    world.add_spring(stiff).unwrap();
    let err = world.step().unwrap_err().to_string();
    assert!(err.contains("stiffness/damping"), "{err}");
}

#[test]
fn bad_springs_are_refused_and_a_removed_body_takes_its_springs_with_it() {
    let mut world = floating(Order::Second, 0.0);
    let bar = Shape::rectangle(1.0, 0.2, 1.0).unwrap();
    world
        .add_body(bar.clone(), 1, (V2::new(3.0, 0.0), 0.0), (V2::zeros(), 0.0))
        .unwrap();
    world.add_body(bar, 2, (V2::new(6.0, 0.0), 0.0), (V2::zeros(), 0.0)).unwrap();
    let good = Torsion { a: 0, b: Some(2), rest: 0.0, stiffness: 1.0, damping: 0.0 };
    for (bad, says) in [
        (Torsion { a: 3, ..good }, "there are 3"),
        (Torsion { b: Some(7), ..good }, "there are 3"),
        (Torsion { b: Some(0), ..good }, "both ends"),
        (Torsion { rest: f64::NAN, ..good }, "rest angle"),
        (Torsion { stiffness: -1.0, ..good }, "stiffness"),
        (Torsion { damping: f64::INFINITY, ..good }, "damping"),
    ] {
        let err = world.add_spring(bad).unwrap_err().to_string();
        assert!(err.contains(says), "{bad:?}: {err}");
    }
    world.add_spring(good).unwrap();
    world.add_spring(Torsion { a: 1, b: None, ..good }).unwrap();
    // Taking body 1 out drops its spring, and body 2 becomes body 1.
    world.remove_body(1).unwrap();
    assert_eq!(world.springs(), &[Torsion { a: 0, b: Some(1), ..good }]);
}

/// The rack's height at each of `times` (and the run's stats) for `jack`.
fn heights(jack: &Jack, times: &[f64]) -> (Vec<f64>, World) {
    let settings =
        Settings { friction: 0.3, restitution: 0.1, ..Settings::default() };
    let mut world = jack.build(settings).unwrap();
    let start = world.bodies()[Jack::RACK].position().y;
    let mut out = Vec::new();
    for &t in times {
        while world.time() < t - 1e-9 {
            jack.step(&mut world).unwrap();
        }
        out.push(world.bodies()[Jack::RACK].position().y - start);
    }
    (out, world)
}

#[test]
fn the_jack_lifts_its_load_a_tooth_on_every_stroke_up_and_down() {
    // At the end of each stroke (the handle at the bottom, then the top, every
    // half pump) the rack stands one pitch higher than at the end of the last.
    let jack = Jack::BOOK;
    let ends: Vec<f64> =
        (0..6).map(|k| jack.period * (0.25 + 0.5 * k as f64)).collect();
    let (h, world) = heights(&jack, &ends);
    for pair in h.windows(2) {
        let gain = pair[1] - pair[0];
        assert!((gain - Jack::PITCH).abs() < 0.03, "a stroke gained {gain}: {h:?}");
    }
    let s = world.stats();
    let eps = world.settings().epsilon;
    assert!(s.max_depth <= eps, "{s:?}");
    assert!(s.max_pin_error < 1e-3, "{s:?}");
    // The load is still on the platform, centred within 10 cm: the strokes'
    // jolts have not walked it off.
    let (rack, load) = (&world.bodies()[Jack::RACK], &world.bodies()[1]);
    assert!((load.position().x - rack.position().x).abs() < 0.1);
}

#[test]
fn the_pawls_never_let_the_rack_fall_a_whole_tooth() {
    // Between strokes the rack drops back until the idle pawl catches: less than
    // half a pitch; a slip would show as a whole pitch or more.
    let jack = Jack::BOOK;
    let times: Vec<f64> = (1..=900).map(|i| 0.01 * i as f64).collect();
    let (h, _) = heights(&jack, &times);
    let (mut highest, mut fall) = (0.0_f64, 0.0_f64);
    for &y in &h {
        highest = highest.max(y);
        fall = fall.max(highest - y);
    }
    assert!(fall < 0.5 * Jack::PITCH, "fell {fall}");
    assert!(highest > 5.5 * Jack::PITCH, "climbed {highest}");
}

#[test]
fn a_swing_too_short_lifts_the_rack_and_lets_it_fall_back_every_stroke() {
    // Swung 0.2 rad, a pawl's pin moves 1.1 sin 0.2 = 0.22 m each way: the idle pawl
    // drops 0.44 m down the rack, not far enough past the next tooth's tip to swing
    // in under it. Each stroke lifts the rack about 0.2 m; each return to level
    // lowers it again onto the pawls it started on.
    let jack = Jack { swing: 0.2, ..Jack::BOOK };
    let times: Vec<f64> = (1..=12).map(|k| 0.25 * jack.period * k as f64).collect();
    let (h, _) = heights(&jack, &times);
    for (k, y) in h.iter().enumerate() {
        let (lo, hi) = if k % 2 == 0 { (0.15, 0.3) } else { (-0.01, 0.05) };
        assert!(*y > lo && *y < hi, "at {} s: {y} ({h:?})", times[k]);
    }
}
