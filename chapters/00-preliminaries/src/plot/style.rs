//! The look every figure shares: the embedded font and its sizes as the browser
//! shows them, and the colour-blind-safe palette.

use plotters::prelude::*;
use plotters::style::FontStyle;
use std::sync::Once;

/// The font family every figure uses; registered from bytes shipped by the `dejavu`
/// crate.
pub const FONT: &str = "sans-serif";

/// plotters writes a font's size divided by this into the SVG (`plotters-svg`,
/// `draw_text`); sizes below are the ones the browser shows, so they are multiplied
/// by it on the way in.
const PLOTTERS_SVG_FONT_SCALE: f64 = 1.24;

/// Figure title, in SVG pixels as shown.
pub const TITLE_PX: f64 = 17.0;
/// Axis descriptions and panel captions.
pub const LABEL_PX: f64 = 16.0;
/// Tick labels, legend entries and notes inside a plot: the smallest text of any
/// figure.
pub const TICK_PX: f64 = 15.5;
/// Stroke width of data lines.
pub const LINE_WIDTH: u32 = 2;

/// The Okabe–Ito palette: distinguishable with the common forms of colour blindness.
pub const PALETTE: [RGBColor; 7] = [
    RGBColor(0, 114, 178),   // blue
    RGBColor(213, 94, 0),    // vermillion
    RGBColor(0, 158, 115),   // bluish green
    RGBColor(204, 121, 167), // reddish purple
    RGBColor(230, 159, 0),   // orange
    RGBColor(86, 180, 233),  // sky blue
    RGBColor(120, 120, 120), // grey
];

/// Colour number `i` of the palette (wrapping).
pub fn color(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// Grey used for reference curves (exact solutions) and vector-field arrows.
pub const REFERENCE: RGBColor = RGBColor(60, 60, 60);

/// Dash and gap lengths (pixels) of every dashed line, in plots and in legends alike.
pub const DASH: (u32, u32) = (7, 5);

static REGISTER: Once = Once::new();

/// Registers the embedded DejaVu Sans under [`FONT`]. Called by [`draw_svg`];
/// idempotent.
pub fn ensure_font() {
    REGISTER.call_once(|| {
        // The bytes are a valid TrueType font shipped inside the crate; failure is
        // impossible short of a corrupted build, and would show as missing text, not
        // a crash.
        let _ = plotters::style::register_font(
            FONT,
            FontStyle::Normal,
            dejavu::sans::regular(),
        );
        let _ = plotters::style::register_font(
            FONT,
            FontStyle::Italic,
            dejavu::sans::oblique(),
        );
        let _ = plotters::style::register_font(
            FONT,
            FontStyle::Bold,
            dejavu::sans::bold(),
        );
    });
}

/// A text style of `px` pixels as the browser will show it.
pub fn font(px: f64) -> TextStyle<'static> {
    (FONT, plotters_size(px)).into_font().into()
}

/// The size to give plotters for text the SVG states as `px`: `px` times plotters'
/// scale, or a neighbouring float whose division by it gives back `px` exactly ("16",
/// not "16.000000000000004"). Not every size has one (15 has none); the sizes above
/// do.
fn plotters_size(px: f64) -> f64 {
    let exact = |size: f64| size / PLOTTERS_SVG_FONT_SCALE == px;
    let (mut down, mut up) =
        (px * PLOTTERS_SVG_FONT_SCALE, px * PLOTTERS_SVG_FONT_SCALE);
    for _ in 0..8 {
        if exact(down) {
            return down;
        }
        if exact(up) {
            return up;
        }
        (down, up) = (down.next_down(), up.next_up());
    }
    px * PLOTTERS_SVG_FONT_SCALE
}

/// Text style for titles.
pub fn title_font() -> TextStyle<'static> {
    font(TITLE_PX)
}

/// Text style for axis descriptions and panel captions.
pub fn label_font() -> TextStyle<'static> {
    font(LABEL_PX)
}

/// Text style for tick labels, legends and notes.
pub fn tick_font() -> TextStyle<'static> {
    font(TICK_PX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::draw_svg;

    #[test]
    fn draws_text_with_the_embedded_font_at_the_stated_size() {
        let svg = draw_svg((200, 100), |root| {
            root.draw(&Text::new("hello", (10, 50), tick_font()))?;
            Ok(())
        })
        .unwrap();
        assert!(svg.starts_with("<svg"), "{svg}");
        assert!(svg.contains("hello"));
        assert!(svg.contains("sans-serif"));
        assert!(svg.contains(&format!("font-size=\"{TICK_PX}\"")), "{svg}");
        for px in [TICK_PX, LABEL_PX, TITLE_PX] {
            assert_eq!(plotters_size(px) / PLOTTERS_SVG_FONT_SCALE, px);
        }
    }
}
