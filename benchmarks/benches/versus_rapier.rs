//! The stacks of ten and forty boxes, one step at a time, beside rapier on the same
//! scene: 0.5 m cubes of 1 kg on the ground, μ = 0.5, h = 0.01 s. Rapier solves
//! contact iteratively (projected Gauss–Seidel on velocities, soft constraints);
//! chapter 8 solves it exactly (pivoting on accelerations, RK4, four solves a step)
//! and by its own sequential impulses (four substeps, each with ten sweeps, the
//! chapter's default, or six, at which the stack of forty stands for minutes).
//! Rapier runs twice: with its defaults, under which its soft contacts let the
//! stacks sink, and tuned to sink about as little as the chapter's sequential
//! impulses. How far each stack sank before it was timed goes beside criterion's
//! estimates, in `target/criterion/stack-sink.json`.
//! Run with `cargo bench -p pbm-bench --bench versus_rapier`.

#![allow(clippy::unwrap_used)] // a benchmark that unwraps fails with the error's message

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use pbm_bench::criterion_file;
use pbm_contact::scenes::CUBE;
use pbm_contact::scenes::{run_stack, stack};
use pbm_contact::world::{Settings, Solver, World};
use rapier3d_f64::prelude::*;
use serde_json::{Map, Value};
use std::hint::black_box;

/// How long every stack settles before it is timed (s): 100 of the 10 ms steps.
const SETTLE: f64 = 1.0;

/// Rapier's defaults at the scene's step.
fn defaults() -> IntegrationParameters {
    IntegrationParameters { dt: 0.01, ..Default::default() }
}

/// Rapier tuned to sink about as little as chapter 8's sequential impulses with ten
/// sweeps: contact springs at ten times its default frequencies (300 Hz between
/// boxes instead of 30, 600 on the ground instead of 60; the damping ratio stays
/// 10), and sixteen substeps instead of four, without which springs that stiff
/// shake the stacks out of line. Sinks measured after a second (top box, m),
/// against the sequential impulses' 2.5e-4 (ten boxes) and 4.6e-3 (forty):
///
/// | substeps | springs (ground) | ten boxes | forty boxes                  |
/// |---------:|------------------|----------:|------------------------------|
/// |        4 | 30 Hz (60)       |    2.4e-2 | 4.5e-1: rapier's defaults    |
/// |       16 | 30 Hz (60)       |    2.1e-2 | 4.4e-1                       |
/// |        4 | 120 Hz (60)      |    2.2e-3 | 2.9e-2, 5.5e-2 after 2 s     |
/// |       16 | 240 Hz (480)     |    4.0e-4 | 6.8e-3                       |
/// |       16 | 300 Hz (600)     |    2.6e-4 | 4.3e-3: this tuning          |
/// |       12 | 360 Hz (720)     |    1.8e-4 | 4.1e-3, out of line by 2 s   |
///
/// With four substeps, springs of 240 Hz and more put the forty out of line
/// within a second (damping ratios 1 and 5). More iterations alone change next
/// to nothing: the sink is the springs'. Sixteen substeps held each tuning above
/// still after five seconds.
fn tuned() -> IntegrationParameters {
    let mut parameters =
        IntegrationParameters { num_solver_iterations: 16, ..defaults() };
    parameters.contact_softness.natural_frequency = 300.0;
    parameters.static_contact_softness.natural_frequency = 600.0;
    parameters
}

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
    fn stack(boxes: usize, parameters: IntegrationParameters) -> Self {
        let (side, mass) = CUBE;
        let mut bodies = RigidBodySet::new();
        let mut colliders = ColliderSet::new();
        let ground = ColliderBuilder::cuboid(20.0, 0.5, 20.0)
            .translation(Vector::new(0.0, -0.5, 0.0))
            .friction(0.5)
            .build();
        colliders.insert(ground);
        let mut handles = Vec::new();
        for k in 0..boxes {
            let body = RigidBodyBuilder::dynamic()
                .translation(Vector::new(0.0, side * (k as f64 + 0.5), 0.0))
                .build();
            let handle = bodies.insert(body);
            let half = 0.5 * side;
            let collider = ColliderBuilder::cuboid(half, half, half)
                .mass(mass)
                .friction(0.5)
                .restitution(0.5)
                .build();
            colliders.insert_with_parent(collider, handle, &mut bodies);
            handles.push(handle);
        }
        Rapier {
            pipeline: PhysicsPipeline::new(),
            gravity: Vector::new(0.0, -9.81, 0.0),
            parameters,
            islands: IslandManager::new(),
            broad_phase: BroadPhaseBvh::new(),
            soft_bodies: SoftBodySet::new(),
            narrow_phase: NarrowPhase::new(),
            bodies,
            colliders,
            impulse_joints: ImpulseJointSet::new(),
            multibody_joints: MultibodyJointSet::new(),
            ccd: CCDSolver::new(),
            boxes: handles,
        }
    }

    fn step(&mut self) {
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

    /// Heights of the boxes' centres (m).
    fn heights(&self) -> Vec<f64> {
        self.boxes.iter().map(|&h| self.bodies[h].translation().y).collect()
    }

    /// Lets the stack settle for [`SETTLE`] seconds; returns how far the top box
    /// sank, and checks that the stack still stands.
    fn settle(&mut self) -> f64 {
        let start = self.heights();
        let steps = (SETTLE / self.parameters.dt).round() as usize;
        for _ in 0..steps {
            self.step();
        }
        let boxes = self.boxes.len();
        let sunk = start
            .iter()
            .zip(self.heights())
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        let height = CUBE.0 * boxes as f64;
        assert!(
            sunk < if boxes > 10 { 0.05 * height } else { 0.05 },
            "rapier's stack of {boxes} fell: {sunk} m"
        );
        start[boxes - 1] - self.heights()[boxes - 1]
    }

    /// One step with every box awake: rapier puts resting bodies to sleep, which
    /// would time nothing.
    fn step_awake(&mut self) -> f64 {
        for &h in &self.boxes {
            self.bodies[h].wake_up(true);
        }
        self.step();
        self.bodies[self.boxes[0]].translation().y
    }
}

/// How far the top box of a finished stack run sank from where `stack` put it (m).
fn top_sink(boxes: usize, settings: Settings, world: &World) -> f64 {
    let placed = stack(boxes, settings).unwrap();
    let top = |w: &World| w.bodies().last().map_or(0.0, |b| b.position().y);
    top(&placed) - top(world)
}

fn versus_rapier(c: &mut Criterion) {
    let mut group = c.benchmark_group("stack-vs-rapier");
    let mut sinks = Map::new();
    for boxes in [10, 40] {
        let id = |what: &str| BenchmarkId::new(what, boxes);
        let mut sunk = |what: &str, metres: f64| {
            eprintln!("{boxes} boxes after {SETTLE} s: {what} sank {metres:.2e} m");
            sinks.insert(
                format!("stack-vs-rapier/{what}/{boxes}"),
                Value::from(metres),
            );
        };
        let exact = Settings { friction: 0.5, ..Settings::default() };
        let sequential = |sweeps| Settings {
            solver: Solver::SequentialImpulses { sweeps },
            ..exact
        };
        let (mut ours, drift, _) = run_stack(boxes, SETTLE, exact).unwrap();
        assert!(drift < 1e-5, "our exact stack of {boxes} moved {drift} m");
        sunk("exact", top_sink(boxes, exact, &ours));
        let swept = |sweeps| {
            let (world, drift, _) =
                run_stack(boxes, SETTLE, sequential(sweeps)).unwrap();
            assert!(
                drift < 0.05,
                "our stack of {boxes} by {sweeps} sweeps fell: {drift} m"
            );
            let sink = top_sink(boxes, sequential(sweeps), &world);
            (world, sink)
        };
        let ((mut ten, ten_sink), (mut six, six_sink)) = (swept(10), swept(6));
        sunk("sequential", ten_sink);
        sunk("sequential-6-sweeps", six_sink);
        // Rapier's stack stays up too, but its soft contacts give under the weight
        // above them: the ten settle by a few centimetres, the forty by tens.
        let mut rapier = Rapier::stack(boxes, defaults());
        sunk("rapier", rapier.settle());
        // Tuned, it sinks about as little as our sequential impulses.
        let mut stiff = Rapier::stack(boxes, tuned());
        let stiff_sink = stiff.settle();
        assert!(
            stiff_sink.abs() < 2.0 * ten_sink,
            "tuned rapier's stack of {boxes} sank {stiff_sink} m, ours {ten_sink} m"
        );
        sunk("rapier-tuned", stiff_sink);
        group.bench_function(id("exact"), |b| {
            b.iter(|| black_box(ours.step().unwrap()))
        });
        group.bench_function(id("sequential"), |b| {
            b.iter(|| black_box(ten.step().unwrap()))
        });
        group.bench_function(id("sequential-6-sweeps"), |b| {
            b.iter(|| black_box(six.step().unwrap()))
        });
        group.bench_function(id("rapier"), |b| {
            b.iter(|| black_box(rapier.step_awake()))
        });
        group.bench_function(id("rapier-tuned"), |b| {
            b.iter(|| black_box(stiff.step_awake()))
        });
    }
    group.finish();
    write_sinks(sinks);
}

/// Writes how far each timed stack sank while it settled, by criterion id (m),
/// beside criterion's estimates for `bench-tables`.
fn write_sinks(sinks: Map<String, Value>) {
    let file = criterion_file("stack-sink.json");
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir).unwrap();
    }
    let text = serde_json::to_string_pretty(&Value::Object(sinks)).unwrap();
    std::fs::write(&file, text).unwrap();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = versus_rapier
}
criterion_main!(benches);
