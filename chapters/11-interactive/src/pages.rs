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
        rate(Shown::run("interactive/feeder").except(FEEDER_HIDDEN)),
        rate(
            Shown::run("interactive/feeder").set(&["t_end=24"]).except(FEEDER_HIDDEN),
        ),
        rate(Shown::values("interactive/feeder").set(&["t_end=24", "friction=0.5"])),
        rate(Shown::run("interactive/jam").except(FEEDER_HIDDEN)),
        rate(
            Shown::run("interactive/jam")
                .set(&["fault=misaligned"])
                .except(FEEDER_HIDDEN),
        ),
        rate(Shown::values("interactive/jam").set(&["fault=misaligned", "t_end=24"])),
        rate(
            Shown::run("interactive/jam")
                .set(&["fault=turned"])
                .except(FEEDER_HIDDEN),
        ),
        rate(Shown::run("interactive/jack").except(JACK_HIDDEN)),
        Shown::run("interactive/pin-free"),
        Shown::run("interactive/versus-xpbd")
            .timed(&["wall_ms_per_simulated_second"]),
        Shown::run("interactive/versus-stack")
            .timed(&["wall_ms_per_simulated_second"]),
        Shown::values("interactive/versus-xpbd")
            .set(&["substeps=80"])
            .timed(&["wall_ms_per_simulated_second"]),
        rate(Shown::run("interactive/jack").set(&["swing=0.2"]).except(JACK_HIDDEN)),
        rate(Shown::values("interactive/jack").set(&["swing=0.24"])),
        rate(Shown::values("interactive/jack").set(&["swing=0.25"])),
        rate(Shown::run("interactive/pendulum")),
        rate(Shown::run("interactive/pendulum").set(&["order=first"])),
        rate(Shown::run("interactive/pile").except(PILE_HIDDEN)),
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
                .except(SEQUENTIAL_PILE_HIDDEN),
        ),
    ]
}

/// Keys no console block of the mechanisms shows: the old name of `t_reached`, kept
/// for one release for readers' scripts, and the steps the speed limit shortened
/// before they began, which the blocks leave to the JSON beside `shortened_steps`.
const NEVER_SHOWN: [&str; 2] = ["seconds", "limited_steps"];

/// What the feeder's and the jam's console blocks leave out: the feeder's make and
/// the blocks' tilts in the magazine, which the prose quotes.
const FEEDER_HIDDEN: &[&str] = &[
    NEVER_SHOWN[0],
    NEVER_SHOWN[1],
    "settled_tilt_rad",
    "max_magazine_tilt_rad",
    "step_s",
    "opening_m",
    "pusher_height_m",
    "block_height_m",
    "misalignment_rad",
    "standing_height_m",
    "stroke_m",
    "output_x_m",
];

/// What the console block of the pile by sequential impulses leaves out: the paper's
/// loop's counts, which it leaves at zero, and the polygons' radii.
const SEQUENTIAL_PILE_HIDDEN: &[&str] = &[
    NEVER_SHOWN[0],
    NEVER_SHOWN[1],
    "impacts",
    "friction_dropped",
    "islands_per_solve",
    "pivots_per_solve",
    "friction_rounds_per_solve",
    "radius_range_m",
];

/// What the pile's console block leaves out: the sequential solver's own counts and
/// the polygons' radii (`radius_range_m`), which the prose quotes.
const PILE_HIDDEN: &[&str] =
    &[NEVER_SHOWN[0], NEVER_SHOWN[1], "solver", "sweeps_per_step", "radius_range_m"];

/// What the jack's console blocks leave out: the quarter-pump samples, which only
/// the figures' descriptions quote, and the jack's make and the handle's loads,
/// which the prose quotes.
const JACK_HIDDEN: &[&str] = &[
    NEVER_SHOWN[0],
    NEVER_SHOWN[1],
    "rise_each_quarter_pump_m",
    "step_s",
    "tooth_depth_m",
    "handle_m",
    "pawl_spring_rest_rad",
    "rack_and_load_weight_n",
    "handle_load_n",
    "handle_effective_mass_kg",
    "lead_to_hold_load_m",
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
