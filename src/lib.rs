//! The `pbm` toolkit: the chapter registry and the command line. The physics lives in
//! the chapter crates under `chapters/`, each of which registers everything its pages
//! show in its `chapter()`; the pipelines that turn those registrations into a book
//! live in `pbm-book` (`book-tools/`). The list of chapters is `pbm-chapters`'s.

pub use pbm_book::{
    Error, benchmarks, book, commands, demos, equations, figures, files,
    find_chapter, find_exercise, math, output, practice, readers_path, report,
    values,
};
use std::path::PathBuf;

/// Every timing table the chapters register.
pub fn timing_tables() -> Vec<pbm_prelim::registry::TimingTable> {
    chapters().iter().flat_map(|c| c.tables.iter().copied()).collect()
}

/// Every chapter of the book, in order (listed once, in the `pbm-chapters` crate).
pub use pbm_chapters::chapters;

/// Every chapter, exercise (with its parameters, their types, defaults and ranges, and
/// the result fields that may be null) and figure, as one JSON object: `pbm list --json`.
pub fn list_json() -> serde_json::Value {
    use serde_json::json;
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
                        "params": e.params.iter().map(|p| {
                            let mut v = p.to_json();
                            // How far a range the joint limits cut at the defaults
                            // reaches there (`pbm list`'s "with the others at their
                            // defaults").
                            if let Some((lo, hi)) = e.joint.contains(&p.name).then(|| e.reach(p)).flatten() {
                                v["at_defaults"] = json!({ "min": lo, "max": hi });
                            }
                            v
                        }).collect::<Vec<_>>(),
                        "optional": e.optional.iter().map(|o| json!({
                            "field": o.field, "null_when": o.null_when,
                        })).collect::<Vec<_>>(),
                        "promises": e.promises.iter().map(|p| json!({
                            "field": p.field,
                            "over": p.over.map(|(field, least)| json!({ "field": field, "at_least": least })),
                            "max": p.max, "says": p.says,
                        })).collect::<Vec<_>>(),
                        "limits": e.limits.iter().map(|l| json!({
                            "work": l.work, "unit": l.unit, "max": l.max, "change": l.change,
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
                        "heavy": f.heavy,
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
