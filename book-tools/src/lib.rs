//! `pbm-book`: the pipelines that turn the chapters' registrations into a book.
//!
//! It knows no chapter: [`pbm_prelim::Chapter`]s are handed in (the `pbm` binary's
//! registry, `pbm::chapters()`), and everything below is generic over them.
//!
//! - The mdBook preprocessors, one module each, each with its own tests: [`values`]
//!   (`{{#value}}` and `{{#default}}`: numbers in sentences from the code), [`demos`]
//!   (`{{#demo}}`), [`listing`] (captions on included listings), [`page_figures`]
//!   (numbered, responsive figures) and [`math`] (LaTeX to MathML at build time, with
//!   [`equations`] numbered and cited).
//! - The pipelines that write what the pages include: [`figures`] (SVG), [`output`]
//!   (program output and the JSON the values read), [`benchmarks`] (timing tables
//!   from criterion) and the demos' WebAssembly module ([`demos::build_module`]).
//! - [`book`]: mdBook's library driven with those preprocessors, in order.
//! - [`commands`]: the `run` commands the pages show, held to what the program accepts.
//! - [`files`]: the one file helper (atomic writes); [`report`]: a result as a table.

pub mod benchmarks;
pub mod book;
pub mod commands;
pub mod demos;
pub mod equations;
pub mod error;
pub mod figures;
pub mod files;
pub mod highlight;
pub mod listing;
pub mod math;
pub mod output;
pub mod page_figures;
pub mod practice;
pub mod readers_path;
pub mod report;
pub mod values;

pub use error::Error;
use pbm_prelim::{Chapter, Exercise};

/// The chapter with this id. The error names the chapters that exist.
pub fn find_chapter<'a>(
    chapters: &'a [Chapter],
    id: &str,
) -> Result<&'a Chapter, Error> {
    chapters.iter().find(|c| c.id == id).ok_or_else(|| Error::UnknownChapter {
        name: id.to_string(),
        known: chapters.iter().map(|c| c.id).collect::<Vec<_>>().join(", "),
    })
}

/// Finds an exercise by its `chapter/exercise` id. The error names what exists.
pub fn find_exercise<'a>(
    chapters: &'a [Chapter],
    id: &str,
) -> Result<(&'a Chapter, &'a Exercise), Error> {
    let Some((chapter_id, exercise_id)) = id.split_once('/') else {
        return Err(Error::MalformedId(id.to_string()));
    };
    let chapter = find_chapter(chapters, chapter_id)?;
    let exercise =
        chapter.exercise(exercise_id).ok_or_else(|| Error::UnknownExercise {
            name: id.to_string(),
            known: chapter
                .exercises
                .iter()
                .map(|e| format!("{}/{}", chapter.id, e.id))
                .collect::<Vec<_>>()
                .join(", "),
        })?;
    Ok((chapter, exercise))
}
