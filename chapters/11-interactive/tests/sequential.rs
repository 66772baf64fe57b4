//! Sequential impulses in the interactive world against the same closed forms as the
//! paper's loop (a block on a slope sticking or sliding as Coulomb says, a block
//! dropped coming to rest), a pinned pendulum holding together, and the pile of
//! fifty coming to rest inside its box.

use crate::world::{dropped_block, ground, slide_by};
use nalgebra::Vector2;
use pbm_interactive::scenes::{Pendulum, Pile};
use pbm_interactive::shape::Shape;
use pbm_interactive::world::{Order, Settings, Solver, World};

type V2 = Vector2<f64>;

const SEQUENTIAL: Solver = Solver::SequentialImpulses { sweeps: 10 };

#[test]
fn by_sequential_impulses_a_block_on_a_slope_sticks_or_slides_as_coulomb_says() {
    let theta: f64 = 0.3;
    // tan 0.3 = 0.309: μ = 0.4 holds it, to what ten sweeps leave of gravity's
    // pull per substep.
    let stuck = slide_by(SEQUENTIAL, theta, 0.4, 1.0);
    assert!(stuck.abs() < 1e-4, "{stuck}");
    // μ = 0.1 and μ = 0 do not: it slides down at g (sin θ − μ cos θ). Symplectic
    // Euler over substeps of h/4 travels ½ a t² (1 + h/(4t)), 0.25 % more.
    let t = 1.0;
    for mu in [0.1, 0.0] {
        let moved = slide_by(SEQUENTIAL, theta, mu, t);
        let a = 9.81 * (theta.sin() - mu * theta.cos());
        let expected = -0.5 * a * t * t;
        assert!(
            (moved - expected).abs() < 0.005 * expected.abs(),
            "μ = {mu}: {moved} vs {expected}"
        );
    }
}

#[test]
fn by_sequential_impulses_a_dropped_block_comes_to_rest_on_the_ground() {
    let settings =
        Settings { restitution: 0.3, solver: SEQUENTIAL, ..Settings::default() };
    let eps = settings.epsilon;
    let world = dropped_block(settings);
    let body = &world.bodies()[0];
    // Flat on its long side, its centre 0.25 m up: speculative contacts stop it at
    // the surface, and the split impulses push out what sinks past ε.
    assert!((body.position().y - 0.25).abs() < eps, "{:?}", body.position());
    assert!(body.angle().sin().abs() < eps, "{}", body.angle());
    assert!(body.velocity().norm() < 1e-3, "{:?}", body.velocity());
    let stats = world.stats();
    assert!(stats.max_depth <= eps, "{stats:?}");
}

#[test]
fn by_sequential_impulses_a_dropped_block_bounces_to_e_squared_of_its_height() {
    // Flat, from 1 m above the ground: it lands at √(2 g H) and leaves at e times
    // that, so it rises to e² H. The bounce is the first substep's target in the
    // step in which the block touches, not before (a block that would still be
    // above the ground must not be pushed up), so the rebound is e² H to within a
    // step's share of the fall and the symplectic Euler's error.
    let e: f64 = 0.5;
    let settings =
        Settings { restitution: e, solver: SEQUENTIAL, ..Settings::default() };
    let mut world = World::new(settings).unwrap();
    world.add_fixture(ground(0.0)).unwrap();
    let block = Shape::rectangle(1.0, 0.5, 2.0).unwrap();
    let (rest, height) = (0.25, 1.0);
    world
        .add_body(block, 0, (V2::new(0.0, rest + height), 0.0), (V2::zeros(), 0.0))
        .unwrap();
    let (mut landed, mut peak) = (false, 0.0_f64);
    world
        .run_until(1.2, |w| {
            let body = &w.bodies()[0];
            landed |= body.velocity().y > 0.0;
            if landed {
                peak = peak.max(body.position().y - rest);
            }
        })
        .unwrap();
    assert!(landed, "it never bounced");
    assert!((peak / (e * e * height) - 1.0).abs() < 0.05, "rose {peak} m");
}

#[test]
fn by_sequential_impulses_a_sliding_block_keeps_its_impulses_from_step_to_step() {
    // A block sliding down a slope moves a few centimetres a step: its contacts are
    // recognised by the corner they are at on the block, so each step starts from
    // the last step's impulses. Warm-started, ten sweeps carry its weight through
    // every step: its corners neither sink nor bounce off the slope.
    let theta: f64 = 0.3;
    let settings =
        Settings { friction: 0.1, solver: SEQUENTIAL, ..Settings::default() };
    let mut world = World::new(settings).unwrap();
    world.add_fixture(ground(theta)).unwrap();
    let block = Shape::rectangle(0.4, 0.2, 5.0).unwrap();
    let up = V2::new(-theta.sin(), theta.cos());
    world.add_body(block, 0, (up * 0.1, theta), (V2::zeros(), 0.0)).unwrap();
    let mut lift = 0.0_f64;
    world
        .run_until(1.0, |w| {
            let height = (w.bodies()[0].position()).dot(&up) - 0.1;
            lift = lift.max(height.abs());
        })
        .unwrap();
    assert!(world.bodies()[0].velocity().norm() > 1.0, "it did not slide");
    assert!(lift < 1e-4, "its centre left the slope by {lift} m");
}

#[test]
fn by_sequential_impulses_a_pinned_pendulum_holds_together() {
    let settings = Settings { solver: SEQUENTIAL, ..Settings::default() };
    let mut world = Pendulum::BOOK.build(settings).unwrap();
    let start = world.energy();
    let mut worst_energy = 0.0_f64;
    world
        .run_until(3.0, |w| {
            worst_energy = worst_energy.max((w.energy() - start).abs())
        })
        .unwrap();
    let stats = world.stats();
    // Baumgarte's feedback on the pins' velocities keeps their ends within a
    // centimetre of each other while the three bars whip round, and the energy
    // within 5 % of the most the swing can release, the bars falling from
    // horizontal to hanging: Σ m g (k + ½) l.
    assert!(stats.max_pin_error < 0.01, "{stats:?}");
    let swing: f64 = (0..world.bodies().len())
        .map(|k| world.bodies()[k].mass() * 9.81 * (k as f64 + 0.5))
        .sum();
    assert!(worst_energy < 0.05 * swing, "{worst_energy} J of {swing} J");
}

#[test]
fn by_sequential_impulses_the_pile_of_fifty_comes_to_rest_inside_its_box() {
    let settings = Settings {
        friction: 0.3,
        restitution: 0.1,
        solver: SEQUENTIAL,
        ..Settings::default()
    };
    let eps = settings.epsilon;
    let pile = Pile { count: 50, ..Pile::BOOK };
    let mut world = pile.build(settings).unwrap();
    world.run_until(8.0, |_| {}).unwrap();
    let half = 0.5 * pile.width;
    for k in 0..world.bodies().len() {
        for part in world.placed(k) {
            for v in part.vertices() {
                assert!(v.y > -eps && v.x.abs() < half + eps, "body {k} at {v:?}");
            }
        }
    }
    // Under a millijoule a polygon, as the exercise counts it settled.
    let energy = world.kinetic_energy();
    assert!(energy < 1e-3 * pile.count as f64, "{energy} J");
    let stats = world.stats();
    assert!(stats.max_depth < 2.0 * eps, "{stats:?}");
}

#[test]
fn a_first_order_world_has_no_velocities_for_sequential_impulses() {
    let settings =
        Settings { order: Order::First, solver: SEQUENTIAL, ..Settings::default() };
    let error = World::new(settings).err().unwrap().to_string();
    assert!(error.contains("no velocities for impulses"), "{error}");
    let settings = Settings {
        solver: Solver::SequentialImpulses { sweeps: 0 },
        ..Settings::default()
    };
    assert!(World::new(settings).is_err());
}

#[test]
fn by_sequential_impulses_a_block_bounces_only_once_it_has_met_the_ground() {
    // A block falling at 3 m/s, 2 cm above the ground, e = 0.5: it meets the ground
    // within the step (3 cm of travel) but not within the first substep (7.5 mm).
    // It must fall until the substep whose travel closes its gap and bounce there,
    // so that it ends the step lower than it began, rising at about e · 3 m/s; a
    // bounce given to the first substep would turn it round 2 cm up, in mid-air.
    let settings =
        Settings { solver: SEQUENTIAL, restitution: 0.5, ..Settings::default() };
    let mut world = World::new(settings).unwrap();
    world.add_fixture(ground(0.0)).unwrap();
    let block = Shape::rectangle(1.0, 0.5, 2.0).unwrap();
    let (gap, falling) = (0.02, (V2::new(0.0, -3.0), 0.0));
    world.add_body(block, 0, (V2::new(0.0, 0.25 + gap), 0.0), falling).unwrap();
    world.step().unwrap();
    let body = &world.bodies()[0];
    let (end_gap, v) = (body.position().y - 0.25, body.velocity().y);
    assert!(end_gap < gap - 0.005, "ends {end_gap} m up: it turned before meeting");
    assert!((v - 1.5).abs() < 0.1, "rises at {v} m/s, not about 1.5");
}

#[test]
fn by_sequential_impulses_a_contact_still_apart_at_the_steps_end_does_not_slow_a_fall()
 {
    // A block falling at 3 m/s, 4 cm above the ground: within the step's reach
    // (ε plus what it can close in a step), so its contacts are found, but it
    // travels only about 3 cm in the step. Nothing may slow it: after the step it
    // falls at 3 m/s plus what gravity adds. (The first substep used to aim every
    // found contact at a closing speed of zero, stopping falling bodies a step's
    // travel short of what they were to land on.)
    let settings = Settings { solver: SEQUENTIAL, ..Settings::default() };
    let h = settings.h;
    let mut world = World::new(settings).unwrap();
    world.add_fixture(ground(0.0)).unwrap();
    let block = Shape::rectangle(1.0, 0.5, 2.0).unwrap();
    let falling = (V2::new(0.0, -3.0), 0.0);
    world.add_body(block, 0, (V2::new(0.0, 0.25 + 0.04), 0.0), falling).unwrap();
    world.step().unwrap();
    assert!(!world.contact_points().is_empty(), "its contacts were not found");
    let v = world.bodies()[0].velocity().y;
    let free = -3.0 - 9.81 * h;
    assert!((v - free).abs() < 1e-12, "falls at {v} m/s, not {free}");
}
