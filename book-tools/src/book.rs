//! Renders the book with mdBook's library (no `mdbook` binary): the chapters'
//! values, demos and listings expanded, math turned into MathML.

use crate::demos::{DemoPreprocessor, MODULE_SCRIPT, module_script};
use crate::error::Error;
use crate::files::write_atomically_bytes;
use crate::listing::PageRewrite;
use crate::math::{MATH_FONT, MathPreprocessor, math_font_woff2};
use crate::page_figures::PageFigures;
use crate::values::ValuePreprocessor;
use mdbook_driver::MDBook;
use mdbook_driver::builtin_preprocessors::{IndexPreprocessor, LinkPreprocessor};
use mdbook_driver::config::Config;
use pbm_prelim::Chapter;
use std::fs;
use std::path::Path;

/// Writes the math font as WOFF2 into `book_dir/src/fonts/`, where the book's CSS
/// loads it from, unless the same bytes are already there, and removes the OpenType
/// file earlier builds wrote there (mdBook would copy it into every build).
pub fn write_math_font(book_dir: &Path) -> Result<(), Error> {
    let fonts = book_dir.join("src/fonts");
    let _ = fs::remove_file(fonts.join("NewCMMath-Regular.otf"));
    let path = fonts.join(MATH_FONT);
    let font = math_font_woff2().map_err(Error::Book)?;
    if fs::read(&path).is_ok_and(|old| old == font) {
        return Ok(());
    }
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
    write_math_font(book_dir)?;
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
    book.build().map_err(book_err)
}
