//! A cloth touching itself: the notes' "penalty force — cloth/cloth". Chapter 7's
//! bounding-volume tree, refitted every step, proposes pairs of triangles that come
//! near each other; each vertex of one is tested against the other; and a vertex
//! that the step would bring closer than the cloth's thickness to a triangle is
//! pushed away by a stiff spring whose stiffness goes into the implicit solve. The
//! triangle's share of the push is spread over its corners by the barycentric
//! weights of the vertex's foot, so the pair's forces sum to zero.

use nalgebra::Matrix3;
use pbm_collision::bvh::Bvh;
use pbm_implicit::cg::LinearOperator;
use pbm_particles::particle::Vector;
use pbm_prelim::PbmError;
use pbm_prelim::validate::positive;
use std::collections::BTreeMap;

type V3 = Vector<3>;

/// A vertex over a triangle: the vertex, the triangle, and [`foot`]'s normal,
/// height and weights.
type Over = (usize, usize, V3, f64, [f64; 3]);

/// How far outside its triangle a vertex's foot may fall, in barycentric weight,
/// and still count: a vertex over an edge that two triangles share, or over the
/// cloth's border, is then never missed by rounding.
pub const BORDER: f64 = 0.1;

// ANCHOR: foot
/// Where vertex `p` stands over the triangle (a, b, c): the unit normal n̂ of the
/// triangle (right-handed in a, b, c), the height n̂·(p − a) of p above its plane,
/// and the barycentric weights of the foot q = p − height n̂. `None` for a triangle
/// with no area.
pub fn foot(p: &V3, [a, b, c]: [&V3; 3]) -> Option<(V3, f64, [f64; 3])> {
    let n = (b - a).cross(&(c - a));
    let area2 = n.norm_squared();
    if area2 == 0.0 || !area2.is_finite() {
        return None;
    }
    let unit = n / area2.sqrt();
    let height = unit.dot(&(p - a));
    let q = p - unit * height;
    // Each weight is the share of the area of the triangle the foot makes with
    // the opposite edge.
    let w_a = (b - q).cross(&(c - q)).dot(&n) / area2;
    let w_b = (c - q).cross(&(a - q)).dot(&n) / area2;
    Some((unit, height, [w_a, w_b, 1.0 - w_a - w_b]))
}
// ANCHOR_END: foot

// ANCHOR: proximity
/// One vertex over one triangle, as seen at the start of a step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Proximity {
    /// The vertex, then the triangle's corners.
    pub ids: [usize; 4],
    /// The barycentric weights of the vertex's foot on the triangle.
    pub weights: [f64; 3],
    /// σ n̂: the triangle's normal turned toward the side the vertex was on when
    /// the pair was first seen.
    pub normal: V3,
    /// The signed distance d = σ n̂·(p − a) (m): negative once the vertex has
    /// passed through the triangle.
    pub distance: f64,
}

impl Proximity {
    /// ∇d, one vector per particle of `ids`: σ n̂ for the vertex and −w_i σ n̂ for
    /// corner i. They sum to zero, since the weights sum to one.
    pub fn gradient(&self) -> [V3; 4] {
        let [a, b, c] = self.weights;
        let n = self.normal;
        [n, -n * a, -n * b, -n * c]
    }

    /// ḋ = ∇d·v for the particles' velocities `v` (m/s).
    pub fn rate(&self, v: &[V3]) -> f64 {
        let g = self.gradient();
        (0..4).map(|k| g[k].dot(&v[self.ids[k]])).sum()
    }
}
// ANCHOR_END: proximity

// ANCHOR: penalty
/// The penalty on a pair at distance d below the thickness τ: E = ½ k (τ − d)²,
/// and its force −∇E = k (τ − d) ∇d on the vertex and the triangle's corners.
pub fn penalty(pair: &Proximity, k: f64, thickness: f64) -> (f64, [V3; 4]) {
    let depth = (thickness - pair.distance).max(0.0);
    (0.5 * k * depth * depth, pair.gradient().map(|g| g * (k * depth)))
}
// ANCHOR_END: penalty

/// The penalty energy of vertex x[0] over the triangle x[1..4] on side `side` (±1),
/// computed from the positions alone: the normal and the height again, no weights.
/// The reference the tests differentiate.
pub fn penalty_energy(x: &[V3; 4], side: f64, k: f64, thickness: f64) -> f64 {
    let n = (x[2] - x[1]).cross(&(x[3] - x[1])).normalize();
    let depth = (thickness - side * n.dot(&(x[0] - x[1]))).max(0.0);
    0.5 * k * depth * depth
}

/// A cloth's self-contact: its thickness and stiffness, chapter 7's tree over its
/// triangles, and which side of each nearby triangle each vertex is on.
#[derive(Debug, Clone)]
pub struct SelfContact {
    /// Two layers closer than this push apart (m).
    pub thickness: f64,
    /// The penalty's stiffness k (N/m).
    pub stiffness: f64,
    /// Whether pairs push; if not, they are only watched (to show what happens
    /// without).
    pub respond: bool,
    /// The smallest signed distance of any pair seen so far (m).
    pub closest: Option<f64>,
    /// The smallest signed distance of the last look (m).
    pub nearest: Option<f64>,
    triangles: Vec<[usize; 3]>,
    tree: Option<Bvh>,
    /// The side σ of each (vertex, triangle) pair within reach at the last look.
    sides: BTreeMap<(usize, usize), f64>,
}

impl SelfContact {
    /// Self-contact for a cloth of `triangles` (corner indices), `thickness` (m)
    /// thick, pushing apart with stiffness `stiffness` (N/m).
    pub fn new(
        triangles: Vec<[usize; 3]>,
        thickness: f64,
        stiffness: f64,
    ) -> Result<Self, PbmError> {
        Ok(SelfContact {
            thickness: positive("self-contact", "thickness", thickness)?,
            stiffness: positive("self-contact", "stiffness", stiffness)?,
            respond: true,
            closest: None,
            nearest: None,
            triangles,
            tree: None,
            sides: BTreeMap::new(),
        })
    }

    // ANCHOR: tree
    /// Chapter 7's tree over the cloth's triangles, each box grown by half of
    /// `reach` (m), so that two boxes meet when their triangles come within the
    /// reach: refitted to `x`, or rebuilt, with room to spare, when the reach has
    /// outgrown its margin or shrunk to a quarter of it.
    fn tree(&mut self, x: &[V3], reach: f64) -> Result<&Bvh, PbmError> {
        let margin = 0.5 * reach;
        match &mut self.tree {
            Some(tree) if (margin..4.0 * margin).contains(&tree.margin()) => {
                tree.refit(x)?
            }
            _ => self.tree = Some(Bvh::build(&self.triangles, x, 2.0 * margin)?),
        }
        self.tree
            .as_ref()
            .ok_or_else(|| PbmError::degenerate("self-contact", "no tree"))
    }
    // ANCHOR_END: tree

    // ANCHOR: candidates
    /// Vertex–triangle pairs whose vertex stands over its triangle within `reach`
    /// (m) of its plane, as (vertex, triangle, n̂, height, weights) of [`foot`],
    /// sorted. Each vertex of one triangle of a pair the tree finds is tried
    /// against the other, unless all six particles are `fixed`. Two triangles
    /// sharing a corner are never a pair, so a vertex is never tried against a
    /// triangle next to it.
    fn candidates(
        &mut self,
        x: &[V3],
        fixed: &[bool],
        reach: f64,
    ) -> Result<Vec<Over>, PbmError> {
        let triangle_pairs = self.tree(x, reach)?.self_pairs().0;
        let mut over = Vec::new();
        for (s, t) in triangle_pairs {
            let (ts, tt) = (self.triangles[s], self.triangles[t]);
            // Two triangles held in place never move toward each other.
            if ts.iter().chain(&tt).all(|&i| fixed[i]) {
                continue;
            }
            let tries = ts.iter().map(|&p| (p, t)).chain(tt.iter().map(|&p| (p, s)));
            for (p, t) in tries {
                let [a, b, c] = self.triangles[t];
                if let Some((n, height, w)) = foot(&x[p], [&x[a], &x[b], &x[c]])
                    && height.abs() <= reach
                    && w.iter().all(|&w| w >= -BORDER)
                {
                    over.push((p, t, n, height, w));
                }
            }
        }
        // A vertex of several triangles near t is tried against t once for each.
        over.sort_unstable_by_key(|o| (o.0, o.1));
        over.dedup_by_key(|o| (o.0, o.1));
        Ok(over)
    }
    // ANCHOR_END: candidates

    // ANCHOR: find
    /// The pairs at positions `x` (particles `fixed` held in place) whose vertex
    /// stands over its triangle within `reach` (m) of its plane. A pair keeps the
    /// side it was first seen on, so a vertex that has passed through has d < 0.
    pub fn find(
        &mut self,
        x: &[V3],
        fixed: &[bool],
        reach: f64,
    ) -> Result<Vec<Proximity>, PbmError> {
        let mut found = Vec::new();
        let mut sides = BTreeMap::new();
        for (p, t, n, height, weights) in self.candidates(x, fixed, reach)? {
            let side = match self.sides.get(&(p, t)) {
                Some(&side) => side,
                None => height.signum(),
            };
            sides.insert((p, t), side);
            let [a, b, c] = self.triangles[t];
            found.push(Proximity {
                ids: [p, a, b, c],
                weights,
                normal: n * side,
                distance: height * side,
            });
        }
        self.sides = sides;
        self.nearest = found.iter().map(|p| p.distance).reduce(f64::min);
        if let Some(d) = self.nearest {
            self.closest = Some(self.closest.map_or(d, |c| c.min(d)));
        }
        Ok(found)
    }
    // ANCHOR_END: find
}

// ANCHOR: rank_one
/// One pair's stiffness in the solve, s g gᵀ over its four particles (g = ∇d,
/// with a pinned particle's entry zero).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RankOne {
    /// The particles.
    pub ids: [usize; 4],
    /// g, one vector per particle.
    pub g: [V3; 4],
    /// s (kg).
    pub scale: f64,
}

impl RankOne {
    /// Particle k's diagonal block, s g_k g_kᵀ.
    pub fn diagonal(&self, k: usize) -> Matrix3<f64> {
        self.g[k] * self.g[k].transpose() * self.scale
    }
}
// ANCHOR_END: rank_one

// ANCHOR: with_pairs
/// The matrix of the solve with the pairs' stiffness added, A + Σ s g gᵀ, applied
/// without forming it. `base` already holds each pair's diagonal blocks, where
/// its block-Jacobi preconditioner sees them; a product adds the rest, s g_k
/// (gᵀx − g_k·x_k) to particle k.
pub struct WithPairs<'a, A: LinearOperator> {
    /// A with the pairs' diagonal blocks.
    pub base: A,
    /// The pairs.
    pub pairs: &'a [RankOne],
}

impl<A: LinearOperator> LinearOperator for WithPairs<'_, A> {
    fn dimension(&self) -> usize {
        self.base.dimension()
    }
    fn apply(&self, x: &[f64], y: &mut [f64]) {
        self.base.apply(x, y);
        for pair in self.pairs {
            let at = |k: usize| V3::from_column_slice(&x[3 * k..3 * k + 3]);
            let along: [f64; 4] =
                std::array::from_fn(|k| pair.g[k].dot(&at(pair.ids[k])));
            let total: f64 = along.iter().sum();
            for (k, &i) in pair.ids.iter().enumerate() {
                let add = pair.g[k] * (pair.scale * (total - along[k]));
                for r in 0..3 {
                    y[3 * i + r] += add[r];
                }
            }
        }
    }
    fn precondition(&self, r: &[f64], z: &mut [f64]) {
        self.base.precondition(r, z);
    }
}
// ANCHOR_END: with_pairs
