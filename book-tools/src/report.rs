//! Prints an exercise's JSON result as a table a person can read.

use pbm_prelim::short;
use serde_json::Value;
use std::fmt::Write;

/// Formats a number for people: six significant digits.
fn number(v: &serde_json::Number) -> String {
    match v.as_f64() {
        Some(x) if v.is_f64() => short(x),
        _ => v.to_string(),
    }
}

fn scalar(v: &Value) -> String {
    match v {
        Value::Number(n) => number(n),
        Value::String(s) => s.clone(),
        Value::Null => "-".to_string(),
        other => other.to_string(),
    }
}

/// At most this many entries of a list are printed inline.
const LIST_LIMIT: usize = 12;

/// Width of a printed line: what a terminal and the book's column (86 columns of code at
/// 1280 px) show without scrolling.
const WIDTH: usize = 86;

/// A list's entries as `[a, b, c]`, broken into lines of at most [`WIDTH`] columns that
/// continue under the first entry when the list does not fit after its 29-column key.
fn wrapped_list(entries: &[String], tail: &str) -> String {
    let indent = " ".repeat(30);
    let mut lines = vec![String::from("[")];
    for (i, entry) in entries.iter().enumerate() {
        let last = i + 1 == entries.len();
        let piece =
            if last { format!("{entry}{tail}]") } else { format!("{entry},") };
        let current = lines.last_mut().map_or(0, |l| l.chars().count());
        if current > 1 && 29 + current + 1 + piece.chars().count() > WIDTH {
            lines.push(String::new());
        }
        let line = lines.last_mut().expect("lines start non-empty");
        if line.len() > 1 {
            line.push(' ');
        }
        line.push_str(&piece);
    }
    if entries.is_empty() {
        lines[0].push_str(&format!("{}]", tail.trim_start_matches(", ")));
    }
    lines.join(&format!("\n{indent}"))
}

/// The result as `key value` lines; nested objects as `outer.inner`, lists of objects
/// as small tables.
pub fn table(value: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, "", value);
    out
}

fn write_value(out: &mut String, key: &str, value: &Value) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                let full =
                    if key.is_empty() { k.clone() } else { format!("{key}.{k}") };
                write_value(out, &full, v);
            }
        }
        Value::Array(items)
            if items.iter().all(Value::is_object) && !items.is_empty() =>
        {
            let _ = writeln!(out, "{key}:");
            let columns: Vec<&String> =
                items[0].as_object().map(|m| m.keys().collect()).unwrap_or_default();
            let rows: Vec<Vec<String>> = items
                .iter()
                .map(|item| {
                    columns
                        .iter()
                        .map(|c| item.get(c.as_str()).map_or("-".into(), scalar))
                        .collect()
                })
                .collect();
            let widths: Vec<usize> = columns
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    rows.iter()
                        .map(|r| r[i].len())
                        .chain([c.len()])
                        .max()
                        .unwrap_or(0)
                })
                .collect();
            let line = |cells: Vec<String>| {
                cells
                    .iter()
                    .zip(&widths)
                    .map(|(c, w)| format!("{c:>w$}"))
                    .collect::<Vec<_>>()
                    .join("  ")
            };
            let _ = writeln!(
                out,
                "  {}",
                line(columns.iter().map(|c| c.to_string()).collect())
            );
            for row in rows {
                let _ = writeln!(out, "  {}", line(row));
            }
        }
        Value::Array(items) => {
            let shown: Vec<String> =
                items.iter().take(LIST_LIMIT).map(scalar).collect();
            let more = items.len().saturating_sub(LIST_LIMIT);
            let tail =
                if more > 0 { format!(", ... ({more} more)") } else { String::new() };
            let _ = writeln!(out, "{key:<28} {}", wrapped_list(&shown, &tail));
        }
        other => {
            let _ = writeln!(out, "{key:<28} {}", scalar(other));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn long_lists_wrap_under_their_first_entry() {
        let values: Vec<f64> = (0..11).map(|i| -1.5f64.powi(i)).collect();
        let text = table(&json!({ "trajectory": values, "empty": [] }));
        for line in text.lines() {
            assert!(line.chars().count() <= WIDTH, "{line}");
        }
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[0].starts_with("trajectory                   [-1, -1.5, -2.25,"),
            "{text}"
        );
        assert!(lines[1].starts_with(&" ".repeat(30)), "{text}");
        assert!(lines[1].trim_end().ends_with(']'), "{text}");
        assert_eq!(lines[2], format!("{:<28} []", "empty"));
    }

    #[test]
    fn nested_objects_lists_and_tables() {
        let v = json!({"a": 0.1234567891, "o": {"x": 1}, "l": [1, 2], "rows": [{"n": 1, "t": 2.5}]});
        let t = table(&v);
        assert!(t.contains("a                            0.123457"), "{t}");
        assert!(t.contains("o.x"), "{t}");
        assert!(t.contains("[1, 2]"), "{t}");
        assert!(t.contains("rows:\n  n    t\n  1  2.5"), "{t}");
    }
}
