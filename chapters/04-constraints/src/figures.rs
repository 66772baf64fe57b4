//! The chapter's figures, computed with the chapter's own code.

use crate::models::{Chain, double_pendulum};
use crate::studies::{Holder, bead_drift, max_stable_step, run_chain};
use crate::system::Feedback;
use pbm_ode::runge_kutta::{RungeKutta, step_count};
use pbm_ode::tableau::{MIDPOINT, RK4};
use pbm_prelim::plot::{
    Drawing, LINE_WIDTH, Legend, REFERENCE, Swatch, axes, chart_on, color,
    dashed_line, draw_figure, equal_scale, legend_below, line, power_of_ten,
    require_finite, title_font, titled,
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

fn drift() -> Result<Vec<Drawing>, PbmError> {
    let (h, t_end) = (0.01, 20.0);
    let runs = [
        ("midpoint, no feedback", bead_drift(MIDPOINT, Feedback::OFF, h, t_end)?),
        ("midpoint, feedback", bead_drift(MIDPOINT, Feedback::DEFAULT, h, t_end)?),
        ("RK4, no feedback", bead_drift(RK4, Feedback::OFF, h, t_end)?),
        ("RK4, feedback", bead_drift(RK4, Feedback::DEFAULT, h, t_end)?),
    ];
    require_finite(
        "drift",
        runs.iter().flat_map(|r| r.1.iter().flat_map(|p| [p.0, p.1])),
    )?;
    let width =
        |i: usize| if i.is_multiple_of(2) { LINE_WIDTH } else { LINE_WIDTH + 1 };
    draw_figure(
        "drift",
        |l| l.pick(500, 520),
        |root, _| {
            let root = titled(
                root,
                "Bead on the unit circle under gravity, h = 10 ms",
                &title_font(),
            )?;
            let legend: Legend = runs
                .iter()
                .enumerate()
                .map(|(i, (name, _))| {
                    (name.to_string(), Swatch::Line(color(i), width(i)))
                })
                .collect();
            let plot = legend_below(&root, &legend)?;
            let mut chart = chart_on(&plot)
                .build_cartesian_2d(0.0..t_end, (1e-12..1e1).log_scale())?;
            axes(&mut chart, "time t (s)", "|C| = |x·x − 1|/2 (m²)")
                .y_label_formatter(&power_of_ten)
                .draw()?;
            for (i, (_, track)) in runs.iter().enumerate() {
                let pts: Vec<(f64, f64)> =
                    track.iter().map(|&(t, c)| (t, c.max(1e-12))).collect();
                line(&mut chart, &pts, color(i), width(i))?;
            }
            Ok(())
        },
    )
}

fn pendulum_paths() -> Result<Vec<Drawing>, PbmError> {
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
    require_finite(
        "double-pendulum",
        upper.iter().chain(&lower).flat_map(|p| [p.0, p.1]),
    )?;
    draw_figure(
        "double-pendulum",
        |l| l.pick(640, 560),
        |root, _| {
            let root = titled(
                root,
                "Double pendulum, first 10 s (RK4, h = 1 ms)",
                &title_font(),
            )?;
            let legend: Legend = vec![
                ("lower bob".into(), Swatch::Line(color(1), 1)),
                (
                    "upper bob (on the circle)".into(),
                    Swatch::Line(color(0), LINE_WIDTH + 1),
                ),
                ("links at release".into(), Swatch::LineDots(REFERENCE, 3)),
            ];
            let plot = legend_below(&root, &legend)?;
            let (xr, yr) = equal_scale(&plot, -2.2..2.2, -2.2..2.2);
            let mut chart = chart_on(&plot).build_cartesian_2d(xr, yr)?;
            axes(&mut chart, "x (m)", "y (m)").draw()?;
            line(&mut chart, &lower, color(1), 1)?;
            line(&mut chart, &upper, color(0), LINE_WIDTH + 1)?;
            line(&mut chart, &start, REFERENCE, 3)?;
            chart.draw_series(
                start.iter().map(|&p| Circle::new(p, 5, REFERENCE.filled())),
            )?;
            Ok(())
        },
    )
}

fn rods_vs_springs() -> Result<Vec<Drawing>, PbmError> {
    let t_end = 2.0;
    let chain = Chain::BOOK;
    let holders = [Holder::Rods, Holder::Springs(1e4), Holder::Springs(1e6)];
    let names =
        ["rods (constraints)", "springs, k = 10⁴ N/m", "springs, k = 10⁶ N/m"];
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
        curves
            .iter()
            .flatten()
            .flat_map(|p| [p.0, p.1])
            .chain(limits.iter().copied()),
    )?;
    draw_figure(
        "rods-vs-springs",
        |l| l.pick(520, 540),
        |root, _| {
            let root = titled(
                root,
                "A falling chain of 10 links, 2 s of RK4",
                &title_font(),
            )?;
            let mut legend: Legend = names
                .iter()
                .enumerate()
                .map(|(i, name)| {
                    (name.to_string(), Swatch::LineDots(color(i), LINE_WIDTH + 1))
                })
                .collect();
            legend.push((
                "dashed, each colour: largest stable step; runs to its right blow up"
                    .into(),
                Swatch::Dashed(REFERENCE, LINE_WIDTH),
            ));
            let plot = legend_below(&root, &legend)?;
            let mut chart = chart_on(&plot).build_cartesian_2d(
                (8e-6..0.1).log_scale(),
                (1e-14..1.0).log_scale(),
            )?;
            axes(
                &mut chart,
                "step size h (s)",
                "largest link-length error |ℓ − L|/L",
            )
            .x_label_formatter(&power_of_ten)
            .y_label_formatter(&power_of_ten)
            .draw()?;
            for (i, curve) in curves.iter().enumerate() {
                line(&mut chart, curve, color(i), LINE_WIDTH + 1)?;
                chart.draw_series(
                    curve.iter().map(|&p| Circle::new(p, 4, color(i).filled())),
                )?;
                dashed_line(
                    &mut chart,
                    &[(limits[i], 1e-14), (limits[i], 1.0)],
                    color(i),
                    LINE_WIDTH,
                )?;
            }
            Ok(())
        },
    )
}
