//! Figures are numbered by the book, not by hand: every figure (an image from `figures/`
//! followed by its italic caption) gets "Figure C.N." in front of its caption, C the chapter's
//! number and N its place in the chapter, counted across the chapter's pages in reading order.

use mdbook_preprocessor::book::{Book, BookItem};
use mdbook_preprocessor::errors::Result;
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The chapter number of a page from its folder (`04-constraints/models.md` → 4); None for
/// pages outside a numbered chapter.
pub fn chapter_number(path: &Path) -> Option<u32> {
    let folder = path.components().next()?.as_os_str().to_str()?;
    let digits: String = folder.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok().filter(|n| *n > 0)
}

/// Numbers the figures of one page of chapter `chapter`, the first being number `first`.
/// Returns the page and the number of figures on it.
pub fn number_figures(markdown: &str, chapter: u32, first: u32) -> (String, u32) {
    let mut out = String::with_capacity(markdown.len() + 256);
    let (mut count, mut after_figure) = (0, false);
    for line in markdown.lines() {
        let mut line = line.to_string();
        if line.starts_with("![") && line.contains("](../figures/") {
            after_figure = true;
        } else if after_figure && !line.trim().is_empty() {
            after_figure = false;
            if let Some(caption) = line.strip_prefix('*') {
                let label = format!("**Figure {chapter}.{}.**", first + count);
                line = format!("{label} *{caption}");
                count += 1;
            }
        }
        out.push_str(&line);
        out.push('\n');
    }
    (out, count)
}

/// The mdBook preprocessor that applies [`number_figures`] chapter by chapter.
pub struct FigureNumbers;

impl Preprocessor for FigureNumbers {
    fn name(&self) -> &str {
        "pbm-figure-numbers"
    }

    fn run(&self, _ctx: &PreprocessorContext, mut book: Book) -> Result<Book> {
        // First pass, in reading order: where each page's numbering starts.
        let mut counts: BTreeMap<u32, u32> = BTreeMap::new();
        let mut first: BTreeMap<PathBuf, u32> = BTreeMap::new();
        for item in book.iter() {
            if let BookItem::Chapter(page) = item
                && let Some(path) = &page.path
                && let Some(chapter) = chapter_number(path)
            {
                let next = counts.entry(chapter).or_insert(0);
                first.insert(path.clone(), *next + 1);
                *next += number_figures(&page.content, chapter, 1).1;
            }
        }
        // Second pass: number them (mutable traversal visits pages in another order).
        book.for_each_mut(|item| {
            if let BookItem::Chapter(page) = item
                && let Some(path) = &page.path
                && let (Some(chapter), Some(start)) =
                    (chapter_number(path), first.get(path))
            {
                page.content = number_figures(&page.content, chapter, *start).0;
            }
        });
        Ok(book)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_are_numbered_in_order_and_other_images_are_not() {
        let page = "Text.\n\n![a plot](../figures/ode/a.svg)\n\n*What to look at:* the line.\n\n\
                    ![another](../figures/ode/b.svg)\n\n*The second.*\n\n![logo](logo.png)\n\n*no*\n";
        let (out, n) = number_figures(page, 4, 3);
        assert_eq!(n, 2);
        assert!(out.contains("**Figure 4.3.** *What to look at:* the line."), "{out}");
        assert!(out.contains("**Figure 4.4.** *The second.*"), "{out}");
        assert!(out.contains("\n*no*\n"), "{out}");
        assert_eq!(chapter_number(Path::new("04-constraints/models.md")), Some(4));
        assert_eq!(chapter_number(Path::new("00-preliminaries/index.md")), None);
        assert_eq!(chapter_number(Path::new("introduction.md")), None);
    }
}
