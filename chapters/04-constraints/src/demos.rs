//! The chapter's live demos (WebAssembly in the pages).
//!
//! Chapter 4: the bead on a circular wire, held by a constraint force. Without
//! feedback it drifts off the wire; the feedback gains k_s and k_d pull it back. And
//! the falling chain of rods, which the reader can grab by any bob, held against drift
//! by nothing, by feedback or by projection after each step.

use crate::scenes::{StabilisedChain, Stabiliser, bead};
use crate::system::{ConstrainedSystem, Feedback};
use nalgebra::Vector2;
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::system::OdeSystem;
use pbm_ode::tableau::{EULER, MIDPOINT, RK4};
use pbm_particles::particle::{Force, Particle};
use pbm_prelim::PbmError;
use pbm_prelim::demo::{
    Agreement, Demo, DemoSpec, Demos, Drawing, FRAME, Ink, Param, Plot, Pointer,
    Readout, Whereabouts, capped,
};
use std::f64::consts::TAU;

/// The chapter's demos, and the numbers they show that its exercises print too.
pub const DEMOS: Demos = Demos {
    specs: &[BEAD, CHAIN],
    agreements: &[
        Agreement::demo("constraints/bead")
            .set(&["solver=RK4", "h=0.01", "k_s=100", "k_d=20"])
            .frames(250)
            .readout("largest |C| so far")
            .matches(
                "constraints/drift",
                &["solver=rk4", "h=0.01", "t_end=5", "k_s=100", "k_d=20"],
                "/max_abs_c_with_feedback",
            ),
        // Three steps of 5 ms a frame: 600 steps, 3 s.
        Agreement::demo("constraints/bead")
            .set(&["solver=midpoint", "h=0.005", "k_s=0", "k_d=0"])
            .frames(200)
            .readout("largest |C| so far")
            .matches(
                "constraints/drift",
                &["solver=midpoint", "h=0.005", "t_end=3"],
                "/max_abs_c_without_feedback",
            ),
        // Eight steps of 2 ms a frame: 1,000 steps, 2 s, held by feedback.
        Agreement::demo("constraints/chain")
            .set(&["method=feedback", "h=0.002"])
            .frames(125)
            .readout("largest |C| so far")
            .matches(
                "constraints/stabilise",
                &["h=0.002", "t_end=2"],
                "/baumgarte/max_abs_c",
            ),
    ],
};

/// The most points of the bead's path kept for drawing.
const KEPT: usize = 600;

/// The demo of chapter 4's drift figure (the exercise `constraints/drift`).
pub const BEAD: DemoSpec = DemoSpec {
    id: "constraints/bead",
    title: "A bead on a circular wire under gravity",
    params: &[
        Param::choice("solver", "integrator", &["Euler", "midpoint", "RK4"]),
        Param::exercise("h", [0.01, 0.001, 0.1]).in_ratios(),
        Param::exercise("k_s", [0.0, 0.0, 400.0]),
        Param::exercise("k_d", [0.0, 0.0, 40.0]),
    ],
    readouts: &[
        Readout::plain("t", "s"),
        Readout::plain("steps per frame", ""),
        Readout::inked("|C| now, C = (|x|² − 1)/2", "m²", Ink::First),
        Readout::plain("largest |C| so far", "m²"),
        Readout::plain("energy", "J"),
    ],
    plot: Plot::over("t", &["|C| now, C = (|x|² − 1)/2"]).log(),
    view: |_| Ok([-1.6, 1.6, -1.6, 1.6]),
    drag: Some(
        "Pull the bead with the pointer: a spring from the bead to your hand (pulling \
         at most 40 N), which the constraint force lets move the bead only along the \
         wire. If the bead drifts off the wire, the run stops and says so.",
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
            stopped: None,
        }))
    },
};

/// How far the bead may drift before the demo stops (m²): at |C| = 0.5 it is
/// 0.41 m off the unit circle, still in the picture.
const DRIFT_LIMIT: f64 = 0.5;

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
    /// Why the run stopped, in the reader's words, once it has.
    stopped: Option<String>,
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
    /// The most the hand pulls with (N): a 1 m stretch of the spring, four times
    /// the bead's weight. A hand far off the picture pulls no harder.
    const MOST: f64 = 40.0;
}

impl Force<2> for Hand {
    fn name(&self) -> &'static str {
        "hand"
    }
    fn apply(&self, _t: f64, particles: &mut [Particle<2>]) -> Result<(), PbmError> {
        let p = &mut particles[0];
        let pull = -(p.x - self.at) * Hand::STIFFNESS - p.v * Hand::DAMPING;
        let [x, y] = capped([pull.x, pull.y], Hand::MOST);
        p.f += Vector2::new(x, y);
        Ok(())
    }
    fn particles(&self) -> &[usize] {
        &[0]
    }
    fn is_conservative(&self) -> bool {
        false
    }
}

impl Bead {
    /// Stops the run: the bead is off the wire (or the step could not be taken,
    /// which a bead that far off makes likely), and the reader is told what to do.
    fn stop(&mut self) {
        let hand = if self.hand.is_some() { "the hand's pull and " } else { "" };
        self.stopped = Some(format!(
            "Stopped: the bead has drifted off the wire (|C| passed {DRIFT_LIMIT} m²) \
             under {hand}the integrator's error. Raise the feedback stiffness (see \
             \"Drift, and feedback\"), or take a smaller step, and press Reset."
        ));
        // Let go of it: the stopped picture shows the bead where it left.
        if self.hand.take().is_some() {
            self.system.particles.forces.pop();
        }
    }
}

impl Demo for Bead {
    fn frame(&mut self) -> Result<(), PbmError> {
        if self.stopped.is_some() {
            return Ok(());
        }
        // As `bead_drift` steps, |C| read after every step, until the bead has left
        // the wire: then it stops, and says why.
        for _ in 0..self.steps_per_frame {
            let before = self.system.particles.particles.clone();
            let stepped = self.stepper.step(&mut self.system, self.h);
            let now = stepped.and_then(|_| self.system.max_abs_c());
            // A step that fails, or leaves no finite |C|, has left the wire too.
            let now = now.ok().filter(|c| c.is_finite());
            let now = now.unwrap_or(f64::INFINITY);
            if now.is_finite() {
                self.worst = self.worst.max(now);
            }
            if now > DRIFT_LIMIT {
                // The picture keeps the bead where it was last on the page's scale.
                self.system.particles.particles = before;
                self.stop();
                return Ok(());
            }
            self.now = now;
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

    fn note(&self) -> Option<String> {
        self.stopped.clone()
    }

    fn pointer(&mut self, event: Pointer, [x, y]: [f64; 2]) -> bool {
        let at = Vector2::new(x, y);
        if self.stopped.is_some() {
            return false;
        }
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

    fn bodies(&self) -> Vec<Whereabouts> {
        let x = self.system.particles.particles[0].x;
        vec![Whereabouts::of([[x.x, x.y]])]
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

/// The chain demo's menu, in the order of its slider.
const METHODS: [Stabiliser; 3] =
    [Stabiliser::Baumgarte, Stabiliser::Projection, Stabiliser::None];

/// The demo of the stabilisation study (the exercise `constraints/stabilise`): the
/// book's chain of ten rods, falling from the horizontal, that the reader can grab.
pub const CHAIN: DemoSpec = DemoSpec {
    id: "constraints/chain",
    title: "A chain of ten rods, held against drift three ways",
    params: &[
        Param::choice(
            "method",
            "drift held by",
            &["feedback", "projection", "nothing"],
        )
        .demo_only("the exercise runs all three stabilisers at once"),
        Param::exercise("h", [0.002, 0.001, 0.012]).in_ratios(),
    ],
    readouts: &[
        Readout::plain("t", "s"),
        Readout::plain("steps per frame", ""),
        Readout::inked("largest |C| now", "m²", Ink::First),
        Readout::plain("largest |C| so far", "m²"),
        Readout::plain("energy", "J"),
    ],
    plot: Plot::over("t", &["largest |C| now"]).log(),
    // The 1 m chain from its pivot at the origin, whichever way it swings.
    view: |_| Ok([-1.2, 1.2, -1.3, 1.1]),
    drag: Some(
        "Grab any bob with the pointer: a spring from it to your hand pulls the chain \
         (at most 10 N), and the rods pass the pull along. If the rods stretch too \
         far, the run stops and says so.",
    ),
    build: |p| {
        let h = p.get("h")?;
        let mut chain = StabilisedChain::new(METHODS[p.whole("method")?])?;
        let worst = chain.system.max_abs_c()?;
        Ok(Box::new(DraggedChain {
            chain,
            h,
            steps_per_frame: (FRAME / h).round().max(1.0) as usize,
            worst,
            now: worst,
            hand: None,
            stopped: None,
        }))
    },
};

/// How far the chain's rods may drift before the demo stops (m²): a 0.1 m link
/// 9.5 % long, the chain still inside the picture.
const CHAIN_LIMIT: f64 = 1e-3;

struct DraggedChain {
    chain: StabilisedChain,
    h: f64,
    steps_per_frame: usize,
    worst: f64,
    now: f64,
    /// The bob held and where the reader's hand is.
    hand: Option<(usize, Vector2<f64>)>,
    /// Why the run stopped, in the reader's words, once it has.
    stopped: Option<String>,
}

/// The reader's hand on the chain: a damped zero-length spring from one bob to the
/// pointer, soft enough for the 0.1 kg bobs at the demo's steps (ω = √(k/m) = 20/s).
struct Grab {
    particle: [usize; 1],
    at: Vector2<f64>,
}

impl Grab {
    const STIFFNESS: f64 = 40.0;
    const DAMPING: f64 = 1.0;
    /// How close to a bob a press must be to take it (m).
    const REACH: f64 = 0.2;
    /// The most the hand pulls with (N): the whole 1 kg chain's weight.
    const MOST: f64 = 10.0;
}

impl Force<2> for Grab {
    fn name(&self) -> &'static str {
        "hand"
    }
    fn apply(&self, _t: f64, particles: &mut [Particle<2>]) -> Result<(), PbmError> {
        let p = &mut particles[self.particle[0]];
        let pull = -(p.x - self.at) * Grab::STIFFNESS - p.v * Grab::DAMPING;
        let [x, y] = capped([pull.x, pull.y], Grab::MOST);
        p.f += Vector2::new(x, y);
        Ok(())
    }
    fn particles(&self) -> &[usize] {
        &self.particle
    }
    fn is_conservative(&self) -> bool {
        false
    }
}

impl Demo for DraggedChain {
    fn frame(&mut self) -> Result<(), PbmError> {
        if self.stopped.is_some() {
            return Ok(());
        }
        // As `stabilised_run` steps, |C| read after every step, until the rods
        // have drifted too far: then it stops, and says why.
        for _ in 0..self.steps_per_frame {
            let before = self.chain.system.particles.particles.clone();
            let now = self.chain.step(self.h).ok().filter(|c| c.is_finite());
            if let Some(now) = now.filter(|&c| c <= CHAIN_LIMIT) {
                self.now = now;
                self.worst = self.worst.max(now);
                continue;
            }
            self.chain.system.particles.particles = before;
            if self.hand.take().is_some() {
                self.chain.system.particles.forces.pop();
            }
            self.stopped = Some(format!(
                "Stopped: the rods have stretched too far (|C| passed {CHAIN_LIMIT} m²) \
                 under the hand's pull. Hold the drift by feedback or projection, or \
                 take a smaller step h, and press Reset."
            ));
            break;
        }
        Ok(())
    }

    fn note(&self) -> Option<String> {
        self.stopped.clone()
    }

    fn readouts(&self) -> Vec<f64> {
        let system = &self.chain.system;
        let steps = self.steps_per_frame as f64;
        vec![system.time(), steps, self.now, self.worst, system.energy()]
    }

    fn pointer(&mut self, event: Pointer, [x, y]: [f64; 2]) -> bool {
        if self.stopped.is_some() {
            return false;
        }
        // The hand pulls towards the picture's nearest point.
        let at = Vector2::new(x.clamp(-1.2, 1.2), y.clamp(-1.3, 1.1));
        let system = &mut self.chain.system;
        match (event, self.hand) {
            (Pointer::Down, None) => {
                let bobs = system.particles.particles.iter().enumerate().skip(1);
                let nearest = bobs
                    .map(|(i, p)| (i, (p.x - at).norm()))
                    .filter(|&(_, d)| d <= Grab::REACH)
                    .min_by(|a, b| a.1.total_cmp(&b.1));
                let Some((i, _)) = nearest else { return false };
                system.particles.forces.push(Box::new(Grab { particle: [i], at }));
                self.hand = Some((i, at));
            }
            (Pointer::Down | Pointer::Move, Some((i, _))) => {
                if let Some(last) = system.particles.forces.last_mut() {
                    *last = Box::new(Grab { particle: [i], at });
                }
                self.hand = Some((i, at));
            }
            (Pointer::Up, Some(_)) => {
                system.particles.forces.pop();
                self.hand = None;
            }
            (_, None) => return false,
        }
        true
    }

    fn bodies(&self) -> Vec<Whereabouts> {
        // One chain, taken by its last bob.
        let bobs = &self.chain.system.particles.particles;
        let points = bobs.iter().rev().map(|p| [p.x.x, p.x.y]);
        vec![Whereabouts::of(points)]
    }

    fn draw(&self, out: &mut Drawing) {
        let bobs = &self.chain.system.particles.particles;
        out.polyline(Ink::Muted, [[-0.1, 0.0], [0.1, 0.0]].into_iter());
        out.polyline(Ink::First, bobs.iter().map(|p| [p.x.x, p.x.y]));
        if let Some((i, hand)) = self.hand {
            let x = bobs[i].x;
            out.polyline(Ink::Second, [[x.x, x.y], [hand.x, hand.y]].into_iter());
        }
        for p in bobs {
            out.disc(Ink::Foreground, [p.x.x, p.x.y], 4.0);
        }
    }
}
