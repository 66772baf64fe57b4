//! The `pbm` toolkit: the chapter registry, the command line, the figure pipeline and
//! the book builder. The physics lives in the chapter crates under `chapters/`; this
//! crate only gathers them and turns them into a book, figures and runnable
//! exercises.

pub mod benchmarks;
pub mod book;
pub mod demos;
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
        pbm_collision::chapter(),
        pbm_contact::chapter(),
        pbm_cloth::chapter(),
        pbm_pbd::chapter(),
        pbm_interactive::chapter(),
    ]
}

/// Every chapter, exercise (with its parameters, their types, defaults and ranges, and
/// the result fields that may be null) and figure, as one JSON object: `pbm list --json`.
pub fn list_json() -> serde_json::Value {
    use pbm_prelim::ParamKind;
    use serde_json::json;
    let param = |p: &pbm_prelim::ParamSpec| {
        let mut v = match &p.kind {
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
        v["name"] = json!(p.name);
        v["help"] = json!(p.help);
        v
    };
    let chapters: Vec<_> = chapters()
        .iter()
        .map(|c| {
            let exercises: Vec<_> = c
                .exercises
                .iter()
                .map(|e| {
                    json!({
                        "id": format!("{}/{}", c.id, e.id),
                        "summary": e.summary,
                        "params": e.params.iter().map(param).collect::<Vec<_>>(),
                        "optional": e.optional.iter().map(|o| json!({
                            "field": o.field, "null_when": o.null_when,
                        })).collect::<Vec<_>>(),
                    })
                })
                .collect();
            let figures: Vec<_> = c
                .figures
                .iter()
                .map(|f| {
                    json!({
                        "name": f.name,
                        "title": f.title,
                        "file": format!("{}/{}.svg", c.id, f.name),
                    })
                })
                .collect();
            json!({
                "id": c.id, "number": c.number, "title": c.title,
                "exercises": exercises, "figures": figures,
            })
        })
        .collect();
    json!({ "chapters": chapters })
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
