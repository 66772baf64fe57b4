//! The shared look of every figure: an embedded font (figures must render on a
//! machine with no system fonts), a colour-blind-safe palette, two layouts (the
//! page's column and a phone's), legends drawn below the plot, titles that wrap, and
//! tick labels set as a reader writes them.
//!
//! Sizes are in SVG pixels, which the page shows one to one in its 750-pixel column:
//! a 720-pixel [`Layout::Wide`] figure with 15.5-pixel tick labels shows them at 15.5
//! pixels on a desktop, and a 360-pixel [`Layout::Narrow`] one shows them at about 15
//! in a 390-pixel phone's 350-pixel column. The page picks the drawing with a
//! `<picture>` element and [`NARROW_MEDIA`].

use crate::error::PbmError;
use plotters::chart::MeshStyle;
use plotters::coord::Shift;
use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::prelude::*;
use plotters::style::FontStyle;
use plotters::style::text_anchor::{HPos, Pos, VPos};
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

/// The media query under which a page shows a figure's narrow drawing: a viewport of
/// at most 620 pixels has a column of at most 580, where the wide drawing's
/// 15.5-pixel labels would shrink below 12.5.
pub const NARROW_MEDIA: &str = "(max-width: 620px)";

// ANCHOR: layout
/// The two drawings of every figure: one for the book's column on a wide screen, one
/// for a phone, where panels stack instead of standing side by side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// 720 pixels wide: the 750-pixel column of a desktop page, shown one to one.
    Wide,
    /// 360 pixels wide: the 350-pixel column of a 390-pixel phone.
    Narrow,
}

impl Layout {
    /// Both layouts, wide first.
    pub const ALL: [Layout; 2] = [Layout::Wide, Layout::Narrow];

    /// Width of the drawing in pixels.
    pub const fn width(self) -> u32 {
        match self {
            Layout::Wide => 720,
            Layout::Narrow => 360,
        }
    }

    /// What goes between a figure's name and `.svg`: nothing for wide, `.narrow` for
    /// narrow.
    pub const fn file_suffix(self) -> &'static str {
        match self {
            Layout::Wide => "",
            Layout::Narrow => ".narrow",
        }
    }

    /// `wide` when wide, `narrow` when narrow.
    pub fn pick<T>(self, wide: T, narrow: T) -> T {
        match self {
            Layout::Wide => wide,
            Layout::Narrow => narrow,
        }
    }
}
// ANCHOR_END: layout

/// One drawing of a figure: its layout and its SVG text.
#[derive(Clone, Debug)]
pub struct Drawing {
    /// Which of the two layouts this is.
    pub layout: Layout,
    /// The SVG document.
    pub svg: String,
}

/// The drawing area every figure draws on.
pub type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

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

/// The error type figure code returns; any plotters error converts into it with `?`.
pub type DrawResult = Result<(), Box<dyn std::error::Error>>;

/// Draws one SVG of `size` into a string. `draw` receives the whole (white) canvas.
pub fn draw_svg<F>(size: (u32, u32), draw: F) -> Result<String, PbmError>
where
    F: FnOnce(&Area<'_>) -> DrawResult,
{
    ensure_font();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        let fail =
            |e: Box<dyn std::error::Error>| PbmError::Figure { why: e.to_string() };
        root.fill(&WHITE).map_err(|e| fail(e.into()))?;
        draw(&root).map_err(fail)?;
        root.present().map_err(|e| fail(e.into()))?;
    }
    Ok(tidy_numbers(&svg))
}

// ANCHOR: draw_figure
/// Draws a figure in both layouts from data computed once: `heights` are the wide
/// and the narrow drawing's heights in pixels, and `draw` draws on a canvas of
/// [`Layout::width`] by that height.
pub fn draw_figure<F>(heights: [u32; 2], draw: F) -> Result<Vec<Drawing>, PbmError>
where
    F: Fn(&Area<'_>, Layout) -> DrawResult,
{
    Layout::ALL
        .iter()
        .map(|&layout| {
            let size = (layout.width(), layout.pick(heights[0], heights[1]));
            let svg = draw_svg(size, |root| draw(root, layout))?;
            Ok(Drawing { layout, svg })
        })
        .collect()
}

/// [`draw_figure`] under a title: `draw` gets the area below `title`, which wraps to
/// the drawing's width.
pub fn titled_figure<F>(
    heights: [u32; 2],
    title: &str,
    draw: F,
) -> Result<Vec<Drawing>, PbmError>
where
    F: Fn(&Area<'_>, Layout) -> DrawResult,
{
    draw_figure(heights, |root, layout| {
        draw(&titled(root, title, &title_font())?, layout)
    })
}
// ANCHOR_END: draw_figure

/// Fails with a figure error if any value is not finite: NaN must never reach a
/// picture.
pub fn require_finite(values: impl IntoIterator<Item = f64>) -> Result<(), PbmError> {
    match values.into_iter().find(|v| !v.is_finite()) {
        None => Ok(()),
        Some(v) => Err(PbmError::Figure {
            why: format!("data contains the non-finite value {v}"),
        }),
    }
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
fn line_height(area: &Area<'_>, style: &TextStyle<'_>) -> u32 {
    let h = area.estimate_text_size("Ag", style).map_or(20, |(_, h)| h);
    (f64::from(h) * 1.25).ceil() as u32
}

// ANCHOR: titled
/// Draws `text` centred at the top of `area`, wrapped to its width, and returns the
/// area below.
pub fn titled<'a>(
    area: &Area<'a>,
    text: &str,
    style: &TextStyle<'_>,
) -> Result<Area<'a>, Box<dyn std::error::Error>> {
    let (width, _) = area.dim_in_pixel();
    let lines = wrap(area, text, style, width.saturating_sub(16));
    let step = line_height(area, style);
    let centred = style.pos(Pos::new(HPos::Center, VPos::Top));
    for (i, line) in lines.iter().enumerate() {
        let y = 4 + step * i as u32;
        area.draw(&Text::new(
            line.as_str(),
            ((width / 2) as i32, y as i32),
            centred.clone(),
        ))?;
    }
    let used = 8 + step * lines.len() as u32;
    Ok(area.split_vertically(used).1)
}
// ANCHOR_END: titled

/// `n` panels of `area`: `wide_columns` side by side in the wide layout, one above
/// another in the narrow one. Rows are filled left to right.
pub fn panels<'a>(
    area: &Area<'a>,
    layout: Layout,
    n: usize,
    wide_columns: usize,
) -> Vec<Area<'a>> {
    let columns = layout.pick(wide_columns, 1).max(1);
    let rows = n.div_ceil(columns);
    // Stacked panels get a gap above, so a legend is not read as the next panel's.
    let gap = if columns == 1 { STACK_GAP } else { 0 };
    area.split_evenly((rows, columns))
        .into_iter()
        .take(n)
        .enumerate()
        .map(|(i, panel)| if i > 0 { panel.margin(gap, 0, 0, 0) } else { panel })
        .collect()
}

/// `N` panels side by side in the wide layout (one above another in the narrow
/// one), each under its title, "(a) …", "(b) …", in the label font.
pub fn titled_panels<'a, const N: usize>(
    area: &Area<'a>,
    layout: Layout,
    titles: [&str; N],
) -> Result<[Area<'a>; N], Box<dyn std::error::Error>> {
    let mut parts = Vec::with_capacity(N);
    for (part, title) in panels(area, layout, N, N).iter().zip(titles) {
        parts.push(titled(part, title, &label_font())?);
    }
    parts.try_into().map_err(|_| "a panel is missing".into())
}

/// How a legend entry shows its series: drawn with the same stroke, so a dashed curve
/// has a dashed sample.
#[derive(Clone, Copy, Debug)]
pub enum Swatch {
    /// A solid line of this colour and width.
    Line(RGBColor, u32),
    /// A dashed line of this colour and width ([`DASH`]).
    Dashed(RGBColor, u32),
    /// A solid line with a dot on it, for series drawn with a marker at every point.
    LineDots(RGBColor, u32),
    /// A solid line with a square on it, for series drawn with square markers.
    LineSquares(RGBColor, u32),
    /// A dot alone.
    Dot(RGBColor, u32),
    /// A white dot of this radius ringed in this colour, for marks drawn over
    /// filled shapes (the pins of a mechanism).
    Ring(RGBColor, u32),
    /// A filled square.
    Square(RGBColor),
}

impl Swatch {
    fn draw(self, area: &Area<'_>, (x, y): (i32, i32)) -> DrawResult {
        let len = SWATCH_LENGTH as i32;
        match self {
            Swatch::Line(c, w) => area.draw(&PathElement::new(
                vec![(x, y), (x + len, y)],
                c.stroke_width(w),
            ))?,
            Swatch::Dashed(c, w) => {
                let (dash, gap) = (DASH.0 as i32, DASH.1 as i32);
                let mut s = x;
                while s < x + len {
                    let e = (s + dash).min(x + len);
                    area.draw(&PathElement::new(
                        vec![(s, y), (e, y)],
                        c.stroke_width(w),
                    ))?;
                    s = e + gap;
                }
            }
            Swatch::LineDots(c, w) => {
                area.draw(&PathElement::new(
                    vec![(x, y), (x + len, y)],
                    c.stroke_width(w),
                ))?;
                area.draw(&Circle::new((x + len / 2, y), 4, c.filled()))?;
            }
            Swatch::LineSquares(c, w) => {
                area.draw(&PathElement::new(
                    vec![(x, y), (x + len, y)],
                    c.stroke_width(w),
                ))?;
                let m = x + len / 2;
                area.draw(&Rectangle::new(
                    [(m - 4, y - 4), (m + 4, y + 4)],
                    c.filled(),
                ))?;
            }
            Swatch::Dot(c, r) => {
                area.draw(&Circle::new((x + len / 2, y), r, c.filled()))?
            }
            Swatch::Ring(c, r) => {
                area.draw(&Circle::new((x + len / 2, y), r, WHITE.filled()))?;
                area.draw(&Circle::new((x + len / 2, y), r, c.stroke_width(2)))?;
            }
            Swatch::Square(c) => area.draw(&Rectangle::new(
                [(x + len / 2 - 5, y - 5), (x + len / 2 + 5, y + 5)],
                c.filled(),
            ))?,
        }
        Ok(())
    }
}

/// A legend: entries of a label and the swatch of its series.
pub type Legend = Vec<(String, Swatch)>;

const SWATCH_LENGTH: u32 = 30;
/// Space above each panel after the first when panels stack.
const STACK_GAP: u32 = 24;
const SWATCH_GAP: u32 = 8;
const ENTRY_GAP: u32 = 22;
const LEGEND_PAD: u32 = 8;

/// Where each entry of a legend goes when it flows in rows `width` pixels wide: (row,
/// x, lines).
fn legend_layout(
    area: &Area<'_>,
    legend: &Legend,
    width: u32,
) -> Vec<(u32, u32, Vec<String>)> {
    let style = tick_font();
    let text_width =
        |s: &str| area.estimate_text_size(s, &style).map_or(0, |(w, _)| w);
    let (mut row, mut x) = (0u32, 0u32);
    let mut placed = Vec::new();
    for (label, _) in legend {
        let lines = wrap(
            area,
            label,
            &style,
            width.saturating_sub(SWATCH_LENGTH + SWATCH_GAP),
        );
        let w = SWATCH_LENGTH
            + SWATCH_GAP
            + lines.iter().map(|l| text_width(l)).max().unwrap_or(0);
        if x > 0 && x + w > width {
            row += 1;
            x = 0;
        }
        let tall = lines.len() as u32;
        placed.push((row, x, lines));
        if tall > 1 {
            row += tall; // a wrapped entry takes its rows alone
            x = 0;
        } else {
            x += w + ENTRY_GAP;
        }
    }
    placed
}

/// A legend of one entry a series, coloured in [`color`]'s order: `swatch` is the
/// stroke (e.g. `Swatch::Line`) at `width`, and `label` names each item.
pub fn series_legend<T>(
    items: impl IntoIterator<Item = T>,
    swatch: fn(RGBColor, u32) -> Swatch,
    width: u32,
    label: impl Fn(T) -> String,
) -> Legend {
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| (label(item), swatch(color(i), width)))
        .collect()
}

// ANCHOR: legend_below
/// Draws `legend` in rows under the plot, never over data, and returns the area left
/// above it for the plot. Entries flow left to right and wrap to the area's width.
pub fn legend_below<'a>(
    area: &Area<'a>,
    legend: &Legend,
) -> Result<Area<'a>, Box<dyn std::error::Error>> {
    let strip = legend_height(area, legend);
    draw_legend(area, legend, strip)
}
// ANCHOR_END: legend_below

/// [`legend_below`] for panels side by side, each with its own legend: every strip
/// gets the height of the tallest, so the panels' axes line up.
pub fn legends_below<'a>(
    panels: &[Area<'a>],
    legends: &[Legend],
) -> Result<Vec<Area<'a>>, Box<dyn std::error::Error>> {
    let strip = panels
        .iter()
        .zip(legends)
        .map(|(p, l)| legend_height(p, l))
        .max()
        .unwrap_or(0);
    panels.iter().zip(legends).map(|(p, l)| draw_legend(p, l, strip)).collect()
}

/// Height in pixels of the strip `legend` needs under a plot as wide as `area`.
fn legend_height(area: &Area<'_>, legend: &Legend) -> u32 {
    if legend.is_empty() {
        return 0;
    }
    let (width, _) = area.dim_in_pixel();
    let placed = legend_layout(area, legend, width.saturating_sub(2 * LEGEND_PAD));
    let rows = placed
        .iter()
        .map(|(row, _, lines)| row + lines.len() as u32)
        .max()
        .unwrap_or(1);
    rows * line_height(area, &tick_font()) + 2 * LEGEND_PAD
}

/// Draws `legend` in a strip `strip` pixels high at the bottom of `area`; returns the
/// rest.
fn draw_legend<'a>(
    area: &Area<'a>,
    legend: &Legend,
    strip: u32,
) -> Result<Area<'a>, Box<dyn std::error::Error>> {
    let (width, height) = area.dim_in_pixel();
    let (plot, below) = area.split_vertically(height.saturating_sub(strip));
    let placed = legend_layout(area, legend, width.saturating_sub(2 * LEGEND_PAD));
    let step = line_height(area, &tick_font());
    let style = tick_font().pos(Pos::new(HPos::Left, VPos::Center));
    for ((row, x, lines), (_, swatch)) in placed.iter().zip(legend) {
        let y0 = (LEGEND_PAD + row * step + step / 2) as i32;
        let x0 = (LEGEND_PAD + x) as i32;
        swatch.draw(&below, (x0, y0))?;
        for (k, line) in lines.iter().enumerate() {
            let at = (
                x0 + (SWATCH_LENGTH + SWATCH_GAP) as i32,
                y0 + (k as u32 * step) as i32,
            );
            below.draw(&Text::new(line.as_str(), at, style.clone()))?;
        }
    }
    Ok(plot)
}

/// A chart builder in the shared style on `area`: margins, and room for tick labels
/// and axis descriptions. Call `.build_cartesian_2d(...)` on it.
pub fn chart_on<'a, 'b>(area: &'a Area<'b>) -> ChartBuilder<'a, 'b, SVGBackend<'b>> {
    let mut builder = ChartBuilder::on(area);
    builder
        .margin(CHART_MARGIN)
        .margin_right(CHART_MARGIN_RIGHT)
        .x_label_area_size(X_LABEL_AREA)
        .y_label_area_size(Y_LABEL_AREA);
    builder
}

const CHART_MARGIN: u32 = 8;
const CHART_MARGIN_RIGHT: u32 = 16;
const X_LABEL_AREA: u32 = 46;
const Y_LABEL_AREA: u32 = 64;

/// Widens `x` or `y` about its centre so that a chart from [`chart_on`] on `area` has
/// the same scale on both axes: a circle drawn in it is round.
pub fn equal_scale(
    area: &Area<'_>,
    x: std::ops::Range<f64>,
    y: std::ops::Range<f64>,
) -> (std::ops::Range<f64>, std::ops::Range<f64>) {
    let (w, h) = area.dim_in_pixel();
    let plot = (
        w.saturating_sub(Y_LABEL_AREA + CHART_MARGIN + CHART_MARGIN_RIGHT),
        h.saturating_sub(X_LABEL_AREA + 2 * CHART_MARGIN),
    );
    equal_scale_in(plot, x, y)
}

/// Widens `x` or `y` about its centre so that a plot of `pixels` (width, height) has
/// the same scale on both axes.
pub fn equal_scale_in(
    (w, h): (u32, u32),
    x: std::ops::Range<f64>,
    y: std::ops::Range<f64>,
) -> (std::ops::Range<f64>, std::ops::Range<f64>) {
    let (pw, ph) = (f64::from(w.max(1)), f64::from(h.max(1)));
    let (sx, sy) = ((x.end - x.start) / pw, (y.end - y.start) / ph);
    let widen = |r: std::ops::Range<f64>, half: f64| {
        let c = 0.5 * (r.start + r.end);
        (c - half)..(c + half)
    };
    if sx > sy { (x, widen(y, 0.5 * sx * ph)) } else { (widen(x, 0.5 * sy * pw), y) }
}

/// A chart for a drawn scene or diagram: all of `area` but a 4-pixel margin, with no
/// axes and the same scale on both, covering at least `x` by `y` (in world units).
pub fn scene_chart<'a, 'b>(
    area: &'a Area<'b>,
    x: std::ops::Range<f64>,
    y: std::ops::Range<f64>,
) -> Result<
    ChartContext<
        'a,
        SVGBackend<'b>,
        Cartesian2d<
            plotters::coord::types::RangedCoordf64,
            plotters::coord::types::RangedCoordf64,
        >,
    >,
    Box<dyn std::error::Error>,
> {
    let (w, h) = area.dim_in_pixel();
    let (xr, yr) = equal_scale_in((w.saturating_sub(8), h.saturating_sub(8)), x, y);
    Ok(ChartBuilder::on(area).margin(4).build_cartesian_2d(xr, yr)?)
}

/// Starts the axes of a chart in the shared style, with axis descriptions (say the
/// units); add formatters if needed, then call `.draw()`.
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
    // About one tick label per 65 pixels across and per 45 up, so that labels never
    // crowd.
    let (w, h) = chart.plotting_area().dim_in_pixel();
    let mut mesh = chart.configure_mesh();
    mesh.x_desc(x_desc)
        .y_desc(y_desc)
        .axis_desc_style(label_font())
        .label_style(tick_font())
        .x_labels((w / 65).max(3) as usize)
        .y_labels((h / 45).max(3) as usize)
        .light_line_style(TRANSPARENT)
        .bold_line_style(BLACK.mix(0.1));
    mesh
}

/// Draws `points` as a line of colour `c` and `width`.
pub fn line<'a, DB, XT, YT, X, Y>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    points: &[(XT, YT)],
    c: RGBColor,
    width: u32,
) -> DrawResult
where
    DB: DrawingBackend + 'a,
    DB::ErrorType: 'static,
    XT: Clone + 'static,
    YT: Clone + 'static,
    X: Ranged<ValueType = XT>,
    Y: Ranged<ValueType = YT>,
{
    chart.draw_series(LineSeries::new(
        points.iter().cloned(),
        c.stroke_width(width),
    ))?;
    Ok(())
}

/// Draws `points` as a dashed line ([`DASH`]) of colour `c` and `width`.
pub fn dashed_line<'a, DB, XT, YT, X, Y>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    points: &[(XT, YT)],
    c: RGBColor,
    width: u32,
) -> DrawResult
where
    DB: DrawingBackend + 'a,
    DB::ErrorType: 'static,
    XT: Clone + 'static,
    YT: Clone + 'static,
    X: Ranged<ValueType = XT>,
    Y: Ranged<ValueType = YT>,
{
    chart.draw_series(DashedLineSeries::new(
        points.iter().cloned(),
        DASH.0,
        DASH.1,
        c.stroke_width(width),
    ))?;
    Ok(())
}

/// Draws an arrow from `tail` to `tip` in data coordinates, with a head a fifth of its
/// length (at most `max_head`) opening at ±25°. Meant for charts with equal scales
/// ([`equal_scale`]), where data angles are screen angles.
pub fn arrow<'a, DB, X, Y>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    tail: (f64, f64),
    tip: (f64, f64),
    max_head: f64,
    c: RGBColor,
    width: u32,
) -> DrawResult
where
    DB: DrawingBackend + 'a,
    DB::ErrorType: 'static,
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    let (dx, dy) = (tip.0 - tail.0, tip.1 - tail.1);
    let length = dx.hypot(dy);
    if length == 0.0 {
        return Ok(());
    }
    let head = (0.2 * length).min(max_head);
    let (ux, uy) = (dx / length, dy / length);
    let (c25, s25) = (25f64.to_radians().cos(), 25f64.to_radians().sin());
    let side = |sign: f64| {
        (
            tip.0 - head * (ux * c25 - sign * uy * s25),
            tip.1 - head * (uy * c25 + sign * ux * s25),
        )
    };
    line(chart, &[tail, tip], c, width)?;
    line(chart, &[side(1.0), tip, side(-1.0)], c, width)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn rejects_non_finite_data() {
        assert!(require_finite([1.0, 2.0]).is_ok());
        let err = require_finite([1.0, f64::NAN]).unwrap_err();
        assert!(err.to_string().contains("NaN"));
    }

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
    fn a_legend_wraps_to_the_width_and_leaves_the_plot_above_it() {
        let entries: Legend = (0..6)
            .map(|i| {
                (format!("series number {i}"), Swatch::Line(color(i), LINE_WIDTH))
            })
            .collect();
        for layout in Layout::ALL {
            let mut plot_height = 0;
            draw_svg((layout.width(), 300), |root| {
                let placed =
                    legend_layout(root, &entries, layout.width() - 2 * LEGEND_PAD);
                // Every entry starts inside the strip and rows advance.
                for (_, x, lines) in &placed {
                    assert!(*x < layout.width(), "{layout:?}");
                    assert_eq!(lines.len(), 1);
                }
                let rows = placed.iter().map(|p| p.0).max().unwrap() + 1;
                assert!(rows >= layout.pick(2, 3), "{layout:?}: {rows} rows");
                plot_height = legend_below(root, &entries)?.dim_in_pixel().1;
                Ok(())
            })
            .unwrap();
            assert!(
                plot_height < 300 && plot_height > 150,
                "{layout:?}: {plot_height}"
            );
        }
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

    #[test]
    fn both_layouts_are_drawn_and_panels_stack_when_narrow() {
        let drawings = draw_figure([200, 400], |root, layout| {
            let parts = panels(root, layout, 3, 3);
            assert_eq!(parts.len(), 3);
            let (w, _) = parts[0].dim_in_pixel();
            assert_eq!(w, layout.pick(240, 360));
            Ok(())
        })
        .unwrap();
        assert_eq!(drawings.len(), 2);
        assert!(drawings[0].svg.contains("width=\"720\""));
        assert!(drawings[1].svg.contains("width=\"360\" height=\"400\""));
    }
}

/// What a chapter's `figures.rs` draws with, in one import: the book's figure style,
/// the registry's [`Figure`](crate::Figure), and plotters' own prelude.
pub mod prelude {
    pub use super::{
        Area, DrawResult, Drawing, LINE_WIDTH, Layout, Legend, REFERENCE, Swatch,
        arrow, axes, chart_on, color, dashed_line, draw_figure, equal_scale,
        equal_scale_in, label_font, legend_below, legends_below, line, panels,
        power_of_ten, require_finite, scene_chart, series_legend, tick_font,
        title_font, titled, titled_figure, titled_panels, wrap,
    };
    pub use crate::{Figure, PbmError};
    pub use plotters::prelude::*;
}
