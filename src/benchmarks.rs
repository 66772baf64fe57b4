//! Timings on the pages come from criterion, not from a keyboard. `cargo bench` saves each
//! benchmark's estimates under `target/criterion/`; `pbm bench-tables` turns the ones the
//! pages quote into Markdown tables in `book/src/benchmarks/` (committed, like program output),
//! with the median, criterion's 95% interval, a ratio to a reference row and the machine they
//! were measured on. The pages include the tables; `tests/prose.rs` checks the sentences that
//! quote them.

use crate::error::Error;
use crate::figures::write_atomically;
use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};

/// One row of a table: what was timed, and criterion's id for it (`group/function`).
#[derive(Debug, Clone, Copy)]
pub struct Row {
    /// What the row says, in the book's words.
    pub label: &'static str,
    /// Criterion's id, as its directory under `target/criterion` (`rigid/rk4_step_...`).
    pub id: &'static str,
    /// Items per iteration, for a throughput column (0: none).
    pub items: u64,
}

/// How the last column compares rows.
#[derive(Debug, Clone, Copy)]
pub enum Compare {
    /// Each row's time over the reference row's time: "127×" slower.
    TimesReference(usize),
    /// The reference row's time over each row's: a speed-up, "2.1× faster".
    SpeedUpOver(usize),
    /// Each row's time over the time of the row its entry names (itself: the
    /// reference, 1×), with the spread of the ratio: from the row's low end over the
    /// reference's high end to its high end over the reference's low end.
    Against(&'static [usize]),
    /// No comparison column.
    Nothing,
}

/// A table of one page.
#[derive(Debug, Clone, Copy)]
pub struct Table {
    /// File name under `book/src/benchmarks/`.
    pub file: &'static str,
    /// The crate whose `cargo bench` produces the rows.
    pub package: &'static str,
    /// Heading of the first column, short ("chain", "solver").
    pub column: &'static str,
    /// What one iteration does, for the note under the table.
    pub what: &'static str,
    /// Heading of the throughput column, if rows have items ("bodies/s").
    pub per_second: &'static str,
    /// The rows, in the order the page shows them.
    pub rows: &'static [Row],
    /// The comparison column.
    pub compare: Compare,
}

const fn row(label: &'static str, id: &'static str) -> Row {
    Row { label, id, items: 0 }
}

/// Every table the pages include.
pub const TABLES: &[Table] = &[
    Table {
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
        compare: Compare::TimesReference(0),
    },
    Table {
        file: "implicit-solvers.md",
        column: "solver",
        package: "pbm-bench",
        what: "one solve of chapter 3's sheet system after ten frames (tolerance 1e-10, \
               zero start; CG with the multigrid hierarchy built inside the solve)",
        per_second: "",
        rows: &[
            row("n = 32: faer sparse Cholesky", "production-sparse/sheet-n32-faer"),
            row(
                "n = 32: faer, symbolic analysis reused",
                "production-sparse/sheet-n32-faer-numeric",
            ),
            row(
                "n = 32: our multigrid CG",
                "production-sparse/sheet-n32-cg-multigrid",
            ),
            row(
                "n = 32: our block-Jacobi CG",
                "production-sparse/sheet-n32-cg-jacobi",
            ),
            row("n = 64: faer sparse Cholesky", "production-sparse/sheet-n64-faer"),
            row(
                "n = 64: faer, symbolic analysis reused",
                "production-sparse/sheet-n64-faer-numeric",
            ),
            row(
                "n = 64: our multigrid CG",
                "production-sparse/sheet-n64-cg-multigrid",
            ),
            row(
                "n = 64: our block-Jacobi CG",
                "production-sparse/sheet-n64-cg-jacobi",
            ),
        ],
        compare: Compare::Against(&[0, 0, 0, 0, 4, 4, 4, 4]),
    },
    Table {
        file: "production-ode.md",
        column: "workload",
        package: "pbm-bench",
        what: "one period of the Kepler orbit, each solver at the loosest tolerance that \
               reaches a global error of 1e-8 (table above), and 100 RK4 steps of 10,000 \
               masses on a ring of springs",
        per_second: "",
        rows: &[
            row(
                "e = 0.5: ode_solvers' Dopri5",
                "production-ode/dopri5-ode-solvers-e5",
            ),
            row(
                "e = 0.5: chapter 1's Dormand–Prince",
                "production-ode/dopri5-ours-e5",
            ),
            row(
                "e = 0.9: ode_solvers' Dopri5",
                "production-ode/dopri5-ode-solvers-e9",
            ),
            row(
                "e = 0.9: chapter 1's Dormand–Prince",
                "production-ode/dopri5-ours-e9",
            ),
            row(
                "RK4, 20,000 unknowns: ode_solvers' Rk4",
                "production-ode/rk4-ode-solvers-100-steps-20000",
            ),
            row(
                "RK4, 20,000 unknowns: chapter 1's",
                "production-ode/rk4-ours-100-steps-20000",
            ),
        ],
        compare: Compare::Against(&[0, 0, 2, 2, 4, 4]),
    },
    Table {
        file: "cloth-solvers.md",
        column: "50 × 50 drape, just landed",
        package: "pbm-bench",
        what: "the drape's linear solve alone (CG from zero to 1e-6)",
        per_second: "",
        rows: &[
            row("faer sparse Cholesky", "production-sparse/drape-50-faer"),
            row("our block-Jacobi CG", "production-sparse/drape-50-cg"),
        ],
        compare: Compare::Against(&[0, 0]),
    },
    Table {
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
        compare: Compare::TimesReference(3),
    },
    Table {
        file: "interactive-scenes.md",
        column: "scene",
        package: "pbm-interactive",
        what: "the scene built and run for 2 simulated seconds, one core (the feeder turned and the jack pumped by the scripted hand)",
        per_second: "simulated s/s",
        rows: &[
            Row {
                label: "the feeder, 8 blocks (the exercise's)",
                id: "interactive/feeder_8_blocks_2_s",
                items: 2,
            },
            Row {
                label: "the feeder, 4 blocks (the live demo's)",
                id: "interactive/feeder_4_blocks_2_s",
                items: 2,
            },
            Row {
                label: "the double-action jack (the exercise's)",
                id: "interactive/jack_2_s",
                items: 2,
            },
            Row {
                label: "the pile of 20 polygons",
                id: "interactive/pile_20_2_s",
                items: 2,
            },
        ],
        compare: Compare::TimesReference(0),
    },
    Table {
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
            row(
                "chapter 9: 100 × 100 cloth, implicit",
                "pbd/implicit_cloth_frame_n100",
            ),
        ],
        compare: Compare::TimesReference(4),
    },
    Table {
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
        compare: Compare::TimesReference(0),
    },
    Table {
        file: "constraints-solvers.md",
        column: "solver",
        package: "pbm-bench",
        what: "one solve for λ, 1,000 rods",
        per_second: "",
        rows: &[
            row(
                "faer sparse Cholesky of the formed J W Jᵀ",
                "production-sparse/chain-1000-faer",
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
        compare: Compare::Against(&[0, 0, 0]),
    },
    Table {
        file: "lagrangian-derivative.md",
        column: "formulation",
        package: "pbm-lagrangian",
        what: "one derivative evaluation of the double pendulum",
        per_second: "",
        rows: &[
            row(
                "in angles (this chapter)",
                "lagrangian/double_pendulum_derivative_angles",
            ),
            row(
                "as constrained particles (chapter 4)",
                "lagrangian/double_pendulum_derivative_constraints",
            ),
        ],
        compare: Compare::TimesReference(0),
    },
    Table {
        file: "rigid-bodies.md",
        column: "work",
        package: "pbm-rigid",
        what: "10,000 quaternion bodies under gravity",
        per_second: "bodies/s",
        rows: &[
            Row {
                label: "one derivative evaluation, 1 thread",
                id: "rigid/derivative_10000_bodies_1_threads",
                items: 10_000,
            },
            Row {
                label: "one derivative evaluation, 2 threads",
                id: "rigid/derivative_10000_bodies_2_threads",
                items: 10_000,
            },
            Row {
                label: "one RK4 step, 1 thread",
                id: "rigid/rk4_step_10000_bodies_1_threads",
                items: 10_000,
            },
            Row {
                label: "one RK4 step, 2 threads",
                id: "rigid/rk4_step_10000_bodies_2_threads",
                items: 10_000,
            },
        ],
        compare: Compare::Nothing,
    },
    Table {
        file: "rigid-mass.md",
        column: "mesh",
        package: "pbm-rigid",
        what: "computing exact mass properties (Mirtich's method)",
        per_second: "triangles/s",
        rows: &[Row {
            label: "a 9,800-triangle sphere",
            id: "rigid/polyhedral_mass_properties_9800_triangles",
            items: 9_800,
        }],
        compare: Compare::Nothing,
    },
    Table {
        file: "collision-sweep.md",
        column: "boxes",
        package: "pbm-collision",
        what: "one step of the coherent sweep on Baraff's Table 1 scene",
        per_second: "boxes/s",
        rows: &[
            Row { label: "100", id: "broad-phase/coherent/100", items: 100 },
            Row { label: "200", id: "broad-phase/coherent/200", items: 200 },
            Row { label: "400", id: "broad-phase/coherent/400", items: 400 },
            Row { label: "800", id: "broad-phase/coherent/800", items: 800 },
            Row { label: "1,600", id: "broad-phase/coherent/1600", items: 1600 },
            Row { label: "3,200", id: "broad-phase/coherent/3200", items: 3200 },
        ],
        compare: Compare::TimesReference(0),
    },
    Table {
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
        compare: Compare::TimesReference(0),
    },
    Table {
        file: "production-broad-phase.md",
        column: "3,200 moving boxes",
        package: "pbm-bench",
        what: "one step's overlapping pairs among 3,200 moving boxes",
        per_second: "",
        rows: &[
            row("parry's BVH, refitted", "broad-phase-vs-parry/parry-bvh/3200"),
            row("chapter 7's coherent sweep", "broad-phase-vs-parry/coherent/3200"),
        ],
        compare: Compare::Against(&[0, 0]),
    },
    Table {
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
    Table {
        file: "contact-stack.md",
        column: "10 boxes, μ = 0.5",
        package: "pbm-contact",
        what: "one 10 ms step of the resting stack of ten cubes",
        per_second: "",
        rows: &[
            row("this chapter, warm start", "contact-stack/warm/10"),
            row("this chapter, pivoting every solve", "contact-stack/cold/10"),
        ],
        compare: Compare::TimesReference(0),
    },
    Table {
        file: "production-stack.md",
        column: "10 boxes, μ = 0.5",
        package: "pbm-bench",
        what: "one 10 ms step of the resting stack of ten cubes",
        per_second: "",
        rows: &[
            row("rapier 0.36 (bodies kept awake)", "stack-vs-rapier/rapier"),
            row("chapter 8, warm start", "stack-vs-rapier/ours"),
        ],
        compare: Compare::Against(&[0, 0]),
    },
];

/// The broad-phase series the chapter 7 timing figure draws: criterion group, function,
/// and the name the figure knows it by.
pub const BROAD_PHASE_SERIES: &[(&str, &str, &str)] = &[
    ("broad-phase", "coherent", "coherent"),
    ("broad-phase", "resort", "resort"),
    ("broad-phase", "brute", "brute"),
    ("broad-phase-vs-parry", "parry-bvh", "parry-bvh"),
];

/// The box counts the broad-phase benchmarks time.
pub const BROAD_PHASE_N: &[usize] = &[100, 200, 400, 800, 1600, 3200];

/// Writes the broad-phase medians for chapter 7's figure as JSON: every (method, n)
/// criterion has results for, with the machine and date.
pub fn write_broad_phase_series(
    criterion_dir: &Path,
    path: &Path,
) -> Result<(), Error> {
    let mut series = serde_json::Map::new();
    for &(group, function, name) in BROAD_PHASE_SERIES {
        let rows: Vec<Value> = BROAD_PHASE_N
            .iter()
            .filter_map(|n| {
                let t =
                    read_timing(criterion_dir, &format!("{group}/{function}/{n}"))
                        .ok()?;
                Some(serde_json::json!({
                    "n": n, "median_s": t.median, "low_s": t.low, "high_s": t.high,
                }))
            })
            .collect();
        if rows.len() < 2 {
            return Err(Error::Book(format!(
                "criterion has {} results for {group}/{function}; run \
                 `cargo bench -p pbm-collision` and `cargo bench -p pbm-bench --bench \
                 versus_parry` first",
                rows.len()
            )));
        }
        series.insert(name.to_string(), Value::Array(rows));
    }
    let json = serde_json::json!({
        "machine": machine(),
        "date": today(),
        "series": series,
    });
    let text = serde_json::to_string_pretty(&json)
        .map_err(|e| Error::Book(format!("broad-phase series: {e}")))?;
    write_atomically(path, &(text + "\n"))
        .map_err(|source| Error::Write { path: path.to_path_buf(), source })
}

/// Criterion's median time per iteration and its 95% confidence interval, in seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Timing {
    /// Median.
    pub median: f64,
    /// Lower end of the interval.
    pub low: f64,
    /// Upper end of the interval.
    pub high: f64,
}

/// Reads the estimates criterion saved for benchmark `id` under `criterion_dir`.
pub fn read_timing(criterion_dir: &Path, id: &str) -> Result<Timing, Error> {
    let path: PathBuf = criterion_dir.join(id).join("new/estimates.json");
    let text = fs::read_to_string(&path)
        .map_err(|source| Error::Read { path: path.clone(), source })?;
    let json: Value = serde_json::from_str(&text)
        .map_err(|e| Error::Book(format!("{}: {e}", path.display())))?;
    let ns = |pointer: &str| {
        json.pointer(pointer)
            .and_then(Value::as_f64)
            .ok_or_else(|| Error::Book(format!("{}: no {pointer}", path.display())))
    };
    Ok(Timing {
        median: ns("/median/point_estimate")? * 1e-9,
        low: ns("/median/confidence_interval/lower_bound")? * 1e-9,
        high: ns("/median/confidence_interval/upper_bound")? * 1e-9,
    })
}

/// A duration in the unit that keeps three significant digits readable.
pub fn duration(seconds: f64) -> String {
    let (value, unit) = if seconds >= 1.0 {
        (seconds, "s")
    } else if seconds >= 1e-3 {
        (seconds * 1e3, "ms")
    } else if seconds >= 1e-6 {
        (seconds * 1e6, "µs")
    } else {
        (seconds * 1e9, "ns")
    };
    format!("{} {unit}", three_digits(value))
}

/// An interval in one unit when both ends share it: "4.83–5.10 µs".
fn interval(low: f64, high: f64) -> String {
    let (l, h) = (duration(low), duration(high));
    match (l.split_once(' '), h.split_once(' ')) {
        (Some((lv, lu)), Some((hv, hu))) if lu == hu => format!("{lv}–{hv} {hu}"),
        _ => format!("{l} to {h}"),
    }
}

/// A positive number with three significant digits, without exponent; thousands grouped.
fn three_digits(value: f64) -> String {
    if value >= 1000.0 {
        let rounded = {
            let scale = 10f64.powi(value.log10().floor() as i32 - 2);
            ((value / scale).round() * scale) as u64
        };
        return thousands(rounded);
    }
    let decimals = if value >= 100.0 {
        0
    } else if value >= 10.0 {
        1
    } else if value >= 1.0 || value <= 0.0 {
        2
    } else {
        // Three significant digits below one: 0.0938, 0.00129.
        (2 - value.log10().floor() as i32) as usize
    };
    format!("{value:.decimals$}")
}

/// A rate such as 67.1 M bodies/s.
fn rate(per_second: f64, unit: &str) -> String {
    if per_second >= 1e6 {
        format!("{} M {unit}", three_digits(per_second / 1e6))
    } else if per_second >= 1e3 {
        format!("{} k {unit}", three_digits(per_second / 1e3))
    } else {
        format!("{} {unit}", three_digits(per_second))
    }
}

/// A time relative to a reference with the ratio's spread, "2.10× (1.95–2.31×)", or
/// "1 (reference)".
fn relative(t: &Timing, reference: &Timing, is_reference: bool) -> String {
    if is_reference {
        return "1 (reference)".into();
    }
    format!(
        "{}× ({}–{}×)",
        three_digits(t.median / reference.median),
        three_digits(t.low / reference.high),
        three_digits(t.high / reference.low)
    )
}

/// The machine the timings were taken on, as the last line of a table says.
pub fn machine() -> String {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cpu = fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find_map(|l| l.strip_prefix("model name"))
                .map(|l| l.trim_start_matches([' ', '\t', ':']).trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    format!("{cores} cores, {cpu}")
}

/// Today's date (UTC) as YYYY-MM-DD, from the system clock.
pub fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// The Markdown of `table` from `timings` (one per row, in order).
pub fn render(table: &Table, timings: &[Timing], measured: &str) -> String {
    let mut header =
        vec![table.column.to_string(), "median".into(), "95% interval".into()];
    if !table.per_second.is_empty() {
        header.push("throughput".into());
    }
    match table.compare {
        Compare::TimesReference(_) => header.push("relative".into()),
        Compare::SpeedUpOver(_) => header.push("speed-up".into()),
        Compare::Against(_) => header.push("relative (spread)".into()),
        Compare::Nothing => {}
    }
    let mut out =
        format!("| {} |\n|{}\n", header.join(" | "), "---|".repeat(header.len()));
    for (i, (row, t)) in table.rows.iter().zip(timings).enumerate() {
        let mut cells =
            vec![row.label.to_string(), duration(t.median), interval(t.low, t.high)];
        if !table.per_second.is_empty() {
            let unit = table.per_second.trim_end_matches("/s");
            cells.push(rate(row.items as f64 / t.median, &format!("{unit}/s")));
        }
        match table.compare {
            Compare::TimesReference(r) => {
                cells.push(format!("{}×", three_digits(t.median / timings[r].median)))
            }
            Compare::SpeedUpOver(r) => {
                cells.push(format!("{}×", three_digits(timings[r].median / t.median)))
            }
            Compare::Against(references) => {
                cells.push(relative(t, &timings[references[i]], references[i] == i))
            }
            Compare::Nothing => {}
        }
        out += &format!("| {} |\n", cells.join(" | "));
    }
    out += &format!(
        "\n*Time for {}: criterion medians on {measured}. Reproduce with \
         `cargo bench -p {}`, then `cargo run --release -- bench-tables`.*\n",
        table.what, table.package
    );
    out
}

/// Writes every table (or, with `package`, that package's tables) from the estimates
/// under `criterion_dir` into `out_dir`; returns how many. A missing benchmark is an
/// error naming the `cargo bench` to run, and so is a package with no table.
pub fn write_tables(
    criterion_dir: &Path,
    out_dir: &Path,
    package: Option<&str>,
) -> Result<usize, Error> {
    let measured = format!("{}, {}", machine(), today());
    // A table's package may carry the features its benchmark needs: match the name.
    let name = |t: &Table| t.package.split_whitespace().next().unwrap_or(t.package);
    let chosen: Vec<&Table> =
        TABLES.iter().filter(|t| package.is_none_or(|p| name(t) == p)).collect();
    if chosen.is_empty() {
        let mut known: Vec<&str> = TABLES.iter().map(name).collect();
        known.sort_unstable();
        known.dedup();
        return Err(Error::Book(format!(
            "no timing table belongs to {}; the packages with tables are {}",
            package.unwrap_or("any package"),
            known.join(", ")
        )));
    }
    for table in &chosen {
        let timings = table
            .rows
            .iter()
            .map(|row| {
                read_timing(criterion_dir, row.id).map_err(|e| {
                    Error::Book(format!(
                        "no criterion result for {} ({e}); run `cargo bench -p {}` first",
                        row.id, table.package
                    ))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let path = out_dir.join(table.file);
        write_atomically(&path, &render(table, &timings, &measured))
            .map_err(|source| Error::Write { path, source })?;
    }
    let mut written = chosen.len();
    if package.is_none_or(|p| p == "pbm-bench") {
        let work = criterion_dir.join(ODE_WORK);
        let text = fs::read_to_string(&work).map_err(|e| {
            Error::Book(format!(
                "no {} ({e}); run `cargo bench -p pbm-bench` first",
                work.display()
            ))
        })?;
        let value: Value = serde_json::from_str(&text)
            .map_err(|e| Error::Book(format!("{}: {e}", work.display())))?;
        let path = out_dir.join("production-ode-work.md");
        write_atomically(&path, &render_ode_work(&value, &measured)?)
            .map_err(|source| Error::Write { path, source })?;
        written += 1;
    }
    Ok(written)
}

/// The file the production benchmark leaves beside criterion's estimates: for each
/// orbit, each adaptive solver's tolerance, reached error and evaluations.
pub const ODE_WORK: &str = "production-ode-work.json";

/// The work table of the adaptive comparison: what each solver needed to reach the
/// same global error.
pub fn render_ode_work(work: &Value, measured: &str) -> Result<String, Error> {
    let bad = |what: &str| Error::Book(format!("{ODE_WORK}: no {what}"));
    let mut out = String::from(
        "| orbit | solver | tolerance | global error | derivative evaluations | relative |\n\
         |---|---|---|---|---|---|\n",
    );
    let mut target = f64::NAN;
    for orbit in work.as_array().ok_or_else(|| bad("list of orbits"))? {
        let e = orbit["eccentricity"].as_f64().ok_or_else(|| bad("eccentricity"))?;
        target = orbit["target_error"].as_f64().ok_or_else(|| bad("target_error"))?;
        let reference = orbit["ode_solvers"]["evaluations"]
            .as_f64()
            .ok_or_else(|| bad("evaluations"))?;
        for (key, label) in [
            ("ode_solvers", "ode_solvers' Dopri5"),
            ("ours", "chapter 1's Dormand–Prince"),
        ] {
            let run = &orbit[key];
            let number = |field: &str| run[field].as_f64().ok_or_else(|| bad(field));
            let evaluations = number("evaluations")?;
            out += &format!(
                "| e = {e} | {label} | {} | {} | {} | {}× |\n",
                scientific(number("tolerance")?),
                scientific(number("error")?),
                thousands(evaluations as u64),
                three_digits(evaluations / reference),
            );
        }
    }
    out += &format!(
        "\n*One period of the Kepler orbit, each solver at the loosest tolerance (eight to a \
         decade) that brings its global error under {}; ode_solvers' tolerance is relative \
         and absolute in its mixed norm, chapter 1's absolute in the Euclidean norm. \
         Measured on {measured}. Reproduce with `cargo bench -p pbm-bench`, then \
         `cargo run --release -- bench-tables`.*\n",
        scientific(target)
    );
    Ok(out)
}

/// A count with its thousands grouped: 12,345.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// 1.78e-9 style, three digits.
fn scientific(value: f64) -> String {
    format!("{value:.2e}")
}

/// The median (seconds) a committed table gives for the row labelled `label`; for tests that
/// check sentences quoting a table.
pub fn committed_median(table_text: &str, label: &str) -> Option<f64> {
    let line = table_text.lines().find(|l| l.starts_with(&format!("| {label} |")))?;
    let cell = line.split('|').nth(2)?.trim();
    let (value, unit) = cell.split_once(' ')?;
    let scale = match unit {
        "s" => 1.0,
        "ms" => 1e-3,
        "µs" => 1e-6,
        "ns" => 1e-9,
        _ => return None,
    };
    value.parse::<f64>().ok().map(|v| v * scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_rates_read_with_three_digits() {
        assert_eq!(duration(0.000149), "149 µs");
        assert_eq!(duration(0.0154), "15.4 ms");
        assert_eq!(duration(1.59), "1.59 s");
        assert_eq!(duration(4.0e-7), "400 ns");
        assert_eq!(rate(6.71e7, "bodies/s"), "67.1 M bodies/s");
        assert_eq!(three_digits(4829.4), "4,830");
        assert_eq!(three_digits(123_456.0), "123,000");
        assert_eq!(interval(4.83e-6, 5.1e-6), "4.83–5.10 µs");
        assert_eq!(interval(9.87e-5, 1.06e-4), "98.7–106 µs");
        assert_eq!(interval(9.87e-4, 1.06e-3), "987 µs to 1.06 ms");
    }

    #[test]
    fn a_table_renders_and_its_medians_read_back() {
        let Some(table) = TABLES.iter().find(|t| t.file == "constraints-solvers.md")
        else {
            panic!("no constraints-solvers table");
        };
        let timings = [
            Timing { median: 1.22e-4, low: 1.2e-4, high: 1.25e-4 },
            Timing { median: 1.55e-2, low: 1.5e-2, high: 1.6e-2 },
            Timing { median: 4.34e-2, low: 4.3e-2, high: 4.4e-2 },
        ];
        let text = render(table, &timings, "2 cores, a test CPU, 2026-11-23");
        assert!(
            text.contains("| our CG, unformed, Jacobi-preconditioned | 15.5 ms |"),
            "{text}"
        );
        // Ratios with their spread: 1.5e-2/1.25e-4 = 120 to 1.6e-2/1.2e-4 = 133.
        assert!(text.contains("| 127× (120–133×) |"), "{text}");
        assert!(text.contains("| 356× (344–367×) |"), "{text}");
        assert!(text.contains("| 1 (reference) |"), "{text}");
        assert!(text.contains("cargo bench -p pbm-bench"), "{text}");
        let back = committed_median(&text, "our CG, unformed, Jacobi-preconditioned");
        assert_eq!(back, Some(15.5e-3));
    }

    #[test]
    fn the_ode_work_table_reads_the_benchmark_file() {
        let work = serde_json::json!([{
            "eccentricity": 0.5, "target_error": 1e-8,
            "ours": { "tolerance": 1e-9, "error": 8.1e-9, "evaluations": 1234 },
            "ode_solvers": { "tolerance": 3.16e-9, "error": 7.5e-9, "evaluations": 1000 },
        }]);
        let text = render_ode_work(&work, "a test machine").unwrap();
        assert!(text.contains("| e = 0.5 | chapter 1's Dormand–Prince | 1.00e-9 | 8.10e-9 | 1,234 | 1.23× |"), "{text}");
        assert!(text.contains("under 1.00e-8"), "{text}");
        assert!(render_ode_work(&serde_json::json!({}), "m").is_err());
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn the_date_is_a_calendar_date() {
        let d = today();
        assert_eq!(d.len(), 10, "{d}");
        let year: i32 = d[..4].parse().unwrap_or(0);
        assert!(year >= 2025, "{d}");
    }

    #[test]
    fn every_row_id_is_a_group_and_a_function() {
        // `group/function`, or `group/function/parameter` for a `BenchmarkId`.
        for table in TABLES {
            for row in table.rows {
                let parts = row.id.split('/').count();
                assert!((2..=3).contains(&parts), "{}", row.id);
            }
        }
    }
}
