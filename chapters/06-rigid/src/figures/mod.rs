//! The chapter's figures, computed with the chapter's own code.

use crate::body::Representation;
use crate::mass::{MassProperties, projected_area, projection_axes};
use crate::mesh::l_shape;
use crate::scenes::{
    DZHANIBEKOV_T_END, GYROSCOPIC, GyroscopicSetup, Push, Sample,
    TUMBLING_BLOCK_SIZE, dzhanibekov_run, gyroscopic_run, polhode, push, torque_free,
    tumbling_block,
};
use nalgebra::{Matrix3, Vector3};
use pbm_prelim::plot::prelude::*;

mod spin;

use spin::*;

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
    let legend: Legend = vec![
        ("world axes".into(), Swatch::Line(REFERENCE, 2)),
        ("body axes: the columns of R".into(), Swatch::Line(color(1), 2)),
        ("x, the centre of mass".into(), Swatch::Line(color(0), 2)),
        ("R r₀, the point's offset".into(), Swatch::Line(color(2), 2)),
        ("p, the point".into(), Swatch::Dashed(color(4), 2)),
    ];
    let labels = [
        ("world x", (1.05, -0.22)),
        ("world y", (0.05, 1.08)),
        ("body x", (x.0 + 0.95 * r[(0, 0)], x.1 + 0.95 * r[(1, 0)] - 0.2)),
        ("body y", (x.0 + 0.95 * r[(0, 1)] - 0.3, x.1 + 0.95 * r[(1, 1)] + 0.05)),
        ("p", (p.0 + 0.06, p.1 + 0.02)),
    ];
    titled_figure(
        [420, 460],
        "p = x + R r₀: a body point in world coordinates",
        |root, _| {
            let plot = legend_below(root, &legend)?;
            let (xr, yr) = equal_scale(&plot, -0.4..4.0, -0.4..2.9);
            let mut chart = chart_on(&plot).build_cartesian_2d(xr, yr)?;
            axes(&mut chart, "world x (m)", "world y (m)").draw()?;
            line(&mut chart, &outline(x, &r, 2.4, 1.2), REFERENCE, 1)?;
            arrow(&mut chart, (0.0, 0.0), (1.0, 0.0), 0.15, REFERENCE, 2)?;
            arrow(&mut chart, (0.0, 0.0), (0.0, 1.0), 0.15, REFERENCE, 2)?;
            for k in 0..2 {
                let axis = r.column(k) * 0.9;
                let tip = (x.0 + axis.x, x.1 + axis.y);
                arrow(&mut chart, x, tip, 0.15, color(1), 2)?;
            }
            arrow(&mut chart, (0.0, 0.0), x, 0.15, color(0), 2)?;
            arrow(&mut chart, x, p, 0.12, color(2), 2)?;
            dashed_line(&mut chart, &[(0.0, 0.0), p], color(4), 2)?;
            for (name, at) in labels {
                text(&mut chart, name, at, &label_font())?;
            }
            dots(&mut chart, &[x], 4, color(0))?;
            dots(&mut chart, &[p], 4, color(4))
        },
    )
}

/// The L-shaped prism seen along z: (a) point sampling's cell centres in the middle
/// layer of an odd grid, each weighted by the mesh's winding number; (b) the exact
/// mass properties, with the principal axes and a body point's offset r₀.
fn l_mass() -> Result<Vec<Drawing>, PbmError> {
    let mesh = l_shape()?;
    let props = MassProperties::polyhedron(&mesh, 1.0)?;
    let (moments, _) = props.principal_axes();
    // The side faces, seen along z, are the outline.
    let sides: Vec<[(f64, f64); 2]> = mesh
        .corners()
        .filter(|[a, b, c]| (b - a).cross(&(c - a)).z.abs() < 1e-12)
        .flat_map(|[a, b, c]| [[a, b], [b, c], [c, a]])
        .filter(|[p, q]| (p.xy() - q.xy()).norm() > 1e-12)
        .map(|[p, q]| [(p.x, p.y), (q.x, q.y)])
        .collect();
    let layer = SampledLayer::new(&mesh, 7);
    require_finite(
        (layer.samples.iter().map(|s| s.1))
            .chain(moments.iter().copied())
            .chain(props.centre.iter().copied()),
    )?;
    let exact = ExactPanel::new(&props, &mesh);
    let legends = [layer.legend(), exact.legend(&props)];
    let title = format!(
        "An L-shaped prism, 1 deep, density 1 (M = {:.0} kg), seen along z",
        props.mass
    );
    titled_figure([520, 960], &title, |root, layout| {
        let sampled = format!("(a) sampling, n = {}: middle layer", layer.n);
        let titles = [sampled.as_str(), "(b) exact, by Mirtich's integrals"];
        let plots = panels_with_legends(root, layout, titles, &legends)?;
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
            if k == 0 {
                layer.draw(&mut chart)?;
            } else {
                exact.draw(&mut chart)?;
            }
        }
        Ok(())
    })
}

/// The middle layer of the sampling grid of `MassProperties::point_sampling` on a
/// mesh: each cell centre with its winding number, and the weights that occur,
/// largest first.
struct SampledLayer {
    /// Cells along each side.
    n: usize,
    /// The grid's corners, low and high.
    bounds: (Vector3<f64>, Vector3<f64>),
    samples: Vec<((f64, f64), f64)>,
    weights: Vec<f64>,
}

impl SampledLayer {
    fn new(mesh: &crate::mesh::TriMesh, n: usize) -> Self {
        let (lo, hi) = mesh.bounds();
        let cell = (hi - lo) / n as f64;
        let mut samples = Vec::new();
        for i in 0..n {
            for j in 0..n {
                let centre =
                    |k: usize| lo[k] + cell[k] * ([i, j, n / 2][k] as f64 + 0.5);
                let p = Vector3::new(centre(0), centre(1), centre(2));
                samples.push(((p.x, p.y), mesh.winding_number(&p)));
            }
        }
        let mut weights: Vec<f64> = Vec::new();
        for &(_, w) in &samples {
            let w = round_weight(w);
            if !weights.contains(&w) {
                weights.push(w);
            }
        }
        weights.sort_by(|a, b| b.total_cmp(a));
        SampledLayer { n, bounds: (lo, hi), samples, weights }
    }

    /// The mark of the `k`-th weight: a dot in its colour for the first three, a
    /// ring beyond.
    fn style(k: usize) -> Swatch {
        match k {
            0..=2 => Swatch::Dot(color(k), 6),
            _ => Swatch::Ring(REFERENCE, 5),
        }
    }

    fn legend(&self) -> Legend {
        let describe = |w: f64| match w {
            w if w >= 1.0 - 1e-9 => "1: inside, the whole cell".to_string(),
            w if w <= 1e-9 => "0: outside, nothing".to_string(),
            w if (w - 0.5).abs() < 1e-9 => "½: on a face, half the cell".to_string(),
            w => format!("{w:.2}: on the inner edge"),
        };
        (self.weights.iter().enumerate())
            .map(|(k, &w)| {
                (format!("winding number {}", describe(w)), Self::style(k))
            })
            .collect()
    }

    /// Panel (a): the grid, dashed, and each cell centre in its weight's mark.
    fn draw<'a, 'b: 'a>(&self, chart: &mut LinearChart<'a, 'b>) -> DrawResult {
        let (lo, hi) = self.bounds;
        let cell = (hi - lo) / self.n as f64;
        for i in 0..=self.n {
            let x = lo.x + cell.x * i as f64;
            let y = lo.y + cell.y * i as f64;
            dashed_line(chart, &[(x, lo.y), (x, hi.y)], REFERENCE, 1)?;
            dashed_line(chart, &[(lo.x, y), (hi.x, y)], REFERENCE, 1)?;
        }
        for &(at, w) in &self.samples {
            let w = round_weight(w);
            let kind = self.weights.iter().position(|&v| v == w).unwrap_or(3);
            match Self::style(kind) {
                Swatch::Dot(c, r) => dots(chart, &[at], r, c)?,
                _ => ring(chart, at, 5, REFERENCE)?,
            }
        }
        Ok(())
    }
}

/// A winding number rounded to six decimals, so that equal weights compare equal.
fn round_weight(w: f64) -> f64 {
    (w * 1e6).round() / 1e6
}

/// Panel (b) of the L-shaped prism: the centre of mass, the principal axes in the
/// plane, the offset r₀ to a corner, and the centre of the bounding box.
struct ExactPanel {
    centre: (f64, f64),
    /// The principal axes in the plane, and their indices among the three.
    axes: Vec<(f64, f64)>,
    in_plane: Vec<usize>,
    /// The corner r₀ points to.
    corner: Vector3<f64>,
    bounding: (f64, f64),
}

impl ExactPanel {
    fn new(props: &MassProperties, mesh: &crate::mesh::TriMesh) -> Self {
        let (_, principal) = props.principal_axes();
        let in_plane: Vec<usize> =
            (0..3).filter(|&k| principal[(2, k)].abs() < 1e-9).collect();
        let (lo, hi) = mesh.bounds();
        ExactPanel {
            centre: (props.centre.x, props.centre.y),
            axes: in_plane
                .iter()
                .map(|&k| (principal[(0, k)], principal[(1, k)]))
                .collect(),
            in_plane,
            corner: Vector3::new(hi.x, lo.y, lo.z),
            bounding: ((lo.x + hi.x) / 2.0, (lo.y + hi.y) / 2.0),
        }
    }

    fn legend(&self, props: &MassProperties) -> Legend {
        let (moments, _) = props.principal_axes();
        let (i, r0) = (&self.in_plane, self.corner - props.centre);
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
                    moments[i[0]],
                    moments[i[1]],
                    moments[3 - i[0] - i[1]]
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
        ]
    }

    fn draw<'a, 'b: 'a>(&self, chart: &mut LinearChart<'a, 'b>) -> DrawResult {
        let (centre, corner) = (self.centre, (self.corner.x, self.corner.y));
        for (m, &(ax, ay)) in self.axes.iter().enumerate() {
            let tip = (centre.0 + 0.8 * ax, centre.1 + 0.8 * ay);
            arrow(chart, centre, tip, 0.12, color(1), 2)?;
            text(
                chart,
                ["e₁", "e₂"][m],
                (tip.0 + 0.04, tip.1 + 0.12),
                &label_font(),
            )?;
        }
        arrow(chart, centre, corner, 0.12, color(2), 2)?;
        let middle =
            (0.5 * (centre.0 + corner.0) + 0.05, 0.5 * (centre.1 + corner.1) + 0.12);
        text(chart, "r₀", middle, &label_font())?;
        text(chart, "c", (centre.0 - 0.17, centre.1 + 0.05), &label_font())?;
        ring(chart, self.bounding, 5, REFERENCE)?;
        dots(chart, &[centre], 5, color(0))
    }
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
    let legends = [push_legend(&runs[0]), push_legend(&runs[1])];
    titled_figure(
        [520, 960],
        "A 4 × 0.5 m, 1 kg block pushed by 1 N along y for 2 s (arrows every 0.5 s)",
        |root, layout| {
            let titles = ["(a) through the centre", "(b) 1.5 m from the centre"];
            let plots = panels_with_legends(root, layout, titles, &legends)?;
            for (plot, run) in plots.iter().zip(&runs) {
                draw_push(plot, run)?;
            }
            Ok(())
        },
    )
}

/// A push panel's legend: the paths, the force, and the block with the kinetic
/// energy it ends with.
fn push_legend(run: &Push) -> Legend {
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
}

/// One push panel: the block every 0.5 s, darker later, with the force on it, and
/// the paths of the pushed point and of the centre of mass.
fn draw_push(plot: &Area<'_>, run: &Push) -> DrawResult {
    let (xr, yr) = equal_scale(plot, -2.6..2.6, -1.2..4.4);
    let mut chart = chart_on(plot).build_cartesian_2d(xr, yr)?;
    axes(&mut chart, "x (m)", "y (m)").draw()?;
    let points: Vec<(f64, f64)> =
        run.path.iter().map(|(p, _, _)| (p.x, p.y)).collect();
    let centres: Vec<(f64, f64)> =
        run.path.iter().map(|(_, c, _)| (c.x, c.y)).collect();
    for k in (0..run.path.len()).step_by(500) {
        let (p, c, r) = &run.path[k];
        let shade = REFERENCE.mix(0.3 + 0.7 * k as f64 / run.path.len() as f64);
        chart.draw_series([PathElement::new(
            outline((c.x, c.y), r, 4.0, 0.5),
            shade.stroke_width(1),
        )])?;
        arrow(&mut chart, (p.x, p.y - 0.6), (p.x, p.y), 0.15, color(3), 2)?;
    }
    // The paths last, on top of the arrows that push along them.
    dashed_line(&mut chart, &centres, color(0), 1)?;
    line(&mut chart, &points, color(1), LINE_WIDTH)
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

fn dzhanibekov() -> Result<Vec<Drawing>, PbmError> {
    let samples = dzhanibekov_run(DZHANIBEKOV_T_END)?;
    let names = [
        format!("ω{} (largest moment, 13/12 kg m²)", sub("x")),
        format!("ω{} (intermediate, 10/12)", sub("y")),
        format!("ω{} (smallest, 5/12)", sub("z")),
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
    let samples = dzhanibekov_run(DZHANIBEKOV_T_END)?;
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
    let legend: Legend = vec![
        ("body x (largest moment)".into(), Swatch::Line(color(0), 2)),
        ("body y: the spin axis at t = 0".into(), Swatch::Line(color(1), 5)),
        ("body z (smallest moment)".into(), Swatch::Line(color(2), 2)),
    ];
    titled_figure(
        [480, 860],
        "1 × 2 × 3 m block, seen from one fixed direction; world y points up",
        |root, layout| {
            let root = legend_below(root, &legend)?;
            let columns = layout.pick(4, 2);
            let parts = root.split_evenly((frames.len().div_ceil(columns), columns));
            for (panel, (t, r)) in parts.iter().zip(&frames) {
                let panel = titled(panel, &format!("t = {t:.1} s"), &label_font())?;
                draw_tumbling_block(&panel, r)?;
            }
            Ok(())
        },
    )
}

/// One frame of the Dzhanibekov figure: the block turned by `r` (the size the
/// simulation used), and its body axes, seen from one fixed direction.
fn draw_tumbling_block(panel: &Area<'_>, r: &Matrix3<f64>) -> DrawResult {
    let size = TUMBLING_BLOCK_SIZE / 2.0;
    let corner = |i: usize| {
        Vector3::new(
            if i & 1 == 0 { -size.x } else { size.x },
            if i & 2 == 0 { -size.y } else { size.y },
            if i & 4 == 0 { -size.z } else { size.z },
        )
    };
    let (w, h) = panel.dim_in_pixel();
    let (xr, yr) = equal_scale_in((w - 4, h - 4), -2.2..2.2, -2.2..2.2);
    let mut chart = ChartBuilder::on(panel).margin(2).build_cartesian_2d(xr, yr)?;
    for i in 0..8 {
        for b in [1, 2, 4].into_iter().filter(|b| i & b == 0) {
            let ends = [project(&(r * corner(i))), project(&(r * corner(i | b)))];
            line(&mut chart, &ends, REFERENCE, 2)?;
        }
    }
    for (k, axis) in [Vector3::x(), Vector3::y(), Vector3::z()].iter().enumerate() {
        let tip = project(&(r * axis * 1.6));
        line(&mut chart, &[(0.0, 0.0), tip], color(k), if k == 1 { 5 } else { 2 })?;
        dots(&mut chart, &[tip], 4, color(k))?;
    }
    Ok(())
}
