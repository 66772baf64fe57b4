// Practice `cloth/fold-angle`: a hinge's fold angle and its gradient.
//
// Read "Cloth" (book/src/09-cloth/cloth.md), the section "Bend across an edge". Then
// fill in the body and run `cargo run --release -- practice check cloth/fold-angle`.

use nalgebra::Vector3;
use pbm_prelim::PbmError;

/// The fold angle θ of the hinge whose shared edge runs from a to b, with c the far
/// corner of one triangle and d of the other (`x` = [a, b, c, d]), and ∂θ/∂x for the
/// four corners in the same order.
///
/// With e = b − a and the triangles' normals n_c = (c − a) × (c − b) and
/// n_d = (d − b) × (d − a) (both face the same side when the hinge lies flat):
///
/// θ = atan2((n̂_d × n̂_c) · ê, n̂_c · n̂_d),
///
/// zero when flat, positive when the hinge folds towards the side the normals face,
/// and anywhere in (−π, π]. The far corners' gradients are ∂θ/∂c = |e| n_c/|n_c|² and
/// ∂θ/∂d = |e| n_d/|n_d|², and the edge's ends share minus their sum as a lever does:
/// ∂θ/∂b = −α_c ∂θ/∂c − α_d ∂θ/∂d and ∂θ/∂a = −(1 − α_c) ∂θ/∂c − (1 − α_d) ∂θ/∂d,
/// with α_c = (c − a)·e/|e|² where c stands along the edge (0 at a, 1 at b), α_d
/// likewise. A hinge with no edge (a = b) or a triangle with no area (n_c = 0 or
/// n_d = 0) has no angle: return `PbmError::degenerate("cloth bend", "…")`.
pub fn fold_angle(
    x: &[Vector3<f64>; 4],
) -> Result<(f64, [Vector3<f64>; 4]), PbmError> {
    let _ = x;
    todo!("the fold angle and its gradient")
}
