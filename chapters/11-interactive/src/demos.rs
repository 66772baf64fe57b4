//! The chapter's live demos (WebAssembly in the pages).
//!
//! Chapter 11: Baraff's block feeder, its crank turned by a scripted hand, and the
//! double-action jack, its handle pumped by one. In both, a press on any moving part
//! grabs it with the world's mouse spring, and letting go gives the scripted hand
//! back its hold.

use crate::scenes::{Feeder, Jack};
use crate::world::{Mouse, Order, Settings, World};
use nalgebra::Vector2;
use pbm_collision::polygon::ConvexPolygon;
use pbm_prelim::PbmError;
use pbm_prelim::demo::{
    Agreement, Demo, DemoSpec, Drawing, Ink, Param, Plot, Pointer, Readout, Values,
};

/// The chapter's demos, in the book's order.
pub const DEMOS: &[DemoSpec] = &[FEEDER, JACK];

/// The numbers the demos show that the chapter's exercises print too (checked
/// natively by `tests/demos.rs` and in the browser).
pub const AGREEMENTS: &[Agreement] = &[
    // 2.5 s: the first block is out, in the first turn of the crank.
    Agreement::new("interactive/feeder", &[4.0, 0.02, 0.3, 0.0, 8.0], 150, 1)
        .matches("interactive/feeder", &["t_end=2.5"], "/blocks_fed"),
    // The crank's circle calls sin and cos (see above).
    Agreement::new("interactive/feeder", &[4.0, 0.02, 0.3, 0.0, 8.0], 150, 3)
        .matches("interactive/feeder", &["t_end=2.5"], "/max_depth")
        .within(0.05),
    // One pump, 3 s: the rack a tooth up on each stroke.
    // The handle's arc calls sin and cos (see above).
    Agreement::new("interactive/jack", &[0.3, 3.0, 3.0, 0.02, 0.0], 180, 1)
        .matches("interactive/jack", &["t_end=3"], "/lift_m")
        .within(0.05),
];

/// The page's frame (s).
const FRAME: f64 = 1.0 / 60.0;

/// The demo of chapter 11's feeder (the exercise `interactive/feeder`).
pub const FEEDER: DemoSpec = DemoSpec {
    id: "interactive/feeder",
    title: "Baraff's block feeder, its crank turned by a scripted hand",
    params: &[
        // The crank's speed first: the control whose effect the eye sees at once.
        Param::linear("period", "one turn of the crank every", "s", [4.0, 2.0, 8.0]),
        Param::linear("epsilon", "contact tolerance ε", "m", [0.02, 0.005, 0.02]),
        Param::linear("friction", "friction μ", "", [0.3, 0.0, 0.5]),
        Param::choice(
            "order",
            "world",
            &["second order (Newton)", "first order (f = m v)"],
        ),
        Param::count("blocks", "blocks in the magazine", [4.0, 1.0, 8.0]),
    ],
    readouts: &[
        Readout::plain("t", "s"),
        Readout::inked("blocks out of the magazine", "", Ink::First),
        Readout::plain("tolerance corrections", ""),
        Readout::plain("deepest contact so far", "m"),
        Readout::inked("grabbed point behind the pointer", "m", Ink::Foreground),
    ],
    plot: Plot::over(0, &[1]),
    view: |_| Ok([-8.2, 13.4, -2.2, 9.3]),
    drag: Some(
        "Press on a block, the pusher, the rod or the crank and drag it; let go, and the \
         scripted hand takes the crank again.",
    ),
    build: |p| {
        let feeder = Feeder {
            period: p.get("period")?,
            blocks: p.whole("blocks")?,
            ..Feeder::BOOK
        };
        let settings = Settings {
            epsilon: p.get("epsilon")?,
            friction: p.get("friction")?,
            restitution: 0.1,
            order: order(p)?,
            ..Settings::default()
        };
        let hand = Hand::new(feeder.build(settings)?, p)?;
        Ok(Box::new(Feeding { feeder, hand }))
    },
};

/// The demo of chapter 11's jack (the exercise `interactive/jack`).
pub const JACK: DemoSpec = DemoSpec {
    id: "interactive/jack",
    title: "A double-action jack, its handle pumped by a scripted hand",
    params: &[
        Param::linear("swing", "half the lever's swing", "rad", [0.3, 0.1, 0.35]),
        Param::linear("load", "load", "kg", [3.0, 0.5, 30.0]),
        Param::linear("period", "one pump every", "s", [3.0, 2.0, 8.0]),
        Param::linear("epsilon", "contact tolerance ε", "m", [0.02, 0.005, 0.02]),
        Param::choice(
            "order",
            "world",
            &["second order (Newton)", "first order (f = m v)"],
        ),
    ],
    readouts: &[
        Readout::plain("t", "s"),
        Readout::inked("rack's rise", "m", Ink::First),
        Readout::plain("tolerance corrections", ""),
        Readout::plain("deepest contact so far", "m"),
        Readout::inked("grabbed point behind the pointer", "m", Ink::Foreground),
    ],
    plot: Plot::over(0, &[1]),
    view: |_| Ok([-2.0, 4.2, -1.4, 10.6]),
    drag: Some(
        "Press on the lever, a pawl, the rack or the load and drag it; let go, and the \
         scripted hand takes the handle again.",
    ),
    build: |p| {
        let jack = Jack {
            swing: p.get("swing")?,
            load: p.get("load")?,
            period: p.get("period")?,
        };
        let settings = Settings {
            epsilon: p.get("epsilon")?,
            friction: 0.3,
            restitution: 0.1,
            order: order(p)?,
            ..Settings::default()
        };
        let world = jack.build(settings)?;
        let start = world.bodies()[Jack::RACK].position().y;
        Ok(Box::new(Jacking { jack, start, hand: Hand::new(world, p)? }))
    },
};

/// The world's order from its menu: second order (Newton) first.
fn order(p: &Values) -> Result<Order, PbmError> {
    Ok(if p.whole("order")? == 0 { Order::Second } else { Order::First })
}

/// A world with a scripted hand on it that the reader can take over with the
/// pointer: the part of a mechanism's demo that does not depend on the mechanism.
struct Hand {
    world: World,
    /// The parameters it was built with, as retuned since.
    params: Values,
    /// The scripted hand's hold, as the mechanism was built.
    hold: Mouse,
    /// Whether the reader holds something.
    dragging: bool,
    frames: u32,
}

impl Hand {
    fn new(world: World, params: &Values) -> Result<Self, PbmError> {
        let hold = world.mouse.ok_or_else(|| {
            PbmError::invalid("mechanism demo", "it was built without its hand")
        })?;
        let params = params.clone();
        Ok(Hand { world, params, hold, dragging: false, frames: 0 })
    }

    /// A change of the world's order alone is made to the running world, as the
    /// paper's simulator makes it: switching to first order stops every body where it
    /// is, and switching back lets them move from rest. Any other change starts over.
    fn retune(&mut self, params: &Values) -> bool {
        let Ok(order) = order(params) else { return false };
        let others_same = params.same_but(&self.params, "order");
        if others_same {
            self.world.set_order(order);
            self.params = params.clone();
        }
        others_same
    }

    // ANCHOR: frame
    /// Steps to the end of the next frame: `scripted` (the mechanism's own step,
    /// which moves the hand and then steps, as its exercise does) while no one holds
    /// anything, the bare step while the reader drags.
    fn frame(
        &mut self,
        scripted: impl Fn(&mut World) -> Result<f64, PbmError>,
    ) -> Result<(), PbmError> {
        self.frames += 1;
        let end = f64::from(self.frames) * FRAME;
        while self.world.time() < end - 1e-12 {
            if self.dragging {
                self.world.step()?;
            } else {
                scripted(&mut self.world)?;
            }
        }
        Ok(())
    }
    // ANCHOR_END: frame

    /// How far the held point is behind the mouse (m).
    fn lag(&self) -> f64 {
        self.world.mouse.map_or(0.0, |m| {
            (self.world.bodies()[m.body].world_point(&m.local) - m.target).norm()
        })
    }

    /// The fixtures, then the bodies from last to first in the inks `ink` gives,
    /// then the mouse and its spring.
    fn draw(&self, out: &mut Drawing, ink: impl Fn(usize) -> Ink) {
        let corners = |part: &ConvexPolygon| {
            part.vertices().iter().map(|v| [v.x, v.y]).collect::<Vec<_>>()
        };
        for fixture in self.world.fixtures() {
            for part in &fixture.parts {
                out.polygon(Ink::Muted, corners(part).into_iter());
            }
        }
        for k in (0..self.world.bodies().len()).rev() {
            for part in self.world.placed(k) {
                out.polygon(ink(k), corners(&part).into_iter());
            }
        }
        if let Some(m) = self.world.mouse {
            let held = self.world.bodies()[m.body].world_point(&m.local);
            out.polyline(
                Ink::Foreground,
                [[held.x, held.y], [m.target.x, m.target.y]].into_iter(),
            );
            out.disc(Ink::Foreground, [m.target.x, m.target.y], 4.0);
        }
    }

    /// A press grabs the body under it, a move drags it, a release gives the hold
    /// back to the scripted hand, at `home`, where the hand is now.
    fn pointer(
        &mut self,
        event: Pointer,
        [x, y]: [f64; 2],
        home: Vector2<f64>,
    ) -> bool {
        let at = Vector2::new(x, y);
        match event {
            Pointer::Down => {
                let Some(k) = self.world.body_at(at) else { return false };
                let body = &self.world.bodies()[k];
                let (s, c) = body.angle().sin_cos();
                let d = at - body.position();
                let local = Vector2::new(c * d.x + s * d.y, -s * d.x + c * d.y);
                self.world.mouse =
                    Some(Mouse { body: k, local, target: at, ..self.hold });
                self.dragging = true;
                true
            }
            Pointer::Move if self.dragging => {
                if let Some(m) = &mut self.world.mouse {
                    m.target = at;
                }
                true
            }
            Pointer::Up if self.dragging => {
                self.dragging = false;
                self.world.mouse = Some(Mouse { target: home, ..self.hold });
                true
            }
            Pointer::Move | Pointer::Up => false,
        }
    }
}

struct Feeding {
    feeder: Feeder,
    hand: Hand,
}

impl Demo for Feeding {
    fn frame(&mut self) -> Result<(), PbmError> {
        let feeder = self.feeder;
        self.hand.frame(|world| feeder.step(world))
    }

    fn readouts(&self) -> Vec<f64> {
        let world = &self.hand.world;
        vec![
            world.time(),
            self.feeder.fed(world) as f64,
            world.stats().corrections as f64,
            world.stats().max_depth,
            self.hand.lag(),
        ]
    }

    fn draw(&self, out: &mut Drawing) {
        // The crank and rod first (they pass behind), then the pusher, then blocks.
        let blocks = self.feeder.blocks;
        self.hand.draw(out, |k| match k.checked_sub(blocks) {
            None => Ink::First,
            Some(0) => Ink::Second,
            Some(_) => Ink::Third,
        });
    }

    fn pointer(&mut self, event: Pointer, at: [f64; 2]) -> bool {
        let home = self.feeder.mouse_at(self.hand.world.time());
        self.hand.pointer(event, at, home)
    }

    fn retune(&mut self, params: &Values) -> bool {
        self.hand.retune(params)
    }
}

struct Jacking {
    jack: Jack,
    /// The rack's height at the start (m).
    start: f64,
    hand: Hand,
}

impl Demo for Jacking {
    fn frame(&mut self) -> Result<(), PbmError> {
        let jack = self.jack;
        self.hand.frame(|world| jack.step(world))
    }

    fn readouts(&self) -> Vec<f64> {
        let world = &self.hand.world;
        vec![
            world.time(),
            world.bodies()[Jack::RACK].position().y - self.start,
            world.stats().corrections as f64,
            world.stats().max_depth,
            self.hand.lag(),
        ]
    }

    fn draw(&self, out: &mut Drawing) {
        // The pawls, then the lever (behind the rack), then the load and the rack.
        self.hand.draw(out, |k| match k {
            Jack::RACK => Ink::First,
            1 => Ink::Second,
            _ => Ink::Third,
        });
    }

    fn pointer(&mut self, event: Pointer, at: [f64; 2]) -> bool {
        let home = self.jack.mouse_at(self.hand.world.time());
        self.hand.pointer(event, at, home)
    }

    fn retune(&mut self, params: &Values) -> bool {
        self.hand.retune(params)
    }
}
