//! One scene under one solver, and what it measured: the deepest overlap, the
//! watched body's drift, the energy the solver created, whether the scene's test
//! passes, and the wall-clock cost of a step.

use crate::body::Body;
use crate::scenes::{
    Built, RAMP_BOX_FRICTION, RAMP_FRICTION, Scene, Test, build, ramp_axes,
};
use crate::world::Settings;
use pbm_prelim::PbmError;
use std::time::Instant;

/// What a run of a scene measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The deepest overlap at the start of any step (m).
    pub max_penetration: f64,
    /// How far the watched body moved while the scene settled (m).
    pub sink: f64,
    /// How far the watched body moved after the scene settled (m).
    pub drift: f64,
    /// The most the energy (kinetic + gravitational) rose above its start (J).
    pub energy_gain: f64,
    /// The fastest any body moved after the scene settled (m/s).
    pub max_speed_settled: f64,
    /// The deepest overlap at the end (m).
    pub end_penetration: f64,
    /// Whether the scene's test passes.
    pub stands: bool,
    /// Steps taken.
    pub steps: usize,
    /// Wall-clock time per step (ms).
    pub ms_per_step: f64,
}

/// Runs `scene` (pyramid base `base`) under `settings` for `t_end` seconds.
pub fn run(
    scene: Scene,
    settings: Settings,
    base: usize,
    t_end: f64,
) -> Result<Outcome, PbmError> {
    let Built { mut world, watched, settle, test } = build(scene, settings, base)?;
    let start: Vec<Body> = world.bodies.clone();
    let e0 = world.energy();
    let (mut gain, mut fastest) = (0.0_f64, 0.0_f64);
    let mut settled_at = (settle <= 0.0).then(|| world.bodies[watched].position);
    let clock = Instant::now();
    world.run(t_end, |w| {
        gain = gain.max(w.energy() - e0);
        if w.time() >= settle - 1e-9 {
            settled_at.get_or_insert(w.bodies[watched].position);
            let speeds = w.bodies.iter().map(|b| b.velocity.norm());
            fastest = speeds.fold(fastest, f64::max);
        }
    })?;
    let seconds = clock.elapsed().as_secs_f64();
    let steps = world.stats().steps;
    let placed = start[watched].position;
    let settled = settled_at.unwrap_or(placed);
    let drift = (world.bodies[watched].position - settled).norm();
    let sink = (settled - placed).norm();
    let end_penetration = world
        .constraints()
        .iter()
        .flat_map(|c| c.points.iter())
        .map(|p| -p.separation)
        .fold(0.0, f64::max);
    let stands = match test {
        Test::Rests { drift: most, sink: deepest } => drift < most && sink < deepest,
        Test::StickOrSlide => sticks_or_slides(&start, &world.bodies, watched),
        Test::Separated => end_penetration < 0.01 && fastest < 1.0,
        Test::NotCrushed => {
            let big = &world.bodies[watched];
            big.position.y - 10.0 > 2.0 * crate::scenes::HALF - 0.1 && drift < 0.1
        }
    };
    Ok(Outcome {
        max_penetration: world.stats().max_penetration,
        sink,
        drift,
        energy_gain: gain,
        max_speed_settled: fastest,
        end_penetration,
        stands,
        steps,
        ms_per_step: 1e3 * seconds / steps.max(1) as f64,
    })
}

/// Whether each ramp box did what Coulomb's law says for its friction against the
/// slope: stuck (moved under 5 cm) or slid (over 0.5 m).
fn sticks_or_slides(start: &[Body], end: &[Body], first: usize) -> bool {
    let (u, _) = ramp_axes();
    let slope = crate::scenes::RAMP_ANGLE.tan();
    RAMP_BOX_FRICTION.iter().enumerate().all(|(k, mu)| {
        let moved =
            (end[first + k].position - start[first + k].position).dot(&u).abs();
        if (mu * RAMP_FRICTION).sqrt() > slope { moved < 0.05 } else { moved > 0.5 }
    })
}
