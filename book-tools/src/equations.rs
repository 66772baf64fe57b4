//! Numbered equations. A page marks one of its key displays with `\label{name}`
//! inside the `$$ … $$`, as in LaTeX; the display is then numbered per chapter in
//! reading order, "(3.2)" for the second labelled display of chapter 3, with the
//! anchor `eq-3-2`. Prose cites it with `{{#eq name}}`, which becomes the number as a
//! link to the display, on any page of the book. Names are the author's; numbers
//! are the build's, so inserting an equation renumbers every citation of the ones
//! after it.
//!
//! A label on a page outside a numbered chapter, a name used twice and a citation
//! of a name no display carries are errors naming the page.

use crate::page_figures::chapter_number;
use pulldown_cmark::{Event, Options, Parser};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Where a numbered display is and what it is called in the built page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Numbered {
    /// The chapter's number.
    pub chapter: u32,
    /// Its place among the chapter's labelled displays, from 1.
    pub index: u32,
    /// The page, relative to `book/src` (`03-implicit/index.md`).
    pub page: PathBuf,
}

impl Numbered {
    /// The anchor of the display: `eq-3-2`.
    pub fn id(&self) -> String {
        format!("eq-{}-{}", self.chapter, self.index)
    }

    /// The number as the page prints it: `(3.2)`.
    pub fn number(&self) -> String {
        format!("({}.{})", self.chapter, self.index)
    }
}

/// The name of the `\label{name}` in a display's TeX and the TeX without it, or None
/// when the display has no label. A label with an empty or unclosed name is an error.
pub fn split_label(tex: &str) -> Result<Option<(String, String)>, String> {
    const LABEL: &str = "\\label{";
    let Some(at) = tex.find(LABEL) else {
        return Ok(None);
    };
    let rest = &tex[at + LABEL.len()..];
    let end = rest.find('}').ok_or("`\\label{` is not closed")?;
    let name = rest[..end].trim();
    let valid = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    if name.is_empty() || !name.chars().all(valid) {
        return Err(format!(
            "`\\label{{{name}}}`: a label is letters, digits, `-` and `_`"
        ));
    }
    let without = format!("{}{}", &tex[..at], &rest[end + 1..]);
    if without.contains(LABEL) {
        return Err(format!("two labels in one display (`{name}` and another)"));
    }
    Ok(Some((name.to_string(), without)))
}

/// The TeX of every display of a Markdown page, in order.
fn displays(markdown: &str) -> impl Iterator<Item = String> + '_ {
    Parser::new_ext(markdown, Options::ENABLE_MATH).filter_map(|event| match event {
        Event::DisplayMath(tex) => Some(tex.to_string()),
        _ => None,
    })
}

/// The book's numbered displays, by label.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Equations {
    labels: BTreeMap<String, Numbered>,
}

impl Equations {
    /// Numbers the labelled displays of `pages` (each a path relative to `book/src`
    /// and its Markdown), given in reading order.
    pub fn number<'a>(
        pages: impl IntoIterator<Item = (&'a Path, &'a str)>,
    ) -> Result<Equations, String> {
        let mut labels: BTreeMap<String, Numbered> = BTreeMap::new();
        let mut counts: BTreeMap<u32, u32> = BTreeMap::new();
        for (page, markdown) in pages {
            for tex in displays(markdown) {
                let where_ = || format!("{}", page.display());
                let Some((name, _)) =
                    split_label(&tex).map_err(|e| format!("{}: {e}", where_()))?
                else {
                    continue;
                };
                let chapter = chapter_number(page).ok_or_else(|| {
                    format!(
                        "{}: `\\label{{{name}}}` on a page outside a numbered chapter",
                        where_()
                    )
                })?;
                let index = counts.entry(chapter).or_insert(0);
                *index += 1;
                let numbered =
                    Numbered { chapter, index: *index, page: page.to_path_buf() };
                if let Some(first) = labels.insert(name.clone(), numbered) {
                    return Err(format!(
                        "{}: the label `{name}` is already used in {}",
                        where_(),
                        first.page.display()
                    ));
                }
            }
        }
        Ok(Equations { labels })
    }

    /// The book's numbered displays, read from its sources: the pages `SUMMARY.md`
    /// under `src` lists, in its order (for `pbm practice`, which names the equation a
    /// task implements without building the book).
    pub fn of_book(src: &Path) -> Result<Equations, String> {
        let summary = std::fs::read_to_string(src.join("SUMMARY.md"))
            .map_err(|e| format!("{}: {e}", src.join("SUMMARY.md").display()))?;
        let mut pages = Vec::new();
        for line in summary.lines() {
            let Some(link) =
                line.split("](").nth(1).and_then(|r| r.split(')').next())
            else {
                continue;
            };
            let text = std::fs::read_to_string(src.join(link))
                .map_err(|e| format!("{link}: {e}"))?;
            pages.push((PathBuf::from(link), text));
        }
        Equations::number(pages.iter().map(|(p, s)| (p.as_path(), s.as_str())))
    }

    /// The display labelled `name`.
    pub fn get(&self, name: &str) -> Option<&Numbered> {
        self.labels.get(name)
    }

    /// How many displays are numbered.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// Whether no display is numbered.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// The Markdown link that cites `name` from the page at `from`.
    pub fn link(&self, name: &str, from: &Path) -> Result<String, String> {
        let eq = self.get(name).ok_or_else(|| {
            format!("`{{{{#eq {name}}}}}`: no display is labelled `{name}`")
        })?;
        let target = if eq.page == from {
            String::new()
        } else {
            let up = from.parent().map_or(0, |p| p.components().count());
            format!("{}{}", "../".repeat(up), eq.page.display())
        };
        Ok(format!("[{}]({target}#{})", eq.number(), eq.id()))
    }

    /// `markdown` of the page at `from` with every `{{#eq name}}` outside fenced code
    /// replaced by its [`Equations::link`]; `\{{#eq` stays as written, without the
    /// backslash.
    pub fn cite(&self, markdown: &str, from: &Path) -> Result<String, String> {
        const CITE: &str = "{{#eq ";
        let mut out = String::with_capacity(markdown.len());
        let mut fenced = false;
        for (n, line) in markdown.split_inclusive('\n').enumerate() {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
            }
            let mut rest = line;
            while !fenced && let Some(start) = rest.find(CITE) {
                let after = &rest[start + CITE.len()..];
                let end = after.find("}}").ok_or_else(|| {
                    format!("line {}: `{{{{#eq` is not closed", n + 1)
                })?;
                if rest[..start].ends_with('\\') {
                    out.push_str(&rest[..start - 1]);
                    out.push_str(&rest[start..start + CITE.len() + end + 2]);
                } else {
                    out.push_str(&rest[..start]);
                    let link = self
                        .link(after[..end].trim(), from)
                        .map_err(|e| format!("line {}: {e}", n + 1))?;
                    out.push_str(&link);
                }
                rest = &after[end + 2..];
            }
            out.push_str(rest);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

    use super::*;

    fn book() -> Vec<(PathBuf, String)> {
        [
            ("introduction.md", "No numbers here: $$x$$\n"),
            (
                "02-particles/forces.md",
                "$$f = -kx \\label{hooke}$$\n\n$$g$$\n\n$$\\label{damp} f = -b v$$\n",
            ),
            (
                "02-particles/more.md",
                "```\n$$\\label{fenced}$$\n```\n$$\\label{drag}a$$\n",
            ),
            ("03-implicit/index.md", "$$\\label{backward}x_1 = x_0 + h f(x_1)$$\n"),
        ]
        .into_iter()
        .map(|(p, s)| (PathBuf::from(p), s.to_string()))
        .collect()
    }

    fn number(pages: &[(PathBuf, String)]) -> Result<Equations, String> {
        Equations::number(pages.iter().map(|(p, s)| (p.as_path(), s.as_str())))
    }

    #[test]
    fn labelled_displays_are_numbered_per_chapter_in_reading_order() {
        let eqs = number(&book()).unwrap();
        assert_eq!(eqs.len(), 4, "a fenced block is code, not a display");
        let numbers: Vec<_> = ["hooke", "damp", "drag", "backward"]
            .iter()
            .map(|n| (eqs.get(n).unwrap().number(), eqs.get(n).unwrap().id()))
            .collect();
        assert_eq!(
            numbers,
            [
                ("(2.1)".into(), "eq-2-1".into()),
                ("(2.2)".into(), "eq-2-2".into()),
                ("(2.3)".into(), "eq-2-3".into()),
                ("(3.1)".into(), "eq-3-1".into())
            ]
        );
    }

    #[test]
    fn citations_link_to_the_display_from_any_page() {
        let eqs = number(&book()).unwrap();
        let here = Path::new("02-particles/forces.md");
        assert_eq!(
            eqs.cite("by {{#eq hooke}} and {{#eq backward}}.\n", here).unwrap(),
            "by [(2.1)](#eq-2-1) and [(3.1)](../03-implicit/index.md#eq-3-1).\n"
        );
        let top = Path::new("introduction.md");
        assert_eq!(
            eqs.cite("{{#eq drag}}", top).unwrap(),
            "[(2.3)](02-particles/more.md#eq-2-3)"
        );
        let code = "```text\n{{#eq hooke}}\n```\n\\{{#eq hooke}} cites.\n";
        assert_eq!(eqs.cite(code, here).unwrap(), code.replace("\\{{", "{{"));
    }

    #[test]
    fn unknown_duplicate_and_misplaced_labels_are_errors_naming_the_page() {
        let eqs = number(&book()).unwrap();
        let here = Path::new("02-particles/forces.md");
        let e = eqs.cite("a\n{{#eq hook}}\n", here).unwrap_err();
        assert!(e.contains("line 2") && e.contains("`hook`"), "{e}");
        let mut pages = book();
        pages.push(("03-implicit/b.md".into(), "$$\\label{hooke}y$$".into()));
        let e = number(&pages).unwrap_err();
        assert!(e.contains("03-implicit/b.md") && e.contains("02-particles"), "{e}");
        let e =
            number(&[("refresher.md".into(), "$$\\label{x}y$$".into())]).unwrap_err();
        assert!(e.contains("refresher.md") && e.contains("outside"), "{e}");
        assert!(split_label("\\label{a b}x").is_err());
        assert!(split_label("\\label{a}\\label{b}").is_err());
        assert_eq!(
            split_label("x \\label{k} = 1").unwrap(),
            Some(("k".to_string(), "x  = 1".to_string()))
        );
    }
}
