//! A bar on a hinge, twisting about its length so that only the hinge keeps it in
//! the plane.

use super::shared::{FRAME, UNROTATED};
use crate::joint::{Anchor, BodySystem, Joint};
use crate::rigid::Body;
use nalgebra::Vector3;
use pbm_particles::forces::G;
use pbm_prelim::PbmError;
use pbm_rigid::mass::MassProperties;

/// What `pbd/hinge` measures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HingeRun {
    /// The largest angle between the two hinge axes (rad).
    pub max_misalignment: f64,
    /// The lowest angle the bar reached below the horizontal (rad, negative down).
    pub lowest_angle: f64,
    /// The angle at the end (rad).
    pub final_angle: f64,
    /// The largest gap at the hinge's point (m).
    pub max_gap: f64,
}

// ANCHOR: hinged_bar
/// A 1 kg bar 1 m long, released level from a hinge at its end whose axis is the
/// world's z, spinning about its own length at `twist` (rad/s) so that only the
/// hinge keeps it in the plane, with the angle about the hinge limited to
/// ±`limit` (rad, None for no limit); `substeps` XPBD steps a frame for `t_end`.
pub fn hinged_bar(
    limit: Option<f64>,
    twist: f64,
    substeps: usize,
    t_end: f64,
) -> Result<HingeRun, PbmError> {
    let mut system = hinged_bar_system(limit, twist)?;
    let h = FRAME / substeps.max(1) as f64;
    let mut run = HingeRun {
        max_misalignment: 0.0,
        lowest_angle: 0.0,
        final_angle: 0.0,
        max_gap: 0.0,
    };
    for _ in 0..(t_end / h).round() as usize {
        system.step(h, 1)?;
        let hinge = &system.hinges[0];
        run.max_misalignment =
            run.max_misalignment.max(hinge.misalignment(&system.bodies));
        run.lowest_angle = run.lowest_angle.min(hinge.angle(&system.bodies));
        run.max_gap = run.max_gap.max(system.max_rigid_violation());
    }
    run.final_angle = system.hinges[0].angle(&system.bodies);
    Ok(run)
}
// ANCHOR_END: hinged_bar

// ANCHOR: hinged_bar_system
/// The bar of [`hinged_bar`], its end joined to the world's origin and hinged
/// about the world's z.
fn hinged_bar_system(limit: Option<f64>, twist: f64) -> Result<BodySystem, PbmError> {
    use crate::joint::Hinge;
    let props = MassProperties::block(Vector3::new(1.0, 0.1, 0.1), 1.0)?;
    let mut bar = Body::new(&props, Vector3::new(0.5, 0.0, 0.0), UNROTATED)?;
    bar.omega = Vector3::new(twist, 0.0, 0.0);
    let mut system = BodySystem::new(vec![bar], Vector3::new(0.0, -G, 0.0));
    let end = Vector3::new(-0.5, 0.0, 0.0);
    let point = Anchor::World(Vector3::zeros());
    system.add_joint(Joint::new(
        point,
        Anchor::Body { body: 0, local: end },
        0.0,
        0.0,
    )?)?;
    let (z, x) = (Vector3::z(), Vector3::x());
    let limits = limit.map(|l| (-l, l));
    let hinge = Hinge { a: 0, b: None, axis_a: (z, x), axis_b: (z, x), limits };
    system.add_hinge(hinge)?;
    Ok(system)
}
// ANCHOR_END: hinged_bar_system
