//! Renders the book with mdBook's library (no `mdbook` binary), math turned into MathML first.

use crate::math::MathPreprocessor;
use mdbook_driver::MDBook;
use std::path::Path;

/// Builds the book whose `book.toml` is in `book_dir` into its configured build directory.
pub fn build_book(book_dir: &Path) -> Result<(), String> {
    let mut book = MDBook::load(book_dir).map_err(|e| format!("cannot load the book: {e:#}"))?;
    book.with_preprocessor(MathPreprocessor);
    book.build().map_err(|e| format!("cannot build the book: {e:#}"))
}
