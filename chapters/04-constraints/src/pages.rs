//! What the chapter's pages show besides exercises and figures: the runs whose
//! output or numbers a page quotes, and the timing tables it includes. The book's
//! pipelines read them from [`crate::chapter`]; nothing else lists them.

use pbm_prelim::registry::{Compare, Shown, TimingTable, row};

/// The runs the pages show: console blocks (`{{#include ../output/…}}`) and the
/// numbers sentences quote (`{{#value …}}`).
pub fn shown() -> Vec<Shown> {
    vec![
        Shown::values("constraints/bead-forces"),
        Shown::run("constraints/tree-solve")
            .keys(&[
                "rows",
                "nodes",
                "cg_iterations",
                "max_relative_difference",
                "mobile_fill_leaves_first",
                "mobile_fill_root_first",
            ])
            .timed(&["tree_solve_us", "cg_solve_us", "cg_over_tree"]),
        Shown::run("constraints/drift").keys(&[
            "solver",
            "steps",
            "max_abs_c_without_feedback",
            "max_abs_c_with_feedback",
        ]),
        Shown::run("constraints/double-pendulum").keys(&[
            "steps",
            "max_constraint_error",
            "relative_energy_drift",
            "mean_cg_iterations",
            "max_cg_iterations",
        ]),
        Shown::run("constraints/rods-vs-springs").keys(&[
            "rod_max_stable_h",
            "spring_max_stable_h",
            "step_ratio",
            "length_error_h",
            "spring_length_error",
            "rod_length_error",
        ]),
        Shown::values("constraints/drift").set(&["solver=rk4", "t_end=20"]),
        Shown::values("constraints/drift").set(&["solver=midpoint", "t_end=20"]),
        Shown::values("constraints/rods-vs-springs").set(&["k=1e4"]),
        Shown::values("constraints/rods-vs-springs").set(&["k=1e6"]),
        Shown::values("constraints/rods-vs-springs").set(&["k=1e7"]),
        Shown::run("constraints/stabilise"),
        Shown::values("constraints/stabilise").set(&["h=0.005"]),
        Shown::values("constraints/stabilise").set(&["h=0.01"]),
        Shown::run("constraints/redundant").keys(&[
            "solved",
            "max_constraint_error",
            "constraint_rows",
            "jacobian_rank",
            "error",
        ]),
    ]
}

/// The timing tables the pages include (`pbm bench-tables` writes them).
pub const TABLES: &[TimingTable] = &[
    TimingTable {
        file: "constraints-chain.md",
        column: "chain",
        package: "pbm-constraints",
        what: "one derivative evaluation of a falling chain",
        per_second: "",
        rows: &[
            row("10 rods (12 rows of C)", "constraints/derivative_10_rods"),
            row("100 rods (102 rows)", "constraints/derivative_100_rods"),
            row("1,000 rods (1,002 rows)", "constraints/derivative_1000_rods"),
        ],
        compare: Compare::TimesReference("constraints/derivative_10_rods"),
    },
    TimingTable {
        file: "constraints-tree.md",
        column: "chain",
        package: "pbm-constraints",
        what: "one solve for λ by the tree (factor and solve; the tree built once)",
        per_second: "",
        rows: &[
            row("100 rods (102 rows)", "constraints/tree_solve_100_rods"),
            row("1,000 rods (1,002 rows)", "constraints/tree_solve_1000_rods"),
            row("10,000 rods (10,002 rows)", "constraints/tree_solve_10000_rods"),
        ],
        compare: Compare::TimesReference("constraints/tree_solve_100_rods"),
    },
    TimingTable {
        file: "constraints-solvers.md",
        column: "solver",
        package: "pbm-bench",
        what: "one solve for λ, 1,000 rods. The tree and CG read J and W inside the \
               timing; faer's and nalgebra's rows are handed J W Jᵀ formed outside it, \
               except the two that form it",
        per_second: "",
        rows: &[
            row(
                "faer sparse Cholesky of the formed J W Jᵀ: ordering, factor and solve",
                "production-sparse/chain-1000-faer",
            ),
            row(
                "faer, symbolic analysis reused: factor and solve of the formed J W Jᵀ",
                "production-sparse/chain-1000-faer-numeric",
            ),
            row(
                "faer, forming J W Jᵀ sparsely from J and W, then ordering, factor \
                 and solve",
                "production-sparse/chain-1000-faer-with-formation",
            ),
            row(
                "faer, forming J W Jᵀ sparsely into its kept pattern, then factor and \
                 solve (ordering reused)",
                "production-sparse/chain-1000-faer-numeric-with-formation",
            ),
            row(
                "our tree solve (Baraff), the tree built once",
                "production-sparse/chain-1000-tree",
            ),
            row(
                "our tree solve, building and ordering the tree too",
                "production-sparse/chain-1000-tree-from-scratch",
            ),
            row(
                "our CG, unformed, Jacobi-preconditioned",
                "production-sparse/chain-1000-cg",
            ),
            row(
                "nalgebra dense Cholesky of the formed J W Jᵀ",
                "production-sparse/chain-1000-dense-cholesky",
            ),
        ],
        compare: Compare::Against(&["production-sparse/chain-1000-faer"]),
    },
];
