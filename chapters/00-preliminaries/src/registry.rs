//! How a chapter describes itself to the `pbm` binary and the book: everything its
//! pages show is registered in its [`Chapter`] — the exercises a reader runs, the
//! figures, the runs whose output or numbers a page quotes ([`Shown`]), the timing
//! tables ([`TimingTable`]) and the live demos with the numbers they share with the
//! exercises. The root and the book crate hold only the pipelines that turn these into
//! pages.

use crate::demo::Demos;
use crate::error::PbmError;
use crate::params::{ParamKind, ParamSet, ParamSpec, Params, next_up};
use serde_json::Value;
use std::sync::Arc;

/// How an exercise runs: from the validated parameters to one JSON object.
pub type Runner = Arc<dyn Fn(&Params) -> Result<Value, PbmError> + Send + Sync>;

/// How a [`Limit`] counts a run's work from the validated parameters.
pub type Estimate = Arc<dyn Fn(&Params) -> Result<f64, PbmError> + Send + Sync>;

// ANCHOR: exercise
/// A named, parameterised experiment, run with `pbm run CHAPTER/EXERCISE --set
/// key=value`.
#[derive(Clone)]
pub struct Exercise {
    /// The id after the slash, e.g. `stability` in `ode/stability`.
    pub id: &'static str,
    /// One line saying what the exercise shows.
    pub summary: &'static str,
    /// Declared parameters with the defaults the book discusses.
    pub params: Vec<ParamSpec>,
    /// Runs the experiment. The result is one JSON object of finite numbers.
    pub run: Runner,
    /// Result fields that may be `null`, each with when it is (`pbm list` shows
    /// them). A `null` anywhere else is a number that was not finite, and the run
    /// fails naming it.
    pub optional: &'static [Optional],
    /// Joint limits: work that grows with several parameters together, declared
    /// with them and checked before the run (`pbm list` prints them).
    pub limits: Vec<Limit>,
    /// Whether the runs its pages show take seconds in an unoptimised test build:
    /// plain `cargo test` leaves them out, CI runs them in release.
    pub heavy: bool,
    /// Parameters whose ranges reach past what the joint limits admit with the others
    /// at their defaults, on purpose: a page runs the far end with another parameter
    /// changed (a 32 × 32 cloth for half a second). `pbm list` says how far each goes
    /// at the defaults ([`Exercise::reach`]); every other range runs nearly whole.
    pub joint: &'static [&'static str],
    /// Bounds on the run's measures of its own accuracy that every finished run
    /// meets (a pin within a centimetre): checked before a result is printed.
    pub promises: &'static [Promise],
}
// ANCHOR_END: exercise

// ANCHOR: promise
/// What an exercise's page calls right about a measure of its own accuracy, which
/// every run that finishes must meet, whatever the parameters: a run that breaks it
/// is an error ([`PbmError::Broken`]), and the fuzz test draws runs across the ranges
/// to find one. `pbm list` prints it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Promise {
    /// The measure, a JSON pointer into the result (`/max_pin_error_m`).
    pub field: &'static str,
    /// For a relative bound, a second field and the least value it counts as: the
    /// measure is divided by the larger (`("/energy_taken_by_catch_j", 0.1)`: 1 %
    /// of what the catch took, or of 0.1 J when it took less). `None` if absolute.
    pub over: Option<(&'static str, f64)>,
    /// The largest magnitude the page calls right.
    pub max: f64,
    /// The promise in the page's words.
    pub says: &'static str,
}
// ANCHOR_END: promise

impl Promise {
    /// Ok if `result` keeps the promise. A measure the result leaves `null` (an
    /// optional field) promises nothing; one it lacks is the exercise's bug.
    pub fn check(&self, result: &Value) -> Result<(), PbmError> {
        let number = |pointer: &str| -> Result<Option<f64>, PbmError> {
            match result.pointer(pointer) {
                Some(Value::Null) => Ok(None),
                Some(v) => v.as_f64().map(Some).ok_or_else(|| {
                    PbmError::invalid(
                        "promise",
                        format!("`{pointer}` is not a number"),
                    )
                }),
                None => Err(PbmError::invalid(
                    "promise",
                    format!("the result has no `{pointer}`"),
                )),
            }
        };
        let Some(value) = number(self.field)? else { return Ok(()) };
        let (value, measure) = match self.over {
            None => (value.abs(), self.field.trim_start_matches('/').to_string()),
            Some((over, least)) => {
                let Some(scale) = number(over)? else { return Ok(()) };
                let name = |p: &str| p.trim_start_matches('/').to_string();
                let measure = format!(
                    "{} / max({}, {})",
                    name(self.field),
                    name(over),
                    crate::short(least)
                );
                ((value / scale.abs().max(least)).abs(), measure)
            }
        };
        // A NaN breaks the promise too.
        if value <= self.max {
            Ok(())
        } else {
            Err(PbmError::Broken { measure, value, bound: self.max, says: self.says })
        }
    }

    /// The promise as `pbm list` prints it: `|max_pin_error_m| ≤ 0.01: the pin holds`.
    pub fn words(&self) -> String {
        let name = |p: &str| p.trim_start_matches('/').to_string();
        let measure = match self.over {
            None => format!("|{}|", name(self.field)),
            Some((over, least)) => format!(
                "|{}| / max({}, {})",
                name(self.field),
                name(over),
                crate::short(least)
            ),
        };
        format!("{measure} ≤ {}: {}", crate::short(self.max), self.says)
    }
}

// ANCHOR: limit
/// A joint limit on an exercise's parameters: the work a run does grows with
/// several of them together (boxes × sweeps × steps, particles² × steps), so no
/// range of one parameter alone keeps the run within a few seconds. The limit is
/// declared with the parameters, in words and as the estimate itself, so that
/// `pbm list` can say it, a run over it is refused before it starts, and the fuzz
/// test can draw inside it.
#[derive(Clone)]
pub struct Limit {
    /// The work in the parameters' names, e.g. "boxes × sweeps × steps" (steps as
    /// [`crate::budget::STEPS_MEANS`] says).
    pub work: &'static str,
    /// What it counts, e.g. "box-sweep-steps".
    pub unit: &'static str,
    /// The most a run may need, measured so that a run at it finishes in a few
    /// seconds.
    pub max: f64,
    /// What the reader should change when a run needs more.
    pub change: &'static str,
    estimate: Estimate,
}

impl Limit {
    /// The work a run with `params` needs, in [`Limit::unit`]s.
    pub fn estimate(&self, params: &Params) -> Result<f64, PbmError> {
        (self.estimate)(params)
    }

    /// Ok if a run with `params` is within the limit; otherwise the refusal.
    pub fn check(&self, params: &Params) -> Result<(), PbmError> {
        crate::budget::within(
            self.estimate(params)?,
            self.max,
            self.unit,
            self.change,
        )
    }
}
// ANCHOR_END: limit

/// `x` to three significant digits, rounded up (`up`) or down.
fn inward(x: f64, up: bool) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let scale = 10f64.powi(2 - x.abs().log10().floor() as i32);
    let scaled = x * scale;
    (if up { scaled.ceil() } else { scaled.floor() }) / scale
}

/// A result field that is sometimes absent (`null`): its name and when.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Optional {
    /// The top-level key.
    pub field: &'static str,
    /// When it is `null`, e.g. "if |x| never overflowed".
    pub null_when: &'static str,
}

impl std::fmt::Debug for Exercise {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Exercise")
            .field("id", &self.id)
            .field("params", &self.params)
            .field("optional", &self.optional)
            .finish()
    }
}

impl Exercise {
    /// The exercise `id` that runs `run` on its parameters `P`, read once into the
    /// struct ([`crate::params!`] declares it beside the function).
    pub fn new<P: ParamSet + 'static>(
        id: &'static str,
        summary: &'static str,
        run: fn(P) -> Result<Value, PbmError>,
    ) -> Exercise {
        Exercise {
            id,
            summary,
            params: P::specs(),
            run: Arc::new(move |params| run(P::read(params)?)),
            optional: &[],
            limits: Vec::new(),
            heavy: false,
            joint: &[],
            promises: &[],
        }
    }

    /// The same exercise with [`Promise`]s on its measures of accuracy.
    pub fn promises(self, promises: &'static [Promise]) -> Exercise {
        Exercise { promises, ..self }
    }

    /// The same exercise with parameters whose ranges reach past the defaults' joint
    /// limits ([`Exercise::joint`]).
    pub fn joint(self, joint: &'static [&'static str]) -> Exercise {
        Exercise { joint, ..self }
    }

    /// The same exercise, marked [`Exercise::heavy`].
    pub fn heavy(self) -> Exercise {
        Exercise { heavy: true, ..self }
    }

    /// The same exercise with result fields that may be `null`.
    pub fn optional(self, optional: &'static [Optional]) -> Exercise {
        Exercise { optional, ..self }
    }

    /// The same exercise with a joint [`Limit`]: at most `max` `unit`s of `work`
    /// (in words), as `estimate` counts them from the parameters `P`.
    pub fn limit<P: ParamSet + 'static>(
        mut self,
        (work, unit): (&'static str, &'static str),
        (max, change): (f64, &'static str),
        estimate: fn(&P) -> f64,
    ) -> Exercise {
        let estimate =
            Arc::new(move |params: &Params| Ok(estimate(&P::read(params)?)));
        self.limits.push(Limit { work, unit, max, change, estimate });
        self
    }
}

impl Exercise {
    /// The values of the numeric parameter `spec` the joint limits admit with every
    /// other parameter at its default, as the interval around its default
    /// (`None` for a flag or a choice, or when the limits refuse the default itself).
    /// The ends are found by bisection, so they are exact to the last whole number or
    /// float, and admitted: a limit's work grows or falls steadily with each parameter.
    pub fn reach(&self, spec: &ParamSpec) -> Option<(f64, f64)> {
        self.reach_from::<&str>(&[], spec)
    }

    /// [`Exercise::reach`] with the other parameters set as in `others` (`key=value`
    /// strings; an assignment to `spec` itself is ignored): the fuzz test draws runs
    /// at the joint limits' edges with it. The end toward which a value starts being
    /// refused is the last admitted value, exact to the float.
    pub fn reach_from<S: AsRef<str>>(
        &self,
        others: &[S],
        spec: &ParamSpec,
    ) -> Option<(f64, f64)> {
        let prefix = format!("{}=", spec.name);
        let mut set: Vec<String> = others
            .iter()
            .map(|a| a.as_ref().to_string())
            .filter(|a| !a.starts_with(&prefix))
            .collect();
        set.push(String::new());
        let admits = |x: f64| {
            let mut set = set.clone();
            if let Some(last) = set.last_mut() {
                *last = format!("{prefix}{}", spec.text_of(x));
            }
            self.admit("reach", &set).is_ok()
        };
        // Start from the value in `others`, or the default.
        let given = others.iter().find_map(|a| {
            a.as_ref().strip_prefix(&prefix).and_then(|v| spec.parse(v).ok())
        });
        let (default, min, max, whole) = match spec.kind {
            ParamKind::Float { default, min, max, min_exclusive } => {
                let low = if min_exclusive { next_up(min) } else { min };
                let start = match given {
                    Some(crate::params::ParamValue::Float(x)) => x,
                    _ => default,
                };
                (start, low, max, false)
            }
            ParamKind::Int { default, min, max } => {
                let start = match given {
                    Some(crate::params::ParamValue::Int(n)) => n,
                    _ => default,
                };
                (start as f64, min as f64, max as f64, true)
            }
            _ => return None,
        };
        if !admits(default) {
            return None;
        }
        // The last admitted value from `inside` towards `end`.
        let edge = |inside: f64, end: f64| -> f64 {
            if admits(end) {
                return end;
            }
            let (mut good, mut bad) = (inside, end);
            // Halving ends at neighbouring values (whole numbers, or floats) within
            // about 1,100 rounds even from a range's subnormal end.
            for _ in 0..2000 {
                let mid = if whole {
                    ((good + bad) / 2.0).trunc()
                } else {
                    good + (bad - good) / 2.0
                };
                if mid == good || mid == bad {
                    break;
                }
                if admits(mid) { good = mid } else { bad = mid }
            }
            good
        };
        Some((edge(default, min), edge(default, max)))
    }

    /// [`Exercise::reach`] in words for `pbm list`, for each parameter of
    /// [`Exercise::joint`]: `n in 2..=93`, `h in [0.0267, 0.1]`. A float's ends are
    /// rounded inward to three digits, so that both printed values run.
    pub fn reach_lines(&self) -> Vec<String> {
        self.params
            .iter()
            .filter(|p| self.joint.contains(&p.name))
            .filter_map(|p| {
                let (lo, hi) = self.reach(p)?;
                let range = match p.kind {
                    ParamKind::Int { .. } => format!("{lo}..={hi}"),
                    ParamKind::Float { min, max, .. } => {
                        let lo = if lo == min { lo } else { inward(lo, true) };
                        let hi = if hi == max { hi } else { inward(hi, false) };
                        format!("[{}, {}]", crate::short(lo), crate::short(hi))
                    }
                    _ => return None,
                };
                Some(format!(
                    "with the others at their defaults, the limits below admit {} in {range}",
                    p.name
                ))
            })
            .collect()
    }

    /// The share of `spec`'s range the joint limits admit with the others at their
    /// defaults, over 1,001 evenly spaced values (every value of a shorter
    /// whole-number range): what a reader who moves only this parameter can run.
    pub fn share_admitted(&self, spec: &ParamSpec) -> f64 {
        let values = crate::params::even_values(spec, 1000);
        let admitted = values
            .iter()
            .filter(|v| self.admit("reach", &[format!("{}={v}", spec.name)]).is_ok())
            .count();
        admitted as f64 / values.len().max(1) as f64
    }

    /// Validates `assignments` (`key=value` strings) against the declared parameters
    /// and runs. `chapter` is used only in error messages.
    pub fn run_with<S: AsRef<str>>(
        &self,
        chapter: &str,
        assignments: &[S],
    ) -> Result<Value, PbmError> {
        let params = self.admit(chapter, assignments)?;
        self.run_params(&params)
            .map_err(|source| self.in_run(chapter, &params, source))
    }

    /// The parameters of a run with these assignments, if the program would start it:
    /// every value parses and lies in its range, and the run is inside every joint
    /// limit. The error is the refusal `pbm run` prints. Nothing is run.
    pub fn admit<S: AsRef<str>>(
        &self,
        chapter: &str,
        assignments: &[S],
    ) -> Result<Params, PbmError> {
        let name = format!("{chapter}/{}", self.id);
        let params = Params::resolve(&name, &self.params, assignments)?;
        for limit in &self.limits {
            limit.check(&params).map_err(|e| self.in_run(chapter, &params, e))?;
        }
        Ok(params)
    }

    /// An error of the run with `params`, naming what the reader set.
    fn in_run(&self, chapter: &str, params: &Params, source: PbmError) -> PbmError {
        let set = params.set_by_reader();
        if set.is_empty() {
            source
        } else {
            let exercise = format!("{chapter}/{}", self.id);
            PbmError::InRun { exercise, set, source: Box::new(source) }
        }
    }

    /// Runs with every parameter at its default.
    pub fn run_default(&self) -> Result<Value, PbmError> {
        self.run_params(&Params::defaults(&self.params))
    }

    fn run_params(&self, params: &Params) -> Result<Value, PbmError> {
        for limit in &self.limits {
            limit.check(params)?;
        }
        let value = (self.run)(params)?;
        self.check_finite(&value)?;
        for promise in self.promises {
            promise.check(&value)?;
        }
        Ok(value)
    }

    /// Ok if `value` has `null` only at the declared optional fields. `json!` writes
    /// an infinite or NaN number as `null`, so any other `null` is one of those.
    pub fn check_finite(&self, value: &Value) -> Result<(), PbmError> {
        fn find_null(value: &Value, path: &str) -> Option<String> {
            match value {
                Value::Null => Some(path.to_string()),
                Value::Array(items) => items
                    .iter()
                    .enumerate()
                    .find_map(|(i, v)| find_null(v, &format!("{path}/{i}"))),
                Value::Object(map) => {
                    map.iter().find_map(|(k, v)| find_null(v, &format!("{path}/{k}")))
                }
                _ => None,
            }
        }
        let Value::Object(map) = value else {
            return Err(PbmError::NotFinite { field: "(the whole result)".into() });
        };
        for (key, field) in map {
            let optional = self.optional.iter().any(|o| o.field == key);
            if optional && field.is_null() {
                continue;
            }
            if let Some(path) = find_null(field, key) {
                return Err(PbmError::NotFinite { field: path });
            }
        }
        Ok(())
    }
}

// ANCHOR: figure
/// A figure of the book: a function that computes its data with the chapter's code
/// and draws it in both layouts (see [`crate::plot::Layout`]). The pipeline writes
/// the drawings to `book/src/figures/<chapter>/<name>.svg` and `<name>.narrow.svg`.
#[derive(Debug, Clone)]
pub struct Figure {
    /// File stem, e.g. `euler-spiral`.
    pub name: &'static str,
    /// What the figure shows, one line.
    pub title: &'static str,
    /// Draws the figure, wide and narrow.
    pub draw: fn() -> Result<Vec<crate::plot::Drawing>, PbmError>,
    /// Whether drawing it runs a simulation of several seconds in a test build:
    /// plain `cargo test` leaves it out, CI draws it in release.
    pub heavy: bool,
}
// ANCHOR_END: figure

// ANCHOR: shown
/// A run of an exercise whose result a page shows: as a console block (the file
/// `book/src/output/<name>.txt` the page includes) or as numbers in sentences (the
/// value directive reads `book/src/output/<name>.json`). `pbm book` writes both; a
/// test fails when either no longer matches what the code prints.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shown {
    /// `chapter/exercise`, e.g. `ode/stability`.
    pub id: &'static str,
    /// The `--set` assignments, as typed.
    pub set: &'static [&'static str],
    /// The top-level result keys the console block shows, in the result's order
    /// (empty: all of them but [`Shown::hidden`]). The JSON file keeps every key.
    pub keys: &'static [&'static str],
    /// Top-level result keys the console block leaves out (what the prose quotes,
    /// or an old name kept for readers' scripts). The JSON file keeps them.
    pub hidden: &'static [&'static str],
    /// Keys whose values are wall-clock timings: written as measured when the book
    /// is built, left out when a test compares the page with the code.
    pub timed: &'static [&'static str],
    /// Whether a page shows it as a console block (its `.txt`); otherwise only its
    /// numbers are quoted, and only the `.json` is written.
    pub console: bool,
    /// Whether the page shows this run failing: ending in an error (a refused step),
    /// or reporting a failure in its result (`"failure"` set, `"stable": false`). The
    /// book refuses any other run that fails, so that no figure, console block or
    /// quoted number comes from a run that diverged without the page saying so.
    pub failing: bool,
}
// ANCHOR_END: shown

impl Shown {
    /// The run of `id` with its defaults, shown as a console block with every key.
    pub const fn run(id: &'static str) -> Shown {
        Shown {
            id,
            set: &[],
            keys: &[],
            hidden: &[],
            timed: &[],
            console: true,
            failing: false,
        }
    }

    /// The run of `id` with its defaults, whose numbers sentences quote (no console
    /// block).
    pub const fn values(id: &'static str) -> Shown {
        Shown { console: false, ..Shown::run(id) }
    }

    /// The same run, which the page shows failing ([`Shown::failing`]).
    pub const fn failing(self) -> Shown {
        Shown { failing: true, ..self }
    }

    /// The same run with these `--set` assignments.
    pub const fn set(self, set: &'static [&'static str]) -> Shown {
        Shown { set, ..self }
    }

    /// The same run showing only these keys in its console block.
    pub const fn keys(self, keys: &'static [&'static str]) -> Shown {
        Shown { keys, ..self }
    }

    /// The same run showing every key but these in its console block.
    pub const fn except(self, hidden: &'static [&'static str]) -> Shown {
        Shown { hidden, ..self }
    }

    /// The same run with these keys marked as wall-clock timings.
    pub const fn timed(self, timed: &'static [&'static str]) -> Shown {
        Shown { timed, ..self }
    }

    /// The stem of the files it writes, e.g. `ode-stability--h=0.25`.
    pub fn stem(&self) -> String {
        let mut name = self.id.replace('/', "-");
        for assignment in self.set {
            name += "--";
            name += assignment;
        }
        name
    }
}

/// One row of a timing table: what was timed, and criterion's id for it.
#[derive(Debug, Clone, Copy)]
pub struct TimingRow {
    /// What the row says, in the book's words.
    pub label: &'static str,
    /// Criterion's id, as its directory under `target/criterion` (`group/function`).
    pub id: &'static str,
    /// Items per iteration, for a throughput column (0: none).
    pub items: u64,
}

/// A row with no throughput column.
pub const fn row(label: &'static str, id: &'static str) -> TimingRow {
    TimingRow { label, id, items: 0 }
}

/// How the last column of a timing table compares rows, each row named by its
/// criterion id ([`TimingRow::id`], as `{{#timing a over=b}}` names it).
#[derive(Debug, Clone, Copy)]
pub enum Compare {
    /// Each row's time over the reference row's time: "127×" slower.
    TimesReference(&'static str),
    /// The reference row's time over each row's: a speed-up, "2.1× faster".
    SpeedUpOver(&'static str),
    /// Each row's time over the time of the nearest of these rows at or above it
    /// (a reference itself: 1×), with the spread of the ratio over the recorded
    /// run's rounds. The first row must be one of them.
    Against(&'static [&'static str]),
    /// No comparison column.
    Nothing,
}

/// Where a benchmark leaves a file beside criterion's estimates (what it measured
/// besides time: work, error, sink), for `bench-tables` to read: the workspace's
/// `target/criterion/`, or `$CARGO_TARGET_DIR/criterion/`.
pub fn criterion_file(name: &str) -> std::path::PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target"),
        std::path::PathBuf::from,
    );
    target.join("criterion").join(name)
}

/// A timing table a page includes from `book/src/benchmarks/<file>`, written by
/// `pbm bench-tables` from criterion's results.
#[derive(Debug, Clone, Copy)]
pub struct TimingTable {
    /// File name under `book/src/benchmarks/`.
    pub file: &'static str,
    /// The crate whose `cargo bench` produces the rows; several, separated by spaces,
    /// when rows come from more than one (the first is the table's home), and then
    /// `pbm bench-run` records them together in one run.
    pub package: &'static str,
    /// Heading of the first column, short ("chain", "solver").
    pub column: &'static str,
    /// What one iteration does, for the note under the table.
    pub what: &'static str,
    /// Heading of the throughput column, if rows have items ("bodies/s").
    pub per_second: &'static str,
    /// The rows, in the order the page shows them.
    pub rows: &'static [TimingRow],
    /// The comparison column.
    pub compare: Compare,
}

impl TimingTable {
    /// The place of the row whose criterion id is `id`; an error names the table and
    /// the id.
    fn row_named(&self, id: &str) -> Result<usize, String> {
        self.rows.iter().position(|r| r.id == id).ok_or_else(|| {
            format!(
                "{}: `{id}` is compared against, but no row has that id",
                self.file
            )
        })
    }

    /// For each row, the place of the row it is compared against (its own for a
    /// reference); empty for [`Compare::Nothing`]. Fails, naming the table, if the
    /// comparison names a row it does not have, or leaves a row with no reference.
    pub fn references(&self) -> Result<Vec<usize>, String> {
        match self.compare {
            Compare::TimesReference(id) | Compare::SpeedUpOver(id) => {
                Ok(vec![self.row_named(id)?; self.rows.len()])
            }
            Compare::Against(ids) => {
                let heads = ids
                    .iter()
                    .map(|id| self.row_named(id))
                    .collect::<Result<Vec<_>, _>>()?;
                let mut current = None;
                let mut references = Vec::with_capacity(self.rows.len());
                for (i, row) in self.rows.iter().enumerate() {
                    if heads.contains(&i) {
                        current = Some(i);
                    }
                    references.push(current.ok_or_else(|| {
                        format!(
                            "{}: row `{}` has no reference above it",
                            self.file, row.id
                        )
                    })?);
                }
                Ok(references)
            }
            Compare::Nothing => Ok(Vec::new()),
        }
    }

    /// Fails, naming the table, where [`TimingTable::references`] does.
    pub fn check_compare(&self) -> Result<(), String> {
        self.references().map(|_| ())
    }
}

// ANCHOR: chapter
/// One chapter of the book and its crate: everything its pages show.
#[derive(Debug, Clone)]
pub struct Chapter {
    /// Short id used on the command line and as the figure folder, e.g. `ode`.
    pub id: &'static str,
    /// Chapter number in the book.
    pub number: u32,
    /// Title as in the book.
    pub title: &'static str,
    /// Folder of the chapter's pages under `book/src`, e.g. `01-ode`.
    pub pages: &'static str,
    /// The chapter's exercises, in reading order.
    pub exercises: Vec<Exercise>,
    /// The chapter's figures, in reading order.
    pub figures: Vec<Figure>,
    /// The runs whose output or numbers the pages show.
    pub shown: Vec<Shown>,
    /// The timing tables the pages include.
    pub tables: &'static [TimingTable],
    /// The live demos and the numbers they share with the exercises (the crate's
    /// `demos` module).
    pub demos: Demos,
    /// The methods a reader implements and the book checks (the crate's `practice`
    /// module).
    pub practice: &'static [crate::practice::Task],
}
// ANCHOR_END: chapter

impl Figure {
    /// The figure `name` ("what it shows", one line), drawn by `draw`.
    pub fn new(
        name: &'static str,
        title: &'static str,
        draw: fn() -> Result<Vec<crate::plot::Drawing>, PbmError>,
    ) -> Figure {
        Figure { name, title, draw, heavy: false }
    }

    /// The same figure, marked [`Figure::heavy`].
    pub fn heavy(self) -> Figure {
        Figure { heavy: true, ..self }
    }
}

impl Chapter {
    /// The exercise with this id, if any.
    pub fn exercise(&self, id: &str) -> Option<&Exercise> {
        self.exercises.iter().find(|e| e.id == id)
    }

    /// The figure with this name, if any.
    pub fn figure(&self, name: &str) -> Option<&Figure> {
        self.figures.iter().find(|f| f.name == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    crate::params! {
        /// A test's parameters.
        struct Rate {
            k: f64 = positive("rate", "", 1.0, 1e6),
        }
    }

    fn exercise(run: fn(Rate) -> Result<Value, PbmError>) -> Exercise {
        Exercise::new("x", "a test", run)
            .optional(&[Optional { field: "maybe", null_when: "if never" }])
    }

    #[test]
    fn a_non_finite_result_is_an_error_naming_the_field_and_the_readers_values() {
        let e = exercise(|p| Ok(json!({"inverse": 1.0 / (p.k - 1.0)})));
        let err = e.run_with("test", &["k=1"]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the result `inverse` is not a finite number (test/x with k=1)"
        );
        assert!(e.run_with("test", &["k=2"]).is_ok());
        let nested = exercise(|_| Ok(json!({"xs": [1.0, f64::NAN]})));
        let err = nested.run_default().unwrap_err().to_string();
        assert_eq!(err, "the result `xs/1` is not a finite number");
    }

    #[test]
    fn a_run_that_breaks_its_promise_is_an_error_with_the_measure_and_the_bound() {
        let promised = |run: fn(Rate) -> Result<Value, PbmError>| {
            exercise(run).promises(&[
                Promise {
                    field: "/error_m",
                    over: None,
                    max: 0.01,
                    says: "it holds",
                },
                Promise {
                    field: "/drift_j",
                    over: Some(("/caught_j", 0.1)),
                    max: 0.01,
                    says: "energy kept",
                },
            ])
        };
        let e = promised(|p| {
            Ok(
                json!({"error_m": 0.001 * p.k, "drift_j": 0.005 * p.k, "caught_j": 10.0}),
            )
        });
        assert!(e.run_with("test", &["k=10"]).is_ok());
        let err = e.run_with("test", &["k=11"]).unwrap_err();
        assert_eq!(err.fault(), crate::Fault::Computation);
        assert_eq!(
            err.to_string(),
            "the run finished, but its error_m came to 0.011, more than the 0.01 it \
             promises: it holds (test/x with k=11)"
        );
        // Relative to the larger of the field and its floor: 0.005 / max(0.01, 0.1).
        let small = promised(|_| {
            Ok(json!({"error_m": 0.0, "drift_j": 0.0005, "caught_j": 0.01}))
        });
        assert!(small.run_default().is_ok());
        let over = promised(|_| {
            Ok(json!({"error_m": 0.0, "drift_j": 0.2, "caught_j": 10.0}))
        });
        let said = over.run_default().unwrap_err().to_string();
        assert!(said.contains("drift_j / max(caught_j, 0.1) came to 0.02"), "{said}");
        // A measure left null promises nothing; a missing one is the exercise's bug.
        assert!(e.promises[0].check(&json!({"error_m": null})).is_ok());
        // (A NaN never gets here: JSON writes it as null, and the finiteness check
        // before the promises refuses a null that is not declared optional.)
        assert!(
            Promise { field: "/gone", over: None, max: 1.0, says: "" }
                .check(&json!({}))
                .is_err()
        );
        assert!(e.promises[0].words().starts_with("|error_m| ≤ 0.01: it holds"));
    }

    #[test]
    fn declared_optional_fields_may_be_null() {
        let e = exercise(|p| Ok(json!({"maybe": (p.k > 2.0).then_some(p.k)})));
        assert!(e.run_default().is_ok());
        let inner = exercise(|_| Ok(json!({"maybe": [f64::INFINITY]})));
        assert!(inner.run_default().is_err(), "only the field itself may be null");
    }

    #[test]
    fn a_run_over_a_declared_limit_is_refused_before_it_starts() {
        // The run itself would panic: a refused run must never reach it.
        let limited = Exercise::new("x", "a test", |p: Rate| {
            assert!(p.k <= 100.0, "the limit let k = {} through", p.k);
            Ok(json!({"k": p.k}))
        })
        .limit(("k²", "k-squares"), (1e4, "lower k"), |p: &Rate| p.k * p.k);
        assert!(limited.run_with("test", &["k=100"]).is_ok());
        let refused = limited.run_with("test", &["k=100.5"]).unwrap_err();
        assert!(
            matches!(refused, PbmError::InRun { ref source, .. }
                if matches!(**source, PbmError::TooMuchWork { .. })),
            "{refused}"
        );
        assert!(refused.to_string().contains("lower k"), "{refused}");
        let params = Params::resolve("test/x", &limited.params, &["k=3"]).unwrap();
        assert_eq!(limited.limits[0].estimate(&params).unwrap(), 9.0);
        assert_eq!((limited.limits[0].work, limited.limits[0].max), ("k²", 1e4));
    }

    #[test]
    fn a_comparison_that_names_a_missing_row_is_refused() {
        const ROWS: &[TimingRow] =
            &[row("ours", "g/ours"), row("theirs", "g/theirs")];
        let table = |compare| TimingTable {
            file: "t.md",
            package: "p",
            column: "what",
            what: "a test",
            per_second: "",
            rows: ROWS,
            compare,
        };
        let against = |ids| table(Compare::Against(ids)).references();
        assert_eq!(against(&["g/ours"]).unwrap(), [0, 0]);
        assert_eq!(against(&["g/ours", "g/theirs"]).unwrap(), [0, 1]);
        assert!(table(Compare::Nothing).references().unwrap().is_empty());
        let reference = table(Compare::TimesReference("g/theirs")).references();
        assert_eq!(reference.unwrap(), [1, 1]);
        let headless = against(&["g/theirs"]).unwrap_err();
        assert_eq!(headless, "t.md: row `g/ours` has no reference above it");
        let beyond =
            table(Compare::SpeedUpOver("g/mine")).check_compare().unwrap_err();
        assert_eq!(
            beyond,
            "t.md: `g/mine` is compared against, but no row has that id"
        );
        assert!(against(&["g/ours", "g/yours"]).is_err());
    }
}
