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
//! The plane is embedded in space to reuse chapter 8's solves: a planar body is a
//! body of chapter 8 whose inverse inertia has only its zz entry, 1/I, and whose
//! points, forces and normals all have z = 0.

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
use pbm_contact::rows::{BodyState, Role, Row, row_matrix};
use pbm_contact::world::{STEP_BUDGET, step_limit};
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

/// Newton's world (forces change velocities) or a first-order one (forces are
/// velocities: f = m v).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// d/dt (x, θ, P, L) = (v, ω, F, τ): the paper's equation 2.
    Second,
    /// d/dt (x, θ) = (F/m, τ/I): the paper's equation 3. Nothing coasts, and no
    /// collision needs an impulse.
    First,
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

    /// Pins `a` to `b`. Both ends on one body, or a body that does not exist, is an
    /// error.
    pub fn add_pin(&mut self, pin: Pin) -> Result<usize, PbmError> {
        let body_of = |anchor: &Anchor| match *anchor {
            Anchor::Body { body, local } => Some((body, local)),
            Anchor::World(_) => None,
        };
        for anchor in [&pin.a, &pin.b] {
            let finite = match *anchor {
                Anchor::Body { local, .. } => local,
                Anchor::World(p) => p,
            };
            if !(finite.x.is_finite() && finite.y.is_finite()) {
                return Err(PbmError::invalid("pin", "its anchor is not finite"));
            }
            if let Some((body, _)) = body_of(anchor)
                && body >= self.bodies.len()
            {
                let why = format!("body {body} does not exist");
                return Err(PbmError::invalid("pin", why));
            }
        }
        match (body_of(&pin.a), body_of(&pin.b)) {
            (Some((a, _)), Some((b, _))) if a == b => {
                let why = format!("both ends are on body {a}");
                Err(PbmError::invalid("pin", why))
            }
            (None, None) => {
                Err(PbmError::invalid("pin", "both ends are fixed in the world"))
            }
            _ => {
                self.pins.push(pin);
                Ok(self.pins.len() - 1)
            }
        }
    }

    /// Adds a torsion spring. A body that does not exist, a spring from a body to
    /// itself, or a rest angle, stiffness or damping that is not finite (or is
    /// negative) is an error.
    pub fn add_spring(&mut self, spring: Torsion) -> Result<usize, PbmError> {
        let n = self.bodies.len();
        let why = if spring.a >= n || spring.b.is_some_and(|b| b >= n) {
            format!(
                "it joins bodies {} and {:?}, and there are {n}",
                spring.a, spring.b
            )
        } else if spring.b == Some(spring.a) {
            format!("both ends are on body {}", spring.a)
        } else if !spring.rest.is_finite() {
            format!("its rest angle is {}", spring.rest)
        } else if !(spring.stiffness.is_finite() && spring.stiffness >= 0.0) {
            format!("its stiffness is {}", spring.stiffness)
        } else if !(spring.damping.is_finite() && spring.damping >= 0.0) {
            format!("its damping is {}", spring.damping)
        } else {
            self.springs.push(spring);
            return Ok(self.springs.len() - 1);
        };
        Err(PbmError::invalid("torsion spring", why))
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

    // ANCHOR: twist
    /// A spring's twist from rest (rad), the rate of twist (rad/s), and the reduced
    /// inertia it acts on (kg m²).
    fn twist(&self, s: &Torsion) -> (f64, f64, f64) {
        let a = &self.bodies[s.a];
        let (angle, spin, inverse) = match s.b {
            Some(b) => {
                let b = &self.bodies[b];
                (b.angle(), b.angular_velocity(), 1.0 / b.inertia())
            }
            None => (0.0, 0.0, 0.0),
        };
        (
            a.angle() - angle - s.rest,
            a.angular_velocity() - spin,
            1.0 / (1.0 / a.inertia() + inverse),
        )
    }
    // ANCHOR_END: twist

    /// Where anchor `a` is now.
    pub fn anchor_point(&self, a: &Anchor) -> V2 {
        match *a {
            Anchor::Body { body, local } => self.bodies[body].world_point(&local),
            Anchor::World(p) => p,
        }
    }

    /// The largest distance between the two ends of any pin (m).
    pub fn max_pin_error(&self) -> f64 {
        self.pins
            .iter()
            .map(|p| (self.anchor_point(&p.a) - self.anchor_point(&p.b)).norm())
            .fold(0.0, f64::max)
    }

    // Objects: moving bodies 0..n, then fixtures, then the world (pins' fixed ends).

    fn objects(&self) -> usize {
        self.bodies.len() + self.fixtures.len()
    }

    fn world_index(&self) -> usize {
        self.objects()
    }

    fn frame(&self, k: usize) -> Frame {
        match self.bodies.get(k) {
            Some(b) => Frame { x: b.position(), theta: b.angle() },
            None => Frame { x: V2::zeros(), theta: 0.0 },
        }
    }

    fn layer(&self, k: usize) -> u32 {
        let n = self.bodies.len();
        if k < n { self.layers[k] } else { self.fixtures[k - n].layer }
    }

    fn parts(&self, k: usize) -> Vec<ConvexPolygon> {
        let n = self.bodies.len();
        if k < n { self.placed(k) } else { self.fixtures[k - n].parts.clone() }
    }

    /// Every object's bounds, grown by 2ε so that touching pairs overlap, and pairs
    /// the tolerance correction must watch (within 2ε) too.
    fn bounds(&self) -> Result<Vec<Aabb<2>>, PbmError> {
        let eps = 2.0 * self.settings.epsilon;
        (0..self.objects())
            .map(|k| {
                let parts = self.parts(k);
                let points = parts.iter().flat_map(|p| p.vertices().iter());
                let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
                for v in points {
                    for d in 0..2 {
                        lo[d] = lo[d].min(v[d] - eps);
                        hi[d] = hi[d].max(v[d] + eps);
                    }
                }
                Aabb::new(lo, hi)
            })
            .collect()
    }

    /// The pairs the broad phase passes: bounds overlapping, same layer, not both
    /// fixed.
    fn pairs(&mut self) -> Result<Vec<(usize, usize)>, PbmError> {
        let boxes = self.bounds()?;
        match &mut self.sweep {
            Some(sweep) => {
                sweep.update(&boxes)?;
            }
            None => self.sweep = Some(CoherentSweep::new(&boxes)?),
        }
        let n = self.bodies.len();
        let pairs = self.sweep.as_ref().map(|s| s.pairs()).unwrap_or_default();
        Ok(pairs
            .into_iter()
            .map(|(i, j)| (i as usize, j as usize))
            .filter(|&(i, j)| i < n && self.layer(i) == self.layer(j))
            .collect())
    }

    /// How far pair (i, j) interpenetrates: the largest depth over their parts'
    /// pairs (m; negative when apart).
    fn depth(&self, i: usize, j: usize) -> f64 {
        let (pi, pj) = (self.parts(i), self.parts(j));
        let mut depth = f64::NEG_INFINITY;
        for a in &pi {
            for b in &pj {
                depth = depth.max(-separation(a, b).0);
            }
        }
        depth
    }

    /// The deepest pair and its depth (0 and None if nothing interpenetrates).
    fn deepest(&mut self) -> Result<(f64, Option<(usize, usize)>), PbmError> {
        let mut worst = (0.0, None);
        for (i, j) in self.pairs()? {
            // Only pairs whose parts overlap can be deepest: a pair the cached
            // witnesses still separate is skipped without the full search.
            let (parts_i, parts_j) = (self.parts(i), self.parts(j));
            let mut d = f64::NEG_INFINITY;
            for (ki, pi) in parts_i.iter().enumerate() {
                for (kj, pj) in parts_j.iter().enumerate() {
                    if self.apart(i, ki, j, kj, pi, pj, 0.0) {
                        continue;
                    }
                    d = d.max(-separation(pi, pj).0);
                }
            }
            if d > worst.0 {
                worst = (d, Some((i, j)));
            }
        }
        Ok(worst)
    }

    /// Whether parts `pi` (part ki of object i) and `pj` (part kj of j) are farther
    /// apart than `eps`, by chapter 7's cached witness when it still separates them,
    /// else by the full separation (which becomes the new witness).
    #[allow(clippy::too_many_arguments)]
    fn apart(
        &mut self,
        i: usize,
        ki: usize,
        j: usize,
        kj: usize,
        pi: &ConvexPolygon,
        pj: &ConvexPolygon,
        eps: f64,
    ) -> bool {
        let cache = self.witnesses.entry((i, ki, j, kj)).or_default();
        let (reused, searched) = (cache.reused, cache.searched);
        let disjoint = cache.test(pi, pj, eps) == Status::Disjoint;
        self.stats.witness_reused += cache.reused - reused;
        self.stats.witness_searched += cache.searched - searched;
        disjoint
    }

    /// The contacts within ε.
    fn detect(&mut self) -> Result<Vec<Found>, PbmError> {
        self.detect_within(self.settings.epsilon)
    }

    // ANCHOR: detect
    /// The contacts within `eps` (ε for the loop, 2ε for the tolerance correction):
    /// for each pair of parts closer than `eps`, the vertices of one within `eps` of
    /// an edge of the other (chapter 7), as a vertex of `a` on an edge of `b` with
    /// the edge's outward normal (out of b, towards a); then any corner of either
    /// that chapter 7 left out (see `other_corners`).
    fn detect_within(&mut self, eps: f64) -> Result<Vec<Found>, PbmError> {
        let mut found = Vec::new();
        for (i, j) in self.pairs()? {
            let (fi, fj) = (self.frame(i), self.frame(j));
            let held = |a: usize, point: V2, normal: V2| {
                let (fa, fb) = if a == i { (fi, fj) } else { (fj, fi) };
                let b = if a == i { j } else { i };
                Held {
                    a,
                    b,
                    point: rotation2(-fa.theta) * (point - fa.x),
                    normal: rotation2(-fb.theta) * normal,
                }
            };
            let (parts_i, parts_j) = (self.parts(i), self.parts(j));
            for (ki, pa) in parts_i.iter().enumerate() {
                for (kj, pb) in parts_j.iter().enumerate() {
                    if self.apart(i, ki, j, kj, pa, pb, eps) {
                        continue;
                    }
                    let mut points = Vec::new();
                    for c in contacts(pa, pb, eps) {
                        // Chapter 7's normal points from the first polygon (i) to
                        // the second (j).
                        let (a, n, edge_poly) = if c.vertex_of_b {
                            (j, c.normal, pa)
                        } else {
                            (i, -c.normal, pb)
                        };
                        let gap = n.dot(&(c.point - edge_poly.vertices()[c.edge]));
                        found.push(Found { held: held(a, c.point, n), gap });
                        points.push(c.point);
                    }
                    for (a, corners, edges) in [(i, pa, pb), (j, pb, pa)] {
                        for (point, n, gap) in
                            other_corners(corners, edges, eps, &points)
                        {
                            found.push(Found { held: held(a, point, n), gap });
                        }
                    }
                }
            }
        }
        Ok(found)
    }
    // ANCHOR_END: detect

    /// Object k as the errors name it: "body 3", "fixture 0".
    fn name(&self, k: usize) -> String {
        let n = self.bodies.len();
        if k < n { format!("body {k}") } else { format!("fixture {}", k - n) }
    }

    // ANCHOR: states
    /// Chapter 8's view of every object: moving bodies, fixtures, the world.
    fn states(&self) -> Vec<BodyState> {
        let moving = self.bodies.iter().map(|b| BodyState {
            x: lift(b.position()),
            v: lift(b.velocity()),
            omega: V3::new(0.0, 0.0, b.angular_velocity()),
            inv_mass: 1.0 / b.mass(),
            inv_inertia: Matrix3::from_diagonal(&V3::new(
                0.0,
                0.0,
                1.0 / b.inertia(),
            )),
        });
        let fixed = (0..=self.fixtures.len()).map(|_| BodyState::fixed(V3::zeros()));
        moving.chain(fixed).collect()
    }
    // ANCHOR_END: states

    /// The acceleration of the point p of body k under the loads alone (forces and
    /// torques accumulated so far): F/m + α × r − ω² r. Zero for fixed objects.
    fn load_acceleration(&self, k: usize, p: &V2) -> V2 {
        let Some(b) = self.bodies.get(k) else { return V2::zeros() };
        let r = p - b.position();
        let w = b.angular_velocity();
        b.force() / b.mass() + spin2(b.torque() / b.inertia(), &r) - r * (w * w)
    }

    /// The velocity of the point p of object k (zero for fixed objects).
    fn velocity_at(&self, k: usize, p: &V2) -> V2 {
        self.bodies.get(k).map_or(V2::zeros(), |b| b.point_velocity(p))
    }

    fn omega(&self, k: usize) -> f64 {
        self.bodies.get(k).map_or(0.0, |b| b.angular_velocity())
    }

    fn pin_ends(&self, pin: &Pin) -> [(usize, V2); 2] {
        let world = self.world_index();
        [pin.a, pin.b].map(|a| match a {
            Anchor::Body { body, .. } => (body, self.anchor_point(&a)),
            Anchor::World(p) => (world, p),
        })
    }

    // ANCHOR: rows
    /// The rows of the pins and held contacts at the current state and their b:
    /// relative accelerations under the loads alone (second order) or relative
    /// velocities (first order, where the loads are velocities).
    ///
    /// A contact's normal row: d̈ = n·(p̈_a − p̈_b) + 2 ṅ·(ṗ_a − ṗ_b), ṅ = ω_b × n.
    /// Its friction row along t = n⊥: t·(p̈_a − p̈_b) + ṫ·s + (t·s)/h with s the
    /// sliding velocity, so that sticking also stops sliding within the step.
    /// A pin's two rows: e·(C̈ + k_d Ċ + k_s C) with C = P_a − P_b.
    fn rows(&self) -> (Vec<Row>, Vec<f64>) {
        let (mut rows, mut bias) = (Vec::new(), Vec::new());
        let first = self.settings.order == Order::First;
        let (ks, kd) = self.settings.feedback;
        // In a first-order world the loads are the velocities.
        let velocity = |k: usize, p: &V2| -> V2 {
            if first {
                self.bodies.get(k).map_or(V2::zeros(), |b| {
                    b.force() / b.mass()
                        + spin2(b.torque() / b.inertia(), &(p - b.position()))
                })
            } else {
                self.velocity_at(k, p)
            }
        };
        for pin in &self.pins {
            let [(a, pa), (b, pb)] = self.pin_ends(pin);
            let c = pa - pb;
            let c_dot = velocity(a, &pa) - velocity(b, &pb);
            // First order: Ċ + k_d C = 0 (a rate, 1/s). Second: C̈ + k_d Ċ + k_s C = 0.
            let push = if first {
                c_dot + c * kd
            } else {
                self.load_acceleration(a, &pa) - self.load_acceleration(b, &pb)
                    + c_dot * kd
                    + c * ks
            };
            for e in [V2::x(), V2::y()] {
                rows.push(Row {
                    a,
                    b,
                    p: lift(pa),
                    along: lift(e),
                    role: Role::Bilateral,
                });
                bias.push(e.dot(&push));
            }
        }
        let mu = self.settings.friction;
        for held in &self.held {
            let (fa, fb) = (self.frame(held.a), self.frame(held.b));
            let p = fa.point(&held.point);
            let n = fb.vector(&held.normal);
            let t = V2::new(-n.y, n.x);
            let s = velocity(held.a, &p) - velocity(held.b, &p);
            let normal = rows.len();
            rows.push(Row {
                a: held.a,
                b: held.b,
                p: lift(p),
                along: lift(n),
                role: Role::Normal,
            });
            if first {
                bias.push(n.dot(&s));
            } else {
                let acc = self.load_acceleration(held.a, &p)
                    - self.load_acceleration(held.b, &p);
                let n_dot = spin2(self.omega(held.b), &n);
                bias.push(n.dot(&acc) + 2.0 * n_dot.dot(&s));
            }
            if mu > 0.0 {
                rows.push(Row {
                    a: held.a,
                    b: held.b,
                    p: lift(p),
                    along: lift(t),
                    role: Role::Tangent { normal },
                });
                if first {
                    bias.push(t.dot(&s));
                } else {
                    let acc = self.load_acceleration(held.a, &p)
                        - self.load_acceleration(held.b, &p);
                    let t_dot = spin2(self.omega(held.b), &t);
                    bias.push(
                        t.dot(&acc) + t_dot.dot(&s) + t.dot(&s) / self.settings.h,
                    );
                }
            }
        }
        (rows, bias)
    }
    // ANCHOR_END: rows

    // ANCHOR: loads
    /// The loads: gravity, the torsion springs and the mouse spring.
    fn apply_loads(&mut self) -> Result<(), PbmError> {
        let g = self.settings.gravity;
        let first = self.settings.order == Order::First;
        for body in &mut self.bodies {
            body.clear_accumulators();
            let weight = g * body.mass();
            let x = body.position();
            body.apply_force_at(&x, &weight);
        }
        // ANCHOR: torsion
        for k in 0..self.springs.len() {
            let s = self.springs[k];
            let (twist, rate, inertia) = self.twist(&s);
            let torque = -inertia
                * if first {
                    // As the mouse: the massless limit turns at the rate k/c.
                    if s.damping <= 0.0 {
                        let why = "its damping is 0; a first-order world turns it \
                                   at the rate stiffness/damping";
                        return Err(PbmError::invalid("torsion spring", why));
                    }
                    s.stiffness / s.damping * twist
                } else {
                    s.stiffness * twist + s.damping * rate
                };
            self.bodies[s.a].apply_torque(torque);
            if let Some(b) = s.b {
                self.bodies[b].apply_torque(-torque);
            }
        }
        // ANCHOR_END: torsion
        if let Some(m) = self.mouse {
            check_mouse(&m, self.bodies.len())?;
            let body = &mut self.bodies[m.body];
            // The spring is scaled by the least mass the grabbed point can have, that
            // of the free body pushed at p: constraints only add to it, so k/m and
            // c/m bound the spring's rates wherever the body is grabbed and however
            // it is held, and RK4 stays stable at the step.
            let p = body.world_point(&m.local);
            let r = p - body.position();
            let mass = 1.0 / (1.0 / body.mass() + r.norm_squared() / body.inertia());
            let f = if first {
                // The spring with no mass to carry, m ẍ + c ẋ + k x = 0 as m → 0:
                // ẋ = (k/c)(target − x), a rate of k/c. (k itself as a rate would
                // be 4000/s, and RK4 at 10 ms blows up at 280/s.)
                if m.damping.is_nan() || m.damping <= 0.0 {
                    let why = format!(
                        "its damping is {}; a first-order world moves the point at \
                         the rate stiffness/damping",
                        m.damping
                    );
                    return Err(PbmError::invalid("mouse", why));
                }
                (m.target - p) * (m.stiffness / m.damping * mass)
            } else {
                (m.target - p) * (m.stiffness * mass)
                    - body.point_velocity(&p) * (m.damping * mass)
            };
            body.apply_force_at(&p, &f);
        }
        Ok(())
    }

    // ANCHOR_END: loads

    // ANCHOR: islands
    /// Solves for the constraint forces and adds them to the bodies, one island at a
    /// time: bodies joined by contacts and pins, through moving bodies only (a
    /// fixture or the world joins nothing, since nothing moves it). Forces in one
    /// island cannot change accelerations in another, so the islands' LCPs are
    /// independent, and solving them apart costs the sum of their sizes cubed, not
    /// the cube of their sum.
    fn apply_constraint_forces(&mut self) -> Result<(), PbmError> {
        let (rows, bias) = self.rows();
        if rows.is_empty() {
            return Ok(());
        }
        let states = self.states();
        let islands = islands(self.bodies.len(), &rows);
        let last = std::mem::take(&mut self.previous);
        let warm_ok = last.len() == islands.len();
        let mut answers = Vec::with_capacity(islands.len());
        let (mut warm, mut unsettled) = (true, false);
        for (k, members) in islands.iter().enumerate() {
            // The island's rows, each friction row pointing at its normal's new
            // index.
            // (A friction row joins the same two bodies as its normal, so the two
            // are always in one island.)
            let local: Vec<Row> = members
                .iter()
                .map(|&i| {
                    let mut row = rows[i];
                    if let Role::Tangent { normal } = row.role {
                        let at = members.iter().position(|&m| m == normal);
                        let at = at.ok_or_else(|| {
                            let why =
                                format!("friction row {i} left its normal {normal}");
                            PbmError::degenerate("contact islands", why)
                        })?;
                        row.role = Role::Tangent { normal: at };
                    }
                    Ok(row)
                })
                .collect::<Result<_, PbmError>>()?;
            let b = DVector::from_iterator(
                members.len(),
                members.iter().map(|&i| bias[i]),
            );
            let previous = if warm_ok { last.get(k) } else { None };
            let solved = self.solve_island(&states, &local, &b, previous)?;
            self.stats.rounds += solved.rounds;
            self.stats.pivots += solved.solution.pivots;
            warm &= solved.warm;
            unsettled |= solved.mismatch > SETTLED;
            for (row, &f) in local.iter().zip(solved.solution.f.iter()) {
                let push = flat(row.along) * f;
                let p = flat(row.p);
                for (k, sign) in [(row.a, 1.0), (row.b, -1.0)] {
                    if let Some(body) = self.bodies.get_mut(k) {
                        body.apply_force_at(&p, &(push * sign));
                    }
                }
            }
            answers.push(solved.solution);
        }
        self.stats.solves += 1;
        self.stats.islands += islands.len();
        self.stats.warm += usize::from(warm);
        self.stats.unsettled += usize::from(unsettled);
        self.previous = answers;
        Ok(())
    }
    // ANCHOR_END: islands

    /// One island's force solve, warm-started from `previous`.
    fn solve_island(
        &mut self,
        states: &[BodyState],
        rows: &[Row],
        b: &DVector<f64>,
        previous: Option<&LcpSolution>,
    ) -> Result<FrictionSolution, PbmError> {
        let mu = self.settings.friction;
        match solve_friction(states, rows, b, mu, previous) {
            Ok(solved) => Ok(solved),
            // A simulator that must keep its frame rate cannot stop because the
            // friction rounds did not settle (a slide coming to rest can make them
            // swing): this one evaluation goes without friction, and says so.
            Err(PbmError::Degenerate { why, .. })
                if mu > 0.0 && why.contains("settle") =>
            {
                self.stats.friction_dropped += 1;
                solve_friction(states, rows, b, 0.0, None)
            }
            Err(other) => Err(other),
        }
    }
}

/// The islands of `rows` among `n` moving bodies: the rows of each group of bodies
/// joined through rows between moving bodies, in the order of their first rows, each
/// list of rows in order.
fn islands(n: usize, rows: &[Row]) -> Vec<Vec<usize>> {
    // Union–find over the moving bodies (indices from n on are fixtures and the
    // world, which join nothing).
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut k: usize) -> usize {
        while parent[k] != k {
            parent[k] = parent[parent[k]];
            k = parent[k];
        }
        k
    }
    for row in rows {
        if row.a < n && row.b < n {
            let (ra, rb) = (root(&mut parent, row.a), root(&mut parent, row.b));
            if ra != rb {
                parent[ra.max(rb)] = ra.min(rb);
            }
        }
    }
    let mut order: Vec<usize> = Vec::new();
    let mut members: Vec<Vec<usize>> = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let body = if row.a < n { row.a } else { row.b };
        let r = root(&mut parent, body);
        match order.iter().position(|&o| o == r) {
            Some(k) => members[k].push(i),
            None => {
                order.push(r);
                members.push(vec![i]);
            }
        }
    }
    members
}

impl OdeSystem for World {
    fn dimension(&self) -> usize {
        STATE_SIZE * self.bodies.len()
    }
    fn time(&self) -> f64 {
        self.t
    }
    fn gather_state(&self, y: &mut [f64]) {
        for (body, y) in self.bodies.iter().zip(y.chunks_exact_mut(STATE_SIZE)) {
            body.write_state(y);
        }
    }
    fn scatter_state(&mut self, y: &[f64], t: f64) {
        for (body, y) in self.bodies.iter_mut().zip(y.chunks_exact(STATE_SIZE)) {
            body.read_state(y);
        }
        self.t = t;
    }
    // ANCHOR: derivative
    fn derivative(&mut self, ydot: &mut [f64]) -> Result<(), PbmError> {
        self.apply_loads()?;
        self.apply_constraint_forces()?;
        let first = self.settings.order == Order::First;
        for (body, y) in self.bodies.iter().zip(ydot.chunks_exact_mut(STATE_SIZE)) {
            if first {
                // f = m v: the force sets the velocity, the momenta stay zero.
                let v = body.force() / body.mass();
                y.copy_from_slice(&[
                    v.x,
                    v.y,
                    body.torque() / body.inertia(),
                    0.0,
                    0.0,
                    0.0,
                ]);
            } else {
                body.write_derivative(y);
            }
        }
        Ok(())
    }
    // ANCHOR_END: derivative
}

impl World {
    // ANCHOR: step
    /// One step of the loop (see the module's documentation). Returns the time
    /// advanced (s): h, or less when the step stopped at a collision.
    pub fn step(&mut self) -> Result<f64, PbmError> {
        let (steps, t0) = (self.stats.steps, self.t);
        let fail = |e: PbmError| e.at_step(steps, t0);
        // A correction may leave a little of a deep contact (it is exact only to
        // first order); another pass before the step takes the rest.
        self.correct().map_err(fail)?;
        let (depth, pair) = self.deepest().map_err(fail)?;
        if let (true, Some((i, j))) = (depth > self.settings.epsilon, pair) {
            let why = format!(
                "{} and {} interpenetrate by {depth:.3e} m, more than ε = {}",
                self.name(i),
                self.name(j),
                self.settings.epsilon
            );
            return Err(fail(PbmError::degenerate("interactive world", why)));
        }
        let found = self.detect().map_err(fail)?;
        if self.settings.order == Order::Second {
            self.collide(&found).map_err(fail)?;
        }
        self.hold(&found);
        let y0 = state_of(self);
        let h = self.step_size();
        let mut stepper = std::mem::replace(&mut self.stepper, RungeKutta::new(RK4));
        let stepped = stepper.step(self, h);
        self.stepper = stepper;
        stepped.map_err(fail)?;
        // A state of 10⁶ (metres, or momenta) has blown up.
        if !state_of(self).iter().all(|v| v.is_finite() && v.abs() < 1e6) {
            return Err(PbmError::Diverged { step: steps, time: t0 });
        }
        let mut taken = h;
        let (depth, pair) = self.deepest().map_err(fail)?;
        if let (true, Some(pair)) = (depth > self.settings.epsilon, pair) {
            taken = self.collision_time(&y0, t0, h, pair).map_err(fail)?;
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
                return Err(fail(PbmError::degenerate("collision time", why)));
            }
        } else {
            self.stalled = 0;
        }
        self.correct().map_err(fail)?;
        let (depth, _) = self.deepest().map_err(fail)?;
        self.stats.max_depth = self.stats.max_depth.max(depth);
        self.stats.max_pin_error = self.stats.max_pin_error.max(self.max_pin_error());
        self.stats.steps += 1;
        Ok(taken)
    }
    // ANCHOR_END: step

    // ANCHOR: step_size
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
    // ANCHOR_END: step_size

    /// Runs until time `t_end`, calling `each` after every step. Like chapter 8's
    /// world, a run that needs more than [`STEP_BUDGET`] times its planned steps of
    /// size h is an error naming the step, the time and the deepest pair.
    pub fn run_until(
        &mut self,
        t_end: f64,
        mut each: impl FnMut(&World),
    ) -> Result<(), PbmError> {
        let planned = ((t_end - self.t) / self.settings.h).ceil().max(0.0);
        let budget = STEP_BUDGET * planned as usize + 100;
        let mut taken = 0;
        while self.t < t_end - 1e-12 {
            if taken == budget {
                let (steps, t) = (self.stats.steps, self.t);
                let (depth, pair) =
                    self.deepest().map_err(|e| e.at_step(steps, t))?;
                let pair = pair.map_or("no pair in contact".to_string(), |(i, j)| {
                    format!(
                        "deepest pair: {} and {}, {depth:.3e} m deep",
                        self.name(i),
                        self.name(j)
                    )
                });
                let why = format!(
                    "{STEP_BUDGET} times the steps of h = {} s did not reach t = {t_end} s \
                     ({pair})",
                    self.settings.h
                );
                return Err(
                    PbmError::degenerate("interactive world", why).at_step(steps, t)
                );
            }
            self.step()?;
            taken += 1;
            each(self);
        }
        Ok(())
    }

    /// Keeps the contacts that are not separating faster than the resting speed
    /// for this step's force solves. A different set than last step's makes the
    /// last answer no guess for this one.
    fn hold(&mut self, found: &[Found]) {
        let states = self.states();
        let resting_speed = self.settings.resting_speed;
        let held: Vec<Held> = found
            .iter()
            .filter(|f| {
                relative_velocity(&states, &self.contact_of(&f.held)) <= resting_speed
            })
            .map(|f| f.held)
            .collect();
        let same = held.len() == self.held.len()
            && held.iter().zip(&self.held).all(|(x, y)| (x.a, x.b) == (y.a, y.b));
        if !same {
            self.previous.clear();
        }
        self.held = held;
    }

    /// A held contact as chapter 8's contact, at the current state.
    fn contact_of(&self, held: &Held) -> Contact {
        let p = self.frame(held.a).point(&held.point);
        let n = self.frame(held.b).vector(&held.normal);
        Contact { a: held.a, b: held.b, p: lift(p), n: lift(n) }
    }

    // ANCHOR: collide
    /// Stops every closing contact with one simultaneous impulse LCP (chapter 8):
    /// for each contact of the bodies involved, j ≥ 0, v⁺ = A j + b ≥ 0,
    /// complementary, with b = (1 + e) v⁻ where it closes; every pin joins in with
    /// an impulse of any sign that leaves its two ends moving together. Contacts
    /// closing faster than the resting speed bounce with the world's restitution
    /// e; slower ones are stopped dead (e = 0), or they would bounce for ever in
    /// steps of the speed gravity gives back in one step.
    fn collide(&mut self, found: &[Found]) -> Result<(), PbmError> {
        let mut states = self.states();
        let all: Vec<Contact> =
            found.iter().map(|f| self.contact_of(&f.held)).collect();
        let speed = |c: &Contact, states: &[BodyState]| relative_velocity(states, c);
        let closing: Vec<&Contact> =
            all.iter().filter(|c| speed(c, &states) < 0.0).collect();
        if closing.is_empty() {
            return Ok(());
        }
        // Every contact of the bodies involved takes part, so that an impulse at one
        // corner cannot drive another into the ground.
        let involved = |k: usize| closing.iter().any(|c| c.a == k || c.b == k);
        let contacts: Vec<Contact> =
            all.iter().copied().filter(|c| involved(c.a) || involved(c.b)).collect();
        let (e, slow) = (self.settings.restitution, self.settings.resting_speed);
        let impact = contacts.iter().any(|c| speed(c, &states) < -slow);
        let mut rows: Vec<Row> = contacts
            .iter()
            .map(|c| Row { a: c.a, b: c.b, p: c.p, along: c.n, role: Role::Normal })
            .collect();
        let mut b: Vec<f64> = contacts
            .iter()
            .map(|c| {
                let v = speed(c, &states);
                if v < -slow { (1.0 + e) * v } else { v }
            })
            .collect();
        // The pins take their share of every impulse, or an impact on one part of
        // a linkage would tear it apart: their ends must move together after it.
        for pin in &self.pins {
            let [(a, pa), (b_end, pb)] = self.pin_ends(pin);
            let c_dot = flat(states[a].point_velocity(&lift(pa)))
                - flat(states[b_end].point_velocity(&lift(pb)));
            for axis in [V2::x(), V2::y()] {
                rows.push(Row {
                    a,
                    b: b_end,
                    p: lift(pa),
                    along: lift(axis),
                    role: Role::Bilateral,
                });
                b.push(axis.dot(&c_dot));
            }
        }
        let a = row_matrix(&states, &rows);
        let bounds = frictionless_bounds(&rows);
        let j = solve_bounded(&a, &DVector::from_vec(b), &bounds)?.f;
        for (r, &j) in rows.iter().zip(j.iter()) {
            states[r.a].apply_impulse(&r.p, &(r.along * j));
            states[r.b].apply_impulse(&r.p, &(r.along * -j));
        }
        for (body, s) in self.bodies.iter_mut().zip(&states) {
            let mut y = [0.0; STATE_SIZE];
            body.write_state(&mut y);
            y[3] = s.v.x * body.mass();
            y[4] = s.v.y * body.mass();
            y[5] = s.omega.z * body.inertia();
            body.read_state(&y);
        }
        self.stats.impacts += usize::from(impact);
        Ok(())
    }
    // ANCHOR_END: collide

    // ANCHOR: collision_time
    /// Finds when the deepest pair of the step (`pair`) first touched, on the
    /// paper's interpolation of the step: Y(t₀ + s) ≈ Y₀ + s ((1 − s/h) k₁ + (s/h) k₅)
    /// with k₁ the derivative at the start and k₅ = (Y₁ − Y₀)/h the step's average.
    /// Regula falsi on the pair's depth, with a bisection whenever an end is kept
    /// twice, stops at a depth between −ε/2 and ε/2 (up to ε for a pair already
    /// deeper than ε/2 at the start of the step); then every pair is checked and one
    /// deeper than ε (another collision, earlier) restarts the search on the
    /// shorter interval. Leaves the world in the interpolated state and returns s.
    fn collision_time(
        &mut self,
        y0: &[f64],
        t0: f64,
        h: f64,
        mut pair: (usize, usize),
    ) -> Result<f64, PbmError> {
        let eps = self.settings.epsilon;
        let y1 = state_of(self);
        self.scatter_state(y0, t0);
        let mut k1 = vec![0.0; y0.len()];
        self.derivative(&mut k1)?;
        let at = |s: f64| -> Vec<f64> {
            y0.iter()
                .zip(&k1)
                .zip(&y1)
                .map(|((y0, k1), y1)| {
                    let k5 = (y1 - y0) / h;
                    y0 + s * ((1.0 - s / h) * k1 + (s / h) * k5)
                })
                .collect()
        };
        let (mut lo, mut hi) = (0.0, h);
        self.scatter_state(y0, t0);
        let mut d_lo = self.depth(pair.0, pair.1);
        self.scatter_state(&y1, t0 + h);
        let mut d_hi = self.depth(pair.0, pair.1);
        // Accept depths in [−ε/2, top]: touching, for a pair that was apart at the
        // start; for a pair already more than ε/2 deep (a resting corner, while
        // another vertex of the pair strikes or the pair sinks), anything up to ε,
        // which the correction at the end of the step then takes back. (Asking for
        // no deeper than at the start shrank the step towards zero when the depth
        // grew from the first instant.)
        let window = |d_start: f64| if d_start > eps / 2.0 { eps } else { eps / 2.0 };
        let mut top = window(d_lo);
        let mut kept = (0, 0);
        for _ in 0..60 {
            let target = 0.5 * (top - eps / 2.0);
            let s = if kept.0 >= 2 || kept.1 >= 2 || d_lo >= d_hi {
                kept = (0, 0);
                0.5 * (lo + hi)
            } else {
                let s = lo + (hi - lo) * (target - d_lo) / (d_hi - d_lo);
                s.clamp(lo + 0.01 * (hi - lo), hi - 0.01 * (hi - lo))
            };
            self.scatter_state(&at(s), t0 + s);
            let d = self.depth(pair.0, pair.1);
            if d > top {
                (hi, d_hi) = (s, d);
                kept = (kept.0 + 1, 0);
                continue;
            }
            if d < -eps / 2.0 {
                (lo, d_lo) = (s, d);
                kept = (0, kept.1 + 1);
                continue;
            }
            // This pair touches; is another already deeper?
            let (deepest, other) = self.deepest()?;
            match other {
                Some(other) if other != pair && deepest > eps => {
                    pair = other;
                    (hi, d_hi) = (s, deepest);
                    self.scatter_state(&at(lo), t0 + lo);
                    d_lo = self.depth(pair.0, pair.1);
                    self.scatter_state(y0, t0);
                    top = window(self.depth(pair.0, pair.1));
                    kept = (0, 0);
                }
                _ => return Ok(s),
            }
        }
        if lo == 0.0 {
            let (a, b) = (self.name(pair.0), self.name(pair.1));
            let why = format!(
                "no time in the step where {a} and {b} touch \
                 (depth {d_lo:.3e} m at its start)"
            );
            return Err(PbmError::degenerate("collision time", why));
        }
        // The search could not close in; settle for the last state that was apart.
        self.scatter_state(&at(lo), t0 + lo);
        Ok(lo)
    }
    // ANCHOR_END: collision_time

    // ANCHOR: correct
    /// The tolerance correction. If any contact is deeper than ε_w = ¾ ε, every
    /// moving body joined to it through contacts and pins is displaced by the least
    /// displacement in the kinetic-energy norm that brings every pin's error to zero
    /// and leaves no contact among them interpenetrating (to first order). With
    /// chapter 8's matrix A and e the gaps and errors, that is the bounded LCP
    /// a = A f + e: a = 0 on pins (f of any sign), a ≥ 0 on contacts with f ≥ 0
    /// and f a = 0, whose answer moves each body by Δx = f/m along each row and
    /// Δθ = (r × f)/I. Contacts up to 2ε apart take part, so that pushing one body
    /// out of a wall cannot push it into a neighbour just outside the tolerance.
    /// Velocities are kept.
    fn correct(&mut self) -> Result<(), PbmError> {
        let eps = self.settings.epsilon;
        let warn = 0.75 * eps;
        let found = self.detect_within(2.0 * eps)?;
        if found.iter().all(|f| f.gap >= -warn) {
            return Ok(());
        }
        // The bodies joined to a deep contact.
        let n = self.bodies.len();
        let mut joined = vec![false; n];
        let mut links: Vec<(usize, usize)> =
            found.iter().map(|f| (f.held.a, f.held.b)).collect();
        for pin in &self.pins {
            let [(a, _), (b, _)] = self.pin_ends(pin);
            links.push((a, b));
        }
        for f in found.iter().filter(|f| f.gap < -warn) {
            for k in [f.held.a, f.held.b] {
                if k < n {
                    joined[k] = true;
                }
            }
        }
        loop {
            let mut grew = false;
            for &(a, b) in &links {
                let on = |k: usize| k < n && joined[k];
                if on(a) || on(b) {
                    for k in [a, b] {
                        if k < n && !joined[k] {
                            joined[k] = true;
                            grew = true;
                        }
                    }
                }
            }
            if !grew {
                break;
            }
        }
        let touches =
            |a: usize, b: usize| (a < n && joined[a]) || (b < n && joined[b]);
        let (mut rows, mut error) = (Vec::new(), Vec::new());
        for f in found.iter().filter(|f| touches(f.held.a, f.held.b)) {
            let c = self.contact_of(&f.held);
            rows.push(Row { a: c.a, b: c.b, p: c.p, along: c.n, role: Role::Normal });
            error.push(f.gap);
        }
        for pin in &self.pins {
            let [(a, pa), (b, pb)] = self.pin_ends(pin);
            if touches(a, b) {
                for e in [V2::x(), V2::y()] {
                    rows.push(Row {
                        a,
                        b,
                        p: lift(pa),
                        along: lift(e),
                        role: Role::Bilateral,
                    });
                    error.push(e.dot(&(pa - pb)));
                }
            }
        }
        // Redundant rows (a face resting on two corners and a pin) make A singular;
        // a diagonal of a millionth of its scale makes it definite and picks, among
        // equal answers, the one with the smallest f. Where the rows conflict (a
        // block wedged between a pinned pusher and a wall) it also bounds what they
        // ask: directions A barely moves along are left nearly alone rather than
        // pushed a metre.
        let mut a: DMatrix<f64> = row_matrix(&self.states(), &rows);
        let delta = 1e-6 * a.diagonal().amax();
        for i in 0..rows.len() {
            a[(i, i)] += delta;
        }
        let bounds = frictionless_bounds(&rows);
        let f = solve_bounded(&a, &DVector::from_vec(error), &bounds)
            .map_err(|e| PbmError::degenerate("tolerance correction", e.to_string()))?
            .f;
        let mut y = state_of(self);
        for (row, &f) in rows.iter().zip(f.iter()) {
            let push = flat(row.along) * f;
            for (k, sign) in [(row.a, 1.0), (row.b, -1.0)] {
                if let Some(body) = self.bodies.get(k) {
                    let r = flat(row.p) - body.position();
                    let y = &mut y[k * STATE_SIZE..(k + 1) * STATE_SIZE];
                    y[0] += sign * push.x / body.mass();
                    y[1] += sign * push.y / body.mass();
                    y[2] += sign * cross2(&r, &push) / body.inertia();
                }
            }
        }
        let t = self.t;
        self.scatter_state(&y, t);
        self.stats.corrections += 1;
        Ok(())
    }
    // ANCHOR_END: correct
}

// ANCHOR: other_corners
/// The corners of `corners` within `eps` of an edge of the polygon `edges`, and over
/// its length, that are not within `eps` of a contact already found (`points`):
/// each with the edge it is least deep behind (the one it is furthest out of), that
/// edge's outward normal and the gap. Chapter 7 takes the corners on
/// the face along the separating axis, and those of the face opposite when it is
/// parallel; when two faces meet at a small angle, a corner of the other one can be
/// the deepest point of the pair and go unseen: with no contact there, nothing holds
/// it, and in the feeder two blocks meeting so sank into each other a little further
/// every step.
fn other_corners(
    corners: &ConvexPolygon,
    edges: &ConvexPolygon,
    eps: f64,
    points: &[V2],
) -> Vec<(V2, V2, f64)> {
    let e = edges.vertices();
    corners
        .vertices()
        .iter()
        .filter(|v| points.iter().all(|p| (*p - **v).norm() > eps))
        .filter_map(|&v| {
            let (gap, k) = (0..e.len())
                .map(|k| (edges.normal(k).dot(&(v - e[k])), k))
                .fold(
                    (f64::NEG_INFINITY, 0),
                    |best, x| if x.0 > best.0 { x } else { best },
                );
            // On the edge itself, not off its end: a corner off the end of an edge is
            // nearest to the edge's end, a meeting of corners chapter 7 handles.
            let (a, b) = (e[k], e[(k + 1) % e.len()]);
            let s = (b - a).dot(&(v - a)) / (b - a).norm_squared();
            (gap <= eps && (0.0..=1.0).contains(&s)).then_some((
                v,
                edges.normal(k),
                gap,
            ))
        })
        .collect()
}
// ANCHOR_END: other_corners

/// The relative normal velocity at a contact (positive: separating).
fn relative_velocity(states: &[BodyState], c: &Contact) -> f64 {
    pbm_contact::impulse::relative_velocity(states, c)
}

/// A mouse the world can pull with: on a body that exists, at finite points, with a
/// finite, non-negative stiffness and damping. (A mouse driven by a pointer that left
/// the window, or by a script that divided by zero, says so here, not as a blow-up.)
fn check_mouse(m: &Mouse, bodies: usize) -> Result<(), PbmError> {
    let why = if m.body >= bodies {
        format!("it holds body {}, and there are {bodies}", m.body)
    } else if !(m.target.iter().all(|v| v.is_finite())) {
        format!("it is at a point that is not finite, {:?}", m.target.as_slice())
    } else if !(m.local.iter().all(|v| v.is_finite())) {
        format!("it holds a point that is not finite, {:?}", m.local.as_slice())
    } else if !(m.stiffness.is_finite() && m.stiffness >= 0.0) {
        format!("its stiffness is {}", m.stiffness)
    } else if !(m.damping.is_finite() && m.damping >= 0.0) {
        format!("its damping is {}", m.damping)
    } else {
        return Ok(());
    };
    Err(PbmError::invalid("mouse", why))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn islands_join_through_moving_bodies_only() {
        // Five moving bodies (0–4); 5 is a fixture and 6 the world. Rows 0–1, 1–3
        // and 3–5 join 0, 1 and 3; 2 touches only the fixture, and 4 is pinned to
        // the world: three islands, in the order of their first rows, even though
        // 2 and 3 both touch fixture 5.
        let row = |a: usize, b: usize| Row {
            a,
            b,
            p: V3::zeros(),
            along: V3::x(),
            role: Role::Normal,
        };
        let rows = [row(2, 5), row(0, 1), row(4, 6), row(1, 3), row(3, 5), row(5, 2)];
        assert_eq!(islands(5, &rows), vec![vec![0, 5], vec![1, 3, 4], vec![2]]);
        assert!(islands(5, &[]).is_empty());
    }
}
