//! What a live demo is: parameters with units and ranges, numbers it reports, and a
//! picture it draws, over a simulation that advances one 60 Hz frame at a time.

use crate::PbmError;

/// A slider (or, with `choices`, a menu) of a demo.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Param {
    /// The name the CLI exercise uses for the same quantity, e.g. `h`.
    pub name: &'static str,
    /// What it is, for the label.
    pub label: &'static str,
    /// Its unit, e.g. `s`; empty for a pure number or a choice.
    pub unit: &'static str,
    /// Its value when the demo opens.
    pub default: f64,
    /// The smallest value the slider reaches.
    pub min: f64,
    /// The largest value the slider reaches.
    pub max: f64,
    /// Whether the slider moves in equal ratios rather than equal steps.
    pub log: bool,
    /// Whether only whole numbers are allowed (a count).
    pub whole: bool,
    /// The options of a menu, their index being the value; empty for a slider.
    pub choices: &'static [&'static str],
}

impl Param {
    /// A slider moving in equal steps.
    pub const fn linear(
        name: &'static str,
        label: &'static str,
        unit: &'static str,
        [default, min, max]: [f64; 3],
    ) -> Param {
        Param {
            name,
            label,
            unit,
            default,
            min,
            max,
            log: false,
            whole: false,
            choices: &[],
        }
    }

    /// A slider of whole numbers.
    pub const fn count(
        name: &'static str,
        label: &'static str,
        [default, min, max]: [f64; 3],
    ) -> Param {
        Param { whole: true, ..Param::linear(name, label, "", [default, min, max]) }
    }

    /// A slider moving in equal ratios.
    pub const fn log(
        name: &'static str,
        label: &'static str,
        unit: &'static str,
        [default, min, max]: [f64; 3],
    ) -> Param {
        Param { log: true, ..Param::linear(name, label, unit, [default, min, max]) }
    }

    /// A menu of `choices`, the first one chosen when the demo opens.
    pub const fn choice(
        name: &'static str,
        label: &'static str,
        choices: &'static [&'static str],
    ) -> Param {
        let max = choices.len() as f64 - 1.0;
        Param { choices, ..Param::count(name, label, [0.0, 0.0, max]) }
    }

    /// `value` if it lies in the range (a whole index for a menu), else a clear error.
    pub fn check(&self, value: f64) -> Result<f64, PbmError> {
        let whole = !self.whole || value.fract() == 0.0;
        if value.is_finite() && value >= self.min && value <= self.max && whole {
            Ok(value)
        } else {
            Err(PbmError::invalid(
                "demo parameter",
                format!(
                    "{} = {value} is outside [{}, {}]",
                    self.name, self.min, self.max
                ),
            ))
        }
    }
}

/// A number a demo prints live.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Readout {
    /// What it is.
    pub label: &'static str,
    /// Its unit; empty for a pure number.
    pub unit: &'static str,
    /// The colour of what it measures in the picture, if it has one: the readout's
    /// label is then that colour, a legend.
    pub ink: Option<Ink>,
}

impl Readout {
    /// A number with no colour in the picture.
    pub const fn plain(label: &'static str, unit: &'static str) -> Readout {
        Readout { label, unit, ink: None }
    }

    /// A number about what the picture draws in `ink`.
    pub const fn inked(label: &'static str, unit: &'static str, ink: Ink) -> Readout {
        Readout { label, unit, ink: Some(ink) }
    }
}

/// What a demo plots beside its picture, as the run goes on: readouts against a
/// readout that grows with time (the simulated time, or the step count).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plot {
    /// The readout along the horizontal axis.
    pub x: usize,
    /// The readouts plotted against it, each in its readout's ink.
    pub ys: &'static [usize],
    /// Whether the vertical axis is logarithmic (for errors that span decades).
    pub log: bool,
}

impl Plot {
    /// Readouts `ys` against readout `x`, on a linear scale.
    pub const fn over(x: usize, ys: &'static [usize]) -> Plot {
        Plot { x, ys, log: false }
    }

    /// The same on a logarithmic vertical axis.
    pub const fn log(self) -> Plot {
        Plot { log: true, ..self }
    }
}

/// The colours a drawing may use; the page maps them to its theme's colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Ink {
    /// Text and axes.
    Foreground = 0,
    /// Guides and references: faint.
    Muted = 1,
    /// The first series.
    First = 2,
    /// The second series.
    Second = 3,
    /// The third series.
    Third = 4,
}

/// A picture as a flat list of numbers, in world units, that the page's loader
/// draws: each primitive is an opcode, an [`Ink`] and its numbers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Drawing {
    /// The encoded primitives.
    pub data: Vec<f64>,
}

impl Drawing {
    /// Opcode of an open polyline: count, then x, y pairs.
    pub const POLYLINE: f64 = 1.0;
    /// Opcode of a filled disc: x, y, radius in CSS pixels.
    pub const DISC: f64 = 2.0;
    /// Opcode of a closed, filled polygon: count, then x, y pairs.
    pub const POLYGON: f64 = 3.0;
    /// Opcode of a label: x, y (its left end, on its baseline), count, then the
    /// text's Unicode code points.
    pub const TEXT: f64 = 4.0;

    /// Starts a new picture.
    pub fn clear(&mut self) {
        self.data.clear();
    }

    /// An open polyline through `points`.
    pub fn polyline(
        &mut self,
        ink: Ink,
        points: impl ExactSizeIterator<Item = [f64; 2]>,
    ) {
        self.data.extend([Self::POLYLINE, ink as u8 as f64, points.len() as f64]);
        self.data.extend(points.flatten());
    }

    /// A filled polygon with corners `points`.
    pub fn polygon(
        &mut self,
        ink: Ink,
        points: impl ExactSizeIterator<Item = [f64; 2]>,
    ) {
        self.data.extend([Self::POLYGON, ink as u8 as f64, points.len() as f64]);
        self.data.extend(points.flatten());
    }

    /// A label with its left end at `at`, in the page's text size: an axis's name,
    /// say.
    pub fn text(&mut self, ink: Ink, [x, y]: [f64; 2], text: &str) {
        self.data.extend([
            Self::TEXT,
            ink as u8 as f64,
            x,
            y,
            text.chars().count() as f64,
        ]);
        self.data.extend(text.chars().map(|c| f64::from(u32::from(c))));
    }

    /// A disc of `radius` CSS pixels (a marker: it keeps its size when zoomed).
    pub fn disc(&mut self, ink: Ink, [x, y]: [f64; 2], radius: f64) {
        self.data.extend([Self::DISC, ink as u8 as f64, x, y, radius]);
    }
}

// ANCHOR: demo
/// A running demo.
pub trait Demo {
    /// Advances one 60 Hz frame of the page (however many simulation steps that is).
    fn frame(&mut self) -> Result<(), PbmError>;
    /// The live numbers, one per [`DemoSpec::readouts`].
    fn readouts(&self) -> Vec<f64>;
    /// The picture of the current state.
    fn draw(&self, out: &mut Drawing);
    /// Something the reader should know that is not a number, e.g. that one of two
    /// methods has diverged while the other runs on.
    fn note(&self) -> Option<String> {
        None
    }
    /// The reader pressed, dragged or let go of the pointer at world point `at`.
    /// Returns whether the demo took it (a press on nothing it can grab is not
    /// taken). Demos without a [`DemoSpec::drag`] hint take nothing.
    fn pointer(&mut self, _event: Pointer, _at: [f64; 2]) -> bool {
        false
    }
    /// The reader changed a parameter: apply the new (checked) `params` to the
    /// running demo if that can be done without starting over, and say whether it
    /// was. A demo that says no is built afresh from them (the default).
    fn retune(&mut self, _params: &Values) -> bool {
        false
    }
}
// ANCHOR_END: demo

/// What the reader's pointer did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pointer {
    /// Pressed.
    Down,
    /// Moved while pressed.
    Move,
    /// Let go (or the browser took the pointer away).
    Up,
}

impl Pointer {
    /// The ABI's number for it: 0 down, 1 move, 2 up.
    pub fn from_code(code: u32) -> Option<Pointer> {
        match code {
            0 => Some(Pointer::Down),
            1 => Some(Pointer::Move),
            2 => Some(Pointer::Up),
            _ => None,
        }
    }
}

/// How a demo is made from its checked parameter values.
pub type Build = fn(&Values) -> Result<Box<dyn Demo>, PbmError>;

// ANCHOR: values
/// A demo's parameter values, checked against its sliders' ranges and read by name:
/// the names its sliders share with the exercise parameters they stand for (a test
/// holds the two together), so a demo never reads "the second slider".
#[derive(Debug, Clone, PartialEq)]
pub struct Values {
    params: &'static [Param],
    values: Vec<f64>,
}

impl Values {
    /// The value of the slider or menu called `name`; an error names a slider the
    /// demo does not have.
    pub fn get(&self, name: &str) -> Result<f64, PbmError> {
        self.params
            .iter()
            .position(|p| p.name == name)
            .map(|i| self.values[i])
            .ok_or_else(|| {
                PbmError::invalid(
                    "demo parameter",
                    format!("there is no slider `{name}`"),
                )
            })
    }

    /// A count or a menu's index: the value of `name` as a whole number.
    pub fn whole(&self, name: &str) -> Result<usize, PbmError> {
        let value = self.get(name)?;
        if value >= 0.0 && value.fract() == 0.0 {
            Ok(value as usize)
        } else {
            Err(PbmError::invalid(
                "demo parameter",
                format!("{name} = {value} is not a whole number"),
            ))
        }
    }

    /// Whether `other` holds the same values except, perhaps, `name`'s.
    pub fn same_but(&self, other: &Values, name: &str) -> bool {
        self.params == other.params
            && self
                .params
                .iter()
                .zip(self.values.iter().zip(&other.values))
                .all(|(p, (a, b))| p.name == name || a == b)
    }
}
// ANCHOR_END: values

/// A demo as the pages and the loader know it.
pub struct DemoSpec {
    /// What the pages' `{{#demo id}}` names, e.g. `ode/euler-spiral`.
    pub id: &'static str,
    /// A one-line title.
    pub title: &'static str,
    /// The sliders and menus.
    pub params: &'static [Param],
    /// The live numbers.
    pub readouts: &'static [Readout],
    /// The quantity the page argues about, plotted over time beside the picture.
    pub plot: Plot,
    /// The world rectangle the picture shows for given parameters: x_min, x_max,
    /// y_min, y_max.
    pub view: fn(&Values) -> Result<[f64; 4], PbmError>,
    /// What the reader can drag with the pointer, shown under the picture; `None`
    /// for a demo that takes no pointer.
    pub drag: Option<&'static str>,
    /// Builds the demo from checked parameter values.
    pub build: Build,
}

impl std::fmt::Debug for DemoSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DemoSpec")
            .field("id", &self.id)
            .field("title", &self.title)
            .finish()
    }
}

impl DemoSpec {
    /// The demo with `values` (one per parameter), each checked against its range.
    pub fn create(&self, values: &[f64]) -> Result<Box<dyn Demo>, PbmError> {
        (self.build)(&self.check(values)?)
    }

    /// The world rectangle the picture shows for `values` (one per parameter).
    pub fn view_of(&self, values: &[f64]) -> Result<[f64; 4], PbmError> {
        (self.view)(&self.check(values)?)
    }

    /// `values` checked against the parameters' ranges, one per parameter, in the
    /// order of [`DemoSpec::params`].
    pub fn check(&self, values: &[f64]) -> Result<Values, PbmError> {
        if values.len() != self.params.len() {
            return Err(PbmError::invalid(
                "demo",
                format!(
                    "{} takes {} parameters, not {}",
                    self.id,
                    self.params.len(),
                    values.len()
                ),
            ));
        }
        let values = self
            .params
            .iter()
            .zip(values)
            .map(|(p, &v)| p.check(v))
            .collect::<Result<_, _>>()?;
        Ok(Values { params: self.params, values })
    }

    /// The parameters' opening values.
    pub fn defaults(&self) -> Vec<f64> {
        self.params.iter().map(|p| p.default).collect()
    }
}

/// An orthographic view of 3-D space from a fixed direction, for demos of solids:
/// the eye looks along −`eye`, with world y up on the screen.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Camera {
    eye: nalgebra::Vector3<f64>,
    right: nalgebra::Vector3<f64>,
    up: nalgebra::Vector3<f64>,
}

impl Camera {
    /// Looking from direction `eye` (towards the origin); `eye` must not be vertical.
    pub fn looking_from(eye: nalgebra::Vector3<f64>) -> Camera {
        let eye = eye.normalize();
        let right = nalgebra::Vector3::y().cross(&eye).normalize();
        let up = eye.cross(&right);
        Camera { eye, right, up }
    }

    /// Where point `p` lands on the screen (world units).
    pub fn project(&self, p: &nalgebra::Vector3<f64>) -> [f64; 2] {
        [p.dot(&self.right), p.dot(&self.up)]
    }

    /// The point of the plane through the origin facing the eye that lands on screen
    /// point `[x, y]`: the inverse of [`Camera::project`] on that plane.
    pub fn lift(&self, [x, y]: [f64; 2]) -> nalgebra::Vector3<f64> {
        self.right * x + self.up * y
    }

    /// Whether a face with outward normal `n` faces the eye.
    pub fn sees(&self, n: &nalgebra::Vector3<f64>) -> bool {
        n.dot(&self.eye) > 0.0
    }
}
/// A number a demo shows that a CLI exercise prints too: after `frames` frames with
/// `params`, readout `readout` of demo `demo` equals the number at `key` in `pbm run
/// exercise --set ... --json` to the last digit (the same functions compute both). The native tests
/// and the browser test check every one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Agreement {
    /// The demo's id.
    pub demo: &'static str,
    /// Its parameter values, in the order of its parameters.
    pub params: &'static [f64],
    /// Frames to run.
    pub frames: u32,
    /// Which readout.
    pub readout: usize,
    /// The exercise, `chapter/id`.
    pub exercise: &'static str,
    /// Its `--set` assignments.
    pub set: &'static [&'static str],
    /// Where the number is in its JSON result, as a JSON Pointer (RFC 6901), e.g.
    /// `/final_body_omega/1`.
    pub key: &'static str,
    /// Whether the exercise prints the readout's absolute value.
    pub absolute: bool,
    /// How far, relative, the page's number may be from the CLI's. Zero (to the last
    /// digit) unless the computation calls transcendental functions: WebAssembly has
    /// no maths library of the platform's, so `acos`, `atan2` and friends come from
    /// Rust's own port of one and may differ from the native ones in the last bit,
    /// which a run of many steps amplifies. Native runs of the demo and the exercise
    /// (`tests/demos.rs`) must still agree exactly.
    pub tolerance: f64,
}

impl Agreement {
    /// Demo `demo` with `params`, run for `frames` frames, shows at readout
    /// `readout` what [`Agreement::matches`] names.
    pub const fn new(
        demo: &'static str,
        params: &'static [f64],
        frames: u32,
        readout: usize,
    ) -> Agreement {
        Agreement {
            demo,
            params,
            frames,
            readout,
            exercise: "",
            set: &[],
            key: "",
            absolute: false,
            tolerance: 0.0,
        }
    }

    /// …the number at JSON Pointer `key` of `pbm run exercise --set … --json`.
    pub const fn matches(
        self,
        exercise: &'static str,
        set: &'static [&'static str],
        key: &'static str,
    ) -> Agreement {
        Agreement { exercise, set, key, ..self }
    }

    /// The exercise prints the readout's absolute value.
    pub const fn absolute(self) -> Agreement {
        Agreement { absolute: true, ..self }
    }

    /// The page's number may be this far from the CLI's, relative (see
    /// [`Agreement::tolerance`]).
    pub const fn within(self, tolerance: f64) -> Agreement {
        Agreement { tolerance, ..self }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

    use super::*;

    struct Still;

    impl Demo for Still {
        fn frame(&mut self) -> Result<(), PbmError> {
            Ok(())
        }
        fn readouts(&self) -> Vec<f64> {
            Vec::new()
        }
        fn draw(&self, _out: &mut Drawing) {}
    }

    const SPEC: DemoSpec = DemoSpec {
        id: "test/values",
        title: "values by name",
        params: &[
            Param::choice("method", "method", &["a", "b", "c"]),
            Param::log("h", "step h", "s", [0.1, 0.01, 1.0]),
        ],
        readouts: &[],
        plot: Plot::over(0, &[]),
        view: |p| Ok([-p.get("h")?, p.get("h")?, -1.0, 1.0]),
        drag: None,
        build: |_| Ok(Box::new(Still)),
    };

    #[test]
    fn values_are_read_by_name_and_checked_against_the_sliders() {
        let values = SPEC.check(&[2.0, 0.5]).unwrap();
        assert_eq!(values.whole("method").unwrap(), 2);
        assert_eq!(values.get("h").unwrap(), 0.5);
        let error = values.get("k").unwrap_err().to_string();
        assert!(error.contains("no slider `k`"), "{error}");
        assert!(values.whole("h").is_err(), "0.5 is not a whole number");
        assert_eq!(SPEC.view_of(&[0.0, 0.25]).unwrap(), [-0.25, 0.25, -1.0, 1.0]);
        let error = SPEC.check(&[0.0, 2.0]).unwrap_err().to_string();
        assert!(error.contains("h = 2 is outside [0.01, 1]"), "{error}");
        assert!(SPEC.check(&[0.5, 0.1]).is_err(), "a menu takes whole numbers");
        assert!(SPEC.check(&[0.0]).is_err(), "one value per slider");
    }

    #[test]
    fn same_but_compares_every_value_except_the_named_one() {
        let a = SPEC.check(&[0.0, 0.5]).unwrap();
        assert!(a.same_but(&SPEC.check(&[2.0, 0.5]).unwrap(), "method"));
        assert!(!a.same_but(&SPEC.check(&[2.0, 0.5]).unwrap(), "h"));
        assert!(!a.same_but(&SPEC.check(&[0.0, 0.25]).unwrap(), "method"));
        assert!(a.same_but(&a, "h"));
    }
}
