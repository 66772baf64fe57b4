//! Timings on the pages come from criterion, not from a keyboard. `cargo bench` saves each
//! benchmark's estimates under `target/criterion/`; `pbm bench-tables` turns the ones the
//! pages quote into Markdown tables in `book/src/benchmarks/` (committed, like program output),
//! with the median, criterion's 95% interval, a ratio to a reference row and the machine they
//! were measured on. The pages include the tables, and a sentence quotes them with
//! `{{#timing}}` ([`crate::values`]).

use crate::error::Error;
use crate::files::write_atomically;
use pbm_prelim::registry::{Compare, TimingTable as Table};
use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};

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
                 `cargo bench -p pbm-collision --features bench` and `cargo bench -p \
                 pbm-bench --bench versus_parry` first",
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

/// Where criterion keeps the estimates of benchmark `id`.
fn estimates_file(criterion_dir: &Path, id: &str) -> PathBuf {
    criterion_dir.join(id).join("new/estimates.json")
}

/// Reads the estimates criterion saved for benchmark `id` under `criterion_dir`.
pub fn read_timing(criterion_dir: &Path, id: &str) -> Result<Timing, Error> {
    let path: PathBuf = estimates_file(criterion_dir, id);
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
    date_of(std::time::SystemTime::now())
}

/// The date (UTC) the newest of `files` was written, as YYYY-MM-DD: when a table's
/// estimates were measured, not when the table was written. Today if none can be read.
pub fn measured_on(files: &[PathBuf]) -> String {
    let newest = files
        .iter()
        .filter_map(|f| fs::metadata(f).and_then(|m| m.modified()).ok())
        .max();
    newest.map_or_else(today, date_of)
}

/// A time as its date (UTC), YYYY-MM-DD.
fn date_of(time: std::time::SystemTime) -> String {
    let days = time
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
    // The label column reads left to right; every other column is a number, right-aligned.
    let mut out = format!(
        "| {} |\n|---|{}\n",
        header.join(" | "),
        "---:|".repeat(header.len() - 1)
    );
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
         `{}`, then `cargo run --release -- bench-tables`.*\n",
        table.what,
        bench_command(table.package)
    );
    out
}

/// The command that runs a package's criterion benchmarks. A chapter's benchmarks sit
/// behind its `bench` feature, so that `cargo test` never compiles criterion; the
/// production appendix's crate is not a default member of the workspace and needs none.
pub fn bench_command(package: &str) -> String {
    if package == "pbm-bench" {
        "cargo bench -p pbm-bench".to_string()
    } else {
        format!("cargo bench -p {package} --features bench")
    }
}

/// Writes every table (or, with `package`, that package's tables) from the estimates
/// under `criterion_dir` into `out_dir`; returns how many. A missing benchmark is an
/// error naming the `cargo bench` to run, and so is a package with no table.
pub fn write_tables(
    tables: &[Table],
    criterion_dir: &Path,
    out_dir: &Path,
    package: Option<&str>,
) -> Result<usize, Error> {
    let machine = machine();
    // A table's package may carry the features its benchmark needs: match the name.
    let name = |t: &Table| t.package.split_whitespace().next().unwrap_or(t.package);
    let chosen: Vec<&Table> =
        tables.iter().filter(|t| package.is_none_or(|p| name(t) == p)).collect();
    if chosen.is_empty() {
        let mut known: Vec<&str> = tables.iter().map(name).collect();
        known.sort_unstable();
        known.dedup();
        return Err(Error::Book(format!(
            "no timing table belongs to {}; the packages with tables are {}",
            package.unwrap_or("any package"),
            known.join(", ")
        )));
    }
    for table in &chosen {
        table.check_compare().map_err(Error::Book)?;
        let timings = table
            .rows
            .iter()
            .map(|row| {
                read_timing(criterion_dir, row.id).map_err(|e| {
                    Error::Book(format!(
                        "no criterion result for {} ({e}); run `{}` first",
                        row.id,
                        bench_command(table.package)
                    ))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let estimates: Vec<PathBuf> = table
            .rows
            .iter()
            .map(|row| estimates_file(criterion_dir, row.id))
            .collect();
        let measured = format!("{machine}, {}", measured_on(&estimates));
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
        let measured =
            format!("{machine}, {}", measured_on(std::slice::from_ref(&work)));
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
         |---|---|---:|---:|---:|---:|\n",
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

/// Three digits in the prose's style, 1.78 × 10⁻⁹ (a real minus sign, the power as
/// superscripts).
fn scientific(value: f64) -> String {
    let text = format!("{value:.2e}");
    let Some((mantissa, exponent)) = text.split_once('e') else {
        return text;
    };
    let power: String = exponent
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            '0' => '⁰',
            '1' => '¹',
            '2' => '²',
            '3' => '³',
            '4' => '⁴',
            '5' => '⁵',
            '6' => '⁶',
            '7' => '⁷',
            '8' => '⁸',
            _ => '⁹',
        })
        .collect();
    format!("{mantissa} × 10{power}")
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
    value.replace(',', "").parse::<f64>().ok().map(|v| v * scale)
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
        use pbm_prelim::registry::row;
        const TABLE: Table = Table {
            file: "constraints-solvers.md",
            column: "solver",
            package: "pbm-bench",
            what: "one solve",
            per_second: "",
            rows: &[
                row("faer", "a/faer"),
                row("our CG, unformed, Jacobi-preconditioned", "a/cg"),
                row("dense", "a/dense"),
            ],
            compare: Compare::Against(&[0, 0, 0]),
        };
        let table = &TABLE;
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
        assert!(text.contains("`cargo bench -p pbm-bench`, then"), "{text}");
        // A chapter's benchmarks need its `bench` feature; the command says so.
        let chapter = Table { package: "pbm-constraints", ..TABLE };
        let text = render(&chapter, &timings, "2 cores, a test CPU, 2026-11-23");
        assert!(
            text.contains("`cargo bench -p pbm-constraints --features bench`, then"),
            "{text}"
        );
        let back = committed_median(&text, "our CG, unformed, Jacobi-preconditioned");
        assert_eq!(back, Some(15.5e-3));
    }

    #[test]
    fn a_table_is_dated_by_its_newest_estimate_not_by_the_day_it_is_written() {
        let dir =
            std::env::temp_dir().join(format!("pbm-dated-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let (old, newer) = (dir.join("old.json"), dir.join("newer.json"));
        let day = std::time::Duration::from_secs(86_400);
        // 2001-09-09 (1e9 s after the epoch) and the day after.
        let at =
            std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000_000);
        for (path, time) in [(&old, at), (&newer, at + day)] {
            let file = fs::File::create(path).unwrap();
            file.set_modified(time).unwrap();
        }
        let dated = measured_on(&[old.clone(), newer, dir.join("missing.json")]);
        let only_old = measured_on(&[old]);
        fs::remove_dir_all(&dir).unwrap();
        assert_eq!(dated, "2001-09-10");
        assert_eq!(only_old, "2001-09-09");
        assert_eq!(measured_on(&[]), today());
    }

    #[test]
    fn the_ode_work_table_reads_the_benchmark_file() {
        let work = serde_json::json!([{
            "eccentricity": 0.5, "target_error": 1e-8,
            "ours": { "tolerance": 1e-9, "error": 8.1e-9, "evaluations": 1234 },
            "ode_solvers": { "tolerance": 3.16e-9, "error": 7.5e-9, "evaluations": 1000 },
        }]);
        let text = render_ode_work(&work, "a test machine").unwrap();
        assert!(text.contains("| e = 0.5 | chapter 1's Dormand–Prince | 1.00 × 10⁻⁹ | 8.10 × 10⁻⁹ | 1,234 | 1.23× |"), "{text}");
        assert!(text.contains("under 1.00 × 10⁻⁸"), "{text}");
        assert!(text.contains("|---|---|---:|---:|---:|---:|"), "{text}");
        assert_eq!(scientific(5.62e-11), "5.62 × 10⁻¹¹");
        assert_eq!(scientific(1.5e3), "1.50 × 10³");
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
}
