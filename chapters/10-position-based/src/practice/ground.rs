// Practice `pbd/ground`: the ground's position pass, with static friction.
//
// Read "Projecting constraints: PBD and XPBD"
// (book/src/10-position-based/projection.md), the section "Contact, friction and
// restitution". Then fill in the body and run
// `cargo run --release -- practice check pbd/ground`.

use nalgebra::Vector3;
use pbm_pbd::contact::{Ground, Touch};

/// The ground's position pass for one free particle at `x`, which started the step
/// at `previous` and had the velocity `v` after the prediction. The ground is the
/// half-space x·n ≥ d with n = `ground.normal` (a unit vector, not always straight
/// up) and d = `ground.height`, so C = x·n − d.
///
/// - C ≥ 0: the particle is not in the ground. Leave `x` alone and return
///   `Touch::default()`.
/// - C < 0: push it out to the surface along the normal, Δx = −C n. Then static
///   friction: the sliding over the step is the part of x − `previous` across n; if
///   it is shorter than μ_s = `ground.static_friction` times the push −C, undo it
///   (the particle ends on the surface, straight out from where it started). Return
///   `Touch { push: −C, approach: v·n }`, the depth it was pushed out by and its
///   normal velocity before the solve, for the velocity pass.
pub fn project_ground(
    ground: &Ground<3>,
    x: &mut Vector3<f64>,
    previous: &Vector3<f64>,
    v: &Vector3<f64>,
) -> Touch {
    let _ = (ground, x, previous, v);
    todo!("the push out of the ground and static friction")
}
