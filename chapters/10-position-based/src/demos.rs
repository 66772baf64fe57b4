//! The chapter's live demos (WebAssembly in the pages).
//!
//! Chapter 10: the slides' chain of boxes, released from the horizontal, by XPBD.

use crate::joint::{Anchor, BodySystem, Joint};
use crate::net::{Net, largest_stretch, lowest};
use crate::particles::PbdSystem;
use crate::projection::Stiffness;
use crate::scenes::BoxChain;
use nalgebra::Vector2;
use nalgebra::Vector3;
use pbm_prelim::PbmError;
use pbm_prelim::demo::{
    Agreement, Demo, DemoSpec, Demos, Drawing, FRAME, Ink, Param, Plot, Pointer,
    Readout, Values, Whereabouts, capped,
};

/// The chapter's demos, and the numbers they show that its exercises print too.
pub const DEMOS: Demos = Demos {
    specs: &[NET, BOX_CHAIN],
    agreements: &[
        Agreement::demo("pbd/net")
            .set(&["n=10", "compliance=0.0001", "substeps=10"])
            .frames(60)
            .readout("largest stretch")
            .matches(
                "pbd/net",
                &["n=10", "compliance=0.0001", "substeps=10", "t_end=1"],
                "/largest_stretch_percent",
            ),
        Agreement::demo("pbd/net")
            .set(&["n=8", "compliance=0.001", "substeps=4"])
            .frames(90)
            .readout("lowest point")
            .matches(
                "pbd/net",
                &["n=8", "compliance=0.001", "substeps=4", "t_end=1.5"],
                "/lowest_y_m",
            ),
        Agreement::demo("pbd/chain")
            .set(&["links=10", "substeps=20", "iterations=1"])
            .frames(60)
            .readout("worst joint gap so far")
            .matches(
                "pbd/chain",
                &["links=10", "substeps=20", "iterations=1", "t_end=1"],
                "/max_joint_gap_mm",
            ),
        Agreement::demo("pbd/chain")
            .set(&["links=5", "substeps=8", "iterations=2"])
            .frames(90)
            .readout("energy")
            .matches(
                "pbd/chain",
                &["links=5", "substeps=8", "iterations=2", "t_end=1.5"],
                "/energy_end_j",
            ),
    ],
};

/// The demo of chapter 10's chain (the exercise `pbd/chain`).
pub const BOX_CHAIN: DemoSpec = DemoSpec {
    id: "pbd/chain",
    title: "The slides' chain of boxes by XPBD",
    params: &[
        Param::exercise("links", [10.0, 1.0, 30.0]).in_whole_numbers(),
        Param::exercise("substeps", [20.0, 1.0, 50.0]).in_whole_numbers(),
        Param::exercise("iterations", [1.0, 1.0, 10.0]).in_whole_numbers(),
    ],
    readouts: &[
        Readout::plain("t", "s"),
        Readout::plain("worst joint gap so far", "mm"),
        Readout::plain("energy", "J"),
    ],
    plot: Plot::over("t", &["energy"]),
    view: |p| {
        let reach = p.get("links")? * BoxChain::BOOK.size[1] * 1.1;
        Ok([-reach, reach, -1.05 * reach, 0.15 * reach])
    },
    drag: Some(
        "Grab a box and swing the chain: the hand is one more joint, of compliance \
         1 mm/N, from the point you hold to the pointer, which it follows at up to \
         3 m/s.",
    ),
    build: |p| {
        let model = BoxChain { links: p.whole("links")?, ..BoxChain::BOOK };
        Ok(Box::new(Chain {
            system: model.build()?,
            model,
            substeps: p.whole("substeps")?,
            iterations: p.whole("iterations")?,
            worst_gap: 0.0,
            mouse: None,
            pointer: Vector3::zeros(),
        }))
    },
};

/// The fastest the reader's hand moves what it holds (m/s), in either demo: a
/// body let go at it rises at most 0.46 m.
const FASTEST: f64 = 3.0;

/// Gravity (m/s²), for how high a throw rises.
const G: f64 = 9.81;

/// `at` moved into the rectangle `view` (x_min, x_max, y_min, y_max) if it is
/// outside: the hand pulls towards the picture's nearest point.
fn inside([x, y]: [f64; 2], [x0, x1, y0, y1]: [f64; 4]) -> [f64; 2] {
    [x.clamp(x0, x1), y.clamp(y0, y1)]
}

/// The compliance of the hand's joint in the chain demo (m/N): the `pbd/drag`
/// exercise's default.
const HAND_COMPLIANCE: f64 = 1e-3;

struct Chain {
    system: BodySystem,
    model: BoxChain,
    substeps: usize,
    iterations: usize,
    worst_gap: f64,
    /// The index of the hand's joint while a box is held.
    mouse: Option<usize>,
    /// Where the pointer is (inside the picture): the hand's joint moves towards
    /// it at most [`FASTEST`].
    pointer: Vector3<f64>,
}

impl Chain {
    /// The box under world point `at`, and `at` in its own frame.
    fn grab(&self, at: &Vector3<f64>) -> Option<(usize, Vector3<f64>)> {
        let [w, l, _] = self.model.size;
        self.system.bodies.iter().enumerate().find_map(|(i, body)| {
            let local = body.rotation().transpose() * (at - body.x);
            // A finger's margin around the box: half its length.
            let margin = 0.5 * l;
            (local.x.abs() <= 0.5 * w + margin && local.y.abs() <= 0.5 * l + margin)
                .then_some((i, Vector3::new(local.x, local.y, 0.0)))
        })
    }
}

impl Demo for Chain {
    fn frame(&mut self) -> Result<(), PbmError> {
        if let Some(k) = self.mouse {
            // The hand follows the pointer at its real speed, up to FASTEST.
            let here = self.system.joints[k].b.position(&self.system.bodies);
            let d = self.pointer - here;
            let [x, y, z] = capped([d.x, d.y, d.z], FASTEST * FRAME);
            self.system.joints[k].b = Anchor::World(here + Vector3::new(x, y, z));
        }
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

    fn pointer(&mut self, event: Pointer, [x, y]: [f64; 2]) -> bool {
        let at = Vector3::new(x, y, 0.0);
        let reach = self.model.links as f64 * self.model.size[1] * 1.1;
        let [x, y] = inside([x, y], [-reach, reach, -1.05 * reach, 0.15 * reach]);
        self.pointer = Vector3::new(x, y, 0.0);
        match (event, self.mouse) {
            (Pointer::Down, None) => {
                let Some((body, local)) = self.grab(&at) else { return false };
                let hand = Anchor::Body { body, local };
                let joint = Joint::new(hand, Anchor::World(at), 0.0, HAND_COMPLIANCE);
                self.mouse = joint.and_then(|j| self.system.add_joint(j)).ok();
                self.mouse.is_some()
            }
            (Pointer::Move | Pointer::Down, Some(_)) => true,
            (Pointer::Up, Some(k)) => {
                self.system.joints.remove(k);
                self.mouse = None;
                true
            }
            (_, None) => false,
        }
    }

    fn bodies(&self) -> Vec<Whereabouts> {
        let [w, l, _] = self.model.size;
        let corners = [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]];
        let body = |body: &crate::rigid::Body| {
            let corner = |[a, b]: [f64; 2]| {
                let p =
                    body.world_point(&Vector3::new(0.5 * a * w, 0.5 * b * l, 0.0));
                [p.x, p.y]
            };
            Whereabouts::of(corners.map(corner)).gripped_at([body.x.x, body.x.y])
        };
        self.system.bodies.iter().map(body).collect()
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
        if let Some(k) = self.mouse {
            let joint = &self.system.joints[k];
            let ends = [&joint.a, &joint.b].map(|a| {
                let p = a.position(&self.system.bodies);
                [p.x, p.y]
            });
            out.polyline(Ink::Second, ends.into_iter());
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

/// The net demo's picture (m).
const NET_VIEW: [f64; 4] = [-0.6, 1.6, -1.9, 0.25];

/// The demo of chapter 10's net (the exercise `pbd/net`), which the pointer drags.
pub const NET: DemoSpec = DemoSpec {
    id: "pbd/net",
    title: "A net of particles by XPBD: grab it",
    params: &[
        Param::exercise("n", [10.0, 3.0, 20.0]).in_whole_numbers(),
        Param::exercise("compliance", [1e-4, 1e-7, 1e-1]).in_ratios(),
        Param::exercise("substeps", [10.0, 1.0, 40.0]).in_whole_numbers(),
    ],
    readouts: &[
        Readout::plain("t", "s"),
        Readout::inked("largest stretch", "% of spacing", Ink::First),
        Readout::plain("lowest point", "m"),
    ],
    plot: Plot::over("t", &["largest stretch"]),
    view: |_| Ok(NET_VIEW),
    drag: Some(
        "Press on any particle of the net and drag it; let go, and it flies at the \
         hand's speed, up to 3 m/s.",
    ),
    build: |p| {
        let net = Net { n: p.whole("n")?, compliance: p.get("compliance")? };
        Ok(Box::new(Netting {
            system: net.build()?,
            net,
            substeps: p.whole("substeps")?,
            params: p.clone(),
            grabbed: None,
            hand: Vector2::zeros(),
            held: [Vector2::zeros(); 2],
        }))
    },
};

struct Netting {
    system: PbdSystem<2>,
    net: Net,
    substeps: usize,
    params: Values,
    /// The particle the reader holds, if any.
    grabbed: Option<usize>,
    /// Where the pointer is (inside the picture), and where the hand held the
    /// particle in the last frame and the one before (m): the hand follows the
    /// pointer at most [`FASTEST`].
    hand: Vector2<f64>,
    held: [Vector2<f64>; 2],
}

impl Netting {
    /// The free particle nearest `at`, within 8 cm.
    fn nearest(&self, at: Vector2<f64>) -> Option<usize> {
        let w = self.system.inverse_masses();
        self.system
            .particles
            .particles
            .iter()
            .enumerate()
            .filter(|&(k, p)| w[k] > 0.0 && (p.x - at).norm() < 0.08)
            .min_by(|a, b| (a.1.x - at).norm().total_cmp(&(b.1.x - at).norm()))
            .map(|(k, _)| k)
    }
}

impl Demo for Netting {
    fn frame(&mut self) -> Result<(), PbmError> {
        if let Some(k) = self.grabbed {
            let [_, now] = self.held;
            let d = self.hand - now;
            let [x, y] = capped([d.x, d.y], FASTEST * FRAME);
            self.held = [now, now + Vector2::new(x, y)];
            self.system.hold(k, Some(self.held[1]), Vector2::zeros())?;
        }
        self.system.frame(FRAME, self.substeps, 1)
    }

    fn readouts(&self) -> Vec<f64> {
        let stretch = largest_stretch(&self.system, &self.net).unwrap_or(f64::NAN);
        vec![self.system.particles.t, 100.0 * stretch, lowest(&self.system)]
    }

    fn draw(&self, out: &mut Drawing) {
        let n = self.net.n;
        let x = |i: usize, j: usize| {
            let p = self.system.particles.particles[self.net.id(i, j)].x;
            [p.x, p.y]
        };
        for i in 0..n {
            out.polyline(Ink::First, (0..n).map(|j| x(i, j)));
            out.polyline(Ink::First, (0..n).map(|j| x(j, i)));
        }
        for j in [0, n - 1] {
            out.disc(Ink::Foreground, x(0, j), 5.0);
        }
        if let Some(k) = self.grabbed {
            let p = self.system.particles.particles[k].x;
            out.disc(Ink::Foreground, [p.x, p.y], 4.0);
        }
    }

    fn pointer(&mut self, event: Pointer, [x, y]: [f64; 2]) -> bool {
        // The hand holds the particle inside the picture.
        let [x, y] = inside([x, y], NET_VIEW);
        let at = Vector2::new(x, y);
        self.hand = at;
        match (event, self.grabbed) {
            (Pointer::Down, _) => {
                self.grabbed = self.nearest(at);
                self.held = [at, at];
                self.grabbed.is_some_and(|k| {
                    self.system.hold(k, Some(at), Vector2::zeros()).is_ok()
                })
            }
            (Pointer::Move, Some(_)) => true,
            (Pointer::Up, Some(k)) => {
                // The hand's speed over the last frame (at most FASTEST), and up
                // no faster than rises to the picture's top.
                let [before, now] = self.held;
                let mut throw = (now - before) / FRAME;
                let room = (NET_VIEW[3] - 0.05 - now.y).max(0.0);
                throw.y = throw.y.min((2.0 * G * room).sqrt());
                self.grabbed = None;
                self.system.hold(k, None, throw).is_ok()
            }
            (_, None) => false,
        }
    }

    fn bodies(&self) -> Vec<Whereabouts> {
        // One net, taken by the last particle free to move.
        let w = self.system.inverse_masses();
        let particles = &self.system.particles.particles;
        let points = particles.iter().rev().map(|p| [p.x.x, p.x.y]);
        let free = particles.iter().zip(w).rev().find(|(_, w)| **w > 0.0);
        let net = Whereabouts::of(points);
        vec![free.map_or(net, |(p, _)| net.gripped_at([p.x.x, p.x.y]))]
    }

    fn retune(&mut self, params: &Values) -> bool {
        // A new compliance or substep count applies to the running net; a new n
        // starts over.
        if params.get("n").ok() != self.params.get("n").ok() {
            return false;
        }
        let (Ok(compliance), Ok(substeps)) =
            (params.get("compliance"), params.whole("substeps"))
        else {
            return false;
        };
        let Ok(stiffness) = Stiffness::xpbd(compliance) else { return false };
        for c in &mut self.system.constraints {
            c.stiffness = stiffness;
        }
        self.net.compliance = compliance;
        self.substeps = substeps;
        self.params = params.clone();
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_net_follows_the_hand_and_flies_off_at_its_speed() {
        let spec = &NET;
        let mut demo = spec.create(&spec.defaults()).unwrap();
        for _ in 0..60 {
            demo.frame().unwrap();
        }
        let stretch_hanging = demo.readouts()[1];
        // Nothing to grab far from the net.
        assert!(!demo.pointer(Pointer::Down, [1.5, 0.2]));
        // The bottom-left corner hangs near (0, −1): grab it and pull it down.
        assert!(demo.pointer(Pointer::Down, [0.0, -1.0]));
        for k in 1..=30 {
            let y = -1.0 - 0.01 * f64::from(k);
            assert!(demo.pointer(Pointer::Move, [0.0, y]));
            demo.frame().unwrap();
        }
        let stretched = demo.readouts();
        assert!((stretched[2] + 1.3).abs() < 1e-12, "{stretched:?}");
        assert!(stretched[1] > stretch_hanging, "{stretched:?} vs {stretch_hanging}");
        // Let go 1 cm lower than at the last frame: it leaves at 1 cm a frame.
        assert!(demo.pointer(Pointer::Up, [0.0, -1.31]));
        assert!(!demo.pointer(Pointer::Move, [0.0, -1.0]));
        demo.frame().unwrap();
        assert!(demo.readouts().iter().all(|v| v.is_finite()));
    }
}
