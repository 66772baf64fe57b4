//! The chapter's live demos (WebAssembly in the pages).
//!
//! Chapter 8: a box dropped corner first onto the ground. Impacts are resolved by
//! impulses, resting contacts by forces from the LCP, until it lies still.

use crate::scenes;
use crate::world::{Settings, World};
use nalgebra::Vector3;
use pbm_prelim::PbmError;
use pbm_prelim::demo::{
    Agreement, Camera, Demo, DemoSpec, Drawing, Ink, Param, Readout,
};

/// The chapter's demos, in the book's order.
pub const DEMOS: &[DemoSpec] = &[DROP];

/// The numbers the demos show that the chapter's exercises print too (checked
/// natively by `tests/demos.rs` and in the browser).
pub const AGREEMENTS: &[Agreement] = &[
    Agreement::new("contact/drop", &[0.5, 0.5, 0.0], 120, 1).matches(
        "contact/drop",
        &["t_end=2"],
        "/impacts",
    ),
    Agreement::new("contact/drop", &[0.5, 0.5, 0.0], 120, 4).matches(
        "contact/drop",
        &["t_end=2"],
        "/end_energy_j",
    ),
];

/// The page's frame (s).
const FRAME: f64 = 1.0 / 60.0;

/// The demo of chapter 8's dropped box (the exercise `contact/drop`).
pub const DROP: DemoSpec = DemoSpec {
    id: "contact/drop",
    title: "A 0.4 × 0.2 × 0.3 m box dropped corner first",
    params: &[
        Param::linear("height", "drop height", "m", [0.5, 0.05, 1.0]),
        Param::linear("restitution", "restitution e", "", [0.5, 0.0, 1.0]),
        Param::linear("friction", "friction μ", "", [0.0, 0.0, 1.0]),
    ],
    readouts: &[
        Readout::plain("t", "s"),
        Readout::plain("impacts", ""),
        Readout::plain("contacts held by forces now", ""),
        Readout::plain("height of its centre", "m"),
        Readout::plain("energy, kinetic + potential", "J"),
    ],
    view: |p| Ok([-0.6, 0.6, -0.15, p.get("height")? + 0.3]),
    drag: None,
    build: |p| {
        let settings = Settings {
            restitution: p.get("restitution")?,
            friction: p.get("friction")?,
            ..Settings::default()
        };
        Ok(Box::new(Dropped {
            world: scenes::drop(p.get("height")?, settings)?,
            frames: 0,
        }))
    },
};

struct Dropped {
    world: World,
    frames: u32,
}

impl Demo for Dropped {
    fn frame(&mut self) -> Result<(), PbmError> {
        // The steps `run_until` takes to the end of this frame; frames only decide
        // where the page looks, not how the world steps.
        self.frames += 1;
        let end = f64::from(self.frames) * FRAME;
        while self.world.time() < end - 1e-12 {
            self.world.step()?;
        }
        Ok(())
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

    fn draw(&self, out: &mut Drawing) {
        let camera = Camera::looking_from(Vector3::new(0.5, 0.45, 1.0));
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
    }
}
