//! Renders the book with mdBook's library (no `mdbook` binary): the chapters'
//! values, demos and listings expanded, math turned into MathML.

use crate::demos::{DemoPreprocessor, MODULE_SCRIPT, module_script};
use crate::error::Error;
use crate::files::write_atomically_bytes;
use crate::listing::PageRewrite;
use crate::math::{MATH_FONT, MathPreprocessor, math_chars, math_font_woff2};
use crate::page_figures::PageFigures;
use crate::values::ValuePreprocessor;
use mdbook_driver::MDBook;
use mdbook_driver::builtin_preprocessors::{IndexPreprocessor, LinkPreprocessor};
use mdbook_driver::config::Config;
use pbm_prelim::Chapter;
use std::collections::BTreeSet;
use std::fs;
use std::io::Write;
use std::path::Path;

/// Writes the math font into the built book's `fonts/`, where the book's CSS loads it
/// from: the subset if it draws every character of every page's formulas, the whole
/// font otherwise, saying which characters sent it and how to cut a new subset.
pub fn write_math_font(build_dir: &Path) -> Result<(), Error> {
    let mut used = BTreeSet::new();
    let mut dirs = vec![build_dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let entries = fs::read_dir(&dir)
            .map_err(|source| Error::Read { path: dir.clone(), source })?;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "html") {
                let html = fs::read_to_string(&path)
                    .map_err(|source| Error::Read { path: path.clone(), source })?;
                math_chars(&html, &mut used);
            }
        }
    }
    let (font, missing) = math_font_woff2(&used).map_err(Error::Book)?;
    if !missing.is_empty() {
        let list: Vec<String> =
            missing.iter().map(|c| format!("{c} (U+{:04X})", *c as u32)).collect();
        // A full or closed stderr loses the note, not the book.
        let _ = writeln!(
            std::io::stderr(),
            "note: the book's math font subset lacks {}; the whole font ships instead \
             ({} KB). Add them to book-tools/fonts/subset-math-font.sh and run it.",
            list.join(", "),
            font.len() / 1000
        );
    }
    let path = build_dir.join("fonts").join(MATH_FONT);
    write_atomically_bytes(&path, &font)
        .map_err(|source| Error::Write { path, source })
}

/// Builds the book whose `book.toml` is in `book_dir`, into `build_dir` if given,
/// otherwise into the directory `book.toml` names (`book/build`).
pub fn build_book(
    chapters: &[Chapter],
    book_dir: &Path,
    build_dir: Option<&Path>,
) -> Result<(), Error> {
    crate::highlight::write_highlight_js(book_dir).map_err(Error::Book)?;
    crate::demos::write_loader(book_dir)?;
    // Earlier builds wrote the font here, and mdBook would copy it into every build.
    let _ = fs::remove_dir_all(book_dir.join("src/fonts"));
    // The demos' module as `pbm book` left it; without one, the demos' fallback.
    let module = book_dir.join("src").join(MODULE_SCRIPT);
    if !module.is_file() {
        write_atomically_bytes(&module, module_script(None).as_bytes())
            .map_err(|source| Error::Write { path: module.clone(), source })?;
    }
    let book_err = |e: mdbook_driver::errors::Error| Error::Book(format!("{e:#}"));
    let mut config =
        Config::from_disk(book_dir.join("book.toml")).map_err(book_err)?;
    // mdBook runs code-registered preprocessors after its own; the listing captions
    // must see the includes before `links` expands them, so the defaults are
    // registered here, in order.
    config.build.use_default_preprocessors = false;
    if let Some(dir) = build_dir {
        config.build.build_dir = dir.to_path_buf();
    }
    let mut book = MDBook::load_with_config(book_dir, config).map_err(book_err)?;
    // Values first: a number may stand inside math, a caption or a figure's alt text.
    book.with_preprocessor(ValuePreprocessor {
        chapters: chapters.to_vec(),
        output_dir: book_dir.join("src/output"),
        benchmarks_dir: book_dir.join("src/benchmarks"),
    })
    .with_preprocessor(DemoPreprocessor::new(chapters)?)
    .with_preprocessor(PageRewrite::CAPTIONS)
    .with_preprocessor(LinkPreprocessor::new())
    .with_preprocessor(PageRewrite::DEDENT)
    .with_preprocessor(IndexPreprocessor::new())
    .with_preprocessor(PageFigures)
    .with_preprocessor(MathPreprocessor);
    book.build().map_err(book_err)?;
    write_math_font(&book.root.join(&book.config.build.build_dir))
}
