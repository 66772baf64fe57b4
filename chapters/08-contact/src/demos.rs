//! The chapter's live demos (WebAssembly in the pages).
//!
//! Chapter 8: a box dropped corner first onto the ground. Impacts are resolved by
//! impulses, resting contacts by forces from the LCP, until it lies still.

use crate::scenes;
use crate::world::{Settings, World};
use nalgebra::Vector3;
use pbm_prelim::PbmError;
use pbm_prelim::Quantity;
use pbm_prelim::demo::{
    Agreement, Camera, Demo, DemoSpec, Demos, Drawing, FRAME, Ink, Param, Plot,
    Pointer, Readout,
};

/// The chapter's demos, and the numbers they show that its exercises print too.
pub const DEMOS: Demos = Demos {
    specs: &[DROP],
    agreements: &[
        Agreement::demo("contact/drop")
            .set(&["height=0.5", "restitution=0.5", "friction=0"])
            .frames(120)
            .readout("impacts")
            .matches("contact/drop", &["t_end=2"], "/impacts"),
        Agreement::demo("contact/drop")
            .set(&["height=0.5", "restitution=0.5", "friction=0"])
            .frames(120)
            .readout("energy, kinetic + potential")
            .matches("contact/drop", &["t_end=2"], "/end_energy_j"),
    ],
};

/// The demo of chapter 8's dropped box (the exercise `contact/drop`).
pub const DROP: DemoSpec = DemoSpec {
    id: "contact/drop",
    title: "A 0.4 × 0.2 × 0.3 m box dropped corner first",
    params: &[
        Param::exercise("height", [0.5, 0.05, 1.0]),
        Param::exercise("restitution", [0.5, 0.0, 1.0]),
        Param::of("friction", Quantity::FRICTION, [0.0, 0.0, 1.0])
            .demo_only("the exercise drops the box without friction"),
    ],
    readouts: &[
        Readout::plain("t", "s"),
        Readout::plain("impacts", ""),
        Readout::plain("contacts held by forces now", ""),
        Readout::plain("height of its centre", "m"),
        Readout::plain("energy, kinetic + potential", "J"),
    ],
    plot: Plot::over("t", &["energy, kinetic + potential"]),
    view: |p| Ok([-0.6, 0.6, -0.15, p.get("height")? + 0.3]),
    drag: Some(
        "Flick the box: press on it, drag and let go. The drag is an impulse at the \
         point you pressed, and the box flies, tumbles and lands again.",
    ),
    build: |p| {
        let settings = Settings {
            restitution: p.get("restitution")?,
            friction: p.get("friction")?,
            ..Settings::default()
        };
        Ok(Box::new(Dropped {
            world: scenes::drop(p.get("height")?, settings)?,
            frames: 0,
            pressed: None,
        }))
    },
};

struct Dropped {
    world: World,
    frames: u32,
    /// Where the reader pressed, and where the pointer is now (screen, m).
    pressed: Option<([f64; 2], [f64; 2])>,
}

/// The demo's view: orthographic, from a fixed direction.
fn camera() -> Camera {
    Camera::looking_from(Vector3::new(0.5, 0.45, 1.0))
}

/// The impulse per metre of drag, per kilogram of the box (N s/(m kg)).
const FLICK: f64 = 4.0;

impl Demo for Dropped {
    fn frame(&mut self) -> Result<(), PbmError> {
        // The steps `run_until` takes to the end of this frame (within its step
        // budget); frames only decide where the page looks, not how the world steps.
        self.frames += 1;
        let end = f64::from(self.frames) * FRAME;
        self.world.run_until(end, |_| {})
    }

    fn readouts(&self) -> Vec<f64> {
        let body = &self.world.bodies()[0];
        vec![
            self.world.time(),
            self.world.stats().impacts as f64,
            self.world.last_normal_forces().len() as f64,
            body.position().y,
            self.world.energy(),
        ]
    }

    fn pointer(&mut self, event: Pointer, at: [f64; 2]) -> bool {
        let camera = camera();
        let centre = self.world.bodies()[0].position();
        let [cx, cy] = camera.project(&centre);
        match (event, self.pressed) {
            (Pointer::Down, _) => {
                // On the box, near enough: within its longest half-diagonal.
                if (at[0] - cx).hypot(at[1] - cy) > 0.27 {
                    return false;
                }
                self.pressed = Some((at, at));
                true
            }
            (Pointer::Move, Some((from, _))) => {
                self.pressed = Some((from, at));
                true
            }
            (Pointer::Up, Some((from, _))) => {
                self.pressed = None;
                let point = centre + camera.lift([from[0] - cx, from[1] - cy]);
                let drag = camera.lift([at[0] - from[0], at[1] - from[1]]);
                let mass = self.world.bodies()[0].mass();
                self.world.strike(0, &point, &(drag * (FLICK * mass))).is_ok()
            }
            (_, None) => false,
        }
    }

    fn draw(&self, out: &mut Drawing) {
        let camera = camera();
        let floor = [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]];
        out.polygon(
            Ink::Muted,
            floor.into_iter().map(|[x, z]| camera.project(&Vector3::new(x, 0.0, z))),
        );
        let Some(solid) = self.world.placed(0) else { return };
        let rotation = self.world.bodies()[0].rotation();
        let inks = [Ink::First, Ink::Second, Ink::Third];
        for (f, face) in solid.faces().iter().enumerate() {
            let normal = solid.normal(f);
            if !camera.sees(&normal) {
                continue;
            }
            // Coloured by the body axis the face is perpendicular to.
            let local = rotation.transpose() * normal;
            let axis = local.iamax();
            out.polygon(
                inks[axis],
                face.iter().map(|&v| camera.project(&solid.vertices()[v])),
            );
        }
        if let Some((from, to)) = self.pressed {
            out.polyline(Ink::Foreground, [from, to].into_iter());
            out.disc(Ink::Foreground, from, 4.0);
        }
    }
}
