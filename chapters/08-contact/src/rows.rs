//! What the contact solvers see: each body as a [`BodyState`] (where it is, how it
//! moves, how hard it is to push) and each unknown as a [`Row`] — a unit push at a
//! point along a direction, whose condition watches the relative motion along the
//! same direction. Colliding contact ([`crate::impulse`]), resting contact
//! ([`crate::resting`]) and friction ([`crate::friction`]) all build on the one
//! matrix of rows, [`row_matrix`].

use nalgebra::{DMatrix, Matrix3, Vector3};

type V3 = Vector3<f64>;

/// What a contact needs to know of a body: where it is, how it moves, and how hard it
/// is to push. A fixed body (the ground) has zero inverse mass and inertia.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BodyState {
    /// Centre of mass (m).
    pub x: V3,
    /// Velocity of the centre of mass (m/s).
    pub v: V3,
    /// Angular velocity (rad/s).
    pub omega: V3,
    /// 1 / mass (1/kg); 0 for a fixed body.
    pub inv_mass: f64,
    /// Inverse inertia tensor in world space, I⁻¹ = R I_body⁻¹ Rᵀ; 0 for a fixed body.
    pub inv_inertia: Matrix3<f64>,
}

impl BodyState {
    /// A body that never moves.
    pub fn fixed(x: V3) -> Self {
        BodyState {
            x,
            v: V3::zeros(),
            omega: V3::zeros(),
            inv_mass: 0.0,
            inv_inertia: Matrix3::zeros(),
        }
    }

    /// The velocity of the body's point p: v + ω × (p − x).
    pub fn point_velocity(&self, p: &V3) -> V3 {
        self.v + self.omega.cross(&(p - self.x))
    }

    /// Kinetic energy ½ m |v|² + ½ ωᵀ I ω (0 for a fixed body).
    pub fn kinetic_energy(&self) -> f64 {
        if self.inv_mass == 0.0 {
            return 0.0;
        }
        let inertia = self.inv_inertia.try_inverse().unwrap_or_else(Matrix3::zeros);
        0.5 * self.v.norm_squared() / self.inv_mass
            + 0.5 * self.omega.dot(&(inertia * self.omega))
    }

    /// Applies impulse j at point p: Δv = j / M, Δω = I⁻¹ ((p − x) × j).
    pub fn apply_impulse(&mut self, p: &V3, j: &V3) {
        self.v += j * self.inv_mass;
        self.omega += self.inv_inertia * (p - self.x).cross(j);
    }
}

/// One unknown of the contact solve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Row {
    /// The body pushed along +`push`.
    pub a: usize,
    /// The body pushed along −`push`.
    pub b: usize,
    /// Where (m).
    pub p: V3,
    /// The direction of the row's force on a (a unit force per unit unknown), and
    /// of the relative acceleration it watches.
    pub along: V3,
    /// What the row is.
    pub role: Role,
}

/// What a row is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A normal contact force: f ≥ 0.
    Normal,
    /// A bilateral constraint force (a hinge, a pin): any sign.
    Bilateral,
    /// A tangential friction force bounded by μ times the normal force of row
    /// `normal`.
    Tangent {
        /// The index of the row holding the contact's normal force.
        normal: usize,
    },
}

// ANCHOR: row_matrix
/// A_ij: row i's relative acceleration per unit of row j's unknown, j pushing +u_j
/// on a_j and −u_j on b_j at p_j. A body k that row j pushes with sign s changes
/// the acceleration of its point p by s (u_j / M + (I⁻¹ (r_j × u_j)) × r), with
/// r_j = p_j − x and r = p − x; row i reads u_i · (that on a_i − that on b_i).
pub fn row_matrix(bodies: &[BodyState], rows: &[Row]) -> DMatrix<f64> {
    let m = rows.len();
    DMatrix::from_fn(m, m, |i, j| {
        let (ri, rj) = (&rows[i], &rows[j]);
        let response = |k: usize, p: &V3| {
            let sign = if k == rj.a {
                1.0
            } else if k == rj.b {
                -1.0
            } else {
                return V3::zeros();
            };
            let body = &bodies[k];
            let dv = rj.along * (sign * body.inv_mass);
            let dw = body.inv_inertia * (rj.p - body.x).cross(&rj.along) * sign;
            dv + dw.cross(&(p - body.x))
        };
        ri.along.dot(&(response(ri.a, &ri.p) - response(ri.b, &ri.p)))
    })
}
// ANCHOR_END: row_matrix
