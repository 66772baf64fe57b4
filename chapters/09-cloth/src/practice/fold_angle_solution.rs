// The book's answer to `cloth/fold-angle`, as `pbm practice solution` prints it: the
// angle of `dihedral` and the gradient of `fold_gradient` (`hinge.rs`), without the
// rates the chapter carries beside them.

use nalgebra::Vector3;
use pbm_prelim::PbmError;

// ANCHOR: fold_angle
/// θ = atan2((n̂_d × n̂_c)·ê, n̂_c·n̂_d), ∂θ/∂c = |e| n_c/|n_c|², ∂θ/∂d likewise, and
/// the edge's ends by the lever rule.
pub fn fold_angle(
    x: &[Vector3<f64>; 4],
) -> Result<(f64, [Vector3<f64>; 4]), PbmError> {
    let [a, b, c, d] = *x;
    let e = b - a;
    let n_c = (c - a).cross(&(c - b));
    let n_d = (d - b).cross(&(d - a));
    let (ee, cc, dd) = (e.norm_squared(), n_c.norm_squared(), n_d.norm_squared());
    if !(ee > 0.0 && cc > 0.0 && dd > 0.0) {
        let why = "a triangle of the hinge has collapsed to a line";
        return Err(PbmError::degenerate("cloth bend", why));
    }
    let len = ee.sqrt();
    let (unit_c, unit_d) = (n_c / cc.sqrt(), n_d / dd.sqrt());
    let sin = unit_d.cross(&unit_c).dot(&(e / len));
    let theta = f64::atan2(sin, unit_c.dot(&unit_d));
    // A far corner moved along its normal turns its face by δ/h.
    let (gc, gd) = (n_c * (len / cc), n_d * (len / dd));
    // Where c and d stand along the edge: 0 at a, 1 at b.
    let (alpha_c, alpha_d) = ((c - a).dot(&e) / ee, (d - a).dot(&e) / ee);
    let gb = -(gc * alpha_c + gd * alpha_d);
    let ga = -(gc * (1.0 - alpha_c) + gd * (1.0 - alpha_d));
    Ok((theta, [ga, gb, gc, gd]))
}
// ANCHOR_END: fold_angle
