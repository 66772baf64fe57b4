//! Figures as the page shows them. A page writes a figure as a Markdown image from
//! `figures/` followed by its italic caption. This preprocessor
//!
//! - numbers it: "Figure C.N." in front of the caption, C the chapter's number and N
//!   its place in the chapter, counted across the chapter's pages in reading order;
//! - shows the drawing that fits the screen: a `<picture>` whose narrow drawing
//!   (`name.narrow.svg`, panels stacked) replaces the wide one under
//!   [`NARROW_MEDIA`].

use mdbook_preprocessor::book::{Book, BookItem};
use mdbook_preprocessor::errors::Result;
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};
use pbm_prelim::plot::{Layout, NARROW_MEDIA};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The chapter number of a page from its folder (`04-constraints/models.md` → 4);
/// None for pages outside a numbered chapter.
pub fn chapter_number(path: &Path) -> Option<u32> {
    let folder = path.components().next()?.as_os_str().to_str()?;
    let digits: String = folder.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok().filter(|n| *n > 0)
}

/// The `<picture>` for a figure line `![alt](../figures/ch/name.svg)` (or, on a page
/// at the top of the book, `figures/name.svg`), or None for any other line.
pub fn picture(line: &str) -> Option<String> {
    let rest = line.trim_end().strip_prefix("![")?;
    let (alt, rest) = rest.split_once("](")?;
    let src = rest.strip_suffix(')')?;
    // Chapter pages sit one folder down; the introduction's figure at the top.
    let folder =
        if src.starts_with("../figures/") { "../figures/" } else { "figures/" };
    let stem = src.strip_prefix(folder)?.strip_suffix(".svg")?;
    let narrow = format!("{folder}{stem}{}.svg", Layout::Narrow.file_suffix());
    let escape = |s: &str| {
        s.replace('&', "&amp;")
            .replace('"', "&quot;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    Some(format!(
        "<picture class=\"pbm-figure\"><source media=\"{NARROW_MEDIA}\" srcset=\"{narrow}\">\
         <img src=\"{src}\" alt=\"{}\"></picture>",
        escape(alt)
    ))
}

/// Numbers the figures of one page of chapter `chapter`, the first being number
/// `first`, and turns their images into [`picture`]s. Returns the page and the number
/// of figures on it.
pub fn number_figures(markdown: &str, chapter: u32, first: u32) -> (String, u32) {
    let mut out = String::with_capacity(markdown.len() + 256);
    let (mut count, mut after_figure) = (0, false);
    for line in markdown.lines() {
        let mut line = line.to_string();
        if let Some(html) = picture(&line) {
            line = html;
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
pub struct PageFigures;

impl Preprocessor for PageFigures {
    fn name(&self) -> &str {
        "pbm-figures"
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
    fn alt_text_is_escaped_in_the_picture() {
        let html = picture("![x < 1 & \"y\"](../figures/ode/b.svg)").unwrap();
        assert!(html.contains("alt=\"x &lt; 1 &amp; &quot;y&quot;\""), "{html}");
        assert_eq!(picture("![a](other/b.svg)"), None);
    }

    #[test]
    fn figures_are_numbered_in_order_and_other_images_are_not() {
        let page = "Text.\n\n![a plot](../figures/ode/a.svg)\n\n*What to look at:* the line.\n\n\
                    ![another](../figures/ode/b.svg)\n\n*The second.*\n\n![logo](logo.png)\n\n*no*\n";
        let (out, n) = number_figures(page, 4, 3);
        assert_eq!(n, 2);
        assert!(
            out.contains("**Figure 4.3.** *What to look at:* the line."),
            "{out}"
        );
        assert!(out.contains("**Figure 4.4.** *The second.*"), "{out}");
        assert!(out.contains("\n*no*\n"), "{out}");
        assert!(out.contains("![logo](logo.png)"), "{out}");
        assert!(
            out.contains(
                "<picture class=\"pbm-figure\"><source media=\"(max-width: 620px)\" \
                 srcset=\"../figures/ode/a.narrow.svg\"><img src=\"../figures/ode/a.svg\" \
                 alt=\"a plot\"></picture>"
            ),
            "{out}"
        );
        assert_eq!(chapter_number(Path::new("04-constraints/models.md")), Some(4));
        assert_eq!(chapter_number(Path::new("00-preliminaries/index.md")), None);
        assert_eq!(chapter_number(Path::new("introduction.md")), None);
    }
}
