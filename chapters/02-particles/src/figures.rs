//! The chapter's figures, computed with the chapter's own scenes and force objects.

use crate::collision::Strategy;
use crate::forces::G;
use crate::interaction::{
    UniformGrid, interacting_pairs, pair_checks, scattered_points,
};
use crate::particle::{Motion, Particle, ParticleSystem};
use crate::scenes::{
    BEAM, beam, beam_index, bouncing_ball, mouse_path, pulled_off_the_floor,
    ramp_slide, run_with_snapshots, scaling_law, scaling_points,
};
use crate::spring::DampedSpring;
use nalgebra::{Vector1, Vector2};
use pbm_ode::runge_kutta::integrate;
use pbm_ode::tableau::RK4;
use pbm_prelim::plot::font;
use pbm_prelim::plot::prelude::*;

/// Every figure of the chapter, in reading order.
pub fn all() -> Vec<Figure> {
    vec![
        Figure::new("phase-plane", "A damped spring in its phase plane", phase_plane),
        Figure::new(
            "bouncing-ball",
            "Rollback against displacement on a bouncing ball",
            bouncing,
        ),
        Figure::new(
            "resting-contact",
            "Resting contact: sliding down a ramp, pulled off a floor",
            resting_contact,
        ),
        Figure::new("pair-law", "The pair law and its slope", pair_law),
        Figure::new(
            "grid-sort",
            "A grid's counting sort on twelve particles",
            grid_sort,
        ),
        Figure::new(
            "interaction-scaling",
            "Pair checks of brute force and a uniform grid",
            scaling,
        ),
        Figure::new(
            "hanging-structure",
            "A cantilever lattice sagging, dragged and settling",
            hanging,
        ),
    ]
}

/// One particle of mass 1 kg on a spring of stiffness 1 N/m to a nail at the origin,
/// in 1D.
fn oscillator(damping: f64) -> Result<ParticleSystem<1>, PbmError> {
    let nail = Particle::new(1.0, Vector1::new(0.0), Vector1::new(0.0))?
        .with_motion(Motion::Fixed);
    let bob = Particle::new(1.0, Vector1::new(1.0), Vector1::new(0.0))?;
    let mut system = ParticleSystem::new(vec![bob, nail]);
    system.add_force(DampedSpring::new(0, 1, 1.0, damping, 0.0)?)?;
    Ok(system)
}

fn phase_plane() -> Result<Vec<Drawing>, PbmError> {
    let dampings = [0.0, 0.2, 0.6, 2.0, 5.0];
    let mut curves = Vec::new();
    for &c in &dampings {
        let states = integrate(&mut oscillator(c)?, RK4, 0.01, 1500)?;
        let pts: Vec<(f64, f64)> = states.iter().map(|s| (s[0], s[1])).collect();
        require_finite(pts.iter().flat_map(|p| [p.0, p.1]))?;
        curves.push((c, pts));
    }
    // Critical damping of a 1 kg mass on a 1 N/m spring: 2 sqrt(k m) = 2 N s/m.
    let regime = |c: f64| {
        if c == 0.0 {
            "undamped"
        } else if c < 2.0 {
            "underdamped"
        } else if c == 2.0 {
            "critically damped"
        } else {
            "overdamped"
        }
    };
    titled_figure(
        [560, 560],
        "1 kg on a 1 N/m spring from x = 1 m, at rest",
        |root, _| {
            let mut legend: Legend =
                series_legend(&curves, Swatch::Line, LINE_WIDTH, |(c, _)| {
                    format!("k{} = {c} N s/m ({})", sub("d"), regime(*c))
                });
            legend.push(("start".into(), Swatch::Dot(REFERENCE, 5)));
            let plot = legend_below(root, &legend)?;
            let (xr, yr) = equal_scale(&plot, -1.1..1.3, -1.1..1.1);
            let mut chart = chart_on(&plot).build_cartesian_2d(xr, yr)?;
            axes(&mut chart, "position x (m)", "velocity v (m/s)").draw()?;
            palette_lines(&mut chart, curves.iter().map(|(_, pts)| pts))?;
            chart.draw_series(std::iter::once(Circle::new(
                (1.0, 0.0),
                5,
                REFERENCE.filled(),
            )))?;
            Ok(())
        },
    )
}

fn bouncing() -> Result<Vec<Drawing>, PbmError> {
    let r = 0.8;
    let rollback = bouncing_ball(r, Strategy::Rollback, 0.01, 6)?;
    let displace = bouncing_ball(r, Strategy::Displace, 0.01, 6)?;
    let t_end = rollback.trajectory.last().map_or(1.0, |p| p.0);
    require_finite(
        rollback
            .trajectory
            .iter()
            .chain(&displace.trajectory)
            .flat_map(|p| [p.0, p.1]),
    )?;
    titled_figure(
        [480, 500],
        &format!("A ball dropped from 1 m, restitution r = {r}, RK4 with h = 0.01 s"),
        |root, _| {
            let names = ["roll back to the contact time", "displace onto the plane"];
            let mut legend: Legend =
                series_legend(&names, Swatch::Line, LINE_WIDTH, |name| {
                    name.to_string()
                });
            legend.push((
                format!("exact apex heights r{}", sup("2k")),
                Swatch::Dashed(REFERENCE, 1),
            ));
            let plot = legend_below(root, &legend)?;
            let mut chart =
                chart_on(&plot).build_cartesian_2d(0.0..t_end, 0.0..1.05)?;
            axes(&mut chart, "time t (s)", "height y (m)").draw()?;
            for k in 1..=6 {
                let height = r.powi(2 * k);
                dashed_line(
                    &mut chart,
                    &[(0.0, height), (t_end, height)],
                    REFERENCE,
                    1,
                )?;
            }
            for (i, run) in [&rollback, &displace].iter().enumerate() {
                line(&mut chart, &run.trajectory, color(i), LINE_WIDTH)?;
            }
            Ok(())
        },
    )
}

fn resting_contact() -> Result<Vec<Drawing>, PbmError> {
    let angle_deg = 20.0_f64;
    let angle = angle_deg.to_radians();
    let (t_slide, h) = (1.5, 0.01);
    // k_f = 0 first: the frictionless slide, whose speed only grows.
    let frictions = [0.0, 0.5, 1.0, 2.0];
    let slides = frictions
        .iter()
        .map(|&k| {
            let run = ramp_slide(angle, k, h, t_slide)?;
            Ok(run.into_iter().map(|(t, v, _)| (t, v)).collect::<Vec<_>>())
        })
        .collect::<Result<Vec<_>, PbmError>>()?;
    let rate = 5.0;
    let lift = pulled_off_the_floor(rate, 0.005, 3.0)?;
    let t_off = G / rate;
    require_finite(slides.iter().flatten().chain(&lift).flat_map(|p| [p.0, p.1]))?;
    let v_top = 1.8;
    let legends = [
        slide_legend(&frictions),
        vec![
            (
                "height of the 1 kg particle".into(),
                Swatch::Line(color(4), LINE_WIDTH),
            ),
            (
                format!("pull = weight at t = {t_off:.2} s"),
                Swatch::Dashed(REFERENCE, 1),
            ),
        ],
    ];
    draw_figure([480, 760], |root, layout| {
        let titles = [
            format!("(a) let go on a {angle_deg}° ramp"),
            format!("(b) on the floor, pulled up by ({rate} N/s) t"),
        ];
        let plots = panels_with_legends(
            root,
            layout,
            [titles[0].as_str(), titles[1].as_str()],
            &legends,
        )?;
        let mut chart =
            chart_on(&plots[0]).build_cartesian_2d(0.0..t_slide, 0.0..v_top)?;
        axes(&mut chart, "time t (s)", "speed down the ramp (m/s)").draw()?;
        for &k in frictions.iter().filter(|&&k| k > 0.0) {
            let level = angle.tan() / k;
            dashed_line(&mut chart, &[(0.0, level), (t_slide, level)], REFERENCE, 1)?;
        }
        for (i, run) in slides.iter().enumerate() {
            // The frictionless line leaves the chart at the top: clip it there.
            let shown: Vec<(f64, f64)> =
                run.iter().copied().take_while(|p| p.1 <= v_top).collect();
            line(&mut chart, &shown, color(i), LINE_WIDTH)?;
        }
        let y_top = lift.last().map_or(1.0, |p| p.1) * 1.05;
        let mut chart =
            chart_on(&plots[1]).build_cartesian_2d(0.0..3.0, 0.0..y_top)?;
        axes(&mut chart, "time t (s)", "height y (m)").draw()?;
        dashed_line(&mut chart, &[(t_off, 0.0), (t_off, y_top)], REFERENCE, 1)?;
        line(&mut chart, &lift, color(4), LINE_WIDTH)?;
        Ok(())
    })
}

/// The ramp panel's legend: a line per friction coefficient, and the terminal
/// speeds.
fn slide_legend(frictions: &[f64]) -> Legend {
    let mut legend: Legend = frictions
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let name = if *k == 0.0 {
                format!("k{} = 0: no friction, v = g t sin θ", sub("f"))
            } else {
                format!("k{} = {k} s/m", sub("f"))
            };
            (name, Swatch::Line(color(i), LINE_WIDTH))
        })
        .collect();
    legend.push((
        format!("speed tan θ / k{} it tends to", sub("f")),
        Swatch::Dashed(REFERENCE, 1),
    ));
    legend
}

/// The experiment's pair law f(r) and its slope df/dr, both from [`PairLaw::force`]
/// (the slope by central differences), with r₀ and r_c marked.
fn pair_law() -> Result<Vec<Drawing>, PbmError> {
    let law = scaling_law()?;
    let f = |r: f64| law.force(&Vector1::new(r), &Vector1::new(0.0)).x;
    let (r_end, eps) = (1.2 * law.cutoff, 1e-7);
    let rs: Vec<f64> = (0..=600).map(|k| r_end * f64::from(k) / 600.0).collect();
    let force: Vec<(f64, f64)> = rs.iter().skip(1).map(|&r| (r, f(r))).collect();
    let slope: Vec<(f64, f64)> = rs
        .iter()
        .skip(1)
        .map(|&r| (r, (f(r + eps) - f(r - eps)) / (2.0 * eps)))
        .collect();
    require_finite(force.iter().chain(&slope).flat_map(|p| [p.0, p.1]))?;
    let marks = [
        (law.r0, format!("r₀ = {} m", law.r0)),
        (law.cutoff, format!("r{} = {} m", sub("c"), law.cutoff)),
    ];
    let legend: Legend = vec![
        (
            format!("the law with k = {} N/m", law.k),
            Swatch::Line(color(0), LINE_WIDTH),
        ),
        (
            format!("r₀: push turns to pull; r{}: cutoff", sub("c")),
            Swatch::Dashed(REFERENCE, 1),
        ),
    ];
    draw_figure([400, 700], |root, layout| {
        let root = legend_below(root, &legend)?;
        let parts = titled_panels(
            &root,
            layout,
            ["(a) force f(r), positive pushes apart", "(b) slope df/dr"],
        )?;
        let series = [(&force, "f (N)"), (&slope, "df/dr (N/m)")];
        for (i, (pts, unit)) in series.iter().enumerate() {
            let lo = pts.iter().map(|p| p.1).fold(0.0, f64::min);
            let hi = pts.iter().map(|p| p.1).fold(0.0, f64::max);
            let pad = 0.08 * (hi - lo);
            let mut chart = chart_on(&parts[i])
                .build_cartesian_2d(0.0..r_end, (lo - pad)..(hi + pad))?;
            // Whole numbers without a trailing ".0", so the narrow axis has room.
            axes(&mut chart, "distance r (m)", unit)
                .y_label_formatter(&|v| format!("{}", (v * 1e6).round() / 1e6))
                .draw()?;
            dashed_line(&mut chart, &[(0.0, 0.0), (r_end, 0.0)], REFERENCE, 1)?;
            for (r, name) in &marks {
                let r = *r;
                dashed_line(
                    &mut chart,
                    &[(r, lo - pad), (r, hi + pad)],
                    REFERENCE,
                    1,
                )?;
                // Left of its line: at the top of the force, where the curve has
                // fallen away, and at the bottom of the slope, where it has not risen.
                let (y, v) = match i {
                    0 => (hi + 0.5 * pad, VPos::Top),
                    _ => (lo - 0.5 * pad, VPos::Bottom),
                };
                let style = anchored(tick_font(), HPos::Right, v);
                text(&mut chart, name.clone(), (r - 0.004, y), &style)?;
            }
            line(&mut chart, pts, color(0), LINE_WIDTH)?;
        }
        Ok(())
    })
}

/// The counting sort of [`UniformGrid`] on a small instance: twelve of the chapter's
/// scattered points in 3 × 3 cells of side 1 m, each cell's bucket, the counts, the
/// running sums and the sorted array, all read from the grid the code builds.
fn grid_sort() -> Result<Vec<Drawing>, PbmError> {
    let (n, cells) = (12, 3usize);
    let x: Vec<Vector2<f64>> = scattered_points(n, cells as f64);
    let sort = SortedGrid { grid: UniformGrid::build(&x, 1.0), x, cells };
    require_finite(sort.x.iter().flat_map(|p| [p.x, p.y]))?;
    let heading = format!(
        "(a) cells of side r{}, numbered row by row (large grey); particles by index",
        sub("c")
    );
    draw_figure([620, 800], |root, layout| {
        let (top, bottom) = root.split_vertically(layout.pick(300, 330));
        sort.draw_cells(&titled(&top, &heading, &label_font())?)?;
        let bottom =
            titled(&bottom, "(b) the counting sort's arrays", &label_font())?;
        for (row, part) in bottom.split_evenly((3, 1)).iter().enumerate() {
            sort.draw_array(part, row, layout)?;
        }
        Ok(())
    })
}

/// The grid-sort figure's instance: the particles and the grid built on them.
struct SortedGrid {
    x: Vec<Vector2<f64>>,
    grid: UniformGrid<2>,
    /// Cells along a side.
    cells: usize,
}

/// A cell's or a particle's fill in the grid-sort figure: its bucket's colour, light.
fn bucket_fill(b: usize) -> ShapeStyle {
    color(b % 7).mix(0.3).filled()
}

impl SortedGrid {
    fn bucket_of(&self, p: &Vector2<f64>) -> usize {
        self.grid.bucket_at(p).unwrap_or(0)
    }

    /// Panel (a): the cells, each filled in its bucket's colour under its number,
    /// and the particles by index.
    fn draw_cells(&self, area: &Area<'_>) -> DrawResult {
        let side = self.cells as f64;
        let mut chart = scene_chart(area, -0.05..side + 0.05, -0.05..side + 0.05)?;
        let grey = REFERENCE.mix(0.3);
        let big = anchored(font(54.0).color(&grey), HPos::Center, VPos::Center);
        for cy in 0..self.cells {
            for cx in 0..self.cells {
                let corner = (cx as f64, cy as f64);
                let centre = Vector2::new(corner.0 + 0.5, corner.1 + 0.5);
                let b = self.bucket_of(&centre);
                framed(
                    &mut chart,
                    [corner, (corner.0 + 1.0, corner.1 + 1.0)],
                    bucket_fill(b),
                )?;
                text(&mut chart, format!("{b}"), (centre.x, centre.y), &big)?;
            }
        }
        let beside = anchored(tick_font(), HPos::Left, VPos::Center);
        for (i, p) in self.x.iter().enumerate() {
            dots(&mut chart, &[(p.x, p.y)], 3, REFERENCE)?;
            text(&mut chart, format!("{i}"), (p.x + 0.05, p.y), &beside)?;
        }
        Ok(())
    }

    /// Row `row` of panel (b): the counts (0), the running sums (1) or the sorted
    /// particles (2), a box each, with the cell each box or run of boxes belongs to
    /// under it.
    fn draw_array(&self, part: &Area<'_>, row: usize, layout: Layout) -> DrawResult {
        let rows = [
            "count of each cell",
            "start: the running sum of the counts (where each cell's particles begin)",
            "the particles sorted by cell (order), their positions copied beside them",
        ];
        let (starts, order) = (self.grid.starts(), self.grid.order());
        let buckets = starts.len() - 1;
        let part = titled(part, rows[row], &tick_font())?;
        let width = (self.x.len() + 1) as f64;
        let mut chart = ChartBuilder::on(&part)
            .margin(4)
            .build_cartesian_2d(0.0..width, -0.45..1.0)?;
        let under = anchored(tick_font().color(&REFERENCE), HPos::Center, VPos::Top);
        let count = |b: usize| starts[b + 1] - starts[b];
        let unit = |b: usize| (b as f64, b as f64 + 1.0, b);
        let groups: Vec<(f64, f64, usize)> = match row {
            0 => (0..buckets).map(unit).collect(),
            1 => (0..=buckets).map(unit).collect(),
            _ => (0..buckets)
                .filter(|&b| count(b) > 0)
                .map(|b| (f64::from(starts[b]), f64::from(starts[b + 1]), b))
                .collect(),
        };
        for (from, to, b) in groups {
            let name = match (row == 1 && b == buckets, layout) {
                (true, _) => "end".to_string(),
                (false, Layout::Wide) => format!("cell {b}"),
                (false, Layout::Narrow) => b.to_string(),
            };
            if row == 2 {
                let bracket = [(from + 0.08, -0.05), (to - 0.08, -0.05)];
                line(&mut chart, &bracket, REFERENCE, 1)?;
            }
            text(&mut chart, name, (0.5 * (from + to), -0.1), &under)?;
        }
        let boxes: Vec<(f64, String, usize)> = match row {
            0 => (0..buckets).map(|b| (b as f64, count(b).to_string(), b)).collect(),
            1 => {
                (0..=buckets).map(|b| (b as f64, starts[b].to_string(), b)).collect()
            }
            _ => (order.iter().enumerate())
                .map(|(k, &i)| {
                    (k as f64, i.to_string(), self.bucket_of(&self.x[i as usize]))
                })
                .collect(),
        };
        let centred = anchored(label_font(), HPos::Center, VPos::Center);
        for (at, content, b) in boxes {
            let end = row == 1 && at as usize == buckets;
            let style = if end { WHITE.filled() } else { bucket_fill(b) };
            framed(&mut chart, [(at, 0.0), (at + 1.0, 0.9)], style)?;
            text(&mut chart, content, (at + 0.5, 0.45), &centred)?;
        }
        Ok(())
    }
}

fn scaling() -> Result<Vec<Drawing>, PbmError> {
    let law = scaling_law()?;
    // (n, brute-force checks, grid checks, neighbours per particle)
    let rows: Vec<(f64, f64, f64, f64)> = (6..=17)
        .map(|k| 1usize << k)
        .map(|n| {
            let x = scaling_points(n);
            let (brute, grid) = pair_checks(&law, &x);
            let neighbours = interacting_pairs(&law, &x) as f64 / n as f64;
            (n as f64, brute as f64, grid as f64, neighbours)
        })
        .collect();
    let neighbours = rows.iter().map(|r| r.3);
    let (fewest, most) = (
        neighbours.clone().fold(f64::INFINITY, f64::min),
        neighbours.fold(0.0, f64::max),
    );
    let last = rows.last().map_or((1.0, 1.0, 1.0, 1.0), |r| *r);
    let names = [
        "brute force: n(n − 1), slope 2".to_string(),
        format!(
            "uniform grid: {:.0} per particle at n = {}, slope 1",
            last.2 / last.0,
            last.0
        ),
    ];
    titled_figure(
        [480, 480],
        &format!(
            "Distance checks per force evaluation; {fewest:.0} to {most:.0} neighbours \
             per particle"
        ),
        |root, _| {
            let legend: Legend =
                series_legend(&names, Swatch::LineDots, LINE_WIDTH, |name| {
                    name.to_string()
                });
            let plot = legend_below(root, &legend)?;
            let mut chart = chart_on(&plot).build_cartesian_2d(
                (40.0..2e5).log_scale(),
                (1e3..3e10).log_scale(),
            )?;
            log_log_axes(&mut chart, "particles n", "pair distances checked")?;
            for i in 0..2 {
                let pts: Vec<(f64, f64)> = rows
                    .iter()
                    .map(|r| (r.0, if i == 0 { r.1 } else { r.2 }))
                    .collect();
                line_and_dots(&mut chart, &pts, (color(i), LINE_WIDTH), 3)?;
            }
            Ok(())
        },
    )
}

fn hanging() -> Result<Vec<Drawing>, PbmError> {
    let times = [0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 12.0];
    let mut system = beam(true)?;
    let snaps = run_with_snapshots(&mut system, 1e-3, 12.0, &times)?;
    require_finite(snaps.iter().flat_map(|s| s.1.iter().flat_map(|x| [x.x, x.y])))?;
    let springs: Vec<(usize, usize)> = beam(false)?
        .forces
        .iter()
        .filter_map(|f| {
            let ids = f.particles();
            (ids.len() == 2).then(|| (ids[0], ids[1]))
        })
        .collect();
    let legend: Legend = vec![
        ("springs".into(), Swatch::Line(color(0), 1)),
        ("nailed particles".into(), Swatch::Square(REFERENCE)),
        ("mouse spring and cursor".into(), Swatch::LineDots(color(1), 2)),
    ];
    titled_figure(
        [560, 900],
        "A 16 × 3 lattice nailed at its left column; positions in metres",
        |root, layout| {
            let root = legend_below(root, &legend)?;
            let columns = layout.pick(4, 2);
            let parts = root.split_evenly((snaps.len().div_ceil(columns), columns));
            for (panel, (t, xs)) in parts.iter().zip(&snaps) {
                draw_lattice(panel, *t, xs, &springs)?;
            }
            Ok(())
        },
    )
}

/// One panel of the hanging-structure figure: the lattice at time `t` (particles at
/// `xs`, joined by `springs`), its nailed column, and the mouse spring while the
/// mouse pulls.
fn draw_lattice(
    panel: &Area<'_>,
    t: f64,
    xs: &[Vector2<f64>],
    springs: &[(usize, usize)],
) -> DrawResult {
    let mouse_down = (0.5..=1.5).contains(&t);
    // The last snapshot, long after the mouse let go (its time is a sum of steps).
    let caption = if t > 11.0 {
        format!("t = {t:.0} s: at rest")
    } else if mouse_down {
        format!("t = {t:.2} s: pulled")
    } else {
        format!("t = {t:.2} s")
    };
    let panel = titled(panel, &caption, &label_font())?;
    let mut chart = chart_on(&panel)
        .margin(4)
        .x_label_area_size(40)
        .y_label_area_size(52)
        .build_cartesian_2d(-0.1..1.6, -1.1..0.5)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .label_style(tick_font())
        .axis_desc_style(tick_font())
        .x_desc("x (m)")
        .y_desc("y (m)")
        .x_labels(3)
        .y_labels(3)
        .draw()?;
    let at = |i: usize| (xs[i].x, xs[i].y);
    chart.draw_series(springs.iter().map(|&(a, b)| {
        PathElement::new(vec![at(a), at(b)], color(0).stroke_width(1))
    }))?;
    chart.draw_series((0..BEAM.1).map(|r| {
        let x = xs[beam_index(0, r)];
        Rectangle::new(
            [(x.x - 0.03, x.y - 0.03), (x.x + 0.03, x.y + 0.03)],
            REFERENCE.filled(),
        )
    }))?;
    if mouse_down {
        let m = mouse_path(t);
        line(&mut chart, &[at(beam_index(BEAM.0 - 1, 1)), (m.x, m.y)], color(1), 2)?;
        dots(&mut chart, &[(m.x, m.y)], 5, color(1))?;
    }
    Ok(())
}
