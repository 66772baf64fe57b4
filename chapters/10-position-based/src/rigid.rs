//! Rigid bodies moved by positions (Müller's slides, "PBD Algorithm for Rigid
//! Bodies" to "XPBD Algorithm for Rigid Bodies"; Müller et al. 2020, section 3): a
//! body is a centre of mass that moves like a particle plus an orientation q that
//! moves like one too. A positional impulse P at a point p of the body shifts the
//! centre by P/m and turns the body by I⁻¹(r × P); its generalized inverse mass
//! says how far the point itself moves along a direction per unit of impulse.

use nalgebra::{Matrix3, Vector3};
use pbm_prelim::PbmError;
use pbm_prelim::validate::all_finite;
use pbm_rigid::mass::MassProperties;
use pbm_rigid::rotation::{Quat, quat_mul, quat_to_matrix};

/// How far from 1 a quaternion's length may be for the body to accept it.
pub const UNIT_TOLERANCE: f64 = 1e-9;

/// One rigid body with the state PBD keeps: pose, velocities, and the pose at the
/// start of the current step.
#[derive(Debug, Clone)]
pub struct Body {
    inverse_mass: f64,
    inertia_body: Matrix3<f64>,
    inverse_inertia_body: Matrix3<f64>,
    /// Position of the centre of mass (m).
    pub x: Vector3<f64>,
    /// Velocity of the centre of mass (m/s).
    pub v: Vector3<f64>,
    /// Orientation, a unit quaternion [s, v_x, v_y, v_z] (chapter 6's convention).
    q: Quat,
    /// Angular velocity in world coordinates (rad/s).
    pub omega: Vector3<f64>,
    previous_x: Vector3<f64>,
    previous_q: Quat,
}

fn unit(q: &Quat) -> Result<Quat, PbmError> {
    all_finite("rigid body", "orientation", q.iter().copied())?;
    if (q.norm() - 1.0).abs() > UNIT_TOLERANCE {
        return Err(PbmError::invalid(
            "rigid body",
            format!(
                "the orientation must be a unit quaternion, but |q| = {}; normalize it",
                q.norm()
            ),
        ));
    }
    Ok(*q)
}

impl Body {
    /// A free body with the mass and inertia of `props` (about its centre of mass),
    /// its centre at `x` and orientation `q` (a unit quaternion), at rest.
    pub fn new(
        props: &MassProperties,
        x: Vector3<f64>,
        q: Quat,
    ) -> Result<Self, PbmError> {
        all_finite("rigid body", "position", x.iter().copied())?;
        let inverse_inertia_body = props.inertia.try_inverse().ok_or_else(|| {
            PbmError::invalid("rigid body", "the inertia tensor is singular")
        })?;
        let q = unit(&q)?;
        Ok(Body {
            inverse_mass: 1.0 / props.mass,
            inertia_body: props.inertia,
            inverse_inertia_body,
            x,
            v: Vector3::zeros(),
            q,
            omega: Vector3::zeros(),
            previous_x: x,
            previous_q: q,
        })
    }

    /// A body nothing moves (zero inverse mass and inverse inertia): an anchor.
    pub fn fixed(x: Vector3<f64>, q: Quat) -> Result<Self, PbmError> {
        all_finite("rigid body", "position", x.iter().copied())?;
        let q = unit(&q)?;
        Ok(Body {
            inverse_mass: 0.0,
            inertia_body: Matrix3::zeros(),
            inverse_inertia_body: Matrix3::zeros(),
            x,
            v: Vector3::zeros(),
            q,
            omega: Vector3::zeros(),
            previous_x: x,
            previous_q: q,
        })
    }

    /// The orientation.
    pub fn orientation(&self) -> Quat {
        self.q
    }

    /// Sets the orientation; fails unless `q` is a unit quaternion.
    pub fn set_orientation(&mut self, q: Quat) -> Result<(), PbmError> {
        self.q = unit(&q)?;
        Ok(())
    }

    /// 1/m (0 for a fixed body).
    pub fn inverse_mass(&self) -> f64 {
        self.inverse_mass
    }

    /// The mass (infinite for a fixed body).
    pub fn mass(&self) -> f64 {
        1.0 / self.inverse_mass
    }

    /// R, the rotation matrix of q.
    pub fn rotation(&self) -> Matrix3<f64> {
        quat_to_matrix(&self.q)
    }

    /// I = R I_body Rᵀ, the inertia tensor in world coordinates.
    pub fn inertia(&self) -> Matrix3<f64> {
        let r = self.rotation();
        r * self.inertia_body * r.transpose()
    }

    /// I⁻¹ = R I_body⁻¹ Rᵀ.
    pub fn inverse_inertia(&self) -> Matrix3<f64> {
        let r = self.rotation();
        r * self.inverse_inertia_body * r.transpose()
    }

    /// The world position of a point given in body coordinates: x + R a.
    pub fn world_point(&self, local: &Vector3<f64>) -> Vector3<f64> {
        self.x + self.rotation() * local
    }

    /// Linear momentum m v (zero for a fixed body).
    pub fn momentum(&self) -> Vector3<f64> {
        if self.inverse_mass > 0.0 {
            self.v / self.inverse_mass
        } else {
            Vector3::zeros()
        }
    }

    /// Angular momentum about the world origin: x × m v + I ω.
    pub fn angular_momentum(&self) -> Vector3<f64> {
        self.x.cross(&self.momentum()) + self.inertia() * self.omega
    }

    /// Kinetic energy ½ m v² + ½ ωᵀ I ω.
    pub fn kinetic_energy(&self) -> f64 {
        let linear = if self.inverse_mass > 0.0 {
            0.5 * self.v.norm_squared() / self.inverse_mass
        } else {
            0.0
        };
        linear + 0.5 * self.omega.dot(&(self.inertia() * self.omega))
    }

    // ANCHOR: integrate
    /// The prediction: v += h g, x += h v; ω += h I⁻¹(τ − ω × (I ω)) (with the
    /// gyroscopic term unless `gyroscopic` is false), q ← normalize(q + ½ h [0, ω] q).
    pub fn integrate(
        &mut self,
        h: f64,
        g: &Vector3<f64>,
        torque: &Vector3<f64>,
        gyroscopic: bool,
    ) {
        self.previous_x = self.x;
        self.previous_q = self.q;
        if self.inverse_mass == 0.0 {
            return;
        }
        self.v += g * h;
        self.x += self.v * h;
        let mut tau = *torque;
        if gyroscopic {
            tau -= self.omega.cross(&(self.inertia() * self.omega));
        }
        self.omega += self.inverse_inertia() * tau * h;
        self.rotate(&(self.omega * h));
    }
    // ANCHOR_END: integrate

    // ANCHOR: rotate
    /// Turns the body by the small rotation vector θ: q ← normalize(q + ½ [0, θ] q).
    fn rotate(&mut self, theta: &Vector3<f64>) {
        let dq = quat_mul(&Quat::new(0.0, theta.x, theta.y, theta.z), &self.q);
        self.q = (self.q + dq * 0.5).normalize();
    }
    // ANCHOR_END: rotate

    /// v = (x − x_prev)/h, and ω from the turn q q_prev⁻¹ over the step.
    pub fn update_velocities(&mut self, h: f64) {
        if self.inverse_mass == 0.0 {
            return;
        }
        self.v = (self.x - self.previous_x) / h;
        self.omega = angular_velocity(&self.previous_q, &self.q, h);
    }

    // ANCHOR: generalized_inverse_mass
    /// w = m⁻¹ + (r × n)ᵀ I⁻¹ (r × n) with r = p − x: how far the point p of the
    /// body moves along the unit direction n per unit of positional impulse along n.
    pub fn generalized_inverse_mass(
        &self,
        p: &Vector3<f64>,
        n: &Vector3<f64>,
    ) -> f64 {
        if self.inverse_mass == 0.0 {
            return 0.0;
        }
        let rn = (p - self.x).cross(n);
        self.inverse_mass + rn.dot(&(self.inverse_inertia() * rn))
    }
    // ANCHOR_END: generalized_inverse_mass

    // ANCHOR: angular
    /// The generalized inverse mass for turning about the unit axis n: nᵀ I⁻¹ n, how
    /// far the body turns about n per unit of angular positional impulse about it.
    pub fn angular_inverse_mass(&self, n: &Vector3<f64>) -> f64 {
        if self.inverse_mass == 0.0 {
            return 0.0;
        }
        n.dot(&(self.inverse_inertia() * n))
    }

    /// Applies the angular positional impulse `p` (N m s²): a turn by I⁻¹ p, the
    /// centre left where it is.
    pub fn apply_turn(&mut self, p: &Vector3<f64>) {
        if self.inverse_mass == 0.0 {
            return;
        }
        let turn = self.inverse_inertia() * p;
        self.rotate(&turn);
    }
    // ANCHOR_END: angular

    // ANCHOR: apply_correction
    /// Applies the positional impulse `impulse` at the world point `p`: x += P/m and
    /// a turn by I⁻¹ (r × P). The translation divides by the mass alone; the
    /// rotational share of the generalized inverse mass is in the turn.
    pub fn apply_correction(&mut self, p: &Vector3<f64>, impulse: &Vector3<f64>) {
        if self.inverse_mass == 0.0 {
            return;
        }
        let turn = self.inverse_inertia() * (p - self.x).cross(impulse);
        self.x += impulse * self.inverse_mass;
        self.rotate(&turn);
    }
    // ANCHOR_END: apply_correction

    /// Where the body point that is at `p` now was at the start of the step: the
    /// previous pose applied to the point's body coordinates.
    pub fn previous_point(&self, p: &Vector3<f64>) -> Vector3<f64> {
        let local = self.rotation().transpose() * (p - self.x);
        self.previous_x + quat_to_matrix(&self.previous_q) * local
    }

    /// The velocity of the body point at `p`: v + ω × (p − x).
    pub fn point_velocity(&self, p: &Vector3<f64>) -> Vector3<f64> {
        self.v + self.omega.cross(&(p - self.x))
    }

    /// Applies the impulse `impulse` (N s) at the world point `p`: v += P/m and
    /// ω += I⁻¹ (r × P), the velocity-level twin of [`Body::apply_correction`].
    pub fn apply_impulse(&mut self, p: &Vector3<f64>, impulse: &Vector3<f64>) {
        if self.inverse_mass == 0.0 {
            return;
        }
        self.v += impulse * self.inverse_mass;
        self.omega += self.inverse_inertia() * (p - self.x).cross(impulse);
    }

    /// Whether the pose and velocities are all finite.
    pub fn is_finite(&self) -> bool {
        self.x
            .iter()
            .chain(self.v.iter())
            .chain(self.q.iter())
            .chain(self.omega.iter())
            .all(|v| v.is_finite())
    }
}

// ANCHOR: angular_velocity
/// The angular velocity that turns `from` into `to` in time h: Δq = to from⁻¹, ω =
/// 2 [Δq_x, Δq_y, Δq_z]/h, negated when Δq_s < 0 (q and −q are the same rotation;
/// the sign picks the short way round).
pub fn angular_velocity(from: &Quat, to: &Quat, h: f64) -> Vector3<f64> {
    let conjugate = Quat::new(from[0], -from[1], -from[2], -from[3]);
    let dq = quat_mul(to, &conjugate);
    let sign = if dq[0] < 0.0 { -1.0 } else { 1.0 };
    Vector3::new(dq[1], dq[2], dq[3]) * (2.0 * sign / h)
}
// ANCHOR_END: angular_velocity
