//! Renders the book with mdBook's library (no `mdbook` binary), math turned into MathML first.

use crate::error::Error;
use crate::math::MathPreprocessor;
use mdbook_driver::MDBook;
use std::path::Path;

/// Builds the book whose `book.toml` is in `book_dir`, into `build_dir` if given, otherwise
/// into the directory `book.toml` names (`book/build`).
pub fn build_book(book_dir: &Path, build_dir: Option<&Path>) -> Result<(), Error> {
    let mut book = MDBook::load(book_dir).map_err(|e| Error::Book(format!("{e:#}")))?;
    if let Some(dir) = build_dir {
        book.config.build.build_dir = dir.to_path_buf();
    }
    book.with_preprocessor(MathPreprocessor);
    book.build().map_err(|e| Error::Book(format!("{e:#}")))
}
