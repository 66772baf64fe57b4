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

/// The narrow-phase pass of `collision/separating-plane` and `collision/gjk`: a unit
/// cube turning `spin` radians about a tilted axis while it moves along x, from −3 to
/// 3, past a fixed unit cube at the origin, its path `height` above the fixed cube's
/// centre and 0.2 to the side, over `steps` steps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TumblingPass {
    /// Steps over the pass.
    pub steps: usize,
    /// How far the cube turns over the pass (rad).
    pub spin: f64,
    /// Height of the path above the fixed cube's centre (m).
    pub height: f64,
}

impl TumblingPass {
    /// The pass the book discusses.
    pub const BOOK: TumblingPass =
        TumblingPass { steps: 2000, spin: 4.0, height: 1.45 };

    /// The unit cube both bodies are, centred at the origin.
    pub fn cube() -> Result<ConvexPolyhedron, PbmError> {
        ConvexPolyhedron::cuboid(V3::zeros(), V3::new(0.5, 0.5, 0.5))
    }

    /// `cube` where the moving body is at step `k`.
    pub fn moving(&self, cube: &ConvexPolyhedron, k: usize) -> ConvexPolyhedron {
        let t = k as f64 / self.steps as f64;
        let axis = V3::new(0.3, 0.5, 0.8).normalize();
        let turn = UnitQuaternion::from_scaled_axis(axis * (self.spin * t));
        cube.placed(V3::new(-3.0 + 6.0 * t, 0.2, self.height), turn)
    }
}

/// What a random solid is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SolidKind {
    /// A box, half sizes from 0.2 to 1.
    Box,
    /// The hull of 4 to 10 points on an ellipsoid of half axes from 0.3 to 1.
    Hull,
}

/// A point uniformly inside the unit ball of dimension `D`, from the seed's stream
/// starting at `i` (rejection: a cube's samples kept when inside the ball).
fn in_ball<const D: usize>(seed: u64, i: u64) -> nalgebra::SVector<f64, D> {
    (0..)
        .map(|k| {
            nalgebra::SVector::<f64, D>::from_fn(|c, _| {
                2.0 * uniform(seed, i + 16 * k + c as u64) - 1.0
            })
        })
        .find(|p| (0.05..1.0).contains(&p.norm()))
        .unwrap_or_else(|| nalgebra::SVector::<f64, D>::from_element(0.5))
}

/// A random convex solid centred near the origin, chosen by `seed`.
pub fn random_solid(
    seed: u64,
    kind: SolidKind,
) -> Result<ConvexPolyhedron, PbmError> {
    let r = |k: u64| uniform(seed, 1000 + k);
    match kind {
        SolidKind::Box => {
            let half = V3::new(0.2 + 0.8 * r(0), 0.2 + 0.8 * r(1), 0.2 + 0.8 * r(2));
            ConvexPolyhedron::cuboid(V3::zeros(), half)
        }
        SolidKind::Hull => {
            let axes = V3::new(0.3 + 0.7 * r(0), 0.3 + 0.7 * r(1), 0.3 + 0.7 * r(2));
            let n = 4 + (7.0 * r(3)) as u64;
            // Points too close to a plane through three others make a face the
            // brute-force hull cannot decide; such a draw is replaced by the next.
            let mut last = Err(PbmError::invalid("random solid", "no draw"));
            for attempt in 0..50 {
                let points: Vec<V3> = (0..n)
                    .map(|k| {
                        let d = in_ball::<3>(seed, 10_000 * (attempt + 1) + 100 * k);
                        d.normalize().component_mul(&axes)
                    })
                    .collect();
                last = hull(&points);
                if last.is_ok() {
                    break;
                }
            }
            last
        }
    }
}

/// The convex hull of points in general position, every one of them a vertex (as
/// points on an ellipsoid are), by brute force: three points make a face when every
/// other point lies strictly behind their plane, listed counter-clockwise seen from
/// outside. O(n⁴): for the handful of points of a test solid.
pub fn hull(points: &[V3]) -> Result<ConvexPolyhedron, PbmError> {
    let scale = points.iter().map(|p| p.norm()).fold(1.0, f64::max);
    let margin = 1e-6 * scale * scale;
    let mut faces = Vec::new();
    for i in 0..points.len() {
        for j in i + 1..points.len() {
            for k in j + 1..points.len() {
                let n = (points[j] - points[i]).cross(&(points[k] - points[i]));
                let (mut behind, mut before) = (true, true);
                for (m, p) in points.iter().enumerate() {
                    if m != i && m != j && m != k {
                        let h = n.dot(&(p - points[i]));
                        behind &= h < -margin;
                        before &= h > margin;
                    }
                }
                if behind {
                    faces.push(vec![i, j, k]);
                } else if before {
                    faces.push(vec![i, k, j]);
                }
            }
        }
    }
    ConvexPolyhedron::new(points.to_vec(), faces)
}

/// A rotation drawn uniformly, from the seed's stream starting at `i` (a uniform point
/// of the 4-ball, made a unit quaternion).
fn random_turn(seed: u64, i: u64) -> UnitQuaternion<f64> {
    let q = in_ball::<4>(seed, i);
    UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(q[0], q[1], q[2], q[3]))
}

/// A random pair of solids of `kind`, turned at random, B's centre in a random
/// direction from A's at a random distance up to the sum of their circumradii plus a
/// tenth: some pairs overlap, some are apart.
pub fn random_pair(
    seed: u64,
    kind: SolidKind,
) -> Result<(ConvexPolyhedron, ConvexPolyhedron), PbmError> {
    let a = random_solid(2 * seed, kind)?;
    let b = random_solid(2 * seed + 1, kind)?;
    let reach = |p: &ConvexPolyhedron| {
        p.vertices().iter().map(|v| v.norm()).fold(0.0, f64::max)
    };
    let direction = in_ball::<3>(seed, 500).normalize();
    let distance = (reach(&a) + reach(&b) + 0.1) * uniform(seed, 600);
    Ok((
        a.placed(V3::zeros(), random_turn(seed, 700)),
        b.placed(direction * distance, random_turn(seed, 800)),
    ))
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
