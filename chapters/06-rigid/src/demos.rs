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
    Agreement, Camera, Demo, DemoSpec, Drawing, Ink, Param, Readout,
};

/// The chapter's demos, in the book's order.
pub const DEMOS: &[DemoSpec] = &[DZHANIBEKOV];

/// The numbers the demos show that the chapter's exercises print too (checked
/// natively by `tests/demos.rs` and in the browser).
pub const AGREEMENTS: &[Agreement] =
    &[Agreement::new("rigid/dzhanibekov", &[0.0], 500, 2).matches(
        "rigid/dzhanibekov",
        &["t_end=10"],
        "/final_body_omega/1",
    )];

/// The exercise's step (s).
pub const H: f64 = 1e-3;

/// Steps per frame of the page: 20 ms of simulated time, a little faster than life.
pub const STEPS_PER_FRAME: usize = 20;

/// The demo of chapter 6's Dzhanibekov figures (the exercise `rigid/dzhanibekov`).
pub const DZHANIBEKOV: DemoSpec = DemoSpec {
    id: "rigid/dzhanibekov",
    title: "A 1 × 2 × 3 m block spun about one axis, 0.01 rad/s off",
    params: &[Param::choice(
        "axis",
        "spin about",
        &["y (intermediate)", "x (1 m, largest moment)", "z (3 m, smallest moment)"],
    )],
    readouts: &[
        Readout::plain("t", "s"),
        Readout::plain("ω_x in the body", "rad/s"),
        Readout::plain("ω_y in the body", "rad/s"),
        Readout::plain("ω_z in the body", "rad/s"),
        Readout::plain("flips of ω_y", ""),
        Readout::plain("energy drift (relative)", ""),
    ],
    view: |_| Ok([-2.2, 2.2, -2.2, 2.2]),
    drag: None,
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
        Ok(Box::new(Spin { system, rk4: RungeKutta::new(RK4), energy, flips: 0 }))
    },
};

struct Spin {
    system: RigidSystem<RigidBody>,
    rk4: RungeKutta,
    energy: f64,
    flips: usize,
}

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

    fn draw(&self, out: &mut Drawing) {
        let r: Matrix3<f64> = self.system.bodies[0].rotation();
        // Seen from a fixed direction, orthographically; only faces towards the eye.
        let camera = Camera::looking_from(Vector3::new(0.45, 0.35, 1.0));
        let half = TUMBLING_BLOCK_SIZE / 2.0;
        let inks = [Ink::First, Ink::Second, Ink::Third];
        for axis in 0..3 {
            for sign in [-1.0, 1.0] {
                let normal = r.column(axis) * sign;
                if !camera.sees(&normal) {
                    continue;
                }
                let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
                let corners = [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]];
                out.polygon(
                    inks[axis],
                    corners.into_iter().map(|[a, b]| {
                        let mut local = Vector3::zeros();
                        local[axis] = sign * half[axis];
                        local[u] = a * half[u];
                        local[v] = b * half[v];
                        camera.project(&(r * local))
                    }),
                );
            }
        }
    }
}
