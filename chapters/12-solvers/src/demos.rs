//! The chapter's live demo: the bench's scenes, any solver, in the page. The reader
//! picks a scene and a solver, turns the budget and the soft contacts' frequency and
//! damping, and drags any box with the pointer.

use crate::body::{Body, V2, cross, rotation};
use crate::scenes::{Scene, build};
use crate::solvers::SolverKind;
use crate::world::{Settings, World};
use pbm_prelim::PbmError;
use pbm_prelim::demo::{
    Agreement, Demo, DemoSpec, Demos, Drawing, FRAME, Ink, Param, Plot, Pointer,
    Readout, Values, Whereabouts, capped,
};

/// The chapter's demos, and the numbers they show that its exercises print too.
pub const DEMOS: Demos = Demos {
    specs: &[BENCH],
    agreements: &[
        // Two seconds of the pyramid of base 10 by soft step: the deepest overlap the
        // page shows is the exercise's. The boxes turn (sin and cos), so the last
        // digits may differ between the browser and the command line.
        Agreement::demo("solvers/bench")
            .set(&["scene=pyramid", "solver=soft-step", "base=10"])
            .frames(120)
            .readout("deepest overlap so far")
            .matches("solvers/pyramid", &["base=10", "t_end=2"], "/max_penetration_m")
            .within(0.01),
    ],
};

/// The scenes of the menu, in its order: the pyramid first.
const SCENES: [Scene; 11] = [
    Scene::Pyramid,
    Scene::VerticalStack,
    Scene::FrictionRamp,
    Scene::OverlapRecovery,
    Scene::MassRatio,
    Scene::HeavyTops,
    Scene::Arch,
    Scene::Chain,
    Scene::JointGrid,
    Scene::Domino,
    Scene::SingleBox,
];

/// The demo of the bench.
pub const BENCH: DemoSpec = DemoSpec {
    id: "solvers/bench",
    title: "The bench's scenes under any solver",
    params: &[
        Param::choice(
            "scene",
            "scene",
            &[
                "pyramid",
                "vertical-stack",
                "friction-ramp",
                "overlap-recovery",
                "mass-ratio",
                "heavy-tops",
                "arch",
                "chain",
                "joint-grid",
                "domino",
                "single-box",
            ],
        )
        .demo_only(
            "the pyramid exercise runs one scene; the bench exercise runs them all",
        ),
        Param::choice(
            "solver",
            "contact solver",
            &["soft-step", "tgs-soft", "soft-pgs", "pgs-ngs", "pgs", "xpbd"],
        ),
        Param::exercise("base", [10.0, 2.0, 15.0]).in_whole_numbers(),
        Param::exercise("iterations", [4.0, 1.0, 16.0]).in_whole_numbers(),
        Param::exercise("relax", [2.0, 0.0, 8.0]).in_whole_numbers(),
        Param::exercise("contact_hertz", [30.0, 5.0, 120.0]),
        Param::exercise("damping_ratio", [10.0, 0.0, 20.0]),
    ],
    readouts: &[
        Readout::plain("t", "s"),
        Readout::inked("deepest overlap so far", "m", Ink::First),
        Readout::plain("deepest overlap now", "m"),
        Readout::inked("kinetic energy", "J", Ink::Second),
    ],
    // Two panels (the units differ): how deep the contacts went, and the motion a
    // resting scene should not have, which a solver that adds energy shows at once.
    plot: Plot::over("t", &["deepest overlap so far", "kinetic energy"]),
    view: view_of,
    drag: Some(
        "Press on a box and drag it: a spring pulls the point you pressed towards the \
         pointer. Switch the solver and the same world goes on under the new one. The \
         picture's sides and top are walls.",
    ),
    build: |p| {
        let scene = SCENES[p.whole("scene")?.min(SCENES.len() - 1)];
        let base = p.whole("base")?;
        let mut world = build(scene, settings(p)?, base)?.world;
        let view = view_of(p)?;
        walls(&mut world, view)?;
        Ok(Box::new(Bench {
            world,
            view,
            pointer: V2::zeros(),
            grip: None,
            scene: p.whole("scene")?,
            base,
        }))
    },
};

/// The picture of a scene (m): its bodies as they stand and fall, the ground's
/// top at its foot. Walls stand at its sides and top.
fn view_of(p: &Values) -> Result<[f64; 4], PbmError> {
    Ok(match SCENES[p.whole("scene")?.min(SCENES.len() - 1)] {
        Scene::SingleBox => [-3.0, 3.0, -0.5, 4.0],
        Scene::VerticalStack => [-9.0, 9.0, -0.5, 17.0],
        Scene::Pyramid => [-9.0, 9.0, -0.5, 16.0],
        Scene::FrictionRamp => [-17.0, 14.0, -0.5, 11.0],
        Scene::OverlapRecovery => [-4.0, 4.0, -0.5, 5.0],
        Scene::MassRatio => [-13.0, 13.0, -0.5, 23.0],
        Scene::HeavyTops => {
            // Three pyramids of the base's 2 m boxes, side by side.
            let b = p.whole("base")? as f64;
            [-23.0 - b, 5.0 * b - 15.0, -0.5, 2.0 * b + 4.0]
        }
        Scene::Arch => [-8.0, 8.0, -0.5, 16.0],
        Scene::Domino => [-9.0, 9.0, -0.5, 4.0],
        Scene::Chain => [-50.0, 60.0, -0.5, 65.0],
        Scene::JointGrid => {
            // The net's 2·base columns, hung 1.5·(2·base) + 5 m up.
            let n = 2.0 * p.whole("base")?.max(2) as f64;
            [-n, n, -0.5, 1.5 * n + 6.0]
        }
    })
}

/// The solvers of the menu, in its order: Box2D v3's first.
const SOLVERS: [SolverKind; 6] = [
    SolverKind::SoftStep,
    SolverKind::TgsSoft,
    SolverKind::SoftPgs,
    SolverKind::PgsNgs,
    SolverKind::Pgs,
    SolverKind::Xpbd,
];

/// The world's settings from the demo's values.
fn settings(p: &Values) -> Result<Settings, PbmError> {
    Ok(Settings {
        solver: SOLVERS[p.whole("solver")?.min(SOLVERS.len() - 1)],
        iterations: p.whole("iterations")?,
        relax: p.whole("relax")?,
        contact_hertz: p.get("contact_hertz")?,
        damping_ratio: p.get("damping_ratio")?,
        ..Settings::default()
    })
}

/// The pointer's spring: its frequency (Hz) and damping ratio, per unit of the
/// pressed box's mass.
const GRIP: (f64, f64) = (3.0, 1.0);

/// Fixed walls 4 m thick just inside the sides and the top of `view`, added after
/// the scene's bodies (the ground is its floor).
fn walls(world: &mut World, [x0, x1, y0, y1]: [f64; 4]) -> Result<(), PbmError> {
    let (t, m) = (2.0, 0.05);
    let (x0, x1, y1) = (x0 + m, x1 - m, y1 - m);
    let (mid, high) = (0.5 * (y0 + y1), 0.5 * (y1 - y0) + t);
    for (half, centre) in [
        (V2::new(t, high), V2::new(x0 - t, mid)),
        (V2::new(t, high), V2::new(x1 + t, mid)),
        (V2::new(0.5 * (x1 - x0) + 2.0 * t, t), V2::new(0.5 * (x0 + x1), y1 + t)),
    ] {
        world.add(Body::fixed_box(half, 0.5, (centre, 0.0))?);
    }
    Ok(())
}

struct Bench {
    world: World,
    /// The picture, and where the pointer is in it: the spring pulls towards a
    /// point that follows the pointer at most half the picture's width a second.
    view: [f64; 4],
    pointer: V2,
    /// The scene's place in the menu, and the pyramid's base, it was built with.
    scene: usize,
    base: usize,
    /// The pressed box, the point pressed in its frame, and the pointer.
    grip: Option<(usize, V2, V2)>,
}

impl Bench {
    /// The pointer's spring on the pressed point, as an impulse over one step.
    fn pull(&mut self) {
        let Some((k, local, target)) = self.grip else { return };
        let h = self.world.settings().h;
        let body: &mut Body = &mut self.world.bodies[k];
        let r = rotation(body.angle) * local;
        let at = body.position + r;
        let omega = 2.0 * std::f64::consts::PI * GRIP.0;
        let pull = (target - at) * (omega * omega)
            - body.velocity_at(&r) * (2.0 * GRIP.1 * omega);
        body.apply_impulse(&r, &(pull * (body.mass() * h)));
    }
}

impl Demo for Bench {
    fn frame(&mut self) -> Result<(), PbmError> {
        if let Some((_, _, target)) = &mut self.grip {
            // The hand's speed is real, but capped.
            let fastest = 0.5 * (self.view[1] - self.view[0]);
            let d = self.pointer - *target;
            let [x, y] = capped([d.x, d.y], fastest * FRAME);
            *target += V2::new(x, y);
        }
        self.pull();
        self.world.step()
    }

    fn readouts(&self) -> Vec<f64> {
        let now = self
            .world
            .constraints()
            .iter()
            .flat_map(|c| c.points.iter())
            .map(|p| -p.separation)
            .fold(0.0, f64::max);
        let kinetic = self.world.bodies.iter().map(Body::kinetic_energy).sum();
        vec![self.world.time(), self.world.stats().max_penetration, now, kinetic]
    }

    fn draw(&self, out: &mut Drawing) {
        for body in &self.world.bodies {
            let ink = if body.is_fixed() { Ink::Muted } else { Ink::First };
            for part in body.placed() {
                out.polygon(
                    ink,
                    part.vertices()
                        .iter()
                        .map(|v| [v.x, v.y])
                        .collect::<Vec<_>>()
                        .into_iter(),
                );
            }
        }
        if let Some((k, local, target)) = self.grip {
            let held = self.world.bodies[k].world_point(&local);
            out.polyline(
                Ink::Foreground,
                [[held.x, held.y], [target.x, target.y]].into_iter(),
            );
            out.disc(Ink::Foreground, [target.x, target.y], 4.0);
        }
    }

    fn pointer(&mut self, event: Pointer, [x, y]: [f64; 2]) -> bool {
        let at = V2::new(x, y);
        let [x0, x1, y0, y1] = self.view;
        self.pointer = V2::new(x.clamp(x0, x1), y.clamp(y0, y1));
        match event {
            Pointer::Down => {
                let hit = self.world.bodies.iter().position(|b| {
                    !b.is_fixed()
                        && b.placed().iter().any(|p| inside(p.vertices(), &at))
                });
                let Some(k) = hit else { return false };
                let body = &self.world.bodies[k];
                let local = rotation(-body.angle) * (at - body.position);
                self.grip = Some((k, local, at));
                true
            }
            Pointer::Move => self.grip.is_some(),
            Pointer::Up => self.grip.take().is_some(),
        }
    }

    fn bodies(&self) -> Vec<Whereabouts> {
        // Every box that moves, taken by its centre.
        let moving = self.world.bodies.iter().filter(|b| !b.is_fixed());
        let body = |b: &Body| {
            let parts = b.placed();
            let corners = parts.iter().flat_map(|p| p.vertices().iter());
            let whole = Whereabouts::of(corners.map(|v| [v.x, v.y]));
            whole.gripped_at([b.position.x, b.position.y])
        };
        moving.map(body).collect()
    }

    fn retune(&mut self, params: &Values) -> bool {
        // The solver and its budget change on the running world; a new scene or
        // pyramid starts over.
        let same =
            |name: &str, now: usize| params.whole(name).is_ok_and(|v| v == now);
        if !(same("scene", self.scene) && same("base", self.base)) {
            return false;
        }
        settings(params).and_then(|s| self.world.set_settings(s)).is_ok()
    }
}

/// Whether `p` is inside the convex polygon `corners` (counter-clockwise).
fn inside(corners: &[V2], p: &V2) -> bool {
    let n = corners.len();
    (0..n).all(|i| {
        cross(&(corners[(i + 1) % n] - corners[i]), &(p - corners[i])) >= 0.0
    })
}
