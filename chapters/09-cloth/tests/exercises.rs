//! Snapshots of every exercise's default result, and every parameter just outside
//! its range refused (both from `exercise_tests!`).

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

// The chapter's other tests, in one binary with the snapshots (one link, not one per file).
mod cloth;
mod derivatives;
mod self_contact;
mod strand;

use pbm_cloth::chapter;
use pbm_prelim::testing::bound;
use serde_json::Value;

// The runs report their wall-clock time per step, which varies between machines, and
// energies and derivative errors at the level of rounding vary in their last bits:
// the snapshot records that each is within its bound, which a run outside it fails.
// A cloth's kinetic energy at the end is bounded by what its exercise shows: the fan
// in zero gravity settles to rounding; the drape's square resting on a solid still
// creeps, at a fraction of a millimetre a second, under a microjoule (0.2 kg at
// 3 mm/s), while one still sliding or bouncing holds millijoules; the napkin's flap
// lies still on its glued half.
pbm_prelim::exercise_tests!(
    chapter,
    digits = 6,
    mask_by_id = |id: &str, value: &mut Value| {
        bound(value, "ms_per_step", |ms| ms > 0.0);
        let at_rest = match id {
            "contact" => 1e-6,
            "self-contact" => 1e-12,
            _ => 1e-20,
        };
        bound(value, "kinetic_energy_at_end_j", |e| (0.0..at_rest).contains(&e));
        bound(value, "max_gradient_error", |e| e < 1e-6);
        bound(value, "max_hessian_error", |e| e < 1e-6);
        // The drape balanced on its sphere starts, from rounding, a slow slide that
        // viscous friction cannot stop (the page's pitfall box): by 10 s its kinetic
        // energy is a last-bits matter, bounded here far below the landing's.
        if let Some(energy) = value.get_mut("energy_at_end_j") {
            bound(energy, "kinetic", |e| e < 1e-7);
        }
    },
);

#[test]
fn a_cloth_that_collapses_says_at_which_step() {
    // Found by the fuzz test: a 3 × 3 cloth with neither shear nor bending stiffness
    // shears flat onto a line within the run. That is the reader's physics, not a
    // refusal of their values: the run must name the step where it happened.
    let cloth = chapter();
    let drape = cloth.exercise("drape").unwrap();
    let set = [
        "n=3",
        "stretch=4500",
        "h=0.1",
        "shear=0",
        "bend=0",
        "curvature=gauss-newton",
        "tolerance=1e-2",
    ];
    // At h = 0.1 s the collapse comes as a step that gains energy without bound:
    // the run stops there and reports the step in `failure` (an error at a step
    // would do as well); it never ends as if all were well.
    match drape.run_with("cloth", &set) {
        Err(e) => {
            use pbm_prelim::PbmError;
            let inner = match &e {
                PbmError::InRun { source, .. } => source.as_ref(),
                other => other,
            };
            let at_a_step =
                matches!(inner, PbmError::AtStep { .. } | PbmError::Diverged { .. });
            assert!(at_a_step, "{e}");
        }
        Ok(out) => {
            let failure = out["failure"].as_str().unwrap_or_default();
            assert!(failure.starts_with("at step "), "{out}");
        }
    }
}
