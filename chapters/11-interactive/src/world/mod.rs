//! The world of the interactive simulator: planar bodies, fixed solids, pins and a
//! mouse spring, stepped by the paper's loop:
//!
//! 1. **Detect.** Find the contacts within ε (chapter 7's sweep, then its polygons).
//!    Those closing faster than the resting speed collide: one simultaneous impulse
//!    LCP stops them (second-order worlds only). The rest are held for the step.
//! 2. **Integrate.** One RK4 step, every derivative evaluation solving chapter 8's
//!    bounded LCP for the pins', the held contacts' and friction's forces. The held
//!    contacts stay the same for all four stages ("road-runner physics").
//! 3. **Check.** If a pair now interpenetrates by more than ε, find when it first
//!    touched by interpolating the step (the paper's equation 5) and stop there.
//! 4. **Correct.** If a pair is deeper than ε_w = ¾ ε, displace the bodies joined to
//!    it, by the least displacement in the kinetic-energy norm, until it is not.
//!
//! Each stage has a file of its own, as chapter 8's world does: [`detect`],
//! [`collide`], [`hold`] (the rows and their forces, island by island),
//! [`integrate`], [`collision_time`] and [`correct`]; so have the pins ([`pins`])
//! and the springs, torsion and mouse ([`springs`]).
//!
//! The plane is embedded in space to reuse chapter 8's solves: a planar body is a
//! body of chapter 8 whose inverse inertia has only its zz entry, 1/I, and whose
//! points, forces and normals all have z = 0.

mod collide;
mod collision_time;
mod correct;
mod detect;
mod hold;
mod integrate;
mod pins;
mod sequential;
mod springs;

use crate::shape::Shape;
use nalgebra::{DMatrix, DVector, Matrix3, Vector2, Vector3};
use pbm_collision::aabb::Aabb;
use pbm_collision::polygon::{
    ConvexPolygon, PairCache, Status, contacts, separation,
};
use pbm_collision::sweep::CoherentSweep;
use pbm_contact::friction::{
    FrictionSolution, SETTLED, frictionless_bounds, solve_friction,
};
use pbm_contact::impulse::Contact;
use pbm_contact::lcp::LcpSolution;
use pbm_contact::lcp::solve_bounded;
use pbm_contact::rows::{BodyState, Role, Row, island_rows, islands, row_matrix};
use pbm_contact::sequential::Remembered;
use pbm_contact::world::{MAX_SWEEPS, STEP_BUDGET, step_limit};
pub use pbm_contact::world::{Order, Solver};
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::system::{OdeSystem, state_of};
use pbm_ode::tableau::RK4;
use pbm_particles::forces::G;
use pbm_prelim::PbmError;
use pbm_rigid::body::Body;
use pbm_rigid::body2d::{
    RigidBody2, RigidBody2Def, STATE_SIZE, cross2, rotation2, spin2,
};
use std::collections::HashMap;

type V2 = Vector2<f64>;
type V3 = Vector3<f64>;

fn lift(v: V2) -> V3 {
    V3::new(v.x, v.y, 0.0)
}

fn flat(v: V3) -> V2 {
    V2::new(v.x, v.y)
}

/// The world's constants.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// Gravity (m/s²).
    pub gravity: V2,
    /// Contact tolerance ε (m): closer than this is touching; deeper than this is
    /// interpenetrating. The paper's default is 0.02 in a world 20 units wide.
    pub epsilon: f64,
    /// Time step (s).
    pub h: f64,
    /// Coefficient of friction μ of every contact.
    pub friction: f64,
    /// Coefficient of restitution of every collision, in [0, 1].
    pub restitution: f64,
    /// Contacts closing slower than this (m/s) are stopped without a bounce, and
    /// contacts separating slower than this are held for the step.
    pub resting_speed: f64,
    /// The pins' feedback: C̈ + k_d Ċ + k_s C = 0, (k_s in 1/s², k_d in 1/s).
    pub feedback: (f64, f64),
    /// Second- or first-order world.
    pub order: Order,
    /// The paper's loop (exact forces at every RK4 stage) or sequential impulses
    /// (chapter 8's production step; second-order worlds only).
    pub solver: Solver,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            gravity: V2::new(0.0, -G),
            epsilon: 0.02,
            h: 0.01,
            friction: 0.0,
            restitution: 0.0,
            // About the speed gravity gives in two steps: 2 |g| h.
            resting_speed: 0.2,
            feedback: (400.0, 40.0),
            order: Order::Second,
            solver: Solver::Exact,
        }
    }
}

/// A solid that never moves: convex parts in world coordinates.
#[derive(Debug, Clone, PartialEq)]
pub struct Fixture {
    /// The parts.
    pub parts: Vec<ConvexPolygon>,
    /// Only solids of the same layer touch.
    pub layer: u32,
}

/// One end of a pin.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Anchor {
    /// A point fixed in a moving body, in its own coordinates (m).
    Body {
        /// The body.
        body: usize,
        /// The point, relative to its centre of mass.
        local: V2,
    },
    /// A point fixed in the world (m).
    World(V2),
}

/// A point-to-point constraint: the two anchors stay together.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pin {
    /// One end.
    pub a: Anchor,
    /// The other end.
    pub b: Anchor,
}

/// The mouse: a damped spring from a point of a body to where the mouse is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mouse {
    /// The body grabbed.
    pub body: usize,
    /// Where it was grabbed, in its coordinates (m).
    pub local: V2,
    /// Where the mouse is (m).
    pub target: V2,
    /// Stiffness per unit of the grabbed point's mass (1/s²): the free body's
    /// effective mass there, 1/(1/m + |r|²/I), r from the centre of mass.
    pub stiffness: f64,
    /// Damping per unit of the grabbed point's mass (1/s). A first-order world,
    /// where force is velocity, moves the point towards the mouse at the rate
    /// stiffness/damping, the spring's overdamped limit.
    pub damping: f64,
}

/// A torsion spring: it turns body `a` towards the angle `rest` relative to body
/// `b` (or to the world), like the spring that keeps a pawl on its ratchet. Its
/// torque on `a` is −I (k (θ_a − θ_b − rest) + c (ω_a − ω_b)), and the opposite on
/// `b`, with I the reduced inertia 1/(1/I_a + 1/I_b) (I_a alone against the world):
/// k and c are rates, as the mouse's are, and a first-order world turns `a` at the
/// rate k/c.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Torsion {
    /// The body it turns.
    pub a: usize,
    /// The body it pushes against, or the world.
    pub b: Option<usize>,
    /// The relative angle at which it is relaxed (rad).
    pub rest: f64,
    /// Stiffness per unit of reduced inertia (1/s²).
    pub stiffness: f64,
    /// Damping per unit of reduced inertia (1/s).
    pub damping: f64,
}

/// What the loop did, summed over a run.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Stats {
    /// Steps taken.
    pub steps: usize,
    /// Steps cut short at a collision.
    pub shortened: usize,
    /// Steps the step limit made shorter than h before they began: a body moving
    /// far for its width (see `step_size`). A step can be both limited and cut.
    pub limited: usize,
    /// Steps that began with an impact: an impulse at a contact closing faster than
    /// the resting speed (slower ones are stopped without counting).
    pub impacts: usize,
    /// Tolerance corrections made.
    pub corrections: usize,
    /// Force solves (one per derivative evaluation with rows).
    pub solves: usize,
    /// Solves the last step's answer warm-started (every island of them).
    pub warm: usize,
    /// Narrow-phase tests answered by a pair's cached separating edge alone.
    pub witness_reused: usize,
    /// Narrow-phase tests that needed the full separating-axis search.
    pub witness_searched: usize,
    /// Islands over all force solves: groups of bodies joined by contacts and pins,
    /// each solved on its own.
    pub islands: usize,
    /// Force solves whose friction rounds did not settle (to a millionth) but came
    /// within 5 % of Coulomb's law, and were used.
    pub unsettled: usize,
    /// Island solves whose friction rounds did not come within 5 % of Coulomb's law:
    /// that island went without friction for that derivative evaluation.
    pub friction_dropped: usize,
    /// Friction rounds over all force solves (summed over their islands).
    pub rounds: usize,
    /// Pivots over all force solves (summed over their islands).
    pub pivots: usize,
    /// The deepest interpenetration at any accepted state (m).
    pub max_depth: f64,
    /// The largest pin error at any accepted state (m).
    pub max_pin_error: f64,
    /// Sweeps of sequential impulses over all substeps.
    pub sweeps: usize,
    /// The largest velocity error sequential impulses left after a substep's
    /// sweeps (m/s; chapter 8's `velocity_error`).
    pub max_velocity_error: f64,
}

/// A contact held for a step: a vertex of `a` on an edge of `b`, fixed in their
/// frames so that it moves with them through the stages.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Held {
    a: usize,
    b: usize,
    /// The vertex, in a's frame.
    point: V2,
    /// The edge's outward normal, in b's frame.
    normal: V2,
}

/// A contact found in a state, with its gap (m; negative when interpenetrating).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Found {
    held: Held,
    gap: f64,
}

/// Where an object is: centre and angle (a fixture's frame is the world's).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Frame {
    x: V2,
    theta: f64,
}

impl Frame {
    fn point(&self, local: &V2) -> V2 {
        rotation2(self.theta) * local + self.x
    }
    fn vector(&self, local: &V2) -> V2 {
        rotation2(self.theta) * local
    }
}

/// Planar bodies, fixed solids, pins and a mouse, stepped by the paper's loop.
pub struct World {
    bodies: Vec<RigidBody2>,
    shapes: Vec<Shape>,
    layers: Vec<u32>,
    fixtures: Vec<Fixture>,
    pins: Vec<Pin>,
    springs: Vec<Torsion>,
    /// The mouse spring, if a body is grabbed.
    pub mouse: Option<Mouse>,
    settings: Settings,
    held: Vec<Held>,
    /// The last answer of each island's force solve, in the islands' order.
    previous: Vec<LcpSolution>,
    sweep: Option<CoherentSweep<2>>,
    /// Chapter 7's narrow-phase cache of each pair of parts (bodies or fixtures i
    /// and j, their parts pi and pj): the last separating edge, tried first.
    witnesses: HashMap<(usize, usize, usize, usize), PairCache>,
    stepper: RungeKutta,
    t: f64,
    stats: Stats,
    /// Steps in a row that the collision search cut to almost nothing.
    stalled: usize,
    /// The narrowest width of any part of any fixture (m).
    thinnest_fixture: f64,
    /// Each body's narrowest part's width (m).
    widths: Vec<f64>,
    /// Each body's farthest point from its centre of mass (m).
    reach: Vec<f64>,
    /// Sequential impulses: the contacts' impulses of the last step, the next
    /// step's warm start.
    remembered: Vec<Remembered>,
    /// Sequential impulses: how far beyond ε a pair may close within this step (m),
    /// which the broad phase's boxes grow by too.
    margin: f64,
}

/// Steps in a row cut to under 1e-9 h after which the world gives up.
const STALLED_STEPS: usize = 100;

fn check_settings(s: &Settings) -> Result<(), PbmError> {
    let bad = |what: &'static str, why: String| Err(PbmError::invalid(what, why));
    if !(0.0..=1.0).contains(&s.restitution) {
        return bad(
            "restitution",
            format!("{}: it must lie in [0, 1]", s.restitution),
        );
    }
    if !(s.friction >= 0.0 && s.friction.is_finite()) {
        return bad("friction", format!("{}: it must be finite, ≥ 0", s.friction));
    }
    for (what, x) in [("epsilon", s.epsilon), ("time step", s.h)] {
        if !(x > 0.0 && x.is_finite()) {
            return bad(what, format!("{x}: it must be positive and finite"));
        }
    }
    let (ks, kd) = s.feedback;
    if !(ks >= 0.0 && kd >= 0.0 && ks.is_finite() && kd.is_finite()) {
        return bad(
            "pin feedback",
            format!("({ks}, {kd}): both must be finite, ≥ 0"),
        );
    }
    if !(s.resting_speed >= 0.0 && s.resting_speed.is_finite()) {
        return bad("resting speed", format!("{}: finite, ≥ 0", s.resting_speed));
    }
    if !(s.gravity.x.is_finite() && s.gravity.y.is_finite()) {
        return bad("gravity", "it must be finite".to_string());
    }
    if let Solver::SequentialImpulses { sweeps } = s.solver {
        if !(1..=MAX_SWEEPS).contains(&sweeps) {
            return bad("sweeps", format!("{sweeps}: from 1 to {MAX_SWEEPS}"));
        }
        if s.order == Order::First {
            let why = "a first-order world has no velocities for impulses to change";
            return bad("sequential impulses", why.to_string());
        }
    }
    Ok(())
}

/// A convex polygon's narrowest width: over its edges, the largest distance of a
/// vertex behind the edge's line, the least of those.
fn width(part: &ConvexPolygon) -> f64 {
    let v = part.vertices();
    (0..v.len())
        .map(|i| {
            let n = part.normal(i);
            v.iter().map(|p| n.dot(&(v[i] - p))).fold(0.0, f64::max)
        })
        .fold(f64::INFINITY, f64::min)
}

impl World {
    /// An empty world with `settings` (checked).
    pub fn new(settings: Settings) -> Result<Self, PbmError> {
        check_settings(&settings)?;
        Ok(World {
            bodies: Vec::new(),
            shapes: Vec::new(),
            layers: Vec::new(),
            fixtures: Vec::new(),
            pins: Vec::new(),
            springs: Vec::new(),
            mouse: None,
            settings,
            held: Vec::new(),
            previous: Vec::new(),
            sweep: None,
            witnesses: HashMap::new(),
            stepper: RungeKutta::new(RK4),
            t: 0.0,
            stats: Stats::default(),
            stalled: 0,
            thinnest_fixture: f64::INFINITY,
            widths: Vec::new(),
            reach: Vec::new(),
            remembered: Vec::new(),
            margin: 0.0,
        })
    }

    /// Adds a moving body of `shape` in `layer` with its centre of mass at
    /// `position`, turned by `angle`, moving with `velocity` and `spin`; returns its
    /// index.
    pub fn add_body(
        &mut self,
        shape: Shape,
        layer: u32,
        (position, angle): (V2, f64),
        (velocity, spin): (V2, f64),
    ) -> Result<usize, PbmError> {
        let still = self.settings.order == Order::First;
        let body = RigidBody2::new(RigidBody2Def {
            mass: shape.mass,
            inertia: shape.inertia,
            position,
            angle,
            velocity: if still { V2::zeros() } else { velocity },
            angular_velocity: if still { 0.0 } else { spin },
        })?;
        self.bodies.push(body);
        self.shapes.push(shape);
        self.layers.push(layer);
        self.contacts_changed();
        let k = self.bodies.len() - 1;
        // A body dropped into another would start the loop from a state it cannot
        // leave: refuse it.
        let deep = (0..self.objects())
            .filter(|&j| j != k && self.layer(j) == layer)
            .map(|j| (j, self.depth(k, j)))
            .find(|&(_, d)| d > self.settings.epsilon);
        if let Some((j, d)) = deep {
            self.bodies.pop();
            self.shapes.pop();
            self.layers.pop();
            let j = if j > k { j - 1 } else { j };
            let why = format!("it would overlap {} by {d:.3e} m", self.name(j));
            return Err(PbmError::invalid("new body", why));
        }
        let parts = &self.shapes[k].parts;
        self.widths.push(parts.iter().map(width).fold(f64::INFINITY, f64::min));
        let reach = parts.iter().flat_map(|p| p.vertices().iter().map(|v| v.norm()));
        self.reach.push(reach.fold(0.0, f64::max));
        Ok(k)
    }

    /// Adds a fixed solid; returns its index among the fixtures.
    pub fn add_fixture(&mut self, fixture: Fixture) -> Result<usize, PbmError> {
        if fixture.parts.is_empty() {
            return Err(PbmError::invalid(
                "fixture",
                "it needs at least one polygon",
            ));
        }
        self.thinnest_fixture =
            fixture.parts.iter().map(width).fold(self.thinnest_fixture, f64::min);
        self.fixtures.push(fixture);
        self.contacts_changed();
        Ok(self.fixtures.len() - 1)
    }

    /// Removes moving body `k` (and the pins and springs to it); the bodies after it
    /// move down one index.
    pub fn remove_body(&mut self, k: usize) -> Result<(), PbmError> {
        if k >= self.bodies.len() {
            let why = format!("body {k} does not exist");
            return Err(PbmError::invalid("remove body", why));
        }
        self.bodies.remove(k);
        self.shapes.remove(k);
        self.layers.remove(k);
        self.reach.remove(k);
        self.widths.remove(k);
        let renumber = |anchor: Anchor| match anchor {
            Anchor::Body { body, local } if body > k => {
                Some(Anchor::Body { body: body - 1, local })
            }
            Anchor::Body { body, .. } if body == k => None,
            other => Some(other),
        };
        self.pins = self
            .pins
            .iter()
            .filter_map(|p| Some(Pin { a: renumber(p.a)?, b: renumber(p.b)? }))
            .collect();
        let shift = |j: usize| if j > k { j - 1 } else { j };
        self.springs = self
            .springs
            .iter()
            .filter(|s| s.a != k && s.b != Some(k))
            .map(|s| Torsion { a: shift(s.a), b: s.b.map(shift), ..*s })
            .collect();
        if self.mouse.is_some_and(|m| m.body == k) {
            self.mouse = None;
        } else if let Some(m) = &mut self.mouse
            && m.body > k
        {
            m.body -= 1;
        }
        self.contacts_changed();
        Ok(())
    }

    /// The broad phase and the warm start refer to the old objects: start afresh.
    fn contacts_changed(&mut self) {
        self.sweep = None;
        self.witnesses.clear();
        self.held.clear();
        self.previous.clear();
        self.remembered.clear();
    }

    /// Switches between second- and first-order worlds while running. Going to a
    /// first-order world stops everything (it has no velocities of its own).
    pub fn set_order(&mut self, order: Order) {
        if order == Order::First {
            for body in &mut self.bodies {
                let mut y = [0.0; STATE_SIZE];
                body.write_state(&mut y);
                y[3..].fill(0.0);
                body.read_state(&y);
            }
        }
        self.settings.order = order;
        self.previous.clear();
    }

    /// The moving bodies.
    pub fn bodies(&self) -> &[RigidBody2] {
        &self.bodies
    }

    /// Moving body k's shape.
    pub fn shape(&self, k: usize) -> &Shape {
        &self.shapes[k]
    }

    /// The fixtures.
    pub fn fixtures(&self) -> &[Fixture] {
        &self.fixtures
    }

    /// The pins.
    pub fn pins(&self) -> &[Pin] {
        &self.pins
    }

    /// The torsion springs.
    pub fn springs(&self) -> &[Torsion] {
        &self.springs
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The clock (s).
    pub fn time(&self) -> f64 {
        self.t
    }

    /// What the loop did so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Moving body k's parts, in world coordinates.
    pub fn placed(&self, k: usize) -> Vec<ConvexPolygon> {
        let b = &self.bodies[k];
        self.shapes[k]
            .parts
            .iter()
            .map(|p| p.placed(b.position(), b.angle()))
            .collect()
    }

    /// Where the contacts held for the last step are now: each a corner of one
    /// solid on an edge of another, within ε (m).
    pub fn contact_points(&self) -> Vec<V2> {
        self.held.iter().map(|h| self.frame(h.a).point(&h.point)).collect()
    }

    /// The topmost moving body with a part containing the world point `p` (the last
    /// added wins where bodies overlap), if any: what a mouse press at `p` grabs.
    pub fn body_at(&self, p: V2) -> Option<usize> {
        let inside = |part: &ConvexPolygon| {
            let v = part.vertices();
            (0..v.len()).all(|i| {
                let (a, b) = (v[i], v[(i + 1) % v.len()]);
                (b - a).perp(&(p - a)) >= 0.0
            })
        };
        (0..self.bodies.len()).rev().find(|&k| self.placed(k).iter().any(inside))
    }

    /// Kinetic energy of the moving bodies, ½ m |v|² + ½ I ω² summed (J).
    pub fn kinetic_energy(&self) -> f64 {
        self.bodies.iter().map(|b| b.kinetic_energy()).sum()
    }

    /// Kinetic plus gravitational potential energy of the moving bodies, plus the
    /// energy stored in the torsion springs (J).
    pub fn energy(&self) -> f64 {
        let g = self.settings.gravity;
        let springs: f64 = self
            .springs
            .iter()
            .map(|s| {
                let (twist, _, inertia) = self.twist(s);
                0.5 * inertia * s.stiffness * twist * twist
            })
            .sum();
        springs
            + self
                .bodies
                .iter()
                .map(|b| b.kinetic_energy() - b.mass() * g.dot(&b.position()))
                .sum::<f64>()
    }

    // Objects: moving bodies 0..n, then fixtures, then the world (pins' fixed ends).
}

impl World {
    // ANCHOR: step
    /// One step of the loop (see the module's documentation). Returns the time
    /// advanced (s): h, or less for either of two causes, counted apart in
    /// [`Stats`]: the step limit shortened it before it began (`limited`), or it
    /// stopped at a collision (`shortened`).
    pub fn step(&mut self) -> Result<f64, PbmError> {
        let (steps, t0) = (self.stats.steps, self.t);
        let fail = |e: PbmError| e.at_step(steps, t0);
        if let Solver::SequentialImpulses { sweeps } = self.settings.solver {
            return self.step_sequential(sweeps).map_err(fail);
        }
        // A correction may leave a little of a deep contact (it is exact only to
        // first order); another pass before the step takes the rest.
        self.correct().map_err(fail)?;
        self.check_tolerance().map_err(fail)?;
        let found = self.detect().map_err(fail)?;
        if self.settings.order == Order::Second {
            self.collide(&found).map_err(fail)?;
        }
        self.hold(&found);
        let y0 = state_of(self);
        let h = self.step_size();
        if h < self.settings.h {
            self.stats.limited += 1;
        }
        self.integrate(h, (steps, t0))?;
        let taken = self.cut_at_collision(&y0, t0, h).map_err(fail)?;
        self.correct().map_err(fail)?;
        let (depth, _) = self.deepest().map_err(fail)?;
        self.stats.max_depth = self.stats.max_depth.max(depth);
        self.stats.max_pin_error = self.stats.max_pin_error.max(self.max_pin_error());
        self.stats.steps += 1;
        Ok(taken)
    }
    // ANCHOR_END: step

    // ANCHOR: step_stages
    /// An error naming the deepest pair if it is deeper than ε.
    fn check_tolerance(&mut self) -> Result<(), PbmError> {
        let (depth, pair) = self.deepest()?;
        if let (true, Some((i, j))) = (depth > self.settings.epsilon, pair) {
            let why = format!(
                "{} and {} interpenetrate by {depth:.3e} m, more than ε = {}",
                self.name(i),
                self.name(j),
                self.settings.epsilon
            );
            return Err(PbmError::degenerate("interactive world", why));
        }
        Ok(())
    }

    /// RK4 over `h` from the current state, in step `steps` at `t0`; an error if
    /// the state has blown up.
    fn integrate(
        &mut self,
        h: f64,
        (steps, t0): (usize, f64),
    ) -> Result<(), PbmError> {
        let mut stepper = std::mem::replace(&mut self.stepper, RungeKutta::new(RK4));
        let stepped = stepper.step(self, h);
        self.stepper = stepper;
        stepped.map_err(|e| e.at_step(steps, t0))?;
        // A state of 10⁶ (metres, or momenta) has blown up.
        if !state_of(self).iter().all(|v| v.is_finite() && v.abs() < 1e6) {
            return Err(PbmError::Diverged { step: steps, time: t0 });
        }
        Ok(())
    }
    // ANCHOR_END: step_stages

    // ANCHOR: cut_at_collision
    /// The time the step from `y0` at `t0` takes: `h`, or, if a pair ended it
    /// deeper than ε, the time that pair first touched, the world moved back to it.
    fn cut_at_collision(
        &mut self,
        y0: &[f64],
        t0: f64,
        h: f64,
    ) -> Result<f64, PbmError> {
        let (depth, pair) = self.deepest()?;
        let Some(pair) = pair.filter(|_| depth > self.settings.epsilon) else {
            self.stalled = 0;
            return Ok(h);
        };
        let taken = self.collision_time(y0, t0, h, pair)?;
        self.stats.shortened += 1;
        // Steps cut to nothing, one after another, would freeze the clock: a
        // simulator that cannot advance says so.
        self.stalled = if taken < 1e-9 * h { self.stalled + 1 } else { 0 };
        if self.stalled >= STALLED_STEPS {
            let (a, b) = (self.name(pair.0), self.name(pair.1));
            let why = format!(
                "{STALLED_STEPS} steps in a row shorter than 1e-9 h: {a} and {b} \
                 interpenetrate more than ε within any step the search tries"
            );
            return Err(PbmError::degenerate("collision time", why));
        }
        Ok(taken)
    }
    // ANCHOR_END: cut_at_collision

    /// The step: h, or shorter where a body could pass through another solid within
    /// it (chapter 8's [`step_limit`], with each polygon's narrowest width).
    fn step_size(&self) -> f64 {
        let speeds: Vec<f64> = self
            .bodies
            .iter()
            .zip(&self.reach)
            .map(|(b, r)| b.velocity().norm() + b.angular_velocity().abs() * r)
            .collect();
        step_limit(self.settings.h, &speeds, &self.widths, self.thinnest_fixture)
    }

    /// Runs until time `t_end`, calling `each` after every step. Like chapter 8's
    /// world, a run that needs more than [`STEP_BUDGET`] times its planned steps of
    /// size h is an error naming the step, the time and the deepest pair.
    pub fn run_until(
        &mut self,
        t_end: f64,
        mut each: impl FnMut(&World),
    ) -> Result<(), PbmError> {
        self.advance(t_end, |world| {
            world.step()?;
            each(world);
            Ok(())
        })
    }

    /// Calls `step` (which steps the world, perhaps after moving the mouse, as a
    /// mechanism's script does) until time `t_end`, within the same step budget as
    /// [`World::run_until`]: collision times and the closing-speed limit shorten
    /// steps, and no count of them fixed beforehand bounds the run.
    pub fn advance(
        &mut self,
        t_end: f64,
        mut step: impl FnMut(&mut World) -> Result<(), PbmError>,
    ) -> Result<(), PbmError> {
        let planned = ((t_end - self.t) / self.settings.h).ceil().max(0.0);
        let budget = STEP_BUDGET * planned as usize + 100;
        let mut taken = 0;
        while self.t < t_end - 1e-12 {
            if taken == budget {
                return Err(self.over_budget(t_end));
            }
            step(self)?;
            taken += 1;
        }
        Ok(())
    }

    /// The error of a run to `t_end` that spent its step budget.
    fn over_budget(&mut self, t_end: f64) -> PbmError {
        let (steps, t) = (self.stats.steps, self.t);
        let (depth, pair) = match self.deepest() {
            Ok(deepest) => deepest,
            Err(e) => return e.at_step(steps, t),
        };
        let pair = pair.map_or("no pair in contact".to_string(), |(i, j)| {
            format!(
                "deepest pair: {} and {}, {depth:.3e} m deep",
                self.name(i),
                self.name(j)
            )
        });
        let why = format!(
            "{STEP_BUDGET} times the steps of h = {} s did not reach t = {t_end} s ({pair})",
            self.settings.h
        );
        PbmError::degenerate("interactive world", why).at_step(steps, t)
    }
}

/// The relative normal velocity at a contact (positive: separating).
fn relative_velocity(states: &[BodyState], c: &Contact) -> f64 {
    pbm_contact::impulse::relative_velocity(states, c)
}
