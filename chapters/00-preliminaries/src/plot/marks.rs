//! Marks placed in a chart at data points: dots, rings, framed boxes and text.

use super::layout::{Axis, Backend, DrawResult};
use super::style::{REFERENCE, label_font};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Draws a filled dot of `radius` pixels and colour `c` at each of `points`.
pub fn dots<'a, DB: Backend<'a>, X: Axis, Y: Axis>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    points: &[(f64, f64)],
    radius: u32,
    c: RGBColor,
) -> DrawResult {
    chart.draw_series(points.iter().map(|p| Circle::new(*p, radius, c.filled())))?;
    Ok(())
}

/// Draws a white dot of `radius` pixels ringed in `c` at `at`: a mark that reads over
/// filled shapes ([`Swatch::Ring`](super::Swatch::Ring) in a legend).
pub fn ring<'a, DB: Backend<'a>, X: Axis, Y: Axis>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    at: (f64, f64),
    radius: u32,
    c: RGBColor,
) -> DrawResult {
    chart.draw_series([Circle::new(at, radius, WHITE.filled())])?;
    chart.draw_series([Circle::new(at, radius, c.stroke_width(2))])?;
    Ok(())
}

/// Draws the box between two opposite `corners` filled in `fill` and framed in a
/// 1-pixel [`REFERENCE`] line: a cell of a table or of a matrix drawn as one.
pub fn framed<'a, DB: Backend<'a>, X: Axis, Y: Axis>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    corners: [(f64, f64); 2],
    fill: ShapeStyle,
) -> DrawResult {
    chart.draw_series([Rectangle::new(corners, fill)])?;
    chart.draw_series([Rectangle::new(corners, REFERENCE.stroke_width(1))])?;
    Ok(())
}

/// `style` anchored at its `h` and `v` side: `HPos::Right` puts the text's right
/// end at the point it is drawn at.
pub fn anchored<'a>(style: TextStyle<'a>, h: HPos, v: VPos) -> TextStyle<'a> {
    style.pos(Pos::new(h, v))
}

/// Draws `content` at the data point `at` in `style`.
pub fn text<'a, DB: Backend<'a>, X: Axis, Y: Axis>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    content: impl Into<String>,
    at: (f64, f64),
    style: &TextStyle<'_>,
) -> DrawResult {
    chart.draw_series([Text::new(content.into(), at, style.clone())])?;
    Ok(())
}

/// A label pinned to a data point: its text, the point, and its top left's offset
/// from the point in pixels (right, down).
pub type PinnedLabel<'a> = (&'a str, (f64, f64), (i32, i32));

/// Draws each label in the label font, its top left `offset` pixels (right, down)
/// from its data point: it sits the same beside its point in the wide and the
/// narrow drawing, whatever their scales.
pub fn pinned_labels<'a, DB: Backend<'a>, X: Axis, Y: Axis>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    labels: &[PinnedLabel<'_>],
) -> DrawResult {
    chart.draw_series(labels.iter().map(|&(text, at, offset)| {
        EmptyElement::at(at) + Text::new(text.to_string(), offset, label_font())
    }))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::draw_svg;

    #[test]
    fn marks_land_on_their_data_points() {
        let svg = draw_svg((100, 100), |root| {
            let mut chart =
                ChartBuilder::on(root).build_cartesian_2d(0.0..10.0, 0.0..10.0)?;
            dots(&mut chart, &[(1.0, 1.0), (5.0, 5.0)], 3, REFERENCE)?;
            ring(&mut chart, (5.0, 5.0), 4, REFERENCE)?;
            framed(&mut chart, [(0.0, 0.0), (5.0, 5.0)], WHITE.filled())?;
            let right = anchored(label_font(), HPos::Right, VPos::Center);
            text(&mut chart, "A", (5.0, 5.0), &right)?;
            pinned_labels(&mut chart, &[("B", (5.0, 5.0), (10, -10))])
        })
        .unwrap();
        assert_eq!(svg.matches("<circle").count(), 4);
        assert!(svg.contains("cx=\"49\" cy=\"50\""), "{svg}");
        assert_eq!(svg.matches("<rect").count(), 3); // the canvas and the box twice
        assert!(svg.contains("text-anchor=\"end\""), "{svg}");
        assert!(svg.contains(">\nB\n</text>") || svg.contains(">B</text>"), "{svg}");
    }
}
