//! The stacks of ten and forty boxes, one step at a time, beside rapier on the same
//! scene: 0.5 m cubes of 1 kg on the ground, μ = 0.5, h = 0.01 s. Rapier solves
//! contact iteratively (projected Gauss–Seidel on velocities, soft constraints);
//! chapter 8 solves it exactly (pivoting on accelerations, RK4, four solves a step)
//! and by its own sequential impulses (four substeps, each with ten sweeps, the
//! chapter's default, or six, at which the stack of forty stands for minutes).
//! Run with `cargo bench -p pbm-bench --bench versus_rapier`.

#![allow(clippy::unwrap_used)] // a benchmark that unwraps fails with the error's message

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use pbm_contact::scenes::CUBE;
use pbm_contact::scenes::run_stack;
use pbm_contact::world::{Settings, Solver};
use rapier3d_f64::prelude::*;
use std::hint::black_box;

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
    fn stack(boxes: usize) -> Self {
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
        let parameters = IntegrationParameters { dt: 0.01, ..Default::default() };
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
}

fn versus_rapier(c: &mut Criterion) {
    let mut group = c.benchmark_group("stack-vs-rapier");
    for boxes in [10, 40] {
        let exact = Settings { friction: 0.5, ..Settings::default() };
        let sequential = |sweeps| Settings {
            solver: Solver::SequentialImpulses { sweeps },
            ..exact
        };
        let (mut ours, drift, _) = run_stack(boxes, 1.0, exact).unwrap();
        assert!(drift < 1e-5, "our exact stack of {boxes} moved {drift} m");
        let swept = |sweeps| {
            let (world, drift, _) =
                run_stack(boxes, 1.0, sequential(sweeps)).unwrap();
            assert!(
                drift < 0.05,
                "our stack of {boxes} by {sweeps} sweeps fell: {drift} m"
            );
            world
        };
        let (mut ten, mut six) = (swept(10), swept(6));
        let mut rapier = Rapier::stack(boxes);
        let start = rapier.heights();
        for _ in 0..100 {
            rapier.step();
        }
        // Rapier's stack stays up too, but its soft contacts give under the weight
        // above them: the ten settle by a few centimetres, the forty by tens.
        let sunk = start
            .iter()
            .zip(rapier.heights())
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        eprintln!("{boxes} boxes after 1 s: rapier's sank {sunk:.2e} m");
        let height = CUBE.0 * boxes as f64;
        assert!(
            sunk < if boxes > 10 { 0.05 * height } else { 0.05 },
            "rapier's stack of {boxes} fell: {sunk} m"
        );
        // Rapier puts resting bodies to sleep, which would time nothing; keep them awake.
        for &h in &rapier.boxes {
            rapier.bodies[h].wake_up(true);
        }
        let id = |what: &str| BenchmarkId::new(what, boxes);
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
            b.iter(|| {
                for &h in &rapier.boxes {
                    rapier.bodies[h].wake_up(true);
                }
                rapier.step();
                black_box(rapier.bodies[rapier.boxes[0]].translation().y)
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = versus_rapier
}
criterion_main!(benches);
