//! The chapter's figures, computed with the chapter's own code.

use crate::models::EllipseBead;
use crate::parametric::{
    ParametricModel, constraint_force, generalized_acceleration,
};
use crate::scenes::{ELLIPSE_BEAD, Sample, compare, ellipse_bead, separation_time};
use pbm_prelim::plot::prelude::*;

/// Every figure of the chapter, in reading order.
pub fn all() -> Vec<Figure> {
    vec![
        Figure::new(
            "bead-on-a-wire",
            "A bead on an ellipse: the coordinate, the tangent, the forces",
            bead_on_a_wire,
        ),
        Figure::new(
            "hybrid",
            "The hybrid: a bead in its angle, a free particle, a rod, and the rod's row G",
            hybrid,
        ),
        Figure::new(
            "compare",
            "The double pendulum with constraint forces and with angles",
            compare_figure,
        ),
    ]
}

/// The hybrid of the page's worked example, at the test's start: a 1 kg bead on the
/// unit circle at θ = −0.3 (chapter 5's `Bead`, parametric), a free particle 0.8 m
/// from it (Cartesian), the rod between them, and the rod's row of G computed from
/// the bead's q(θ) and J(θ): dᵀJ under θ̇, −dᵀ under the particle's ẋ and ẏ.
fn hybrid() -> Result<Vec<Drawing>, PbmError> {
    let model = crate::models::Bead::new(1.0, 1.0, pbm_particles::forces::G)?;
    let theta = -0.3_f64;
    let (q, j) = (model.positions(&[theta]), model.jacobian(&[theta]));
    let (bead, tangent) = ((q[0], q[1]), (j[(0, 0)], j[(1, 0)]));
    let x = (bead.0 + 0.3, bead.1 - (0.8_f64 * 0.8 - 0.09).sqrt());
    let d = (bead.0 - x.0, bead.1 - x.1);
    let g_row = [d.0 * tangent.0 + d.1 * tangent.1, -d.0, -d.1];
    require_finite(g_row)?;
    let wire: Vec<(f64, f64)> = (0..=360)
        .map(|k| {
            let q = model.positions(&[f64::from(k).to_radians()]);
            (q[0], q[1])
        })
        .collect();
    titled_figure(
        [400, 720],
        "The hybrid: bead in θ, rod, free particle x",
        |root, layout| {
            let [left, right] = titled_panels(
                root,
                layout,
                ["(a) the model", "(b) the rod's row of G, at this state"],
            )?;
            let (xr, yr) =
                equal_scale(&left, -1.25..layout.pick(1.45, 2.3), -1.25..1.1);
            let mut chart = chart_on(&left).build_cartesian_2d(xr, yr)?;
            axes(&mut chart, "x (m)", "y (m)")
                .x_label_formatter(&|v| format!("{v:.1}"))
                .y_label_formatter(&|v| format!("{v:.1}"))
                .draw()?;
            line(&mut chart, &wire, REFERENCE, 2)?;
            let arc: Vec<(f64, f64)> = (0..=20)
                .map(|k| theta * f64::from(k) / 20.0)
                .map(|a| (0.3 * a.cos(), 0.3 * a.sin()))
                .collect();
            line(&mut chart, &arc, color(0), 2)?;
            line(&mut chart, &[(0.0, 0.0), bead], REFERENCE, 1)?;
            line(&mut chart, &[(0.0, 0.0), (1.0, 0.0)], REFERENCE, 1)?;
            line(&mut chart, &[bead, x], color(2), 3)?;
            let tip = (bead.0 + 0.5 * tangent.0, bead.1 + 0.5 * tangent.1);
            arrow(&mut chart, bead, tip, 0.07, color(0), 3)?;
            dots(&mut chart, &[bead], 7, color(0))?;
            dots(&mut chart, &[x], 7, color(1))?;
            let mid = ((bead.0 + x.0) / 2.0, (bead.1 + x.1) / 2.0);
            pinned_labels(
                &mut chart,
                &[
                    ("θ", (0.32, -0.05), (4, -4)),
                    ("bead q(θ)", bead, (10, -2)),
                    ("J = ∂q/∂θ", tip, (6, -12)),
                    ("rod, length L", mid, (8, -6)),
                    ("particle x", x, (10, -6)),
                ],
            )?;
            draw_g_row(&right, g_row)
        },
    )
}

/// Panel (b) of [`hybrid`]: the rod's row of G, one cell per column (θ̇, then the
/// particle's ẋ, ẏ), with a brace under each block saying what it is.
fn draw_g_row(area: &Area<'_>, g_row: [f64; 3]) -> DrawResult {
    let mut cells =
        ChartBuilder::on(area).margin(12).build_cartesian_2d(-1.3..3.2, -2.2..1.6)?;
    let centre = anchored(label_font(), HPos::Center, VPos::Center);
    let headers = ["θ̇", "ẋ", "ẏ"];
    for (c, value) in g_row.iter().enumerate() {
        let k = if c == 0 { 0 } else { 1 };
        let (x0, x1) = (c as f64, c as f64 + 1.0);
        framed(&mut cells, [(x0, 0.0), (x1, 1.0)], color(k).mix(0.35).filled())?;
        let value = format!("{value:.2}").replace('-', "−");
        text(&mut cells, value, (x0 + 0.5, 0.5), &centre)?;
        text(&mut cells, headers[c], (x0 + 0.5, 1.25), &centre)?;
    }
    let left = anchored(label_font(), HPos::Right, VPos::Center);
    text(&mut cells, "G =", (-0.15, 0.5), &left)?;
    // Braces under the two blocks, and what each is.
    let blocks = [
        (0.0, 1.0, 0, ["dᵀJ: the bead's block,", "1 column for θ"]),
        (1.0, 3.0, 1, ["−dᵀ: the particle's block,", "2 columns for x = (x, y)"]),
    ];
    let small = anchored(tick_font(), HPos::Center, VPos::Center);
    for (i, (a, b, k, words)) in blocks.into_iter().enumerate() {
        let y = -0.2 - 0.9 * i as f64;
        line(&mut cells, &[(a + 0.05, y), (b - 0.05, y)], color(k), 3)?;
        for (n, w) in words.iter().enumerate() {
            text(&mut cells, *w, ((a + b) / 2.0, y - 0.25 - 0.3 * n as f64), &small)?;
        }
    }
    Ok(())
}

/// The page's bead on an ellipse at its (θ, θ̇): the wire q(θ) with ticks at equal
/// steps of θ, the tangent J = ∂q/∂θ, gravity f, the constraint force f̂ recovered
/// from equation 13's answer, and m q̈ = f + f̂.
fn bead_on_a_wire() -> Result<Vec<Drawing>, PbmError> {
    let model = ellipse_bead()?;
    let ([a, b], [theta, theta_dot]) = ELLIPSE_BEAD;
    let at = |u: f64| on_wire(&model, u);
    let bead = at(theta);
    let ([tangent, f, f_hat], theta_ddot) = wire_forces(&model, [theta, theta_dot])?;
    let total = (f.0 + f_hat.0, f.1 + f_hat.1);
    let work = tangent.0 * f_hat.0 + tangent.1 * f_hat.1;
    require_finite([theta_ddot, f_hat.0, f_hat.1, tangent.0, tangent.1, work])?;
    // Forces at 0.1 m per N; the tangent at 1 m per (m/rad).
    let scale = 0.1;
    let tip = |v: (f64, f64), s: f64| (bead.0 + s * v.0, bead.1 + s * v.1);
    let [t_tip, f_tip, r_tip, end] =
        [tip(tangent, 1.0), tip(f, scale), tip(f_hat, scale), tip(total, scale)];
    let title = format!(
        "A {:.0} kg bead on the ellipse a = {a} m, b = {b} m, at θ = {theta}, \
         θ̇ = {theta_dot} rad/s",
        model.masses()[0]
    );
    let legend = wire_legend(work, theta_ddot);
    titled_figure([470, 480], &title, |root, layout| {
        let plot = legend_below(root, &legend)?;
        let (xr, yr) = equal_scale(&plot, -2.0..2.1, -1.0..0.8);
        let mut chart = chart_on(&plot).build_cartesian_2d(xr, yr)?;
        axes(&mut chart, "x (m)", "y (m)")
            .x_label_formatter(&|v| format!("{v:.1}"))
            .y_label_formatter(&|v| format!("{v:.1}"))
            .draw()?;
        draw_wire(&mut chart, &model)?;
        arrow(&mut chart, bead, t_tip, 0.08, color(0), 3)?;
        arrow(&mut chart, bead, f_tip, 0.08, color(1), 2)?;
        arrow(&mut chart, bead, r_tip, 0.06, color(2), 3)?;
        dashed_line(&mut chart, &[bead, end], color(4), 2)?;
        let head = (end.0 - 0.1 * (end.0 - bead.0), end.1 - 0.1 * (end.1 - bead.1));
        arrow(&mut chart, head, end, 0.08, color(4), 2)?;
        dots(&mut chart, &[bead], 6, REFERENCE)?;
        // Labels placed in pixels from their points, so that they sit the same in
        // the wide and the narrow drawing.
        pinned_labels(
            &mut chart,
            &[
                ("T", t_tip, (-14, -24)),
                ("f", f_tip, (6, -8)),
                ("f̂", r_tip, (4, -22)),
                ("m q̈", end, (8, -10)),
                ("θ = 0", at(0.0), (10, -10)),
                ("θ = π/2", at(std::f64::consts::FRAC_PI_2), (-26, -26)),
            ],
        )?;
        // The narrow drawing has no room left of the wire.
        if layout == Layout::Wide {
            let pi = at(std::f64::consts::PI);
            pinned_labels(&mut chart, &[("θ = π", pi, (-52, -10))])?;
        }
        Ok(())
    })
}

/// The ellipse bead at (θ, θ̇) = `state`: the tangent T = ∂q/∂θ, gravity f and the
/// constraint force f̂ recovered from equation 13's answer; and θ̈.
fn wire_forces(
    model: &EllipseBead,
    [theta, theta_dot]: [f64; 2],
) -> Result<([(f64, f64); 3], f64), PbmError> {
    let (u, u_dot) = ([theta], [theta_dot]);
    let theta_ddot = generalized_acceleration(model, &u, &u_dot)?[0];
    let reaction = constraint_force(model, &u, &u_dot)?;
    let q_dot = model.jacobian(&u) * nalgebra::DVector::from_column_slice(&u_dot);
    let gravity = model.applied_force(&model.positions(&u), &q_dot);
    let forces = [(gravity[0], gravity[1]), (reaction[0], reaction[1])];
    Ok(([tangent_on(model, theta), forces[0], forces[1]], theta_ddot))
}

/// The point q(u) of the ellipse bead's wire.
fn on_wire(model: &EllipseBead, u: f64) -> (f64, f64) {
    let q = model.positions(&[u]);
    (q[0], q[1])
}

/// The tangent J = ∂q/∂θ of the ellipse bead's wire at θ = `u`.
fn tangent_on(model: &EllipseBead, u: f64) -> (f64, f64) {
    let j = model.jacobian(&[u]);
    (j[(0, 0)], j[(1, 0)])
}

/// The ellipse bead's wire, with ticks across it at every 15° of θ: close together
/// where a radian covers few metres (|T| = b at the ends), far apart where it covers
/// many.
fn draw_wire<'a, 'b: 'a>(
    chart: &mut LinearChart<'a, 'b>,
    model: &EllipseBead,
) -> DrawResult {
    let wire: Vec<(f64, f64)> =
        (0..=360).map(|k| on_wire(model, f64::from(k).to_radians())).collect();
    line(chart, &wire, REFERENCE, 2)?;
    for k in 0..24 {
        let u = f64::from(k) * 15f64.to_radians();
        let (p, t) = (on_wire(model, u), tangent_on(model, u));
        let length = t.0.hypot(t.1);
        let normal = (t.1 / length * 0.05, -t.0 / length * 0.05);
        let tick =
            [(p.0 - normal.0, p.1 - normal.1), (p.0 + normal.0, p.1 + normal.1)];
        line(chart, &tick, REFERENCE, 2)?;
    }
    Ok(())
}

/// The comparison figure's legends: the two formulations' paths, and their distance
/// with the time `apart` it passes 1 cm.
fn compare_legends(apart: f64) -> [Legend; 2] {
    [
        vec![
            (
                "constraint forces (ch. 4)".into(),
                Swatch::Line(color(0), LINE_WIDTH + 2),
            ),
            ("angles (this chapter)".into(), Swatch::Line(color(1), LINE_WIDTH)),
        ],
        vec![
            ("|p₂(ch. 4) − p₂(angles)|".into(), Swatch::Line(color(2), LINE_WIDTH)),
            (
                format!("1 cm: apart at t = {apart:.2} s"),
                Swatch::Dashed(REFERENCE, LINE_WIDTH),
            ),
        ],
    ]
}

/// The bead-on-a-wire figure's legend, with the constraint force's work `work` and
/// the acceleration `theta_ddot`.
fn wire_legend(work: f64, theta_ddot: f64) -> Legend {
    vec![
        (
            "the wire q(θ) = (a cos θ, b sin θ), a tick every 15° of θ".into(),
            Swatch::Line(REFERENCE, 2),
        ),
        ("tangent T = ∂q/∂θ (m per rad)".into(), Swatch::Line(color(0), 3)),
        ("gravity f (0.1 m per N)".into(), Swatch::Line(color(1), 2)),
        (
            format!(
                "constraint force f̂, normal to the wire: T·f̂ = {:.0}",
                work.abs()
            ),
            Swatch::Line(color(2), 3),
        ),
        (
            format!("m q̈ = f + f̂: θ̈ = {theta_ddot:.2} rad/s²").replace('-', "−"),
            Swatch::Dashed(color(4), 2),
        ),
    ]
}

fn compare_figure() -> Result<Vec<Drawing>, PbmError> {
    let (h, t_end) = (1e-3, 30.0);
    let samples = compare(h, t_end, 10)?;
    let threshold = 1e-2;
    let apart = separation_time(&samples, threshold).unwrap_or(t_end);
    let x_of = |f: fn(&Sample) -> [f64; 2]| -> Vec<(f64, f64)> {
        samples.iter().map(|s| (s.t, f(s)[0])).collect()
    };
    let constrained = x_of(|s| s.constrained);
    let lagrangian = x_of(|s| s.lagrangian);
    let distance: Vec<(f64, f64)> =
        samples.iter().map(|s| (s.t, s.distance.max(1e-16))).collect();
    require_finite(
        constrained
            .iter()
            .chain(&lagrangian)
            .chain(&distance)
            .flat_map(|p| [p.0, p.1]),
    )?;
    let legends = compare_legends(apart);
    titled_figure(
        [500, 900],
        "Double pendulum, RK4 at h = 1 ms, two formulations",
        |root, layout| {
            let titles = [
                "(a) horizontal position of the lower bob",
                "(b) distance between the two lower bobs",
            ];
            let areas = panels_with_legends(root, layout, titles, &legends)?;
            let mut paths = chart_on(&areas[0])
                .y_label_area_size(52)
                .build_cartesian_2d(0.0..t_end, -2.2..2.2)?;
            axes(&mut paths, "time t (s)", "x₂ (m)").draw()?;
            line(&mut paths, &constrained, color(0), LINE_WIDTH + 2)?;
            line(&mut paths, &lagrangian, color(1), LINE_WIDTH)?;
            let mut gap = chart_on(&areas[1])
                .build_cartesian_2d(0.0..t_end, (1e-16..10.0).log_scale())?;
            axes(&mut gap, "time t (s)", "distance (m)")
                .y_label_formatter(&power_of_ten)
                .draw()?;
            line(&mut gap, &distance, color(2), LINE_WIDTH)?;
            dashed_line(
                &mut gap,
                &[(0.0, threshold), (t_end, threshold)],
                REFERENCE,
                LINE_WIDTH,
            )?;
            Ok(())
        },
    )
}
