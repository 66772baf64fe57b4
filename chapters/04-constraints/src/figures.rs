//! The chapter's figures, computed with the chapter's own code.

use crate::scenes::{
    BEAD_FORCES_ANGLE_DEG, BEAD_FORCES_SPEED, bead_forces as forces_on_bead,
};
use crate::scenes::{Chain, MOBILE_RODS, double_pendulum, mobile_tree};
use crate::scenes::{Holder, bead_drift, max_stable_step, run_chain};
use crate::scenes::{Stabiliser, stabilised_run};
use crate::system::Feedback;
use crate::tree::{Kind, fill_in};
use pbm_ode::runge_kutta::{RungeKutta, step_count};
use pbm_ode::tableau::{MIDPOINT, RK4};
use pbm_prelim::plot::prelude::*;
use pbm_prelim::short;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Every figure of the chapter, in reading order.
pub fn all() -> Vec<Figure> {
    vec![
        Figure::new(
            "bead-forces",
            "The bead's applied force, constraint force and their sum",
            bead_forces,
        ),
        Figure::new(
            "jacobian-blocks",
            "The block-sparse Jacobian of a nailed chain of four rods",
            jacobian_blocks,
        ),
        Figure::new(
            "drift",
            "The bead drifts off its circle without feedback",
            drift,
        ),
        Figure::new(
            "stabilise",
            "Baumgarte feedback against projection after each step: drift, energy, cost",
            stabilise,
        ),
        Figure::new(
            "double-pendulum",
            "Paths of a double pendulum built from constraints",
            pendulum_paths,
        ),
        Figure::new(
            "rods-vs-springs",
            "A chain of rods against a chain of stiff springs",
            rods_vs_springs,
        ),
        Figure::new(
            "tree-order",
            "A tree of rods, numbered for elimination, and the blocks it fills in",
            tree_order,
        ),
    ]
}

/// The bead on the unit circle at 40° below the horizontal, 1 kg under gravity: the
/// applied force f, the constraint force f̂ = λ x of equation 7 and the total f + f̂,
/// at rest and moving at 2.5 m/s along the wire. Forces are drawn at 0.06 m per
/// newton.
fn bead_forces() -> Result<Vec<Drawing>, PbmError> {
    let angle = BEAD_FORCES_ANGLE_DEG.to_radians();
    let x = nalgebra::Vector2::new(angle.cos(), angle.sin());
    let tangent = nalgebra::Vector2::new(-x.y, x.x);
    let scale = 0.06;
    let moving = format!("(b) moving at {} m/s", short(BEAD_FORCES_SPEED));
    let cases = [("(a) at rest", 0.0), (moving.as_str(), BEAD_FORCES_SPEED)];
    let forces: Vec<[nalgebra::Vector2<f64>; 3]> = cases
        .iter()
        .map(|&(_, speed)| forces_on_bead(BEAD_FORCES_ANGLE_DEG, speed))
        .collect();
    require_finite(forces.iter().flatten().flat_map(|v| [v.x, v.y]))?;
    let names = [
        "applied force f (gravity, 9.81 N)",
        "constraint force f̂ = λx, along the normal",
        "total f + f̂: the bead's m ẍ",
    ];
    let legend: Legend = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.to_string(), Swatch::Line(color(i), 3)))
        .chain(std::iter::once((
            "tangent at the bead; wire".to_string(),
            Swatch::Dashed(REFERENCE, 1),
        )))
        .collect();
    titled_figure(
        [460, 820],
        "A 1 kg bead on the unit circle, forces drawn at 0.06 m per newton",
        |root, layout| {
            let root = legend_below(root, &legend)?;
            let parts = pbm_prelim::plot::panels(&root, layout, 2, 2);
            for ((part, (title, _)), [f, f_hat, total]) in
                parts.iter().zip(&cases).zip(&forces)
            {
                let area = titled(part, title, &pbm_prelim::plot::label_font())?;
                let (xr, yr) = equal_scale(&area, -1.3..1.5, -1.5..1.1);
                let mut chart = chart_on(&area).build_cartesian_2d(xr, yr)?;
                axes(&mut chart, "x (m)", "y (m)").draw()?;
                let circle: Vec<(f64, f64)> = (0..=120)
                    .map(|i| f64::from(i) * std::f64::consts::TAU / 120.0)
                    .map(|t| (t.cos(), t.sin()))
                    .collect();
                dashed_line(&mut chart, &circle, REFERENCE, 1)?;
                let along = |s: f64| (x.x + s * tangent.x, x.y + s * tangent.y);
                dashed_line(&mut chart, &[along(-0.9), along(0.9)], REFERENCE, 1)?;
                let at = (x.x, x.y);
                for (i, v) in [f, f_hat, total].iter().enumerate() {
                    let tip = (x.x + scale * v.x, x.y + scale * v.y);
                    arrow(&mut chart, at, tip, 0.12, color(i), 3)?;
                }
                chart.draw_series(std::iter::once(Circle::new(
                    at,
                    5,
                    BLACK.filled(),
                )))?;
            }
            Ok(())
        },
    )
}

/// The Jacobian of chapter 4's nailed chain of four rods (5 particles in the plane):
/// one cell per entry, filled where a block of `BlockMatrix` lives.
fn jacobian_blocks() -> Result<Vec<Drawing>, PbmError> {
    let mut system = Chain { links: 4, length: 0.5, mass: 1.0 }.with_rods()?;
    system.evaluate_constraints()?;
    let j = system.jacobian().clone();
    let (rows, cols) = (j.n_rows as f64, j.n_cols as f64);
    let row_names =
        ["nail, x", "nail, y", "rod 0–1", "rod 1–2", "rod 2–3", "rod 3–4"];
    titled_figure(
        [360, 420],
        &format!(
            "J of a nailed chain of 4 rods: {} × {}, {} blocks, {} of {} entries kept",
            j.n_rows,
            j.n_cols,
            j.blocks.len(),
            j.blocks.iter().map(|b| b.rows * b.cols).sum::<usize>(),
            j.n_rows * j.n_cols
        ),
        |root, layout| {
            let mut chart = ChartBuilder::on(root)
                .margin(8)
                .build_cartesian_2d(-2.6..cols + 0.2, -1.4..rows + 0.2)?;
            let cell = |r: usize, c: usize| {
                let (x, y) = (c as f64, rows - 1.0 - r as f64);
                [(x, y), (x + 1.0, y + 1.0)]
            };
            // Every entry, faint; then the stored blocks, one colour per constraint.
            for r in 0..j.n_rows {
                for c in 0..j.n_cols {
                    chart.draw_series(std::iter::once(Rectangle::new(
                        cell(r, c),
                        REFERENCE.mix(0.35).stroke_width(1),
                    )))?;
                }
            }
            for b in &j.blocks {
                let k = if b.rows == 2 { 0 } else { b.row - 1 };
                for r in b.row..b.row + b.rows {
                    for c in b.col..b.col + b.cols {
                        chart.draw_series(std::iter::once(Rectangle::new(
                            cell(r, c),
                            color(k).mix(0.55).filled(),
                        )))?;
                    }
                }
                let label = match (b.rows, b.col / 2 == b.row.saturating_sub(2)) {
                    (2, _) => "identity".to_string(),
                    (_, true) => "dᵀ".to_string(),
                    _ => "−dᵀ".to_string(),
                };
                let centre = (
                    b.col as f64 + b.cols as f64 / 2.0,
                    rows - b.row as f64 - b.rows as f64 / 2.0,
                );
                chart.draw_series(std::iter::once(Text::new(
                    label,
                    centre,
                    pbm_prelim::plot::label_font()
                        .pos(Pos::new(HPos::Center, VPos::Center)),
                )))?;
            }
            let tick = pbm_prelim::plot::tick_font();
            for (r, name) in row_names.iter().enumerate() {
                chart.draw_series(std::iter::once(Text::new(
                    name.to_string(),
                    (-0.15, rows - 0.5 - r as f64),
                    tick.clone().pos(Pos::new(HPos::Right, VPos::Center)),
                )))?;
            }
            if layout.pick(false, true) {
                chart.draw_series(std::iter::once(Text::new(
                    "particle",
                    (-0.15, -0.15),
                    tick.clone().pos(Pos::new(HPos::Right, VPos::Top)),
                )))?;
            }
            for p in 0..j.n_cols / 2 {
                chart.draw_series(std::iter::once(Text::new(
                    layout.pick(format!("particle {p}"), format!("{p}")),
                    (2.0 * p as f64 + 1.0, -0.15),
                    tick.clone().pos(Pos::new(HPos::Center, VPos::Top)),
                )))?;
                chart.draw_series(std::iter::once(Text::new(
                    "x   y",
                    (2.0 * p as f64 + 1.0, -0.75),
                    tick.clone().pos(Pos::new(HPos::Center, VPos::Top)),
                )))?;
            }
            Ok(())
        },
    )
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
    require_finite(runs.iter().flat_map(|r| r.1.iter().flat_map(|p| [p.0, p.1])))?;
    let width =
        |i: usize| if i.is_multiple_of(2) { LINE_WIDTH } else { LINE_WIDTH + 1 };
    titled_figure(
        [500, 520],
        "Bead on the unit circle under gravity, h = 10 ms",
        |root, _| {
            let legend: Legend = runs
                .iter()
                .enumerate()
                .map(|(i, (name, _))| {
                    (name.to_string(), Swatch::Line(color(i), width(i)))
                })
                .collect();
            let plot = legend_below(root, &legend)?;
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

/// The book's chain at the default step of `constraints/stabilise` (2 ms) for 10 s,
/// three ways: |C|, the energy change and the CG iterations so far, over time.
fn stabilise() -> Result<Vec<Drawing>, PbmError> {
    let (h, t_end) = (0.002, 10.0);
    let names = ["no correction", "Baumgarte feedback", "projection after each step"];
    let runs = Stabiliser::ALL
        .iter()
        .map(|&s| stabilised_run(s, h, t_end))
        .collect::<Result<Vec<_>, _>>()?;
    require_finite(
        runs.iter()
            .flat_map(|r| r.track.iter().flat_map(|s| [s.abs_c, s.energy_change])),
    )?;
    // The energy panel shows a band of ±0.5% of the scale; the uncorrected run leaves
    // it (its curve is clipped at the edge) well before it breaks down.
    let band = 0.005;
    titled_figure(
        [820, 1100],
        "Falling chain of 10 rods, RK4 at h = 2 ms",
        |root, layout| {
            let legend: Legend = names
                .iter()
                .enumerate()
                .map(|(i, name)| {
                    (name.to_string(), Swatch::Line(color(i), LINE_WIDTH))
                })
                .collect();
            let plot = legend_below(root, &legend)?;
            let parts = pbm_prelim::plot::panels(&plot, layout, 3, 1);
            let titles = [
                "(a) constraint error: largest |C| (m² for the rods)",
                "(b) energy change (E − E₀) / (n m g · n L)",
                "(c) cost: CG iterations per step (four solves a step for RK4, plus the projection's)",
            ];
            let areas = parts
                .iter()
                .zip(titles)
                .map(|(part, title)| titled(part, title, &label_font()))
                .collect::<Result<Vec<_>, _>>()?;
            let mut c_chart = chart_on(&areas[0])
                .build_cartesian_2d(0.0..t_end, (1e-14..1e-1).log_scale())?;
            axes(&mut c_chart, "time t (s)", "max |C|")
                .y_label_formatter(&power_of_ten)
                .draw()?;
            let mut e_chart =
                chart_on(&areas[1]).build_cartesian_2d(0.0..t_end, -band..band)?;
            axes(&mut e_chart, "time t (s)", "ΔE / scale").draw()?;
            // Per window of 25 steps (50 ms): the largest |C|, the energy at its end,
            // and the CG iterations per step taken in it.
            let windows: Vec<Vec<[f64; 4]>> = runs
                .iter()
                .map(|run| {
                    run.track
                        .windows(2)
                        .collect::<Vec<_>>()
                        .chunks(25)
                        .map(|w| {
                            let (first, last) = (w[0][0], w[w.len() - 1][1]);
                            let c = w.iter().fold(0.0_f64, |m, p| m.max(p[1].abs_c));
                            let spent =
                                last.cost.cg_iterations - first.cost.cg_iterations;
                            [
                                last.t,
                                c,
                                last.energy_change,
                                spent as f64 / w.len() as f64,
                            ]
                        })
                        .collect()
                })
                .collect();
            let cost_max = windows.iter().flatten().fold(0.0_f64, |m, w| m.max(w[3]));
            let mut k_chart = chart_on(&areas[2])
                .build_cartesian_2d(0.0..t_end, 0.0..cost_max * 1.15)?;
            axes(&mut k_chart, "time t (s)", "per step").draw()?;
            for (i, w) in windows.iter().enumerate() {
                let pick =
                    |k: usize| w.iter().map(|w| (w[0], w[k])).collect::<Vec<_>>();
                let c: Vec<_> =
                    pick(1).into_iter().map(|(t, c)| (t, c.max(1e-14))).collect();
                line(&mut c_chart, &c, color(i), LINE_WIDTH)?;
                let e: Vec<_> = pick(2)
                    .into_iter()
                    .map(|(t, e)| (t, e.clamp(-band, band)))
                    .collect();
                line(&mut e_chart, &e, color(i), LINE_WIDTH)?;
                line(&mut k_chart, &pick(3), color(i), LINE_WIDTH)?;
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
    require_finite(upper.iter().chain(&lower).flat_map(|p| [p.0, p.1]))?;
    titled_figure(
        [640, 560],
        "Double pendulum, first 10 s (RK4, h = 1 ms)",
        |root, _| {
            let legend: Legend = vec![
                ("lower bob".into(), Swatch::Line(color(1), 1)),
                (
                    "upper bob (on the circle)".into(),
                    Swatch::Line(color(0), LINE_WIDTH + 1),
                ),
                ("links at release".into(), Swatch::LineDots(REFERENCE, 3)),
            ];
            let plot = legend_below(root, &legend)?;
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
        curves
            .iter()
            .flatten()
            .flat_map(|p| [p.0, p.1])
            .chain(limits.iter().copied()),
    )?;
    titled_figure([520, 540], "A falling chain of 10 links, 2 s of RK4", |root, _| {
        let mut legend: Legend =
            series_legend(&names, Swatch::LineDots, LINE_WIDTH + 1, |name| {
                name.to_string()
            });
        legend.push((
            "dashed, each colour: largest stable step; runs to its right blow up"
                .into(),
            Swatch::Dashed(REFERENCE, LINE_WIDTH),
        ));
        let plot = legend_below(root, &legend)?;
        let mut chart = chart_on(&plot)
            .build_cartesian_2d((8e-6..0.1).log_scale(), (1e-14..1.0).log_scale())?;
        axes(&mut chart, "step size h (s)", "largest link-length error |ℓ − L|/L")
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
    })
}

/// The mobile's graph as the tree solve orders it: per node, what it is, where it is
/// drawn, and its parent's position in the order.
struct OrderedTree {
    nodes: Vec<(Kind, (f64, f64), Option<usize>)>,
    hook: (f64, f64),
}

impl OrderedTree {
    fn new() -> Result<Self, PbmError> {
        let (system, tree) = mobile_tree()?;
        let particles = &system.particles.particles;
        let at = |i: usize| (particles[i].x.x, particles[i].x.y);
        let nodes = tree
            .order()
            .map(|(kind, parent)| {
                let place = match kind {
                    Kind::Particle { col } => at(col / 2),
                    Kind::Constraint { row } => {
                        let (a, b) = MOBILE_RODS[row];
                        let ((xa, ya), (xb, yb)) = (at(a), at(b));
                        (0.5 * (xa + xb), 0.5 * (ya + yb))
                    }
                };
                (kind, place, parent)
            })
            .collect();
        Ok(OrderedTree { nodes, hook: at(MOBILE_RODS[0].0) })
    }

    fn edges(&self) -> Vec<(usize, usize)> {
        let parents = self.nodes.iter().map(|&(_, _, parent)| parent);
        parents.enumerate().filter_map(|(i, p)| Some((i, p?))).collect()
    }
}

/// Chapter 4's mobile (seven rods, seven moving particles, hung from a fixed hook) as
/// the tree solve sees it: (a) its graph, each node numbered in the elimination order
/// the solve chose; (b) the blocks of H in that order, the factor's blocks the same;
/// (c) the same matrix numbered root first, with the blocks the elimination fills in.
fn tree_order() -> Result<Vec<Drawing>, PbmError> {
    let tree = OrderedTree::new()?;
    let n = tree.nodes.len();
    let edges = tree.edges();
    let reversed: Vec<(usize, usize)> =
        edges.iter().map(|&(a, b)| (n - 1 - a, n - 1 - b)).collect();
    let (leaves_fill, root_fill) = (fill_in(n, &edges), fill_in(n, &reversed));
    let (particle, constraint, fill) = (color(0), color(1), color(4));
    let legend: Legend = vec![
        ("particle: its block of H is M".to_string(), Swatch::Square(particle)),
        (
            "constraint: its block of H is zero".to_string(),
            Swatch::Square(constraint),
        ),
        ("block of J: a rod meets a particle".to_string(), Swatch::Square(REFERENCE)),
        (
            "block the elimination fills in (both triangles)".to_string(),
            Swatch::Square(fill),
        ),
    ];
    let titles = [
        "(a) The graph, numbered leaves first".to_string(),
        format!("(b) H leaves first: L adds {} blocks", leaves_fill.len()),
        format!("(c) H root first: L adds {} blocks", root_fill.len()),
    ];
    titled_figure(
        [420, 1300],
        "Eliminating a tree's nodes leaves first changes only each parent's own block",
        |root, layout| {
            let root = legend_below(root, &legend)?;
            let parts = pbm_prelim::plot::panels(&root, layout, 3, 3);
            let font = pbm_prelim::plot::label_font();
            let area = titled(&parts[0], &titles[0], &font)?;
            draw_tree_graph(&area, &tree, (particle, constraint))?;
            // Panel (c) numbers node i as n − 1 − i; its fill is in those numbers.
            let cases = [(false, &leaves_fill), (true, &root_fill)];
            for ((part, title), (flipped, filled)) in
                parts[1..].iter().zip(&titles[1..]).zip(cases)
            {
                let place = |i: usize| if flipped { n - 1 - i } else { i };
                let area = titled(part, title, &font)?;
                let mut chart =
                    scene_chart(&area, -1.4..n as f64 + 0.1, -0.1..n as f64 + 0.1)?;
                let cell = |r: usize, c: usize, style: ShapeStyle| {
                    let (x, y) = (c as f64, (n - 1 - r) as f64);
                    Rectangle::new(
                        [(x + 0.06, y + 0.06), (x + 0.94, y + 0.94)],
                        style,
                    )
                };
                for r in 0..n {
                    for c in 0..n {
                        chart.draw_series(std::iter::once(cell(
                            r,
                            c,
                            REFERENCE.mix(0.25).stroke_width(1),
                        )))?;
                    }
                }
                for (i, &(kind, _, _)) in tree.nodes.iter().enumerate() {
                    let k = place(i);
                    let style = match kind {
                        Kind::Particle { .. } => particle.filled(),
                        Kind::Constraint { .. } => constraint.filled(),
                    };
                    chart.draw_series(std::iter::once(cell(k, k, style)))?;
                    chart.draw_series(std::iter::once(Text::new(
                        format!("{}", k + 1),
                        (-0.15, (n - 1 - k) as f64 + 0.5),
                        pbm_prelim::plot::tick_font()
                            .pos(Pos::new(HPos::Right, VPos::Center)),
                    )))?;
                }
                for &(a, b) in &edges {
                    let (a, b) = (place(a), place(b));
                    chart.draw_series([
                        cell(a, b, REFERENCE.filled()),
                        cell(b, a, REFERENCE.filled()),
                    ])?;
                }
                for &(a, b) in filled.iter() {
                    chart.draw_series([
                        cell(a, b, fill.filled()),
                        cell(b, a, fill.filled()),
                    ])?;
                }
            }
            Ok(())
        },
    )
}

/// Panel (a) of [`tree_order`]: rods as lines between particles, each node a disc
/// (particle) or square (constraint) carrying its number in the order.
fn draw_tree_graph(
    area: &Area<'_>,
    tree: &OrderedTree,
    (particle, constraint): (RGBColor, RGBColor),
) -> Result<(), Box<dyn std::error::Error>> {
    let mut chart = scene_chart(area, -2.1..2.2, -2.9..1.1)?;
    let place = |i: usize| tree.nodes[i].1;
    for (a, b) in tree.edges() {
        line(&mut chart, &[place(a), place(b)], REFERENCE, 2)?;
    }
    // The hook: the rod's other end, which no force moves, drawn as the ground.
    let tie = tree.nodes.len() - 1;
    dashed_line(&mut chart, &[place(tie), tree.hook], REFERENCE, 2)?;
    let (hx, hy) = tree.hook;
    chart.draw_series(std::iter::once(Polygon::new(
        vec![(hx - 0.25, hy + 0.25), (hx + 0.25, hy + 0.25), (hx, hy)],
        REFERENCE.filled(),
    )))?;
    let white = pbm_prelim::plot::label_font()
        .color(&WHITE)
        .pos(Pos::new(HPos::Center, VPos::Center));
    for (i, &(kind, at, _)) in tree.nodes.iter().enumerate() {
        match kind {
            Kind::Particle { .. } => {
                chart.draw_series(std::iter::once(Circle::new(
                    at,
                    13,
                    particle.filled(),
                )))?;
            }
            Kind::Constraint { .. } => {
                let (x, y) = at;
                let half = 0.19;
                chart.draw_series(std::iter::once(Rectangle::new(
                    [(x - half, y - half), (x + half, y + half)],
                    constraint.filled(),
                )))?;
            }
        }
        chart.draw_series(std::iter::once(Text::new(
            format!("{}", i + 1),
            at,
            white.clone(),
        )))?;
    }
    Ok(())
}
