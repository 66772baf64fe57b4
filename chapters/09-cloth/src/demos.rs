//! The chapter's live demos (WebAssembly in the pages).
//!
//! Chapter 9: a square of cotton dropped onto a sphere (or hung from a rail), one
//! backward Euler step of 1/60 s per frame, its linear system solved by conjugate
//! gradients.

use crate::cloth::{Cloth, Material};
use crate::scenes::{SPHERE, Scene, cloth};
use nalgebra::Vector3;
use pbm_prelim::PbmError;
use pbm_prelim::demo::{
    Agreement, Camera, Demo, DemoSpec, Demos, Drawing, FRAME, Ink, Param, Plot,
    Pointer, Readout,
};
use std::f64::consts::TAU;

/// The chapter's demos, and the numbers they show that its exercises print too.
pub const DEMOS: Demos = Demos {
    specs: &[DRAPE],
    agreements: &[
        // One step of 1/60 s a frame, written to the last digit of the f64.
        // The shear angle's and the hinge's atan2 (see `tolerance`): measured
        // 6e-11 relative after 60 steps.
        Agreement::demo("cloth/drape")
            .set(&["scene=drape over a sphere", "n=8", "stretch=1000"])
            .frames(60)
            .readout("lowest point")
            .matches(
                "cloth/drape",
                &["n=8", "h=0.016666666666666666", "t_end=1"],
                "/lowest_z_m",
            )
            .within(1e-9),
        // The shear angle's and the hinge's atan2 (see `tolerance`): measured
        // 6e-11 relative after 60 steps.
        Agreement::demo("cloth/drape")
            .set(&["scene=drape over a sphere", "n=8", "stretch=1000"])
            .frames(60)
            .readout("deepest particle inside the sphere")
            .matches(
                "cloth/drape",
                &["n=8", "h=0.016666666666666666", "t_end=1"],
                "/max_penetration_mm",
            )
            .within(1e-9),
    ],
};

/// The demo of chapter 9's drape (the exercise `cloth/drape`).
pub const DRAPE: DemoSpec = DemoSpec {
    id: "cloth/drape",
    title: "A 1 m square of cotton, one backward Euler step per frame",
    params: &[
        Param::choice("scene", "scene", &["drape over a sphere", "curtain"]),
        Param::exercise("n", [6.0, 4.0, 14.0]).in_whole_numbers(),
        Param::exercise("stretch", [1000.0, 10.0, 10000.0]).in_ratios(),
    ],
    readouts: &[
        Readout::plain("t", "s"),
        Readout::plain("CG iterations, last step", ""),
        Readout::plain("CG iterations per step, mean", ""),
        Readout::plain("lowest point", "m"),
        Readout::plain("deepest particle inside the sphere", "mm"),
        Readout::plain("kinetic energy", "J"),
    ],
    plot: Plot::over("t", &["CG iterations, last step"]),
    view: |p| match p.whole("scene")? {
        0 => Ok([-0.85, 0.85, -0.75, 0.55]),
        _ => Ok([-0.85, 0.85, -1.15, 0.25]),
    },
    drag: Some(
        "Grab the cloth anywhere and pull: the particle you hold is a pin that moves \
         with the pointer, held by the solve's filter; let go, and it leaves at the \
         hand's speed.",
    ),
    build: |p| {
        let scene = [Scene::Drape, Scene::Curtain][p.whole("scene")?];
        let material = Material { stretch: p.get("stretch")?, ..Material::COTTON };
        let n = p.whole("n")?;
        Ok(Box::new(Drape {
            cloth: cloth(scene, n, material)?,
            n,
            scene,
            last: 0,
            total: 0,
            steps: 0,
            hand: None,
        }))
    },
};

struct Drape {
    cloth: Cloth,
    n: usize,
    scene: Scene,
    last: usize,
    total: usize,
    steps: usize,
    /// The particle the reader holds, where the pointer is, and whether the
    /// particle was pinned before.
    hand: Option<(usize, [f64; 2], bool)>,
}

/// The demo's view: orthographic, from a fixed direction.
fn camera() -> Camera {
    Camera::looking_from(Vector3::new(0.35, 0.5, 1.0))
}

/// How close to a particle a press must be to take it (m).
const REACH: f64 = 0.12;

impl Drape {
    /// Where the held particle goes: the pointer, at the particle's own depth.
    fn target(&self, i: usize, at: [f64; 2]) -> Vector3<f64> {
        let camera = camera();
        let x = upright(&self.cloth.x[i]);
        let [px, py] = camera.project(&x);
        let u = x + camera.lift([at[0] - px, at[1] - py]);
        // Back from the screen's z-up to the cloth's world.
        Vector3::new(u.x, -u.z, u.y)
    }
}

/// The screen sees the cloth's world with z up.
fn upright(x: &Vector3<f64>) -> Vector3<f64> {
    Vector3::new(x.x, x.z, -x.y)
}

impl Demo for Drape {
    fn frame(&mut self) -> Result<(), PbmError> {
        if let Some((i, at, _)) = self.hand {
            // A pin moving to the pointer within the step: Δv = 0 keeps this v.
            let target = self.target(i, at);
            self.cloth.pinned[i] = true;
            self.cloth.v[i] = (target - self.cloth.x[i]) / FRAME;
        }
        let step = self.cloth.backward_euler_step(FRAME)?;
        self.last = step.cg.iterations;
        self.total += step.cg.iterations;
        self.steps += 1;
        Ok(())
    }

    fn readouts(&self) -> Vec<f64> {
        let x = &self.cloth.x;
        let lowest = x.iter().map(|x| x.z).fold(f64::INFINITY, f64::min);
        // As the exercise measures it (`penetration`).
        let inside = match self.scene {
            Scene::Drape => {
                let depth =
                    x.iter().map(|x| SPHERE.radius - (x - SPHERE.center).norm());
                depth.fold(0.0, f64::max) * 1e3
            }
            Scene::Curtain => f64::NAN,
        };
        let mean = if self.steps == 0 {
            f64::NAN
        } else {
            self.total as f64 / self.steps as f64
        };
        let kinetic = self.cloth.energies().map_or(f64::NAN, |e| e.kinetic);
        vec![self.cloth.t, self.last as f64, mean, lowest, inside, kinetic]
    }

    fn pointer(&mut self, event: Pointer, at: [f64; 2]) -> bool {
        match (event, self.hand) {
            (Pointer::Down, None) => {
                let camera = camera();
                let distance = |x: &Vector3<f64>| {
                    let [px, py] = camera.project(&upright(x));
                    (px - at[0]).hypot(py - at[1])
                };
                let nearest = (0..self.cloth.x.len())
                    .map(|i| (distance(&self.cloth.x[i]), i))
                    .min_by(|a, b| a.0.total_cmp(&b.0));
                match nearest {
                    Some((d, i)) if d <= REACH => {
                        self.hand = Some((i, at, self.cloth.pinned[i]));
                        true
                    }
                    _ => false,
                }
            }
            (Pointer::Down | Pointer::Move, Some((i, _, was))) => {
                self.hand = Some((i, at, was));
                true
            }
            (Pointer::Up, Some((i, _, was))) => {
                self.cloth.pinned[i] = was;
                if was {
                    self.cloth.v[i] = Vector3::zeros();
                }
                self.hand = None;
                true
            }
            (_, None) => false,
        }
    }

    fn draw(&self, out: &mut Drawing) {
        let camera = camera();
        if self.scene == Scene::Drape {
            // An orthographic view of a sphere is a circle of its radius.
            let c = camera.project(&upright(&SPHERE.center));
            let rim = (0..97).map(|i| {
                let a = TAU * i as f64 / 96.0;
                [c[0] + SPHERE.radius * a.cos(), c[1] + SPHERE.radius * a.sin()]
            });
            out.polygon(Ink::Muted, rim);
        }
        // The threads: every row and every column of particles.
        let n = self.n;
        let at =
            |i: usize, j: usize| camera.project(&upright(&self.cloth.x[i * n + j]));
        for i in 0..n {
            out.polyline(Ink::First, (0..n).map(|j| at(i, j)));
            out.polyline(Ink::First, (0..n).map(|j| at(j, i)));
        }
    }
}
