//! Convex polygons in the plane and the narrow phase between two of them: the
//! separating axis, cached as a witness for the next step, and the contact features
//! (a vertex of one on an edge of the other) when they touch.

use nalgebra::Vector2;
use pbm_prelim::PbmError;

/// A convex polygon: vertices in counter-clockwise order, no three collinear.
#[derive(Debug, Clone, PartialEq)]
pub struct ConvexPolygon {
    vertices: Vec<Vector2<f64>>,
}

fn cross(a: &Vector2<f64>, b: &Vector2<f64>) -> f64 {
    a.x * b.y - a.y * b.x
}

impl ConvexPolygon {
    /// A polygon from its vertices, which must be finite, at least three, in
    /// counter-clockwise order, and turn left strictly at every vertex.
    pub fn new(vertices: Vec<Vector2<f64>>) -> Result<Self, PbmError> {
        let n = vertices.len();
        if n < 3 {
            let why = format!("{n} vertices; a polygon needs at least 3");
            return Err(PbmError::invalid("convex polygon", why));
        }
        if let Some(v) =
            vertices.iter().find(|v| !(v.x.is_finite() && v.y.is_finite()))
        {
            let why = format!("vertex ({}, {}) is not finite", v.x, v.y);
            return Err(PbmError::invalid("convex polygon", why));
        }
        let area2: f64 =
            (0..n).map(|i| cross(&vertices[i], &vertices[(i + 1) % n])).sum();
        if area2 < 0.0 {
            let why = "its vertices run clockwise; list them counter-clockwise";
            return Err(PbmError::invalid("convex polygon", why));
        }
        let scale = vertices.iter().map(|v| v.norm()).fold(1.0, f64::max);
        for i in 0..n {
            let (a, b, c) =
                (vertices[i], vertices[(i + 1) % n], vertices[(i + 2) % n]);
            let turn = cross(&(b - a), &(c - b));
            if turn <= 1e-12 * scale * scale {
                let why = if turn.abs() <= 1e-12 * scale * scale {
                    format!(
                        "vertices {i}, {}, {} are collinear",
                        (i + 1) % n,
                        (i + 2) % n
                    )
                } else {
                    format!("it turns right at vertex {}: not convex", (i + 1) % n)
                };
                return Err(PbmError::invalid("convex polygon", why));
            }
        }
        Ok(ConvexPolygon { vertices })
    }

    /// An axis-aligned rectangle with the given centre and half sizes.
    pub fn rectangle(
        centre: Vector2<f64>,
        half: Vector2<f64>,
    ) -> Result<Self, PbmError> {
        let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)];
        let vertices = corners
            .iter()
            .map(|&(sx, sy)| centre + Vector2::new(sx * half.x, sy * half.y));
        ConvexPolygon::new(vertices.collect())
    }

    /// The vertices, counter-clockwise.
    pub fn vertices(&self) -> &[Vector2<f64>] {
        &self.vertices
    }

    /// The polygon rotated by `angle` (radians) about the origin, then moved by
    /// `offset`.
    pub fn placed(&self, offset: Vector2<f64>, angle: f64) -> Self {
        let (s, c) = angle.sin_cos();
        let vertices = self
            .vertices
            .iter()
            .map(|v| Vector2::new(c * v.x - s * v.y, s * v.x + c * v.y) + offset);
        ConvexPolygon { vertices: vertices.collect() }
    }

    /// Edge `i` runs from vertex i to vertex i + 1; its outward unit normal.
    pub fn normal(&self, i: usize) -> Vector2<f64> {
        let e = self.vertices[(i + 1) % self.vertices.len()] - self.vertices[i];
        Vector2::new(e.y, -e.x) / e.norm()
    }
}

/// A separating axis: the outward normal of an edge of one polygon. `of_b` says whose
/// edge it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Witness {
    /// The edge's polygon is B (else A).
    pub of_b: bool,
    /// The edge.
    pub edge: usize,
}

/// How far `other` lies beyond edge `edge` of `poly`: the least signed distance of its
/// vertices from the edge's line. Positive: the line separates the polygons.
fn beyond(poly: &ConvexPolygon, edge: usize, other: &ConvexPolygon) -> f64 {
    let (n, a) = (poly.normal(edge), poly.vertices[edge]);
    other.vertices.iter().map(|v| n.dot(&(v - a))).fold(f64::INFINITY, f64::min)
}

/// The separation of two convex polygons over all edge normals (the separating axis
/// theorem: they are disjoint exactly when some edge normal separates them), and the
/// edge that attains it. Negative: they interpenetrate, by that depth along it.
pub fn separation(a: &ConvexPolygon, b: &ConvexPolygon) -> (f64, Witness) {
    let mut best = (f64::NEG_INFINITY, Witness { of_b: false, edge: 0 });
    for (of_b, p, q) in [(false, a, b), (true, b, a)] {
        for edge in 0..p.vertices.len() {
            let d = beyond(p, edge, q);
            if d > best.0 {
                best = (d, Witness { of_b, edge });
            }
        }
    }
    best
}

/// Where two polygons stand with respect to the tolerance ε.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Farther apart than ε.
    Disjoint,
    /// Within ε of touching, on either side.
    Contact,
    /// Overlapping by more than ε.
    Interpenetrating,
}

impl Status {
    /// The status of a separation `d` (negative: a depth) with tolerance ε.
    pub fn of(d: f64, epsilon: f64) -> Status {
        if d > epsilon {
            Status::Disjoint
        } else if d >= -epsilon {
            Status::Contact
        } else {
            Status::Interpenetrating
        }
    }
}

/// The narrow phase for one pair, remembering the last separating axis.
#[derive(Debug, Clone, Default)]
pub struct PairCache {
    witness: Option<Witness>,
    /// Tests answered by the cached witness alone.
    pub reused: usize,
    /// Tests that needed the full search.
    pub searched: usize,
}

impl PairCache {
    /// Classifies the pair, trying last step's separating edge first: if it still
    /// separates by more than ε the answer costs one edge's test, not all of them.
    pub fn test(
        &mut self,
        a: &ConvexPolygon,
        b: &ConvexPolygon,
        epsilon: f64,
    ) -> Status {
        if let Some(w) = self.witness {
            let (p, q) = if w.of_b { (b, a) } else { (a, b) };
            if w.edge < p.vertices.len() && beyond(p, w.edge, q) > epsilon {
                self.reused += 1;
                return Status::Disjoint;
            }
        }
        self.searched += 1;
        let (d, w) = separation(a, b);
        self.witness = Some(w);
        Status::of(d, epsilon)
    }
}

/// A contact: a vertex of one polygon within ε of an edge of the other.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contact {
    /// The contact point (the vertex).
    pub point: Vector2<f64>,
    /// Unit normal, pointing from A towards B.
    pub normal: Vector2<f64>,
    /// The vertex belongs to B (and the edge to A), else the reverse.
    pub vertex_of_b: bool,
    /// The vertex's index in its polygon.
    pub vertex: usize,
    /// The edge's index in the other polygon.
    pub edge: usize,
}

/// Vertices of `q` within ε of edge lines of `p` whose normal is within a small angle
/// of `axis`, and which project inside the edge.
fn vertex_edge(
    p: &ConvexPolygon,
    q: &ConvexPolygon,
    axis: &Vector2<f64>,
    epsilon: f64,
    out: &mut Vec<(Vector2<f64>, Vector2<f64>, usize, usize)>,
) {
    let n = p.vertices.len();
    for edge in 0..n {
        let normal = p.normal(edge);
        if normal.dot(axis) < 1.0 - 1e-6 {
            continue;
        }
        let (a, b) = (p.vertices[edge], p.vertices[(edge + 1) % n]);
        let along = b - a;
        let length = along.norm();
        for (k, v) in q.vertices.iter().enumerate() {
            let s = along.dot(&(v - a)) / length;
            if normal.dot(&(v - a)).abs() <= epsilon
                && (-epsilon..=length + epsilon).contains(&s)
            {
                out.push((*v, normal, k, edge));
            }
        }
    }
}

// ANCHOR: contacts
/// The contacts of two polygons in contact (within ε): vertices of B on the edge of A
/// that attains the separation, and vertices of A on the edges of B facing it. Two
/// contacts at one point (a vertex meeting a vertex) are reported once.
pub fn contacts(a: &ConvexPolygon, b: &ConvexPolygon, epsilon: f64) -> Vec<Contact> {
    let (_, w) = separation(a, b);
    // The contact normal, from A to B.
    let axis = if w.of_b { -b.normal(w.edge) } else { a.normal(w.edge) };
    let (mut on_a, mut on_b) = (Vec::new(), Vec::new());
    vertex_edge(a, b, &axis, epsilon, &mut on_a);
    vertex_edge(b, a, &(-axis), epsilon, &mut on_b);
    let mut found: Vec<Contact> = Vec::new();
    let candidates = on_a
        .into_iter()
        .map(|c| (c, true))
        .chain(on_b.into_iter().map(|c| (c, false)));
    for ((point, _, vertex, edge), vertex_of_b) in candidates {
        if found.iter().all(|c| (c.point - point).norm() > epsilon) {
            found.push(Contact { point, normal: axis, vertex_of_b, vertex, edge });
        }
    }
    found
}
// ANCHOR_END: contacts

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f64, y: f64) -> Vector2<f64> {
        Vector2::new(x, y)
    }

    #[test]
    fn bad_polygons_are_errors() {
        let e = |p: Vec<Vector2<f64>>| ConvexPolygon::new(p).unwrap_err().to_string();
        assert!(e(vec![v(0.0, 0.0), v(1.0, 0.0)]).contains("at least 3"));
        assert!(e(vec![v(0.0, 0.0), v(0.0, 1.0), v(1.0, 0.0)]).contains("clockwise"));
        assert!(
            e(vec![v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(1.0, 1.0)])
                .contains("collinear")
        );
        assert!(
            e(vec![v(0.0, 0.0), v(f64::NAN, 0.0), v(1.0, 1.0)])
                .contains("not finite")
        );
        let dart = vec![v(0.0, 0.0), v(2.0, 0.0), v(1.0, 0.5), v(1.0, 2.0)];
        assert!(e(dart).contains("not convex"));
    }

    #[test]
    fn separation_is_the_gap_or_the_depth() {
        let a = ConvexPolygon::rectangle(v(0.0, 0.0), v(1.0, 1.0)).unwrap();
        let gap = ConvexPolygon::rectangle(v(2.5, 0.3), v(1.0, 1.0)).unwrap();
        let (d, w) = separation(&a, &gap);
        assert!((d - 0.5).abs() < 1e-12, "{d}");
        assert!(!w.of_b && a.normal(w.edge).x > 0.99);
        let deep = ConvexPolygon::rectangle(v(1.8, 0.0), v(1.0, 1.0)).unwrap();
        assert!((separation(&a, &deep).0 + 0.2).abs() < 1e-12);
    }
}
