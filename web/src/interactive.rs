//! Chapter 11: Baraff's block feeder, turned by a scripted hand on the crank, or by
//! the reader: a press on any moving part grabs it with the world's mouse spring.

use crate::demo::{Demo, DemoSpec, Drawing, Ink, Param, Pointer, Readout};
use nalgebra::Vector2;
use pbm_interactive::scenes::Feeder;
use pbm_interactive::world::{Mouse, Order, Settings, World};
use pbm_prelim::PbmError;

/// The page's frame (s).
const FRAME: f64 = 1.0 / 60.0;

/// The demo of chapter 11's feeder (the exercise `interactive/feeder`).
pub const FEEDER: DemoSpec = DemoSpec {
    id: "interactive/feeder",
    title: "Baraff's block feeder, its crank turned by a scripted hand",
    params: &[
        Param::linear("epsilon", "contact tolerance ε", "m", [0.02, 0.005, 0.02]),
        Param::linear("friction", "friction μ", "", [0.3, 0.0, 0.5]),
        Param::linear("period", "one turn of the crank every", "s", [4.0, 2.0, 8.0]),
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
    view: |_| [-8.2, 13.4, -2.2, 9.3],
    drag: Some(
        "Press on a block, the pusher, the rod or the crank and drag it; let go, and the \
         scripted hand takes the crank again.",
    ),
    build: |p| {
        let order = if p[3] == 0.0 { Order::Second } else { Order::First };
        let feeder = Feeder { period: p[2], blocks: p[4] as usize, ..Feeder::BOOK };
        let settings = Settings {
            epsilon: p[0],
            friction: p[1],
            restitution: 0.1,
            order,
            ..Settings::default()
        };
        let world = feeder.build(settings)?;
        let hand = world.mouse.ok_or_else(|| {
            PbmError::invalid("feeder demo", "the feeder was built without its hand")
        })?;
        Ok(Box::new(Feeding { feeder, world, hand, dragging: false, frames: 0 }))
    },
};

struct Feeding {
    feeder: Feeder,
    world: World,
    /// The scripted hand on the crank's end, as the feeder was built.
    hand: Mouse,
    /// Whether the reader holds something.
    dragging: bool,
    frames: u32,
}

impl Demo for Feeding {
    fn frame(&mut self) -> Result<(), PbmError> {
        // As the exercise drives it (`drive`): the hand's target set from the time
        // before every step, steps until the frame's end.
        self.frames += 1;
        let end = f64::from(self.frames) * FRAME;
        while self.world.time() < end - 1e-12 {
            if self.dragging {
                self.world.step()?;
            } else {
                self.feeder.step(&mut self.world)?;
            }
        }
        Ok(())
    }

    fn readouts(&self) -> Vec<f64> {
        let lag = self.world.mouse.map_or(0.0, |m| {
            (self.world.bodies()[m.body].world_point(&m.local) - m.target).norm()
        });
        vec![
            self.world.time(),
            self.feeder.fed(&self.world) as f64,
            self.world.stats().corrections as f64,
            self.world.stats().max_depth,
            lag,
        ]
    }

    fn draw(&self, out: &mut Drawing) {
        let corners = |part: &pbm_collision::polygon::ConvexPolygon| {
            part.vertices().iter().map(|v| [v.x, v.y]).collect::<Vec<_>>()
        };
        for fixture in self.world.fixtures() {
            for part in &fixture.parts {
                out.polygon(Ink::Muted, corners(part).into_iter());
            }
        }
        let blocks = self.feeder.blocks;
        // The crank and rod first (they pass behind), then the pusher, then blocks.
        for k in (0..self.world.bodies().len()).rev() {
            let ink = match k.checked_sub(blocks) {
                None => Ink::First,
                Some(0) => Ink::Second,
                Some(_) => Ink::Third,
            };
            for part in self.world.placed(k) {
                out.polygon(ink, corners(&part).into_iter());
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

    fn pointer(&mut self, event: Pointer, [x, y]: [f64; 2]) -> bool {
        let at = Vector2::new(x, y);
        match event {
            Pointer::Down => {
                let Some(k) = self.world.body_at(at) else { return false };
                let body = &self.world.bodies()[k];
                let (s, c) = body.angle().sin_cos();
                let d = at - body.position();
                let local = Vector2::new(c * d.x + s * d.y, -s * d.x + c * d.y);
                self.world.mouse =
                    Some(Mouse { body: k, local, target: at, ..self.hand });
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
                let target = self.feeder.mouse_at(self.world.time());
                self.world.mouse = Some(Mouse { target, ..self.hand });
                true
            }
            Pointer::Move | Pointer::Up => false,
        }
    }
}
