//! One cloth triangle and the conditions that keep it in shape. Each triangle
//! remembers where its corners sit in the flat pattern, (u, v) in metres of
//! material along the warp and the weft. The affine map T from the pattern to
//! the world takes the pattern's unit warp and weft directions to w_u = T û and
//! w_v = T v̂: how the warp and weft threads run, and how far they are stretched,
//! inside this triangle.

use pbm_particles::condition::Condition;
use pbm_particles::particle::Vector;
use pbm_prelim::PbmError;
use std::f64::consts::FRAC_PI_2;

type V3 = Vector<3>;

// ANCHOR: rest
/// A triangle's corners i, j, k, and what its rest shape in the pattern fixes: the
/// weights that give w_u and w_v from the corners' positions, and its area.
///
/// With pattern edges (Δu₁, Δv₁) = p_j − p_i and (Δu₂, Δv₂) = p_k − p_i and world
/// edges Δx₁ = x_j − x_i, Δx₂ = x_k − x_i, the map satisfies
/// [Δx₁ Δx₂] = [w_u w_v] [[Δu₁ Δu₂] [Δv₁ Δv₂]], so
/// w_u = (Δv₂ Δx₁ − Δv₁ Δx₂) / d and w_v = (Δu₁ Δx₂ − Δu₂ Δx₁) / d with
/// d = Δu₁ Δv₂ − Δu₂ Δv₁ (twice the signed pattern area). Both are fixed
/// combinations of the corners: w_u = Σ a_u[c] x_c, w_v = Σ a_v[c] x_c.
#[derive(Debug, Clone, PartialEq)]
pub struct RestTriangle {
    /// The corners' particles.
    pub corners: [usize; 3],
    /// Weights of the corners in w_u (they sum to zero).
    pub a_u: [f64; 3],
    /// Weights of the corners in w_v (they sum to zero).
    pub a_v: [f64; 3],
    /// Area in the pattern (m²).
    pub area: f64,
    /// The corners' places in the pattern (m).
    pub pattern: [[f64; 2]; 3],
}
// ANCHOR_END: rest

impl RestTriangle {
    // ANCHOR: rest_new
    /// The triangle of particles `corners` whose pattern positions are `pattern`
    /// (m). A triangle of (nearly) zero pattern area has no map and is an error.
    pub fn new(
        corners: [usize; 3],
        pattern: [[f64; 2]; 3],
    ) -> Result<Self, PbmError> {
        let [i, j, k] = corners;
        if i == j || j == k || i == k {
            let why = format!("corners {i}, {j}, {k} must all differ");
            return Err(PbmError::invalid("cloth triangle", why));
        }
        if pattern.iter().flatten().any(|c| !c.is_finite()) {
            return Err(PbmError::invalid("cloth triangle", "pattern is not finite"));
        }
        let [p0, p1, p2] = pattern;
        let (du1, dv1) = (p1[0] - p0[0], p1[1] - p0[1]);
        let (du2, dv2) = (p2[0] - p0[0], p2[1] - p0[1]);
        let d = du1 * dv2 - du2 * dv1;
        let scale = (du1 * du1 + dv1 * dv1).max(du2 * du2 + dv2 * dv2);
        if d.is_nan() || d.abs() <= 1e-12 * scale {
            let why = format!(
                "its pattern corners {p0:?}, {p1:?}, {p2:?} are in a line: no area"
            );
            return Err(PbmError::invalid("cloth triangle", why));
        }
        let (u1, u2) = (dv2 / d, -dv1 / d);
        let (v1, v2) = (-du2 / d, du1 / d);
        Ok(RestTriangle {
            corners,
            a_u: [-(u1 + u2), u1, u2],
            a_v: [-(v1 + v2), v1, v2],
            area: 0.5 * d.abs(),
            pattern,
        })
    }
    // ANCHOR_END: rest_new

    // ANCHOR: rest_map
    /// The pattern length of the edge between particles `a` and `b`, two of the
    /// corners (NaN if either is not a corner).
    pub fn edge_length(&self, a: usize, b: usize) -> f64 {
        let at = |i: usize| self.corners.iter().position(|&c| c == i);
        match (at(a), at(b)) {
            (Some(p), Some(q)) => {
                let (pa, pb) = (self.pattern[p], self.pattern[q]);
                (pa[0] - pb[0]).hypot(pa[1] - pb[1])
            }
            _ => f64::NAN,
        }
    }

    /// w_u and w_v at corner positions `x`.
    pub fn map(&self, x: &[V3]) -> (V3, V3) {
        let combine = |a: &[f64; 3]| x[0] * a[0] + x[1] * a[1] + x[2] * a[2];
        (combine(&self.a_u), combine(&self.a_v))
    }
    // ANCHOR_END: rest_map
}

/// d/dt of v/|v| for v moving at v̇: (v̇ − v̂ (v̂ · v̇)) / |v|.
fn unit_rate(v: &V3, v_dot: &V3) -> V3 {
    let n = v.norm();
    let u = v / n;
    (v_dot - u * u.dot(v_dot)) / n
}

// ANCHOR: stretch
/// Stretch: C = √A (|w_u| − 1, |w_v| − 1), so that E = ½ k |C|² = ½ k (S_u² + S_v²) A
/// with the warp and weft strains S = |w| − 1 (Kass). With w_u = Σ a_u[c] x_c,
/// ∂C₀/∂x_c = √A a_u[c] ŵ_u, and its rate is √A a_u[c] (ẇ_u − ŵ_u (ŵ_u · ẇ_u))/|w_u|;
/// the same for the weft row.
#[derive(Debug, Clone)]
pub struct Stretch(pub RestTriangle);
// ANCHOR_END: stretch

impl Condition<3> for Stretch {
    // ANCHOR: stretch_condition
    fn position(
        &self,
        x: &[V3],
        c: &mut [f64],
        j: &mut [V3],
    ) -> Result<(), PbmError> {
        let t = &self.0;
        let (wu, wv) = t.map(x);
        let (lu, lv) = (wu.norm(), wv.norm());
        if lu == 0.0 || lv == 0.0 {
            let why = "a thread direction has collapsed to a point";
            return Err(PbmError::degenerate("cloth stretch", why));
        }
        let root = t.area.sqrt();
        (c[0], c[1]) = (root * (lu - 1.0), root * (lv - 1.0));
        for k in 0..3 {
            j[k] = wu * (root * t.a_u[k] / lu);
            j[3 + k] = wv * (root * t.a_v[k] / lv);
        }
        Ok(())
    }
    fn jacobian_dot(&self, x: &[V3], v: &[V3], j_dot: &mut [V3]) {
        let t = &self.0;
        let (wu, wv) = t.map(x);
        let (wu_dot, wv_dot) = t.map(v);
        if wu.norm() == 0.0 || wv.norm() == 0.0 {
            j_dot.fill(V3::zeros());
            return;
        }
        let root = t.area.sqrt();
        let (ru, rv) = (unit_rate(&wu, &wu_dot), unit_rate(&wv, &wv_dot));
        for k in 0..3 {
            j_dot[k] = ru * (root * t.a_u[k]);
            j_dot[3 + k] = rv * (root * t.a_v[k]);
        }
    }
    // ANCHOR_END: stretch_condition
    fn name(&self) -> &'static str {
        "cloth stretch"
    }
    fn particles(&self) -> &[usize] {
        &self.0.corners
    }
    fn rows(&self) -> usize {
        2
    }
    fn check(&self, x: &[V3]) -> Result<(), PbmError> {
        self.position(x, &mut [0.0; 2], &mut [V3::zeros(); 6])
    }
}

/// An angle kept as the sine and cosine it comes from, so that a caller that
/// needs only its derivatives (J̇ does) does not pay for the arctangent.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Angle {
    pub(crate) sin: f64,
    pub(crate) cos: f64,
}

impl Angle {
    /// The angle in (−π, π].
    pub(crate) fn radians(self) -> f64 {
        f64::atan2(self.sin, self.cos)
    }
}

/// The angle θ between a and b, its gradients with respect to a and b, and (given
/// their rates) the gradients' rates. ∂θ/∂a = −e_a/|a|, where e_a is the unit vector
/// across a, in the plane of a and b, towards b: e_a = (b̂ − cos θ â)/sin θ.
fn angle_between(a: &V3, b: &V3, a_dot: &V3, b_dot: &V3) -> Option<(Angle, [V3; 4])> {
    let (la, lb) = (a.norm(), b.norm());
    let (ua, ub) = (a / la, b / lb);
    let (cos, sin) = (ua.dot(&ub), ua.cross(&ub).norm());
    if !(la > 0.0 && lb > 0.0 && sin > 0.0) {
        return None;
    }
    let theta = Angle { sin, cos };
    // Rates of the pieces.
    let (ua_dot, ub_dot) = (unit_rate(a, a_dot), unit_rate(b, b_dot));
    let cos_dot = ua_dot.dot(&ub) + ua.dot(&ub_dot);
    let sin_dot = -cos * cos_dot / sin;
    // g = −(b̂ − cos â)/(|a| sin) and its rate, by the quotient rule; then the same
    // with a and b swapped.
    let gradient = |la: f64, ua: V3, ub: V3, la_dot: f64, ua_dot: V3, ub_dot: V3| {
        let top = ub - ua * cos;
        let top_dot = ub_dot - ua * cos_dot - ua_dot * cos;
        let bottom = la * sin;
        let bottom_dot = la_dot * sin + la * sin_dot;
        (-top / bottom, -(top_dot * bottom - top * bottom_dot) / (bottom * bottom))
    };
    let (ga, ga_dot) = gradient(la, ua, ub, ua.dot(a_dot), ua_dot, ub_dot);
    let (gb, gb_dot) = gradient(lb, ub, ua, ub.dot(b_dot), ub_dot, ua_dot);
    Some((theta, [ga, gb, ga_dot, gb_dot]))
}

// ANCHOR: shear
/// Shear: C = √A (θ − π/2), θ the angle between the warp and weft directions w_u and
/// w_v, so that E = ½ k (θ − π/2)² A. (Kass writes E = ½ k θ² A with θ the angle
/// itself, which at rest is π/2, not zero: the energy must measure the departure
/// from a right angle.) With ∂θ/∂w_u = −e_u/|w_u| (e_u the unit vector across w_u
/// towards w_v) and w_u = Σ a_u[c] x_c,
/// ∂C/∂x_c = √A (a_u[c] ∂θ/∂w_u + a_v[c] ∂θ/∂w_v).
#[derive(Debug, Clone)]
pub struct Shear(pub RestTriangle);
// ANCHOR_END: shear

impl Condition<3> for Shear {
    // ANCHOR: shear_condition
    fn position(
        &self,
        x: &[V3],
        c: &mut [f64],
        j: &mut [V3],
    ) -> Result<(), PbmError> {
        let t = &self.0;
        let (wu, wv) = t.map(x);
        let zero = V3::zeros();
        let Some((theta, [gu, gv, _, _])) = angle_between(&wu, &wv, &zero, &zero)
        else {
            let why = "the warp and weft have collapsed onto one line";
            return Err(PbmError::degenerate("cloth shear", why));
        };
        let root = t.area.sqrt();
        c[0] = root * (theta.radians() - FRAC_PI_2);
        for (jk, (au, av)) in j.iter_mut().zip(t.a_u.iter().zip(&t.a_v)) {
            *jk = (gu * *au + gv * *av) * root;
        }
        Ok(())
    }
    fn jacobian_dot(&self, x: &[V3], v: &[V3], j_dot: &mut [V3]) {
        let t = &self.0;
        let ((wu, wv), (wu_dot, wv_dot)) = (t.map(x), t.map(v));
        let Some((_, [_, _, gu_dot, gv_dot])) =
            angle_between(&wu, &wv, &wu_dot, &wv_dot)
        else {
            j_dot.fill(V3::zeros());
            return;
        };
        let root = t.area.sqrt();
        for (jk, (au, av)) in j_dot.iter_mut().zip(t.a_u.iter().zip(&t.a_v)) {
            *jk = (gu_dot * *au + gv_dot * *av) * root;
        }
    }
    // ANCHOR_END: shear_condition
    fn name(&self) -> &'static str {
        "cloth shear"
    }
    fn particles(&self) -> &[usize] {
        &self.0.corners
    }
    fn rows(&self) -> usize {
        1
    }
    fn check(&self, x: &[V3]) -> Result<(), PbmError> {
        self.position(x, &mut [0.0], &mut [V3::zeros(); 3])
    }
}

// ANCHOR: bw98_shear
/// Baraff and Witkin's shear condition, for comparison: C = a w_u·w_v, with a the
/// pattern area. No angle, so no arccosine or arctangent and no singularity when
/// the threads fold onto each other; for unit threads w_u·w_v = cos θ, which is
/// π/2 − θ to first order. Its energy ½k C² grows as a², where ours, with √A,
/// grows as A: the same k means different cloths at different mesh sizes.
pub fn bw98_shear(triangle: &RestTriangle, x: &[V3]) -> f64 {
    let (w_u, w_v) = triangle.map(x);
    triangle.area * w_u.dot(&w_v)
}
// ANCHOR_END: bw98_shear
