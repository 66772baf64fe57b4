//! The slides' chain of boxes and its scripted mouse.

use super::shared::FRAME;
use crate::joint::{Anchor, BodySystem, Joint};
use crate::rigid::Body;
use nalgebra::Vector3;
use pbm_prelim::PbmError;
use pbm_rigid::mass::MassProperties;
use pbm_rigid::rotation::quat_from_axis_angle;

/// Gravity in the slides' demos (m/s²).
pub const SLIDES_G: f64 = 10.0;

/// The slides' chain of boxes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoxChain {
    /// Number of boxes.
    pub links: usize,
    /// Box size: width, length (along the chain), depth (m).
    pub size: [f64; 3],
    /// Mass of one box (kg).
    pub mass: f64,
    /// Angle of the chain below the horizontal at release (rad); π/2 hangs straight
    /// down.
    pub release_angle: f64,
}

impl BoxChain {
    /// The book's chain: ten 1 kg boxes 5 × 20 × 5 cm, released straight out to the
    /// side.
    pub const BOOK: BoxChain = BoxChain {
        links: 10,
        size: [0.05, 0.2, 0.05],
        mass: 1.0,
        release_angle: 0.0,
    };

    // ANCHOR: box_chain
    /// The chain as bodies and ball joints: the top centre of box 0 is joined to the
    /// world origin, the top centre of every later box to the bottom centre of the
    /// box before it. Gravity is the slides' 10 m/s² along −y.
    pub fn build(&self) -> Result<BodySystem, PbmError> {
        if self.links == 0 {
            return Err(PbmError::invalid("box chain", "it needs at least one box"));
        }
        let [w, l, d] = self.size;
        let props = MassProperties::block(Vector3::new(w, l, d), self.mass)?;
        // Box-local +y points up the chain: turn it to point back towards the origin.
        let angle = self.release_angle;
        let down = Vector3::new(angle.cos(), -angle.sin(), 0.0);
        let q =
            quat_from_axis_angle(&Vector3::z(), std::f64::consts::FRAC_PI_2 - angle);
        let bodies = (0..self.links)
            .map(|i| Body::new(&props, down * (l * (i as f64 + 0.5)), q))
            .collect::<Result<Vec<_>, _>>()?;
        let mut system = BodySystem::new(bodies, Vector3::new(0.0, -SLIDES_G, 0.0));
        let (top, bottom) =
            (Vector3::new(0.0, 0.5 * l, 0.0), Vector3::new(0.0, -0.5 * l, 0.0));
        for i in 0..self.links {
            let above = if i == 0 {
                Anchor::World(Vector3::zeros())
            } else {
                Anchor::Body { body: i - 1, local: bottom }
            };
            system.add_joint(Joint::new(
                above,
                Anchor::Body { body: i, local: top },
                0.0,
                0.0,
            )?)?;
        }
        Ok(system)
    }
    // ANCHOR_END: box_chain

    /// The point of the last box the mouse grabs: its bottom centre, in its own
    /// coordinates.
    pub fn handle(&self) -> Vector3<f64> {
        Vector3::new(0.0, -0.5 * self.size[1], 0.0)
    }
}

// ANCHOR: drag_path
/// The scripted mouse: from the grabbed point `start`, 0.5 m right and 0.4 m up
/// in the first second, then once round a circle of radius 0.25 m (counter-
/// clockwise, starting at its bottom) in the next `loop_time` seconds, then
/// still. For the book's chain hanging 1 m below its pin every point of the path
/// is within reach.
pub fn drag_path(start: &Vector3<f64>, t: f64, loop_time: f64) -> Vector3<f64> {
    let corner = start + Vector3::new(0.5, 0.4, 0.0);
    if t <= 1.0 {
        return start + (corner - start) * t.max(0.0);
    }
    let angle = ((t - 1.0) / loop_time).min(1.0) * std::f64::consts::TAU;
    corner + Vector3::new(0.25 * angle.sin(), 0.25 * (1.0 - angle.cos()), 0.0)
}
// ANCHOR_END: drag_path

// ANCHOR: drag_run
/// The chain of `links` boxes hanging straight down, its last box grabbed at the
/// bottom at t = 0 by a joint of `compliance` to the mouse, which follows
/// [`drag_path`]. Calls `frame` with the system and the mouse after every 60 Hz
/// frame (and at the start).
pub fn drag_run(
    links: usize,
    compliance: f64,
    loop_time: f64,
    substeps: usize,
    frames: usize,
    mut frame: impl FnMut(&BodySystem, &nalgebra::Vector3<f64>),
) -> Result<BodySystem, PbmError> {
    let model = BoxChain {
        links,
        release_angle: std::f64::consts::FRAC_PI_2,
        ..BoxChain::BOOK
    };
    let mut system = model.build()?;
    let handle = model.handle();
    let start = system.bodies[links - 1].world_point(&handle);
    let grab = Anchor::Body { body: links - 1, local: handle };
    let mouse =
        system.add_joint(Joint::new(grab, Anchor::World(start), 0.0, compliance)?)?;
    let h = FRAME / substeps as f64;
    frame(&system, &start);
    for _ in 0..frames {
        for _ in 0..substeps {
            let target = drag_path(&start, system.t + h, loop_time);
            system.joints[mouse].b = Anchor::World(target);
            system.step(h, 1)?;
        }
        frame(&system, &drag_path(&start, system.t, loop_time));
    }
    Ok(system)
}
// ANCHOR_END: drag_run
