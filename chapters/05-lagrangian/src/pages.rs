//! What the chapter's pages show besides exercises and figures: the runs whose
//! output or numbers a page quotes, and the timing tables it includes. The book's
//! pipelines read them from [`crate::chapter`]; nothing else lists them.

use pbm_prelim::registry::{Compare, Shown, TimingTable, row};

/// The runs the pages show: console blocks (`{{#include ../output/…}}`) and the
/// numbers sentences quote (`{{#value …}}`).
pub fn shown() -> Vec<Shown> {
    vec![
        Shown::run("lagrangian/bead").keys(&[
            "steps",
            "max_radius_error",
            "relative_energy_drift",
        ]),
        Shown::run("lagrangian/compare").keys(&[
            "max_distance_first_second",
            "separation_time",
            "final_distance",
        ]),
        Shown::values("lagrangian/compare").set(&["h=0.0005", "t_end=30"]),
    ]
}

/// The timing tables the pages include (`pbm bench-tables` writes them).
pub const TABLES: &[TimingTable] = &[TimingTable {
    file: "lagrangian-derivative.md",
    column: "formulation",
    package: "pbm-lagrangian",
    what: "one derivative evaluation of the double pendulum",
    per_second: "",
    rows: &[
        row(
            "in angles (this chapter)",
            "lagrangian/double_pendulum_derivative_angles",
        ),
        row(
            "as constrained particles (chapter 4)",
            "lagrangian/double_pendulum_derivative_constraints",
        ),
    ],
    compare: Compare::TimesReference("lagrangian/double_pendulum_derivative_angles"),
}];
