//! The chapter's live demos (WebAssembly in the pages).
//!
//! Chapter 4: the bead on a circular wire, held by a constraint force. Without
//! feedback it drifts off the wire; the feedback gains k_s and k_d pull it back.

use crate::scenes::bead;
use crate::system::{ConstrainedSystem, Feedback};
use nalgebra::Vector2;
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::system::OdeSystem;
use pbm_ode::tableau::{EULER, MIDPOINT, RK4};
use pbm_particles::particle::{Force, Particle};
use pbm_prelim::PbmError;
use pbm_prelim::demo::{
    Agreement, Demo, DemoSpec, Drawing, Ink, Param, Plot, Pointer, Readout,
};
use std::f64::consts::TAU;

/// The chapter's demos, in the book's order.
pub const DEMOS: &[DemoSpec] = &[BEAD];

/// The numbers the demos show that the chapter's exercises print too (checked
/// natively by `tests/demos.rs` and in the browser).
pub const AGREEMENTS: &[Agreement] = &[
    Agreement::new("constraints/bead", &[2.0, 0.01, 100.0, 20.0], 250, 3).matches(
        "constraints/drift",
        &["solver=rk4", "h=0.01", "t_end=5", "k_s=100", "k_d=20"],
        "/max_abs_c_with_feedback",
    ),
    // Three steps of 5 ms a frame: 600 steps, 3 s.
    Agreement::new("constraints/bead", &[1.0, 0.005, 0.0, 0.0], 200, 3).matches(
        "constraints/drift",
        &["solver=midpoint", "h=0.005", "t_end=3"],
        "/max_abs_c_without_feedback",
    ),
];

/// The page's frame (s).
const FRAME: f64 = 1.0 / 60.0;

/// The most points of the bead's path kept for drawing.
const KEPT: usize = 600;

/// The demo of chapter 4's drift figure (the exercise `constraints/drift`).
pub const BEAD: DemoSpec = DemoSpec {
    id: "constraints/bead",
    title: "A bead on a circular wire under gravity",
    params: &[
        Param::choice("solver", "integrator", &["Euler", "midpoint", "RK4"]),
        Param::log("h", "step h", "s", [0.01, 0.001, 0.1]),
        Param::linear("k_s", "feedback stiffness", "1/s²", [0.0, 0.0, 400.0]),
        Param::linear("k_d", "feedback damping", "1/s", [0.0, 0.0, 40.0]),
    ],
    readouts: &[
        Readout::plain("t", "s"),
        Readout::plain("steps per frame", ""),
        Readout::inked("|C| now, C = (|x|² − 1)/2", "m²", Ink::First),
        Readout::plain("largest |C| so far", "m²"),
        Readout::plain("energy", "J"),
    ],
    plot: Plot::over(0, &[2]).log(),
    view: |_| Ok([-1.6, 1.6, -1.6, 1.6]),
    drag: Some(
        "Pull the bead with the pointer: a spring from the bead to your hand, which the \
         constraint force lets move the bead only along the wire.",
    ),
    build: |p| {
        let tableau = [EULER, MIDPOINT, RK4][p.whole("solver")?];
        let h = p.get("h")?;
        let mut system = bead(Feedback::new(p.get("k_s")?, p.get("k_d")?)?)?;
        let worst = system.max_abs_c()?;
        Ok(Box::new(Bead {
            system,
            stepper: RungeKutta::new(tableau),
            h,
            // Real time, near enough, in whole steps.
            steps_per_frame: (FRAME / h).round().max(1.0) as usize,
            worst,
            now: worst,
            path: Vec::new(),
            hand: None,
        }))
    },
};

struct Bead {
    system: ConstrainedSystem<2>,
    stepper: RungeKutta,
    h: f64,
    steps_per_frame: usize,
    worst: f64,
    now: f64,
    path: Vec<[f64; 2]>,
    /// Where the reader's hand is while the bead is held.
    hand: Option<Vector2<f64>>,
}

/// The reader's hand in the bead demo: a damped zero-length spring from the bead to
/// the pointer (stiffness N/m and damping N s/m for the 1 kg bead). The constraint
/// force removes the part of its pull across the wire.
struct Hand {
    at: Vector2<f64>,
}

impl Hand {
    const STIFFNESS: f64 = 40.0;
    const DAMPING: f64 = 8.0;
    /// How close to the bead a press must be to take it (m).
    const REACH: f64 = 0.35;
}

impl Force<2> for Hand {
    fn name(&self) -> &'static str {
        "hand"
    }
    fn apply(&self, _t: f64, particles: &mut [Particle<2>]) -> Result<(), PbmError> {
        let p = &mut particles[0];
        p.f += -(p.x - self.at) * Hand::STIFFNESS - p.v * Hand::DAMPING;
        Ok(())
    }
    fn particles(&self) -> &[usize] {
        &[0]
    }
    fn is_conservative(&self) -> bool {
        false
    }
}

impl Demo for Bead {
    fn frame(&mut self) -> Result<(), PbmError> {
        // As `bead_drift` steps, |C| read after every step.
        for _ in 0..self.steps_per_frame {
            self.stepper.step(&mut self.system, self.h)?;
            self.now = self.system.max_abs_c()?;
            self.worst = self.worst.max(self.now);
        }
        let x = self.system.particles.particles[0].x;
        if self.path.len() == KEPT {
            self.path.remove(0);
        }
        self.path.push([x.x, x.y]);
        Ok(())
    }

    fn readouts(&self) -> Vec<f64> {
        vec![
            self.system.time(),
            self.steps_per_frame as f64,
            self.now,
            self.worst,
            self.system.energy(),
        ]
    }

    fn pointer(&mut self, event: Pointer, [x, y]: [f64; 2]) -> bool {
        let at = Vector2::new(x, y);
        let forces = &mut self.system.particles.forces;
        match (event, self.hand) {
            (Pointer::Down, None) => {
                let bead = self.system.particles.particles[0].x;
                if (bead - at).norm() > Hand::REACH {
                    return false;
                }
                forces.push(Box::new(Hand { at }));
            }
            (Pointer::Down | Pointer::Move, Some(_)) => {
                if let Some(last) = forces.last_mut() {
                    *last = Box::new(Hand { at });
                }
            }
            (Pointer::Up, Some(_)) => {
                forces.pop();
                self.hand = None;
                return true;
            }
            (_, None) => return false,
        }
        self.hand = Some(at);
        true
    }

    fn draw(&self, out: &mut Drawing) {
        let wire = (0..129).map(|i| {
            let a = TAU * i as f64 / 128.0;
            [a.cos(), a.sin()]
        });
        out.polyline(Ink::Muted, wire);
        out.polyline(Ink::First, self.path.iter().copied());
        let x = self.system.particles.particles[0].x;
        if let Some(hand) = self.hand {
            out.polyline(Ink::Second, [[x.x, x.y], [hand.x, hand.y]].into_iter());
        }
        out.disc(Ink::Foreground, [x.x, x.y], 6.0);
    }
}
