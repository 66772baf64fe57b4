//! What the chapter's pages show besides exercises and figures: the runs whose
//! output or numbers a page quotes.

use pbm_prelim::registry::{Compare, Shown, TimingTable, row};

/// The runs the pages show.
pub fn shown() -> Vec<Shown> {
    vec![
        Shown::run("solvers/softness"),
        Shown::run("solvers/pyramid").timed(&["ms_per_step"]),
        Shown::values("solvers/pyramid").set(&["solver=pgs"]).timed(&["ms_per_step"]),
        Shown::values("solvers/pyramid")
            .set(&["warm_start=false"])
            .timed(&["ms_per_step"]),
        Shown::values("solvers/bench").timed(&["ms_per_step"]),
        Shown::values("solvers/pyramid")
            .set(&["solver=xpbd"])
            .timed(&["ms_per_step"]),
        Shown::values("solvers/pyramid")
            .set(&["solver=xpbd", "iterations=16"])
            .timed(&["ms_per_step"]),
    ]
}

/// The timing tables the pages include: the pyramid beside rapier2d (the production
/// appendix's), from `benches/versus_rapier2d.rs`.
pub const TABLES: &[TimingTable] = &[TimingTable {
    file: "solvers-pyramid.md",
    column: "pyramid of base 20 (210 boxes)",
    package: "pbm-solvers",
    what: "one 1/60 s step of the standing pyramid after ten simulated seconds, one core; \
           both at rapier's defaults: 4 substeps, one velocity and one relax pass in each, \
           contact springs 30 Hz (60 Hz on the ground), damping ratio 10, warm starting",
    per_second: "",
    rows: &[
        row(
            "rapier2d 0.36, f64 (bodies kept awake)",
            "pyramid-vs-rapier2d/rapier2d/20",
        ),
        row("chapter 12, soft step", "pyramid-vs-rapier2d/soft-step/20"),
    ],
    compare: Compare::TimesReference("pyramid-vs-rapier2d/rapier2d/20"),
}];
