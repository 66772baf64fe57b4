//! One 60 Hz frame (20 substeps of one pass) of the chapter's XPBD scenes, beside
//! one frame of chapter 9's implicit cloth at the same size: a 100-box chain, a
//! 100-link particle chain (chapter 4's), and a 100 × 100 cloth (10,000 particles)
//! by XPBD at 20 substeps, the cloth also at the 200 it needs to be as stiff as
//! chapter 9's; the 100 × 100 curtain of chapter 9 by one backward Euler step of
//! 1/60 s.
//! Run with `RAYON_NUM_THREADS=1` for the one-core figures the page quotes.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use pbm_cloth::cloth::Material;
use pbm_cloth::scenes::{Scene, cloth};
use pbm_constraints::scenes::Chain;
use pbm_pbd::projection::Stiffness;
use pbm_pbd::scenes::FRAME;
use pbm_pbd::scenes::{BoxChain, projected_chain, xpbd_cloth};

const SUBSTEPS: usize = 20;

/// Chapter 9's cotton: one structural edge per cell and direction carries the
/// sheet's k = 1000 N/m, so α = 1/k; bending is limp. Whether the sheet is then as
/// stiff as chapter 9's depends on the substeps: `pbm run pbd/sheet-sag`.
const STRETCH_COMPLIANCE: f64 = 1.0 / 1000.0;
const BEND_COMPLIANCE: f64 = 1.0;

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("pbd");
    group.sample_size(10);

    let mut boxes =
        BoxChain { links: 100, size: [0.05, 0.02, 0.05], ..BoxChain::BOOK }
            .build()
            .unwrap();
    for _ in 0..30 * SUBSTEPS {
        boxes.step(FRAME / SUBSTEPS as f64, 1).unwrap();
    }
    group.bench_function("box_chain_frame_100", |b| {
        b.iter_batched(
            || boxes.clone(),
            |mut s| {
                for _ in 0..SUBSTEPS {
                    s.step(FRAME / SUBSTEPS as f64, 1).unwrap();
                }
                s
            },
            BatchSize::LargeInput,
        )
    });

    let chain = Chain { links: 100, length: 0.01, mass: 0.01 };
    let mut particles = projected_chain(chain, Stiffness::RIGID).unwrap();
    particles.frame(FRAME * 30.0, 30 * SUBSTEPS, 1).unwrap();
    group.bench_function("particle_chain_frame_100", |b| {
        b.iter(|| particles.frame(FRAME, SUBSTEPS, 1).unwrap())
    });

    let mut sheet = xpbd_cloth(100, STRETCH_COMPLIANCE, BEND_COMPLIANCE).unwrap();
    sheet.frame(FRAME, SUBSTEPS, 1).unwrap();
    group.bench_function("xpbd_cloth_frame_n100", |b| {
        b.iter(|| sheet.frame(FRAME, SUBSTEPS, 1).unwrap())
    });

    // What it takes at this size to stretch no more than chapter 9's sheet does
    // (`pbm run pbd/sheet-sag --set n=100 --set substeps=200 --set t_end=0.1`).
    let mut fine = xpbd_cloth(100, STRETCH_COMPLIANCE, BEND_COMPLIANCE).unwrap();
    fine.frame(FRAME, 10 * SUBSTEPS, 1).unwrap();
    group.bench_function("xpbd_cloth_frame_n100_200_substeps", |b| {
        b.iter(|| fine.frame(FRAME, 10 * SUBSTEPS, 1).unwrap())
    });

    let mut curtain = cloth(Scene::Curtain, 100, Material::COTTON).unwrap();
    curtain.backward_euler_step(FRAME).unwrap();
    group.bench_function("implicit_cloth_frame_n100", |b| {
        b.iter_batched(
            || curtain.clone(),
            |mut m| m.backward_euler_step(FRAME).unwrap(),
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

criterion_group!(pbd, benches);
criterion_main!(pbd);
