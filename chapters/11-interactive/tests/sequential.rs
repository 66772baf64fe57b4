//! Sequential impulses in the interactive world against the same closed forms as the
//! paper's loop (a block on a slope sticking or sliding as Coulomb says, a block
//! dropped coming to rest), a pinned pendulum holding together, and the pile of
//! fifty coming to rest inside its box.

use crate::world::{ground, slide_by};
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
    let mut world = World::new(settings).unwrap();
    world.add_fixture(ground(0.0)).unwrap();
    let block = Shape::rectangle(1.0, 0.5, 2.0).unwrap();
    world.add_body(block, 0, (V2::new(0.0, 0.75), 0.2), (V2::zeros(), 0.0)).unwrap();
    world.run_until(3.0, |_| {}).unwrap();
    let body = &world.bodies()[0];
    // Flat on its long side, its centre 0.25 m up: speculative contacts stop it at
    // the surface, and the split impulses push out what sinks past ε.
    assert!((body.position().y - 0.25).abs() < eps, "{:?}", body.position());
    assert!(body.angle().sin().abs() < eps, "{}", body.angle());
    assert!(body.velocity().norm() < 1e-3, "{:?}", body.velocity());
    let stats = world.stats();
    assert!(stats.max_depth <= eps && stats.sweeps > 0, "{stats:?}");
    assert_eq!((stats.impacts, stats.corrections, stats.shortened), (0, 0, 0));
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
