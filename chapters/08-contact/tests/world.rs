//! The simulation loop against what the physics says: a stack that stays put, a
//! block that slips exactly when tan θ > μ, impacts that never make energy.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use nalgebra::{UnitQuaternion, Vector3};
use pbm_contact::exercises::SLIPPED;
use pbm_contact::scenes;
use pbm_contact::scenes::{run_stack, slip};
use pbm_contact::world::{CollisionSearch, Settings, Solver, World};

#[test]
fn ten_boxes_rest_for_ten_seconds_within_a_millimetre() {
    let settings = Settings { friction: 0.5, ..Settings::default() };
    let (world, drift, _) = run_stack(10, 10.0, settings).unwrap();
    assert!(drift < 1e-3, "drift {drift} m");
    let stats = world.stats();
    // No contact force ever pulls; the top box's four corners share its weight.
    assert!(stats.min_normal_force >= 0.0, "{stats:?}");
    assert!(stats.solves == 4000 && stats.warm > 3900, "{stats:?}");
}

#[test]
fn the_stack_creeps_at_the_rate_the_regularisation_predicts() {
    // h ρ g n (n + 1) for n boxes: the top box's drift after t seconds, with and
    // without friction, for three stack heights and three steps, within 2 %.
    for (boxes, h, mu) in
        [(10, 0.01, 0.5), (10, 0.01, 0.0), (4, 0.02, 0.5), (20, 0.005, 0.5)]
    {
        let settings = Settings { friction: mu, h, ..Settings::default() };
        let seconds = 4.0;
        let (world, _, _) = run_stack(boxes, seconds, settings).unwrap();
        let top = world.bodies().last().unwrap().position();
        let put = scenes::CUBE.0 * (boxes as f64 - 0.5);
        let sunk = put - top.y;
        let predicted = scenes::stack_creep_rate(boxes, h, 9.81) * seconds;
        assert!(
            (sunk / predicted - 1.0).abs() < 0.02,
            "{boxes} boxes, h = {h}, μ = {mu}: sank {sunk:e} m, predicted {predicted:e} m"
        );
    }
}

#[test]
fn the_block_slips_if_and_only_if_tan_theta_exceeds_mu() {
    for mu in [0.3, 0.5, 1.0] {
        let theta = f64::atan(mu);
        let settings = Settings { friction: mu, ..Settings::default() };
        let below = slip(theta - 1e-3, settings, 1.0).unwrap();
        let above = slip(theta + 1e-3, settings, 1.0).unwrap();
        assert!(below < SLIPPED, "μ = {mu}: slid {below} m below the angle");
        // Above it, the block slides as ½ g (sin θ − μ cos θ) t².
        let t = theta + 1e-3;
        let expected = 0.5 * 9.81 * (t.sin() - mu * t.cos());
        assert!(
            (above - expected).abs() < 0.02 * expected,
            "μ = {mu}: slid {above} m, expected {expected}"
        );
    }
}

#[test]
fn impacts_never_make_energy() {
    for e in [0.0, 0.5, 1.0] {
        let settings = Settings { restitution: e, ..Settings::default() };
        let mut world = scenes::drop(0.5, settings).unwrap();
        world.run_until(1.5, |_| {}).unwrap();
        let stats = world.stats();
        assert!(stats.impacts > 0, "e = {e}");
        assert!(stats.max_impact_energy_gain <= 1e-12, "e = {e}: {stats:?}");
    }
}

#[test]
fn inelastic_impacts_settle_the_box_on_a_face() {
    let settings = Settings { restitution: 0.0, ..Settings::default() };
    let mut world = scenes::drop(0.5, settings).unwrap();
    world.run_until(3.0, |_| {}).unwrap();
    let body = &world.bodies()[0];
    // It lies on its largest face, 0.4 × 0.3: its centre 0.1 m up, at rest.
    assert!((body.position().y - 0.1).abs() < 1e-3, "{}", body.position());
    assert!(body.velocity().norm() < 1e-3 && body.angular_velocity().norm() < 1e-2);
}

#[test]
fn bad_settings_and_states_are_errors() {
    let ground = || vec![scenes::ground().unwrap()];
    let error = |s: Settings| World::new(s, ground()).err().unwrap().to_string();
    let e = error(Settings { restitution: 1.5, ..Settings::default() });
    assert!(e.contains("restitution") && e.contains("[0, 1]"), "{e}");
    let e = error(Settings { friction: -0.1, ..Settings::default() });
    assert!(e.contains("friction") && e.contains("not negative"), "{e}");
    let e = error(Settings { h: f64::NAN, ..Settings::default() });
    assert!(e.contains("time step"), "{e}");
    let mut world = World::new(Settings::default(), ground()).unwrap();
    let v = Vector3::new(f64::NAN, 0.0, 0.0);
    let e = world
        .add_box(Vector3::repeat(1.0), 1.0, v, UnitQuaternion::identity(), (v, v))
        .unwrap_err()
        .to_string();
    assert!(e.contains("finite"), "{e}");
}

#[test]
fn the_exercises_name_the_fields_the_checks_read() {
    let all = pbm_contact::exercises::all();
    let run = |id: &str, set: &[&str]| {
        let e = all.iter().find(|e| e.id == id).unwrap();
        let set: Vec<String> = set.iter().map(|s| s.to_string()).collect();
        e.run_with("contact", &set).unwrap()
    };
    let drop = run("drop", &["t_end=1"]);
    assert_eq!(drop["energy_increased"], false);
    assert!(drop["max_energy_gain"].as_f64().unwrap() <= 1e-12);
    let stack = run("stack", &["boxes=3", "t_end=1"]);
    assert_eq!(stack["boxes"], 3);
    assert!(stack["max_drift_m"].as_f64().unwrap() < 1e-3);
    assert!(stack["min_contact_force"].as_f64().unwrap() >= 0.0);
    assert_eq!(stack["seconds"], 1.0);
    let incline = run("incline", &["t_end=0.5"]);
    let (m, t) = (
        incline["slip_threshold_deg"].as_f64().unwrap(),
        incline["tan_theta_equals_mu_deg"].as_f64().unwrap(),
    );
    assert!((m - t).abs() < 1e-3f64.to_degrees(), "{m} vs {t}");
    assert_eq!(incline["friction"], 0.5);
}

#[test]
fn friction_too_small_to_resolve_counts_as_none() {
    // μ = 4e-9 allows forces of nanonewtons, below the solve's resolution; the
    // fuzz test found the friction bounds chasing roundoff there and not settling.
    let tiny = Settings { friction: 4e-9, ..Settings::default() };
    let (world, drift, _) = run_stack(10, 4.0, tiny).unwrap();
    assert!(drift < 1e-6, "drift {drift} m");
    assert!(world.stats().min_normal_force >= 0.0);
}

#[test]
fn a_resting_contact_that_closes_slowly_is_stopped_not_carried() {
    // A cube on the ground sinking at 0.5 mm/s, below the 1 mm/s that counts as a
    // collision. The force solve alone would keep that speed for ever (it holds the
    // acceleration, not the velocity); the inelastic impulse before the step stops it.
    let settings = Settings { friction: 0.5, ..Settings::default() };
    let mut world = World::new(settings, vec![scenes::ground().unwrap()]).unwrap();
    let sinking = (Vector3::new(0.0, -5e-4, 0.0), Vector3::zeros());
    let (side, mass) = scenes::CUBE;
    let centre = Vector3::new(0.0, 0.5 * side, 0.0);
    let cube = Vector3::repeat(side);
    world.add_box(cube, mass, centre, UnitQuaternion::identity(), sinking).unwrap();
    world.step().unwrap();
    let v = world.bodies()[0].velocity().norm();
    assert!(v < 1e-9, "still moving at {v} m/s after one step");
    world.run_until(1.0, |_| {}).unwrap();
    let height = world.bodies()[0].position().y;
    assert!((height - 0.5 * side).abs() < 1e-9, "centre at {height} m");
    assert_eq!(world.stats().impacts, 0);
}

#[test]
fn a_hard_landing_on_a_seesaw_finishes_and_reports_what_friction_left_unsettled() {
    // Three times the balancing mass: the plank lands hard and rocks between the
    // ground and the ridge (see the worlds page); the run still finishes, and any
    // friction solve whose rounds did not settle stays within 5 % of Coulomb's law.
    let settings =
        Settings { friction: 0.5, restitution: 0.0, ..Settings::default() };
    let mut world = scenes::seesaw((3.0, 1.2), (2.0, 0.6), settings).unwrap();
    world.run_until(1.0, |_| {}).unwrap();
    let stats = world.stats();
    assert!(stats.impacts > 10, "{stats:?}");
    assert!(stats.max_mismatch <= pbm_contact::friction::UNSETTLED, "{stats:?}");
    let tilt = world.bodies()[0].rotation()[(1, 0)].asin().to_degrees();
    assert!((tilt - 11.537).abs() < 0.5, "tilt {tilt}°");
}

#[test]
fn a_box_dropped_flat_bounces_a_few_times_and_comes_to_rest() {
    // A 0.4 × 0.2 × 0.3 m box of 1 kg released flat 2 cm above the ground, e = 0.5:
    // it lands at √(2 g h) = 0.63 m/s and each bounce is half as fast, so the series
    // of flights sums to about 0.19 s. Impacts too slow to outlast a step of gravity
    // do not bounce, so it stops instead of hopping on the spot.
    let mut world = scenes::flat_drop(0.02, Settings::default()).unwrap();
    world.run_until(0.5, |_| {}).unwrap();
    let impacts = world.stats().impacts;
    world.run_until(3.0, |_| {}).unwrap();
    let body = &world.bodies()[0];
    let (v, w) = (body.velocity().norm(), body.angular_velocity().norm());
    assert!(v <= 1e-6 && w <= 1e-6, "still moving: |v| = {v} m/s, |ω| = {w} rad/s");
    assert_eq!(world.stats().impacts, impacts, "impacts after 0.5 s");
}

#[test]
fn the_corner_first_drop_comes_to_rest_near_the_sum_of_its_bounces() {
    // contact/drop at its defaults: dropped from 0.5 m with e = 0.5, the flights after
    // the first landing sum to about 0.96 s; the box must be at rest by 1.2 s.
    let chapter = pbm_contact::chapter();
    let v = pbm_prelim::testing::run(&chapter, "drop", &[]).unwrap();
    let rest = v["rest_time_s"].as_f64().unwrap_or(f64::INFINITY);
    assert!(rest <= 1.2, "{v}");
    assert!(v["impacts"].as_u64().unwrap() > 1, "{v}");
}

#[test]
fn a_slowly_sliding_box_loses_five_eighths_of_its_speed_each_step() {
    // The friction rows ask for the tangential acceleration −s/h that would remove the
    // sliding speed s within the step. RK4 re-evaluates it at every stage, so over a
    // step s follows ṡ = −s/h, which one RK4 step multiplies by R(−1) = 1 − 1 + 1/2 −
    // 1/6 + 1/24 = 3/8 (chapter 1's stability function): a geometric decay, not a stop.
    let settings =
        Settings { friction: 0.5, restitution: 0.0, ..Settings::default() };
    let mut world = World::new(settings, vec![scenes::ground().unwrap()]).unwrap();
    let size = Vector3::new(0.4, 0.2, 0.4);
    let slide = (Vector3::new(0.01, 0.0, 0.0), Vector3::zeros());
    let centre = Vector3::new(0.0, 0.1, 0.0);
    world.add_box(size, 1.0, centre, UnitQuaternion::identity(), slide).unwrap();
    let mut speeds = Vec::new();
    for _ in 0..6 {
        world.step().unwrap();
        speeds.push(world.bodies()[0].velocity().x);
    }
    for pair in speeds.windows(2) {
        let ratio = pair[1] / pair[0];
        assert!((ratio - 0.375).abs() < 1e-6, "speeds {speeds:?}");
    }
}

#[test]
fn a_fast_cube_does_not_pass_through_a_resting_one_at_a_large_step() {
    // No gravity, e = 1, h = 0.1 s: a unit cube at 100 m/s moves 10 m a step, and a
    // world that looked only at the ends of full steps would never see the resting
    // cube 5 m ahead. Cut to the cubes' width, the steps find the impact: equal
    // masses and e = 1 exchange the velocities.
    let settings = Settings {
        gravity: Vector3::zeros(),
        restitution: 1.0,
        h: 0.1,
        ..Settings::default()
    };
    let mut world = World::new(settings, Vec::new()).unwrap();
    let unit = Vector3::new(1.0, 1.0, 1.0);
    let turn = UnitQuaternion::identity();
    let fast = (Vector3::new(100.0, 0.0, 0.0), Vector3::zeros());
    let still = (Vector3::zeros(), Vector3::zeros());
    world.add_box(unit, 1.0, Vector3::zeros(), turn, fast).unwrap();
    world.add_box(unit, 1.0, Vector3::new(5.0, 0.0, 0.0), turn, still).unwrap();
    world.run_until(0.1, |_| {}).unwrap();
    let (moving, resting) = (&world.bodies()[0], &world.bodies()[1]);
    assert_eq!(world.stats().impacts, 1, "{:?}", world.stats());
    assert!(moving.velocity().norm() < 1e-9, "{:?}", moving.velocity());
    assert!((resting.velocity().x - 100.0).abs() < 1e-9, "{:?}", resting.velocity());
}

#[test]
fn interpolated_collision_times_match_bisection_with_fewer_rk4_steps() {
    // A box dropped corner first bounces and tumbles. The interpolation follows its
    // centre's free fall exactly, and its turning to far inside the window of depths
    // the search accepts, so it stops at the very times bisection finds.
    let run = |search| {
        let settings = Settings { search, ..Settings::default() };
        let mut world = scenes::drop(0.5, settings).unwrap();
        world.run_until(1.5, |_| ()).unwrap();
        let body = &world.bodies()[0];
        (body.position(), body.velocity(), world.stats())
    };
    let (x_i, v_i, interpolated) = run(CollisionSearch::Interpolated);
    let (x_b, v_b, bisection) = run(CollisionSearch::Bisection);
    assert!((x_i - x_b).norm() < 1e-9 && (v_i - v_b).norm() < 1e-9, "{x_i} vs {x_b}");
    assert_eq!(interpolated.impacts, bisection.impacts);
    assert_eq!(interpolated.shortened, bisection.shortened);
    assert!(interpolated.shortened > 5, "{interpolated:?}");
    // Each shortened step costs one checking step instead of a handful of halvings.
    assert!(interpolated.retaken <= interpolated.shortened + 2, "{interpolated:?}");
    assert!(bisection.retaken >= 3 * bisection.shortened, "{bisection:?}");
}

#[test]
fn a_block_sliding_across_the_friction_pyramid_stops_where_the_pyramid_says() {
    // Each tangent row saturates on its own, so each velocity component falls at
    // μ g: the block stops at the pyramid's closed form, off the cone's straight line.
    let (mu, speed) = (0.5, 2.0);
    for degrees in [10.0f64, 30.0, 60.0] {
        let angle = degrees.to_radians();
        let settings = Settings { friction: mu, ..Settings::default() };
        let mut world = scenes::slide(angle, speed, settings).unwrap();
        world.run_until(1.0, |_| ()).unwrap();
        let x = world.bodies()[0].position();
        let g = -settings.gravity.y;
        let pyramid = scenes::slide_stop(angle, speed, mu, g, false);
        let cone = scenes::slide_stop(angle, speed, mu, g, true);
        let off = |p: (f64, f64)| (x.x - p.0).hypot(x.z - p.1);
        assert!(off(pyramid) < 0.01, "{degrees}°: {x} vs pyramid {pyramid:?}");
        assert!(off(cone) > 0.02, "{degrees}°: {x} is on the cone's line {cone:?}");
        assert!(
            world.bodies()[0].velocity().norm() < 1e-3,
            "{degrees}°: still moving"
        );
    }
}

#[test]
fn a_contact_closing_too_slowly_for_an_impulse_stops_within_a_few_steps() {
    // A cube sinking at 0.5 µm/s, below the slowest speed the impulse before the step
    // stops. Holding d̈ = 0 alone would carry that speed for ever, a steady sink that
    // the tolerance correction pushes back step after step; the closing speed in b
    // (v_n / h) makes it decay as v̇ = −v/h, of which an RK4 step leaves
    // 1 − 1 + 1/2 − 1/6 + 1/24 = 3/8.
    let mut world =
        World::new(Settings::default(), vec![scenes::ground().unwrap()]).unwrap();
    let sinking = (Vector3::new(0.0, -5e-7, 0.0), Vector3::zeros());
    let (side, mass) = scenes::CUBE;
    let centre = Vector3::new(0.0, 0.5 * side, 0.0);
    let cube = Vector3::repeat(side);
    world.add_box(cube, mass, centre, UnitQuaternion::identity(), sinking).unwrap();
    world.step().unwrap();
    let v = world.bodies()[0].velocity().y;
    assert!((v / -5e-7 - 0.375).abs() < 1e-3, "closing at {v} m/s after one step");
    for _ in 0..9 {
        world.step().unwrap();
    }
    let v = world.bodies()[0].velocity().y;
    assert!(v.abs() < 1e-9, "still closing at {v} m/s after ten steps");
    world.run_until(1.0, |_| {}).unwrap();
    let sunk = 0.5 * side - world.bodies()[0].position().y;
    assert!(sunk.abs() < 1e-8, "sank {sunk} m");
    assert_eq!(world.stats().corrections, 0, "{:?}", world.stats());
}

#[test]
fn the_kept_factor_gives_the_forces_a_fresh_solve_gives() {
    // The same stack solved through the factor kept from solve to solve, and with
    // every solve pivoted from scratch: the same contact forces.
    let settings = Settings { friction: 0.5, ..Settings::default() };
    let mut kept = scenes::stack(5, settings).unwrap();
    kept.run_until(0.5, |_| {}).unwrap();
    let mut fresh = scenes::stack(5, settings).unwrap();
    fresh.set_warm_start(false);
    fresh.run_until(0.5, |_| {}).unwrap();
    let (a, b) = (kept.last_normal_forces(), fresh.last_normal_forces());
    assert_eq!(a.len(), b.len());
    let largest = b.iter().fold(0.0_f64, |m, f| m.max(f.abs()));
    for (x, y) in a.iter().zip(&b) {
        assert!((x - y).abs() < 1e-6 * largest, "{a:?} vs {b:?}");
    }
    let stats = kept.stats();
    assert!(stats.reused + 1 >= stats.solves, "{stats:?}");
    assert_eq!(fresh.stats().reused, 0);
}

#[test]
fn ten_boxes_by_sequential_impulses_stay_up_but_less_still_than_the_exact_stack() {
    let exact = Settings { friction: 0.5, ..Settings::default() };
    let swept =
        Settings { solver: Solver::SequentialImpulses { sweeps: 10 }, ..exact };
    let (world, drift, _) = run_stack(10, 10.0, swept).unwrap();
    assert!(drift < 1e-2, "drift {drift} m");
    let stats = world.stats();
    assert!(stats.deepest < 1e-2, "{stats:?}");
    assert_eq!(stats.sweeps, stats.solves * 10 * pbm_contact::world::SUBSTEPS);
    let (_, exact_drift, _) = run_stack(10, 10.0, exact).unwrap();
    assert!(exact_drift * 100.0 < drift, "exact {exact_drift} m, swept {drift} m");
}

#[test]
fn sequential_impulses_refuse_a_first_order_world_and_zero_sweeps() {
    use pbm_contact::world::Order;
    let ground = || vec![scenes::ground().unwrap()];
    let first = Settings {
        order: Order::First,
        solver: Solver::SequentialImpulses { sweeps: 10 },
        ..Settings::default()
    };
    let e = World::new(first, ground()).err().unwrap();
    assert!(e.to_string().contains("first-order"), "{e}");
    let none = Settings {
        solver: Solver::SequentialImpulses { sweeps: 0 },
        ..Settings::default()
    };
    let e = World::new(none, ground()).err().unwrap();
    assert!(e.to_string().contains("sweeps"), "{e}");
}

#[test]
fn a_box_dropped_by_sequential_impulses_lands_bounces_less_and_rests() {
    // Speculative contacts: no step is cut back, yet the box never passes the ground.
    let settings = Settings {
        solver: Solver::SequentialImpulses { sweeps: 10 },
        ..Settings::default()
    };
    let mut world = World::new(settings, vec![scenes::ground().unwrap()]).unwrap();
    let (side, mass) = scenes::CUBE;
    let start = Vector3::new(0.0, 2.0, 0.0);
    let cube = Vector3::repeat(side);
    let still = (Vector3::zeros(), Vector3::zeros());
    world.add_box(cube, mass, start, UnitQuaternion::identity(), still).unwrap();
    let mut lowest = f64::INFINITY;
    world
        .run_until(4.0, |w| lowest = lowest.min(w.bodies()[0].position().y))
        .unwrap();
    assert!(lowest > 0.5 * side - 0.01, "sank to {lowest} m");
    let end = &world.bodies()[0];
    assert!((end.position().y - 0.5 * side).abs() < 0.01, "{}", end.position());
    assert!(end.velocity().norm() < 1e-3, "{}", end.velocity());
}

#[test]
fn two_stacks_apart_are_two_islands_each_solved_as_if_alone() {
    // Two stacks of three that touch only through the ground: the force solve finds
    // two islands (the ground, a fixture, joins nothing), and each carries exactly
    // what the same stack carries alone.
    let settings = Settings { friction: 0.5, ..Settings::default() };
    let mut alone = scenes::stack(3, settings).unwrap();
    let mut pair = scenes::stack(3, settings).unwrap();
    scenes::add_stack(&mut pair, 3, 3.0).unwrap();
    let mass = scenes::CUBE.1;
    alone.run_until(0.2, |_| {}).unwrap();
    pair.run_until(0.2, |_| {}).unwrap();
    let stats = pair.stats();
    assert_eq!(stats.islands, 2 * stats.solves, "{stats:?}");
    assert_eq!(alone.stats().islands, alone.stats().solves);
    let sorted = |mut f: Vec<f64>| {
        f.sort_by(f64::total_cmp);
        f
    };
    let one = sorted(alone.last_normal_forces());
    let both = sorted(pair.last_normal_forces());
    let twice = sorted(one.iter().chain(&one).copied().collect());
    assert_eq!(both.len(), twice.len());
    let largest = twice.iter().fold(0.0_f64, |m, f| m.max(f.abs()));
    for (x, y) in both.iter().zip(&twice) {
        assert!((x - y).abs() < 1e-9 * largest, "{both:?} vs {twice:?}");
    }
    // And the ground carries both stacks: 6 m g over its corners.
    let weight = 9.81 * mass;
    let total: f64 = both.iter().sum();
    assert!((total - 12.0 * weight).abs() < 1e-6 * weight, "{total} N");
}

#[test]
fn forty_boxes_by_sequential_impulses_stand_straight_from_six_sweeps_up() {
    // Chapter 7's clipping used to cut off a corner of two flush faces that roundoff
    // put a hair outside, and put points anywhere along the edge lying on the side: the
    // faces then pushed unevenly and this stack leaned, its top swaying by one to
    // four centimetres in 10 s at ten sweeps, and at six it toppled. Now the top
    // moves only down, as every contact settles to about the tolerance.
    let (side, boxes) = (scenes::CUBE.0, 40);
    let put = Vector3::new(0.0, side * (boxes as f64 - 0.5), 0.0);
    let tolerance = Settings::default().tolerance;
    for sweeps in [6, 10] {
        let settings = Settings {
            friction: 0.5,
            solver: Solver::SequentialImpulses { sweeps },
            ..Settings::default()
        };
        let (world, _, _) = run_stack(boxes, 10.0, settings).unwrap();
        let moved = world.bodies().last().unwrap().position() - put;
        let aside = moved.x.hypot(moved.z);
        assert!(aside < 1e-5, "{sweeps} sweeps: the top box moved {aside} m aside");
        let sunk = -moved.y / (boxes as f64 * tolerance);
        assert!(
            (0.5..1.25).contains(&sunk),
            "{sweeps} sweeps: sunk {sunk} tolerances"
        );
    }
}

#[test]
fn a_box_resting_by_sequential_impulses_reports_its_weight_as_contact_force() {
    // Each substep's impulses carry the weight over the substep: read over the whole
    // step they would say a quarter of it.
    let settings = Settings {
        friction: 0.5,
        solver: Solver::SequentialImpulses { sweeps: 10 },
        ..Settings::default()
    };
    let (world, _, _) = run_stack(1, 1.0, settings).unwrap();
    let total: f64 = world.last_normal_forces().iter().sum();
    let weight = 9.81 * scenes::CUBE.1;
    assert!((total - weight).abs() < 1e-3 * weight, "{total} N against {weight} N");
    assert!(world.stats().min_normal_force >= 0.0, "{:?}", world.stats());
}

/// The time-stepping LCP with μ = 0.5 and no restitution (it refuses any).
fn time_stepping() -> Settings {
    Settings {
        friction: 0.5,
        restitution: 0.0,
        solver: Solver::TimeStepping,
        ..Settings::default()
    }
}

#[test]
fn the_time_stepping_lcp_holds_the_stack_creeping_as_the_exact_loop_does() {
    // One velocity problem per step, regularised as the exact loop's: a held row
    // gives way at δ λ = h δ f, the same creep, h ρ g n (n + 1).
    let settings = time_stepping();
    let (boxes, seconds) = (6, 3.0);
    let (world, drift, _) = run_stack(boxes, seconds, settings).unwrap();
    let predicted = scenes::stack_creep_rate(boxes, settings.h, 9.81) * seconds;
    assert!(
        (drift / predicted - 1.0).abs() < 0.05,
        "{drift:e} against {predicted:e}"
    );
    assert!(world.stats().min_normal_force >= 0.0);
}

#[test]
fn the_time_stepping_lcp_keeps_a_block_below_the_friction_angle_and_lands_a_drop() {
    let settings = time_stepping();
    let below = slip(0.5_f64.atan() - 1e-2, settings, 1.0).unwrap();
    let above = slip(0.5_f64.atan() + 1e-2, settings, 1.0).unwrap();
    assert!(below < SLIPPED && above > 100.0 * SLIPPED, "{below} / {above}");
    let mut drop = scenes::drop(0.5, settings).unwrap();
    drop.run_until(3.0, |_| {}).unwrap();
    let body = &drop.bodies()[0];
    assert!(body.velocity().norm() < 1e-3, "{:?}", body.velocity());
    // Speculative contacts close exactly their gap along the step's start velocity;
    // a tumbling box's corners turn meanwhile, and the push out removes the rest.
    assert!(drop.stats().deepest < 2.0 * settings.tolerance, "{:?}", drop.stats());
}

#[test]
fn the_time_stepping_lcp_refuses_restitution_and_first_order_worlds() {
    let settings = Settings { solver: Solver::TimeStepping, ..Settings::default() };
    let e = scenes::stack(1, settings).err().unwrap().to_string();
    assert!(e.contains("inelastic"), "{e}");
}
