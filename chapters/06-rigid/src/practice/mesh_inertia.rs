// Practice `rigid/mesh-inertia`: the mass properties of a closed triangle mesh, by
// signed tetrahedra.
//
// Read "Mass properties" (book/src/06-rigid/mass.md), the sections "Exact: the
// divergence theorem, twice" and "How good are they?", where a tetrahedron's second
// moments are given in closed form. Then fill in the body and run
// `cargo run --release -- practice check rigid/mesh-inertia`.

use nalgebra::{Matrix3, Vector3};
use pbm_rigid::mass::MassProperties;
use pbm_rigid::mesh::TriMesh;

/// The mass, centre of mass and inertia tensor about the centre of mass of the solid
/// that the closed, outward mesh `mesh` bounds, filled at `density` (positive).
///
/// Join a point o to every triangle (a, b, c) (`mesh.corners()` gives the corners):
/// each makes a tetrahedron of signed volume V = a′·(b′ × c′)/6 with a′ = a − o, …,
/// positive where the triangle faces away from o, negative where it faces o. The
/// signed volumes add up to the solid's, wherever o is, because the parts outside
/// cancel. Relative to o, each tetrahedron has the first moment V s/4 and the second
/// moments ∫ x xᵀ dV = V/20 (a′a′ᵀ + b′b′ᵀ + c′c′ᵀ + s sᵀ), with s = a′ + b′ + c′.
/// Add them up; the centre of mass is o + (Σ first moments)/(Σ V); move the second
/// moments to it (∫ (x − d)(x − d)ᵀ = ∫ x xᵀ − V d dᵀ for d = the centre relative to
/// o), and turn the second-moment matrix C into the inertia tensor, I = ρ (tr C 1 − C).
/// A point of the mesh (a vertex) makes a good o: the sums stay small where the mesh
/// is far from the origin.
pub fn mesh_mass_properties(mesh: &TriMesh, density: f64) -> MassProperties {
    let _ = (mesh, density);
    todo!("sum the signed tetrahedra from a point to every triangle")
}
