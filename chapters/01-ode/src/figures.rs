//! The chapter's figures. Each computes its data with the chapter's own functions and
//! draws it with the shared style of `pbm_prelim::plot`.

use crate::adaptive::integrate_adaptive;
use crate::convergence::log_log_slope;
use crate::convergence::{
    ADAPTIVE_ECCENTRICITY, AdaptiveMethod, CONVERGENCE_ECCENTRICITY,
    DOPRI_TOLERANCES, DOUBLING_TOLERANCES, adaptive_sweep, error_curve,
    fit_step_counts, orbit_error,
};
use crate::runge_kutta::{integrate, step_count};
use crate::scenes::{
    Decay, KEPLER_PERIOD, circle_field, kepler_exact, kepler_orbit, pendulum,
    pendulum_derivative,
};
use crate::stability::{euler_decay, predicted_regime};
use crate::symplectic::{SYMPLECTIC_EVALUATIONS, SYMPLECTIC_ORBITS};
use crate::tableau::{ButcherTableau, DORMAND_PRINCE, EULER, MIDPOINT, RK4};
use pbm_prelim::plot::prelude::*;

/// Every figure of the chapter, in reading order.
pub fn all() -> Vec<Figure> {
    vec![
        Figure::new(
            "vector-field",
            "A vector field and some of its integral curves",
            vector_field,
        ),
        Figure::new(
            "euler-spiral",
            "Euler spirals outward on a circular field",
            euler_spiral,
        ),
        Figure::new("stability", "Euler on x' = -kx: three regimes of h", stability),
        Figure::new("convergence", "Global error against step size", convergence),
        Figure::new(
            "work-precision",
            "Accuracy bought per derivative evaluation",
            work_precision,
        )
        .heavy(),
        Figure::new(
            "adaptive-steps",
            "Where an adaptive method spends its steps",
            adaptive_steps,
        ),
        Figure::new(
            "dense-output",
            "Frames between the steps: a cubic through the step ends against straight lines",
            dense_output,
        ),
        Figure::new(
            "symplectic",
            "Energy over a hundred orbits: Verlet's bounded error against Dormand-Prince's drift",
            symplectic,
        ),
    ]
}

/// Trajectory of `system` under RK4 with small steps, as planar points.
fn fine_curve(
    theta0: f64,
    omega0: f64,
    t_end: f64,
) -> Result<Vec<(f64, f64)>, PbmError> {
    let h = 0.01;
    let states =
        integrate(&mut pendulum(theta0, omega0)?, RK4, h, step_count(h, t_end)?)?;
    Ok(states.iter().map(|s| (s[0], s[1])).collect())
}

fn vector_field() -> Result<Vec<Drawing>, PbmError> {
    let (x_range, y_range) = (-4.0..4.0, -3.0..3.0);
    // Starting points, each followed for long enough to show where it goes but not so
    // long that it runs into another's curve: every curve that stays in the picture
    // ends in the same spiral about the rest point, so only one is followed into it.
    let starts = [
        (-3.5, 2.6, 3.5),
        (3.0, 0.0, 30.0),
        (-1.5, -2.8, 30.0),
        (0.5, 2.9, 30.0),
        (3.9, -1.0, 2.5),
    ];
    let inside = |p: &(f64, f64)| x_range.contains(&p.0) && y_range.contains(&p.1);
    let curves: Vec<Vec<(f64, f64)>> = starts
        .iter()
        .map(|&(a, b, t)| {
            fine_curve(a, b, t).map(|c| c.into_iter().take_while(inside).collect())
        })
        .collect::<Result<_, _>>()?;
    require_finite(curves.iter().flatten().flat_map(|p| [p.0, p.1]))?;
    let arrow_style = REFERENCE.mix(0.45).stroke_width(1);
    let legend: Legend = vec![
        ("direction of f(x) at grid points".into(), Swatch::Line(REFERENCE, 1)),
        (
            "integral curves, one colour per start (dot)".into(),
            Swatch::Line(color(0), LINE_WIDTH),
        ),
    ];
    titled_figure(
        [520, 420],
        "Damped pendulum: θ′ = ω, ω′ = −sin θ − ω/4",
        |root, layout| {
            let plot = legend_below(root, &legend)?;
            let mut chart = chart_on(&plot)
                .build_cartesian_2d(x_range.clone(), y_range.clone())?;
            axes(&mut chart, "angle θ (rad)", "angular velocity ω (rad/s)")
                .disable_mesh()
                .draw()?;
            // Arrows of equal length show the field's direction on a grid (coarser on
            // a phone).
            let arrows = direction_arrows(layout.pick(0.4, 0.6));
            chart.draw_series(
                arrows.into_iter().map(|a| PathElement::new(a, arrow_style)),
            )?;
            for (i, curve) in curves.iter().enumerate() {
                line(&mut chart, curve, color(i), LINE_WIDTH)?;
                dots(&mut chart, &curve[..1], 5, color(i))?;
            }
            Ok(())
        },
    )
}

/// The pendulum's field as arrows of equal length on a grid of `spacing` over the
/// vector-field figure's window, each a shaft and a head: at the cell centres, half
/// a spacing in from the edges, so that no arrow (at most 0.75 spacing long) crosses
/// the frame.
fn direction_arrows(spacing: f64) -> Vec<Vec<(f64, f64)>> {
    let mut arrows = Vec::new();
    let (nx, ny) = ((8.0 / spacing) as i32, (6.0 / spacing) as i32);
    for i in 0..nx {
        for j in 0..ny {
            let (x, y) = (
                -4.0 + spacing * (f64::from(i) + 0.5),
                -3.0 + spacing * (f64::from(j) + 0.5),
            );
            let mut d = [0.0; 2];
            pendulum_derivative(0.0, &[x, y], &mut d);
            let len = d[0].hypot(d[1]);
            if len < 1e-9 {
                continue;
            }
            let (ux, uy) = (0.75 * spacing * d[0] / len, 0.75 * spacing * d[1] / len);
            let tip = (x + ux / 2.0, y + uy / 2.0);
            let tail = (x - ux / 2.0, y - uy / 2.0);
            let (bx, by) = (tip.0 - 0.35 * ux, tip.1 - 0.35 * uy);
            let (px, py) = (-0.2 * uy, 0.2 * ux);
            arrows.push(vec![tail, tip]);
            arrows.push(vec![(bx + px, by + py), tip, (bx - px, by - py)]);
        }
    }
    arrows
}

fn euler_spiral() -> Result<Vec<Drawing>, PbmError> {
    let turn = KEPLER_PERIOD; // 2π: one revolution of the exact solution
    let runs: Vec<(String, ButcherTableau, f64)> = vec![
        ("Euler, h = 0.4".into(), EULER, 0.4),
        ("Euler, h = 0.2".into(), EULER, 0.2),
        ("Euler, h = 0.1".into(), EULER, 0.1),
        ("midpoint, h = 0.4".into(), MIDPOINT, 0.4),
        ("RK4, h = 0.4".into(), RK4, 0.4),
    ];
    let mut paths = Vec::new();
    for (label, tableau, h) in &runs {
        let steps = step_count(*h, turn)?;
        let states = integrate(&mut circle_field(1.0, 0.0)?, *tableau, *h, steps)?;
        let pts: Vec<(f64, f64)> = states.iter().map(|s| (s[0], s[1])).collect();
        require_finite(pts.iter().flat_map(|p| [p.0, p.1]))?;
        paths.push((label.clone(), pts));
    }
    let circle: Vec<(f64, f64)> = (0..=200)
        .map(|i| f64::from(i) * turn / 200.0)
        .map(|a| (a.cos(), a.sin()))
        .collect();
    titled_figure(
        [640, 600],
        "One turn of the circular field f(x, y) = (−y, x)",
        |root, _| {
            let mut legend: Legend =
                series_legend(&paths, Swatch::LineDots, LINE_WIDTH, |(label, _)| {
                    label.clone()
                });
            legend.push((
                "exact (unit circle), drawn on top".into(),
                Swatch::Dashed(REFERENCE, LINE_WIDTH + 1),
            ));
            let plot = legend_below(root, &legend)?;
            let (xr, yr) = equal_scale(&plot, -3.5..3.5, -3.5..3.5);
            let mut chart = chart_on(&plot).build_cartesian_2d(xr, yr)?;
            axes(&mut chart, "x", "y").draw()?;
            for (i, (_, pts)) in paths.iter().enumerate() {
                line_and_dots(&mut chart, pts, (color(i), LINE_WIDTH), 2)?;
            }
            // The exact circle last, so the curves that follow it do not hide it.
            dashed_line(&mut chart, &circle, REFERENCE, LINE_WIDTH + 1)?;
            Ok(())
        },
    )
}

fn stability() -> Result<Vec<Drawing>, PbmError> {
    let k = 10.0;
    let decay = Decay::new(k)?;
    let cases = [0.05, 0.15, 0.25];
    let t_end = 2.0;
    let mut data = Vec::new();
    for h in cases {
        let (xs, _) = euler_decay(k, h, step_count(h, t_end)?)?;
        require_finite(xs.iter().copied())?;
        data.push((h, xs));
    }
    let exact: Vec<(f64, f64)> = (0..=200)
        .map(|j| f64::from(j) * t_end / 200.0)
        .map(|t| (t, decay.exact(1.0, t)))
        .collect();
    titled_figure(
        [400, 900],
        "Euler on x′ = −10 x from x(0) = 1: off to Neptune",
        |root, layout| {
            let legend: Legend = vec![
                (
                    "Euler (dots: step ends)".into(),
                    Swatch::LineDots(color(0), LINE_WIDTH),
                ),
                (
                    format!("exact e{}", sup("−kt")),
                    Swatch::Dashed(REFERENCE, LINE_WIDTH),
                ),
            ];
            let root = legend_below(root, &legend)?;
            for (panel, (i, (h, xs))) in
                panels(&root, layout, 3, 3).iter().zip(data.iter().enumerate())
            {
                let y_max = xs.iter().fold(1.0f64, |m, x| m.max(x.abs())) * 1.15;
                let regime = predicted_regime(k, *h).as_str();
                let panel = titled(
                    panel,
                    &format!("({}) h = {h} s: {regime}", ["a", "b", "c"][i]),
                    &label_font(),
                )?;
                let mut chart = chart_on(&panel)
                    .y_label_area_size(layout.pick(52, 64))
                    .build_cartesian_2d(0.0..t_end, -y_max..y_max)?;
                axes(&mut chart, "time t (s)", "x").draw()?;
                dashed_line(&mut chart, &exact, REFERENCE, LINE_WIDTH)?;
                let pts: Vec<(f64, f64)> =
                    xs.iter().enumerate().map(|(n, x)| (n as f64 * h, *x)).collect();
                line_and_dots(&mut chart, &pts, (color(i), LINE_WIDTH), 3)?;
            }
            Ok(())
        },
    )
}

/// Step counts of the convergence figure: 2^4 to 2^20 steps per orbit.
fn figure_step_counts() -> Vec<usize> {
    (4..=20).map(|k| 1usize << k).collect()
}

fn convergence() -> Result<Vec<Drawing>, PbmError> {
    let e = CONVERGENCE_ECCENTRICITY;
    let mut series = Vec::new();
    for tableau in [EULER, MIDPOINT, RK4] {
        // Steps too large to survive one orbit are left out of the picture, not
        // plotted as NaN.
        let curve: Vec<(f64, f64)> = figure_step_counts()
            .into_iter()
            .filter_map(|n| {
                orbit_error(tableau, e, n)
                    .ok()
                    .map(|err| (KEPLER_PERIOD / n as f64, err))
            })
            .filter(|(_, err)| *err < 3.0)
            .collect();
        let slope =
            log_log_slope(&error_curve(tableau, e, &fit_step_counts(&tableau))?);
        series.push((tableau.name, curve, slope));
    }
    titled_figure(
        [520, 520],
        &format!("Error after one orbit (eccentricity {e}), fixed steps"),
        |root, _| {
            let legend: Legend = series_legend(
                &series,
                Swatch::LineDots,
                LINE_WIDTH,
                |(name, _, slope)| format!("{name}: measured slope {slope:.2}"),
            );
            let plot = legend_below(root, &legend)?;
            let mut chart = chart_on(&plot).build_cartesian_2d(
                (3e-6..0.6).log_scale(),
                (1e-14..10.0).log_scale(),
            )?;
            log_log_axes(
                &mut chart,
                "step size h (s)",
                &format!("global error |x(T) − x{}(T)|", sub("exact")),
            )?;
            for (i, (_, curve, _)) in series.iter().enumerate() {
                line_and_dots(&mut chart, curve, (color(i), LINE_WIDTH), 3)?;
            }
            Ok(())
        },
    )
}

/// One curve of the work-precision diagram.
struct Series {
    name: String,
    points: Vec<(f64, f64)>,
    adaptive: bool,
}

impl Series {
    /// Its legend entry: squares for an adaptive method, dots for a fixed step.
    fn swatch(&self, c: RGBColor) -> Swatch {
        if self.adaptive {
            Swatch::LineSquares(c, LINE_WIDTH + 1)
        } else {
            Swatch::LineDots(c, LINE_WIDTH)
        }
    }
}

/// The work-precision diagram's fixed-step curves: each method at 2^5 to 2^24 steps
/// per orbit, as (derivative evaluations, error), within 2^23 evaluations.
fn fixed_step_series(e: f64) -> Vec<Series> {
    [EULER, MIDPOINT, RK4, DORMAND_PRINCE]
        .into_iter()
        .map(|tableau| {
            let points = (5..=24)
                .map(|k| 1usize << k)
                .filter(|&n| tableau.evaluations_for(n) <= 1 << 23)
                .filter_map(|n| {
                    orbit_error(tableau, e, n)
                        .ok()
                        .map(|err| (tableau.evaluations_for(n) as f64, err))
                })
                .filter(|(_, err)| (1e-12..10.0).contains(err))
                .collect();
            Series {
                name: format!("{}, fixed h", tableau.name),
                points,
                adaptive: false,
            }
        })
        .collect()
}

/// The work-precision diagram's adaptive curves: the same runs as the
/// `ode/work-precision` exercise the caption quotes.
fn adaptive_series(e: f64) -> Result<Vec<Series>, PbmError> {
    let methods = [
        (
            AdaptiveMethod::EulerDoubling,
            "Euler + step doubling",
            &DOUBLING_TOLERANCES[..],
        ),
        (
            AdaptiveMethod::DormandPrince,
            "Dormand-Prince, adaptive",
            &DOPRI_TOLERANCES[..],
        ),
    ];
    methods
        .into_iter()
        .map(|(method, name, tols)| {
            let points = adaptive_sweep(method, e, tols)?
                .into_iter()
                .map(|p| (p.evaluations as f64, p.final_error))
                .filter(|(_, err)| (1e-12..10.0).contains(err))
                .collect();
            Ok(Series { name: name.to_string(), points, adaptive: true })
        })
        .collect()
}

/// A square mark at `p` on log-log axes: 1.08 times wide and 1.2 times high.
fn square(p: (f64, f64), c: RGBColor) -> Rectangle<(f64, f64)> {
    Rectangle::new([(p.0 / 1.08, p.1 / 1.2), (p.0 * 1.08, p.1 * 1.2)], c.filled())
}

fn work_precision() -> Result<Vec<Drawing>, PbmError> {
    let e = ADAPTIVE_ECCENTRICITY;
    let mut series = fixed_step_series(e);
    series.extend(adaptive_series(e)?);
    require_finite(
        series.iter().flat_map(|s| s.points.iter().flat_map(|p| [p.0, p.1])),
    )?;
    let legend: Legend = (series.iter().enumerate())
        .map(|(i, s)| (s.name.clone(), s.swatch(color(i))))
        .collect();
    titled_figure(
        [540, 560],
        &format!("One orbit of eccentricity {e}: cost against accuracy"),
        |root, _| {
            let plot = legend_below(root, &legend)?;
            let mut chart = chart_on(&plot).build_cartesian_2d(
                (30.0..3e7).log_scale(),
                (1e-12..10.0).log_scale(),
            )?;
            log_log_axes(
                &mut chart,
                "derivative evaluations",
                "global error after one orbit",
            )?;
            for (i, Series { points, adaptive, .. }) in series.iter().enumerate() {
                if *adaptive {
                    line(&mut chart, points, color(i), LINE_WIDTH + 1)?;
                    chart.draw_series(points.iter().map(|p| square(*p, color(i))))?;
                } else {
                    line_and_dots(&mut chart, points, (color(i), LINE_WIDTH), 3)?;
                }
            }
            Ok(())
        },
    )
}

/// Dormand-Prince's accepted steps over one orbit of eccentricity `e` at `tol`: the
/// position at the start of every accepted step (found by replaying the accepted
/// steps), and each step as (t, h).
fn accepted_steps(e: f64, tol: f64) -> Result<StepsAlong, PbmError> {
    let control = crate::adaptive::Controller::new(tol)?;
    let mut orbit = kepler_orbit(e)?;
    let mut stepper = AdaptiveMethod::DormandPrince.stepper()?;
    let run = integrate_adaptive(
        &mut orbit,
        stepper.as_mut(),
        &control,
        (crate::convergence::ADAPTIVE_FIRST_STEP, KEPLER_PERIOD),
    )?;
    let mut replay = kepler_orbit(e)?;
    let mut rk = crate::runge_kutta::RungeKutta::new(DORMAND_PRINCE);
    let mut positions = vec![replay_pos(&replay)];
    for &(_, h, _) in &run.accepted {
        rk.step(&mut replay, h)?;
        positions.push(replay_pos(&replay));
    }
    let steps = run.accepted.iter().map(|&(t, h, _)| (t, h)).collect();
    Ok((positions, steps))
}

/// Where an adaptive run's steps start, and each step as (t, h).
type StepsAlong = (Vec<(f64, f64)>, Vec<(f64, f64)>);

fn adaptive_steps() -> Result<Vec<Drawing>, PbmError> {
    let (e, tol) = (ADAPTIVE_ECCENTRICITY, 1e-6);
    let (positions, steps) = accepted_steps(e, tol)?;
    require_finite(positions.iter().chain(steps.iter()).flat_map(|p| [p.0, p.1]))?;
    let h_max = steps.iter().fold(0.0f64, |m, s| m.max(s.1)) * 1.5;
    let h_min = steps.iter().fold(f64::INFINITY, |m, s| m.min(s.1)) / 1.5;
    let legend: Legend = vec![
        ("step ends".into(), Swatch::Dot(color(0), 3)),
        ("sun".into(), Swatch::Dot(color(4), 6)),
    ];
    titled_figure(
        [460, 820],
        &format!(
            "Dormand-Prince at tol = {tol:e} on an orbit of eccentricity {e}: {} steps",
            steps.len()
        ),
        |root, layout| {
            // Wide: one legend under both panels, so their axes line up; narrow:
            // under the orbit.
            // (Not `layout.pick(legend_below(..), ..)`: that would draw the legend in
            // both layouts, since both arguments are evaluated.)
            let wide = layout.pick(true, false);
            let root = if wide { legend_below(root, &legend)? } else { root.clone() };
            let [left, right] = titled_panels(
                &root,
                layout,
                [
                    "(a) the orbit, a dot per step end",
                    "(b) step size along the orbit",
                ],
            )?;
            let left = if wide { left } else { legend_below(&left, &legend)? };
            let (xr, yr) = equal_scale(&left, -2.1..0.4, -1.05..1.05);
            let mut orbit_chart =
                chart_on(&left).y_label_area_size(52).build_cartesian_2d(xr, yr)?;
            axes(&mut orbit_chart, "x", "y").draw()?;
            line_and_dots(&mut orbit_chart, &positions, (color(0), 1), 3)?;
            dots(&mut orbit_chart, &[(0.0, 0.0)], 6, color(4))?;
            let mut h_chart = chart_on(&right)
                .build_cartesian_2d(0.0..KEPLER_PERIOD, (h_min..h_max).log_scale())?;
            // A logarithmic axis: the steps span a factor of almost 300, and on a
            // linear one the small steps near the sun are a flat line at zero.
            axes(
                &mut h_chart,
                "time t (s); perihelion at 0 and 2π",
                "accepted step h (s), log scale",
            )
            .y_label_formatter(&power_of_ten)
            .draw()?;
            line_and_dots(&mut h_chart, &steps, (color(1), LINE_WIDTH), 3)
        },
    )
}

fn replay_pos(orbit: &crate::scenes::Field) -> (f64, f64) {
    let s = crate::system::state_of(orbit);
    (s[0], s[1])
}

/// The tolerances of the dense-output figure: loose, so that the steps are few and
/// long enough to see.
pub const DENSE_FIGURE_RTOL: f64 = 1e-4;

/// What the dense-output figure draws: on the far side of the orbit, the exact
/// curve, the step ends and the frames on straight lines and on the cubic; over the
/// whole orbit, each frame's and each step end's distance from the exact position.
struct DenseFrames {
    truth: Vec<(f64, f64)>,
    ends: Vec<(f64, f64)>,
    linear: Vec<(f64, f64)>,
    cubic: Vec<(f64, f64)>,
    linear_err: Vec<(f64, f64)>,
    cubic_err: Vec<(f64, f64)>,
    step_err: Vec<(f64, f64)>,
    /// Frames drawn, and steps taken.
    counts: (usize, usize),
}

fn dense_frames(e: f64) -> Result<DenseFrames, PbmError> {
    use crate::step_control::{Control, Tolerance, dense_run};
    let tol = Tolerance::new(DENSE_FIGURE_RTOL * 1e-2, DENSE_FIGURE_RTOL)?;
    let run = dense_run(
        &mut kepler_orbit(e)?,
        (tol, Control::ProportionalIntegral),
        (1e-3, KEPLER_PERIOD),
        600,
    )?;
    let exact: Vec<[f64; 4]> =
        run.times.iter().map(|t| kepler_exact(e, *t)).collect();
    let xy = |s: &[f64]| (s[0], s[1]);
    // Panel (a) shows the far side, where the steps are longest: the frames and
    // step ends of the middle half of the orbit (the exact curve over the same time).
    let far = |t: f64| (0.3 * KEPLER_PERIOD..=0.7 * KEPLER_PERIOD).contains(&t);
    let frames_on = |states: &[Vec<f64>]| -> Vec<(f64, f64)> {
        run.times
            .iter()
            .zip(states)
            .filter(|(t, _)| far(**t))
            .map(|(_, s)| xy(s))
            .collect()
    };
    let truth: Vec<(f64, f64)> = (0..=2000)
        .map(|i| KEPLER_PERIOD * f64::from(i) / 2000.0)
        .filter(|t| far(*t))
        .map(|t| xy(&kepler_exact(e, t)))
        .collect();
    let miss = |s: &[f64], x: &[f64; 4]| (s[0] - x[0]).hypot(s[1] - x[1]).max(1e-12);
    let error = |states: &[Vec<f64>]| -> Vec<(f64, f64)> {
        run.times
            .iter()
            .zip(states)
            .zip(&exact)
            .map(|((t, s), x)| (*t, miss(s, x)))
            .collect()
    };
    Ok(DenseFrames {
        truth,
        ends: run.steps.iter().filter(|(t, _)| far(*t)).map(|(_, s)| xy(s)).collect(),
        linear: frames_on(&run.linear),
        cubic: frames_on(&run.cubic),
        linear_err: error(&run.linear),
        cubic_err: error(&run.cubic),
        step_err: run
            .steps
            .iter()
            .map(|(t, s)| (*t, miss(s, &kepler_exact(e, *t))))
            .collect(),
        counts: (run.times.len(), run.run.accepted),
    })
}

fn dense_output() -> Result<Vec<Drawing>, PbmError> {
    let e = ADAPTIVE_ECCENTRICITY;
    let d = dense_frames(e)?;
    require_finite(
        d.cubic.iter().chain(&d.linear).chain(&d.linear_err).flat_map(|p| [p.0, p.1]),
    )?;
    let legend: Legend = vec![
        ("exact orbit (Kepler's equation)".into(), Swatch::Line(REFERENCE, 1)),
        ("step ends".into(), Swatch::Dot(color(4), 4)),
        (
            "frames on straight lines between steps".into(),
            Swatch::Line(color(1), LINE_WIDTH),
        ),
        ("frames on the Hermite cubic".into(), Swatch::Line(color(0), LINE_WIDTH)),
    ];
    let (frames, steps) = d.counts;
    titled_figure(
        [460, 820],
        &format!(
            "{frames} frames from {steps} steps (rtol = {DENSE_FIGURE_RTOL:e}, e = {e})"
        ),
        |root, layout| {
            let root = legend_below(root, &legend)?;
            let [left, right] = titled_panels(
                &root,
                layout,
                [
                    "(a) the far side, where steps are longest",
                    "(b) position error at each frame",
                ],
            )?;
            let (xr, yr) = equal_scale(&left, -1.93..-1.68, -0.3..0.3);
            let mut orbit =
                chart_on(&left).y_label_area_size(52).build_cartesian_2d(xr, yr)?;
            axes(&mut orbit, "x (semi-major axes)", "y").draw()?;
            line(&mut orbit, &d.truth, REFERENCE, 1)?;
            line(&mut orbit, &d.linear, color(1), LINE_WIDTH)?;
            line(&mut orbit, &d.cubic, color(0), LINE_WIDTH)?;
            dots(&mut orbit, &d.ends, 4, color(4))?;
            let mut err = chart_on(&right)
                .build_cartesian_2d(0.0..KEPLER_PERIOD, (1e-7..1.0).log_scale())?;
            axes(
                &mut err,
                "time t (orbit period 2π)",
                "distance from the exact position, log scale",
            )
            .y_label_formatter(&power_of_ten)
            .draw()?;
            line(&mut err, &d.linear_err, color(1), LINE_WIDTH)?;
            line(&mut err, &d.cubic_err, color(0), LINE_WIDTH)?;
            dots(&mut err, &d.step_err, 4, color(4))
        },
    )
}

fn symplectic() -> Result<Vec<Drawing>, PbmError> {
    use crate::symplectic::{dopri_orbit, verlet_orbit};
    let (e, orbits, n) =
        (ADAPTIVE_ECCENTRICITY, SYMPLECTIC_ORBITS, SYMPLECTIC_EVALUATIONS);
    let verlet = verlet_orbit(e, orbits, n, n)?;
    let dopri = dopri_orbit(e, orbits, n / 6, n / 6)?;
    // The lowest and the highest error of each orbit, against orbits completed.
    type Window = (f64, f64, f64);
    let band = |r: &crate::symplectic::EnergyRecord, pick: fn(&Window) -> f64| {
        r.windows.iter().map(|w| (w.0 / KEPLER_PERIOD, pick(w))).collect::<Vec<_>>()
    };
    let low: fn(&Window) -> f64 = |w| w.1;
    let high: fn(&Window) -> f64 = |w| w.2;
    let (v_low, v_high) = (band(&verlet, low), band(&verlet, high));
    let (d_low, d_high) = (band(&dopri, low), band(&dopri, high));
    require_finite(
        v_low
            .iter()
            .chain(&d_low)
            .chain(&v_high)
            .chain(&d_high)
            .flat_map(|p| [p.0, p.1]),
    )?;
    let all = v_low.iter().chain(&d_low).chain(&v_high).chain(&d_high);
    let (lo, hi) = all.fold((0.0f64, 0.0f64), |(a, b), p| (a.min(p.1), b.max(p.1)));
    let pad = 0.08 * (hi - lo);
    titled_figure(
        [560, 420],
        &format!("{n} force evaluations per orbit each, e = {e}, E₀ = −1/2"),
        |root, _| {
            let legend: Legend = vec![
                (
                    "Störmer–Verlet, one evaluation a step".into(),
                    Swatch::Line(color(0), LINE_WIDTH),
                ),
                (
                    "Dormand–Prince, six a step (a sixth of the steps)".into(),
                    Swatch::Line(color(1), LINE_WIDTH),
                ),
            ];
            let plot = legend_below(root, &legend)?;
            let mut chart = chart_on(&plot)
                .y_label_area_size(80)
                .build_cartesian_2d(0.0..orbits as f64, (lo - pad)..(hi + pad))?;
            axes(&mut chart, "orbits completed", "energy error E − E₀")
                .x_label_formatter(&|v| format!("{v:.0}"))
                .draw()?;
            for (low, high, c) in
                [(&v_low, &v_high, color(0)), (&d_low, &d_high, color(1))]
            {
                line(&mut chart, low, c, LINE_WIDTH)?;
                line(&mut chart, high, c, LINE_WIDTH)?;
            }
            Ok(())
        },
    )
}
