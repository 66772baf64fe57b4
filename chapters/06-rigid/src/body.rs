//! A rigid body as the solver sees it (notes, "Rigid Body Simulation", sections 2 to
//! 4): a state of position, orientation, linear and angular momentum; constants mass
//! and I_body; auxiliary quantities v, I⁻¹ and ω recomputed from the state; force and
//! torque accumulated on every derivative evaluation.

use crate::mass::MassProperties;
use crate::rotation::{
    Quat, orthogonality_error, quat_derivative, quat_to_matrix, star,
};
use nalgebra::{Matrix3, UnitQuaternion, Vector3};
use pbm_ode::system::OdeSystem;
use pbm_prelim::PbmError;
use pbm_prelim::parallel::{for_each_mut, zip_chunks, zip_chunks_mut};
use pbm_prelim::validate::{all_finite, indices, positive};

/// How the orientation is stored in the state vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Representation {
    /// The 3 × 3 rotation matrix R: 18 numbers per body.
    Matrix,
    /// A unit quaternion q: 13 numbers per body.
    Quaternion,
}

impl Representation {
    /// Numbers per body in the state vector.
    pub fn state_size(self) -> usize {
        match self {
            Representation::Matrix => 18,
            Representation::Quaternion => 13,
        }
    }
}

/// The orientation as stored: possibly drifted away from a true rotation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Orientation {
    /// R, integrated directly with Ṙ = ω* R.
    Matrix(Matrix3<f64>),
    /// q, integrated with q̇ = ½ ω q.
    Quaternion(Quat),
}

// ANCHOR: body_def
/// Everything needed to make a body, with defaults for what is not said (after
/// Box2D's `b2BodyDef`): write `RigidBodyDef { angular_velocity: w,
/// ..RigidBodyDef::of(&props) }`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RigidBodyDef {
    /// Mass M (kg). Default 1.
    pub mass: f64,
    /// Inertia tensor I_body about the centre of mass, in body coordinates (kg m²).
    /// Default: the identity.
    pub inertia: Matrix3<f64>,
    /// Position of the centre of mass (m). Default: the origin.
    pub position: Vector3<f64>,
    /// Orientation, a unit quaternion (nalgebra's, as at every boundary of the book's
    /// crates). Default: unrotated.
    pub orientation: UnitQuaternion<f64>,
    /// Velocity of the centre of mass (m/s). Default: at rest.
    pub velocity: Vector3<f64>,
    /// Angular velocity in world coordinates (rad/s). Default: not spinning.
    pub angular_velocity: Vector3<f64>,
    /// How the state stores the orientation. Default: a quaternion.
    pub representation: Representation,
}
// ANCHOR_END: body_def

impl Default for RigidBodyDef {
    fn default() -> Self {
        RigidBodyDef {
            mass: 1.0,
            inertia: Matrix3::identity(),
            position: Vector3::zeros(),
            orientation: UnitQuaternion::identity(),
            velocity: Vector3::zeros(),
            angular_velocity: Vector3::zeros(),
            representation: Representation::Quaternion,
        }
    }
}

impl RigidBodyDef {
    /// The defaults with the mass and inertia of `props` (its inertia about its
    /// centre).
    pub fn of(props: &MassProperties) -> Self {
        RigidBodyDef { mass: props.mass, inertia: props.inertia, ..Self::default() }
    }
}

// ANCHOR: rigid_body
/// One rigid body. Its state can be read but not written piecemeal: the auxiliary
/// quantities are derived from the state, and writing one without the others would
/// leave them stale.
#[derive(Debug, Clone)]
pub struct RigidBody {
    // Constant quantities.
    mass: f64,
    i_body: Matrix3<f64>,
    i_body_inv: Matrix3<f64>,
    // State variables.
    /// Position of the centre of mass, x(t) (m).
    x: Vector3<f64>,
    /// Orientation: R(t) or q(t).
    orientation: Orientation,
    /// Linear momentum P(t) = M v (kg m/s).
    p: Vector3<f64>,
    /// Angular momentum L(t) = I ω (kg m²/s).
    l: Vector3<f64>,
    // Auxiliary quantities, computed from the state by `update_auxiliaries`.
    /// The rotation used for everything else: R itself, or the matrix of q/|q|.
    r: Matrix3<f64>,
    /// I⁻¹(t) = R I_body⁻¹ Rᵀ.
    i_inv: Matrix3<f64>,
    /// v(t) = P / M.
    v: Vector3<f64>,
    /// ω(t) = I⁻¹ L.
    omega: Vector3<f64>,
    // Computed quantities, accumulated by force objects.
    /// Total force F(t) (N).
    force: Vector3<f64>,
    /// Total torque τ(t) about the centre of mass (N m).
    torque: Vector3<f64>,
}
// ANCHOR_END: rigid_body

impl RigidBody {
    /// The body `def` describes. Fails unless the mass is positive, the inertia
    /// tensor symmetric positive definite, the orientation a unit quaternion and
    /// everything finite.
    pub fn new(def: RigidBodyDef) -> Result<Self, PbmError> {
        let RigidBodyDef {
            mass, inertia: i_body, position: x, orientation: q, ..
        } = def;
        let mass = positive("rigid body", "mass", mass)?;
        all_finite("rigid body", "inertia tensor", i_body.iter().copied())?;
        let symmetric = (i_body - i_body.transpose()).norm() <= 1e-12 * i_body.norm();
        let i_body_inv = i_body.cholesky().map(|c| c.inverse());
        let (Some(i_body_inv), true) = (i_body_inv, symmetric) else {
            return Err(PbmError::invalid(
                "rigid body",
                "the inertia tensor must be symmetric positive definite",
            ));
        };
        all_finite("rigid body", "position", x.iter().copied())?;
        all_finite("rigid body", "orientation", q.coords.iter().copied())?;
        all_finite("rigid body", "velocity", def.velocity.iter().copied())?;
        all_finite(
            "rigid body",
            "angular velocity",
            def.angular_velocity.iter().copied(),
        )?;
        // The state stores the quaternion as four numbers (w, x, y, z), the form the
        // chapter's q̇ = ½ ω q multiplies out by hand.
        let q = Quat::new(q.w, q.i, q.j, q.k);
        if (q.norm() - 1.0).abs() > 1e-9 {
            return Err(PbmError::invalid(
                "rigid body",
                "the orientation is not a unit quaternion",
            ));
        }
        let r = quat_to_matrix(&q);
        let orientation = match def.representation {
            Representation::Matrix => Orientation::Matrix(r),
            Representation::Quaternion => Orientation::Quaternion(q),
        };
        let mut body = RigidBody {
            mass,
            i_body,
            i_body_inv,
            x,
            orientation,
            p: def.velocity * mass,
            l: r * i_body * r.transpose() * def.angular_velocity,
            r,
            i_inv: Matrix3::zeros(),
            v: Vector3::zeros(),
            omega: Vector3::zeros(),
            force: Vector3::zeros(),
            torque: Vector3::zeros(),
        };
        body.update_auxiliaries();
        Ok(body)
    }

    /// The mass M.
    pub fn mass(&self) -> f64 {
        self.mass
    }

    /// The body-space inertia tensor I_body.
    pub fn i_body(&self) -> &Matrix3<f64> {
        &self.i_body
    }

    /// Position of the centre of mass, x (m).
    pub fn position(&self) -> Vector3<f64> {
        self.x
    }

    /// The orientation as stored (possibly drifted from a rotation).
    pub fn orientation(&self) -> Orientation {
        self.orientation
    }

    /// Linear momentum P (kg m/s).
    pub fn momentum(&self) -> Vector3<f64> {
        self.p
    }

    /// Angular momentum L (kg m²/s).
    pub fn angular_momentum(&self) -> Vector3<f64> {
        self.l
    }

    /// The rotation R used for everything else.
    pub fn rotation(&self) -> Matrix3<f64> {
        self.r
    }

    /// I⁻¹ = R I_body⁻¹ Rᵀ.
    pub fn inverse_inertia(&self) -> Matrix3<f64> {
        self.i_inv
    }

    /// Velocity of the centre of mass, v = P/M (m/s).
    pub fn velocity(&self) -> Vector3<f64> {
        self.v
    }

    /// Angular velocity ω = I⁻¹ L (rad/s).
    pub fn angular_velocity(&self) -> Vector3<f64> {
        self.omega
    }

    /// The force accumulated since the accumulators were last cleared (N).
    pub fn force(&self) -> Vector3<f64> {
        self.force
    }

    /// The torque about the centre of mass accumulated since then (N m).
    pub fn torque(&self) -> Vector3<f64> {
        self.torque
    }

    /// Adds a force acting at the centre of mass: no torque.
    pub fn apply_force(&mut self, f: &Vector3<f64>) {
        self.force += f;
    }

    // ANCHOR: impulse_at
    /// Applies an impulse `j` (N s) at the world-space point `p`: the momenta jump,
    /// ΔP = j and ΔL = (p − x) × j, and the velocities follow at once (chapter 8's
    /// collisions).
    pub fn apply_impulse_at(&mut self, p: &Vector3<f64>, j: &Vector3<f64>) {
        self.p += j;
        self.l += (p - self.x).cross(j);
        self.update_velocities();
    }
    // ANCHOR_END: impulse_at

    /// Changes the momenta by ΔP = `dp` (N s) and ΔL = `dl` (N m s) at once, and the
    /// velocities follow: what many [`RigidBody::apply_impulse_at`] calls add up to
    /// (ΔL = Σ (p − x) × j), with one update instead of one per impulse.
    pub fn apply_momentum(&mut self, dp: &Vector3<f64>, dl: &Vector3<f64>) {
        self.p += dp;
        self.l += dl;
        self.update_velocities();
    }

    /// v = P / M and ω = I⁻¹ L after the momenta changed and the orientation did not:
    /// R and I⁻¹ stand as [`RigidBody::update_auxiliaries`] left them.
    fn update_velocities(&mut self) {
        self.v = self.p / self.mass;
        self.omega = self.i_inv * self.l;
    }

    /// How the orientation is stored.
    pub fn representation(&self) -> Representation {
        match self.orientation {
            Orientation::Matrix(_) => Representation::Matrix,
            Orientation::Quaternion(_) => Representation::Quaternion,
        }
    }

    // ANCHOR: auxiliaries
    /// Recomputes v, R (from q if need be), I⁻¹ and ω from the state (equation 2-42).
    pub fn update_auxiliaries(&mut self) {
        self.r = match self.orientation {
            Orientation::Matrix(r) => r,
            Orientation::Quaternion(q) => quat_to_matrix(&q.normalize()),
        };
        self.v = self.p / self.mass;
        self.i_inv = self.r * self.i_body_inv * self.r.transpose();
        self.omega = self.i_inv * self.l;
    }
    // ANCHOR_END: auxiliaries

    // ANCHOR: force_at
    /// Adds a force `f` acting at the world-space point `p`: it adds to the total
    /// force as it is, and to the torque as (p − x) × f.
    pub fn apply_force_at(&mut self, p: &Vector3<f64>, f: &Vector3<f64>) {
        self.force += f;
        self.torque += (p - self.x).cross(f);
    }
    // ANCHOR_END: force_at

    /// Where the body-space point `p0` is in world space: R p₀ + x.
    pub fn world_point(&self, p0: &Vector3<f64>) -> Vector3<f64> {
        self.r * p0 + self.x
    }

    /// Velocity of the world-space point p of the body: v + ω × (p − x).
    pub fn point_velocity(&self, p: &Vector3<f64>) -> Vector3<f64> {
        self.v + self.omega.cross(&(p - self.x))
    }

    /// ω in body coordinates, Rᵀ ω: what an observer riding on the body sees.
    pub fn body_omega(&self) -> Vector3<f64> {
        self.r.transpose() * self.omega
    }

    /// How far the stored orientation is from a rotation: ‖RᵀR − I‖ for a matrix,
    /// | |q| − 1 | for a quaternion.
    pub fn orientation_error(&self) -> f64 {
        match self.orientation {
            Orientation::Matrix(r) => orthogonality_error(&r),
            Orientation::Quaternion(q) => (q.norm() - 1.0).abs(),
        }
    }

    // ANCHOR: renormalize
    /// Puts the stored orientation back on the rotations: q/|q| for a quaternion; for
    /// a matrix, Gram–Schmidt on its columns (more work, and it favours the first
    /// column).
    pub fn renormalize(&mut self) {
        match &mut self.orientation {
            Orientation::Quaternion(q) => *q = q.normalize(),
            Orientation::Matrix(r) => {
                let c0 = r.column(0).normalize();
                let c1 = (r.column(1) - c0 * c0.dot(&r.column(1))).normalize();
                let c2 = c0.cross(&c1);
                *r = Matrix3::from_columns(&[c0, c1, c2]);
            }
        }
        self.update_auxiliaries();
    }
    // ANCHOR_END: renormalize
}

/// What a system of bodies needs from each body: its slice of the state vector (read
/// and written), its slice of the derivative, accumulators to clear before forces
/// act, and its kinetic energy. The 3-D body below and the planar body of `body2d`
/// are both bodies.
pub trait Body: Clone + Send + Sync {
    /// Numbers this body occupies in the state vector.
    fn state_size(&self) -> usize;
    /// Copies the body's state into `y`.
    fn write_state(&self, y: &mut [f64]);
    /// Installs the state from `y` and recomputes the auxiliary quantities.
    fn read_state(&mut self, y: &[f64]);
    /// Writes the derivative of the state into `ydot`.
    fn write_derivative(&self, ydot: &mut [f64]);
    /// Clears the force and torque accumulators.
    fn clear_accumulators(&mut self);
    /// Kinetic energy (J).
    fn kinetic_energy(&self) -> f64;
    /// A point or a force in the body's space: `Vector3` in 3-D, `Vector2` in the
    /// plane.
    type Vector: Copy + Send + Sync + std::ops::Mul<f64, Output = Self::Vector>;
    /// Mass (kg).
    fn mass(&self) -> f64;
    /// Adds `f` to the force on the centre of mass (no torque).
    fn add_force(&mut self, f: &Self::Vector);
    /// Adds `f` acting at the world-space point `p`: to the force, and to the torque
    /// as (p − x) × f.
    fn apply_force_at(&mut self, p: &Self::Vector, f: &Self::Vector);
    /// Where the body-space point `p0` is in world space.
    fn world_point(&self, p0: &Self::Vector) -> Self::Vector;
}

impl Body for RigidBody {
    type Vector = Vector3<f64>;
    fn mass(&self) -> f64 {
        self.mass
    }
    fn add_force(&mut self, f: &Vector3<f64>) {
        self.force += f;
    }
    fn apply_force_at(&mut self, p: &Vector3<f64>, f: &Vector3<f64>) {
        RigidBody::apply_force_at(self, p, f);
    }
    fn world_point(&self, p0: &Vector3<f64>) -> Vector3<f64> {
        RigidBody::world_point(self, p0)
    }
    fn state_size(&self) -> usize {
        self.representation().state_size()
    }
    fn clear_accumulators(&mut self) {
        self.force = Vector3::zeros();
        self.torque = Vector3::zeros();
    }
    /// Kinetic energy ½ M v·v + ½ ωᵀ I ω = ½ (P·v + L·ω) (appendix C).
    fn kinetic_energy(&self) -> f64 {
        0.5 * (self.p.dot(&self.v) + self.l.dot(&self.omega))
    }

    // ANCHOR: state
    /// Copies the state (x, R or q, P, L) into `y`.
    fn write_state(&self, y: &mut [f64]) {
        y[0..3].copy_from_slice(self.x.as_slice());
        let n = match self.orientation {
            Orientation::Matrix(r) => {
                // Row by row, as the notes do.
                for i in 0..3 {
                    for j in 0..3 {
                        y[3 + 3 * i + j] = r[(i, j)];
                    }
                }
                12
            }
            Orientation::Quaternion(q) => {
                y[3..7].copy_from_slice(q.as_slice());
                7
            }
        };
        y[n..n + 3].copy_from_slice(self.p.as_slice());
        y[n + 3..n + 6].copy_from_slice(self.l.as_slice());
    }

    /// Installs the state from `y` and recomputes the auxiliary quantities.
    fn read_state(&mut self, y: &[f64]) {
        self.x = Vector3::from_column_slice(&y[0..3]);
        let n = match &mut self.orientation {
            Orientation::Matrix(r) => {
                *r = Matrix3::from_row_slice(&y[3..12]);
                12
            }
            Orientation::Quaternion(q) => {
                *q = Quat::from_column_slice(&y[3..7]);
                7
            }
        };
        self.p = Vector3::from_column_slice(&y[n..n + 3]);
        self.l = Vector3::from_column_slice(&y[n + 3..n + 6]);
        self.update_auxiliaries();
    }
    // ANCHOR_END: state

    // ANCHOR: state_derivative
    /// Writes d/dt (x, R or q, P, L) = (v, ω* R or ½ ω q, F, τ) into `ydot`.
    fn write_derivative(&self, ydot: &mut [f64]) {
        ydot[0..3].copy_from_slice(self.v.as_slice());
        let n = match self.orientation {
            Orientation::Matrix(r) => {
                let r_dot = star(&self.omega) * r;
                for i in 0..3 {
                    for j in 0..3 {
                        ydot[3 + 3 * i + j] = r_dot[(i, j)];
                    }
                }
                12
            }
            Orientation::Quaternion(q) => {
                ydot[3..7]
                    .copy_from_slice(quat_derivative(&self.omega, &q).as_slice());
                7
            }
        };
        ydot[n..n + 3].copy_from_slice(self.force.as_slice());
        ydot[n + 3..n + 6].copy_from_slice(self.torque.as_slice());
    }
    // ANCHOR_END: state_derivative
}

/// Something that adds forces and torques to bodies (3-D ones unless said otherwise).
pub trait BodyForce<B = RigidBody>: Send + Sync {
    /// What it is, for error messages.
    fn name(&self) -> &'static str;
    /// The bodies it acts on by index (checked when it is added); empty if it acts on
    /// all.
    fn bodies(&self) -> &[usize] {
        &[]
    }
    /// Adds this object's forces at time `t` into the bodies' accumulators.
    fn apply(&self, t: f64, bodies: &mut [B]) -> Result<(), PbmError>;
}

/// Uniform gravity: M g at every centre of mass (section 5.2: it exerts no torque),
/// on 3-D bodies or planar ones alike.
pub struct Gravity<B: Body = RigidBody> {
    /// Acceleration of gravity (m/s²).
    pub g: B::Vector,
}

impl<B: Body> BodyForce<B> for Gravity<B> {
    fn name(&self) -> &'static str {
        "gravity"
    }
    fn apply(&self, _t: f64, bodies: &mut [B]) -> Result<(), PbmError> {
        for_each_mut(bodies, |b| {
            let weight = self.g * b.mass();
            b.add_force(&weight);
        });
        Ok(())
    }
}

/// A constant world-space force on one body, acting at a point fixed in the body, for
/// a limited time (`until` = ∞ for all time).
pub struct PointForce<B: Body = RigidBody> {
    /// Index of the body (one element, so it can be lent as a slice).
    pub body: [usize; 1],
    /// Where it acts, in body coordinates (relative to the centre of mass).
    pub point: B::Vector,
    /// The force, in world coordinates (N).
    pub force: B::Vector,
    /// It acts while t < until.
    pub until: f64,
}

impl<B: Body> BodyForce<B> for PointForce<B> {
    fn name(&self) -> &'static str {
        "point force"
    }
    fn bodies(&self) -> &[usize] {
        &self.body
    }
    fn apply(&self, t: f64, bodies: &mut [B]) -> Result<(), PbmError> {
        if t < self.until {
            let b = &mut bodies[self.body[0]];
            let p = b.world_point(&self.point);
            b.apply_force_at(&p, &self.force);
        }
        Ok(())
    }
}

/// Bodies and the forces on them, as one ODE system.
pub struct RigidSystem<B = RigidBody> {
    /// The bodies, all with the same state size (for 3-D bodies: one representation).
    pub bodies: Vec<B>,
    forces: Vec<Box<dyn BodyForce<B>>>,
    state_size: usize,
    /// The clock (s).
    pub t: f64,
}

impl<B: Body> RigidSystem<B> {
    /// A system of `bodies`, which must all take the same number of state variables
    /// (3-D bodies must all store their orientation the same way).
    pub fn new(bodies: Vec<B>) -> Result<Self, PbmError> {
        let state_size = bodies.first().map_or(0, Body::state_size);
        if bodies.iter().any(|b| b.state_size() != state_size) {
            return Err(PbmError::invalid(
                "rigid system",
                "all bodies must store their orientation the same way",
            ));
        }
        Ok(RigidSystem { bodies, forces: Vec::new(), state_size, t: 0.0 })
    }

    /// Adds a force object, after checking that the bodies it names exist.
    pub fn add_force(
        &mut self,
        force: impl BodyForce<B> + 'static,
    ) -> Result<(), PbmError> {
        indices(force.name(), "body", force.bodies(), self.bodies.len())?;
        self.forces.push(Box::new(force));
        Ok(())
    }

    /// Total kinetic energy.
    pub fn kinetic_energy(&self) -> f64 {
        self.bodies.iter().map(Body::kinetic_energy).sum()
    }
}

impl RigidSystem<RigidBody> {
    /// Puts every orientation back on the rotations.
    pub fn renormalize(&mut self) {
        self.bodies.iter_mut().for_each(RigidBody::renormalize);
    }
}

// ANCHOR: ode_system
impl<B: Body> OdeSystem for RigidSystem<B> {
    fn dimension(&self) -> usize {
        self.state_size * self.bodies.len()
    }
    fn time(&self) -> f64 {
        self.t
    }
    fn gather_state(&self, y: &mut [f64]) {
        let n = self.state_size;
        self.bodies
            .iter()
            .zip(y.chunks_exact_mut(n))
            .for_each(|(b, y)| b.write_state(y));
    }
    fn scatter_state(&mut self, y: &[f64], t: f64) {
        // Each body reads its own slice: independent work, done in parallel.
        zip_chunks(&mut self.bodies, y, self.state_size, |b, y| b.read_state(y));
        self.t = t;
    }
    fn derivative(&mut self, ydot: &mut [f64]) -> Result<(), PbmError> {
        for_each_mut(&mut self.bodies, B::clear_accumulators);
        for f in &self.forces {
            f.apply(self.t, &mut self.bodies)?;
        }
        zip_chunks_mut(&self.bodies, ydot, self.state_size, |b, ydot| {
            b.write_derivative(ydot)
        });
        Ok(())
    }
}
// ANCHOR_END: ode_system
