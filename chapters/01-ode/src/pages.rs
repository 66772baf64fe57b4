//! What the chapter's pages show besides exercises and figures: the runs whose
//! output or numbers a page quotes, and the timing tables it includes. The book's
//! pipelines read them from [`crate::chapter`]; nothing else lists them.

use pbm_prelim::registry::{Compare, Shown, TimingTable, row};

/// The runs the pages show: console blocks (`{{#include ../output/…}}`) and the
/// numbers sentences quote (`{{#value …}}`).
pub fn shown() -> Vec<Shown> {
    vec![
        Shown::run("ode/stability").set(&["h=-1"]).failing(),
        Shown::run("ode/adaptive").keys(&[
            "adaptive_evals",
            "accepted_steps",
            "rejected_steps",
            "min_step",
            "max_step",
            "max_error_estimate",
            "final_error",
            "fixed_steps",
            "fixed_evals",
            "fixed_final_error",
            "evals_saved_factor",
        ]),
        Shown::run("ode/convergence").keys(&["orders"]),
        Shown::run("ode/euler-spiral").keys(&[
            "radius_ratio_per_step",
            "expected_ratio",
            "max_ratio_deviation",
            "euler_final_radius",
            "midpoint_final_radius",
            "rk4_final_radius",
        ]),
        Shown::values("ode/euler-spiral").set(&["h=0.4", "steps=16"]),
        Shown::values("ode/euler-spiral").set(&["h=0.2", "steps=31"]),
        Shown::values("ode/euler-spiral").set(&["h=0.01", "steps=628"]),
        Shown::values("ode/adaptive").set(&["eccentricity=0"]),
        Shown::values("ode/work-precision"),
        Shown::values("ode/adaptive").set(&["method=euler-doubling"]),
        Shown::values("ode/adaptive").set(&["method=euler-doubling", "tol=1e-7"]),
        Shown::run("ode/step-control"),
        Shown::values("ode/step-control").set(&["rtol=1e-4", "atol=1e-6"]),
        Shown::run("ode/symplectic"),
        Shown::values("ode/symplectic").set(&["orbits=10"]),
        Shown::run("ode/stability").set(&["h=0.25"]).keys(&[
            "regime",
            "predicted_regime",
            "factor_per_step",
            "trajectory",
            "final_abs_x",
        ]),
    ]
}

/// The timing tables the pages include (`pbm bench-tables` writes them).
pub const TABLES: &[TimingTable] = &[TimingTable {
    file: "production-ode.md",
    column: "workload",
    package: "pbm-bench",
    what: "one period of the Kepler orbit, each solver at the loosest tolerance that \
               reaches a global error of 1e-8 (table above), and 100 RK4 steps of 10,000 \
               masses on a ring of springs",
    per_second: "",
    rows: &[
        row("e = 0.5: ode_solvers' Dopri5", "production-ode/dopri5-ode-solvers-e5"),
        row("e = 0.5: chapter 1's Dormand–Prince", "production-ode/dopri5-ours-e5"),
        row("e = 0.5: the same through dyn", "production-ode/dopri5-ours-dyn-e5"),
        row(
            "e = 0.5: the same on a fixed-size state",
            "production-ode/dopri5-ours-fixed-e5",
        ),
        row("e = 0.9: ode_solvers' Dopri5", "production-ode/dopri5-ode-solvers-e9"),
        row("e = 0.9: chapter 1's Dormand–Prince", "production-ode/dopri5-ours-e9"),
        row("e = 0.9: the same through dyn", "production-ode/dopri5-ours-dyn-e9"),
        row(
            "e = 0.9: the same on a fixed-size state",
            "production-ode/dopri5-ours-fixed-e9",
        ),
        row(
            "RK4, 20,000 unknowns: ode_solvers' Rk4",
            "production-ode/rk4-ode-solvers-100-steps-20000",
        ),
        row(
            "RK4, 20,000 unknowns: chapter 1's",
            "production-ode/rk4-ours-100-steps-20000",
        ),
        row(
            "RK4, 20,000 unknowns: a hand-written loop (buffers allocated once, \
             only the last state kept)",
            "production-ode/rk4-hand-loop-100-steps-20000",
        ),
    ],
    compare: Compare::Against(&[
        "production-ode/dopri5-ode-solvers-e5",
        "production-ode/dopri5-ode-solvers-e9",
        "production-ode/rk4-ode-solvers-100-steps-20000",
    ]),
}];
