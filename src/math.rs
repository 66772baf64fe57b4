//! Build-time math: every `$...$` and `$$...$$` of a page becomes MathML, which browsers render
//! natively, so the built book needs no JavaScript and no network. pulldown-cmark (with its
//! math extension) finds the math, so dollar signs inside code are left alone.

use latex2mathml::{DisplayStyle, latex_to_mathml};
use mdbook_preprocessor::book::{Book, BookItem};
use mdbook_preprocessor::errors::{Error, Result};
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};
use pulldown_cmark::{Event, Options, Parser};

/// Replaces the math of one Markdown page with MathML. The error names the offending formula.
pub fn render_math(markdown: &str) -> std::result::Result<String, String> {
    let options = Options::ENABLE_MATH
        | Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_HEADING_ATTRIBUTES;
    let mut out = String::with_capacity(markdown.len() * 2);
    let mut copied_to = 0;
    for (event, range) in Parser::new_ext(markdown, options).into_offset_iter() {
        let (tex, style) = match &event {
            Event::InlineMath(tex) => (tex, DisplayStyle::Inline),
            Event::DisplayMath(tex) => (tex, DisplayStyle::Block),
            _ => continue,
        };
        let mathml = latex_to_mathml(tex, style)
            .map_err(|e| format!("cannot render ${tex}$: {e}"))?;
        // latex2mathml reports some unknown commands inside its output rather than as an error.
        if mathml.contains("PARSE ERROR") {
            return Err(format!("cannot render ${tex}$: unsupported command"));
        }
        out.push_str(&markdown[copied_to..range.start]);
        out.push_str(&protect_from_markdown(&mathml));
        copied_to = range.end;
    }
    out.push_str(&markdown[copied_to..]);
    Ok(out)
}

/// The MathML goes back into Markdown as inline HTML, whose text Markdown would still read:
/// `*`, `_` and friends in it are turned into character references.
fn protect_from_markdown(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for ch in html.chars() {
        match ch {
            '<' => in_tag = true,
            '>' => in_tag = false,
            _ => {}
        }
        if in_tag || ch == '>' {
            out.push(ch);
            continue;
        }
        match ch {
            '*' | '_' | '\\' | '`' | '[' | ']' | '$' | '~' | '|' | '!' | '#' => {
                out.push_str(&format!("&#{};", ch as u32));
            }
            // Newlines would let Markdown end a paragraph inside the formula.
            '\n' => out.push(' '),
            _ => out.push(ch),
        }
    }
    out
}

/// The mdBook preprocessor that applies [`render_math`] to every page.
pub struct MathPreprocessor;

impl Preprocessor for MathPreprocessor {
    fn name(&self) -> &str {
        "pbm-math"
    }

    fn run(&self, _ctx: &PreprocessorContext, mut book: Book) -> Result<Book> {
        let mut failure = None;
        book.for_each_mut(|item| {
            if let BookItem::Chapter(chapter) = item {
                match render_math(&chapter.content) {
                    Ok(content) => chapter.content = content,
                    Err(e) => {
                        failure
                            .get_or_insert_with(|| format!("page `{}`: {e}", chapter.name));
                    }
                }
            }
        });
        match failure {
            Some(message) => Err(Error::msg(message)),
            None => Ok(book),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_and_display_math_become_mathml() {
        let out =
            render_math("Euler: $x_1 = x_0 + h f$.\n\n$$\\dot{x} = -k x$$\n").unwrap();
        assert!(out.contains("<math"), "{out}");
        assert!(out.contains(r#"display="block""#), "{out}");
        assert!(!out.contains('$'), "{out}");
        assert!(out.starts_with("Euler: <math"), "{out}");
    }

    #[test]
    fn code_is_left_alone() {
        let src = "Cost: `$HOME`\n\n```rust\nlet s = \"$x$\";\n```\n";
        assert_eq!(render_math(src).unwrap(), src);
    }

    #[test]
    fn markdown_characters_inside_formulas_are_protected() {
        let out = render_math("$a * b * c$").unwrap();
        let text_only: String =
            out.split('<').map(|s| s.split_once('>').map_or(s, |p| p.1)).collect();
        assert!(!text_only.contains('*'), "{out}");
    }

    #[test]
    fn unsupported_commands_are_errors_not_garbage_in_the_page() {
        let err = render_math("$\\dddot{x}$").unwrap_err();
        assert!(err.contains("dddot"), "{err}");
    }

    #[test]
    fn bad_latex_is_an_error_naming_the_formula() {
        let err = render_math("broken: $\\begin{nope} x \\end{nope}$").unwrap_err();
        assert!(err.contains("\\begin{nope}"), "{err}");
    }
}
