//! The chapter's live demos (WebAssembly in the pages).
//!
//! Chapter 10: the slides' chain of boxes, released from the horizontal, by XPBD.

use crate::joint::{Anchor, BodySystem};
use crate::scenes::BoxChain;
use crate::scenes::FRAME;
use nalgebra::Vector3;
use pbm_prelim::PbmError;
use pbm_prelim::demo::{Agreement, Demo, DemoSpec, Drawing, Ink, Param, Readout};

/// The chapter's demos, in the book's order.
pub const DEMOS: &[DemoSpec] = &[BOX_CHAIN];

/// The numbers the demos show that the chapter's exercises print too (checked
/// natively by `tests/demos.rs` and in the browser).
pub const AGREEMENTS: &[Agreement] = &[
    Agreement::new("pbd/chain", &[10.0, 20.0, 1.0], 60, 1).matches(
        "pbd/chain",
        &["links=10", "substeps=20", "iterations=1", "t_end=1"],
        "/max_joint_gap_mm",
    ),
    Agreement::new("pbd/chain", &[5.0, 8.0, 2.0], 90, 2).matches(
        "pbd/chain",
        &["links=5", "substeps=8", "iterations=2", "t_end=1.5"],
        "/energy_end_j",
    ),
];

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
        let reach = p.get("links")? * BoxChain::BOOK.size[1] * 1.1;
        Ok([-reach, reach, -1.05 * reach, 0.15 * reach])
    },
    drag: None,
    build: |p| {
        let model = BoxChain { links: p.whole("links")?, ..BoxChain::BOOK };
        Ok(Box::new(Chain {
            system: model.build()?,
            model,
            substeps: p.whole("substeps")?,
            iterations: p.whole("iterations")?,
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
