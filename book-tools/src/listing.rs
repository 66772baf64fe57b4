//! Listings say where they come from. Every code block of the book whose body is an
//! `{{#include path:anchor}}` of tested source gets a caption naming the file, before
//! mdBook's own `links` preprocessor replaces the include by the code (after the Rust
//! book's listing preprocessor, `mdbook-trpl`).

use mdbook_preprocessor::book::{Book, BookItem};
use mdbook_preprocessor::errors::Result;
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};

/// The caption of an included listing: the file's path from the repository root (the
/// include's `../` steps removed) and the anchored region, as HTML.
pub fn caption(include_path: &str, anchor: Option<&str>) -> String {
    let path = include_path.trim_start_matches("../").trim_start_matches("./");
    match anchor {
        Some(anchor) => format!(
            "<p class=\"listing-file\"><code>{path}</code> <span>({anchor})</span></p>"
        ),
        None => format!("<p class=\"listing-file\"><code>{path}</code></p>"),
    }
}

/// Puts a caption before every fenced code block that opens with an include of a
/// source file (`.rs`). Program output (`output/*.txt`) is left uncaptioned: its
/// command says what it is.
pub fn caption_listings(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len() + 1024);
    let mut lines = markdown.lines().peekable();
    while let Some(line) = lines.next() {
        if line.starts_with("```")
            && let Some(next) = lines.peek()
            && let Some(inner) = next
                .trim()
                .strip_prefix("{{#include ")
                .and_then(|r| r.strip_suffix("}}"))
        {
            let (path, anchor) = match inner.trim().split_once(':') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (inner.trim(), None),
            };
            if path.ends_with(".rs") {
                out.push_str(&caption(path, anchor));
                out.push_str("\n\n");
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Removes from every fenced code block the leading whitespace that all its non-blank lines
/// share.
pub fn dedent_listings(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    // The open block's lines and the indentation of its opening fence: a block inside
    // a list item is indented with the item, and must stay so or the list ends there.
    let mut block: Option<(Vec<&str>, usize)> = None;
    for line in markdown.lines() {
        let fence = line.trim_start().starts_with("```");
        let leading = line.len() - line.trim_start().len();
        match (&mut block, fence) {
            (None, true) => {
                out.push_str(line);
                out.push('\n');
                block = Some((Vec::new(), leading));
            }
            (Some((lines, fence_indent)), true) => {
                let indent = lines
                    .iter()
                    .filter(|l| !l.trim().is_empty())
                    .map(|l| l.len() - l.trim_start().len())
                    .min()
                    .unwrap_or(0);
                // Lines go to the fence's column: an included listing starts at the
                // margin, and inside a list item it must be indented with the item.
                let keep = *fence_indent;
                for l in lines.iter() {
                    if l.trim().is_empty() {
                        out.push('\n');
                        continue;
                    }
                    out.push_str(&" ".repeat(keep));
                    out.push_str(l.get(indent..).unwrap_or("").trim_end());
                    out.push('\n');
                }
                out.push_str(line);
                out.push('\n');
                block = None;
            }
            (Some((lines, _)), false) => lines.push(line),
            (None, false) => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    // An unclosed block is left as it was.
    for l in block.map(|(lines, _)| lines).unwrap_or_default() {
        out.push_str(l);
        out.push('\n');
    }
    out
}

/// An mdBook preprocessor that rewrites every page's Markdown with one function.
pub struct PageRewrite {
    name: &'static str,
    apply: fn(&str) -> String,
}

impl PageRewrite {
    /// [`caption_listings`]: it must run before `links`, which replaces the
    /// includes it reads; `book::build_book` registers it first.
    pub const CAPTIONS: PageRewrite =
        PageRewrite { name: "pbm-listings", apply: caption_listings };
    /// [`dedent_listings`]: it must run after `links`, which puts the code in.
    pub const DEDENT: PageRewrite =
        PageRewrite { name: "pbm-dedent", apply: dedent_listings };
}

impl Preprocessor for PageRewrite {
    fn name(&self) -> &str {
        self.name
    }

    fn run(&self, _ctx: &PreprocessorContext, mut book: Book) -> Result<Book> {
        book.for_each_mut(|item| {
            if let BookItem::Chapter(chapter) = item {
                chapter.content = (self.apply)(&chapter.content);
            }
        });
        Ok(book)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_region_from_inside_an_impl_starts_at_the_margin() {
        let page = "Text.\n\n```rust,ignore\n    /// Doc.\n    fn f() {\n\n        g();\n    }\n```\n\n    indented prose stays\n";
        assert_eq!(
            dedent_listings(page),
            "Text.\n\n```rust,ignore\n/// Doc.\nfn f() {\n\n    g();\n}\n```\n\n    indented prose stays\n"
        );
        assert_eq!(dedent_listings("```\n  a\n"), "```\n  a\n");
    }

    #[test]
    fn a_block_inside_a_list_item_stays_in_the_item() {
        // The console block is indented with its item; an included listing arrives at the
        // margin. Both end up at the fence's column, so the list goes on after them.
        let page = "1. Run:\n\n   ```console\n   $ pbm run x\n   ```\n\n   ```rust\nfn f() {}\n   ```\n2. Next.\n";
        assert_eq!(
            dedent_listings(page),
            "1. Run:\n\n   ```console\n   $ pbm run x\n   ```\n\n   ```rust\n   fn f() {}\n   ```\n2. Next.\n"
        );
    }

    #[test]
    fn source_listings_get_a_caption_and_output_does_not() {
        let page = "Text.\n\n```rust,ignore\n{{#include ../../../chapters/01-ode/src/system.rs:ode_system}}\n```\n\n```console\n{{#include ../output/ode-adaptive.txt}}\n```\n";
        let out = caption_listings(page);
        assert!(
            out.contains(
                "<p class=\"listing-file\"><code>chapters/01-ode/src/system.rs</code> \
                 <span>(ode_system)</span></p>\n\n```rust,ignore\n{{#include"
            ),
            "{out}"
        );
        assert_eq!(out.matches("listing-file").count(), 1, "{out}");
        assert!(out.starts_with("Text.\n\n<p"), "{out}");
    }
}
