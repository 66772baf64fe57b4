//! The chapter's scenes: a bouncing ball, a free spring network, a cantilever beam
//! lattice with a scripted "mouse" and a motor. Each is built from the chapter's
//! particles and force objects and stepped with chapter 1's solvers.

use crate::collision::{Plane, PlaneContact, Strategy, step_with_collisions};
use crate::forces::{G, Gravity, ViscousDrag};
use crate::interaction::{PairLaw, scattered_points};
use crate::particle::{Force, JacobianSink};
use crate::particle::{Matrix, Motion, Particle, ParticleSystem, Vector};
use crate::spring::DampedSpring;
use nalgebra::{Vector2, Vector3};
use pbm_ode::runge_kutta::{RungeKutta, step_count};
use pbm_ode::tableau::RK4;
use pbm_prelim::PbmError;
use pbm_prelim::validate::unit_interval;

/// Within this distance of the ground (m) and below this normal speed (m/s) the ball
/// counts as resting on it, and the contact force cancels gravity.
pub const BALL_CONTACT_TOLERANCE: f64 = 1e-6;

/// A ball of 1 kg dropped from `height` above the ground plane y = 0, under gravity,
/// with a resting-contact force so it can come to rest.
pub fn ball(height: f64) -> Result<(ParticleSystem<2>, Plane<2>), PbmError> {
    let ball = Particle::new(1.0, Vector2::new(0.0, height), Vector2::zeros())?;
    let mut system = ParticleSystem::new(vec![ball]);
    system.add_force(Gravity { g: Vector2::new(0.0, -G) })?;
    let ground = Plane::new(Vector2::zeros(), Vector2::new(0.0, 1.0))?;
    system.add_force(PlaneContact {
        plane: ground,
        k_friction: 0.0,
        tolerance: BALL_CONTACT_TOLERANCE,
    })?;
    Ok((system, ground))
}

/// Heights of successive apexes of the bouncing ball (the first is the drop height),
/// and the trajectory (t, y) for plotting.
pub struct BounceRun {
    /// Apex heights (m).
    pub apexes: Vec<f64>,
    /// (t, y) after every step.
    pub trajectory: Vec<(f64, f64)>,
    /// Whether the measurement stopped early because a flight became shorter than one
    /// step (the ball would hit the floor twice in a step; its apex cannot be read).
    pub flights_too_short: bool,
    /// Whether the measurement stopped because the ball no longer rose above the
    /// contact band ([`BALL_CONTACT_TOLERANCE`]): it is at rest.
    pub at_rest: bool,
}

/// The apex heights a step of the bouncing ball passed, from the ball `before` and
/// `after` it and its number of contacts (at most one). An apex is y + v_y²/(2g)
/// from any state of its flight (exact under gravity alone). A step can pass one
/// before its contact (it starts rising and ends past a bounce or a sign change) and
/// one after (it bounced and already passed the top).
pub fn apexes_passed(
    before: &Particle<2>,
    after: &Particle<2>,
    contacts: usize,
) -> Vec<f64> {
    let height = |y: f64, v: f64| y + v * v / (2.0 * G);
    let mut passed = Vec::with_capacity(2);
    if before.v.y > 0.0 && (contacts == 1 || after.v.y <= 0.0) {
        passed.push(height(before.x.y, before.v.y));
    }
    if contacts == 1 && after.v.y <= 0.0 {
        passed.push(height(after.x.y, after.v.y));
    }
    passed
}

/// Drops the ball from 1 m and records `bounces` apexes after the first. An apex is
/// read off the step where the upward velocity changes sign, extrapolated
/// ballistically: y + v_y²/(2g) is exact under gravity alone.
pub fn bouncing_ball(
    restitution: f64,
    strategy: Strategy,
    h: f64,
    bounces: usize,
) -> Result<BounceRun, PbmError> {
    let restitution = unit_interval("bouncing ball", "restitution", restitution)?;
    let (mut system, ground) = ball(1.0)?;
    let mut stepper = RungeKutta::new(RK4);
    let mut apexes = vec![1.0];
    let mut trajectory = vec![(0.0, 1.0)];
    // At most 100 simulated seconds: long enough for every bounce the exercise
    // allows. The loop ends much sooner, at the last bounce asked for or at a flight
    // shorter than a step, so the step count is not capped in advance (the exercise
    // budgets it).
    let steps = (100.0 / h).ceil() as u64;
    for _ in 0..steps {
        let before = system.particles[0].clone();
        let contacts = step_with_collisions(
            &mut system,
            &mut stepper,
            &ground,
            restitution,
            strategy,
            h,
        )?;
        if contacts > 1 {
            // Two contacts in one step: the flights are now shorter than a step and
            // their apexes cannot be told apart. Stop measuring.
            return Ok(BounceRun {
                apexes,
                trajectory,
                flights_too_short: true,
                at_rest: false,
            });
        }
        let after = &system.particles[0];
        if contacts == 1 && strategy == Strategy::Rollback {
            // The rollback stopped the step at the contact instant and bounced there;
            // plot that instant too, or the curve's corner at the floor would fall
            // between samples and seem to turn above it. Under gravity alone the
            // flight from the step's start is a parabola, y + v t − g t²/2 = 0.
            let (y, v) = (before.x.y, before.v.y);
            let t_c = (v + (v * v + 2.0 * G * y).sqrt()) / G;
            trajectory.push((system.t - h + t_c, 0.0));
        }
        trajectory.push((system.t, after.x.y));
        if after.x.y.abs() < BALL_CONTACT_TOLERANCE
            && after.v.y.abs() < BALL_CONTACT_TOLERANCE
        {
            // In the contact band, slow: the contact force holds the ball, at rest.
            return Ok(BounceRun {
                apexes,
                trajectory,
                flights_too_short: false,
                at_rest: true,
            });
        }
        for apex in apexes_passed(&before, after, contacts) {
            if apex < BALL_CONTACT_TOLERANCE {
                // The ball no longer leaves the contact band, where the contact force
                // holds it: it is at rest, and nothing is left to measure.
                return Ok(BounceRun {
                    apexes,
                    trajectory,
                    flights_too_short: false,
                    at_rest: true,
                });
            }
            apexes.push(apex);
            if apexes.len() > bounces {
                return Ok(BounceRun {
                    apexes,
                    trajectory,
                    flights_too_short: false,
                    at_rest: false,
                });
            }
        }
    }
    Ok(BounceRun { apexes, trajectory, flights_too_short: false, at_rest: false })
}

/// A free network in space: `n` particles on a jittered grid, each joined by damped
/// springs (rest length = initial distance) to its neighbours within `reach`, with a
/// swirl of initial velocities whose total momentum is not zero. No external force
/// acts.
pub fn spring_network(n: usize, k_d: f64) -> Result<ParticleSystem<3>, PbmError> {
    let pts = scattered_points(n, 1.0);
    let particles = pts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let x = Vector3::new(p.x, p.y, 0.1 * ((i * 7) % 5) as f64);
            let v = Vector3::new(-p.y + 0.3, p.x, 0.2 * (i % 3) as f64);
            Particle::new(1.0 + 0.1 * (i % 4) as f64, x, v)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut system = ParticleSystem::new(particles);
    let reach = 0.45;
    for a in 0..n {
        for b in a + 1..n {
            if (system.particles[a].x - system.particles[b].x).norm() < reach {
                let spring =
                    DampedSpring::at_rest(&system.particles, a, b, 50.0, k_d)?;
                system.add_force(spring)?;
            }
        }
    }
    Ok(system)
}

/// Columns and rows of the cantilever beam lattice.
pub const BEAM: (usize, usize) = (16, 3);
/// Spacing of the lattice (m).
pub const SPACING: f64 = 0.1;

/// Index of the particle at column `c`, row `r` of the beam.
pub fn beam_index(c: usize, r: usize) -> usize {
    c * BEAM.1 + r
}

// ANCHOR: mouse
/// The scripted mouse: it grabs the beam's free end at t = 0.5 s, lifts it 0.4 m over
/// half a second, and lets go at t = 1.5 s.
pub fn mouse_path(t: f64) -> Vector2<f64> {
    let tip = Vector2::new((BEAM.0 - 1) as f64 * SPACING, 0.0);
    let lift = ((t - 0.5) / 0.5).clamp(0.0, 1.0);
    tip + Vector2::new(0.0, 0.4 * lift * lift * (3.0 - 2.0 * lift))
}

/// A mouse spring: while the button is down (t in `active`), a damped zero-length
/// spring pulls `particle` towards the scripted mouse position. Dragging through a
/// spring, rather than setting the particle's position, keeps fast mouse motions from
/// destabilising the model.
pub struct MouseSpring {
    /// The grabbed particle.
    pub particle: usize,
    /// Stiffness (N/m) and damping (N s/m).
    pub k_s: f64,
    /// Damping (N s/m) against the particle's velocity relative to the mouse's.
    pub k_d: f64,
    /// When the button is down (s).
    pub active: (f64, f64),
}

impl MouseSpring {
    fn is_pressed(&self, t: f64) -> bool {
        t >= self.active.0 && t <= self.active.1
    }
}
// ANCHOR_END: mouse

// ANCHOR: mouse_force
impl Force<2> for MouseSpring {
    fn name(&self) -> &'static str {
        "mouse spring"
    }
    fn apply(&self, t: f64, particles: &mut [Particle<2>]) -> Result<(), PbmError> {
        if self.is_pressed(t) {
            // The mouse's velocity, by a central difference of its path.
            let dt = 1e-6;
            let mouse_v = (mouse_path(t + dt) - mouse_path(t - dt)) / (2.0 * dt);
            let p = &mut particles[self.particle];
            p.f += -(p.x - mouse_path(t)) * self.k_s - (p.v - mouse_v) * self.k_d;
        }
        Ok(())
    }
    fn particles(&self) -> &[usize] {
        std::slice::from_ref(&self.particle)
    }
    /// ∂f/∂x = −k_s I and ∂f/∂v = −k_d I while the button is down.
    fn add_jacobians(
        &self,
        t: f64,
        _particles: &[Particle<2>],
        out: &mut dyn JacobianSink<2>,
    ) -> Result<(), PbmError> {
        if self.is_pressed(t) {
            let i = Matrix::<2>::identity();
            out.add(self.particle, self.particle, &(-i * self.k_s), &(-i * self.k_d));
        }
        Ok(())
    }
}
// ANCHOR_END: mouse_force

/// A cantilever beam: a lattice of 0.02 kg particles joined by structural and shear
/// springs, its left column nailed to the wall, sagging under gravity with a little
/// drag.
pub fn beam(with_mouse: bool) -> Result<ParticleSystem<2>, PbmError> {
    let (cols, rows) = BEAM;
    let mut particles = Vec::new();
    for c in 0..cols {
        for r in 0..rows {
            let x = Vector2::new(c as f64 * SPACING, (r as f64 - 1.0) * SPACING);
            let p = Particle::new(0.02, x, Vector2::zeros())?;
            particles.push(if c == 0 { p.with_motion(Motion::Fixed) } else { p });
        }
    }
    let mut system = ParticleSystem::new(particles);
    let (k_s, k_d) = (2000.0, 1.0);
    for c in 0..cols {
        for r in 0..rows {
            let mut link = |c2: usize, r2: usize| -> Result<(), PbmError> {
                let s = DampedSpring::at_rest(
                    &system.particles,
                    beam_index(c, r),
                    beam_index(c2, r2),
                    k_s,
                    k_d,
                )?;
                system.add_force(s)
            };
            if r + 1 < rows {
                link(c, r + 1)?;
            }
            if c + 1 < cols {
                link(c + 1, r)?;
                if r + 1 < rows {
                    link(c + 1, r + 1)?;
                }
                if r > 0 {
                    link(c + 1, r - 1)?;
                }
            }
        }
    }
    system.add_force(Gravity { g: Vector2::new(0.0, -G) })?;
    system.add_force(ViscousDrag::new(0.04)?)?;
    if with_mouse {
        let tip = beam_index(cols - 1, 1);
        system.add_force(MouseSpring {
            particle: tip,
            k_s: 40.0,
            k_d: 0.5,
            active: (0.5, 1.5),
        })?;
    }
    Ok(system)
}

/// Radius (m) and angular speed (rad/s) of the motor's circle.
pub const MOTOR: (f64, f64) = (0.2, 4.0);

/// A motor: a particle driven round a circle of radius 0.2 m at 4 rad/s. Its script
/// returns position, velocity and acceleration, all three consistent.
pub fn motor_on_circle(t: f64) -> (Vector<2>, Vector<2>, Vector<2>) {
    let (r, w) = MOTOR;
    let (s, c) = (w * t).sin_cos();
    (
        Vector2::new(r * c, r * s),
        Vector2::new(-r * w * s, r * w * c),
        Vector2::new(-r * w * w * c, -r * w * w * s),
    )
}

/// A time and every particle's position then.
pub type Snapshot = (f64, Vec<Vector2<f64>>);

/// Steps `system` to `t_end` with RK4 at step `h`, keeping snapshots of all positions
/// at the requested times.
pub fn run_with_snapshots(
    system: &mut ParticleSystem<2>,
    h: f64,
    t_end: f64,
    snapshot_times: &[f64],
) -> Result<Vec<Snapshot>, PbmError> {
    let mut stepper = RungeKutta::new(RK4);
    let mut snaps = Vec::new();
    let mut next = 0;
    for _ in 0..=step_count(h, t_end)? {
        while next < snapshot_times.len()
            && system.t >= snapshot_times[next] - 0.5 * h
        {
            snaps.push((system.t, system.particles.iter().map(|p| p.x).collect()));
            next += 1;
        }
        if system.t >= t_end - 0.5 * h {
            break;
        }
        stepper.step(system, h)?;
    }
    Ok(snaps)
}

/// Particle spacing of the interaction-scaling experiment (m): the law prefers this
/// distance, and the cutoff of 2.5 spacings gives each particle about π·2.5² ≈ 20
/// neighbours on average (15 to 21, depending on n: the points are nearly a lattice).
pub const INTERACTION_SPACING: f64 = 0.1;

/// The pair law of the interaction-scaling experiment.
pub fn scaling_law() -> Result<PairLaw, PbmError> {
    PairLaw::new(10.0, INTERACTION_SPACING, 2.5 * INTERACTION_SPACING)
}

/// `n` particles at the experiment's constant density: scattered over a square whose
/// side grows as √n.
pub fn scaling_points(n: usize) -> Vec<Vector<2>> {
    scattered_points(n, INTERACTION_SPACING * (n as f64).sqrt())
}

/// A steady pull that grows with time, f = rate · t along `direction` (N), on every
/// free particle: the hand that slowly lifts a resting particle off the floor.
struct GrowingPull<const D: usize> {
    rate: Vector<D>,
}

impl<const D: usize> Force<D> for GrowingPull<D> {
    fn name(&self) -> &'static str {
        "growing pull"
    }
    fn apply(&self, t: f64, particles: &mut [Particle<D>]) -> Result<(), PbmError> {
        for p in particles.iter_mut() {
            p.f += self.rate * t;
        }
        Ok(())
    }
}

/// A 1 kg particle let go at rest on a ramp tilted by `angle` (rad), under gravity,
/// held on it by [`PlaneContact`] with linear friction `k_friction` (s/m). Returns
/// (t, speed along the ramp, distance from the ramp) after every step of RK4 with
/// step `h`, up to `t_end`. With friction the speed levels off at tan(angle)/k_f: the
/// drag grows with speed until it balances gravity's pull along the ramp.
pub fn ramp_slide(
    angle: f64,
    k_friction: f64,
    h: f64,
    t_end: f64,
) -> Result<Vec<(f64, f64, f64)>, PbmError> {
    let normal = Vector2::new(-angle.sin(), angle.cos());
    let down_ramp = Vector2::new(-angle.cos(), -angle.sin());
    let ramp = Plane::new(Vector2::zeros(), normal)?;
    let mut system = ParticleSystem::new(vec![Particle::new(
        1.0,
        Vector2::zeros(),
        Vector2::zeros(),
    )?]);
    system.add_force(Gravity { g: Vector2::new(0.0, -G) })?;
    system.add_force(PlaneContact {
        plane: ramp,
        k_friction,
        tolerance: BALL_CONTACT_TOLERANCE,
    })?;
    let mut stepper = RungeKutta::new(RK4);
    let mut out = vec![(0.0, 0.0, 0.0)];
    for step in 1..=step_count(h, t_end)? {
        stepper.step(&mut system, h)?;
        let p = &system.particles[0];
        out.push((step as f64 * h, p.v.dot(&down_ramp), ramp.signed_distance(&p.x)));
    }
    Ok(out)
}

/// A 1 kg particle resting on the floor y = 0 and pulled straight up by a force that
/// grows at `rate` (N/s). The floor pushes back only while the total force presses
/// into it, so the particle stays until the pull exceeds its weight, at t = m g /
/// rate, and then rises. Returns (t, height) after every step of RK4 with step `h`.
pub fn pulled_off_the_floor(
    rate: f64,
    h: f64,
    t_end: f64,
) -> Result<Vec<(f64, f64)>, PbmError> {
    let (mut system, _) = ball(0.0)?;
    system.add_force(GrowingPull { rate: Vector2::new(0.0, rate) })?;
    // The contact force reacts to the total force, so it must act last.
    system.forces.rotate_right(1);
    let mut stepper = RungeKutta::new(RK4);
    let mut out = vec![(0.0, 0.0)];
    for step in 1..=step_count(h, t_end)? {
        stepper.step(&mut system, h)?;
        out.push((step as f64 * h, system.particles[0].x.y));
    }
    Ok(out)
}
