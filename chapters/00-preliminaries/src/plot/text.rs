//! Text in a figure: tick labels set as a reader writes numbers, and lines that
//! wrap to a width.

use super::layout::Area;
use plotters::prelude::*;

/// Tick labels as a reader writes numbers: a real minus sign (U+2212) for plotters'
/// hyphen, and no sign on a zero (a tick a rounding error below zero prints as
/// "-0.0").
pub fn tidy_numbers(svg: &str) -> String {
    map_labels(svg, |_, text| tidy_label(text))
}

/// `svg` with the text of each `<text>` element replaced by `f(opening tag, text)`.
fn map_labels(svg: &str, f: impl Fn(&str, &str) -> String) -> String {
    let mut out = String::with_capacity(svg.len() + 256);
    let mut rest = svg;
    while let Some(start) = rest.find("<text") {
        let Some(open_end) = rest[start..].find('>').map(|i| start + i + 1) else {
            break;
        };
        let Some(close) = rest[open_end..].find("</text>").map(|i| open_end + i)
        else {
            break;
        };
        out.push_str(&rest[..open_end]);
        out.push_str(&f(&rest[start..open_end], &rest[open_end..close]));
        rest = &rest[close..];
    }
    out.push_str(rest);
    out
}

/// One label's text, with the newlines plotters puts around it.
fn tidy_label(text: &str) -> String {
    let label = text.trim();
    let numeric = label.starts_with('-')
        && label.len() > 1
        && label[1..]
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | '-'));
    if !numeric {
        return text.to_string();
    }
    let tidy = if label[1..].chars().all(|c| c == '0' || c == '.') {
        label[1..].to_string()
    } else {
        label.replace('-', "\u{2212}")
    };
    text.replacen(label, &tidy, 1)
}

/// A tick label of a logarithmic axis: 10 to a superscript power (10⁻¹²), or the
/// plain number between them (2·10⁻³ as `2×10⁻³`), which reads better than `2e-3`.
pub fn power_of_ten(v: &f64) -> String {
    if *v <= 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let exponent = v.log10().floor();
    let mantissa = v / 10f64.powf(exponent);
    let (mantissa, exponent) =
        if mantissa > 9.95 { (1.0, exponent + 1.0) } else { (mantissa, exponent) };
    let power = format!("10{}", superscript(exponent as i64));
    if (mantissa - 1.0).abs() < 0.05 {
        power
    } else {
        format!("{mantissa:.0}×{power}")
    }
}

/// An integer as Unicode superscript digits.
fn superscript(n: i64) -> String {
    let digits = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let mut s = String::new();
    if n < 0 {
        s.push('⁻');
    }
    for c in n.unsigned_abs().to_string().chars() {
        s.push(digits[c.to_digit(10).unwrap_or(0) as usize]);
    }
    s
}

/// Opens a subscript in a label's text; [`set_scripts`] turns it into an SVG `tspan`.
const SUB: char = '\u{E000}';
/// Opens a superscript in a label's text.
const SUP: char = '\u{E001}';
/// Closes a subscript or superscript.
const END: char = '\u{E002}';
/// A script's size, in percent of its label's.
const SCRIPT_PERCENT: u32 = 75;
/// How far a subscript's baseline sits below its label's, as a fraction of the
/// label's size.
const SUB_DROP: f64 = 0.25;
/// How far a superscript's baseline sits above its label's.
const SUP_RISE: f64 = 0.4;

/// `index` as a subscript in a figure's label: `format!("k{} = 2 N s/m", sub("d"))`
/// draws k with a small lowered d, where TeX would write `k_d`. A number becomes
/// Unicode subscript digits (r₀, as [`power_of_ten`] writes its superscripts);
/// letters are set smaller and lower by the SVG itself, because Unicode has
/// subscripts for only some of them (no c, d, f, w, y or z: k_d, h_c, ε_w, ω_y).
pub fn sub(index: &str) -> String {
    let digits = ['₀', '₁', '₂', '₃', '₄', '₅', '₆', '₇', '₈', '₉'];
    if !index.is_empty() && index.chars().all(|c| c.is_ascii_digit()) {
        return index
            .chars()
            .map(|c| digits[c.to_digit(10).unwrap_or(0) as usize])
            .collect();
    }
    format!("{SUB}{index}{END}")
}

/// `exponent` as a superscript in a figure's label: `format!("e{}", sup("−kt"))` for
/// TeX's `e^{-kt}`, set smaller and raised by the SVG.
pub fn sup(exponent: &str) -> String {
    format!("{SUP}{exponent}{END}")
}

/// Sets the scripts [`sub`] and [`sup`] marked in each `<text>` of `svg` as `tspan`s
/// of three quarters of its size (as a script is in print), moved down or up with
/// `dy` (which every SVG renderer honours, unlike `baseline-shift`), and brings the
/// text after one back to its baseline.
pub fn set_scripts(svg: &str) -> String {
    if !svg.contains([SUB, SUP]) {
        return svg.to_string();
    }
    map_labels(svg, |tag, text| {
        let size = tag
            .split("font-size=\"")
            .nth(1)
            .and_then(|s| s.split('"').next())
            .and_then(|s| s.parse::<f64>().ok())
            .unwrap_or(super::style::TICK_PX);
        scripts_in(text, size)
    })
}

/// One label's text with its marked scripts as `tspan`s; `size` is the label's.
fn scripts_in(text: &str, size: f64) -> String {
    let px = |v: f64| format!("{}", (v * 100.0).round() / 100.0);
    let mut out = String::with_capacity(text.len() + 64);
    // The baseline's offset below the label's, in pixels.
    let mut offset = 0.0;
    let mut script: Option<f64> = None;
    let mut run = String::new();
    let mut flush = |run: &mut String, target: f64, small: bool, offset: &mut f64| {
        if run.is_empty() {
            return;
        }
        let dy = target - *offset;
        let moved = dy.abs() > 1e-9;
        if !small && !moved {
            out.push_str(run);
        } else {
            out.push_str("<tspan");
            if small {
                out.push_str(&format!(" font-size=\"{SCRIPT_PERCENT}%\""));
            }
            if moved {
                out.push_str(&format!(" dy=\"{}\"", px(dy)));
            }
            out.push('>');
            out.push_str(run);
            out.push_str("</tspan>");
        }
        *offset = target;
        run.clear();
    };
    for c in text.chars() {
        match c {
            SUB | SUP => {
                flush(&mut run, 0.0, false, &mut offset);
                script =
                    Some(if c == SUB { size * SUB_DROP } else { -size * SUP_RISE });
            }
            END => {
                flush(&mut run, script.unwrap_or(0.0), script.is_some(), &mut offset);
                script = None;
            }
            _ => run.push(c),
        }
    }
    // Trailing whitespace (plotters' newline) needs no tspan of its own.
    let target = match script {
        Some(t) => t,
        None if run.trim().is_empty() => offset,
        None => 0.0,
    };
    flush(&mut run, target, script.is_some(), &mut offset);
    out
}

/// Breaks `text` into lines no wider than `width` pixels in `style`, at spaces. A
/// word wider than the line stands on a line of its own.
pub fn wrap(
    area: &Area<'_>,
    text: &str,
    style: &TextStyle<'_>,
    width: u32,
) -> Vec<String> {
    // Measured as drawn: without the marks of its scripts (see [`sub`]).
    let fits = |s: &str| {
        let drawn: String =
            s.chars().filter(|c| ![SUB, SUP, END].contains(c)).collect();
        area.estimate_text_size(&drawn, style).is_ok_and(|(w, _)| w <= width)
    };
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line) if fits(&format!("{line} {word}")) => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// Height in pixels of one line of text in `style`, with leading.
pub(super) fn line_height(area: &Area<'_>, style: &TextStyle<'_>) -> u32 {
    let h = area.estimate_text_size("Ag", style).map_or(20, |(_, h)| h);
    (f64::from(h) * 1.25).ceil() as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::{draw_svg, title_font, titled};

    #[test]
    fn numeric_labels_get_a_real_minus_and_zero_has_no_sign() {
        let svg = "<text x=\"1\">\n-0.0\n</text><text>\n-2.5\n</text><text>-0\n</text>\
                   <text>x-y\n</text><text>\n-1e-3\n</text><text>-\n</text>";
        assert_eq!(
            tidy_numbers(svg),
            "<text x=\"1\">\n0.0\n</text><text>\n\u{2212}2.5\n</text><text>0\n</text>\
             <text>x-y\n</text><text>\n\u{2212}1e\u{2212}3\n</text><text>-\n</text>"
        );
    }

    #[test]
    fn scripts_are_set_as_small_shifted_tspans() {
        assert_eq!(sub("12"), "₁₂");
        let label = format!("k{} = 2 N s/m, e{}", sub("d"), sup("−kt"));
        let svg = format!("<text x=\"1\" font-size=\"16\">\n{label}\n</text>");
        assert_eq!(
            set_scripts(&svg),
            "<text x=\"1\" font-size=\"16\">\nk<tspan font-size=\"75%\" dy=\"4\">d</tspan>\
             <tspan dy=\"-4\"> = 2 N s/m, e</tspan><tspan font-size=\"75%\" dy=\"-6.4\">\
             −kt</tspan>\n</text>"
        );
        // A label without scripts is left alone.
        assert_eq!(set_scripts("<text>\nx\n</text>"), "<text>\nx\n</text>");
    }

    #[test]
    fn log_ticks_read_as_powers_of_ten() {
        assert_eq!(power_of_ten(&1e-12), "10⁻¹²");
        assert_eq!(power_of_ten(&1000.0), "10³");
        assert_eq!(power_of_ten(&1.0), "10⁰");
        assert_eq!(power_of_ten(&0.002), "2×10⁻³");
        assert_eq!(power_of_ten(&9.999e4), "10⁵");
    }

    #[test]
    fn long_titles_wrap_on_a_narrow_drawing() {
        draw_svg((360, 200), |root| {
            let text =
                "Dormand-Prince at tol = 1e-6 on an orbit of eccentricity 0.9: 97 steps";
            assert!(wrap(root, text, &title_font(), 344).len() >= 2);
            assert_eq!(wrap(root, text, &title_font(), 2000).len(), 1);
            let below = titled(root, text, &title_font())?;
            assert!(below.dim_in_pixel().1 < 160);
            Ok(())
        })
        .unwrap();
    }
}
