//! The stack of ten boxes, one step at a time, beside rapier on the same scene: ten
//! 0.5 m cubes of 1 kg on the ground, μ = 0.5, h = 0.01 s. Rapier solves contact
//! iteratively (projected Gauss–Seidel on velocities, soft constraints); this chapter
//! solves it exactly (pivoting on accelerations, RK4, four solves a step).
//! Run with `cargo bench -p pbm-bench --bench versus_rapier`.

#![allow(clippy::unwrap_used)] // a benchmark that unwraps fails with the error's message

use criterion::{Criterion, criterion_group, criterion_main};
use pbm_contact::scenes::CUBE;
use pbm_contact::scenes::run_stack;
use pbm_contact::world::Settings;
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
    let settings = Settings { friction: 0.5, ..Settings::default() };
    let (mut ours, drift, _) = run_stack(10, 1.0, settings).unwrap();
    assert!(drift < 1e-6, "our stack moved {drift} m before timing");
    let mut rapier = Rapier::stack(10);
    let start = rapier.heights();
    for _ in 0..100 {
        rapier.step();
    }
    // Rapier's stack stays up too; its soft contacts let it settle a little.
    let sunk = start
        .iter()
        .zip(rapier.heights())
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    eprintln!("after 1 s: our drift {drift:.2e} m, rapier's {sunk:.2e} m");
    assert!(sunk < 0.05, "rapier's stack fell: {sunk} m");
    // Rapier puts resting bodies to sleep, which would time nothing; keep them awake.
    for &h in &rapier.boxes {
        rapier.bodies[h].wake_up(true);
    }
    group.bench_function("ours", |b| b.iter(|| black_box(ours.step().unwrap())));
    group.bench_function("rapier", |b| {
        b.iter(|| {
            for &h in &rapier.boxes {
                rapier.bodies[h].wake_up(true);
            }
            rapier.step();
            black_box(rapier.bodies[rapier.boxes[9]].translation().y)
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = versus_rapier
}
criterion_main!(benches);
