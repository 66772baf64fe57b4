//! The rigid body in the plane, for Baraff's interactive simulator (chapter 11): the
//! 3-D body of this chapter with its rotation restricted to the z axis. The
//! orientation is one angle θ, the inertia tensor one number I (the moment about the
//! centre of mass), and angular momentum and torque are scalars: the z components of
//! their 3-D selves. The state is (x, y, θ, P_x, P_y, L), six numbers, and its
//! derivative is (v, ω, F, τ).

use crate::body::{Body, RigidSystem};
use nalgebra::{Matrix2, Vector2};
use pbm_prelim::PbmError;
use pbm_prelim::validate::{all_finite, finite, positive};

/// Numbers per body in the state vector.
pub const STATE_SIZE: usize = 6;

// ANCHOR: cross2
/// The plane's cross product: the z component of (a_x, a_y, 0) × (b_x, b_y, 0).
pub fn cross2(a: &Vector2<f64>, b: &Vector2<f64>) -> f64 {
    a.x * b.y - a.y * b.x
}

/// ω × r for an angular velocity ω about z: (−ω r_y, ω r_x).
pub fn spin2(omega: f64, r: &Vector2<f64>) -> Vector2<f64> {
    Vector2::new(-omega * r.y, omega * r.x)
}
// ANCHOR_END: cross2

/// The rotation by θ: [[cos θ, −sin θ], [sin θ, cos θ]].
pub fn rotation2(theta: f64) -> Matrix2<f64> {
    let (s, c) = theta.sin_cos();
    Matrix2::new(c, -s, s, c)
}

/// Everything needed to make a planar body, with defaults for what is not said.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RigidBody2Def {
    /// Mass M (kg). Default 1.
    pub mass: f64,
    /// Moment of inertia about the centre of mass (kg m²). Default 1.
    pub inertia: f64,
    /// Position of the centre of mass (m). Default: the origin.
    pub position: Vector2<f64>,
    /// Angle θ from the world axes, counter-clockwise (rad). Default 0.
    pub angle: f64,
    /// Velocity of the centre of mass (m/s). Default: at rest.
    pub velocity: Vector2<f64>,
    /// Angular velocity ω, counter-clockwise (rad/s). Default 0.
    pub angular_velocity: f64,
}

impl Default for RigidBody2Def {
    fn default() -> Self {
        RigidBody2Def {
            mass: 1.0,
            inertia: 1.0,
            position: Vector2::zeros(),
            angle: 0.0,
            velocity: Vector2::zeros(),
            angular_velocity: 0.0,
        }
    }
}

/// One rigid body in the plane.
#[derive(Debug, Clone)]
pub struct RigidBody2 {
    // Constant quantities.
    mass: f64,
    inertia: f64,
    // State variables.
    x: Vector2<f64>,
    theta: f64,
    p: Vector2<f64>,
    l: f64,
    // Auxiliary quantities: v = P/M, ω = L/I.
    v: Vector2<f64>,
    omega: f64,
    // Computed quantities, accumulated by force objects.
    force: Vector2<f64>,
    torque: f64,
}

impl RigidBody2 {
    /// The body `def` describes. Fails unless mass and inertia are positive and
    /// everything is finite.
    pub fn new(def: RigidBody2Def) -> Result<Self, PbmError> {
        let mass = positive("planar rigid body", "mass", def.mass)?;
        let inertia = positive("planar rigid body", "inertia", def.inertia)?;
        all_finite("planar rigid body", "position", def.position.iter().copied())?;
        all_finite("planar rigid body", "velocity", def.velocity.iter().copied())?;
        let theta = finite("planar rigid body", "angle", def.angle)?;
        let omega =
            finite("planar rigid body", "angular velocity", def.angular_velocity)?;
        let mut body = RigidBody2 {
            mass,
            inertia,
            x: def.position,
            theta,
            p: def.velocity * mass,
            l: inertia * omega,
            v: Vector2::zeros(),
            omega: 0.0,
            force: Vector2::zeros(),
            torque: 0.0,
        };
        body.update_auxiliaries();
        Ok(body)
    }

    /// The mass M.
    pub fn mass(&self) -> f64 {
        self.mass
    }

    /// The moment of inertia I about the centre of mass.
    pub fn inertia(&self) -> f64 {
        self.inertia
    }

    /// Position of the centre of mass (m).
    pub fn position(&self) -> Vector2<f64> {
        self.x
    }

    /// The angle θ (rad).
    pub fn angle(&self) -> f64 {
        self.theta
    }

    /// Linear momentum P (kg m/s).
    pub fn momentum(&self) -> Vector2<f64> {
        self.p
    }

    /// Angular momentum L = I ω (kg m²/s).
    pub fn angular_momentum(&self) -> f64 {
        self.l
    }

    /// Velocity of the centre of mass, P/M (m/s).
    pub fn velocity(&self) -> Vector2<f64> {
        self.v
    }

    /// Angular velocity ω = L/I (rad/s).
    pub fn angular_velocity(&self) -> f64 {
        self.omega
    }

    /// The accumulated force (N).
    pub fn force(&self) -> Vector2<f64> {
        self.force
    }

    /// The accumulated torque about the centre of mass (N m).
    pub fn torque(&self) -> f64 {
        self.torque
    }

    fn update_auxiliaries(&mut self) {
        self.v = self.p / self.mass;
        self.omega = self.l / self.inertia;
    }

    /// Adds a force `f` acting at the world-space point `p`: to the force as it is,
    /// to the torque as (p − x) × f.
    pub fn apply_force_at(&mut self, p: &Vector2<f64>, f: &Vector2<f64>) {
        self.force += f;
        self.torque += cross2(&(p - self.x), f);
    }

    /// Applies an impulse `j` at the world-space point `p`: ΔP = j, ΔL = (p − x) × j.
    pub fn apply_impulse_at(&mut self, p: &Vector2<f64>, j: &Vector2<f64>) {
        self.p += j;
        self.l += cross2(&(p - self.x), j);
        self.update_auxiliaries();
    }
    /// Changes the momenta by ΔP = `dp` (N s) and ΔL = `dl` (N m s) at once: what
    /// many [`RigidBody2::apply_impulse_at`] calls add up to, or a force and torque
    /// acting for a time, with one update of the velocities.
    pub fn apply_momentum(&mut self, dp: &Vector2<f64>, dl: f64) {
        self.p += dp;
        self.l += dl;
        self.update_auxiliaries();
    }

    /// Adds a pure torque `tau` (N m): a couple, which moves no centre of mass.
    pub fn apply_torque(&mut self, tau: f64) {
        self.torque += tau;
    }

    /// Where the body-space point `p0` is in world space: R(θ) p₀ + x.
    pub fn world_point(&self, p0: &Vector2<f64>) -> Vector2<f64> {
        rotation2(self.theta) * p0 + self.x
    }

    /// Velocity of the world-space point p of the body: v + ω × (p − x).
    pub fn point_velocity(&self, p: &Vector2<f64>) -> Vector2<f64> {
        self.v + spin2(self.omega, &(p - self.x))
    }
}

impl Body for RigidBody2 {
    type Vector = Vector2<f64>;
    fn mass(&self) -> f64 {
        self.mass
    }
    fn add_force(&mut self, f: &Vector2<f64>) {
        self.force += f;
    }
    fn apply_force_at(&mut self, p: &Vector2<f64>, f: &Vector2<f64>) {
        RigidBody2::apply_force_at(self, p, f);
    }
    fn world_point(&self, p0: &Vector2<f64>) -> Vector2<f64> {
        RigidBody2::world_point(self, p0)
    }
    fn state_size(&self) -> usize {
        STATE_SIZE
    }
    fn clear_accumulators(&mut self) {
        self.force = Vector2::zeros();
        self.torque = 0.0;
    }
    /// Kinetic energy ½ (P·v + L ω).
    fn kinetic_energy(&self) -> f64 {
        0.5 * (self.p.dot(&self.v) + self.l * self.omega)
    }

    // ANCHOR: state2
    /// Copies the state (x, y, θ, P_x, P_y, L) into `y`.
    fn write_state(&self, y: &mut [f64]) {
        y.copy_from_slice(&[
            self.x.x, self.x.y, self.theta, self.p.x, self.p.y, self.l,
        ]);
    }

    /// Installs the state from `y` and recomputes v and ω.
    fn read_state(&mut self, y: &[f64]) {
        self.x = Vector2::new(y[0], y[1]);
        self.theta = y[2];
        self.p = Vector2::new(y[3], y[4]);
        self.l = y[5];
        self.update_auxiliaries();
    }

    /// Writes d/dt (x, θ, P, L) = (v, ω, F, τ) into `ydot`.
    fn write_derivative(&self, ydot: &mut [f64]) {
        ydot.copy_from_slice(&[
            self.v.x,
            self.v.y,
            self.omega,
            self.force.x,
            self.force.y,
            self.torque,
        ]);
    }
    // ANCHOR_END: state2
}

/// Uniform gravity on planar bodies: chapter 6's [`Gravity`](crate::body::Gravity).
pub type Gravity2 = crate::body::Gravity<RigidBody2>;

/// A force on a planar body at a point fixed in it: chapter 6's
/// [`PointForce`](crate::body::PointForce).
pub type PointForce2 = crate::body::PointForce<RigidBody2>;

/// Planar bodies and the forces on them, as one ODE system: chapter 6's system of
/// bodies.
pub type RigidSystem2 = RigidSystem<RigidBody2>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_impulse_off_centre_spins_as_well_as_pushes() {
        let mut b = RigidBody2::new(RigidBody2Def {
            mass: 2.0,
            inertia: 0.5,
            ..Default::default()
        })
        .unwrap();
        // 1 N s along y at 0.5 m along x: Δv = 0.5 m/s, ΔL = 0.5 × 1 = 0.5, Δω = 1
        // rad/s.
        b.apply_impulse_at(&Vector2::new(0.5, 0.0), &Vector2::new(0.0, 1.0));
        assert_eq!(b.velocity(), Vector2::new(0.0, 0.5));
        assert_eq!(b.angular_velocity(), 1.0);
        // The point hit now moves at v + ω × r = (0, 0.5) + (0, 0.5).
        assert_eq!(b.point_velocity(&Vector2::new(0.5, 0.0)), Vector2::new(0.0, 1.0));
        // The same change of momenta at once, from rest: the same velocities.
        let mut c = RigidBody2::new(RigidBody2Def {
            mass: 2.0,
            inertia: 0.5,
            ..Default::default()
        })
        .unwrap();
        c.apply_momentum(&Vector2::new(0.0, 1.0), 0.5);
        assert_eq!((c.velocity(), c.angular_velocity()), (b.velocity(), 1.0));
        assert!(
            RigidBody2::new(RigidBody2Def { inertia: 0.0, ..Default::default() })
                .is_err()
        );
        assert!(
            RigidBody2::new(RigidBody2Def { angle: f64::NAN, ..Default::default() })
                .is_err()
        );
    }
}
