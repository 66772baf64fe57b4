//! Chapter 10's stack of boxes in this chapter's world, and by chapter 10's XPBD.

use super::shared::{SOLIDS, V2, rect};
use crate::shape::Shape;
use crate::world::{Fixture, Settings, World};
use pbm_collision::polygon::ConvexPolygon;
use pbm_prelim::PbmError;
use std::time::Instant;

/// What a stack run measured, by whichever solver.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StackRun {
    /// The farthest any box's centre moved from where it was set (m).
    pub drift: f64,
    /// The deepest any contact went (m).
    pub depth: f64,
    /// How far the top box's centre ended below where it was set (m).
    pub top_sink: f64,
    /// Steps (the exact loop's, or substeps of XPBD).
    pub steps: usize,
    /// Wall time of the run (s).
    pub seconds: f64,
}

// ANCHOR: stack_scene
/// Chapter 10's stack in this chapter's world: `count` boxes of 1 kg, 0.4 m wide
/// and 0.2 m tall (chapter 10's box seen from the front), each set 1 cm aside of
/// the one below, alternately, on a floor.
pub fn stack_world(
    count: usize,
    settings: Settings,
) -> Result<(World, Vec<V2>), PbmError> {
    let half = pbm_pbd::box_scenes::BOX_HALF;
    let (w, h) = (half.x, half.y);
    let mut world = World::new(settings)?;
    world.add_fixture(Fixture {
        parts: vec![rect(-3.0, -0.5, 3.0, 0.0)?],
        layer: SOLIDS,
    })?;
    let density = pbm_pbd::box_scenes::BOX_MASS / (4.0 * w * h);
    let mut start = Vec::with_capacity(count);
    for k in 0..count {
        let centre =
            V2::new(if k % 2 == 0 { 0.0 } else { 0.01 }, h * (2 * k + 1) as f64);
        let box_shape = ConvexPolygon::rectangle(V2::zeros(), V2::new(w, h))?;
        let (shape, _) = Shape::new(vec![box_shape], density)?;
        world.add_body(shape, SOLIDS, (centre, 0.0), (V2::zeros(), 0.0))?;
        start.push(centre);
    }
    Ok((world, start))
}
// ANCHOR_END: stack_scene

/// Runs [`stack_world`] for `t_end` and measures it.
pub fn stack_run(
    count: usize,
    settings: Settings,
    t_end: f64,
) -> Result<StackRun, PbmError> {
    let (mut world, start) = stack_world(count, settings)?;
    let mut drift = 0.0_f64;
    let clock = Instant::now();
    world.run_until(t_end, |w| {
        for (body, x0) in w.bodies().iter().zip(&start) {
            drift = drift.max((body.position() - x0).norm());
        }
    })?;
    let seconds = clock.elapsed().as_secs_f64();
    let top_sink = start[count - 1].y - world.bodies()[count - 1].position().y;
    let stats = world.stats();
    Ok(StackRun {
        drift,
        depth: stats.max_depth,
        top_sink,
        steps: stats.steps,
        seconds,
    })
}

/// The same stack by chapter 10's XPBD boxes, `substeps` a 60 Hz frame of `passes`
/// passes, with friction μ static and dynamic and no bounce.
pub fn xpbd_stack_run(
    count: usize,
    friction: f64,
    (substeps, passes): (usize, usize),
    t_end: f64,
) -> Result<StackRun, PbmError> {
    use pbm_pbd::box_scenes::{Solve, stack};
    use pbm_pbd::rigid_contact::{Material, StaticRule};
    let material = Material {
        static_friction: friction,
        dynamic_friction: friction,
        restitution: 0.0,
        compliance: 0.0,
        rule: StaticRule::Clamped,
    };
    let clock = Instant::now();
    let run = stack(count, material, Solve { substeps, passes }, t_end)?;
    let seconds = clock.elapsed().as_secs_f64();
    let steps = (t_end / pbm_pbd::scenes::FRAME).round() as usize * substeps;
    Ok(StackRun {
        drift: run.drift,
        depth: run.depth,
        top_sink: run.top_sink,
        steps,
        seconds,
    })
}

#[cfg(test)]
mod stack_tests {
    use super::*;
    use pbm_contact::world::Solver;

    #[test]
    fn the_exact_loop_holds_chapter_10s_stack_still_and_sequential_impulses_nearly() {
        let settings = |solver| Settings {
            friction: 0.5,
            restitution: 0.0,
            solver,
            ..Settings::default()
        };
        let exact = stack_run(5, settings(Solver::Exact), 2.0).unwrap();
        let sweeps = Solver::SequentialImpulses { sweeps: 10 };
        let sequential = stack_run(5, settings(sweeps), 2.0).unwrap();
        let xpbd = xpbd_stack_run(5, 0.5, (20, 2), 2.0).unwrap();
        assert!(exact.drift < 1e-6 && exact.depth < 1e-6, "{exact:?}");
        assert!(sequential.drift < 1e-3 && sequential.depth < 1e-3, "{sequential:?}");
        assert!(
            xpbd.drift > 10.0 * sequential.drift && xpbd.top_sink < 1e-3,
            "{xpbd:?}"
        );
    }
}
