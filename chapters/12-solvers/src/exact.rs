//! Chapter 11's exact loop on the bench's scenes, where it can run: the reference
//! the iterative solvers are measured against. Each step solves the contact and
//! friction forces as a complementarity problem at every RK4 stage, stops at each
//! collision, and keeps every overlap below its tolerance ε; it costs more and
//! answers exactly. The bench's bodies go into its world as they are: fixed bodies
//! as fixtures, moving ones with their parts, masses and inertias.

use crate::bench::{Outcome, Watch};
use crate::body::V2;
use crate::scenes::{Scene, build};
use crate::world::Settings;
use pbm_interactive::shape::Shape;
use pbm_interactive::world::{Fixture, Settings as ExactSettings, World as Exact};
use pbm_prelim::PbmError;

/// The most touching pairs the bench lets the exact loop start from in one scene.
/// Its complementarity problem has rows for every contact point and direction, and
/// its cost per step grows much faster than their count: a pyramid whose every box
/// touches four others is far dearer than a column of as many boxes (the pyramid of
/// base 10 would take minutes), while the stack, which starts with gaps, is cheap.
pub const MAX_PAIRS: usize = 30;

/// The exact loop's run of `scene` (pyramid base `base`) for `t_end` seconds, or,
/// as the error of the inner result, why the bench does not run it.
pub fn reference(
    scene: Scene,
    base: usize,
    t_end: f64,
) -> Result<Result<Outcome, String>, PbmError> {
    if let Some(why) = cannot_run(scene) {
        return Ok(Err(why.to_string()));
    }
    let pairs = build(scene, Settings::default(), base)?.world.touching_pairs()?;
    if pairs > MAX_PAIRS {
        return Ok(Err(format!(
            "it starts with {pairs} touching pairs, more than the {MAX_PAIRS} the bench \
             gives the exact loop"
        )));
    }
    Ok(run(scene, base, t_end)?.ok_or_else(|| "it cannot run".to_string()))
}

/// Why the exact loop cannot run `scene`; None where it can.
pub fn cannot_run(scene: Scene) -> Option<&'static str> {
    match scene {
        Scene::FrictionRamp => Some(
            "its world has one friction coefficient for every contact, and the ramp's \
             boxes differ",
        ),
        Scene::OverlapRecovery => Some(
            "it refuses bodies that start overlapping by more than its tolerance ε",
        ),
        Scene::Chain | Scene::JointGrid => Some(
            "its world cannot keep bodies from touching one another, as the chain's \
             links and the net's knots must be kept",
        ),
        _ => None,
    }
}

/// Runs `scene` (pyramid base `base`) by chapter 11's exact loop for `t_end`
/// seconds, at the bench's step and gravity; None where it cannot run. Every
/// contact gets the watched body's friction coefficient (the scenes it runs have
/// one coefficient for all their contacts but the stack, whose bottom box meets
/// the ground at √(0.3 × 0.6) and gets 0.3 here).
pub fn run(
    scene: Scene,
    base: usize,
    t_end: f64,
) -> Result<Option<Outcome>, PbmError> {
    if cannot_run(scene).is_some() {
        return Ok(None);
    }
    let built = build(scene, Settings::default(), base)?;
    let bodies = &built.world.bodies;
    let s = built.world.settings();
    let mut world = Exact::new(ExactSettings {
        gravity: s.gravity,
        h: s.h,
        friction: bodies[built.watched].friction,
        restitution: s.restitution,
        ..ExactSettings::default()
    })?;
    // Each bench body's place among the exact world's moving bodies.
    let mut moving = Vec::with_capacity(bodies.len());
    for b in bodies {
        if b.is_fixed() {
            world.add_fixture(Fixture { parts: b.placed(), layer: 0 })?;
            moving.push(None);
        } else {
            let shape = Shape {
                parts: b.parts.clone(),
                mass: b.mass(),
                inertia: 1.0 / b.inv_inertia,
            };
            let pose = (b.position, b.angle);
            let motion = (b.velocity, b.angular_velocity);
            moving.push(Some(world.add_body(shape, 0, pose, motion)?));
        }
    }
    let centres = |w: &Exact| -> Vec<V2> {
        let placed = bodies.iter().map(|b| b.position);
        placed
            .zip(&moving)
            .map(|(x, m)| m.map_or(x, |k| w.bodies()[k].position()))
            .collect()
    };
    let mut watch = Watch::new(&built, centres(&world), world.energy());
    world.run_until(t_end, |w| {
        let speeds: Vec<f64> =
            w.bodies().iter().map(|b| b.velocity().norm()).collect();
        watch.step(w.time(), &centres(w), &speeds, w.energy());
    })?;
    // The loop keeps every overlap under ε; the deepest over the run bounds the last.
    let deepest = world.stats().max_depth;
    let measured = (deepest, deepest, 0.0);
    Ok(Some(watch.outcome(&centres(&world), measured, world.stats().steps)))
}
