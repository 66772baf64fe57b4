//! The chapter's scenes, shared by its exercises, figures and demos: the models built
//! from particles, forces and constraint objects (the bead, the double and triple
//! pendulum, a hanging chain held by rods or by stiff springs), then the two
//! numerical arguments run on them (drift and the feedback that cures it; why a
//! chain of rods beats a chain of stiff springs).

use crate::constraint::{Nail, OnCircle, Rod};
use crate::projection::{ProjectionCost, post_stabilise};
use crate::system::{ConstrainedSystem, Feedback, Multipliers};
use crate::tree::{TreeSolve, fill_in};
use nalgebra::Vector2;
use pbm_ode::runge_kutta::{RungeKutta, step_count};
use pbm_ode::system::OdeSystem;
use pbm_ode::tableau::{ButcherTableau, RK4};
use pbm_particles::forces::{G, Gravity};
use pbm_particles::particle::{Motion, Particle, ParticleSystem};
use pbm_particles::spring::DampedSpring;
use pbm_prelim::PbmError;

fn gravity() -> Gravity<2> {
    Gravity { g: Vector2::new(0.0, -G) }
}

/// A 1 kg bead on the unit circle about the origin, released at rest at (1, 0) under
/// gravity.
pub fn bead(feedback: Feedback) -> Result<ConstrainedSystem<2>, PbmError> {
    let mut system = ConstrainedSystem::new(vec![Particle::new(
        1.0,
        Vector2::x(),
        Vector2::zeros(),
    )?]);
    system.add_force(gravity())?;
    system.add_constraint(OnCircle::new(0, Vector2::zeros(), 1.0)?)?;
    system.feedback = feedback;
    Ok(system)
}

/// Positions of a chain of pendulum bobs hanging from the origin: bob k sits at
/// length l_k from bob k − 1 (the origin for k = 0), at angle θ_k from straight down.
pub fn pendulum_positions(lengths: &[f64], angles: &[f64]) -> Vec<Vector2<f64>> {
    let mut at = Vector2::zeros();
    lengths
        .iter()
        .zip(angles)
        .map(|(l, th)| {
            at += Vector2::new(th.sin(), -th.cos()) * *l;
            at
        })
        .collect()
}

// ANCHOR: pendulum
/// An n-link pendulum from constraint objects: the first bob on a circle about the
/// pivot, every later bob joined to the one before by a rod. Bobs start at rest at
/// the given angles from straight down.
pub fn pendulum(
    masses: &[f64],
    lengths: &[f64],
    angles: &[f64],
) -> Result<ConstrainedSystem<2>, PbmError> {
    if masses.is_empty()
        || masses.len() != lengths.len()
        || masses.len() != angles.len()
    {
        return Err(PbmError::invalid(
            "pendulum",
            "give one mass, one length and one angle per bob",
        ));
    }
    if angles.iter().any(|a| !a.is_finite()) {
        return Err(PbmError::invalid("pendulum", "angles must be finite"));
    }
    let bobs = pendulum_positions(lengths, angles)
        .into_iter()
        .zip(masses)
        .map(|(x, &m)| Particle::new(m, x, Vector2::zeros()))
        .collect::<Result<Vec<_>, _>>()?;
    let mut system = ConstrainedSystem::new(bobs);
    system.add_force(gravity())?;
    system.add_constraint(OnCircle::new(0, Vector2::zeros(), lengths[0])?)?;
    for (k, &length) in lengths.iter().enumerate().skip(1) {
        system.add_constraint(Rod::new(k - 1, k, length)?)?;
    }
    Ok(system)
}
// ANCHOR_END: pendulum

/// The double pendulum of the book: two 1 kg bobs on 1 m links, released at rest with
/// the upper link horizontal and the lower one hanging at 45° past it.
pub fn double_pendulum() -> Result<ConstrainedSystem<2>, PbmError> {
    pendulum(&[1.0, 1.0], &[1.0, 1.0], &DOUBLE_PENDULUM_ANGLES)
}

/// Initial angles of the book's double pendulum (from straight down, rad).
pub const DOUBLE_PENDULUM_ANGLES: [f64; 2] =
    [std::f64::consts::FRAC_PI_2, 0.75 * std::f64::consts::PI];

/// A chain of `n` links of `length`, each ending in a bob of `mass`, hanging from a
/// nailed end particle, released at rest stretched out horizontally.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Chain {
    /// Number of links (bobs after the nailed end).
    pub links: usize,
    /// Length of one link (m).
    pub length: f64,
    /// Mass of one bob (kg).
    pub mass: f64,
}

impl Chain {
    /// The book's chain: 10 links of 0.1 m with 0.1 kg bobs.
    pub const BOOK: Chain = Chain { links: 10, length: 0.1, mass: 0.1 };

    /// The chain's particles, released at rest stretched out along +x from the origin.
    pub fn particles(&self) -> Result<Vec<Particle<2>>, PbmError> {
        if self.links == 0 {
            return Err(PbmError::invalid("chain", "it needs at least one link"));
        }
        (0..=self.links)
            .map(|i| {
                Particle::new(
                    self.mass,
                    Vector2::new(i as f64 * self.length, 0.0),
                    Vector2::zeros(),
                )
            })
            .collect()
    }

    /// The rod chain after falling for `steps` RK4 steps of 1 ms, so that it moves:
    /// the benchmarks' chain (chapter 4's and the production appendix's). It falls by
    /// the tree solve, whose cost is linear in the links where CG's grows as their
    /// square, and is handed back solving by CG, the system's default.
    pub fn falling(&self, steps: usize) -> Result<ConstrainedSystem<2>, PbmError> {
        let mut system = self.with_rods()?;
        system.multipliers = Multipliers::Tree;
        let mut stepper =
            pbm_ode::runge_kutta::RungeKutta::new(pbm_ode::tableau::RK4);
        for _ in 0..steps {
            stepper.step(&mut system, 1e-3)?;
        }
        system.multipliers = Multipliers::Cg;
        Ok(system)
    }

    // ANCHOR: rod_chain
    /// The chain held by constraints: a nail on particle 0 and a rod along every
    /// link.
    pub fn with_rods(&self) -> Result<ConstrainedSystem<2>, PbmError> {
        let mut system = ConstrainedSystem::new(self.particles()?);
        system.add_force(gravity())?;
        system.add_constraint(Nail::new(0, Vector2::zeros())?)?;
        for i in 0..self.links {
            system.add_constraint(Rod::new(i, i + 1, self.length)?)?;
        }
        Ok(system)
    }

    /// The same chain held by penalty springs of stiffness `k` (N/m), undamped, its
    /// end particle fixed.
    pub fn with_springs(&self, k: f64) -> Result<ParticleSystem<2>, PbmError> {
        let mut particles = self.particles()?;
        particles[0] = particles[0].clone().with_motion(Motion::Fixed);
        let mut system = ParticleSystem::new(particles);
        system.add_force(gravity())?;
        for i in 0..self.links {
            system.add_force(DampedSpring::new(i, i + 1, k, 0.0, self.length)?)?;
        }
        Ok(system)
    }
    // ANCHOR_END: rod_chain

    /// The largest relative length error |ℓ − L| / L over the links of `particles`.
    pub fn length_error(&self, particles: &[Particle<2>]) -> f64 {
        particles
            .windows(2)
            .map(|w| ((w[0].x - w[1].x).norm() - self.length).abs() / self.length)
            .fold(0.0, f64::max)
    }
}

/// A branching tree of rods in the plane: a mobile of seven particles hung by one rod
/// from a fixed hook (its one tie to the ground), with a branch point: a particle from
/// which three rods hang, so that J W Jᵀ couples all four of its rods. Each particle
/// moves, so that the
/// multipliers have velocity terms; the tree solve's test and figure use it.
pub fn mobile() -> Result<ConstrainedSystem<2>, PbmError> {
    let at = |x: f64, y: f64| Vector2::new(x, y);
    let places = [
        (0.0, 0.0),
        (0.0, -1.0),
        (-1.0, -1.5),
        (1.0, -1.5),
        (0.2, -2.0),
        (-1.6, -2.3),
        (1.7, -2.4),
        (0.0, 0.8),
    ];
    let mut particles = Vec::with_capacity(places.len());
    for (i, &(x, y)) in places.iter().enumerate() {
        let v = at(0.3 * (i as f64).sin(), -0.2 * i as f64);
        particles.push(Particle::new(0.5 + 0.25 * i as f64, at(x, y), v)?);
    }
    particles[7] = particles[7].clone().with_motion(Motion::Fixed);
    let mut system = ConstrainedSystem::new(particles);
    system.add_force(gravity())?;
    for (a, b) in MOBILE_RODS {
        let p = &system.particles.particles;
        let length = (p[a].x - p[b].x).norm();
        system.add_constraint(Rod::new(a, b, length)?)?;
    }
    Ok(system)
}

/// The mobile and its tree, ordered for elimination.
pub fn mobile_tree() -> Result<(ConstrainedSystem<2>, TreeSolve<2>), PbmError> {
    let mut system = mobile()?;
    let (w, _) = system.assemble()?;
    let tree = TreeSolve::new(system.jacobian(), &w)?;
    Ok((system, tree))
}

/// The blocks the mobile's elimination fills in, leaves first (the tree solve's order)
/// and root first (the same numbers read backwards).
pub fn mobile_fill() -> Result<(usize, usize), PbmError> {
    let (_, tree) = mobile_tree()?;
    let (n, edges) = (tree.len(), tree.edges());
    let reversed: Vec<(usize, usize)> =
        edges.iter().map(|&(a, b)| (n - 1 - a, n - 1 - b)).collect();
    Ok((fill_in(n, &edges).len(), fill_in(n, &reversed).len()))
}

/// The mobile's rods: the hook (particle 7) to 0, then down the branches.
pub const MOBILE_RODS: [(usize, usize); 7] =
    [(7, 0), (0, 1), (1, 2), (1, 3), (1, 4), (2, 5), (3, 6)];

// The chapter's two numerical arguments: drift (and the feedback that cures it), and
// why a chain of rods beats a chain of stiff springs.

// ANCHOR: drift
/// |C| of the bead after every step of size `h` up to `t_end`: (t, |C|).
pub fn bead_drift(
    tableau: ButcherTableau,
    feedback: Feedback,
    h: f64,
    t_end: f64,
) -> Result<Vec<(f64, f64)>, PbmError> {
    let mut system = bead(feedback)?;
    let mut stepper = RungeKutta::new(tableau);
    let mut track = vec![(0.0, system.max_abs_c()?)];
    for _ in 0..step_count(h, t_end)? {
        stepper.step(&mut system, h)?;
        track.push((system.time(), system.max_abs_c()?));
    }
    Ok(track)
}
// ANCHOR_END: drift

/// How the chain's links are held.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Holder {
    /// Rigid rods: constraint forces.
    Rods,
    /// Penalty springs of this stiffness (N/m).
    Springs(f64),
}

/// What one chain run did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChainRun {
    /// Whether every step succeeded (finite state, converged constraint solves).
    pub completed: bool,
    /// The largest relative link-length error |ℓ − L|/L seen.
    pub max_length_error: f64,
    /// The largest |E − E₀| seen, relative to the chain's energy scale m g L (whole
    /// chain).
    pub max_energy_change: f64,
}

impl ChainRun {
    /// A run counts as stable if it finished, kept its energy within 5% of the scale
    /// and no link stretched or shrank by half. Past the stability limit the energy
    /// grows by orders of magnitude within the run, so the exact thresholds hardly
    /// move the limit.
    pub fn stable(&self) -> bool {
        self.completed && self.max_energy_change < 0.05 && self.max_length_error < 0.5
    }
}

/// Runs the book's chain with RK4 at step h for t_end seconds.
pub fn run_chain(
    chain: Chain,
    holder: Holder,
    h: f64,
    t_end: f64,
) -> Result<ChainRun, PbmError> {
    let n = step_count(h, t_end)?;
    let scale = chain_energy_scale(chain);
    let mut stepper = RungeKutta::new(RK4);
    let mut run =
        ChainRun { completed: true, max_length_error: 0.0, max_energy_change: 0.0 };
    let observe = |particles: &ParticleSystem<2>, e0: f64, run: &mut ChainRun| {
        run.max_length_error =
            run.max_length_error.max(chain.length_error(&particles.particles));
        run.max_energy_change =
            run.max_energy_change.max((particles.energy() - e0).abs() / scale);
    };
    match holder {
        Holder::Rods => {
            let mut system = chain.with_rods()?;
            let e0 = system.energy();
            for _ in 0..n {
                if stepper.step(&mut system, h).is_err() {
                    run.completed = false;
                    break;
                }
                observe(&system.particles, e0, &mut run);
            }
        }
        Holder::Springs(k) => {
            let mut system = chain.with_springs(k)?;
            let e0 = system.energy();
            for _ in 0..n {
                if stepper.step(&mut system, h).is_err() {
                    run.completed = false;
                    break;
                }
                observe(&system, e0, &mut run);
            }
        }
    }
    Ok(run)
}

// ANCHOR: max_stable
/// The largest RK4 step at which the chain stays stable for t_end, by bisection in
/// log h between 1e-6 s and 0.5 s (returned as is if even 0.5 s is stable).
pub fn max_stable_step(
    chain: Chain,
    holder: Holder,
    t_end: f64,
) -> Result<f64, PbmError> {
    let (mut stable, mut unstable) = (1e-6_f64, 0.5_f64);
    if run_chain(chain, holder, unstable, t_end)?.stable() {
        return Ok(unstable);
    }
    if !run_chain(chain, holder, stable, t_end.min(0.01))?.stable() {
        return Err(PbmError::invalid("chain", "unstable even at h = 1e-6 s"));
    }
    for _ in 0..24 {
        let mid = (stable * unstable).sqrt();
        if run_chain(chain, holder, mid, t_end)?.stable() {
            stable = mid;
        } else {
            unstable = mid;
        }
    }
    Ok(stable)
}
// ANCHOR_END: max_stable

/// Where the bead-forces figure looks at the wire: 40° below the horizontal (degrees).
pub const BEAD_FORCES_ANGLE_DEG: f64 = -40.0;

/// The moving bead's speed in the bead-forces figure (m/s).
pub const BEAD_FORCES_SPEED: f64 = 2.5;

/// The forces on a 1 kg bead on the unit circle at `angle_deg`, moving along the wire
/// at `speed` (m/s): gravity f, the constraint force f̂ = λx of equation 7, and their
/// sum (N).
pub fn bead_forces(angle_deg: f64, speed: f64) -> [Vector2<f64>; 3] {
    let angle = angle_deg.to_radians();
    let x = Vector2::new(angle.cos(), angle.sin());
    let tangent = Vector2::new(-x.y, x.x);
    let f = Vector2::new(0.0, -G);
    let f_hat = x * crate::bead::bead_lambda(1.0, x, tangent * speed, f);
    [f, f_hat, f + f_hat]
}

/// How a run holds its constraints against drift.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stabiliser {
    /// Nothing: the solve asks only for C̈ = 0.
    None,
    /// Baumgarte's feedback C̈ = −k_s C − k_d Ċ inside the solve, at the book's gains.
    Baumgarte,
    /// No feedback; after every step the positions are projected onto C = 0 and the
    /// velocities onto J v = 0.
    Projection,
}

impl Stabiliser {
    /// The three, in the order the study, its figure and the demo list them.
    pub const ALL: [Stabiliser; 3] =
        [Stabiliser::None, Stabiliser::Baumgarte, Stabiliser::Projection];

    /// The name the exercise's JSON and the figure's legend use.
    pub fn name(self) -> &'static str {
        match self {
            Stabiliser::None => "none",
            Stabiliser::Baumgarte => "baumgarte",
            Stabiliser::Projection => "projection",
        }
    }
}

/// How close to C = 0 the projection puts the chain (m²): |C| = ½|ℓ² − L²| ≈ L |ℓ − L|,
/// so 1e-12 m² is a link-length error of 1e-11 m on the book's 0.1 m links.
pub const PROJECTION_TOLERANCE: f64 = 1e-12;

/// The book's rod chain under RK4, held against drift by one of the three ways: what
/// the stabilisation study, its figure and the draggable chain all step.
pub struct StabilisedChain {
    /// The chain (its forces may be added to: the demo's hand).
    pub system: ConstrainedSystem<2>,
    stepper: RungeKutta,
    stabiliser: Stabiliser,
    projections: ProjectionCost,
}

impl StabilisedChain {
    /// The chain released as in the rods-vs-springs runs, with `stabiliser`.
    pub fn new(stabiliser: Stabiliser) -> Result<Self, PbmError> {
        let mut system = Chain::BOOK.with_rods()?;
        system.feedback = match stabiliser {
            Stabiliser::Baumgarte => Feedback::DEFAULT,
            Stabiliser::None | Stabiliser::Projection => Feedback::OFF,
        };
        let (stepper, projections) =
            (RungeKutta::new(RK4), ProjectionCost::default());
        Ok(StabilisedChain { system, stepper, stabiliser, projections })
    }

    /// One RK4 step of `h`, then the projection if that is the stabiliser. Returns
    /// max |C| after it.
    pub fn step(&mut self, h: f64) -> Result<f64, PbmError> {
        self.stepper.step(&mut self.system, h)?;
        if self.stabiliser == Stabiliser::Projection {
            let tolerance = PROJECTION_TOLERANCE;
            post_stabilise(&mut self.system, tolerance, &mut self.projections)?;
        }
        self.system.max_abs_c()
    }

    /// Linear solves and CG iterations so far: one solve per derivative evaluation,
    /// and the projections' own.
    pub fn cost(&self) -> ProjectionCost {
        let stats = self.system.stats();
        ProjectionCost {
            solves: stats.solves + self.projections.solves,
            cg_iterations: stats.iterations + self.projections.cg_iterations,
        }
    }
}

/// The book chain's energy scale: its total weight times its length, n m g · n L (J).
pub fn chain_energy_scale(chain: Chain) -> f64 {
    chain.links as f64 * chain.mass * G * chain.links as f64 * chain.length
}

/// One sample of a stabilised run, after a step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StabilisedSample {
    /// Time (s).
    pub t: f64,
    /// max |C| (m²).
    pub abs_c: f64,
    /// (E − E₀) over the chain's energy scale.
    pub energy_change: f64,
    /// What the run has cost so far.
    pub cost: ProjectionCost,
}

/// A stabilised run: its samples, and when it broke down if it did.
#[derive(Debug, Clone, PartialEq)]
pub struct StabilisedRun {
    /// A sample at the start and after every step taken.
    pub track: Vec<StabilisedSample>,
    /// The time of the step at which the run broke down (the state blew up, a link
    /// stretched or shrank by half, or the projection could not find its way back),
    /// if one did; the track stops before it.
    pub broke_down_at: Option<f64>,
}

/// The chain stepped with `stabiliser` at `h` up to `t_end`, or until a step fails.
pub fn stabilised_run(
    stabiliser: Stabiliser,
    h: f64,
    t_end: f64,
) -> Result<StabilisedRun, PbmError> {
    let mut chain = StabilisedChain::new(stabiliser)?;
    let (e0, scale) = (chain.system.energy(), chain_energy_scale(Chain::BOOK));
    let sample = |chain: &StabilisedChain, abs_c| StabilisedSample {
        t: chain.system.time(),
        abs_c,
        energy_change: (chain.system.energy() - e0) / scale,
        cost: chain.cost(),
    };
    let first = chain.system.max_abs_c()?;
    let mut run =
        StabilisedRun { track: vec![sample(&chain, first)], broke_down_at: None };
    for k in 0..step_count(h, t_end)? {
        // Broken down: a failed step, or a link stretched or shrunk by half (as
        // `ChainRun::stable` counts it), after which the numbers measure nothing.
        match chain.step(h) {
            Ok(abs_c)
                if Chain::BOOK.length_error(&chain.system.particles.particles)
                    < 0.5 =>
            {
                run.track.push(sample(&chain, abs_c));
            }
            _ => {
                run.broke_down_at = Some((k + 1) as f64 * h);
                break;
            }
        }
    }
    Ok(run)
}
