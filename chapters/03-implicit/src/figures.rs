//! The chapter's figures, computed with the chapter's own solvers.

use crate::backward_euler::{backward_euler_step, implicit_midpoint_step};
use crate::mass_spring::MassSpring;
use crate::minimization::{minimization_step, phi};
use crate::multigrid::{Multigrid, colour_order};
use crate::scenes::{
    EulerVariant, energy_track, nailed_bob, spring_pendulum_rest_energy,
};
use crate::sheet::{Solve, sheet};
use crate::stiff::{StiffExample, stability_boundary};
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::system::state_of;
use pbm_ode::tableau::{ButcherTableau, EULER, MIDPOINT, RK4};
use pbm_prelim::plot::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Every figure of the chapter, in reading order.
pub fn all() -> Vec<Figure> {
    vec![
        Figure::new(
            "stiffness-blowup",
            "Explicit methods explode on a stiff problem",
            stiffness_blowup,
        ),
        Figure::new(
            "energy-landscape",
            "The stiff example as a narrow valley, stepped three ways",
            energy_landscape,
        ),
        Figure::new(
            "newton-landscape",
            "One backward Euler step as the minimum of Φ, found by Newton",
            newton_landscape,
        ),
        Figure::new(
            "stability-regions",
            "Where explicit and implicit Euler, midpoint and RK4 are stable",
            stability_regions,
        ),
        Figure::new(
            "sheet-frames",
            "The hanging sheet, solved to three digits and to ten",
            sheet_frames,
        ),
        Figure::new(
            "colour-order",
            "The sheet's particles in colour order, and its matrix renumbered",
            colour_order_figure,
        ),
        Figure::new(
            "aggregation",
            "One level of aggregation on the 8 × 8 sheet, and the V-cycle",
            aggregation,
        ),
        Figure::new(
            "energy",
            "Energy under explicit, implicit and symplectic Euler",
            energy,
        ),
        Figure::new(
            "midpoint",
            "Implicit midpoint: no damping, for better and for worse",
            midpoint,
        ),
    ]
}

/// Stiffness of the figures' stiff example (1/s).
const K: f64 = 1000.0;

/// |y| after each of `steps` explicit steps of size h (stopping early if it overflows).
fn explicit_y(
    tableau: ButcherTableau,
    h: f64,
    steps: usize,
) -> Result<Vec<(f64, f64)>, PbmError> {
    let mut system = StiffExample::new(K, 1.0, 1.0)?;
    let mut stepper = RungeKutta::new(tableau);
    let mut out = vec![(0.0, 1.0)];
    for n in 1..=steps {
        if stepper.step(&mut system, h).is_err() {
            break;
        }
        let y = state_of(&system)[1].abs();
        if y > 1e3 {
            break; // off the top of the plot
        }
        out.push((n as f64, y));
    }
    Ok(out)
}

/// x after each step, for an explicit method at step h or backward Euler.
fn x_track(
    implicit: bool,
    h: f64,
    steps: usize,
) -> Result<Vec<(f64, f64)>, PbmError> {
    let mut system = StiffExample::new(K, 1.0, 1.0)?;
    let mut euler = RungeKutta::new(EULER);
    let mut out = vec![(0.0, 1.0)];
    for n in 1..=steps {
        if implicit {
            backward_euler_step(&mut system, h)?
        } else {
            euler.step(&mut system, h).map(|_| ())?
        }
        out.push((n as f64, state_of(&system)[0]));
    }
    Ok(out)
}

/// The points (x, y) of `steps` steps of the stiff example with stiffness `k` from
/// (1, y0): explicit Euler at step h, or backward Euler. Stops where a point leaves
/// the box |y| ≤ 1.
fn landscape_path(
    k: f64,
    y0: f64,
    implicit: bool,
    h: f64,
    steps: usize,
) -> Result<Vec<(f64, f64)>, PbmError> {
    let mut system = StiffExample::new(k, 1.0, y0)?;
    let mut euler = RungeKutta::new(EULER);
    let mut out = vec![(1.0, y0)];
    for _ in 0..steps {
        if implicit {
            backward_euler_step(&mut system, h)?
        } else {
            euler.step(&mut system, h).map(|_| ())?
        }
        let s = state_of(&system);
        out.push((s[0], s[1]));
        if s[1].abs() > 1.0 {
            break;
        }
    }
    Ok(out)
}

fn energy_landscape() -> Result<Vec<Drawing>, PbmError> {
    // A mild stiffness, so the valley is still visibly a valley: 20 against 1.
    let (k, y0, steps) = (20.0, 0.4, 14);
    let limit = 2.0 / k;
    let runs = [
        (
            "Euler, h = 0.09 s (0.9 of its limit 2/k)",
            landscape_path(k, y0, false, 0.9 * limit, steps)?,
        ),
        (
            "Euler, h = 0.105 s (5% above it)",
            landscape_path(k, y0, false, 1.05 * limit, steps)?,
        ),
        ("backward Euler, h = 0.5 s", landscape_path(k, y0, true, 0.5, 4)?),
    ];
    // The exact path: x = e^{−t}, y = y0 e^{−kt} = y0 x^k.
    let exact: Vec<(f64, f64)> = (0..=400)
        .map(|i| 1.0 - f64::from(i) / 400.0)
        .map(|x| (x, y0 * x.powf(k)))
        .collect();
    require_finite(runs.iter().flat_map(|r| r.1.iter()).flat_map(|p| [p.0, p.1]))?;
    // Level sets of E = (x² + k y²)/2: ellipses with half-axes √(2E) and √(2E/k).
    let levels: Vec<Vec<(f64, f64)>> =
        [0.02, 0.06, 0.12, 0.2, 0.32, 0.5, 0.8, 1.3, 2.1]
            .iter()
            .map(|&e: &f64| {
                (0..=120)
                    .map(|i| f64::from(i) * std::f64::consts::TAU / 120.0)
                    .map(|s| {
                        ((2.0 * e).sqrt() * s.cos(), (2.0 * e / k).sqrt() * s.sin())
                    })
                    .collect()
            })
            .collect();
    titled_figure(
        [520, 640],
        "x′ = −x, y′ = −20 y: sliding down E = (x² + 20 y²)/2 from (1, 0.4)",
        |root, _| {
            let mut legend: Legend =
                series_legend(&runs, Swatch::LineDots, LINE_WIDTH, |(name, _)| {
                    name.to_string()
                });
            legend
                .push(("exact path, y = 0.4 x²⁰".into(), Swatch::Line(REFERENCE, 2)));
            legend.push((
                "level sets of E".into(),
                Swatch::Line(RGBColor(200, 200, 200), 1),
            ));
            let plot = legend_below(root, &legend)?;
            // Not to scale: y is stretched about 2.5 times, so the valley looks wider
            // than it is.
            let mut chart =
                chart_on(&plot).build_cartesian_2d(-0.05..1.1, -0.9..0.9)?;
            axes(&mut chart, "x, the slow coordinate", "y, the stiff coordinate")
                .draw()?;
            for level in &levels {
                line(&mut chart, level, RGBColor(200, 200, 200), 1)?;
            }
            line(&mut chart, &exact, REFERENCE, 2)?;
            for (i, (_, path)) in runs.iter().enumerate() {
                line(&mut chart, path, color(i), LINE_WIDTH)?;
                chart.draw_series(
                    path.iter().map(|p| Circle::new(*p, 3, color(i).filled())),
                )?;
            }
            Ok(())
        },
    )
}

/// The pieces of the level set {f = level} of a function sampled on a grid
/// (`values[i][j]` at `(xs[i], ys[j])`), cell by cell (marching squares): where the
/// level crosses a cell's edge, by linear interpolation, joined in pairs.
fn level_segments(
    values: &[Vec<f64>],
    xs: &[f64],
    ys: &[f64],
    level: f64,
) -> Vec<[(f64, f64); 2]> {
    let mut out = Vec::new();
    for i in 0..xs.len() - 1 {
        for j in 0..ys.len() - 1 {
            let corners = [(i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1)];
            let mut crossings = Vec::new();
            for e in 0..4 {
                let (a, b) = (corners[e], corners[(e + 1) % 4]);
                let (fa, fb) = (values[a.0][a.1] - level, values[b.0][b.1] - level);
                if (fa < 0.0) != (fb < 0.0) {
                    let t = fa / (fa - fb);
                    crossings.push((
                        xs[a.0] + t * (xs[b.0] - xs[a.0]),
                        ys[a.1] + t * (ys[b.1] - ys[a.1]),
                    ));
                }
            }
            for pair in crossings.chunks_exact(2) {
                out.push([pair[0], pair[1]]);
            }
        }
    }
    out
}

fn newton_landscape() -> Result<Vec<Drawing>, PbmError> {
    // The page's bob (implicit/newton's defaults) at its long step, h = 0.5 s.
    let (below, k, h) = (1.2, 100.0, 0.5);
    let bob = || nailed_bob(below, 0.0, k, 0.0);
    let start = bob()?;
    let s: Vec<_> = start.system.particles.iter().map(|p| p.x + p.v * h).collect();
    // Newton stopped after 0, 1, 2, ... iterations: the method is deterministic, so
    // these are one run's iterates (the first is the linearized step).
    let iterates: Vec<(f64, f64)> = (0..=5)
        .map(|n| {
            let mut model = bob()?;
            minimization_step(&mut model, h, 0.0, n)?;
            let x = model.system.particles[1].x;
            Ok((x.x, x.y))
        })
        .collect::<Result<_, PbmError>>()?;
    // Equal scales on both axes (with the figure's height), so the level sets keep
    // their shape.
    let (x_range, y_range) = (-0.1..0.7, -1.45..-0.75);
    let n = 96;
    let along = |r: &std::ops::Range<f64>| -> Vec<f64> {
        (0..=n).map(|i| r.start + (r.end - r.start) * i as f64 / n as f64).collect()
    };
    let (xs, ys) = (along(&x_range), along(&y_range));
    let mut probe = bob()?;
    let mut values = vec![vec![0.0; ys.len()]; xs.len()];
    for (i, &x) in xs.iter().enumerate() {
        for (j, &y) in ys.iter().enumerate() {
            probe.system.particles[1].x = nalgebra::Vector2::new(x, y);
            values[i][j] = phi(&probe, &s, h);
        }
    }
    let mut lowest = bob()?;
    lowest.system.particles[1].x = {
        let last = iterates[iterates.len() - 1];
        nalgebra::Vector2::new(last.0, last.1)
    };
    let phi_min = phi(&lowest, &s, h);
    require_finite(
        iterates
            .iter()
            .flat_map(|p| [p.0, p.1])
            .chain(values.iter().flatten().copied()),
    )?;
    // Levels above the minimum, doubling: the valley's shape at every scale.
    let levels: Vec<Vec<[(f64, f64); 2]>> = (0..9)
        .map(|i| phi_min + 0.01 * 2f64.powi(i))
        .map(|level| level_segments(&values, &xs, &ys, level))
        .collect();
    titled_figure(
        [720, 760],
        "One step of h = 0.5 s: the minimum of Φ, reached by Newton",
        |root, _| {
            let legend: Legend = vec![
                (
                    "Newton iterates from the start x₀ (= s, the bob is at rest)"
                        .into(),
                    Swatch::LineDots(color(0), LINE_WIDTH),
                ),
                (
                    "the step backward Euler defines: Φ's minimum".into(),
                    Swatch::Line(color(1), 3),
                ),
                (
                    "level sets of Φ, each twice the last above the minimum".into(),
                    Swatch::Line(RGBColor(200, 200, 200), 1),
                ),
            ];
            let plot = legend_below(root, &legend)?;
            let mut chart = chart_on(&plot)
                .build_cartesian_2d(x_range.clone(), y_range.clone())?;
            axes(&mut chart, "bob's x (m)", "bob's y (m)").draw()?;
            for level in &levels {
                chart.draw_series(level.iter().map(|seg| {
                    PathElement::new(seg.to_vec(), RGBColor(200, 200, 200))
                }))?;
            }
            line(&mut chart, &iterates, color(0), LINE_WIDTH)?;
            chart.draw_series(
                iterates.iter().map(|p| Circle::new(*p, 3, color(0).filled())),
            )?;
            let last = iterates[iterates.len() - 1];
            chart.draw_series([Circle::new(last, 7, color(1).stroke_width(3))])?;
            for (i, p) in iterates.iter().enumerate().take(3) {
                chart.draw_series([Text::new(
                    format!("{i}"),
                    (p.0 + 0.015, p.1 + 0.01),
                    label_font(),
                )])?;
            }
            Ok(())
        },
    )
}

fn stiffness_blowup() -> Result<Vec<Drawing>, PbmError> {
    let steps = 60;
    let (h_euler, h_rk4) = (1.05 * 2.0 / K, 1.05 * 2.785 / K);
    let euler = explicit_y(EULER, h_euler, steps)?;
    let rk4 = explicit_y(RK4, h_rk4, steps)?;
    let mut implicit = vec![(0.0, 1.0)];
    let mut system = StiffExample::new(K, 1.0, 1.0)?;
    for n in 1..=steps {
        backward_euler_step(&mut system, h_rk4)?;
        implicit.push((n as f64, state_of(&system)[1].abs().max(1e-300)));
    }
    let crawl_explicit = x_track(false, 1.9 / K, 3000)?;
    let crawl_implicit = x_track(true, 0.5, 3000)?;
    require_finite(
        [&euler, &rk4, &implicit, &crawl_explicit, &crawl_implicit]
            .iter()
            .flat_map(|c| c.iter().flat_map(|p| [p.0, p.1])),
    )?;
    let clipped: Vec<(f64, f64)> = implicit
        .iter()
        .map(|&(n, y)| (n, y.max(1e-12)))
        .take_while(|p| p.1 > 1e-12)
        .collect();
    let positive = |c: &Vec<(f64, f64)>| {
        c.iter().copied().filter(|p| p.0 >= 1.0).collect::<Vec<_>>()
    };
    let (crawl_explicit, crawl_implicit) =
        (positive(&crawl_explicit), positive(&crawl_implicit));
    titled_figure(
        [480, 900],
        "x′ = −x, y′ = −1000 y from (1, 1)",
        |root, layout| {
            let [left, right] = titled_panels(
                root,
                layout,
                [
                    "(a) |y| at a step 5% above each explicit limit",
                    "(b) x, the slow part: getting anywhere",
                ],
            )?;
            let legends = [
                vec![
                    (
                        format!("Euler, h = {:.2} ms", h_euler * 1e3),
                        Swatch::Line(color(0), LINE_WIDTH),
                    ),
                    (
                        format!("RK4, h = {:.2} ms", h_rk4 * 1e3),
                        Swatch::Line(color(1), LINE_WIDTH),
                    ),
                    (
                        format!("backward Euler, h = {:.2} ms", h_rk4 * 1e3),
                        Swatch::Line(color(2), LINE_WIDTH + 1),
                    ),
                ],
                vec![
                    (
                        "Euler, h = 1.9 ms (just stable)".into(),
                        Swatch::Line(color(0), LINE_WIDTH),
                    ),
                    (
                        "backward Euler, h = 500 ms".into(),
                        Swatch::Line(color(2), LINE_WIDTH + 1),
                    ),
                ],
            ];
            let areas = legends_below(&[left, right], &legends)?;
            let mut chart = chart_on(&areas[0])
                .build_cartesian_2d(0.0..steps as f64, (1e-12..1e3).log_scale())?;
            axes(&mut chart, "steps taken", "|y|")
                .x_label_formatter(&|v| format!("{v:.0}"))
                .y_label_formatter(&power_of_ten)
                .draw()?;
            line(&mut chart, &euler, color(0), LINE_WIDTH)?;
            line(&mut chart, &rk4, color(1), LINE_WIDTH)?;
            line(&mut chart, &clipped, color(2), LINE_WIDTH + 1)?;
            let mut crawl = chart_on(&areas[1])
                .build_cartesian_2d((1.0..3000.0).log_scale(), 0.0..1.05)?;
            axes(&mut crawl, "steps taken", "x")
                .x_label_formatter(&|v| format!("{v:.0}"))
                .draw()?;
            line(&mut crawl, &crawl_explicit, color(0), LINE_WIDTH)?;
            line(&mut crawl, &crawl_implicit, color(2), LINE_WIDTH + 1)?;
            Ok(())
        },
    )
}

fn energy() -> Result<Vec<Drawing>, PbmError> {
    let t_end = 10.0;
    let runs = [
        (
            "explicit Euler, h = 1 ms",
            energy_track(EulerVariant::Explicit, 0.001, t_end)?,
        ),
        (
            "backward Euler, h = 20 ms",
            energy_track(EulerVariant::Backward, 0.02, t_end)?,
        ),
        (
            "symplectic Euler, h = 20 ms",
            energy_track(EulerVariant::Symplectic, 0.02, t_end)?,
        ),
    ];
    require_finite(runs.iter().flat_map(|r| r.1.iter().flat_map(|p| [p.0, p.1])))?;
    let e0 = runs[0].1[0].1;
    let rest = spring_pendulum_rest_energy()?;
    let (lo, hi) = runs
        .iter()
        .flat_map(|r| r.1.iter().map(|p| p.1))
        .fold((rest, e0), |(a, b), e| (a.min(e), b.max(e)));
    let pad = 0.05 * (hi - lo);
    titled_figure(
        [480, 500],
        "A swinging 1 kg mass on an undamped spring",
        |root, _| {
            let mut legend: Legend = vec![
                ("exact: constant".into(), Swatch::Dashed(REFERENCE, LINE_WIDTH)),
                ("at rest, hanging still".into(), Swatch::Dashed(color(1), 1)),
            ];
            legend.extend(runs.iter().enumerate().map(|(i, (name, _))| {
                (name.to_string(), Swatch::Line(color(i), LINE_WIDTH))
            }));
            let plot = legend_below(root, &legend)?;
            let mut chart = chart_on(&plot)
                .build_cartesian_2d(0.0..t_end, (lo - pad)..(hi + pad))?;
            axes(&mut chart, "time t (s)", "total energy (J)").draw()?;
            dashed_line(
                &mut chart,
                &[(0.0, e0), (t_end, e0)],
                REFERENCE,
                LINE_WIDTH,
            )?;
            // The floor backward Euler's damping drains the energy towards.
            dashed_line(&mut chart, &[(0.0, rest), (t_end, rest)], color(1), 1)?;
            for (i, (_, track)) in runs.iter().enumerate() {
                line(&mut chart, track, color(i), LINE_WIDTH)?;
            }
            Ok(())
        },
    )
}

/// Grid lines of an n × n sheet seen from the front (x, z): every `every`-th row and
/// column, and the edges.
fn sheet_lines(
    model: &MassSpring<3>,
    n: usize,
    every: usize,
) -> Vec<Vec<(f64, f64)>> {
    let keep = |k: usize| k.is_multiple_of(every) || k == n - 1;
    let at = |i: usize, j: usize| {
        let x = model.system.particles[i * n + j].x;
        (x.x, x.z)
    };
    let rows =
        (0..n).filter(|&i| keep(i)).map(|i| (0..n).map(|j| at(i, j)).collect());
    let columns =
        (0..n).filter(|&j| keep(j)).map(|j| (0..n).map(|i| at(i, j)).collect());
    rows.chain(columns).collect()
}

fn sheet_frames() -> Result<Vec<Drawing>, PbmError> {
    let (n, h) = (32, 1.0 / 30.0);
    let times = [0.25, 0.5, 1.0, 2.0];
    let runs = [Solve::TIGHT, Solve::FRAME];
    // (t, lines of each run, farthest any particle is between the runs (m)).
    let mut frames = Vec::new();
    let mut models = Vec::new();
    for solve in runs {
        let mut model = sheet(n, 1000.0)?;
        model.cg_tolerance = solve.tolerance;
        model.warm_start = solve.warm_start;
        model.preconditioner = solve.preconditioner;
        models.push(model);
    }
    let mut iterations = [0usize; 2];
    let mut steps = 0;
    for &t in &times {
        while models[0].system.t < t - 1e-9 {
            for (model, its) in models.iter_mut().zip(&mut iterations) {
                *its += model.backward_euler_step(h)?.cg.iterations;
            }
            steps += 1;
        }
        let apart = models[0]
            .system
            .particles
            .iter()
            .zip(&models[1].system.particles)
            .map(|(a, b)| (a.x - b.x).norm())
            .fold(0.0, f64::max);
        let lines: Vec<_> = models.iter().map(|m| sheet_lines(m, n, 4)).collect();
        frames.push((t, lines, apart));
    }
    require_finite(
        frames
            .iter()
            .flat_map(|f| f.1.iter().flatten().flatten().flat_map(|p| [p.0, p.1])),
    )?;
    let mean = |k: usize| iterations[k] as f64 / steps as f64;
    draw_figure([420, 1500], |root, layout| {
        let title = format!(
            "A 32 × 32 sheet pinned at two corners, seen from the front, backward Euler at h = 1/30 s, multigrid-preconditioned CG to 10 digits from zero ({:.0} iterations a step) and to 3 digits from the last step's Δv ({:.0})",
            mean(0),
            mean(1)
        );
        let root = titled(root, &title, &title_font())?;
        let legend: Legend = vec![
            ("10 digits, from zero".into(), Swatch::Line(REFERENCE, 5)),
            ("3 digits, warm start".into(), Swatch::Line(color(0), 1)),
        ];
        let root = legend_below(&root, &legend)?;
        for (panel, (t, lines, apart)) in
            panels(&root, layout, frames.len(), 4).iter().zip(&frames)
        {
            let label = format!("t = {t} s: {:.1} mm apart at most", 1e3 * apart);
            let panel = titled(panel, &label, &label_font())?;
            let mut chart =
                chart_on(&panel).build_cartesian_2d(-0.1..1.1, -1.1..0.1)?;
            axes(&mut chart, "x (m)", "z (m)").draw()?;
            for (k, width) in [(0, 5), (1, 1)] {
                let c = if k == 0 { REFERENCE } else { color(0) };
                for polyline in &lines[k] {
                    line(&mut chart, polyline, c, width)?;
                }
            }
        }
        Ok(())
    })
}

/// The springs behind the coloured particles: a light grey.
const SPRING: RGBColor = RGBColor(170, 170, 170);

/// Particles of the sheet drawn in the colour-order figure, along a side.
const COLOURED_SIDE: usize = 8;

fn colour_order_figure() -> Result<Vec<Drawing>, PbmError> {
    let n = COLOURED_SIDE;
    let model = sheet(n, 1000.0)?;
    let (a, _) = model.system_matrices(1.0 / 30.0, None)?;
    let (order, colours) = colour_order(&a);
    let mut colour_of = vec![0; order.len()];
    let mut rank = vec![0; order.len()];
    for (c, range) in colours.iter().enumerate() {
        for k in range.clone() {
            (colour_of[order[k]], rank[order[k]]) = (c, k);
        }
    }
    let at = |i: usize| ((i % n) as f64, (i / n) as f64);
    let mut legend: Legend = (0..colours.len())
        .map(|c| {
            let swept = match c {
                0 => " (swept first)".to_string(),
                c if c + 1 == colours.len() => " (swept last)".to_string(),
                _ => String::new(),
            };
            (format!("colour {}{swept}", c + 1), Swatch::Square(color(c)))
        })
        .collect();
    legend.push(("a block between two particles".into(), Swatch::Square(REFERENCE)));
    let titles = [
        format!("(a) {n} × {n} particles, numbered in sweep order"),
        "(b) The matrix renumbered: each colour's square holds only its diagonal"
            .to_string(),
    ];
    titled_figure(
        [460, 1100],
        "No spring joins two particles of one colour, so a colour's particles can be solved in any order",
        |root, layout| {
            let root = legend_below(root, &legend)?;
            let parts = panels(&root, layout, 2, 2);
            let font = label_font();
            let area = titled(&parts[0], &titles[0], &font)?;
            let side = (n - 1) as f64;
            let mut chart = scene_chart(&area, -0.5..side + 0.5, -0.5..side + 0.5)?;
            for i in 0..a.block_rows() {
                for &j in a.row(i).0.iter().filter(|&&j| j > i) {
                    line(&mut chart, &[at(i), at(j)], SPRING, 1)?;
                }
            }
            let white =
                label_font().color(&WHITE).pos(Pos::new(HPos::Center, VPos::Center));
            for i in 0..a.block_rows() {
                chart.draw_series([Circle::new(
                    at(i),
                    11,
                    color(colour_of[i]).filled(),
                )])?;
                chart.draw_series([Text::new(
                    format!("{}", rank[i] + 1),
                    at(i),
                    white.clone(),
                )])?;
            }
            let area = titled(&parts[1], &titles[1], &font)?;
            let size = a.block_rows() as f64;
            let mut chart = scene_chart(&area, 0.0..size, 0.0..size)?;
            let cell = |r: usize, c: usize, style: ShapeStyle| {
                let (x, y) = (c as f64, size - 1.0 - r as f64);
                Rectangle::new([(x, y), (x + 1.0, y + 1.0)], style)
            };
            for (c, range) in colours.iter().enumerate() {
                let (lo, hi) = (range.start as f64, range.end as f64);
                chart.draw_series([Rectangle::new(
                    [(lo, size - hi), (hi, size - lo)],
                    color(c).mix(0.3).filled(),
                )])?;
            }
            for (p, &i) in order.iter().enumerate() {
                for &j in a.row(i).0 {
                    let style = if i == j {
                        color(colour_of[i]).filled()
                    } else {
                        REFERENCE.filled()
                    };
                    chart.draw_series([cell(p, rank[j], style)])?;
                }
            }
            Ok(())
        },
    )
}

fn stability_regions() -> Result<Vec<Drawing>, PbmError> {
    let methods = [(EULER, "Euler"), (MIDPOINT, "midpoint"), (RK4, "RK4")];
    let boundaries = methods
        .iter()
        .map(|(t, _)| stability_boundary(*t, 720))
        .collect::<Result<Vec<_>, _>>()?;
    require_finite(boundaries.iter().flatten().flat_map(|p| [p.0, p.1]))?;
    let rk4_left = boundaries[2].iter().map(|p| p.0).fold(0.0, f64::min);
    // Backward Euler's R(z) = 1/(1 − z): stable outside the circle |z − 1| = 1.
    let implicit: Vec<(f64, f64)> = (0..=360)
        .map(|k| {
            let a = std::f64::consts::TAU * f64::from(k) / 360.0;
            (1.0 + a.cos(), a.sin())
        })
        .collect();
    titled_figure(
        [780, 560],
        "Stable steps in the plane of z = hλ: a decay ẏ = −k y is z = −hk on the real axis, a vibration at ω is z = ±i hω",
        |root, _| {
            let mut legend: Legend =
                series_legend(&methods, Swatch::Line, LINE_WIDTH, |(_, name)| {
                    format!("{name}: stable inside")
                });
            legend.push((
                "backward Euler: stable outside".into(),
                Swatch::Dashed(REFERENCE, LINE_WIDTH),
            ));
            let plot = legend_below(root, &legend)?;
            let mut chart =
                chart_on(&plot).build_cartesian_2d(-3.5..2.5, -3.2..3.2)?;
            axes(&mut chart, "Re z = h Re λ", "Im z = h Im λ").draw()?;
            for (i, b) in boundaries.iter().enumerate().rev() {
                chart.draw_series(std::iter::once(Polygon::new(
                    b.clone(),
                    color(i).mix(0.15).filled(),
                )))?;
                line(&mut chart, b, color(i), LINE_WIDTH)?;
            }
            dashed_line(&mut chart, &implicit, REFERENCE, LINE_WIDTH)?;
            // Euler's label above the axis and RK4's below it, so that they do not
            // meet on a narrow page.
            let marks = [
                (-2.0, 0.0, "−2".to_string(), color(0), 0.45),
                (rk4_left, 0.0, format!("{rk4_left:.3}"), color(2), -0.15),
                (0.0, 8f64.sqrt(), "2.83 i".to_string(), color(2), 0.12),
            ];
            for (x, y, text, c, dy) in marks {
                chart.draw_series(std::iter::once(Circle::new(
                    (x, y),
                    4,
                    c.filled(),
                )))?;
                chart.draw_series(std::iter::once(Text::new(
                    text,
                    (x + 0.08, y + dy),
                    label_font(),
                )))?;
            }
            Ok(())
        },
    )
}

/// Implicit midpoint beside the chapter's two ways of keeping energy: (a) the energy
/// error on the swinging spring at 20 ms, against symplectic Euler; (b) the stiff
/// mode y of ẋ = −x, ẏ = −k y at hk = 100, against backward Euler.
fn midpoint() -> Result<Vec<Drawing>, PbmError> {
    let (h, t_end) = (0.02, 10.0);
    let error = |variant| -> Result<Vec<(f64, f64)>, PbmError> {
        let track = energy_track(variant, h, t_end)?;
        let e0 = track[0].1;
        Ok(track.iter().map(|p| (p.0, p.1 - e0)).collect())
    };
    let swings = [
        ("symplectic Euler", error(EulerVariant::Symplectic)?),
        ("implicit midpoint", error(EulerVariant::ImplicitMidpoint)?),
    ];
    let (k, h_stiff, steps) = (K, 0.1, 30);
    let mut stiff = Vec::new();
    for implicit_midpoint in [false, true] {
        let mut system = StiffExample::new(k, 1.0, 1.0)?;
        let mut ys = vec![(0.0, 1.0)];
        for n in 1..=steps {
            if implicit_midpoint {
                implicit_midpoint_step(&mut system, h_stiff)?;
            } else {
                backward_euler_step(&mut system, h_stiff)?;
            }
            ys.push((f64::from(n), state_of(&system)[1]));
        }
        stiff.push(ys);
    }
    require_finite(
        swings
            .iter()
            .flat_map(|s| &s.1)
            .chain(stiff.iter().flatten())
            .flat_map(|p| [p.0, p.1]),
    )?;
    let top = swings.iter().flat_map(|s| &s.1).map(|p| p.1.abs()).fold(0.0, f64::max);
    let legends = [
        swings
            .iter()
            .enumerate()
            .map(|(i, (name, track))| {
                let worst = track.iter().map(|p| p.1.abs()).fold(0.0, f64::max);
                let label = format!("{name}, h = 20 ms: within {worst:.2} J");
                (label, Swatch::Line(color(2 + i), LINE_WIDTH))
            })
            .collect::<Legend>(),
        vec![
            ("backward Euler".to_string(), Swatch::LineDots(color(1), LINE_WIDTH)),
            ("implicit midpoint".to_string(), Swatch::LineDots(color(3), LINE_WIDTH)),
        ],
    ];
    let titles = [
        "(a) energy error on the swinging spring".to_string(),
        format!("(b) the stiff mode y at hk = {}", h_stiff * k),
    ];
    draw_figure([430, 720], |root, layout| {
        let titles = [titles[0].as_str(), titles[1].as_str()];
        let parts = titled_panels(root, layout, titles)?;
        let plots = legends_below(&parts, &legends)?;
        let mut chart = chart_on(&plots[0])
            .build_cartesian_2d(0.0..t_end, (-1.1 * top)..(1.1 * top))?;
        axes(&mut chart, "time t (s)", "E − E(0) (J)").draw()?;
        dashed_line(&mut chart, &[(0.0, 0.0), (t_end, 0.0)], REFERENCE, 1)?;
        for (i, (_, track)) in swings.iter().enumerate() {
            line(&mut chart, track, color(2 + i), LINE_WIDTH)?;
        }
        let mut chart =
            chart_on(&plots[1]).build_cartesian_2d(0.0..steps as f64, -1.1..1.1)?;
        axes(&mut chart, "steps taken", "y")
            .x_label_formatter(&|v| format!("{v:.0}"))
            .draw()?;
        dashed_line(&mut chart, &[(0.0, 0.0), (steps as f64, 0.0)], REFERENCE, 1)?;
        for (ys, c) in stiff.iter().zip([color(1), color(3)]) {
            line(&mut chart, ys, c, LINE_WIDTH)?;
            chart.draw_series(ys.iter().map(|p| Circle::new(*p, 3, c.filled())))?;
        }
        Ok(())
    })
}

/// The corners of the convex hull of a few points, in order around them (for ≤ 4
/// points: sorted by angle about their centroid).
fn around(points: &mut [(f64, f64)]) {
    let n = points.len() as f64;
    let c = points.iter().fold((0.0, 0.0), |a, p| (a.0 + p.0 / n, a.1 + p.1 / n));
    points.sort_by(|a, b| {
        let angle = |p: &(f64, f64)| (p.1 - c.1).atan2(p.0 - c.0);
        angle(a).total_cmp(&angle(b))
    });
}

/// The multigrid's first level on the 8 × 8 sheet, read from [`Multigrid`]: (a) the
/// pairs of the first matching, (b) the groups of the second, (c) the V-cycle's
/// steps over the hierarchy's levels, with their sizes.
fn aggregation() -> Result<Vec<Drawing>, PbmError> {
    let n = COLOURED_SIDE;
    let model = sheet(n, 1000.0)?;
    let (a, _) = model.system_matrices(1.0 / 30.0, None)?;
    let multigrid = Multigrid::new(&a)?;
    let sizes = multigrid.sizes();
    let (pair, group) = multigrid.first_level().ok_or_else(|| PbmError::Figure {
        why: "the sheet is too small to coarsen".into(),
    })?;
    let at = |i: usize| ((i % n) as f64, (i / n) as f64);
    let members = |of: &[usize], c: usize| -> Vec<(f64, f64)> {
        let mut pts: Vec<(f64, f64)> =
            (0..of.len()).filter(|&i| of[i] == c).map(at).collect();
        around(&mut pts);
        pts
    };
    let pairs: Vec<Vec<(f64, f64)>> = (0..=pair.iter().copied().max().unwrap_or(0))
        .map(|c| members(&pair, c))
        .collect();
    let groups: Vec<Vec<(f64, f64)>> = (0..=group.iter().copied().max().unwrap_or(0))
        .map(|c| members(&group, c))
        .collect();
    let titles = [
        format!("(a) first matching: {} pairs", pairs.len()),
        format!("(b) second matching: {} groups, each one coarse node", groups.len()),
        "(c) one V-cycle, z = B r, down the levels and back".to_string(),
    ];
    let steps: Vec<(f64, f64)> = (0..sizes.len())
        .map(|l| (l as f64, -(l as f64)))
        .chain(
            (0..sizes.len() - 1)
                .rev()
                .map(|l| ((2 * sizes.len() - 2 - l) as f64, -(l as f64))),
        )
        .collect();
    let cycle_legend: Legend = [
        "1 smooth forward: one Gauss–Seidel sweep from z = 0",
        "2 restrict: the residual summed over each group, Pᵀs",
        "3 solve the coarsest level exactly (dense Cholesky)",
        "4 prolong and correct: each group's answer copied back, z += P e",
        "5 smooth backward: the sweep in the opposite order",
    ]
    .iter()
    .map(|t| (t.to_string(), Swatch::Dot(REFERENCE, 0)))
    .collect();
    draw_figure([730, 1160], |root, layout| {
        let (top, bottom) = root.split_vertically(layout.pick(340, 680));
        let parts = panels(&top, layout, 2, 2);
        let font = label_font();
        let side = (n - 1) as f64;
        for (k, part) in parts.iter().enumerate() {
            let area = titled(part, &titles[k], &font)?;
            let mut chart = scene_chart(&area, -0.5..side + 0.5, -0.5..side + 0.5)?;
            let sets = if k == 0 { &pairs } else { &groups };
            for (c, pts) in sets.iter().enumerate() {
                let colour = color(c % 7);
                if pts.len() >= 3 {
                    chart.draw_series([Polygon::new(
                        pts.clone(),
                        colour.mix(0.35).filled(),
                    )])?;
                }
                let mut ring = pts.clone();
                if pts.len() >= 3 {
                    ring.push(pts[0]);
                }
                line(&mut chart, &ring, colour, if k == 0 { 5 } else { 3 })?;
            }
            for i in 0..pair.len() {
                chart.draw_series([Circle::new(at(i), 4, REFERENCE.filled())])?;
            }
        }
        let area = titled(&bottom, &titles[2], &font)?;
        let area = legend_below(&area, &cycle_legend)?;
        let width = (2 * sizes.len() - 2) as f64;
        let depth = (sizes.len() - 1) as f64;
        // Room on the left for the levels' names, more of it on a narrow page.
        let left = layout.pick(-2.6, -4.4);
        let mut chart = ChartBuilder::on(&area)
            .margin(8)
            .build_cartesian_2d(left..width + 0.6, (-depth - 0.4)..0.4)?;
        line(&mut chart, &steps, REFERENCE, 2)?;
        let note = tick_font();
        let last = sizes.len() - 1;
        for (l, size) in sizes.iter().enumerate() {
            let name = match l {
                0 => format!("fine: {size} nodes"),
                l if l == last => format!("coarsest: {size}"),
                l => format!("level {l}: {size}"),
            };
            let anchor = note.pos(Pos::new(HPos::Left, VPos::Center));
            chart.draw_series([Text::new(
                name,
                (left + 0.1, -(l as f64)),
                anchor,
            )])?;
        }
        // Each node and edge numbered by its step in the legend.
        let numbered = |text: &str, at: (f64, f64), h: HPos| {
            Text::new(
                text.to_string(),
                at,
                label_font().pos(Pos::new(h, VPos::Center)),
            )
        };
        for (k, &(x, y)) in steps.iter().enumerate() {
            let c = color(if k == last { 1 } else { 0 });
            chart.draw_series([Circle::new((x, y), 6, c.filled())])?;
            let (text, h, dx) = match k.cmp(&last) {
                std::cmp::Ordering::Less => ("1", HPos::Right, -0.15),
                std::cmp::Ordering::Equal => ("3", HPos::Left, 0.15),
                std::cmp::Ordering::Greater => ("5", HPos::Left, 0.15),
            };
            chart.draw_series([numbered(text, (x + dx, y), h)])?;
        }
        for k in 0..steps.len() - 1 {
            let (p, q) = (steps[k], steps[k + 1]);
            let (x, y) = (0.5 * (p.0 + q.0), 0.5 * (p.1 + q.1));
            let (text, h, dx) = if k < last {
                ("2", HPos::Right, -0.12)
            } else {
                ("4", HPos::Left, 0.12)
            };
            chart.draw_series([numbered(text, (x + dx, y), h)])?;
        }
        Ok(())
    })
}
