//! The chapter's live demos (WebAssembly in the pages).
//!
//! Chapter 2: two balls dropped from 1 m onto the ground, the same restitution and
//! step; one repaired by rolling back to the instant of contact, one by moving it
//! back onto the plane. Every bounce should reach r² of the last one.

use crate::collision::{Plane, Strategy, step_with_collisions};
use crate::particle::ParticleSystem;
use crate::scenes::{BALL_CONTACT_TOLERANCE, apexes_passed, ball};
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::tableau::RK4;
use pbm_prelim::PbmError;
use pbm_prelim::demo::{
    Agreement, Demo, DemoSpec, Demos, Drawing, FRAME, Ink, Param, Plot, Pointer,
    Readout, Whereabouts,
};

/// The chapter's demos, and the numbers they show that its exercises print too.
pub const DEMOS: Demos = Demos {
    specs: &[BOUNCING],
    agreements: &[
        // Four bounces measured by rollback, the fifth flight under way.
        Agreement::demo("particles/bouncing-ball")
            .set(&["restitution=0.8", "h=0.01"])
            .frames(130)
            .readout("rollback: last apex")
            .matches(
                "particles/bouncing-ball",
                &["restitution=0.8", "h=0.01"],
                "/apex_heights/4",
            ),
        // Three bounces measured with displacement.
        Agreement::demo("particles/bouncing-ball")
            .set(&["restitution=0.8", "h=0.01"])
            .frames(110)
            .readout("displacement: last apex")
            .matches(
                "particles/bouncing-ball",
                &["restitution=0.8", "h=0.01", "strategy=displace"],
                "/apex_heights/3",
            ),
    ],
};

/// Where the two balls are drawn (m): rollback on the left, displacement on the right.
const PLACES: [f64; 2] = [-0.35, 0.35];

/// The demo of chapter 2's bouncing-ball figure (the exercise `particles/bouncing-ball`).
pub const BOUNCING: DemoSpec = DemoSpec {
    id: "particles/bouncing-ball",
    title: "Two balls dropped from 1 m: rollback (left) and displacement (right)",
    params: &[
        Param::exercise("restitution", [0.8, 0.0, 1.0]),
        Param::exercise("h", [0.01, 0.001, 0.1]).in_ratios(),
    ],
    readouts: &[
        Readout::plain("t", "s"),
        Readout::plain("steps per frame", ""),
        Readout::inked("rollback: bounces measured", "", Ink::First),
        Readout::inked("rollback: last apex", "m", Ink::First),
        Readout::inked("rollback: last apex / the one before", "", Ink::First),
        Readout::inked("displacement: bounces measured", "", Ink::Second),
        Readout::inked("displacement: last apex", "m", Ink::Second),
        Readout::inked("displacement: last apex / the one before", "", Ink::Second),
        Readout::plain("r², what every ratio should be", ""),
    ],
    plot: Plot::over("t", &["rollback: last apex", "displacement: last apex"]),
    view: |_| Ok([-0.8, 0.8, -0.08, 1.08]),
    drag: Some(
        "Lift either ball with the pointer and let go: it drops from rest at that \
         height, and its apexes are measured again from there.",
    ),
    build: |p| {
        let (restitution, h) = (p.get("restitution")?, p.get("h")?);
        let ball = |strategy| -> Result<Ball, PbmError> {
            let (system, ground) = ball(1.0)?;
            Ok(Ball {
                system,
                ground,
                strategy,
                stepper: RungeKutta::new(RK4),
                apexes: vec![1.0],
                measuring: true,
            })
        };
        Ok(Box::new(Bouncing {
            balls: [ball(Strategy::Rollback)?, ball(Strategy::Displace)?],
            restitution,
            h,
            steps_per_frame: (FRAME / h).round().max(1.0) as usize,
            held: None,
        }))
    },
};

struct Ball {
    system: ParticleSystem<2>,
    ground: Plane<2>,
    strategy: Strategy,
    stepper: RungeKutta,
    /// The apex heights measured so far, the drop height first.
    apexes: Vec<f64>,
    /// Whether apexes can still be read (as in `bouncing_ball`: not once two bounces
    /// fall in one step, nor once the ball stays in the contact band).
    measuring: bool,
}

impl Ball {
    /// One step as `bouncing_ball` takes it, recording the apexes it passes.
    fn step(&mut self, restitution: f64, h: f64) -> Result<(), PbmError> {
        let before = self.system.particles[0].clone();
        let contacts = step_with_collisions(
            &mut self.system,
            &mut self.stepper,
            &self.ground,
            restitution,
            self.strategy,
            h,
        )?;
        if contacts > 1 {
            self.measuring = false;
        }
        if !self.measuring {
            return Ok(());
        }
        for apex in apexes_passed(&before, &self.system.particles[0], contacts) {
            if apex < BALL_CONTACT_TOLERANCE {
                self.measuring = false;
                break;
            }
            self.apexes.push(apex);
        }
        Ok(())
    }

    /// Bounces measured, last apex, and its ratio to the one before (NaN before the
    /// first bounce).
    fn readouts(&self) -> [f64; 3] {
        let n = self.apexes.len();
        let ratio =
            if n >= 2 { self.apexes[n - 1] / self.apexes[n - 2] } else { f64::NAN };
        [(n - 1) as f64, self.apexes[n - 1], ratio]
    }
}

struct Bouncing {
    balls: [Ball; 2],
    restitution: f64,
    h: f64,
    steps_per_frame: usize,
    /// The ball the reader holds, if any.
    held: Option<usize>,
}

/// The highest a ball can be lifted (m), inside the picture.
const HIGHEST: f64 = 1.05;

impl Demo for Bouncing {
    fn frame(&mut self) -> Result<(), PbmError> {
        for _ in 0..self.steps_per_frame {
            for (i, ball) in self.balls.iter_mut().enumerate() {
                if self.held == Some(i) {
                    // Held still; its clock runs on with the other's.
                    ball.system.t += self.h;
                } else {
                    ball.step(self.restitution, self.h)?;
                }
            }
        }
        Ok(())
    }

    fn readouts(&self) -> Vec<f64> {
        let [a, b] = [self.balls[0].readouts(), self.balls[1].readouts()];
        let mut out = vec![self.balls[0].system.t, self.steps_per_frame as f64];
        out.extend(a);
        out.extend(b);
        out.push(self.restitution * self.restitution);
        out
    }

    fn pointer(&mut self, event: Pointer, [x, y]: [f64; 2]) -> bool {
        let height = y.clamp(2.0 * BALL_CONTACT_TOLERANCE, HIGHEST);
        match (event, self.held) {
            (Pointer::Down, None) => {
                let Some(i) = PLACES.iter().position(|&px| (x - px).abs() < 0.2)
                else {
                    return false;
                };
                self.held = Some(i);
            }
            (Pointer::Up, Some(_)) => {
                self.held = None;
                return true;
            }
            (_, None) => return false,
            (Pointer::Down | Pointer::Move, Some(_)) => {}
        }
        if let Some(i) = self.held {
            // At rest where the hand is: the measurement starts again from here.
            let ball = &mut self.balls[i];
            let p = &mut ball.system.particles[0];
            p.x.y = height;
            p.v.fill(0.0);
            ball.apexes = vec![height];
            ball.measuring = true;
        }
        true
    }

    fn bodies(&self) -> Vec<Whereabouts> {
        let at = |(ball, x): (&Ball, f64)| [x, ball.system.particles[0].x.y];
        self.balls.iter().zip(PLACES).map(|b| Whereabouts::of([at(b)])).collect()
    }

    fn draw(&self, out: &mut Drawing) {
        out.polyline(Ink::Foreground, [[-0.8, 0.0], [0.8, 0.0]].into_iter());
        for ((ball, x), ink) in
            self.balls.iter().zip(PLACES).zip([Ink::First, Ink::Second])
        {
            // The last apex reached, and (faint) where the next one should be.
            let last = ball.apexes[ball.apexes.len() - 1];
            let next = last * self.restitution * self.restitution;
            out.polyline(ink, [[x - 0.2, last], [x + 0.2, last]].into_iter());
            out.polyline(Ink::Muted, [[x - 0.2, next], [x + 0.2, next]].into_iter());
            let y = ball.system.particles[0].x.y;
            out.disc(ink, [x, y], 7.0);
        }
    }
}
