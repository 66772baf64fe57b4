//! What the chapter's pages show besides exercises and figures: the runs whose
//! output or numbers a page quotes, and the timing tables it includes. The book's
//! pipelines read them from [`crate::chapter`]; nothing else lists them.

use pbm_prelim::registry::{Compare, Shown, TimingTable, row};

/// The runs the pages show: console blocks (`{{#include ../output/…}}`) and the
/// numbers sentences quote (`{{#value …}}`).
pub fn shown() -> Vec<Shown> {
    vec![
        Shown::run("contact/drop"),
        Shown::run("contact/lcp-random"),
        Shown::run("contact/incline"),
        Shown::run("contact/singular"),
        Shown::run("contact/stack").keys(STACK).timed(STACK_TIMED),
        Shown::run("contact/time-stepping").timed(&["ms_per_step"]),
        Shown::run("contact/turntable"),
        Shown::run("contact/seesaw"),
        Shown::run("contact/incline").set(&["world=first"]),
        Shown::run("contact/seesaw").set(&["left_mass=3"]),
        Shown::values("contact/drop").set(&["restitution=0"]),
        Shown::values("contact/drop").set(&["search=bisection"]),
        Shown::values("contact/stack").set(&["friction=0"]).timed(STACK_TIMED),
        Shown::run("contact/stack").set(&["boxes=40"]).keys(STACK).timed(STACK_TIMED),
        Shown::run("contact/stack")
            .set(&["solver=sequential"])
            .keys(SWEPT)
            .timed(STACK_TIMED),
        Shown::run("contact/stack")
            .set(&["solver=sequential", "boxes=40"])
            .keys(SWEPT)
            .timed(STACK_TIMED),
        Shown::values("contact/stack")
            .set(&["solver=sequential", "sweeps=4"])
            .timed(STACK_TIMED),
        Shown::values("contact/stack")
            .set(&["solver=sequential", "sweeps=16"])
            .timed(STACK_TIMED),
        Shown::values("contact/stack")
            .set(&["solver=sequential", "boxes=40", "sweeps=16"])
            .timed(STACK_TIMED),
    ]
}

/// The stack's wall-clock numbers: time per step, and the share of it the
/// separation searches took.
const STACK_TIMED: &[&str] = &["ms_per_step", "search_share_of_step"];

/// What the console blocks of the exact stack show.
const STACK: &[&str] = &[
    "boxes",
    "max_drift_m",
    "deepest_m",
    "min_contact_force",
    "solves",
    "warm_held",
    "factor_reused",
    "pivots",
    "tolerance_corrections",
    "ms_per_step",
];

/// What the console blocks of the stack by sequential impulses show.
const SWEPT: &[&str] = &[
    "boxes",
    "max_drift_m",
    "top_drift_m",
    "deepest_m",
    "min_contact_force",
    "max_velocity_error_m_s",
    "sweeps",
    "ms_per_step",
];

/// The timing tables the pages include (`pbm bench-tables` writes them).
pub const TABLES: &[TimingTable] = &[
    TimingTable {
        file: "contact-lcp.md",
        column: "contacts",
        package: "pbm-contact",
        what: "one contact LCP (random, positive definite), by pivoting from scratch and \
               warm-started from the answer before b moved by 0.1 %",
        per_second: "",
        rows: &[
            row("5, pivoting", "lcp/cold/5"),
            row("5, warm start", "lcp/warm/5"),
            row("10, pivoting", "lcp/cold/10"),
            row("10, warm start", "lcp/warm/10"),
            row("20, pivoting", "lcp/cold/20"),
            row("20, warm start", "lcp/warm/20"),
            row("40, pivoting", "lcp/cold/40"),
            row("40, warm start", "lcp/warm/40"),
            row("80, pivoting", "lcp/cold/80"),
            row("80, warm start", "lcp/warm/80"),
        ],
        compare: Compare::Nothing,
    },
    TimingTable {
        file: "contact-stack.md",
        column: "10 boxes, μ = 0.5",
        package: "pbm-contact",
        what: "one 10 ms step of the resting stack of ten cubes",
        per_second: "",
        rows: &[
            row("this chapter, warm start", "contact-stack/warm/10"),
            row("this chapter, pivoting every solve", "contact-stack/cold/10"),
        ],
        compare: Compare::TimesReference("contact-stack/warm/10"),
    },
    TimingTable {
        file: "production-stack.md",
        column: "stack, μ = 0.5",
        package: "pbm-bench",
        what: "one 10 ms step of a resting stack of cubes, after a second of settling; \
               rapier tuned has its contacts stiffened, and substeps enough to stay up \
               with them, until its stacks sink about as little as sequential impulses' \
               (defaults: 4 substeps, 30 Hz, 60 Hz on the ground)",
        per_second: "",
        rows: &[
            row(
                "10 boxes: rapier 0.36 (bodies kept awake)",
                "stack-vs-rapier/rapier/10",
            ),
            row(
                "10 boxes: rapier 0.36 tuned: 16 solver iterations (substeps), contact \
                 springs 300 Hz (600 Hz on the ground)",
                "stack-vs-rapier/rapier-tuned/10",
            ),
            row("10 boxes: chapter 8, exact", "stack-vs-rapier/exact/10"),
            row(
                "10 boxes: chapter 8, sequential impulses, 10 sweeps",
                "stack-vs-rapier/sequential/10",
            ),
            row(
                "10 boxes: chapter 8, sequential impulses, 6 sweeps",
                "stack-vs-rapier/sequential-6-sweeps/10",
            ),
            row(
                "40 boxes: rapier 0.36 (awake; its soft stack sinks)",
                "stack-vs-rapier/rapier/40",
            ),
            row(
                "40 boxes: rapier 0.36 tuned: 16 solver iterations (substeps), contact \
                 springs 300 Hz (600 Hz on the ground)",
                "stack-vs-rapier/rapier-tuned/40",
            ),
            row("40 boxes: chapter 8, exact", "stack-vs-rapier/exact/40"),
            row(
                "40 boxes: chapter 8, sequential impulses, 10 sweeps",
                "stack-vs-rapier/sequential/40",
            ),
            row(
                "40 boxes: chapter 8, sequential impulses, 6 sweeps",
                "stack-vs-rapier/sequential-6-sweeps/40",
            ),
        ],
        compare: Compare::Against(&[
            "stack-vs-rapier/rapier/10",
            "stack-vs-rapier/rapier/40",
        ]),
    },
];
