//! The chapter's live demos (WebAssembly in the pages).
//!
//! Chapter 1: Euler spirals out of a circular field; midpoint and RK4 nearly do not.

use crate::runge_kutta::RungeKutta;
use crate::scenes::{Field, circle_field};
use crate::system::state_of;
use crate::tableau::{EULER, MIDPOINT, RK4};
use pbm_prelim::PbmError;
use pbm_prelim::demo::{
    Agreement, Demo, DemoSpec, Demos, Drawing, Ink, Param, Plot, Readout,
};
use std::f64::consts::TAU;

/// The chapter's demos, and the numbers they show that its exercises print too.
pub const DEMOS: Demos = Demos {
    specs: &[EULER_SPIRAL],
    agreements: &[
        Agreement::demo("ode/euler-spiral")
            .set(&["method=Euler", "h=0.1"])
            .frames(63)
            .readout("radius after one turn")
            .matches(
                "ode/euler-spiral",
                &["h=0.1", "steps=63"],
                "/euler_final_radius",
            ),
        Agreement::demo("ode/euler-spiral")
            .set(&["method=midpoint", "h=0.25"])
            .frames(26)
            .readout("radius after one turn")
            .matches(
                "ode/euler-spiral",
                &["h=0.25", "steps=26"],
                "/midpoint_final_radius",
            ),
        Agreement::demo("ode/euler-spiral")
            .set(&["method=RK4", "h=0.5"])
            .frames(13)
            .readout("radius after one turn")
            .matches("ode/euler-spiral", &["h=0.5", "steps=13"], "/rk4_final_radius"),
    ],
};

/// The most points of the path kept for drawing.
const KEPT: usize = 4000;

/// The demo of chapter 1's "Euler spirals outward" figure.
pub const EULER_SPIRAL: DemoSpec = DemoSpec {
    id: "ode/euler-spiral",
    title: "A circular field, one step per frame",
    params: &[
        Param::choice("method", "method", &["Euler", "midpoint", "RK4"])
            .demo_only("the exercise runs all three methods at once"),
        Param::exercise("h", [0.1, 0.01, 1.0]).in_ratios(),
    ],
    readouts: &[
        Readout::plain("steps", ""),
        Readout::plain("t", "s"),
        Readout::inked("radius", "", Ink::First),
        Readout::plain("radius after one turn", ""),
        Readout::plain("Euler's ratio per step √(1 + h²)", ""),
    ],
    plot: Plot::over("t", &["radius"]),
    view: |_| Ok([-2.0, 2.0, -2.0, 2.0]),
    drag: None,
    build: |p| {
        let tableau = [EULER, MIDPOINT, RK4][p.whole("method")?];
        Ok(Box::new(Spiral {
            field: circle_field(1.0, 0.0)?,
            stepper: RungeKutta::new(tableau),
            h: p.get("h")?,
            path: vec![[1.0, 0.0]],
            one_turn: f64::NAN,
        }))
    },
};

struct Spiral {
    field: Field,
    stepper: RungeKutta,
    h: f64,
    path: Vec<[f64; 2]>,
    one_turn: f64,
}

impl Spiral {
    fn radius(&self) -> f64 {
        let x = state_of(&self.field);
        x[0].hypot(x[1])
    }
}

impl Demo for Spiral {
    fn frame(&mut self) -> Result<(), PbmError> {
        self.stepper.step(&mut self.field, self.h)?;
        // The exercise's one turn: the first step count with steps × h ≥ 2π.
        if self.one_turn.is_nan() && self.stepper.steps() as f64 * self.h >= TAU {
            self.one_turn = self.radius();
        }
        if self.path.len() < KEPT {
            let x = state_of(&self.field);
            self.path.push([x[0], x[1]]);
        }
        Ok(())
    }

    fn readouts(&self) -> Vec<f64> {
        vec![
            self.stepper.steps() as f64,
            self.stepper.steps() as f64 * self.h,
            self.radius(),
            self.one_turn,
            (1.0 + self.h * self.h).sqrt(),
        ]
    }

    fn draw(&self, out: &mut Drawing) {
        let circle = (0..129).map(|i| {
            let a = TAU * i as f64 / 128.0;
            [a.cos(), a.sin()]
        });
        out.polyline(Ink::Muted, circle);
        out.polyline(Ink::First, self.path.iter().copied());
        let x = state_of(&self.field);
        out.disc(Ink::Foreground, [x[0], x[1]], 4.0);
    }
}
