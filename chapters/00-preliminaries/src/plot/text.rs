//! Text in a figure: tick labels set as a reader writes numbers, and lines that
//! wrap to a width.

use super::layout::Area;
use plotters::prelude::*;

/// Tick labels as a reader writes numbers: a real minus sign (U+2212) for plotters'
/// hyphen, and no sign on a zero (a tick a rounding error below zero prints as
/// "-0.0").
pub fn tidy_numbers(svg: &str) -> String {
    let mut out = String::with_capacity(svg.len());
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
        out.push_str(&tidy_label(&rest[open_end..close]));
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

/// Breaks `text` into lines no wider than `width` pixels in `style`, at spaces. A
/// word wider than the line stands on a line of its own.
pub fn wrap(
    area: &Area<'_>,
    text: &str,
    style: &TextStyle<'_>,
    width: u32,
) -> Vec<String> {
    let fits =
        |s: &str| area.estimate_text_size(s, style).is_ok_and(|(w, _)| w <= width);
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
