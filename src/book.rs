//! Renders the book with mdBook's library (no `mdbook` binary), math turned into MathML first.

use crate::error::Error;
use crate::figures::write_atomically_bytes;
use crate::math::{MATH_FONT, MathPreprocessor, math_font};
use mdbook_driver::MDBook;
use std::fs;
use std::path::Path;

/// Writes the math font into `book_dir/src/fonts/`, where the book's CSS loads it from, unless
/// the same bytes are already there.
pub fn write_math_font(book_dir: &Path) -> Result<(), Error> {
    let path = book_dir.join("src/fonts").join(MATH_FONT);
    let font = math_font().ok_or_else(|| {
        Error::Book("typst-assets no longer ships New Computer Modern Math".into())
    })?;
    if fs::read(&path).is_ok_and(|old| old == font) {
        return Ok(());
    }
    write_atomically_bytes(&path, font).map_err(|source| Error::Write { path, source })
}

/// Builds the book whose `book.toml` is in `book_dir`, into `build_dir` if given, otherwise
/// into the directory `book.toml` names (`book/build`).
pub fn build_book(book_dir: &Path, build_dir: Option<&Path>) -> Result<(), Error> {
    write_math_font(book_dir)?;
    let mut book = MDBook::load(book_dir).map_err(|e| Error::Book(format!("{e:#}")))?;
    if let Some(dir) = build_dir {
        book.config.build.build_dir = dir.to_path_buf();
    }
    book.with_preprocessor(MathPreprocessor);
    book.build().map_err(|e| Error::Book(format!("{e:#}")))
}
