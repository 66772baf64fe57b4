//! The chapter's live demos (WebAssembly in the pages).
//!
//! Chapter 6: a block spun about one of its principal axes. About the longest and
//! the shortest it keeps spinning; about the intermediate one it flips over and
//! over (the Dzhanibekov effect), while L and the energy stay put.

use crate::body::{Representation, RigidBody, RigidBodyDef, RigidSystem};
use crate::scenes::{DZHANIBEKOV_OMEGA, TUMBLING_BLOCK_SIZE, tumbling_block};
use nalgebra::{Matrix3, Vector3};
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::tableau::RK4;
use pbm_prelim::PbmError;
use pbm_prelim::demo::{
    Agreement, Demo, DemoSpec, Demos, Drawing, Ink, Param, Plot, Pointer, Readout,
    Values, Whereabouts, capped,
};
use pbm_prelim::orbit::{self, Orbit, Painter};

/// The chapter's demos, and the numbers they show that its exercises print too.
pub const DEMOS: Demos = Demos {
    specs: &[DZHANIBEKOV],
    agreements: &[Agreement::demo("rigid/dzhanibekov")
        .set(&["axis=y (intermediate)"])
        .frames(500)
        .readout("spin about the body's y axis")
        .matches("rigid/dzhanibekov", &["t_end=10"], "/final_body_omega/1")],
};

/// The exercise's step (s).
pub const H: f64 = 1e-3;

/// Steps per frame of the page: 20 ms of simulated time, a little faster than life.
pub const STEPS_PER_FRAME: usize = 20;

/// The demo of chapter 6's Dzhanibekov figures (the exercise `rigid/dzhanibekov`).
pub const DZHANIBEKOV: DemoSpec = DemoSpec {
    id: "rigid/dzhanibekov",
    title: "A 1 × 2 × 3 m block spun about one axis, 0.01 rad/s off",
    params: &[
        Param::choice(
            "axis",
            "spin about",
            &[
                "y (intermediate)",
                "x (1 m, largest moment)",
                "z (3 m, smallest moment)",
            ],
        )
        .demo_only("the exercise spins about the intermediate axis"),
        orbit::view(25.0),
    ],
    readouts: &[
        Readout::plain("t", "s"),
        Readout::plain("spin about the body's x axis", "rad/s"),
        Readout::plain("spin about the body's y axis", "rad/s"),
        Readout::plain("spin about the body's z axis", "rad/s"),
        Readout::plain("flips of the y spin", ""),
        Readout::plain("energy drift (relative)", ""),
    ],
    plot: Plot::over(
        "t",
        &[
            "spin about the body's x axis",
            "spin about the body's y axis",
            "spin about the body's z axis",
        ],
    ),
    // The block within its half-diagonal of the origin, and the ground below.
    view: |_| Ok([-2.2, 2.2, -2.6, 2.2]),
    drag: Some(
        "Flick the block: press on it, drag and let go. The drag is a spin impulse, a \
         couple applied where you pressed, so the block turns without flying off; spun \
         about its intermediate axis it still flips.",
    ),
    build: |p| {
        // The exercise's spin about y; about x or z the same 5 rad/s, the same nudge.
        let [a, b, c] =
            [DZHANIBEKOV_OMEGA.x, DZHANIBEKOV_OMEGA.y, DZHANIBEKOV_OMEGA.z];
        let omega = match p.whole("axis")? {
            0 => Vector3::new(a, b, c),
            1 => Vector3::new(b, a, c),
            _ => Vector3::new(a, c, b),
        };
        let body = RigidBody::new(RigidBodyDef {
            angular_velocity: omega,
            representation: Representation::Quaternion,
            ..RigidBodyDef::of(&tumbling_block()?)
        })?;
        let system = RigidSystem::new(vec![body])?;
        let energy = system.kinetic_energy();
        Ok(Box::new(Spin {
            system,
            rk4: RungeKutta::new(RK4),
            energy,
            flips: 0,
            pressed: None,
            orbit: Orbit::new(p, ELEVATION)?,
        }))
    },
};

struct Spin {
    system: RigidSystem<RigidBody>,
    rk4: RungeKutta,
    energy: f64,
    flips: usize,
    /// Where the reader pressed, and where the pointer is now (screen plane, m).
    pressed: Option<([f64; 2], [f64; 2])>,
    /// The camera, turned by the view slider.
    orbit: Orbit,
}

/// The camera's height above the horizon (°).
const ELEVATION: f64 = 20.0;

/// The ground the block's shadow falls on, below its half-diagonal (m), its
/// radius and its grid's spacing.
const GROUND: [f64; 3] = [-2.0, 2.0, 0.5];

/// The spin impulse per metre of drag, per kilogram of the block (N s/(m kg)).
const FLICK: f64 = 0.5;

/// The longest drag a flick counts (m): half the picture's width.
const LONGEST_DRAG: f64 = 2.2;

impl Demo for Spin {
    fn frame(&mut self) -> Result<(), PbmError> {
        // As `torque_free` steps: RK4, then back onto the rotations.
        for _ in 0..STEPS_PER_FRAME {
            let before = self.system.bodies[0].body_omega().y;
            self.rk4.step(&mut self.system, H)?;
            self.system.renormalize();
            if before * self.system.bodies[0].body_omega().y < 0.0 {
                self.flips += 1;
            }
        }
        Ok(())
    }

    fn readouts(&self) -> Vec<f64> {
        let w = self.system.bodies[0].body_omega();
        let drift = (self.system.kinetic_energy() - self.energy).abs() / self.energy;
        vec![self.rk4.steps() as f64 * H, w.x, w.y, w.z, self.flips as f64, drift]
    }

    fn pointer(&mut self, event: Pointer, at: [f64; 2]) -> bool {
        match (event, self.pressed) {
            (Pointer::Down, _) => {
                // On the block's outline, near enough: its longest half-diagonal.
                if at[0].hypot(at[1]) > TUMBLING_BLOCK_SIZE.norm() / 2.0 {
                    return false;
                }
                self.pressed = Some((at, at));
            }
            (Pointer::Move, Some((from, _))) => self.pressed = Some((from, at)),
            (Pointer::Up, Some((from, _))) => {
                // Equal and opposite impulses at the press and at the centre: a
                // couple, ΔL = p × j and no change of momentum.
                let camera = self.orbit.camera;
                let body = &mut self.system.bodies[0];
                let centre = body.position();
                let p = centre + camera.lift(from);
                // A drag past the picture's half-width counts as that long.
                let drag = capped([at[0] - from[0], at[1] - from[1]], LONGEST_DRAG);
                let drag = camera.lift(drag);
                let j = drag * (FLICK * body.mass());
                body.apply_impulse_at(&p, &j);
                body.apply_impulse_at(&centre, &-j);
                // The drift is measured from the energy the flick gave it.
                self.energy = self.system.kinetic_energy();
                self.pressed = None;
            }
            (_, None) => return false,
        }
        true
    }

    fn bodies(&self) -> Vec<Whereabouts> {
        // Spun by couples, the block stays at the origin: whatever the view's
        // direction, it lies within its half-diagonal of it.
        let r = TUMBLING_BLOCK_SIZE.norm() / 2.0;
        vec![Whereabouts { grip: [0.0, 0.0], bounds: [-r, r, -r, r] }]
    }

    fn retune(&mut self, params: &Values) -> bool {
        self.orbit.retune(params)
    }

    fn draw(&self, out: &mut Drawing) {
        let body = &self.system.bodies[0];
        let r: Matrix3<f64> = body.rotation();
        // Faces coloured by the body axis they are perpendicular to, over the ground
        // with the block's shadow.
        let camera = &self.orbit.camera;
        let half = TUMBLING_BLOCK_SIZE / 2.0;
        let inks = [Ink::First, Ink::Second, Ink::Third];
        let faces = orbit::cuboid(&body.position(), &r, &half, inks);
        let [y, radius, spacing] = GROUND;
        orbit::ground(out, camera, y, radius, spacing);
        orbit::shadow(out, camera, y, &faces);
        let mut painter = Painter::new(camera);
        painter.convex(&body.position(), faces);
        painter.draw(out);
        if let Some((from, to)) = self.pressed {
            out.polyline(Ink::Foreground, [from, to].into_iter());
            out.disc(Ink::Foreground, from, 4.0);
        }
    }
}
