//! The chapter's figures, computed with the chapter's own code.

use crate::dantzig::dantzig_traced;
use crate::lcp::{Bounds, Kind, random_problem, solve_bounded};
use crate::scenes;
use crate::scenes::{orbit, run_stack, slip};
use crate::singular::sweep;
use crate::world::Settings;
use pbm_collision::figures::parts::{labels, shape, tenths_axes};
use pbm_particles::forces::G;
use pbm_prelim::plot::prelude::*;

/// Every figure of the chapter, in reading order.
pub fn all() -> Vec<Figure> {
    vec![
        Figure::new(
            "complementarity",
            "The conditions of a contact and of a friction row",
            complementarity,
        ),
        Figure::new(
            "pivoting-trace",
            "Dantzig's pivoting, step by step",
            pivoting_trace,
        ),
        Figure::new(
            "impulse-geometry",
            "An impulse at a box's corner",
            impulse_geometry,
        ),
        Figure::new("drop-energy", "A dropped box's energy", drop_energy),
        Figure::new("bounce-series", "Bounces against their series", bounce_series),
        Figure::new("incline-slip", "Slip against slope", incline_slip),
        Figure::new(
            "friction-pyramid",
            "Friction under the pyramid of bounds",
            friction_pyramid,
        ),
        Figure::new("stack-drift", "Ten boxes resting for ten seconds", stack_drift)
            .heavy(),
        Figure::new(
            "turntable-orbit",
            "A ball on a turntable, seen from above",
            turntable_orbit,
        ),
        Figure::new("seesaw-tilt", "A see-saw tipping, against cosh", seesaw_tilt),
        Figure::new(
            "singular-forces",
            "Leg forces of a table on four legs",
            singular_forces,
        ),
    ]
}

fn drop_energy() -> Result<Vec<pbm_prelim::plot::Drawing>, PbmError> {
    let mut runs = Vec::new();
    for e in [1.0, 0.5, 0.0] {
        let mut world =
            scenes::drop(0.5, Settings { restitution: e, ..Settings::default() })?;
        let mut curve = vec![(0.0, world.energy())];
        world.run_until(2.0, |w| curve.push((w.time(), w.energy())))?;
        require_finite(curve.iter().map(|p| p.1))?;
        runs.push((e, curve, world.stats().impacts));
    }
    let top = runs[0].1[0].1;
    titled_figure(
        [460, 560],
        "A 0.4 × 0.2 × 0.3 m box of 1 kg dropped corner-first from 0.5 m",
        |root, _| {
            let legend: Legend =
                series_legend(&runs, Swatch::Line, LINE_WIDTH, |(e, _, n)| {
                    format!("e = {e}: {n} impacts")
                });
            let root = legend_below(root, &legend)?;
            let mut chart =
                chart_on(&root).build_cartesian_2d(0.0..2.0, 0.0..top * 1.1)?;
            axes(&mut chart, "time (s)", "kinetic + potential energy (J)")
                .x_label_formatter(&|t| format!("{t:.1}"))
                .y_label_formatter(&|e| format!("{e:.0}"))
                .draw()?;
            palette_lines(&mut chart, runs.iter().map(|(_, curve, _)| curve))?;
            Ok(())
        },
    )
}

fn bounce_series() -> Result<Vec<pbm_prelim::plot::Drawing>, PbmError> {
    let (height, e) = (0.5, 0.5);
    let settings = Settings { restitution: e, ..Settings::default() };
    let slowest = settings.bounce_steps * G * settings.h;
    let mut world = scenes::flat_drop(height, settings)?;
    let bottom = |w: &crate::world::World| {
        w.bodies()[0].position().y - 0.5 * scenes::DROP_SIZE.y
    };
    let mut curve = vec![(0.0, bottom(&world))];
    let mut impacts = Vec::new();
    world.run_until(1.2, |w| {
        curve.push((w.time(), bottom(w)));
        if w.stats().impacts > impacts.len() {
            impacts.push(w.time());
        }
    })?;
    require_finite(curve.iter().map(|p| p.1))?;
    let predicted = scenes::landings(height, e, G, slowest);
    let rest = scenes::bounce_series(height, e, G).unwrap_or(f64::NAN);
    titled_figure(
        [480, 600],
        "A 0.4 × 0.2 × 0.3 m box of 1 kg dropped flat from 0.5 m, e = 0.5",
        |root, _| {
            let legend: Legend = vec![
                (
                    "height of its lower face, simulated".into(),
                    Swatch::Line(color(0), LINE_WIDTH),
                ),
                (
                    format!(
                        "landings the series predicts, down to {slowest:.2} m/s (below it e = 0)"
                    ),
                    Swatch::Dashed(REFERENCE, 1),
                ),
                (format!("the series' sum, {rest:.3} s"), Swatch::Line(color(1), 2)),
                ("impacts in the simulation".into(), Swatch::Dot(color(2), 4)),
            ];
            let root = legend_below(root, &legend)?;
            let mut chart =
                chart_on(&root).build_cartesian_2d(0.0..1.2, 0.0..0.55)?;
            axes(&mut chart, "time (s)", "height above the ground (m)").draw()?;
            for &(t, _) in &predicted {
                dashed_line(&mut chart, &[(t, 0.0), (t, 0.55)], REFERENCE, 1)?;
            }
            line(&mut chart, &[(rest, 0.0), (rest, 0.55)], color(1), 2)?;
            line(&mut chart, &curve, color(0), LINE_WIDTH)?;
            chart.draw_series(
                impacts.iter().map(|&t| Circle::new((t, 0.0), 4, color(2).filled())),
            )?;
            Ok(())
        },
    )
}

fn seesaw_tilt() -> Result<Vec<pbm_prelim::plot::Drawing>, PbmError> {
    // The exercise's default see-saw: 5 % more on the left than balances.
    let (left, right) = ((1.05, 1.2), (2.0, 0.6));
    let settings =
        Settings { friction: 0.5, restitution: 0.0, ..Settings::default() };
    let mut world = scenes::seesaw(left, right, settings)?;
    let tilt = |w: &crate::world::World| {
        w.bodies()[0].rotation()[(1, 0)].asin().to_degrees()
    };
    let mut simulated = vec![(0.0, 0.0)];
    world.run_until(1.6, |w| simulated.push((w.time(), tilt(w))))?;
    require_finite(simulated.iter().map(|p| p.1))?;
    let (height, plank, ..) = scenes::SEESAW;
    let landed = (height / (0.5 * plank.x)).asin().to_degrees();
    let theory: Vec<(f64, f64)> = (0..=160)
        .map(|i| {
            let t = f64::from(i) * 0.01;
            (t, scenes::seesaw_tilt(left, right, G, t).to_degrees())
        })
        .take_while(|&(_, deg)| deg <= landed * 1.05)
        .collect();
    titled_figure(
        [460, 560],
        "A 3 m plank on a ridge: 1.05 kg at 1.2 m against 2 kg at 0.6 m",
        |root, _| {
            let legend: Legend = vec![
                ("tilt, simulated".into(), Swatch::Line(color(0), LINE_WIDTH + 2)),
                (
                    "(τ/k)(cosh √(k/I) t − 1), small angles, drawn on top".into(),
                    Swatch::Dashed(REFERENCE, LINE_WIDTH),
                ),
                (
                    format!("plank's end on the ground, {landed:.2}°"),
                    Swatch::Line(color(1), 1),
                ),
            ];
            let root = legend_below(root, &legend)?;
            let mut chart =
                chart_on(&root).build_cartesian_2d(0.0..1.6, 0.0..14.0)?;
            axes(&mut chart, "time (s)", "tilt θ (degrees)").draw()?;
            line(&mut chart, &[(0.0, landed), (1.6, landed)], color(1), 1)?;
            line(&mut chart, &simulated, color(0), LINE_WIDTH + 2)?;
            dashed_line(&mut chart, &theory, REFERENCE, LINE_WIDTH)?;
            Ok(())
        },
    )
}

fn incline_slip() -> Result<Vec<pbm_prelim::plot::Drawing>, PbmError> {
    let (mu, seconds, g) = (0.5_f64, 1.0, G);
    let threshold = mu.atan().to_degrees();
    let mut measured = Vec::new();
    let mut theory = Vec::new();
    let settings = Settings { friction: mu, ..Settings::default() };
    for k in 0..=24 {
        let deg = 24.0 + 0.25 * k as f64;
        let th = deg.to_radians();
        measured.push((deg, 100.0 * slip(th, settings, seconds)?));
        let a = g * (th.sin() - mu * th.cos());
        theory.push((deg, 100.0 * (0.5 * a * seconds * seconds).max(0.0)));
    }
    require_finite(measured.iter().map(|p| p.1))?;
    let top = measured.iter().map(|p| p.1).fold(0.0, f64::max) * 1.1;
    titled_figure(
        [460, 560],
        "A block at rest on a slope, μ = 0.5: how far it slides in 1 s",
        |root, _| {
            let legend: Legend = vec![
                ("simulated".into(), Swatch::Dot(color(0), 5)),
                (
                    "½ g (sin θ − μ cos θ) t²".into(),
                    Swatch::Dashed(REFERENCE, LINE_WIDTH),
                ),
                (
                    format!("tan θ = μ: θ = {threshold:.3}°"),
                    Swatch::Line(color(1), LINE_WIDTH),
                ),
            ];
            let root = legend_below(root, &legend)?;
            let mut chart =
                chart_on(&root).build_cartesian_2d(24.0..30.0, 0.0..top)?;
            axes(&mut chart, "slope θ (degrees)", "distance slid in 1 s (cm)")
                .x_label_formatter(&|t| format!("{t:.0}"))
                .y_label_formatter(&|e| format!("{e:.0}"))
                .draw()?;
            line(
                &mut chart,
                &[(threshold, 0.0), (threshold, top)],
                color(1),
                LINE_WIDTH,
            )?;
            dashed_line(&mut chart, &theory, REFERENCE, LINE_WIDTH)?;
            dots(&mut chart, &measured, 5, color(0))?;
            Ok(())
        },
    )
}

fn stack_drift() -> Result<Vec<pbm_prelim::plot::Drawing>, PbmError> {
    let mut runs = Vec::new();
    for (mu, name) in [(0.5, "μ = 0.5"), (0.0, "frictionless")] {
        let (world, drift, curve) =
            run_stack(10, 10.0, Settings { friction: mu, ..Settings::default() })?;
        let curve: Vec<(f64, f64)> =
            curve.into_iter().map(|(t, d)| (t, d.max(1e-13))).collect();
        require_finite(curve.iter().map(|p| p.1))?;
        runs.push((name, curve, drift, world.stats().min_normal_force));
    }
    titled_figure(
        [460, 560],
        "Ten 0.5 m cubes of 1 kg stacked on the ground, h = 0.01 s: the farthest any has moved",
        |root, _| {
            let mut legend: Legend = runs
                .iter()
                .enumerate()
                .map(|(i, (name, _, drift, fmin))| {
                    let text = format!(
                        "{name}: at most {drift:.1e} m, forces ≥ {fmin:.2} N"
                    );
                    (text, Swatch::Line(color(i), LINE_WIDTH))
                })
                .collect();
            legend.push((
                "the test's limit, 1 mm".into(),
                Swatch::Dashed(REFERENCE, LINE_WIDTH),
            ));
            let root = legend_below(root, &legend)?;
            let mut chart = chart_on(&root)
                .build_cartesian_2d(0.0..10.0, (1e-13..1e-2).log_scale())?;
            axes(&mut chart, "time (s)", "largest displacement (m)")
                .x_label_formatter(&|t| format!("{t:.0}"))
                .y_label_formatter(&power_of_ten)
                .draw()?;
            dashed_line(
                &mut chart,
                &[(0.0, 1e-3), (10.0, 1e-3)],
                REFERENCE,
                LINE_WIDTH,
            )?;
            palette_lines(&mut chart, runs.iter().map(|(_, curve, _, _)| curve))?;
            Ok(())
        },
    )
}

fn singular_forces() -> Result<Vec<pbm_prelim::plot::Drawing>, PbmError> {
    let s = sweep(50.0, 0.3, 360)?;
    let deg: Vec<f64> = s.angle.iter().map(|a| a.to_degrees()).collect();
    require_finite(s.scratch.iter().chain(&s.warm).flatten().copied())?;
    let top =
        s.scratch.iter().chain(&s.warm).flatten().fold(0.0_f64, |m, &f| m.max(f))
            * 1.05;
    let held = 100.0 * s.held as f64 / (s.angle.len() - 1) as f64;
    titled_figure(
        [460, 860],
        "A 10 kg table on four legs, a 50 N load going round a 0.3 m circle",
        |root, layout| {
            let legend: Legend = [
                "leg at (−½, −½)",
                "leg at (½, −½)",
                "leg at (½, ½)",
                "leg at (−½, ½)",
            ]
            .iter()
            .enumerate()
            .map(|(i, name)| (name.to_string(), Swatch::Line(color(i), LINE_WIDTH)))
            .collect();
            let root = legend_below(root, &legend)?;
            let titles = [
                "(a) pivoting afresh at every position".to_string(),
                format!(
                    "(b) warm start, nearest the last answer (held at {held:.0} %)"
                ),
            ];
            for (k, panel) in panels(&root, layout, 2, 2).iter().enumerate() {
                let panel = titled(panel, &titles[k], &label_font())?;
                let forces = if k == 0 { &s.scratch } else { &s.warm };
                let mut chart =
                    chart_on(&panel).build_cartesian_2d(0.0..360.0, 0.0..top)?;
                axes(&mut chart, "load's angle (degrees)", "leg force (N)")
                    .x_label_formatter(&|t| format!("{t:.0}"))
                    .y_label_formatter(&|e| format!("{e:.0}"))
                    .draw()?;
                for leg in 0..4 {
                    let points: Vec<(f64, f64)> =
                        deg.iter().zip(forces).map(|(&d, f)| (d, f[leg])).collect();
                    line(&mut chart, &points, color(leg), LINE_WIDTH)?;
                }
            }
            Ok(())
        },
    )
}

fn turntable_orbit() -> Result<Vec<pbm_prelim::plot::Drawing>, PbmError> {
    let (omega, speed, g) = (std::f64::consts::TAU, 0.2, G);
    let needed = 2.0 / 7.0 * omega * speed / g;
    let cm = |path: Vec<(f64, f64)>| -> Vec<(f64, f64)> {
        path.into_iter().map(|(x, z)| (100.0 * x, 100.0 * z)).collect()
    };
    let rolls = cm(orbit(omega, speed, 0.5, 3.5)?.path);
    let slides = cm(orbit(omega, speed, 0.01, 3.5)?.path);
    require_finite(rolls.iter().chain(&slides).map(|p| p.0 + p.1))?;
    // The closed form: a circle of radius 7u / (2Ω) through the start.
    let w = 2.0 * omega / 7.0;
    let circle: Vec<(f64, f64)> = (0..=200)
        .map(|k| {
            let t = k as f64 / 200.0 * std::f64::consts::TAU / w;
            let x = 0.3 + speed * (1.0 - (w * t).cos()) / w;
            (100.0 * x, 100.0 * speed * (w * t).sin() / w)
        })
        .collect();
    titled_figure(
        [620, 470],
        "Table turning at 1 turn/s; ball starts 30 cm out at 20 cm/s",
        |root, _| {
            let legend: Legend = vec![
                (
                    format!(
                        "μ = 0.5 (rolling needs μ ≥ {needed:.3}): one circle in 3.5 s"
                    ),
                    Swatch::Line(color(0), LINE_WIDTH),
                ),
                (
                    "μ = 0.01: too little friction, the ball slides".into(),
                    Swatch::Line(color(1), LINE_WIDTH),
                ),
                (
                    "closed form: radius 7u/(2Ω), rate 2Ω/7".into(),
                    Swatch::Dashed(REFERENCE, LINE_WIDTH),
                ),
                ("start".into(), Swatch::Dot(REFERENCE, 5)),
            ];
            let root = legend_below(root, &legend)?;
            let mut chart =
                chart_on(&root).build_cartesian_2d(20.0..100.0, -20.0..40.0)?;
            axes(&mut chart, "x (cm)", "z (cm)")
                .x_label_formatter(&|x| format!("{x:.0}"))
                .y_label_formatter(&|z| format!("{z:.0}"))
                .draw()?;
            line(&mut chart, &slides, color(1), LINE_WIDTH)?;
            line(&mut chart, &rolls, color(0), LINE_WIDTH + 2)?;
            dashed_line(&mut chart, &circle, REFERENCE, LINE_WIDTH)?;
            chart.draw_series([Circle::new((30.0, 0.0), 5, REFERENCE.filled())])?;
            Ok(())
        },
    )
}

/// The sliding block of [`scenes::slide`] at each angle: its friction over the first
/// step (x, z, in units of μ m g), its path (x, z) and where it stops.
type Slide = ((f64, f64), Vec<(f64, f64)>);

fn slides(angles: &[f64], speed: f64, mu: f64) -> Result<Vec<Slide>, PbmError> {
    let settings = Settings { friction: mu, ..Settings::default() };
    let mut out = Vec::new();
    for &degrees in angles {
        let mut world = scenes::slide(degrees.to_radians(), speed, settings)?;
        let v0 = world.bodies()[0].velocity();
        let h = world.step()?;
        let a = (world.bodies()[0].velocity() - v0) / (h * mu * G);
        let mut path = vec![(0.0, 0.0)];
        let at = |w: &crate::world::World| {
            let x = w.bodies()[0].position();
            (x.x, x.z)
        };
        path.push(at(&world));
        world.run_until(1.0, |w| path.push(at(w)))?;
        require_finite(path.iter().flat_map(|p| [p.0, p.1]))?;
        out.push(((a.x, a.z), path));
    }
    Ok(out)
}

fn friction_pyramid() -> Result<Vec<pbm_prelim::plot::Drawing>, PbmError> {
    let (angles, speed, mu) = ([10.0, 30.0, 60.0], 2.0, 0.5);
    let runs = slides(&angles, speed, mu)?;
    titled_figure(
        [520, 1000],
        "A 1 kg block sliding at 2 m/s on the ground, μ = 0.5, at three angles to x",
        |root, layout| {
            let root = legend_below(root, &slide_legend(&angles))?;
            let [area, paths] = titled_panels(
                &root,
                layout,
                [
                    "(a) friction force / μ m g, first step",
                    "(b) paths seen from above",
                ],
            )?;
            friction_panel(&area, &angles, &runs)?;
            paths_panel(&paths, &angles, &runs, (speed, mu))
        },
    )
}

/// The friction figure's legend: a colour for each angle, then the bounds and
/// marks both panels share.
fn slide_legend(angles: &[f64]) -> Legend {
    let mut legend: Legend = angles
        .iter()
        .enumerate()
        .map(|(i, a)| {
            (format!("sliding at {a}° to x"), Swatch::LineDots(color(i), 2))
        })
        .collect();
    legend.extend([
        ("the pyramid's bounds (a)".into(), Swatch::Line(REFERENCE, LINE_WIDTH)),
        (
            "the cone: its bounds (a), its straight path (b)".into(),
            Swatch::Dashed(REFERENCE, LINE_WIDTH),
        ),
        (
            "the cone's friction, against the sliding (a)".into(),
            Swatch::Ring(REFERENCE, 6),
        ),
        (
            "simulated friction (a); the pyramid's stop in closed form (b)".into(),
            Swatch::Dot(REFERENCE, 6),
        ),
    ]);
    legend
}

/// Panel (a) of the friction figure: the cone's bounds and the pyramid's, each
/// slide's direction, the cone's friction against it and the simulated friction.
fn friction_panel(area: &Area<'_>, angles: &[f64], runs: &[Slide]) -> DrawResult {
    let (xr, yr) = equal_scale(area, -1.6..1.6, -1.6..1.6);
    let mut chart = chart_on(area).build_cartesian_2d(xr, yr)?;
    axes(&mut chart, "along x", "along z").draw()?;
    let circle: Vec<(f64, f64)> = (0..=120)
        .map(|k| f64::from(k) * std::f64::consts::TAU / 120.0)
        .map(|t| (t.cos(), t.sin()))
        .collect();
    dashed_line(&mut chart, &circle, REFERENCE, LINE_WIDTH)?;
    let square = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0)];
    line(&mut chart, &square, REFERENCE, LINE_WIDTH)?;
    for (i, (&degrees, (force, _))) in angles.iter().zip(runs).enumerate() {
        let t = f64::to_radians(degrees);
        let cone = (-t.cos(), -t.sin());
        let tip = (0.9 * t.cos(), 0.9 * t.sin());
        arrow(&mut chart, (0.0, 0.0), tip, 0.15, color(i), 1)?;
        chart.draw_series([
            Circle::new(cone, 6, color(i).stroke_width(2)),
            // The dots may fall on one another: each a size smaller.
            Circle::new(*force, 11 - 3 * i as i32, color(i).filled()),
        ])?;
    }
    Ok(())
}

/// Panel (b) of the friction figure: each slide's path seen from above, the
/// cone's straight path and the pyramid's stop in closed form.
fn paths_panel(
    area: &Area<'_>,
    angles: &[f64],
    runs: &[Slide],
    (speed, mu): (f64, f64),
) -> DrawResult {
    let far = scenes::slide_stop(0.0, speed, mu, G, true).0 * 1.1;
    let (xr, yr) = equal_scale(area, -0.05..far, -0.05..far);
    let mut chart = chart_on(area).build_cartesian_2d(xr, yr)?;
    tenths_axes(&mut chart, "x (m)", "z (m)")?;
    for (i, (&degrees, (_, path))) in angles.iter().zip(runs).enumerate() {
        let t = f64::to_radians(degrees);
        let cone_stop = scenes::slide_stop(t, speed, mu, G, true);
        dashed_line(&mut chart, &[(0.0, 0.0), cone_stop], color(i), 1)?;
        line(&mut chart, path, color(i), LINE_WIDTH)?;
        let stop = scenes::slide_stop(t, speed, mu, G, false);
        dots(&mut chart, &[stop], 6, color(i))?;
    }
    Ok(())
}

/// A point of a chart.
type Point = (f64, f64);

/// The forces and accelerations after one step of the pivoting.
type Step = (Vec<f64>, Vec<f64>);

/// One row's answers (a, f) from the solver, for A = 1 kg⁻¹ and each b of `bs`, with
/// the bounds `lo` ≤ f ≤ `hi`.
fn one_row(bs: &[f64], lo: f64, hi: f64) -> Result<Vec<(f64, f64)>, PbmError> {
    let a = nalgebra::DMatrix::from_element(1, 1, 1.0);
    let bounds = Bounds { lo: vec![lo], hi: vec![hi] };
    bs.iter()
        .map(|&b| {
            let sol =
                solve_bounded(&a, &nalgebra::DVector::from_element(1, b), &bounds)?;
            Ok((sol.a[0], sol.f[0]))
        })
        .collect()
}

fn complementarity() -> Result<Vec<pbm_prelim::plot::Drawing>, PbmError> {
    let bs: Vec<f64> = (0..=16).map(|k| -2.0 + 0.25 * f64::from(k)).collect();
    let contact = one_row(&bs, 0.0, f64::INFINITY)?;
    let friction = one_row(&bs, -1.0, 1.0)?;
    titled_figure(
        [440, 820],
        "One row, A = 1 kg⁻¹, solved for b from −2 to 2 m/s²",
        |root, layout| {
            let legend: Legend = vec![
                (
                    "the conditions: every allowed (a, f)".into(),
                    Swatch::Line(REFERENCE, 4),
                ),
                ("the solver's answer for one b".into(), Swatch::Dot(color(0), 5)),
            ];
            let root = legend_below(root, &legend)?;
            let panels = panels(&root, layout, 2, 2);
            let sets: [(&str, Vec<Point>, &[Point]); 2] = [
                (
                    "(a) contact: f ≥ 0, a ≥ 0, f a = 0",
                    vec![(0.0, 2.2), (0.0, 0.0), (2.2, 0.0)],
                    &contact,
                ),
                (
                    "(b) friction row: |f| ≤ μfₙ = 1 N",
                    vec![(-2.2, 1.0), (0.0, 1.0), (0.0, -1.0), (2.2, -1.0)],
                    &friction,
                ),
            ];
            for (panel, (title, set, answers)) in panels.iter().zip(&sets) {
                let area = titled(panel, title, &label_font())?;
                let mut chart =
                    chart_on(&area).build_cartesian_2d(-2.3..2.3, -1.4..2.3)?;
                axes(&mut chart, "acceleration a (m/s²)", "force f (N)")
                    .x_label_formatter(&|v| format!("{v:.0}"))
                    .y_label_formatter(&|v| format!("{v:.0}"))
                    .draw()?;
                line(&mut chart, set, REFERENCE, 4)?;
                dots(&mut chart, answers, 5, color(0))?;
            }
            Ok(())
        },
    )
}

/// The first of the random four-contact problems whose pivoting lets a clamped
/// contact go again, with its trace: (f, a) after every step.
fn released_trace() -> Result<Vec<Step>, PbmError> {
    for seed in 0..500 {
        let (a, b) = random_problem(Kind::Definite, 4, seed);
        let mut trace = vec![(vec![0.0; 4], b.iter().copied().collect::<Vec<f64>>())];
        dantzig_traced(&a, &b, |f, acc| {
            trace.push((f.iter().copied().collect(), acc.iter().copied().collect()));
        })?;
        let released = (0..4).any(|i| {
            let f: Vec<f64> = trace.iter().map(|(f, _)| f[i]).collect();
            f.windows(2).any(|w| w[0] > 1e-9 && w[1] <= 1e-12)
        });
        if released {
            return Ok(trace);
        }
    }
    Err(PbmError::Figure { why: "no problem lets a contact go".into() })
}

fn pivoting_trace() -> Result<Vec<pbm_prelim::plot::Drawing>, PbmError> {
    let trace = released_trace()?;
    let steps = trace.len() - 1;
    let top = |k: usize| {
        trace
            .iter()
            .flat_map(|t| if k == 0 { &t.0 } else { &t.1 })
            .fold(0.0f64, |m, v| m.max(v.abs()))
    };
    titled_figure(
        [460, 900],
        "Dantzig's pivoting on a random four-contact problem, after each step",
        |root, layout| {
            let legend: Legend = (0..4)
                .map(|i| {
                    (
                        format!("contact {}", i + 1),
                        Swatch::LineDots(color(i), LINE_WIDTH),
                    )
                })
                .collect();
            let root = legend_below(root, &legend)?;
            let panels = panels(&root, layout, 2, 2);
            let names = ["(a) forces f", "(b) accelerations a"];
            let units = ["force f", "acceleration a"];
            for (k, panel) in panels.iter().enumerate() {
                let area = titled(panel, names[k], &label_font())?;
                let m = top(k) * 1.1;
                let low = if k == 0 { -0.05 * m } else { -m };
                let mut chart = chart_on(&area)
                    .build_cartesian_2d(-0.2..steps as f64 + 0.2, low..m)?;
                axes(&mut chart, "step", units[k])
                    .x_labels(steps + 1)
                    .x_label_formatter(&|v| format!("{v:.0}"))
                    .y_label_formatter(&|v| format!("{v:.1}"))
                    .draw()?;
                line(
                    &mut chart,
                    &[(-0.2, 0.0), (steps as f64 + 0.2, 0.0)],
                    REFERENCE,
                    1,
                )?;
                for i in 0..4 {
                    let points: Vec<(f64, f64)> = trace
                        .iter()
                        .enumerate()
                        .map(|(s, t)| {
                            (s as f64, if k == 0 { t.0[i] } else { t.1[i] })
                        })
                        .collect();
                    line_and_dots(&mut chart, &points, (color(i), LINE_WIDTH), 4)?;
                }
            }
            Ok(())
        },
    )
}

/// A 0.4 × 0.2 × 0.3 m box of 1 kg, turned 0.5 rad about z, its lowest corner on the
/// ground (y = 0), moving at (0.5, −2, 0) m/s and spinning at 2 rad/s: the corner's
/// velocity before and after the impulse of the colliding-contact page (e = 1/2), the
/// impulse, and the arm r. Returns the box's corners (x, y) and those vectors.
fn corner_hit() -> Result<(Vec<Point>, [nalgebra::Vector3<f64>; 6]), PbmError> {
    use crate::impulse::{Contact, impulse_magnitude};
    use crate::rows::BodyState;
    use nalgebra::{Rotation3, Vector3};
    let (size, mass, turn) = (Vector3::new(0.4, 0.2, 0.3), 1.0, 0.5);
    let r = Rotation3::from_axis_angle(&Vector3::z_axis(), turn);
    let corners: Vec<Vector3<f64>> =
        [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .iter()
            .map(|&(sx, sy)| {
                r * Vector3::new(sx * size.x / 2.0, sy * size.y / 2.0, 0.0)
            })
            .collect();
    let lowest = corners
        .iter()
        .copied()
        .fold(corners[0], |m, c| if c.y < m.y { c } else { m });
    let x = -lowest;
    let props = pbm_rigid::mass::MassProperties::block(size, mass)?;
    let inv_inertia = r.matrix()
        * props.inertia.try_inverse().unwrap_or_default()
        * r.matrix().transpose();
    let box_state = BodyState {
        x,
        v: Vector3::new(0.5, -2.0, 0.0),
        omega: Vector3::new(0.0, 0.0, 2.0),
        inv_mass: 1.0 / mass,
        inv_inertia,
    };
    let bodies = [box_state, BodyState::fixed(Vector3::zeros())];
    let contact = Contact { a: 0, b: 1, p: Vector3::zeros(), n: Vector3::y() };
    let j = impulse_magnitude(&bodies, &contact, 0.5)?;
    let before = bodies[0].point_velocity(&contact.p);
    let mut after_state = bodies[0];
    after_state.apply_impulse(&contact.p, &(contact.n * j));
    let after = after_state.point_velocity(&contact.p);
    let outline = corners.iter().map(|c| (c.x + x.x, c.y + x.y)).collect();
    Ok((outline, [x, contact.n, before, after, contact.n * j, contact.p - x]))
}

fn impulse_geometry() -> Result<Vec<pbm_prelim::plot::Drawing>, PbmError> {
    let (outline, [x, n, before, after, jn, _]) = corner_hit()?;
    require_finite([before.norm(), after.norm(), jn.norm()])?;
    // Velocities drawn at 0.1 m per m/s, the impulse at 0.1 m per N s.
    let scale = 0.1;
    let tip = |v: nalgebra::Vector3<f64>| (scale * v.x, scale * v.y);
    let ((bx, by), (ax, ay), (jx, jy)) = (tip(before), tip(after), tip(jn));
    titled_figure(
        [470, 540],
        "A box's corner hits the ground: e = 1/2, seen along z",
        |root, _| {
            let root = legend_below(root, &impulse_legend())?;
            let (xr, yr) = equal_scale(&root, -0.35..0.35, -0.25..0.4);
            let (left, right) = (xr.start, xr.end);
            let mut chart = chart_on(&root).build_cartesian_2d(xr, yr)?;
            tenths_axes(&mut chart, "x (m)", "y (m)")?;
            let ground = RGBColor(170, 170, 170).mix(0.6).filled();
            chart.draw_series([Rectangle::new(
                [(left, -0.25), (right, 0.0)],
                ground,
            )])?;
            shape(&mut chart, &outline, color(0).mix(0.15), (color(0), 2))?;
            dots(&mut chart, &[(x.x, x.y)], 5, REFERENCE)?;
            let origin = (0.0, 0.0);
            arrow(&mut chart, (x.x, x.y), origin, 0.04, REFERENCE, 2)?;
            arrow(&mut chart, origin, (0.0, 0.3 * n.y), 0.04, color(2), 2)?;
            arrow(&mut chart, origin, (bx, by), 0.04, color(0), 2)?;
            dashed_line(&mut chart, &[origin, (ax, ay)], color(0), 2)?;
            arrow(&mut chart, origin, (jx, jy), 0.04, color(1), 3)?;
            labels(
                &mut chart,
                &[
                    ("n", (0.015, 0.3 * n.y)),
                    ("j n", (0.015, 0.5 * jy)),
                    ("v⁻", (bx + 0.015, by)),
                    ("v⁺", (ax - 0.06, ay + 0.03)),
                    ("r", (0.5 * x.x + 0.015, 0.5 * x.y - 0.02)),
                    ("x", (x.x + 0.015, x.y + 0.03)),
                    ("p", (-0.04, -0.035)),
                ],
            )
        },
    )
}

/// The impulse figure's legend.
fn impulse_legend() -> Legend {
    vec![
        ("arm r, centre of mass to contact".into(), Swatch::Line(REFERENCE, 2)),
        ("normal n".into(), Swatch::Line(color(2), 2)),
        (
            "corner's velocity before, v⁻ (0.1 m per m/s)".into(),
            Swatch::Line(color(0), 2),
        ),
        ("corner's velocity after, v⁺".into(), Swatch::Dashed(color(0), 2)),
        ("impulse j n (0.1 m per N s)".into(), Swatch::Line(color(1), 3)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_corner_of_the_impulse_figure_obeys_restitution_and_changes_sideways_too() {
        let (_, [_, n, before, after, jn, arm]) = corner_hit().unwrap();
        // e = 1/2 along the normal.
        assert!((after.dot(&n) + 0.5 * before.dot(&n)).abs() < 1e-12);
        assert!(jn.dot(&n) > 0.0 && arm.cross(&n).norm() > 0.1);
        // Off the centre of mass, the hit also changes the corner's sideways velocity.
        assert!(((after - before) - n * (after - before).dot(&n)).norm() > 0.5);
    }
}
