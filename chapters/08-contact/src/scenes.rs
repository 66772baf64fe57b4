//! The chapter's scenes, built on [`crate::world`].

use crate::world::{Fixture, Settings, World};
use nalgebra::{UnitQuaternion, Vector3};
use pbm_collision::polyhedron::ConvexPolyhedron;
use pbm_prelim::PbmError;

type V3 = Vector3<f64>;

/// The ground: a 40 × 1 × 40 m slab whose top face is the plane y = 0.
pub fn ground() -> Result<Fixture, PbmError> {
    let solid =
        ConvexPolyhedron::cuboid(V3::new(0.0, -0.5, 0.0), V3::new(20.0, 0.5, 20.0))?;
    Ok(Fixture { solid, centre: V3::zeros(), spin: V3::zeros() })
}

/// The same slab tilted by `theta` (rad) about the z axis, its top face through the
/// origin: a slope going down towards −x.
pub fn slope(theta: f64) -> Result<Fixture, PbmError> {
    let turn = UnitQuaternion::from_axis_angle(&V3::z_axis(), theta);
    let solid =
        ConvexPolyhedron::cuboid(V3::new(0.0, -0.5, 0.0), V3::new(20.0, 0.5, 20.0))?
            .placed(V3::zeros(), turn);
    Ok(Fixture { solid, centre: V3::zeros(), spin: V3::zeros() })
}

/// Side of the stacked cubes (m) and their mass (kg).
pub const CUBE: (f64, f64) = (0.5, 1.0);

// ANCHOR: stack
/// `boxes` cubes stacked exactly on the ground, each touching the one below.
pub fn stack(boxes: usize, settings: Settings) -> Result<World, PbmError> {
    let mut world = World::new(settings, vec![ground()?])?;
    let (side, mass) = CUBE;
    for k in 0..boxes {
        let centre = V3::new(0.0, side * (k as f64 + 0.5), 0.0);
        let still = (V3::zeros(), V3::zeros());
        world.add_box(
            V3::repeat(side),
            mass,
            centre,
            UnitQuaternion::identity(),
            still,
        )?;
    }
    Ok(world)
}
// ANCHOR_END: stack

/// The dropped box: 0.4 × 0.2 × 0.3 m, 1 kg, turned so that one edge is lowest,
/// released at rest with that edge `height` (m) above the ground.
pub fn drop(height: f64, settings: Settings) -> Result<World, PbmError> {
    let mut world = World::new(settings, vec![ground()?])?;
    let size = V3::new(0.4, 0.2, 0.3);
    // Turned 30° about z and 10° about x: its lowest feature is a corner, near an
    // edge, so both vertex and edge contacts occur as it tumbles.
    let turn = UnitQuaternion::from_axis_angle(&V3::x_axis(), 0.17)
        * UnitQuaternion::from_axis_angle(&V3::z_axis(), 0.52);
    let lowest = ConvexPolyhedron::cuboid(V3::zeros(), size * 0.5)?
        .placed(V3::zeros(), turn)
        .vertices()
        .iter()
        .map(|v| v.y)
        .fold(f64::INFINITY, f64::min);
    let centre = V3::new(0.0, height - lowest, 0.0);
    world.add_box(size, 1.0, centre, turn, (V3::zeros(), V3::zeros()))?;
    Ok(world)
}

/// A 0.4 × 0.2 × 0.4 m block of 1 kg resting at rest on a slope of `theta` (rad).
pub fn incline(theta: f64, settings: Settings) -> Result<World, PbmError> {
    let mut world = World::new(settings, vec![slope(theta)?])?;
    let turn = UnitQuaternion::from_axis_angle(&V3::z_axis(), theta);
    let size = V3::new(0.4, 0.2, 0.4);
    let centre = turn * V3::new(0.0, 0.1, 0.0);
    world.add_box(size, 1.0, centre, turn, (V3::zeros(), V3::zeros()))?;
    Ok(world)
}
