//! What the chapter's pages show besides exercises and figures: the runs whose
//! output or numbers a page quotes.

use pbm_prelim::registry::{Shown, TimingTable};

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
    ]
}

/// The timing tables the pages include: none.
pub const TABLES: &[TimingTable] = &[];
