//! What the chapter's pages show besides exercises and figures: the runs whose
//! output or numbers a page quotes, and the timing tables it includes. The book's
//! pipelines read them from [`crate::chapter`]; nothing else lists them.

use pbm_prelim::registry::{Compare, Shown, TimingRow, TimingTable};

/// The runs the pages show: console blocks (`{{#include ../output/…}}`) and the
/// numbers sentences quote (`{{#value …}}`).
pub fn shown() -> Vec<Shown> {
    vec![
        Shown::run("rigid/quat-vs-matrix")
            .keys(&["matrix_orthogonality_error", "quaternion_norm_error"]),
        Shown::values("rigid/quat-vs-matrix").set(&["h=0.01"]),
        Shown::values("rigid/quat-vs-matrix").set(&["h=0.05"]),
        Shown::run("rigid/inertia-table").keys(&["rows"]),
        Shown::values("rigid/inertia-table").set(&["n=64"]),
        Shown::run("rigid/translation-free")
            .set(&["f=2"])
            .keys(&["torque", "net_force"]),
        Shown::run("rigid/force-torque-puzzle").keys(&[
            "kinetic_energy_centred",
            "kinetic_energy_off_centre",
            "kinetic_energy_difference",
            "extra_work",
            "speed_centred",
            "speed_off_centre",
        ]),
        Shown::run("rigid/dzhanibekov").keys(&[
            "flips",
            "relative_energy_drift",
            "relative_angular_momentum_drift",
            "final_body_omega",
        ]),
        Shown::run("rigid/gyroscopic").keys(&[
            "energy_gain_explicit",
            "energy_gain_implicit",
            "momentum_gain_explicit",
            "momentum_gain_implicit",
            "explicit_runaway_time",
        ]),
        Shown::values("rigid/gyroscopic").set(&["newton=5"]),
        Shown::values("rigid/gyroscopic").set(&["h=0.001"]),
        Shown::values("rigid/gyroscopic").set(&["spin=20"]),
    ]
}

/// The timing tables the pages include (`pbm bench-tables` writes them).
pub const TABLES: &[TimingTable] = &[
    TimingTable {
        file: "rigid-bodies.md",
        column: "work",
        package: "pbm-rigid",
        what: "10,000 quaternion bodies under gravity",
        per_second: "bodies/s",
        rows: &[
            TimingRow {
                label: "one derivative evaluation, 1 thread",
                id: "rigid/derivative_10000_bodies_1_threads",
                items: 10_000,
            },
            TimingRow {
                label: "one derivative evaluation, 2 threads",
                id: "rigid/derivative_10000_bodies_2_threads",
                items: 10_000,
            },
            TimingRow {
                label: "one RK4 step, 1 thread",
                id: "rigid/rk4_step_10000_bodies_1_threads",
                items: 10_000,
            },
            TimingRow {
                label: "one RK4 step, 2 threads",
                id: "rigid/rk4_step_10000_bodies_2_threads",
                items: 10_000,
            },
        ],
        compare: Compare::Nothing,
    },
    TimingTable {
        file: "rigid-mass.md",
        column: "mesh",
        package: "pbm-rigid",
        what: "computing exact mass properties (Mirtich's method)",
        per_second: "triangles/s",
        rows: &[TimingRow {
            label: "a 9,800-triangle sphere",
            id: "rigid/polyhedral_mass_properties_9800_triangles",
            items: 9_800,
        }],
        compare: Compare::Nothing,
    },
];
