//! The simulation loop that ties chapters 6, 7 and 8 together. Each step:
//!
//! 1. find the contacts (chapter 7: pairs of boxes, and each box with the fixed
//!    solids, within the tolerance ε);
//! 2. stop the colliding ones with impulses, pass after pass;
//! 3. hold the rest (resting contacts) fixed for the step, "road-runner" style, and
//!    integrate with RK4, solving for contact and friction forces at every stage;
//! 4. if the step drove some pair deeper than ε, find the collision time by re-taking
//!    the step shorter, and stop there;
//! 5. correct what interpenetration is left by the smallest displacement in the
//!    kinetic-energy norm.
//!
//! The same loop runs a first-order world (Baraff 1995), where velocity is force
//! over mass, v = F/M and ω = I⁻¹ τ: nothing coasts, nothing collides, and the
//! contact forces are those that keep the contacts from closing *velocities*.

use crate::friction::{REGULARIZATION, SETTLED, solve_friction};
use crate::impulse::{Contact, relative_velocity, sequential, simultaneous};
use crate::lcp::{LcpSolution, solve};
use crate::resting::{Kind, Load, RestingContact, b_vector, sliding};
use crate::rows::{BodyState, Role, Row};
use nalgebra::{DVector, Matrix3, Rotation3, UnitQuaternion, Vector3};
use pbm_collision::polyhedron::{
    ConvexPolyhedron, Feature, closest_parameters, contacts, separation,
};
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::system::{OdeSystem, state_of};
use pbm_ode::tableau::RK4;
use pbm_particles::forces::G;
use pbm_prelim::PbmError;
use pbm_rigid::body::Orientation;
use pbm_rigid::body::{
    Body, BodyForce, Gravity, RigidBody, RigidBodyDef, RigidSystem,
};
use pbm_rigid::mass::MassProperties;
use pbm_rigid::rotation::{Quat, quat_derivative, quat_from_axis_angle, quat_mul};
use std::sync::{Arc, Mutex, PoisonError};

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

/// How many times its planned number of steps (duration / h) a run may take before
/// [`World::run_until`] calls it stalled: collision times shorten a step, but a run
/// whose steps stop advancing time must say so, not run forever.
pub const STEP_BUDGET: usize = 20;

/// The world's constants.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// Gravity (m/s²).
    pub gravity: V3,
    /// Coefficient of restitution ε of every impact, in [0, 1].
    pub restitution: f64,
    /// Coefficient of friction μ of every contact, ≥ 0. Below [`MIN_FRICTION`] it
    /// counts as zero.
    pub friction: f64,
    /// Contact tolerance (m): closer than this is touching.
    pub tolerance: f64,
    /// Closing speeds below this (m/s) are resting, not colliding.
    pub resting_speed: f64,
    /// Impacts closing slower than this many steps of gravity, `bounce_steps` · |g| h
    /// (m/s), do not bounce: they get ε = 0. A rebound slower than that is caught
    /// again within a step or two, so with ε > 0 a body would hop on the spot for
    /// ever instead of coming to rest. The default is 2.
    pub bounce_steps: f64,
    /// Time step (s).
    pub h: f64,
    /// Second-order (Newton) or first-order world.
    pub order: Order,
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

/// What the solves cost and found, summed over a run.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Stats {
    /// Contact-force solves (four per step with contacts, one per RK4 stage).
    pub solves: usize,
    /// Solves answered by the warm start.
    pub warm: usize,
    /// Pivots made in all.
    pub pivots: usize,
    /// The smallest normal contact force found (N); +∞ before any.
    pub min_normal_force: f64,
    /// Impacts resolved (steps with at least one impulse).
    pub impacts: usize,
    /// The largest kinetic-energy change across an impact (J; ≤ 0 for ε ≤ 1).
    pub max_impact_energy_gain: f64,
    /// Steps shortened to stop at a collision.
    pub shortened: usize,
    /// Tolerance corrections made.
    pub corrections: usize,
    /// Force solves whose friction rounds did not settle (the best round kept).
    pub unsettled: usize,
    /// The largest mismatch between a solve's normal forces and those its friction
    /// bounds came from, relative to its largest force.
    pub max_mismatch: f64,
}

/// The contact set of the current step and what the force solve remembers.
struct Active {
    held: Vec<Held>,
    fixtures: Vec<(V3, V3)>,
    mu: f64,
    /// The time step (s), for the friction rows' sliding term.
    h: f64,
    previous: Option<LcpSolution>,
    /// Whether to warm-start each solve from the last.
    warm_start: bool,
    order: Order,
    stats: Stats,
}

/// The force object that puts contact forces into chapter 6's system at every
/// derivative evaluation.
struct ContactForces(Arc<Mutex<Active>>);

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

fn frames_of(bodies: &[RigidBody], fixtures: &[(V3, V3)]) -> Vec<Frame> {
    let moving = bodies.iter().map(|b| Frame { x: b.position(), r: b.rotation() });
    let fixed = fixtures.iter().map(|&(x, _)| Frame { x, r: Matrix3::identity() });
    moving.chain(fixed).collect()
}

impl Held {
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

// ANCHOR: rows
/// The rows of the held contacts and their b entries: a normal row per contact,
/// and when μ > 0 two tangent rows, whose b is the rate of change of the sliding
/// velocity s along t without contact forces, t · ṡ + ṫ · s with ṫ = ω_b × t,
/// plus the sliding speed along t over the step, (t · s) / h: a sticking contact
/// then also stops sliding within the step, and one that cannot stick slides with
/// the friction force at its bound, opposing the motion.
fn rows(
    held: &[Held],
    frames: &[Frame],
    (states, loads): (&[BodyState], &[Load]),
    mu: f64,
    h: f64,
) -> (Vec<Row>, DVector<f64>) {
    let (mut rows, mut bias) = (Vec::new(), Vec::new());
    for held in held {
        let rc = held.resting(frames);
        let Contact { a, b, p, n } = rc.contact;
        let normal = rows.len();
        rows.push(Row { a, b, p, along: n, role: Role::Normal });
        bias.push(b_vector(states, loads, &[rc])[0]);
        if mu > 0.0 {
            let (vel, accel) = sliding(states, loads, &rc);
            let (t1, t2) = held.tangents;
            for t in [frames[b].r * t1, frames[b].r * t2] {
                let t_dot = states[b].omega.cross(&t);
                let role = Role::Tangent { normal };
                rows.push(Row { a, b, p, along: t, role });
                bias.push(t.dot(&accel) + t_dot.dot(&vel) + t.dot(&vel) / h);
            }
        }
    }
    (rows, DVector::from_vec(bias))
}
// ANCHOR_END: rows

// ANCHOR: first_order_rows
/// The same rows in a first-order world, where the loads set velocities, v = F/M
/// and ω = I⁻¹ τ. Each row's b is the relative velocity along it that the loads
/// alone would give; the forces f then keep every contact from closing (normal
/// rows: v_n = A f + b ≥ 0, f ≥ 0, complementary) and every sticking contact from
/// sliding.
fn first_order_rows(
    held: &[Held],
    frames: &[Frame],
    (states, loads): (&[BodyState], &[Load]),
    mu: f64,
) -> (Vec<Row>, DVector<f64>) {
    let pushed: Vec<BodyState> = states
        .iter()
        .zip(loads)
        .map(|(s, load)| match s.inv_mass {
            0.0 => *s,
            m => BodyState {
                v: load.force * m,
                omega: s.inv_inertia * load.torque,
                ..*s
            },
        })
        .collect();
    let (rows, _) = rows(held, frames, (&pushed, loads), mu, 1.0);
    let b: Vec<f64> = rows
        .iter()
        .map(|r| {
            let (a, b) = (&pushed[r.a], &pushed[r.b]);
            r.along.dot(&(a.point_velocity(&r.p) - b.point_velocity(&r.p)))
        })
        .collect();
    (rows, DVector::from_vec(b))
}
// ANCHOR_END: first_order_rows

impl BodyForce for ContactForces {
    fn name(&self) -> &'static str {
        "contact forces"
    }

    fn apply(&self, _t: f64, bodies: &mut [RigidBody]) -> Result<(), PbmError> {
        let mut active = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if active.held.is_empty() {
            return Ok(());
        }
        let states = states_of(bodies, &active.fixtures);
        let frames = frames_of(bodies, &active.fixtures);
        // The loads so far (gravity: this force object is applied last).
        let mut loads: Vec<Load> = bodies
            .iter()
            .map(|b| Load { force: b.force(), torque: b.torque() })
            .collect();
        loads.resize(states.len(), Load { force: V3::zeros(), torque: V3::zeros() });
        let (held, mu) = (&active.held, active.mu);
        let (rows, bias) = match active.order {
            Order::Second => rows(held, &frames, (&states, &loads), mu, active.h),
            Order::First => first_order_rows(held, &frames, (&states, &loads), mu),
        };
        let previous =
            if active.warm_start { active.previous.as_ref() } else { None };
        let solved = solve_friction(&states, &rows, &bias, active.mu, previous)?;
        let f = &solved.solution.f;
        let stats = &mut active.stats;
        stats.solves += 1;
        stats.warm += usize::from(solved.warm);
        stats.pivots += solved.solution.pivots;
        stats.unsettled += usize::from(solved.mismatch > SETTLED);
        stats.max_mismatch = stats.max_mismatch.max(solved.mismatch);
        for (row, &f) in rows.iter().zip(f.iter()) {
            if row.role == Role::Normal {
                stats.min_normal_force = stats.min_normal_force.min(f);
            }
            for (k, sign) in [(row.a, 1.0), (row.b, -1.0)] {
                if let Some(body) = bodies.get_mut(k) {
                    body.apply_force_at(&row.p, &(row.along * (f * sign)));
                }
            }
        }
        active.previous = Some(solved.solution);
        Ok(())
    }
}

/// A contact found at the start of a step, with its gap (m, negative when
/// interpenetrating).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Found {
    held: Held,
    contact: Contact,
    gap: f64,
}

/// The shape of a moving body, about its centre of mass in its own frame.
#[derive(Debug, Clone)]
enum Shape {
    Polyhedron(ConvexPolyhedron),
    /// A ball of this radius (m).
    Ball(f64),
}

/// Chapter 6's system read as a first-order world: ẋ = F/M and the orientation
/// turns at ω = I⁻¹ τ, the loads (contact forces included) taken at each stage;
/// the momenta stay zero.
struct FirstOrder<'a>(&'a mut RigidSystem);

impl OdeSystem for FirstOrder<'_> {
    fn dimension(&self) -> usize {
        self.0.dimension()
    }
    fn time(&self) -> f64 {
        self.0.time()
    }
    fn gather_state(&self, y: &mut [f64]) {
        self.0.gather_state(y);
    }
    fn scatter_state(&mut self, y: &[f64], t: f64) {
        self.0.scatter_state(y, t);
    }
    fn derivative(&mut self, ydot: &mut [f64]) -> Result<(), PbmError> {
        // Second-order derivative first: its momentum rates are the loads.
        self.0.derivative(ydot)?;
        for (body, y) in self.0.bodies.iter().zip(ydot.chunks_exact_mut(13)) {
            let Orientation::Quaternion(q) = body.orientation() else {
                return Err(PbmError::invalid(
                    "first-order world",
                    "bodies use quaternions",
                ));
            };
            let force = V3::from_column_slice(&y[7..10]);
            let omega = body.inverse_inertia() * V3::from_column_slice(&y[10..13]);
            y[0..3].copy_from_slice((force / body.mass()).as_slice());
            y[3..7].copy_from_slice(quat_derivative(&omega, &q).as_slice());
            y[7..13].fill(0.0);
        }
        Ok(())
    }
}

/// Two tangents across the normal n, in the frame of b (which carries them).
fn tangents(n: V3, fb: &Frame) -> (V3, V3) {
    let t1 = n.cross(&if n.x.abs() < 0.9 { V3::x() } else { V3::y() }).normalize();
    (fb.r.transpose() * t1, fb.r.transpose() * n.cross(&t1))
}

/// A world of boxes, balls and fixed solids.
pub struct World {
    system: RigidSystem,
    shapes: Vec<Shape>,
    fixtures: Vec<Fixture>,
    settings: Settings,
    active: Arc<Mutex<Active>>,
    stepper: RungeKutta,
    steps: usize,
}

// ANCHOR: step_limit
/// The longest step, at most `h`, over which no body can pass through another solid
/// unseen. A world that looks for contact only at the ends of its steps misses a
/// solid that a body crosses within one (chapter 7's tunnelling). To pass through a
/// solid unseen a body must close on it by more than that solid's narrowest width
/// (and its own): so no body may close on any other by more than the narrowest
/// width among the others, `widths` for the bodies and `fixture_width` for the
/// fixed solids. A body's points move at most `speeds[i]` (|v| + |ω| r), and it
/// closes on another body at most that plus the fastest other one's speed.
pub fn step_limit(h: f64, speeds: &[f64], widths: &[f64], fixture_width: f64) -> f64 {
    // The two largest (or smallest) of `values`: "the others" of any body.
    let best_two = |values: &[f64], better: fn(f64, f64) -> bool| {
        let mut best: [Option<usize>; 2] = [None, None];
        for (i, &v) in values.iter().enumerate() {
            if best[0].is_none_or(|b| better(v, values[b])) {
                best = [Some(i), best[0]];
            } else if best[1].is_none_or(|b| better(v, values[b])) {
                best[1] = Some(i);
            }
        }
        best
    };
    let other = |best: [Option<usize>; 2], i: usize| {
        if best[0] == Some(i) { best[1] } else { best[0] }
    };
    let (fastest, thinnest) =
        (best_two(speeds, |a, b| a > b), best_two(widths, |a, b| a < b));
    let mut limit = h;
    for (i, &speed) in speeds.iter().enumerate() {
        let closing = speed + other(fastest, i).map_or(0.0, |j| speeds[j]);
        let width = other(thinnest, i)
            .map_or(fixture_width, |j| widths[j].min(fixture_width));
        if closing * limit > width {
            limit = width / closing;
        }
    }
    limit
}
// ANCHOR_END: step_limit

/// A convex polyhedron's narrowest width: over its faces, the largest distance of a
/// vertex behind the face's plane, the least of those.
pub fn width(solid: &ConvexPolyhedron) -> f64 {
    let v = solid.vertices();
    (0..solid.faces().len())
        .map(|f| {
            let (n, o) = (solid.normal(f), v[solid.faces()[f][0]]);
            v.iter().map(|p| n.dot(&(o - p))).fold(0.0, f64::max)
        })
        .fold(f64::INFINITY, f64::min)
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
    Ok(())
}

impl World {
    /// An empty world with `settings` (checked: restitution in [0, 1], friction ≥ 0,
    /// positive tolerances and step).
    pub fn new(settings: Settings, fixtures: Vec<Fixture>) -> Result<Self, PbmError> {
        check_settings(&settings)?;
        let spins = fixtures.iter().map(|f| (f.centre, f.spin)).collect();
        let active = Arc::new(Mutex::new(Active {
            held: Vec::new(),
            fixtures: spins,
            mu: if settings.friction < MIN_FRICTION {
                0.0
            } else {
                settings.friction
            },
            h: settings.h,
            previous: None,
            warm_start: true,
            order: settings.order,
            stats: Stats { min_normal_force: f64::INFINITY, ..Stats::default() },
        }));
        Ok(World {
            system: RigidSystem::new(Vec::new())?,
            shapes: Vec::new(),
            fixtures,
            settings,
            active,
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
        self.system = RigidSystem::new(bodies)?;
        self.system.t = t;
        self.system.add_force(Gravity { g: self.settings.gravity })?;
        self.system.add_force(ContactForces(Arc::clone(&self.active)))?;
        self.shapes.push(shape);
        Ok(self.shapes.len() - 1)
    }

    /// Turns Baraff's warm start (last step's clamped set, and for redundant
    /// contacts the forces nearest the last ones) on or off.
    pub fn set_warm_start(&mut self, on: bool) {
        self.lock().warm_start = on;
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Active> {
        self.active.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The bodies.
    pub fn bodies(&self) -> &[RigidBody] {
        &self.system.bodies
    }

    /// The clock (s).
    pub fn time(&self) -> f64 {
        self.system.t
    }

    /// What the solves cost so far.
    pub fn stats(&self) -> Stats {
        self.lock().stats
    }

    /// The normal forces of the last solve (N), in contact order.
    pub fn last_normal_forces(&self) -> Vec<f64> {
        let active = self.lock();
        let Some(sol) = &active.previous else { return Vec::new() };
        let mut out = Vec::new();
        let mut i = 0;
        for _ in &active.held {
            out.push(sol.f[i]);
            i += if active.mu > 0.0 { 3 } else { 1 };
        }
        out
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

    /// Body or fixture k (bodies first, then fixtures) as a polyhedron in world
    /// coordinates (`None` for a ball, or past the last fixture).
    pub fn placed(&self, k: usize) -> Option<ConvexPolyhedron> {
        let n = self.shapes.len();
        if k >= n {
            return self.fixtures.get(k - n).map(|f| f.solid.clone());
        }
        let Shape::Polyhedron(solid) = &self.shapes[k] else { return None };
        let body = &self.system.bodies[k];
        let rotation = Rotation3::from_matrix_unchecked(body.rotation());
        Some(
            solid.placed(
                body.position(),
                UnitQuaternion::from_rotation_matrix(&rotation),
            ),
        )
    }

    /// The step: h, or shorter where a body could pass through another solid within
    /// it ([`step_limit`]).
    fn step_size(&self) -> f64 {
        let bodies = &self.system.bodies;
        let speeds: Vec<f64> = (0..bodies.len())
            .map(|k| {
                let b = &bodies[k];
                b.velocity().norm() + b.angular_velocity().norm() * self.radius(k)
            })
            .collect();
        let widths: Vec<f64> = self
            .shapes
            .iter()
            .map(|shape| match shape {
                Shape::Polyhedron(solid) => width(solid),
                Shape::Ball(r) => 2.0 * r,
            })
            .collect();
        let fixed = self
            .fixtures
            .iter()
            .map(|f| width(&f.solid))
            .fold(f64::INFINITY, f64::min);
        step_limit(self.settings.h, &speeds, &widths, fixed)
    }

    fn radius(&self, k: usize) -> f64 {
        match &self.shapes[k] {
            Shape::Polyhedron(s) => {
                s.vertices().iter().map(|v| v.norm()).fold(0.0, f64::max)
            }
            Shape::Ball(r) => *r,
        }
    }

    /// The pairs worth testing: every two boxes whose bounding spheres come within
    /// the tolerance, and every body with every fixture.
    fn pairs(&self) -> Vec<(usize, usize)> {
        let n = self.shapes.len();
        let eps = self.settings.tolerance;
        let ball = |k: usize| matches!(self.shapes[k], Shape::Ball(_));
        let mut pairs = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                let d = (self.system.bodies[i].position()
                    - self.system.bodies[j].position())
                .norm();
                if !ball(i) && !ball(j) && d <= self.radius(i) + self.radius(j) + eps
                {
                    pairs.push((i, j));
                }
            }
            pairs.extend((0..self.fixtures.len()).map(|k| (i, n + k)));
        }
        pairs
    }

    /// Ball k over `solid`: the gap (m) to the face the centre is farthest outside
    /// of, and that face's outward normal.
    fn ball_gap(&self, k: usize, solid: &ConvexPolyhedron) -> (f64, V3) {
        let c = self.system.bodies[k].position();
        let (mut gap, mut normal) = (f64::NEG_INFINITY, V3::y());
        for (f, face) in solid.faces().iter().enumerate() {
            let n = solid.normal(f);
            let d = n.dot(&(c - solid.vertices()[face[0]]));
            if d > gap {
                (gap, normal) = (d, n);
            }
        }
        (gap - self.radius(k), normal)
    }

    /// How far pair (i, j) interpenetrates (m; negative when apart).
    fn depth(&self, i: usize, j: usize) -> f64 {
        match (self.placed(i), self.placed(j)) {
            (Some(pi), Some(pj)) => -separation(&pi, &pj).0,
            (None, Some(pj)) => -self.ball_gap(i, &pj).0,
            _ => f64::NEG_INFINITY,
        }
    }

    /// The deepest interpenetration of any pair (m, 0 if none).
    fn deepest(&self) -> f64 {
        self.pairs().into_iter().map(|(i, j)| self.depth(i, j)).fold(0.0, f64::max)
    }

    // ANCHOR: detect
    /// The contacts within the tolerance, each with its gap, in the convention of
    /// this chapter (normal out of b, towards a) and held in the bodies' frames.
    fn detect(&self) -> Vec<Found> {
        let eps = self.settings.tolerance;
        let frames = frames_of(&self.system.bodies, &self.lock().fixtures);
        let mut found = Vec::new();
        for (i, j) in self.pairs() {
            if self.depth(i, j) < -eps {
                continue;
            }
            let (Some(pi), Some(pj)) = (self.placed(i), self.placed(j)) else {
                found.extend(self.ball_contact(i, j, &frames));
                continue;
            };
            for c in contacts(&pi, &pj, eps) {
                // Chapter 7's normal points from i to j.
                let (a, b, n, gap, attached) = match c.feature {
                    Feature::VertexFace { vertex_of_b: true, face, .. } => {
                        let o = pi.vertices()[pi.faces()[face][0]];
                        (j, i, c.normal, c.normal.dot(&(c.point - o)), None)
                    }
                    Feature::VertexFace { face, .. } => {
                        let o = pj.vertices()[pj.faces()[face][0]];
                        (i, j, -c.normal, c.normal.dot(&(o - c.point)), None)
                    }
                    Feature::EdgeEdge { edge_a, edge_b, dir_a, dir_b } => {
                        let ([u0, u1], [w0, w1]) =
                            (pi.edges()[edge_a], pj.edges()[edge_b]);
                        let (u0, u1) = (pi.vertices()[u0], pi.vertices()[u1]);
                        let (w0, w1) = (pj.vertices()[w0], pj.vertices()[w1]);
                        let (s, t) = closest_parameters(u0, u1, w0, w1);
                        let gap =
                            c.normal.dot(&(w0 + (w1 - w0) * t - u0 - (u1 - u0) * s));
                        // a = j (its edge dir_b), b = i (dir_a).
                        let sign = dir_b.cross(&dir_a).dot(&c.normal).signum();
                        (j, i, c.normal, gap, Some((dir_b, dir_a, sign)))
                    }
                };
                let (fa, fb) = (&frames[a], &frames[b]);
                let attached = match attached {
                    None => Attached::Face(fb.r.transpose() * n),
                    Some((ea, eb, sign)) => Attached::Edges(
                        fa.r.transpose() * ea,
                        fb.r.transpose() * eb,
                        sign,
                    ),
                };
                let contact = Contact { a, b, p: c.point, n };
                let point = fa.r.transpose() * (c.point - fa.x);
                let tangents = tangents(n, fb);
                let held = Held { a, b, point, attached, tangents };
                found.push(Found { held, contact, gap });
            }
        }
        found
    }
    // ANCHOR_END: detect

    /// Ball i's contact with fixture j, if it is within the tolerance.
    fn ball_contact(&self, i: usize, j: usize, frames: &[Frame]) -> Option<Found> {
        let solid = self.placed(j)?;
        let (gap, n) = self.ball_gap(i, &solid);
        let radius = self.radius(i);
        let fb = &frames[j];
        let attached = Attached::Ball(fb.r.transpose() * n, radius);
        let p = frames[i].x - n * radius;
        let held = Held {
            a: i,
            b: j,
            point: V3::zeros(),
            attached,
            tangents: tangents(n, fb),
        };
        let contact = Contact { a: i, b: j, p, n };
        (gap <= self.settings.tolerance).then_some(Found { held, contact, gap })
    }

    /// Applies impulses `j` (one per contact) to the bodies.
    fn apply_impulses(&mut self, contacts: &[Contact], j: &[f64]) {
        let bodies = &mut self.system.bodies;
        for (c, &j) in contacts.iter().zip(j) {
            for (k, sign) in [(c.a, 1.0), (c.b, -1.0)] {
                if let Some(body) = bodies.get_mut(k) {
                    body.apply_impulse_at(&c.p, &(c.n * (j * sign)));
                }
            }
        }
    }

    // ANCHOR: stop_closing
    /// Resting contacts may still be closing, slower than the resting speed: the
    /// force solve keeps d̈ ≥ 0, so a closing speed it is handed persists, and the
    /// bodies sink at it until the tolerance correction pushes them back, step
    /// after step. Before the step, an inelastic impulse (ε = 0) solved for all of
    /// them together stops that: j ≥ 0, v⁺ = A j + v⁻ ≥ 0, complementary. Speeds
    /// below [`SLOWEST_CLOSING`] are left to the tolerance correction.
    fn stop_closing(&mut self, contacts: &[Contact]) -> Result<(), PbmError> {
        let states = states_of(&self.system.bodies, &self.lock().fixtures);
        let v = DVector::from_iterator(
            contacts.len(),
            contacts.iter().map(|c| relative_velocity(&states, c)),
        );
        if v.iter().all(|&v| v >= -SLOWEST_CLOSING) {
            return Ok(());
        }
        // Four corners on a face make A singular: the same small diagonal as the
        // force solve picks the smallest of the equal answers.
        let mut a = crate::impulse::contact_matrix(&states, contacts);
        let delta = REGULARIZATION * a.diagonal().amax();
        for i in 0..contacts.len() {
            a[(i, i)] += delta;
        }
        let j = solve(&a, &v)?.f;
        self.apply_impulses(contacts, j.as_slice());
        Ok(())
    }
    // ANCHOR_END: stop_closing

    // ANCHOR: correct
    /// Tolerance correction: the smallest displacement, in the kinetic-energy norm
    /// ½ Σ (M |Δx|² + Δθᵀ I Δθ), that opens every gap to at least zero. Moving body
    /// k by Δx = M⁻¹ Σ λ n and Δθ = I⁻¹ Σ (r × λ n) changes gap i by (A λ)ᵢ with the
    /// impulse matrix A, so λ solves the LCP A λ + gap ≥ 0, λ ≥ 0, complementary.
    fn correct(&mut self, found: &[Found]) -> Result<(), PbmError> {
        if found.iter().all(|f| f.gap >= 0.0) {
            return Ok(());
        }
        let states = states_of(&self.system.bodies, &self.lock().fixtures);
        let contacts: Vec<Contact> = found.iter().map(|f| f.contact).collect();
        let a = crate::impulse::contact_matrix(&states, &contacts);
        let gaps = DVector::from_iterator(found.len(), found.iter().map(|f| f.gap));
        let lambda = solve(&a, &gaps)?.f;
        let mut y = state_of(&self.system);
        let size = 13;
        for (k, body) in self.system.bodies.iter().enumerate() {
            let (mut dx, mut dtheta) = (V3::zeros(), V3::zeros());
            for (c, &l) in contacts.iter().zip(lambda.iter()) {
                let sign = if c.a == k {
                    1.0
                } else if c.b == k {
                    -1.0
                } else {
                    continue;
                };
                dx += c.n * (l * sign / body.mass());
                dtheta += body.inverse_inertia()
                    * (c.p - body.position()).cross(&(c.n * (l * sign)));
            }
            let y = &mut y[k * size..(k + 1) * size];
            for d in 0..3 {
                y[d] += dx[d];
            }
            if dtheta.norm() > 0.0 {
                let q = Quat::from_column_slice(&y[3..7]);
                let turned =
                    quat_mul(&quat_from_axis_angle(&dtheta, dtheta.norm()), &q);
                y[3..7].copy_from_slice(turned.normalize().as_slice());
            }
        }
        let t = self.system.t;
        self.system.scatter_state(&y, t);
        self.lock().stats.corrections += 1;
        Ok(())
    }
    // ANCHOR_END: correct

    /// Integrates the bodies over `dt` with RK4, in the world's order.
    fn advance(&mut self, dt: f64) -> Result<(), PbmError> {
        match self.settings.order {
            Order::Second => self.stepper.step(&mut self.system, dt)?,
            Order::First => {
                self.stepper.step(&mut FirstOrder(&mut self.system), dt)?
            }
        };
        Ok(())
    }

    // ANCHOR: step
    /// One step of the loop (see the module's documentation). Returns the time
    /// advanced (s): h, or less when the step stopped at a collision.
    pub fn step(&mut self) -> Result<f64, PbmError> {
        let Settings {
            restitution, resting_speed, bounce_steps, tolerance, h, ..
        } = self.settings;
        let bounce_speed = bounce_steps * self.settings.gravity.norm() * h;
        let found = self.detect();
        // Colliding contacts: impulses, pass after pass, until none is colliding.
        let contacts: Vec<Contact> = found.iter().map(|f| f.contact).collect();
        let mut states = states_of(&self.system.bodies, &self.lock().fixtures);
        let closing = contacts
            .iter()
            .map(|c| -relative_velocity(&states, c))
            .fold(f64::NEG_INFINITY, f64::max);
        if closing > resting_speed {
            let before = self.kinetic_energy();
            let order: Vec<usize> = (0..contacts.len()).collect();
            // A slow impact is an inelastic one: the body settles, not hops.
            let restitution = if closing < bounce_speed { 0.0 } else { restitution };
            // All contacts at once when that makes no energy (always for ε = 0):
            // symmetric contacts get symmetric impulses, so a box landing flat does
            // not come away spinning. Otherwise one at a time, which never does.
            let before_impact: f64 =
                states.iter().map(BodyState::kinetic_energy).sum();
            let mut together = states.clone();
            let resolved = match simultaneous(&mut together, &contacts, restitution) {
                Ok(resolved)
                    if together
                        .iter()
                        .map(BodyState::kinetic_energy)
                        .sum::<f64>()
                        <= before_impact * (1.0 + 1e-12) =>
                {
                    drop(together);
                    resolved
                }
                _ => sequential(
                    &mut states,
                    &contacts,
                    &order,
                    restitution,
                    resting_speed,
                )
                .map_err(|e| e.at_step(self.steps, self.time()))?,
            };
            self.apply_impulses(&contacts, &resolved.impulses);
            let gain = self.kinetic_energy() - before;
            let mut active = self.lock();
            active.stats.impacts += 1;
            active.stats.max_impact_energy_gain = if active.stats.impacts == 1 {
                gain
            } else {
                active.stats.max_impact_energy_gain.max(gain)
            };
        }
        // Resting contacts: held for the step; the rest are parting.
        let states = states_of(&self.system.bodies, &self.lock().fixtures);
        let resting: Vec<&Found> = found
            .iter()
            .filter(|f| relative_velocity(&states, &f.contact) <= resting_speed)
            .collect();
        let contacts: Vec<Contact> = resting.iter().map(|f| f.contact).collect();
        self.stop_closing(&contacts)
            .map_err(|e| e.at_step(self.steps, self.time()))?;
        let held: Vec<Held> = resting.iter().map(|f| f.held).collect();
        {
            let mut active = self.lock();
            let unchanged = active.held.len() == held.len()
                && active
                    .held
                    .iter()
                    .zip(&held)
                    .all(|(x, y)| (x.a, x.b) == (y.a, y.b));
            if !unchanged {
                // A new contact set: last step's answer is no guess for it.
                active.previous = None;
            }
            active.held = held;
        }
        // Shorter than h if some body could pass through a solid within the step.
        let h = self.step_size();
        let y0 = state_of(&self.system);
        let t0 = self.time();
        // A pair already deeper than ε (the correction has not yet pushed it out) is
        // no collision a shorter step could catch: the step is shortened only for
        // a pair that goes deeper than both ε and where the deepest pair starts.
        let limit = found.iter().map(|f| -f.gap).fold(tolerance, f64::max);
        self.advance(h)?;
        let mut taken = h;
        if self.deepest() > limit {
            // Find the collision time by bisection: a step after which the deepest
            // pair is between ¼ε and the limit deep (touching, within the
            // tolerance), or the longest step found that goes no deeper.
            let (mut lo, mut hi) = (0.0, h);
            let mut at_lo = false;
            for _ in 0..30 {
                let mid = 0.5 * (lo + hi);
                self.system.scatter_state(&y0, t0);
                self.advance(mid)?;
                let depth = self.deepest();
                if depth > limit {
                    hi = mid;
                    at_lo = false;
                } else {
                    lo = mid;
                    at_lo = true;
                    if depth >= 0.25 * tolerance {
                        break;
                    }
                }
            }
            if lo > 0.0 {
                if !at_lo {
                    self.system.scatter_state(&y0, t0);
                    self.advance(lo)?;
                }
                taken = lo;
                self.lock().stats.shortened += 1;
            } else {
                // Every shorter step goes as deep: the pair is closing from the
                // start. Take the whole step and let the correction separate it,
                // rather than a sliver of a step that leaves time standing still.
                self.system.scatter_state(&y0, t0);
                self.advance(h)?;
            }
        }
        let after = self.detect();
        self.correct(&after).map_err(|e| e.at_step(self.steps, self.time()))?;
        if !state_of(&self.system).iter().all(|v| v.is_finite()) {
            return Err(PbmError::Diverged { step: self.steps, time: t0 });
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
            self.step()?;
            taken += 1;
            each(self);
        }
        Ok(())
    }

    /// The error of a run that has spent its step budget.
    fn stalled(&self, t_end: f64) -> PbmError {
        let deepest = self
            .pairs()
            .into_iter()
            .map(|(i, j)| (i, j, self.depth(i, j)))
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
