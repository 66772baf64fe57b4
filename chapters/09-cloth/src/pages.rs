//! What the chapter's pages show besides exercises and figures: the runs whose
//! output or numbers a page quotes, and the timing tables it includes. The book's
//! pipelines read them from [`crate::chapter`]; nothing else lists them.

use pbm_prelim::registry::{Compare, Shown, TimingTable, row};

/// The runs the pages show: console blocks (`{{#include ../output/…}}`) and the
/// numbers sentences quote (`{{#value …}}`).
pub fn shown() -> Vec<Shown> {
    vec![
        Shown::run("cloth/hair-discretization"),
        Shown::run("cloth/gradient-check"),
        Shown::run("cloth/bend-directions").except(&["curvature_per_m"]),
        Shown::values("cloth/space-joint"),
        Shown::values("cloth/space-joint").set(&["rest=0"]),
        Shown::run("cloth/drape").timed(&["ms_per_step"]),
        Shown::run("cloth/drape")
            .set(&["scene=curtain", "curvature=gauss-newton"])
            .timed(&["ms_per_step"]),
        Shown::run("cloth/drape")
            .set(&["curvature=full"])
            .timed(&["ms_per_step"])
            .failing(),
        Shown::values("cloth/drape").set(&["t_end=10"]).timed(&["ms_per_step"]),
        Shown::run("cloth/over-constraint"),
        Shown::run("cloth/contact").timed(&["ms_per_step"]),
        Shown::run("cloth/contact").set(&["solid=box"]).timed(&["ms_per_step"]),
        Shown::values("cloth/contact").set(&["solid=bar"]).timed(&["ms_per_step"]),
        Shown::run("cloth/self-contact")
            .except(OLD_SELF_CONTACT_KEYS)
            .timed(&["ms_per_step"]),
        Shown::run("cloth/self-contact")
            .set(&["respond=false"])
            .except(OLD_SELF_CONTACT_KEYS)
            .timed(&["ms_per_step"]),
        Shown::values("cloth/self-contact")
            .set(&["thickness=0.001"])
            .timed(&["ms_per_step"]),
        Shown::values("cloth/drape")
            .set(&["n=8", "t_end=0.5"])
            .timed(&["ms_per_step"]),
        Shown::values("cloth/drape")
            .set(&["n=32", "t_end=0.5"])
            .timed(&["ms_per_step"]),
        Shown::values("cloth/drape")
            .set(&["n=8", "t_end=0.5", "curvature=gauss-newton"])
            .timed(&["ms_per_step"]),
        Shown::values("cloth/drape")
            .set(&["n=32", "t_end=0.5", "curvature=gauss-newton"])
            .timed(&["ms_per_step"])
            .failing(),
    ]
}

/// The old names of the self-contact's `thickness` and `stiffness`, in its JSON for one
/// release and in no console block.
const OLD_SELF_CONTACT_KEYS: &[&str] = &["thickness_m", "stiffness_n_per_m"];

/// The timing tables the pages include (`pbm bench-tables` writes them).
pub const TABLES: &[TimingTable] = &[
    TimingTable {
        file: "cloth-solvers.md",
        column: "50 × 50 drape, just landed",
        package: "pbm-bench",
        what: "the drape's linear solve alone (CG from zero to 1e-6)",
        per_second: "",
        rows: &[
            row("faer sparse Cholesky", "production-sparse/drape-50-faer"),
            row("our block-Jacobi CG", "production-sparse/drape-50-cg"),
        ],
        compare: Compare::Against(&["production-sparse/drape-50-faer"]),
    },
    TimingTable {
        file: "cloth-step.md",
        column: "50 × 50 drape, just landed",
        package: "pbm-cloth",
        what: "one implicit step of the 2,500-particle drape (h = 1/30 s), and its linear \
               solve alone (CG from zero to 1e-6)",
        per_second: "",
        rows: &[
            row("step, projected Hessian", "cloth/drape_step_n50_projected"),
            row("step, Gauss–Newton", "cloth/drape_step_n50_gauss_newton"),
            row("assembly alone (projected)", "cloth/assemble_n50_projected"),
            row("solve: our block-Jacobi CG", "cloth/solve_pcg_n50"),
        ],
        compare: Compare::TimesReference("cloth/solve_pcg_n50"),
    },
];
