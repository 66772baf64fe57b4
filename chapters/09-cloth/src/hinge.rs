//! Bending across an interior edge of the cloth: the two triangles that share the
//! edge form a hinge, and the cloth bends where the hinge folds. The fold angle θ
//! between the triangles, spread over the distance between their centres, is a
//! curvature κ = θ / l_perp, and the energy is ½ k κ² A over the area A the hinge
//! stands for (Kass's bend energy, with l_perp and A made definite).

use crate::triangle::{Angle, RestTriangle};
use pbm_particles::condition::Condition;
use pbm_particles::particle::Vector;
use pbm_prelim::PbmError;

type V3 = Vector<3>;

// ANCHOR: rest
/// The hinge of edge a–b, with c the far corner of one triangle and d of the other,
/// and the two lengths the bend energy needs from the rest pattern.
///
/// Each triangle's centre (centroid) lies a third of the far corner's height h from
/// the edge, so the centres are l_perp = (h_c + h_d)/3 apart across it; a triangle
/// shares its area among its three edges, so the hinge stands for A = (A_c + A_d)/3.
/// Then A = |ab| l_perp / 2.
#[derive(Debug, Clone, PartialEq)]
pub struct RestHinge {
    /// a, b (the edge), c, d (the far corners).
    pub corners: [usize; 4],
    /// The distance across the edge between the triangles' centres (m).
    pub l_perp: f64,
    /// The area the hinge stands for (m²).
    pub area: f64,
    /// The fold angle at rest (rad); zero for a flat pattern.
    pub rest_angle: f64,
}
// ANCHOR_END: rest

impl RestHinge {
    // ANCHOR: rest_between
    /// The hinge between two rest triangles that share exactly one edge. Both have
    /// already been checked to have area.
    pub fn between(t1: &RestTriangle, t2: &RestTriangle) -> Result<Self, PbmError> {
        let shared: Vec<usize> =
            t1.corners.iter().copied().filter(|i| t2.corners.contains(i)).collect();
        let [a, b] = shared[..] else {
            let why = format!(
                "triangles {:?} and {:?} share {} corners, not an edge",
                t1.corners,
                t2.corners,
                shared.len()
            );
            return Err(PbmError::invalid("cloth hinge", why));
        };
        let far = |t: &RestTriangle| {
            t.corners.iter().copied().find(|i| !shared.contains(i))
        };
        let (Some(c), Some(d)) = (far(t1), far(t2)) else {
            return Err(PbmError::invalid(
                "cloth hinge",
                "a triangle has no far corner",
            ));
        };
        let edge = t1.edge_length(a, b);
        // h = 2 A / |ab| for each triangle.
        let l_perp = 2.0 * (t1.area + t2.area) / (3.0 * edge);
        Ok(RestHinge {
            corners: [a, b, c, d],
            l_perp,
            area: (t1.area + t2.area) / 3.0,
            rest_angle: 0.0,
        })
    }
    // ANCHOR_END: rest_between

    // ANCHOR: rest_folded
    /// The same hinge resting folded as it is at the 3-D positions `x` of its
    /// corners (a, b, c, d): a rest mesh that is not flat, such as a sleeve
    /// modelled in its worn shape.
    pub fn folded_as(mut self, x: &[V3; 4]) -> Result<Self, PbmError> {
        let zero = [V3::zeros(); 4];
        let Some((theta, _, _)) = dihedral(x, &zero) else {
            let why = "a triangle of the rest shape has no area";
            return Err(PbmError::invalid("cloth hinge", why));
        };
        self.rest_angle = theta.radians();
        Ok(self)
    }
    // ANCHOR_END: rest_folded
}

/// A vector and its rate of change.
#[derive(Debug, Clone, Copy)]
struct Moving {
    x: V3,
    dx: V3,
}

impl Moving {
    fn sub(self, o: Moving) -> Moving {
        Moving { x: self.x - o.x, dx: self.dx - o.dx }
    }
    fn cross(self, o: Moving) -> Moving {
        Moving {
            x: self.x.cross(&o.x),
            dx: self.dx.cross(&o.x) + self.x.cross(&o.dx),
        }
    }
    /// (value, rate) of the dot product.
    fn dot(self, o: Moving) -> (f64, f64) {
        (self.x.dot(&o.x), self.dx.dot(&o.x) + self.x.dot(&o.dx))
    }
}

// ANCHOR: dihedral
/// The fold angle θ of the hinge with edge a–b and far corners c, d (positions in
/// that order), and ∂θ/∂x for the four corners, each with its rate when the corners
/// move at `v`.
///
/// With e = b − a and the triangles' normals n_c = (c − a) × (c − b) and
/// n_d = (d − b) × (d − a) (both facing the same side when the hinge is flat),
/// θ = atan2((n̂_d × n̂_c) · ê, n̂_c · n̂_d), positive when the hinge folds towards
/// the side the normals face. Moving c along n̂_c by δ turns its
/// triangle about the edge by δ/h_c, h_c = |n_c|/|e| the corner's height, so
/// ∂θ/∂c = |e| n_c/|n_c|²; likewise ∂θ/∂d = |e| n_d/|n_d|². The edge's ends carry
/// the rest, split by where c and d stand along the edge (so that the gradients
/// sum to zero and a rotation changes nothing):
///
/// ∂θ/∂a = s_cb n_c/|n_c|² + s_db n_d/|n_d|²,
/// ∂θ/∂b = −s_ca n_c/|n_c|² − s_da n_d/|n_d|²,
///
/// with s_pq = (p − q) · e/|e| ([`fold_gradient`]).
fn dihedral(x: &[V3], v: &[V3]) -> Option<(Angle, [V3; 4], [V3; 4])> {
    let p = |i: usize| Moving { x: x[i], dx: v[i] };
    let corners = [p(0), p(1), p(2), p(3)];
    let [a, b, c, d] = corners;
    let e = b.sub(a);
    let n_c = c.sub(a).cross(c.sub(b));
    let n_d = d.sub(b).cross(d.sub(a));
    let (ee, cc, dd) = (e.dot(e), n_c.dot(n_c), n_d.dot(n_d));
    if !(ee.0 > 0.0 && cc.0 > 0.0 && dd.0 > 0.0) {
        return None;
    }
    let len = ee.0.sqrt();
    let (unit_c, unit_d) = (n_c.x / cc.0.sqrt(), n_d.x / dd.0.sqrt());
    let theta = Angle {
        sin: unit_d.cross(&unit_c).dot(&(e.x / len)),
        cos: unit_c.dot(&unit_d),
    };
    let (grad, rate) = fold_gradient(corners, (e, ee), (n_c, cc), (n_d, dd));
    Some((theta, grad, rate))
}
// ANCHOR_END: dihedral

// ANCHOR: fold_gradient
/// ∂θ/∂x for the corners a, b, c, d of [`dihedral`] and its rate, given the edge
/// e, the normals n_c and n_d, and the (value, rate) of each one's squared length.
/// Each term is a scalar times n/|n|², whose rate is ṅ/|n|² − 2 n (n · ṅ)/|n|⁴.
fn fold_gradient(
    [a, b, c, d]: [Moving; 4],
    (e, (ee, ee_dot)): (Moving, (f64, f64)),
    (n_c, (cc, cc_dot)): (Moving, (f64, f64)),
    (n_d, (dd, dd_dot)): (Moving, (f64, f64)),
) -> ([V3; 4], [V3; 4]) {
    let len = ee.sqrt();
    let len_dot = 0.5 * ee_dot / len;
    // n/|n|² and its rate.
    let over = |n: Moving, nn: f64, nn_dot: f64| {
        (n.x / nn, n.dx / nn - n.x * (nn_dot / (nn * nn)))
    };
    let (gc, gc_dot) = over(n_c, cc, cc_dot);
    let (gd, gd_dot) = over(n_d, dd, dd_dot);
    // s_pq = (p − q) · e/|e| and its rate.
    let s = |p: Moving, q: Moving| {
        let (pe, pe_dot) = p.sub(q).dot(e);
        (pe / len, pe_dot / len - pe * len_dot / ee)
    };
    let (scb, scb_dot) = s(c, b);
    let (sdb, sdb_dot) = s(d, b);
    let (sca, sca_dot) = s(c, a);
    let (sda, sda_dot) = s(d, a);
    let grad = [gc * scb + gd * sdb, -(gc * sca + gd * sda), gc * len, gd * len];
    let rate = [
        gc_dot * scb + gc * scb_dot + gd_dot * sdb + gd * sdb_dot,
        -(gc_dot * sca + gc * sca_dot + gd_dot * sda + gd * sda_dot),
        gc_dot * len + gc * len_dot,
        gd_dot * len + gd * len_dot,
    ];
    (grad, rate)
}
// ANCHOR_END: fold_gradient

// ANCHOR: bend
/// Bend: C = √A (θ − θ₀) / l_perp, so that E = ½ k C² = ½ k κ² A with the curvature
/// κ = (θ − θ₀)/l_perp. J and J̇ are ∂θ/∂x and its rate, scaled by √A / l_perp.
#[derive(Debug, Clone)]
pub struct Bend(pub RestHinge);
// ANCHOR_END: bend

impl Condition<3> for Bend {
    // ANCHOR: bend_condition
    fn position(
        &self,
        x: &[V3],
        c: &mut [f64],
        j: &mut [V3],
    ) -> Result<(), PbmError> {
        let zero = [V3::zeros(); 4];
        let Some((theta, grad, _)) = dihedral(x, &zero) else {
            let why = "a triangle of the hinge has collapsed to a line";
            return Err(PbmError::degenerate("cloth bend", why));
        };
        let h = &self.0;
        let scale = h.area.sqrt() / h.l_perp;
        c[0] = scale * (theta.radians() - h.rest_angle);
        for (jk, g) in j.iter_mut().zip(grad) {
            *jk = g * scale;
        }
        Ok(())
    }
    fn jacobian_dot(&self, x: &[V3], v: &[V3], j_dot: &mut [V3]) {
        let Some((_, _, rate)) = dihedral(x, v) else {
            j_dot.fill(V3::zeros());
            return;
        };
        let scale = self.0.area.sqrt() / self.0.l_perp;
        for (jk, r) in j_dot.iter_mut().zip(rate) {
            *jk = r * scale;
        }
    }
    // ANCHOR_END: bend_condition
    fn name(&self) -> &'static str {
        "cloth bend"
    }
    fn particles(&self) -> &[usize] {
        &self.0.corners
    }
    fn rows(&self) -> usize {
        1
    }
    fn check(&self, x: &[V3]) -> Result<(), PbmError> {
        self.position(x, &mut [0.0], &mut [V3::zeros(); 4])
    }
}
