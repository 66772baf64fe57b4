//! The paper's block feeder (its Figures 1 and 11), the ways to make it jam
//! (Figure 2), and a scripted run of it.

use super::shared::{SOLIDS, V2, rect, scripted_step};
use crate::shape::Shape;
use crate::world::{Anchor, Fixture, Mouse, Pin, Settings, World};
use pbm_collision::polygon::ConvexPolygon;
use pbm_prelim::{PbmError, budget};
use std::f64::consts::TAU;
use std::time::Instant;

/// Layer of the crank (it touches nothing).
pub const CRANK: u32 = 1;
/// Layer of the connecting rod (it touches nothing).
pub const ROD: u32 = 2;

/// The feeder's dimensions and its supply of blocks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Feeder {
    /// Blocks stacked in the magazine.
    pub blocks: usize,
    /// Width of a block lying as it should (m).
    pub block: f64,
    /// Height of a block lying as it should (m): at most its width. The opening under
    /// the magazine's wall is this and a twentieth of the width.
    pub block_height: f64,
    /// Height of the pusher (m): less than a block, or it pushes two at once.
    pub pusher_height: f64,
    /// Turn of every block in the magazine (rad). A block a little turned stands a
    /// little taller than the opening; a quarter turn stands an oblong block on end.
    pub misalignment: f64,
    /// Radius of the crank the mouse drives (m); the pusher's stroke is twice it.
    pub crank: f64,
    /// Seconds per turn of the crank.
    pub period: f64,
}

impl Feeder {
    /// The feeder of the book's figures: eight unit blocks, a pusher 0.6 high, a
    /// crank of 1.2 turned every 4 s.
    pub const BOOK: Feeder = Feeder {
        blocks: 8,
        block: 1.0,
        block_height: 1.0,
        pusher_height: 0.6,
        misalignment: 0.0,
        crank: 1.2,
        period: 4.0,
    };

    /// The crank's pivot, fixed in the world.
    pub fn pivot(&self) -> V2 {
        V2::new(-5.0, 0.5 * self.pusher_height + 0.1)
    }

    /// Where the scripted mouse holds the crank's end at time `t`: once round the
    /// pivot every `period`, anticlockwise, starting pulled back (the pusher clear
    /// of the stack).
    pub fn mouse_at(&self, t: f64) -> V2 {
        let angle = TAU * t / self.period + std::f64::consts::PI;
        self.pivot() + V2::new(angle.cos(), angle.sin()) * self.crank
    }

    /// The magazine's inner width: the block and a little play.
    fn gap(&self) -> f64 {
        self.block * 1.1
    }

    /// The ramp's run and drop (m): steep enough (tan = 0.5) that a block slides
    /// down it against friction up to μ = 0.5.
    const RAMP: (f64, f64) = (3.0, 1.5);

    /// The end of the output tray (m).
    const TRAY_END: f64 = 13.0;

    /// The x beyond which a block has been fed: its centre half a block past the
    /// magazine's right wall, so the whole block is out of the magazine and on its
    /// way down the ramp. (The tray holds about six blocks in a row; the last ones
    /// out stay on the ramp, held by the row in front.)
    pub fn output_x(&self) -> f64 {
        self.gap() + 0.2 + 0.5 * self.block
    }

    // ANCHOR: feeder
    /// The feeder at rest, its crank pulled back, the mouse holding the crank's end.
    pub fn build(&self, settings: Settings) -> Result<World, PbmError> {
        let mut world = World::new(settings)?;
        world.add_fixture(Fixture { parts: self.frame()?, layer: SOLIDS })?;
        self.add_blocks(&mut world)?;
        self.add_drive(&mut world)?;
        Ok(world)
    }
    // ANCHOR_END: feeder

    // ANCHOR: feeder_frame
    /// The fixed frame. The floor under the magazine and the pusher's track, running
    /// on into the ramp down to the right as one convex part: split in two, the
    /// floor's end and the ramp's start would meet in a face inside the solid, and a
    /// block's corner passing over its top end comes within ε of it and is stopped by
    /// a sideways contact with a face that is not there. The tray at the ramp's foot
    /// starts inside the ramp, its corner hidden for the same reason, and ends in a
    /// wall. The magazine's two walls, the right one ending just above one block so
    /// that only the lowest can leave; a guide above the pusher.
    fn frame(&self) -> Result<Vec<ConvexPolygon>, PbmError> {
        let (b, gap) = (self.block, self.gap());
        let opening = self.block_height + 0.05 * b;
        let top = (self.blocks as f64 + 1.0) * b;
        let (run, drop) = Self::RAMP;
        let floor_and_ramp = ConvexPolygon::new(vec![
            V2::new(-8.0, 0.0),
            V2::new(-8.0, -0.3),
            V2::new(gap + run, -drop - 1.0),
            V2::new(gap + run, -drop),
            V2::new(gap, 0.0),
        ])?;
        Ok(vec![
            floor_and_ramp,
            rect(-0.2, self.pusher_height + 0.05, 0.0, top)?,
            rect(gap, opening, gap + 0.2, top)?,
            rect(-8.0, self.pusher_height + 0.05, -0.2, self.pusher_height + 0.25)?,
            rect(gap + run - 1.0, -drop - 0.3, Self::TRAY_END, -drop)?,
            rect(Self::TRAY_END, -drop - 0.3, Self::TRAY_END + 0.2, -drop + 1.0)?,
        ])
    }
    // ANCHOR_END: feeder_frame

    // ANCHOR: feeder_blocks
    /// The stack of blocks, a little apart so that none starts in contact. A turned
    /// block w wide and h high reaches e = (h |cos θ| + w |sin θ|)/2 above and
    /// below its centre.
    fn add_blocks(&self, world: &mut World) -> Result<(), PbmError> {
        let (b, gap) = (self.block, self.gap());
        let cube = Shape::rectangle(b, self.block_height, 1.0)?;
        let turn = self.misalignment;
        let e = 0.5 * (self.block_height * turn.cos().abs() + b * turn.sin().abs());
        for k in 0..self.blocks {
            let y = e + k as f64 * (2.0 * e + 0.01) + 0.005;
            let x = 0.5 * gap;
            world.add_body(
                cube.clone(),
                SOLIDS,
                (V2::new(x, y), self.misalignment),
                (V2::zeros(), 0.0),
            )?;
        }
        Ok(())
    }
    // ANCHOR_END: feeder_blocks

    // ANCHOR: feeder_drive
    /// The slider–crank: the pusher, the rod and the crank, pinned to each other
    /// and the crank to the world, and the mouse holding the crank's end.
    fn add_drive(&self, world: &mut World) -> Result<(), PbmError> {
        let pusher = self.add_pusher(world)?;
        let (rod, rod_len) = self.add_rod(world)?;
        let crank = self.add_crank(world)?;
        let half = |len: f64| V2::new(0.5 * len, 0.0);
        world.add_pin(Pin {
            a: Anchor::Body { body: crank, local: -half(self.crank) },
            b: Anchor::World(self.pivot()),
        })?;
        world.add_pin(Pin {
            a: Anchor::Body { body: rod, local: -half(rod_len) },
            b: Anchor::Body { body: crank, local: half(self.crank) },
        })?;
        world.add_pin(Pin {
            a: Anchor::Body { body: rod, local: half(rod_len) },
            b: Anchor::Body { body: pusher, local: Self::pusher_tail() },
        })?;
        world.mouse = Some(Mouse {
            body: crank,
            local: half(self.crank),
            target: self.mouse_at(0.0),
            stiffness: 4000.0,
            damping: 120.0,
        });
        Ok(())
    }
    // ANCHOR_END: feeder_drive

    // ANCHOR: feeder_parts
    /// The pusher's length (m).
    const PUSHER_LENGTH: f64 = 3.0;

    /// The pusher's centre at rest: its nose at the magazine's left wall.
    fn pusher_centre(&self) -> V2 {
        let nose = -0.2 - 0.01;
        V2::new(nose - 0.5 * Self::PUSHER_LENGTH, 0.5 * self.pusher_height + 0.005)
    }

    /// The pusher's tail joint, where the rod meets it, in the pusher's frame.
    fn pusher_tail() -> V2 {
        V2::new(-0.5 * Self::PUSHER_LENGTH + 0.2, 0.0)
    }

    /// The pusher: a bar sliding on the floor. Returns its index.
    fn add_pusher(&self, world: &mut World) -> Result<usize, PbmError> {
        let pusher = Shape::rectangle(Self::PUSHER_LENGTH, self.pusher_height, 2.0)?;
        let at_rest = (self.pusher_centre(), 0.0);
        world.add_body(pusher, SOLIDS, at_rest, (V2::zeros(), 0.0))
    }
    // ANCHOR_END: feeder_parts

    // ANCHOR: feeder_rod
    /// The rod from the crank's end to the pusher's tail, its length set by where
    /// they are. Returns its index and length.
    fn add_rod(&self, world: &mut World) -> Result<(usize, f64), PbmError> {
        let back = self.mouse_at(0.0);
        let rod_vector = self.pusher_centre() + Self::pusher_tail() - back;
        let rod_len = rod_vector.norm();
        let rod = Shape::rectangle(rod_len, 0.12, 1.0)?;
        let at_rest = (back + rod_vector * 0.5, rod_vector.y.atan2(rod_vector.x));
        let index = world.add_body(rod, ROD, at_rest, (V2::zeros(), 0.0))?;
        Ok((index, rod_len))
    }

    /// The crank from the pivot to its end, pulled back. Returns its index.
    fn add_crank(&self, world: &mut World) -> Result<usize, PbmError> {
        let crank_vector = self.mouse_at(0.0) - self.pivot();
        let crank = Shape::rectangle(self.crank, 0.15, 1.0)?;
        let angle = crank_vector.y.atan2(crank_vector.x);
        let at_rest = (self.pivot() + crank_vector * 0.5, angle);
        world.add_body(crank, CRANK, at_rest, (V2::zeros(), 0.0))
    }
    // ANCHOR_END: feeder_rod

    /// One step of `world` with the scripted hand on the crank: the mouse's target
    /// set to where the hand is at the world's time, then the step. Returns the time
    /// advanced (s). Every scripted run of the feeder (the exercises, the figures,
    /// the tests, the benchmark, the demo) steps through here.
    pub fn step(&self, world: &mut World) -> Result<f64, PbmError> {
        scripted_step(world, self.mouse_at(world.time()))
    }

    /// The largest tilt from square (rad, up to π/4: a block on end is square) of
    /// the blocks still in the magazine, their centres left of its right wall.
    pub fn magazine_tilt(&self, world: &World) -> f64 {
        let quarter = std::f64::consts::FRAC_PI_2;
        world.bodies()[..self.blocks]
            .iter()
            .filter(|b| b.position().x < self.gap())
            .map(|b| {
                let r = b.angle().rem_euclid(quarter);
                r.min(quarter - r)
            })
            .fold(0.0, f64::max)
    }

    /// How many blocks have gone past the output.
    pub fn fed(&self, world: &World) -> usize {
        world.bodies()[..self.blocks]
            .iter()
            .filter(|b| b.position().x > self.output_x())
            .count()
    }
}

/// What is wrong with a feeder (the paper's Figure 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// A pusher 1.6 blocks high pushes the lowest two blocks at once, and the upper
    /// one meets the magazine's wall.
    TallPusher,
    /// Oblong blocks, 1 m wide and 0.9 m high, loaded on end: each stands 1 m tall,
    /// taller than the 0.95 m opening under the magazine's wall.
    Misaligned,
    /// Square blocks turned by 0.08 rad: each stands 1.077 m tall, taller than the
    /// 1.05 m opening, until the stack's weight squares it up (this one does not jam).
    Turned,
}

/// The feeder with `fault`.
pub fn faulty(fault: Fault) -> Feeder {
    match fault {
        Fault::TallPusher => Feeder { pusher_height: 1.6, ..Feeder::BOOK },
        Fault::Misaligned => Feeder {
            block_height: 0.9,
            misalignment: std::f64::consts::FRAC_PI_2,
            ..Feeder::BOOK
        },
        Fault::Turned => Feeder { misalignment: 0.08, ..Feeder::BOOK },
    }
}

/// A scripted run of `feeder` for `t_end`: the mouse moves the crank's end round,
/// the world steps.
pub fn drive(
    feeder: &Feeder,
    settings: Settings,
    t_end: f64,
) -> Result<Drive, PbmError> {
    budget::within(t_end / settings.h, STEPS, "steps", "lower t_end")?;
    let mut world = feeder.build(settings)?;
    let blocks = |w: &World| -> Vec<_> {
        w.bodies()[..feeder.blocks].iter().map(|b| b.position()).collect()
    };
    let (mut turn_start, mut turns_done) = (blocks(&world), 0_usize);
    let (mut last_turn_advance, mut lag) = (f64::NAN, 0.0_f64);
    let (mut settled_tilt, mut max_magazine_tilt) = (f64::NAN, 0.0_f64);
    let start = Instant::now();
    world.advance(t_end, |world| {
        feeder.step(world)?;
        if world.time() >= SETTLED {
            let tilt = feeder.magazine_tilt(world);
            if settled_tilt.is_nan() {
                settled_tilt = tilt;
            }
            max_magazine_tilt = max_magazine_tilt.max(tilt);
        }
        if let Some(m) = world.mouse {
            let end = world.bodies()[m.body].world_point(&m.local);
            lag = lag.max((end - feeder.mouse_at(world.time())).norm());
        }
        let turns = (world.time() / feeder.period + 1e-9).floor() as usize;
        if turns > turns_done {
            let now = blocks(world);
            last_turn_advance = now
                .iter()
                .zip(&turn_start)
                .map(|(a, b)| (a - b).norm())
                .fold(0.0, f64::max);
            (turn_start, turns_done) = (now, turns);
        }
        Ok(())
    })?;
    let wall = start.elapsed().as_secs_f64();
    Ok(Drive { world, wall, lag, last_turn_advance, settled_tilt, max_magazine_tilt })
}

/// When a loaded magazine has settled under its own weight (s): the tilts that
/// [`Drive`] reports are taken after it.
pub const SETTLED: f64 = 1.0;

/// What a scripted run of the feeder saw.
pub struct Drive {
    /// The world at the end.
    pub world: World,
    /// Wall-clock seconds the steps took.
    pub wall: f64,
    /// The largest distance of the crank's end behind the mouse (m).
    pub lag: f64,
    /// How far the blocks moved in the last whole turn of the crank: the largest
    /// distance any block's centre went (m).
    pub last_turn_advance: f64,
    /// The largest tilt from square of a block in the magazine when it has settled
    /// ([`SETTLED`]) (rad; NaN for a run shorter than that).
    pub settled_tilt: f64,
    /// The largest tilt from square of a block still in the magazine at any step
    /// from then on (rad).
    pub max_magazine_tilt: f64,
}

/// Steps a run may take: about 3 ms each at worst on one core, with the tray full,
/// so some seven seconds.
pub const STEPS: f64 = 2.5e3;
