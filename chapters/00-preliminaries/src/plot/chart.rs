//! Charts in the shared style: margins and room for labels, axes whose ticks never
//! crowd, and equal scales for scenes, where a circle must be round.

use super::layout::{Area, Backend, DrawResult};
use super::style::{label_font, tick_font};
use super::text::power_of_ten;
use plotters::chart::MeshStyle;
use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::prelude::*;

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

/// A chart with linear axes of `f64` on a figure's canvas, as [`scene_chart`] or
/// [`chart_on`] with ranges of `f64` build it: what a figure's helper that draws
/// into a panel takes, as `fn f<'a, 'b: 'a>(chart: &mut LinearChart<'a, 'b>)`.
pub type LinearChart<'a, 'b> = ChartContext<
    'a,
    SVGBackend<'b>,
    Cartesian2d<
        plotters::coord::types::RangedCoordf64,
        plotters::coord::types::RangedCoordf64,
    >,
>;

/// A chart for a drawn scene or diagram: all of `area` but a 4-pixel margin, with no
/// axes and the same scale on both, covering at least `x` by `y` (in world units).
pub fn scene_chart<'a, 'b>(
    area: &'a Area<'b>,
    x: std::ops::Range<f64>,
    y: std::ops::Range<f64>,
) -> Result<LinearChart<'a, 'b>, Box<dyn std::error::Error>> {
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

/// [`axes`] with both axes logarithmic, their ticks powers of ten
/// ([`power_of_ten`]), drawn.
pub fn log_log_axes<'a, DB: Backend<'a>, X, Y>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    x_desc: &str,
    y_desc: &str,
) -> DrawResult
where
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    axes(chart, x_desc, y_desc)
        .x_label_formatter(&power_of_ten)
        .y_label_formatter(&power_of_ten)
        .draw()?;
    Ok(())
}
