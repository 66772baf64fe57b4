//! Program output shown on the pages, generated and included, never pasted (the Rust
//! book's `output.txt` pattern). Each [`Shown`] run a chapter registers is run by
//! `pbm book`, which writes
//!
//! - `book/src/output/<stem>.txt`, for a run registered as a console block
//!   ([`Shown::run`]): what `pbm run` prints, restricted to the keys the page
//!   discusses;
//! - `book/src/output/<stem>.json`: the whole result, floats to
//!   [`VALUE_DIGITS`] significant digits, which the `{{#value}}` directive
//!   ([`crate::values`]) reads to put a number into a sentence.
//!
//! The files are committed, and a test runs every one again and fails when the code
//! no longer prints what the page shows.

use crate::error::Error;
use crate::files::write_atomically;
use crate::find_exercise;
use pbm_prelim::{Chapter, Shown, round_json};
use serde_json::Value;
use std::path::Path;

/// The widest line a listing may have on the page (see the book's listing test).
const LISTING_WIDTH: usize = 86;

/// `text` broken at spaces into lines of at most `width` characters (a longer word
/// keeps its own line).
fn wrap(text: &str, width: usize) -> String {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line)
                if line.chars().count() + 1 + word.chars().count() <= width =>
            {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines.join("\n")
}

/// A table line longer than `width` wrapped at spaces, its continuation lines
/// indented to where its value starts (after the key and the run of spaces that
/// follows it), as a reader would lay it out.
fn fit_row(line: &str, width: usize) -> String {
    if line.chars().count() <= width {
        return line.to_string();
    }
    let value_at = line
        .find("  ")
        .and_then(|i| line[i..].find(|c: char| c != ' ').map(|j| i + j))
        .filter(|&i| line[..i].chars().count() < width / 2)
        .unwrap_or(0);
    let indent = " ".repeat(line[..value_at].chars().count());
    let value = wrap(&line[value_at..], width - indent.chars().count());
    let mut out = line[..value_at].to_string();
    for (k, piece) in value.split('\n').enumerate() {
        if k > 0 {
            out.push('\n');
            out.push_str(&indent);
        }
        out.push_str(piece);
    }
    out
}

/// Significant digits of the numbers in a run's JSON file: enough for any sentence,
/// few enough that the last bits of a platform's libm do not change the file.
pub const VALUE_DIGITS: u32 = 6;

/// The placeholder a timed value renders as when timings are masked.
const TIMING: &str = "(timing)";

/// Every run the chapters register, with its chapter.
pub fn all_shown(chapters: &[Chapter]) -> Vec<(&Chapter, &Shown)> {
    chapters.iter().flat_map(|c| c.shown.iter().map(move |s| (c, s))).collect()
}

/// The console block's file, e.g. `ode-stability--h=0.25.txt`.
pub fn text_name(shown: &Shown) -> String {
    shown.stem() + ".txt"
}

/// The whole result's file, e.g. `ode-stability--h=0.25.json`.
pub fn json_name(shown: &Shown) -> String {
    shown.stem() + ".json"
}

/// The command as a reader types it, continued on a second line (a shell's
/// `\\`) where it would not fit the page's column.
pub fn command(shown: &Shown) -> String {
    let mut lines = vec![format!("$ cargo run --release -- run {}", shown.id)];
    for assignment in shown.set {
        let part = format!(" --set {assignment}");
        let last = lines.len() - 1;
        if lines[last].chars().count() + part.chars().count() + 2 > LISTING_WIDTH {
            lines[last].push_str(" \\");
            lines.push(format!("   {part}"));
        } else {
            lines[last].push_str(&part);
        }
    }
    lines.join("\n")
}

/// What a run gave: its result, or the error it ends with (a page may show an
/// error on purpose, e.g. a refused step size).
pub type Outcome = Result<Value, pbm_prelim::PbmError>;

/// Runs `shown`. The outer error is a registration naming no exercise, or a run that
/// fails where its registration does not say the page shows it failing (or succeeds
/// where it says so): the book is never built from a run that diverged unannounced.
pub fn run(shown: &Shown, chapters: &[Chapter]) -> Result<Outcome, Error> {
    let (chapter, exercise) = find_exercise(chapters, shown.id)?;
    let outcome = exercise.run_with(chapter.id, shown.set);
    let name = command(shown).trim_start_matches("$ ").to_string();
    match (failure(&outcome), shown.failing) {
        (Some(why), false) => Err(Error::Book(format!(
            "`{name}` failed ({why}); a page may show a failed run only if its \
             registration says so with `.failing()` and the page says why"
        ))),
        (None, true) => Err(Error::Book(format!(
            "`{name}` is registered as failing (`.failing()`) but succeeded: the page's \
             account of it is out of date"
        ))),
        _ => Ok(outcome),
    }
}

/// The failure a run reports, if any: the error it ends with, or its result's own
/// report of a failed or diverged run (`"failure"` set, or `"stable": false`).
pub fn failure(outcome: &Outcome) -> Option<String> {
    match outcome {
        Err(e) => Some(e.to_string()),
        Ok(value) => match (value.get("failure"), value.get("stable")) {
            (Some(Value::String(why)), _) => Some(why.clone()),
            (_, Some(Value::Bool(false))) => {
                Some("it reports `stable: false`".into())
            }
            _ => None,
        },
    }
}

/// What `pbm run` printed (the table, or the error line), restricted to the shown
/// keys, with the command on the first line. With `mask_timings`, the timed values
/// are left out, so that the text is the same on every run.
pub fn text(shown: &Shown, outcome: &Outcome, mask_timings: bool) -> String {
    let body: String = match outcome {
        Ok(value) => {
            let mut value = restrict(shown, value.clone());
            if mask_timings {
                mask(&mut value, shown.timed);
            }
            crate::report::table(&value)
                .lines()
                .map(|l| fit_row(l, LISTING_WIDTH) + "\n")
                .collect()
        }
        // One line on the console, wrapped here as a terminal would wrap it, so
        // that it fits the page's column.
        Err(e) => wrap(&format!("error: {e}"), LISTING_WIDTH) + "\n",
    };
    format!("{}\n{body}", command(shown))
}

/// The whole result as the `{{#value}}` directive reads it: every key, floats to
/// [`VALUE_DIGITS`] significant digits, pretty-printed so that a diff reads well.
/// None for a run that ends in an error.
pub fn json(shown: &Shown, outcome: &Outcome, mask_timings: bool) -> Option<String> {
    let value = outcome.as_ref().ok()?;
    let mut value = round_json(value, VALUE_DIGITS);
    if mask_timings {
        mask(&mut value, shown.timed);
    }
    serde_json::to_string_pretty(&value).ok().map(|s| s + "\n")
}

/// The console block of `shown` printed from `json`, a committed JSON file: what the
/// block beside a sentence quoting that file must read, timings included, when both
/// come from one run. The JSON's numbers are rounded to [`VALUE_DIGITS`] significant
/// digits, as many as the table prints, so rounding changes no printed digit.
pub fn text_of_json(shown: &Shown, json: &str) -> Result<String, serde_json::Error> {
    let value: Value = serde_json::from_str(json)?;
    Ok(text(shown, &Ok(value), false))
}

fn restrict(shown: &Shown, value: Value) -> Value {
    let Value::Object(mut map) = value else { return value };
    if !shown.keys.is_empty() {
        map.retain(|k, _| shown.keys.contains(&k.as_str()));
    }
    map.retain(|k, _| !shown.hidden.contains(&k.as_str()));
    Value::Object(map)
}

/// Replaces the values of `timed` keys anywhere inside `value` by a placeholder.
fn mask(value: &mut Value, timed: &[&str]) {
    match value {
        Value::Object(map) => {
            for (k, v) in map.iter_mut() {
                if timed.contains(&k.as_str()) {
                    *v = Value::String(TIMING.into());
                } else {
                    mask(v, timed);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| mask(v, timed)),
        _ => {}
    }
}

/// Whether `committed` (a file the page reads) is `now` (the same file made from a
/// fresh run with the timings masked): byte for byte, except that a masked timing
/// matches any number, compared word by word with JSON's punctuation set apart.
pub fn matches(now: &str, committed: &str) -> bool {
    if now == committed {
        return true;
    }
    if !now.contains(TIMING) {
        return false;
    }
    let words = |s: &str| -> Vec<String> {
        s.replace(['"', ','], " ").split_whitespace().map(str::to_string).collect()
    };
    let (a, b) = (words(now), words(committed));
    a.len() == b.len()
        && a.iter().zip(&b).all(|(now, then)| {
            now == then || (now == TIMING && then.parse::<f64>().is_ok())
        })
}

/// Whether the committed files of `shown` are what the code prints now: the console
/// block and, for a run that succeeds, the JSON. Returns the names of the stale
/// files.
pub fn stale(
    shown: &Shown,
    chapters: &[Chapter],
    dir: &Path,
) -> Result<Vec<String>, Error> {
    let outcome = run(shown, chapters)?;
    let mut out = Vec::new();
    let read =
        |name: &str| std::fs::read_to_string(dir.join(name)).unwrap_or_default();
    if shown.console
        && !matches(&text(shown, &outcome, true), &read(&text_name(shown)))
    {
        out.push(text_name(shown));
    }
    match json(shown, &outcome, true) {
        Some(now) if !matches(&now, &read(&json_name(shown))) => {
            out.push(json_name(shown))
        }
        // A run that now ends in an error has no numbers for a page to quote: a JSON
        // file left from when it succeeded is stale.
        None if dir.join(json_name(shown)).exists() => out.push(json_name(shown)),
        _ => {}
    }
    Ok(out)
}

/// Writes the files of every registered run whose file in `dir` is missing or stale.
/// A file that differs only in its timings is left alone, so a rebuild does not churn
/// the committed timings. Returns how many files were written.
pub fn write_outputs(chapters: &[Chapter], dir: &Path) -> Result<usize, Error> {
    let mut written = 0;
    for (_, shown) in all_shown(chapters) {
        let outcome = run(shown, chapters)?;
        let mut files = Vec::new();
        if shown.console {
            files.push((
                text_name(shown),
                text(shown, &outcome, true),
                text(shown, &outcome, false),
            ));
        }
        if let (Some(masked), Some(full)) =
            (json(shown, &outcome, true), json(shown, &outcome, false))
        {
            files.push((json_name(shown), masked, full));
        } else {
            // The run ends in an error (a limit it is now over, say): a `{{#value}}`
            // reading it must fail the build, not quote the numbers of an old run.
            let path = dir.join(json_name(shown));
            if path.exists() {
                std::fs::remove_file(&path)
                    .map_err(|source| Error::Write { path, source })?;
                written += 1;
            }
        }
        // A run's console block and its JSON are written together or not at all, so
        // that the timings a sentence quotes are the ones the block beside it shows.
        let read = |name: &str| std::fs::read_to_string(dir.join(name)).ok();
        let current = files.iter().all(|(name, masked, _)| {
            read(name).is_some_and(|old| matches(masked, &old))
        });
        let one_run =
            match (shown.console, read(&text_name(shown)), read(&json_name(shown))) {
                (true, Some(block), Some(numbers)) => {
                    text_of_json(shown, &numbers).is_ok_and(|t| t == block)
                }
                _ => true,
            };
        if current && one_run {
            continue;
        }
        for (name, _, full) in files {
            let path = dir.join(&name);
            write_atomically(&path, &full)
                .map_err(|source| Error::Write { path, source })?;
            written += 1;
        }
    }
    remove_unregistered(chapters, dir)?;
    Ok(written)
}

/// Removes the files in `dir` that no registered run writes (a run that was
/// unregistered, or that became `Shown::values` and lost its console block), so that
/// the folder holds exactly what the chapters register.
fn remove_unregistered(chapters: &[Chapter], dir: &Path) -> Result<(), Error> {
    let owned: std::collections::BTreeSet<String> = all_shown(chapters)
        .iter()
        .flat_map(|(_, s)| {
            s.console.then(|| text_name(s)).into_iter().chain([json_name(s)])
        })
        .collect();
    let Ok(entries) = std::fs::read_dir(dir) else { return Ok(()) };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let generated = name.ends_with(".txt") || name.ends_with(".json");
        if generated && !owned.contains(&name) {
            let path = entry.path();
            std::fs::remove_file(&path)
                .map_err(|source| Error::Write { path, source })?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{Outcome, command, fit_row, json, matches, text, text_of_json, wrap};
    use pbm_prelim::Shown;

    #[test]
    fn long_lines_wrap_at_spaces_and_keep_every_word() {
        assert_eq!(wrap("error: a bb ccc", 9), "error: a\nbb ccc");
        assert_eq!(wrap("short", 86), "short");
        let long = "x".repeat(100);
        assert_eq!(wrap(&format!("a {long} b"), 10), format!("a\n{long}\nb"));
    }

    #[test]
    fn long_rows_continue_under_their_value_and_long_commands_on_a_second_line() {
        assert_eq!(
            fit_row("key    one two three", 16),
            "key    one two\n       three"
        );
        assert_eq!(fit_row("short   row", 86), "short   row");
        let run = Shown::run("cloth/drape").set(&[
            "scene=curtain",
            "curvature=gauss-newton",
            "n=12",
        ]);
        let command = command(&run);
        assert!(command.lines().all(|l| l.chars().count() <= 86), "{command}");
        assert!(command.contains(" \\\n    --set"), "{command}");
        assert_eq!(
            command.replace(" \\\n   ", ""),
            format!(
                "$ cargo run --release -- run cloth/drape --set scene=curtain \
             --set curvature=gauss-newton --set n=12"
            )
        );
    }

    #[test]
    fn a_console_block_and_a_json_agree_only_when_they_come_from_one_run() {
        let shown = Shown::run("ode/stability").timed(&["ms"]);
        let run = |ms: f64| -> Outcome {
            Ok(serde_json::json!({"n": 3, "ms": ms, "rate": 1.0 / 3.0}))
        };
        let (first, second) = (run(1.2345678), run(2.5));
        let quoted = json(&shown, &first, false).unwrap();
        // The block of the same run is what the JSON prints, though the JSON was
        // rounded before printing.
        assert_eq!(
            text_of_json(&shown, &quoted).unwrap(),
            text(&shown, &first, false)
        );
        // A block of another run passes the staleness check (timings may differ)...
        let other = text(&shown, &second, false);
        assert!(matches(&text(&shown, &second, true), &text(&shown, &first, false)));
        // ...but not this one.
        assert_ne!(text_of_json(&shown, &quoted).unwrap(), other);
    }

    #[test]
    fn a_masked_timing_matches_any_number_and_nothing_else_may_differ() {
        let now = "{\n  \"ms\": \"(timing)\",\n  \"n\": 3\n}\n";
        assert!(matches(now, "{\n  \"ms\": 1.25,\n  \"n\": 3\n}\n"));
        assert!(!matches(now, "{\n  \"ms\": 1.25,\n  \"n\": 4\n}\n"));
        assert!(!matches(now, "{\n  \"ms\": \"slow\",\n  \"n\": 3\n}\n"));
        assert!(matches("x 1\n", "x 1\n"));
        assert!(!matches("x 1\n", "x 2\n"));
    }
}
