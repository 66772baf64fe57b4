//! The paper's mechanisms, built from the world's parts: the block feeder (its
//! Figures 1 and 11), the ways to make it jam (Figure 2), and a scripted mouse to
//! drive it. Lengths are in the paper's units, a world about 20 wide with
//! ε = 0.02, taken as metres.

use crate::shape::Shape;
use crate::world::{Anchor, Fixture, Mouse, Pin, Settings, Torsion, World};
use nalgebra::Vector2;
use pbm_collision::polygon::ConvexPolygon;
use pbm_prelim::{PbmError, budget};
use pbm_rigid::body2d::RigidBody2;
use std::f64::consts::TAU;
use std::time::Instant;

type V2 = Vector2<f64>;

/// Layer of the blocks, the pusher and the frame (they touch).
pub const SOLIDS: u32 = 0;
/// Layer of the crank (it touches nothing).
pub const CRANK: u32 = 1;
/// Layer of the connecting rod (it touches nothing).
pub const ROD: u32 = 2;

/// The rectangle from corner (x0, y0) to corner (x1, y1), for the fixed frames.
fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Result<ConvexPolygon, PbmError> {
    ConvexPolygon::rectangle(
        V2::new(0.5 * (x0 + x1), 0.5 * (y0 + y1)),
        V2::new(0.5 * (x1 - x0), 0.5 * (y1 - y0)),
    )
}

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

/// Layer of the jack's lever (it touches nothing; the pawls are pinned to it).
pub const LEVER: u32 = 1;

/// A double-action jack (the paper's Figure 12): a toothed rack carrying a load,
/// guided upright by two collars, lifted by two pawls pinned to a lever on either
/// side of its pivot. Pump the lever's handle up and down: on each stroke one pawl
/// pushes the rack up a tooth or more under a tooth's flat underside while the other
/// is drawn down and slides over the teeth below, falling back by its own weight
/// into the next gap. Each pawl lifts on one stroke and ratchets on the other, so
/// the rack climbs on both: that is the double action.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Jack {
    /// Mass of the load on the rack's platform (kg).
    pub load: f64,
    /// Half the lever's swing, either side of level (rad).
    pub swing: f64,
    /// Seconds per pump of the handle, down and up.
    pub period: f64,
}

impl Jack {
    /// The book's jack: a 3 kg load, the lever swung 0.3 rad either way every 3 s.
    pub const BOOK: Jack = Jack { load: 3.0, swing: 0.3, period: 3.0 };

    /// Distance between teeth (m).
    pub const PITCH: f64 = 0.4;
    /// How far a tooth stands out of the rack's core (m): its flank rises at
    /// atan(pitch/depth) = 63°, steeper than a pawl, so a pawl seated under one
    /// tooth clears the flank of the tooth below.
    pub const DEPTH: f64 = 0.2;
    /// Half the width of the rack's core (m).
    const CORE: f64 = 0.3;
    /// Teeth on each side.
    const TEETH: usize = 20;
    /// Teeth below the pawls at the start: how far the rack can climb.
    const BELOW: usize = 12;
    /// Where the pawls are pinned to the lever, either side of its pivot (m).
    const ARM: f64 = 1.1;
    /// Where the mouse holds the handle, right of the pivot (m).
    const HANDLE: f64 = 3.5;
    /// How far a pawl leans from the horizontal (rad): 60°.
    const LEAN: f64 = std::f64::consts::FRAC_PI_3;

    /// The lever's pivot, fixed in the world.
    pub fn pivot(&self) -> V2 {
        V2::zeros()
    }

    /// The lever's angle at time `t` (rad): a sine of `swing` every `period`, the
    /// handle starting level and going down first.
    pub fn lever_angle(&self, t: f64) -> f64 {
        -self.swing * (TAU * t / self.period).sin()
    }

    /// Where the scripted mouse holds the handle at time `t`.
    pub fn mouse_at(&self, t: f64) -> V2 {
        let a = self.lever_angle(t);
        self.pivot() + V2::new(a.cos(), a.sin()) * Self::HANDLE
    }

    /// The rack's teeth as convex parts, bottom first, in a frame with the first
    /// tooth's underside at y = 0: each part a trapezoid as wide as the teeth at its
    /// foot, narrowing to the core a pitch above, where the next one's flat
    /// underside stands out on both sides.
    fn rack_parts(base: f64) -> Result<Vec<ConvexPolygon>, PbmError> {
        let (p, a, c) = (Self::PITCH, Self::CORE + Self::DEPTH, Self::CORE);
        let mut parts = Vec::with_capacity(Self::TEETH + 1);
        for k in 0..Self::TEETH {
            let y = base + k as f64 * p;
            parts.push(ConvexPolygon::new(vec![
                V2::new(-a, y),
                V2::new(a, y),
                V2::new(c, y + p),
                V2::new(-c, y + p),
            ])?);
        }
        // The platform the load stands on.
        let top = base + Self::TEETH as f64 * p;
        parts.push(ConvexPolygon::rectangle(
            V2::new(0.0, top + 0.15),
            V2::new(1.2, 0.15),
        )?);
        Ok(parts)
    }

    /// One of the pawls, a parallelogram leaning in towards the rack at 60°, its flat
    /// top level and its lower end pinned to the lever at (side · 1.1, 0); `side` is
    /// −1 for the left pawl, +1 for the right. Returns its corners in the world and
    /// the height of its top.
    fn pawl_corners(side: f64) -> (Vec<V2>, f64) {
        let run = 1.0 / Self::LEAN.tan();
        let width = 0.14;
        // The top's inner corner 3 cm outside the core: the pawl's centre line, from
        // the pin in at `run` per metre up, reaches there at this height.
        let top = (Self::ARM - Self::CORE - 0.03 - 0.5 * width) / run;
        let bottom = -0.15;
        let centre = |y: f64| side * (Self::ARM - run * y);
        let corners = vec![
            V2::new(centre(bottom) - 0.5 * width, bottom),
            V2::new(centre(bottom) + 0.5 * width, bottom),
            V2::new(centre(top) + 0.5 * width, top),
            V2::new(centre(top) - 0.5 * width, top),
        ];
        (corners, top)
    }

    // ANCHOR: jack
    /// The jack at rest: the lever level, the rack resting on both pawls with the
    /// load on its platform, the mouse holding the handle.
    pub fn build(&self, settings: Settings) -> Result<World, PbmError> {
        if !(self.load.is_finite() && self.load > 0.0) {
            let why = format!("the load must be a positive mass, not {}", self.load);
            return Err(PbmError::invalid("jack", why));
        }
        let mut world = World::new(settings)?;
        let (left, top) = Self::pawl_corners(-1.0);
        let (right, _) = Self::pawl_corners(1.0);
        // The rack: its teeth's undersides 5 mm above the pawls' tops, BELOW teeth
        // under the pawls.
        let base = top + 0.005 - Self::BELOW as f64 * Self::PITCH;
        let (rack, rack_centre) = Shape::new(Self::rack_parts(base)?, 1.0)?;
        let platform = base + Self::TEETH as f64 * Self::PITCH + 0.3;
        // Two collars keep it upright, gripping the teeth's tips with 3 cm of play;
        // they stand above the pawls and below the platform as far as it will climb.
        let (inner, outer) = (Self::CORE + Self::DEPTH + 0.03, 0.9);
        let mut frame = Vec::new();
        for (y0, y1) in [(1.9, 2.4), (3.4, 3.9)] {
            for side in [-1.0, 1.0] {
                let x = 0.5 * (inner + outer) * side;
                frame.push(ConvexPolygon::rectangle(
                    V2::new(x, 0.5 * (y0 + y1)),
                    V2::new(0.5 * (outer - inner), 0.5 * (y1 - y0)),
                )?);
            }
        }
        world.add_fixture(Fixture { parts: frame, layer: SOLIDS })?;
        world.add_body(rack, SOLIDS, (rack_centre, 0.0), (V2::zeros(), 0.0))?;
        // The load: a block on the platform, its density set by its mass.
        let (w, h) = (1.6, 0.8);
        let load = Shape::rectangle(w, h, self.load / (w * h))?;
        world.add_body(
            load,
            SOLIDS,
            (V2::new(0.0, platform + 0.5 * h + 0.005), 0.0),
            (V2::zeros(), 0.0),
        )?;
        // The lever, in its own layer, from behind the left pawl's pin to the handle.
        let (l0, l1) = (-Self::ARM - 0.25, Self::HANDLE + 0.15);
        let lever = Shape::rectangle(l1 - l0, 0.15, 1.0)?;
        let lever_centre = V2::new(0.5 * (l0 + l1), 0.0);
        let lever_index =
            world.add_body(lever, LEVER, (lever_centre, 0.0), (V2::zeros(), 0.0))?;
        world.add_pin(Pin {
            a: Anchor::Body { body: lever_index, local: self.pivot() - lever_centre },
            b: Anchor::World(self.pivot()),
        })?;
        // The pawls, pinned to the lever either side of the pivot, each turned in
        // towards the rack by a spring on the lever, relaxed 0.1 rad further in than
        // the rack lets it go: without one, a pawl knocked out by a falling tooth
        // can swing past upright and fall over.
        for (side, corners) in [(-1.0, left), (1.0, right)] {
            let (pawl, centre) = Shape::new(vec![ConvexPolygon::new(corners)?], 1.0)?;
            let index =
                world.add_body(pawl, SOLIDS, (centre, 0.0), (V2::zeros(), 0.0))?;
            let pin = V2::new(side * Self::ARM, 0.0);
            world.add_pin(Pin {
                a: Anchor::Body { body: index, local: pin - centre },
                b: Anchor::Body { body: lever_index, local: pin - lever_centre },
            })?;
            world.add_spring(Torsion {
                a: index,
                b: Some(lever_index),
                rest: 0.1 * side,
                stiffness: 400.0,
                damping: 20.0,
            })?;
        }
        world.mouse = Some(Mouse {
            body: lever_index,
            local: V2::new(Self::HANDLE, 0.0) - lever_centre,
            target: self.mouse_at(0.0),
            stiffness: 4000.0,
            damping: 120.0,
        });
        Ok(world)
    }
    // ANCHOR_END: jack

    /// One step of `world` with the scripted hand on the handle (as
    /// [`Feeder::step`]).
    pub fn step(&self, world: &mut World) -> Result<f64, PbmError> {
        scripted_step(world, self.mouse_at(world.time()))
    }

    /// The rack's index among the bodies (then the load, the lever, the left pawl
    /// and the right one).
    pub const RACK: usize = 0;

    /// How far each pawl's pin rises or falls in a stroke from level to either
    /// end (m): 1.1 sin(swing). The idle pawl falls twice this relative to the
    /// rack, and must fall past a whole tooth to catch the next.
    pub fn stroke(&self) -> f64 {
        Self::ARM * self.swing.sin()
    }
}

/// One step of `world` with the mouse moved to `target` first: a scripted hand,
/// which sets where the mouse is from the clock before every step.
fn scripted_step(world: &mut World, target: V2) -> Result<f64, PbmError> {
    if let Some(mouse) = &mut world.mouse {
        mouse.target = target;
    }
    world.step()
}

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

/// `count` convex polygons of mixed shapes and sizes dropped into a box, to pile up
/// and settle: many contacts at once, none of them scripted.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pile {
    /// Number of polygons.
    pub count: usize,
    /// Inner width of the box (m).
    pub width: f64,
    /// Seed of the shapes' sizes, sides and turns.
    pub seed: u64,
}

impl Pile {
    /// Polygons in a box 8 m wide; the exercise drops 20 of them by default.
    pub const BOOK: Pile = Pile { count: 20, width: 8.0, seed: 1995 };

    /// The polygons on a grid above the box, each with 3 to 6 sides, a radius of 0.3
    /// to 0.5 m and a turn, all from `seed`: the same seed, the same pile.
    pub fn build(&self, settings: Settings) -> Result<World, PbmError> {
        if !(self.width.is_finite() && self.width >= 2.0) {
            let why = format!("its width must be at least 2 m, not {}", self.width);
            return Err(PbmError::invalid("pile", why));
        }
        let mut world = World::new(settings)?;
        let pitch = 1.1;
        let across = ((self.width / pitch).floor() as usize).max(1);
        let rows = self.count.div_ceil(across);
        let half = 0.5 * self.width;
        let top = 1.0 + rows as f64 * pitch + 1.0;
        let walls = vec![
            rect(-half - 0.5, -0.5, half + 0.5, 0.0)?,
            rect(-half - 0.5, 0.0, -half, top)?,
            rect(half, 0.0, half + 0.5, top)?,
        ];
        world.add_fixture(Fixture { parts: walls, layer: SOLIDS })?;
        let mut random = Lcg(self.seed);
        for k in 0..self.count {
            let sides = 3 + (random.next() * 4.0) as usize % 4;
            let radius = 0.3 + 0.2 * random.next();
            let turn = TAU * random.next();
            let corners = (0..sides)
                .map(|i| {
                    let a = turn + TAU * i as f64 / sides as f64;
                    V2::new(a.cos(), a.sin()) * radius
                })
                .collect();
            let (shape, _) = Shape::new(vec![ConvexPolygon::new(corners)?], 1.0)?;
            let (row, column) = (k / across, k % across);
            let x = -half + pitch * (column as f64 + 0.5) + 0.1 * (row % 2) as f64;
            let y = 1.0 + pitch * row as f64;
            world.add_body(
                shape,
                SOLIDS,
                (V2::new(x, y), 0.0),
                (V2::zeros(), 0.0),
            )?;
        }
        Ok(world)
    }
}

/// A small linear congruential generator (Knuth's MMIX constants): the pile needs
/// the same numbers on every machine, not good ones.
struct Lcg(u64);

impl Lcg {
    /// A number in [0, 1).
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
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

/// A scripted run of `feeder` for `seconds`: the mouse moves the crank's end round,
/// the world steps.
pub fn drive(
    feeder: &Feeder,
    settings: Settings,
    seconds: f64,
) -> Result<Drive, PbmError> {
    budget::within(seconds / settings.h, STEPS, "steps", "lower seconds")?;
    let mut world = feeder.build(settings)?;
    let blocks = |w: &World| -> Vec<_> {
        w.bodies()[..feeder.blocks].iter().map(|b| b.position()).collect()
    };
    let (mut turn_start, mut turns_done) = (blocks(&world), 0_usize);
    let (mut last_turn_advance, mut lag) = (f64::NAN, 0.0_f64);
    let (mut settled_tilt, mut max_magazine_tilt) = (f64::NAN, 0.0_f64);
    let start = Instant::now();
    world.advance(seconds, |world| {
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

/// What `interactive/pin-free` measures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PinRun {
    /// The bar's energy just before and just after it was pinned (J).
    pub pinned_energy: (f64, f64),
    /// The energy the catch takes by the closed form ½ vᵀK⁻¹v, with v the pinned
    /// point's velocity and K = I/m + r⊥r⊥ᵀ/I its inverse effective mass (J).
    pub catch_loss_closed_form: f64,
    /// The largest distance between the pin's two ends while it held (m).
    pub max_pin_error: f64,
    /// The largest change of energy while pinned, from just after the catch (J).
    pub drift_pinned: f64,
    /// The bar's energy just before and just after it was freed (J).
    pub freed_energy: (f64, f64),
    /// The largest change of energy in flight after it was freed (J).
    pub drift_free: f64,
}

// ANCHOR: pin_and_free
/// A bar 1 m long thrown sideways at `speed` (m/s), spinning at 1 rad/s: at
/// `pin_at` (s) a user pins its end to the world where it is, at `free_at` lets go,
/// and the run goes on to `t_end`.
pub fn pin_and_free(
    speed: f64,
    (pin_at, free_at): (f64, f64),
    t_end: f64,
    settings: Settings,
) -> Result<PinRun, PbmError> {
    if !(pin_at < free_at && free_at <= t_end) {
        let why = format!(
            "pin_at = {pin_at} s, free_at = {free_at} s and t_end = {t_end} s \
             must come in that order"
        );
        return Err(PbmError::invalid("pin-free", why));
    }
    budget::within(t_end / settings.h, 2.0e4, "steps", "raise h or lower t_end")?;
    let mut world = World::new(settings)?;
    let bar = Shape::rectangle(1.0, 0.1, 1.0)?;
    world.add_body(bar, 0, (V2::new(0.0, 2.0), 0.0), (V2::new(speed, 0.0), 1.0))?;
    world.run_until(pin_at, |_| {})?;
    let (mut run, pin) = pin_the_end(&mut world, V2::new(-0.5, 0.0), free_at)?;
    let held = world.energy();
    world.unpin(pin)?;
    let freed = world.energy();
    run.freed_energy = (held, freed);
    world.run_until(t_end, |w| {
        run.drift_free = run.drift_free.max((w.energy() - freed).abs())
    })?;
    Ok(run)
}
// ANCHOR_END: pin_and_free

// ANCHOR: pin_the_end
/// Pins the point `end` of the bar to the world where it is and runs to
/// `free_at`, measuring the catch and the hold; returns the run so far (nothing
/// yet freed) and the pin.
fn pin_the_end(
    world: &mut World,
    end: V2,
    free_at: f64,
) -> Result<(PinRun, usize), PbmError> {
    let anchor = world.bodies()[0].world_point(&end);
    let catch_loss_closed_form = catch_loss(&world.bodies()[0], anchor);
    let before = world.energy();
    let pin = world.pin_now(Pin {
        a: Anchor::Body { body: 0, local: end },
        b: Anchor::World(anchor),
    })?;
    let after = world.energy();
    let (mut max_pin_error, mut drift_pinned) = (0.0_f64, 0.0_f64);
    world.run_until(free_at, |w| {
        max_pin_error =
            max_pin_error.max((w.bodies()[0].world_point(&end) - anchor).norm());
        drift_pinned = drift_pinned.max((w.energy() - after).abs());
    })?;
    let run = PinRun {
        pinned_energy: (before, after),
        catch_loss_closed_form,
        max_pin_error,
        drift_pinned,
        freed_energy: (f64::NAN, f64::NAN),
        drift_free: 0.0,
    };
    Ok((run, pin))
}
// ANCHOR_END: pin_the_end

// ANCHOR: catch_loss
/// The energy a catch at `anchor` takes from `body`, by the closed form
/// ½ vᵀK⁻¹v with v the point's velocity and K = I/m + r⊥r⊥ᵀ/I.
fn catch_loss(body: &RigidBody2, anchor: V2) -> f64 {
    let (r, v) = (anchor - body.position(), body.point_velocity(&anchor));
    let r_perp = V2::new(-r.y, r.x);
    let k = nalgebra::Matrix2::identity() / body.mass()
        + r_perp * r_perp.transpose() / body.inertia();
    k.try_inverse().map_or(f64::NAN, |inverse| 0.5 * v.dot(&(inverse * v)))
}
// ANCHOR_END: catch_loss

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

/// What a stack run measured, by whichever solver.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StackRun {
    /// The farthest any box's centre moved from where it was set (m).
    pub drift: f64,
    /// The deepest any contact went (m).
    pub depth: f64,
    /// How far the top box's centre ended below where it was set (m).
    pub top_sink: f64,
    /// Steps (the exact loop's, or substeps of XPBD).
    pub steps: usize,
    /// Wall time of the run (s).
    pub seconds: f64,
}

// ANCHOR: stack_scene
/// Chapter 10's stack in this chapter's world: `count` boxes of 1 kg, 0.4 m wide
/// and 0.2 m tall (chapter 10's box seen from the front), each set 1 cm aside of
/// the one below, alternately, on a floor.
pub fn stack_world(
    count: usize,
    settings: Settings,
) -> Result<(World, Vec<V2>), PbmError> {
    let half = pbm_pbd::box_scenes::BOX_HALF;
    let (w, h) = (half.x, half.y);
    let mut world = World::new(settings)?;
    world.add_fixture(Fixture {
        parts: vec![rect(-3.0, -0.5, 3.0, 0.0)?],
        layer: SOLIDS,
    })?;
    let density = pbm_pbd::box_scenes::BOX_MASS / (4.0 * w * h);
    let mut start = Vec::with_capacity(count);
    for k in 0..count {
        let centre =
            V2::new(if k % 2 == 0 { 0.0 } else { 0.01 }, h * (2 * k + 1) as f64);
        let box_shape = ConvexPolygon::rectangle(V2::zeros(), V2::new(w, h))?;
        let (shape, _) = Shape::new(vec![box_shape], density)?;
        world.add_body(shape, SOLIDS, (centre, 0.0), (V2::zeros(), 0.0))?;
        start.push(centre);
    }
    Ok((world, start))
}
// ANCHOR_END: stack_scene

/// Runs [`stack_world`] for `t_end` and measures it.
pub fn stack_run(
    count: usize,
    settings: Settings,
    t_end: f64,
) -> Result<StackRun, PbmError> {
    let (mut world, start) = stack_world(count, settings)?;
    let mut drift = 0.0_f64;
    let clock = Instant::now();
    world.run_until(t_end, |w| {
        for (body, x0) in w.bodies().iter().zip(&start) {
            drift = drift.max((body.position() - x0).norm());
        }
    })?;
    let seconds = clock.elapsed().as_secs_f64();
    let top_sink = start[count - 1].y - world.bodies()[count - 1].position().y;
    let stats = world.stats();
    Ok(StackRun {
        drift,
        depth: stats.max_depth,
        top_sink,
        steps: stats.steps,
        seconds,
    })
}

/// The same stack by chapter 10's XPBD boxes, `substeps` a 60 Hz frame of `passes`
/// passes, with friction μ static and dynamic and no bounce.
pub fn xpbd_stack_run(
    count: usize,
    friction: f64,
    (substeps, passes): (usize, usize),
    t_end: f64,
) -> Result<StackRun, PbmError> {
    use pbm_pbd::box_scenes::{Solve, stack};
    use pbm_pbd::rigid_contact::{Material, StaticRule};
    let material = Material {
        static_friction: friction,
        dynamic_friction: friction,
        restitution: 0.0,
        compliance: 0.0,
        rule: StaticRule::Clamped,
    };
    let clock = Instant::now();
    let run = stack(count, material, Solve { substeps, passes }, t_end)?;
    let seconds = clock.elapsed().as_secs_f64();
    let steps = (t_end / pbm_pbd::scenes::FRAME).round() as usize * substeps;
    Ok(StackRun {
        drift: run.drift,
        depth: run.depth,
        top_sink: run.top_sink,
        steps,
        seconds,
    })
}

#[cfg(test)]
mod stack_tests {
    use super::*;
    use pbm_contact::world::Solver;

    #[test]
    fn the_exact_loop_holds_chapter_10s_stack_still_and_sequential_impulses_nearly() {
        let settings = |solver| Settings {
            friction: 0.5,
            restitution: 0.0,
            solver,
            ..Settings::default()
        };
        let exact = stack_run(5, settings(Solver::Exact), 2.0).unwrap();
        let sweeps = Solver::SequentialImpulses { sweeps: 10 };
        let sequential = stack_run(5, settings(sweeps), 2.0).unwrap();
        let xpbd = xpbd_stack_run(5, 0.5, (20, 2), 2.0).unwrap();
        assert!(exact.drift < 1e-6 && exact.depth < 1e-6, "{exact:?}");
        assert!(sequential.drift < 1e-3 && sequential.depth < 1e-3, "{sequential:?}");
        assert!(
            xpbd.drift > 10.0 * sequential.drift && xpbd.top_sink < 1e-3,
            "{xpbd:?}"
        );
    }
}
