//! The chapter's figures, computed with the chapter's own scenes and force objects.

use crate::collision::Strategy;
use crate::forces::G;
use crate::interaction::pair_checks;
use crate::particle::{Motion, Particle, ParticleSystem};
use crate::scenes::{
    BEAM, beam, beam_index, bouncing_ball, mouse_path, pulled_off_the_floor,
    ramp_slide, run_with_snapshots, scaling_law, scaling_points,
};
use crate::spring::DampedSpring;
use nalgebra::Vector1;
use pbm_ode::runge_kutta::integrate;
use pbm_ode::tableau::RK4;
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
        require_finite("phase-plane", pts.iter().flat_map(|p| [p.0, p.1]))?;
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
        "phase-plane",
        [560, 560],
        "1 kg on a 1 N/m spring from x = 1 m, at rest",
        |root, _| {
            let mut legend: Legend =
                series_legend(&curves, Swatch::Line, LINE_WIDTH, |(c, _)| {
                    format!("k_d = {c} N s/m ({})", regime(*c))
                });
            legend.push(("start".into(), Swatch::Dot(REFERENCE, 5)));
            let plot = legend_below(root, &legend)?;
            let (xr, yr) = equal_scale(&plot, -1.1..1.3, -1.1..1.1);
            let mut chart = chart_on(&plot).build_cartesian_2d(xr, yr)?;
            axes(&mut chart, "position x (m)", "velocity v (m/s)").draw()?;
            for (i, (_, pts)) in curves.iter().enumerate() {
                line(&mut chart, pts, color(i), LINE_WIDTH)?;
            }
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
        "bouncing-ball",
        rollback
            .trajectory
            .iter()
            .chain(&displace.trajectory)
            .flat_map(|p| [p.0, p.1]),
    )?;
    titled_figure(
        "bouncing-ball",
        [480, 500],
        &format!("A ball dropped from 1 m, restitution r = {r}, RK4 with h = 0.01 s"),
        |root, _| {
            let names = ["roll back to the contact time", "displace onto the plane"];
            let mut legend: Legend =
                series_legend(&names, Swatch::Line, LINE_WIDTH, |name| {
                    name.to_string()
                });
            legend.push((
                "exact apex heights r^(2k)".into(),
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
    require_finite(
        "resting-contact",
        slides.iter().flatten().chain(&lift).flat_map(|p| [p.0, p.1]),
    )?;
    let v_top = 1.8;
    let mut slide_legend: Legend = frictions
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let name = if *k == 0.0 {
                "k_f = 0: no friction, v = g t sin θ".to_string()
            } else {
                format!("k_f = {k} s/m")
            };
            (name, Swatch::Line(color(i), LINE_WIDTH))
        })
        .collect();
    slide_legend
        .push(("speed tan θ / k_f it tends to".into(), Swatch::Dashed(REFERENCE, 1)));
    let lift_legend: Legend = vec![
        ("height of the 1 kg particle".into(), Swatch::Line(color(4), LINE_WIDTH)),
        (format!("pull = weight at t = {t_off:.2} s"), Swatch::Dashed(REFERENCE, 1)),
    ];
    draw_figure("resting-contact", [480, 760], |root, layout| {
        let titles = [
            format!("(a) let go on a {angle_deg}° ramp"),
            format!("(b) on the floor, pulled up by ({rate} N/s) t"),
        ];
        let titled_parts =
            titled_panels(root, layout, [titles[0].as_str(), titles[1].as_str()])?;
        let plots = legends_below(
            &titled_parts,
            &[slide_legend.clone(), lift_legend.clone()],
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

fn scaling() -> Result<Vec<Drawing>, PbmError> {
    let law = scaling_law()?;
    let rows: Vec<(f64, f64, f64)> = (6..=17)
        .map(|k| 1usize << k)
        .map(|n| {
            let x = scaling_points(n);
            let (brute, grid) = pair_checks(&law, &x);
            (n as f64, brute as f64, grid as f64)
        })
        .collect();
    let names =
        ["brute force: n(n − 1), slope 2", "uniform grid: 3 × 3 cells, slope 1"];
    titled_figure(
        "interaction-scaling",
        [480, 480],
        "Distance checks per force evaluation, ~20 neighbours each",
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
            axes(&mut chart, "particles n", "pair distances checked")
                .x_label_formatter(&power_of_ten)
                .y_label_formatter(&power_of_ten)
                .draw()?;
            for i in 0..2 {
                let pts: Vec<(f64, f64)> = rows
                    .iter()
                    .map(|r| (r.0, if i == 0 { r.1 } else { r.2 }))
                    .collect();
                line(&mut chart, &pts, color(i), LINE_WIDTH)?;
                chart.draw_series(
                    pts.iter().map(|p| Circle::new(*p, 3, color(i).filled())),
                )?;
            }
            Ok(())
        },
    )
}

fn hanging() -> Result<Vec<Drawing>, PbmError> {
    let times = [0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 12.0];
    let mut system = beam(true)?;
    let snaps = run_with_snapshots(&mut system, 1e-3, 12.0, &times)?;
    require_finite(
        "hanging-structure",
        snaps.iter().flat_map(|s| s.1.iter().flat_map(|x| [x.x, x.y])),
    )?;
    let springs: Vec<(usize, usize)> = beam(false)?
        .forces
        .iter()
        .filter_map(|f| {
            let ids = f.particles();
            (ids.len() == 2).then(|| (ids[0], ids[1]))
        })
        .collect();
    let tip = beam_index(BEAM.0 - 1, 1);
    titled_figure(
        "hanging-structure",
        [560, 900],
        "A 16 × 3 lattice nailed at its left column; positions in metres",
        |root, layout| {
            let legend: Legend = vec![
                ("springs".into(), Swatch::Line(color(0), 1)),
                ("nailed particles".into(), Swatch::Square(REFERENCE)),
                ("mouse spring and cursor".into(), Swatch::LineDots(color(1), 2)),
            ];
            let root = legend_below(root, &legend)?;
            let columns = layout.pick(4, 2);
            let parts = root.split_evenly((snaps.len().div_ceil(columns), columns));
            for (panel, (t, xs)) in parts.iter().zip(&snaps) {
                let mouse_down = (0.5..=1.5).contains(t);
                // The last snapshot, long after the mouse let go (its time is a sum
                // of steps).
                let caption = if *t > 11.0 {
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
                chart.draw_series(springs.iter().map(|&(a, b)| {
                    PathElement::new(
                        vec![(xs[a].x, xs[a].y), (xs[b].x, xs[b].y)],
                        color(0).stroke_width(1),
                    )
                }))?;
                chart.draw_series((0..BEAM.1).map(|r| {
                    let x = xs[beam_index(0, r)];
                    Rectangle::new(
                        [(x.x - 0.03, x.y - 0.03), (x.x + 0.03, x.y + 0.03)],
                        REFERENCE.filled(),
                    )
                }))?;
                if mouse_down {
                    let m = mouse_path(*t);
                    line(
                        &mut chart,
                        &[(xs[tip].x, xs[tip].y), (m.x, m.y)],
                        color(1),
                        2,
                    )?;
                    chart.draw_series(std::iter::once(Circle::new(
                        (m.x, m.y),
                        5,
                        color(1).filled(),
                    )))?;
                }
            }
            Ok(())
        },
    )
}
