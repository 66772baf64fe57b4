//! The tables a benchmark writes beside criterion's estimates: the stack comparison's
//! sink and the adaptive solvers' work, each read from the same run's side files.

use super::*;

/// A table of what a benchmark measured besides time, read from the file it leaves
/// beside criterion's estimates: one row per timing row it names, one column per
/// measure.
#[derive(Debug, Clone, Copy)]
pub struct SideTable {
    /// The file the benchmark writes (under `target/criterion/`): an object from
    /// timing-row ids to a number, or to an object of numbers.
    pub side: &'static str,
    /// The package whose benchmark writes it.
    pub package: &'static str,
    /// The Markdown file the table is written to (under `book/src/benchmarks/`).
    pub out: &'static str,
    /// The first column's heading.
    pub first: &'static str,
    /// Each column: the key of its number in a row's object (None: the row's value
    /// is the number), and its heading.
    pub columns: &'static [(Option<&'static str>, &'static str)],
    /// What the numbers are, for the note under the table.
    pub note: &'static str,
}

/// The contact benchmark's stacks (pbm-bench): for each stack it times, how far its
/// top sank (metres) while it settled before it was timed.
pub const STACK_SINK: SideTable = SideTable {
    side: "stack-sink.json",
    package: "pbm-bench",
    out: "production-stack-sink.md",
    first: "stack",
    columns: &[(None, "how far its top sank")],
    note: "How far the top of each stack sank below where it was put, after one \
           simulated second of settling, before its steps were timed",
};

/// Chapter 12's pyramid beside rapier2d (pbm-solvers): how far the top box moved
/// while the pyramid settled (its first second) and over the nine seconds after.
pub const PYRAMID_MOTION: SideTable = SideTable {
    side: "pyramid-motion.json",
    package: "pbm-solvers",
    out: "solvers-pyramid-motion.md",
    first: "pyramid of base 20",
    columns: &[
        (Some("sink"), "top box: sink while settling (first second)"),
        (Some("drift"), "top box: drift over the next nine seconds"),
    ],
    note: "How far the top box of each pyramid moved from where it was put while the \
           pyramid settled (the first simulated second), and from there over the next \
           nine seconds, before its steps were timed",
};

/// Every side table, in the order `bench-tables` writes them.
pub const SIDE_TABLES: &[SideTable] = &[STACK_SINK, PYRAMID_MOTION];

/// The table `t` from its side file's `rounds`: each measure of each row named as its
/// timing row (`rows`, in the tables' order) is, from every round (the runs are
/// deterministic, so the rounds agree; a disagreement is shown as its range).
pub fn render_side(
    t: &SideTable,
    rounds: &[Value],
    tag: &RunTag,
    rows: &[(&str, &str)],
) -> Result<String, Error> {
    let bad = |what: &str| Error::Book(format!("{}: {what}", t.side));
    let first =
        rounds.first().and_then(Value::as_object).ok_or_else(|| bad("no object"))?;
    let text = |m: f64| {
        if m >= 0.01 {
            format!("{} cm", three_digits(m * 100.0))
        } else if m >= 1e-5 {
            format!("{} mm", three_digits(m * 1000.0))
        } else {
            format!("{} m", scientific(m))
        }
    };
    let mut out = format!("| {} |", t.first);
    for (_, heading) in t.columns {
        out += &format!(" {heading} |");
    }
    out += &format!("\n|---|{}\n", "---:|".repeat(t.columns.len()));
    for (id, label) in rows.iter().filter(|(id, _)| first.contains_key(*id)) {
        out += &format!("| {label} |");
        for (key, _) in t.columns {
            let number = |r: &Value| {
                let v = &r[*id];
                key.map_or(v, |k| &v[k]).as_f64().ok_or_else(|| bad(id))
            };
            let values: Vec<f64> =
                rounds.iter().map(number).collect::<Result<_, _>>()?;
            let spread = Spread::of(&values);
            let cell = if text(spread.low) == text(spread.high) {
                text(spread.median)
            } else {
                format!("{} to {}", text(spread.low), text(spread.high))
            };
            out += &format!(" {cell} |");
        }
        out += "\n";
    }
    if let Some(id) = first.keys().find(|k| !rows.iter().any(|(id, _)| id == k)) {
        return Err(bad(&format!("{id} is no timing table's row")));
    }
    out += &format!(
        "\n*{}; from {}. Reproduce with `{}`, then `cargo run --release -- \
         bench-tables`.*\n",
        t.note,
        tag.describe(),
        run_command(&[t.package])
    );
    Ok(out)
}

/// The file the production benchmark leaves beside criterion's estimates: for each
/// orbit, each adaptive solver's tolerance, reached error and evaluations.
pub const ODE_WORK: &str = "production-ode-work.json";

/// The work table of the adaptive comparison: what each solver needed to reach the
/// same global error and, from `timing` (the same run's `production-ode` rows), the
/// time each spent per derivative evaluation, relative to ode_solvers' with the
/// rounds' spread. The fixed-size loop makes the chapter's evaluations exactly (the
/// benchmark asserts it), so its row repeats them.
pub fn render_ode_work(
    work: &Value,
    measured: &str,
    timing: &TableData,
) -> Result<String, Error> {
    let bad = |what: &str| Error::Book(format!("{ODE_WORK}: no {what}"));
    let mut out = String::from(
        "| orbit | solver | tolerance | global error | derivative evaluations | relative \
         | time per evaluation, relative (spread) |\n\
         |---|---|---:|---:|---:|---:|---:|\n",
    );
    let mut target = f64::NAN;
    for orbit in work.as_array().ok_or_else(|| bad("list of orbits"))? {
        let e = orbit["eccentricity"].as_f64().ok_or_else(|| bad("eccentricity"))?;
        target = orbit["target_error"].as_f64().ok_or_else(|| bad("target_error"))?;
        let evaluations_of = |key: &str| {
            orbit[key]["evaluations"].as_f64().ok_or_else(|| bad("evaluations"))
        };
        let reference = evaluations_of("ode_solvers")?;
        let name = format!("e{}", (e * 10.0).round());
        let times = |id: &str| {
            timing.medians(&format!("production-ode/{id}-{name}")).ok_or_else(|| {
                Error::Book(format!(
                    "{}: no timing of {id} at e = {e}",
                    timing.tag.id
                ))
            })
        };
        let reference_times = times("dopri5-ode-solvers")?;
        for (key, label, id) in [
            ("ode_solvers", "ode_solvers' Dopri5", "dopri5-ode-solvers"),
            ("ours", "chapter 1's Dormand–Prince", "dopri5-ours"),
            ("ours", "the same on a fixed-size state", "dopri5-ours-fixed"),
        ] {
            let run = &orbit[key];
            let number = |field: &str| run[field].as_f64().ok_or_else(|| bad(field));
            let evaluations = number("evaluations")?;
            let per_evaluation = if key == "ode_solvers" {
                "1 (reference)".to_string()
            } else {
                // (t / n) / (t_ref / n_ref) in every round: the time ratio, scaled.
                let scale = reference / evaluations;
                let s = Spread::of_ratios(times(id)?, reference_times);
                ratio_text(&Spread {
                    median: s.median * scale,
                    low: s.low * scale,
                    high: s.high * scale,
                })
            };
            out += &format!(
                "| e = {e} | {label} | {} | {} | {} | {}× | {per_evaluation} |\n",
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
         and absolute in its mixed norm, chapter 1's absolute in the Euclidean norm. The \
         counts are the same in every round. The last column divides each round's time (the \
         timing table below) by the evaluations and compares it with ode_solvers' in the same \
         round. From {measured}. Reproduce with `{}`, then \
         `cargo run --release -- bench-tables`.*\n",
        scientific(target),
        run_command(&["pbm-bench"])
    );
    Ok(out)
}

/// A count with its thousands grouped: 12,345.
pub(crate) fn thousands(n: u64) -> String {
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
pub(crate) fn scientific(value: f64) -> String {
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
