//! Legends: a strip under the plot, never over the data, whose entries show each
//! series with its own stroke.

use super::layout::{Area, DrawResult, Layout, titled_panels};
use super::style::{DASH, color, tick_font};
use super::text::{line_height, wrap};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// How a legend entry shows its series: drawn with the same stroke, so a dashed curve
/// has a dashed sample.
#[derive(Clone, Copy, Debug, PartialEq)]
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

/// [`titled_panels`] with a legend under each panel ([`legends_below`]): returns
/// the plot areas above the legends, whose axes line up.
pub fn panels_with_legends<'a, const N: usize>(
    area: &Area<'a>,
    layout: Layout,
    titles: [&str; N],
    legends: &[Legend; N],
) -> Result<Vec<Area<'a>>, Box<dyn std::error::Error>> {
    legends_below(&titled_panels(area, layout, titles)?, legends)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::{LINE_WIDTH, Layout, draw_svg};

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
}
