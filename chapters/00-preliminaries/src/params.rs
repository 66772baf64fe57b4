//! Exercise parameters: each exercise declares its parameters with defaults and allowed ranges;
//! `--set key=value` strings from the command line are checked against those declarations before
//! any physics runs.

use std::collections::BTreeMap;
use std::fmt;

/// What went wrong with a parameter. Every message names what is allowed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ParamError {
    /// A `--set` argument without `=`.
    #[error("expected key=value, got `{0}`")]
    Malformed(String),
    /// A parameter the exercise does not declare.
    #[error("unknown parameter `{name}` for {exercise}; allowed: {allowed}")]
    Unknown {
        /// The exercise id.
        exercise: String,
        /// The name given.
        name: String,
        /// The declared names, comma separated.
        allowed: String,
    },
    /// A value that does not parse as the parameter's type.
    #[error("parameter `{name}`: cannot read `{value}` as {expected}")]
    Unparsable {
        /// The parameter.
        name: String,
        /// The text given.
        value: String,
        /// What was expected, e.g. "a number".
        expected: String,
    },
    /// A value outside the declared range, or not finite.
    #[error("parameter `{name}` = {value} is out of range; allowed: {allowed}")]
    OutOfRange {
        /// The parameter.
        name: String,
        /// The text given.
        value: String,
        /// The allowed range.
        allowed: String,
    },
    /// An exercise asked for a parameter it did not declare (a bug in the chapter, reported
    /// rather than panicking).
    #[error("exercise reads undeclared parameter `{0}`")]
    Undeclared(String),
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
    /// One of a fixed set of words.
    Choice {
        /// The value the book discusses.
        default: &'static str,
        /// The allowed words.
        options: &'static [&'static str],
    },
}
// ANCHOR_END: param_kind

/// One declared parameter of an exercise.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamSpec {
    /// The name used with `--set name=value`.
    pub name: &'static str,
    /// One line saying what it means, with units.
    pub help: &'static str,
    /// Type, default and range.
    pub kind: ParamKind,
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

impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Float(x) => write!(f, "{x}"),
            ParamValue::Int(n) => write!(f, "{n}"),
            ParamValue::Bool(b) => write!(f, "{b}"),
            ParamValue::Choice(s) => write!(f, "{s}"),
        }
    }
}

impl ParamSpec {
    /// A real parameter with inclusive bounds.
    pub fn float(
        name: &'static str,
        help: &'static str,
        default: f64,
        min: f64,
        max: f64,
    ) -> Self {
        let kind = ParamKind::Float { default, min, max, min_exclusive: false };
        ParamSpec { name, help, kind }
    }

    /// A real parameter that must be strictly positive and at most `max`.
    pub fn positive(
        name: &'static str,
        help: &'static str,
        default: f64,
        max: f64,
    ) -> Self {
        let kind = ParamKind::Float { default, min: 0.0, max, min_exclusive: true };
        ParamSpec { name, help, kind }
    }

    /// A whole-number parameter with inclusive bounds.
    pub fn int(
        name: &'static str,
        help: &'static str,
        default: u64,
        min: u64,
        max: u64,
    ) -> Self {
        let kind = ParamKind::Int { default, min, max };
        ParamSpec { name, help, kind }
    }

    /// A boolean parameter.
    pub fn boolean(name: &'static str, help: &'static str, default: bool) -> Self {
        let kind = ParamKind::Bool { default };
        ParamSpec { name, help, kind }
    }

    /// A parameter taking one of `options`.
    pub fn choice(
        name: &'static str,
        help: &'static str,
        default: &'static str,
        options: &'static [&'static str],
    ) -> Self {
        let kind = ParamKind::Choice { default, options };
        ParamSpec { name, help, kind }
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

    /// The allowed values, as a reader would write them: `(0, 10]`, `1..=1000`, `true|false`.
    pub fn allowed(&self) -> String {
        match &self.kind {
            ParamKind::Float { min, max, min_exclusive, .. } => {
                let open = if *min_exclusive { '(' } else { '[' };
                format!("a finite number in {open}{min}, {max}]")
            }
            ParamKind::Int { min, max, .. } => format!("a whole number in {min}..={max}"),
            ParamKind::Bool { .. } => "true|false".to_string(),
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
        };
        match &self.kind {
            ParamKind::Float { min, max, min_exclusive, .. } => {
                let x: f64 = text.parse().map_err(|_| unparsable("a number"))?;
                let above_min = if *min_exclusive { x > *min } else { x >= *min };
                if x.is_finite() && above_min && x <= *max {
                    Ok(ParamValue::Float(x))
                } else {
                    Err(out_of_range())
                }
            }
            ParamKind::Int { min, max, .. } => {
                let n: u64 = match text.parse() {
                    Ok(n) => n,
                    // "-3" is a whole number, just not an allowed one.
                    Err(_) if text.parse::<i64>().is_ok() => return Err(out_of_range()),
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
                .ok_or_else(out_of_range),
        }
    }
}

/// The validated parameters of one run of an exercise: every declared parameter has a value,
/// either its default or what the reader set.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Params {
    values: BTreeMap<&'static str, ParamValue>,
}

impl Params {
    /// The defaults of `specs`.
    pub fn defaults(specs: &[ParamSpec]) -> Self {
        let values = specs.iter().map(|s| (s.name, s.default_value())).collect();
        Params { values }
    }

    /// Starts from the defaults of `specs` and applies `key=value` assignments in order.
    /// `exercise` names the exercise in error messages.
    pub fn resolve<S: AsRef<str>>(
        exercise: &str,
        specs: &[ParamSpec],
        assignments: &[S],
    ) -> Result<Self, ParamError> {
        let mut params = Params::defaults(specs);
        for assignment in assignments {
            let assignment = assignment.as_ref();
            let (key, value) = assignment
                .split_once('=')
                .ok_or_else(|| ParamError::Malformed(assignment.to_string()))?;
            let key = key.trim();
            let spec = specs.iter().find(|s| s.name == key).ok_or_else(|| {
                ParamError::Unknown {
                    exercise: exercise.to_string(),
                    name: key.to_string(),
                    allowed: if specs.is_empty() {
                        "(this exercise takes no parameters)".to_string()
                    } else {
                        specs.iter().map(|s| s.name).collect::<Vec<_>>().join(", ")
                    },
                }
            })?;
            params.values.insert(spec.name, spec.parse(value)?);
        }
        Ok(params)
    }

    fn get(&self, name: &str) -> Result<&ParamValue, ParamError> {
        self.values.get(name).ok_or_else(|| ParamError::Undeclared(name.to_string()))
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
            ParamValue::Int(n) => usize::try_from(*n).map_err(|_| ParamError::OutOfRange {
                name: name.to_string(),
                value: n.to_string(),
                allowed: format!("at most {}", usize::MAX),
            }),
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

    /// A choice parameter.
    pub fn choice(&self, name: &str) -> Result<&'static str, ParamError> {
        match self.get(name)? {
            ParamValue::Choice(s) => Ok(s),
            _ => Err(ParamError::Undeclared(name.to_string())),
        }
    }

    /// Every parameter with its value, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &ParamValue)> {
        self.values.iter().map(|(k, v)| (*k, v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn specs() -> Vec<ParamSpec> {
        vec![
            ParamSpec::positive("h", "step (s)", 0.1, 10.0),
            ParamSpec::int("steps", "number of steps", 100, 1, 1_000_000),
            ParamSpec::boolean("feedback", "use feedback", false),
            ParamSpec::choice("method", "solver", "euler", &["euler", "rk4"]),
        ]
    }

    #[test]
    fn defaults_and_overrides() {
        let p =
            Params::resolve("x/y", &specs(), &["h=0.25", "method=rk4", "feedback=true"])
                .unwrap();
        assert_eq!(p.f64("h").unwrap(), 0.25);
        assert_eq!(p.usize("steps").unwrap(), 100);
        assert!(p.bool("feedback").unwrap());
        assert_eq!(p.choice("method").unwrap(), "rk4");
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
            ("method=rk5", "euler|rk4"),
        ];
        for (arg, needle) in cases {
            let err = Params::resolve("x/y", &specs(), &[arg]).unwrap_err();
            assert!(err.to_string().contains(needle), "{arg}: {err}");
        }
        let err = Params::resolve("x/y", &specs(), &["k=3"]).unwrap_err();
        assert!(err.to_string().contains("h, steps, feedback, method"), "{err}");
        let err = Params::resolve("x/y", &specs(), &["h"]).unwrap_err();
        assert_eq!(err, ParamError::Malformed("h".into()));
    }

    #[test]
    fn reading_an_undeclared_parameter_is_an_error() {
        let p = Params::defaults(&specs());
        assert!(matches!(p.f64("k"), Err(ParamError::Undeclared(_))));
        assert!(matches!(p.f64("steps"), Err(ParamError::Undeclared(_))));
    }
}
