//! Two particles on a ground with friction and restitution: one sliding to a stop,
//! one dropped beside it.

use super::shared::FRAME;
use crate::contact::Ground;
use crate::particles::PbdSystem;
use nalgebra::Vector2;
use pbm_particles::forces::{G, Gravity};
use pbm_particles::particle::Particle;
use pbm_prelim::PbmError;

/// What `pbd/contact` measures: one particle sliding to a stop on the ground and
/// one dropped on it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GroundRun {
    /// How far the slider went before it stopped (m).
    pub slide: f64,
    /// When it stopped (s), if it did within the run.
    pub stopped_at: Option<f64>,
    /// The highest the dropped particle rose after its first bounce (m).
    pub rebound: f64,
    /// How far above the ground either particle was ever below it at the end of a
    /// step (m): zero when the position pass holds.
    pub deepest: f64,
}

// ANCHOR: slide_and_bounce
/// Two particles on a ground with friction `mu` (static and dynamic) and
/// restitution `e`: one sliding from the origin at `speed` (m/s), one dropped
/// from `height` (m) beside it, stepped `substeps` times a frame for `t_end`.
pub fn slide_and_bounce(
    (mu, e): (f64, f64),
    (speed, height): (f64, f64),
    substeps: usize,
    t_end: f64,
) -> Result<GroundRun, PbmError> {
    let mut system = slider_and_drop((mu, e), (speed, height))?;
    let (mut stopped_at, mut rebound, mut deepest) = (None, 0.0_f64, 0.0_f64);
    let mut bounced = false;
    let frames = (t_end / FRAME).round() as usize;
    for _ in 0..frames {
        for _ in 0..substeps {
            system.frame(FRAME / substeps as f64, 1, 1)?;
            let [slider, dropped] = [0, 1].map(|k| {
                (system.particles.particles[k].x, system.particles.particles[k].v)
            });
            deepest = deepest.max(-slider.0.y).max(-dropped.0.y);
            if stopped_at.is_none() && slider.1.x <= 0.0 {
                stopped_at = Some(system.particles.t);
            }
            bounced |= dropped.1.y > 0.0;
            if bounced {
                rebound = rebound.max(dropped.0.y);
            }
        }
    }
    let slide = system.particles.particles[0].x.x;
    Ok(GroundRun { slide, stopped_at, rebound, deepest })
}
// ANCHOR_END: slide_and_bounce

// ANCHOR: slider_and_drop
/// The two particles of [`slide_and_bounce`] over their ground.
fn slider_and_drop(
    (mu, e): (f64, f64),
    (speed, height): (f64, f64),
) -> Result<PbdSystem<2>, PbmError> {
    let particles = vec![
        Particle::new(1.0, Vector2::zeros(), Vector2::new(speed, 0.0))?,
        Particle::new(1.0, Vector2::new(-1.0, height), Vector2::zeros())?,
    ];
    let mut system = PbdSystem::new(particles);
    system.add_force(Gravity { g: Vector2::new(0.0, -G) })?;
    system.set_ground(Ground {
        normal: Vector2::new(0.0, 1.0),
        height: 0.0,
        static_friction: mu,
        dynamic_friction: mu,
        restitution: e,
    })?;
    Ok(system)
}
// ANCHOR_END: slider_and_drop
