//! Distance and depth through the Minkowski difference A − B = {a − b : a ∈ A, b ∈ B}.
//! Two convex shapes are apart by the distance from the origin to A − B and overlap
//! exactly when A − B holds the origin, then by the origin's distance to its boundary.
//! GJK (Gilbert, Johnson and Keerthi 1988) finds the first and EPA (the expanding
//! polytope algorithm, van den Bergen 2001) the second, both from support points of
//! A − B alone. The same code runs in the plane (D = 2) and in space (D = 3).

use crate::polygon::{ConvexPolygon, Status};
use crate::polyhedron::ConvexPolyhedron;
use nalgebra::{Matrix3, SVector, Vector2, Vector3};

/// A point or a direction in the plane (D = 2) or in space (D = 3).
pub type Point<const D: usize> = SVector<f64, D>;

// ANCHOR: support
/// A convex shape known by its support mapping: for a direction d, a point s(d) of
/// the shape farthest along d, so that d·s(d) = max over the shape of d·x.
pub trait Support<const D: usize> {
    /// A point of the shape farthest along `d`.
    fn support(&self, d: &Point<D>) -> Point<D>;
}

/// The vertex farthest along `d`: a linear function is largest over a polytope at one
/// of its vertices, so a vertex list is a polytope's support mapping.
fn farthest<const D: usize>(vertices: &[Point<D>], d: &Point<D>) -> Point<D> {
    let mut best = vertices[0];
    for v in &vertices[1..] {
        if d.dot(v) > d.dot(&best) {
            best = *v;
        }
    }
    best
}

impl Support<3> for ConvexPolyhedron {
    fn support(&self, d: &Vector3<f64>) -> Vector3<f64> {
        farthest(self.vertices(), d)
    }
}

impl Support<2> for ConvexPolygon {
    fn support(&self, d: &Vector2<f64>) -> Vector2<f64> {
        farthest(self.vertices(), d)
    }
}
// ANCHOR_END: support

// ANCHOR: difference_support
/// A point w = a − b of the Minkowski difference A − B, with the point a of A and the
/// point b of B it is made of.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DiffPoint<const D: usize> {
    /// The point of A − B.
    pub w: Point<D>,
    /// Its point of A.
    pub a: Point<D>,
    /// Its point of B.
    pub b: Point<D>,
}

/// The support mapping of A − B: s_{A−B}(d) = s_A(d) − s_B(−d), because
/// d·(a − b) = d·a + (−d)·b is largest when each term is.
pub fn difference_support<const D: usize>(
    a: &impl Support<D>,
    b: &impl Support<D>,
    d: &Point<D>,
) -> DiffPoint<D> {
    let (on_a, on_b) = (a.support(d), b.support(&-d));
    DiffPoint { w: on_a - on_b, a: on_a, b: on_b }
}
// ANCHOR_END: difference_support

/// The gap along the unit direction `n` pointing from A towards B, from one support
/// point of A − B: min over B of n·b − max over A of n·a = −n·s_{A−B}(n). It is the
/// separating-axis gap of the chapter's search, and never exceeds the distance.
pub fn support_gap<const D: usize>(
    a: &impl Support<D>,
    b: &impl Support<D>,
    n: &Point<D>,
) -> f64 {
    -n.dot(&difference_support(a, b, n).w)
}

// ANCHOR: affine_weights
/// The point of the flat through `w` (one to four points) nearest the origin, as
/// weights λ with Σλ = 1: the point is Σ λᵢ wᵢ. With eᵢ = wᵢ − w₀, the point
/// x = w₀ + Σ μᵢ eᵢ is nearest when it is perpendicular to every eⱼ, which is
/// Σᵢ (eᵢ·eⱼ) μᵢ = −w₀·eⱼ; then λ = (1 − Σμ, μ₁, μ₂, μ₃). `None` when the points
/// lie in a smaller flat (the matrix eᵢ·eⱼ is then singular).
fn affine_weights<const D: usize>(w: &[Point<D>]) -> Option<[f64; 4]> {
    let k = w.len() - 1;
    let e = |i: usize| w[i + 1] - w[0];
    // Padded with the identity, one 3 × 3 solve serves every size.
    let gram = Matrix3::from_fn(|i, j| match (i < k && j < k, i == j) {
        (true, _) => e(i).dot(&e(j)),
        (false, true) => 1.0,
        (false, false) => 0.0,
    });
    let rhs = Vector3::from_fn(|j, _| if j < k { -w[0].dot(&e(j)) } else { 0.0 });
    // The determinant over the product of the diagonal is the squared sine of the
    // angle between two edges, or its like for three.
    let diagonal = gram[(0, 0)] * gram[(1, 1)] * gram[(2, 2)];
    let independent = gram.determinant() > 1e-14 * diagonal;
    if !independent {
        return None;
    }
    let mu = gram.cholesky()?.solve(&rhs);
    Some([1.0 - mu.sum(), mu[0], mu[1], mu[2]])
}
// ANCHOR_END: affine_weights

/// The point of a simplex nearest the origin: the points of the simplex's face that
/// holds it, and its weights on them (λᵢ > 0, Σλ = 1).
#[derive(Debug, Clone, PartialEq)]
pub struct Nearest<const D: usize> {
    /// The face: one point, a segment, a triangle or a tetrahedron.
    pub face: Vec<DiffPoint<D>>,
    /// The weights, one for each point of the face.
    pub weights: Vec<f64>,
}

impl<const D: usize> Nearest<D> {
    /// The nearest point itself, Σ λᵢ wᵢ.
    pub fn point(&self) -> Point<D> {
        self.face.iter().zip(&self.weights).map(|(p, l)| p.w * *l).sum()
    }

    /// The same weights on A's points: the point of A it comes from.
    pub fn on_a(&self) -> Point<D> {
        self.face.iter().zip(&self.weights).map(|(p, l)| p.a * *l).sum()
    }

    /// The same weights on B's points.
    pub fn on_b(&self) -> Point<D> {
        self.face.iter().zip(&self.weights).map(|(p, l)| p.b * *l).sum()
    }
}

// ANCHOR: nearest
/// The point of a simplex (a point, segment, triangle or tetrahedron) nearest the
/// origin. It lies inside exactly one face of the simplex, and there it is the
/// nearest point of that face's flat, with every weight positive. So: of the faces
/// whose flat's nearest point has positive weights, take the one nearest the origin.
/// Each candidate is a point of the simplex, so a face computed poorly can never
/// beat the true answer, only lose to it.
pub fn nearest<const D: usize>(simplex: &[DiffPoint<D>]) -> Nearest<D> {
    let mut best = Nearest { face: vec![simplex[0]], weights: vec![1.0] };
    let mut best_distance = simplex[0].w.norm_squared();
    for subset in 2..1usize << simplex.len() {
        let face: Vec<DiffPoint<D>> = (0..simplex.len())
            .filter(|i| subset >> i & 1 == 1)
            .map(|i| simplex[i])
            .collect();
        let points: Vec<Point<D>> = face.iter().map(|p| p.w).collect();
        let Some(lambda) = affine_weights(&points) else { continue };
        let weights = lambda[..face.len()].to_vec();
        if weights.iter().all(|&l| l > 0.0) {
            let candidate = Nearest { face, weights };
            let distance = candidate.point().norm_squared();
            if distance < best_distance {
                (best, best_distance) = (candidate, distance);
            }
        }
    }
    best
}
// ANCHOR_END: nearest

/// What GJK finds about two convex shapes.
#[derive(Debug, Clone, PartialEq)]
pub enum Proximity<const D: usize> {
    /// Apart: the distance between them, and the nearest point of each.
    Apart {
        /// The distance.
        distance: f64,
        /// The point of A nearest B.
        on_a: Point<D>,
        /// The point of B nearest A.
        on_b: Point<D>,
    },
    /// Overlapping, or touching to within [`GJK_TOLERANCE`]: a simplex of A − B that
    /// holds the origin, where EPA starts.
    Overlapping {
        /// The simplex.
        simplex: Vec<DiffPoint<D>>,
    },
}

/// GJK's answer, and its work.
#[derive(Debug, Clone, PartialEq)]
pub struct Gjk<const D: usize> {
    /// Apart or overlapping.
    pub proximity: Proximity<D>,
    /// The nearest point of A − B to the origin found (zero when they overlap):
    /// where to start next step, when the shapes have moved a little.
    pub nearest: Point<D>,
    /// How many support points of A − B it took.
    pub supports: usize,
}

/// How close GJK and EPA get, as a share of the size of A − B: they stop when the
/// distance (or depth) is known to within it.
pub const GJK_TOLERANCE: f64 = 1e-12;

/// The most support points GJK or EPA takes: a guard against roundoff cycling, far
/// above what a pair of polytopes needs (|v| falls at every step, so no simplex of
/// A − B's finitely many vertices comes back).
pub const MAX_SUPPORTS: usize = 200;

/// The unit vector along the first axis, x: where GJK starts with nothing better.
fn x_axis<const D: usize>() -> Point<D> {
    Point::<D>::from_fn(|i, _| if i == 0 { 1.0 } else { 0.0 })
}

/// GJK from scratch: [`gjk_from`] started from A − B's point farthest along −x.
pub fn gjk<const D: usize>(a: &impl Support<D>, b: &impl Support<D>) -> Gjk<D> {
    gjk_from(a, b, &x_axis(), |_, _| {})
}

// ANCHOR: gjk
/// GJK, starting from the point of A − B farthest along −`start` (last step's
/// nearest point is a good start), and calling `watch` with each simplex and its
/// point nearest the origin. The simplex's nearest point v is the best guess at
/// A − B's; the support point w = s(−v) is A − B's farthest towards the origin, and
/// every point x of A − B has v·x ≥ v·w, so the distance lies between v·w/|v| and
/// |v|. When the two meet, v is the answer; else w joins the simplex, which then
/// keeps only the face holding its new nearest point. A simplex of D + 1 points
/// whose nearest point is inside it, or a v of length zero, holds the origin.
pub fn gjk_from<const D: usize>(
    a: &impl Support<D>,
    b: &impl Support<D>,
    start: &Point<D>,
    mut watch: impl FnMut(&[DiffPoint<D>], &Point<D>),
) -> Gjk<D> {
    let first = difference_support(a, b, &-start);
    let (mut simplex, mut supports, mut size) = (vec![first], 1, first.w.norm());
    loop {
        let near = nearest(&simplex);
        let v = near.point();
        simplex.clone_from(&near.face);
        watch(&simplex, &v);
        let tolerance = GJK_TOLERANCE * size;
        if simplex.len() == D + 1 || v.norm() <= tolerance {
            let proximity = Proximity::Overlapping { simplex };
            return Gjk { proximity, nearest: Point::<D>::zeros(), supports };
        }
        let w = difference_support(a, b, &-v);
        supports += 1;
        size = size.max(w.w.norm());
        let lower = v.dot(&w.w) / v.norm();
        let stalled = simplex.iter().any(|p| p.w == w.w) || supports >= MAX_SUPPORTS;
        if v.norm() - lower <= tolerance || stalled {
            let (on_a, on_b) = (near.on_a(), near.on_b());
            let proximity = Proximity::Apart { distance: v.norm(), on_a, on_b };
            return Gjk { proximity, nearest: v, supports };
        }
        simplex.push(w);
    }
}
// ANCHOR_END: gjk

// ANCHOR: nearest_cache
/// GJK's counterpart of the chapter's cached separating plane, for one pair: last
/// step's nearest point v of A − B. Its direction n = −v/|v|, from A towards B,
/// costs one support point to try, and if the gap along it is still more than ε
/// the pair is apart; only when it fails does GJK run, from v.
#[derive(Debug, Clone, Default)]
pub struct NearestCache<const D: usize> {
    nearest: Option<Point<D>>,
    /// Tests answered by the cached direction alone.
    pub reused: usize,
    /// Tests that ran GJK (and EPA when the pair overlapped).
    pub searched: usize,
    /// Support points of A − B taken in all.
    pub supports: usize,
}

// ANCHOR_END: nearest_cache

impl<const D: usize> NearestCache<D> {
    // ANCHOR: nearest_cache_test
    /// Classifies the pair, trying last step's nearest direction first.
    pub fn test(
        &mut self,
        a: &impl Support<D>,
        b: &impl Support<D>,
        epsilon: f64,
    ) -> Status {
        if let Some(v) = self.nearest {
            self.supports += 1;
            if support_gap(a, b, &-v.normalize()) > epsilon {
                self.reused += 1;
                return Status::Disjoint;
            }
        }
        self.searched += 1;
        let start = self.nearest.unwrap_or_else(x_axis);
        let found = gjk_from(a, b, &start, |_, _| {});
        self.supports += found.supports;
        match found.proximity {
            Proximity::Apart { distance, .. } => {
                self.nearest = Some(found.nearest);
                Status::of(distance, epsilon)
            }
            Proximity::Overlapping { simplex } => {
                self.nearest = None;
                let depth = epa(a, b, &simplex);
                self.supports += depth.as_ref().map_or(0, |d| d.supports);
                Status::of(-depth.map_or(0.0, |d| d.depth), epsilon)
            }
        }
    }
    // ANCHOR_END: nearest_cache_test
}

/// How deep two shapes overlap, by EPA.
#[derive(Debug, Clone, PartialEq)]
pub struct Depth<const D: usize> {
    /// The least distance B must move to part from A.
    pub depth: f64,
    /// The unit direction it must move in, from A towards B: the chapter's
    /// separating direction.
    pub normal: Point<D>,
    /// The deepest point of A, which B's deepest point reaches after that move.
    pub on_a: Point<D>,
    /// The deepest point of B.
    pub on_b: Point<D>,
    /// How many support points of A − B it took, beyond GJK's.
    pub supports: usize,
}

/// A facet of EPA's polytope: D of its points (a segment in the plane, a triangle in
/// space), its outward unit normal and how far its plane lies from the origin.
#[derive(Debug, Clone, PartialEq)]
pub struct Facet<const D: usize> {
    /// The indices of its points in the polytope's list.
    pub corners: [usize; D],
    /// The outward unit normal.
    pub normal: Point<D>,
    /// The plane's distance from the origin, along the normal.
    pub distance: f64,
}

/// `vectors` made orthonormal (Gram–Schmidt), dropping any that adds no new
/// direction beyond `tiny`.
fn orthonormal<const D: usize>(vectors: &[Point<D>], tiny: f64) -> Vec<Point<D>> {
    let mut basis: Vec<Point<D>> = Vec::with_capacity(vectors.len());
    for v in vectors {
        let mut e = *v;
        for u in &basis {
            e -= u * u.dot(&e);
        }
        if e.norm() > tiny {
            basis.push(e.normalize());
        }
    }
    basis
}

// ANCHOR: facet
/// The facet through `corners` of `points`, its normal pointing away from `inside`,
/// a point inside the polytope: the part of p₀ − inside perpendicular to the facet's
/// edges pᵢ − p₀, made a unit vector. `None` for a facet too thin to have a normal.
fn facet<const D: usize>(
    points: &[DiffPoint<D>],
    corners: [usize; D],
    inside: &Point<D>,
    tiny: f64,
) -> Option<Facet<D>> {
    let p0 = points[corners[0]].w;
    let edges: Vec<Point<D>> =
        corners[1..].iter().map(|&c| points[c].w - p0).collect();
    let basis = orthonormal(&edges, tiny);
    if basis.len() < D - 1 {
        return None;
    }
    let mut n = p0 - inside;
    for u in &basis {
        n -= u * u.dot(&n);
    }
    (n.norm() > tiny).then(|| {
        let normal = n.normalize();
        Facet { corners, normal, distance: normal.dot(&p0) }
    })
}
// ANCHOR_END: facet

/// GJK's simplex grown to D + 1 points that span the space, still holding the origin:
/// while it is flat, add the support point of A − B along a direction off its flat,
/// whichever way along it leaves the flat further. `None` when A − B itself is flat.
fn fill_simplex<const D: usize>(
    a: &impl Support<D>,
    b: &impl Support<D>,
    simplex: &[DiffPoint<D>],
    supports: &mut usize,
    tiny: f64,
) -> Option<Vec<DiffPoint<D>>> {
    let mut points = simplex.to_vec();
    while points.len() < D + 1 {
        let p0 = points[0].w;
        let edges: Vec<Point<D>> = points[1..].iter().map(|p| p.w - p0).collect();
        let basis = orthonormal(&edges, tiny);
        // Of the coordinate axes, the one with the largest part off the flat.
        let off = |k: usize| {
            let mut e = Point::<D>::zeros();
            e[k] = 1.0;
            basis.iter().fold(e, |e, u| e - u * u.dot(&e))
        };
        let n = (0..D).map(off).max_by(|p, q| p.norm().total_cmp(&q.norm()))?;
        let n = n.normalize();
        let ways = [difference_support(a, b, &n), difference_support(a, b, &-n)];
        *supports += 2;
        let height = |p: &DiffPoint<D>| n.dot(&(p.w - p0)).abs();
        let w = if height(&ways[0]) >= height(&ways[1]) { ways[0] } else { ways[1] };
        if height(&w) <= tiny {
            return None;
        }
        points.push(w);
    }
    Some(points)
}

/// EPA from GJK's simplex (see [`epa_watched`]).
pub fn epa<const D: usize>(
    a: &impl Support<D>,
    b: &impl Support<D>,
    simplex: &[DiffPoint<D>],
) -> Option<Depth<D>> {
    epa_watched(a, b, simplex, |_, _| {})
}

// ANCHOR: epa
/// EPA: the depth is the origin's distance to A − B's boundary, the least distance
/// of its facets' planes. From GJK's simplex, a polytope inside A − B holding the
/// origin, repeat: take the facet nearest the origin, and A − B's support point w
/// along its normal n. If w is no further out than the facet, the facet is on A − B's
/// boundary: its distance is the depth, n the direction. Else w joins the polytope
/// ([`expand`]). `watch` sees each polytope. `None` for a flat A − B (no volume).
pub fn epa_watched<const D: usize>(
    a: &impl Support<D>,
    b: &impl Support<D>,
    simplex: &[DiffPoint<D>],
    mut watch: impl FnMut(&[DiffPoint<D>], &[Facet<D>]),
) -> Option<Depth<D>> {
    let size = simplex.iter().map(|p| p.w.norm()).fold(0.0, f64::max);
    let (mut supports, tiny) = (0, GJK_TOLERANCE * size.max(f64::MIN_POSITIVE));
    let mut points = fill_simplex(a, b, simplex, &mut supports, tiny)?;
    let inside = points.iter().map(|p| p.w).sum::<Point<D>>() / (D + 1) as f64;
    // The simplex's facets: leave out one point at a time.
    let mut facets = Vec::with_capacity(D + 1);
    for out in 0..=D {
        let corners = std::array::from_fn(|k| if k < out { k } else { k + 1 });
        facets.push(facet(&points, corners, &inside, tiny)?);
    }
    loop {
        watch(&points, &facets);
        let near = facets.iter().min_by(|f, g| f.distance.total_cmp(&g.distance))?;
        let near = near.clone();
        let w = difference_support(a, b, &near.normal);
        supports += 1;
        let beyond = near.normal.dot(&(w.w - points[near.corners[0]].w));
        if beyond <= tiny || supports >= MAX_SUPPORTS {
            return Some(depth_at(&points, &near, supports));
        }
        points.push(w);
        match expand(&points, facets, &inside, tiny) {
            Some(grown) => facets = grown,
            // A new facet with no normal would leave a hole: stop at the best so far.
            None => return Some(depth_at(&points, &near, supports)),
        }
    }
}
// ANCHOR_END: epa

// ANCHOR: expand
/// The polytope's facets once its newest point w has joined it: the facets that
/// see w (have it more than `tiny` in front of their planes) go, and each ridge of
/// the hole they leave, its horizon, is joined to w by a new facet. `None` if a new
/// facet is too thin to have a normal.
fn expand<const D: usize>(
    points: &[DiffPoint<D>],
    facets: Vec<Facet<D>>,
    inside: &Point<D>,
    tiny: f64,
) -> Option<Vec<Facet<D>>> {
    let new = points.len() - 1;
    let sees =
        |f: &Facet<D>| f.normal.dot(&(points[new].w - points[f.corners[0]].w)) > tiny;
    let (seen, mut kept): (Vec<Facet<D>>, Vec<Facet<D>>) =
        facets.into_iter().partition(sees);
    for ridge in horizon(&seen) {
        let corners = std::array::from_fn(|k| if k + 1 < D { ridge[k] } else { new });
        kept.push(facet(points, corners, inside, tiny)?);
    }
    Some(kept)
}
// ANCHOR_END: expand

// ANCHOR: horizon
/// The ridges (a facet's corners but one) that border the `seen` facets on one side
/// only: the rim of the hole the seen facets leave, where the new point joins.
fn horizon<const D: usize>(seen: &[Facet<D>]) -> Vec<Vec<usize>> {
    let mut ridges: Vec<(Vec<usize>, usize)> = Vec::new();
    for f in seen {
        for out in 0..D {
            let mut ridge: Vec<usize> =
                (0..D).filter(|&k| k != out).map(|k| f.corners[k]).collect();
            ridge.sort_unstable();
            match ridges.iter_mut().find(|(r, _)| *r == ridge) {
                Some((_, count)) => *count += 1,
                None => ridges.push((ridge, 1)),
            }
        }
    }
    ridges.into_iter().filter(|(_, count)| *count == 1).map(|(r, _)| r).collect()
}
// ANCHOR_END: horizon

/// EPA's answer at `near`, the facet of A − B nearest the origin: its distance and
/// normal, and the point of it nearest the origin, depth × normal, as weights on its
/// corners, carried over to A's and B's points.
fn depth_at<const D: usize>(
    points: &[DiffPoint<D>],
    near: &Facet<D>,
    supports: usize,
) -> Depth<D> {
    let corners: Vec<DiffPoint<D>> =
        near.corners.iter().map(|&c| points[c]).collect();
    let flat: Vec<Point<D>> = corners.iter().map(|p| p.w).collect();
    let weights = affine_weights(&flat)
        .map_or_else(|| vec![1.0 / D as f64; D], |l| l[..D].to_vec());
    let touching = Nearest { face: corners, weights };
    Depth {
        depth: near.distance,
        normal: near.normal,
        on_a: touching.on_a(),
        on_b: touching.on_b(),
        supports,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::polygon;
    use crate::polyhedron::{PlaneCache, separation};
    use crate::scenes::{SolidKind, hull, random_pair};
    use nalgebra::UnitQuaternion;
    use pbm_prelim::sampling::sample;

    type V3 = Vector3<f64>;

    /// What the tests hold distances and depths to: shapes about a metre across,
    /// and GJK and EPA stop within 10⁻¹² of their size, so this leaves roundoff a
    /// thousandfold margin and still catches a wrong face or a step short.
    const TOL: f64 = 1e-9;

    fn cube_at(x: f64, y: f64, z: f64) -> ConvexPolyhedron {
        ConvexPolyhedron::cuboid(V3::new(x, y, z), V3::new(0.5, 0.5, 0.5)).unwrap()
    }

    /// The point of segment pq nearest x.
    fn on_segment<const D: usize>(
        x: &Point<D>,
        p: &Point<D>,
        q: &Point<D>,
    ) -> Point<D> {
        let e = q - p;
        let t = if e.norm_squared() > 0.0 {
            ((x - p).dot(&e) / e.norm_squared()).clamp(0.0, 1.0)
        } else {
            0.0
        };
        p + e * t
    }

    /// The nearest points of segments p0p1 and q0q1, by direct formulas: the
    /// nearest pair of the two lines when it falls inside both segments, else the
    /// best of each end against the other segment.
    fn segment_pair(p0: V3, p1: V3, q0: V3, q1: V3) -> (f64, V3, V3) {
        let mut best = (f64::INFINITY, p0, q0);
        let mut consider = |x: V3, y: V3| {
            if (x - y).norm() < best.0 {
                best = ((x - y).norm(), x, y);
            }
        };
        consider(p0, on_segment(&p0, &q0, &q1));
        consider(p1, on_segment(&p1, &q0, &q1));
        consider(on_segment(&q0, &p0, &p1), q0);
        consider(on_segment(&q1, &p0, &p1), q1);
        let (d1, d2, r) = (p1 - p0, q1 - q0, p0 - q0);
        let (a, e, b) = (d1.dot(&d1), d2.dot(&d2), d1.dot(&d2));
        let (c, f) = (d1.dot(&r), d2.dot(&r));
        let denominator = a * e - b * b;
        if denominator > 1e-12 * a * e {
            let s = (b * f - c * e) / denominator;
            let t = (a * f - b * c) / denominator;
            if (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&t) {
                consider(p0 + d1 * s, q0 + d2 * t);
            }
        }
        best
    }

    /// The foot of x on face f of `solid`, if it falls inside the face.
    fn foot_on_face(solid: &ConvexPolyhedron, f: usize, x: &V3) -> Option<V3> {
        let (n, face) = (solid.normal(f), &solid.faces()[f]);
        let o = solid.vertices()[face[0]];
        let foot = x - n * n.dot(&(x - o));
        let inside = (0..face.len()).all(|k| {
            let (u, w) = (
                solid.vertices()[face[k]],
                solid.vertices()[face[(k + 1) % face.len()]],
            );
            n.dot(&(w - u).cross(&(foot - u))) >= 0.0
        });
        inside.then_some(foot)
    }

    /// The distance between two disjoint convex polyhedra and a nearest pair of
    /// points, by brute force over their features: every vertex against every face
    /// of the other (when its foot lands inside the face) and every edge against
    /// every edge. The nearest points of two disjoint polytopes are one of these
    /// pairs. Nothing of GJK is used.
    fn brute_distance(a: &ConvexPolyhedron, b: &ConvexPolyhedron) -> (f64, V3, V3) {
        let mut best = (f64::INFINITY, V3::zeros(), V3::zeros());
        let mut consider = |d: f64, x: V3, y: V3| {
            if d < best.0 {
                best = (d, x, y);
            }
        };
        for (p, q, p_is_a) in [(a, b, true), (b, a, false)] {
            for v in p.vertices() {
                for f in 0..q.faces().len() {
                    if let Some(foot) = foot_on_face(q, f, v) {
                        let (x, y) = if p_is_a { (*v, foot) } else { (foot, *v) };
                        consider((v - foot).norm(), x, y);
                    }
                }
            }
        }
        for &[i, j] in a.edges() {
            for &[k, l] in b.edges() {
                let (d, x, y) = segment_pair(
                    a.vertices()[i],
                    a.vertices()[j],
                    b.vertices()[k],
                    b.vertices()[l],
                );
                consider(d, x, y);
            }
        }
        best
    }

    /// The gap along `n` (from A towards B) from the vertex lists.
    fn gap_along(a: &ConvexPolyhedron, b: &ConvexPolyhedron, n: &V3) -> f64 {
        let least_b =
            b.vertices().iter().map(|v| n.dot(v)).fold(f64::INFINITY, f64::min);
        let most_a =
            a.vertices().iter().map(|v| n.dot(v)).fold(f64::NEG_INFINITY, f64::max);
        least_b - most_a
    }

    /// Whether x lies in the solid, to within TOL of its faces' planes.
    fn holds(solid: &ConvexPolyhedron, x: &V3) -> bool {
        (0..solid.faces().len()).all(|f| {
            let o = solid.vertices()[solid.faces()[f][0]];
            solid.normal(f).dot(&(x - o)) <= TOL
        })
    }

    /// What a pair turned out to be.
    #[derive(Debug, PartialEq)]
    enum Verdict {
        Apart,
        Overlapping,
    }

    /// GJK, and EPA when they overlap, against brute force (the distance) and the
    /// chapter's separating axes (the depth, and the sign). Returns GJK's verdict.
    fn check_pair(a: &ConvexPolyhedron, b: &ConvexPolyhedron, what: &str) -> Verdict {
        let (sat, _) = separation(a, b);
        match gjk(a, b).proximity {
            Proximity::Apart { distance, on_a, on_b } => {
                // The separating axes never find more room than there is, and find
                // some whenever there is any: their sign is GJK's.
                assert!(sat <= distance + TOL, "{what}: SAT {sat} > GJK {distance}");
                assert!(
                    sat > -TOL,
                    "{what}: GJK apart by {distance}, SAT overlap {sat}"
                );
                let (brute, _, _) = brute_distance(a, b);
                assert!(
                    (distance - brute).abs() <= TOL,
                    "{what}: GJK {distance}, brute force {brute}"
                );
                assert!(((on_a - on_b).norm() - distance).abs() <= TOL, "{what}");
                assert!(
                    holds(a, &on_a) && holds(b, &on_b),
                    "{what}: points off the solids"
                );
                Verdict::Apart
            }
            Proximity::Overlapping { simplex } => {
                assert!(sat < TOL, "{what}: GJK overlap, SAT apart by {sat}");
                let found = epa(a, b, &simplex).unwrap();
                // For polyhedra the separating axes' depth is the least translation
                // that parts them: A − B's facet normals are all among the axes.
                assert!(
                    (found.depth + sat).abs() <= TOL,
                    "{what}: EPA depth {}, SAT depth {}",
                    found.depth,
                    -sat
                );
                // Its direction attains it, and its points meet after the move.
                let along = gap_along(a, b, &found.normal);
                assert!((along + found.depth).abs() <= TOL, "{what}: gap {along}");
                let moved = found.on_b + found.normal * found.depth;
                assert!((moved - found.on_a).norm() <= TOL, "{what}: witness points");
                assert!(holds(a, &found.on_a) && holds(b, &found.on_b), "{what}");
                Verdict::Overlapping
            }
        }
    }

    #[test]
    fn gjk_and_epa_agree_with_brute_force_and_the_separating_axes_on_random_pairs() {
        let (mut apart, mut overlapping) = (0, 0);
        for seed in 0..600 {
            for kind in [SolidKind::Box, SolidKind::Hull] {
                let (a, b) = random_pair(seed, kind).unwrap();
                match check_pair(&a, &b, &format!("{kind:?} pair {seed}")) {
                    Verdict::Apart => apart += 1,
                    Verdict::Overlapping => overlapping += 1,
                }
            }
        }
        // Both cases well represented among the 1,200.
        assert!(
            apart > 300 && overlapping > 300,
            "{apart} apart, {overlapping} overlapping"
        );
    }

    #[test]
    fn pairs_brought_within_a_nanometre_of_touching_are_measured_to_it() {
        // Random pairs apart, slid along their nearest points' line (found by brute
        // force) to a gap δ of a fraction of a nanometre, or as far past touching.
        let mut checked = 0;
        for seed in 0..400 {
            let kind = if seed % 2 == 0 { SolidKind::Box } else { SolidKind::Hull };
            let (a, b) = random_pair(seed, kind).unwrap();
            if separation(&a, &b).0 <= 1e-3 {
                continue;
            }
            let (d, on_a, on_b) = brute_distance(&a, &b);
            let u = (on_b - on_a) / d;
            let delta = 1e-9 * sample(seed);
            let b = b.placed(-u * (d - delta), UnitQuaternion::identity());
            let what = format!("{kind:?} pair {seed} at δ = {delta:e}");
            // At δ ≥ 0 the gap is δ exactly; past touching (δ < 0) the nearest
            // points have passed each other, and the pair may overlap, or, where
            // a sharp corner slid past, still be apart, but by no more than |δ|.
            match check_pair(&a, &b, &what) {
                Verdict::Apart => {
                    let found = distance(&a, &b);
                    if delta >= 0.0 {
                        assert!((found - delta).abs() <= TOL, "{what}: {found}");
                    } else {
                        assert!(found <= delta.abs() + TOL, "{what}: {found}");
                    }
                }
                // Sliding back |δ| parts them.
                Verdict::Overlapping => {
                    let found = depth(&a, &b).depth;
                    assert!(
                        delta <= TOL && found <= delta.abs() + TOL,
                        "{what}: {found}"
                    );
                }
            }
            checked += 1;
        }
        assert!(checked > 100, "{checked}");
    }

    /// The depth EPA finds for a pair GJK finds overlapping.
    fn depth(a: &ConvexPolyhedron, b: &ConvexPolyhedron) -> Depth<3> {
        match gjk(a, b).proximity {
            Proximity::Overlapping { simplex } => epa(a, b, &simplex).unwrap(),
            other => panic!("{other:?}"),
        }
    }

    /// The distance GJK finds for a pair it finds apart.
    fn distance(a: &ConvexPolyhedron, b: &ConvexPolyhedron) -> f64 {
        match gjk(a, b).proximity {
            Proximity::Apart { distance, .. } => distance,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn degenerate_pairs_of_cubes_are_measured_exactly() {
        let a = cube_at(0.0, 0.0, 0.0);
        // Coincident: every vertex on the other's boundary; a unit move parts them.
        let same = depth(&a, &a);
        assert!((same.depth - 1.0).abs() <= TOL, "{same:?}");
        check_pair(&a, &a, "coincident cubes");
        // Face to face: touching, a little apart, a little in.
        for x in [1.0, 1.0 + 1e-3, 1.0 - 1e-3] {
            check_pair(&a, &cube_at(x, 0.0, 0.0), &format!("face to face at {x}"));
        }
        assert!((distance(&a, &cube_at(1.001, 0.0, 0.0)) - 1e-3).abs() <= TOL);
        let pushed = depth(&a, &cube_at(0.999, 0.0, 0.0));
        assert!((pushed.depth - 1e-3).abs() <= TOL);
        assert!((pushed.normal - V3::x()).norm() <= TOL, "{pushed:?}");
        // Face to face with one slid along, so the faces share only part.
        check_pair(&a, &cube_at(0.999, 0.3, -0.4), "slid face to face");
        // Edge to edge, parallel: touching along a whole edge, then apart and in.
        for s in [1.0, 1.0 + 1e-3, 1.0 - 1e-3] {
            check_pair(&a, &cube_at(s, s, 0.0), &format!("edge to edge at {s}"));
        }
        let across = distance(&a, &cube_at(1.001, 1.001, 0.0));
        assert!((across - 1e-3 * 2f64.sqrt()).abs() <= TOL, "{across}");
        // Corner to corner: the distance is √3 ε where the separating axes, which
        // only bound it below, find ε.
        let corner = cube_at(1.001, 1.001, 1.001);
        assert!((distance(&a, &corner) - 1e-3 * 3f64.sqrt()).abs() <= TOL);
        assert!((separation(&a, &corner).0 - 1e-3).abs() <= TOL);
        // Two cubes turned 45° about different axes, edge across edge, 0.1 apart
        // and 0.1 into each other.
        let turn = |axis: V3| {
            UnitQuaternion::from_scaled_axis(axis * std::f64::consts::FRAC_PI_4)
        };
        let tilted = cube_at(0.0, 0.0, 0.0).placed(V3::zeros(), turn(V3::z()));
        let reach = 2f64.sqrt();
        for (x, what) in [(reach + 0.1, "edges crossed, apart"), (reach - 0.1, "in")]
        {
            let other =
                cube_at(0.0, 0.0, 0.0).placed(V3::new(x, 0.0, 0.0), turn(V3::y()));
            check_pair(&tilted, &other, what);
        }
        let apart = cube_at(0.0, 0.0, 0.0)
            .placed(V3::new(reach + 0.1, 0.0, 0.0), turn(V3::y()));
        assert!((distance(&tilted, &apart) - 0.1).abs() <= TOL);
    }

    #[test]
    fn a_solid_against_itself_and_against_a_copy_inside_it() {
        for seed in 0..50 {
            let (a, _) = random_pair(seed, SolidKind::Hull).unwrap();
            check_pair(&a, &a, &format!("hull {seed} against itself"));
            // A copy shrunk about its centre lies wholly inside.
            let c = a.centre();
            let small: Vec<V3> =
                a.vertices().iter().map(|v| c + (v - c) * 0.3).collect();
            let inner = ConvexPolyhedron::new(small, a.faces().to_vec()).unwrap();
            check_pair(&a, &inner, &format!("hull {seed} around a copy"));
        }
        // A tetrahedron's vertex exactly on a cube's face.
        let tip = hull(&[
            V3::new(0.5, 0.0, 0.0),
            V3::new(1.5, 0.4, 0.0),
            V3::new(1.5, -0.3, 0.3),
            V3::new(1.5, -0.1, -0.4),
        ])
        .unwrap();
        check_pair(&cube_at(0.0, 0.0, 0.0), &tip, "vertex on a face");
    }

    /// A random convex polygon: points on an ellipse at sorted random angles.
    fn random_polygon(seed: u64) -> Option<ConvexPolygon> {
        let r = |k: u64| 0.5 * (sample(1_000 * seed + k) + 1.0);
        let n = 3 + (6.0 * r(0)) as u64;
        let (rx, ry) = (0.3 + 0.7 * r(1), 0.3 + 0.7 * r(2));
        let mut angles: Vec<f64> =
            (0..n).map(|k| std::f64::consts::TAU * r(10 + k)).collect();
        angles.sort_by(f64::total_cmp);
        let points =
            angles.iter().map(|t| Vector2::new(rx * t.cos(), ry * t.sin())).collect();
        let turn = std::f64::consts::TAU * r(3);
        let offset = Vector2::new(3.0 * r(4) - 1.5, 3.0 * r(5) - 1.5);
        ConvexPolygon::new(points).ok().map(|p| p.placed(offset, turn))
    }

    #[test]
    fn in_the_plane_the_same_code_agrees_with_the_polygons_separating_axes() {
        let (mut apart, mut overlapping) = (0, 0);
        for seed in 0..600 {
            let (Some(a), Some(b)) =
                (random_polygon(2 * seed), random_polygon(2 * seed + 1))
            else {
                continue;
            };
            let (sat, _) = polygon::separation(&a, &b);
            match gjk(&a, &b).proximity {
                Proximity::Apart { distance, on_a, on_b } => {
                    // Brute force: every vertex of one against every edge of the other.
                    let mut brute = f64::INFINITY;
                    for (p, q) in [(&a, &b), (&b, &a)] {
                        let m = q.vertices().len();
                        for v in p.vertices() {
                            for k in 0..m {
                                let x = on_segment(
                                    v,
                                    &q.vertices()[k],
                                    &q.vertices()[(k + 1) % m],
                                );
                                brute = brute.min((v - x).norm());
                            }
                        }
                    }
                    assert!(
                        (distance - brute).abs() <= TOL,
                        "pair {seed}: {distance} {brute}"
                    );
                    assert!(((on_a - on_b).norm() - distance).abs() <= TOL);
                    assert!(
                        sat <= distance + TOL && sat > -TOL,
                        "pair {seed}: SAT {sat}"
                    );
                    apart += 1;
                }
                Proximity::Overlapping { simplex } => {
                    let found = epa(&a, &b, &simplex).unwrap();
                    assert!(sat < TOL, "pair {seed}");
                    assert!(
                        (found.depth + sat).abs() <= TOL,
                        "pair {seed}: {found:?} {sat}"
                    );
                    overlapping += 1;
                }
            }
        }
        assert!(
            apart > 100 && overlapping > 100,
            "{apart} apart, {overlapping} overlapping"
        );
    }

    #[test]
    fn the_nearest_point_of_a_simplex_lies_on_the_right_face() {
        let p = |x: f64, y: f64, z: f64| {
            let w = V3::new(x, y, z);
            DiffPoint { w, a: w, b: V3::zeros() }
        };
        // A vertex, an edge's inside, a triangle's inside, and a tetrahedron
        // holding the origin.
        let vertex = nearest(&[p(1.0, 1.0, 0.0), p(2.0, 1.0, 0.0)]);
        assert_eq!(vertex.face.len(), 1);
        assert!((vertex.point() - V3::new(1.0, 1.0, 0.0)).norm() < 1e-15);
        let edge = nearest(&[p(-1.0, 1.0, 0.0), p(1.0, 1.0, 0.0)]);
        assert_eq!(edge.face.len(), 2);
        assert!((edge.point() - V3::new(0.0, 1.0, 0.0)).norm() < 1e-15);
        let triangle =
            nearest(&[p(-1.0, -1.0, 2.0), p(1.0, -1.0, 2.0), p(0.0, 1.0, 2.0)]);
        assert_eq!(triangle.face.len(), 3);
        assert!((triangle.point() - V3::new(0.0, 0.0, 2.0)).norm() < 1e-15);
        let tetrahedron = [
            p(1.0, 1.0, 1.0),
            p(-1.0, -1.0, 1.0),
            p(-1.0, 1.0, -1.0),
            p(1.0, -1.0, -1.0),
        ];
        let inside = nearest(&tetrahedron);
        assert_eq!(inside.face.len(), 4);
        assert!(inside.point().norm() < 1e-15);
        // Moved off, its nearest point is on the face towards the origin.
        let moved: Vec<DiffPoint<3>> =
            tetrahedron.iter().map(|q| p(q.w.x + 3.0, q.w.y, q.w.z)).collect();
        let near = nearest(&moved);
        assert!(near.face.len() < 4 && near.point().x > 1.0, "{near:?}");
    }

    #[test]
    fn the_cached_nearest_direction_classifies_as_the_cached_separating_plane() {
        // The book's pass, and passes lower down that slide over the fixed cube, touch
        // it and go through it. The two could differ only where the separation is
        // within ε and the distance is not (corner to corner), which no step of these
        // passes comes to.
        let fixed = crate::scenes::TumblingPass::cube().unwrap();
        for height in [1.45, 1.0, 0.5, 0.0] {
            let pass = crate::scenes::TumblingPass {
                height,
                ..crate::scenes::TumblingPass::BOOK
            };
            let (mut plane, mut nearest) =
                (PlaneCache::default(), NearestCache::default());
            let mut statuses = [0; 3];
            for k in 0..pass.steps {
                let body = pass.moving(&fixed, k);
                let status = nearest.test(&fixed, &body, 1e-3);
                assert_eq!(
                    status,
                    plane.test(&fixed, &body, 1e-3),
                    "height {height}, step {k}"
                );
                statuses[status as usize] += 1;
            }
            if height == 0.0 {
                // Through the fixed cube: every status occurs.
                assert!(statuses.iter().all(|&n| n > 0), "{statuses:?}");
            }
            if height == 1.45 {
                assert!(nearest.reused * 100 > 95 * pass.steps, "{}", nearest.reused);
            }
        }
    }

    #[test]
    fn started_from_last_steps_nearest_point_gjk_needs_fewer_support_points() {
        let pass = crate::scenes::TumblingPass::BOOK;
        let fixed = crate::scenes::TumblingPass::cube().unwrap();
        let (mut cold, mut warm) = (0, 0);
        let mut start = V3::x();
        for k in 0..pass.steps {
            let body = pass.moving(&fixed, k);
            let from_scratch = gjk(&fixed, &body);
            let from_last = gjk_from(&fixed, &body, &start, |_, _| {});
            assert_eq!(
                matches!(from_scratch.proximity, Proximity::Apart { .. }),
                matches!(from_last.proximity, Proximity::Apart { .. })
            );
            if let (
                Proximity::Apart { distance: d0, .. },
                Proximity::Apart { distance: d1, .. },
            ) = (&from_scratch.proximity, &from_last.proximity)
            {
                assert!((d0 - d1).abs() <= TOL, "step {k}: {d0} {d1}");
            }
            cold += from_scratch.supports;
            warm += from_last.supports;
            start = from_last.nearest;
        }
        assert!(warm < cold, "warm {warm}, cold {cold}");
    }
}
