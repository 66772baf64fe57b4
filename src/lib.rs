//! The `pbm` toolkit: the chapter registry, the command line, the figure pipeline and the book
//! builder. The physics lives in the chapter crates under `chapters/`; this crate only gathers
//! them and turns them into a book, figures and runnable exercises.

pub mod book;
pub mod figures;
pub mod math;
pub mod report;

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

/// Finds an exercise by its `chapter/exercise` id. The error names what exists.
pub fn find_exercise<'a>(
    chapters: &'a [Chapter],
    id: &str,
) -> Result<(&'a Chapter, &'a pbm_prelim::Exercise), String> {
    let Some((chapter_id, exercise_id)) = id.split_once('/') else {
        return Err(format!("expected CHAPTER/EXERCISE, got `{id}` (see `pbm list`)"));
    };
    let chapter = chapters.iter().find(|c| c.id == chapter_id).ok_or_else(|| {
        let ids: Vec<&str> = chapters.iter().map(|c| c.id).collect();
        format!("unknown chapter `{chapter_id}`; chapters: {}", ids.join(", "))
    })?;
    let exercise = chapter.exercise(exercise_id).ok_or_else(|| {
        let ids: Vec<String> =
            chapter.exercises.iter().map(|e| format!("{}/{}", chapter.id, e.id)).collect();
        format!("unknown exercise `{id}`; exercises: {}", ids.join(", "))
    })?;
    Ok((chapter, exercise))
}
