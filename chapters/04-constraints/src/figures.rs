//! The chapter's figures, computed with the chapter's own code.

use crate::models::{Chain, double_pendulum};
use crate::studies::{Holder, bead_drift, max_stable_step, run_chain};
use crate::system::Feedback;
use pbm_ode::runge_kutta::{RungeKutta, step_count};
use pbm_ode::tableau::{MIDPOINT, RK4};
use pbm_prelim::plot::{
    LINE_WIDTH, REFERENCE, axes, color, draw_svg, label_font, labelled_line, legend,
    legend_line, require_finite, title_font,
};
use pbm_prelim::{Figure, PbmError};
use plotters::prelude::*;

/// Every figure of the chapter, in reading order.
pub fn all() -> Vec<Figure> {
    vec![
        Figure {
            name: "drift",
            title: "The bead drifts off its circle without feedback",
            draw: drift,
        },
        Figure {
            name: "double-pendulum",
            title: "Paths of a double pendulum built from constraints",
            draw: pendulum_paths,
        },
        Figure {
            name: "rods-vs-springs",
            title: "A chain of rods against a chain of stiff springs",
            draw: rods_vs_springs,
        },
    ]
}

/// Smallest |C| drawn on the log axis (exact zeros sit on the floor).
const FLOOR: f64 = 1e-17;

fn drift() -> Result<String, PbmError> {
    let (h, t_end) = (0.01, 20.0);
    let runs = [
        ("midpoint, no feedback", bead_drift(MIDPOINT, Feedback::OFF, h, t_end)?),
        ("midpoint, feedback", bead_drift(MIDPOINT, Feedback::DEFAULT, h, t_end)?),
        ("RK4, no feedback", bead_drift(RK4, Feedback::OFF, h, t_end)?),
        ("RK4, feedback", bead_drift(RK4, Feedback::DEFAULT, h, t_end)?),
    ];
    require_finite("drift", runs.iter().flat_map(|r| r.1.iter().flat_map(|p| [p.0, p.1])))?;
    draw_svg("drift", (760, 480), |root| {
        let mut chart = ChartBuilder::on(root)
            .caption("Bead on the unit circle under gravity, h = 10 ms", title_font())
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(70)
            .build_cartesian_2d(0.0..t_end, (1e-12..1e1).log_scale())?;
        axes(&mut chart, "time t (s)", "constraint error |C| = |x·x − 1|/2 (m²)")
            .y_label_formatter(&|v| format!("{v:.0e}"))
            .draw()?;
        for (i, (name, track)) in runs.iter().enumerate() {
            let pts: Vec<(f64, f64)> =
                track.iter().map(|&(t, c)| (t, c.max(1e-12))).collect();
            let style = if i % 2 == 0 { LINE_WIDTH } else { LINE_WIDTH + 1 };
            labelled_line(&mut chart, &pts, color(i), style, name)?;
        }
        legend(&mut chart, SeriesLabelPosition::LowerRight)
    })
}

fn pendulum_paths() -> Result<String, PbmError> {
    let (h, t_end): (f64, f64) = (1e-3, 10.0);
    let mut system = double_pendulum()?;
    let start: Vec<(f64, f64)> = std::iter::once((0.0, 0.0))
        .chain(system.particles.particles.iter().map(|p| (p.x[0], p.x[1])))
        .collect();
    let mut stepper = RungeKutta::new(RK4);
    let (mut upper, mut lower) = (Vec::new(), Vec::new());
    for n in 0..=step_count(h, t_end)? {
        if n > 0 {
            stepper.step(&mut system, h)?;
        }
        if n % 5 == 0 {
            let p = &system.particles.particles;
            upper.push((p[0].x[0], p[0].x[1]));
            lower.push((p[1].x[0], p[1].x[1]));
        }
    }
    require_finite("double-pendulum", upper.iter().chain(&lower).flat_map(|p| [p.0, p.1]))?;
    draw_svg("double-pendulum", (620, 640), |root| {
        let mut chart = ChartBuilder::on(root)
            .caption("Double pendulum, first 10 s (RK4, h = 1 ms)", title_font())
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(56)
            .build_cartesian_2d(-2.2..2.2, -2.2..2.2)?;
        axes(&mut chart, "x (m)", "y (m)").draw()?;
        labelled_line(&mut chart, &lower, color(1), 1, "lower bob")?;
        labelled_line(
            &mut chart,
            &upper,
            color(0),
            LINE_WIDTH + 1,
            "upper bob (on the circle)",
        )?;
        chart
            .draw_series(LineSeries::new(start.clone(), REFERENCE.stroke_width(3)))?
            .label("links at release")
            .legend(legend_line(REFERENCE));
        chart.draw_series(start.iter().map(|&p| Circle::new(p, 5, REFERENCE.filled())))?;
        legend(&mut chart, SeriesLabelPosition::LowerRight)
    })
}

fn rods_vs_springs() -> Result<String, PbmError> {
    let t_end = 2.0;
    let chain = Chain::BOOK;
    let holders = [Holder::Rods, Holder::Springs(1e4), Holder::Springs(1e6)];
    let names = ["rods (constraints)", "springs, k = 10⁴ N/m", "springs, k = 10⁶ N/m"];
    let hs: Vec<f64> = (0..=20).map(|i| 1e-5 * 10f64.powf(i as f64 * 0.2)).collect();
    let mut curves = vec![Vec::new(); holders.len()];
    let mut limits = Vec::new();
    for (curve, &holder) in curves.iter_mut().zip(&holders) {
        for &h in &hs {
            let run = run_chain(chain, holder, h, t_end)?;
            if run.stable() {
                curve.push((h, run.max_length_error.max(FLOOR)));
            }
        }
        limits.push(max_stable_step(chain, holder, t_end)?);
    }
    require_finite(
        "rods-vs-springs",
        curves.iter().flatten().flat_map(|p| [p.0, p.1]).chain(limits.iter().copied()),
    )?;
    draw_svg("rods-vs-springs", (820, 500), |root| {
        let mut chart = ChartBuilder::on(root)
            .caption("A falling chain of 10 links, 2 s of RK4", title_font())
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(70)
            .build_cartesian_2d((8e-6..0.1).log_scale(), (1e-14..1.0).log_scale())?;
        axes(&mut chart, "step size h (s)", "largest link-length error |ℓ − L|/L")
            .x_label_formatter(&|v| format!("{v:.0e}"))
            .y_label_formatter(&|v| format!("{v:.0e}"))
            .draw()?;
        for (i, (curve, name)) in curves.iter().zip(names).enumerate() {
            labelled_line(&mut chart, curve, color(i), LINE_WIDTH + 1, name)?;
            chart
                .draw_series(curve.iter().map(|&p| Circle::new(p, 4, color(i).filled())))?;
            chart.draw_series(DashedLineSeries::new(
                vec![(limits[i], 1e-14), (limits[i], 1.0)],
                6,
                4,
                color(i).stroke_width(LINE_WIDTH),
            ))?;
        }
        chart.draw_series(std::iter::once(Text::new(
            "dashed: largest stable step; runs to its right blow up",
            (1.3e-4, 1e-12),
            label_font(),
        )))?;
        legend(&mut chart, SeriesLabelPosition::LowerRight)
    })
}
