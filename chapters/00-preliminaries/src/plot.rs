//! The shared look of every figure: an embedded font (figures must render on a machine with no
//! system fonts), a colour-blind-safe palette, sizes, and a helper that draws into an SVG string.

use crate::error::PbmError;
use plotters::chart::MeshStyle;
use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::coord::{CoordTranslate, Shift};
use plotters::prelude::*;
use plotters::style::FontStyle;
use std::sync::Once;

/// The font family every figure uses; registered from bytes shipped by the `dejavu` crate.
pub const FONT: &str = "sans-serif";
/// Default figure size in pixels (SVG user units).
pub const SIZE: (u32, u32) = (720, 480);
/// Caption (title) font size.
pub const TITLE_SIZE: u32 = 22;
/// Axis label font size.
pub const LABEL_SIZE: u32 = 17;
/// Tick label font size.
pub const TICK_SIZE: u32 = 14;
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

static REGISTER: Once = Once::new();

/// Registers the embedded DejaVu Sans under [`FONT`]. Called by [`draw_svg`]; idempotent.
pub fn ensure_font() {
    REGISTER.call_once(|| {
        // The bytes are a valid TrueType font shipped inside the crate; failure is impossible
        // short of a corrupted build, and would show as missing text, not a crash.
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
        let _ = plotters::style::register_font(FONT, FontStyle::Bold, dejavu::sans::bold());
    });
}

/// The error type figure code returns; any plotters error converts into it with `?`.
pub type DrawResult = Result<(), Box<dyn std::error::Error>>;

/// Draws a figure of `size` into an SVG string. `draw` receives the whole white canvas.
pub fn draw_svg<F>(name: &str, size: (u32, u32), draw: F) -> Result<String, PbmError>
where
    F: FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> DrawResult,
{
    ensure_font();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        let fail = |e: Box<dyn std::error::Error>| PbmError::Figure {
            name: name.to_string(),
            why: e.to_string(),
        };
        root.fill(&WHITE).map_err(|e| fail(e.into()))?;
        draw(&root).map_err(fail)?;
        root.present().map_err(|e| fail(e.into()))?;
    }
    Ok(svg)
}

/// Fails with a figure error if any value is not finite: NaN must never reach a picture.
pub fn require_finite(
    name: &str,
    values: impl IntoIterator<Item = f64>,
) -> Result<(), PbmError> {
    match values.into_iter().find(|v| !v.is_finite()) {
        None => Ok(()),
        Some(v) => Err(PbmError::Figure {
            name: name.to_string(),
            why: format!("data contains the non-finite value {v}"),
        }),
    }
}

/// Text style for titles.
pub fn title_font() -> TextStyle<'static> {
    (FONT, TITLE_SIZE).into_font().into()
}

/// Text style for axis labels.
pub fn label_font() -> TextStyle<'static> {
    (FONT, LABEL_SIZE).into_font().into()
}

/// Text style for tick labels and legends.
pub fn tick_font() -> TextStyle<'static> {
    (FONT, TICK_SIZE).into_font().into()
}

/// Draws the legend of `chart` in the shared style at `position`.
pub fn legend<'a, DB, CT>(
    chart: &mut ChartContext<'a, DB, CT>,
    position: SeriesLabelPosition,
) -> DrawResult
where
    DB: DrawingBackend + 'a,
    DB::ErrorType: 'static,
    CT: CoordTranslate,
{
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK.mix(0.4))
        .label_font(tick_font())
        .draw()?;
    Ok(())
}

/// The legend swatch of a line series drawn in colour `c`.
pub fn legend_line(c: RGBColor) -> impl Fn((i32, i32)) -> PathElement<(i32, i32)> {
    move |(x, y)| PathElement::new(vec![(x, y), (x + 22, y)], c.stroke_width(LINE_WIDTH))
}

/// Starts the axes of a chart in the shared style, with axis descriptions (say the units);
/// add formatters if needed, then call `.draw()`.
pub fn axes<'a, 'b, DB, XT, YT, X, Y>(
    chart: &'b mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    x_desc: &str,
    y_desc: &str,
) -> MeshStyle<'a, 'b, X, Y, DB>
where
    DB: DrawingBackend,
    X: Ranged<ValueType = XT> + ValueFormatter<XT>,
    Y: Ranged<ValueType = YT> + ValueFormatter<YT>,
{
    let mut mesh = chart.configure_mesh();
    mesh.x_desc(x_desc)
        .y_desc(y_desc)
        .axis_desc_style(label_font())
        .label_style(tick_font());
    mesh
}

/// Draws `points` as a line of colour `c` and `width`, with `label` in the legend.
pub fn labelled_line<'a, DB, XT, YT, X, Y>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    points: &[(XT, YT)],
    c: RGBColor,
    width: u32,
    label: &str,
) -> DrawResult
where
    DB: DrawingBackend + 'a,
    DB::ErrorType: 'static,
    XT: Clone + 'static,
    YT: Clone + 'static,
    X: Ranged<ValueType = XT>,
    Y: Ranged<ValueType = YT>,
{
    chart
        .draw_series(LineSeries::new(points.iter().cloned(), c.stroke_width(width)))?
        .label(label)
        .legend(legend_line(c));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_text_with_the_embedded_font() {
        let svg = draw_svg("test", (200, 100), |root| {
            root.draw(&Text::new("hello", (10, 50), tick_font()))?;
            Ok(())
        })
        .unwrap();
        assert!(svg.starts_with("<svg"), "{svg}");
        assert!(svg.contains("hello"));
        assert!(svg.contains("sans-serif"));
    }

    #[test]
    fn rejects_non_finite_data() {
        assert!(require_finite("f", [1.0, 2.0]).is_ok());
        let err = require_finite("f", [1.0, f64::NAN]).unwrap_err();
        assert!(err.to_string().contains("NaN"));
    }
}
