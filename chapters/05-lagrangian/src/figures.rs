//! The chapter's figure, computed with the chapter's own code.

use crate::scenes::{Sample, compare, separation_time};
use pbm_prelim::plot::prelude::*;

/// Every figure of the chapter, in reading order.
pub fn all() -> Vec<Figure> {
    vec![Figure::new(
        "compare",
        "The double pendulum with constraint forces and with angles",
        compare_figure,
    )]
}

fn compare_figure() -> Result<Vec<Drawing>, PbmError> {
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
        constrained
            .iter()
            .chain(&lagrangian)
            .chain(&distance)
            .flat_map(|p| [p.0, p.1]),
    )?;
    titled_figure(
        "compare",
        [500, 900],
        "Double pendulum, RK4 at h = 1 ms, two formulations",
        |root, layout| {
            let parts = panels(root, layout, 2, 2);
            let left = titled(
                &parts[0],
                "(a) horizontal position of the lower bob",
                &label_font(),
            )?;
            let right = titled(
                &parts[1],
                "(b) distance between the two lower bobs",
                &label_font(),
            )?;
            let legends = [
                vec![
                    (
                        "constraint forces (ch. 4)".into(),
                        Swatch::Line(color(0), LINE_WIDTH + 2),
                    ),
                    (
                        "angles (this chapter)".into(),
                        Swatch::Line(color(1), LINE_WIDTH),
                    ),
                ],
                vec![
                    (
                        "|p₂(ch. 4) − p₂(angles)|".into(),
                        Swatch::Line(color(2), LINE_WIDTH),
                    ),
                    (
                        format!("1 cm: apart at t = {apart:.2} s"),
                        Swatch::Dashed(REFERENCE, LINE_WIDTH),
                    ),
                ],
            ];
            let areas = legends_below(&[left, right], &legends)?;
            let mut paths = chart_on(&areas[0])
                .y_label_area_size(52)
                .build_cartesian_2d(0.0..t_end, -2.2..2.2)?;
            axes(&mut paths, "time t (s)", "x₂ (m)").draw()?;
            line(&mut paths, &constrained, color(0), LINE_WIDTH + 2)?;
            line(&mut paths, &lagrangian, color(1), LINE_WIDTH)?;
            let mut gap = chart_on(&areas[1])
                .build_cartesian_2d(0.0..t_end, (1e-16..10.0).log_scale())?;
            axes(&mut gap, "time t (s)", "distance (m)")
                .y_label_formatter(&power_of_ten)
                .draw()?;
            line(&mut gap, &distance, color(2), LINE_WIDTH)?;
            dashed_line(
                &mut gap,
                &[(0.0, threshold), (t_end, threshold)],
                REFERENCE,
                LINE_WIDTH,
            )?;
            Ok(())
        },
    )
}
