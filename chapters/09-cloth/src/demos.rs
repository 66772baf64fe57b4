//! The chapter's live demos (WebAssembly in the pages).
//!
//! Chapter 9: a square of cotton dropped onto a sphere (or hung from a rail), one
//! backward Euler step of 1/60 s per frame, its linear system solved by conjugate
//! gradients.

use crate::cloth::{Cloth, Material};
use crate::contact::Solid;
use crate::scenes::{SPHERE, Scene, cloth};
use nalgebra::Vector3;
use pbm_prelim::PbmError;
use pbm_prelim::demo::{
    Agreement, Demo, DemoSpec, Demos, Drawing, FRAME, Ink, Param, Plot, Pointer,
    Readout, Values, Whereabouts, capped,
};
use pbm_prelim::orbit::{self, Face, Orbit, Painter};

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
        Param::exercise("stretch", [1000.0, 10.0, 4000.0]).in_ratios(),
        orbit::view(20.0),
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
    // The stage seen from any side: a cylinder of its radius, tilted by the
    // camera's elevation.
    view: |p| {
        let stage = Stage::of([Scene::Drape, Scene::Curtain][p.whole("scene")?]);
        let (sin, cos) = ELEVATION.to_radians().sin_cos();
        let r = stage.radius;
        let (bottom, top) = (stage.floor * cos - r * sin, stage.top * cos + r * sin);
        Ok([-r - 0.05, r + 0.05, bottom - 0.03, top + 0.03])
    },
    drag: Some(
        "Grab the cloth anywhere and pull: the particle you hold is a pin that moves \
         with the pointer (at most 3 m/s), held by the solve's filter; let go, and it \
         leaves at that speed. The cloth lands on the ground; if it leaves the \
         picture, it is hung up again where it started.",
    ),
    build: |p| {
        let scene = [Scene::Drape, Scene::Curtain][p.whole("scene")?];
        let material = Material { stretch: p.get("stretch")?, ..Material::COTTON };
        let n = p.whole("n")?;
        Ok(Box::new(Drape {
            cloth: Stage::of(scene).dress(cloth(scene, n, material)?),
            n,
            scene,
            material,
            rehung: None,
            last: 0,
            total: 0,
            steps: 0,
            hand: None,
            orbit: Orbit::new(p, ELEVATION)?,
        }))
    },
};

struct Drape {
    cloth: Cloth,
    n: usize,
    scene: Scene,
    material: Material,
    /// When the cloth was last hung up again (s), and why.
    rehung: Option<(f64, &'static str)>,
    last: usize,
    total: usize,
    steps: usize,
    /// The particle the reader holds, where the pointer is, and whether the
    /// particle was pinned before.
    hand: Option<(usize, [f64; 2], bool)>,
    /// The camera, turned by the view slider.
    orbit: Orbit,
}

/// The camera's height above the horizon (°).
const ELEVATION: f64 = 25.0;

/// The spacing of the grid drawn on the ground (m).
const GRID: f64 = 0.25;

/// How close to a particle a press must be to take it (m).
const REACH: f64 = 0.12;

/// The fastest the hand moves the particle it holds (m/s): thrown up, the cloth
/// rises at most 0.46 m.
const FASTEST: f64 = 3.0;

/// Where the cloth may be, in its own world (z up): within `radius` of the
/// vertical through the origin, above the ground at `floor`, below `top` (m). The
/// ground is a solid the cloth lands on; a cloth that leaves the rest of the stage
/// is hung up again where it started.
struct Stage {
    radius: f64,
    floor: f64,
    top: f64,
}

impl Stage {
    fn of(scene: Scene) -> Stage {
        match scene {
            // The square's corners start 0.71 m out, 0.35 m up; the sphere stands
            // on the ground.
            Scene::Drape => Stage {
                radius: 0.75,
                floor: SPHERE.center.z - SPHERE.radius,
                top: 0.5,
            },
            // The curtain starts level with its rail, its far corners 1.12 m out;
            // the ground is under its hem.
            Scene::Curtain => Stage { radius: 1.15, floor: -1.05, top: 0.3 },
        }
    }

    /// `cloth` with the stage's ground under it: a box whose top is the floor,
    /// held by the solve's constraints, as rough as the sphere.
    fn dress(&self, mut cloth: Cloth) -> Cloth {
        let big = 50.0;
        cloth.solid = Some(Solid::Box {
            center: Vector3::new(0.0, 0.0, self.floor - big),
            half: Vector3::new(big, big, big),
        });
        cloth.solid_friction = SPHERE.friction;
        cloth
    }

    /// Whether `x` is on the stage (the ground's penetration tolerance allowed).
    fn holds(&self, x: &Vector3<f64>) -> bool {
        x.x.hypot(x.y) <= self.radius && x.z >= self.floor - 0.01 && x.z <= self.top
    }

    /// `x` moved onto the stage if it is off it.
    fn clamp(&self, x: Vector3<f64>) -> Vector3<f64> {
        let r = x.x.hypot(x.y);
        let s = if r > self.radius { self.radius / r } else { 1.0 };
        Vector3::new(x.x * s, x.y * s, x.z.clamp(self.floor, self.top))
    }
}

impl Drape {
    /// Where the held particle goes: the pointer, at the particle's own depth.
    fn target(&self, i: usize, at: [f64; 2]) -> Vector3<f64> {
        let camera = self.orbit.camera;
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

impl Drape {
    /// Hangs the cloth up again where it started, its clock running on, and says
    /// why in the note.
    fn hang_again(&mut self, why: &'static str) -> Result<(), PbmError> {
        let t = self.cloth.t + FRAME;
        let fresh = cloth(self.scene, self.n, self.material)?;
        self.cloth = Stage::of(self.scene).dress(fresh);
        self.cloth.t = t;
        self.hand = None;
        self.rehung = Some((t, why));
        Ok(())
    }
}

impl Demo for Drape {
    fn frame(&mut self) -> Result<(), PbmError> {
        let stage = Stage::of(self.scene);
        if let Some((i, at, _)) = self.hand {
            // A pin moving to the pointer within the step: Δv = 0 keeps this v.
            // The hand's speed is real, but capped, and it stays on the stage.
            let target = stage.clamp(self.target(i, at));
            let v = (target - self.cloth.x[i]) / FRAME;
            let [x, y, z] = capped([v.x, v.y, v.z], FASTEST);
            self.cloth.pinned[i] = true;
            self.cloth.v[i] = Vector3::new(x, y, z);
        }
        let step = match self.cloth.backward_euler_step(FRAME) {
            Ok(step) => step,
            Err(_) => {
                return self.hang_again("the step failed under the hand's pull");
            }
        };
        if !self.cloth.x.iter().all(|x| stage.holds(x)) {
            return self.hang_again("it left the picture");
        }
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
                let camera = self.orbit.camera;
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

    fn bodies(&self) -> Vec<Whereabouts> {
        // One cloth, taken by its middle particle.
        let camera = self.orbit.camera;
        let at = |x: &Vector3<f64>| camera.project(&upright(x));
        let middle = at(&self.cloth.x[self.cloth.x.len() / 2]);
        vec![Whereabouts::of(self.cloth.x.iter().map(at)).gripped_at(middle)]
    }

    fn note(&self) -> Option<String> {
        // Said for three seconds.
        let (t, why) = self.rehung.filter(|(t, _)| self.cloth.t - t < 3.0)?;
        Some(format!(
            "The cloth was hung up again where it started at t = {t:.1} s: {why}."
        ))
    }

    fn retune(&mut self, params: &Values) -> bool {
        self.orbit.retune(params)
    }

    fn draw(&self, out: &mut Drawing) {
        let camera = &self.orbit.camera;
        // The stage's ground: its floor (z in the cloth's world, y on screen).
        let stage = Stage::of(self.scene);
        let y = stage.floor;
        orbit::ground(out, camera, y, stage.radius, GRID);
        // Shaded triangles, back to front, over their shadows on the ground.
        let triangles: Vec<Face> = (self.cloth.triangles.iter())
            .map(|t| {
                let corners: Vec<_> =
                    t.corners.iter().map(|&i| upright(&self.cloth.x[i])).collect();
                let normal =
                    (corners[1] - corners[0]).cross(&(corners[2] - corners[0]));
                // Every triangle casts its shadow, whichever side is up.
                let normal = normal.try_normalize(0.0).unwrap_or(Vector3::y());
                let normal = if normal.y < 0.0 { -normal } else { normal };
                Face { ink: Ink::First, corners, normal }
            })
            .collect();
        let centre = upright(&SPHERE.center);
        let (ball, equator) = match self.scene {
            Scene::Drape => (
                orbit::ball(&centre, SPHERE.radius, 12, Ink::Second),
                vec![orbit::equator(&centre, SPHERE.radius, Ink::Second)],
            ),
            Scene::Curtain => (Vec::new(), Vec::new()),
        };
        orbit::shadow(out, camera, y, equator.iter().chain(&triangles));
        let mut painter = Painter::new(camera);
        painter.convex(&centre, ball);
        for triangle in &triangles {
            painter.sheet(triangle.ink, &triangle.corners);
        }
        painter.draw(out);
        if self.scene == Scene::Curtain {
            // The rail: the pinned top row.
            let rail =
                (0..self.n).map(|j| camera.project(&upright(&self.cloth.x[j])));
            out.polyline(Ink::Foreground, rail);
        }
    }
}
