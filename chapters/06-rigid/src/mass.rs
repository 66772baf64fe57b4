//! Mass properties: total mass, centre of mass and the inertia tensor about it, five
//! ways. Exact for a block (equation 5-3) and for point masses (equation 2-35);
//! approximate from a bounding box or from points sampled inside a mesh (the slides);
//! exact for any closed polyhedron by turning volume integrals into surface integrals
//! (Mirtich 1996).

use crate::mesh::TriMesh;
use nalgebra::{Matrix3, SymmetricEigen, Vector3};
use pbm_prelim::PbmError;
use pbm_prelim::validate::positive;

/// Mass M, centre of mass c and inertia tensor I about c, in the body's coordinates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MassProperties {
    /// Total mass (kg).
    pub mass: f64,
    /// Centre of mass (m).
    pub centre: Vector3<f64>,
    /// Inertia tensor about the centre of mass (kg m²).
    pub inertia: Matrix3<f64>,
}

impl MassProperties {
    // ANCHOR: block
    /// Equation 5-3: a solid block x₀ × y₀ × z₀ of mass M centred on its centre of
    /// mass has I = M/12 diag(y₀² + z₀², x₀² + z₀², x₀² + y₀²).
    pub fn block(size: Vector3<f64>, mass: f64) -> Result<Self, PbmError> {
        positive("block", "mass", mass)?;
        for s in size.iter() {
            positive("block", "side", *s)?;
        }
        let sq = size.component_mul(&size);
        let inertia = Matrix3::from_diagonal(&Vector3::new(
            sq.y + sq.z,
            sq.x + sq.z,
            sq.x + sq.y,
        )) * (mass / 12.0);
        Ok(MassProperties { mass, centre: Vector3::zeros(), inertia })
    }
    // ANCHOR_END: block

    // ANCHOR: point_masses
    /// Equation 2-35 for point masses m_i at r_i: c = Σ m_i r_i / M, and with r'_i =
    /// r_i − c, I = Σ m_i ((r'_i · r'_i) 1 − r'_i r'_iᵀ).
    pub fn point_masses(points: &[(f64, Vector3<f64>)]) -> Result<Self, PbmError> {
        if points.is_empty() {
            return Err(PbmError::invalid("point masses", "there are none"));
        }
        for (m, r) in points {
            positive("point masses", "mass", *m)?;
            if r.iter().any(|c| !c.is_finite()) {
                return Err(PbmError::invalid(
                    "point masses",
                    "a position is not finite",
                ));
            }
        }
        let mass: f64 = points.iter().map(|p| p.0).sum();
        let centre = points.iter().map(|(m, r)| r * *m).sum::<Vector3<f64>>() / mass;
        let inertia = points
            .iter()
            .map(|(m, r)| {
                let d = r - centre;
                (Matrix3::identity() * d.dot(&d) - d * d.transpose()) * *m
            })
            .sum();
        Ok(MassProperties { mass, centre, inertia })
    }
    // ANCHOR_END: point_masses

    /// The slides' crudest approximation: the mesh's bounding box, filled at
    /// `density`.
    pub fn bounding_box(mesh: &TriMesh, density: f64) -> Result<Self, PbmError> {
        positive("bounding box", "density", density)?;
        let (lo, hi) = mesh.bounds();
        let size = hi - lo;
        let mut props = Self::block(size, density * size.product())?;
        props.centre = (lo + hi) / 2.0;
        Ok(props)
    }

    // ANCHOR: point_sampling
    /// The slides' point sampling: the centres of an n × n × n grid of cells over the
    /// bounding box, each carrying the mass of its cell times the winding number
    /// there: 1 inside, 0 outside, and 1/2 for a centre that lies exactly on a face
    /// (which happens when a face is aligned with the grid), whose cell is then half
    /// inside. An inside-or-outside test would decide such a centre by rounding.
    pub fn point_sampling(
        mesh: &TriMesh,
        density: f64,
        n: usize,
    ) -> Result<Self, PbmError> {
        positive("point sampling", "density", density)?;
        if n == 0 {
            return Err(PbmError::invalid(
                "point sampling",
                "the grid needs at least 1 cell",
            ));
        }
        let (lo, hi) = mesh.bounds();
        let cell = (hi - lo) / n as f64;
        let m = density * cell.product();
        let mut points = Vec::new();
        for i in 0..n {
            for j in 0..n {
                for k in 0..n {
                    let p = lo
                        + cell.component_mul(&Vector3::new(
                            i as f64 + 0.5,
                            j as f64 + 0.5,
                            k as f64 + 0.5,
                        ));
                    let w = snap_winding(mesh.winding_number(&p));
                    if w > 0.0 {
                        points.push((m * w, p));
                    }
                }
            }
        }
        Self::point_masses(&points)
    }
    // ANCHOR_END: point_sampling

    /// The usual variant of the bounding box: the box's shape, but the body's true
    /// mass (here from the exact polyhedral volume), so only the distribution is
    /// wrong.
    pub fn bounding_box_true_mass(
        mesh: &TriMesh,
        density: f64,
    ) -> Result<Self, PbmError> {
        let true_mass = Self::polyhedron(mesh, density)?.mass;
        let (lo, hi) = mesh.bounds();
        let mut props = Self::block(hi - lo, true_mass)?;
        props.centre = (lo + hi) / 2.0;
        Ok(props)
    }

    /// The same body's inertia about `point` instead of the centre of mass (parallel
    /// axis theorem): I_p = I_c + M ((d·d) 1 − d dᵀ) with d = c − p.
    pub fn inertia_about(&self, point: &Vector3<f64>) -> Matrix3<f64> {
        let d = self.centre - point;
        self.inertia
            + (Matrix3::identity() * d.dot(&d) - d * d.transpose()) * self.mass
    }

    /// Principal moments (eigenvalues of I), in increasing order.
    pub fn principal_moments(&self) -> Vector3<f64> {
        self.principal_axes().0
    }

    /// Principal moments in increasing order, and the principal axes: column k of
    /// the matrix is the unit axis about which the moment is the k-th. In the frame of
    /// these axes, with its origin at the centre of mass, the inertia tensor is
    /// diagonal.
    pub fn principal_axes(&self) -> (Vector3<f64>, Matrix3<f64>) {
        let eigen = SymmetricEigen::new(self.inertia);
        let mut order = [0, 1, 2];
        order.sort_by(|&i, &j| eigen.eigenvalues[i].total_cmp(&eigen.eigenvalues[j]));
        let moments = Vector3::from_fn(|k, _| eigen.eigenvalues[order[k]]);
        let axes = Matrix3::from_fn(|r, k| eigen.eigenvectors[(r, order[k])]);
        (moments, axes)
    }

    /// ‖I − I_exact‖ / ‖I_exact‖ (Frobenius norms).
    pub fn relative_error(&self, exact: &MassProperties) -> f64 {
        (self.inertia - exact.inertia).norm() / exact.inertia.norm()
    }
}

/// A winding number as a weight: exactly 0 or 1 where it is within rounding of them
/// (deep inside or outside), itself on the surface.
fn snap_winding(w: f64) -> f64 {
    if w.abs() < 1e-9 {
        0.0
    } else if (w - 1.0).abs() < 1e-9 {
        1.0
    } else {
        w
    }
}

/// The volume integrals a polyhedron's mass properties need: ∫1, ∫x, ∫y, ∫z, ∫x²,
/// ∫y², ∫z², ∫xy, ∫yz, ∫zx over its interior.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct VolumeIntegrals {
    t0: f64,
    t1: Vector3<f64>,
    t2: Vector3<f64>,
    /// (∫xy, ∫yz, ∫zx)
    tp: Vector3<f64>,
}

/// Integrals of monomials over a triangle's projection onto the (a, b) coordinate
/// plane, by Green's theorem: a sum over the projected edges.
#[derive(Default)]
struct ProjectionIntegrals {
    p1: f64,
    pa: f64,
    pb: f64,
    paa: f64,
    pab: f64,
    pbb: f64,
    paaa: f64,
    paab: f64,
    pabb: f64,
    pbbb: f64,
}

// ANCHOR: projection
/// Green's theorem for the triangle's shadow on the (a, b) plane: ∫∫ a^p b^q dA =
/// ∮ a^{p+1} b^q / (p+1) db, and along a straight edge from (a0, b0) to (a1, b1) that
/// line integral is a polynomial in the four end coordinates. Summed over the three
/// edges (counter-clockwise seen from +c) it gives the area P1 and the moments up to
/// third order; the b-moments use ∮ −a b^{q+1}/(q+1) da instead, hence their signs.
fn projection_integrals(
    tri: &[Vector3<f64>; 3],
    a: usize,
    b: usize,
) -> ProjectionIntegrals {
    let mut p = ProjectionIntegrals::default();
    for e in 0..3 {
        let (a0, b0) = (tri[e][a], tri[e][b]);
        let (a1, b1) = (tri[(e + 1) % 3][a], tri[(e + 1) % 3][b]);
        p.add_edge((a0, b0), (a1, b1));
    }
    p.p1 /= 2.0;
    p.pa /= 6.0;
    p.paa /= 12.0;
    p.paaa /= 20.0;
    p.pb /= -6.0;
    p.pbb /= -12.0;
    p.pbbb /= -20.0;
    p.pab /= 24.0;
    p.paab /= 60.0;
    p.pabb /= -60.0;
    p
}
// ANCHOR_END: projection

impl ProjectionIntegrals {
    // ANCHOR: projection_edge
    /// Adds one edge's line integrals, each still to be divided by its constant
    /// factor once all three edges are in.
    fn add_edge(&mut self, (a0, b0): (f64, f64), (a1, b1): (f64, f64)) {
        let (da, db) = (a1 - a0, b1 - b0);
        let (a0_2, b0_2, a1_2, b1_2) = (a0 * a0, b0 * b0, a1 * a1, b1 * b1);
        let (a0_3, b0_3, a1_3, b1_3) = (a0_2 * a0, b0_2 * b0, a1_2 * a1, b1_2 * b1);
        let (a0_4, b0_4) = (a0_3 * a0, b0_3 * b0);
        let c1 = a1 + a0;
        let ca = a1 * c1 + a0_2;
        let caa = a1 * ca + a0_3;
        let caaa = a1 * caa + a0_4;
        let cb = b1 * (b1 + b0) + b0_2;
        let cbb = b1 * cb + b0_3;
        let cbbb = b1 * cbb + b0_4;
        let cab = 3.0 * a1_2 + 2.0 * a1 * a0 + a0_2;
        let kab = a1_2 + 2.0 * a1 * a0 + 3.0 * a0_2;
        let caab = a0 * cab + 4.0 * a1_3;
        let kaab = a1 * kab + 4.0 * a0_3;
        let cabb = 4.0 * b1_3 + 3.0 * b1_2 * b0 + 2.0 * b1 * b0_2 + b0_3;
        let kabb = b1_3 + 2.0 * b1_2 * b0 + 3.0 * b1 * b0_2 + 4.0 * b0_3;
        self.p1 += db * c1;
        self.pa += db * ca;
        self.paa += db * caa;
        self.paaa += db * caaa;
        self.pb += da * cb;
        self.pbb += da * cbb;
        self.pbbb += da * cbbb;
        self.pab += db * (b1 * cab + b0 * kab);
        self.paab += db * (b1 * caab + b0 * kaab);
        self.pabb += da * (a1 * cabb + a0 * kabb);
    }
    // ANCHOR_END: projection_edge
}

/// The coordinate plane (a, b) a triangle with normal `n` is projected onto, and the
/// axis c it is projected along: the largest component of n, so that the division by
/// n_c stays well away from zero; (a, b, c) is a cyclic order of (x, y, z).
pub fn projection_axes(n: &Vector3<f64>) -> (usize, usize, usize) {
    let c = n.iamax();
    ((c + 1) % 3, (c + 2) % 3, c)
}

/// The area of the triangle's shadow on the (a, b) plane by Green's theorem, the
/// edge sum P₁ = ½ Σ Δb (a₀ + a₁); positive when the shadow runs counter-clockwise.
pub fn projected_area(tri: &[Vector3<f64>; 3], a: usize, b: usize) -> f64 {
    projection_integrals(tri, a, b).p1
}

// ANCHOR: polyhedral
/// Mirtich's three reductions for one triangle with unit outward normal n. Volume
/// integrals become surface integrals (divergence theorem); a surface integral over a
/// plane triangle becomes an integral over its projection on the coordinate plane (a,
/// b) it is most nearly parallel to; that becomes a sum over the projected edges
/// (Green's theorem).
fn add_triangle(tri: &[Vector3<f64>; 3], v: &mut VolumeIntegrals) {
    let n = (tri[1] - tri[0]).cross(&(tri[2] - tri[0])).normalize();
    let (a, b, c) = projection_axes(&n);
    let w = -n.dot(&tri[0]); // the plane is n·x + w = 0
    let p = projection_integrals(tri, a, b);
    let (na, nb, nc) = (n[a], n[b], n[c]);
    let [[fa, fb, fc], [faa, fbb, fcc], [faaa, fbbb, fccc], [faab, fbbc, fcca]] =
        surface_integrals(&p, (na, nb, nc), w);
    // Divergence theorem: each volume integral is a sum of n-weighted surface
    // integrals.
    v.t0 += n.x * [fa, fb, fc][index_of(0, a, b)]; // ∫1 = ∫∫ x n_x
    v.t1[a] += na * faa;
    v.t1[b] += nb * fbb;
    v.t1[c] += nc * fcc;
    v.t2[a] += na * faaa;
    v.t2[b] += nb * fbbb;
    v.t2[c] += nc * fccc;
    v.tp[a] += na * faab;
    v.tp[b] += nb * fbbc;
    v.tp[c] += nc * fcca;
}
// ANCHOR_END: polyhedral

// ANCHOR: surface_integrals
/// Surface integrals over the triangle of a, b, c and their products, from those
/// over its projection: on the plane n·x + w = 0, c = −(n_a a + n_b b + w)/n_c, and
/// a factor 1/n_c undoes the projection's shrinking of area. Returned as [[a, b, c],
/// [a², b², c²], [a³, b³, c³], [a²b, b²c, c²a]].
fn surface_integrals(
    p: &ProjectionIntegrals,
    (na, nb, nc): (f64, f64, f64),
    w: f64,
) -> [[f64; 3]; 4] {
    let k1 = 1.0 / nc;
    let (k2, k3, k4) = (k1 * k1, k1 * k1 * k1, k1 * k1 * k1 * k1);
    let fa = k1 * p.pa;
    let fb = k1 * p.pb;
    let fc = -k2 * (na * p.pa + nb * p.pb + w * p.p1);
    let faa = k1 * p.paa;
    let fbb = k1 * p.pbb;
    let fcc = k3
        * (na * na * p.paa
            + 2.0 * na * nb * p.pab
            + nb * nb * p.pbb
            + w * (2.0 * (na * p.pa + nb * p.pb) + w * p.p1));
    let faaa = k1 * p.paaa;
    let fbbb = k1 * p.pbbb;
    let fccc = -k4
        * (na * na * na * p.paaa
            + 3.0 * na * na * nb * p.paab
            + 3.0 * na * nb * nb * p.pabb
            + nb * nb * nb * p.pbbb
            + 3.0 * w * (na * na * p.paa + 2.0 * na * nb * p.pab + nb * nb * p.pbb)
            + w * w * (3.0 * (na * p.pa + nb * p.pb) + w * p.p1));
    let faab = k1 * p.paab;
    let fbbc = -k2 * (na * p.pabb + nb * p.pbbb + w * p.pbb);
    let fcca = k3
        * (na * na * p.paaa
            + 2.0 * na * nb * p.paab
            + nb * nb * p.pabb
            + w * (2.0 * (na * p.paa + nb * p.pab) + w * p.pa));
    [[fa, fb, fc], [faa, fbb, fcc], [faaa, fbbb, fccc], [faab, fbbc, fcca]]
}
// ANCHOR_END: surface_integrals

/// Which of (a, b, c) the axis x is: 0 if x = a, 1 if x = b, 2 otherwise.
fn index_of(x: usize, a: usize, b: usize) -> usize {
    if x == a {
        0
    } else if x == b {
        1
    } else {
        2
    }
}

impl MassProperties {
    // ANCHOR: from_mesh
    /// Exact mass properties of a closed polyhedron of uniform `density` (Mirtich
    /// 1996). The integrals are taken about a point of the mesh, the mean of its
    /// vertices, not about the world origin: the inertia is then moved from there to
    /// the centre of mass, a short move. About a far origin both the second moments
    /// and the parallel-axis correction would be huge and nearly equal, and their
    /// difference would lose digits as (distance / size)².
    pub fn polyhedron(mesh: &TriMesh, density: f64) -> Result<Self, PbmError> {
        positive("polyhedron", "density", density)?;
        let vertices = mesh.vertices();
        let reference = vertices.iter().sum::<Vector3<f64>>() / vertices.len() as f64;
        let mut v = VolumeIntegrals::default();
        for tri in mesh.corners() {
            add_triangle(&tri.map(|p| p - reference), &mut v);
        }
        let (t1, t2, tp) = (v.t1 / 2.0, v.t2 / 3.0, v.tp / 2.0);
        let mass = density * v.t0;
        // The centre of mass relative to the reference point.
        let d = t1 / v.t0;
        // Inertia about the reference point, then moved to the centre of mass.
        let (xx, yy, zz) = (t2.x, t2.y, t2.z);
        let (xy, yz, zx) = (tp.x, tp.y, tp.z);
        let about_reference = Matrix3::new(
            yy + zz,
            -xy,
            -zx, //
            -xy,
            zz + xx,
            -yz, //
            -zx,
            -yz,
            xx + yy,
        ) * density;
        let inertia = about_reference
            - (Matrix3::identity() * d.dot(&d) - d * d.transpose()) * mass;
        Ok(MassProperties { mass, centre: reference + d, inertia })
    }
    // ANCHOR_END: from_mesh
}

impl MassProperties {
    /// The mass properties of a body made of several parts: masses add, centres
    /// average by mass, and each part's inertia is moved to the common centre by the
    /// parallel axis theorem before adding.
    pub fn combine(parts: &[MassProperties]) -> Result<Self, PbmError> {
        if parts.is_empty() {
            return Err(PbmError::invalid("combined body", "it has no parts"));
        }
        let mass: f64 = parts.iter().map(|p| p.mass).sum();
        let centre =
            parts.iter().map(|p| p.centre * p.mass).sum::<Vector3<f64>>() / mass;
        let inertia = parts.iter().map(|p| p.inertia_about(&centre)).sum();
        Ok(MassProperties { mass, centre, inertia })
    }

    /// A solid tetrahedron in closed form: with volume V and s = Σ v_k, the second
    /// moments are ∫ x xᵀ dV = V/20 (Σ v_k v_kᵀ + s sᵀ), and I follows from them. The
    /// corners are taken relative to the first one, so a far tetrahedron keeps its
    /// digits.
    pub fn tetrahedron(
        v: &[Vector3<f64>; 4],
        density: f64,
    ) -> Result<Self, PbmError> {
        positive("tetrahedron", "density", density)?;
        let volume =
            (v[1] - v[0]).dot(&(v[2] - v[0]).cross(&(v[3] - v[0]))).abs() / 6.0;
        positive("tetrahedron", "volume", volume)?;
        // About the first corner, for the same reason as in `polyhedron`.
        let local = v.map(|p| p - v[0]);
        let s: Vector3<f64> = local.iter().sum();
        let second = (local.iter().map(|p| p * p.transpose()).sum::<Matrix3<f64>>()
            + s * s.transpose())
            * (density * volume / 20.0);
        let mass = density * volume;
        let d = s / 4.0;
        let about_corner = Matrix3::identity() * second.trace() - second;
        let inertia = about_corner
            - (Matrix3::identity() * d.dot(&d) - d * d.transpose()) * mass;
        let centre = v[0] + d;
        Ok(MassProperties { mass, centre, inertia })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn projection_integrals_match_a_fine_midpoint_sum_over_the_triangle() {
        // A counter-clockwise triangle in the (x, y) plane (a = x, b = y), integrated
        // by a 2000 × 2000 midpoint grid over its bounding box with an inside test.
        let tri = [
            Vector3::new(0.2, 0.1, 0.0),
            Vector3::new(1.3, 0.4, 0.0),
            Vector3::new(0.5, 1.1, 0.0),
        ];
        let p = projection_integrals(&tri, 0, 1);
        let n = 2000;
        let (x0, x1, y0, y1) = (0.2, 1.3, 0.1, 1.1);
        let (hx, hy) = ((x1 - x0) / n as f64, (y1 - y0) / n as f64);
        let edge = |p: &Vector3<f64>, q: &Vector3<f64>, x: f64, y: f64| {
            (q.x - p.x) * (y - p.y) - (q.y - p.y) * (x - p.x)
        };
        let mut sums = [0.0; 6];
        for i in 0..n {
            for j in 0..n {
                let (x, y) = (x0 + (i as f64 + 0.5) * hx, y0 + (j as f64 + 0.5) * hy);
                let inside =
                    (0..3).all(|e| edge(&tri[e], &tri[(e + 1) % 3], x, y) >= 0.0);
                if inside {
                    for (s, v) in
                        sums.iter_mut().zip([1.0, x, y, x * x, x * y, x * x * y])
                    {
                        *s += v * hx * hy;
                    }
                }
            }
        }
        let exact = [p.p1, p.pa, p.pb, p.paa, p.pab, p.paab];
        for (k, (e, s)) in exact.iter().zip(sums).enumerate() {
            assert!(
                (e - s).abs() < 2e-3 * e.abs(),
                "moment {k}: Green {e} vs sum {s}"
            );
        }
        // The area in closed form: half the cross product of two edges.
        let area = 0.5 * (tri[1] - tri[0]).cross(&(tri[2] - tri[0])).z;
        assert!((p.p1 - area).abs() < 1e-15);
    }
}
