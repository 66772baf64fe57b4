//! Timings on the pages come from criterion, not from a keyboard, and each names the run it
//! came from. `pbm bench-run` runs `cargo bench` for the packages with timing tables
//! [`MIN_ROUNDS`] times or more, one independent round after another, and records each
//! round's criterion estimates (only those written during that round) in one tagged
//! [`Record`] under `target/bench-runs/`: an id, the commit, the CPU and the date it ran.
//! `pbm bench-tables` builds each table from the newest record that holds every one of
//! its rows, refusing to mix records, and commits the table as Markdown and as the
//! run's numbers ([`TableData`], the table's `.json` beside it). A row's time is the
//! median of the rounds' medians with their lowest and highest; a ratio is the median of
//! the rounds' paired ratios with theirs, and a ratio whose spread reaches within
//! [`NOISE_BAND`] of 1 is "not resolved" on this machine. The pages include the tables,
//! and a sentence quotes them with `{{#timing}}` ([`crate::values`]).

use crate::error::Error;
use crate::files::write_atomically;
use pbm_prelim::registry::{Compare, TimingTable as Table};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

mod side_tables;
#[cfg(test)]
use side_tables::scientific;
use side_tables::thousands;
pub use side_tables::{
    ODE_WORK, PYRAMID_MOTION, SIDE_TABLES, STACK_SINK, SideTable, render_ode_work,
    render_side,
};

/// The fewest independent rounds a table's numbers may come from.
pub const MIN_ROUNDS: usize = 3;

/// How far from 1 a ratio must stay, over all its rounds, to be told from 1 on the
/// book's machine (a shared two-core virtual machine, where the same code has moved by
/// 15% between runs on one day).
pub const NOISE_BAND: f64 = 0.2;

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

/// Files a benchmark leaves beside criterion's estimates, recorded with each round.
pub const SIDE_FILES: &[&str] = &[ODE_WORK, STACK_SINK.side, PYRAMID_MOTION.side];

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

/// Reads the estimates criterion saved in `file` (a `new/estimates.json`).
fn read_estimates(file: &Path) -> Result<Timing, Error> {
    let text = fs::read_to_string(file)
        .map_err(|source| Error::Read { path: file.to_path_buf(), source })?;
    let json: Value = serde_json::from_str(&text)
        .map_err(|e| Error::Book(format!("{}: {e}", file.display())))?;
    let ns = |pointer: &str| {
        json.pointer(pointer)
            .and_then(Value::as_f64)
            .ok_or_else(|| Error::Book(format!("{}: no {pointer}", file.display())))
    };
    Ok(Timing {
        median: ns("/median/point_estimate")? * 1e-9,
        low: ns("/median/confidence_interval/lower_bound")? * 1e-9,
        high: ns("/median/confidence_interval/upper_bound")? * 1e-9,
    })
}

/// Several measurements of one quantity: their median, lowest and highest.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spread {
    /// The median (of an even count, the mean of the middle two).
    pub median: f64,
    /// The lowest.
    pub low: f64,
    /// The highest.
    pub high: f64,
}

impl Spread {
    /// The spread of `values` (at least one).
    pub fn of(values: &[f64]) -> Spread {
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let median = if n % 2 == 1 {
            sorted[n / 2]
        } else {
            0.5 * (sorted[n / 2 - 1] + sorted[n / 2])
        };
        Spread { median, low: sorted[0], high: sorted[n - 1] }
    }

    /// The spread of the rounds' ratios `a[k] / b[k]`: each round's two times were
    /// measured minutes apart on one machine, so a round's ratio is the comparison.
    pub fn of_ratios(a: &[f64], b: &[f64]) -> Spread {
        let ratios: Vec<f64> = a.iter().zip(b).map(|(x, y)| x / y).collect();
        Spread::of(&ratios)
    }

    /// Whether a ratio is told from 1: its spread stays out of 1 ± [`NOISE_BAND`].
    pub fn resolved(&self) -> bool {
        self.low > 1.0 + NOISE_BAND || self.high < 1.0 - NOISE_BAND
    }
}

/// What a recorded run says of itself, and every table built from it repeats.
#[derive(Debug, Clone, PartialEq)]
pub struct RunTag {
    /// Unique among runs: the start time and the commit, `20261206T0412Z-de8bd71`.
    pub id: String,
    /// The commit measured (with `-dirty` if the working tree had changes).
    pub commit: String,
    /// The processor as the machine reports it, and whether it is a virtual machine.
    pub machine: String,
    /// The day (UTC) the run started.
    pub date: String,
    /// How many independent rounds it holds.
    pub rounds: usize,
    /// The criterion options every round ran with (empty: criterion's defaults).
    pub settings: String,
}

impl RunTag {
    fn to_json(&self) -> Value {
        json!({
            "id": self.id, "commit": self.commit, "machine": self.machine,
            "date": self.date, "rounds": self.rounds, "settings": self.settings,
        })
    }

    fn from_json(value: &Value) -> Option<RunTag> {
        let text = |key: &str| value.get(key)?.as_str().map(str::to_string);
        Some(RunTag {
            id: text("id")?,
            commit: text("commit")?,
            machine: text("machine")?,
            date: text("date")?,
            rounds: usize::try_from(value.get("rounds")?.as_u64()?).ok()?,
            settings: text("settings")?,
        })
    }

    /// The words under a table: which run, where, when.
    pub fn describe(&self) -> String {
        let settings = if self.settings.is_empty() {
            String::new()
        } else {
            format!(", criterion `{}`", self.settings)
        };
        format!(
            "run {} (commit {}, {}, {}, {} rounds{settings})",
            self.id, self.commit, self.date, self.machine, self.rounds
        )
    }
}

/// One recorded run: its tag, and every criterion id's estimates, one per round, with
/// the side files each round left.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// The run.
    pub tag: RunTag,
    /// Criterion id to the median of each round that measured it, in seconds.
    pub medians: BTreeMap<String, Vec<f64>>,
    /// Side file name ([`SIDE_FILES`]) to its contents in each round that wrote it.
    pub side: BTreeMap<String, Vec<Value>>,
}

impl Record {
    /// A new, empty run of `commit` on this machine, starting now.
    pub fn start(commit: &str, settings: &str) -> Record {
        let now = SystemTime::now();
        let seconds =
            now.duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let (hour, minute) = (seconds % 86_400 / 3600, seconds % 3600 / 60);
        let date = date_of(now);
        Record {
            tag: RunTag {
                id: format!(
                    "{}T{hour:02}{minute:02}Z-{commit}",
                    date.replace('-', "")
                ),
                commit: commit.to_string(),
                machine: machine(),
                date,
                rounds: 0,
                settings: settings.to_string(),
            },
            medians: BTreeMap::new(),
            side: BTreeMap::new(),
        }
    }

    /// Adds to round `round` (from 0) every estimate and side file under
    /// `criterion_dir` written at or after `since`: what this round's `cargo bench`
    /// measured, and nothing an earlier run left. Returns how many estimates.
    pub fn add_round(
        &mut self,
        round: usize,
        criterion_dir: &Path,
        since: SystemTime,
    ) -> Result<usize, Error> {
        let mut found = Vec::new();
        estimates_under(criterion_dir, criterion_dir, &mut found)
            .map_err(|source| Error::Read { path: criterion_dir.into(), source })?;
        let fresh = |path: &Path| {
            fs::metadata(path).and_then(|m| m.modified()).is_ok_and(|t| t >= since)
        };
        let mut added = 0;
        for (id, file) in found.into_iter().filter(|(_, f)| fresh(f)) {
            let medians = self.medians.entry(id).or_default();
            // A round that ran a benchmark twice keeps the later estimate.
            medians.truncate(round);
            if medians.len() == round {
                medians.push(read_estimates(&file)?.median);
                added += 1;
            }
        }
        for name in SIDE_FILES {
            let path = criterion_dir.join(name);
            if fresh(&path) {
                let text = fs::read_to_string(&path)
                    .map_err(|source| Error::Read { path: path.clone(), source })?;
                let value = serde_json::from_str(&text)
                    .map_err(|e| Error::Book(format!("{}: {e}", path.display())))?;
                let rounds = self.side.entry((*name).to_string()).or_default();
                rounds.truncate(round);
                rounds.push(value);
            }
        }
        self.tag.rounds = self.tag.rounds.max(round + 1);
        Ok(added)
    }

    /// The medians of `id` if every round measured it.
    pub fn complete(&self, id: &str) -> Option<&[f64]> {
        self.medians
            .get(id)
            .filter(|m| m.len() == self.tag.rounds && m.len() >= MIN_ROUNDS)
            .map(Vec::as_slice)
    }

    /// Saves the record as `dir/<id>.json`.
    pub fn save(&self, dir: &Path) -> Result<PathBuf, Error> {
        let path = dir.join(format!("{}.json", self.tag.id));
        let value = json!({ "run": self.tag.to_json(), "medians": self.medians, "side": self.side });
        let text = serde_json::to_string_pretty(&value)
            .map_err(|e| Error::Book(format!("{}: {e}", path.display())))?;
        write_atomically(&path, &(text + "\n"))
            .map_err(|source| Error::Write { path: path.clone(), source })?;
        Ok(path)
    }

    /// Every record saved under `dir`, oldest first.
    pub fn all(dir: &Path) -> Result<Vec<Record>, Error> {
        let mut out = Vec::new();
        let Ok(entries) = fs::read_dir(dir) else { return Ok(out) };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_none_or(|e| e != "json") {
                continue;
            }
            let text = fs::read_to_string(&path)
                .map_err(|source| Error::Read { path: path.clone(), source })?;
            let bad =
                || Error::Book(format!("{} is not a run record", path.display()));
            let value: Value = serde_json::from_str(&text).map_err(|_| bad())?;
            let tag = RunTag::from_json(&value["run"]).ok_or_else(bad)?;
            let medians = serde_json::from_value(value["medians"].clone())
                .map_err(|_| bad())?;
            let side =
                serde_json::from_value(value["side"].clone()).map_err(|_| bad())?;
            out.push(Record { tag, medians, side });
        }
        // The id starts with the start time, so ids sort by age.
        out.sort_by(|a, b| a.tag.id.cmp(&b.tag.id));
        Ok(out)
    }
}

/// Every `new/estimates.json` under `dir`, with its criterion id (its folder under
/// `root`, `group/function/parameter`).
fn estimates_under(
    root: &Path,
    dir: &Path,
    out: &mut Vec<(String, PathBuf)>,
) -> std::io::Result<()> {
    let Ok(entries) = fs::read_dir(dir) else { return Ok(()) };
    for entry in entries {
        let path = entry?.path();
        if !path.is_dir() || path.file_name().is_some_and(|n| n == "report") {
            continue;
        }
        let estimates = path.join("new/estimates.json");
        if estimates.is_file() {
            let id = path.strip_prefix(root).unwrap_or(&path).to_string_lossy();
            out.push((id.replace('\\', "/"), estimates));
        }
        estimates_under(root, &path, out)?;
    }
    Ok(())
}

/// A table's numbers as committed beside its Markdown: the run, and each row's
/// median in every round.
#[derive(Debug, Clone, PartialEq)]
pub struct TableData {
    /// The one run every row comes from.
    pub tag: RunTag,
    /// Criterion id to its rounds' medians, in seconds.
    pub rows: BTreeMap<String, Vec<f64>>,
}

impl TableData {
    /// The numbers of `table` from the newest of `records` that holds every row in
    /// every one of at least [`MIN_ROUNDS`] rounds. A table is never built from two
    /// runs: the error names the rows the newest run lacks.
    pub fn from_records(
        table: &Table,
        records: &[Record],
    ) -> Result<TableData, Error> {
        let complete = |record: &Record| {
            table.rows.iter().all(|row| record.complete(row.id).is_some())
        };
        let Some(record) = records.iter().rev().find(|r| complete(r)) else {
            let missing: Vec<&str> = match records.last() {
                Some(newest) => table
                    .rows
                    .iter()
                    .filter(|row| newest.complete(row.id).is_none())
                    .map(|row| row.id)
                    .collect(),
                None => table.rows.iter().map(|row| row.id).collect(),
            };
            return Err(Error::Book(format!(
                "no recorded run holds every row of {} in {MIN_ROUNDS} or more rounds (the \
                 newest lacks {}); a table is never built from two runs: run `cargo run \
                 --release -- bench-run{}`",
                table.file,
                missing.join(", "),
                packages(table)
                    .iter()
                    .map(|p| format!(" --package {p}"))
                    .collect::<String>()
            )));
        };
        let rows = table
            .rows
            .iter()
            .map(|row| (row.id.to_string(), record.medians[row.id].clone()))
            .collect();
        Ok(TableData { tag: record.tag.clone(), rows })
    }

    /// The rounds' medians of `id`.
    pub fn medians(&self, id: &str) -> Option<&[f64]> {
        self.rows.get(id).map(Vec::as_slice)
    }

    fn to_json(&self) -> Value {
        json!({ "run": self.tag.to_json(), "rows": self.rows })
    }

    /// Reads the committed numbers of `table` from `benchmarks_dir`.
    pub fn committed(
        benchmarks_dir: &Path,
        table: &Table,
    ) -> Result<TableData, String> {
        let path = benchmarks_dir.join(data_file(table));
        let text = fs::read_to_string(&path).map_err(|e| {
            format!(
                "{}: {e}; `pbm bench-run` and `pbm bench-tables` write it",
                path.display()
            )
        })?;
        let bad = || format!("{} is not a timing table's numbers", path.display());
        let value: Value = serde_json::from_str(&text).map_err(|_| bad())?;
        let tag = RunTag::from_json(&value["run"]).ok_or_else(bad)?;
        let rows =
            serde_json::from_value(value["rows"].clone()).map_err(|_| bad())?;
        Ok(TableData { tag, rows })
    }
}

/// The file beside a table's Markdown that holds its numbers: `chain.md` → `chain.json`.
pub fn data_file(table: &Table) -> String {
    format!("{}.json", table.file.trim_end_matches(".md"))
}

/// The table's home package: the first of [`packages`].
fn package_name(table: &Table) -> &str {
    table.package.split_whitespace().next().unwrap_or(table.package)
}

/// The packages whose benchmarks give a table its rows, recorded together in one run.
pub fn packages(table: &Table) -> Vec<&str> {
    table.package.split_whitespace().collect()
}

/// Writes the broad-phase medians for chapter 7's figure as JSON: for each method, every
/// box count of [`BROAD_PHASE_N`] that the newest run holding at least two of each timed,
/// with the spread of its rounds and the run's tag.
pub fn write_broad_phase_series(runs_dir: &Path, path: &Path) -> Result<(), Error> {
    let records = Record::all(runs_dir)?;
    let points =
        |record: &Record, group: &str, function: &str| -> Vec<(usize, Spread)> {
            BROAD_PHASE_N
                .iter()
                .filter_map(|n| {
                    let medians =
                        record.complete(&format!("{group}/{function}/{n}"))?;
                    Some((*n, Spread::of(medians)))
                })
                .collect()
        };
    let record = records
        .iter()
        .rev()
        .find(|r| BROAD_PHASE_SERIES.iter().all(|(g, f, _)| points(r, g, f).len() >= 2))
        .ok_or_else(|| {
            Error::Book(format!(
                "no recorded run holds two or more sizes of every broad-phase series; run `{}`",
                run_command(&["pbm-collision", "pbm-bench"])
            ))
        })?;
    let mut series = serde_json::Map::new();
    for (group, function, name) in BROAD_PHASE_SERIES {
        let rows: Vec<Value> = points(record, group, function)
            .into_iter()
            .map(|(n, t)| json!({ "n": n, "median_s": t.median, "low_s": t.low, "high_s": t.high }))
            .collect();
        series.insert((*name).to_string(), Value::Array(rows));
    }
    let json = json!({
        "run": record.tag.id, "rounds": record.tag.rounds, "machine": record.tag.machine,
        "series": series,
    });
    let text = serde_json::to_string_pretty(&json)
        .map_err(|e| Error::Book(format!("broad-phase series: {e}")))?;
    write_atomically(path, &(text + "\n"))
        .map_err(|source| Error::Write { path: path.to_path_buf(), source })
}

/// An interval in one unit when both ends share it: "4.83–5.10 µs"; one number when
/// the two ends read alike.
fn interval(low: f64, high: f64) -> String {
    let (l, h) = (duration(low), duration(high));
    if l == h {
        return l;
    }
    match (l.split_once(' '), h.split_once(' ')) {
        (Some((lv, lu)), Some((hv, hu))) if lu == hu => format!("{lv}–{hv} {hu}"),
        _ => format!("{l} to {h}"),
    }
}

/// A ratio with its rounds' spread, "2.10× (1.95–2.31×)"; "not resolved (0.91–1.08×)"
/// when the spread reaches within [`NOISE_BAND`] of 1. Ends that read alike are
/// written once.
pub fn ratio_text(spread: &Spread) -> String {
    let (low, high) = (three_digits(spread.low), three_digits(spread.high));
    let range =
        if low == high { format!("{low}×") } else { format!("{low}–{high}×") };
    if spread.resolved() {
        format!("{}× ({range})", three_digits(spread.median))
    } else {
        format!("not resolved ({range})")
    }
}

/// The processor the timings were taken on, as the machine reports it, with its cores,
/// and whether the machine is virtual (a hypervisor shares its cores with others).
pub fn machine() -> String {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let info = fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |name: &str| {
        info.lines().find_map(|l| {
            let (key, value) = l.split_once(':')?;
            (key.trim() == name).then(|| value.trim().to_string())
        })
    };
    let cpu =
        field("model name").unwrap_or_else(|| std::env::consts::ARCH.to_string());
    let shared = field("flags")
        .is_some_and(|f| f.split_whitespace().any(|w| w == "hypervisor"));
    let kind = if shared { "a virtual machine" } else { "a machine" };
    format!("{kind} with {cores} cores of {cpu}")
}

/// The Markdown of `table` from its run's numbers.
pub fn render(table: &Table, data: &TableData) -> String {
    let rounds = data.tag.rounds;
    let mut header = vec![
        table.column.to_string(),
        "median".into(),
        format!("lowest–highest of {rounds} runs"),
    ];
    if !table.per_second.is_empty() {
        header.push("throughput".into());
    }
    match table.compare {
        Compare::TimesReference(_) | Compare::Against(_) => {
            header.push("relative (spread)".into())
        }
        Compare::SpeedUpOver(_) => header.push("speed-up (spread)".into()),
        Compare::Nothing => {}
    }
    // The label column reads left to right; every other column is a number, right-aligned.
    let mut out = format!(
        "| {} |\n|---|{}\n",
        header.join(" | "),
        "---:|".repeat(header.len() - 1)
    );
    let medians = |i: usize| data.medians(table.rows[i].id).unwrap_or_default();
    // Each row's reference (checked by `check_compare` before a table is rendered).
    let references = table.references().unwrap_or_default();
    for (i, row) in table.rows.iter().enumerate() {
        let t = Spread::of(medians(i));
        let mut cells =
            vec![row.label.to_string(), duration(t.median), interval(t.low, t.high)];
        if !table.per_second.is_empty() {
            let unit = table.per_second.trim_end_matches("/s");
            cells.push(rate(row.items as f64 / t.median, &format!("{unit}/s")));
        }
        match (table.compare, references.get(i)) {
            (Compare::Nothing, _) | (_, None) => {}
            (_, Some(&r)) if r == i => cells.push("1 (reference)".into()),
            (Compare::SpeedUpOver(_), Some(&r)) => {
                cells.push(ratio_text(&Spread::of_ratios(medians(r), medians(i))))
            }
            (_, Some(&r)) => {
                cells.push(ratio_text(&Spread::of_ratios(medians(i), medians(r))))
            }
        }
        out += &format!("| {} |\n", cells.join(" | "));
    }
    out += &format!(
        "\n*Time for {}: the median over {rounds} independent runs of criterion's median, \
         and the lowest and highest of the runs' medians; a ratio is the median of the \
         runs' ratios, lowest to highest, and is not resolved where that spread comes \
         within {:.0}% of 1. All rows from {}. Reproduce with `{}`, then `cargo run \
         --release -- bench-tables`.*\n",
        table.what,
        NOISE_BAND * 100.0,
        data.tag.describe(),
        run_command(&packages(table))
    );
    out
}

/// The command that records a run of these packages' benchmarks.
pub fn run_command(packages: &[&str]) -> String {
    let flags: Vec<String> =
        packages.iter().map(|p| format!("--package {p}")).collect();
    format!("cargo run --release -- bench-run {}", flags.join(" "))
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

/// Today's date (UTC) as YYYY-MM-DD, from the system clock.
pub fn today() -> String {
    date_of(std::time::SystemTime::now())
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

/// Writes every table (or, with `package`, that package's tables) from the runs
/// recorded under `runs_dir` into `out_dir`, each as Markdown and as its numbers; returns
/// how many. A table no single run holds is an error naming the run to record, and so is
/// a package with no table.
pub fn write_tables(
    tables: &[Table],
    runs_dir: &Path,
    out_dir: &Path,
    package: Option<&str>,
) -> Result<usize, Error> {
    let records = Record::all(runs_dir)?;
    let chosen: Vec<&Table> = tables
        .iter()
        .filter(|t| package.is_none_or(|p| package_name(t) == p))
        .collect();
    if chosen.is_empty() {
        let mut known: Vec<&str> = tables.iter().map(package_name).collect();
        known.sort_unstable();
        known.dedup();
        return Err(Error::Book(format!(
            "no timing table belongs to {}; the packages with tables are {}",
            package.unwrap_or("any package"),
            known.join(", ")
        )));
    }
    let write = |path: PathBuf, text: &str| {
        write_atomically(&path, text).map_err(|source| Error::Write { path, source })
    };
    for table in &chosen {
        table.check_compare().map_err(Error::Book)?;
        let data = TableData::from_records(table, &records)?;
        write(out_dir.join(table.file), &render(table, &data))?;
        let numbers = serde_json::to_string_pretty(&data.to_json())
            .map_err(|e| Error::Book(format!("{}: {e}", table.file)))?;
        write(out_dir.join(data_file(table)), &(numbers + "\n"))?;
    }
    let mut written = chosen.len();
    if package.is_none_or(|p| p == "pbm-bench") {
        let (tag, work) = newest_side(&records, ODE_WORK)?;
        let ode = tables.iter().find(|t| t.file == "production-ode.md").ok_or_else(
            || Error::Book("no production-ode.md timing table is registered".into()),
        )?;
        let timing = TableData::from_records(ode, &records)?;
        if timing.tag.id != tag.id {
            return Err(Error::Book(format!(
                "the ODE work ({}) and its timings ({}) come from different runs: record \
                 them in one `{}`",
                tag.id,
                timing.tag.id,
                run_command(&["pbm-bench"])
            )));
        }
        write(
            out_dir.join("production-ode-work.md"),
            &render_ode_work(
                work.last().unwrap_or(&Value::Null),
                &tag.describe(),
                &timing,
            )?,
        )?;
        written += 1;
    }
    // The measures beside the timings, named as the timing tables name their rows.
    let rows: Vec<(&str, &str)> =
        tables.iter().flat_map(|t| t.rows.iter().map(|r| (r.id, r.label))).collect();
    for side in SIDE_TABLES.iter().filter(|t| package.is_none_or(|p| p == t.package))
    {
        let (tag, rounds) = newest_side(&records, side.side)?;
        write(out_dir.join(side.out), &render_side(side, rounds, tag, &rows)?)?;
        written += 1;
    }
    Ok(written)
}

/// The newest run whose every round left side file `name`, and those rounds' contents.
fn newest_side<'a>(
    records: &'a [Record],
    name: &str,
) -> Result<(&'a RunTag, &'a [Value]), Error> {
    records
        .iter()
        .rev()
        .find_map(|r| {
            let rounds = r.side.get(name)?;
            (rounds.len() == r.tag.rounds && rounds.len() >= MIN_ROUNDS)
                .then_some((&r.tag, rounds.as_slice()))
        })
        .ok_or_else(|| {
            Error::Book(format!(
                "no recorded run has {name} from {MIN_ROUNDS} or more rounds; run `{}`",
                run_command(&["pbm-bench"])
            ))
        })
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
        compare: Compare::Against(&["a/faer"]),
    };

    fn tag(id: &str, rounds: usize) -> RunTag {
        RunTag {
            id: id.into(),
            commit: "abc1234".into(),
            machine: "a test machine".into(),
            date: "2026-12-06".into(),
            rounds,
            settings: String::new(),
        }
    }

    fn record(id: &str, medians: &[(&str, &[f64])]) -> Record {
        let rounds = medians.iter().map(|(_, m)| m.len()).max().unwrap_or(0);
        Record {
            tag: tag(id, rounds),
            medians: medians
                .iter()
                .map(|(k, m)| (k.to_string(), m.to_vec()))
                .collect(),
            side: BTreeMap::new(),
        }
    }

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
        // Two ends that read alike are one number, never "2.50–2.50".
        assert_eq!(interval(2.501e-3, 2.503e-3), "2.50 ms");
    }

    #[test]
    fn a_table_is_the_median_of_three_runs_with_their_spread() {
        let data = TableData::from_records(
            &TABLE,
            &[record(
                "r1",
                &[
                    ("a/faer", &[1.2e-4, 1.22e-4, 1.25e-4]),
                    ("a/cg", &[1.5e-2, 1.55e-2, 1.6e-2]),
                    ("a/dense", &[1.3e-4, 1.2e-4, 1.25e-4]),
                ],
            )],
        )
        .unwrap();
        let text = render(&TABLE, &data);
        assert!(
            text.contains(
                "| our CG, unformed, Jacobi-preconditioned | 15.5 ms | 15.0–16.0 ms |"
            ),
            "{text}"
        );
        // Each run's ratio, then their median and extremes: 125, 127, 128.
        assert!(text.contains("| 127× (125–128×) |"), "{text}");
        // A ratio whose runs reach within 20% of 1 is not resolved: 1.08, 0.984, 1.0.
        assert!(
            text.contains(
                "| dense | 125 µs | 120–130 µs | not resolved (0.984–1.08×) |"
            ),
            "{text}"
        );
        assert!(text.contains("| 1 (reference) |"), "{text}");
        assert!(
            text.contains(
                "run r1 (commit abc1234, 2026-12-06, a test machine, 3 rounds)"
            ),
            "{text}"
        );
        assert!(
            text.contains("`cargo run --release -- bench-run --package pbm-bench`"),
            "{text}"
        );
        let back = committed_median(&text, "our CG, unformed, Jacobi-preconditioned");
        assert_eq!(back, Some(15.5e-3));
    }

    #[test]
    fn a_table_is_never_built_from_two_runs_or_from_fewer_than_three_rounds() {
        let older = record(
            "r1",
            &[
                ("a/faer", &[1.0, 1.0, 1.0]),
                ("a/cg", &[2.0, 2.0, 2.0]),
                ("a/dense", &[3.0, 3.0, 3.0]),
            ],
        );
        // The newer run timed two of the rows only: the table comes whole from the older.
        let newer =
            record("r2", &[("a/faer", &[5.0, 5.0, 5.0]), ("a/cg", &[6.0, 6.0, 6.0])]);
        let data =
            TableData::from_records(&TABLE, &[older.clone(), newer.clone()]).unwrap();
        assert_eq!(data.tag.id, "r1");
        assert_eq!(data.medians("a/faer"), Some(&[1.0, 1.0, 1.0][..]));
        // Without the older run, no run has them all.
        let e = TableData::from_records(&TABLE, &[newer]).unwrap_err().to_string();
        assert!(
            e.contains("the newest lacks a/dense")
                && e.contains("never built from two runs"),
            "{e}"
        );
        // Two rounds are not enough.
        let two = record(
            "r3",
            &[
                ("a/faer", &[1.0, 1.0]),
                ("a/cg", &[2.0, 2.0]),
                ("a/dense", &[3.0, 3.0]),
            ],
        );
        assert!(TableData::from_records(&TABLE, &[two]).is_err());
        // A row some rounds missed is incomplete.
        let mut gap = older;
        gap.tag.rounds = 4;
        assert!(TableData::from_records(&TABLE, &[gap]).is_err());
    }

    #[test]
    fn a_round_takes_only_the_estimates_written_during_it() {
        let dir = tempfile::tempdir().unwrap();
        let write = |id: &str, ns: f64| {
            let path = dir.path().join(id).join("new/estimates.json");
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            let estimates = json!({ "median": { "point_estimate": ns,
                "confidence_interval": { "lower_bound": ns, "upper_bound": ns } } });
            fs::write(&path, estimates.to_string()).unwrap();
            path
        };
        let stale = write("g/old", 5.0);
        let long_ago =
            SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000_000);
        fs::File::options()
            .write(true)
            .open(&stale)
            .unwrap()
            .set_modified(long_ago)
            .unwrap();
        let since = SystemTime::now() - std::time::Duration::from_secs(1);
        write("g/f/100", 2048.0);
        fs::write(dir.path().join(STACK_SINK.side), r#"{"s/40": 0.01}"#).unwrap();
        let mut run = Record::start("abc1234", "");
        for round in 0..MIN_ROUNDS {
            assert_eq!(run.add_round(round, dir.path(), since).unwrap(), 1);
        }
        assert_eq!(run.complete("g/f/100"), Some(&[2048e-9; 3][..]));
        assert_eq!(run.complete("g/old"), None);
        assert_eq!(run.side[STACK_SINK.side].len(), MIN_ROUNDS);
        // Saved and read back, it is the same record.
        let runs = dir.path().join("runs");
        run.save(&runs).unwrap();
        assert_eq!(Record::all(&runs).unwrap(), [run.clone()]);
        let rows = [("s/10", "ten boxes"), ("s/40", "forty boxes")];
        let side = &run.side[STACK_SINK.side];
        let sink = render_side(&STACK_SINK, side, &run.tag, &rows).unwrap();
        assert!(sink.contains("| forty boxes | 1.00 cm |"), "{sink}");
        assert!(!sink.contains("ten boxes"), "{sink}");
        assert!(render_side(&STACK_SINK, side, &run.tag, &rows[..1]).is_err());
        assert!(run.tag.id.ends_with("Z-abc1234"), "{}", run.tag.id);
    }

    #[test]
    fn a_ratio_is_resolved_only_outside_the_noise_band() {
        assert!(Spread::of(&[1.25, 1.3, 1.4]).resolved());
        assert!(Spread::of(&[0.5, 0.7, 0.75]).resolved());
        assert!(!Spread::of(&[1.1, 1.3, 1.4]).resolved());
        assert!(!Spread::of(&[0.9, 1.0, 1.02]).resolved());
        assert_eq!(ratio_text(&Spread::of(&[2.501, 2.502, 2.503])), "2.50× (2.50×)");
        assert_eq!(Spread::of(&[4.0, 1.0, 2.0, 3.0]).median, 2.5);
    }

    #[test]
    fn the_ode_work_table_reads_the_benchmark_file() {
        let work = serde_json::json!([{
            "eccentricity": 0.5, "target_error": 1e-8,
            "ours": { "tolerance": 1e-9, "error": 8.1e-9, "evaluations": 1234 },
            "ode_solvers": { "tolerance": 3.16e-9, "error": 7.5e-9, "evaluations": 1000 },
        }]);
        let rows = [
            ("production-ode/dopri5-ode-solvers-e5", vec![1.0, 1.0, 1.0]),
            ("production-ode/dopri5-ours-e5", vec![2.468, 2.468, 2.468]),
            ("production-ode/dopri5-ours-fixed-e5", vec![0.617, 0.6, 0.63]),
        ];
        let timing = TableData {
            tag: tag("20260101T0000Z-abc", 3),
            rows: rows.iter().map(|(k, v)| (k.to_string(), v.clone())).collect(),
        };
        let text = render_ode_work(&work, "a test run", &timing).unwrap();
        // 2.468 times the time for 1.234 times the evaluations: twice the time each.
        assert!(text.contains("| e = 0.5 | chapter 1's Dormand–Prince | 1.00 × 10⁻⁹ | 8.10 × 10⁻⁹ | 1,234 | 1.23× | 2.00× (2.00×) |"), "{text}");
        // 0.6 to 0.63 of the time for 1.234 times the evaluations: about half each.
        assert!(text.contains("| 1,234 | 1.23× | 0.500× (0.486–0.511×) |"), "{text}");
        assert!(text.contains("under 1.00 × 10⁻⁸"), "{text}");
        assert!(text.contains("|---|---|---:|---:|---:|---:|---:|"), "{text}");
        assert_eq!(scientific(5.62e-11), "5.62 × 10⁻¹¹");
        assert_eq!(scientific(1.5e3), "1.50 × 10³");
        assert!(render_ode_work(&serde_json::json!({}), "m", &timing).is_err());
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn the_date_is_a_calendar_date() {
        let d = today();
        assert_eq!(d.len(), 10, "{d}");
        let year: i32 = d[..4].parse().unwrap_or(0);
        assert!(year >= 2025, "{d}");
        assert_eq!(
            date_of(
                SystemTime::UNIX_EPOCH
                    + std::time::Duration::from_secs(1_000_000_000)
            ),
            "2001-09-09"
        );
    }
}
