//! Practice: methods the reader writes, checked by the book's own tests. A chapter
//! registers each [`Task`]: the file the reader starts from (the signature, a doc
//! comment naming the section, a `todo!()` body), hints, the book's answer, and a
//! check that runs the reader's function inside the chapter's code and says, in a
//! teacher's words, what its behaviour shows: an observed order of convergence, a
//! force against the derivative of its energy, an answer on a case with a closed
//! form. A check never compares the reader's code with the book's.

/// One thing to implement.
#[derive(Debug, Clone, Copy)]
pub struct Task {
    /// `chapter/task`, e.g. `ode/rk4`.
    pub id: &'static str,
    /// What the reader writes, in a few words.
    pub title: &'static str,
    /// The section it belongs to, as the book names it.
    pub section: &'static str,
    /// The page to read first, under `book/src`, e.g. `01-ode/runge-kutta.md`.
    pub page: &'static str,
    /// The label of the display it implements on that page (its number is the
    /// book's: `\label{rk4-step}` is shown as (1.9)).
    pub equation: &'static str,
    /// ① ② ③: 1 a few lines from an equation, 2 a method, 3 a method with care.
    pub difficulty: u8,
    /// The file's name in the reader's folder, e.g. `rk4.rs`.
    pub file: &'static str,
    /// The file the reader starts from.
    pub stub: &'static str,
    /// The Rust expression that checks the reader's module `reader` and gives a
    /// [`Report`], e.g. `pbm_ode::practice::check_rk4(reader::rk4_step)`.
    pub check: &'static str,
    /// Hints, one at a time, the gentlest first.
    pub hints: &'static [&'static str],
    /// The book's answer: the same function, as the book writes it.
    pub solution: Listing,
}

/// An anchored region of a source file (`// ANCHOR: name` … `// ANCHOR_END: name`),
/// as the pages include listings.
#[derive(Debug, Clone, Copy)]
pub struct Listing {
    /// The file's text (`include_str!`).
    pub source: &'static str,
    /// The anchor.
    pub anchor: &'static str,
}

impl Listing {
    /// The region's lines, without the marker lines of any anchor; None if the
    /// anchor is not in the file.
    pub fn text(&self) -> Option<String> {
        let start = format!("ANCHOR: {}\n", self.anchor);
        let end = format!("ANCHOR_END: {}", self.anchor);
        let body = &self.source[self.source.find(&start)? + start.len()..];
        let region = &body[..body.find(&end)?];
        let mut lines: Vec<&str> =
            region.lines().filter(|l| !l.contains("ANCHOR")).collect();
        // The end marker's own `// ` stays behind the region.
        while lines.last().is_some_and(|l| matches!(l.trim(), "" | "//")) {
            lines.pop();
        }
        Some(lines.join("\n").trim_end().to_string() + "\n")
    }
}

/// The test that the book's answers pass their tasks' checks: each `name => check`
/// compiles the answer `practice/<name>_solution.rs` beside the chapter's
/// `practice.rs` (the file [`Task::solution`] shows) as the module `name`, and the
/// test requires `check`, a [`Report`] of a function of that module, to pass.
#[macro_export]
macro_rules! answers {
    ($($name:ident => $check:expr),* $(,)?) => {
        $(
            mod $name {
                include!(concat!("practice/", stringify!($name), "_solution.rs"));
            }
        )*

        #[test]
        fn the_given_solutions_pass_their_checks() {
            $($check.assert_passed();)*
        }
    };
}

/// What a check found: a verdict and what a teacher would say, line by line.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Whether every check passed.
    pub passed: bool,
    /// What was measured and, for a failure, what to look at.
    pub lines: Vec<String>,
}

impl Report {
    /// A pass, with the measured figures.
    pub fn pass(lines: Vec<String>) -> Report {
        Report { passed: true, lines }
    }

    /// A failure, with the diagnosis.
    pub fn fail(line: impl Into<String>) -> Report {
        Report { passed: false, lines: vec![line.into()] }
    }

    /// A failure of several properties at once, one diagnosis a line, so the reader
    /// sees everything that is wrong in one check.
    pub fn fail_all(lines: Vec<String>) -> Report {
        Report { passed: false, lines }
    }

    /// For a test: panics, showing the report, unless it passed.
    #[track_caller]
    pub fn assert_passed(&self) {
        assert!(self.passed, "{self:?}");
    }

    /// For a test of a mutant: panics, showing the report, unless it failed with
    /// a line that contains `diagnosis`.
    #[track_caller]
    pub fn assert_fails_with(&self, diagnosis: &str) {
        let said = self.lines.iter().any(|l| l.contains(diagnosis));
        assert!(!self.passed && said, "{diagnosis}: {self:?}");
    }
}

thread_local! {
    static CASE: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Names the case a check is about to try (“a fixed body”, “h = 0.05”), so that a
/// panic in the reader's code is reported with it: `pbm practice check` says
/// “your code panicked … while the check tried a fixed body”.
pub fn case(what: impl Into<String>) {
    let what = what.into();
    CASE.with(|c| *c.borrow_mut() = what);
}

/// The case named last by [`case`] on this thread, if any.
pub fn current_case() -> Option<String> {
    CASE.with(|c| Some(c.borrow().clone()).filter(|s| !s.is_empty()))
}

/// The order p a method's error e(h) ∝ hᵖ shows between two step sizes.
pub fn observed_order(error_h: f64, error_half: f64) -> f64 {
    (error_h / error_half).log2()
}

/// Pseudo-random numbers in [−1, 1) for a check's test states, the same on every
/// run: `sampling::sample(seed)`, `sample(seed + 1)`, … in turn.
pub fn sequence(seed: u64) -> impl FnMut() -> f64 {
    let mut i = seed;
    move || {
        let x = crate::sampling::sample(i);
        i = i.wrapping_add(1);
        x
    }
}

/// One number as a reader writes it: four significant digits, trailing zeros dropped,
/// a true minus sign, and powers of ten (`1.5e−7`) when it is very large or very small:
/// `0.25`, `−1.5`, `9.807`, `2.461e16`, `NaN`, `∞`.
pub fn number(v: f64) -> String {
    if v.is_nan() {
        return "NaN".to_string();
    }
    if v.is_infinite() {
        return if v > 0.0 { "∞" } else { "−∞" }.to_string();
    }
    if v == 0.0 {
        return "0".to_string();
    }
    let trim = |s: String| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    };
    let magnitude = v.abs();
    let text = if (1e-3..1e5).contains(&magnitude) {
        // Four significant digits: as many decimals as the leading digit leaves.
        let decimals = (3 - magnitude.log10().floor() as i32).max(0) as usize;
        trim(format!("{v:.decimals$}"))
    } else {
        let sci = format!("{v:.3e}");
        let (mantissa, exponent) = sci.split_once('e').unwrap_or((&sci, "0"));
        format!("{}e{exponent}", trim(mantissa.to_string()))
    };
    text.replace('-', "−")
}

/// Numbers for a message, as a reader writes a vector: `[0.25, −1.5]`, each by
/// [`number`].
pub fn numbers(values: &[f64]) -> String {
    let shown: Vec<String> = values.iter().map(|&v| number(v)).collect();
    format!("[{}]", shown.join(", "))
}

/// The mark a task's difficulty gets on the page and in the list: ①, ② or ③.
pub fn difficulty_mark(difficulty: u8) -> &'static str {
    match difficulty {
        1 => "①",
        2 => "②",
        _ => "③",
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

    use super::*;

    #[test]
    fn a_listing_is_its_anchored_region_without_markers() {
        const SOURCE: &str = "a\n// ANCHOR: f\nfn f() {\n    // ANCHOR: g\n}\n// ANCHOR_END: g\n// ANCHOR_END: f\n";
        let f = Listing { source: SOURCE, anchor: "f" };
        assert_eq!(f.text().unwrap(), "fn f() {\n}\n");
        assert!(Listing { source: SOURCE, anchor: "h" }.text().is_none());
    }

    #[test]
    fn messages_show_numbers_short_and_sequences_repeat() {
        assert_eq!(
            numbers(&[1.0, -0.000_01, 0.125_04, -2.5, 9.806_65]),
            "[1, −1e−5, 0.125, −2.5, 9.807]"
        );
        assert_eq!(number(24_610_000_000_000_000.0), "2.461e16");
        assert_eq!(number(-1234.567), "−1235");
        assert_eq!(
            (number(0.0), number(f64::NAN), number(f64::NEG_INFINITY)),
            ("0".to_string(), "NaN".to_string(), "−∞".to_string())
        );
        let (mut a, mut b) = (sequence(7), sequence(7));
        let xs: Vec<f64> = (0..5).map(|_| a()).collect();
        assert!(xs.iter().all(|x| (-1.0..1.0).contains(x)));
        assert_eq!(xs, (0..5).map(|_| b()).collect::<Vec<_>>());
        assert_ne!(xs[0], xs[1]);
    }

    #[test]
    fn the_case_named_last_is_the_current_one() {
        assert_eq!(current_case(), None);
        case("a fixed body");
        case("h = 0.05");
        assert_eq!(current_case().as_deref(), Some("h = 0.05"));
    }

    #[test]
    fn the_observed_order_of_a_fourth_order_error_is_four() {
        assert!((observed_order(1.6e-5, 1e-6) - 4.0).abs() < 1e-12);
    }
}
