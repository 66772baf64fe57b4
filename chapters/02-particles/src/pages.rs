//! What the chapter's pages show besides exercises and figures: the runs whose
//! output or numbers a page quotes, and the timing tables it includes. The book's
//! pipelines read them from [`crate::chapter`]; nothing else lists them.

use pbm_prelim::registry::{Shown, TimingTable};

/// The runs the pages show: console blocks (`{{#include ../output/…}}`) and the
/// numbers sentences quote (`{{#value …}}`).
pub fn shown() -> Vec<Shown> {
    vec![
        Shown::run("particles/bouncing-ball")
            .keys(&["bounce_height_ratios", "max_ratio_deviation"]),
        Shown::run("particles/bouncing-ball")
            .set(&["strategy=displace"])
            .keys(&["bounce_height_ratios", "max_ratio_deviation"]),
        Shown::run("particles/momentum").keys(&[
            "max_momentum_drift",
            "relative_momentum_drift",
            "energy_start",
            "energy_end",
        ]),
        Shown::run("particles/spring-from-behavior")
            .keys(&["max_force_difference", "max_force"]),
        Shown::run("particles/interaction-scaling")
            .keys(&[
                "threads",
                "rows",
                "grid_n",
                "grid_median_ms",
                "interacting_pairs",
                "pair_interactions_per_second",
                "one_thread_pairs_per_second",
                "speedup",
            ])
            .timed(&[
                "threads",
                "brute_ms",
                "grid_ms",
                "grid_median_ms",
                "pair_interactions_per_second",
                "one_thread_pairs_per_second",
                "speedup",
            ]),
        Shown::run("particles/hanging-structure").keys(&[
            "tip_height_at_release",
            "tip_sag_at_end",
            "max_speed_at_end",
            "settled",
        ]),
    ]
}

/// The timing tables the pages include (`pbm bench-tables` writes them).
pub const TABLES: &[TimingTable] = &[];
