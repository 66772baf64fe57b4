//! Chapter 10: the slides' chain of boxes, released from the horizontal, by XPBD.

use crate::demo::{Demo, DemoSpec, Drawing, Ink, Param, Readout};
use nalgebra::Vector3;
use pbm_pbd::joint::{Anchor, BodySystem};
use pbm_pbd::scenes::BoxChain;
use pbm_pbd::studies::FRAME;
use pbm_prelim::PbmError;

/// The demo of chapter 10's chain (the exercise `pbd/chain`).
pub const BOX_CHAIN: DemoSpec = DemoSpec {
    id: "pbd/chain",
    title: "The slides' chain of boxes by XPBD",
    params: &[
        Param::count("links", "boxes", [10.0, 1.0, 30.0]),
        Param::count("substeps", "substeps per frame", [20.0, 1.0, 50.0]),
        Param::count("iterations", "passes per substep", [1.0, 1.0, 10.0]),
    ],
    readouts: &[
        Readout::plain("t", "s"),
        Readout::plain("worst joint gap so far", "mm"),
        Readout::plain("energy", "J"),
    ],
    view: |p| {
        let reach = p[0] * BoxChain::BOOK.size[1] * 1.1;
        [-reach, reach, -1.05 * reach, 0.15 * reach]
    },
    drag: None,
    build: |p| {
        let model = BoxChain { links: p[0] as usize, ..BoxChain::BOOK };
        Ok(Box::new(Chain {
            system: model.build()?,
            model,
            substeps: p[1] as usize,
            iterations: p[2] as usize,
            worst_gap: 0.0,
        }))
    },
};

struct Chain {
    system: BodySystem,
    model: BoxChain,
    substeps: usize,
    iterations: usize,
    worst_gap: f64,
}

impl Demo for Chain {
    fn frame(&mut self) -> Result<(), PbmError> {
        // As the exercise steps: `substeps` steps of FRAME/substeps, the worst gap
        // read after every one.
        let h = FRAME / self.substeps as f64;
        for _ in 0..self.substeps {
            self.system.step(h, self.iterations)?;
            self.worst_gap = self.worst_gap.max(self.system.max_rigid_violation());
        }
        Ok(())
    }

    fn readouts(&self) -> Vec<f64> {
        vec![self.system.t, 1e3 * self.worst_gap, self.system.energy()]
    }

    fn draw(&self, out: &mut Drawing) {
        let [w, l, _] = self.model.size;
        for body in &self.system.bodies {
            let corners = [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]];
            out.polygon(
                Ink::First,
                corners.into_iter().map(|[a, b]| {
                    let p = body.world_point(&Vector3::new(
                        0.5 * a * w,
                        0.5 * b * l,
                        0.0,
                    ));
                    [p.x, p.y]
                }),
            );
        }
        for joint in &self.system.joints {
            // The pin larger than the joints between boxes.
            let (p, size) = match joint.a {
                Anchor::World(p) => (p, 5.0),
                Anchor::Body { body, local } => {
                    (self.system.bodies[body].world_point(&local), 2.5)
                }
            };
            out.disc(Ink::Foreground, [p.x, p.y], size);
        }
    }
}
