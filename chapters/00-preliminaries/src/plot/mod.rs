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
//!
//! By concern: `style` (font, sizes, palette), `text` (numbers as a reader writes
//! them, wrapping), `layout` (the two drawings, titles, panels), `legend` (the
//! strip under a plot), `chart` (axes and scales), `series` (lines, arrows) and
//! `marks` (dots, boxes and text at data points); `compact` writes the SVG small.
//! Everything is re-exported here, and a chapter's `figures.rs` takes what it draws
//! with from [`prelude`].

mod chart;
mod compact;
mod layout;
mod legend;
mod marks;
mod series;
mod style;
mod text;

pub use chart::{
    LinearChart, axes, chart_on, equal_scale, equal_scale_in, log_log_axes,
    scene_chart,
};
pub use compact::{compact_strokes, style_classes};
pub use layout::{
    Area, Axis, Backend, DrawResult, Drawing, Layout, NARROW_MEDIA, draw_figure,
    draw_svg, panels, require_finite, titled, titled_figure, titled_panels,
};
pub use legend::{
    Legend, Swatch, legend_below, legends_below, panels_with_legends, series_legend,
};
pub use marks::{PinnedLabel, anchored, dots, framed, pinned_labels, ring, text};
pub use series::{
    Stroke, arrow, dashed_line, line, line_and_dots, palette_lines, polyline,
};
pub use style::{
    DASH, FONT, LABEL_PX, LINE_WIDTH, PALETTE, REFERENCE, TICK_PX, TITLE_PX, color,
    ensure_font, font, label_font, tick_font, title_font,
};
pub use text::{power_of_ten, set_scripts, sub, sup, tidy_numbers, wrap};

/// What a chapter's `figures.rs` draws with, in one import: the book's figure style,
/// the registry's [`Figure`](crate::Figure), and plotters' own prelude.
pub mod prelude {
    pub use super::{
        Area, DrawResult, Drawing, LINE_WIDTH, Layout, Legend, LinearChart,
        REFERENCE, Stroke, Swatch, anchored, arrow, axes, chart_on, color,
        dashed_line, dots, draw_figure, equal_scale, equal_scale_in, framed,
        label_font, legend_below, legends_below, line, line_and_dots, log_log_axes,
        palette_lines, panels, panels_with_legends, pinned_labels, polyline,
        power_of_ten, require_finite, ring, scene_chart, series_legend, sub, sup,
        text, tick_font, title_font, titled, titled_figure, titled_panels, wrap,
    };
    pub use crate::{Figure, PbmError};
    pub use plotters::prelude::*;
    pub use plotters::style::text_anchor::{HPos, VPos};
}
