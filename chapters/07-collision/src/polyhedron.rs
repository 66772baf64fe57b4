//! Convex polyhedra and the narrow phase between two of them in space: separating
//! planes over face normals and edge × edge directions, cached as witnesses; an
//! interpenetration witness when no plane separates; and the contact features
//! (vertex/face and edge/edge) when two bodies touch.

use nalgebra::{UnitQuaternion, Vector3};
use pbm_prelim::PbmError;
use std::sync::Arc;

type V3 = Vector3<f64>;

/// A convex polyhedron: vertices, faces listed counter-clockwise seen from outside,
/// and the edges (each once), checked to close up and to bulge outwards everywhere.
///
/// Moving a polyhedron moves its vertices and turns its normals; which vertices make
/// each face and each edge stays, and so does which edges run in the same
/// direction. That part is kept once ([`Topology`]) and shared by every placed copy,
/// so that placing a solid at each step copies only what moved.
#[derive(Debug, Clone, PartialEq)]
pub struct ConvexPolyhedron {
    vertices: Vec<V3>,
    normals: Vec<V3>,
    topology: Arc<Topology>,
}

/// What placing a polyhedron leaves as it was: the faces and edges as vertex
/// indices, and one edge for each direction the edges run in.
#[derive(Debug, PartialEq)]
struct Topology {
    faces: Vec<Vec<usize>>,
    edges: Vec<[usize; 2]>,
    /// The first edge of each set of parallel ones (either way): a box's twelve
    /// edges run in three directions.
    directions: Vec<usize>,
}

fn invalid(why: impl Into<String>) -> PbmError {
    PbmError::invalid("convex polyhedron", why)
}

impl ConvexPolyhedron {
    /// A polyhedron from its vertices and faces. Every vertex must be finite; every
    /// face needs three or more vertices, flat and counter-clockwise seen from
    /// outside; every edge must join exactly two faces (a closed surface); and every
    /// vertex must lie behind every face's plane (convex).
    pub fn new(vertices: Vec<V3>, faces: Vec<Vec<usize>>) -> Result<Self, PbmError> {
        if vertices.len() < 4 || faces.len() < 4 {
            let why = format!(
                "{} vertices and {} faces; a solid needs at least 4 of each",
                vertices.len(),
                faces.len()
            );
            return Err(invalid(why));
        }
        if let Some(v) = vertices.iter().find(|v| !v.iter().all(|c| c.is_finite())) {
            return Err(invalid(format!("vertex {v:?} is not finite")));
        }
        let scale = vertices.iter().map(|v| v.norm()).fold(1.0, f64::max);
        let flat = 1e-9 * scale;
        let mut normals = Vec::with_capacity(faces.len());
        let mut edges: Vec<([usize; 2], usize)> = Vec::new();
        for (f, face) in faces.iter().enumerate() {
            if face.len() < 3 || face.iter().any(|&i| i >= vertices.len()) {
                let why = format!(
                    "face {f} has {face:?}: it needs 3 or more of the vertex indices 0..{}",
                    vertices.len()
                );
                return Err(invalid(why));
            }
            // Newell's normal: the area vector of the face, whatever its shape.
            let area: V3 = (0..face.len())
                .map(|k| {
                    vertices[face[k]].cross(&vertices[face[(k + 1) % face.len()]])
                })
                .sum();
            if area.norm() <= flat * scale {
                return Err(invalid(format!("face {f} has no area")));
            }
            let n = area.normalize();
            let p = vertices[face[0]];
            if face.iter().any(|&i| n.dot(&(vertices[i] - p)).abs() > flat) {
                return Err(invalid(format!("face {f} is not flat")));
            }
            if vertices.iter().any(|v| n.dot(&(v - p)) > flat) {
                let why = format!(
                    "a vertex lies outside face {f}'s plane: the solid is not convex, \
                     or the face runs clockwise seen from outside"
                );
                return Err(invalid(why));
            }
            normals.push(n);
            for k in 0..face.len() {
                let (i, j) = (face[k], face[(k + 1) % face.len()]);
                let key = [i.min(j), i.max(j)];
                match edges.iter_mut().find(|(e, _)| *e == key) {
                    Some((_, count)) => *count += 1,
                    None => edges.push((key, 1)),
                }
            }
        }
        if let Some((e, count)) = edges.iter().find(|(_, c)| *c != 2) {
            let why = format!(
                "edge {e:?} joins {count} faces, not 2: the surface is not closed"
            );
            return Err(invalid(why));
        }
        let edges: Vec<[usize; 2]> = edges.into_iter().map(|(e, _)| e).collect();
        let directions = edge_directions(&vertices, &edges);
        let topology = Arc::new(Topology { faces, edges, directions });
        Ok(ConvexPolyhedron { vertices, normals, topology })
    }

    /// A box with the given centre and half sizes, faces perpendicular to the axes.
    pub fn cuboid(centre: V3, half: V3) -> Result<Self, PbmError> {
        let corner = |i: usize| {
            let s = |bit: usize| if i >> bit & 1 == 1 { 1.0 } else { -1.0 };
            centre + V3::new(s(0) * half.x, s(1) * half.y, s(2) * half.z)
        };
        let faces = vec![
            vec![0, 4, 6, 2], // −x
            vec![1, 3, 7, 5], // +x
            vec![0, 1, 5, 4], // −y
            vec![2, 6, 7, 3], // +y
            vec![0, 2, 3, 1], // −z
            vec![4, 5, 7, 6], // +z
        ];
        ConvexPolyhedron::new((0..8).map(corner).collect(), faces)
    }

    /// The vertices.
    pub fn vertices(&self) -> &[V3] {
        &self.vertices
    }

    /// The faces, each a counter-clockwise loop of vertex indices seen from outside.
    pub fn faces(&self) -> &[Vec<usize>] {
        &self.topology.faces
    }

    /// The edges, each once, as pairs of vertex indices.
    pub fn edges(&self) -> &[[usize; 2]] {
        &self.topology.edges
    }

    /// Face `f`'s outward unit normal.
    pub fn normal(&self, f: usize) -> V3 {
        self.normals[f]
    }

    /// The mean of the vertices: a point inside.
    pub fn centre(&self) -> V3 {
        self.vertices.iter().sum::<V3>() / self.vertices.len() as f64
    }

    /// The polyhedron rotated by `rotation` about the origin, then moved by `offset`.
    pub fn placed(&self, offset: V3, rotation: UnitQuaternion<f64>) -> Self {
        ConvexPolyhedron {
            vertices: self.vertices.iter().map(|v| rotation * v + offset).collect(),
            normals: self.normals.iter().map(|n| rotation * n).collect(),
            topology: Arc::clone(&self.topology),
        }
    }

    /// One edge for each direction the edges run in (the first of those parallel
    /// to it, either way), found once when the polyhedron was made: turning it
    /// keeps parallel edges parallel. A box's twelve edges run three ways.
    pub fn edge_directions(&self) -> &[usize] {
        &self.topology.directions
    }

    fn edge_direction(&self, e: usize) -> V3 {
        let [i, j] = self.topology.edges[e];
        self.vertices[j] - self.vertices[i]
    }

    fn extent(&self, axis: &V3) -> (f64, f64) {
        self.vertices
            .iter()
            .map(|v| axis.dot(v))
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                (lo.min(x), hi.max(x))
            })
    }
}

/// The first edge of each set of parallel `edges` (either way) of a solid with
/// `vertices`.
fn edge_directions(vertices: &[V3], edges: &[[usize; 2]]) -> Vec<usize> {
    let direction = |e: usize| vertices[edges[e][1]] - vertices[edges[e][0]];
    let mut kept: Vec<usize> = Vec::new();
    for e in 0..edges.len() {
        let d = direction(e);
        let parallel = |k: &usize| {
            let other = direction(*k);
            d.cross(&other).norm() <= 1e-12 * d.norm() * other.norm()
        };
        if !kept.iter().any(parallel) {
            kept.push(e);
        }
    }
    kept
}

/// A candidate separating direction: a face normal of A or of B, or the cross
/// product of an edge of A and an edge of B.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    /// The normal of a face of A.
    FaceOfA(usize),
    /// The normal of a face of B.
    FaceOfB(usize),
    /// Edge `.0` of A crossed with edge `.1` of B.
    Edges(usize, usize),
}

/// A witness: an axis, and which way along it B lies from A.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlaneWitness {
    /// The direction.
    pub axis: Axis,
    /// B lies on the negative side (the plane's normal is minus the axis).
    pub flipped: bool,
}

// ANCHOR: gap
/// How far apart A and B are along a unit direction `n` pointing from A to B: the
/// least projection of B minus the greatest projection of A. Positive: the plane
/// between those two levels separates them.
fn gap(a: &ConvexPolyhedron, b: &ConvexPolyhedron, n: &V3) -> f64 {
    b.extent(n).0 - a.extent(n).1
}

/// The gaps along `n` and along −n from the same two extents: turned round, B's
/// least projection is minus its greatest, and A's greatest minus its least.
fn gaps(a: &ConvexPolyhedron, b: &ConvexPolyhedron, n: &V3) -> [f64; 2] {
    let ((a_lo, a_hi), (b_lo, b_hi)) = (a.extent(n), b.extent(n));
    [b_lo - a_hi, a_lo - b_hi]
}

/// The unit direction of an axis for the current placement; `None` for edges too
/// close to parallel to define one.
fn direction(a: &ConvexPolyhedron, b: &ConvexPolyhedron, axis: Axis) -> Option<V3> {
    match axis {
        Axis::FaceOfA(f) => Some(a.normal(f)),
        Axis::FaceOfB(f) => Some(b.normal(f)),
        Axis::Edges(i, j) => {
            let (ea, eb) = (a.edge_direction(i), b.edge_direction(j));
            let c = ea.cross(&eb);
            (c.norm() > 1e-9 * ea.norm() * eb.norm()).then(|| c.normalize())
        }
    }
}

// ANCHOR_END: gap

/// The witness's separation now: its gap along its direction (`None` for an edge
/// pair that has turned parallel). A lower bound on the pair's separation, since the
/// separation is the largest gap over all directions.
pub fn witness_gap(
    a: &ConvexPolyhedron,
    b: &ConvexPolyhedron,
    w: PlaneWitness,
) -> Option<f64> {
    let n = direction(a, b, w.axis)?;
    Some(gap(a, b, &if w.flipped { -n } else { n }))
}

// ANCHOR: separation
/// The separation of two convex polyhedra: the largest gap over every face normal of
/// either and every edge × edge direction, both ways along each. Two convex solids
/// are disjoint exactly when one of these directions separates them; when none does,
/// the largest (negative) gap is how deep they interpenetrate, and the direction to
/// push them apart.
pub fn separation(a: &ConvexPolyhedron, b: &ConvexPolyhedron) -> (f64, PlaneWitness) {
    separation_over(a, b, 0.0)
}
// ANCHOR_END: separation

// ANCHOR: separation_over
/// [`separation`] without the edge pairs that cross at an angle whose sine is below
/// `min_sine`. Two solids that interpenetrate deeply (as bodies do under a solver
/// that lets them, like sequential impulses) may be pushed apart best along a face
/// normal, yet a pair of nearly parallel edges, one on each face, gives a direction
/// that face normal turned a little, along which the depth is a little less: the
/// search then picks it, and the normal and the contacts read off it are
/// centimetres wrong. Leaving such pairs out keeps the faces' answer.
pub fn separation_over(
    a: &ConvexPolyhedron,
    b: &ConvexPolyhedron,
    min_sine: f64,
) -> (f64, PlaneWitness) {
    let (d, w, _) = separation_counted(a, b, min_sine);
    (d, w)
}
// ANCHOR_END: separation_over

// ANCHOR: separation_counted

/// [`separation_over`], and how many directions it tried: two for every candidate
/// axis, one each way. For solids with F_A and F_B faces whose edges run D_A and D_B
/// ways that is 2(F_A + F_B + D_A·D_B) when no edge pair is left out.
pub fn separation_counted(
    a: &ConvexPolyhedron,
    b: &ConvexPolyhedron,
    min_sine: f64,
) -> (f64, PlaneWitness, usize) {
    let faces_a = (0..a.faces().len()).map(Axis::FaceOfA);
    let faces_b = (0..b.faces().len()).map(Axis::FaceOfB);
    // Parallel edges give the same axis: a box's twelve edges have three directions,
    // so nine pairs stand for its 144.
    let (dirs_a, dirs_b) = (a.edge_directions(), b.edge_directions());
    let edges = dirs_a
        .iter()
        .flat_map(|&i| dirs_b.iter().map(move |&j| Axis::Edges(i, j)))
        .filter(|&axis| {
            let Axis::Edges(i, j) = axis else { return true };
            let (ea, eb) = (a.edge_direction(i), b.edge_direction(j));
            ea.cross(&eb).norm() >= min_sine * ea.norm() * eb.norm()
        });
    let mut best =
        (f64::NEG_INFINITY, PlaneWitness { axis: Axis::FaceOfA(0), flipped: false });
    let mut tried = 0;
    for axis in faces_a.chain(faces_b).chain(edges) {
        tried += 2;
        let Some(n) = direction(a, b, axis) else { continue };
        for (flipped, d) in [false, true].into_iter().zip(gaps(a, b, &n)) {
            if d > best.0 {
                best = (d, PlaneWitness { axis, flipped });
            }
        }
    }
    (best.0, best.1, tried)
}
// ANCHOR_END: separation_counted

/// The separating plane a witness stands for: unit normal (from A towards B) and
/// the point midway between the two bodies along it.
pub fn plane(
    a: &ConvexPolyhedron,
    b: &ConvexPolyhedron,
    w: PlaneWitness,
) -> Option<(V3, f64)> {
    let n = direction(a, b, w.axis)?;
    let n = if w.flipped { -n } else { n };
    Some((n, 0.5 * (a.extent(&n).1 + b.extent(&n).0)))
}

/// Where two polyhedra stand with respect to the tolerance ε.
pub use crate::polygon::Status;

/// The narrow phase for one pair of polyhedra, remembering the last separating plane.
#[derive(Debug, Clone, Default)]
pub struct PlaneCache {
    witness: Option<PlaneWitness>,
    /// Tests answered by the cached witness alone.
    pub reused: usize,
    /// Tests that needed the full search.
    pub searched: usize,
    /// Directions tried in all: one for each witness tried, and every direction of
    /// each search ([`separation_counted`]).
    pub directions: usize,
}

impl PlaneCache {
    // ANCHOR: plane_cache
    /// Classifies the pair, trying last step's separating plane first. A witness
    /// that still separates by more than ε answers the question with one axis; only
    /// when it fails does the search run over every axis.
    pub fn test(
        &mut self,
        a: &ConvexPolyhedron,
        b: &ConvexPolyhedron,
        epsilon: f64,
    ) -> Status {
        if let Some(w) = self.witness {
            self.directions += 1;
            if witness_gap(a, b, w).is_some_and(|d| d > epsilon) {
                self.reused += 1;
                return Status::Disjoint;
            }
        }
        self.searched += 1;
        let (d, w, tried) = separation_counted(a, b, 0.0);
        self.directions += tried;
        self.witness = Some(w);
        Status::of(d, epsilon)
    }
    // ANCHOR_END: plane_cache

    /// The witness kept from the last test.
    pub fn witness(&self) -> Option<PlaneWitness> {
        self.witness
    }
}

/// Why two polyhedra interpenetrate: a vertex of one inside the other, an edge of one
/// passing through a face of the other, or (in a degenerate overlap) an axis.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Penetration {
    /// A vertex of one solid lies inside the other.
    VertexInside {
        /// The vertex is B's (else A's).
        of_b: bool,
        /// Its index.
        vertex: usize,
    },
    /// An edge of one solid passes through a face of the other.
    EdgeThroughFace {
        /// The edge is B's and the face A's (else the reverse).
        of_b: bool,
        /// The edge's index.
        edge: usize,
        /// The face's index.
        face: usize,
        /// Where the edge crosses the face.
        point: V3,
    },
    /// Neither, yet no axis separates them: an overlap in which every vertex lies on
    /// the other's boundary and every edge along a face (two coincident cubes). The
    /// separating-axis test's least overlapping axis is the witness.
    Degenerate {
        /// The axis along which the solids overlap least.
        witness: PlaneWitness,
        /// How far they overlap along it (m).
        depth: f64,
    },
}

fn inside(p: &ConvexPolyhedron, v: &V3) -> bool {
    (0..p.faces().len())
        .all(|f| p.normal(f).dot(&(v - p.vertices[p.faces()[f][0]])) < 0.0)
}

/// Whether `x`, a point on face `f`'s plane, lies inside the face (within `slack`).
fn within_face(p: &ConvexPolyhedron, f: usize, x: &V3, slack: f64) -> bool {
    let (face, n) = (&p.faces()[f], p.normal(f));
    (0..face.len()).all(|k| {
        let (u, w) = (p.vertices[face[k]], p.vertices[face[(k + 1) % face.len()]]);
        let edge = w - u;
        edge.cross(&(x - u)).dot(&n) >= -slack * edge.norm()
    })
}

// ANCHOR: penetration
/// An interpenetration witness, or `None` when the solids do not overlap. Two convex
/// solids in general position overlap exactly when a vertex of one is inside the
/// other or an edge of one crosses a face of the other; features that only touch
/// (a vertex on a face, an edge lying in one) can hide an overlap, and then the
/// separating-axis test decides.
pub fn penetration(
    a: &ConvexPolyhedron,
    b: &ConvexPolyhedron,
) -> Option<Penetration> {
    for (of_b, p, q) in [(true, a, b), (false, b, a)] {
        if let Some(vertex) = q.vertices.iter().position(|v| inside(p, v)) {
            return Some(Penetration::VertexInside { of_b, vertex });
        }
    }
    for (of_b, p, q) in [(true, a, b), (false, b, a)] {
        for (edge, &[i, j]) in q.edges().iter().enumerate() {
            let (u, w) = (q.vertices[i], q.vertices[j]);
            for face in 0..p.faces().len() {
                let (n, o) = (p.normal(face), p.vertices[p.faces()[face][0]]);
                let (du, dw) = (n.dot(&(u - o)), n.dot(&(w - o)));
                if du * dw < 0.0 {
                    let point = u + (w - u) * (du / (du - dw));
                    if within_face(p, face, &point, 0.0) {
                        return Some(Penetration::EdgeThroughFace {
                            of_b,
                            edge,
                            face,
                            point,
                        });
                    }
                }
            }
        }
    }
    let (gap, witness) = separation(a, b);
    (gap < 0.0).then_some(Penetration::Degenerate { witness, depth: -gap })
}
// ANCHOR_END: penetration

/// Which features meet at a contact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Feature {
    /// A vertex of one body on a face of the other.
    VertexFace {
        /// The vertex is B's and the face A's (else the reverse).
        vertex_of_b: bool,
        /// The vertex's index.
        vertex: usize,
        /// The face's index.
        face: usize,
    },
    /// A point of one body's face clipped to a face of the other
    /// ([`clipped_contacts`]): a vertex of the first face, or where its outline
    /// crosses the second face's side.
    FacePoint {
        /// The point is on B's face, clipped to A's (else the reverse).
        of_b: bool,
        /// The reference face's index (the face the point is measured from).
        face: usize,
    },
    /// An edge of A crossing an edge of B.
    EdgeEdge {
        /// A's edge.
        edge_a: usize,
        /// B's edge.
        edge_b: usize,
        /// A's edge's unit direction (chapter 8 needs both directions for the
        /// normal's rate of change).
        dir_a: V3,
        /// B's edge's unit direction.
        dir_b: V3,
    },
}

/// A contact point between two polyhedra.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contact {
    /// The point (on the surface of the vertex's or edge's body).
    pub point: V3,
    /// Unit normal, pointing from A towards B.
    pub normal: V3,
    /// The features that meet.
    pub feature: Feature,
}

/// Closest points of segments u0 + s (u1 − u0) and w0 + t (w1 − w0): (s, t), for
/// segments that are not parallel.
pub fn closest_parameters(u0: V3, u1: V3, w0: V3, w1: V3) -> (f64, f64) {
    let (d1, d2, r) = (u1 - u0, w1 - w0, u0 - w0);
    let (a, e, b) = (d1.dot(&d1), d2.dot(&d2), d1.dot(&d2));
    let (c, f) = (d1.dot(&r), d2.dot(&r));
    let denom = a * e - b * b;
    ((b * f - c * e) / denom, (a * f - b * c) / denom)
}

// ANCHOR: contacts
/// The contacts of two polyhedra within ε of touching, read off the separating plane
/// with normal n (from A to B). Vertex/face: a vertex of B within ε of a face of A
/// whose normal is n, and inside that face (and the same with A and B swapped).
/// Edge/edge: an edge of A and an edge of B, not parallel, whose closest points are
/// within ε of each other and strictly inside both edges (an end of an edge is a
/// vertex, found as vertex/face). A point found twice is reported once.
pub fn contacts(
    a: &ConvexPolyhedron,
    b: &ConvexPolyhedron,
    epsilon: f64,
) -> Vec<Contact> {
    contacts_on(a, b, separation(a, b).1, epsilon)
}

/// [`contacts`] read off the plane of `w`, which must be the pair's separating
/// witness now (what [`separation`] returns): for a caller that has it already.
pub fn contacts_on(
    a: &ConvexPolyhedron,
    b: &ConvexPolyhedron,
    w: PlaneWitness,
    epsilon: f64,
) -> Vec<Contact> {
    let Some((n, _)) = plane(a, b, w) else { return Vec::new() };
    let mut found: Vec<Contact> = Vec::new();
    let mut add = |c: Contact| {
        if found.iter().all(|d| (d.point - c.point).norm() > epsilon) {
            found.push(c);
        }
    };
    vertex_face(a, b, n, epsilon, &mut add);
    edge_edge(a, b, n, epsilon, &mut add);
    found
}
// ANCHOR_END: contacts

/// How much better (in the cosine between its normal and the plane's) B's face must
/// face A than A's faces B to be [`clipped_contacts`]' reference face.
pub const FACING_PREFERENCE: f64 = 1e-3;

/// How far outside a reference face's side an incident point may lie and still be
/// kept where it is, as a share of the incident face's size (70 µm for a 0.5 m
/// box's face). Two faces flush on each other, as in a stack, have each corner on
/// the other's sides. Found a hair outside by roundoff, a corner would be cut off,
/// and the edge lying along the side cut where its two ends, both on it to roundoff, say
/// it crosses: anywhere along it. A corner a micrometre out, its face turned a
/// little, would give two points for one. Either way the points would wander along
/// the edges from step to step, the face's corners would push unevenly, and a tall
/// stack would lean.
pub const SIDE_SLACK: f64 = 1e-4;

// ANCHOR: clipped_contacts
/// The contacts of two polyhedra that may interpenetrate (the way production engines
/// find them): across the plane of witness `w`, the incident face's outline clipped
/// to the reference face's sides ([`reference_faces`], Sutherland–Hodgman; the sides
/// moved out by a hair, [`SIDE_SLACK`]), and of
/// those points the ones less than `reach` above the reference face's plane. Unlike
/// [`contacts_on`], which finds features within ε of each other, a tilted face or a
/// deep overlap still gives its corners.
pub fn clipped_contacts(
    a: &ConvexPolyhedron,
    b: &ConvexPolyhedron,
    w: PlaneWitness,
    reach: f64,
) -> Vec<Contact> {
    let Some((n, _)) = plane(a, b, w) else { return Vec::new() };
    let (of_b, reference, incident) = reference_faces(a, b, n);
    let (p, q) = if of_b { (a, b) } else { (b, a) };
    let normal = p.normal(reference);
    let mut points: Vec<V3> =
        q.faces()[incident].iter().map(|&v| q.vertices[v]).collect();
    let size = points.iter().map(|x| (x - points[0]).norm()).fold(0.0, f64::max);
    let face = &p.faces()[reference];
    for k in 0..face.len() {
        let u = p.vertices[face[k]];
        let e = p.vertices[face[(k + 1) % face.len()]] - u;
        // The distance inside the side, plus the slack.
        let side =
            |x: &V3| e.cross(&(x - u)).dot(&normal) / e.norm() + SIDE_SLACK * size;
        points = clip(&points, side);
    }
    let o = p.vertices[face[0]];
    let feature = Feature::FacePoint { of_b, face: reference };
    points
        .into_iter()
        .filter(|x| normal.dot(&(x - o)) <= reach)
        .map(|point| Contact { point, normal: n, feature })
        .collect()
}
// ANCHOR_END: clipped_contacts

// ANCHOR: reference_faces
/// Across a plane with normal `n` (from A to B): the reference face, the face of
/// either body most nearly facing the other, and the incident face, the other body's
/// face most nearly facing it back. Returns whether the reference face is A's (the
/// points are then B's), and the two faces' indices. Two faces flat on each other
/// face each other equally: A's is taken unless B's faces clearly better
/// ([`FACING_PREFERENCE`]), so that roundoff does not swap them from one step to
/// the next, and with them which body the contacts are measured on.
fn reference_faces(
    a: &ConvexPolyhedron,
    b: &ConvexPolyhedron,
    n: V3,
) -> (bool, usize, usize) {
    let facing = |p: &ConvexPolyhedron, np: V3| {
        (0..p.faces().len()).map(|f| (f, p.normal(f).dot(&np))).fold(
            (0, f64::NEG_INFINITY),
            |best, x| if x.1 > best.1 { x } else { best },
        )
    };
    let (fa, fb) = (facing(a, n), facing(b, -n));
    if fa.1 >= fb.1 - FACING_PREFERENCE {
        (true, fa.0, facing(b, -a.normal(fa.0)).0)
    } else {
        (false, fb.0, facing(a, -b.normal(fb.0)).0)
    }
}
// ANCHOR_END: reference_faces

/// One Sutherland–Hodgman pass: the part of the closed polygon `points` where
/// `inside` is not negative (an affine function of the point).
fn clip(points: &[V3], inside: impl Fn(&V3) -> f64) -> Vec<V3> {
    let mut kept = Vec::with_capacity(points.len() + 1);
    for (k, p) in points.iter().enumerate() {
        let q = &points[(k + 1) % points.len()];
        let (dp, dq) = (inside(p), inside(q));
        if dp >= 0.0 {
            kept.push(*p);
        }
        if (dp >= 0.0) != (dq >= 0.0) {
            kept.push(p + (q - p) * (dp / (dp - dq)));
        }
    }
    kept
}

/// How nearly parallel a face's normal (or an edge pair's cross product) must be to the
/// plane's normal for its feature to lie across the plane.
const ALIGNED: f64 = 1.0 - 1e-6;

// ANCHOR: vertex_face
/// The vertex/face contacts across the plane with normal `n` (from A to B): each
/// vertex of B within ε of a face of A whose normal is n, its foot inside that face,
/// and the same with A and B swapped.
fn vertex_face(
    a: &ConvexPolyhedron,
    b: &ConvexPolyhedron,
    n: V3,
    epsilon: f64,
    add: &mut impl FnMut(Contact),
) {
    for (vertex_of_b, p, q, np) in [(true, a, b, n), (false, b, a, -n)] {
        for face in (0..p.faces().len()).filter(|&f| p.normal(f).dot(&np) > ALIGNED) {
            let o = p.vertices[p.faces()[face][0]];
            for (vertex, v) in q.vertices.iter().enumerate() {
                let height = np.dot(&(v - o));
                let foot = v - np * height;
                if height.abs() <= epsilon && within_face(p, face, &foot, epsilon) {
                    let feature = Feature::VertexFace { vertex_of_b, vertex, face };
                    add(Contact { point: *v, normal: n, feature });
                }
            }
        }
    }
}
// ANCHOR_END: vertex_face

// ANCHOR: edge_edge
/// The edge/edge contacts across the plane with normal `n`: an edge of A and an edge
/// of B lying across n, whose closest points are within ε of each other and strictly
/// inside both edges (an end of an edge is a vertex, found as vertex/face).
fn edge_edge(
    a: &ConvexPolyhedron,
    b: &ConvexPolyhedron,
    n: V3,
    epsilon: f64,
    add: &mut impl FnMut(Contact),
) {
    for (edge_a, &[i, j]) in a.edges().iter().enumerate() {
        let (u0, u1) = (a.vertices[i], a.vertices[j]);
        for (edge_b, &[k, l]) in b.edges().iter().enumerate() {
            let (w0, w1) = (b.vertices[k], b.vertices[l]);
            let (dir_a, dir_b) = ((u1 - u0).normalize(), (w1 - w0).normalize());
            let cross = dir_a.cross(&dir_b);
            // Parallel edges touch along a segment whose ends are vertex contacts;
            // edges not lying across the plane's normal do not touch across it.
            if cross.norm() < 1e-6 || cross.normalize().dot(&n).abs() < ALIGNED {
                continue;
            }
            let (s, t) = closest_parameters(u0, u1, w0, w1);
            let (margin_a, margin_b) =
                (epsilon / (u1 - u0).norm(), epsilon / (w1 - w0).norm());
            let inside = |x: f64, m: f64| (m..1.0 - m).contains(&x);
            let (pa, pb) = (u0 + (u1 - u0) * s, w0 + (w1 - w0) * t);
            if inside(s, margin_a)
                && inside(t, margin_b)
                && (pb - pa).norm() <= epsilon
            {
                let feature = Feature::EdgeEdge { edge_a, edge_b, dir_a, dir_b };
                add(Contact { point: pa, normal: n, feature });
            }
        }
    }
}
// ANCHOR_END: edge_edge

#[cfg(test)]
mod tests {
    use super::*;

    fn cube(x: f64, y: f64, z: f64) -> ConvexPolyhedron {
        ConvexPolyhedron::cuboid(V3::new(x, y, z), V3::new(0.5, 0.5, 0.5)).unwrap()
    }

    #[test]
    fn bad_solids_are_errors() {
        let c = cube(0.0, 0.0, 0.0);
        let e = |v: Vec<V3>, f: Vec<Vec<usize>>| {
            ConvexPolyhedron::new(v, f).unwrap_err().to_string()
        };
        let mut flipped = c.faces().to_vec();
        flipped[0].reverse();
        assert!(e(c.vertices.clone(), flipped).contains("clockwise"));
        assert!(
            e(c.vertices.clone(), c.faces()[..5].to_vec()).contains("not closed")
        );
        let mut nan = c.vertices.clone();
        nan[3].y = f64::NAN;
        assert!(e(nan, c.faces().to_vec()).contains("not finite"));
        let mut bent = c.vertices.clone();
        bent[7] += V3::new(0.2, 0.2, 0.2);
        assert!(e(bent, c.faces().to_vec()).contains("not flat"));
        assert!(
            e(c.vertices[..3].to_vec(), vec![vec![0, 1, 2]]).contains("at least 4")
        );
    }

    #[test]
    fn separation_is_the_gap_along_the_best_axis() {
        let (a, b) = (cube(0.0, 0.0, 0.0), cube(1.5, 0.2, 0.1));
        let (d, w) = separation(&a, &b);
        assert!((d - 0.5).abs() < 1e-12, "{d} {w:?}");
        // Two cubes turned 45° about different axes, edge against edge: only an
        // edge × edge direction separates them.
        let turn = |axis: V3| {
            UnitQuaternion::from_scaled_axis(axis * std::f64::consts::FRAC_PI_4)
        };
        let a = cube(0.0, 0.0, 0.0).placed(V3::zeros(), turn(V3::z()));
        let half_diagonal = 0.5 * 2f64.sqrt();
        let b = cube(0.0, 0.0, 0.0)
            .placed(V3::new(2.0 * half_diagonal + 0.1, 0.0, 0.0), turn(V3::y()));
        let (d, w) = separation(&a, &b);
        assert!(matches!(w.axis, Axis::Edges(..)), "{w:?}");
        assert!((d - 0.1).abs() < 1e-12, "{d}");
    }

    #[test]
    fn penetration_is_found_exactly_when_the_separation_is_negative() {
        let a = cube(0.0, 0.0, 0.0);
        let vertex_in = cube(0.9, 0.9, 0.9);
        assert!(matches!(
            penetration(&a, &vertex_in),
            Some(Penetration::VertexInside { of_b: true, .. })
        ));
        // A long thin bar through the middle of the cube: no vertex inside either.
        let bar =
            ConvexPolyhedron::cuboid(V3::zeros(), V3::new(2.0, 0.1, 0.1)).unwrap();
        assert!(matches!(
            penetration(&a, &bar),
            Some(Penetration::EdgeThroughFace { .. })
        ));
        assert!(penetration(&a, &cube(1.01, 0.0, 0.0)).is_none());
    }

    #[test]
    fn coincident_cubes_overlap_without_a_vertex_inside() {
        // No vertex strictly inside, no edge strictly crossing a face: the degenerate
        // overlaps the vertex and edge tests miss, found by the separating axes.
        let a = cube(0.0, 0.0, 0.0);
        match penetration(&a, &cube(0.0, 0.0, 0.0)) {
            Some(Penetration::Degenerate { depth, .. }) => {
                assert!((depth - 1.0).abs() < 1e-12, "{depth}");
            }
            other => panic!("{other:?}"),
        }
        // Slid half a side: B's edges cross A's faces exactly at A's corners.
        let slid = cube(0.5, 0.0, 0.0);
        assert!(penetration(&a, &slid).is_some());
        assert!((separation(&a, &slid).0 + 0.5).abs() < 1e-12);
        // Touching face to face is not an overlap.
        assert!(penetration(&a, &cube(1.0, 0.0, 0.0)).is_none());
    }
}
