//! What the chapter's pages show besides exercises and figures: the runs whose
//! output or numbers a page quotes, and the timing tables it includes. The book's
//! pipelines read them from [`crate::chapter`]; nothing else lists them.

use pbm_prelim::registry::{Compare, Shown, TimingRow, TimingTable};

/// The runs the pages show: console blocks (`{{#include ../output/…}}`) and the
/// numbers sentences quote (`{{#value …}}`).
pub fn shown() -> Vec<Shown> {
    // Every run of a mechanism reports its steps per second, measured as it runs.
    let rate = |shown: Shown| shown.timed(&["steps_per_second"]);
    vec![
        rate(Shown::run("interactive/feeder").keys(FEEDER_KEYS)),
        rate(Shown::run("interactive/feeder").set(&["t_end=24"]).keys(FEEDER_KEYS)),
        rate(Shown::values("interactive/feeder").set(&["t_end=24", "friction=0.5"])),
        rate(Shown::run("interactive/jam").keys(FEEDER_KEYS)),
        rate(
            Shown::run("interactive/jam")
                .set(&["fault=misaligned"])
                .keys(FEEDER_KEYS),
        ),
        rate(Shown::values("interactive/jam").set(&["fault=misaligned", "t_end=24"])),
        rate(Shown::run("interactive/jam").set(&["fault=turned"]).keys(FEEDER_KEYS)),
        rate(Shown::run("interactive/jack").keys(JACK_KEYS)),
        Shown::run("interactive/pin-free"),
        Shown::run("interactive/versus-xpbd")
            .timed(&["wall_ms_per_simulated_second"]),
        Shown::run("interactive/versus-stack")
            .timed(&["wall_ms_per_simulated_second"]),
        Shown::values("interactive/versus-xpbd")
            .set(&["substeps=80"])
            .timed(&["wall_ms_per_simulated_second"]),
        rate(Shown::run("interactive/jack").set(&["swing=0.2"]).keys(JACK_KEYS)),
        rate(Shown::values("interactive/jack").set(&["swing=0.24"])),
        rate(Shown::values("interactive/jack").set(&["swing=0.25"])),
        rate(Shown::run("interactive/pendulum")),
        rate(Shown::run("interactive/pendulum").set(&["order=first"])),
        rate(Shown::run("interactive/pile").keys(PILE_KEYS)),
        rate(Shown::values("interactive/pile").set(&["count=50", "t_end=1"])),
        rate(Shown::values("interactive/pile").set(&["count=50", "t_end=2"])),
        rate(Shown::values("interactive/pile").set(&[
            "count=50",
            "solver=sequential",
            "t_end=2",
        ])),
        rate(
            Shown::run("interactive/pile")
                .set(&["count=50", "solver=sequential", "t_end=4"])
                .keys(SEQUENTIAL_PILE_KEYS),
        ),
    ]
}

/// The keys of the feeder's and the jam's console blocks: all but the feeder's
/// make (`step_s`, `opening_m`, `pusher_height_m`, `block_height_m`,
/// `misalignment_rad`, `standing_height_m`, `stroke_m`, `output_x_m`) and the
/// blocks' tilts in the magazine (`settled_tilt_rad`, `max_magazine_tilt_rad`),
/// which the prose quotes.
const FEEDER_KEYS: &[&str] = &[
    "t_reached",
    "blocks",
    "blocks_fed",
    "max_depth",
    "epsilon",
    "max_pin_error",
    "mouse_lag_max",
    "last_turn_advance",
    "tolerance_corrections",
    "seconds_per_correction",
    "steps",
    "shortened_steps",
    "impacts",
    "force_solves",
    "islands_per_solve",
    "warm_started",
    "narrow_phase_witness_reuse",
    "friction_dropped",
    "steps_per_second",
    "jammed",
];

/// The keys of the console block of the pile by sequential impulses: what they
/// report, and the paper's loop's counts that they leave at zero.
const SEQUENTIAL_PILE_KEYS: &[&str] = &[
    "t_reached",
    "count",
    "solver",
    "settled_at",
    "kinetic_energy_end_j",
    "pile_height_m",
    "max_depth",
    "epsilon",
    "tolerance_corrections",
    "shortened_steps",
    "steps",
    "sweeps_per_step",
    "steps_per_second",
];

/// The keys of the pile's console block: all but the polygons' radii
/// (`radius_range_m`), which the prose quotes.
const PILE_KEYS: &[&str] = &[
    "t_reached",
    "count",
    "settled_at",
    "kinetic_energy_end_j",
    "pile_height_m",
    "max_depth",
    "epsilon",
    "tolerance_corrections",
    "impacts",
    "shortened_steps",
    "friction_dropped",
    "steps",
    "islands_per_solve",
    "pivots_per_solve",
    "friction_rounds_per_solve",
    "steps_per_second",
];

/// The keys of the jack's console blocks: all but the quarter-pump samples, which
/// only the figures' descriptions quote, and the jack's make and the handle's
/// loads, which the prose quotes.
const JACK_KEYS: &[&str] = &[
    "t_reached",
    "lift_m",
    "pumps",
    "lift_per_pump_m",
    "pitch_m",
    "pin_stroke_m",
    "max_fall_m",
    "max_depth",
    "epsilon",
    "max_pin_error",
    "mouse_lag_max",
    "tolerance_corrections",
    "impacts",
    "shortened_steps",
    "friction_dropped",
    "steps",
    "steps_per_second",
];

/// The timing tables the pages include (`pbm bench-tables` writes them).
pub const TABLES: &[TimingTable] = &[TimingTable {
    file: "interactive-scenes.md",
    column: "scene",
    package: "pbm-interactive",
    what: "the scene built and run for 2 simulated seconds, one core (the feeder turned and the jack pumped by the scripted hand)",
    per_second: "simulated s/s",
    rows: &[
        TimingRow {
            label: "the feeder, 8 blocks (the exercise's)",
            id: "interactive/feeder_8_blocks_2_s",
            items: 2,
        },
        TimingRow {
            label: "the feeder, 4 blocks (the live demo's)",
            id: "interactive/feeder_4_blocks_2_s",
            items: 2,
        },
        TimingRow {
            label: "the double-action jack (the exercise's)",
            id: "interactive/jack_2_s",
            items: 2,
        },
        TimingRow {
            label: "the pile of 20 polygons",
            id: "interactive/pile_20_2_s",
            items: 2,
        },
        TimingRow {
            label: "the pile of 20, sequential impulses",
            id: "interactive/pile_20_sequential_2_s",
            items: 2,
        },
        TimingRow {
            label: "the pile of 50, sequential impulses",
            id: "interactive/pile_50_sequential_2_s",
            items: 2,
        },
    ],
    compare: Compare::TimesReference("interactive/feeder_8_blocks_2_s"),
}];
