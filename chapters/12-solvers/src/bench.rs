//! One scene under one solver, and what it measured: the deepest overlap, the
//! watched body's drift, the energy the solver created, whether the scene's test
//! passes, and the wall-clock cost of a step. The measuring ([`Watch`]) is the same
//! for the chapter's world and for chapter 11's exact loop ([`crate::exact`]).

use crate::body::V2;
use crate::scenes::{
    Built, HALF, RAMP_BOX_FRICTION, RAMP_FRICTION, Scene, Test, build, ramp_axes,
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
    /// The largest pin error at the end of any step (m); zero without pins.
    pub max_joint_error: f64,
}

/// What a run is watched for while it runs: the bodies' centres at the start (every
/// body, fixed ones included, in the built world's order), the energy at the start
/// and the most it rose, the fastest speed after settling, and where the watched
/// body was when the scene settled.
#[derive(Debug, Clone)]
pub struct Watch {
    start: Vec<V2>,
    watched: usize,
    settle: f64,
    test: Test,
    energy: f64,
    gain: f64,
    fastest: f64,
    settled_at: Option<V2>,
    clock: Instant,
}

impl Watch {
    /// Starts watching `built`, whose bodies are at `start` with energy `energy`.
    pub fn new(built: &Built, start: Vec<V2>, energy: f64) -> Watch {
        let settled_at = (built.settle <= 0.0).then(|| start[built.watched]);
        Watch {
            start,
            watched: built.watched,
            settle: built.settle,
            test: built.test,
            energy,
            gain: 0.0,
            fastest: 0.0,
            settled_at,
            clock: Instant::now(),
        }
    }

    /// After a step to time `t`: the bodies' centres and speeds, and the energy.
    pub fn step(&mut self, t: f64, centres: &[V2], speeds: &[f64], energy: f64) {
        self.gain = self.gain.max(energy - self.energy);
        if t >= self.settle - 1e-9 {
            self.settled_at.get_or_insert(centres[self.watched]);
            self.fastest = speeds.iter().copied().fold(self.fastest, f64::max);
        }
    }

    /// The outcome, from the centres at the end, the deepest overlaps (over the run,
    /// at the end) and the largest pin error, and the steps taken.
    pub fn outcome(
        self,
        end: &[V2],
        (deepest, at_end, joint_error): (f64, f64, f64),
        steps: usize,
    ) -> Outcome {
        let seconds = self.clock.elapsed().as_secs_f64();
        let placed = self.start[self.watched];
        let settled = self.settled_at.unwrap_or(placed);
        let drift = (end[self.watched] - settled).norm();
        let sink = (settled - placed).norm();
        let stands = match self.test {
            Test::Rests { drift: most, sink: deepest } => {
                drift < most && sink < deepest
            }
            Test::StickOrSlide => sticks_or_slides(&self.start, end, self.watched),
            Test::Separated => at_end < 0.01 && self.fastest < 1.0,
            // Above the small boxes' tops (not crushed through), and still.
            Test::NotCrushed => {
                end[self.watched].y - 10.0 > 2.0 * HALF - 0.1 && drift < 0.1
            }
            Test::Joined { most } => joint_error < most,
            Test::Toppled { count } => toppled_in_order(
                &self.start[self.watched..],
                &end[self.watched..],
                count,
            ),
        };
        Outcome {
            max_penetration: deepest,
            sink,
            drift,
            energy_gain: self.gain,
            max_speed_settled: self.fastest,
            end_penetration: at_end,
            stands,
            steps,
            ms_per_step: 1e3 * seconds / steps.max(1) as f64,
            max_joint_error: joint_error,
        }
    }
}

/// Runs `scene` (pyramid base `base`) under `settings` for `t_end` seconds.
pub fn run(
    scene: Scene,
    settings: Settings,
    base: usize,
    t_end: f64,
) -> Result<Outcome, PbmError> {
    let built = build(scene, settings, base)?;
    let centres = |w: &crate::world::World| -> Vec<V2> {
        w.bodies.iter().map(|b| b.position).collect()
    };
    let mut world = built.world.clone();
    let mut watch = Watch::new(&built, centres(&world), world.energy());
    world.run(t_end, |w| {
        let speeds: Vec<f64> = w.bodies.iter().map(|b| b.velocity.norm()).collect();
        watch.step(w.time(), &centres(w), &speeds, w.energy());
    })?;
    let end_penetration = world
        .constraints()
        .iter()
        .flat_map(|c| c.points.iter())
        .map(|p| -p.separation)
        .fold(0.0, f64::max);
    let stats = world.stats();
    let measured = (stats.max_penetration, end_penetration, stats.max_joint_error);
    Ok(watch.outcome(&centres(&world), measured, stats.steps))
}

/// Whether each ramp box did what Coulomb's law says for its friction against the
/// slope: stuck (moved under 5 cm) or slid (over 0.5 m).
fn sticks_or_slides(start: &[V2], end: &[V2], first: usize) -> bool {
    let (u, _) = ramp_axes();
    let slope = crate::scenes::RAMP_ANGLE.tan();
    RAMP_BOX_FRICTION.iter().enumerate().all(|(k, mu)| {
        let moved = (end[first + k] - start[first + k]).dot(&u).abs();
        if (mu * RAMP_FRICTION).sqrt() > slope { moved < 0.05 } else { moved > 0.5 }
    })
}

/// Whether `count` dominoes, from where they `stood` to where they are, fell as a
/// wave: a prefix of two or more fallen forward, then at most two in motion (one
/// falling onto the next, which it has just begun to push), the rest standing.
fn toppled_in_order(stood: &[V2], now: &[V2], count: usize) -> bool {
    let fallen = |k: usize| now[k].y < stood[k].y - 0.1 && now[k].x > stood[k].x;
    let standing = |k: usize| (now[k] - stood[k]).norm() < 0.01;
    let wave = (0..count).take_while(|&k| fallen(k)).count();
    let rest = (wave + 2).min(count);
    wave >= 2 && (rest..count).all(standing)
}
