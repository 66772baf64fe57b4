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

// ANCHOR: matrix_to_quat
/// The unit quaternion [s, v] of a rotation matrix R, with s ≥ 0 (q and −q are the
/// same rotation). From `quat_to_matrix`: tr R = 4s² − 1, R₀₀ = 1 − 2(y² + z²) gives
/// 4x² = 1 + R₀₀ − R₁₁ − R₂₂ (and so on), and the off-diagonal pairs give the
/// products: R₂₁ − R₁₂ = 4sx, R₁₀ + R₀₁ = 4xy, … Take the square root of the largest
/// of 4s², 4x², 4y², 4z² (at least 1/4 of their sum, 4), and divide the products by
/// it: no division by a small number, however R is turned (Shepperd's method).
pub fn quat_from_matrix(r: &Matrix3<f64>) -> Quat {
    let trace = r.trace();
    let squares = [
        1.0 + trace,
        1.0 + r[(0, 0)] - r[(1, 1)] - r[(2, 2)],
        1.0 - r[(0, 0)] + r[(1, 1)] - r[(2, 2)],
        1.0 - r[(0, 0)] - r[(1, 1)] + r[(2, 2)],
    ]; // 4s², 4x², 4y², 4z²
    let k = (0..4).max_by(|&a, &b| squares[a].total_cmp(&squares[b])).unwrap_or(0);
    let big = squares[k].sqrt(); // 2|q_k|
    let (sx, sy, sz) =
        (r[(2, 1)] - r[(1, 2)], r[(0, 2)] - r[(2, 0)], r[(1, 0)] - r[(0, 1)]);
    let (xy, xz, yz) =
        (r[(1, 0)] + r[(0, 1)], r[(0, 2)] + r[(2, 0)], r[(2, 1)] + r[(1, 2)]);
    // Each row is 4 q_k q = (4 q_k s, 4 q_k x, 4 q_k y, 4 q_k z); divide by 2 big.
    let q = match k {
        0 => Quat::new(big * big, sx, sy, sz),
        1 => Quat::new(sx, big * big, xy, xz),
        2 => Quat::new(sy, xy, big * big, yz),
        _ => Quat::new(sz, xz, yz, big * big),
    } / (2.0 * big);
    if q[0] < 0.0 { -q } else { q }
}
// ANCHOR_END: matrix_to_quat

/// ‖RᵀR − I‖ (Frobenius): how far a stored matrix has drifted from a rotation.
pub fn orthogonality_error(r: &Matrix3<f64>) -> f64 {
    (r.transpose() * r - Matrix3::identity()).norm()
}
