//! How a chapter describes itself to the `pbm` binary: its exercises and its figures.

use crate::error::PbmError;
use crate::params::{ParamSpec, Params};
use serde_json::Value;

// ANCHOR: exercise
/// A named, parameterised experiment, run with `pbm run CHAPTER/EXERCISE --set
/// key=value`.
#[derive(Debug, Clone)]
pub struct Exercise {
    /// The id after the slash, e.g. `stability` in `ode/stability`.
    pub id: &'static str,
    /// One line saying what the exercise shows.
    pub summary: &'static str,
    /// Declared parameters with the defaults the book discusses.
    pub params: Vec<ParamSpec>,
    /// Runs the experiment. The result is one JSON object.
    pub run: fn(&Params) -> Result<Value, PbmError>,
}
// ANCHOR_END: exercise

impl Exercise {
    /// Validates `assignments` (`key=value` strings) against the declared parameters
    /// and runs. `chapter` is used only in error messages.
    pub fn run_with<S: AsRef<str>>(
        &self,
        chapter: &str,
        assignments: &[S],
    ) -> Result<Value, PbmError> {
        let name = format!("{chapter}/{}", self.id);
        let params = Params::resolve(&name, &self.params, assignments)?;
        (self.run)(&params)
    }

    /// Runs with every parameter at its default.
    pub fn run_default(&self) -> Result<Value, PbmError> {
        (self.run)(&Params::defaults(&self.params))
    }
}

// ANCHOR: figure
/// A figure of the book: a function that computes its data with the chapter's code
/// and draws it in both layouts (see [`crate::plot::Layout`]). The pipeline writes
/// the drawings to `book/src/figures/<chapter>/<name>.svg` and `<name>.narrow.svg`.
#[derive(Debug, Clone)]
pub struct Figure {
    /// File stem, e.g. `euler-spiral`.
    pub name: &'static str,
    /// What the figure shows, one line.
    pub title: &'static str,
    /// Draws the figure, wide and narrow.
    pub draw: fn() -> Result<Vec<crate::plot::Drawing>, PbmError>,
}
// ANCHOR_END: figure

/// One chapter of the book and its crate.
#[derive(Debug, Clone)]
pub struct Chapter {
    /// Short id used on the command line and as the figure folder, e.g. `ode`.
    pub id: &'static str,
    /// Chapter number in the book.
    pub number: u32,
    /// Title as in the book.
    pub title: &'static str,
    /// Folder of the chapter's pages under `book/src`, e.g. `01-ode`.
    pub pages: &'static str,
    /// The chapter's exercises, in reading order.
    pub exercises: Vec<Exercise>,
    /// The chapter's figures, in reading order.
    pub figures: Vec<Figure>,
}

impl Chapter {
    /// The exercise with this id, if any.
    pub fn exercise(&self, id: &str) -> Option<&Exercise> {
        self.exercises.iter().find(|e| e.id == id)
    }

    /// The figure with this name, if any.
    pub fn figure(&self, name: &str) -> Option<&Figure> {
        self.figures.iter().find(|f| f.name == name)
    }
}
