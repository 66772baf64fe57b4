//! The tables a benchmark writes beside criterion's estimates: the stack comparison's
//! sink and the adaptive solvers' work, each read from the same run's side files.

use super::*;

/// The file the contact benchmark leaves beside criterion's estimates: for each stack it
/// times, how far the stack's top sank (metres) while it was timed.
pub const STACK_SINK: &str = "stack-sink.json";

/// The sink table of the stack comparison: each stack's sink, named as its timing
/// row (`rows`, in the tables' order) is, from every round (the runs are deterministic,
/// so the rounds agree; a disagreement is shown).
pub fn render_stack_sink(
    rounds: &[Value],
    tag: &RunTag,
    rows: &[(&str, &str)],
) -> Result<String, Error> {
    let bad = |what: &str| Error::Book(format!("{STACK_SINK}: {what}"));
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
    let mut out = String::from("| stack | how far its top sank |\n|---|---:|\n");
    for (id, label) in rows.iter().filter(|(id, _)| first.contains_key(*id)) {
        let sinks: Vec<f64> = rounds
            .iter()
            .map(|r| r.get(*id).and_then(Value::as_f64).ok_or_else(|| bad(id)))
            .collect::<Result<_, _>>()?;
        let spread = Spread::of(&sinks);
        let cell = if text(spread.low) == text(spread.high) {
            text(spread.median)
        } else {
            format!("{} to {}", text(spread.low), text(spread.high))
        };
        out += &format!("| {label} | {cell} |\n");
    }
    if let Some(id) = first.keys().find(|k| !rows.iter().any(|(id, _)| id == k)) {
        return Err(bad(&format!("{id} is no timing table's row")));
    }
    out += &format!(
        "\n*How far the top of each stack sank below where it was put, after one simulated \
         second of settling, before its steps were timed; from {}. Reproduce with `{}`, then \
         `cargo run --release -- bench-tables`.*\n",
        tag.describe(),
        run_command(&["pbm-bench"])
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
