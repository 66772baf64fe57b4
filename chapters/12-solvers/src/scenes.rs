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
}

impl Choice for Scene {
    const OPTIONS: &'static [(&'static str, Self)] = &[
        ("single-box", Scene::SingleBox),
        ("vertical-stack", Scene::VerticalStack),
        ("pyramid", Scene::Pyramid),
        ("friction-ramp", Scene::FrictionRamp),
        ("overlap-recovery", Scene::OverlapRecovery),
        ("mass-ratio", Scene::MassRatio),
    ];
}

impl Scene {
    /// Every scene, in the bench's order.
    pub const ALL: [Scene; 6] = {
        // The words' order, read from the one list of them.
        assert!(<Scene as Choice>::OPTIONS.len() == 6);
        let mut all = [Scene::SingleBox; 6];
        let mut k = 0;
        while k < 6 {
            all[k] = <Scene as Choice>::OPTIONS[k].1;
            k += 1;
        }
        all
    };
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
