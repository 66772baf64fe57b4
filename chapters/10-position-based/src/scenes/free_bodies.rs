//! Free rigid bodies: the brick spun with no force, and a pair joined corner to
//! corner.

use super::shared::UNROTATED;
use crate::joint::{Anchor, BodySystem, Joint};
use crate::rigid::Body;
use nalgebra::Vector3;
use pbm_prelim::PbmError;
use pbm_rigid::mass::MassProperties;
use pbm_rigid::rotation::quat_from_axis_angle;

/// The rigid-body page's brick: 10 × 40 × 20 cm and 2 kg, at (0.3, −0.2, 0.1) m,
/// turned by 0.7 rad about (1, 2, 3), at rest.
pub fn brick() -> Result<Body, PbmError> {
    let props = MassProperties::block(Vector3::new(0.1, 0.4, 0.2), 2.0)?;
    let q = quat_from_axis_angle(&Vector3::new(1.0, 2.0, 3.0), 0.7);
    Body::new(&props, Vector3::new(0.3, -0.2, 0.1), q)
}

/// |L(t_end) − L(0)| / |L(0)| of the brick spun at (2, 1, −1.5) rad/s with no force,
/// stepped at `h`, with or without the gyroscopic term in its prediction.
pub fn free_brick_momentum_change(
    gyroscopic: bool,
    h: f64,
    t_end: f64,
) -> Result<f64, PbmError> {
    let mut body = brick()?;
    body.omega = Vector3::new(2.0, 1.0, -1.5);
    let mut system = BodySystem::new(vec![body], Vector3::zeros());
    system.gyroscopic = gyroscopic;
    let l0 = system.angular_momentum();
    for _ in 0..(t_end / h).round() as usize {
        system.step(h, 1)?;
    }
    Ok((system.angular_momentum() - l0).norm() / l0.norm())
}

/// Two cubes, 20 cm and 2 kg and 10 cm and 0.5 kg, joined corner to corner by a
/// 0.3 m rigid joint, each moving and tumbling, after one step at `h` has settled
/// the joint; with their momentum and angular momentum then. Cubes have I a multiple
/// of the identity, so ω × (I ω) = 0: whatever the pair's L does is the joint's.
pub fn spinning_pair(
    h: f64,
) -> Result<(BodySystem, Vector3<f64>, Vector3<f64>), PbmError> {
    let props = MassProperties::block(Vector3::new(0.2, 0.2, 0.2), 2.0)?;
    let other = MassProperties::block(Vector3::new(0.1, 0.1, 0.1), 0.5)?;
    let mut a = Body::new(&props, Vector3::zeros(), UNROTATED)?;
    // B's corner sits 0.3 m from A's: the joint holds at the start.
    let mut b = Body::new(&other, Vector3::new(0.45, 0.05, 0.15), UNROTATED)?;
    (a.v, a.omega) = (Vector3::new(0.1, 0.2, -0.3), Vector3::new(1.0, -2.0, 3.0));
    (b.v, b.omega) = (Vector3::new(-1.0, 0.5, 0.2), Vector3::new(0.0, 4.0, -1.0));
    let mut system = BodySystem::new(vec![a, b], Vector3::zeros());
    system.add_joint(Joint::new(
        Anchor::Body { body: 0, local: Vector3::new(0.1, 0.1, 0.1) },
        Anchor::Body { body: 1, local: Vector3::new(-0.05, 0.05, -0.05) },
        0.3,
        0.0,
    )?)?;
    system.step(h, 1)?;
    let (p0, l0) = (system.momentum(), system.angular_momentum());
    Ok((system, p0, l0))
}

/// |ΔL| / |L| of [`spinning_pair`] over `t_end` seconds at step `h`.
pub fn jointed_pair_momentum_drift(h: f64, t_end: f64) -> Result<f64, PbmError> {
    let (mut system, _, l0) = spinning_pair(h)?;
    for _ in 0..(t_end / h).round() as usize {
        system.step(h, 1)?;
    }
    Ok((system.angular_momentum() - l0).norm() / l0.norm())
}
