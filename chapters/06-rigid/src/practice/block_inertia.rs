// Practice `rigid/block-inertia`: the inertia tensor of a solid block.
//
// Read "Mass properties" (book/src/06-rigid/mass.md), the section "A block, in closed
// form". Then fill in the body and run
// `cargo run --release -- practice check rigid/block-inertia`.

use nalgebra::{Matrix3, Vector3};

/// The inertia tensor about its centre of mass of a solid block of uniform density,
/// sides `size` = (x₀, y₀, z₀) along the body's axes and mass M:
/// I = M/12 diag(y₀² + z₀², x₀² + z₀², x₀² + y₀²).
pub fn inertia_of_block(size: &Vector3<f64>, mass: f64) -> Matrix3<f64> {
    let _ = (size, mass);
    todo!("the block's inertia tensor about its centre")
}
