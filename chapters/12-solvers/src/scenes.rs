//! The bench: hard scenes from Solver2D's samples, with their sizes, densities and
//! frictions, each with the body whose drift it watches and a stated test of whether
//! it stands.

use crate::body::{Body, V2};
use crate::world::{Settings, World};
use pbm_prelim::{Choice, PbmError};

/// Half extents of the bench's boxes (m): 1 m cubes, as in Solver2D.
pub const HALF: f64 = 0.5;
/// Friction of the ground (and of boxes unless a scene says otherwise).
pub const FRICTION: f64 = 0.6;
/// The ramp's slope (rad): tan 0.25 ≈ 0.255.
pub const RAMP_ANGLE: f64 = 0.25;
/// The middle of the ramp (m): high enough that its lower end clears the ground.
pub const RAMP_CENTRE: V2 = V2::new(0.0, 4.0);
/// The ramp's friction coefficient: a box of μ meets it at √(0.2 μ).
pub const RAMP_FRICTION: f64 = 0.2;
/// The friction ramp's boxes' coefficients, from sticking to sliding freely.
pub const RAMP_BOX_FRICTION: [f64; 5] = [0.75, 0.5, 0.35, 0.1, 0.0];
/// How far the overlap-recovery boxes start inside each other (m): a quarter of a box.
pub const OVERLAP: f64 = 0.25;

/// The scenes of the bench.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scene {
    /// One box resting on the ground.
    SingleBox,
    /// 15 boxes stacked with 10 cm gaps and alternating 1 cm offsets.
    VerticalStack,
    /// A pyramid of boxes placed exactly touching.
    Pyramid,
    /// Five boxes at rest on a 0.25 rad ramp, friction from 0.75 to 0.
    FrictionRamp,
    /// A pyramid of ten boxes started a quarter overlapped.
    OverlapRecovery,
    /// A 20 × 20 m box dropped on two 1 m boxes: 400 times their mass.
    MassRatio,
    /// Three pyramids of 2 m boxes, each topped by a box 100, 200 and 300 times
    /// denser dropped from 2 m (Solver2D's "high mass ratio 1").
    HeavyTops,
    /// An arch of seventeen stones with four slabs on its top, standing by friction
    /// and its own weight (Solver2D's, after Ian Pilkington's).
    Arch,
    /// A chain of forty links pinned end to end, the first to the world, the last to
    /// a ball of radius 8 m, let go level (Solver2D's "ball and chain").
    Chain,
    /// A net of bodies pinned to their neighbours, hung from seven fixed ones in the
    /// middle of its top row (Solver2D's "joint grid").
    JointGrid,
    /// Fifteen dominoes of 0.25 × 1 m a metre apart, the first pushed at its top
    /// (Solver2D's "double domino").
    Domino,
}

impl Choice for Scene {
    const OPTIONS: &'static [(&'static str, Self)] = &[
        ("single-box", Scene::SingleBox),
        ("vertical-stack", Scene::VerticalStack),
        ("pyramid", Scene::Pyramid),
        ("friction-ramp", Scene::FrictionRamp),
        ("overlap-recovery", Scene::OverlapRecovery),
        ("mass-ratio", Scene::MassRatio),
        ("heavy-tops", Scene::HeavyTops),
        ("arch", Scene::Arch),
        ("chain", Scene::Chain),
        ("joint-grid", Scene::JointGrid),
        ("domino", Scene::Domino),
    ];
}

impl Scene {
    /// Every scene, in the bench's order.
    pub const ALL: [Scene; 11] = pbm_prelim::all_choices();
}

/// A built scene: its world, the body whose drift it watches, from when, and what
/// the scene's test asks.
#[derive(Debug, Clone)]
pub struct Built {
    /// The world at the start.
    pub world: World,
    /// The watched body.
    pub watched: usize,
    /// When the watched body has settled (s): drift is measured from then, sink
    /// until then.
    pub settle: f64,
    /// The scene's test.
    pub test: Test,
}

/// What a scene must do to stand.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Test {
    /// The watched body, once settled, drifts less than `drift` (m), and it settled
    /// within `sink` (m) of where it was placed (soft contacts sag: see the page).
    Rests {
        /// The most it may move after settling (m).
        drift: f64,
        /// The most it may move while settling (m).
        sink: f64,
    },
    /// Each ramp box sticks (moves under 5 cm) if √(μ_box μ_ramp) > tan θ, else
    /// slides (over 0.5 m).
    StickOrSlide,
    /// Every overlap is under 1 cm at the end and no body moves faster than 1 m/s
    /// after the first second.
    Separated,
    /// The heavy box stays above the small ones' tops (not crushed through) and,
    /// once settled, moves less than 10 cm (not thrown off).
    NotCrushed,
    /// No pin ever comes apart by more than `most` (m).
    Joined {
        /// The largest pin error allowed (m).
        most: f64,
    },
    /// The dominoes fall in order, forward, as a wave: the fallen ones (each one's
    /// centre ended at least 10 cm lower than it stood, and ahead of where it stood)
    /// are the first two or more of the row, then at most two are in motion (one
    /// falling onto the next), and the rest still stand where they stood (within
    /// 1 cm).
    Toppled {
        /// How many dominoes.
        count: usize,
    },
}

fn ground(world: &mut World, half_width: f64) -> Result<usize, PbmError> {
    let g = Body::fixed_box(
        V2::new(half_width, 1.0),
        FRICTION,
        (V2::new(0.0, -1.0), 0.0),
    )?;
    Ok(world.add(g))
}

fn unit_box(world: &mut World, at: V2, friction: f64) -> Result<usize, PbmError> {
    Ok(world.add(Body::dynamic_box(V2::new(HALF, HALF), 1.0, friction, (at, 0.0))?))
}

/// The scene `scene` with settings `s` (`base`: the pyramid's bottom row).
pub fn build(scene: Scene, s: Settings, base: usize) -> Result<Built, PbmError> {
    let mut world = World::new(s)?;
    ground(&mut world, 40.0)?;
    let (watched, settle, test) = match scene {
        Scene::SingleBox => (
            unit_box(&mut world, V2::new(0.0, HALF), FRICTION)?,
            0.5,
            Test::Rests { drift: 0.001, sink: 0.01 },
        ),
        Scene::VerticalStack => {
            let mut top = 0;
            for i in 0..15 {
                let offset = if i % 2 == 0 { -0.01 } else { 0.01 };
                top = unit_box(
                    &mut world,
                    V2::new(offset, 0.55 + 1.1 * i as f64),
                    0.3,
                )?;
            }
            (top, 1.5, Test::Rests { drift: 0.05, sink: 2.0 })
        }
        Scene::Pyramid => {
            (pyramid(&mut world, base)?, 1.0, Test::Rests { drift: 0.01, sink: 0.1 })
        }
        Scene::FrictionRamp => {
            let (u, n) = ramp_axes();
            let ramp = Body::fixed_box(
                V2::new(13.0, 0.25),
                RAMP_FRICTION,
                (RAMP_CENTRE, RAMP_ANGLE),
            )?;
            let first = world.bodies.len() + 1;
            world.add(ramp);
            for (k, mu) in RAMP_BOX_FRICTION.iter().enumerate() {
                let at = RAMP_CENTRE + u * (5.0 - 2.5 * k as f64) + n * (0.25 + HALF);
                world.add(Body::dynamic_box(
                    V2::new(HALF, HALF),
                    25.0,
                    *mu,
                    (at, RAMP_ANGLE),
                )?);
            }
            (first, 0.0, Test::StickOrSlide)
        }
        Scene::OverlapRecovery => {
            let step = 2.0 * HALF - OVERLAP;
            let mut last = 0;
            for row in 0..4 {
                for k in 0..4 - row {
                    let x = 0.5 * step * (row as f64 - 4.0) + step * (k as f64 + 0.5);
                    last = unit_box(
                        &mut world,
                        V2::new(x, HALF + step * row as f64),
                        FRICTION,
                    )?;
                }
            }
            (last, 1.0, Test::Separated)
        }
        Scene::MassRatio => {
            unit_box(&mut world, V2::new(-9.0, HALF), FRICTION)?;
            unit_box(&mut world, V2::new(9.0, HALF), FRICTION)?;
            let big = Body::dynamic_box(
                V2::new(10.0, 10.0),
                1.0,
                FRICTION,
                (V2::new(0.0, 11.2), 0.0),
            )?;
            (world.add(big), 1.0, Test::NotCrushed)
        }
        Scene::HeavyTops => {
            // The heaviest top is neither crushed into its pyramid nor thrown off it:
            // it ends less than half a box (1 m) below where it would rest, 2 m under
            // where it was let go, and once landed it moves less than half a box.
            (
                heavy_tops(&mut world, base)?,
                1.5,
                Test::Rests { drift: 1.0, sink: 3.0 },
            )
        }
        Scene::Arch => {
            // The arch stands: the keystone sinks less than its own height (it has not
            // fallen through), and once settled it holds still.
            let key = arch(&mut world)?;
            let height = 0.25 * (ARCH_OUTER[8][1] - ARCH_INNER[8][1]);
            (key, 1.0, Test::Rests { drift: 0.01, sink: height })
        }
        // The chain holds together if no pin ever opens wider than a link is thick;
        // the net, if none opens by a tenth of the knots' spacing.
        Scene::Chain => (chain(&mut world)?, 0.0, Test::Joined { most: 0.25 }),
        Scene::JointGrid => (net(&mut world, base)?, 0.0, Test::Joined { most: 0.1 }),
        Scene::Domino => {
            let (first, count) = dominoes(&mut world)?;
            (first, 0.0, Test::Toppled { count })
        }
    };
    Ok(Built { world, watched, settle, test })
}

/// Along the ramp (up the slope) and out of it.
pub fn ramp_axes() -> (V2, V2) {
    let (s, c) = RAMP_ANGLE.sin_cos();
    (V2::new(c, s), V2::new(-s, c))
}

/// A pyramid of `base` boxes at the bottom, placed exactly touching; returns the top
/// box.
fn pyramid(world: &mut World, base: usize) -> Result<usize, PbmError> {
    let mut top = 0;
    for row in 0..base {
        for k in 0..base - row {
            let x = (row as f64 + 1.0) * HALF + (k as f64) * 2.0 * HALF
                - HALF * base as f64;
            top = unit_box(
                world,
                V2::new(x, (2.0 * row as f64 + 1.0) * HALF),
                FRICTION,
            )?;
        }
    }
    Ok(top)
}

/// Three pyramids of `base` boxes of 2 m at the bottom, each topped by a box 100,
/// 200 and 300 times as dense, placed 2 m above its place; returns the heaviest
/// top. The ground's friction is 0.5, the boxes' 0.6, as in Solver2D.
fn heavy_tops(world: &mut World, base: usize) -> Result<usize, PbmError> {
    world.bodies[0].friction = 0.5;
    let mut top = 0;
    for j in 0..3 {
        let offset = -20.0 + 2.0 * (base as f64 + 1.0) * j as f64;
        for row in 0..base {
            let count = base - row;
            let last = count == 1;
            let y = 1.0 + 2.0 * row as f64 + if last { 2.0 } else { 0.0 };
            let density = if last { 100.0 * (j as f64 + 1.0) } else { 1.0 };
            for i in 0..count {
                let x = 2.0 * (i as f64 - 0.5 * count as f64) + offset;
                let b = Body::dynamic_box(
                    V2::new(1.0, 1.0),
                    density,
                    0.6,
                    (V2::new(x, y), 0.0),
                )?;
                top = world.add(b);
            }
        }
    }
    Ok(top)
}

/// The arch's inner and outer curves (m), from the ground up to the keystone:
/// Solver2D's points, at a quarter of their size.
const ARCH_INNER: [[f64; 2]; 9] = [
    [16.0, 0.0],
    [14.93803712795643, 5.133601056842984],
    [13.79871746027416, 10.24928069555078],
    [12.56252963284711, 15.34107019122473],
    [11.20040987372525, 20.39856541571217],
    [9.66521217819836, 25.40369899225096],
    [7.87179930638133, 30.3179337000085],
    [5.635199558196225, 35.03820717801641],
    [2.405937953536585, 39.09554102558315],
];
const ARCH_OUTER: [[f64; 2]; 9] = [
    [24.0, 0.0],
    [22.33619528222415, 6.02299846205841],
    [20.54936888969905, 12.00964361211476],
    [18.60854610798073, 17.9470321677465],
    [16.46769273811807, 23.81367936585418],
    [14.05325025774858, 29.57079353071012],
    [11.23551045834022, 35.13775818285372],
    [7.752568160730571, 40.30450679009583],
    [3.016931552701656, 44.28891593799322],
];

/// A stone of the arch from its four corners (any turn), density 1, friction 0.6.
fn stone(world: &mut World, corners: [V2; 4]) -> Result<usize, PbmError> {
    let mut corners = corners.to_vec();
    // Counter-clockwise, as a polygon's vertices must be.
    let area: f64 =
        (0..4).map(|k| crate::body::cross(&corners[k], &corners[(k + 1) % 4])).sum();
    if area < 0.0 {
        corners.reverse();
    }
    let part = pbm_collision::polygon::ConvexPolygon::new(corners)?;
    let (shape, centre) = pbm_interactive::shape::Shape::new(vec![part], 1.0)?;
    Ok(world.add(Body::of_shape(&shape, FRICTION, (centre, 0.0))?))
}

/// The arch: eight stones up each side, the keystone across the top, and four slabs
/// of 4 × 1 m stacked on it; returns the keystone.
fn arch(world: &mut World) -> Result<usize, PbmError> {
    let at = |p: [f64; 2], side: f64| V2::new(0.25 * side * p[0], 0.25 * p[1]);
    let (inner, outer) = (ARCH_INNER, ARCH_OUTER);
    for side in [1.0, -1.0] {
        for i in 0..8 {
            let corners = [
                at(inner[i], side),
                at(outer[i], side),
                at(outer[i + 1], side),
                at(inner[i + 1], side),
            ];
            stone(world, corners)?;
        }
    }
    let key = stone(
        world,
        [
            at(inner[8], 1.0),
            at(outer[8], 1.0),
            at(outer[8], -1.0),
            at(inner[8], -1.0),
        ],
    )?;
    let top = 0.25 * outer[8][1];
    for i in 0..4 {
        let at = V2::new(0.0, top + 0.5 + i as f64);
        world.add(Body::dynamic_box(V2::new(2.0, 0.5), 1.0, FRICTION, (at, 0.0))?);
    }
    Ok(key)
}

/// Where the chain hangs from (m): high enough that the swinging ball clears the
/// ground.
pub const CHAIN_PIVOT: V2 = V2::new(0.0, 60.0);

/// The chain: forty links of 1 × 0.25 m and density 20, level from the pivot, the
/// first pinned to the world (the ground body) and each to the next, the last to a
/// ball of radius 8 m (a regular polygon of sixteen sides) of the same density.
/// The links and the ball never touch each other. Returns the ball.
fn chain(world: &mut World) -> Result<usize, PbmError> {
    let (links, half) = (40, 0.5);
    let mut previous = 0;
    for i in 0..links {
        let at = CHAIN_PIVOT + V2::new((1.0 + 2.0 * i as f64) * half, 0.0);
        let mut link =
            Body::dynamic_box(V2::new(half, 0.125), 20.0, FRICTION, (at, 0.0))?;
        link.group = 1;
        let k = world.add(link);
        world
            .pin((previous, k), CHAIN_PIVOT + V2::new(2.0 * i as f64 * half, 0.0))?;
        previous = k;
    }
    let radius = 8.0;
    let corners: Vec<V2> = (0..16)
        .map(|k| {
            let a = std::f64::consts::TAU * k as f64 / 16.0;
            V2::new(radius * a.cos(), radius * a.sin())
        })
        .collect();
    let part = pbm_collision::polygon::ConvexPolygon::new(corners)?;
    let (shape, _) = pbm_interactive::shape::Shape::new(vec![part], 20.0)?;
    let end = CHAIN_PIVOT + V2::new(2.0 * links as f64 * half, 0.0);
    let mut ball =
        Body::of_shape(&shape, FRICTION, (end + V2::new(radius, 0.0), 0.0))?;
    ball.group = 1;
    let ball = world.add(ball);
    world.pin((previous, ball), end)?;
    Ok(ball)
}

/// The net: 2·`base` columns of 2·`base` bodies (0.8 m boxes of density 1, a metre
/// apart, that never touch each other), each pinned to its neighbours halfway
/// between them; the seven bodies in the middle of the top row are fixed. Returns
/// the body at the bottom of the middle column.
fn net(world: &mut World, base: usize) -> Result<usize, PbmError> {
    let n = 2 * base.max(2);
    let top = 1.5 * n as f64 + 5.0;
    let mut index = vec![vec![0; n]; n];
    let middle = n / 2;
    for (k, column) in index.iter_mut().enumerate() {
        for (i, slot) in column.iter_mut().enumerate() {
            let at = (V2::new(k as f64 - 0.5 * n as f64, top - i as f64), 0.0);
            let fixed = i == 0 && k + 3 >= middle && k <= middle + 3;
            let mut body = if fixed {
                Body::fixed_box(V2::new(0.4, 0.4), FRICTION, at)?
            } else {
                Body::dynamic_box(V2::new(0.4, 0.4), 1.0, FRICTION, at)?
            };
            body.group = 2;
            *slot = world.add(body);
        }
    }
    // Neighbours are pinned halfway between them, unless both are fixed.
    let pin = |world: &mut World, (a, b): (usize, usize), at: V2| {
        let both_fixed = world.bodies[a].is_fixed() && world.bodies[b].is_fixed();
        if both_fixed { Ok(0) } else { world.pin((a, b), at) }
    };
    for k in 0..n {
        for i in 0..n {
            let here = world.bodies[index[k][i]].position;
            if i > 0 {
                pin(world, (index[k][i - 1], index[k][i]), here + V2::new(0.0, 0.5))?;
            }
            if k > 0 {
                pin(world, (index[k - 1][i], index[k][i]), here - V2::new(0.5, 0.0))?;
            }
        }
    }
    Ok(index[middle][n - 1])
}

/// The dominoes: fifteen of 0.25 × 1 m and density 1, a metre apart on the ground,
/// friction 0.6; the first is given an impulse of 0.2 N s forward at its top. Returns
/// the first and how many.
fn dominoes(world: &mut World) -> Result<(usize, usize), PbmError> {
    let count = 15;
    let first = world.bodies.len();
    for i in 0..count {
        let at = V2::new(i as f64 - 0.5 * count as f64, 0.5);
        world.add(Body::dynamic_box(V2::new(0.125, 0.5), 1.0, FRICTION, (at, 0.0))?);
    }
    world.bodies[first].apply_impulse(&V2::new(0.0, 0.5), &V2::new(0.2, 0.0));
    Ok((first, count))
}
