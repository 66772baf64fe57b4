//! The chapter's live demos (WebAssembly in the pages).
//!
//! Chapter 11: Baraff's block feeder, its crank turned by a scripted hand, the
//! double-action jack, its handle pumped by one, and a pile of polygons with no hand
//! at all, stepped by either solver. In all three, a press on any moving part grabs
//! it with the world's mouse spring; in the mechanisms, letting go gives the
//! scripted hand back its hold.

use crate::scenes::SOLIDS;
use crate::scenes::{Feeder, Jack, Pile};
use crate::world::{Fixture, Mouse, Order, Settings, Solver, World};
use nalgebra::Vector2;
use pbm_collision::polygon::ConvexPolygon;
use pbm_prelim::PbmError;
use pbm_prelim::Quantity;
use pbm_prelim::demo::{
    Agreement, Demo, DemoSpec, Demos, Drawing, FRAME, Ink, Param, Plot, Pointer,
    Readout, Values, Whereabouts, capped,
};

/// The chapter's demos, and the numbers they show that its exercises print too.
pub const DEMOS: Demos = Demos {
    specs: &[FEEDER, JACK, PILE],
    agreements: &[
        // 2.5 s: the first block is out, in the first turn of the crank.
        Agreement::demo("interactive/feeder")
            .set(&["period=4", "epsilon=0.02", "friction=0.3", "blocks=8"])
            .frames(150)
            .readout("blocks out of the magazine")
            .matches("interactive/feeder", &["t_end=2.5"], "/blocks_fed"),
        // The crank's circle calls sin and cos (see above).
        Agreement::demo("interactive/feeder")
            .set(&["period=4", "epsilon=0.02", "friction=0.3", "blocks=8"])
            .frames(150)
            .readout("deepest contact so far")
            .matches("interactive/feeder", &["t_end=2.5"], "/max_depth")
            .within(0.05),
        // One pump, 3 s: the rack a tooth up on each stroke.
        // The handle's arc calls sin and cos (see above).
        Agreement::demo("interactive/jack")
            .set(&["swing=0.3", "load=3", "period=3", "epsilon=0.02"])
            .frames(180)
            .readout("rack's rise")
            .matches("interactive/jack", &["t_end=3"], "/lift_m")
            .within(0.05),
        // Fifty polygons by sequential impulses, 0.75 s: the first rows have landed.
        // The polygons' corners call sin and cos (see above).
        Agreement::demo("interactive/pile")
            .set(&[
                "count=50",
                "solver=sequential impulses",
                "friction=0.3",
                "sweeps=10",
            ])
            .frames(45)
            .readout("kinetic energy")
            .matches(
                "interactive/pile",
                &["count=50", "solver=sequential", "t_end=0.75"],
                "/kinetic_energy_end_j",
            )
            .within(0.05),
    ],
};

/// The mechanisms' menu of the world's order, second order (Newton) first.
const ORDERS: &[&str] = &["second order (Newton)", "first order (f = m v)"];

/// The mechanisms' menu: the world's order, which the running demo switches.
const ORDER: Param = Param::choice("order", "world", ORDERS)
    .demo_only("switches the world's order as it runs");

/// The demo of chapter 11's feeder (the exercise `interactive/feeder`).
pub const FEEDER: DemoSpec = DemoSpec {
    id: "interactive/feeder",
    title: "Baraff's block feeder, its crank turned by a scripted hand",
    params: &[
        // The crank's speed first: the control whose effect the eye sees at once.
        Param::exercise("period", [4.0, 2.0, 8.0]),
        Param::exercise("epsilon", [0.02, 0.005, 0.02]),
        Param::exercise("friction", [0.3, 0.0, 0.5]),
        ORDER,
        Param::count("blocks", "blocks in the magazine", [4.0, 1.0, 8.0])
            .demo_only("the demo's tray is smaller, to run at 60 Hz"),
    ],
    readouts: &[
        Readout::plain("t", "s"),
        Readout::inked("blocks out of the magazine", "", Ink::First),
        Readout::plain("tolerance corrections", ""),
        Readout::plain("deepest contact so far", "m"),
        Readout::inked("grabbed point behind the pointer", "m", Ink::Foreground),
    ],
    plot: Plot::over("t", &["blocks out of the magazine"]),
    view: |_| Ok(FEEDER_VIEW),
    drag: Some(
        "Press on a block, the pusher, the rod or the crank and drag it; let go, and the \
         scripted hand takes the crank again. The picture's edges are walls.",
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
        let hand = Hand::new(feeder.build(settings)?, p, FEEDER_VIEW)?;
        Ok(Box::new(Feeding { feeder, hand }))
    },
};

/// The demo of chapter 11's jack (the exercise `interactive/jack`).
pub const JACK: DemoSpec = DemoSpec {
    id: "interactive/jack",
    title: "A double-action jack, its handle pumped by a scripted hand",
    params: &[
        Param::exercise("swing", [0.3, 0.1, 0.35]),
        Param::exercise("load", [3.0, 0.5, 30.0]),
        Param::exercise("period", [3.0, 2.0, 8.0]),
        Param::of("epsilon", Quantity::EPSILON, [0.02, 0.005, 0.02])
            .demo_only("the exercise keeps the book's tolerance"),
        ORDER,
    ],
    readouts: &[
        Readout::plain("t", "s"),
        Readout::inked("rack's rise", "m", Ink::First),
        Readout::plain("tolerance corrections", ""),
        Readout::plain("deepest contact so far", "m"),
        Readout::inked("grabbed point behind the pointer", "m", Ink::Foreground),
    ],
    plot: Plot::over("t", &["rack's rise"]),
    view: |_| Ok(JACK_VIEW),
    drag: Some(
        "Press on the lever, a pawl, the rack or the load and drag it; let go, and the \
         scripted hand takes the handle again. The picture's edges are walls.",
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
        Ok(Box::new(Jacking { jack, start, hand: Hand::new(world, p, JACK_VIEW)? }))
    },
};

/// The demo of chapter 11's pile (the exercise `interactive/pile`), by either solver.
pub const PILE: DemoSpec = DemoSpec {
    id: "interactive/pile",
    title: "A pile of polygons dropped into a box, by either contact solver",
    params: &[
        // Thirty open the page: a frame of fifty by sequential impulses takes 2 to 5 ms in
        // the browser, too close to the test's 4 ms budget on a busy machine; the reader
        // slides to fifty, and the browser test times fifty settled.
        Param::exercise("count", [30.0, 10.0, 50.0]).in_whole_numbers(),
        Param::choice(
            "solver",
            "contact solver",
            &["sequential impulses", "exact (the paper's loop)"],
        ),
        Param::exercise("friction", [0.3, 0.05, 1.0]),
        Param::exercise("sweeps", [10.0, 1.0, 16.0]).in_whole_numbers(),
    ],
    readouts: &[
        Readout::plain("t", "s"),
        Readout::inked("kinetic energy", "J", Ink::First),
        Readout::plain("deepest contact so far", "m"),
        Readout::inked("grabbed point behind the pointer", "m", Ink::Foreground),
    ],
    plot: Plot::over("t", &["kinetic energy"]),
    view: |_| Ok(PILE_VIEW),
    drag: Some(
        "Press on a polygon and drag it through the pile; switch the solver and watch \
         the same pile settle the other way. The picture's edges are walls: a polygon \
         thrown out of the box lands beside it.",
    ),
    build: |p| {
        let solver = match p.whole("solver")? {
            0 => Solver::SequentialImpulses { sweeps: p.whole("sweeps")? },
            _ => Solver::Exact,
        };
        let settings = Settings {
            friction: p.get("friction")?,
            restitution: 0.1,
            solver,
            ..Settings::default()
        };
        let pile = Pile { count: p.whole("count")?, ..Pile::BOOK };
        let grip = Mouse {
            body: 0,
            local: Vector2::zeros(),
            target: Vector2::zeros(),
            stiffness: GRIP.0,
            damping: GRIP.1,
        };
        let hand = Hand::free(pile.build(settings)?, p, grip, PILE_VIEW)?;
        Ok(Box::new(Piling { hand }))
    },
};

/// The pile's mouse spring (stiffness 1/s², damping 1/s per unit of the grabbed
/// point's mass): the mechanisms' hand's.
const GRIP: (f64, f64) = (4000.0, 120.0);

/// The pictures (m): each demo's bodies, whole, as far as they go when no one
/// throws them; walls stand just outside.
const FEEDER_VIEW: [f64; 4] = [-8.2, 13.4, -2.2, 9.3];
/// The jack's rack reaches 3.6 m below the lever's pivot at the start, and its
/// load 10.3 m above it once the rack has climbed its twelve teeth.
const JACK_VIEW: [f64; 4] = [-2.0, 4.2, -3.9, 10.6];
const PILE_VIEW: [f64; 4] = [-5.6, 5.6, -0.8, 11.0];

/// The fastest the reader's hand moves what it holds (m/s): the hand's speed is
/// real, but a throw is no faster than this.
const FASTEST: f64 = 5.0;

/// The farthest the hand leads the point it holds (m).
const LEAD: f64 = 0.25;

/// Walls 0.5 m thick just inside the edges of `view`, for the solids: what the
/// reader throws stays in the picture. As thick as the scenes' thickest fixture
/// parts, they leave the world's step limit (its thinnest fixture) as it was.
fn walls([x0, x1, y0, y1]: [f64; 4]) -> Result<Fixture, PbmError> {
    let (t, m) = (0.5, 0.02);
    let (x0, x1, y0, y1) = (x0 + m, x1 - m, y0 + m, y1 - m);
    let rect = |a: f64, b: f64, c: f64, d: f64| {
        ConvexPolygon::rectangle(
            Vector2::new(0.5 * (a + c), 0.5 * (b + d)),
            Vector2::new(0.5 * (c - a), 0.5 * (d - b)),
        )
    };
    let parts = vec![
        rect(x0 - t, y0 - t, x1 + t, y0)?,
        rect(x0 - t, y1, x1 + t, y1 + t)?,
        rect(x0 - t, y0, x0, y1)?,
        rect(x1, y0, x1 + t, y1)?,
    ];
    Ok(Fixture { parts, layer: SOLIDS })
}

/// The world's order from its menu ([`ORDERS`]).
fn order(p: &Values) -> Result<Order, PbmError> {
    Ok(if p.whole("order")? == 0 { Order::Second } else { Order::First })
}

/// A world with a scripted hand on it that the reader can take over with the
/// pointer: the part of a mechanism's demo that does not depend on the mechanism.
struct Hand {
    world: World,
    /// The parameters it was built with, as retuned since.
    params: Values,
    /// The scripted hand's hold, as the mechanism was built (none in a scene
    /// without one).
    hold: Option<Mouse>,
    /// The spring a press grabs with.
    grip: Mouse,
    /// Whether the reader holds something.
    dragging: bool,
    frames: u32,
    /// The picture, and where the pointer is in it: the grip's spring pulls
    /// towards a point that follows the pointer at most [`FASTEST`].
    view: [f64; 4],
    pointer: Vector2<f64>,
}

impl Hand {
    fn new(world: World, params: &Values, view: [f64; 4]) -> Result<Self, PbmError> {
        let hold = world.mouse.ok_or_else(|| {
            PbmError::invalid("mechanism demo", "it was built without its hand")
        })?;
        Hand::free(world, params, hold, view)
    }

    /// A world with no scripted hand: a press grabs with `grip`'s spring. Walls
    /// are put up at the edges of `view`.
    fn free(
        mut world: World,
        params: &Values,
        grip: Mouse,
        view: [f64; 4],
    ) -> Result<Self, PbmError> {
        world.add_fixture(walls(view)?)?;
        let hold = world.mouse;
        let params = params.clone();
        let pointer = Vector2::zeros();
        let dragging = false;
        Ok(Hand { world, params, hold, grip, dragging, frames: 0, view, pointer })
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
        let dragging = self.dragging;
        if let Some(mut m) = self.world.mouse.filter(|_| dragging) {
            // The hand follows the pointer at its real speed, up to FASTEST, and
            // leads the point it holds by at most LEAD: a part held fast by the
            // frame is pulled no harder.
            let d = self.pointer - m.target;
            let [x, y] = capped([d.x, d.y], FASTEST * FRAME);
            let held = self.world.bodies()[m.body].world_point(&m.local);
            let lead = m.target + Vector2::new(x, y) - held;
            let [x, y] = capped([lead.x, lead.y], LEAD);
            m.target = held + Vector2::new(x, y);
            self.world.mouse = Some(m);
        }
        self.world.advance(end, |world| {
            if dragging {
                world.step()?;
            } else {
                scripted(world)?;
            }
            Ok(())
        })
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

    /// Every body, taken by the middle of its first part.
    fn bodies(&self) -> Vec<Whereabouts> {
        let body = |k: usize| {
            let parts = self.world.placed(k);
            let corners = parts.iter().flat_map(|p| p.vertices().iter());
            let whole = Whereabouts::of(corners.map(|v| [v.x, v.y]));
            let first = parts.first().map_or(&[][..], |p| p.vertices());
            let n = first.len().max(1) as f64;
            let middle =
                first.iter().fold([0.0, 0.0], |[x, y], v| [x + v.x, y + v.y]);
            whole.gripped_at([middle[0] / n, middle[1] / n])
        };
        (0..self.world.bodies().len()).map(body).collect()
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
        let [x0, x1, y0, y1] = self.view;
        self.pointer = Vector2::new(x.clamp(x0, x1), y.clamp(y0, y1));
        match event {
            Pointer::Down => {
                let Some(k) = self.world.body_at(at) else { return false };
                let body = &self.world.bodies()[k];
                let (s, c) = body.angle().sin_cos();
                let d = at - body.position();
                let local = Vector2::new(c * d.x + s * d.y, -s * d.x + c * d.y);
                self.world.mouse =
                    Some(Mouse { body: k, local, target: at, ..self.grip });
                self.dragging = true;
                true
            }
            Pointer::Move if self.dragging => true,
            Pointer::Up if self.dragging => {
                self.dragging = false;
                self.world.mouse = self.hold.map(|h| Mouse { target: home, ..h });
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

    fn bodies(&self) -> Vec<Whereabouts> {
        self.hand.bodies()
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

    fn bodies(&self) -> Vec<Whereabouts> {
        self.hand.bodies()
    }

    fn retune(&mut self, params: &Values) -> bool {
        self.hand.retune(params)
    }
}

struct Piling {
    hand: Hand,
}

impl Demo for Piling {
    fn frame(&mut self) -> Result<(), PbmError> {
        self.hand.frame(|world| world.step())
    }

    fn readouts(&self) -> Vec<f64> {
        let world = &self.hand.world;
        vec![
            world.time(),
            world.kinetic_energy(),
            world.stats().max_depth,
            self.hand.lag(),
        ]
    }

    fn draw(&self, out: &mut Drawing) {
        let grabbed = self.hand.world.mouse.map(|m| m.body);
        self.hand
            .draw(out, |k| if Some(k) == grabbed { Ink::Second } else { Ink::First });
    }

    fn pointer(&mut self, event: Pointer, at: [f64; 2]) -> bool {
        self.hand.pointer(event, at, Vector2::new(at[0], at[1]))
    }

    fn bodies(&self) -> Vec<Whereabouts> {
        self.hand.bodies()
    }
}
