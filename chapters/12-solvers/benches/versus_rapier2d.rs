//! The pyramid of base 20 (210 boxes of 1 m and 1 kg, μ = 0.6, g = 10 m/s², steps of
//! 1/60 s), one step at a time, under the chapter's soft step and under rapier2d
//! (f64), at settings that match: rapier's defaults are four substeps, one velocity
//! pass and one relax pass in each, contact springs of 30 Hz (60 Hz against the
//! ground) with damping ratio 10, warm starting; the chapter's soft step at its
//! defaults does the same. Both pyramids are first run for ten simulated seconds, and
//! how far each top box sank while the pyramid settled (the first second) and
//! drifted after it goes beside criterion's estimates, in
//! `target/criterion/pyramid-motion.json`. Then one step of the standing pyramid is
//! timed, rapier's bodies kept awake (it would put a resting pyramid to sleep and
//! time nothing).
//! Run with `cargo bench -p pbm-solvers --features bench`.

#![allow(clippy::unwrap_used)] // a benchmark that unwraps fails with the error's message

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use pbm_solvers::scenes::{FRICTION, HALF, Scene, build};
use pbm_solvers::solvers::SolverKind;
use pbm_solvers::world::{Settings, World};
use rapier2d_f64::prelude::*;
use serde_json::{Map, Value, json};
use std::hint::black_box;

/// The pyramid's bottom row.
const BASE: usize = 20;
/// The pyramid has settled by then (s): sink is measured until, drift after.
const SETTLE: f64 = 1.0;
/// How long each pyramid runs before it is timed (s).
const RUN: f64 = 10.0;

/// Rapier's world and what its pipeline needs between steps.
struct Rapier {
    pipeline: PhysicsPipeline,
    gravity: Vector,
    parameters: IntegrationParameters,
    islands: IslandManager,
    broad_phase: BroadPhaseBvh,
    soft_bodies: SoftBodySet,
    narrow_phase: NarrowPhase,
    bodies: RigidBodySet,
    colliders: ColliderSet,
    impulse_joints: ImpulseJointSet,
    multibody_joints: MultibodyJointSet,
    ccd: CCDSolver,
    boxes: Vec<RigidBodyHandle>,
}

impl Rapier {
    /// The chapter's pyramid, box for box where `build` puts it, on a ground 80 m
    /// wide and 2 m thick, under rapier's default parameters.
    fn pyramid(placed: &World) -> Self {
        let mut bodies = RigidBodySet::new();
        let mut colliders = ColliderSet::new();
        let ground = ColliderBuilder::cuboid(40.0, 1.0)
            .translation(Vector::new(0.0, -1.0))
            .friction(FRICTION)
            .build();
        colliders.insert(ground);
        let mut boxes = Vec::new();
        for b in placed.bodies.iter().filter(|b| !b.is_fixed()) {
            let body = RigidBodyBuilder::dynamic()
                .translation(Vector::new(b.position.x, b.position.y))
                .build();
            let handle = bodies.insert(body);
            let collider = ColliderBuilder::cuboid(HALF, HALF)
                .density(1.0)
                .friction(FRICTION)
                .build();
            colliders.insert_with_parent(collider, handle, &mut bodies);
            boxes.push(handle);
        }
        Rapier {
            pipeline: PhysicsPipeline::new(),
            gravity: Vector::new(0.0, -10.0),
            parameters: IntegrationParameters::default(),
            islands: IslandManager::new(),
            broad_phase: BroadPhaseBvh::new(),
            soft_bodies: SoftBodySet::new(),
            narrow_phase: NarrowPhase::new(),
            bodies,
            colliders,
            impulse_joints: ImpulseJointSet::new(),
            multibody_joints: MultibodyJointSet::new(),
            ccd: CCDSolver::new(),
            boxes,
        }
    }

    /// One step with every box awake.
    fn step(&mut self) {
        for &h in &self.boxes {
            self.bodies[h].wake_up(true);
        }
        self.pipeline.step(
            self.gravity,
            &self.parameters,
            &mut self.islands,
            &mut self.broad_phase,
            &mut self.narrow_phase,
            &mut self.bodies,
            &mut self.colliders,
            &mut self.impulse_joints,
            &mut self.multibody_joints,
            &mut self.soft_bodies,
            &mut self.ccd,
            &(),
            &(),
        );
    }

    /// The top box's centre (m).
    fn top(&self) -> [f64; 2] {
        let t = self.bodies[*self.boxes.last().unwrap()].translation();
        [t.x, t.y]
    }
}

/// How far the top box moved while the pyramid settled and after it, and whether
/// any box is out of place by more than half a box at the end (m, m, bool).
fn motion(placed: [f64; 2], settled: [f64; 2], end: [f64; 2]) -> Value {
    let distance = |a: [f64; 2], b: [f64; 2]| (a[0] - b[0]).hypot(a[1] - b[1]);
    json!({ "sink": distance(placed, settled), "drift": distance(settled, end) })
}

/// Runs `step` for [`RUN`] seconds of 1/60 s and returns the top's motion.
fn settle(mut step: impl FnMut(), top: impl Fn() -> [f64; 2]) -> Value {
    let placed = top();
    let steps = |seconds: f64| (seconds * 60.0).round() as usize;
    (0..steps(SETTLE)).for_each(|_| step());
    let settled = top();
    (0..steps(RUN - SETTLE)).for_each(|_| step());
    motion(placed, settled, top())
}

fn versus_rapier2d(c: &mut Criterion) {
    let settings = Settings { solver: SolverKind::SoftStep, ..Settings::default() };
    let placed = build(Scene::Pyramid, settings, BASE).unwrap();
    let top = placed.watched;
    let mut ours = placed.world.clone();
    let mut rapier = Rapier::pyramid(&placed.world);
    assert!(
        (rapier.parameters.dt - ours.settings().h).abs() < 1e-12,
        "rapier's default step is not the chapter's"
    );
    let mut moved = Map::new();
    let id = |what: &str| format!("pyramid-vs-rapier2d/{what}/{BASE}");
    let at = |w: &World| [w.bodies[top].position.x, w.bodies[top].position.y];
    let ours_motion = {
        let cell = std::cell::RefCell::new(&mut ours);
        settle(|| cell.borrow_mut().step().unwrap(), || at(&cell.borrow()))
    };
    let rapier_motion = {
        let cell = std::cell::RefCell::new(&mut rapier);
        settle(|| cell.borrow_mut().step(), || cell.borrow().top())
    };
    for (what, m) in [("soft-step", ours_motion), ("rapier2d", rapier_motion)] {
        eprintln!("pyramid of base {BASE}, {what}: {m}");
        let drift = m["drift"].as_f64().unwrap();
        assert!(
            drift < 0.01,
            "{what}'s pyramid did not stand: its top moved {drift} m"
        );
        moved.insert(id(what), m);
    }
    let file = pbm_prelim::registry::criterion_file("pyramid-motion.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, serde_json::to_string_pretty(&moved).unwrap()).unwrap();

    let mut group = c.benchmark_group("pyramid-vs-rapier2d");
    group.bench_function(BenchmarkId::new("rapier2d", BASE), |b| {
        b.iter(|| {
            rapier.step();
            black_box(rapier.top())
        })
    });
    group.bench_function(BenchmarkId::new("soft-step", BASE), |b| {
        b.iter(|| {
            ours.step().unwrap();
            black_box(at(&ours))
        })
    });
    group.finish();
}

criterion_group!(benches, versus_rapier2d);
criterion_main!(benches);
