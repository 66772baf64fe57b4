//! The coherent sweep and the uniform grid against brute force at every step of random
//! scenes, in 2-D and 3-D: the same overlapping pairs, and (for the sweep) changes that
//! are exactly the difference between one step's pairs and the next.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use pbm_collision::aabb::Aabb;
use pbm_collision::grid::UniformGrid;
use pbm_collision::sweep::{
    CoherentSweep, Pair, brute_force_pairs, sort_and_sweep_pairs,
};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// A scene: for each box, a corner, a size and a velocity, all on a grid of 1/8 so
/// that ends coincide exactly and boxes touch; a zero velocity is a box that stops.
fn scene<const D: usize>(
    n: usize,
) -> impl Strategy<Value = Vec<([i32; D], [i32; D], [i32; D])>> {
    let coordinate = || prop::array::uniform::<_, D>(0..40i32);
    let size = || prop::array::uniform::<_, D>(1..8i32);
    let velocity = || prop::array::uniform::<_, D>(-3..=3i32);
    prop::collection::vec((coordinate(), size(), velocity()), 1..n)
}

fn at<const D: usize>(
    spec: &[([i32; D], [i32; D], [i32; D])],
    step: i32,
) -> Vec<Aabb<D>> {
    spec.iter()
        .map(|(corner, size, velocity)| {
            let min: [f64; D] = std::array::from_fn(|k| {
                // Bounce between 0 and 40 so boxes stay in the region.
                let x = (corner[k] + step * velocity[k]).rem_euclid(80);
                f64::from(if x > 40 { 80 - x } else { x }) / 8.0
            });
            let max = std::array::from_fn(|k| min[k] + f64::from(size[k]) / 8.0);
            Aabb::new(min, max).unwrap()
        })
        .collect()
}

fn difference(a: &[Pair], b: &[Pair]) -> Vec<Pair> {
    let b: BTreeSet<_> = b.iter().collect();
    a.iter().filter(|p| !b.contains(p)).copied().collect()
}

fn agrees_with_brute_force<const D: usize>(
    spec: &[([i32; D], [i32; D], [i32; D])],
) -> Result<(), TestCaseError> {
    let first = at(spec, 0);
    let mut sweep = CoherentSweep::new(&first).unwrap();
    let mut before = brute_force_pairs(&first);
    prop_assert_eq!(sweep.pairs(), before.clone());
    let mut grid = UniformGrid::new();
    for step in 1..30 {
        let boxes = at(spec, step);
        let now = brute_force_pairs(&boxes);
        let mut by_grid = grid.update(&boxes).unwrap().to_vec();
        by_grid.sort_unstable();
        prop_assert_eq!(by_grid, now.clone(), "grid, step {}", step);
        let changes = sweep.update(&boxes).unwrap();
        prop_assert_eq!(sweep.pairs(), now.clone(), "step {}", step);
        prop_assert_eq!(sort_and_sweep_pairs(&boxes).unwrap(), now.clone());
        prop_assert_eq!(changes.began, difference(&now, &before), "step {}", step);
        prop_assert_eq!(changes.ended, difference(&before, &now), "step {}", step);
        before = now;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn coherent_sweep_matches_brute_force_in_2d(spec in scene::<2>(60)) {
        agrees_with_brute_force(&spec)?;
    }

    #[test]
    fn coherent_sweep_matches_brute_force_in_3d(spec in scene::<3>(60)) {
        agrees_with_brute_force(&spec)?;
    }
}

#[test]
fn the_grid_finds_brute_forces_pairs_in_table_1s_scene_and_among_scattered_boxes() {
    use pbm_collision::scenes::coherent_frames;
    let mut grid = UniformGrid::new();
    for frame in coherent_frames(3200, 0.05, 3).unwrap() {
        let mut pairs = grid.update(&frame).unwrap().to_vec();
        pairs.sort_unstable();
        assert_eq!(pairs, brute_force_pairs(&frame));
    }
    // Small boxes far apart would ask for a huge grid: the cells widen instead, and
    // the pairs are still right (two clusters a million units apart).
    let boxes: Vec<Aabb<2>> = (0..40)
        .map(|i| {
            let far = if i % 2 == 0 { 0.0 } else { 1e6 };
            let x = far + 0.05 * f64::from(i / 2);
            Aabb::new([x, 0.0], [x + 0.1, 0.1]).unwrap()
        })
        .collect();
    let mut pairs = grid.update(&boxes).unwrap().to_vec();
    pairs.sort_unstable();
    assert_eq!(pairs, brute_force_pairs(&boxes));
    // Strung out along a line 1e12 units long: a cell for every box's width along
    // it would be millions of cells; the widened grid keeps to a few per box.
    let line: Vec<Aabb<2>> = (0..40)
        .map(|i| {
            let x = if i == 39 { 1e12 } else { 0.07 * f64::from(i) };
            Aabb::new([x, 0.0], [x + 0.1, 0.1]).unwrap()
        })
        .collect();
    let mut pairs = grid.update(&line).unwrap().to_vec();
    pairs.sort_unstable();
    assert_eq!(pairs, brute_force_pairs(&line));
    assert!(grid.cells() <= 4 * line.len() + 64, "{} cells", grid.cells());
    assert!(grid.update(&[]).unwrap().is_empty());
}

#[test]
fn boxes_that_do_not_move_cost_no_exchanges() {
    let spec: Vec<([i32; 2], [i32; 2], [i32; 2])> =
        (0..50).map(|i| ([i % 40, (7 * i) % 40], [3, 2], [0, 0])).collect();
    let boxes = at(&spec, 0);
    let mut sweep = CoherentSweep::new(&boxes).unwrap();
    let changes = sweep.update(&boxes).unwrap();
    assert_eq!(changes.exchanges, 0);
    assert!(changes.began.is_empty() && changes.ended.is_empty());
}

#[test]
fn the_sweep_table_agrees_with_brute_force_and_names_its_fields() {
    let exercise = pbm_collision::exercises::all()
        .into_iter()
        .find(|e| e.id == "sweep-table")
        .unwrap();
    let v = exercise.run_with("collision", &["n_max=400", "steps=10"]).unwrap();
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    for row in rows {
        assert_eq!(row["pairs_equal_brute"], true, "{row}");
        for key in ["n", "sweep_ms", "resort_ms", "brute_ms", "paper_ms"] {
            assert!(row[key].as_f64().is_some_and(|x| x > 0.0), "{key}: {row}");
        }
    }
    assert!(v["fitted_slope"].as_f64().unwrap().is_finite());
}

#[test]
fn exchanges_outgrow_changes_in_overlap_status() {
    // Baraff (1995) expects the exchanges c to stay close to the changes k. On Table 1's
    // scene at constant density they do not: c grows like n^1.5, k like n.
    let exercise = pbm_collision::exercises::all()
        .into_iter()
        .find(|e| e.id == "sweep-table")
        .unwrap();
    let v = exercise.run_with("collision", &["steps=20"]).unwrap();
    let c = v["exchange_slope"].as_f64().unwrap();
    let k = v["change_slope"].as_f64().unwrap();
    assert!((1.4..1.6).contains(&c), "exchange slope {c}");
    assert!((0.85..1.15).contains(&k), "change slope {k}");
    let last = v["coherence"].as_array().unwrap().last().unwrap().clone();
    let ratio = last["exchanges_per_step"].as_f64().unwrap()
        / last["changes_per_step"].as_f64().unwrap();
    assert!(ratio > 100.0, "at 3,200 boxes only {ratio} exchanges per change");
    // The count of swapping end pairs predicts the exchanges at every size.
    for row in v["coherence"].as_array().unwrap() {
        let counted = row["exchanges_per_step"].as_f64().unwrap();
        let predicted = row["predicted_exchanges_per_step"].as_f64().unwrap();
        assert!((predicted / counted - 1.0).abs() < 0.1, "{row}");
    }
}

#[test]
fn the_other_exercises_name_the_fields_the_checks_read() {
    let all = pbm_collision::exercises::all();
    let run = |id: &str, set: &[&str]| {
        all.iter().find(|e| e.id == id).unwrap().run_with("collision", set).unwrap()
    };
    let plane = run("separating-plane", &[]);
    let rate = plane["witness_reuse_rate"].as_f64().unwrap();
    assert!(rate > 0.95 && rate <= 1.0, "{rate}");
    let tunnel = run("tunnel", &[]);
    assert_eq!(tunnel["tunnels_without_cure"], true);
    assert_eq!(tunnel["tunnels_with_cure"], false);
    // Slow enough, nothing tunnels and the cure's hit is the plain test's hit.
    let slow = run("tunnel", &["speed=3"]);
    assert_eq!(slow["tunnels_without_cure"], false);
    assert_eq!(slow["tunnels_with_cure"], false);
    let toi = run("toi", &[]);
    for row in toi["rows"].as_array().unwrap() {
        assert!(row["true_gap"].as_f64().unwrap().abs() <= 1e-4, "{row}");
    }
    let fold = run("bvh-fold", &["n=12", "frames=6"]);
    assert_eq!(fold["all_equal_brute"], true);
}
