//! What the chapter's pages show besides exercises and figures: the runs whose
//! output or numbers a page quotes, and the timing tables it includes. The book's
//! pipelines read them from [`crate::chapter`]; nothing else lists them.

use pbm_prelim::registry::{Compare, Shown, TimingTable, row};

/// The runs the pages show: console blocks (`{{#include ../output/…}}`) and the
/// numbers sentences quote (`{{#value …}}`).
pub fn shown() -> Vec<Shown> {
    vec![
        Shown::run("implicit/sheet").set(&["n=129"]).failing(),
        Shown::run("implicit/stiff-blowup").keys(&[
            "theory_euler_limit",
            "explicit_euler_max_stable_h",
            "rk4_max_stable_h",
            "rk4_over_euler",
            "implicit_stable",
        ]),
        Shown::run("implicit/particle-on-line").keys(&[
            "k_needed",
            "theory_max_h",
            "measured_max_h",
            "steps_per_metre_at_1_m_per_s",
        ]),
        Shown::run("implicit/one-big-step").keys(&[
            "h",
            "state_after_one_step",
            "distance_to_origin_after_one_step",
        ]),
        Shown::run("implicit/newton"),
        Shown::run("implicit/newton").set(&["h=0.5"]),
        Shown::run("implicit/newton").set(&["below=0.3"]),
        Shown::values("implicit/newton").set(&["h=2", "below=0.3"]),
        Shown::run("implicit/sheet")
            .set(&["preconditioner=jacobi"])
            .keys(&[
                "explicit_stable",
                "implicit_stable",
                "mean_cg_iterations",
                "ms_per_step",
                "lowest_z_at_end",
            ])
            .timed(&["ms_per_step"]),
        Shown::run("implicit/sheet")
            .keys(&[
                "preconditioner",
                "mean_cg_iterations",
                "ms_per_step",
                "lowest_z_at_end",
            ])
            .timed(&["ms_per_step"]),
        Shown::values("implicit/sheet")
            .set(&["tolerance=1e-10", "warm=false", "preconditioner=jacobi"])
            .timed(&["ms_per_step"]),
        Shown::values("implicit/sheet")
            .set(&["warm=false", "preconditioner=jacobi"])
            .timed(&["ms_per_step"]),
        Shown::values("implicit/sheet")
            .set(&["tolerance=1e-10", "preconditioner=jacobi"])
            .timed(&["ms_per_step"]),
        Shown::values("implicit/sheet").set(&["n=64"]).timed(&["ms_per_step"]),
        // The benchmark's step from rest: block Jacobi, ten digits, from zero.
        Shown::values("implicit/sheet")
            .set(&[
                "t_end=0",
                "preconditioner=jacobi",
                "tolerance=1e-10",
                "warm=false",
            ])
            .timed(&["ms_per_step"]),
        Shown::values("implicit/jacobian-check"),
        Shown::run("implicit/sheet-sizes").timed(&["ms_per_step"]),
        Shown::run("implicit/sheet-sizes")
            .set(&["preconditioner=jacobi"])
            .timed(&["ms_per_step"]),
    ]
}

/// The timing tables the pages include (`pbm bench-tables` writes them).
pub const TABLES: &[TimingTable] = &[
    TimingTable {
        file: "implicit-step.md",
        column: "sheet",
        package: "pbm-implicit",
        what: "one backward Euler step of the sheet from rest (h = 1/30 s)",
        per_second: "",
        rows: &[
            row("n = 32 (3,072 unknowns)", "implicit/sheet_backward_euler_step_n32"),
            row("n = 64 (12,288 unknowns)", "implicit/sheet_backward_euler_step_n64"),
            row(
                "n = 128 (49,152 unknowns)",
                "implicit/sheet_backward_euler_step_n128",
            ),
        ],
        compare: Compare::TimesReference("implicit/sheet_backward_euler_step_n32"),
    },
    TimingTable {
        file: "implicit-solvers.md",
        column: "solver",
        package: "pbm-bench",
        what: "one solve of the eleventh backward Euler step of chapter 3's sheet (its \
               own A and b, k = 1000 N/m, h = 1/30 s; the ten steps before as the sheet \
               exercise runs them), to a relative residual of 1e-10 from a zero start, \
               except the last row of each size, which solves as the simulation does; \
               the plain multigrid row builds its hierarchy inside the solve",
        per_second: "",
        rows: &[
            row("n = 32: faer sparse Cholesky", "production-sparse/sheet-n32-faer"),
            row(
                "n = 32: faer, symbolic analysis reused",
                "production-sparse/sheet-n32-faer-numeric",
            ),
            row(
                "n = 32: our multigrid CG, hierarchy built inside",
                "production-sparse/sheet-n32-cg-multigrid",
            ),
            row(
                "n = 32: our multigrid CG, hierarchy built once and refilled",
                "production-sparse/sheet-n32-cg-multigrid-refilled",
            ),
            row(
                "n = 32: our block-Jacobi CG",
                "production-sparse/sheet-n32-cg-jacobi",
            ),
            row(
                "n = 32: our multigrid CG as the simulation runs it (hierarchy \
                 refilled, residual 1e-3, from the last step's Δv)",
                "production-sparse/sheet-n32-cg-multigrid-warm",
            ),
            row("n = 64: faer sparse Cholesky", "production-sparse/sheet-n64-faer"),
            row(
                "n = 64: faer, symbolic analysis reused",
                "production-sparse/sheet-n64-faer-numeric",
            ),
            row(
                "n = 64: our multigrid CG, hierarchy built inside",
                "production-sparse/sheet-n64-cg-multigrid",
            ),
            row(
                "n = 64: our multigrid CG, hierarchy built once and refilled",
                "production-sparse/sheet-n64-cg-multigrid-refilled",
            ),
            row(
                "n = 64: our block-Jacobi CG",
                "production-sparse/sheet-n64-cg-jacobi",
            ),
            row(
                "n = 64: our multigrid CG as the simulation runs it (hierarchy \
                 refilled, residual 1e-3, from the last step's Δv)",
                "production-sparse/sheet-n64-cg-multigrid-warm",
            ),
        ],
        compare: Compare::Against(&[
            "production-sparse/sheet-n32-faer",
            "production-sparse/sheet-n64-faer",
        ]),
    },
];
