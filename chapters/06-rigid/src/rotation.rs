//! The two ways the chapter stores an orientation, and the small algebra both need:
//! the "star" matrix of a cross product, quaternion products (notes, equation 4-1)
//! and the conversion of a unit quaternion to a rotation matrix.

use nalgebra::{Matrix3, Vector3, Vector4};

// ANCHOR: star
/// a* : the matrix with a* b = a × b for every b.
pub fn star(a: &Vector3<f64>) -> Matrix3<f64> {
    Matrix3::new(0.0, -a.z, a.y, a.z, 0.0, -a.x, -a.y, a.x, 0.0)
}
// ANCHOR_END: star

/// A quaternion s + v_x i + v_y j + v_z k stored as [s, v_x, v_y, v_z].
pub type Quat = Vector4<f64>;

// ANCHOR: quaternion
/// Equation 4-1: [s₁, v₁][s₂, v₂] = [s₁s₂ − v₁·v₂, s₁v₂ + s₂v₁ + v₁ × v₂].
pub fn quat_mul(a: &Quat, b: &Quat) -> Quat {
    let (s1, v1) = (a[0], Vector3::new(a[1], a[2], a[3]));
    let (s2, v2) = (b[0], Vector3::new(b[1], b[2], b[3]));
    let v = v2 * s1 + v1 * s2 + v1.cross(&v2);
    Quat::new(s1 * s2 - v1.dot(&v2), v.x, v.y, v.z)
}

/// The rotation by `angle` radians about the unit `axis`: [cos(θ/2), sin(θ/2) u].
pub fn quat_from_axis_angle(axis: &Vector3<f64>, angle: f64) -> Quat {
    let u = axis.normalize() * (0.5 * angle).sin();
    Quat::new((0.5 * angle).cos(), u.x, u.y, u.z)
}

/// The rotation matrix of a unit quaternion [s, v].
pub fn quat_to_matrix(q: &Quat) -> Matrix3<f64> {
    let (s, x, y, z) = (q[0], q[1], q[2], q[3]);
    Matrix3::new(
        1.0 - 2.0 * (y * y + z * z),
        2.0 * (x * y - s * z),
        2.0 * (x * z + s * y),
        2.0 * (x * y + s * z),
        1.0 - 2.0 * (x * x + z * z),
        2.0 * (y * z - s * x),
        2.0 * (x * z - s * y),
        2.0 * (y * z + s * x),
        1.0 - 2.0 * (x * x + y * y),
    )
}

/// Equation 4-2: q̇ = ½ [0, ω] q.
pub fn quat_derivative(omega: &Vector3<f64>, q: &Quat) -> Quat {
    quat_mul(&Quat::new(0.0, omega.x, omega.y, omega.z), q) * 0.5
}
// ANCHOR_END: quaternion

/// ‖RᵀR − I‖ (Frobenius): how far a stored matrix has drifted from a rotation.
pub fn orthogonality_error(r: &Matrix3<f64>) -> f64 {
    (r.transpose() * r - Matrix3::identity()).norm()
}
