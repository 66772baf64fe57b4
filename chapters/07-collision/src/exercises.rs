//! The chapter's exercises.

use crate::scene::BoxScene;
use crate::sweep::{CoherentSweep, brute_force_pairs, sort_and_sweep_pairs};
use pbm_ode::convergence::log_log_slope;
use pbm_prelim::{Exercise, ParamSpec, Params, PbmError};
use serde_json::{Value, json};
use std::time::Instant;

/// Baraff 1995, Table 1: milliseconds per step on a Mips R4000 for 100 … 3,200 boxes.
pub const PAPER_TABLE_1: [(usize, f64); 6] = [
    (100, 0.96),
    (200, 2.05),
    (400, 4.41),
    (800, 9.83),
    (1600, 22.30),
    (3200, 53.30),
];

/// Every exercise of the chapter, in reading order.
pub fn all() -> Vec<Exercise> {
    vec![Exercise {
        id: "sweep-table",
        summary: "Baraff's Table 1 again: the coherent sweep, a full re-sort and brute force on 100 to 3,200 moving boxes",
        params: vec![
            ParamSpec::int(
                "n_max",
                "largest number of boxes (doubling from 100)",
                3200,
                200,
                3200,
            ),
            ParamSpec::float(
                "speed",
                "largest box speed (units per step)",
                0.05,
                0.0,
                0.4,
            ),
            ParamSpec::int("seed", "which random scene", 1, 0, 1_000_000),
            ParamSpec::int("steps", "steps timed at each n", 50, 5, 200),
        ],
        run: sweep_table,
        optional: &[],
    }]
}

/// The median of per-step timings (ms): robust to a step the OS interrupted.
fn median_ms(samples: &mut [f64]) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn sweep_table(p: &Params) -> Result<Value, PbmError> {
    let (n_max, speed) = (p.usize("n_max")?, p.f64("speed")?);
    let (seed, steps) = (p.usize("seed")? as u64, p.usize("steps")?);
    let mut rows = Vec::new();
    let mut fit = Vec::new();
    for &(n, paper_ms) in PAPER_TABLE_1.iter().filter(|(n, _)| *n <= n_max) {
        let mut scene = BoxScene::new(n, speed, seed)?;
        let mut sweep = CoherentSweep::new(&scene.bounds()?)?;
        let (mut coherent, mut resort, mut brute) = (vec![], vec![], vec![]);
        let mut equal = true;
        let mut exchanges = 0;
        for _ in 0..steps {
            scene.step();
            let boxes = scene.bounds()?;
            let start = Instant::now();
            let changes = sweep.update(&boxes)?;
            coherent.push(start.elapsed().as_secs_f64() * 1e3);
            exchanges += changes.exchanges;
            let start = Instant::now();
            let sorted = sort_and_sweep_pairs(&boxes)?;
            resort.push(start.elapsed().as_secs_f64() * 1e3);
            let start = Instant::now();
            let reference = brute_force_pairs(&boxes);
            brute.push(start.elapsed().as_secs_f64() * 1e3);
            equal &= sweep.pairs() == reference && sorted == reference;
        }
        let sweep_ms = median_ms(&mut coherent);
        fit.push((n as f64, sweep_ms));
        rows.push(json!({
            "n": n,
            "sweep_ms": sweep_ms,
            "resort_ms": median_ms(&mut resort),
            "brute_ms": median_ms(&mut brute),
            "paper_ms": paper_ms,
            "exchanges_per_step": exchanges as f64 / steps as f64,
            "overlapping_pairs": sweep.pairs().len(),
            "pairs_equal_brute": equal,
        }));
    }
    // n_max ≥ 200 gives at least two rows to fit.
    Ok(json!({ "rows": rows, "fitted_slope": log_log_slope(&fit) }))
}
