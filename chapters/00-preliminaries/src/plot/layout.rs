//! The two drawings of every figure, the canvas they are drawn on, and how it is cut
//! into a title and panels.

use super::compact::{compact_strokes, style_classes};
use super::style::{ensure_font, label_font, title_font};
use super::text::{line_height, set_scripts, tidy_numbers, wrap};
use crate::error::PbmError;
use plotters::coord::Shift;
use plotters::coord::ranged1d::Ranged;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

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

/// The error type figure code returns; any plotters error converts into it with `?`.
pub type DrawResult = Result<(), Box<dyn std::error::Error>>;

/// A drawing backend whose errors a [`DrawResult`] can carry: the one bound every
/// drawing helper puts on the backend of the chart it draws in.
pub trait Backend<'a>: DrawingBackend<ErrorType: 'static> + 'a {}
impl<'a, B: DrawingBackend<ErrorType: 'static> + 'a> Backend<'a> for B {}

/// A chart axis whose values are `T` (numbers unless said otherwise).
pub trait Axis<T = f64>: Ranged<ValueType = T> {}
impl<T, A: Ranged<ValueType = T>> Axis<T> for A {}

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
    Ok(style_classes(&compact_strokes(&set_scripts(&tidy_numbers(&svg)))))
}

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

/// Space above each panel after the first when panels stack.
const STACK_GAP: u32 = 24;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_non_finite_data() {
        assert!(require_finite([1.0, 2.0]).is_ok());
        let err = require_finite([1.0, f64::NAN]).unwrap_err();
        assert!(err.to_string().contains("NaN"));
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
