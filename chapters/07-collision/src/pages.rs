//! What the chapter's pages show besides exercises and figures: the runs whose
//! output or numbers a page quotes, and the timing tables it includes. The book's
//! pipelines read them from [`crate::chapter`]; nothing else lists them.

use pbm_prelim::registry::{Compare, Shown, TimingRow, TimingTable, row};

/// The runs the pages show: console blocks (`{{#include ../output/…}}`) and the
/// numbers sentences quote (`{{#value …}}`).
pub fn shown() -> Vec<Shown> {
    vec![
        Shown::run("collision/sweep-table").keys(&["rows", "fitted_slope"]).timed(&[
            "sweep_ms",
            "resort_ms",
            "brute_ms",
            "fitted_slope",
        ]),
        Shown::run("collision/sweep-table")
            .set(&["steps=20"])
            .keys(&["coherence", "exchange_slope", "change_slope"])
            .timed(&["sweep_ms", "resort_ms", "brute_ms", "fitted_slope"]),
        Shown::run("collision/separating-plane"),
        Shown::run("collision/gjk"),
        Shown::run("collision/toi"),
        Shown::run("collision/tunnel"),
        Shown::run("collision/bvh-fold"),
    ]
}

/// The timing tables the pages include (`pbm bench-tables` writes them).
pub const TABLES: &[TimingTable] = &[
    TimingTable {
        file: "collision-sweep.md",
        column: "boxes",
        package: "pbm-collision",
        what: "one step of the coherent sweep on Baraff's Table 1 scene",
        per_second: "boxes/s",
        rows: &[
            TimingRow { label: "100", id: "broad-phase/coherent/100", items: 100 },
            TimingRow { label: "200", id: "broad-phase/coherent/200", items: 200 },
            TimingRow { label: "400", id: "broad-phase/coherent/400", items: 400 },
            TimingRow { label: "800", id: "broad-phase/coherent/800", items: 800 },
            TimingRow {
                label: "1,600",
                id: "broad-phase/coherent/1600",
                items: 1600,
            },
            TimingRow {
                label: "3,200",
                id: "broad-phase/coherent/3200",
                items: 3200,
            },
        ],
        compare: Compare::TimesReference("broad-phase/coherent/100"),
    },
    TimingTable {
        file: "collision-methods.md",
        column: "method (3,200 boxes)",
        package: "pbm-collision",
        what: "one step's overlapping pairs among 3,200 moving boxes",
        per_second: "",
        rows: &[
            row("coherent sweep (this chapter)", "broad-phase/coherent/3200"),
            row("full sort and sweep", "broad-phase/resort/3200"),
            row("brute force", "broad-phase/brute/3200"),
        ],
        compare: Compare::TimesReference("broad-phase/coherent/3200"),
    },
    TimingTable {
        file: "collision-gjk.md",
        column: "workload",
        package: "pbm-collision",
        what: "the narrow phase on 100 random pairs (each pair's separation by the \
               separating axes, or its distance by GJK and its depth by EPA where the \
               pair overlaps), or a classification at each of the tumbling cube's 2,000 \
               steps with the answer cached from the step before",
        per_second: "",
        rows: &[
            row("100 pairs of boxes: separating axes", "narrow-phase/sat/boxes"),
            row("100 pairs of boxes: GJK, then EPA", "narrow-phase/gjk-epa/boxes"),
            row("100 pairs of hulls: separating axes", "narrow-phase/sat/hulls"),
            row("100 pairs of hulls: GJK, then EPA", "narrow-phase/gjk-epa/hulls"),
            row(
                "tumbling cube: separating plane as witness",
                "narrow-phase/sat-witness/tumbling",
            ),
            row(
                "tumbling cube: GJK's nearest direction kept",
                "narrow-phase/gjk-nearest/tumbling",
            ),
        ],
        compare: Compare::Against(&[
            "narrow-phase/sat/boxes",
            "narrow-phase/sat/hulls",
            "narrow-phase/sat-witness/tumbling",
        ]),
    },
    TimingTable {
        file: "production-broad-phase.md",
        column: "moving boxes, Table 1's scene",
        package: "pbm-bench pbm-collision",
        what: "one step's overlapping pairs among moving boxes (the coherent sweep up to \
               3,200 boxes timed by chapter 7's benchmark, in the same recorded run)",
        per_second: "",
        rows: &[
            row(
                "3,200: parry's BVH, refitted",
                "broad-phase-vs-parry/parry-bvh/3200",
            ),
            row("3,200: chapter 7's coherent sweep", "broad-phase/coherent/3200"),
            row("3,200: chapter 7's uniform grid", "broad-phase-vs-parry/grid/3200"),
            row(
                "12,800: parry's BVH, refitted",
                "broad-phase-vs-parry/parry-bvh/12800",
            ),
            row(
                "12,800: chapter 7's coherent sweep",
                "broad-phase-vs-parry/coherent/12800",
            ),
            row(
                "12,800: chapter 7's uniform grid",
                "broad-phase-vs-parry/grid/12800",
            ),
        ],
        compare: Compare::Against(&[
            "broad-phase-vs-parry/parry-bvh/3200",
            "broad-phase-vs-parry/parry-bvh/12800",
        ]),
    },
    TimingTable {
        file: "collision-crossover.md",
        column: "boxes, Table 1's scene",
        package: "pbm-bench pbm-collision",
        what: "one step's overlapping pairs, the coherent sweep (chapter 7's benchmark) \
               against the uniform grid, in one recorded run",
        per_second: "",
        rows: &[
            row("100: coherent sweep", "broad-phase/coherent/100"),
            row("100: uniform grid", "broad-phase-vs-parry/grid/100"),
            row("400: coherent sweep", "broad-phase/coherent/400"),
            row("400: uniform grid", "broad-phase-vs-parry/grid/400"),
            row("1,600: coherent sweep", "broad-phase/coherent/1600"),
            row("1,600: uniform grid", "broad-phase-vs-parry/grid/1600"),
        ],
        compare: Compare::Against(&[
            "broad-phase/coherent/100",
            "broad-phase/coherent/400",
            "broad-phase/coherent/1600",
        ]),
    },
];
