//! The small pieces the figures of chapters 7 to 11 are composed from: panels drawn
//! one body at a time, a chart in world units, shapes, dots, rings, labels, and
//! arrows whose heads are drawn in pixels.

use pbm_prelim::plot::prelude::*;
use plotters::coord::types::RangedCoordf64;

/// A chart with plain `f64` ranges on both axes: metres, or any other unit.
pub type Chart2d<'a, 'b> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The letter of panel `k` in its caption: a, b, c, …
pub fn letter(k: usize) -> char {
    (b'a' + k as u8) as char
}

/// `n` panels of `area`, `wide_columns` across in the wide layout (one above another
/// in the narrow one): each is captioned `caption(k)` in the label font, then drawn
/// by `body(k, panel)`, one panel after the other.
pub fn each_panel<'a>(
    area: &Area<'a>,
    layout: Layout,
    (n, wide_columns): (usize, usize),
    caption: impl Fn(usize) -> String,
    mut body: impl FnMut(usize, &Area<'a>) -> DrawResult,
) -> DrawResult {
    for (k, panel) in panels(area, layout, n, wide_columns).iter().enumerate() {
        let panel = titled(panel, &caption(k), &label_font())?;
        body(k, &panel)?;
    }
    Ok(())
}

/// `points` closed on themselves: the first point again at the end, unless it is
/// there already.
pub fn closed_ring(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut ring = points.to_vec();
    if let Some(&first) = points.first()
        && (points.len() == 1 || points.last() != Some(&first))
    {
        ring.push(first);
    }
    ring
}

/// A filled polygon of `points` in `fill`, with no outline.
pub fn fill<'a, 'b: 'a>(
    chart: &mut Chart2d<'a, 'b>,
    points: &[(f64, f64)],
    fill: impl Color,
) -> DrawResult {
    chart
        .draw_series(std::iter::once(Polygon::new(points.to_vec(), fill.filled())))?;
    Ok(())
}

/// A shape: `points` filled in `fill`, then outlined all round in `stroke` of
/// `width`.
pub fn shape<'a, 'b: 'a>(
    chart: &mut Chart2d<'a, 'b>,
    points: &[(f64, f64)],
    fill: impl Color,
    (stroke, width): (RGBColor, u32),
) -> DrawResult {
    self::fill(chart, points, fill)?;
    line(chart, &closed_ring(points), stroke, width)
}

/// A rectangle between two corners, shaded in `c` and edged in it: a box of the
/// broad phase.
pub fn shaded_box<'a, 'b: 'a>(
    chart: &mut Chart2d<'a, 'b>,
    corners: [(f64, f64); 2],
    c: RGBColor,
) -> DrawResult {
    chart.draw_series([
        Rectangle::new(corners, c.mix(0.55).filled()),
        Rectangle::new(corners, c.stroke_width(1)),
    ])?;
    Ok(())
}

/// `text` in `style` at the point `at`, moved by `offset` pixels.
pub fn text_at<'a, 'b: 'a>(
    chart: &mut Chart2d<'a, 'b>,
    at: (f64, f64),
    offset: (i32, i32),
    text: impl Into<String>,
    style: &TextStyle<'_>,
) -> DrawResult {
    let text = Text::new(text.into(), offset, style.clone());
    chart.draw_series(std::iter::once(EmptyElement::at(at) + text))?;
    Ok(())
}

/// Names in the label font, each at its point.
pub fn labels<'a, 'b: 'a>(
    chart: &mut Chart2d<'a, 'b>,
    names: &[(&str, (f64, f64))],
) -> DrawResult {
    chart.draw_series(
        names.iter().map(|&(name, at)| Text::new(name.to_string(), at, label_font())),
    )?;
    Ok(())
}

/// Axes in the shared style with tick labels to one decimal on both.
pub fn tenths_axes<'a, 'b: 'a>(
    chart: &mut Chart2d<'a, 'b>,
    x_desc: &str,
    y_desc: &str,
) -> DrawResult {
    axes(chart, x_desc, y_desc)
        .x_label_formatter(&|v| format!("{v:.1}"))
        .y_label_formatter(&|v| format!("{v:.1}"))
        .draw()?;
    Ok(())
}

/// An arrow head in pixels at `end` of a level line, opening towards `towards_x`:
/// drawn in pixels, it keeps its shape where the chart's two scales differ.
pub fn level_head<'a, 'b: 'a>(
    chart: &mut Chart2d<'a, 'b>,
    end: (f64, f64),
    towards_x: f64,
    c: RGBColor,
) -> DrawResult {
    let side = if towards_x > end.0 { 9 } else { -9 };
    let head =
        PathElement::new(vec![(side, -5), (0, 0), (side, 5)], c.stroke_width(2));
    chart.draw_series(std::iter::once(EmptyElement::at(end) + head))?;
    Ok(())
}

/// A level arrow from `from` to `to` in `c`, with a head at `to`, and at `from` too
/// when `both`: a move, or a length measured.
pub fn level_arrow<'a, 'b: 'a>(
    chart: &mut Chart2d<'a, 'b>,
    (from, to): ((f64, f64), (f64, f64)),
    c: RGBColor,
    both: bool,
) -> DrawResult {
    line(chart, &[from, to], c, 2)?;
    if both {
        level_head(chart, from, to.0, c)?;
    }
    level_head(chart, to, from.0, c)
}

/// The box of a text label beside a point: [x0, y0, x1, y1] in pixels.
pub type LabelBox = [i32; 4];

/// Where a label of `width` pixels may go beside the point `at` (pixels), `gap`
/// pixels off it diagonally: the first of the four corners (right-above,
/// right-below, left-above, left-below) where it covers no box in `taken` and no
/// point of `points` (each a dot of radius 5). Returns the box and the corner's
/// signs (x right, y down).
pub fn free_corner(
    at: (i32, i32),
    (width, height, gap): (i32, i32, i32),
    taken: &[LabelBox],
    points: &[(i32, i32)],
) -> Option<(LabelBox, (i32, i32))> {
    let boxes = [(1, -1), (1, 1), (-1, -1), (-1, 1)].map(|(sx, sy)| {
        let (x, y) = (at.0 + sx * gap, at.1 + sy * gap);
        let (x0, x1) = if sx > 0 { (x, x + width) } else { (x - width, x) };
        let (y0, y1) = if sy < 0 { (y - height, y) } else { (y, y + height) };
        ([x0, y0, x1, y1], (sx, sy))
    });
    let clear = |r: &LabelBox| {
        taken
            .iter()
            .all(|q| r[2] <= q[0] || q[2] <= r[0] || r[3] <= q[1] || q[3] <= r[1])
            && points.iter().all(|c| {
                c.0 + 5 <= r[0]
                    || r[2] <= c.0 - 5
                    || c.1 + 5 <= r[1]
                    || r[3] <= c.1 - 5
            })
    };
    boxes.into_iter().find(|(r, _)| clear(r))
}
