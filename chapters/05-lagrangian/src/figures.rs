//! The chapter's figure, computed with the chapter's own code.

use crate::compare::{Sample, compare, separation_time};
use pbm_prelim::plot::{
    LINE_WIDTH, REFERENCE, axes, color, draw_svg, label_font, labelled_line, legend,
    legend_line, require_finite, title_font,
};
use pbm_prelim::{Figure, PbmError};
use plotters::prelude::*;

/// Every figure of the chapter, in reading order.
pub fn all() -> Vec<Figure> {
    vec![Figure {
        name: "compare",
        title: "The double pendulum with constraint forces and with angles",
        draw: compare_figure,
    }]
}

fn compare_figure() -> Result<String, PbmError> {
    let (h, t_end) = (1e-3, 30.0);
    let samples = compare(h, t_end, 10)?;
    let threshold = 1e-2;
    let apart = separation_time(&samples, threshold).unwrap_or(t_end);
    let x_of = |f: fn(&Sample) -> [f64; 2]| -> Vec<(f64, f64)> {
        samples.iter().map(|s| (s.t, f(s)[0])).collect()
    };
    let constrained = x_of(|s| s.constrained);
    let lagrangian = x_of(|s| s.lagrangian);
    let distance: Vec<(f64, f64)> =
        samples.iter().map(|s| (s.t, s.distance.max(1e-16))).collect();
    require_finite(
        "compare",
        constrained.iter().chain(&lagrangian).chain(&distance).flat_map(|p| [p.0, p.1]),
    )?;
    draw_svg("compare", (1160, 500), |root| {
        let root = root
            .titled("Double pendulum, RK4 at h = 1 ms, two formulations", title_font())?;
        let (left, right) = root.split_horizontally(580);
        let mut paths = ChartBuilder::on(&left)
            .caption("horizontal position of the lower bob", label_font())
            .margin(10)
            .x_label_area_size(42)
            .y_label_area_size(52)
            .build_cartesian_2d(0.0..t_end, -2.2..2.2)?;
        axes(&mut paths, "time t (s)", "x₂ (m)").draw()?;
        labelled_line(
            &mut paths,
            &constrained,
            color(0),
            LINE_WIDTH + 2,
            "constraint forces (ch. 4)",
        )?;
        labelled_line(
            &mut paths,
            &lagrangian,
            color(1),
            LINE_WIDTH,
            "angles (this chapter)",
        )?;
        legend(&mut paths, SeriesLabelPosition::LowerLeft)?;
        let mut gap = ChartBuilder::on(&right)
            .caption("distance between the two lower bobs", label_font())
            .margin(10)
            .x_label_area_size(42)
            .y_label_area_size(62)
            .build_cartesian_2d(0.0..t_end, (1e-16..10.0).log_scale())?;
        axes(&mut gap, "time t (s)", "distance (m)")
            .y_label_formatter(&|v| format!("{v:.0e}"))
            .draw()?;
        labelled_line(
            &mut gap,
            &distance,
            color(2),
            LINE_WIDTH,
            "|p₂(ch. 4) − p₂(angles)|",
        )?;
        gap.draw_series(DashedLineSeries::new(
            vec![(0.0, threshold), (t_end, threshold)],
            6,
            4,
            REFERENCE.stroke_width(LINE_WIDTH),
        ))?
        .label(format!("1 cm: apart at t = {apart:.2} s"))
        .legend(legend_line(REFERENCE));
        legend(&mut gap, SeriesLabelPosition::LowerRight)
    })
}
