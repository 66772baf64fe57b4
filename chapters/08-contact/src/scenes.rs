//! The chapter's scenes, built on [`crate::world`].

use crate::world::{Fixture, Settings, World};
use nalgebra::{UnitQuaternion, Vector3};
use pbm_collision::polyhedron::ConvexPolyhedron;
use pbm_prelim::PbmError;

type V3 = Vector3<f64>;

/// The ground: a 40 × 1 × 40 m slab whose top face is the plane y = 0.
pub fn ground() -> Result<Fixture, PbmError> {
    let solid =
        ConvexPolyhedron::cuboid(V3::new(0.0, -0.5, 0.0), V3::new(20.0, 0.5, 20.0))?;
    Ok(Fixture { solid, centre: V3::zeros(), spin: V3::zeros() })
}

/// The same slab tilted by `theta` (rad) about the z axis, its top face through the
/// origin: a slope going down towards −x.
pub fn slope(theta: f64) -> Result<Fixture, PbmError> {
    let turn = UnitQuaternion::from_axis_angle(&V3::z_axis(), theta);
    let solid =
        ConvexPolyhedron::cuboid(V3::new(0.0, -0.5, 0.0), V3::new(20.0, 0.5, 20.0))?
            .placed(V3::zeros(), turn);
    Ok(Fixture { solid, centre: V3::zeros(), spin: V3::zeros() })
}

/// Side of the stacked cubes (m) and their mass (kg).
pub const CUBE: (f64, f64) = (0.5, 1.0);

/// `boxes` cubes stacked exactly on the ground, each touching the one below.
pub fn stack(boxes: usize, settings: Settings) -> Result<World, PbmError> {
    let mut world = World::new(settings, vec![ground()?])?;
    add_stack(&mut world, boxes, 0.0)?;
    Ok(world)
}

/// Adds `boxes` cubes stacked on the ground at x = `x`, each touching the one below.
pub fn add_stack(world: &mut World, boxes: usize, x: f64) -> Result<(), PbmError> {
    let (side, mass) = CUBE;
    for k in 0..boxes {
        let centre = V3::new(x, side * (k as f64 + 0.5), 0.0);
        let still = (V3::zeros(), V3::zeros());
        world.add_box(
            V3::repeat(side),
            mass,
            centre,
            UnitQuaternion::identity(),
            still,
        )?;
    }
    Ok(())
}

// ANCHOR: bounce_series
/// When a ball dropped from `height` with restitution `e` stops bouncing, in closed
/// form: it falls for √(2H/g) and lands at v₀ = √(2 g H); each bounce leaves at e
/// times the speed it landed with and flies 2 v/g, so the flights sum to
/// (2 v₀/g)(e + e² + …) = (2 v₀/g) e/(1 − e). Infinite (None) for e = 1.
pub fn bounce_series(height: f64, e: f64, g: f64) -> Option<f64> {
    let (fall, v0) = ((2.0 * height / g).sqrt(), (2.0 * g * height).sqrt());
    (e < 1.0).then(|| fall + 2.0 * v0 / g * e / (1.0 - e))
}
// ANCHOR_END: bounce_series

/// The same ball's landings, each with the speed it lands at: the first after
/// √(2H/g) at v₀, then every 2 eᵏ v₀/g at eᵏ v₀; the landings faster than `slowest`.
pub fn landings(height: f64, e: f64, g: f64, slowest: f64) -> Vec<(f64, f64)> {
    let v0 = (2.0 * g * height).sqrt();
    let mut t = (2.0 * height / g).sqrt();
    let mut v = v0;
    let mut out = Vec::new();
    while v > slowest && out.len() < 1000 {
        out.push((t, v));
        v *= e;
        t += 2.0 * v / g;
    }
    out
}

/// The dropped box released flat, its bottom face `height` (m) above the ground:
/// all four lower corners land at once, and it bounces like a ball.
pub fn flat_drop(height: f64, settings: Settings) -> Result<World, PbmError> {
    let mut world = World::new(settings, vec![ground()?])?;
    let centre = V3::new(0.0, 0.5 * DROP_SIZE.y + height, 0.0);
    let still = (V3::zeros(), V3::zeros());
    world.add_box(DROP_SIZE, 1.0, centre, UnitQuaternion::identity(), still)?;
    Ok(world)
}

/// The dropped box's size (m).
pub const DROP_SIZE: V3 = V3::new(0.4, 0.2, 0.3);

/// The dropped box: 0.4 × 0.2 × 0.3 m, 1 kg, turned so that one edge is lowest,
/// released at rest with that edge `height` (m) above the ground.
pub fn drop(height: f64, settings: Settings) -> Result<World, PbmError> {
    let mut world = World::new(settings, vec![ground()?])?;
    let size = DROP_SIZE;
    // Turned 30° about z and 10° about x: its lowest feature is a corner, near an
    // edge, so both vertex and edge contacts occur as it tumbles.
    let turn = UnitQuaternion::from_axis_angle(&V3::x_axis(), 0.17)
        * UnitQuaternion::from_axis_angle(&V3::z_axis(), 0.52);
    let lowest = ConvexPolyhedron::cuboid(V3::zeros(), size * 0.5)?
        .placed(V3::zeros(), turn)
        .vertices()
        .iter()
        .map(|v| v.y)
        .fold(f64::INFINITY, f64::min);
    let centre = V3::new(0.0, height - lowest, 0.0);
    world.add_box(size, 1.0, centre, turn, (V3::zeros(), V3::zeros()))?;
    Ok(world)
}

/// A 0.4 × 0.2 × 0.4 m block of 1 kg resting at rest on a slope of `theta` (rad).
pub fn incline(theta: f64, settings: Settings) -> Result<World, PbmError> {
    let mut world = World::new(settings, vec![slope(theta)?])?;
    let turn = UnitQuaternion::from_axis_angle(&V3::z_axis(), theta);
    let size = V3::new(0.4, 0.2, 0.4);
    let centre = turn * V3::new(0.0, 0.1, 0.0);
    world.add_box(size, 1.0, centre, turn, (V3::zeros(), V3::zeros()))?;
    Ok(world)
}

/// A 0.4 × 0.2 × 0.4 m block of 1 kg resting flat on the ground, sliding at `speed`
/// (m/s) in the direction `angle` (rad) from the x axis towards z. The ground's
/// friction pyramid has its edges along x and z (the world's tangents for the
/// normal ŷ).
pub fn slide(angle: f64, speed: f64, settings: Settings) -> Result<World, PbmError> {
    let mut world = World::new(settings, vec![ground()?])?;
    let velocity = V3::new(angle.cos(), 0.0, angle.sin()) * speed;
    let centre = V3::new(0.0, 0.1, 0.0);
    let block = V3::new(0.4, 0.2, 0.4);
    world.add_box(
        block,
        1.0,
        centre,
        UnitQuaternion::identity(),
        (velocity, V3::zeros()),
    )?;
    Ok(world)
}

/// Where that block stops, in closed form (x, z, m). Under the pyramid each tangent
/// row saturates while its component slides, so each component of the velocity falls
/// at μ g on its own and covers (v cos φ)²/(2 μ g) and (v sin φ)²/(2 μ g): the path
/// bends towards the nearer edge of the pyramid. Under the cone the friction opposes
/// the sliding, and the block stops v²/(2 μ g) out along a straight line.
pub fn slide_stop(angle: f64, speed: f64, mu: f64, g: f64, cone: bool) -> (f64, f64) {
    let (vx, vz) = (speed * angle.cos(), speed * angle.sin());
    if cone {
        let d = speed * speed / (2.0 * mu * g);
        (d * angle.cos(), d * angle.sin())
    } else {
        (vx * vx / (2.0 * mu * g), vz * vz / (2.0 * mu * g))
    }
}

/// The turntable's ball: radius (m) and mass (kg).
pub const BALL: (f64, f64) = (0.05, 0.2);

// ANCHOR: turntable
/// A ball on a turntable: a 2 × 0.1 × 2 m slab, top face y = 0, turning at `omega`
/// (rad/s) about the y axis. The ball starts at `start` on the table with its
/// centre moving at `velocity` (horizontal, m/s) and spinning so that it does not
/// slip: its lowest point moves with the table's surface beneath it.
pub fn turntable(
    omega: f64,
    start: V3,
    velocity: V3,
    settings: Settings,
) -> Result<World, PbmError> {
    let solid =
        ConvexPolyhedron::cuboid(V3::new(0.0, -0.05, 0.0), V3::new(1.0, 0.05, 1.0))?;
    let spin = V3::new(0.0, omega, 0.0);
    let table = Fixture { solid, centre: V3::zeros(), spin };
    let mut world = World::new(settings, vec![table])?;
    let (radius, mass) = BALL;
    let centre = V3::new(start.x, radius, start.z);
    let rolling = rolling_spin(spin.cross(&centre) - velocity, radius);
    world.add_ball(radius, mass, centre, (velocity, rolling))?;
    Ok(world)
}
// ANCHOR_END: turntable

/// The spin ω (about a horizontal axis) that gives a ball of `radius` resting on a
/// horizontal plane the contact-point velocity `w` relative to its centre:
/// ω × (−r ŷ) = w.
pub fn rolling_spin(w: V3, radius: f64) -> V3 {
    V3::new(-w.z / radius, 0.0, w.x / radius)
}

/// A ball released at rest on a slope of `theta` (rad).
pub fn rolling(theta: f64, settings: Settings) -> Result<World, PbmError> {
    let mut world = World::new(settings, vec![slope(theta)?])?;
    let (radius, mass) = BALL;
    let turn = UnitQuaternion::from_axis_angle(&V3::z_axis(), theta);
    let centre = turn * V3::new(0.0, radius, 0.0);
    world.add_ball(radius, mass, centre, (V3::zeros(), V3::zeros()))?;
    Ok(world)
}

/// The see-saw's parts: the fulcrum's height (m), the plank's size (m) and mass
/// (kg), and the side of the cubes put on it (m).
pub const SEESAW: (f64, V3, f64, f64) = (0.3, V3::new(3.0, 0.1, 0.4), 2.0, 0.2);

// ANCHOR: seesaw
/// A see-saw: a plank balanced on the ridge of a fixed wedge (a triangular prism
/// whose top edge runs along z), with a cube of mass `left.0` (kg) at `left.1` (m)
/// left of the ridge and one of mass `right.0` at `right.1` right of it, all at rest.
pub fn seesaw(
    left: (f64, f64),
    right: (f64, f64),
    settings: Settings,
) -> Result<World, PbmError> {
    let (height, plank, plank_mass, side) = SEESAW;
    let (w, l) = (0.2, 0.3);
    let wedge = ConvexPolyhedron::new(
        vec![
            V3::new(-w, 0.0, -l),
            V3::new(w, 0.0, -l),
            V3::new(0.0, height, -l),
            V3::new(-w, 0.0, l),
            V3::new(w, 0.0, l),
            V3::new(0.0, height, l),
        ],
        vec![
            vec![0, 2, 1],
            vec![3, 4, 5],
            vec![0, 1, 4, 3],
            vec![0, 3, 5, 2],
            vec![1, 2, 5, 4],
        ],
    )?;
    let fulcrum = Fixture { solid: wedge, centre: V3::zeros(), spin: V3::zeros() };
    let mut world = World::new(settings, vec![ground()?, fulcrum])?;
    let still = (V3::zeros(), V3::zeros());
    let level = UnitQuaternion::identity();
    let y = height + 0.5 * plank.y;
    world.add_box(plank, plank_mass, V3::new(0.0, y, 0.0), level, still)?;
    let y = height + plank.y + 0.5 * side;
    for (mass, x) in [(left.0, -left.1), (right.0, right.1)] {
        world.add_box(V3::repeat(side), mass, V3::new(x, y, 0.0), level, still)?;
    }
    Ok(world)
}
// ANCHOR_END: seesaw

/// The see-saw's tilt (rad, positive when the left end goes down) at time `t` (s)
/// after release, for small angles: the plank and cubes turn as one body about the
/// ridge, with moment of inertia I about it, driven by the net torque
/// τ = g (m_l d_l − m_r d_r) and tipped further by their centres' height above the
/// ridge, k θ with k = g Σ m h. Then I θ̈ = τ + k θ, θ(0) = θ̇(0) = 0, so
/// θ(t) = (τ / k) (cosh(√(k/I) t) − 1).
pub fn seesaw_tilt(left: (f64, f64), right: (f64, f64), g: f64, t: f64) -> f64 {
    let (_, plank, plank_mass, side) = SEESAW;
    let cube_h = plank.y + 0.5 * side;
    let mut inertia = plank_mass * ((plank.x.powi(2) + plank.y.powi(2)) / 12.0)
        + plank_mass * (0.5 * plank.y).powi(2);
    let mut k = g * plank_mass * 0.5 * plank.y;
    for (m, d) in [left, right] {
        inertia += m * (side * side / 6.0 + d * d + cube_h * cube_h);
        k += g * m * cube_h;
    }
    let torque = g * (left.0 * left.1 - right.0 * right.1);
    torque / k * (f64::cosh((k / inertia).sqrt() * t) - 1.0)
}

/// Runs the turntable turning at `omega` (rad/s) with the ball starting 0.3 m out,
/// moving across at `speed`. Rolling without slipping, the centre obeys
/// ẍ = (2/7) Ω × ẋ: its velocity turns at 2Ω/7, and from x₀ with velocity u it is at
/// x₀ + u sin(wt)/w + (ŷ × u)(1 − cos wt)/w, w = 2Ω/7.
pub fn orbit(
    omega: f64,
    speed: f64,
    friction: f64,
    t_end: f64,
) -> Result<Orbit, PbmError> {
    let settings = Settings { friction, ..Settings::default() };
    let (start, u) = (Vector3::new(0.3, 0.0, 0.0), Vector3::new(0.0, 0.0, speed));
    let mut world = turntable(omega, start, u, settings)?;
    let x0 = world.bodies()[0].position();
    let w = 2.0 * omega / 7.0;
    let (mut path, mut path_error) = (vec![(x0.x, x0.z)], 0.0_f64);
    let (mut turned, mut heading) = (Vec::new(), f64::NAN);
    world.run_until(t_end, |world| {
        let (t, ball) = (world.time(), &world.bodies()[0]);
        let x = ball.position();
        let across = Vector3::y().cross(&u);
        let expected =
            x0 + u * ((w * t).sin() / w) + across * ((1.0 - (w * t).cos()) / w);
        path_error = path_error.max((x - expected).norm());
        path.push((x.x, x.z));
        // The velocity's heading, unwrapped: it turns by less than π per step.
        let v = ball.velocity();
        let angle = f64::atan2(v.x, v.z);
        let unwrapped = if heading.is_nan() {
            angle
        } else {
            heading
                + (angle - heading + std::f64::consts::PI)
                    .rem_euclid(std::f64::consts::TAU)
                - std::f64::consts::PI
        };
        heading = unwrapped;
        turned.push((t, unwrapped));
    })?;
    Ok(Orbit { path, rate: fitted_rate(&turned), path_error })
}

/// Runs a stack and measures how far any box drifts from where it started.
pub fn run_stack(
    boxes: usize,
    t_end: f64,
    settings: Settings,
) -> Result<StackRun, PbmError> {
    let mut world = stack(boxes, settings)?;
    let start: Vec<_> = world.bodies().iter().map(|b| b.position()).collect();
    let (mut drift, mut curve) = (0.0_f64, Vec::new());
    world.run_until(t_end, |w| {
        let now =
            w.bodies().iter().zip(&start).map(|(b, x)| (b.position() - x).norm());
        let worst = now.fold(0.0, f64::max);
        drift = drift.max(worst);
        curve.push((w.time(), worst));
    })?;
    Ok((world, drift, curve))
}

// ANCHOR: creep
/// How fast the top of a stack of `boxes` cubes sinks into itself under the
/// regularised force solve (m/s), the closed form of its creep. Each solve adds
/// δ = ρ A_max to A's diagonal ([`crate::friction::REGULARIZATION`] ρ), so a held
/// contact carrying f ends with d̈ = A f + b = −δ f − ḋ / h instead of zero; at
/// steady state d̈ = 0 and the contact closes at ḋ = −h δ f. The top sinks by the
/// sum over the layers below it, h δ Σ f. A corner between two cubes of side s and
/// mass m has A_max = 2 (1/m + |r × n|²/I) with |r × n|² = s²/2 and I = m s²/6, so
/// A_max = 8/m; the corners under the k-th box from the top carry k m g / 4 each, and
/// Σ f over one corner per layer is m g n (n + 1) / 8. So the rate is
/// h ρ g n (n + 1), whatever the cubes' size and mass. (A single cube touches only
/// the ground, where A_max = 4/m: half the rate.)
pub fn stack_creep_rate(boxes: usize, h: f64, g: f64) -> f64 {
    let n = boxes as f64;
    let shared = if boxes > 1 { 1.0 } else { 0.5 };
    h * crate::friction::REGULARIZATION * g * n * (n + 1.0) * shared
}
// ANCHOR_END: creep

/// How far the block on a slope of `theta` (rad) slides in `t_end`.
pub fn slip(theta: f64, settings: Settings, t_end: f64) -> Result<f64, PbmError> {
    let mut world = incline(theta, settings)?;
    let start = world.bodies()[0].position();
    world.run_until(t_end, |_| {})?;
    Ok((world.bodies()[0].position() - start).norm())
}

/// A finished stack run: the world, the largest drift of any box (m), and the
/// largest drift at each step's end (time, m).
pub type StackRun = (World, f64, Vec<(f64, f64)>);

/// A finished turntable run: the ball's centre (x, z) at every step (m), the
/// measured rate at which its velocity turns (rad/s), and the largest distance from
/// the rolling ball's path in closed form (m).
pub struct Orbit {
    /// The centre's track, (x, z) in metres.
    pub path: Vec<(f64, f64)>,
    /// How fast the centre's velocity turns (rad/s), fitted over the run.
    pub rate: f64,
    /// Largest distance from the closed-form path (m).
    pub path_error: f64,
}

/// The least-squares slope of y against x (a rate from samples of it).
fn fitted_rate(points: &[(f64, f64)]) -> f64 {
    let n = points.len() as f64;
    let (mx, my) =
        points.iter().fold((0.0, 0.0), |(a, b), (x, y)| (a + x / n, b + y / n));
    let (sxy, sxx) = points.iter().fold((0.0, 0.0), |(a, b), (x, y)| {
        (a + (x - mx) * (y - my), b + (x - mx) * (x - mx))
    });
    sxy / sxx
}
