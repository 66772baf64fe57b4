//! The chapter's live demos (WebAssembly in the pages).
//!
//! Chapter 8: a box dropped corner first onto the ground. Impacts are resolved by
//! impulses, resting contacts by forces from the LCP, until it lies still.

use crate::scenes;
use crate::world::{Fixture, Settings, World};
use nalgebra::{UnitQuaternion, Vector3};
use pbm_collision::polyhedron::ConvexPolyhedron;
use pbm_prelim::PbmError;
use pbm_prelim::Quantity;
use pbm_prelim::demo::{
    Agreement, Demo, DemoSpec, Demos, Drawing, FRAME, Ink, Param, Plot, Pointer,
    Readout, Values, Whereabouts, capped,
};
use pbm_prelim::orbit::{self, Face, Orbit, Painter};

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
        orbit::view(25.0),
    ],
    readouts: &[
        Readout::plain("t", "s"),
        Readout::plain("impacts", ""),
        Readout::plain("contacts held by forces now", ""),
        Readout::plain("height of its centre", "m"),
        Readout::plain("energy, kinetic + potential", "J"),
    ],
    plot: Plot::over("t", &["energy, kinetic + potential"]),
    // The room seen from any side: its floor's corners 0.57 m from the middle,
    // its ceiling's raised by the camera's elevation.
    view: |p| {
        let (sin, cos) = ELEVATION.to_radians().sin_cos();
        let corner = ROOM * std::f64::consts::SQRT_2;
        let top = cos * ceiling(p.get("height")?) + sin * corner;
        Ok([-0.6, 0.6, -0.2, top + 0.02])
    },
    drag: Some(
        "Flick the box: press on it, drag and let go. The drag is an impulse at the \
         point you pressed, and the box flies, tumbles and lands again, inside walls \
         at the edges of the ground and under a ceiling.",
    ),
    build: |p| {
        let settings = Settings {
            restitution: p.get("restitution")?,
            friction: p.get("friction")?,
            ..Settings::default()
        };
        Ok(Box::new(Dropped {
            world: room(p.get("height")?, settings)?,
            frames: 0,
            pressed: None,
            orbit: Orbit::new(p, ELEVATION)?,
            ceiling: ceiling(p.get("height")?),
        }))
    },
};

struct Dropped {
    world: World,
    frames: u32,
    /// Where the reader pressed, and where the pointer is now (screen, m).
    pressed: Option<([f64; 2], [f64; 2])>,
    /// The camera, turned by the view slider.
    orbit: Orbit,
    /// The height of the room's ceiling (m).
    ceiling: f64,
}

/// The camera's height above the horizon (°).
const ELEVATION: f64 = 20.0;

/// The spacing of the grid on the room's floor (m).
const GRID: f64 = 0.1;

/// The impulse per metre of drag, per kilogram of the box (N s/(m kg)).
const FLICK: f64 = 4.0;

/// The fastest a flick sends the box (m/s): up, 0.46 m.
const FASTEST: f64 = 3.0;

/// The room's walls stand this far from the middle (m), along x and along z.
const ROOM: f64 = 0.4;

/// The room's ceiling for a drop from `height` (m): over the box's highest corner.
fn ceiling(height: f64) -> f64 {
    height + 0.55
}

/// [`scenes::drop`]'s box, placed as it places it, in a room the reader cannot
/// throw it out of: the ground, four walls and a ceiling, each a slab 1 m thick
/// like the ground, so that the world's step limit (the thinnest fixture) is the
/// exercise's, and nowhere near the box until a flick sends it there.
fn room(height: f64, settings: Settings) -> Result<World, PbmError> {
    let slab = |centre: Vector3<f64>, half: Vector3<f64>| {
        let solid = ConvexPolyhedron::cuboid(centre, half)?;
        Ok::<_, PbmError>(Fixture {
            solid,
            centre: Vector3::zeros(),
            spin: Vector3::zeros(),
        })
    };
    let (w, top, far) = (ROOM + 0.5, ceiling(height) + 0.5, 20.0);
    let fixtures = vec![
        scenes::ground()?,
        slab(Vector3::new(w, 0.0, 0.0), Vector3::new(0.5, far, far))?,
        slab(Vector3::new(-w, 0.0, 0.0), Vector3::new(0.5, far, far))?,
        slab(Vector3::new(0.0, 0.0, w), Vector3::new(far, far, 0.5))?,
        slab(Vector3::new(0.0, 0.0, -w), Vector3::new(far, far, 0.5))?,
        slab(Vector3::new(0.0, top, 0.0), Vector3::new(far, 0.5, far))?,
    ];
    let mut world = World::new(settings, fixtures)?;
    // As `scenes::drop`: turned 30° about z and 10° about x, lowest corner at
    // `height`.
    let size = scenes::DROP_SIZE;
    let turn = UnitQuaternion::from_axis_angle(&Vector3::x_axis(), 0.17)
        * UnitQuaternion::from_axis_angle(&Vector3::z_axis(), 0.52);
    let lowest = ConvexPolyhedron::cuboid(Vector3::zeros(), size * 0.5)?
        .placed(Vector3::zeros(), turn)
        .vertices()
        .iter()
        .map(|v| v.y)
        .fold(f64::INFINITY, f64::min);
    let centre = Vector3::new(0.0, height - lowest, 0.0);
    world.add_box(size, 1.0, centre, turn, (Vector3::zeros(), Vector3::zeros()))?;
    Ok(world)
}

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
        let camera = self.orbit.camera;
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
                // The hand's speed is real, but no flick sends the box faster
                // than FASTEST.
                let drag =
                    capped([at[0] - from[0], at[1] - from[1]], FASTEST / FLICK);
                let drag = camera.lift(drag);
                let mass = self.world.bodies()[0].mass();
                self.world.strike(0, &point, &(drag * (FLICK * mass))).is_ok()
            }
            (_, None) => false,
        }
    }

    fn bodies(&self) -> Vec<Whereabouts> {
        let camera = self.orbit.camera;
        let Some(solid) = self.world.placed(0) else { return Vec::new() };
        let corners = solid.vertices().iter().map(|v| camera.project(v));
        let centre = camera.project(&self.world.bodies()[0].position());
        vec![Whereabouts::of(corners).gripped_at(centre)]
    }

    fn retune(&mut self, params: &Values) -> bool {
        self.orbit.retune(params)
    }

    fn draw(&self, out: &mut Drawing) {
        let camera = &self.orbit.camera;
        // The floor and the far walls of the room.
        orbit::room(out, camera, 0.0, ROOM, self.ceiling, GRID);
        let Some(solid) = self.world.placed(0) else { return };
        let body = &self.world.bodies()[0];
        let rotation = body.rotation();
        let inks = [Ink::First, Ink::Second, Ink::Third];
        let faces: Vec<Face> = (solid.faces().iter().enumerate())
            .map(|(f, face)| {
                let normal = solid.normal(f);
                // Coloured by the body axis the face is perpendicular to.
                let axis = (rotation.transpose() * normal).iamax();
                let corners = face.iter().map(|&v| solid.vertices()[v]).collect();
                Face { ink: inks[axis], corners, normal }
            })
            .collect();
        // Its shadow says how high it is.
        orbit::shadow(out, camera, 0.0, &faces);
        let mut painter = Painter::new(camera);
        painter.convex(&body.position(), faces);
        painter.draw(out);
        if let Some((from, to)) = self.pressed {
            out.polyline(Ink::Foreground, [from, to].into_iter());
            out.disc(Ink::Foreground, from, 4.0);
        }
    }
}
