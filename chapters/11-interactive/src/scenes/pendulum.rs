//! A pendulum of bars pinned end to end, and the same pendulum held by chapter
//! 10's joints.

use super::shared::V2;
use crate::shape::Shape;
use crate::world::{Anchor, Pin, Settings, World};
use pbm_prelim::PbmError;
use std::time::Instant;

/// A pendulum of `bars` pinned end to end, the first pinned to the world at the
/// origin, held out horizontally and let go. Each bar has its own layer, so they
/// swing through each other and only the pins act.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pendulum {
    /// Number of bars.
    pub bars: usize,
    /// Length of each bar (m); they are a tenth as thick, of density 1 kg/m².
    pub length: f64,
}

impl Pendulum {
    /// The book's: three bars a metre long.
    pub const BOOK: Pendulum = Pendulum { bars: 3, length: 1.0 };

    /// The pendulum at rest along +x from the origin.
    pub fn build(&self, settings: Settings) -> Result<World, PbmError> {
        if self.bars == 0 {
            return Err(PbmError::invalid("pendulum", "it needs at least one bar"));
        }
        let mut world = World::new(settings)?;
        let l = self.length;
        let bar = Shape::rectangle(l, 0.1 * l, 1.0)?;
        let end = V2::new(0.5 * l, 0.0);
        for k in 0..self.bars {
            let x = V2::new((k as f64 + 0.5) * l, 0.0);
            world.add_body(bar.clone(), k as u32, (x, 0.0), (V2::zeros(), 0.0))?;
        }
        world.add_pin(Pin {
            a: Anchor::Body { body: 0, local: -end },
            b: Anchor::World(V2::zeros()),
        })?;
        for k in 1..self.bars {
            world.add_pin(Pin {
                a: Anchor::Body { body: k, local: -end },
                b: Anchor::Body { body: k - 1, local: end },
            })?;
        }
        Ok(world)
    }
}

/// What one run of a pendulum measured: the largest pin error (m), the largest
/// change of energy from the start (J), the steps taken and the wall time (s).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PendulumRun {
    /// The largest distance between a pin's two ends at the end of a step (m).
    pub max_pin_error: f64,
    /// The largest |E − E₀| at the end of a step (J).
    pub max_energy_change: f64,
    /// Steps taken.
    pub steps: usize,
    /// Wall time of the stepping (s).
    pub seconds: f64,
}

// ANCHOR: xpbd_pendulum
/// The same pendulum as [`Pendulum`] (bars of 1 m × 0.1 m at 1 kg/m², pinned end
/// to end, released along +x) as chapter 10 holds it: rigid bodies and joints by
/// XPBD, `substeps` steps of one pass per 1/60 s frame, for `t_end` seconds.
pub fn xpbd_pendulum(
    pendulum: &Pendulum,
    substeps: usize,
    t_end: f64,
) -> Result<PendulumRun, PbmError> {
    let mut system = xpbd_pendulum_system(pendulum)?;
    let h = pbm_pbd::scenes::FRAME / substeps.max(1) as f64;
    let steps = (t_end / h).round() as usize;
    let e0 = system.energy();
    let (mut max_pin_error, mut max_energy_change) = (0.0_f64, 0.0_f64);
    let start = Instant::now();
    for _ in 0..steps {
        system.step(h, 1)?;
        max_pin_error = max_pin_error.max(system.max_rigid_violation());
        max_energy_change = max_energy_change.max((system.energy() - e0).abs());
    }
    let seconds = start.elapsed().as_secs_f64();
    Ok(PendulumRun { max_pin_error, max_energy_change, steps, seconds })
}
// ANCHOR_END: xpbd_pendulum

// ANCHOR: xpbd_pendulum_system
/// The pendulum's bars as chapter 10's bodies, each joined to the one above (the
/// first to the world) by a joint of zero compliance. The bars are boxes 0.1 m
/// deep; turning about z, they have the plates' moment.
fn xpbd_pendulum_system(
    pendulum: &Pendulum,
) -> Result<pbm_pbd::joint::BodySystem, PbmError> {
    use nalgebra::Vector3;
    use pbm_pbd::joint::{Anchor as End, BodySystem, Joint};
    use pbm_pbd::rigid::Body;
    use pbm_rigid::mass::MassProperties;
    let l = pendulum.length;
    let props = MassProperties::block(Vector3::new(l, 0.1 * l, 0.1), 0.1 * l * l)?;
    let bodies = (0..pendulum.bars)
        .map(|k| {
            let x = Vector3::new((k as f64 + 0.5) * l, 0.0, 0.0);
            Body::new(&props, x, pbm_pbd::scenes::UNROTATED)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let gravity = Vector3::new(0.0, -pbm_particles::forces::G, 0.0);
    let mut system = BodySystem::new(bodies, gravity);
    let (left, right) =
        (Vector3::new(-0.5 * l, 0.0, 0.0), Vector3::new(0.5 * l, 0.0, 0.0));
    for k in 0..pendulum.bars {
        let above = match k {
            0 => End::World(Vector3::zeros()),
            _ => End::Body { body: k - 1, local: right },
        };
        let below = End::Body { body: k, local: left };
        system.add_joint(Joint::new(above, below, 0.0, 0.0)?)?;
    }
    Ok(system)
}
// ANCHOR_END: xpbd_pendulum_system
