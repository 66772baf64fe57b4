//! The `pbm` toolkit: the chapter registry, the command line, the figure pipeline and
//! the book builder. The physics lives in the chapter crates under `chapters/`; this
//! crate only gathers them and turns them into a book, figures and runnable
//! exercises.

pub mod benchmarks;
pub mod book;
pub mod error;
pub mod figures;
pub mod listing;
pub mod math;
pub mod output;
pub mod page_figures;
pub mod report;

pub use error::Error;
use pbm_prelim::Chapter;
use std::path::PathBuf;

/// Every chapter of the book, in order.
pub fn chapters() -> Vec<Chapter> {
    vec![
        pbm_ode::chapter(),
        pbm_particles::chapter(),
        pbm_implicit::chapter(),
        pbm_constraints::chapter(),
        pbm_lagrangian::chapter(),
        pbm_rigid::chapter(),
    ]
}

/// The repository root (where `book/` lives), fixed at compile time.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

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
) -> Result<(&'a Chapter, &'a pbm_prelim::Exercise), Error> {
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
