//! Build-time math: every `$...$` and `$$...$$` of a page becomes MathML Core, which
//! browsers render natively, so the built book needs no JavaScript and no network.
//! pulldown-cmark (with its math extension) finds the math, so dollar signs inside
//! code are left alone; math-core writes MathML that Chromium, Firefox and Safari all
//! render alike: bold vectors as Unicode bold letters (𝐱), a real minus sign (−),
//! stretchy fences and accents. The book ships an OpenType math font (New Computer
//! Modern Math) for it, see [`MATH_FONT`].

use crate::equations::{Equations, split_label};
use math_core::{LatexToMathML, MathCoreConfig, MathDisplay};
use mdbook_preprocessor::book::{Book, BookItem};
use mdbook_preprocessor::errors::{Error, Result};
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};
use pulldown_cmark::{Event, Options, Parser};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::OnceLock;

/// The file name the book's CSS loads the math font from, under the built book's
/// `fonts/`: [`math_font_woff2`] of the characters the book's formulas use.
pub const MATH_FONT: &str = "NewCMMath-Regular.woff2";

/// The bytes of New Computer Modern Math (regular weight), an OpenType font with a
/// MATH table, from the fonts the `typst-assets` crate ships. None if the crate no
/// longer carries it.
pub fn math_font() -> Option<&'static [u8]> {
    typst_assets::fonts().find(|bytes| {
        ttf_parser::Face::parse(bytes, 0).is_ok_and(|face| {
            face.names().into_iter().any(|name| {
                name.name_id == ttf_parser::name_id::POST_SCRIPT_NAME
                    && name.to_string().as_deref() == Some("NewCMMath-Regular")
            })
        })
    })
}

/// [`math_font`] cut to the letters, digits, accents, operators, arrows and fences
/// formulas use, with their MATH-table size variants and the features MathML rendering
/// applies: a sixth of the whole font's glyphs. `book-tools/fonts/subset-math-font.sh`
/// writes it with fontTools, the one subsetter that renumbers the MATH table's glyphs
/// consistently (typst's `subsetter` and `allsorts` drop the table, `skera` copies it
/// unchanged); it is rerun when a formula needs a character the subset lacks.
pub const MATH_FONT_SUBSET: &[u8] =
    include_bytes!("../fonts/NewCMMath-Regular-subset.otf");

/// The math font a book whose formulas draw the characters `used` ships, as WOFF2
/// (Brotli inside): [`MATH_FONT_SUBSET`] if it has a glyph for every one of them that
/// the whole font has, otherwise the whole font, with the characters the subset lacks
/// (the caller says so; a page never loses a glyph to the subset). Errors say why.
pub fn math_font_woff2(
    used: &BTreeSet<char>,
) -> std::result::Result<(Vec<u8>, Vec<char>), String> {
    let whole =
        math_font().ok_or("typst-assets no longer ships New Computer Modern Math")?;
    let parse = |font| {
        ttf_parser::Face::parse(font, 0).map_err(|e| format!("the math font: {e}"))
    };
    let (whole_face, subset_face) = (parse(whole)?, parse(MATH_FONT_SUBSET)?);
    let missing: Vec<char> = used
        .iter()
        .copied()
        .filter(|&c| {
            whole_face.glyph_index(c).is_some()
                && subset_face.glyph_index(c).is_none()
        })
        .collect();
    let font = if missing.is_empty() { MATH_FONT_SUBSET } else { whole };
    let woff2 = ttf2woff2::encode(font, ttf2woff2::BrotliQuality::default())
        .map_err(|e| format!("the math font as WOFF2: {e}"))?;
    Ok((woff2, missing))
}

/// Adds to `chars` every character the browser draws from the math font in `html`: the
/// text inside each `<math>` element, and for a one-letter `<mi>` without a
/// `mathvariant` the italic letter MathML Core draws instead ([`italic`]).
pub fn math_chars(html: &str, chars: &mut BTreeSet<char>) {
    let mut rest = html;
    while let Some(start) = rest.find("<math") {
        let Some(end) = rest[start..].find("</math>").map(|i| start + i) else {
            break;
        };
        let mut math = &rest[start..end];
        rest = &rest[end..];
        // Alternate tags and text: `<tag …>text<tag …>text…`.
        let mut in_plain_mi = false;
        while let Some(open) = math.find('<') {
            let text = unescape(&math[..open]);
            chars.extend(text.chars());
            let mut letters = text.chars();
            if let (true, Some(letter), None) =
                (in_plain_mi, letters.next(), letters.next())
            {
                chars.extend(italic(letter));
            }
            let Some(close) = math[open..].find('>').map(|i| open + i) else {
                break;
            };
            let tag = &math[open + 1..close];
            in_plain_mi = (tag == "mi" || tag.starts_with("mi "))
                && !tag.contains("mathvariant");
            math = &math[close + 1..];
        }
        chars.extend(unescape(math).chars());
    }
}

/// The five XML escapes and numeric references, as characters.
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        let Some(semi) = after.find(';').filter(|&i| i <= 10) else {
            out.push('&');
            rest = after;
            continue;
        };
        let name = &after[..semi];
        let c = match name {
            "lt" => Some('<'),
            "gt" => Some('>'),
            "amp" => Some('&'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => name
                .strip_prefix("#x")
                .or_else(|| name.strip_prefix("#X"))
                .map(|hex| u32::from_str_radix(hex, 16))
                .or_else(|| name.strip_prefix('#').map(str::parse))
                .and_then(Result::ok)
                .and_then(char::from_u32),
        };
        match c {
            Some(c) => {
                out.push(c);
                rest = &after[semi + 1..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The letter MathML Core draws for a one-letter `<mi>`: its italic form from the
/// Mathematical Alphanumeric Symbols block (Latin, Greek, dotless i and j, ∇ and ∂, the
/// variant Greek letters; ℎ for h), or None for a character without one.
pub fn italic(c: char) -> Option<char> {
    let shift = |from: char, to: u32| char::from_u32(to + (c as u32 - from as u32));
    match c {
        'h' => Some('\u{210E}'),
        'A'..='Z' => shift('A', 0x1D434),
        'a'..='z' => shift('a', 0x1D44E),
        '\u{131}' => Some('\u{1D6A4}'),
        '\u{237}' => Some('\u{1D6A5}'),
        '\u{391}'..='\u{3A1}' => shift('\u{391}', 0x1D6E2),
        '\u{3F4}' => Some('\u{1D6F3}'),
        '\u{3A3}'..='\u{3A9}' => shift('\u{3A3}', 0x1D6F4),
        '\u{2207}' => Some('\u{1D6FB}'),
        '\u{3B1}'..='\u{3C9}' => shift('\u{3B1}', 0x1D6FC),
        '\u{2202}' => Some('\u{1D715}'),
        '\u{3F5}' => Some('\u{1D716}'),
        '\u{3D1}' => Some('\u{1D717}'),
        '\u{3F0}' => Some('\u{1D718}'),
        '\u{3D5}' => Some('\u{1D719}'),
        '\u{3F1}' => Some('\u{1D71A}'),
        '\u{3D6}' => Some('\u{1D71B}'),
        _ => None,
    }
}

/// A formula that could not be converted, with the reason.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("cannot render ${formula}$: {why}")]
pub struct MathError {
    /// The LaTeX source.
    pub formula: String,
    /// What the converter said.
    pub why: String,
}

fn converter() -> &'static std::result::Result<LatexToMathML, String> {
    static CONVERTER: OnceLock<std::result::Result<LatexToMathML, String>> =
        OnceLock::new();
    CONVERTER.get_or_init(|| {
        LatexToMathML::new(MathCoreConfig::default()).map_err(|e| format!("{e:?}"))
    })
}

/// Replaces the math of one Markdown page with MathML. The error names the offending
/// formula. A display's `\label{…}` is dropped (see [`render_numbered`]).
pub fn render_math(markdown: &str) -> std::result::Result<String, MathError> {
    render_numbered(markdown, &Equations::default())
}

/// [`render_math`], with the displays `equations` numbers set beside their number
/// and given their anchor: `<span class="pbm-eq" id="eq-3-2">…(3.2)</span>`.
pub fn render_numbered(
    markdown: &str,
    equations: &Equations,
) -> std::result::Result<String, MathError> {
    let converter = converter().as_ref().map_err(|why| MathError {
        formula: String::new(),
        why: format!("the converter could not be set up: {why}"),
    })?;
    let options = Options::ENABLE_MATH
        | Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_HEADING_ATTRIBUTES;
    let mut out = String::with_capacity(markdown.len() * 2);
    let mut copied_to = 0;
    for (event, range) in Parser::new_ext(markdown, options).into_offset_iter() {
        let (tex, style) = match &event {
            Event::InlineMath(tex) => (tex, MathDisplay::Inline),
            Event::DisplayMath(tex) => (tex, MathDisplay::Block),
            _ => continue,
        };
        let (label, tex) = match split_label(tex) {
            Ok(Some((label, tex))) => (Some(label), tex),
            Ok(None) => (None, tex.to_string()),
            Err(why) => return Err(MathError { formula: tex.to_string(), why }),
        };
        let mathml = converter
            .convert_with_local_state(&tex, style)
            .map_err(|e| MathError {
                formula: tex.to_string(),
                why: format!("{e:?}"),
            })?
            .mathml;
        out.push_str(&markdown[copied_to..range.start]);
        let html = protect_from_markdown(&dots_clear_their_letters(&mathml));
        match label.as_deref().and_then(|l| equations.get(l)) {
            Some(eq) => out.push_str(&format!(
                "<span class=\"pbm-eq\" id=\"{}\">{html}<span class=\"pbm-eq-number\">{}</span></span>",
                eq.id(),
                eq.number()
            )),
            None => out.push_str(&html),
        }
        copied_to = range.end;
    }
    out.push_str(&markdown[copied_to..]);
    Ok(out)
}

/// Dot accents (ẋ, ẍ, and the triple and quadruple dots of 𝐘⃛) as over-scripts, not
/// accents: Chromium sets a MathML accent on the letter's own height, and with this
/// font a dot over l, d, θ or a bold 𝐥 touches the letter or vanishes into it (𝐥̇·𝐥
/// reads 𝐥·𝐥; the three dots of 𝐘⃛ sit on its serifs). Without `accent="true"` the dot
/// sits above the letter's ink. Other accents (hats, bars, arrows) keep it.
pub fn dots_clear_their_letters(mathml: &str) -> String {
    const OPEN: &str = "<mover accent=\"true\">";
    let mut out = String::with_capacity(mathml.len());
    let mut rest = mathml;
    while let Some(at) = rest.find(OPEN) {
        out.push_str(&rest[..at]);
        let body = &rest[at + OPEN.len()..];
        let is_dot = closing(body).is_some_and(|end| {
            let inner = body[..end].trim_end();
            ["˙", "¨", "\u{307}", "\u{308}", "\u{20DB}", "\u{20DC}"]
                .iter()
                .any(|dot| inner.ends_with(&format!("{dot}</mo>")))
        });
        out.push_str(if is_dot { "<mover>" } else { OPEN });
        rest = body;
    }
    out.push_str(rest);
    out
}

/// Where the `</mover>` that closes an element whose content starts `body` is.
fn closing(body: &str) -> Option<usize> {
    let mut depth = 1;
    let mut i = 0;
    while i < body.len() {
        let rest = &body[i..];
        if rest.starts_with("<mover") {
            depth += 1;
        } else if rest.starts_with("</mover>") {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
        i += rest.chars().next().map_or(1, char::len_utf8);
    }
    None
}

/// The MathML goes back into Markdown as inline HTML, whose text Markdown would still
/// read: `*`, `_` and friends in it are turned into character references.
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
        let pages: Vec<(PathBuf, String)> = book
            .iter()
            .filter_map(|item| match item {
                BookItem::Chapter(c) => Some((c.path.clone()?, c.content.clone())),
                _ => None,
            })
            .collect();
        let equations =
            Equations::number(pages.iter().map(|(p, s)| (p.as_path(), s.as_str())))
                .map_err(Error::msg)?;
        let mut failure = None;
        book.for_each_mut(|item| {
            if let BookItem::Chapter(chapter) = item {
                let path = chapter.path.clone().unwrap_or_default();
                let page =
                    equations.cite(&chapter.content, &path).and_then(|cited| {
                        render_numbered(&cited, &equations).map_err(|e| e.to_string())
                    });
                match page {
                    Ok(content) => chapter.content = content,
                    Err(e) => {
                        failure.get_or_insert_with(|| {
                            format!("page `{}`: {e}", chapter.name)
                        });
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
        let out = render_math("Euler: $x_1 = x_0 + h f$.\n\n$$\\dot{x} = -k x$$\n")
            .unwrap();
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
        let err = render_math("$\\frobnicate{x}$").unwrap_err();
        assert_eq!(err.formula, "\\frobnicate{x}");
        assert!(err.to_string().contains("frobnicate"), "{err}");
    }

    #[test]
    fn bad_latex_is_an_error_naming_the_formula() {
        let err = render_math("broken: $\\begin{nope} x \\end{nope}$").unwrap_err();
        assert!(err.to_string().contains("\\begin{nope}"), "{err}");
    }

    #[test]
    fn bold_vectors_minus_signs_and_hats_come_out_as_mathml_core() {
        let out = render_math("$\\mathbf{x}_0 - \\hat{\\mathbf{u}}$").unwrap();
        assert!(out.contains('𝐱') && out.contains('𝐮'), "bold letters: {out}");
        assert!(
            out.contains('−') && !out.contains(">-<"),
            "a real minus sign: {out}"
        );
        assert!(
            out.contains("<mover"),
            "the hat is an accent over the letter: {out}"
        );
        assert!(!out.contains("mathvariant=\"bold\""), "{out}");
    }

    #[test]
    fn dot_accents_become_over_scripts_and_other_accents_stay_accents() {
        let out =
            render_math("$\\dot{\\mathbf{l}} + \\ddot\\theta + \\hat{\\mathbf{u}}$")
                .unwrap();
        assert_eq!(out.matches("<mover accent=\"true\">").count(), 1, "{out}");
        assert_eq!(out.matches("<mover>").count(), 2, "{out}");
        // A dot over something that itself has an accent: only the dot's changes.
        let nested = render_math("$\\dot{\\hat{x}}$").unwrap();
        assert_eq!(nested.matches("<mover accent=\"true\">").count(), 1, "{nested}");
        assert!(nested.contains("<mover><mover accent"), "{nested}");
        // The triple dot (U+20DB) would sit on a bold Y's serifs as an accent.
        let triple = render_math("$\\dddot{\\mathbf{Y}}$").unwrap();
        assert!(triple.contains('\u{20DB}'), "{triple}");
        assert!(!triple.contains("<mover accent"), "{triple}");
    }

    #[test]
    fn a_labelled_display_carries_its_number_and_anchor_and_loses_the_label() {
        let page = "$$\\dot x = v \\label{velocity}$$\n";
        let path = std::path::Path::new("01-ode/index.md");
        let eqs = Equations::number([(path, page)]).unwrap();
        let out = render_numbered(page, &eqs).unwrap();
        assert!(
            out.starts_with("<span class=\"pbm-eq\" id=\"eq-1-1\"><math"),
            "{out}"
        );
        assert!(
            out.contains("<span class=\"pbm-eq-number\">(1.1)</span></span>"),
            "{out}"
        );
        assert!(!out.contains("label") && !out.contains("velocity"), "{out}");
        // Without a table of numbers the label is only dropped.
        let plain = render_math(page).unwrap();
        assert!(plain.starts_with("<math") && !plain.contains("velocity"), "{plain}");
    }

    #[test]
    fn the_math_font_is_shipped() {
        let font =
            math_font().expect("typst-assets carries New Computer Modern Math");
        let face = ttf_parser::Face::parse(font, 0).unwrap();
        assert!(face.tables().math.is_some(), "an OpenType MATH table");
    }

    #[test]
    fn the_subset_keeps_the_math_table_and_is_a_fraction_of_the_font() {
        let whole = math_font().unwrap();
        let face = ttf_parser::Face::parse(MATH_FONT_SUBSET, 0).unwrap();
        let math = face.tables().math.expect("the subset keeps its MATH table");
        // The table's variants name glyphs the subset has: a stretched parenthesis.
        let paren = face.glyph_index('(').unwrap();
        let variants = math.variants.unwrap();
        let tall = variants.vertical_constructions.get(paren).unwrap();
        assert!(tall.variants.len() > 3, "{} size variants", tall.variants.len());
        for v in tall.variants {
            assert!(v.variant_glyph.0 < face.number_of_glyphs());
        }
        assert!(
            MATH_FONT_SUBSET.len() < whole.len() / 2,
            "{}",
            MATH_FONT_SUBSET.len()
        );
    }

    #[test]
    fn a_formula_within_the_subset_ships_the_subset_and_one_beyond_it_the_whole_font()
    {
        let mut used = BTreeSet::new();
        math_chars(
            &render_math("$\\dot{\\mathbf{x}} = \\sum_i h\\,\\theta_i$").unwrap(),
            &mut used,
        );
        let (small, missing) = math_font_woff2(&used).unwrap();
        assert!(missing.is_empty(), "{missing:?}");
        assert_eq!(&small[..4], b"wOF2");
        // A character the subset leaves out (a Fraktur letter) brings back the whole font.
        used.insert('\u{1D504}');
        let (whole, missing) = math_font_woff2(&used).unwrap();
        assert_eq!(missing, ['\u{1D504}']);
        assert!(
            whole.len() > 2 * small.len(),
            "{} against {}",
            whole.len(),
            small.len()
        );
        // A character no math font draws (a CJK ideograph) is not the subset's fault.
        let (_, missing) = math_font_woff2(&BTreeSet::from(['字'])).unwrap();
        assert!(missing.is_empty());
    }

    #[test]
    fn the_characters_of_a_formula_include_the_italic_letters_the_browser_draws() {
        let mut chars = BTreeSet::new();
        math_chars(
            "<p>x</p><math><mi>h</mi><mo>&lt;</mo><mi mathvariant=\"normal\">d</mi>\
             <mi>sin</mi><mi>θ</mi><mn>2</mn><mo>&#x2212;</mo></math>",
            &mut chars,
        );
        let expected: BTreeSet<char> =
            "h<dsinθ2\u{2212}\u{210E}\u{1D703}".chars().collect();
        assert_eq!(chars, expected);
        assert_eq!(italic('A'), Some('\u{1D434}'));
        assert_eq!(italic('z'), Some('\u{1D467}'));
        assert_eq!(italic('Ω'), Some('\u{1D6FA}'));
        assert_eq!(italic('ω'), Some('\u{1D714}'));
        assert_eq!(italic('1'), None);
    }
}
