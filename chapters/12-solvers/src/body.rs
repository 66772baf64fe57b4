//! The bench's bodies: planar rigid bodies that carry their own velocity (games'
//! solvers work in velocities, not momenta), their convex parts, and a friction
//! coefficient. A fixed body (ground, ramp, wall) has inverse mass and inertia zero.

use nalgebra::{Matrix2, Vector2};
use pbm_collision::polygon::ConvexPolygon;
use pbm_interactive::shape::Shape;
use pbm_prelim::PbmError;

/// A planar vector (m, m/s, N s).
pub type V2 = Vector2<f64>;

/// The 2-D cross product a × b = a_x b_y − a_y b_x (a scalar).
pub fn cross(a: &V2, b: &V2) -> f64 {
    a.x * b.y - a.y * b.x
}

/// ω × r for a spin ω about the normal of the plane.
pub fn spin(omega: f64, r: &V2) -> V2 {
    V2::new(-omega * r.y, omega * r.x)
}

/// The rotation by `angle` (rad).
pub fn rotation(angle: f64) -> Matrix2<f64> {
    let (s, c) = angle.sin_cos();
    Matrix2::new(c, -s, s, c)
}

/// A rigid body of the plane.
#[derive(Debug, Clone, PartialEq)]
pub struct Body {
    /// Centre of mass, in the world (m).
    pub position: V2,
    /// Turn from the body frame to the world (rad).
    pub angle: f64,
    /// Velocity of the centre of mass (m/s).
    pub velocity: V2,
    /// Spin (rad/s, counter-clockwise).
    pub angular_velocity: f64,
    /// 1/m (1/kg); zero for a fixed body.
    pub inv_mass: f64,
    /// 1/I about the centre of mass (1/(kg m²)); zero for a fixed body.
    pub inv_inertia: f64,
    /// Coulomb friction coefficient of its surface; two surfaces meet at √(μ_a μ_b).
    pub friction: f64,
    /// Its convex parts in the body frame, the centre of mass at the origin.
    pub parts: Vec<ConvexPolygon>,
    /// Bodies of one nonzero group never touch one another (the links of a chain,
    /// which their pins already hold); zero touches everything.
    pub group: u32,
}

impl Body {
    /// A box of `half` extents (m) and `density` (kg/m²) at rest at `position`, turned
    /// by `angle`.
    pub fn dynamic_box(
        half: V2,
        density: f64,
        friction: f64,
        (position, angle): (V2, f64),
    ) -> Result<Body, PbmError> {
        let shape = Shape::rectangle(2.0 * half.x, 2.0 * half.y, density)?;
        Body::of_shape(&shape, friction, (position, angle))
    }

    /// A body of `shape` (parts centred on its centre of mass) at rest.
    pub fn of_shape(
        shape: &Shape,
        friction: f64,
        (position, angle): (V2, f64),
    ) -> Result<Body, PbmError> {
        check_pose("body", friction, position, angle)?;
        Ok(Body {
            position,
            angle,
            velocity: V2::zeros(),
            angular_velocity: 0.0,
            inv_mass: 1.0 / shape.mass,
            inv_inertia: 1.0 / shape.inertia,
            friction,
            parts: shape.parts.clone(),
            group: 0,
        })
    }

    /// A fixed box (ground, ramp, wall) of `half` extents centred at `position`.
    pub fn fixed_box(
        half: V2,
        friction: f64,
        (position, angle): (V2, f64),
    ) -> Result<Body, PbmError> {
        check_pose("fixed box", friction, position, angle)?;
        Ok(Body {
            position,
            angle,
            velocity: V2::zeros(),
            angular_velocity: 0.0,
            inv_mass: 0.0,
            inv_inertia: 0.0,
            friction,
            parts: vec![ConvexPolygon::rectangle(V2::zeros(), half)?],
            group: 0,
        })
    }

    /// Whether nothing moves it.
    pub fn is_fixed(&self) -> bool {
        self.inv_mass == 0.0
    }

    /// Its mass (kg); infinite for a fixed body.
    pub fn mass(&self) -> f64 {
        1.0 / self.inv_mass
    }

    /// Its parts placed in the world.
    pub fn placed(&self) -> Vec<ConvexPolygon> {
        self.parts.iter().map(|p| p.placed(self.position, self.angle)).collect()
    }

    /// The world point of the body-frame point `local`.
    pub fn world_point(&self, local: &V2) -> V2 {
        self.position + rotation(self.angle) * local
    }

    /// The velocity of the material point at `r` from the centre of mass.
    pub fn velocity_at(&self, r: &V2) -> V2 {
        self.velocity + spin(self.angular_velocity, r)
    }

    /// Applies the impulse `p` (N s) at `r` from the centre of mass.
    pub fn apply_impulse(&mut self, r: &V2, p: &V2) {
        self.velocity += p * self.inv_mass;
        self.angular_velocity += cross(r, p) * self.inv_inertia;
    }

    /// Kinetic energy (J); zero for a fixed body.
    pub fn kinetic_energy(&self) -> f64 {
        if self.is_fixed() {
            return 0.0;
        }
        0.5 * (self.velocity.norm_squared() / self.inv_mass
            + self.angular_velocity.powi(2) / self.inv_inertia)
    }
}

fn check_pose(
    what: &'static str,
    friction: f64,
    position: V2,
    angle: f64,
) -> Result<(), PbmError> {
    if !(friction.is_finite() && friction >= 0.0) {
        return Err(PbmError::invalid(what, "friction must be finite and ≥ 0"));
    }
    if !(position.iter().all(|x| x.is_finite()) && angle.is_finite()) {
        return Err(PbmError::invalid(what, "its pose must be finite"));
    }
    Ok(())
}
