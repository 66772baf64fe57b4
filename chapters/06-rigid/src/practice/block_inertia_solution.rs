// The book's answer to `rigid/block-inertia`, as `pbm practice solution
// rigid/block-inertia` prints it. The chapter's own `MassProperties::block` also
// checks its arguments and returns the mass and centre beside the tensor.

use nalgebra::{Matrix3, Vector3};

// ANCHOR: inertia_of_block
/// I = M/12 diag(y₀² + z₀², x₀² + z₀², x₀² + y₀²): the moment about each axis comes
/// from the two sides across it.
pub fn inertia_of_block(size: &Vector3<f64>, mass: f64) -> Matrix3<f64> {
    let sq = size.component_mul(size);
    Matrix3::from_diagonal(&Vector3::new(sq.y + sq.z, sq.x + sq.z, sq.x + sq.y))
        * (mass / 12.0)
}
// ANCHOR_END: inertia_of_block
