//! Data drawn into a chart: lines, solid or dashed, and arrows.

use super::layout::{Axis, Backend, DrawResult};
use super::legend::Swatch;
use super::marks::dots;
use super::style::{DASH, LINE_WIDTH, color};
use plotters::prelude::*;

/// How a series is stroked: a colour, a width in pixels, and whether it is dashed
/// ([`DASH`]). Its legend entry is drawn with the same stroke ([`Stroke::swatch`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stroke {
    /// The colour.
    pub color: RGBColor,
    /// The width in pixels.
    pub width: u32,
    /// Dashed ([`DASH`]) rather than solid.
    pub dashed: bool,
}

impl Stroke {
    /// A solid stroke of colour `color` and `width`.
    pub const fn solid(color: RGBColor, width: u32) -> Stroke {
        Stroke { color, width, dashed: false }
    }

    /// A dashed stroke ([`DASH`]) of colour `color` and `width`.
    pub const fn dashed(color: RGBColor, width: u32) -> Stroke {
        Stroke { color, width, dashed: true }
    }

    /// The legend entry's sample of a series drawn with this stroke.
    pub const fn swatch(self) -> Swatch {
        if self.dashed {
            Swatch::Dashed(self.color, self.width)
        } else {
            Swatch::Line(self.color, self.width)
        }
    }
}

/// Draws `points` as one line in `stroke`.
pub fn polyline<'a, DB: Backend<'a>, XT, YT, X: Axis<XT>, Y: Axis<YT>>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    points: &[(XT, YT)],
    stroke: Stroke,
) -> DrawResult
where
    XT: Clone + 'static,
    YT: Clone + 'static,
{
    let points = points.iter().cloned();
    let style = stroke.color.stroke_width(stroke.width);
    if stroke.dashed {
        chart.draw_series(DashedLineSeries::new(points, DASH.0, DASH.1, style))?;
    } else {
        chart.draw_series(LineSeries::new(points, style))?;
    }
    Ok(())
}

/// Writes a helper `$name` that draws `points` as a line of colour `c` and `width`:
/// [`polyline`] in the [`Stroke`] that `Stroke::$stroke` makes.
macro_rules! stroked_line {
    ($(#[$doc:meta])* $name:ident = $stroke:ident) => {
        $(#[$doc])*
        pub fn $name<'a, DB: Backend<'a>, XT, YT, X: Axis<XT>, Y: Axis<YT>>(
            chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
            points: &[(XT, YT)],
            c: RGBColor,
            width: u32,
        ) -> DrawResult
        where
            XT: Clone + 'static,
            YT: Clone + 'static,
        {
            polyline(chart, points, Stroke::$stroke(c, width))
        }
    };
}

stroked_line!(
    /// Draws `points` as a solid line of colour `c` and `width`: [`polyline`] in
    /// [`Stroke::solid`].
    line = solid
);
stroked_line!(
    /// Draws `points` as a dashed line of colour `c` and `width`: [`polyline`] in
    /// [`Stroke::dashed`].
    dashed_line = dashed
);

/// Draws each of `curves` as a solid line in the palette's colour of its place,
/// [`color`]`(i)`, [`LINE_WIDTH`] wide: the lines a [`series_legend`] names in the
/// same order.
///
/// [`series_legend`]: super::series_legend
pub fn palette_lines<'a, DB: Backend<'a>, X: Axis, Y: Axis, C>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    curves: impl IntoIterator<Item = C>,
) -> DrawResult
where
    C: AsRef<[(f64, f64)]>,
{
    for (i, curve) in curves.into_iter().enumerate() {
        line(chart, curve.as_ref(), color(i), LINE_WIDTH)?;
    }
    Ok(())
}

/// Draws `points` as a solid line of colour `c` and `width` with a dot of `radius`
/// pixels on each ([`Swatch::LineDots`] in a legend): a series whose samples count.
pub fn line_and_dots<'a, DB: Backend<'a>, X: Axis, Y: Axis>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    points: &[(f64, f64)],
    (c, width): (RGBColor, u32),
    radius: u32,
) -> DrawResult {
    line(chart, points, c, width)?;
    dots(chart, points, radius, c)
}

/// Draws an arrow from `tail` to `tip` in data coordinates, with a head a fifth of its
/// length (at most `max_head`) opening at ±25°. Meant for charts with equal scales
/// ([`equal_scale`]), where data angles are screen angles.
pub fn arrow<'a, DB: Backend<'a>, X: Axis, Y: Axis>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    tail: (f64, f64),
    tip: (f64, f64),
    max_head: f64,
    c: RGBColor,
    width: u32,
) -> DrawResult {
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
    use crate::plot::draw_svg;

    #[test]
    fn a_stroke_draws_its_series_and_its_legend_sample_alike() {
        let blue = RGBColor(0, 114, 178);
        assert_eq!(Stroke::solid(blue, 2).swatch(), Swatch::Line(blue, 2));
        assert_eq!(Stroke::dashed(blue, 3).swatch(), Swatch::Dashed(blue, 3));
        let paths = |stroke: Stroke| {
            let svg = draw_svg((100, 100), |root| {
                let mut chart =
                    ChartBuilder::on(root).build_cartesian_2d(0.0..1.0, 0.0..1.0)?;
                polyline(&mut chart, &[(0.0, 0.5), (1.0, 0.5)], stroke)
            })
            .unwrap();
            // One subpath per stroked piece (compact_strokes joins them in one path).
            svg.matches('M').count()
        };
        assert_eq!(paths(Stroke::solid(blue, 2)), 1);
        assert!(paths(Stroke::dashed(blue, 2)) > 5);
    }
}
