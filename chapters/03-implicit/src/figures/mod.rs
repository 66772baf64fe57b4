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

mod solvers;

use solvers::*;

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
        )
        .heavy(),
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
    let levels = energy_levels(k);
    let mut legend: Legend =
        series_legend(&runs, Swatch::LineDots, LINE_WIDTH, |(name, _)| {
            name.to_string()
        });
    legend.push(("exact path, y = 0.4 x²⁰".into(), Swatch::Line(REFERENCE, 2)));
    legend.push(("level sets of E".into(), Swatch::Line(LEVEL, 1)));
    titled_figure(
        [520, 640],
        "x′ = −x, y′ = −20 y: sliding down E = (x² + 20 y²)/2 from (1, 0.4)",
        |root, _| {
            let plot = legend_below(root, &legend)?;
            // Not to scale: y is stretched about 2.5 times, so the valley looks wider
            // than it is.
            let mut chart =
                chart_on(&plot).build_cartesian_2d(-0.05..1.1, -0.9..0.9)?;
            axes(&mut chart, "x, the slow coordinate", "y, the stiff coordinate")
                .draw()?;
            for level in &levels {
                line(&mut chart, level, LEVEL, 1)?;
            }
            line(&mut chart, &exact, REFERENCE, 2)?;
            for (i, (_, path)) in runs.iter().enumerate() {
                line_and_dots(&mut chart, path, (color(i), LINE_WIDTH), 3)?;
            }
            Ok(())
        },
    )
}

/// The light grey of level sets.
const LEVEL: RGBColor = RGBColor(200, 200, 200);

/// Level sets of E = (x² + k y²)/2: ellipses with half-axes √(2E) and √(2E/k).
fn energy_levels(k: f64) -> Vec<Vec<(f64, f64)>> {
    [0.02, 0.06, 0.12, 0.2, 0.32, 0.5, 0.8, 1.3, 2.1]
        .iter()
        .map(|&e: &f64| {
            (0..=120)
                .map(|i| f64::from(i) * std::f64::consts::TAU / 120.0)
                .map(|s| ((2.0 * e).sqrt() * s.cos(), (2.0 * e / k).sqrt() * s.sin()))
                .collect()
        })
        .collect()
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
    let levels = phi_levels(&bob, h, &iterates, [x_range.clone(), y_range.clone()])?;
    let legend: Legend = vec![
        (
            "Newton iterates from the start x₀ (= s, the bob is at rest)".into(),
            Swatch::LineDots(color(0), LINE_WIDTH),
        ),
        (
            "the step backward Euler defines: Φ's minimum".into(),
            Swatch::Line(color(1), 3),
        ),
        (
            "level sets of Φ, each twice the last above the minimum".into(),
            Swatch::Line(LEVEL, 1),
        ),
    ];
    titled_figure(
        [720, 760],
        "One step of h = 0.5 s: the minimum of Φ, reached by Newton",
        |root, _| {
            let plot = legend_below(root, &legend)?;
            let mut chart = chart_on(&plot)
                .build_cartesian_2d(x_range.clone(), y_range.clone())?;
            axes(&mut chart, "bob's x (m)", "bob's y (m)").draw()?;
            for level in &levels {
                chart.draw_series(
                    level.iter().map(|seg| PathElement::new(seg.to_vec(), LEVEL)),
                )?;
            }
            line_and_dots(&mut chart, &iterates, (color(0), LINE_WIDTH), 3)?;
            let last = iterates[iterates.len() - 1];
            chart.draw_series([Circle::new(last, 7, color(1).stroke_width(3))])?;
            for (i, p) in iterates.iter().enumerate().take(3) {
                text(
                    &mut chart,
                    format!("{i}"),
                    (p.0 + 0.015, p.1 + 0.01),
                    &label_font(),
                )?;
            }
            Ok(())
        },
    )
}

/// A straight piece of a level set, from one end to the other.
type Segment = [(f64, f64); 2];

/// Level sets of the bob's Φ for the step `h` over the window `[x, y]`, sampled on a
/// 97 × 97 grid: at levels above its minimum (at the last of `iterates`), doubling,
/// so that they show the valley's shape at every scale.
fn phi_levels(
    bob: &dyn Fn() -> Result<MassSpring<2>, PbmError>,
    h: f64,
    iterates: &[(f64, f64)],
    [x_range, y_range]: [std::ops::Range<f64>; 2],
) -> Result<Vec<Vec<Segment>>, PbmError> {
    let start = bob()?;
    let s: Vec<_> = start.system.particles.iter().map(|p| p.x + p.v * h).collect();
    let n = 96;
    let along = |r: &std::ops::Range<f64>| -> Vec<f64> {
        (0..=n).map(|i| r.start + (r.end - r.start) * i as f64 / n as f64).collect()
    };
    let (xs, ys) = (along(&x_range), along(&y_range));
    let mut probe = bob()?;
    let mut phi_at = |(x, y): (f64, f64)| {
        probe.system.particles[1].x = nalgebra::Vector2::new(x, y);
        phi(&probe, &s, h)
    };
    let values: Vec<Vec<f64>> =
        xs.iter().map(|&x| ys.iter().map(|&y| phi_at((x, y))).collect()).collect();
    let phi_min = phi_at(iterates[iterates.len() - 1]);
    require_finite(
        iterates
            .iter()
            .flat_map(|p| [p.0, p.1])
            .chain(values.iter().flatten().copied()),
    )?;
    Ok((0..9)
        .map(|i| phi_min + 0.01 * 2f64.powi(i))
        .map(|level| level_segments(&values, &xs, &ys, level))
        .collect())
}

fn stiffness_blowup() -> Result<Vec<Drawing>, PbmError> {
    let steps = 60;
    let (h_euler, h_rk4) = (1.05 * 2.0 / K, 1.05 * 2.785 / K);
    let euler = explicit_y(EULER, h_euler, steps)?;
    let rk4 = explicit_y(RK4, h_rk4, steps)?;
    let implicit = implicit_y(h_rk4, steps)?;
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
    let legends = blowup_legends(h_euler, h_rk4);
    titled_figure(
        [480, 900],
        "x′ = −x, y′ = −1000 y from (1, 1)",
        |root, layout| {
            let titles = [
                "(a) |y| at a step 5% above each explicit limit",
                "(b) x, the slow part: getting anywhere",
            ];
            let areas = panels_with_legends(root, layout, titles, &legends)?;
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

/// |y| after each of `steps` backward Euler steps of size h, from (1, 1).
fn implicit_y(h: f64, steps: usize) -> Result<Vec<(f64, f64)>, PbmError> {
    let mut implicit = vec![(0.0, 1.0)];
    let mut system = StiffExample::new(K, 1.0, 1.0)?;
    for n in 1..=steps {
        backward_euler_step(&mut system, h)?;
        implicit.push((n as f64, state_of(&system)[1].abs().max(1e-300)));
    }
    Ok(implicit)
}

/// The stiffness figure's two legends: the runs past the explicit limits, and the
/// runs that crawl.
fn blowup_legends(h_euler: f64, h_rk4: f64) -> [Legend; 2] {
    let ms = |h: f64| format!("{:.2} ms", h * 1e3);
    [
        vec![
            (
                format!("Euler, h = {}", ms(h_euler)),
                Swatch::Line(color(0), LINE_WIDTH),
            ),
            (format!("RK4, h = {}", ms(h_rk4)), Swatch::Line(color(1), LINE_WIDTH)),
            (
                format!("backward Euler, h = {}", ms(h_rk4)),
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
    ]
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
            palette_lines(&mut chart, runs.iter().map(|(_, track)| track))?;
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

/// The sheet-frames figure's frame: its time, the grid lines of each run, and the
/// farthest any particle is between the runs (m).
type SheetFrame = (f64, Vec<Vec<Vec<(f64, f64)>>>, f64);

/// The 32 × 32 sheet run to each of `times` at step `h`, solved tightly and as a
/// frame would be ([`Solve::TIGHT`], [`Solve::FRAME`]): the frames, and each run's
/// CG iterations per step.
fn sheet_runs(
    n: usize,
    h: f64,
    times: &[f64],
) -> Result<(Vec<SheetFrame>, [f64; 2]), PbmError> {
    let mut frames = Vec::new();
    let mut models = Vec::new();
    for solve in [Solve::TIGHT, Solve::FRAME] {
        let mut model = sheet(n, 1000.0)?;
        model.cg_tolerance = solve.tolerance;
        model.warm_start = solve.warm_start;
        model.preconditioner = solve.preconditioner;
        models.push(model);
    }
    let mut iterations = [0usize; 2];
    let mut steps = 0;
    for &t in times {
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
    Ok((frames, iterations.map(|its| its as f64 / steps as f64)))
}

fn sheet_frames() -> Result<Vec<Drawing>, PbmError> {
    let (n, h) = (32, 1.0 / 30.0);
    let (frames, mean) = sheet_runs(n, h, &[0.25, 0.5, 1.0, 2.0])?;
    require_finite(
        frames
            .iter()
            .flat_map(|f| f.1.iter().flatten().flatten().flat_map(|p| [p.0, p.1])),
    )?;
    draw_figure([420, 1500], |root, layout| {
        let title = format!(
            "A 32 × 32 sheet pinned at two corners, seen from the front, backward Euler at h = 1/30 s, multigrid-preconditioned CG to 10 digits from zero ({:.0} iterations a step) and to 3 digits from the last step's Δv ({:.0})",
            mean[0], mean[1]
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
