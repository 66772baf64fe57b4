//! What a live demo is: parameters with units and ranges, numbers it reports, and a
//! picture it draws, over a simulation that advances one 60 Hz frame at a time.

use crate::PbmError;
use crate::params::Quantity;

/// The page's frame (s): a demo advances this much of the page's time per
/// [`Demo::frame`].
pub const FRAME: f64 = 1.0 / 60.0;

/// A slider (or, with `choices`, a menu) of a demo.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Param {
    /// The name the CLI exercise uses for the same quantity, e.g. `h`.
    pub name: &'static str,
    /// What it is, for the label; empty for a slider of an exercise's parameter
    /// ([`Param::exercise`]), which the page labels with the parameter's own label.
    pub label: &'static str,
    /// Its unit, e.g. `s`; empty for a pure number or a choice, and for a slider of
    /// an exercise's parameter, which the page gives the parameter's unit.
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
    /// Why the demo has this slider and the exercise it stands beside does not;
    /// `None` for a slider that sets the exercise parameter of its name.
    pub demo_only: Option<&'static str>,
}

impl Param {
    /// A slider of the exercise parameter `name`, over `[default, min, max]` (inside
    /// the parameter's range: a demo may narrow it): the page labels it with the
    /// parameter's declared label and unit, so that the fact has one home.
    pub const fn exercise(name: &'static str, range: [f64; 3]) -> Param {
        Param::linear(name, "", "", range)
    }

    /// Whether the page takes this slider's label and unit from its exercise's
    /// parameter.
    pub const fn from_exercise(&self) -> bool {
        self.label.is_empty() && self.choices.is_empty()
    }

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
            demo_only: None,
        }
    }

    /// A slider of `quantity` (one of the [`Quantity`]s exercises share: its label
    /// and unit are the exercise's), moving in equal steps.
    pub const fn of(
        name: &'static str,
        quantity: Quantity,
        range: [f64; 3],
    ) -> Param {
        Param::linear(name, quantity.label, quantity.unit, range)
    }

    /// The same slider, moving in equal ratios.
    pub const fn in_ratios(self) -> Param {
        Param { log: true, ..self }
    }

    /// The same slider, of whole numbers.
    pub const fn in_whole_numbers(self) -> Param {
        Param { whole: true, ..self }
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

    /// The same slider, which the demo has and its exercise does not, for the
    /// reason `why` (e.g. "the exercise runs all three methods at once").
    pub const fn demo_only(self, why: &'static str) -> Param {
        Param { demo_only: Some(why), ..self }
    }

    /// The value `word` names: a menu's choice by its text, a slider's number as
    /// written, checked against the range.
    pub fn parse(&self, word: &str) -> Result<f64, PbmError> {
        if self.choices.is_empty() {
            let value = word.parse::<f64>().map_err(|_| {
                PbmError::invalid(
                    "demo parameter",
                    format!("{} = {word} is not a number", self.name),
                )
            })?;
            return self.check(value);
        }
        match self.choices.iter().position(|&c| c == word) {
            Some(i) => Ok(i as f64),
            None => Err(PbmError::invalid(
                "demo parameter",
                format!(
                    "{} has no choice `{word}`; choices: {}",
                    self.name,
                    self.choices.join(", ")
                ),
            )),
        }
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
/// readout that grows with time (the simulated time, or the step count), each named
/// by its label ([`DemoSpec::readout`] finds it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plot {
    /// The readout along the horizontal axis.
    pub x: &'static str,
    /// The readouts plotted against it, each in its readout's ink.
    pub ys: &'static [&'static str],
    /// Whether the vertical axis is logarithmic (for errors that span decades).
    pub log: bool,
}

impl Plot {
    /// Readouts `ys` against readout `x`, on a linear scale.
    pub const fn over(x: &'static str, ys: &'static [&'static str]) -> Plot {
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
    /// Opcode of a face of a solid: shade, count, then x, y pairs. It is filled in
    /// its ink darkened to the shade (0 black, 1 the ink itself), opaque unless the
    /// ink is faint, and has no outline: faces drawn back to front hide what is
    /// behind them ([`crate::orbit`]).
    pub const FACE: f64 = 5.0;

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

    /// A face of a solid with corners `points`, in `ink` darkened to `shade` (the
    /// light it catches, from 0 to 1).
    pub fn face(
        &mut self,
        ink: Ink,
        shade: f64,
        points: impl ExactSizeIterator<Item = [f64; 2]>,
    ) {
        let shade = shade.clamp(0.0, 1.0);
        self.data.extend([Self::FACE, ink as u8 as f64, shade, points.len() as f64]);
        self.data.extend(points.flatten());
    }
}

// ANCHOR: demo
/// A running demo.
pub trait Demo {
    /// Advances one [`FRAME`] of the page (however many simulation steps that is).
    fn frame(&mut self) -> Result<(), PbmError>;
    /// The live numbers, one per [`DemoSpec::readouts`], in their order.
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
    /// Where each thing the reader can grab is now, in the picture's world units:
    /// what a test throws, and what it requires back inside [`DemoSpec::view`].
    /// Empty for a demo that takes no pointer.
    fn bodies(&self) -> Vec<Whereabouts> {
        Vec::new()
    }
}
// ANCHOR_END: demo

/// Where a body the reader can grab is in the picture (world units).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Whereabouts {
    /// A point on it that a press takes it by.
    pub grip: [f64; 2],
    /// The smallest rectangle holding it: x_min, x_max, y_min, y_max.
    pub bounds: [f64; 4],
}

impl Whereabouts {
    /// A body whose points are `points`, taken by the first of them.
    pub fn of(points: impl IntoIterator<Item = [f64; 2]>) -> Whereabouts {
        let mut points = points.into_iter();
        let grip = points.next().unwrap_or([f64::NAN; 2]);
        let start = [grip[0], grip[0], grip[1], grip[1]];
        let bounds = points.fold(start, |[x0, x1, y0, y1], [x, y]| {
            [x0.min(x), x1.max(x), y0.min(y), y1.max(y)]
        });
        Whereabouts { grip, bounds }
    }

    /// The same body, taken by `grip` instead.
    pub fn gripped_at(self, grip: [f64; 2]) -> Whereabouts {
        Whereabouts { grip, ..self }
    }

    /// Whether it lies inside `view` (x_min, x_max, y_min, y_max), every coordinate
    /// finite.
    pub fn inside(&self, [x0, x1, y0, y1]: [f64; 4]) -> bool {
        let [a0, a1, b0, b1] = self.bounds;
        self.bounds.iter().all(|v| v.is_finite())
            && a0 >= x0
            && a1 <= x1
            && b0 >= y0
            && b1 <= y1
    }
}

/// The fastest a reader's hand moves (CSS pixels per second): a 400 px flick in
/// 30 ms. A demo caps the speed it gives a body to what keeps the body in play.
pub const FLICK_PX_PER_S: f64 = 400.0 / 0.030;

/// `v` (any units) shortened, if need be, to length `most`.
pub fn capped<const N: usize>(v: [f64; N], most: f64) -> [f64; N] {
    let length = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    if length > most && length.is_finite() {
        v.map(|x| x * most / length)
    } else if length.is_finite() {
        v
    } else {
        [0.0; N]
    }
}

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

    /// The place among [`DemoSpec::readouts`] of the readout labelled `label`; an
    /// error names a readout the demo does not have.
    pub fn readout(&self, label: &str) -> Result<usize, PbmError> {
        self.readouts.iter().position(|r| r.label == label).ok_or_else(|| {
            let known: Vec<&str> = self.readouts.iter().map(|r| r.label).collect();
            PbmError::invalid(
                "demo",
                format!(
                    "{} has no readout `{label}`; readouts: {}",
                    self.id,
                    known.join("; ")
                ),
            )
        })
    }

    /// The places of the plot's readouts: the horizontal axis's, then each
    /// plotted one's.
    pub fn plotted(&self) -> Result<(usize, Vec<usize>), PbmError> {
        let ys = self.plot.ys.iter().map(|y| self.readout(y));
        Ok((self.readout(self.plot.x)?, ys.collect::<Result<_, _>>()?))
    }

    /// Parameter values from `name=value` words, as the CLI's `--set` and the page's
    /// address write them (a menu's value by its choice's text); a parameter no word
    /// names keeps its default. One value per parameter, in their order.
    pub fn values_of(&self, set: &[&str]) -> Result<Vec<f64>, PbmError> {
        let mut values = self.defaults();
        for word in set {
            let (name, value) = word.split_once('=').ok_or_else(|| {
                PbmError::invalid(
                    "demo",
                    format!("{}: `{word}` is not name=value", self.id),
                )
            })?;
            let Some(i) = self.params.iter().position(|p| p.name == name) else {
                let known: Vec<&str> = self.params.iter().map(|p| p.name).collect();
                return Err(PbmError::invalid(
                    "demo",
                    format!(
                        "{} has no slider `{name}`; sliders: {}",
                        self.id,
                        known.join(", ")
                    ),
                ));
            };
            values[i] = self.params[i].parse(value)?;
        }
        Ok(values)
    }
}

/// A number a demo shows that a CLI exercise prints too: after `frames` frames with
/// its sliders `set`, readout `readout` of demo `demo` equals the number at `key` in
/// `pbm run exercise --set ... --json` to the last digit (the same functions compute
/// both). The native tests and the browser test check every one.
///
/// ```
/// # use pbm_prelim::demo::Agreement;
/// const SPIRAL: Agreement = Agreement::demo("ode/euler-spiral")
///     .set(&["method=Euler", "h=0.1"])
///     .frames(63)
///     .readout("radius after one turn")
///     .matches("ode/euler-spiral", &["h=0.1", "steps=63"], "/euler_final_radius");
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Agreement {
    /// The demo's id.
    pub demo: &'static str,
    /// Its sliders' values as `name=value` words (a menu's by its choice's text);
    /// the others keep their defaults ([`DemoSpec::values_of`]).
    pub sliders: &'static [&'static str],
    /// Frames to run.
    pub frames: u32,
    /// The readout's label ([`DemoSpec::readout`]).
    pub readout: &'static str,
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
    /// Demo `demo`, from its defaults, shows after [`Agreement::frames`] at
    /// [`Agreement::readout`] what [`Agreement::matches`] names.
    pub const fn demo(demo: &'static str) -> Agreement {
        Agreement {
            demo,
            sliders: &[],
            frames: 0,
            readout: "",
            exercise: "",
            set: &[],
            key: "",
            absolute: false,
            tolerance: 0.0,
        }
    }

    /// …with these sliders set, as `name=value` words.
    pub const fn set(self, sliders: &'static [&'static str]) -> Agreement {
        Agreement { sliders, ..self }
    }

    /// …after this many frames.
    pub const fn frames(self, frames: u32) -> Agreement {
        Agreement { frames, ..self }
    }

    /// …at the readout labelled `readout`.
    pub const fn readout(self, readout: &'static str) -> Agreement {
        Agreement { readout, ..self }
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

    /// The demo's parameter values (one per parameter, in their order) and the
    /// place of the readout, found by name in `spec`, the agreement's demo; an
    /// error names what `spec` does not have.
    pub fn resolve(&self, spec: &DemoSpec) -> Result<(Vec<f64>, usize), PbmError> {
        if spec.id != self.demo {
            return Err(PbmError::invalid(
                "agreement",
                format!("it is about {}, not {}", self.demo, spec.id),
            ));
        }
        Ok((spec.values_of(self.sliders)?, spec.readout(self.readout)?))
    }
}

/// A chapter's live demos and the numbers they share with its exercises: the one
/// value each chapter's `demos` module exports as `DEMOS`.
#[derive(Debug, Clone, Copy)]
pub struct Demos {
    /// The demos, in the book's order.
    pub specs: &'static [DemoSpec],
    /// The numbers the demos show that the chapter's exercises print too (checked
    /// natively by `tests/demos.rs` and in the browser).
    pub agreements: &'static [Agreement],
}

impl Demos {
    /// A chapter with no live demos.
    pub const NONE: Demos = Demos { specs: &[], agreements: &[] };

    /// The demo called `id`, if the chapter has it.
    pub fn find(&self, id: &str) -> Option<&'static DemoSpec> {
        self.specs.iter().find(|d| d.id == id)
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
        readouts: &[Readout::plain("t", "s"), Readout::plain("x", "m")],
        plot: Plot::over("t", &["x"]),
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

    #[test]
    fn readouts_sliders_and_menu_choices_are_found_by_name() {
        assert_eq!(SPEC.plotted().unwrap(), (0, vec![1]));
        let error = SPEC.readout("y").unwrap_err().to_string();
        assert!(
            error.contains("test/values has no readout `y`; readouts: t; x"),
            "{error}"
        );
        assert_eq!(SPEC.values_of(&[]).unwrap(), [0.0, 0.1]);
        assert_eq!(SPEC.values_of(&["h=0.25", "method=c"]).unwrap(), [2.0, 0.25]);
        let error = SPEC.values_of(&["k=1"]).unwrap_err().to_string();
        assert!(error.contains("no slider `k`; sliders: method, h"), "{error}");
        let error = SPEC.values_of(&["method=d"]).unwrap_err().to_string();
        assert!(
            error.contains("method has no choice `d`; choices: a, b, c"),
            "{error}"
        );
        assert!(SPEC.values_of(&["h=2"]).is_err(), "outside the slider's range");
        assert!(SPEC.values_of(&["h=fast"]).is_err(), "not a number");
        assert!(SPEC.values_of(&["h"]).is_err(), "not name=value");
        let agreement =
            Agreement::demo("test/values").set(&["method=b"]).readout("x");
        assert_eq!(agreement.resolve(&SPEC).unwrap(), (vec![1.0, 0.1], 1));
        let error = agreement.readout("v").resolve(&SPEC).unwrap_err().to_string();
        assert!(error.contains("no readout `v`"), "{error}");
        assert!(Agreement::demo("test/other").resolve(&SPEC).is_err());
    }
}
