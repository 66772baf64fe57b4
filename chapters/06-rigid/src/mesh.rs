//! Closed triangle meshes: the boundary representation that exact mass properties
//! need, with the checks that make "closed" and "outward" more than a hope.

use nalgebra::Vector3;
use pbm_prelim::PbmError;
use std::collections::HashMap;

/// A closed, outward-oriented triangle mesh: triangles list vertex indices
/// counter-clockwise seen from outside.
#[derive(Debug, Clone, PartialEq)]
pub struct TriMesh {
    vertices: Vec<Vector3<f64>>,
    triangles: Vec<[usize; 3]>,
}

impl TriMesh {
    /// Validates and builds a mesh: finite vertices, indices in range, no degenerate
    /// triangle, every edge shared by exactly two triangles in opposite directions
    /// (closed and consistently oriented), and positive enclosed volume (oriented
    /// outward).
    pub fn new(
        vertices: Vec<Vector3<f64>>,
        triangles: Vec<[usize; 3]>,
    ) -> Result<Self, PbmError> {
        if vertices.iter().any(|v| v.iter().any(|c| !c.is_finite())) {
            return Err(PbmError::invalid("mesh", "a vertex is not finite"));
        }
        if triangles.is_empty() {
            return Err(PbmError::invalid("mesh", "it has no triangles"));
        }
        let mut edges: HashMap<(usize, usize), usize> = HashMap::new();
        for (k, t) in triangles.iter().enumerate() {
            if t.iter().any(|&i| i >= vertices.len()) {
                return Err(PbmError::invalid(
                    "mesh",
                    format!(
                        "triangle {k} names a vertex beyond the {} given",
                        vertices.len()
                    ),
                ));
            }
            let [a, b, c] = t.map(|i| vertices[i]);
            if (b - a).cross(&(c - a)).norm() == 0.0 {
                return Err(PbmError::invalid(
                    "mesh",
                    format!("triangle {k} is degenerate"),
                ));
            }
            for e in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
                *edges.entry(e).or_default() += 1;
            }
        }
        for (&(a, b), &count) in &edges {
            if count != 1 || edges.get(&(b, a)) != Some(&1) {
                return Err(PbmError::invalid(
                    "mesh",
                    format!(
                        "edge {a}–{b} is not shared by exactly two oppositely oriented \
                         triangles: the mesh is not closed or not consistently oriented"
                    ),
                ));
            }
        }
        let mesh = TriMesh { vertices, triangles };
        let volume = mesh.signed_volume();
        if volume.is_nan() || volume <= 0.0 {
            return Err(PbmError::invalid(
                "mesh",
                format!(
                    "enclosed volume {volume:e} is not positive: the mesh is inside out"
                ),
            ));
        }
        Ok(mesh)
    }

    /// The vertices.
    pub fn vertices(&self) -> &[Vector3<f64>] {
        &self.vertices
    }

    /// The triangles (vertex indices, counter-clockwise from outside).
    pub fn triangles(&self) -> &[[usize; 3]] {
        &self.triangles
    }

    /// The triangles' corner positions.
    pub fn corners(&self) -> impl Iterator<Item = [Vector3<f64>; 3]> + '_ {
        self.triangles.iter().map(|t| t.map(|i| self.vertices[i]))
    }

    /// Enclosed volume by the divergence theorem: Σ over triangles of a·(b × c)/6,
    /// with the corners taken relative to the mean vertex (any point gives the same
    /// sum in exact arithmetic; a point of the mesh keeps the terms small, so a mesh
    /// far from the origin does not lose its volume to cancellation).
    pub fn signed_volume(&self) -> f64 {
        let o =
            self.vertices.iter().sum::<Vector3<f64>>() / self.vertices.len() as f64;
        self.corners()
            .map(|[a, b, c]| (a - o).dot(&(b - o).cross(&(c - o))) / 6.0)
            .sum()
    }

    /// Smallest and largest corner of the axis-aligned bounding box.
    pub fn bounds(&self) -> (Vector3<f64>, Vector3<f64>) {
        let mut lo = Vector3::repeat(f64::INFINITY);
        let mut hi = Vector3::repeat(f64::NEG_INFINITY);
        for v in &self.vertices {
            lo = lo.inf(v);
            hi = hi.sup(v);
        }
        (lo, hi)
    }

    // ANCHOR: winding
    /// The winding number of the mesh about `p`: the solid angle all triangles
    /// subtend at p, over 4π (Van Oosterom and Strackee's formula for a triangle's
    /// solid angle). It is 1 inside a closed outward mesh, 0 outside, 1/2 on a face,
    /// and on an edge the fraction of a small ball around p that is inside. A point
    /// in the plane of a triangle gets nothing from it, exactly.
    pub fn winding_number(&self, p: &Vector3<f64>) -> f64 {
        let total: f64 = self
            .corners()
            .map(|[a, b, c]| {
                let (a, b, c) = (a - p, b - p, c - p);
                let (la, lb, lc) = (a.norm(), b.norm(), c.norm());
                let numerator = a.dot(&b.cross(&c));
                // p in the triangle's plane sees it edge-on: no solid angle. Left
                // to atan2, a numerator of ±0 or of rounding noise would jump to ±2π
                // where the denominator is negative.
                if numerator.abs() <= 1e-12 * la * lb * lc {
                    return 0.0;
                }
                let denominator =
                    la * lb * lc + a.dot(&b) * lc + b.dot(&c) * la + c.dot(&a) * lb;
                2.0 * numerator.atan2(denominator)
            })
            .sum();
        total / (4.0 * std::f64::consts::PI)
    }

    /// Whether `p` is inside: winding number above 1/2.
    pub fn contains(&self, p: &Vector3<f64>) -> bool {
        self.winding_number(p) > 0.5
    }
    // ANCHOR_END: winding

    /// The same mesh with every triangle flipped (for testing the orientation check).
    pub fn inverted(&self) -> (Vec<Vector3<f64>>, Vec<[usize; 3]>) {
        (
            self.vertices.clone(),
            self.triangles.iter().map(|t| [t[0], t[2], t[1]]).collect(),
        )
    }
}

/// An axis-aligned box with the given side lengths, centred on the origin.
pub fn box_mesh(size: Vector3<f64>) -> Result<TriMesh, PbmError> {
    let h = size / 2.0;
    let vertices = (0..8)
        .map(|i| {
            Vector3::new(
                if i & 1 == 0 { -h.x } else { h.x },
                if i & 2 == 0 { -h.y } else { h.y },
                if i & 4 == 0 { -h.z } else { h.z },
            )
        })
        .collect();
    // Two triangles per face, counter-clockwise from outside.
    let quads = [
        [0, 2, 3, 1],
        [4, 5, 7, 6],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 4, 6, 2],
        [1, 3, 7, 5],
    ];
    let triangles =
        quads.iter().flat_map(|q| [[q[0], q[1], q[2]], [q[0], q[2], q[3]]]).collect();
    TriMesh::new(vertices, triangles)
}

/// The tetrahedron with the given four corners (reordered if need be to face
/// outward).
pub fn tetrahedron(v: [Vector3<f64>; 4]) -> Result<TriMesh, PbmError> {
    let positive = (v[1] - v[0]).dot(&(v[2] - v[0]).cross(&(v[3] - v[0]))) > 0.0;
    let (a, b) = if positive { (1, 2) } else { (2, 1) };
    TriMesh::new(v.to_vec(), vec![[0, b, a], [0, a, 3], [0, 3, b], [a, b, 3]])
}

/// An extruded polygon: the simple polygon `outline` (counter-clockwise in the xy
/// plane) swept from z = 0 to z = `depth`; `caps` triangulates the outline (indices
/// into it, counter-clockwise).
fn prism(
    outline: &[(f64, f64)],
    caps: &[[usize; 3]],
    depth: f64,
) -> Result<TriMesh, PbmError> {
    let n = outline.len();
    let mut vertices: Vec<Vector3<f64>> =
        outline.iter().map(|&(x, y)| Vector3::new(x, y, 0.0)).collect();
    vertices.extend(outline.iter().map(|&(x, y)| Vector3::new(x, y, depth)));
    let mut triangles = Vec::new();
    for t in caps {
        triangles.push([t[0], t[2], t[1]]); // bottom, facing −z
        triangles.push([t[0] + n, t[1] + n, t[2] + n]); // top, facing +z
    }
    for i in 0..n {
        let j = (i + 1) % n;
        triangles.push([i, j, j + n]);
        triangles.push([i, j + n, i + n]);
    }
    TriMesh::new(vertices, triangles)
}

/// The non-convex L-shaped solid of the book: a 2 × 2 square with its 1 × 1
/// upper-right quarter removed, extruded 1 deep. Volume 3.
pub fn l_shape() -> Result<TriMesh, PbmError> {
    let outline =
        [(0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 1.0), (1.0, 2.0), (0.0, 2.0)];
    let caps = [[0, 1, 2], [0, 2, 3], [0, 3, 4], [0, 4, 5]];
    prism(&outline, &caps, 1.0)
}

/// A closed latitude–longitude sphere of `radius` with `stacks` bands and `slices`
/// sectors: 2 · slices · (stacks − 1) triangles.
pub fn uv_sphere(
    radius: f64,
    stacks: usize,
    slices: usize,
) -> Result<TriMesh, PbmError> {
    if stacks < 2 || slices < 3 {
        return Err(PbmError::invalid(
            "sphere mesh",
            "needs at least 2 stacks and 3 slices",
        ));
    }
    let mut vertices = vec![Vector3::new(0.0, 0.0, radius)];
    for i in 1..stacks {
        let phi = std::f64::consts::PI * i as f64 / stacks as f64;
        for j in 0..slices {
            let theta = 2.0 * std::f64::consts::PI * j as f64 / slices as f64;
            vertices.push(
                Vector3::new(
                    phi.sin() * theta.cos(),
                    phi.sin() * theta.sin(),
                    phi.cos(),
                ) * radius,
            );
        }
    }
    vertices.push(Vector3::new(0.0, 0.0, -radius));
    let south = vertices.len() - 1;
    let ring = |i: usize, j: usize| 1 + (i - 1) * slices + j % slices;
    let mut triangles = Vec::new();
    for j in 0..slices {
        triangles.push([0, ring(1, j), ring(1, j + 1)]);
        triangles.push([south, ring(stacks - 1, j + 1), ring(stacks - 1, j)]);
    }
    for i in 1..stacks - 1 {
        for j in 0..slices {
            triangles.push([ring(i, j), ring(i + 1, j), ring(i + 1, j + 1)]);
            triangles.push([ring(i, j), ring(i + 1, j + 1), ring(i, j + 1)]);
        }
    }
    TriMesh::new(vertices, triangles)
}
