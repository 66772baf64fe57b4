//! Numbers in sentences come from the code. A page writes
//!
//! ```text
//! {{#value contact/drop /rest_time_s sig=2 unit=s}}
//! {{#value interactive/feeder t_end=24 /steps_per_second dp=0 unit=steps/s}}
//! {{#value ode/adaptive /fixed_evals over=/adaptive_evals sig=2 unit=×}}
//! ${{#value implicit/sheet /final_residual sci sig=2}}$
//! {{#default ode/stability h unit=s}}
//! {{#timing constraints/solve_cg_n1000}}
//! {{#timing constraints/solve_cg_n1000 over=constraints/solve_dense_n1000 sig=2 unit=×}}
//! ```
//!
//! and the book shows `0.19 s`, `2,112 steps/s`, `4.1×`, 3.2 × 10⁻⁹ typeset, and the
//! exercise's declared default. A `{{#value}}` names a run (the exercise, then its
//! `--set` assignments) that the chapter registers ([`pbm_prelim::Shown`]), a JSON
//! Pointer into its result, and how to write the number. It reads the run's JSON file,
//! which `pbm book` writes from a fresh run and `tests/output.rs` holds to the code, so
//! a sentence cannot disagree with the code it describes. A `{{#default}}` reads the
//! value a parameter has when the reader sets nothing. A `{{#timing}}` reads the median
//! of a benchmark row (named by its criterion id) from the committed timing table that
//! holds it, as measured on the book's machine: a duration ("15.4 ms"), or with
//! `over=ID` the ratio of two medians.
//!
//! The options, after the pointer:
//!
//! | option | meaning |
//! |---|---|
//! | `sig=N` | N significant digits (3 unless `dp` is given; a whole number stays whole) |
//! | `dp=N` | exactly N digits after the point |
//! | `times=X` | multiply first (`times=100` for a percentage, `times=1000` for ms) |
//! | `over=/P` | divide by the number at pointer P of the same run (a ratio) |
//! | `abs` | the absolute value |
//! | `sci` | LaTeX scientific notation, `3.2 \times 10^{-9}`, to be put inside `$…$` |
//! | `unit=U` | the unit after a no-break space (`%` and `×` follow the number directly) |
//!
//! Thousands are grouped with commas (`2,112`), and a negative number takes the minus
//! sign (−), as in the rest of the book's prose.

use crate::benchmarks::{Spread, TableData, data_file};
use crate::output::json_name;
use mdbook_preprocessor::book::{Book, BookItem};
use mdbook_preprocessor::errors::Result as BookResult;
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};
use pbm_prelim::{Chapter, ParamKind, Shown, round_sig, short};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// How to write a number: the options of a directive.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Format {
    /// Significant digits.
    pub sig: Option<u32>,
    /// Digits after the point.
    pub dp: Option<usize>,
    /// Factor applied first.
    pub times: Option<f64>,
    /// Pointer of the denominator, in the same run.
    pub over: Option<String>,
    /// Absolute value.
    pub abs: bool,
    /// LaTeX scientific notation.
    pub sci: bool,
    /// The unit written after the number.
    pub unit: Option<String>,
}

/// A parsed `{{#value …}}`: the run, the pointer and the format.
#[derive(Debug, Clone, PartialEq)]
pub struct ValueRef {
    /// `chapter/exercise`.
    pub id: String,
    /// `--set` assignments, in order.
    pub set: Vec<String>,
    /// JSON Pointer into the result.
    pub pointer: String,
    /// How to write it.
    pub format: Format,
}

impl ValueRef {
    /// The stem of the run's files, as [`Shown::stem`] names them.
    pub fn stem(&self) -> String {
        let mut name = self.id.replace('/', "-");
        for assignment in &self.set {
            name += "--";
            name += assignment;
        }
        name
    }

    /// The registration line a chapter adds for this run.
    pub fn registration(&self) -> String {
        if self.set.is_empty() {
            format!("Shown::values(\"{}\")", self.id)
        } else {
            let set: Vec<String> =
                self.set.iter().map(|s| format!("\"{s}\"")).collect();
            format!("Shown::values(\"{}\").set(&[{}])", self.id, set.join(", "))
        }
    }
}

/// Reads the options that follow a pointer (or a parameter name).
fn parse_format(tokens: &[&str]) -> Result<Format, String> {
    let mut format = Format::default();
    for token in tokens {
        let (key, value) = token.split_once('=').unwrap_or((token, ""));
        let number =
            |what: &str| -> Result<f64, String> {
                value.parse::<f64>().ok().filter(|x| x.is_finite()).ok_or_else(|| {
                    format!("option `{key}` wants {what}, got `{value}`")
                })
            };
        match key {
            "sig" => {
                let n = number("a count of digits")?;
                if !(1.0..=15.0).contains(&n) || n.fract() != 0.0 {
                    return Err(format!("`sig` is 1 to 15 digits, got `{value}`"));
                }
                format.sig = Some(n as u32);
            }
            "dp" => {
                let n = number("a count of digits")?;
                if !(0.0..=12.0).contains(&n) || n.fract() != 0.0 {
                    return Err(format!("`dp` is 0 to 12 digits, got `{value}`"));
                }
                format.dp = Some(n as usize);
            }
            "times" => format.times = Some(number("a number")?),
            "over" if value.starts_with('/') => format.over = Some(value.to_string()),
            "over" => {
                return Err(format!("`over` wants a JSON pointer, got `{value}`"));
            }
            "unit" if !value.is_empty() => format.unit = Some(value.to_string()),
            "abs" if value.is_empty() => format.abs = true,
            "sci" if value.is_empty() => format.sci = true,
            _ => {
                return Err(format!(
                    "unknown option `{token}`; options: sig=N, dp=N, times=X, over=/P, \
                     abs, sci, unit=U"
                ));
            }
        }
    }
    if format.sig.is_some() && format.dp.is_some() {
        return Err("give `sig` or `dp`, not both".into());
    }
    Ok(format)
}

/// Parses the inside of `{{#value …}}` (what follows `#value`).
pub fn parse_value(args: &str) -> Result<ValueRef, String> {
    let tokens: Vec<&str> = args.split_whitespace().collect();
    let Some((id, rest)) = tokens.split_first() else {
        return Err(
            "`{{#value}}` wants an exercise, a JSON pointer and options".into()
        );
    };
    if id.split('/').count() != 2 || id.contains('=') {
        return Err(format!("`{id}` is not CHAPTER/EXERCISE"));
    }
    let Some(at) = rest.iter().position(|t| t.starts_with('/')) else {
        return Err(format!(
            "no JSON pointer (a token starting with `/`) after `{id}`"
        ));
    };
    let set = &rest[..at];
    if let Some(bad) = set.iter().find(|t| !t.contains('=')) {
        return Err(format!(
            "`{bad}` before the pointer is not a key=value assignment"
        ));
    }
    Ok(ValueRef {
        id: id.to_string(),
        set: set.iter().map(|s| s.to_string()).collect(),
        pointer: rest[at].to_string(),
        format: parse_format(&rest[at + 1..])?,
    })
}

/// Groups the integer part of a plain decimal with commas: `2112.5` → `2,112.5`.
fn group_thousands(text: &str) -> String {
    let (int, frac) =
        text.split_once('.').map_or((text, None), |(i, f)| (i, Some(f)));
    if int.len() <= 3 {
        return text.to_string();
    }
    let mut grouped = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    match frac {
        Some(f) => format!("{grouped}.{f}"),
        None => grouped,
    }
}

/// Superscript digits for a plain-text exponent.
const SUPERSCRIPTS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];

/// Writes `x` as `format` asks. `whole` says the JSON held an integer.
pub fn write_number(x: f64, whole: bool, format: &Format) -> Result<String, String> {
    let mut x = x * format.times.unwrap_or(1.0);
    if format.abs {
        x = x.abs();
    }
    if !x.is_finite() {
        return Err("the number is not finite".into());
    }
    let negative = x < 0.0;
    let magnitude = x.abs();
    let body = if format.sci {
        let digits = format.sig.unwrap_or(2).max(1) as usize;
        let text = format!("{:.*e}", digits - 1, magnitude);
        let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
        let exponent: i32 = exponent.parse().unwrap_or(0);
        if exponent == 0 {
            mantissa.to_string()
        } else if mantissa == "1" {
            format!("10^{{{exponent}}}")
        } else {
            format!("{mantissa} \\times 10^{{{exponent}}}")
        }
    } else if let Some(dp) = format.dp {
        group_thousands(&format!("{magnitude:.dp$}"))
    } else if whole
        && format.sig.is_none()
        && format.times.is_none()
        && format.over.is_none()
    {
        group_thousands(&format!("{magnitude:.0}"))
    } else {
        let digits = format.sig.unwrap_or(3);
        let rounded = round_sig(magnitude, digits);
        if rounded != 0.0 && !(1e-4..1e15).contains(&rounded) {
            // Too small or too large for plain digits: × 10ⁿ in text.
            let text = format!("{:.*e}", digits as usize - 1, rounded);
            let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
            let exponent: i32 = exponent.parse().unwrap_or(0);
            let mut sup = String::new();
            if exponent < 0 {
                sup.push('⁻');
            }
            for d in exponent.unsigned_abs().to_string().bytes() {
                sup.push(SUPERSCRIPTS[(d - b'0') as usize]);
            }
            let mantissa = trim_zeros(mantissa);
            format!("{mantissa} × 10{sup}")
        } else {
            // Enough decimals to show `digits` significant ones, no trailing zeros.
            let magnitude_digits =
                if rounded == 0.0 { 1 } else { rounded.log10().floor() as i32 + 1 };
            let decimals = (digits as i32 - magnitude_digits).max(0) as usize;
            group_thousands(&trim_zeros(&format!("{rounded:.decimals$}")))
        }
    };
    let minus = if negative && body.chars().any(|c| c.is_ascii_digit() && c != '0') {
        if format.sci { "-" } else { "−" }
    } else {
        ""
    };
    let unit = match format.unit.as_deref() {
        None => String::new(),
        Some(u @ ("%" | "×")) => u.to_string(),
        Some(u) => format!("\u{a0}{u}"),
    };
    Ok(format!("{minus}{body}{unit}"))
}

/// `2.50` → `2.5`, `3.0` → `3`; a number without a point is left alone.
fn trim_zeros(text: &str) -> String {
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text.to_string()
    }
}

/// The number (or word) at `reference`'s pointer in `result`, written.
pub fn write_value(reference: &ValueRef, result: &Value) -> Result<String, String> {
    let at = |pointer: &str| {
        result.pointer(pointer).ok_or_else(|| {
            let keys = match result {
                Value::Object(map) => {
                    map.keys().cloned().collect::<Vec<_>>().join(", ")
                }
                _ => String::new(),
            };
            format!("no `{pointer}` in the result; its keys: {keys}")
        })
    };
    let value = at(&reference.pointer)?;
    match value {
        Value::Number(n) => {
            let mut x = n.as_f64().ok_or("not a number")?;
            let mut whole = n.is_i64() || n.is_u64();
            if let Some(over) = &reference.format.over {
                let d = at(over)?
                    .as_f64()
                    .ok_or_else(|| format!("`{over}` is not a number"))?;
                if d == 0.0 {
                    return Err(format!("`{over}` is zero"));
                }
                x /= d;
                whole = false;
            }
            write_number(x, whole, &reference.format)
        }
        Value::String(s) if reference.format == Format::default() => Ok(s.clone()),
        Value::Bool(b) if reference.format == Format::default() => Ok(b.to_string()),
        Value::String(s) if s == "(timing)" => {
            Err("a timing masked out of the file: rebuild with `cargo run --release`"
                .into())
        }
        other => Err(format!("`{}` is {other}, not a number", reference.pointer)),
    }
}

/// A parameter's declared default, written: `{{#default ode/stability h unit=s}}`.
pub fn write_default(chapters: &[Chapter], args: &str) -> Result<String, String> {
    let tokens: Vec<&str> = args.split_whitespace().collect();
    let [id, name, options @ ..] = tokens.as_slice() else {
        return Err("`{{#default}}` wants an exercise and a parameter name".into());
    };
    let (chapter, exercise) =
        crate::find_exercise(chapters, id).map_err(|e| e.to_string())?;
    let spec = exercise.params.iter().find(|p| p.name == *name).ok_or_else(|| {
        let names: Vec<&str> = exercise.params.iter().map(|p| p.name).collect();
        format!(
            "{}/{} has no parameter `{name}`; it has {}",
            chapter.id,
            exercise.id,
            names.join(", ")
        )
    })?;
    let format = parse_format(options)?;
    match &spec.kind {
        ParamKind::Float { default, .. } => {
            if format == Format::default() {
                // The default as `pbm list` prints it.
                Ok(short(*default))
            } else {
                write_number(*default, false, &format)
            }
        }
        ParamKind::Int { default, .. } => {
            write_number(*default as f64, true, &format)
        }
        ParamKind::Bool { default } => Ok(default.to_string()),
        ParamKind::Choice { default, .. } => Ok(default.to_string()),
    }
}

/// Where the directives of one page find their numbers.
pub struct Values<'a> {
    /// Every chapter (for the registered runs, timing tables and defaults).
    pub chapters: &'a [Chapter],
    /// `book/src/output`, where `pbm book` writes each run's JSON.
    pub output_dir: &'a Path,
    /// `book/src/benchmarks`, where `pbm bench-tables` writes the timing tables.
    pub benchmarks_dir: &'a Path,
}

impl Values<'_> {
    /// The committed rounds of the benchmark row with criterion id `id`, in seconds,
    /// with the id of the run they come from.
    fn rounds(&self, id: &str) -> Result<(String, Vec<f64>), String> {
        let table = self
            .chapters
            .iter()
            .flat_map(|c| c.tables.iter())
            .find(|t| t.rows.iter().any(|r| r.id == id))
            .ok_or_else(|| {
                format!("no timing table of any chapter has the row `{id}`")
            })?;
        let data = TableData::committed(self.benchmarks_dir, table)?;
        let medians = data.medians(id).ok_or_else(|| {
            format!("{} has no numbers for `{id}`", data_file(table))
        })?;
        Ok((data.tag.id.clone(), medians.to_vec()))
    }

    /// The text of one `{{#timing ID [over=ID] [spread] [options]}}`: the median of the
    /// row's runs, or with `over=` the median of the runs' ratios. The two rows of a
    /// ratio must come from one run; a ratio the machine does not resolve (its runs
    /// reach within the noise band of 1) is refused unless `spread` asks for it to be
    /// printed as such, "not resolved (0.91–1.08×)"; `spread` on a resolved ratio
    /// adds its range, "2.1× (2.0–2.2×)".
    pub fn timing(&self, args: &str) -> Result<String, String> {
        let tokens: Vec<&str> = args.split_whitespace().collect();
        let Some((id, rest)) = tokens.split_first() else {
            return Err("`{{#timing}}` wants a benchmark's criterion id".into());
        };
        let over = rest.iter().find_map(|t| t.strip_prefix("over="));
        let spread = rest.contains(&"spread");
        let options: Vec<&str> = rest
            .iter()
            .copied()
            .filter(|t| !t.starts_with("over=") && *t != "spread")
            .collect();
        let format = parse_format(&options)?;
        let (run, rounds) = self.rounds(id)?;
        let Some(other) = over else {
            let seconds = Spread::of(&rounds).median;
            return if format == Format::default() {
                Ok(crate::benchmarks::duration(seconds).replace(' ', "\u{a0}"))
            } else {
                write_number(seconds, false, &format)
            };
        };
        let (other_run, other_rounds) = self.rounds(other)?;
        if run != other_run {
            return Err(format!(
                "`{id}` (run {run}) and `{other}` (run {other_run}) come from different \
                 runs: record them in one `pbm bench-run`"
            ));
        }
        let ratio = Spread::of_ratios(&rounds, &other_rounds);
        let number = |x: f64| write_number(x, false, &format);
        // A range whose ends read alike is one number, never "2.5–2.5".
        let (low, high) = (number(ratio.low)?, number(ratio.high)?);
        let range = if low == high { low } else { format!("{low}–{high}") };
        match (ratio.resolved(), spread) {
            (true, false) => number(ratio.median),
            (true, true) if !range.contains('–') => number(ratio.median),
            (true, true) => Ok(format!("{} ({range})", number(ratio.median)?)),
            (false, true) => Ok(format!("not resolved ({range})")),
            (false, false) => Err(format!(
                "`{id}` over `{other}` is not resolved on this machine (its runs give \
                 {:.3}–{:.3}, within the noise band of 1): write the sentence so that it \
                 claims no difference, and add `spread` to print it as not resolved",
                ratio.low, ratio.high
            )),
        }
    }

    fn registered(&self, stem: &str) -> Option<&Shown> {
        self.chapters.iter().flat_map(|c| &c.shown).find(|s| s.stem() == stem)
    }

    /// The text of one `{{#value …}}`.
    pub fn value(&self, args: &str) -> Result<String, String> {
        let reference = parse_value(args)?;
        let Some(shown) = self.registered(&reference.stem()) else {
            let chapter = reference.id.split('/').next().unwrap_or("");
            return Err(format!(
                "the run `{} {}` is not registered: add `{}` to the `shown()` of chapter \
                 `{chapter}` (its src/pages.rs)",
                reference.id,
                reference.set.join(" "),
                reference.registration()
            ));
        };
        let path = self.output_dir.join(json_name(shown));
        let text = std::fs::read_to_string(&path).map_err(|e| {
            format!(
                "{}: {e}; `cargo run --release` writes it (a run that ends in an error has \
                 no numbers)",
                path.display()
            )
        })?;
        let result: Value = serde_json::from_str(&text)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        write_value(&reference, &result)
    }

    /// `markdown` with every `{{#value …}}` and `{{#default …}}` replaced, outside
    /// fenced code blocks; `\{{#value` stays as written, without the backslash.
    pub fn expand(&self, markdown: &str) -> Result<String, String> {
        let mut out = String::with_capacity(markdown.len());
        let mut fenced = false;
        for (n, line) in markdown.split_inclusive('\n').enumerate() {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
            }
            if fenced || !line.contains("{{#") {
                out.push_str(line);
                continue;
            }
            out.push_str(
                &self
                    .expand_line(line)
                    .map_err(|why| format!("line {}: {why}", n + 1))?,
            );
        }
        Ok(out)
    }

    fn expand_line(&self, line: &str) -> Result<String, String> {
        let mut out = String::with_capacity(line.len());
        let mut rest = line;
        while let Some(start) = rest.find("{{#") {
            let escaped = rest[..start].ends_with('\\');
            let after = &rest[start + 3..];
            let directive = ["value ", "default ", "timing "]
                .into_iter()
                .find(|d| after.starts_with(d));
            let (Some(directive), Some(end)) = (directive, after.find("}}")) else {
                out.push_str(&rest[..start + 3]);
                rest = after;
                continue;
            };
            let args = &after[directive.len()..end];
            if escaped {
                out.push_str(&rest[..start - 1]);
                out.push_str(&rest[start..start + 3 + end + 2]);
            } else {
                out.push_str(&rest[..start]);
                let text = match directive {
                    "value " => self.value(args),
                    "timing " => self.timing(args),
                    _ => write_default(self.chapters, args),
                }
                .map_err(|why| format!("{{{{#{}{args}}}}}: {why}", directive))?;
                out.push_str(&text);
            }
            rest = &after[end + 2..];
        }
        out.push_str(rest);
        Ok(out)
    }
}

/// Every `{{#value …}}` of `markdown` outside fenced code, parsed (for the tests that
/// check each names a registered run).
pub fn references(markdown: &str) -> Vec<Result<ValueRef, String>> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced {
            continue;
        }
        for (i, _) in line.match_indices("{{#value ") {
            if line[..i].ends_with('\\') {
                continue;
            }
            let args = &line[i + "{{#value ".len()..];
            match args.find("}}") {
                Some(end) => out.push(parse_value(&args[..end])),
                None => out.push(Err(format!("unclosed directive: {line}"))),
            }
        }
    }
    out
}

/// The mdBook preprocessor that applies [`Values::expand`] to every page.
pub struct ValuePreprocessor {
    /// Every chapter.
    pub chapters: Vec<Chapter>,
    /// `book/src/output`.
    pub output_dir: PathBuf,
    /// `book/src/benchmarks`.
    pub benchmarks_dir: PathBuf,
}

impl Preprocessor for ValuePreprocessor {
    fn name(&self) -> &str {
        "pbm-values"
    }

    fn run(&self, _ctx: &PreprocessorContext, mut book: Book) -> BookResult<Book> {
        let values = Values {
            chapters: &self.chapters,
            output_dir: &self.output_dir,
            benchmarks_dir: &self.benchmarks_dir,
        };
        let mut failures: BTreeMap<String, String> = BTreeMap::new();
        book.for_each_mut(|item| {
            if let BookItem::Chapter(page) = item {
                match values.expand(&page.content) {
                    Ok(content) => page.content = content,
                    Err(why) => {
                        let path = page.path.as_deref().unwrap_or(Path::new("?"));
                        failures.insert(path.display().to_string(), why);
                    }
                }
            }
        });
        if failures.is_empty() {
            Ok(book)
        } else {
            let lines: Vec<String> = failures
                .into_iter()
                .map(|(page, why)| format!("{page}: {why}"))
                .collect();
            Err(mdbook_preprocessor::errors::Error::msg(lines.join("\n")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn format(options: &str) -> Format {
        parse_format(&options.split_whitespace().collect::<Vec<_>>())
            .unwrap_or_else(|e| panic!("{e}"))
    }

    fn write(x: f64, options: &str) -> String {
        write_number(x, false, &format(options)).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_directive_names_a_run_a_pointer_and_a_format() {
        let r = parse_value(
            "interactive/feeder t_end=24 /steps_per_second dp=0 unit=steps/s",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.id, "interactive/feeder");
        assert_eq!(r.set, ["t_end=24"]);
        assert_eq!(r.pointer, "/steps_per_second");
        assert_eq!(r.format.dp, Some(0));
        assert_eq!(r.format.unit.as_deref(), Some("steps/s"));
        assert_eq!(r.stem(), "interactive-feeder--t_end=24");
        assert_eq!(
            r.registration(),
            "Shown::values(\"interactive/feeder\").set(&[\"t_end=24\"])"
        );
        let stem = Shown::run("interactive/feeder").set(&["t_end=24"]).stem();
        assert_eq!(r.stem(), stem, "the directive and the registry name one file");
    }

    #[test]
    fn a_malformed_directive_says_what_is_wrong() {
        let error = |args| parse_value(args).unwrap_err();
        assert!(error("").contains("wants an exercise"));
        assert!(error("drop /x").contains("not CHAPTER/EXERCISE"));
        assert!(error("contact/drop t_end=2").contains("no JSON pointer"));
        assert!(error("contact/drop seconds /x").contains("not a key=value"));
        assert!(error("contact/drop /x sig=0").contains("`sig` is 1 to 15"));
        assert!(error("contact/drop /x bold").contains("unknown option `bold`"));
        assert!(error("contact/drop /x sig=2 dp=1").contains("not both"));
        assert!(error("contact/drop /x over=y").contains("JSON pointer"));
    }

    #[test]
    fn numbers_are_written_as_a_sentence_needs_them() {
        assert_eq!(write(0.131_4, "unit=m"), "0.131\u{a0}m");
        assert_eq!(write(0.131_4, "sig=2 unit=m"), "0.13\u{a0}m");
        assert_eq!(write(2112.4, "dp=0 unit=steps/s"), "2,112\u{a0}steps/s");
        assert_eq!(write(2112.4, ""), "2,110");
        assert_eq!(write(-1.7, "sig=2 unit=J"), "−1.7\u{a0}J");
        assert_eq!(write(-4.05, "abs"), "4.05");
        assert_eq!(write(0.2163, "times=100 sig=3 unit=%"), "21.6%");
        assert_eq!(write(2.5, "unit=×"), "2.5×");
        assert_eq!(write(0.5, "dp=2"), "0.50");
        assert_eq!(write(3.0, ""), "3");
        assert_eq!(write(1234567.0, "sig=2"), "1,200,000");
        assert_eq!(write(3.21e-9, "sig=2"), "3.2 × 10⁻⁹");
        assert_eq!(write(3.21e-9, "sci sig=2"), "3.2 \\times 10^{-9}");
        assert_eq!(write(1e-12, "sci sig=1"), "10^{-12}");
        assert_eq!(write(-2.0e-11, "sci sig=1"), "-2 \\times 10^{-11}");
        assert_eq!(write(4.5, "sci sig=2"), "4.5");
        assert_eq!(write(-0.0001, "dp=2"), "0.00", "no minus on a zero");
        assert_eq!(
            write_number(244.0, true, &Format::default()).ok().as_deref(),
            Some("244")
        );
        assert_eq!(
            write_number(12288.0, true, &Format::default()).ok().as_deref(),
            Some("12,288")
        );
        assert!(write_number(f64::NAN, false, &Format::default()).is_err());
    }

    #[test]
    fn a_value_is_read_at_its_pointer_and_ratios_divide_two() {
        let result = json!({
            "rest_time_s": 0.1893, "impacts": 7, "regime": "oscillating",
            "fixed_evals": 4100, "adaptive_evals": 1000, "rows": [{"ms": 2.5}],
        });
        let value = |args: &str| {
            let r = parse_value(args).unwrap_or_else(|e| panic!("{e}"));
            write_value(&r, &result)
        };
        assert_eq!(
            value("c/e /rest_time_s sig=2 unit=s").ok().as_deref(),
            Some("0.19\u{a0}s")
        );
        assert_eq!(value("c/e /impacts").ok().as_deref(), Some("7"));
        assert_eq!(value("c/e /regime").ok().as_deref(), Some("oscillating"));
        assert_eq!(
            value("c/e /rows/0/ms unit=ms").ok().as_deref(),
            Some("2.5\u{a0}ms")
        );
        assert_eq!(
            value("c/e /fixed_evals over=/adaptive_evals sig=2 unit=×")
                .ok()
                .as_deref(),
            Some("4.1×")
        );
        let missing = value("c/e /nothing").unwrap_err();
        assert!(
            missing.contains("no `/nothing`") && missing.contains("rest_time_s"),
            "{missing}"
        );
        assert!(value("c/e /regime sig=2").unwrap_err().contains("not a number"));
    }

    #[test]
    fn directives_expand_in_prose_and_stay_in_code_and_when_escaped() {
        let dir =
            std::env::temp_dir().join(format!("pbm-values-{}", std::process::id()));
        let shown = Shown::run("t/e").set(&["k=2"]);
        let file = dir.join(json_name(&shown));
        crate::files::write_atomically(&file, "{\"x\": 0.25, \"n\": 1200}")
            .unwrap_or_else(|e| panic!("{e}"));
        let chapter = Chapter {
            id: "t",
            number: 1,
            title: "test",
            pages: "01-t",
            exercises: Vec::new(),
            figures: Vec::new(),
            shown: vec![shown],
            tables: &[],
            demos: pbm_prelim::demo::Demos::NONE,
            practice: &[],
        };
        const TABLES: &[pbm_prelim::registry::TimingTable] =
            &[pbm_prelim::registry::TimingTable {
                file: "t.md",
                package: "pbm-t",
                column: "solver",
                what: "a test",
                per_second: "",
                rows: &[
                    pbm_prelim::registry::row("ours", "t/ours"),
                    pbm_prelim::registry::row("theirs", "t/theirs"),
                    pbm_prelim::registry::row("the same", "t/same"),
                    pbm_prelim::registry::row("a tenth", "t/tenth"),
                ],
                compare: pbm_prelim::registry::Compare::Nothing,
            }];
        let table = |rows: serde_json::Value, run: &str| {
            let data = serde_json::json!({ "run": { "id": run, "commit": "abc1234",
                "machine": "a test machine", "date": "2026-12-06", "rounds": 3,
                "settings": "" }, "rows": rows });
            crate::files::write_atomically(&dir.join("t.json"), &data.to_string())
                .unwrap_or_else(|e| panic!("{e}"));
        };
        table(
            serde_json::json!({ "t/ours": [0.0154, 0.015, 0.016], "t/theirs": [0.00154, 0.0016, 0.0015],
                "t/same": [0.0155, 0.0145, 0.017], "t/tenth": [0.00154, 0.0015, 0.0016] }),
            "r1",
        );
        let chapters = [Chapter { tables: TABLES, ..chapter }];
        let values =
            Values { chapters: &chapters, output_dir: &dir, benchmarks_dir: &dir };
        let timing = values.expand("{{#timing t/ours}}, {{#timing t/ours over=t/theirs sig=2 unit=×}} slower\n");
        assert_eq!(timing.ok().as_deref(), Some("15.4\u{a0}ms, 10× slower\n"));
        assert_eq!(
            values.timing("t/ours over=t/theirs sig=2 spread").as_deref(),
            Ok("10 (9.4–11)")
        );
        // Ends that round alike are written once.
        assert_eq!(
            values.timing("t/ours over=t/tenth sig=2 spread").as_deref(),
            Ok("10")
        );
        assert!(values.timing("t/nothing").unwrap_err().contains("no timing table"));
        // A ratio inside the noise is refused, or printed as such.
        assert!(
            values
                .timing("t/ours over=t/same sig=2")
                .unwrap_err()
                .contains("not resolved")
        );
        assert_eq!(
            values.timing("t/ours over=t/same sig=3 spread").as_deref(),
            Ok("not resolved (0.941–1.03)")
        );
        let page = "It fell {{#value t/e k=2 /x unit=m}} in {{#value t/e k=2 /n}} steps.\n\
                    ```text\n{{#value t/e k=2 /x}}\n```\n\\{{#value t/e k=2 /x}} is how.\n";
        let out = values.expand(page).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            out,
            "It fell 0.25\u{a0}m in 1,200 steps.\n```text\n{{#value t/e k=2 /x}}\n```\n\
             {{#value t/e k=2 /x}} is how.\n"
        );
        let unregistered = values.expand("{{#value t/e k=3 /x}}\n").unwrap_err();
        assert!(
            unregistered.contains("line 1")
                && unregistered.contains("Shown::values(\"t/e\").set(&[\"k=3\"])"),
            "{unregistered}"
        );
        assert_eq!(
            references(page).len(),
            2,
            "the fenced and the escaped one are not references"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
