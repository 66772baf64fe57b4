// The book's answer to `rigid/mesh-inertia`, as `pbm practice solution
// rigid/mesh-inertia` prints it. The chapter's own `MassProperties::polyhedron`
// integrates the same solid by Mirtich's projections; this is the shorter road of
// signed tetrahedra, exact too.

use nalgebra::{Matrix3, Vector3};
use pbm_rigid::mass::MassProperties;
use pbm_rigid::mesh::TriMesh;

// ANCHOR: mesh_mass_properties
/// Every triangle and the first vertex o make a tetrahedron of signed volume
/// a·(b × c)/6 (corners relative to o); its first moment is V s/4 and its second
/// moments V/20 (Σ v vᵀ + s sᵀ), s = a + b + c. Summed, the parts outside cancel.
pub fn mesh_mass_properties(mesh: &TriMesh, density: f64) -> MassProperties {
    let o = mesh.vertices()[0];
    let mut volume = 0.0;
    let mut first = Vector3::zeros();
    let mut second = Matrix3::zeros();
    for [a, b, c] in mesh.corners() {
        let (a, b, c) = (a - o, b - o, c - o);
        let v = a.dot(&b.cross(&c)) / 6.0;
        let s = a + b + c;
        volume += v;
        first += s * (v / 4.0);
        second += (a * a.transpose() + b * b.transpose() + c * c.transpose()
            + s * s.transpose())
            * (v / 20.0);
    }
    let d = first / volume; // the centre of mass, relative to o
    let about_centre = (second - d * d.transpose() * volume) * density;
    MassProperties {
        mass: density * volume,
        centre: o + d,
        inertia: Matrix3::identity() * about_centre.trace() - about_centre,
    }
}
// ANCHOR_END: mesh_mass_properties
