// The book's answer to `pbd/ground`, as `pbm practice solution` prints it: the
// chapter's `project_ground` (`contact.rs`) in three dimensions.

use nalgebra::Vector3;
use pbm_pbd::contact::{Ground, Touch};

// ANCHOR: project_ground
/// Pushes a particle below the ground up to its surface, Δx = −C n, and undoes its
/// sliding over the step while that is shorter than μ_s times the push.
pub fn project_ground(
    ground: &Ground<3>,
    x: &mut Vector3<f64>,
    previous: &Vector3<f64>,
    v: &Vector3<f64>,
) -> Touch {
    let n = ground.normal;
    let c = x.dot(&n) - ground.height;
    if c >= 0.0 {
        return Touch::default();
    }
    *x -= n * c;
    let moved = *x - previous;
    let sliding = moved - n * moved.dot(&n);
    if sliding.norm() < ground.static_friction * -c {
        *x -= sliding;
    }
    Touch { push: -c, approach: v.dot(&n) }
}
// ANCHOR_END: project_ground
