//! The chapter's scenes: a mass hanging from a compliant constraint, chapter 4's
//! chain held by projection, the slides' chain of boxes with its scripted mouse, and
//! a cloth of distance constraints for timing against chapter 9.

use crate::contact::Ground;
use crate::joint::{Anchor, BodySystem, Joint};
use crate::particles::PbdSystem;
use crate::projection::{Scratch, Stiffness, project};
use crate::rigid::Body;
use nalgebra::{Vector2, Vector3};
use pbm_constraints::constraint::{Nail, Rod};
use pbm_constraints::scenes::Chain;
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::system::OdeSystem;
use pbm_ode::tableau::RK4;
use pbm_particles::condition::Distance;
use pbm_particles::forces::{G, Gravity};
use pbm_particles::particle::{Motion, Particle};
use pbm_particles::spring::DampedSpring;
use pbm_prelim::PbmError;
use pbm_prelim::parallel::map_range;
use pbm_rigid::mass::MassProperties;
use pbm_rigid::rotation::{Quat, quat_from_axis_angle};
use std::collections::{BTreeMap, BTreeSet};

// ANCHOR: hanging_mass
/// A particle of `mass` hanging under gravity from a fixed point by a distance
/// constraint of length `rest`, released at rest with the constraint unstretched.
pub fn hanging_mass(
    mass: f64,
    rest: f64,
    stiffness: Stiffness,
) -> Result<PbdSystem<2>, PbmError> {
    let anchor = Particle::new(1.0, Vector2::zeros(), Vector2::zeros())?;
    let bob = Particle::new(mass, Vector2::new(0.0, -rest), Vector2::zeros())?;
    let mut system = PbdSystem::new(vec![anchor.with_motion(Motion::Fixed), bob]);
    system.add_force(Gravity { g: Vector2::new(0.0, -G) })?;
    system.add_constraint(Distance::new(0, 1, rest)?, stiffness)?;
    Ok(system)
}
// ANCHOR_END: hanging_mass

// ANCHOR: projected_chain
/// Chapter 4's chain (its particles, its nail, its rods, its gravity), held by
/// projection instead of by constraint forces.
pub fn projected_chain(
    chain: Chain,
    stiffness: Stiffness,
) -> Result<PbdSystem<2>, PbmError> {
    let mut system = PbdSystem::new(chain.particles()?);
    system.add_force(Gravity { g: Vector2::new(0.0, -G) })?;
    system.add_constraint(Nail::new(0, Vector2::zeros())?, stiffness)?;
    for i in 0..chain.links {
        system.add_constraint(Rod::new(i, i + 1, chain.length)?, stiffness)?;
    }
    Ok(system)
}
// ANCHOR_END: projected_chain

/// Gravity in the slides' demos (m/s²).
pub const SLIDES_G: f64 = 10.0;

/// The slides' chain of boxes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoxChain {
    /// Number of boxes.
    pub links: usize,
    /// Box size: width, length (along the chain), depth (m).
    pub size: [f64; 3],
    /// Mass of one box (kg).
    pub mass: f64,
    /// Angle of the chain below the horizontal at release (rad); π/2 hangs straight
    /// down.
    pub release_angle: f64,
}

impl BoxChain {
    /// The book's chain: ten 1 kg boxes 5 × 20 × 5 cm, released straight out to the
    /// side.
    pub const BOOK: BoxChain = BoxChain {
        links: 10,
        size: [0.05, 0.2, 0.05],
        mass: 1.0,
        release_angle: 0.0,
    };

    // ANCHOR: box_chain
    /// The chain as bodies and ball joints: the top centre of box 0 is joined to the
    /// world origin, the top centre of every later box to the bottom centre of the
    /// box before it. Gravity is the slides' 10 m/s² along −y.
    pub fn build(&self) -> Result<BodySystem, PbmError> {
        if self.links == 0 {
            return Err(PbmError::invalid("box chain", "it needs at least one box"));
        }
        let [w, l, d] = self.size;
        let props = MassProperties::block(Vector3::new(w, l, d), self.mass)?;
        // Box-local +y points up the chain: turn it to point back towards the origin.
        let angle = self.release_angle;
        let down = Vector3::new(angle.cos(), -angle.sin(), 0.0);
        let q =
            quat_from_axis_angle(&Vector3::z(), std::f64::consts::FRAC_PI_2 - angle);
        let bodies = (0..self.links)
            .map(|i| Body::new(&props, down * (l * (i as f64 + 0.5)), q))
            .collect::<Result<Vec<_>, _>>()?;
        let mut system = BodySystem::new(bodies, Vector3::new(0.0, -SLIDES_G, 0.0));
        let (top, bottom) =
            (Vector3::new(0.0, 0.5 * l, 0.0), Vector3::new(0.0, -0.5 * l, 0.0));
        for i in 0..self.links {
            let above = if i == 0 {
                Anchor::World(Vector3::zeros())
            } else {
                Anchor::Body { body: i - 1, local: bottom }
            };
            system.add_joint(Joint::new(
                above,
                Anchor::Body { body: i, local: top },
                0.0,
                0.0,
            )?)?;
        }
        Ok(system)
    }
    // ANCHOR_END: box_chain

    /// The point of the last box the mouse grabs: its bottom centre, in its own
    /// coordinates.
    pub fn handle(&self) -> Vector3<f64> {
        Vector3::new(0.0, -0.5 * self.size[1], 0.0)
    }
}

/// An unrotated orientation.
pub const UNROTATED: Quat = Quat::new(1.0, 0.0, 0.0, 0.0);

// ANCHOR: drag_path
/// The scripted mouse: from the grabbed point `start`, 0.5 m right and 0.4 m up
/// in the first second, then once round a circle of radius 0.25 m (counter-
/// clockwise, starting at its bottom) in the next `loop_time` seconds, then
/// still. For the book's chain hanging 1 m below its pin every point of the path
/// is within reach.
pub fn drag_path(start: &Vector3<f64>, t: f64, loop_time: f64) -> Vector3<f64> {
    let corner = start + Vector3::new(0.5, 0.4, 0.0);
    if t <= 1.0 {
        return start + (corner - start) * t.max(0.0);
    }
    let angle = ((t - 1.0) / loop_time).min(1.0) * std::f64::consts::TAU;
    corner + Vector3::new(0.25 * angle.sin(), 0.25 * (1.0 - angle.cos()), 0.0)
}
// ANCHOR_END: drag_path

// ANCHOR: xpbd_cloth
/// A square cloth of n × n particles over chapter 9's pattern (side 1 m, 0.2 kg/m²),
/// held level by its y = 0 edge (fixed particles) like chapter 9's curtain: a
/// distance constraint along every triangle edge with compliance `stretch`, and
/// one across every interior edge (between the two corners facing it) with
/// compliance `bend`, both in m/N.
pub fn xpbd_cloth(
    n: usize,
    stretch: f64,
    bend: f64,
) -> Result<PbdSystem<3>, PbmError> {
    let (pattern, triangles) = pbm_cloth::scenes::grid(n, 1.0)?;
    let mut system = PbdSystem::new(sheet_particles(n, &pattern)?);
    system.add_force(Gravity { g: Vector3::new(0.0, 0.0, -G) })?;
    let rest = |a: usize, b: usize| {
        let (p, q) = (pattern[a], pattern[b]);
        (p[0] - q[0]).hypot(p[1] - q[1])
    };
    let (stretch, bend) = (Stiffness::xpbd(stretch)?, Stiffness::xpbd(bend)?);
    let (edges, across) = sheet_pairs(&triangles);
    for (a, b) in edges {
        system.add_constraint(Distance::new(a, b, rest(a, b))?, stretch)?;
    }
    for (c, d) in across {
        system.add_constraint(Distance::new(c, d, rest(c, d))?, bend)?;
    }
    Ok(system)
}
// ANCHOR_END: xpbd_cloth

/// The sheet's particles at their pattern places in z = 0, each of an equal share
/// of its mass, the first row (y = 0) fixed.
fn sheet_particles(
    n: usize,
    pattern: &[[f64; 2]],
) -> Result<Vec<Particle<3>>, PbmError> {
    let mass = crate::scenes::SHEET_DENSITY / (n * n) as f64;
    pattern
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let particle = Particle::new(
                mass,
                Vector3::new(p[0] - 0.5, p[1], 0.0),
                Vector3::zeros(),
            )?;
            Ok(if k < n { particle.with_motion(Motion::Fixed) } else { particle })
        })
        .collect()
}

/// Pairs of particle indices.
pub type Pairs = Vec<(usize, usize)>;

// ANCHOR: xpbd_cloth_parts
/// The sheet's two kinds of pair: every triangle edge once, and, across every
/// interior edge, the two corners facing it.
pub fn sheet_pairs(triangles: &[[usize; 3]]) -> (Pairs, Pairs) {
    let mut across = BTreeSet::new();
    let mut edges = Vec::new();
    for (&(a, b), corners) in &facing_corners(triangles) {
        edges.push((a, b));
        if let [c, d] = corners[..] {
            across.insert((c.min(d), c.max(d)));
        }
    }
    (edges, across.into_iter().collect())
}

/// Each edge of the triangles once, (low, high), with the corners facing it (one
/// on the border, two inside).
fn facing_corners(triangles: &[[usize; 3]]) -> BTreeMap<(usize, usize), Vec<usize>> {
    let mut facing: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
    for t in triangles {
        for k in 0..3 {
            let (a, b, c) = (t[k], t[(k + 1) % 3], t[(k + 2) % 3]);
            facing.entry((a.min(b), a.max(b))).or_default().push(c);
        }
    }
    facing
}
// ANCHOR_END: xpbd_cloth_parts

// ------------------------------------------------------------------------------
// The chapter's studies: the experiments its exercises and figures share.

/// The frame of the book's runs: 60 Hz (s).
pub const FRAME: f64 = 1.0 / 60.0;

/// Rest length of the hanging mass's constraint (m).
pub const HANGING_REST: f64 = 1.0;

/// Where a hanging mass came to rest.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settled {
    /// Stretch of the constraint at rest (m).
    pub extension: f64,
    /// Steps it took to come to rest.
    pub steps: usize,
}

/// The speed (m/s) and the acceleration (m/s²) below which the hanging mass counts
/// as at rest. Both are needed: at the turning points of its oscillation the speed
/// is zero, but the acceleration ω²A is not. With the book's ω ≈ 31 rad/s the
/// amplitude left is then below 10⁻⁸ m, far inside what the extension is read to.
pub const AT_REST: f64 = 1e-6;

/// The most steps a hanging mass is given to come to rest.
pub const MOST_STEPS: usize = 4_000_000;

// ANCHOR: static_extension
/// Hangs `mass` on a constraint of `stiffness` and steps at h with `iterations`
/// passes until its speed and acceleration are below [`AT_REST`]; returns the
/// stretch there.
pub fn static_extension(
    mass: f64,
    stiffness: Stiffness,
    h: f64,
    iterations: usize,
) -> Result<Settled, PbmError> {
    let mut system = hanging_mass(mass, HANGING_REST, stiffness)?;
    let mut v = system.particles.particles[1].v;
    for steps in 1..=MOST_STEPS {
        system.step(h, iterations)?;
        let bob = &system.particles.particles[1];
        let acceleration = (bob.v - v).norm() / h;
        v = bob.v;
        if v.norm() < AT_REST && acceleration < AT_REST {
            return Ok(Settled { extension: bob.x.norm() - HANGING_REST, steps });
        }
    }
    Err(PbmError::Solver {
        solver: "hanging mass",
        iterations: MOST_STEPS,
        residual: system.particles.particles[1].v.norm(),
        why: "did not come to rest".into(),
    })
}
// ANCHOR_END: static_extension

// ANCHOR: predicted_extension
/// The extension at which one step maps the resting mass to itself. The
/// prediction lowers it by h²g; each pass multiplies C by r = 1 − s (PBD) or by
/// ρ = α̃/(w + α̃) (the slides' XPBD update); after n passes C = rⁿ(C + h²g), so
/// C = rⁿh²g/(1 − rⁿ). XPBD's accumulated update lands on C = −α̃λ after the
/// first pass whatever n is, and the fixed point is C = α m g.
pub fn predicted_extension(
    mass: f64,
    stiffness: Stiffness,
    h: f64,
    iterations: usize,
) -> f64 {
    let fixed_point = |r: f64| {
        let rn = r.powi(iterations as i32);
        rn * h * h * G / (1.0 - rn)
    };
    match stiffness {
        Stiffness::Pbd(s) => fixed_point(1.0 - s),
        Stiffness::Xpbd(alpha) => alpha * mass * G,
        Stiffness::XpbdFirstIterationOnly(alpha) => {
            let alpha_tilde = alpha / (h * h);
            fixed_point(alpha_tilde / (1.0 / mass + alpha_tilde))
        }
    }
}
// ANCHOR_END: predicted_extension

/// The stiffness a reader would measure: m g over the static extension (N/m).
pub fn effective_stiffness(mass: f64, extension: f64) -> f64 {
    mass * G / extension
}

/// PBD's s that gives stiffness k (N/m) to a mass m at one step of h and one pass:
/// from m g/C = k with C = (1 − s)h²g/s, s = k h²/(m + k h²).
pub fn matching_pbd_stiffness(mass: f64, k: f64, h: f64) -> f64 {
    k * h * h / (mass + k * h * h)
}

// ANCHOR: stiffness_per_pass
/// Müller et al. (2007)'s correction: the factor s′ whose `passes` passes leave
/// the error one pass of `s` leaves, (1 − s′)ⁿ = 1 − s.
pub fn stiffness_per_pass(s: f64, passes: usize) -> f64 {
    1.0 - (1.0 - s).powf(1.0 / passes as f64)
}
// ANCHOR_END: stiffness_per_pass

/// One state of a chain run: time, largest relative link error, energy.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChainSample {
    /// Time (s).
    pub t: f64,
    /// max |ℓ − L|/L over the links.
    pub length_error: f64,
    /// Kinetic plus gravitational energy (J).
    pub energy: f64,
}

/// A chain run: a sample per frame, and the particles' positions at each.
pub type ChainRun = (Vec<ChainSample>, Vec<Vec<Vector2<f64>>>);

/// Chapter 4's chain by RK4 and Lagrange multipliers at step `h`, sampled every
/// `every` steps, with the particles at each sample.
pub fn lagrange_chain(
    chain: Chain,
    h: f64,
    samples: usize,
    every: usize,
) -> Result<ChainRun, PbmError> {
    let mut system = chain.with_rods()?;
    let mut stepper = RungeKutta::new(RK4);
    let mut track = Vec::with_capacity(samples + 1);
    let mut positions = Vec::with_capacity(samples + 1);
    let mut record = |system: &pbm_constraints::system::ConstrainedSystem<2>| {
        let particles = &system.particles.particles;
        track.push(ChainSample {
            t: system.time(),
            length_error: chain.length_error(particles),
            energy: system.particles.energy(),
        });
        positions.push(particles.iter().map(|p| p.x).collect());
    };
    record(&system);
    for s in 0..samples * every {
        stepper.step(&mut system, h).map_err(|e| e.at_step(s, system.time()))?;
        if (s + 1) % every == 0 {
            record(&system);
        }
    }
    Ok((track, positions))
}

// ANCHOR: projected_chain_run
/// The same chain held by projection with `stiffness`: `frames` frames of 1/60 s,
/// each `substeps` steps of `iterations` passes, sampled once per frame.
pub fn projected_chain_run(
    chain: Chain,
    stiffness: Stiffness,
    frames: usize,
    substeps: usize,
    iterations: usize,
) -> Result<ChainRun, PbmError> {
    let mut system = projected_chain(chain, stiffness)?;
    let mut track = Vec::with_capacity(frames + 1);
    let mut positions = Vec::with_capacity(frames + 1);
    let mut record = |system: &PbdSystem<2>| {
        let particles = &system.particles.particles;
        track.push(ChainSample {
            t: system.particles.t,
            length_error: chain.length_error(particles),
            energy: system.particles.energy(),
        });
        positions.push(particles.iter().map(|p| p.x).collect());
    };
    record(&system);
    for _ in 0..frames {
        system.frame(FRAME, substeps, iterations)?;
        record(&system);
    }
    Ok((track, positions))
}
// ANCHOR_END: projected_chain_run

/// Steps of the reference solution per frame: RK4 at 1/12000 s.
pub const REFERENCE_STEPS_PER_FRAME: usize = 200;

/// The largest distance between matching particles of two runs sampled at the
/// same times, over the samples up to and including `samples`.
pub fn max_position_difference(
    a: &[Vec<Vector2<f64>>],
    b: &[Vec<Vector2<f64>>],
    samples: usize,
) -> f64 {
    a.iter()
        .zip(b)
        .take(samples + 1)
        .flat_map(|(pa, pb)| pa.iter().zip(pb).map(|(x, y)| (x - y).norm()))
        .fold(0.0, f64::max)
}

/// How a spring run went: the largest |C| relative to the start, and the step at
/// which the state stopped being finite, if it did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpringRun {
    /// max |C| / |C₀| over the run (up to the divergence).
    pub growth: f64,
    /// The step at which the run broke down: a state no longer finite, or the
    /// particle thrown onto the anchor so that the spring has no direction.
    pub diverged_at: Option<usize>,
}

// ANCHOR: spring_both_ways
/// A 1 kg particle on a spring of stiffness k (N/m) from a fixed point, started
/// 10 % stretched, stepped `steps` times at h with no gravity: the spring either
/// as an applied force in the prediction (`in_prediction`) or as an XPBD
/// constraint of compliance 1/k.
pub fn spring_both_ways(
    k: f64,
    h: f64,
    steps: usize,
    in_prediction: bool,
) -> Result<SpringRun, PbmError> {
    let rest = 1.0;
    let anchor = Particle::new(1.0, Vector2::zeros(), Vector2::zeros())?
        .with_motion(Motion::Fixed);
    let bob = Particle::new(1.0, Vector2::new(1.1 * rest, 0.0), Vector2::zeros())?;
    let mut system = PbdSystem::new(vec![anchor, bob]);
    if in_prediction {
        system.add_force(DampedSpring::new(0, 1, k, 0.0, rest)?)?;
    } else {
        system
            .add_constraint(Distance::new(0, 1, rest)?, Stiffness::xpbd(1.0 / k)?)?;
    }
    let c0 = 0.1 * rest;
    let mut run = SpringRun { growth: 1.0, diverged_at: None };
    for s in 0..steps {
        if system.step(h, 1).is_err() {
            run.diverged_at = Some(s);
            break;
        }
        let c = system.particles.particles[1].x.norm() - rest;
        run.growth = run.growth.max(c.abs() / c0);
    }
    Ok(run)
}
// ANCHOR_END: spring_both_ways

/// Area density of chapter 9's cotton (kg/m²), which [`crate::scenes::xpbd_cloth`]
/// uses too.
pub const SHEET_DENSITY: f64 = 0.2;
/// Chapter 9's cotton, k = 1000 N/m, as a compliance per edge: α = 1/k (m/N).
pub const SHEET_COMPLIANCE: f64 = 1e-3;

/// How a sheet hung straight down settled.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SheetSag {
    /// The free edge's mean extension below the sheet's rest length (m), averaged
    /// over the second half of the run.
    pub extension: f64,
    /// The smallest and largest of that mean over the second half (m).
    pub range: (f64, f64),
    /// Height difference between the highest and the lowest particle of the free
    /// edge at the end (m): zero for a sheet that hangs flat, decimetres for one
    /// that has crumpled.
    pub edge_spread: f64,
    /// Distance constraints of the sheet, stretch and bending.
    pub constraints: usize,
}

/// How a pass visits the constraints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sweep {
    /// One after another, each seeing the corrections made before it: the chapter's
    /// loop, [`PbdSystem::step`].
    GaussSeidel,
    /// All from the same positions, each particle then moved by the mean of the
    /// corrections it received: [`jacobi_pass`].
    Jacobi,
}

// ANCHOR: jacobi_pass
/// One Jacobi pass over the constraints of `system` at the positions `x`. Every
/// constraint computes its Δλ from the same `x`, so they could all run at once,
/// and takes the share `relax` of it, in its multiplier and in its moves alike.
/// Unscaled, a particle in six constraints would take six full corrections at
/// once and overshoot; 1/(most constraints on one particle) is always safe.
pub fn jacobi_pass(
    system: &PbdSystem<3>,
    x: &mut [Vector3<f64>],
    lambdas: &mut [Vec<f64>],
    (h, relax): (f64, f64),
) -> Result<(), PbmError> {
    let w = system.inverse_masses();
    let (mut trial, mut scratch) = (x.to_vec(), Scratch::default());
    let (mut moves, mut before) = (vec![Vector3::zeros(); x.len()], Vec::new());
    for (c, lambda) in system.constraints.iter().zip(lambdas) {
        let condition = c.condition.as_ref();
        before.clear();
        before.extend_from_slice(lambda);
        project(condition, c.stiffness, lambda, w, &mut trial, h, &mut scratch)?;
        for (l, l0) in lambda.iter_mut().zip(&before) {
            *l = l0 + relax * (*l - l0);
        }
        for &i in condition.particles() {
            moves[i] += (trial[i] - x[i]) * relax;
            trial[i] = x[i];
        }
    }
    for (x, m) in x.iter_mut().zip(moves) {
        *x += m;
    }
    Ok(())
}
// ANCHOR_END: jacobi_pass

/// One step of [`PbdSystem::step`]'s loop with Jacobi passes in place of its
/// Gauss–Seidel ones, for the hanging sheet: the prediction under gravity (the
/// sheet's only force), `iterations` passes of [`jacobi_pass`] with the safe
/// share, v = (x − p)/h.
pub fn jacobi_step(
    system: &mut PbdSystem<3>,
    h: f64,
    iterations: usize,
) -> Result<(), PbmError> {
    let g = Vector3::new(0.0, 0.0, -G);
    let particles = &mut system.particles.particles;
    let previous: Vec<Vector3<f64>> = particles.iter().map(|p| p.x).collect();
    for p in particles.iter_mut().filter(|p| matches!(p.motion, Motion::Free)) {
        p.v += g * h;
        p.x += p.v * h;
    }
    let mut x: Vec<Vector3<f64>> = particles.iter().map(|p| p.x).collect();
    let mut lambdas: Vec<Vec<f64>> =
        system.constraints.iter().map(|c| vec![0.0; c.condition.rows()]).collect();
    let mut on_particle = vec![0.0_f64; x.len()];
    for c in &system.constraints {
        for &i in c.condition.particles() {
            on_particle[i] += 1.0;
        }
    }
    let relax = 1.0 / on_particle.iter().fold(1.0, |a: f64, &b| a.max(b));
    for _ in 0..iterations {
        jacobi_pass(system, &mut x, &mut lambdas, (h, relax))?;
    }
    for (k, p) in system.particles.particles.iter_mut().enumerate() {
        if matches!(p.motion, Motion::Free) {
            p.x = x[k];
            p.v = (x[k] - previous[k]) / h;
        }
    }
    system.particles.t += h;
    Ok(())
}

/// The farthest an intact hanging sheet reaches from the middle of its rail (m).
const APART: f64 = 1.118_033_988_749_895; // √(0.5² + 1²)

// ANCHOR: sheet_sag
/// A 1 m square sheet of k = 1/α (N/m) stretching stiffness hangs under its own
/// weight from its top edge; the tension at depth y is ρ g (L − y) per metre of
/// width, so the free edge sinks by ∫ ρ g (L − y)/k dy = ρ g L²/(2k).
pub fn sheet_sag_closed_form(compliance: f64) -> f64 {
    SHEET_DENSITY * G * compliance / 2.0
}
// ANCHOR_END: sheet_sag

// ANCHOR: hanging_sheet
/// [`crate::scenes::xpbd_cloth`] with `n` × `n` particles, stretch compliance α and
/// limp bending (α = 1 m/N), turned to hang straight down at rest from its held
/// edge, run for `seconds` at `substeps` steps per 60 Hz frame of `iterations`
/// passes, each a `sweep`.
pub fn hanging_sheet(
    n: usize,
    compliance: f64,
    (substeps, iterations, sweep): (usize, usize, Sweep),
    seconds: f64,
) -> Result<SheetSag, PbmError> {
    let mut sheet = crate::scenes::xpbd_cloth(n, compliance, 1.0)?;
    // The pattern lies in z = 0 with the held edge at y = 0: turn y into −z.
    for p in &mut sheet.particles.particles {
        p.x = nalgebra::Vector3::new(p.x.x, 0.0, -p.x.y);
    }
    let free_edge = n * (n - 1)..n * n;
    let frames = (seconds / FRAME).round() as usize;
    if frames < 2 {
        return Err(PbmError::invalid("hanging sheet", "run at least two frames"));
    }
    let (mut sum, mut range) = (0.0, (f64::INFINITY, f64::NEG_INFINITY));
    for frame in 1..=frames {
        sheet_frame(&mut sheet, (substeps, iterations, sweep))?;
        check_intact(&sheet, frame * substeps)?; // the Jacobi steps count too
        if 2 * frame > frames {
            let p = &sheet.particles.particles[free_edge.clone()];
            let depth = -p.iter().map(|p| p.x.z).sum::<f64>() / n as f64;
            let extension = depth - 1.0;
            sum += extension;
            range = (range.0.min(extension), range.1.max(extension));
        }
    }
    let z = sheet.particles.particles[free_edge].iter().map(|p| p.x.z);
    let edge_spread =
        z.clone().fold(f64::NEG_INFINITY, f64::max) - z.fold(f64::INFINITY, f64::min);
    let extension = sum / (frames - frames / 2) as f64;
    let constraints = sheet.constraints.len();
    Ok(SheetSag { extension, range, edge_spread, constraints })
}
// ANCHOR_END: hanging_sheet

// ANCHOR: sheet_frame
/// One 60 Hz frame of the sheet: `substeps` steps of `iterations` passes, each a
/// `sweep`.
fn sheet_frame(
    sheet: &mut PbdSystem<3>,
    (substeps, iterations, sweep): (usize, usize, Sweep),
) -> Result<(), PbmError> {
    match sweep {
        Sweep::GaussSeidel => sheet.frame(FRAME, substeps, iterations)?,
        Sweep::Jacobi => {
            for _ in 0..substeps {
                jacobi_step(sheet, FRAME / substeps as f64, iterations)?;
            }
        }
    }
    Ok(())
}

/// An error if the sheet, after `steps` steps, has come apart. Held at the rail's
/// midpoint ± 0.5 m, an intact 1 m sheet stays within √(0.5² + 1²) ≈ 1.12 m of
/// it; twice that means its edges have torn apart. A position that is no longer
/// finite counts as infinitely far.
fn check_intact(sheet: &PbdSystem<3>, steps: usize) -> Result<(), PbmError> {
    let distance = |p: &Particle<3>| p.x.norm();
    let far = sheet
        .particles
        .particles
        .iter()
        .map(distance)
        .fold(0.0, |a, d| if d.is_nan() { f64::INFINITY } else { a.max(d) });
    if far > 2.0 * APART {
        let why = format!("it came apart: a particle is {far:.3e} m from the rail");
        return Err(PbmError::Degenerate { what: "hanging sheet", why }
            .at_step(steps, sheet.particles.t));
    }
    Ok(())
}
// ANCHOR_END: sheet_frame

/// Passes per step swept by the stiffness study.
pub const ITERATIONS: [usize; 3] = [1, 4, 16];

/// One cell of the stiffness study: static extensions (m) at a substep count and
/// an iteration count.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cell {
    /// Steps per 60 Hz frame.
    pub substeps: usize,
    /// Passes per step.
    pub iterations: usize,
    /// XPBD's extension.
    pub xpbd: f64,
    /// PBD's extension (s matched at one step of one pass).
    pub pbd: f64,
    /// PBD's closed form.
    pub pbd_predicted: f64,
    /// PBD with s′ = [`stiffness_per_pass`]`(s, iterations)` in place of s.
    pub pbd_per_pass: f64,
    /// The slides' XPBD update.
    pub slides: f64,
}

// ANCHOR: stiffness_grid
/// The stiffness study: every substep count of [`SUBSTEPS`] with every iteration
/// count of [`ITERATIONS`], for XPBD with compliance α, for PBD with the s that
/// matches 1/α at one step of one pass (and with that s corrected for the pass
/// count), and for the slides' update.
pub fn stiffness_grid(
    compliance: f64,
    mass: f64,
) -> Result<(f64, Vec<Cell>), PbmError> {
    let s = matching_pbd_stiffness(mass, 1.0 / compliance, FRAME);
    let cases: Vec<(usize, usize)> = SUBSTEPS
        .iter()
        .flat_map(|&n| ITERATIONS.iter().map(move |&i| (n, i)))
        .collect();
    let cells = map_range(cases.len(), |k| {
        let (substeps, iterations) = cases[k];
        let h = FRAME / substeps as f64;
        let rest = |stiffness| static_extension(mass, stiffness, h, iterations);
        Ok(Cell {
            substeps,
            iterations,
            xpbd: rest(Stiffness::Xpbd(compliance))?.extension,
            pbd: rest(Stiffness::Pbd(s))?.extension,
            pbd_predicted: predicted_extension(
                mass,
                Stiffness::Pbd(s),
                h,
                iterations,
            ),
            pbd_per_pass: rest(Stiffness::Pbd(stiffness_per_pass(s, iterations)))?
                .extension,
            slides: rest(Stiffness::XpbdFirstIterationOnly(compliance))?.extension,
        })
    })
    .into_iter()
    .collect::<Result<Vec<_>, PbmError>>()?;
    Ok((s, cells))
}
// ANCHOR_END: stiffness_grid

// ANCHOR: drag_run
/// The chain of `links` boxes hanging straight down, its last box grabbed at the
/// bottom at t = 0 by a joint of `compliance` to the mouse, which follows
/// [`drag_path`]. Calls `frame` with the system and the mouse after every 60 Hz
/// frame (and at the start).
pub fn drag_run(
    links: usize,
    compliance: f64,
    loop_time: f64,
    substeps: usize,
    frames: usize,
    mut frame: impl FnMut(&BodySystem, &nalgebra::Vector3<f64>),
) -> Result<BodySystem, PbmError> {
    let model = BoxChain {
        links,
        release_angle: std::f64::consts::FRAC_PI_2,
        ..BoxChain::BOOK
    };
    let mut system = model.build()?;
    let handle = model.handle();
    let start = system.bodies[links - 1].world_point(&handle);
    let grab = Anchor::Body { body: links - 1, local: handle };
    let mouse =
        system.add_joint(Joint::new(grab, Anchor::World(start), 0.0, compliance)?)?;
    let h = FRAME / substeps as f64;
    frame(&system, &start);
    for _ in 0..frames {
        for _ in 0..substeps {
            let target = drag_path(&start, system.t + h, loop_time);
            system.joints[mouse].b = Anchor::World(target);
            system.step(h, 1)?;
        }
        frame(&system, &drag_path(&start, system.t, loop_time));
    }
    Ok(system)
}
// ANCHOR_END: drag_run

/// Substeps per 60 Hz frame swept by the stiffness study.
pub const SUBSTEPS: [usize; 6] = [1, 2, 4, 8, 16, 32];

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

/// What `pbd/hinge` measures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HingeRun {
    /// The largest angle between the two hinge axes (rad).
    pub max_misalignment: f64,
    /// The lowest angle the bar reached below the horizontal (rad, negative down).
    pub lowest_angle: f64,
    /// The angle at the end (rad).
    pub final_angle: f64,
    /// The largest gap at the hinge's point (m).
    pub max_gap: f64,
}

// ANCHOR: hinged_bar
/// A 1 kg bar 1 m long, released level from a hinge at its end whose axis is the
/// world's z, spinning about its own length at `twist` (rad/s) so that only the
/// hinge keeps it in the plane, with the angle about the hinge limited to
/// ±`limit` (rad, None for no limit); `substeps` XPBD steps a frame for `t_end`.
pub fn hinged_bar(
    limit: Option<f64>,
    twist: f64,
    substeps: usize,
    t_end: f64,
) -> Result<HingeRun, PbmError> {
    let mut system = hinged_bar_system(limit, twist)?;
    let h = FRAME / substeps.max(1) as f64;
    let mut run = HingeRun {
        max_misalignment: 0.0,
        lowest_angle: 0.0,
        final_angle: 0.0,
        max_gap: 0.0,
    };
    for _ in 0..(t_end / h).round() as usize {
        system.step(h, 1)?;
        let hinge = &system.hinges[0];
        run.max_misalignment =
            run.max_misalignment.max(hinge.misalignment(&system.bodies));
        run.lowest_angle = run.lowest_angle.min(hinge.angle(&system.bodies));
        run.max_gap = run.max_gap.max(system.max_rigid_violation());
    }
    run.final_angle = system.hinges[0].angle(&system.bodies);
    Ok(run)
}
// ANCHOR_END: hinged_bar

// ANCHOR: hinged_bar_system
/// The bar of [`hinged_bar`], its end joined to the world's origin and hinged
/// about the world's z.
fn hinged_bar_system(limit: Option<f64>, twist: f64) -> Result<BodySystem, PbmError> {
    use crate::joint::Hinge;
    let props = MassProperties::block(Vector3::new(1.0, 0.1, 0.1), 1.0)?;
    let mut bar = Body::new(&props, Vector3::new(0.5, 0.0, 0.0), UNROTATED)?;
    bar.omega = Vector3::new(twist, 0.0, 0.0);
    let mut system = BodySystem::new(vec![bar], Vector3::new(0.0, -G, 0.0));
    let end = Vector3::new(-0.5, 0.0, 0.0);
    let point = Anchor::World(Vector3::zeros());
    system.add_joint(Joint::new(
        point,
        Anchor::Body { body: 0, local: end },
        0.0,
        0.0,
    )?)?;
    let (z, x) = (Vector3::z(), Vector3::x());
    let limits = limit.map(|l| (-l, l));
    let hinge = Hinge { a: 0, b: None, axis_a: (z, x), axis_b: (z, x), limits };
    system.add_hinge(hinge)?;
    Ok(system)
}
// ANCHOR_END: hinged_bar_system

/// The rigid-body page's brick: 10 × 40 × 20 cm and 2 kg, at (0.3, −0.2, 0.1) m,
/// turned by 0.7 rad about (1, 2, 3), at rest.
pub fn brick() -> Result<Body, PbmError> {
    let props = MassProperties::block(Vector3::new(0.1, 0.4, 0.2), 2.0)?;
    let q = quat_from_axis_angle(&Vector3::new(1.0, 2.0, 3.0), 0.7);
    Body::new(&props, Vector3::new(0.3, -0.2, 0.1), q)
}

/// |L(t_end) − L(0)| / |L(0)| of the brick spun at (2, 1, −1.5) rad/s with no force,
/// stepped at `h`, with or without the gyroscopic term in its prediction.
pub fn free_brick_momentum_change(
    gyroscopic: bool,
    h: f64,
    t_end: f64,
) -> Result<f64, PbmError> {
    let mut body = brick()?;
    body.omega = Vector3::new(2.0, 1.0, -1.5);
    let mut system = BodySystem::new(vec![body], Vector3::zeros());
    system.gyroscopic = gyroscopic;
    let l0 = system.angular_momentum();
    for _ in 0..(t_end / h).round() as usize {
        system.step(h, 1)?;
    }
    Ok((system.angular_momentum() - l0).norm() / l0.norm())
}

/// Two cubes, 20 cm and 2 kg and 10 cm and 0.5 kg, joined corner to corner by a
/// 0.3 m rigid joint, each moving and tumbling, after one step at `h` has settled
/// the joint; with their momentum and angular momentum then. Cubes have I a multiple
/// of the identity, so ω × (I ω) = 0: whatever the pair's L does is the joint's.
pub fn spinning_pair(
    h: f64,
) -> Result<(BodySystem, Vector3<f64>, Vector3<f64>), PbmError> {
    let props = MassProperties::block(Vector3::new(0.2, 0.2, 0.2), 2.0)?;
    let other = MassProperties::block(Vector3::new(0.1, 0.1, 0.1), 0.5)?;
    let mut a = Body::new(&props, Vector3::zeros(), UNROTATED)?;
    // B's corner sits 0.3 m from A's: the joint holds at the start.
    let mut b = Body::new(&other, Vector3::new(0.45, 0.05, 0.15), UNROTATED)?;
    (a.v, a.omega) = (Vector3::new(0.1, 0.2, -0.3), Vector3::new(1.0, -2.0, 3.0));
    (b.v, b.omega) = (Vector3::new(-1.0, 0.5, 0.2), Vector3::new(0.0, 4.0, -1.0));
    let mut system = BodySystem::new(vec![a, b], Vector3::zeros());
    system.add_joint(Joint::new(
        Anchor::Body { body: 0, local: Vector3::new(0.1, 0.1, 0.1) },
        Anchor::Body { body: 1, local: Vector3::new(-0.05, 0.05, -0.05) },
        0.3,
        0.0,
    )?)?;
    system.step(h, 1)?;
    let (p0, l0) = (system.momentum(), system.angular_momentum());
    Ok((system, p0, l0))
}

/// |ΔL| / |L| of [`spinning_pair`] over `t_end` seconds at step `h`.
pub fn jointed_pair_momentum_drift(h: f64, t_end: f64) -> Result<f64, PbmError> {
    let (mut system, _, l0) = spinning_pair(h)?;
    for _ in 0..(t_end / h).round() as usize {
        system.step(h, 1)?;
    }
    Ok((system.angular_momentum() - l0).norm() / l0.norm())
}
