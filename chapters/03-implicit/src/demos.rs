//! The chapter's live demos (WebAssembly in the pages).
//!
//! Chapter 3: the stiff example ẋ = −x, ẏ = −k y by explicit and backward Euler,
//! side by side at the same step.

use crate::backward_euler::backward_euler_step;
use crate::stiff::StiffExample;
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::system::state_of;
use pbm_ode::tableau::EULER;
use pbm_prelim::PbmError;
use pbm_prelim::demo::{
    Agreement, Demo, DemoSpec, Demos, Drawing, Ink, Param, Plot, Readout,
};

/// The chapter's demos, and the numbers they show that its exercises print too.
pub const DEMOS: Demos = Demos {
    specs: &[STIFF],
    agreements: &[Agreement::demo("implicit/stiff")
        .set(&["k=10", "h=0.15"])
        .frames(20)
        .readout("explicit Euler y")
        .matches("ode/stability", &["k=10", "h=0.15", "steps=20"], "/final_abs_x")
        .absolute()],
};

/// The demo of chapter 3's stiff example.
pub const STIFF: DemoSpec = DemoSpec {
    id: "implicit/stiff",
    title: "ẋ = −x, ẏ = −k y: explicit and backward Euler at the same step",
    params: &[
        Param::exercise("k", [10.0, 1.0, 1000.0]).in_ratios(),
        Param::exercise("h", [0.15, 0.001, 1.0]).in_ratios(),
    ],
    readouts: &[
        Readout::plain("steps", ""),
        Readout::inked("explicit Euler y", "", Ink::First),
        Readout::inked("backward Euler y", "", Ink::Second),
        Readout::plain("explicit stable below h = 2/k", "s"),
    ],
    plot: Plot::over("steps", &["explicit Euler y", "backward Euler y"]),
    view: |_| Ok([-0.1, 1.1, -1.5, 1.5]),
    drag: None,
    build: |p| {
        let (k, h) = (p.get("k")?, p.get("h")?);
        Ok(Box::new(Stiff {
            explicit: StiffExample::new(k, 1.0, 1.0)?,
            implicit: StiffExample::new(k, 1.0, 1.0)?,
            euler: RungeKutta::new(EULER),
            h,
            k,
            steps: 0,
            paths: [vec![[1.0, 1.0]], vec![[1.0, 1.0]]],
            diverged: None,
        }))
    },
};

/// The most points of each path kept for drawing.
const KEPT: usize = 4000;

struct Stiff {
    explicit: StiffExample,
    implicit: StiffExample,
    euler: RungeKutta,
    h: f64,
    k: f64,
    steps: usize,
    paths: [Vec<[f64; 2]>; 2],
    /// Explicit Euler's failure, once it overflows: backward Euler carries on.
    diverged: Option<String>,
}

impl Demo for Stiff {
    fn frame(&mut self) -> Result<(), PbmError> {
        if self.diverged.is_none()
            && let Err(e) = self.euler.step(&mut self.explicit, self.h)
        {
            self.diverged = Some(format!("explicit Euler: {e}"));
        }
        backward_euler_step(&mut self.implicit, self.h)?;
        self.steps += 1;
        for (path, system) in
            self.paths.iter_mut().zip([&self.explicit, &self.implicit])
        {
            let x = state_of(system);
            if path.len() < KEPT {
                path.push([x[0], x[1]]);
            }
        }
        Ok(())
    }

    fn readouts(&self) -> Vec<f64> {
        let y = |s: &StiffExample| state_of(s)[1];
        let explicit =
            if self.diverged.is_some() { f64::NAN } else { y(&self.explicit) };
        vec![self.steps as f64, explicit, y(&self.implicit), 2.0 / self.k]
    }

    fn note(&self) -> Option<String> {
        self.diverged.clone()
    }

    fn draw(&self, out: &mut Drawing) {
        out.polyline(Ink::Muted, [[0.0, -1.5], [0.0, 1.5]].into_iter());
        out.polyline(Ink::Muted, [[-0.1, 0.0], [1.1, 0.0]].into_iter());
        out.text(Ink::Foreground, [1.04, 0.06], "x");
        out.text(Ink::Foreground, [0.03, 1.38], "y");
        for (path, ink) in self.paths.iter().zip([Ink::First, Ink::Second]) {
            out.polyline(ink, path.iter().copied());
            if let Some(&last) = path.last() {
                out.disc(ink, last, 4.0);
            }
        }
    }
}
