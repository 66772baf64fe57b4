//! The chapter's figures, computed with the chapter's own code.

use crate::parametric::{
    ParametricModel, constraint_force, generalized_acceleration,
};
use crate::scenes::{ELLIPSE_BEAD, Sample, compare, ellipse_bead, separation_time};
use pbm_prelim::plot::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

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
            let wire: Vec<(f64, f64)> = (0..=360)
                .map(|k| {
                    let q = model.positions(&[f64::from(k).to_radians()]);
                    (q[0], q[1])
                })
                .collect();
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
            chart.draw_series([
                Circle::new(bead, 7, color(0).filled()),
                Circle::new(x, 7, color(1).filled()),
            ])?;
            let label = |text: &str, p: (f64, f64), offset: (i32, i32)| {
                EmptyElement::at(p)
                    + Text::new(text.to_string(), offset, label_font())
            };
            let mid = ((bead.0 + x.0) / 2.0, (bead.1 + x.1) / 2.0);
            chart.draw_series([
                label("θ", (0.32, -0.05), (4, -4)),
                label("bead q(θ)", bead, (10, -2)),
                label("J = ∂q/∂θ", tip, (6, -12)),
                label("rod, length L", mid, (8, -6)),
                label("particle x", x, (10, -6)),
            ])?;
            // (b): one row (the rod), three columns: θ̇, then the particle's ẋ, ẏ.
            let mut cells = ChartBuilder::on(&right)
                .margin(12)
                .build_cartesian_2d(-1.3..3.2, -2.2..1.6)?;
            let centre = Pos::new(HPos::Center, VPos::Center);
            let tick = pbm_prelim::plot::tick_font();
            let headers = ["θ̇", "ẋ", "ẏ"];
            for (c, value) in g_row.iter().enumerate() {
                let k = if c == 0 { 0 } else { 1 };
                let (x0, x1) = (c as f64, c as f64 + 1.0);
                cells.draw_series([Rectangle::new(
                    [(x0, 0.0), (x1, 1.0)],
                    color(k).mix(0.35).filled(),
                )])?;
                cells.draw_series([Rectangle::new(
                    [(x0, 0.0), (x1, 1.0)],
                    REFERENCE.stroke_width(1),
                )])?;
                let text = format!("{value:.2}").replace('-', "−");
                cells.draw_series([
                    Text::new(text, (x0 + 0.5, 0.5), label_font().pos(centre)),
                    Text::new(
                        headers[c].to_string(),
                        (x0 + 0.5, 1.25),
                        label_font().pos(centre),
                    ),
                ])?;
            }
            cells.draw_series([Text::new(
                "G =".to_string(),
                (-0.15, 0.5),
                label_font().pos(Pos::new(HPos::Right, VPos::Center)),
            )])?;
            // Braces under the two blocks, and what each is.
            let blocks = [
                (0.0, 1.0, 0, ["dᵀJ: the bead's block,", "1 column for θ"]),
                (
                    1.0,
                    3.0,
                    1,
                    ["−dᵀ: the particle's block,", "2 columns for x = (x, y)"],
                ),
            ];
            for (i, (a, b, k, words)) in blocks.into_iter().enumerate() {
                let y = -0.2 - 0.9 * i as f64;
                line(&mut cells, &[(a + 0.05, y), (b - 0.05, y)], color(k), 3)?;
                for (n, w) in words.iter().enumerate() {
                    cells.draw_series([Text::new(
                        w.to_string(),
                        ((a + b) / 2.0, y - 0.25 - 0.3 * n as f64),
                        tick.clone().pos(centre),
                    )])?;
                }
            }
            Ok(())
        },
    )
}

/// The page's bead on an ellipse at its (θ, θ̇): the wire q(θ) with ticks at equal
/// steps of θ, the tangent J = ∂q/∂θ, gravity f, the constraint force f̂ recovered
/// from equation 13's answer, and m q̈ = f + f̂.
fn bead_on_a_wire() -> Result<Vec<Drawing>, PbmError> {
    let model = ellipse_bead()?;
    let ([a, b], [theta, theta_dot]) = ELLIPSE_BEAD;
    let at = |u: f64| {
        let q = model.positions(&[u]);
        (q[0], q[1])
    };
    let wire: Vec<(f64, f64)> =
        (0..=360).map(|k| at(f64::from(k).to_radians())).collect();
    let tangent_at = |u: f64| {
        let j = model.jacobian(&[u]);
        (j[(0, 0)], j[(1, 0)])
    };
    let u = [theta];
    let u_dot = [theta_dot];
    let theta_ddot = generalized_acceleration(&model, &u, &u_dot)?[0];
    let reaction = constraint_force(&model, &u, &u_dot)?;
    let q_dot = model.jacobian(&u) * nalgebra::DVector::from_column_slice(&u_dot);
    let gravity = model.applied_force(&model.positions(&u), &q_dot);
    let bead = at(theta);
    let tangent = tangent_at(theta);
    let (f, f_hat) = ((gravity[0], gravity[1]), (reaction[0], reaction[1]));
    let total = (f.0 + f_hat.0, f.1 + f_hat.1);
    let work = tangent.0 * f_hat.0 + tangent.1 * f_hat.1;
    require_finite([theta_ddot, f_hat.0, f_hat.1, tangent.0, tangent.1, work])?;
    // Forces at 0.1 m per N; the tangent at 1 m per (m/rad).
    let scale = 0.1;
    let tip = |v: (f64, f64), s: f64| (bead.0 + s * v.0, bead.1 + s * v.1);
    let mass = model.masses()[0];
    let title = format!(
        "A {mass:.0} kg bead on the ellipse a = {a} m, b = {b} m, at θ = {theta}, \
         θ̇ = {theta_dot} rad/s"
    );
    titled_figure([470, 480], &title, |root, layout| {
        let legend: Legend = vec![
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
        ];
        let plot = legend_below(root, &legend)?;
        let (xr, yr) = equal_scale(&plot, -2.0..2.1, -1.0..0.8);
        let mut chart = chart_on(&plot).build_cartesian_2d(xr, yr)?;
        axes(&mut chart, "x (m)", "y (m)")
            .x_label_formatter(&|v| format!("{v:.1}"))
            .y_label_formatter(&|v| format!("{v:.1}"))
            .draw()?;
        line(&mut chart, &wire, REFERENCE, 2)?;
        // Ticks across the wire at every 15° of θ: close together where a radian
        // covers few metres (|T| = b at the ends), far apart where it covers many.
        for k in 0..24 {
            let u = f64::from(k) * 15f64.to_radians();
            let (p, t) = (at(u), tangent_at(u));
            let length = t.0.hypot(t.1);
            let normal = (t.1 / length * 0.05, -t.0 / length * 0.05);
            line(
                &mut chart,
                &[(p.0 - normal.0, p.1 - normal.1), (p.0 + normal.0, p.1 + normal.1)],
                REFERENCE,
                2,
            )?;
        }
        arrow(&mut chart, bead, tip(tangent, 1.0), 0.08, color(0), 3)?;
        arrow(&mut chart, bead, tip(f, scale), 0.08, color(1), 2)?;
        arrow(&mut chart, bead, tip(f_hat, scale), 0.06, color(2), 3)?;
        let end = tip(total, scale);
        dashed_line(&mut chart, &[bead, end], color(4), 2)?;
        let head = (end.0 - 0.1 * (end.0 - bead.0), end.1 - 0.1 * (end.1 - bead.1));
        arrow(&mut chart, head, end, 0.08, color(4), 2)?;
        chart.draw_series([Circle::new(bead, 6, REFERENCE.filled())])?;
        // Labels placed in pixels from their points, so that they sit the same in
        // the wide and the narrow drawing.
        let label = |text: &str, p: (f64, f64), offset: (i32, i32)| {
            EmptyElement::at(p) + Text::new(text.to_string(), offset, label_font())
        };
        let (t_tip, f_tip, r_tip) =
            (tip(tangent, 1.0), tip(f, scale), tip(f_hat, scale));
        chart.draw_series([
            label("T", t_tip, (-14, -24)),
            label("f", f_tip, (6, -8)),
            label("f̂", r_tip, (4, -22)),
            label("m q̈", end, (8, -10)),
            label("θ = 0", at(0.0), (10, -10)),
            label("θ = π/2", at(std::f64::consts::FRAC_PI_2), (-26, -26)),
        ])?;
        // The narrow drawing has no room left of the wire.
        if layout == Layout::Wide {
            chart.draw_series([label(
                "θ = π",
                at(std::f64::consts::PI),
                (-52, -10),
            )])?;
        }
        Ok(())
    })
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
    titled_figure(
        [500, 900],
        "Double pendulum, RK4 at h = 1 ms, two formulations",
        |root, layout| {
            let [left, right] = titled_panels(
                root,
                layout,
                [
                    "(a) horizontal position of the lower bob",
                    "(b) distance between the two lower bobs",
                ],
            )?;
            let legends = [
                vec![
                    (
                        "constraint forces (ch. 4)".into(),
                        Swatch::Line(color(0), LINE_WIDTH + 2),
                    ),
                    (
                        "angles (this chapter)".into(),
                        Swatch::Line(color(1), LINE_WIDTH),
                    ),
                ],
                vec![
                    (
                        "|p₂(ch. 4) − p₂(angles)|".into(),
                        Swatch::Line(color(2), LINE_WIDTH),
                    ),
                    (
                        format!("1 cm: apart at t = {apart:.2} s"),
                        Swatch::Dashed(REFERENCE, LINE_WIDTH),
                    ),
                ],
            ];
            let areas = legends_below(&[left, right], &legends)?;
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
