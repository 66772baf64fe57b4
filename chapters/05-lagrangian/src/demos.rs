//! The chapter's live demos (WebAssembly in the pages).
//!
//! Chapter 5: a bead on a wire of the reader's choice, in the one coordinate that
//! cannot describe a bead off the wire. Chapter 4's bead drifts off its circle unless
//! feedback pulls it back; this one has nowhere to drift to.

use crate::models::Bead;
use crate::parametric::{LagrangianSystem, ParametricModel};
use crate::scenes::ellipse_bead;
use crate::wire::{Curve, WireBead, tautochrone_period};
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::system::OdeSystem;
use pbm_ode::tableau::RK4;
use pbm_particles::forces::G;
use pbm_prelim::PbmError;
use pbm_prelim::demo::{
    Agreement, Demo, DemoSpec, Demos, Drawing, FRAME, Ink, Param, Plot, Pointer,
    Readout, Whereabouts,
};
use std::f64::consts::{FRAC_PI_2, PI};

/// The chapter's demos, and the numbers they show that its exercises print too.
pub const DEMOS: Demos = Demos {
    specs: &[WIRE],
    agreements: &[
        // Two steps of 10 ms a frame: 600 steps, 6 s, from θ = 0 at rest (start =
        // π/2): a quarter turn past the circle's lowest point.
        Agreement::demo("lagrangian/wire")
            .set(&["wire=circle", "start=1.5707963267948966", "h=0.01"])
            .frames(300)
            .readout("largest energy error ÷ m g")
            .matches(
                "lagrangian/bead",
                &["t_end=6", "h=0.01"],
                "/relative_energy_drift",
            ),
    ],
};

/// The wires on the menu, in its order.
const WIRES: &[&str] =
    &["circle", "ellipse", "cycloid (tautochrone)", "figure eight"];

/// The cycloid's rolling radius and the figure eight's half-width (m).
const CYCLOID: Curve = Curve::Cycloid { a: 0.4 };
const EIGHT: Curve = Curve::FigureEight { a: 1.2 };

/// The demo of the bead in generalized coordinates (the exercise `lagrangian/bead`).
pub const WIRE: DemoSpec = DemoSpec {
    id: "lagrangian/wire",
    title: "A bead on a wire of your choice, in one coordinate θ",
    params: &[
        Param::choice("wire", "wire", WIRES)
            .demo_only("the exercise's bead is on the circle"),
        Param::linear(
            "start",
            "released past the lowest point by",
            "rad",
            [1.5, -3.0, 3.0],
        )
        .demo_only("the exercise releases the bead at θ = 0"),
        Param::exercise("h", [0.01, 0.001, 0.1]).in_ratios(),
    ],
    readouts: &[
        Readout::plain("t", "s"),
        Readout::plain("speed", "m/s"),
        Readout::inked("height", "m", Ink::First),
        Readout::plain("largest energy error ÷ m g", "m"),
        Readout::plain("period of the last full swing", "s"),
        Readout::plain("the cycloid's period 4π√(a/g)", "s"),
    ],
    plot: Plot::over("t", &["height"]),
    view: |p| match p.whole("wire")? {
        0 => Ok([-1.3, 1.3, -1.3, 1.3]),
        1 => Ok([-1.8, 1.8, -0.8, 0.8]),
        2 => Ok([-1.45, 1.45, -0.15, 0.95]),
        _ => Ok([-1.5, 1.5, -0.8, 0.8]),
    },
    drag: Some(
        "Hold the bead anywhere on the wire and let go: however you move the pointer, \
         the bead can only be somewhere on the wire, because θ is all there is of it.",
    ),
    build: |p| {
        let (start, h) = (p.get("start")?, p.get("h")?);
        // The circle's and the ellipse's lowest point is at θ = −π/2.
        let (low, turn) = (start - FRAC_PI_2, (-PI, PI));
        match p.whole("wire")? {
            0 => OnWire::boxed(Bead::new(1.0, 1.0, G)?, turn, low, h, None),
            1 => OnWire::boxed(ellipse_bead()?, turn, low, h, None),
            2 => {
                let period = match CYCLOID {
                    Curve::Cycloid { a } => Some(tautochrone_period(a, G)),
                    Curve::FigureEight { .. } => None,
                };
                // Lowest at θ = 0; released inside the cusps, where the
                // parametrisation is singular.
                let (a, b) = CYCLOID.range();
                let start = start.clamp(a + 0.05, b - 0.05);
                let wire = WireBead::new(1.0, CYCLOID, G)?;
                OnWire::boxed(wire, CYCLOID.range(), start, h, period)
            }
            _ => {
                // Lowest at θ = 3π/4.
                let wire = WireBead::new(1.0, EIGHT, G)?;
                OnWire::boxed(wire, EIGHT.range(), 0.75 * PI + start, h, None)
            }
        }
    },
};

/// The demo, over any of the chapter's one-coordinate models.
struct OnWire<M> {
    system: LagrangianSystem<M>,
    rk4: RungeKutta,
    h: f64,
    steps_per_frame: usize,
    /// The parameter's range: the wire is drawn over it and the hand stays in it.
    range: (f64, f64),
    /// The energy measured from (the start, or where the hand let go).
    e0: f64,
    worst: f64,
    /// Times of the right-hand turning points (θ̇ from + to −).
    turns: Vec<f64>,
    tautochrone: Option<f64>,
    held: bool,
}

impl<M: ParametricModel + 'static> OnWire<M> {
    fn boxed(
        model: M,
        range: (f64, f64),
        start: f64,
        h: f64,
        tautochrone: Option<f64>,
    ) -> Result<Box<dyn Demo>, PbmError> {
        let system = LagrangianSystem::new(model, vec![start], vec![0.0])?;
        let e0 = system.energy();
        Ok(Box::new(OnWire {
            system,
            rk4: RungeKutta::new(RK4),
            h,
            steps_per_frame: (FRAME / h).round().max(1.0) as usize,
            range,
            e0,
            worst: 0.0,
            turns: Vec::new(),
            tautochrone,
            held: false,
        }))
    }

    fn at(&self, theta: f64) -> [f64; 2] {
        let q = self.system.model.positions(&[theta]);
        [q[0], q[1]]
    }

    /// The parameter of the wire's point nearest `to`, over 720 samples of its range.
    fn nearest(&self, to: [f64; 2]) -> f64 {
        let (a, b) = (self.range.0 + 0.05, self.range.1 - 0.05);
        (0..=720)
            .map(|k| a + (b - a) * k as f64 / 720.0)
            .map(|theta| {
                let [x, y] = self.at(theta);
                ((x - to[0]).hypot(y - to[1]), theta)
            })
            .min_by(|p, q| p.0.total_cmp(&q.0))
            .map_or(a, |(_, theta)| theta)
    }
}

impl<M: ParametricModel + 'static> Demo for OnWire<M> {
    fn frame(&mut self) -> Result<(), PbmError> {
        for _ in 0..self.steps_per_frame {
            if self.held {
                self.system.t += self.h;
                continue;
            }
            // As `lagrangian/bead` steps: RK4, the energy error read after each step.
            let (t0, w0) = (self.system.time(), self.system.u_dot[0]);
            self.rk4.step(&mut self.system, self.h)?;
            self.worst = self.worst.max((self.system.energy() - self.e0).abs() / G);
            let w1 = self.system.u_dot[0];
            if w0 > 0.0 && w1 <= 0.0 {
                self.turns.push(t0 + self.h * w0 / (w0 - w1));
            }
        }
        Ok(())
    }

    fn readouts(&self) -> Vec<f64> {
        let q_dot = self.system.model.jacobian(&self.system.u) * self.system.u_dot[0];
        let period = match self.turns.as_slice() {
            [.., a, b] => b - a,
            _ => f64::NAN,
        };
        let [_, y] = self.at(self.system.u[0]);
        vec![
            self.system.time(),
            q_dot.norm(),
            y,
            self.worst,
            period,
            self.tautochrone.unwrap_or(f64::NAN),
        ]
    }

    fn draw(&self, out: &mut Drawing) {
        let (a, b) = self.range;
        out.polyline(
            Ink::Muted,
            (0..241).map(|k| self.at(a + (b - a) * k as f64 / 240.0)),
        );
        let bead = self.at(self.system.u[0]);
        out.disc(if self.held { Ink::Second } else { Ink::First }, bead, 7.0);
    }

    fn pointer(&mut self, event: Pointer, at: [f64; 2]) -> bool {
        match (event, self.held) {
            (Pointer::Down, false) => {
                let [x, y] = self.at(self.system.u[0]);
                if (x - at[0]).hypot(y - at[1]) > 0.3 {
                    return false;
                }
                self.held = true;
            }
            (Pointer::Up, true) => {
                // Let go at rest: energy and swings are measured from here.
                self.held = false;
                self.e0 = self.system.energy();
                self.worst = 0.0;
                self.turns.clear();
                return true;
            }
            (_, false) => return false,
            (Pointer::Down | Pointer::Move, true) => {}
        }
        self.system.u[0] = self.nearest(at);
        self.system.u_dot[0] = 0.0;
        true
    }

    fn bodies(&self) -> Vec<Whereabouts> {
        vec![Whereabouts::of([self.at(self.system.u[0])])]
    }

    fn note(&self) -> Option<String> {
        self.tautochrone.is_some().then(|| {
            "Released anywhere between the cusps, the bead swings in the same time."
                .to_string()
        })
    }
}
