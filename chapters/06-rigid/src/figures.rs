//! The chapter's figures, computed with the chapter's own code.

use crate::body::Representation;
use crate::mass::{MassProperties, projected_area, projection_axes};
use crate::mesh::l_shape;
use crate::scenes::{
    DZHANIBEKOV_OMEGA, GYROSCOPIC, GyroscopicSetup, Sample, TUMBLING_BLOCK_SIZE,
    gyroscopic_run, polhode, push, torque_free, tumbling_block,
};
use nalgebra::{Matrix3, Vector3};
use pbm_prelim::plot::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Every figure of the chapter, in reading order.
pub fn all() -> Vec<Figure> {
    vec![
        Figure::new(
            "body-frame",
            "Body and world coordinates of a point",
            body_frame,
        ),
        Figure::new(
            "projection-integral",
            "A face, its shadow on a coordinate plane, and the edge integral around it",
            projection_integral,
        ),
        Figure::new(
            "l-mass",
            "The L-shaped prism: sampled points and its exact mass properties",
            l_mass,
        ),
        Figure::new(
            "orientation-drift",
            "Drift of a rotation matrix against a quaternion",
            orientation_drift,
        ),
        Figure::new(
            "push-paths",
            "The force versus torque puzzle, seen from above",
            push_paths,
        ),
        Figure::new(
            "dzhanibekov",
            "Spin about the intermediate axis flips",
            dzhanibekov,
        ),
        Figure::new(
            "dzhanibekov-box",
            "The flipping block, seen at eight instants",
            dzhanibekov_box,
        ),
        Figure::new(
            "polhode",
            "The body-frame angular momentum on the momentum sphere: polhodes",
            polhode_figure,
        ),
        Figure::new(
            "gyroscopic",
            "Energy and |L| of a tumbling brick at a large step, explicit and implicit",
            gyroscopic,
        ),
    ]
}

const FLOOR: f64 = 1e-17;

/// The outline of a `w` × `h` rectangle centred at `c`, turned by `r` (its first two
/// columns used), closed.
fn outline(c: (f64, f64), r: &Matrix3<f64>, w: f64, h: f64) -> Vec<(f64, f64)> {
    [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0)]
        .iter()
        .map(|&(u, v)| {
            let p = r * Vector3::new(0.5 * w * u, 0.5 * h * v, 0.0);
            (c.0 + p.x, c.1 + p.y)
        })
        .collect()
}

/// A body in the plane: its centre of mass x, its axes (the columns of R), and a
/// point fixed in it, p = x + R r₀, drawn in world coordinates.
fn body_frame() -> Result<Vec<Drawing>, PbmError> {
    let angle = 30f64.to_radians();
    let r = Matrix3::new(
        angle.cos(),
        -angle.sin(),
        0.0,
        angle.sin(),
        angle.cos(),
        0.0,
        0.0,
        0.0,
        1.0,
    );
    let x = (2.6, 1.4);
    let r0 = Vector3::new(0.8, 0.3, 0.0);
    let rr0 = r * r0;
    let p = (x.0 + rr0.x, x.1 + rr0.y);
    titled_figure(
        [420, 460],
        "p = x + R r₀: a body point in world coordinates",
        |root, _| {
            let legend: Legend = vec![
                ("world axes".into(), Swatch::Line(REFERENCE, 2)),
                ("body axes: the columns of R".into(), Swatch::Line(color(1), 2)),
                ("x, the centre of mass".into(), Swatch::Line(color(0), 2)),
                ("R r₀, the point's offset".into(), Swatch::Line(color(2), 2)),
                ("p, the point".into(), Swatch::Dashed(color(4), 2)),
            ];
            let plot = legend_below(root, &legend)?;
            let (xr, yr) = equal_scale(&plot, -0.4..4.0, -0.4..2.9);
            let mut chart = chart_on(&plot).build_cartesian_2d(xr, yr)?;
            axes(&mut chart, "world x (m)", "world y (m)").draw()?;
            line(&mut chart, &outline(x, &r, 2.4, 1.2), REFERENCE, 1)?;
            arrow(&mut chart, (0.0, 0.0), (1.0, 0.0), 0.15, REFERENCE, 2)?;
            arrow(&mut chart, (0.0, 0.0), (0.0, 1.0), 0.15, REFERENCE, 2)?;
            for k in 0..2 {
                let axis = r.column(k) * 0.9;
                arrow(
                    &mut chart,
                    x,
                    (x.0 + axis.x, x.1 + axis.y),
                    0.15,
                    color(1),
                    2,
                )?;
            }
            arrow(&mut chart, (0.0, 0.0), x, 0.15, color(0), 2)?;
            arrow(&mut chart, x, p, 0.12, color(2), 2)?;
            dashed_line(&mut chart, &[(0.0, 0.0), p], color(4), 2)?;
            let font = label_font();
            let labels = [
                ("world x", (1.05, -0.22)),
                ("world y", (0.05, 1.08)),
                ("body x", (x.0 + 0.95 * r[(0, 0)], x.1 + 0.95 * r[(1, 0)] - 0.2)),
                (
                    "body y",
                    (x.0 + 0.95 * r[(0, 1)] - 0.3, x.1 + 0.95 * r[(1, 1)] + 0.05),
                ),
                ("p", (p.0 + 0.06, p.1 + 0.02)),
            ];
            for (text, at) in labels {
                chart.draw_series(std::iter::once(Text::new(
                    text,
                    at,
                    font.clone(),
                )))?;
            }
            chart.draw_series(std::iter::once(Circle::new(
                x,
                4,
                color(0).filled(),
            )))?;
            chart.draw_series(std::iter::once(Circle::new(
                p,
                4,
                color(4).filled(),
            )))?;
            Ok(())
        },
    )
}

/// The L-shaped prism seen along z: (a) point sampling's cell centres in the middle
/// layer of an odd grid, each weighted by the mesh's winding number; (b) the exact
/// mass properties, with the principal axes and a body point's offset r₀.
fn l_mass() -> Result<Vec<Drawing>, PbmError> {
    let mesh = l_shape()?;
    let props = MassProperties::polyhedron(&mesh, 1.0)?;
    let (moments, principal) = props.principal_axes();
    // The side faces, seen along z, are the outline.
    let sides: Vec<[(f64, f64); 2]> = mesh
        .corners()
        .filter(|[a, b, c]| (b - a).cross(&(c - a)).z.abs() < 1e-12)
        .flat_map(|[a, b, c]| [[a, b], [b, c], [c, a]])
        .filter(|[p, q]| (p.xy() - q.xy()).norm() > 1e-12)
        .map(|[p, q]| [(p.x, p.y), (q.x, q.y)])
        .collect();
    // The sampling grid of `MassProperties::point_sampling`, its middle layer.
    let n = 7;
    let (lo, hi) = mesh.bounds();
    let cell = (hi - lo) / n as f64;
    let mut samples = Vec::new();
    for i in 0..n {
        for j in 0..n {
            let centre = |k: usize| lo[k] + cell[k] * ([i, j, n / 2][k] as f64 + 0.5);
            let p = Vector3::new(centre(0), centre(1), centre(2));
            samples.push(((p.x, p.y), mesh.winding_number(&p)));
        }
    }
    // The weights that occur, largest first, each drawn in its own style.
    let mut weights: Vec<f64> = Vec::new();
    for &(_, w) in &samples {
        let w = (w * 1e6).round() / 1e6;
        if !weights.contains(&w) {
            weights.push(w);
        }
    }
    weights.sort_by(|a, b| b.total_cmp(a));
    let in_plane: Vec<usize> =
        (0..3).filter(|&k| principal[(2, k)].abs() < 1e-9).collect();
    let corner = Vector3::new(hi.x, lo.y, lo.z);
    let r0 = corner - props.centre;
    require_finite(
        samples
            .iter()
            .map(|s| s.1)
            .chain(moments.iter().copied())
            .chain(props.centre.iter().copied()),
    )?;
    let style = |k: usize| match k {
        0 => Swatch::Dot(color(0), 6),
        1 => Swatch::Dot(color(1), 6),
        2 => Swatch::Dot(color(2), 6),
        _ => Swatch::Ring(REFERENCE, 5),
    };
    let describe = |w: f64| match w {
        w if w >= 1.0 - 1e-9 => "1: inside, the whole cell".to_string(),
        w if w <= 1e-9 => "0: outside, nothing".to_string(),
        w if (w - 0.5).abs() < 1e-9 => "½: on a face, half the cell".to_string(),
        w => format!("{w:.2}: on the inner edge"),
    };
    let centre = (props.centre.x, props.centre.y);
    let axis = |k: usize| (principal[(0, k)], principal[(1, k)]);
    let legends = [
        weights
            .iter()
            .enumerate()
            .map(|(k, &w)| (format!("winding number {}", describe(w)), style(k)))
            .collect::<Legend>(),
        vec![
            (
                format!(
                    "centre of mass c = ({:.3}, {:.3}, {:.1}) m",
                    props.centre.x, props.centre.y, props.centre.z
                ),
                Swatch::Dot(color(0), 5),
            ),
            (
                format!(
                    "principal axes e₁, e₂: I₁ = {:.3}, I₂ = {:.3} kg m² (I₃ = {:.3} about z)",
                    moments[in_plane[0]],
                    moments[in_plane[1]],
                    moments[3 - in_plane[0] - in_plane[1]]
                ),
                Swatch::Line(color(1), 2),
            ),
            (
                format!(
                    "r₀ = ({:.3}, {:.3}, {:.1}) m: a corner seen from c",
                    r0.x, r0.y, r0.z
                )
                .replace('-', "−"),
                Swatch::Line(color(2), 2),
            ),
            ("centre of the bounding box".into(), Swatch::Ring(REFERENCE, 5)),
        ],
    ];
    let title = format!(
        "An L-shaped prism, 1 deep, density 1 (M = {:.0} kg), seen along z",
        props.mass
    );
    titled_figure([520, 960], &title, |root, layout| {
        let sampled = format!("(a) sampling, n = {n}: middle layer");
        let titled_parts = titled_panels(
            root,
            layout,
            [&sampled, "(b) exact, by Mirtich's integrals"],
        )?;
        let plots = legends_below(&titled_parts, &legends)?;
        for (k, plot) in plots.iter().enumerate() {
            let (xr, yr) = equal_scale(plot, -0.35..2.35, -0.35..2.35);
            let mut chart = chart_on(plot).build_cartesian_2d(xr, yr)?;
            axes(&mut chart, "x (m)", "y (m)")
                .x_label_formatter(&|v| format!("{v:.1}"))
                .y_label_formatter(&|v| format!("{v:.1}"))
                .draw()?;
            for side in &sides {
                line(&mut chart, side, REFERENCE, 2)?;
            }
            let label = |text: &str, at: (f64, f64)| {
                Text::new(text.to_string(), at, label_font())
            };
            if k == 0 {
                for i in 0..=n {
                    let x = lo.x + cell.x * i as f64;
                    let y = lo.y + cell.y * i as f64;
                    dashed_line(&mut chart, &[(x, lo.y), (x, hi.y)], REFERENCE, 1)?;
                    dashed_line(&mut chart, &[(lo.x, y), (hi.x, y)], REFERENCE, 1)?;
                }
                for &(at, w) in &samples {
                    let w = (w * 1e6).round() / 1e6;
                    let kind = weights.iter().position(|&v| v == w).unwrap_or(3);
                    match style(kind) {
                        Swatch::Dot(c, r) => {
                            chart.draw_series([Circle::new(at, r, c.filled())])?;
                        }
                        _ => {
                            chart.draw_series([Circle::new(
                                at,
                                5,
                                WHITE.filled(),
                            )])?;
                            chart.draw_series([Circle::new(
                                at,
                                5,
                                REFERENCE.stroke_width(2),
                            )])?;
                        }
                    }
                }
            } else {
                let bounding = ((lo.x + hi.x) / 2.0, (lo.y + hi.y) / 2.0);
                for (m, &k) in in_plane.iter().enumerate() {
                    let (ax, ay) = axis(k);
                    let tip = (centre.0 + 0.8 * ax, centre.1 + 0.8 * ay);
                    arrow(&mut chart, centre, tip, 0.12, color(1), 2)?;
                    let name = ["e₁", "e₂"][m];
                    chart.draw_series([label(name, (tip.0 + 0.04, tip.1 + 0.12))])?;
                }
                arrow(&mut chart, centre, (corner.x, corner.y), 0.12, color(2), 2)?;
                chart.draw_series([
                    label(
                        "r₀",
                        (
                            0.5 * (centre.0 + corner.x) + 0.05,
                            0.5 * (centre.1 + corner.y) + 0.12,
                        ),
                    ),
                    label("c", (centre.0 - 0.17, centre.1 + 0.05)),
                ])?;
                chart.draw_series([Circle::new(bounding, 5, WHITE.filled())])?;
                chart.draw_series([Circle::new(
                    bounding,
                    5,
                    REFERENCE.stroke_width(2),
                )])?;
                chart.draw_series([Circle::new(centre, 5, color(0).filled())])?;
            }
        }
        Ok(())
    })
}

/// The page's 4 × 0.5 m block pushed by 1 N along y for 2 s, through its centre and
/// 1.5 m along it, seen from above at five instants.
fn push_paths() -> Result<Vec<Drawing>, PbmError> {
    let offsets = [0.0, 1.5];
    let runs = offsets
        .iter()
        .map(|&d| push(Vector3::new(d, 0.0, 0.0), 2.0, 1e-3))
        .collect::<Result<Vec<_>, PbmError>>()?;
    require_finite(
        runs.iter()
            .flat_map(|r| r.path.iter().flat_map(|(p, c, _)| [p.x, p.y, c.x, c.y])),
    )?;
    let legends: Vec<Legend> = runs
        .iter()
        .map(|run| {
            let rise = run.path.last().map_or(0.0, |l| l.0.y) - run.path[0].0.y;
            vec![
                (
                    format!("path of the pushed point: {rise:.2} m along F"),
                    Swatch::Line(color(1), LINE_WIDTH),
                ),
                ("path of the centre of mass".into(), Swatch::Dashed(color(0), 1)),
                ("the 1 N force, every 0.5 s".into(), Swatch::Line(color(3), 2)),
                (
                    format!(
                        "the block then, darker later; kinetic energy at 2 s: {:.2} J",
                        run.kinetic_energy
                    ),
                    Swatch::Line(REFERENCE, 1),
                ),
            ]
        })
        .collect();
    titled_figure(
        [520, 960],
        "A 4 × 0.5 m, 1 kg block pushed by 1 N along y for 2 s (arrows every 0.5 s)",
        |root, layout| {
            let titled_parts = titled_panels(
                root,
                layout,
                ["(a) through the centre", "(b) 1.5 m from the centre"],
            )?;
            let plots = legends_below(&titled_parts, &legends)?;
            for (plot, run) in plots.iter().zip(&runs) {
                let (xr, yr) = equal_scale(plot, -2.6..2.6, -1.2..4.4);
                let mut chart = chart_on(plot).build_cartesian_2d(xr, yr)?;
                axes(&mut chart, "x (m)", "y (m)").draw()?;
                let points: Vec<(f64, f64)> =
                    run.path.iter().map(|(p, _, _)| (p.x, p.y)).collect();
                let centres: Vec<(f64, f64)> =
                    run.path.iter().map(|(_, c, _)| (c.x, c.y)).collect();
                for k in (0..run.path.len()).step_by(500) {
                    let (p, c, r) = &run.path[k];
                    let shade =
                        REFERENCE.mix(0.3 + 0.7 * k as f64 / run.path.len() as f64);
                    chart.draw_series(std::iter::once(PathElement::new(
                        outline((c.x, c.y), r, 4.0, 0.5),
                        shade.stroke_width(1),
                    )))?;
                    arrow(
                        &mut chart,
                        (p.x, p.y - 0.6),
                        (p.x, p.y),
                        0.15,
                        color(3),
                        2,
                    )?;
                }
                // The paths last, on top of the arrows that push along them.
                dashed_line(&mut chart, &centres, color(0), 1)?;
                line(&mut chart, &points, color(1), LINE_WIDTH)?;
            }
            Ok(())
        },
    )
}

fn orientation_drift() -> Result<Vec<Drawing>, PbmError> {
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
        (
            "quaternion, renormalized every step",
            track(Representation::Quaternion, true)?,
        ),
    ];
    require_finite(runs.iter().flat_map(|r| r.1.iter().flat_map(|p| [p.0, p.1])))?;
    titled_figure(
        [500, 520],
        "Tumbling 1 × 2 × 3 m block, RK4 at h = 20 ms",
        |root, _| {
            let legend: Legend =
                series_legend(&runs, Swatch::Line, LINE_WIDTH + 1, |(name, _)| {
                    name.to_string()
                });
            let plot = legend_below(root, &legend)?;
            let mut chart = chart_on(&plot)
                .build_cartesian_2d(0.0..t_end, (FLOOR..1e-2).log_scale())?;
            axes(&mut chart, "time t (s)", "distance from a rotation")
                .y_label_formatter(&power_of_ten)
                .draw()?;
            for (i, (_, track)) in runs.iter().enumerate() {
                line(&mut chart, track, color(i), LINE_WIDTH + 1)?;
            }
            Ok(())
        },
    )
}

fn dzhanibekov_run() -> Result<Vec<Sample>, PbmError> {
    torque_free(DZHANIBEKOV_OMEGA, Representation::Quaternion, true, 1e-3, 30.0, 10)
}

fn dzhanibekov() -> Result<Vec<Drawing>, PbmError> {
    let samples = dzhanibekov_run()?;
    let names = [
        "ω_x (largest moment, 13/12 kg m²)",
        "ω_y (intermediate, 10/12)",
        "ω_z (smallest, 5/12)",
    ];
    let curves: Vec<Vec<(f64, f64)>> = (0..3)
        .map(|k| samples.iter().map(|s| (s.t, s.body_omega[k])).collect())
        .collect();
    require_finite(curves.iter().flatten().flat_map(|p| [p.0, p.1]))?;
    let width = |k: usize| if k == 1 { LINE_WIDTH + 1 } else { LINE_WIDTH };
    titled_figure(
        [480, 500],
        "Block spun at 5 rad/s about its intermediate axis",
        |root, _| {
            let legend: Legend = names
                .iter()
                .enumerate()
                .map(|(k, name)| (name.to_string(), Swatch::Line(color(k), width(k))))
                .collect();
            let plot = legend_below(root, &legend)?;
            let mut chart = chart_on(&plot)
                .y_label_area_size(56)
                .build_cartesian_2d(0.0..30.0, -6.0..6.0)?;
            axes(&mut chart, "time t (s)", "ω in body axes (rad/s)").draw()?;
            dashed_line(&mut chart, &[(0.0, 0.0), (30.0, 0.0)], REFERENCE, 1)?;
            for (k, curve) in curves.iter().enumerate() {
                line(&mut chart, curve, color(k), width(k))?;
            }
            Ok(())
        },
    )
}

/// Orthographic view: world point → (screen x, screen y), looking along (1, −0.6,
/// 0.8) with world y up on the screen.
fn project(p: &Vector3<f64>) -> (f64, f64) {
    let view = Vector3::new(1.0, -0.6, 0.8).normalize();
    let right = Vector3::y().cross(&view).normalize();
    let up = view.cross(&right);
    (p.dot(&right), p.dot(&up))
}

fn dzhanibekov_box() -> Result<Vec<Drawing>, PbmError> {
    let samples = dzhanibekov_run()?;
    let first_flip = samples
        .windows(2)
        .find(|w| w[0].body_omega.y * w[1].body_omega.y < 0.0)
        .map_or(15.0, |w| w[1].t);
    // Eight instants from the start to twice the first flip: up, flipping, down.
    let frames: Vec<(f64, Matrix3<f64>)> = (0..8)
        .map(|k| {
            let t = first_flip * 2.0 * k as f64 / 7.0;
            let s = samples
                .iter()
                .min_by(|a, b| (a.t - t).abs().total_cmp(&(b.t - t).abs()));
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
    titled_figure(
        [480, 860],
        "1 × 2 × 3 m block, seen from one fixed direction; world y points up",
        |root, layout| {
            let legend: Legend = vec![
                ("body x (largest moment)".into(), Swatch::Line(color(0), 2)),
                ("body y: the spin axis at t = 0".into(), Swatch::Line(color(1), 5)),
                ("body z (smallest moment)".into(), Swatch::Line(color(2), 2)),
            ];
            let root = legend_below(root, &legend)?;
            let columns = layout.pick(4, 2);
            let parts = root.split_evenly((frames.len().div_ceil(columns), columns));
            for (panel, (t, r)) in parts.iter().zip(&frames) {
                let panel = titled(panel, &format!("t = {t:.1} s"), &label_font())?;
                let (w, h) = panel.dim_in_pixel();
                let (xr, yr) = equal_scale_in((w - 4, h - 4), -2.2..2.2, -2.2..2.2);
                let mut chart =
                    ChartBuilder::on(&panel).margin(2).build_cartesian_2d(xr, yr)?;
                for &(a, b) in &edges {
                    let (pa, pb) =
                        (project(&(r * corner(a))), project(&(r * corner(b))));
                    line(&mut chart, &[pa, pb], REFERENCE, 2)?;
                }
                for (k, axis) in
                    [Vector3::x(), Vector3::y(), Vector3::z()].iter().enumerate()
                {
                    let tip = project(&(r * axis * 1.6));
                    line(
                        &mut chart,
                        &[(0.0, 0.0), tip],
                        color(k),
                        if k == 1 { 5 } else { 2 },
                    )?;
                    chart.draw_series(std::iter::once(Circle::new(
                        tip,
                        4,
                        color(k).filled(),
                    )))?;
                }
            }
            Ok(())
        },
    )
}

/// An orthographic view: a point → (screen x, screen y, depth towards the viewer).
struct View {
    right: Vector3<f64>,
    up: Vector3<f64>,
    toward: Vector3<f64>,
}

impl View {
    /// Looking back along `toward` (from the viewer to the scene's centre, reversed),
    /// with `up` as near the screen's vertical as it can be.
    fn new(toward: Vector3<f64>, up: Vector3<f64>) -> Self {
        let toward = toward.normalize();
        let right = up.cross(&toward).normalize();
        View { right, up: toward.cross(&right), toward }
    }

    fn at(&self, p: &Vector3<f64>) -> (f64, f64) {
        (p.dot(&self.right), p.dot(&self.up))
    }

    /// Splits a path into runs on the near side (depth ≥ 0) and the far side.
    fn sides(&self, path: &[Vector3<f64>]) -> Vec<(bool, Vec<(f64, f64)>)> {
        let mut runs: Vec<(bool, Vec<(f64, f64)>)> = Vec::new();
        for p in path {
            let near = p.dot(&self.toward) >= 0.0;
            match runs.last_mut() {
                Some((side, run)) if *side == near => run.push(self.at(p)),
                Some((_, run)) => {
                    let last = run[run.len() - 1];
                    runs.push((near, vec![last, self.at(p)]));
                }
                None => runs.push((near, vec![self.at(p)])),
            }
        }
        runs
    }
}

/// The silhouette of the ellipsoid pᵀ diag(1/a²) p = 1 seen through `view`: the
/// points where its normal is perpendicular to the line of sight.
fn ellipsoid_outline(a: &Vector3<f64>, view: &View) -> Vec<(f64, f64)> {
    let form = Matrix3::from_diagonal(&a.map(|x| 1.0 / (x * x)));
    // The outline lies in the plane through the centre perpendicular to A d.
    let normal = (form * view.toward).normalize();
    let u = normal.cross(&view.up).normalize();
    let v = normal.cross(&u);
    (0..=360)
        .map(|k| {
            let phi = (k as f64).to_radians();
            let dir = u * phi.cos() + v * phi.sin();
            view.at(&(dir / dir.dot(&(form * dir)).sqrt()))
        })
        .collect()
}

/// The Dzhanibekov run's body-frame angular momentum on the sphere |L| = const,
/// with the run's energy ellipsoid and the polhodes of six other energies.
fn polhode_figure() -> Result<Vec<Drawing>, PbmError> {
    let run: Vec<Vector3<f64>> =
        dzhanibekov_run()?.iter().map(Sample::body_momentum).collect();
    let moments = tumbling_block()?.inertia.diagonal();
    let radius = run[0].norm();
    let two_e = run[0].component_div(&moments).dot(&run[0]);
    let mut family = Vec::new();
    for degrees in [20.0, 45.0, 70.0_f64] {
        let (s, c) = degrees.to_radians().sin_cos();
        for start in [Vector3::new(s, c, 0.0), Vector3::new(0.0, c, s)] {
            family.push(polhode(start * radius, 12.0)?);
        }
    }
    require_finite(
        run.iter().chain(family.iter().flatten()).flat_map(|p| p.iter().copied()),
    )?;
    let ellipsoid = moments.map(|i| (two_e * i).sqrt());
    let view = View::new(Vector3::new(0.85, 0.45, 0.7), Vector3::y());
    let legend: Legend = vec![
        (
            "the run: L in body axes over 30 s (far side thin)".into(),
            Swatch::Line(color(1), 4),
        ),
        (
            "polhodes of six other energies, same |L|".into(),
            Swatch::Line(REFERENCE, 1),
        ),
        (format!("sphere |L| = {radius:.2} kg m²/s"), Swatch::Line(color(0), 2)),
        (
            "energy ellipsoid of the run, L·I⁻¹L = 2E".into(),
            Swatch::Dashed(color(3), 2),
        ),
    ];
    titled_figure(
        [560, 560],
        "1 × 2 × 3 m block: where L can be, seen in the body frame",
        |root, layout| {
            let plot = legend_below(root, &legend)?;
            let r = 1.35 * ellipsoid.max();
            let mut chart = scene_chart(&plot, -r..r, -r..r)?;
            let circle: Vec<(f64, f64)> = (0..=360)
                .map(|k| {
                    let (s, c) = (k as f64).to_radians().sin_cos();
                    (radius * c, radius * s)
                })
                .collect();
            line(&mut chart, &circle, color(0), 2)?;
            dashed_line(
                &mut chart,
                &ellipsoid_outline(&ellipsoid, &view),
                color(3),
                2,
            )?;
            for path in &family {
                for (near, part) in view.sides(path) {
                    let shade = REFERENCE.mix(if near { 0.55 } else { 0.2 });
                    chart.draw_series([PathElement::new(
                        part,
                        shade.stroke_width(1),
                    )])?;
                }
            }
            let names = ["x: largest moment", "y: middle", "z: smallest"];
            let reach = 1.2 * ellipsoid.max();
            for (k, name) in names.iter().enumerate() {
                let axis = Vector3::ith(k, 1.0);
                let (back, tip) =
                    (view.at(&(-axis * radius)), view.at(&(axis * reach)));
                let faint = REFERENCE.mix(0.4).stroke_width(1);
                chart
                    .draw_series([PathElement::new(vec![back, (0.0, 0.0)], faint)])?;
                arrow(&mut chart, (0.0, 0.0), tip, 0.3, REFERENCE, 1)?;
                let (h_pos, at) = match k {
                    1 => (HPos::Left, (tip.0 + 0.2, tip.1 + 0.3)),
                    _ => (HPos::Left, (tip.0 + 0.1, tip.1 - 0.2)),
                };
                let name: &str = layout.pick(name, &name[..1]);
                let style = label_font().pos(Pos::new(h_pos, VPos::Top));
                chart.draw_series([Text::new(name.to_string(), at, style)])?;
            }
            for y in [radius, -radius] {
                let at = view.at(&Vector3::new(0.0, y, 0.0));
                chart.draw_series([Circle::new(at, 4, REFERENCE.filled())])?;
            }
            let bottom = view.at(&Vector3::new(0.0, -radius, 0.0));
            let style = label_font().pos(Pos::new(HPos::Right, VPos::Center));
            let minus_y = Text::new("−y", (bottom.0 - 0.25, bottom.1), style);
            chart.draw_series([minus_y])?;
            for (near, part) in view.sides(&run) {
                let width = if near { 4 } else { 1 };
                chart.draw_series([PathElement::new(
                    part,
                    color(1).stroke_width(width),
                )])?;
            }
            Ok(())
        },
    )
}

/// The brick of `rigid/gyroscopic` at its defaults: E/E₀ and |L|/|L₀| against time
/// for forward Euler and for backward Euler with one Newton step.
fn gyroscopic() -> Result<Vec<Drawing>, PbmError> {
    let GyroscopicSetup { spin, h, t_end, newton } = GYROSCOPIC;
    let samples = gyroscopic_run(spin, h, t_end, newton)?;
    let (e0, l0) = (samples[0].energy_implicit, samples[0].momentum_implicit);
    let curve = |f: &dyn Fn(&crate::scenes::SpinSample) -> Option<f64>| {
        samples.iter().filter_map(|s| f(s).map(|y| (s.t, y))).collect::<Vec<_>>()
    };
    let curves = [
        ("forward Euler: E/E₀", curve(&|s| s.energy_explicit.map(|e| e / e0))),
        ("forward Euler: |L|/|L₀|", curve(&|s| s.momentum_explicit.map(|l| l / l0))),
        ("backward Euler: E/E₀", curve(&|s| Some(s.energy_implicit / e0))),
        ("backward Euler: |L|/|L₀|", curve(&|s| Some(s.momentum_implicit / l0))),
    ];
    let newton_label =
        format!("{newton} Newton step{}", if newton == 1 { "" } else { "s" });
    require_finite(curves.iter().flat_map(|c| c.1.iter().map(|p| p.1)))?;
    let top = curves.iter().flat_map(|c| c.1.iter().map(|p| p.1)).fold(1.0, f64::max);
    let style = |k: usize| {
        let c = color(if k < 2 { 3 } else { 0 });
        if k.is_multiple_of(2) {
            Swatch::Line(c, LINE_WIDTH + 1)
        } else {
            Swatch::Dashed(c, 2)
        }
    };
    let mut legend: Legend =
        curves.iter().enumerate().map(|(k, c)| (c.0.to_string(), style(k))).collect();
    legend[2].0 = format!("{} ({newton_label})", legend[2].0);
    legend.push(("exact: both stay 1".into(), Swatch::Dashed(REFERENCE, 1)));
    let title = format!(
        "10 × 40 × 20 cm brick tumbling at {spin} rad/s, no torque, h = {:.1} ms",
        h * 1e3
    );
    titled_figure([460, 520], &title, |root, _| {
        let plot = legend_below(root, &legend)?;
        let mut chart =
            chart_on(&plot).build_cartesian_2d(0.0..t_end, 0.5..top * 1.05)?;
        axes(&mut chart, "time t (s)", "E and |L| over their start").draw()?;
        dashed_line(&mut chart, &[(0.0, 1.0), (t_end, 1.0)], REFERENCE, 1)?;
        for (k, (_, points)) in curves.iter().enumerate() {
            match style(k) {
                Swatch::Dashed(c, w) => dashed_line(&mut chart, points, c, w)?,
                Swatch::Line(c, w) => line(&mut chart, points, c, w)?,
                _ => {}
            }
        }
        Ok(())
    })
}

/// Mirtich's middle reduction for one tilted face: (a) the face, its shadow Π on the
/// coordinate plane (a, b) across the largest normal component, and the drop along
/// c; (b) the shadow flat, with the edge integral around it.
fn projection_integral() -> Result<Vec<Drawing>, PbmError> {
    let tri = [
        Vector3::new(0.4, 0.3, 1.1),
        Vector3::new(2.0, 0.6, 1.6),
        Vector3::new(0.9, 1.8, 2.0),
    ];
    let normal = (tri[1] - tri[0]).cross(&(tri[2] - tri[0])).normalize();
    let (a, b, c) = projection_axes(&normal);
    let area = projected_area(&tri, a, b);
    let shadow: Vec<Vector3<f64>> = tri
        .iter()
        .map(|p| {
            let mut q = *p;
            q[c] = 0.0;
            q
        })
        .collect();
    require_finite(tri.iter().flatten().copied().chain([area]))?;
    let axis = ["x", "y", "z"];
    let names = (axis[a], axis[b], axis[c]);
    let flat: Vec<(f64, f64)> = tri.iter().map(|p| (p[a], p[b])).collect();
    titled_figure(
        [430, 820],
        "One face of a mesh, and the integral Mirtich's method takes over it",
        |root, layout| {
            let parts = titled_panels(
                root,
                layout,
                [
                    &format!("(a) the face and its shadow Π across {}", names.2),
                    &format!(
                        "(b) Π in the ({}, {}) plane: P₁ = {area:.3} m²",
                        names.0, names.1
                    ),
                ],
            )?;
            let view = View::new(Vector3::new(0.9, -1.6, 1.0), Vector3::ith(c, 1.0));
            let mut left = scene_chart(&parts[0], -0.6..2.4, -0.6..2.6)?;
            let floor = [
                Vector3::new(-0.2, -0.2, 0.0),
                Vector3::new(2.4, -0.2, 0.0),
                Vector3::new(2.4, 2.2, 0.0),
                Vector3::new(-0.2, 2.2, 0.0),
                Vector3::new(-0.2, -0.2, 0.0),
            ];
            let floor: Vec<(f64, f64)> = floor.iter().map(|p| view.at(p)).collect();
            left.draw_series([Polygon::new(
                floor.clone(),
                REFERENCE.mix(0.08).filled(),
            )])?;
            left.draw_series([PathElement::new(
                floor,
                REFERENCE.mix(0.5).stroke_width(1),
            )])?;
            let shade: Vec<(f64, f64)> = shadow.iter().map(|p| view.at(p)).collect();
            left.draw_series([Polygon::new(
                shade.clone(),
                color(0).mix(0.35).filled(),
            )])?;
            for (p, q) in tri.iter().zip(&shadow) {
                dashed_line(&mut left, &[view.at(p), view.at(q)], REFERENCE, 1)?;
            }
            let face: Vec<(f64, f64)> = tri.iter().map(|p| view.at(p)).collect();
            left.draw_series([Polygon::new(
                face.clone(),
                color(1).mix(0.45).filled(),
            )])?;
            let mut outline = face.clone();
            outline.push(face[0]);
            line(&mut left, &outline, color(1), 2)?;
            let centre = (tri[0] + tri[1] + tri[2]) / 3.0;
            arrow(
                &mut left,
                view.at(&centre),
                view.at(&(centre + normal * 0.8)),
                0.15,
                REFERENCE,
                2,
            )?;
            let origin = Vector3::new(-0.2, -0.2, 0.0);
            for (k, name) in [(a, names.0), (b, names.1), (c, names.2)] {
                let tip = origin + Vector3::ith(k, 0.7);
                arrow(
                    &mut left,
                    view.at(&origin),
                    view.at(&tip),
                    0.12,
                    REFERENCE,
                    1,
                )?;
                let at = view.at(&(origin + Vector3::ith(k, 0.82)));
                left.draw_series([Text::new(
                    format!(
                        "{name} = {}",
                        ["a", "b", "c"]
                            [[a, b, c].iter().position(|&i| i == k).unwrap_or(0)]
                    ),
                    at,
                    label_font(),
                )])?;
            }
            let label = |text: &str, at: (f64, f64)| {
                Text::new(text.to_string(), at, label_font())
            };
            let tip = view.at(&(centre + normal * 0.9));
            left.draw_series([
                label("n", (tip.0 + 0.05, tip.1 + 0.1)),
                label("face", (face[1].0 + 0.05, face[1].1 + 0.05)),
                label("Π", view.at(&((shadow[0] + shadow[1] + shadow[2]) / 3.0))),
            ])?;
            let mut right = chart_on(&parts[1]).build_cartesian_2d(
                equal_scale(&parts[1], 0.0..2.4, 0.0..2.2).0,
                equal_scale(&parts[1], 0.0..2.4, 0.0..2.2).1,
            )?;
            axes(
                &mut right,
                &format!("a = {} (m)", names.0),
                &format!("b = {} (m)", names.1),
            )
            .draw()?;
            let mut closed = flat.clone();
            closed.push(flat[0]);
            right.draw_series([Polygon::new(
                flat.clone(),
                color(0).mix(0.35).filled(),
            )])?;
            for e in 0..3 {
                let (p, q) = (flat[e], flat[(e + 1) % 3]);
                line(&mut right, &[p, q], color(0), 2)?;
                arrow(
                    &mut right,
                    p,
                    (p.0 + 0.55 * (q.0 - p.0), p.1 + 0.55 * (q.1 - p.1)),
                    0.12,
                    color(0),
                    2,
                )?;
            }
            // The first edge, with its legs Δa and Δb.
            let (p, q) = (flat[0], flat[1]);
            dashed_line(&mut right, &[p, (q.0, p.1), q], color(3), 2)?;
            right.draw_series([
                label("(a₀, b₀)", (p.0 - 0.1, p.1 - 0.08)),
                label("(a₁, b₁)", (q.0 - 0.1, q.1 + 0.18)),
                label("Δa", (0.5 * (p.0 + q.0), p.1 - 0.05)),
                label("Δb", (q.0 + 0.05, 0.5 * (p.1 + q.1) + 0.05)),
                label(
                    "Π",
                    (
                        0.5 * (flat[0].0 + flat[1].0 + flat[2].0) / 1.5,
                        (flat[0].1 + flat[1].1 + flat[2].1) / 3.0,
                    ),
                ),
                label("∮ F db = ∬ ∂F/∂a dA", (0.05, 2.15)),
            ])?;
            Ok(())
        },
    )
}
