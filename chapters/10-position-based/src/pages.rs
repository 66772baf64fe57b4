//! What the chapter's pages show besides exercises and figures: the runs whose
//! output or numbers a page quotes, and the timing tables it includes. The book's
//! pipelines read them from [`crate::chapter`]; nothing else lists them.

use pbm_prelim::registry::{Compare, Shown, TimingTable, row};

/// The runs the pages show: console blocks (`{{#include ../output/…}}`) and the
/// numbers sentences quote (`{{#value …}}`).
pub fn shown() -> Vec<Shown> {
    vec![
        Shown::run("pbd/stiffness-vs-steps").keys(&[
            "expected_extension",
            "pbd_s",
            "xpbd_extension_spread",
            "pbd_extension_spread",
            "pbd_per_pass_off_one_pass",
            "slides_update_extension_spread",
        ]),
        Shown::run("pbd/compare-lagrange").keys(COMPARE_KEYS),
        Shown::run("pbd/compare-lagrange")
            .set(&["substeps=1", "iterations=20"])
            .keys(COMPARE_KEYS),
        Shown::values("pbd/compare-lagrange").set(&["substeps=40"]),
        Shown::values("pbd/compare-lagrange").set(&["substeps=80"]),
        Shown::run("pbd/chain"),
        Shown::values("pbd/chain").set(&["substeps=40"]),
        Shown::run("pbd/chain").set(&["substeps=80"]),
        Shown::values("pbd/chain").set(&["substeps=160"]),
        // The mouse's path is for the figure's description to quote.
        Shown::run("pbd/drag").except(&["mouse_offset_at_1_s_m"]),
        Shown::run("pbd/sheet-sag").keys(SHEET_KEYS),
        Shown::run("pbd/contact"),
        Shown::run("pbd/rigid-contact"),
        Shown::values("pbd/sheet-calibration"),
        Shown::values("pbd/rigid-contact").set(&["incline_deg=20"]),
        Shown::values("pbd/rigid-contact")
            .set(&["incline_deg=20", "rule=all-or-nothing"]),
        Shown::values("pbd/rigid-contact").set(&["passes=1"]),
        Shown::values("pbd/rigid-contact").set(&["substeps=50"]),
        Shown::values("pbd/rigid-contact").set(&["passes=8"]),
        Shown::values("pbd/net"),
        Shown::values("pbd/free-bodies"),
        Shown::values("pbd/free-bodies").set(&["h=0.0005"]),
        Shown::run("pbd/hinge"),
        Shown::values("pbd/hinge").set(&["limit_deg=180"]),
        Shown::run("pbd/sheet-sag").set(&["n=40"]).keys(SHEET_KEYS),
        Shown::run("pbd/sheet-sag").set(&["n=100"]).keys(SHEET_KEYS),
        Shown::values("pbd/sheet-sag").set(&["substeps=200"]),
        Shown::values("pbd/sheet-sag").set(&["n=100", "substeps=200", "t_end=0.1"]),
        Shown::values("pbd/sheet-sag").set(&["sweep=jacobi"]),
        Shown::values("pbd/sheet-sag").set(&["iterations=10"]),
        Shown::values("pbd/sheet-sag").set(&["iterations=10", "sweep=jacobi"]),
    ]
}

/// The keys of the comparison's console blocks: all but the setup the prose quotes
/// (`bob_mass_kg`, `reference_steps_per_second`).
const COMPARE_KEYS: &[&str] = &[
    "max_position_difference_first_second",
    "xpbd_max_length_error",
    "lagrange_max_length_error",
    "xpbd_energy_change_j",
    "lagrange_energy_change_j",
    "xpbd_energy_change_3_s_j",
    "xpbd_projections",
    "lagrange_derivative_evaluations",
];

/// The keys of the sheet's console blocks: all but the cloth's density, which the
/// prose quotes (`density_kg_per_m2`).
const SHEET_KEYS: &[&str] = &[
    "constraints",
    "expected_extension_mm",
    "xpbd_extension_mm",
    "xpbd_extension_range_mm",
    "extension_over_expected",
    "free_edge_height_spread_mm",
];

/// The timing tables the pages include (`pbm bench-tables` writes them).
pub const TABLES: &[TimingTable] = &[TimingTable {
    file: "pbd-frame.md",
    column: "one 60 Hz frame, one core",
    package: "pbm-pbd",
    what: "one frame of 1/60 s: XPBD as 20 (or 200) substeps of one pass; chapter 9's implicit cloth as one backward Euler step of 1/60 s (RAYON_NUM_THREADS=1)",
    per_second: "",
    rows: &[
        row("XPBD: 100 boxes, ball joints", "pbd/box_chain_frame_100"),
        row("XPBD: 100-link particle chain", "pbd/particle_chain_frame_100"),
        row("XPBD: 100 × 100 cloth, 20 substeps", "pbd/xpbd_cloth_frame_n100"),
        row(
            "XPBD: 100 × 100 cloth, 200 substeps",
            "pbd/xpbd_cloth_frame_n100_200_substeps",
        ),
        row("chapter 9: 100 × 100 cloth, implicit", "pbd/implicit_cloth_frame_n100"),
    ],
    compare: Compare::TimesReference("pbd/implicit_cloth_frame_n100"),
}];
