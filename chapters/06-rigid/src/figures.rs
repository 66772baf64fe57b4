//! The chapter's figures, computed with the chapter's own code.

use crate::body::Representation;
use crate::motion::{DZHANIBEKOV_OMEGA, Sample, TUMBLING_BLOCK_SIZE, torque_free};
use nalgebra::{Matrix3, Vector3};
use pbm_prelim::plot::{
    LINE_WIDTH, REFERENCE, axes, color, draw_svg, label_font, labelled_line, legend,
    legend_line, require_finite, tick_font, title_font,
};
use pbm_prelim::{Figure, PbmError};
use plotters::prelude::*;

/// Every figure of the chapter, in reading order.
pub fn all() -> Vec<Figure> {
    vec![
        Figure {
            name: "orientation-drift",
            title: "Drift of a rotation matrix against a quaternion",
            draw: orientation_drift,
        },
        Figure {
            name: "dzhanibekov",
            title: "Spin about the intermediate axis flips",
            draw: dzhanibekov,
        },
        Figure {
            name: "dzhanibekov-box",
            title: "The flipping block, seen at eight instants",
            draw: dzhanibekov_box,
        },
    ]
}

const FLOOR: f64 = 1e-17;

fn orientation_drift() -> Result<String, PbmError> {
    let (h, t_end) = (0.02, 100.0);
    let omega = Vector3::new(1.0, 2.0, 3.0);
    let track = |r, renormalize| -> Result<Vec<(f64, f64)>, PbmError> {
        Ok(torque_free(omega, r, renormalize, h, t_end, 10)?
            .iter()
            .map(|s| (s.t, s.orientation_error.max(FLOOR)))
            .collect())
    };
    let runs = [
        ("rotation matrix: ‖RᵀR − 1‖", track(Representation::Matrix, false)?),
        ("quaternion: | |q| − 1 |", track(Representation::Quaternion, false)?),
        ("quaternion, renormalized every step", track(Representation::Quaternion, true)?),
    ];
    require_finite(
        "orientation-drift",
        runs.iter().flat_map(|r| r.1.iter().flat_map(|p| [p.0, p.1])),
    )?;
    draw_svg("orientation-drift", (780, 480), |root| {
        let mut chart = ChartBuilder::on(root)
            .caption("Tumbling 1 × 2 × 3 m block, RK4 at h = 20 ms", title_font())
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(70)
            .build_cartesian_2d(0.0..t_end, (FLOOR..1e-2).log_scale())?;
        axes(&mut chart, "time t (s)", "distance from a rotation (dimensionless)")
            .y_label_formatter(&|v| format!("{v:.0e}"))
            .draw()?;
        for (i, (name, track)) in runs.iter().enumerate() {
            labelled_line(&mut chart, track, color(i), LINE_WIDTH + 1, name)?;
        }
        legend(&mut chart, SeriesLabelPosition::LowerRight)
    })
}

fn dzhanibekov_run() -> Result<Vec<Sample>, PbmError> {
    torque_free(DZHANIBEKOV_OMEGA, Representation::Quaternion, true, 1e-3, 30.0, 10)
}

fn dzhanibekov() -> Result<String, PbmError> {
    let samples = dzhanibekov_run()?;
    let names = [
        "ω_x (largest moment, 13/12 kg m²)",
        "ω_y (intermediate, 10/12)",
        "ω_z (smallest, 5/12)",
    ];
    let curves: Vec<Vec<(f64, f64)>> =
        (0..3).map(|k| samples.iter().map(|s| (s.t, s.body_omega[k])).collect()).collect();
    require_finite("dzhanibekov", curves.iter().flatten().flat_map(|p| [p.0, p.1]))?;
    draw_svg("dzhanibekov", (860, 460), |root| {
        let mut chart = ChartBuilder::on(root)
            .caption("Block spun at 5 rad/s about its intermediate axis", title_font())
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(56)
            .build_cartesian_2d(0.0..30.0, -6.0..10.5)?;
        axes(&mut chart, "time t (s)", "angular velocity in body axes (rad/s)").draw()?;
        for (k, (curve, name)) in curves.iter().zip(names).enumerate() {
            let width = if k == 1 { LINE_WIDTH + 1 } else { LINE_WIDTH };
            labelled_line(&mut chart, curve, color(k), width, name)?;
        }
        chart
            .draw_series(DashedLineSeries::new(
                vec![(0.0, 0.0), (30.0, 0.0)],
                4,
                4,
                REFERENCE.stroke_width(1),
            ))?
            .label("zero")
            .legend(legend_line(REFERENCE));
        legend(&mut chart, SeriesLabelPosition::UpperMiddle)
    })
}

/// Orthographic view: world point → (screen x, screen y), looking along (1, −0.6, 0.8)
/// with world y up on the screen.
fn project(p: &Vector3<f64>) -> (f64, f64) {
    let view = Vector3::new(1.0, -0.6, 0.8).normalize();
    let right = Vector3::y().cross(&view).normalize();
    let up = view.cross(&right);
    (p.dot(&right), p.dot(&up))
}

fn dzhanibekov_box() -> Result<String, PbmError> {
    let samples = dzhanibekov_run()?;
    let first_flip = samples
        .windows(2)
        .find(|w| w[0].body_omega.y * w[1].body_omega.y < 0.0)
        .map_or(15.0, |w| w[1].t);
    // Eight instants from the start to twice the first flip: up, flipping, down.
    let frames: Vec<(f64, Matrix3<f64>)> = (0..8)
        .map(|k| {
            let t = first_flip * 2.0 * k as f64 / 7.0;
            let s =
                samples.iter().min_by(|a, b| (a.t - t).abs().total_cmp(&(b.t - t).abs()));
            s.map_or((0.0, Matrix3::identity()), |s| (s.t, s.r))
        })
        .collect();
    let size = TUMBLING_BLOCK_SIZE / 2.0; // the block the simulation used
    let corner = |i: usize| {
        Vector3::new(
            if i & 1 == 0 { -size.x } else { size.x },
            if i & 2 == 0 { -size.y } else { size.y },
            if i & 4 == 0 { -size.z } else { size.z },
        )
    };
    let edges: Vec<(usize, usize)> = (0..8)
        .flat_map(|i| {
            [1, 2, 4].into_iter().filter(move |b| i & b == 0).map(move |b| (i, i | b))
        })
        .collect();
    draw_svg("dzhanibekov-box", (1120, 620), |root| {
        let root = root.titled(
            "1 × 2 × 3 m block; arrow: the body's intermediate (y) axis, spun about at t = 0",
            title_font(),
        )?;
        let panels = root.split_evenly((2, 4));
        for (panel, (t, r)) in panels.iter().zip(&frames) {
            let mut chart = ChartBuilder::on(panel)
                .caption(format!("t = {t:.1} s"), label_font())
                .margin(6)
                .build_cartesian_2d(-2.2..2.2, -2.2..2.2)?;
            for &(a, b) in &edges {
                let (pa, pb) = (project(&(r * corner(a))), project(&(r * corner(b))));
                chart.draw_series(LineSeries::new([pa, pb], REFERENCE.stroke_width(2)))?;
            }
            for (k, axis) in [Vector3::x(), Vector3::y(), Vector3::z()].iter().enumerate() {
                let tip = project(&(r * axis * 1.6));
                let width = if k == 1 { 5 } else { 2 };
                chart.draw_series(LineSeries::new(
                    [(0.0, 0.0), tip],
                    color(k).stroke_width(width),
                ))?;
                chart.draw_series(std::iter::once(Circle::new(
                    tip,
                    4,
                    color(k).filled(),
                )))?;
            }
            chart.draw_series(std::iter::once(Text::new(
                "world y ↑",
                (-2.1, 2.0),
                tick_font(),
            )))?;
        }
        Ok(())
    })
}
