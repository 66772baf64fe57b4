//! Exercise parameters: each exercise declares its parameters with defaults and
//! allowed ranges; `--set key=value` strings from the command line are checked
//! against those declarations before any physics runs.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::Mutex;

use crate::snapshot::short;

/// What went wrong with a parameter. Every message names what is allowed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ParamError {
    /// A `--set` argument without `=`.
    #[error("expected key=value, got {}; parameters: {allowed}", quoted(.given))]
    Malformed {
        /// The argument given.
        given: String,
        /// The declared names, comma separated.
        allowed: String,
    },
    /// A parameter the exercise does not declare.
    #[error("unknown parameter {} for {exercise}; allowed: {allowed}", quoted(.name))]
    Unknown {
        /// The exercise id.
        exercise: String,
        /// The name given.
        name: String,
        /// The declared names, comma separated.
        allowed: String,
    },
    /// A value that does not parse as the parameter's type.
    #[error(
        "parameter `{name}`: cannot read {} as {expected}; allowed: {allowed}",
        quoted(.value)
    )]
    Unparsable {
        /// The parameter.
        name: String,
        /// The text given.
        value: String,
        /// What was expected, e.g. "a number".
        expected: String,
        /// What the parameter allows.
        allowed: String,
    },
    /// A word that is not one of a choice parameter's options.
    #[error("parameter `{name}`: unknown choice {}; allowed: {allowed}", quoted(.value))]
    UnknownChoice {
        /// The parameter.
        name: String,
        /// The word given.
        value: String,
        /// The options, separated by `|`.
        allowed: String,
    },
    /// A value outside the declared range, or not finite.
    #[error("parameter `{name}` = {} is out of range; allowed: {allowed}", quoted(.value))]
    OutOfRange {
        /// The parameter.
        name: String,
        /// The text given.
        value: String,
        /// The allowed range.
        allowed: String,
    },
    /// A number so close to zero that it reads as 0 (or as a subnormal), which the
    /// range excludes.
    #[error(
        "parameter `{name}` = {} is too close to zero for a 64-bit float ({}); \
         allowed: {allowed}",
        quoted(.value),
        underflow(*.read)
    )]
    Underflow {
        /// The parameter.
        name: String,
        /// The text given.
        value: String,
        /// What it reads as.
        read: f64,
        /// The allowed range.
        allowed: String,
    },
    /// An exercise asked for a parameter it did not declare (a bug in the chapter,
    /// reported rather than panicking).
    #[error("exercise reads undeclared parameter `{0}`")]
    Undeclared(String),
}

/// In a range that starts at an allowed 0, a value closer to zero than this is read
/// as 0. Nothing physical depends on a stiffness or a drag of 1e-300, and a float
/// that small makes the products a hot loop forms with it subnormal, which the
/// processor computes hundreds of times more slowly (a cloth with a bending
/// stiffness of 2.2e-308 took seven times as long as with 1e-4).
pub const NEGLIGIBLE: f64 = 1e-200;

/// `x` as the exercise reads it: 0 if it is [`NEGLIGIBLE`] in a range whose
/// minimum is an allowed 0, else itself.
fn flush(x: f64, min: f64, min_exclusive: bool) -> f64 {
    let zero_allowed = min == 0.0 && !min_exclusive;
    if zero_allowed && x.abs() < NEGLIGIBLE { 0.0 } else { x }
}

/// Longest part of a reader's value an error message repeats.
const QUOTE_CHARS: usize = 40;

/// A value the reader typed, as an error message shows it: in backticks, on one line
/// (control characters escaped), cut to [`QUOTE_CHARS`] characters.
pub fn quoted(text: &str) -> String {
    let mut out = String::from("`");
    let chars = text.chars().count();
    for c in text.chars().take(QUOTE_CHARS) {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out.push('`');
    if chars > QUOTE_CHARS {
        out += &format!(" (cut; {chars} characters)");
    }
    out
}

// ANCHOR: param_kind
/// The type, default and allowed values of one parameter.
#[derive(Debug, Clone, PartialEq)]
pub enum ParamKind {
    /// A finite real number in `[min, max]`, or `(min, max]` when `min_exclusive`.
    Float {
        /// The value the book discusses.
        default: f64,
        /// Lower bound.
        min: f64,
        /// Upper bound (inclusive).
        max: f64,
        /// Whether `min` itself is excluded (a step size must be strictly positive).
        min_exclusive: bool,
    },
    /// A whole number in `[min, max]`.
    Int {
        /// The value the book discusses.
        default: u64,
        /// Lower bound (inclusive).
        min: u64,
        /// Upper bound (inclusive).
        max: u64,
    },
    /// `true` or `false`.
    Bool {
        /// The value the book discusses.
        default: bool,
    },
    /// One of a fixed set of words, each naming a value of an enum (see [`Choice`]).
    Choice {
        /// The value the book discusses.
        default: &'static str,
        /// The allowed words.
        options: Vec<&'static str>,
    },
}
// ANCHOR_END: param_kind

// ANCHOR: choice
/// An enum that a choice parameter selects: every value with the word that names it.
/// Reading the parameter gives the enum value, so a chapter matches on its variants
/// and there is no catch-all arm for a word it forgot.
pub trait Choice: Copy + PartialEq + 'static {
    /// Every value with its word, in the order `pbm list` shows them.
    const OPTIONS: &'static [(&'static str, Self)];

    /// The word that names this value.
    fn word(self) -> &'static str {
        Self::OPTIONS.iter().find(|(_, v)| *v == self).map_or("?", |(w, _)| w)
    }
}
// ANCHOR_END: choice

/// Every value of a [`Choice`], in the order of its words: `N` must be their count
/// (checked when the constant is built), so a list of the values is never written
/// twice.
pub const fn all_choices<T: Choice, const N: usize>() -> [T; N] {
    assert!(T::OPTIONS.len() == N, "N must be the number of the choice's words");
    let mut all = [T::OPTIONS[0].1; N];
    let mut k = 0;
    while k < N {
        all[k] = T::OPTIONS[k].1;
        k += 1;
    }
    all
}

/// One declared parameter of an exercise.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamSpec {
    /// The name used with `--set name=value`, in the exercise's struct, in a demo's
    /// slider and in the result's JSON.
    pub name: &'static str,
    /// One line saying what it means.
    pub help: &'static str,
    /// Its unit, e.g. `s` or `N/m`; empty for a pure number, a count, a flag or a
    /// choice.
    pub unit: &'static str,
    /// A short label for a slider or a table column: the help line unless the
    /// declaration gives a shorter one ([`ParamSpec::label`]).
    pub label: &'static str,
    /// Type, default and range.
    pub kind: ParamKind,
}

/// The smallest float above `x`.
pub fn next_up(x: f64) -> f64 {
    if x == 0.0 {
        f64::from_bits(1)
    } else if x > 0.0 {
        f64::from_bits(x.to_bits() + 1)
    } else {
        f64::from_bits(x.to_bits() - 1)
    }
}

/// `points + 1` evenly spaced values across `spec`'s range as a reader would type
/// them, ends included (every value of a shorter whole-number range; both words of
/// a flag; every choice).
pub fn even_values(spec: &ParamSpec, points: u64) -> Vec<String> {
    match spec.kind.clone() {
        ParamKind::Float { min, max, min_exclusive, .. } => (0..=points)
            .map(|i| {
                let x = min + (max - min) * i as f64 / points as f64;
                let x = if i == 0 && min_exclusive { next_up(min) } else { x };
                format!("{:e}", x.min(max))
            })
            .collect(),
        ParamKind::Int { min, max, .. } if max - min <= points => {
            (min..=max).map(|n| n.to_string()).collect()
        }
        ParamKind::Int { min, max, .. } => (0..=points)
            .map(|i| {
                let step = (max - min) as f64 * i as f64 / points as f64;
                (min + step.round() as u64).min(max).to_string()
            })
            .collect(),
        ParamKind::Bool { .. } => vec!["true".into(), "false".into()],
        ParamKind::Choice { options, .. } => {
            options.iter().map(|o| o.to_string()).collect()
        }
    }
}

/// A parameter's value after validation.
#[derive(Debug, Clone, PartialEq)]
pub enum ParamValue {
    /// A finite real number.
    Float(f64),
    /// A whole number.
    Int(u64),
    /// A boolean.
    Bool(bool),
    /// One of the declared words.
    Choice(&'static str),
}

/// What an underflowing number becomes: 0, or a subnormal that has lost digits.
fn underflow(read: f64) -> String {
    if read == 0.0 {
        "it reads as 0".to_string()
    } else {
        format!(
            "it reads as {}, a subnormal below {} that has lost precision",
            short(read),
            short(f64::MIN_POSITIVE)
        )
    }
}

impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Float(x) => write!(f, "{}", short(*x)),
            ParamValue::Int(n) => write!(f, "{n}"),
            ParamValue::Bool(b) => write!(f, "{b}"),
            ParamValue::Choice(s) => write!(f, "{s}"),
        }
    }
}

impl ParamSpec {
    /// A parameter of `kind` with no unit, labelled by its help line.
    fn plain(name: &'static str, help: &'static str, kind: ParamKind) -> Self {
        ParamSpec { name, help, unit: "", label: help, kind }
    }

    /// A real parameter in `unit` with inclusive bounds.
    pub fn float(
        name: &'static str,
        help: &'static str,
        unit: &'static str,
        default: f64,
        min: f64,
        max: f64,
    ) -> Self {
        let kind = ParamKind::Float { default, min, max, min_exclusive: false };
        ParamSpec { unit, ..ParamSpec::plain(name, help, kind) }
    }

    /// A real parameter in `unit` that must be strictly positive and at most `max`.
    pub fn positive(
        name: &'static str,
        help: &'static str,
        unit: &'static str,
        default: f64,
        max: f64,
    ) -> Self {
        let kind = ParamKind::Float { default, min: 0.0, max, min_exclusive: true };
        ParamSpec { unit, ..ParamSpec::plain(name, help, kind) }
    }

    /// A real parameter in `unit` in `[min, max]`, or in `(0, max]` when `min` is 0:
    /// a step or a duration of zero is no run.
    fn span(
        name: &'static str,
        help: &'static str,
        unit: &'static str,
        [default, min, max]: [f64; 3],
    ) -> Self {
        if min == 0.0 {
            ParamSpec::positive(name, help, unit, default, max)
        } else {
            ParamSpec::float(name, help, unit, default, min, max)
        }
    }

    /// The same real parameter with its minimum allowed: a duration of 0 is the
    /// starting state, which some exercises report.
    pub fn from_zero(self) -> Self {
        match self.kind {
            ParamKind::Float { default, min, max, .. } => ParamSpec {
                kind: ParamKind::Float { default, min, max, min_exclusive: false },
                ..self
            },
            _ => self,
        }
    }

    /// `x` as a reader would type it for this parameter: a whole number for a count,
    /// otherwise a float in the `{:e}` form that reads back exactly.
    pub fn text_of(&self, x: f64) -> String {
        match self.kind {
            ParamKind::Int { .. } => format!("{}", x as u64),
            _ => format!("{x:e}"),
        }
    }

    /// The same parameter with a shorter `label` for sliders and tables.
    pub fn label(self, label: &'static str) -> Self {
        ParamSpec { label, ..self }
    }

    /// The help line with the unit, as `pbm list` prints it: `simulated time (s)`.
    pub fn described(&self) -> String {
        if self.unit.is_empty() {
            self.help.to_string()
        } else {
            format!("{} ({})", self.help, self.unit)
        }
    }

    /// A whole-number parameter with inclusive bounds.
    pub fn int(
        name: &'static str,
        help: &'static str,
        default: u64,
        min: u64,
        max: u64,
    ) -> Self {
        ParamSpec::plain(name, help, ParamKind::Int { default, min, max })
    }

    /// A boolean parameter.
    pub fn boolean(name: &'static str, help: &'static str, default: bool) -> Self {
        ParamSpec::plain(name, help, ParamKind::Bool { default })
    }

    /// A parameter taking one of the values of the enum `T`, by name.
    pub fn choice<T: Choice>(
        name: &'static str,
        help: &'static str,
        default: T,
    ) -> Self {
        let options = T::OPTIONS.iter().map(|(word, _)| *word).collect();
        let kind = ParamKind::Choice { default: default.word(), options };
        ParamSpec::plain(name, help, kind)
    }

    /// The default value.
    pub fn default_value(&self) -> ParamValue {
        match &self.kind {
            ParamKind::Float { default, .. } => ParamValue::Float(*default),
            ParamKind::Int { default, .. } => ParamValue::Int(*default),
            ParamKind::Bool { default } => ParamValue::Bool(*default),
            ParamKind::Choice { default, .. } => ParamValue::Choice(default),
        }
    }

    /// The default as `pbm list` prints it (`h=0.15`'s `0.15`).
    pub fn default_text(&self) -> String {
        self.default_value().to_string()
    }

    /// The parameter as `pbm list --json` prints it: name, help, type, default and
    /// range.
    #[cfg(feature = "book")]
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::json;
        let mut v = match &self.kind {
            ParamKind::Float { default, min, max, min_exclusive } => json!({
                "type": "float", "default": default, "min": min, "max": max,
                "min_exclusive": min_exclusive,
            }),
            ParamKind::Int { default, min, max } => {
                json!({"type": "int", "default": default, "min": min, "max": max})
            }
            ParamKind::Bool { default } => {
                json!({"type": "bool", "default": default})
            }
            ParamKind::Choice { default, options } => {
                json!({"type": "choice", "default": default, "options": options})
            }
        };
        v["name"] = json!(self.name);
        v["help"] = json!(self.described());
        v["unit"] = json!(self.unit);
        v["label"] = json!(self.label);
        v
    }

    /// The parameter as `pbm list` prints it: `--set h=0.15  time step h (s) (a
    /// finite number in (0, 100])`, the assignment padded to `width`.
    pub fn list_line(&self, width: usize) -> String {
        let assignment = format!("{}={}", self.name, self.default_text());
        format!(
            "--set {assignment:<width$}  {} ({})",
            self.described(),
            self.allowed()
        )
    }

    /// The allowed values, as a reader would write them: `(0, 10]`, `1..=1000`,
    /// `true|false`.
    pub fn allowed(&self) -> String {
        match &self.kind {
            ParamKind::Float { min, max, min_exclusive, .. } => {
                let open = if *min_exclusive { '(' } else { '[' };
                format!("a finite number in {open}{}, {}]", short(*min), short(*max))
            }
            ParamKind::Int { min, max, .. } => {
                format!("a whole number in {min}..={max}")
            }
            ParamKind::Bool { .. } => "true|false (or yes|no, 1|0)".to_string(),
            ParamKind::Choice { options, .. } => options.join("|"),
        }
    }

    /// Parses and range-checks `text` as this parameter's value.
    pub fn parse(&self, text: &str) -> Result<ParamValue, ParamError> {
        let text = text.trim();
        let out_of_range = || ParamError::OutOfRange {
            name: self.name.to_string(),
            value: text.to_string(),
            allowed: self.allowed(),
        };
        let unparsable = |expected: &str| ParamError::Unparsable {
            name: self.name.to_string(),
            value: text.to_string(),
            expected: expected.to_string(),
            allowed: self.allowed(),
        };
        match &self.kind {
            ParamKind::Float { min, max, min_exclusive, .. } => {
                let x: f64 = text.parse().map_err(|_| unparsable("a number"))?;
                let above_min = if *min_exclusive { x > *min } else { x >= *min };
                if x.is_finite() && above_min && x <= *max {
                    Ok(ParamValue::Float(flush(x, *min, *min_exclusive)))
                } else if !above_min
                    && x.abs() < f64::MIN_POSITIVE
                    && !is_zero(text)
                    && *min <= 0.0
                    && !text.starts_with('-')
                {
                    // "1e-400" is a positive number to the reader and 0 to a float:
                    // in range for (0, max], which only the float's precision refuses.
                    // Below a range that starts above zero, or negative, it is simply
                    // out of range.
                    Err(ParamError::Underflow {
                        name: self.name.to_string(),
                        value: text.to_string(),
                        read: x,
                        allowed: self.allowed(),
                    })
                } else {
                    Err(out_of_range())
                }
            }
            ParamKind::Int { min, max, .. } => {
                let n: u64 = match text.parse() {
                    Ok(n) => n,
                    // "-3" is a whole number, just not an allowed one.
                    Err(_) if text.parse::<i64>().is_ok() => {
                        return Err(out_of_range());
                    }
                    Err(_) => return Err(unparsable("a whole number")),
                };
                if (*min..=*max).contains(&n) {
                    Ok(ParamValue::Int(n))
                } else {
                    Err(out_of_range())
                }
            }
            ParamKind::Bool { .. } => match text {
                "true" | "yes" | "1" => Ok(ParamValue::Bool(true)),
                "false" | "no" | "0" => Ok(ParamValue::Bool(false)),
                _ => Err(unparsable("true or false")),
            },
            ParamKind::Choice { options, .. } => options
                .iter()
                .find(|o| **o == text)
                .map(|o| ParamValue::Choice(o))
                .ok_or_else(|| ParamError::UnknownChoice {
                    name: self.name.to_string(),
                    value: text.to_string(),
                    allowed: self.allowed(),
                }),
        }
    }
}

/// Whether `text` writes zero itself ("0", "-0.0", "0e5"), not a number that rounds
/// to it.
fn is_zero(text: &str) -> bool {
    let mantissa = text.split(['e', 'E']).next().unwrap_or(text);
    mantissa.chars().all(|c| matches!(c, '0' | '.' | '+' | '-'))
}

/// The validated parameters of one run of an exercise: every declared parameter has a
/// value, either its default or what the reader set. It remembers which parameters
/// the exercise read, so a test can find a declared parameter that does nothing.
#[derive(Debug, Default)]
pub struct Params {
    values: BTreeMap<&'static str, ParamValue>,
    set: Vec<&'static str>,
    read: Mutex<BTreeSet<&'static str>>,
}

impl Clone for Params {
    fn clone(&self) -> Self {
        Params {
            values: self.values.clone(),
            set: self.set.clone(),
            read: Mutex::new(self.read_names()),
        }
    }
}

impl PartialEq for Params {
    /// Two sets of parameters are equal when their values are; what was read is a
    /// record of use, not part of the value.
    fn eq(&self, other: &Self) -> bool {
        self.values == other.values
    }
}

impl Params {
    /// The defaults of `specs`.
    pub fn defaults(specs: &[ParamSpec]) -> Self {
        let values = specs.iter().map(|s| (s.name, s.default_value())).collect();
        Params { values, set: Vec::new(), read: Mutex::new(BTreeSet::new()) }
    }

    fn read_names(&self) -> BTreeSet<&'static str> {
        self.read.lock().map(|set| set.clone()).unwrap_or_default()
    }

    /// The declared parameters that no accessor has read yet, in name order.
    pub fn unread(&self) -> Vec<&'static str> {
        let read = self.read_names();
        self.values.keys().filter(|k| !read.contains(*k)).copied().collect()
    }

    /// Starts from the defaults of `specs` and applies `key=value` assignments in
    /// order. `exercise` names the exercise in error messages.
    pub fn resolve<S: AsRef<str>>(
        exercise: &str,
        specs: &[ParamSpec],
        assignments: &[S],
    ) -> Result<Self, ParamError> {
        let mut params = Params::defaults(specs);
        for assignment in assignments {
            let assignment = assignment.as_ref();
            let names = || {
                if specs.is_empty() {
                    "(this exercise takes no parameters)".to_string()
                } else {
                    specs.iter().map(|s| s.name).collect::<Vec<_>>().join(", ")
                }
            };
            let (key, value) =
                assignment.split_once('=').ok_or_else(|| ParamError::Malformed {
                    given: assignment.to_string(),
                    allowed: names(),
                })?;
            let key = key.trim();
            let spec = specs.iter().find(|s| s.name == key).ok_or_else(|| {
                ParamError::Unknown {
                    exercise: exercise.to_string(),
                    name: key.to_string(),
                    allowed: names(),
                }
            })?;
            params.values.insert(spec.name, spec.parse(value)?);
            if !params.set.contains(&spec.name) {
                params.set.push(spec.name);
            }
        }
        Ok(params)
    }

    /// The parameters the reader set, as `key=value` in the order first set, with
    /// the values as validated (`h=0.25`); empty when everything is a default.
    pub fn set_by_reader(&self) -> String {
        self.set
            .iter()
            .filter_map(|name| self.values.get(name).map(|v| format!("{name}={v}")))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn get(&self, name: &str) -> Result<&ParamValue, ParamError> {
        let (key, value) = self
            .values
            .get_key_value(name)
            .ok_or_else(|| ParamError::Undeclared(name.to_string()))?;
        if let Ok(mut read) = self.read.lock() {
            read.insert(key);
        }
        Ok(value)
    }

    /// A real parameter.
    pub fn f64(&self, name: &str) -> Result<f64, ParamError> {
        match self.get(name)? {
            ParamValue::Float(x) => Ok(*x),
            _ => Err(ParamError::Undeclared(name.to_string())),
        }
    }

    /// A whole-number parameter, as a count.
    pub fn usize(&self, name: &str) -> Result<usize, ParamError> {
        match self.get(name)? {
            ParamValue::Int(n) => {
                usize::try_from(*n).map_err(|_| ParamError::OutOfRange {
                    name: name.to_string(),
                    value: n.to_string(),
                    allowed: format!("at most {}", usize::MAX),
                })
            }
            _ => Err(ParamError::Undeclared(name.to_string())),
        }
    }

    /// A boolean parameter.
    pub fn bool(&self, name: &str) -> Result<bool, ParamError> {
        match self.get(name)? {
            ParamValue::Bool(b) => Ok(*b),
            _ => Err(ParamError::Undeclared(name.to_string())),
        }
    }

    /// A choice parameter, as the enum value its word names.
    pub fn choice<T: Choice>(&self, name: &str) -> Result<T, ParamError> {
        let ParamValue::Choice(word) = self.get(name)? else {
            return Err(ParamError::Undeclared(name.to_string()));
        };
        T::OPTIONS.iter().find(|(w, _)| w == word).map(|(_, v)| *v).ok_or_else(|| {
            ParamError::UnknownChoice {
                name: name.to_string(),
                value: word.to_string(),
                allowed: T::OPTIONS
                    .iter()
                    .map(|(w, _)| *w)
                    .collect::<Vec<_>>()
                    .join("|"),
            }
        })
    }

    /// Every parameter with its value, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &ParamValue)> {
        self.values.iter().map(|(k, v)| (*k, v))
    }
}

/// A struct of an exercise's parameters, read once from the validated [`Params`]:
/// the exercise's function takes the struct, so every parameter is named where it is
/// declared and a typo is a compile error. Write it with [`params!`](crate::params!).
pub trait ParamSet: Sized {
    /// The declared parameters, in the struct's order.
    fn specs() -> Vec<ParamSpec>;
    /// Every field, read from `params` (each is declared, so this fails only on a
    /// chapter's bug).
    fn read(params: &Params) -> Result<Self, ParamError>;
}

/// A type a parameter's value is read as: a real number, a count, a flag or an enum
/// a choice selects.
pub trait FromParam: Sized {
    /// Reads parameter `name`.
    fn from_param(params: &Params, name: &str) -> Result<Self, ParamError>;
}

impl FromParam for f64 {
    fn from_param(params: &Params, name: &str) -> Result<Self, ParamError> {
        params.f64(name)
    }
}

impl FromParam for usize {
    fn from_param(params: &Params, name: &str) -> Result<Self, ParamError> {
        params.usize(name)
    }
}

impl FromParam for bool {
    fn from_param(params: &Params, name: &str) -> Result<Self, ParamError> {
        params.bool(name)
    }
}

impl<T: Choice> FromParam for T {
    fn from_param(params: &Params, name: &str) -> Result<Self, ParamError> {
        params.choice(name)
    }
}

/// The parameters with no parameters.
impl ParamSet for () {
    fn specs() -> Vec<ParamSpec> {
        Vec::new()
    }

    fn read(_: &Params) -> Result<Self, ParamError> {
        Ok(())
    }
}

/// Declares an exercise's parameters as a struct: each field with its type, the
/// [`ParamSpec`] constructor that declares it (name left out: it is the field's),
/// its help line, default and range.
///
/// ```
/// pbm_prelim::params! {
///     /// The parameters of `ode/stability`.
///     pub struct Stability {
///         k: f64 = float("decay rate", "1/s", 10.0, 1e-6, 1e6),
///         h: f64 = step(0.15, 0.0, 100.0),
///         steps: usize = int("number of steps", 20, 1, 100_000),
///     }
/// }
/// use pbm_prelim::params::ParamSet;
/// let p = Stability::read(&pbm_prelim::Params::defaults(&Stability::specs()));
/// assert_eq!(p.map(|p| (p.k, p.h, p.steps)), Ok((10.0, 0.15, 20)));
/// ```
///
/// A struct may start with `..group: Group,`: the parameters another `params!` struct
/// declares, read into the field `group` and listed first, so that exercises that
/// watch the same scene declare its parameters once.
#[macro_export]
macro_rules! params {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $(.. $group:ident : $gty:ty,)?
            $(
                $field:ident : $ty:ty = $kind:ident ( $($arg:expr),* $(,)? )
                $(. $method:ident ( $($marg:expr),* ))*
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq)]
        $vis struct $name {
            $(
                #[doc = concat!("The parameters of [`", stringify!($gty), "`].")]
                pub $group: $gty,
            )?
            $(
                #[doc = concat!("`", stringify!($field), "`: see `pbm list`.")]
                pub $field: $ty,
            )*
        }

        impl $crate::params::ParamSet for $name {
            fn specs() -> ::std::vec::Vec<$crate::ParamSpec> {
                let mut specs = ::std::vec::Vec::new();
                $(specs.extend(<$gty as $crate::params::ParamSet>::specs());)?
                specs.extend([$(
                    $crate::ParamSpec::$kind(stringify!($field), $($arg),*)
                        $(.$method($($marg),*))*
                ),*]);
                specs
            }

            fn read(params: &$crate::Params) -> ::std::result::Result<Self, $crate::ParamError> {
                ::std::result::Result::Ok($name {
                    $($group: <$gty as $crate::params::ParamSet>::read(params)?,)?
                    $($field: $crate::params::FromParam::from_param(params, stringify!($field))?,)*
                })
            }
        }
    };
}

/// A quantity many exercises and demos share, declared once: what it is, its unit and
/// the short label a slider or a table shows. The shared specs below and a demo's
/// slider ([`crate::demo::Param::of`]) both take theirs from here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quantity {
    /// One line saying what it is.
    pub help: &'static str,
    /// Its unit; empty for a pure number or a count.
    pub unit: &'static str,
    /// The short label of a slider or a column.
    pub label: &'static str,
}

impl Quantity {
    /// The time step h.
    pub const STEP: Quantity =
        Quantity { help: "time step h", unit: "s", label: "step h" };
    /// How long to simulate.
    pub const DURATION: Quantity =
        Quantity { help: "simulated time", unit: "s", label: "simulated time" };
    /// A Coulomb friction coefficient μ.
    pub const FRICTION: Quantity =
        Quantity {
            help: "coefficient of friction μ", unit: "", label: "friction μ"
        };
    /// A coefficient of restitution e: the share of the approach speed a collision
    /// gives back.
    pub const RESTITUTION: Quantity = Quantity {
        help: "coefficient of restitution e",
        unit: "",
        label: "restitution e",
    };
    /// The contact tolerance ε: how close counts as touching.
    pub const EPSILON: Quantity = Quantity {
        help: "contact tolerance ε",
        unit: "m",
        label: "contact tolerance ε",
    };
    /// Simulation steps per 60 Hz frame of a live demo.
    pub const SUBSTEPS: Quantity = Quantity {
        help: "steps per 60 Hz frame",
        unit: "",
        label: "substeps per frame",
    };
}

/// The quantities many exercises share ([`Quantity`]), each with its default and range.
/// A `min` of 0 for a step, a duration or a tolerance means strictly positive.
impl ParamSpec {
    /// A real parameter measuring `quantity`, in `[default, min, max]`.
    fn quantity(name: &'static str, quantity: Quantity, range: [f64; 3]) -> Self {
        ParamSpec::span(name, quantity.help, quantity.unit, range)
            .label(quantity.label)
    }

    /// The time step `h`, in seconds.
    pub fn step(name: &'static str, default: f64, min: f64, max: f64) -> Self {
        ParamSpec::quantity(name, Quantity::STEP, [default, min, max])
    }

    /// How long to simulate (`t_end`), in seconds.
    pub fn duration(name: &'static str, default: f64, min: f64, max: f64) -> Self {
        ParamSpec::quantity(name, Quantity::DURATION, [default, min, max])
    }

    /// A Coulomb friction coefficient μ (0 allowed).
    pub fn friction(name: &'static str, default: f64, min: f64, max: f64) -> Self {
        ParamSpec::quantity(name, Quantity::FRICTION, [default, min, max]).from_zero()
    }

    /// A coefficient of restitution e (0 allowed).
    pub fn restitution(name: &'static str, default: f64, min: f64, max: f64) -> Self {
        ParamSpec::quantity(name, Quantity::RESTITUTION, [default, min, max])
            .from_zero()
    }

    /// The contact tolerance ε, in metres.
    pub fn epsilon(name: &'static str, default: f64, min: f64, max: f64) -> Self {
        ParamSpec::quantity(name, Quantity::EPSILON, [default, min, max])
    }

    /// Simulation steps per 60 Hz frame of a live demo.
    pub fn substeps(name: &'static str, default: u64, min: u64, max: u64) -> Self {
        let q = Quantity::SUBSTEPS;
        ParamSpec::int(name, q.help, default, min, max).label(q.label)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, Copy, PartialEq)]
    enum Method {
        Euler,
        Rk4,
    }

    impl Choice for Method {
        const OPTIONS: &'static [(&'static str, Self)] =
            &[("euler", Method::Euler), ("rk4", Method::Rk4)];
    }

    fn specs() -> Vec<ParamSpec> {
        vec![
            ParamSpec::positive("h", "step", "s", 0.1, 10.0),
            ParamSpec::int("steps", "number of steps", 100, 1, 1_000_000),
            ParamSpec::boolean("feedback", "use feedback", false),
            ParamSpec::choice("method", "solver", Method::Euler),
        ]
    }

    #[test]
    fn all_choices_lists_the_values_in_the_order_of_their_words() {
        #[derive(Debug, Clone, Copy, PartialEq)]
        enum Shade {
            Light,
            Dark,
            Grey,
        }
        impl Choice for Shade {
            const OPTIONS: &'static [(&'static str, Self)] = &[
                ("dark", Shade::Dark),
                ("grey", Shade::Grey),
                ("light", Shade::Light),
            ];
        }
        const ALL: [Shade; 3] = all_choices();
        assert_eq!(ALL, [Shade::Dark, Shade::Grey, Shade::Light]);
        assert_eq!(ALL.map(Choice::word), ["dark", "grey", "light"]);
    }

    #[test]
    fn defaults_and_overrides() {
        let p = Params::resolve(
            "x/y",
            &specs(),
            &["h=0.25", "method=rk4", "feedback=true"],
        )
        .unwrap();
        assert_eq!(p.f64("h").unwrap(), 0.25);
        assert_eq!(p.usize("steps").unwrap(), 100);
        assert!(p.bool("feedback").unwrap());
        assert_eq!(p.choice::<Method>("method").unwrap(), Method::Rk4);
        assert_eq!(Method::Rk4.word(), "rk4");
    }

    #[test]
    fn a_negligible_value_is_read_as_zero_where_zero_is_allowed() {
        let specs = [
            ParamSpec::float("bend", "stiffness", "", 1e-4, 0.0, 1.0),
            ParamSpec::positive("h", "step", "s", 0.1, 10.0),
        ];
        let read = |arg: &str| {
            let p = Params::resolve("x/y", &specs, &[arg]).unwrap();
            let name = arg.split('=').next().unwrap();
            p.f64(name).unwrap()
        };
        // The smallest normal float, and a value just under the threshold, are 0;
        // at the threshold and above they are themselves.
        assert_eq!(read("bend=2.2250738585072014e-308"), 0.0);
        assert_eq!(read("bend=5e-324"), 0.0);
        assert_eq!(read("bend=9.9e-201"), 0.0);
        assert_eq!(read("bend=1e-200"), 1e-200);
        assert_eq!(read("bend=1e-12"), 1e-12);
        // Where 0 is not allowed, a tiny value stays what it is (and the exercise's
        // budget judges it).
        assert_eq!(read("h=1e-300"), 1e-300);
    }

    #[test]
    fn parameters_remember_being_read() {
        let p = Params::defaults(&specs());
        assert_eq!(p.unread(), ["feedback", "h", "method", "steps"]);
        p.f64("h").unwrap();
        p.choice::<Method>("method").unwrap();
        assert_eq!(p.unread(), ["feedback", "steps"]);
        assert_eq!(p.clone().unread(), ["feedback", "steps"]);
    }

    #[test]
    fn bad_values_are_errors_naming_what_is_allowed() {
        let cases: [(&str, &str); 8] = [
            ("h=0", "(0, 10]"),
            ("h=-1", "(0, 10]"),
            ("h=NaN", "(0, 10]"),
            ("h=inf", "(0, 10]"),
            ("h=abc", "a number"),
            ("steps=0", "1..=1000000"),
            ("steps=-3", "1..=1000000"),
            ("method=rk5", "unknown choice `rk5`; allowed: euler|rk4"),
        ];
        for (arg, needle) in cases {
            let err = Params::resolve("x/y", &specs(), &[arg]).unwrap_err();
            assert!(err.to_string().contains(needle), "{arg}: {err}");
        }
        let err = Params::resolve("x/y", &specs(), &["k=3"]).unwrap_err();
        assert!(err.to_string().contains("h, steps, feedback, method"), "{err}");
        let err = Params::resolve("x/y", &specs(), &["h"]).unwrap_err();
        assert!(matches!(err, ParamError::Malformed { .. }), "{err}");
        assert!(
            err.to_string().contains("parameters: h, steps, feedback, method"),
            "{err}"
        );
        // A value that does not parse names the range too.
        let err =
            Params::resolve("x/y", &specs(), &["h=0x10"]).unwrap_err().to_string();
        assert!(
            err.contains("cannot read `0x10` as a number; allowed: a finite"),
            "{err}"
        );
    }

    #[test]
    fn messages_quote_the_readers_value_on_one_line_and_cut_it_short() {
        let long = format!("h={}", "9".repeat(100_000));
        let err = Params::resolve("x/y", &specs(), &[long]).unwrap_err().to_string();
        assert!(err.len() < 200 && err.contains("(cut; 100000 characters)"), "{err}");
        let err =
            Params::resolve("x/y", &specs(), &["h=1\n2"]).unwrap_err().to_string();
        assert!(!err.contains('\n') && err.contains("`1\\n2`"), "{err}");
        let err = Params::resolve("x/y", &specs(), &["method=RK4"])
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown choice `RK4`; allowed: euler|rk4"), "{err}");
    }

    #[test]
    fn a_number_that_underflows_says_so() {
        let err = Params::resolve("x/y", &specs(), &["h=1e-400"]).unwrap_err();
        assert!(matches!(err, ParamError::Underflow { read: 0.0, .. }), "{err}");
        assert!(err.to_string().contains("too close to zero"), "{err}");
        // Below a range, or negative, a tiny number is out of range whatever its
        // precision.
        let err = Params::resolve("x/y", &specs(), &["h=-5e-324"]).unwrap_err();
        assert!(matches!(err, ParamError::OutOfRange { .. }), "{err}");
        // Zero written as zero is out of range, not an underflow.
        for zero in ["0", "0.0", "-0", "0e-500"] {
            let err = Params::resolve("x/y", &specs(), &[format!("h={zero}")]);
            assert!(matches!(err, Err(ParamError::OutOfRange { .. })), "{zero}");
        }
    }

    #[test]
    fn the_reader_set_values_are_remembered_in_order() {
        let p = Params::resolve("x/y", &specs(), &["steps=3", "h=0.5", "steps=4"])
            .unwrap();
        assert_eq!(p.set_by_reader(), "steps=4 h=0.5");
        assert_eq!(Params::defaults(&specs()).set_by_reader(), "");
    }

    #[test]
    fn reading_an_undeclared_parameter_is_an_error() {
        let p = Params::defaults(&specs());
        assert!(matches!(p.f64("k"), Err(ParamError::Undeclared(_))));
        assert!(matches!(p.f64("steps"), Err(ParamError::Undeclared(_))));
    }
}
