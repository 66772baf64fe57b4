//! The simulation loop that ties chapters 6, 7 and 8 together. Each step is a list of
//! stages, one file each:
//!
//! 1. [`detect`]: find the contacts (chapter 7's coherent sweep for the pairs worth
//!    testing, then its contact finding, within the tolerance ε);
//! 2. [`collide`]: stop the colliding ones with impulses;
//! 3. [`hold`]: hold the rest (resting contacts) fixed for the step, "road-runner"
//!    style, and solve for their contact and friction forces;
//! 4. [`integrate`]: integrate with RK4 (the world is an ODE system whose derivative
//!    includes those forces, solved at every stage);
//! 5. [`collision_time`]: if the step drove some pair deeper than ε, find the
//!    collision time and stop there; and keep every step short enough that no body
//!    can pass through another within it;
//! 6. [`correct`]: remove what interpenetration is left by the smallest displacement
//!    in the kinetic-energy norm.
//!
//! The same loop runs a first-order world (Baraff 1995), where velocity is force
//! over mass, v = F/M and ω = I⁻¹ τ: nothing coasts, nothing collides, and the
//! contact forces are those that keep the contacts from closing *velocities*.

mod collide;
mod collision_time;
mod correct;
mod detect;
mod hold;
mod integrate;
pub mod sequential;

pub use collision_time::{step_limit, width};
pub use correct::CORRECTION_SLOP;
pub use detect::PARALLEL;
pub use sequential::{
    BAUMGARTE, PUSH_OUT_SWEEPS, Remembered, RememberedFace, SUBSTEPS,
};

use crate::lcp::{ClampedFactor, LcpSolution};
use crate::rows::BodyState;
use detect::{Found, Held, Shape};
use nalgebra::{Matrix3, UnitQuaternion, Vector3};
use pbm_collision::polyhedron::{ConvexPolyhedron, PlaneWitness};
use pbm_collision::sweep::CoherentSweep;
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::system::state_of;
use pbm_ode::tableau::RK4;
use pbm_particles::forces::G;
use pbm_prelim::PbmError;
use pbm_rigid::body::{Body, RigidBody, RigidBodyDef, RigidSystem};
use pbm_rigid::mass::MassProperties;
use std::collections::HashMap;

type V3 = Vector3<f64>;

/// Friction coefficients below this are taken as zero: the friction they allow is
/// below what the solve resolves (its regularisation is 1e-9 of A's scale), and the
/// rounds that settle the friction bounds then chase roundoff and need not settle.
pub const MIN_FRICTION: f64 = 1e-6;

/// Resting contacts closing slower than this (m/s) are not stopped by an impulse
/// before the step: over a thousand steps of 10 ms they would close by 10 µm, a
/// tenth of the tolerance, which the tolerance correction removes anyway; and a
/// stack at rest, whose contacts close at roundoff speeds, skips the extra solve.
pub const SLOWEST_CLOSING: f64 = 1e-6;

/// How many times its planned number of steps (duration / h) a run may take before
/// [`World::run_until`] calls it stalled: collision times shorten a step, but a run
/// whose steps stop advancing time must say so, not run forever.
pub const STEP_BUDGET: usize = 20;

/// How forces move the bodies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order {
    /// Newton's world: F = M v̇, bodies coast and collide.
    #[default]
    Second,
    /// Baraff's first-order world: F = M v, a body moves only while pushed (for
    /// trying out mechanisms). Initial velocities are ignored.
    First,
}

/// How a step that went too deep finds the collision time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CollisionSearch {
    /// On chapter 7's interpolation of the step just taken, then one step that long
    /// to check (bisection if the check fails).
    #[default]
    Interpolated,
    /// By re-taking the whole step shorter and shorter (the notes' way).
    Bisection,
}

/// How the contacts are solved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Solver {
    /// This chapter's: the complementarity problem on accelerations, solved exactly
    /// (pivoting, warm-started) at every RK4 stage, collisions by impulses, steps
    /// cut back to collision times, and interpenetration corrected.
    #[default]
    Exact,
    /// Production engines': one velocity solve per step by this many sweeps of
    /// sequential impulses ([`crate::sequential`]), warm-started from the last
    /// step's impulses, with speculative contacts for what may touch within the step
    /// and Baumgarte's feedback for what interpenetrates; then the positions move
    /// with the new velocities (symplectic Euler).
    SequentialImpulses {
        /// Sweeps over the rows per step.
        sweeps: usize,
    },
    /// The time-stepping LCP (Stewart–Trinkle, Anitescu–Potra): the same velocity
    /// problem as sequential impulses, once per step and solved exactly (pivoting),
    /// with the same speculative contacts and split push out; no collision times.
    TimeStepping,
}

/// The most sweeps a step may ask for.
pub const MAX_SWEEPS: usize = 10_000;

/// The world's constants.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// Gravity (m/s²).
    pub gravity: V3,
    /// Coefficient of restitution e of every impact, in [0, 1].
    pub restitution: f64,
    /// Coefficient of friction μ of every contact, ≥ 0. Below [`MIN_FRICTION`] it
    /// counts as zero.
    pub friction: f64,
    /// Contact tolerance (m): closer than this is touching.
    pub tolerance: f64,
    /// Closing speeds below this (m/s) are resting, not colliding.
    pub resting_speed: f64,
    /// Impacts closing slower than this many steps of gravity, `bounce_steps` · |g| h
    /// (m/s), do not bounce: they get e = 0. A rebound slower than that is caught
    /// again within a step or two, so with ε > 0 a body would hop on the spot for
    /// ever instead of coming to rest. The default is 2.
    pub bounce_steps: f64,
    /// Time step (s).
    pub h: f64,
    /// Second-order (Newton) or first-order world.
    pub order: Order,
    /// How the collision time is found.
    pub search: CollisionSearch,
    /// How the contacts are solved.
    pub solver: Solver,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            gravity: V3::new(0.0, -G, 0.0),
            restitution: 0.5,
            friction: 0.0,
            tolerance: 1e-4,
            resting_speed: 1e-3,
            bounce_steps: 2.0,
            h: 0.01,
            order: Order::Second,
            search: CollisionSearch::Interpolated,
            solver: Solver::Exact,
        }
    }
}

/// A solid that never moves (the ground, an incline). It may spin about `centre`
/// with angular velocity `spin` as long as its shape does not change as it turns
/// (a turntable).
#[derive(Debug, Clone)]
pub struct Fixture {
    /// Its shape, in world coordinates.
    pub solid: ConvexPolyhedron,
    /// A point on its axis (m).
    pub centre: V3,
    /// Its angular velocity (rad/s).
    pub spin: V3,
}

/// What the solves cost and found, summed over a run.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Stats {
    /// Contact-force solves (four per step with contacts, one per RK4 stage).
    pub solves: usize,
    /// Solves answered by the warm start.
    pub warm: usize,
    /// Solves answered through the factor kept from the solve before, by iterative
    /// refinement, with nothing factored.
    pub reused: usize,
    /// Pivots made in all.
    pub pivots: usize,
    /// Sweeps of sequential impulses made in all.
    pub sweeps: usize,
    /// The largest velocity error a sequential-impulse solve left (m/s): how far
    /// from the complementarity conditions on velocities its sweeps stopped
    /// ([`crate::sequential::velocity_error`]).
    pub max_velocity_error: f64,
    /// The deepest interpenetration at any step's end (m).
    pub deepest: f64,
    /// The smallest normal contact force found (N); +∞ before any.
    pub min_normal_force: f64,
    /// Impacts resolved (steps with at least one impulse).
    pub impacts: usize,
    /// The largest kinetic-energy change across an impact (J; ≤ 0 for e ≤ 1).
    pub max_impact_energy_gain: f64,
    /// Steps shortened to stop at a collision.
    pub shortened: usize,
    /// RK4 steps taken in all, the re-taken ones of collision-time searches included.
    pub rk4_steps: usize,
    /// RK4 steps taken only to search for collision times (re-takes of a step).
    pub retaken: usize,
    /// Pairs of polyhedra whose separation chapter 7's search measured.
    pub separations: usize,
    /// Pairs shown apart by more than ε by their last witness alone, with no search.
    pub witness_reused: usize,
    /// Full searches of a pair that had a kept witness, and of those, how many
    /// found the same plane again: what re-checking the kept plane (the notes' way
    /// for touching pairs) would have answered.
    pub searches_after_witness: usize,
    /// Of [`Stats::searches_after_witness`], those that found the kept plane again.
    pub witness_found_again: usize,
    /// Time spent in full separation searches (s).
    pub search_seconds: f64,
    /// Time spent in steps (s), measured around [`World::step`] by `run_until`.
    pub step_seconds: f64,
    /// Tolerance corrections made.
    pub corrections: usize,
    /// Force solves whose friction rounds did not settle (the best round kept).
    pub unsettled: usize,
    /// The largest mismatch between a solve's normal forces and those its friction
    /// bounds came from, relative to its largest force.
    pub max_mismatch: f64,
    /// Islands over all force solves: groups of bodies joined by held contacts
    /// through moving bodies, each solved on its own ([`crate::rows::islands`]).
    pub islands: usize,
}

/// A world of boxes, balls and fixed solids. It is chapter 1's ODE system
/// ([`integrate`]): its state is chapter 6's bodies', and its derivative puts in the
/// contact forces of the contacts it holds.
pub struct World {
    system: RigidSystem,
    shapes: Vec<Shape>,
    fixtures: Vec<Fixture>,
    /// Each fixture's centre and spin, as the contact rows read them.
    spins: Vec<(V3, V3)>,
    settings: Settings,
    /// μ, or zero below [`MIN_FRICTION`].
    mu: f64,
    /// The broad phase, kept from step to step (built when a body is added).
    sweep: Option<CoherentSweep<3>>,
    /// Each polyhedron pair's separating witness from its last search.
    witnesses: HashMap<(usize, usize), PlaneWitness>,
    /// Each polyhedron pair's depth and witness measured since the bodies last
    /// moved (the check for a collision and the contact finding after a step ask
    /// for the same pairs).
    depths: HashMap<(usize, usize), (f64, Option<PlaneWitness>)>,
    /// Every body's polyhedron placed where the body is (`None` for a ball), made
    /// once after the bodies move and read by the broad and the narrow phase; empty
    /// when the bodies have moved since.
    solids: Vec<Option<ConvexPolyhedron>>,
    /// The contacts held over the current step.
    held: Vec<Held>,
    /// How close two solids must be to be found in contact (m): the tolerance, and
    /// for sequential impulses also the distance they may close within the step.
    reach: f64,
    /// Sequential impulses: each contact's impulses of the last step, the next
    /// step's warm start.
    remembered: Vec<Remembered>,
    /// Sequential impulses: each face's friction impulses of the last step.
    remembered_faces: Vec<RememberedFace>,
    /// The contacts found at the end of the last step, if nothing has moved the
    /// bodies since: the next step starts from them instead of finding them again.
    found: Option<Vec<Found>>,
    /// The last force solve's answer for each island, which warm-starts the next
    /// (empty when the contacts changed).
    previous: Vec<LcpSolution>,
    /// For each island, the factor of the clamped rows' matrix the last solve ended
    /// with, which the next solve refines through while the bodies have moved little.
    factors: Vec<Option<ClampedFactor>>,
    /// The last force solve's forces, row by row over all islands (N).
    forces: Vec<f64>,
    warm_start: bool,
    stats: Stats,
    stepper: RungeKutta,
    steps: usize,
}

fn check_settings(s: &Settings) -> Result<(), PbmError> {
    let bad = |what: &'static str, why: String| Err(PbmError::invalid(what, why));
    if !(0.0..=1.0).contains(&s.restitution) {
        return bad(
            "coefficient of restitution",
            format!("{}: it must lie in [0, 1]", s.restitution),
        );
    }
    if !(s.friction >= 0.0 && s.friction.is_finite()) {
        return bad(
            "coefficient of friction",
            format!("{}: it must be finite and not negative", s.friction),
        );
    }
    for (what, x) in [
        ("tolerance", s.tolerance),
        ("resting speed", s.resting_speed),
        ("time step", s.h),
    ] {
        if !(x > 0.0 && x.is_finite()) {
            return bad(what, format!("{x}: it must be positive and finite"));
        }
    }
    if !(s.bounce_steps >= 0.0 && s.bounce_steps.is_finite()) {
        return bad(
            "bounce threshold",
            format!(
                "{} steps of gravity: it must be finite and not negative",
                s.bounce_steps
            ),
        );
    }
    if s.gravity.iter().any(|g| !g.is_finite()) {
        return bad("gravity", "it must be finite".to_string());
    }
    if let Solver::SequentialImpulses { sweeps } = s.solver {
        if !(1..=MAX_SWEEPS).contains(&sweeps) {
            let why = format!("{sweeps}: it must be 1 to {MAX_SWEEPS}");
            return bad("sweeps of sequential impulses", why);
        }
        if s.order == Order::First {
            let why =
                "they solve the velocities of Newton's world, and a first-order \
                       world has none to solve: use the exact solver"
                    .to_string();
            return bad("sequential impulses", why);
        }
    }
    if s.solver == Solver::TimeStepping && s.restitution != 0.0 {
        let why = format!(
            "restitution {}: the time-stepping LCP is inelastic, as Stewart and Trinkle \
             pose it (a bounce needs an impact phase of its own); set restitution = 0",
            s.restitution
        );
        return bad("the time-stepping LCP", why);
    }
    if s.solver == Solver::TimeStepping && s.order == Order::First {
        let why =
            "it solves the velocities of Newton's world, and a first-order world \
                   has none to solve: use the exact solver"
                .to_string();
        return bad("the time-stepping LCP", why);
    }
    Ok(())
}

impl World {
    /// An empty world with `settings` (checked: restitution in [0, 1], friction ≥ 0,
    /// positive tolerances and step).
    pub fn new(settings: Settings, fixtures: Vec<Fixture>) -> Result<Self, PbmError> {
        check_settings(&settings)?;
        let spins = fixtures.iter().map(|f| (f.centre, f.spin)).collect();
        let mu =
            if settings.friction < MIN_FRICTION { 0.0 } else { settings.friction };
        Ok(World {
            system: RigidSystem::new(Vec::new())?,
            shapes: Vec::new(),
            fixtures,
            spins,
            settings,
            mu,
            sweep: None,
            witnesses: HashMap::new(),
            depths: HashMap::new(),
            solids: Vec::new(),
            held: Vec::new(),
            found: None,
            reach: settings.tolerance,
            remembered: Vec::new(),
            remembered_faces: Vec::new(),
            previous: Vec::new(),
            factors: Vec::new(),
            forces: Vec::new(),
            warm_start: true,
            stats: Stats { min_normal_force: f64::INFINITY, ..Stats::default() },
            stepper: RungeKutta::new(RK4),
            steps: 0,
        })
    }

    /// Adds a solid box of `size` (m) and `mass` (kg) at `position`, turned by
    /// `orientation`, moving with `velocity` and `spin`; returns its index.
    pub fn add_box(
        &mut self,
        size: V3,
        mass: f64,
        position: V3,
        orientation: UnitQuaternion<f64>,
        (velocity, spin): (V3, V3),
    ) -> Result<usize, PbmError> {
        let props = MassProperties::block(size, mass)?;
        let def = RigidBodyDef {
            position,
            orientation,
            velocity,
            angular_velocity: spin,
            ..RigidBodyDef::of(&props)
        };
        let shape =
            Shape::Polyhedron(ConvexPolyhedron::cuboid(V3::zeros(), size * 0.5)?);
        self.add(def, shape)
    }

    /// Adds a solid ball of `radius` (m) and `mass` (kg) at `position`, moving with
    /// `velocity` and `spin`; returns its index. A ball touches the fixtures' faces
    /// only (not boxes, other balls, or a fixture's edges and corners).
    pub fn add_ball(
        &mut self,
        radius: f64,
        mass: f64,
        position: V3,
        (velocity, spin): (V3, V3),
    ) -> Result<usize, PbmError> {
        if !(radius > 0.0 && radius.is_finite()) {
            let why = format!("{radius} m: it must be positive and finite");
            return Err(PbmError::invalid("ball radius", why));
        }
        let def = RigidBodyDef {
            mass,
            inertia: Matrix3::identity() * (0.4 * mass * radius * radius),
            position,
            velocity,
            angular_velocity: spin,
            ..RigidBodyDef::default()
        };
        self.add(def, Shape::Ball(radius))
    }

    fn add(&mut self, def: RigidBodyDef, shape: Shape) -> Result<usize, PbmError> {
        let def = match self.settings.order {
            Order::Second => def,
            Order::First => RigidBodyDef {
                velocity: V3::zeros(),
                angular_velocity: V3::zeros(),
                ..def
            },
        };
        let mut bodies = std::mem::take(&mut self.system.bodies);
        bodies.push(RigidBody::new(def)?);
        let t = self.system.t;
        // Checks that every body stores its orientation the same way.
        self.system = RigidSystem::new(bodies)?;
        self.system.t = t;
        self.shapes.push(shape);
        self.found = None;
        // A new body (and the fixtures' indices move up): the broad phase sorts its
        // lists afresh at the next step, and the narrow phase searches afresh.
        self.sweep = None;
        self.witnesses.clear();
        self.moved();
        Ok(self.shapes.len() - 1)
    }

    /// Turns Baraff's warm start (last step's clamped set, and for redundant
    /// contacts the forces nearest the last ones) on or off.
    pub fn set_warm_start(&mut self, on: bool) {
        self.warm_start = on;
    }

    /// Strikes body `body` with impulse `j` (N s) at world point `at`, between steps
    /// (the reader's hand in the page): its momenta jump as in a collision, and the
    /// next step finds its contacts afresh.
    pub fn strike(&mut self, body: usize, at: &V3, j: &V3) -> Result<(), PbmError> {
        let count = self.system.bodies.len();
        let target = self.system.bodies.get_mut(body).ok_or_else(|| {
            PbmError::invalid(
                "strike",
                format!("body {body} does not exist ({count})"),
            )
        })?;
        if !(at.iter().chain(j.iter()).all(|x| x.is_finite())) {
            return Err(PbmError::invalid(
                "strike",
                "a point or impulse is not finite",
            ));
        }
        target.apply_impulse_at(at, j);
        self.held.clear();
        self.found = None;
        self.previous.clear();
        self.factors.clear();
        self.remembered.retain(|r| r.a != body && r.b != body);
        self.remembered_faces.retain(|r| r.a != body && r.b != body);
        Ok(())
    }

    /// The bodies.
    pub fn bodies(&self) -> &[RigidBody] {
        &self.system.bodies
    }

    /// The clock (s).
    pub fn time(&self) -> f64 {
        self.system.t
    }

    /// Steps taken so far.
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// What the solves cost so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// The normal forces of the last solve (N), in contact order (for sequential
    /// impulses, the last substep's normal impulses over the substep).
    pub fn last_normal_forces(&self) -> Vec<f64> {
        if let Solver::SequentialImpulses { .. } | Solver::TimeStepping =
            self.settings.solver
        {
            let sub = self.impulse_span();
            return self.remembered.iter().map(|r| r.impulses[0] / sub).collect();
        }
        let rows_per_contact = if self.mu > 0.0 { 3 } else { 1 };
        if self.forces.len() != self.held.len() * rows_per_contact {
            return Vec::new();
        }
        (0..self.held.len()).map(|k| self.forces[k * rows_per_contact]).collect()
    }

    /// Kinetic plus gravitational potential energy (J).
    pub fn energy(&self) -> f64 {
        let g = self.settings.gravity;
        self.system
            .bodies
            .iter()
            .map(|b| b.kinetic_energy() - b.mass() * g.dot(&b.position()))
            .sum()
    }

    fn kinetic_energy(&self) -> f64 {
        self.system.kinetic_energy()
    }

    /// The velocities of the bodies and then the fixtures, as the contact rows and
    /// impulses read them.
    fn states(&self) -> Vec<BodyState> {
        detect::states_of(&self.system.bodies, &self.spins)
    }

    // ANCHOR: step
    /// One step of the loop (see the module's documentation). Returns the time
    /// advanced (s): h, or less when the step stopped at a collision.
    pub fn step(&mut self) -> Result<f64, PbmError> {
        let (step, t0) = (self.steps, self.time());
        let at = |e: PbmError| e.at_step(step, t0);
        match self.settings.solver {
            Solver::SequentialImpulses { sweeps } => {
                return self.step_sequential(sweeps).map_err(at);
            }
            Solver::TimeStepping => return self.step_time_stepping().map_err(at),
            Solver::Exact => {}
        }
        let found = match self.found.take() {
            Some(found) => found,
            None => self.detect()?,
        };
        self.collide(&found).map_err(at)?;
        self.hold(&found).map_err(at)?;
        let taken = self.integrate_to_collision(&found)?;
        let after = self.detect()?;
        let deepest = after.iter().map(|f| -f.gap).fold(0.0, f64::max);
        self.stats.deepest = self.stats.deepest.max(deepest);
        let corrections = self.stats.corrections;
        self.correct(&after).map_err(at)?;
        if self.stats.corrections == corrections {
            // Nothing moved since: the next step's contacts are these.
            self.found = Some(after);
        }
        if !state_of(&*self).iter().all(|v| v.is_finite()) {
            return Err(PbmError::Diverged { step, time: t0 });
        }
        self.steps += 1;
        Ok(taken)
    }
    // ANCHOR_END: step

    /// Runs until time `t_end`. A run that needs more than [`STEP_BUDGET`] times the
    /// steps of size h it should take (collision times shorten some) is an error
    /// naming the step, the time and the deepest pair, never a run that stalls.
    pub fn run_until(
        &mut self,
        t_end: f64,
        mut each: impl FnMut(&World),
    ) -> Result<(), PbmError> {
        let planned = ((t_end - self.time()) / self.settings.h).ceil().max(0.0);
        let budget = STEP_BUDGET * planned as usize + 100;
        let mut taken = 0;
        while self.time() < t_end - 1e-12 {
            if taken == budget {
                return Err(self.stalled(t_end));
            }
            let clock = Stopwatch::start();
            self.step()?;
            self.stats.step_seconds += clock.seconds();
            taken += 1;
            each(self);
        }
        Ok(())
    }

    /// The error of a run that has spent its step budget.
    fn stalled(&mut self, t_end: f64) -> PbmError {
        let pairs = self.pairs().unwrap_or_default();
        let deepest = pairs
            .into_iter()
            .map(|(i, j)| (i, j, self.depth(i, j).0))
            .max_by(|x, y| x.2.total_cmp(&y.2));
        let pair = deepest.map_or("no pair in contact".to_string(), |(i, j, d)| {
            format!("deepest pair: bodies {i} and {j}, {d:.3e} m deep")
        });
        PbmError::Degenerate {
            what: "contact world",
            why: format!(
                "{STEP_BUDGET} times the steps of h = {} s did not reach t = {t_end} s \
                 ({pair})",
                self.settings.h
            ),
        }
        .at_step(self.steps, self.time())
    }
}

/// A wall clock for the statistics' timings, where the platform has one: a
/// WebAssembly page has no `Instant` (asking it for the time panics), and the demos
/// run this world there, so there every reading is zero.
pub(crate) struct Stopwatch(Option<std::time::Instant>);

impl Stopwatch {
    /// Starts the clock (no clock on wasm32).
    pub(crate) fn start() -> Self {
        #[cfg(not(target_arch = "wasm32"))]
        return Stopwatch(Some(std::time::Instant::now()));
        #[cfg(target_arch = "wasm32")]
        return Stopwatch(None);
    }

    /// Seconds since the start (0 without a clock).
    pub(crate) fn seconds(&self) -> f64 {
        self.0.map_or(0.0, |start| start.elapsed().as_secs_f64())
    }
}
