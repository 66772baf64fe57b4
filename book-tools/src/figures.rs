//! The figure pipeline: every figure of every chapter is drawn in parallel (rayon),
//! in both layouts, and written atomically to `book/src/figures/<chapter>/<name>.svg`
//! (wide) and `<name>.narrow.svg`, with a progress bar.

use crate::error::Error;
use crate::files::write_atomically;
use crate::find_chapter;
use indicatif::{ProgressBar, ProgressStyle};
use pbm_prelim::plot::Layout;
use pbm_prelim::{Chapter, Figure};
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// Where the `layout` drawing of figure `name` of `chapter_id` goes under
/// `figures_dir`.
pub fn figure_path(
    figures_dir: &Path,
    chapter_id: &str,
    name: &str,
    layout: Layout,
) -> PathBuf {
    figures_dir.join(chapter_id).join(format!("{name}{}.svg", layout.file_suffix()))
}

/// Draws the figures of `chapters` (only the one with id `only`, if given) into
/// `figures_dir`. Returns the paths written, or every failure.
pub fn render_figures(
    chapters: &[Chapter],
    figures_dir: &Path,
    only: Option<&str>,
    show_progress: bool,
) -> Result<Vec<PathBuf>, Error> {
    if let Some(id) = only {
        find_chapter(chapters, id)?;
    }
    let jobs: Vec<(&Chapter, &Figure)> = chapters
        .iter()
        .filter(|c| only.is_none_or(|id| c.id == id))
        .flat_map(|c| c.figures.iter().map(move |f| (c, f)))
        .collect();
    let bar = if show_progress {
        ProgressBar::new(jobs.len() as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("figures {bar:30} {pos}/{len} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let results: Vec<Result<Vec<PathBuf>, String>> = jobs
        .par_iter()
        .map(|(chapter, figure)| {
            let outcome = (figure.draw)()
                .map_err(|e| format!("{}/{}: {e}", chapter.id, figure.name))
                .and_then(|drawings| {
                    drawings
                        .iter()
                        .map(|d| {
                            let path = figure_path(
                                figures_dir,
                                chapter.id,
                                figure.name,
                                d.layout,
                            );
                            write_atomically(&path, &d.svg)
                                .map(|()| path.clone())
                                .map_err(|e| format!("{}: {e}", path.display()))
                        })
                        .collect::<Result<Vec<_>, _>>()
                });
            bar.inc(1);
            bar.set_message(figure.name);
            outcome
        })
        .collect();
    bar.finish_and_clear();
    let (written, failed): (Vec<_>, Vec<_>) =
        results.into_iter().partition(Result::is_ok);
    if failed.is_empty() {
        Ok(written.into_iter().flatten().flatten().collect())
    } else {
        Err(Error::Figures(failed.into_iter().filter_map(Result::err).collect()))
    }
}
