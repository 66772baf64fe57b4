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
//!
//! [`World`] and what its stages hand each other (the contacts found and held, the
//! bodies' shapes and frames) are here; the stages sit above, each an `impl World`,
//! and below them only the settings (`settings.rs`) and the step limit
//! (`step_limit.rs`).

mod collide;
mod collision_time;
mod correct;
mod detect;
mod hold;
mod integrate;
mod sequential;
mod settings;
mod step_limit;

pub use crate::sequential::{BAUMGARTE, PUSH_OUT_SWEEPS, SUBSTEPS};
pub use settings::{
    CollisionSearch, MAX_SWEEPS, MIN_FRICTION, Order, Settings, Solver, SolverKind,
};
pub use step_limit::{step_limit, width};

use crate::impulse::Contact;
use crate::lcp::{ClampedFactor, LcpSolution};
use crate::resting::{Kind, RestingContact};
use crate::rows::BodyState;
use crate::sequential::{Remembered, RememberedFace};
use nalgebra::{Matrix3, UnitQuaternion, Vector3};
use pbm_collision::polyhedron::{ConvexPolyhedron, PlaneWitness};
use pbm_collision::sweep::CoherentSweep;
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::system::state_of;
use pbm_ode::tableau::RK4;
use pbm_prelim::PbmError;
use pbm_rigid::body::{Body, RigidBody, RigidBodyDef, RigidSystem};
use pbm_rigid::mass::MassProperties;
use settings::check_settings;
use std::collections::HashMap;

type V3 = Vector3<f64>;

/// Resting contacts closing slower than this (m/s) are not stopped by an impulse
/// before the step: over a thousand steps of 10 ms they would close by 10 µm, a
/// tenth of the tolerance, which the tolerance correction removes anyway; and a
/// stack at rest, whose contacts close at roundoff speeds, skips the extra solve.
pub const SLOWEST_CLOSING: f64 = 1e-6;

/// How many times its planned number of steps (duration / h) a run may take before
/// [`World::run_until`] calls it stalled: collision times shorten a step, but a run
/// whose steps stop advancing time must say so, not run forever.
pub const STEP_BUDGET: usize = 20;

/// Interpenetration shallower than this fraction of the contact tolerance ε is not
/// corrected. Bodies resting on each other end each step interpenetrating by
/// roundoff (10⁻¹² m); correcting that would solve an LCP at every step of a stack
/// at rest, move the bodies by nothing, and make the next step find its contacts
/// afresh. A body that really sinks (closing below the slowest speed an impulse
/// stops, [`SLOWEST_CLOSING`]) is corrected once it is this deep.
pub const CORRECTION_SLOP: f64 = 1e-3;

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

/// Edge/edge contacts whose edges cross at less than this sine of an angle (about
/// 6°) are left out: nearly parallel edges cross nowhere in particular, so the
/// normal across them and the gap along it are ill-defined (for two stacked boxes
/// turned a little, centimetres off), and where such edges lie along faces, as they
/// do whenever bodies rest on each other, the faces' vertices hold the contact.
/// The exact loop never meets them: its contacts are within ε, where such edges
/// lie on the faces' planes.
pub const PARALLEL: f64 = 0.1;

/// The shape of a moving body, about its centre of mass in its own frame.
#[derive(Debug, Clone)]
enum Shape {
    Polyhedron(ConvexPolyhedron),
    /// A ball of this radius (m).
    Ball(f64),
}

/// How a held contact's normal is attached.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Attached {
    /// Vertex of a on a face of b: the normal, in b's frame.
    Face(V3),
    /// Edge of a across an edge of b: the edges in their bodies' frames, and the
    /// sign that makes ±(e_a × e_b) point out of b.
    Edges(V3, V3, f64),
    /// A ball of this radius on a face of b: the normal, in b's frame.
    Ball(V3, f64),
}

/// A contact held fixed over a step, in the bodies' own frames so that it moves with
/// them through the step's stages.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Held {
    a: usize,
    b: usize,
    /// The contact point in a's frame (for a ball: unused, the point rolls).
    point: V3,
    attached: Attached,
    /// Two tangents in b's frame, for the friction rows.
    tangents: (V3, V3),
}

/// Position and rotation of body or fixture k.
#[derive(Debug, Clone, Copy)]
struct Frame {
    x: V3,
    r: Matrix3<f64>,
}

/// A contact found at the start of a step, with its gap (m, negative when
/// interpenetrating).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Found {
    held: Held,
    contact: Contact,
    gap: f64,
}

/// The velocities and inverse masses of the bodies, then of the fixtures.
fn states_of(bodies: &[RigidBody], fixtures: &[(V3, V3)]) -> Vec<BodyState> {
    let moving = bodies.iter().map(|b| BodyState {
        x: b.position(),
        v: b.velocity(),
        omega: b.angular_velocity(),
        inv_mass: 1.0 / b.mass(),
        inv_inertia: b.inverse_inertia(),
    });
    let fixed = fixtures
        .iter()
        .map(|&(centre, spin)| BodyState { omega: spin, ..BodyState::fixed(centre) });
    moving.chain(fixed).collect()
}

/// The frames of the bodies, then of the fixtures.
fn frames_of(bodies: &[RigidBody], fixtures: &[(V3, V3)]) -> Vec<Frame> {
    let moving = bodies.iter().map(|b| Frame { x: b.position(), r: b.rotation() });
    let fixed = fixtures.iter().map(|&(x, _)| Frame { x, r: Matrix3::identity() });
    moving.chain(fixed).collect()
}

impl Held {
    /// Where the contact sits on body a, in a's frame: with the pair, what
    /// recognises the same contact from one step to the next.
    fn anchor(&self) -> V3 {
        self.point
    }

    /// Where the contact is now: the resting contact of chapter 8's formulas.
    fn resting(&self, frames: &[Frame]) -> RestingContact {
        let (fa, fb) = (&frames[self.a], &frames[self.b]);
        let p = fa.x + fa.r * self.point;
        let (n, kind) = match self.attached {
            Attached::Face(n) => (fb.r * n, Kind::VertexFace),
            Attached::Ball(n, radius) => {
                let n = fb.r * n;
                let p = fa.x - n * radius;
                let contact = Contact { a: self.a, b: self.b, p, n };
                return RestingContact { contact, kind: Kind::Ball { radius } };
            }
            Attached::Edges(ea, eb, sign) => {
                let (ea, eb) = (fa.r * ea, fb.r * eb);
                (ea.cross(&eb).normalize() * sign, Kind::EdgeEdge { ea, eb })
            }
        };
        RestingContact { contact: Contact { a: self.a, b: self.b, p, n }, kind }
    }
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
        states_of(&self.system.bodies, &self.spins)
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
