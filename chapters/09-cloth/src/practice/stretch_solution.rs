// The book's answer to `cloth/stretch`, as `pbm practice solution` prints it: the
// `position` of the chapter's `Stretch` condition (`triangle.rs`), as a function.

use nalgebra::Vector3;
use pbm_cloth::triangle::RestTriangle;
use pbm_prelim::PbmError;

// ANCHOR: stretch_condition
/// C = √A (|w_u| − 1, |w_v| − 1) and ∂C/∂x_k = √A (a_u[k] ŵ_u, a_v[k] ŵ_v).
pub fn stretch_condition(
    triangle: &RestTriangle,
    x: &[Vector3<f64>],
    c: &mut [f64],
    j: &mut [Vector3<f64>],
) -> Result<(), PbmError> {
    let (wu, wv) = triangle.map(x);
    let (lu, lv) = (wu.norm(), wv.norm());
    if lu == 0.0 || lv == 0.0 {
        let why = "a thread direction has collapsed to a point";
        return Err(PbmError::degenerate("cloth stretch", why));
    }
    let root = triangle.area.sqrt();
    (c[0], c[1]) = (root * (lu - 1.0), root * (lv - 1.0));
    for k in 0..3 {
        j[k] = wu * (root * triangle.a_u[k] / lu);
        j[3 + k] = wv * (root * triangle.a_v[k] / lv);
    }
    Ok(())
}
// ANCHOR_END: stretch_condition
