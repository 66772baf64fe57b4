//! The double-action jack (the paper's Figure 12).

use super::shared::{SOLIDS, V2, scripted_step};
use crate::shape::Shape;
use crate::world::{Anchor, Fixture, Mouse, Pin, Settings, Torsion, World};
use pbm_collision::polygon::ConvexPolygon;
use pbm_prelim::PbmError;
use std::f64::consts::TAU;

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
