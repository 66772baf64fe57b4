//! Program output shown on the pages, generated and included, never pasted (the Rust
//! book's `output.txt` pattern). Each [`ShownRun`] is one console block of the book:
//! `pbm book` runs it and writes what `pbm run` prints, restricted to the keys the
//! page discusses, to `book/src/output/<name>.txt`; the page includes that file. The
//! files are committed, and a test runs every one again and fails when the code no
//! longer prints what the page shows.

use crate::error::Error;
use crate::figures::write_atomically;
use crate::{chapters, find_exercise};
use pbm_prelim::Chapter;
use serde_json::Value;
use std::path::Path;

/// One console block of the book: a command and the result keys it shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShownRun {
    /// `chapter/exercise`.
    pub id: &'static str,
    /// The `--set` assignments, as typed.
    pub set: &'static [&'static str],
    /// The top-level result keys shown, in the result's order (empty: all of them).
    pub keys: &'static [&'static str],
    /// Keys whose values are wall-clock timings: shown as measured when the book is
    /// built, left out when a test compares the page with the code.
    pub timed: &'static [&'static str],
}

const fn run(id: &'static str, keys: &'static [&'static str]) -> ShownRun {
    ShownRun { id, set: &[], keys, timed: &[] }
}

/// Every console block of the book.
pub const SHOWN: &[ShownRun] = &[
    ShownRun { id: "ode/stability", set: &["h=-1"], keys: &[], timed: &[] },
    ShownRun { id: "implicit/sheet", set: &["n=129"], keys: &[], timed: &[] },
    run(
        "ode/adaptive",
        &[
            "adaptive_evals",
            "accepted_steps",
            "rejected_steps",
            "min_step",
            "max_step",
            "max_error_estimate",
            "final_error",
            "fixed_steps",
            "fixed_evals",
            "fixed_final_error",
            "evals_saved_factor",
        ],
    ),
    run("ode/convergence", &["orders"]),
    run(
        "ode/euler-spiral",
        &[
            "radius_ratio_per_step",
            "expected_ratio",
            "max_ratio_deviation",
            "euler_final_radius",
            "midpoint_final_radius",
            "rk4_final_radius",
        ],
    ),
    ShownRun {
        id: "ode/stability",
        set: &["h=0.25"],
        keys: &[
            "regime",
            "predicted_regime",
            "factor_per_step",
            "trajectory",
            "final_abs_x",
        ],
        timed: &[],
    },
    run("particles/bouncing-ball", &["bounce_height_ratios", "max_ratio_deviation"]),
    ShownRun {
        id: "particles/bouncing-ball",
        set: &["strategy=displace"],
        keys: &["bounce_height_ratios", "max_ratio_deviation"],
        timed: &[],
    },
    run(
        "particles/momentum",
        &[
            "max_momentum_drift",
            "relative_momentum_drift",
            "energy_start",
            "energy_end",
        ],
    ),
    run("particles/spring-from-behavior", &["max_force_difference", "max_force"]),
    ShownRun {
        id: "particles/interaction-scaling",
        set: &[],
        keys: &[
            "threads",
            "rows",
            "grid_n",
            "grid_median_ms",
            "interacting_pairs",
            "pair_interactions_per_second",
        ],
        timed: &[
            "threads",
            "brute_ms",
            "grid_ms",
            "grid_median_ms",
            "pair_interactions_per_second",
        ],
    },
    run(
        "particles/hanging-structure",
        &["tip_height_at_release", "tip_sag_at_end", "max_speed_at_end", "settled"],
    ),
    run(
        "implicit/stiff-blowup",
        &[
            "theory_euler_limit",
            "explicit_euler_max_stable_h",
            "rk4_max_stable_h",
            "rk4_over_euler",
            "implicit_stable",
        ],
    ),
    run(
        "implicit/particle-on-line",
        &[
            "k_needed",
            "theory_max_h",
            "measured_max_h",
            "steps_per_metre_at_1_m_per_s",
        ],
    ),
    run(
        "implicit/one-big-step",
        &["h", "state_after_one_step", "distance_to_origin_after_one_step"],
    ),
    ShownRun { id: "implicit/newton", set: &[], keys: &[], timed: &[] },
    ShownRun { id: "implicit/newton", set: &["h=0.5"], keys: &[], timed: &[] },
    ShownRun { id: "implicit/newton", set: &["below=0.3"], keys: &[], timed: &[] },
    ShownRun {
        id: "implicit/sheet",
        set: &["preconditioner=jacobi"],
        keys: &[
            "explicit_stable",
            "implicit_stable",
            "mean_cg_iterations",
            "ms_per_step",
            "lowest_z_at_end",
        ],
        timed: &["ms_per_step"],
    },
    ShownRun {
        id: "implicit/sheet",
        set: &[],
        keys: &[
            "preconditioner",
            "mean_cg_iterations",
            "ms_per_step",
            "lowest_z_at_end",
        ],
        timed: &["ms_per_step"],
    },
    ShownRun {
        id: "implicit/sheet-sizes",
        set: &[],
        keys: &[],
        timed: &["ms_per_step"],
    },
    ShownRun {
        id: "implicit/sheet-sizes",
        set: &["preconditioner=jacobi"],
        keys: &[],
        timed: &["ms_per_step"],
    },
    run(
        "constraints/drift",
        &["solver", "steps", "max_abs_c_without_feedback", "max_abs_c_with_feedback"],
    ),
    run(
        "constraints/double-pendulum",
        &[
            "steps",
            "max_constraint_error",
            "relative_energy_drift",
            "mean_cg_iterations",
            "max_cg_iterations",
        ],
    ),
    run(
        "constraints/rods-vs-springs",
        &[
            "rod_max_stable_h",
            "spring_max_stable_h",
            "step_ratio",
            "length_error_h",
            "spring_length_error",
            "rod_length_error",
        ],
    ),
    run(
        "constraints/redundant",
        &[
            "solved",
            "max_constraint_error",
            "constraint_rows",
            "jacobian_rank",
            "error",
        ],
    ),
    run("lagrangian/bead", &["steps", "max_radius_error", "relative_energy_drift"]),
    run(
        "lagrangian/compare",
        &["max_distance_first_second", "separation_time", "final_distance"],
    ),
    run(
        "rigid/quat-vs-matrix",
        &["matrix_orthogonality_error", "quaternion_norm_error"],
    ),
    run("rigid/inertia-table", &["rows"]),
    ShownRun {
        id: "collision/sweep-table",
        set: &[],
        keys: &["rows", "fitted_slope"],
        timed: &["sweep_ms", "resort_ms", "brute_ms", "fitted_slope"],
    },
    ShownRun {
        id: "collision/sweep-table",
        set: &["steps=20"],
        keys: &["coherence", "exchange_slope", "change_slope"],
        timed: &[],
    },
    run("collision/separating-plane", &[]),
    run("collision/toi", &[]),
    run("collision/tunnel", &[]),
    run("collision/bvh-fold", &[]),
    run("contact/drop", &[]),
    run("contact/lcp-random", &[]),
    run("contact/incline", &[]),
    run("contact/singular", &[]),
    run("contact/stack", &[]),
    run("contact/turntable", &[]),
    run("contact/seesaw", &[]),
    run("cloth/hair-discretization", &[]),
    run("cloth/gradient-check", &[]),
    ShownRun { id: "cloth/drape", set: &[], keys: &[], timed: &["ms_per_step"] },
    ShownRun {
        id: "cloth/drape",
        set: &["scene=curtain", "curvature=gauss-newton"],
        keys: &[],
        timed: &["ms_per_step"],
    },
    ShownRun {
        id: "cloth/drape",
        set: &["curvature=full"],
        keys: &[],
        timed: &["ms_per_step"],
    },
    run("cloth/over-constraint", &[]),
    run(
        "pbd/stiffness-vs-steps",
        &[
            "expected_extension",
            "pbd_s",
            "xpbd_extension_spread",
            "pbd_extension_spread",
            "slides_update_extension_spread",
        ],
    ),
    run("pbd/compare-lagrange", &[]),
    ShownRun {
        id: "pbd/compare-lagrange",
        set: &["substeps=1", "iterations=20"],
        keys: &[],
        timed: &[],
    },
    run("pbd/chain", &[]),
    ShownRun { id: "pbd/chain", set: &["substeps=80"], keys: &[], timed: &[] },
    run("pbd/drag", &[]),
    run("pbd/sheet-sag", &[]),
    ShownRun { id: "pbd/sheet-sag", set: &["n=40"], keys: &[], timed: &[] },
    ShownRun { id: "pbd/sheet-sag", set: &["n=100"], keys: &[], timed: &[] },
    ShownRun {
        id: "interactive/feeder",
        set: &[],
        keys: &[],
        timed: &["steps_per_second"],
    },
    ShownRun {
        id: "interactive/feeder",
        set: &["seconds=24"],
        keys: &[],
        timed: &["steps_per_second"],
    },
    ShownRun {
        id: "interactive/jam",
        set: &[],
        keys: &[],
        timed: &["steps_per_second"],
    },
    ShownRun {
        id: "interactive/jam",
        set: &["fault=misaligned"],
        keys: &[],
        timed: &["steps_per_second"],
    },
    ShownRun {
        id: "interactive/jam",
        set: &["fault=turned"],
        keys: &[],
        timed: &["steps_per_second"],
    },
    ShownRun {
        id: "interactive/jack",
        set: &[],
        keys: &[],
        timed: &["steps_per_second"],
    },
    ShownRun {
        id: "interactive/jack",
        set: &["swing=0.2"],
        keys: &[],
        timed: &["steps_per_second"],
    },
    ShownRun {
        id: "interactive/pendulum",
        set: &[],
        keys: &[],
        timed: &["steps_per_second"],
    },
    ShownRun {
        id: "interactive/pendulum",
        set: &["order=first"],
        keys: &[],
        timed: &["steps_per_second"],
    },
    ShownRun {
        id: "interactive/pile",
        set: &[],
        keys: &[],
        timed: &["steps_per_second"],
    },
    ShownRun { id: "contact/incline", set: &["world=first"], keys: &[], timed: &[] },
    ShownRun { id: "contact/seesaw", set: &["left_mass=3"], keys: &[], timed: &[] },
    ShownRun {
        id: "rigid/translation-free",
        set: &["f=2"],
        keys: &["torque", "net_force"],
        timed: &[],
    },
    run(
        "rigid/force-torque-puzzle",
        &[
            "kinetic_energy_centred",
            "kinetic_energy_off_centre",
            "kinetic_energy_difference",
            "extra_work",
            "speed_centred",
            "speed_off_centre",
        ],
    ),
    run(
        "rigid/dzhanibekov",
        &[
            "flips",
            "relative_energy_drift",
            "relative_angular_momentum_drift",
            "final_body_omega",
        ],
    ),
];

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

impl ShownRun {
    /// The file the page includes, e.g. `ode-stability--h=0.25.txt`.
    pub fn file_name(&self) -> String {
        let mut name = self.id.replace('/', "-");
        for assignment in self.set {
            name += "--";
            name += assignment;
        }
        name + ".txt"
    }

    /// The command as a reader types it, continued on a second line (a shell's
    /// `\\`) where it would not fit the page's column.
    pub fn command(&self) -> String {
        let mut lines = vec![format!("$ cargo run --release -- run {}", self.id)];
        for assignment in self.set {
            let part = format!(" --set {assignment}");
            let last = lines.len() - 1;
            if lines[last].chars().count() + part.chars().count() + 2 > LISTING_WIDTH
            {
                lines[last].push_str(" \\");
                lines.push(format!("   {part}"));
            } else {
                lines[last].push_str(&part);
            }
        }
        lines.join("\n")
    }

    /// What `pbm run` prints for this command (the table, or the error line),
    /// restricted to the shown keys, with the command on the first line. With
    /// `mask_timings`, the timed values are left out, so that the text is the same on
    /// every run.
    pub fn render(
        &self,
        chapters: &[Chapter],
        mask_timings: bool,
    ) -> Result<String, Error> {
        let (chapter, exercise) = find_exercise(chapters, self.id)?;
        let body = match exercise.run_with(chapter.id, self.set) {
            Ok(value) => crate::report::table(&self.shown(value, mask_timings))
                .lines()
                .map(|l| fit_row(l, LISTING_WIDTH) + "\n")
                .collect(),
            // One line on the console, wrapped here as a terminal would wrap it, so
            // that it fits the page's column.
            Err(e) => wrap(&format!("error: {e}"), LISTING_WIDTH) + "\n",
        };
        Ok(format!("{}\n{body}", self.command()))
    }

    fn shown(&self, value: Value, mask_timings: bool) -> Value {
        let Value::Object(mut map) = value else { return value };
        if !self.keys.is_empty() {
            map.retain(|k, _| self.keys.contains(&k.as_str()));
        }
        let mut value = Value::Object(map);
        if mask_timings {
            mask(&mut value, self.timed);
        }
        value
    }
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

/// Writes the output of every shown run whose file in `dir` is missing or stale. A
/// file that differs only in its timings is left alone, so a rebuild does not churn
/// the committed timings. Returns how many files were written.
pub fn write_outputs(dir: &Path) -> Result<usize, Error> {
    let chapters = chapters();
    let mut written = 0;
    for shown in SHOWN {
        let path = dir.join(shown.file_name());
        if let Ok(committed) = std::fs::read_to_string(&path)
            && shown.is_current(&chapters, &committed)?
        {
            continue;
        }
        let text = shown.render(&chapters, false)?;
        write_atomically(&path, &text)
            .map_err(|source| Error::Write { path, source })?;
        written += 1;
    }
    Ok(written)
}

/// The placeholder a timed value renders as when timings are masked.
const TIMING: &str = "(timing)";

impl ShownRun {
    /// Whether `committed` (the text the page includes) is what the code prints now,
    /// byte for byte. With timed values, they may differ: compared word by word, a
    /// masked timing matches any number.
    pub fn is_current(
        &self,
        chapters: &[Chapter],
        committed: &str,
    ) -> Result<bool, Error> {
        let now = self.render(chapters, true)?;
        if self.timed.is_empty() {
            return Ok(now == committed);
        }
        let (a, b): (Vec<&str>, Vec<&str>) = (
            now.split_whitespace().collect(),
            committed.split_whitespace().collect(),
        );
        Ok(a.len() == b.len()
            && a.iter().zip(&b).all(|(now, then)| {
                now == then || (*now == TIMING && then.parse::<f64>().is_ok())
            }))
    }
}

#[cfg(test)]
mod tests {
    use super::{ShownRun, fit_row, wrap};

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
        let run = ShownRun {
            id: "cloth/drape",
            set: &["scene=curtain", "curvature=gauss-newton", "n=12"],
            keys: &[],
            timed: &[],
        };
        let command = run.command();
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
}
