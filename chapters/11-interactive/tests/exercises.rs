//! Snapshots of every exercise's default result, and the numbers the checks
//! read.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

// The chapter's other tests, in one binary with the snapshots (one link, not one per file).
mod jack;
mod sequential;
mod world;

use pbm_interactive::chapter;
use pbm_prelim::testing::bound;
use serde_json::Value;

// The rate is the machine's; the rest is the same on every machine.
pbm_prelim::exercise_tests!(
    chapter,
    digits = 3,
    mask = |value: &mut Value| {
        bound(value, "steps_per_second", |r| r > 0.0);
        for method in ["baraff", "xpbd", "exact", "sequential"] {
            if let Some(run) = value.get_mut(method) {
                bound(run, "wall_ms_per_simulated_second", |t| t > 0.0);
            }
        }
    },
);

fn num(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("{key} missing from {v}"))
}

#[test]
fn the_feeder_feeds_within_epsilon_and_corrects_rarely() {
    let v = run("feeder", &["t_end=12"]).unwrap();
    assert!(num(&v, "blocks_fed") >= 2.0, "{v}");
    assert!(num(&v, "max_depth") <= num(&v, "epsilon"), "{v}");
    // The paper: fewer than one correction every 5–10 s of interaction.
    assert!(num(&v, "tolerance_corrections") <= 12.0 / 0.5, "{v}");
}

#[test]
fn a_pusher_taller_than_a_block_jams_the_feeder_and_the_good_one_does_not() {
    let tall = run("jam", &["fault=tall-pusher"]).unwrap();
    assert_eq!(tall["jammed"], Value::Bool(true), "{tall}");
    assert_eq!(num(&tall, "blocks_fed"), 0.0, "{tall}");
    assert!(num(&tall, "max_depth") <= num(&tall, "epsilon"), "{tall}");
    // The same test on the good feeder over the same 12 s: blocks still moving.
    let good = run("feeder", &[]).unwrap();
    assert!(num(&good, "last_turn_advance") > 1.0, "{good}");
}

#[test]
fn blocks_loaded_on_end_jam_the_feeder() {
    // The paper's Figure 2(b): oblong blocks stood on end are taller than the opening
    // under the magazine's wall. The pusher holds the lowest against the wall, the
    // floor stops it tipping, and the mouse goes round without the crank.
    let v = run("jam", &["fault=misaligned"]).unwrap();
    assert_eq!(v["jammed"], Value::Bool(true), "{v}");
    assert_eq!(num(&v, "blocks_fed"), 0.0, "{v}");
    // The stack rocks as the pusher presses, but moves nowhere: under a tenth of the
    // pusher's 2.4-m stroke in a turn, and the crank's end left behind the mouse.
    assert!(num(&v, "last_turn_advance") < 0.24, "{v}");
    assert!(num(&v, "mouse_lag_max") > 2.0, "{v}");
    // Held is not still: the blocks in the magazine rock by more than a tenth of a
    // radian as the pusher presses, and fall back.
    assert!(num(&v, "max_magazine_tilt_rad") > 0.1, "{v}");
    assert!(num(&v, "max_depth") <= num(&v, "epsilon"), "{v}");
}

#[test]
fn turned_blocks_are_squared_up_by_the_floor_and_do_not_jam_this_feeder() {
    // Square blocks turned by 0.08 rad stand taller than the opening too, but in this
    // feeder the stack's weight and the floor square each block before the pusher
    // reaches it (the page shows it), so the fault slows nothing down: a finding,
    // pinned here.
    let turned = run("jam", &["fault=turned"]).unwrap();
    assert_eq!(turned["jammed"], Value::Bool(false), "{turned}");
    assert!(num(&turned, "blocks_fed") >= 2.0, "{turned}");
    // Squared within the first second: every block in the magazine within a tenth of
    // the turn it was loaded with.
    let loaded = num(&turned, "misalignment_rad");
    assert!(num(&turned, "settled_tilt_rad") < 0.1 * loaded, "{turned}");
}

#[test]
fn an_epsilon_wider_than_the_feeders_clearances_is_refused() {
    let e = run("feeder", &["epsilon=0.05"]).unwrap_err();
    assert!(e.to_string().contains("epsilon"), "{e}");
}

#[test]
fn the_jack_climbs_a_tooth_a_stroke_and_a_short_swing_does_not() {
    let v = run("jack", &[]).unwrap();
    // Three pumps, six strokes: six teeth, less the play the last stroke has not
    // yet taken up.
    let teeth = num(&v, "lift_m") / num(&v, "pitch_m");
    assert!((5.5..=6.1).contains(&teeth), "{v}");
    assert!(num(&v, "max_fall_m") < 0.5 * num(&v, "pitch_m"), "{v}");
    assert!(num(&v, "max_depth") <= num(&v, "epsilon"), "{v}");
    let short = run("jack", &["swing=0.2"]).unwrap();
    assert!(num(&short, "lift_m").abs() < 0.05, "{short}");
    // Twice the pin's stroke, the idle pawl's whole drop down the rack, is more
    // than a pitch: the pawl's top must clear the tooth's tip, too.
    assert!(2.0 * num(&short, "pin_stroke_m") > num(&short, "pitch_m"), "{short}");
}
