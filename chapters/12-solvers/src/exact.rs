//! Chapter 11's exact loop on the bench's scenes, where it can run: the reference
//! the iterative solvers are measured against. Each step solves the contact and
//! friction forces as a complementarity problem at every RK4 stage, stops at each
//! collision, and keeps every overlap below its tolerance ε; it costs more and
//! answers exactly. The bench's bodies go into its world as they are: fixed bodies
//! as fixtures, moving ones with their parts, masses and inertias, and the pins as
//! its pins. Its worlds keep apart what should not touch by layers (only solids of
//! one layer touch), so a body of a group (a chain's link, a net's knot) gets a
//! layer of its own and touches nothing, which in the bench's pinned scenes it never
//! needs to.

use crate::bench::{Outcome, Watch};
use crate::body::V2;
use crate::scenes::{Scene, build};
use crate::world::Settings;
use pbm_interactive::shape::Shape;
use pbm_interactive::world::{
    Anchor, Fixture, Pin, Settings as ExactSettings, World as Exact,
};
use pbm_prelim::PbmError;

/// The most touching pairs the bench lets the exact loop start from in one scene.
/// Its complementarity problem has rows for every contact point and direction, and
/// its cost per step grows much faster than their count: a pyramid whose every box
/// touches four others is far dearer than a column of as many boxes (the pyramid of
/// base 10 would take minutes), while the stack, which starts with gaps, is cheap.
pub const MAX_PAIRS: usize = 30;

/// The most pins the bench gives the exact loop: each adds two rows to the problem it
/// solves at every stage, and the net's hundreds would take minutes.
pub const MAX_PINS: usize = 60;

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
    let world = build(scene, Settings::default(), base)?.world;
    let (pairs, pins) = (world.touching_pairs()?, world.joints.len());
    if pins > MAX_PINS {
        return Ok(Err(format!(
            "it has {pins} pins, more than the {MAX_PINS} the bench gives the exact loop"
        )));
    }
    if pairs > MAX_PAIRS {
        return Ok(Err(format!(
            "it starts with {pairs} touching pairs, more than the {MAX_PAIRS} the bench \
             gives the exact loop"
        )));
    }
    // A run the exact loop cannot finish (a diverged net, a stalled collision) is
    // its finding, said in its cell.
    Ok(match run(scene, base, t_end) {
        Ok(Some(o)) => Ok(o),
        Ok(None) => Err("it cannot run".to_string()),
        Err(e) => Err(format!("it stopped: {e}")),
    })
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
    for (k, b) in bodies.iter().enumerate() {
        if b.is_fixed() {
            world.add_fixture(Fixture { parts: b.placed(), layer: 0 })?;
            moving.push(None);
        } else {
            // A grouped body in a layer of its own: it touches nothing.
            let layer = if b.group == 0 { 0 } else { 1 + k as u32 };
            let shape = Shape {
                parts: b.parts.clone(),
                mass: b.mass(),
                inertia: 1.0 / b.inv_inertia,
            };
            let pose = (b.position, b.angle);
            let motion = (b.velocity, b.angular_velocity);
            moving.push(Some(world.add_body(shape, layer, pose, motion)?));
        }
    }
    // A pin between two fixed bodies holds nothing, and the exact world refuses it.
    let holds =
        |j: &&crate::joint::Joint| moving[j.a].is_some() || moving[j.b].is_some();
    for j in built.world.joints.iter().filter(holds) {
        let end = |i: usize, local: V2| match moving[i] {
            Some(body) => Anchor::Body { body, local },
            None => Anchor::World(bodies[i].world_point(&local)),
        };
        world.add_pin(Pin { a: end(j.a, j.local[0]), b: end(j.b, j.local[1]) })?;
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
    let measured = (deepest, deepest, world.stats().max_pin_error);
    Ok(Some(watch.outcome(&centres(&world), measured, world.stats().steps)))
}
