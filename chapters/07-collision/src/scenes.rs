//! The moving boxes of Baraff's Table 1 (1995): boxes 0.1 to 0.4 units on a side,
//! placed at random, each moving at a random speed between 0 and a maximum (0.05
//! units per step) in a uniformly random direction, bouncing off the walls of a region
//! 20 × 16 units for 100 boxes, grown with n so that the density stays the same.

use crate::aabb::Aabb;
use crate::polyhedron::ConvexPolyhedron;
use nalgebra::{UnitQuaternion, Vector3};
use pbm_prelim::PbmError;
use pbm_prelim::sampling::sample;
use std::f64::consts::PI;

type V3 = Vector3<f64>;

/// The region's size for 100 boxes, as in the paper (units).
pub const BASE_REGION: [f64; 2] = [20.0, 16.0];

/// One box of the scene: its lower corner, size and velocity (units per step).
#[derive(Debug, Clone, Copy, PartialEq)]
struct MovingBox {
    corner: [f64; 2],
    size: [f64; 2],
    velocity: [f64; 2],
}

/// Boxes moving in a walled region, one step at a time.
#[derive(Debug, Clone, PartialEq)]
pub struct BoxScene {
    region: [f64; 2],
    boxes: Vec<MovingBox>,
}

/// A uniform number in [0, 1) from the seed's stream.
fn uniform(seed: u64, i: u64) -> f64 {
    0.5 * (sample(seed.wrapping_mul(0x1000_0000_01b3) ^ i) + 1.0)
}

impl BoxScene {
    /// `n` boxes at the paper's density, with speeds up to `max_speed` units per
    /// step; `seed` chooses the random scene.
    pub fn new(n: usize, max_speed: f64, seed: u64) -> Result<Self, PbmError> {
        if n == 0 {
            return Err(PbmError::invalid("box scene", "it needs at least one box"));
        }
        let max_speed =
            pbm_prelim::validate::non_negative("box scene", "max_speed", max_speed)?;
        let scale = (n as f64 / 100.0).sqrt();
        let region = [BASE_REGION[0] * scale, BASE_REGION[1] * scale];
        let boxes = (0..n as u64)
            .map(|i| {
                let r = |k: u64| uniform(seed, 8 * i + k);
                let size = [0.1 + 0.3 * r(0), 0.1 + 0.3 * r(1)];
                let corner =
                    [r(2) * (region[0] - size[0]), r(3) * (region[1] - size[1])];
                let (speed, angle) = (max_speed * r(4), 2.0 * PI * r(5));
                let velocity = [speed * angle.cos(), speed * angle.sin()];
                MovingBox { corner, size, velocity }
            })
            .collect();
        Ok(BoxScene { region, boxes })
    }

    /// The region's width and height (units).
    pub fn region(&self) -> [f64; 2] {
        self.region
    }

    /// Moves every box by its velocity, reflecting it off the walls it reaches.
    pub fn step(&mut self) {
        for b in &mut self.boxes {
            for k in 0..2 {
                let top = self.region[k] - b.size[k];
                let mut x = b.corner[k] + b.velocity[k];
                if x < 0.0 {
                    x = -x;
                    b.velocity[k] = -b.velocity[k];
                } else if x > top {
                    x = 2.0 * top - x;
                    b.velocity[k] = -b.velocity[k];
                }
                b.corner[k] = x.clamp(0.0, top);
            }
        }
    }

    /// The boxes' bounds now.
    pub fn bounds(&self) -> Result<Vec<Aabb<2>>, PbmError> {
        self.boxes
            .iter()
            .map(|b| {
                let max = [b.corner[0] + b.size[0], b.corner[1] + b.size[1]];
                Aabb::new(b.corner, max)
            })
            .collect()
    }
}

// ANCHOR: predicted_exchanges
/// The exchanges per step the coherent sweep should make among `n` boxes moving at
/// speeds up to `max_speed` in a region of sides `region`, counted: on each axis an
/// end of one box and an end of another (2n(n − 1) such pairs) swap when their order
/// changes, and for ends spread evenly over a side L that happens with probability
/// E|Δᵢ − Δⱼ| / L per step, Δ a box's displacement along the axis.
pub fn predicted_exchanges(n: usize, max_speed: f64, region: [f64; 2]) -> f64 {
    let pairs = 2.0 * n as f64 * (n as f64 - 1.0);
    pairs * mean_gap(max_speed) * (1.0 / region[0] + 1.0 / region[1])
}
// ANCHOR_END: predicted_exchanges

/// E|X − Y| for two boxes' displacements along an axis, X = s cos θ with s uniform in
/// [0, max_speed) and θ uniform (along y, s sin θ has the same law): from a fine grid
/// of the law, sorted, E|X − Y| = (2/N²) Σₖ (2k − N + 1) x₍ₖ₎.
fn mean_gap(max_speed: f64) -> f64 {
    let grid = 200;
    let mut x: Vec<f64> = (0..grid * grid)
        .map(|k| {
            let (i, m) = ((k / grid) as f64, (k % grid) as f64);
            let s = max_speed * (i + 0.5) / grid as f64;
            s * (2.0 * PI * (m + 0.5) / grid as f64).cos()
        })
        .collect();
    x.sort_by(f64::total_cmp);
    let big = x.len() as f64;
    let sum: f64 =
        x.iter().enumerate().map(|(k, v)| (2.0 * k as f64 - big + 1.0) * v).sum();
    2.0 * sum / (big * big)
}

/// Frames for timing a coherent broad phase: `steps` consecutive steps of the scene,
/// then the same steps backwards, so that cycling through them never jumps.
pub fn coherent_frames(
    n: usize,
    speed: f64,
    steps: usize,
) -> Result<Vec<Vec<Aabb<2>>>, PbmError> {
    let mut scene = BoxScene::new(n, speed, 1)?;
    let mut forward = Vec::with_capacity(2 * steps);
    for _ in 0..steps {
        forward.push(scene.bounds()?);
        scene.step();
    }
    let backward: Vec<_> = forward.iter().rev().skip(1).cloned().collect();
    forward.extend(backward);
    Ok(forward)
}

/// Baraff 1995, Table 1: milliseconds per step on a Mips R4000 for 100 … 3,200 boxes.
pub const PAPER_TABLE_1: [(usize, f64); 6] = [
    (100, 0.96),
    (200, 2.05),
    (400, 4.41),
    (800, 9.83),
    (1600, 22.30),
    (3200, 53.30),
];

/// A table top (x ≤ 0, its top face y = 0, its edge along z at x = 0) and a
/// 0.6 × 0.2 × 0.3 m block lying flat on it, turned 0.5 rad about the vertical and
/// overhanging the edge: two of the block's bottom corners are over the table, and two
/// of its bottom edges cross the table's edge.
pub fn table_edge() -> Result<(ConvexPolyhedron, ConvexPolyhedron), PbmError> {
    let table =
        ConvexPolyhedron::cuboid(V3::new(-0.5, -0.05, 0.0), V3::new(0.5, 0.05, 0.3))?;
    let turn = UnitQuaternion::from_axis_angle(&V3::y_axis(), 0.5);
    let block = ConvexPolyhedron::cuboid(V3::zeros(), V3::new(0.3, 0.1, 0.15))?
        .placed(V3::new(-0.05, 0.1, -0.04), turn);
    Ok((table, block))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_stay_in_the_region_at_the_papers_density() {
        let mut scene = BoxScene::new(400, 0.05, 7).unwrap();
        assert_eq!(scene.region(), [40.0, 32.0]);
        for _ in 0..500 {
            scene.step();
        }
        for b in scene.bounds().unwrap() {
            assert!(b.min.iter().all(|&x| x >= 0.0));
            assert!(b.max[0] <= 40.0 && b.max[1] <= 32.0);
            let size = [b.max[0] - b.min[0], b.max[1] - b.min[1]];
            assert!(size.iter().all(|&s| (0.1..=0.4).contains(&s)), "{size:?}");
        }
    }

    #[test]
    fn a_scene_needs_a_box_and_a_speed() {
        assert!(BoxScene::new(0, 0.05, 1).is_err());
        assert!(BoxScene::new(10, f64::NAN, 1).is_err());
        assert!(BoxScene::new(10, -1.0, 1).is_err());
    }
}
