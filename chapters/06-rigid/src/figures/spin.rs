//! The figures of free spin: the polhode, the gyroscopic term and the projection integral.

use super::*;

/// An orthographic view: a point → (screen x, screen y, depth towards the viewer).
pub(super) struct View {
    right: Vector3<f64>,
    up: Vector3<f64>,
    toward: Vector3<f64>,
}

impl View {
    /// Looking back along `toward` (from the viewer to the scene's centre, reversed),
    /// with `up` as near the screen's vertical as it can be.
    fn new(toward: Vector3<f64>, up: Vector3<f64>) -> Self {
        let toward = toward.normalize();
        let right = up.cross(&toward).normalize();
        View { right, up: toward.cross(&right), toward }
    }

    fn at(&self, p: &Vector3<f64>) -> (f64, f64) {
        (p.dot(&self.right), p.dot(&self.up))
    }

    /// Splits a path into runs on the near side (depth ≥ 0) and the far side.
    fn sides(&self, path: &[Vector3<f64>]) -> Vec<(bool, Vec<(f64, f64)>)> {
        let mut runs: Vec<(bool, Vec<(f64, f64)>)> = Vec::new();
        for p in path {
            let near = p.dot(&self.toward) >= 0.0;
            match runs.last_mut() {
                Some((side, run)) if *side == near => run.push(self.at(p)),
                Some((_, run)) => {
                    let last = run[run.len() - 1];
                    runs.push((near, vec![last, self.at(p)]));
                }
                None => runs.push((near, vec![self.at(p)])),
            }
        }
        runs
    }
}

/// The silhouette of the ellipsoid pᵀ diag(1/a²) p = 1 seen through `view`: the
/// points where its normal is perpendicular to the line of sight.
pub(super) fn ellipsoid_outline(a: &Vector3<f64>, view: &View) -> Vec<(f64, f64)> {
    let form = Matrix3::from_diagonal(&a.map(|x| 1.0 / (x * x)));
    // The outline lies in the plane through the centre perpendicular to A d.
    let normal = (form * view.toward).normalize();
    let u = normal.cross(&view.up).normalize();
    let v = normal.cross(&u);
    (0..=360)
        .map(|k| {
            let phi = (k as f64).to_radians();
            let dir = u * phi.cos() + v * phi.sin();
            view.at(&(dir / dir.dot(&(form * dir)).sqrt()))
        })
        .collect()
}

/// The Dzhanibekov run's body-frame angular momentum on the sphere |L| = const,
/// with the run's energy ellipsoid and the polhodes of six other energies.
pub(super) fn polhode_figure() -> Result<Vec<Drawing>, PbmError> {
    let run: Vec<Vector3<f64>> = dzhanibekov_run(DZHANIBEKOV_T_END)?
        .iter()
        .map(Sample::body_momentum)
        .collect();
    let moments = tumbling_block()?.inertia.diagonal();
    let radius = run[0].norm();
    let two_e = run[0].component_div(&moments).dot(&run[0]);
    let mut family = Vec::new();
    for degrees in [20.0, 45.0, 70.0_f64] {
        let (s, c) = degrees.to_radians().sin_cos();
        for start in [Vector3::new(s, c, 0.0), Vector3::new(0.0, c, s)] {
            family.push(polhode(start * radius, 12.0)?);
        }
    }
    require_finite(
        run.iter().chain(family.iter().flatten()).flat_map(|p| p.iter().copied()),
    )?;
    let ellipsoid = moments.map(|i| (two_e * i).sqrt());
    let view = View::new(Vector3::new(0.85, 0.45, 0.7), Vector3::y());
    let legend: Legend = vec![
        (
            "the run: L in body axes over 30 s (far side thin)".into(),
            Swatch::Line(color(1), 4),
        ),
        (
            "polhodes of six other energies, same |L|".into(),
            Swatch::Line(REFERENCE, 1),
        ),
        (format!("sphere |L| = {radius:.2} kg m²/s"), Swatch::Line(color(0), 2)),
        (
            "energy ellipsoid of the run, L·I⁻¹L = 2E".into(),
            Swatch::Dashed(color(3), 2),
        ),
    ];
    titled_figure(
        [560, 560],
        "1 × 2 × 3 m block: where L can be, seen in the body frame",
        |root, layout| {
            let plot = legend_below(root, &legend)?;
            let r = 1.35 * ellipsoid.max();
            let mut chart = scene_chart(&plot, -r..r, -r..r)?;
            let circle: Vec<(f64, f64)> = (0..=360)
                .map(|k| {
                    let (s, c) = (k as f64).to_radians().sin_cos();
                    (radius * c, radius * s)
                })
                .collect();
            line(&mut chart, &circle, color(0), 2)?;
            dashed_line(
                &mut chart,
                &ellipsoid_outline(&ellipsoid, &view),
                color(3),
                2,
            )?;
            for path in &family {
                for (near, part) in view.sides(path) {
                    let shade = REFERENCE.mix(if near { 0.55 } else { 0.2 });
                    chart.draw_series([PathElement::new(
                        part,
                        shade.stroke_width(1),
                    )])?;
                }
            }
            draw_momentum_axes(
                &mut chart,
                &view,
                (radius, 1.2 * ellipsoid.max()),
                layout,
            )?;
            for (near, part) in view.sides(&run) {
                let width = if near { 4 } else { 1 };
                chart.draw_series([PathElement::new(
                    part,
                    color(1).stroke_width(width),
                )])?;
            }
            Ok(())
        },
    )
}

/// The polhode figure's body axes through `view`, each from −`radius` (faint) to
/// `reach` (an arrow, named), and the poles ±y on the sphere of that radius.
pub(super) fn draw_momentum_axes<'a, 'b: 'a>(
    chart: &mut LinearChart<'a, 'b>,
    view: &View,
    (radius, reach): (f64, f64),
    layout: Layout,
) -> DrawResult {
    let names = ["x: largest moment", "y: middle", "z: smallest"];
    for (k, name) in names.iter().enumerate() {
        let axis = Vector3::ith(k, 1.0);
        let (back, tip) = (view.at(&(-axis * radius)), view.at(&(axis * reach)));
        let faint = REFERENCE.mix(0.4).stroke_width(1);
        chart.draw_series([PathElement::new(vec![back, (0.0, 0.0)], faint)])?;
        arrow(chart, (0.0, 0.0), tip, 0.3, REFERENCE, 1)?;
        let at = match k {
            1 => (tip.0 + 0.2, tip.1 + 0.3),
            _ => (tip.0 + 0.1, tip.1 - 0.2),
        };
        let name: &str = layout.pick(name, &name[..1]);
        text(chart, name, at, &anchored(label_font(), HPos::Left, VPos::Top))?;
    }
    for y in [radius, -radius] {
        dots(chart, &[view.at(&Vector3::new(0.0, y, 0.0))], 4, REFERENCE)?;
    }
    let bottom = view.at(&Vector3::new(0.0, -radius, 0.0));
    let style = anchored(label_font(), HPos::Right, VPos::Center);
    text(chart, "−y", (bottom.0 - 0.25, bottom.1), &style)
}

/// The brick of `rigid/gyroscopic` at its defaults: E/E₀ and |L|/|L₀| against time
/// for forward Euler and for backward Euler with one Newton step.
pub(super) fn gyroscopic() -> Result<Vec<Drawing>, PbmError> {
    let GyroscopicSetup { spin, h, t_end, newton } = GYROSCOPIC;
    let samples = gyroscopic_run(spin, h, t_end, newton)?;
    let (e0, l0) = (samples[0].energy_implicit, samples[0].momentum_implicit);
    let curve = |f: &dyn Fn(&crate::scenes::SpinSample) -> Option<f64>| {
        samples.iter().filter_map(|s| f(s).map(|y| (s.t, y))).collect::<Vec<_>>()
    };
    let curves = [
        ("forward Euler: E/E₀", curve(&|s| s.energy_explicit.map(|e| e / e0))),
        ("forward Euler: |L|/|L₀|", curve(&|s| s.momentum_explicit.map(|l| l / l0))),
        ("backward Euler: E/E₀", curve(&|s| Some(s.energy_implicit / e0))),
        ("backward Euler: |L|/|L₀|", curve(&|s| Some(s.momentum_implicit / l0))),
    ];
    let newton_label =
        format!("{newton} Newton step{}", if newton == 1 { "" } else { "s" });
    require_finite(curves.iter().flat_map(|c| c.1.iter().map(|p| p.1)))?;
    let top = curves.iter().flat_map(|c| c.1.iter().map(|p| p.1)).fold(1.0, f64::max);
    let style = |k: usize| {
        let c = color(if k < 2 { 3 } else { 0 });
        if k.is_multiple_of(2) {
            Swatch::Line(c, LINE_WIDTH + 1)
        } else {
            Swatch::Dashed(c, 2)
        }
    };
    let mut legend: Legend =
        curves.iter().enumerate().map(|(k, c)| (c.0.to_string(), style(k))).collect();
    legend[2].0 = format!("{} ({newton_label})", legend[2].0);
    legend.push(("exact: both stay 1".into(), Swatch::Dashed(REFERENCE, 1)));
    let title = format!(
        "10 × 40 × 20 cm brick tumbling at {spin} rad/s, no torque, h = {:.1} ms",
        h * 1e3
    );
    titled_figure([460, 520], &title, |root, _| {
        let plot = legend_below(root, &legend)?;
        let mut chart =
            chart_on(&plot).build_cartesian_2d(0.0..t_end, 0.5..top * 1.05)?;
        axes(&mut chart, "time t (s)", "E and |L| over their start").draw()?;
        dashed_line(&mut chart, &[(0.0, 1.0), (t_end, 1.0)], REFERENCE, 1)?;
        for (k, (_, points)) in curves.iter().enumerate() {
            match style(k) {
                Swatch::Dashed(c, w) => dashed_line(&mut chart, points, c, w)?,
                Swatch::Line(c, w) => line(&mut chart, points, c, w)?,
                _ => {}
            }
        }
        Ok(())
    })
}

/// Mirtich's middle reduction for one tilted face: (a) the face, its shadow Π on the
/// coordinate plane (a, b) across the largest normal component, and the drop along
/// c; (b) the shadow flat, with the edge integral around it.
pub(super) fn projection_integral() -> Result<Vec<Drawing>, PbmError> {
    let tri = [
        Vector3::new(0.4, 0.3, 1.1),
        Vector3::new(2.0, 0.6, 1.6),
        Vector3::new(0.9, 1.8, 2.0),
    ];
    let normal = (tri[1] - tri[0]).cross(&(tri[2] - tri[0])).normalize();
    let (a, b, c) = projection_axes(&normal);
    let area = projected_area(&tri, a, b);
    let shadow: Vec<Vector3<f64>> = tri
        .iter()
        .map(|p| {
            let mut q = *p;
            q[c] = 0.0;
            q
        })
        .collect();
    require_finite(tri.iter().flatten().copied().chain([area]))?;
    let axis = ["x", "y", "z"];
    let names = (axis[a], axis[b], axis[c]);
    let flat: Vec<(f64, f64)> = tri.iter().map(|p| (p[a], p[b])).collect();
    titled_figure(
        [430, 820],
        "One face of a mesh, and the integral Mirtich's method takes over it",
        |root, layout| {
            let parts = titled_panels(
                root,
                layout,
                [
                    &format!("(a) the face and its shadow Π across {}", names.2),
                    &format!(
                        "(b) Π in the ({}, {}) plane: P₁ = {area:.3} m²",
                        names.0, names.1
                    ),
                ],
            )?;
            draw_face_and_shadow(&parts[0], &tri, &shadow, [a, b, c])?;
            draw_edge_integral(&parts[1], &flat, (names.0, names.1))
        },
    )
}

/// Panel (a) of [`projection_integral`]: the face `tri` over its `shadow` on the
/// floor, seen from above, with its normal and the axes, each named by its letter
/// in the reduction (`abc`: the axes' indices as a, b and c).
pub(super) fn draw_face_and_shadow(
    area: &Area<'_>,
    tri: &[Vector3<f64>; 3],
    shadow: &[Vector3<f64>],
    abc: [usize; 3],
) -> DrawResult {
    let normal = (tri[1] - tri[0]).cross(&(tri[2] - tri[0])).normalize();
    let view = View::new(Vector3::new(0.9, -1.6, 1.0), Vector3::ith(abc[2], 1.0));
    let mut left = scene_chart(area, -0.6..2.4, -0.6..2.6)?;
    let on_screen = |points: &[Vector3<f64>]| -> Vec<(f64, f64)> {
        points.iter().map(|p| view.at(p)).collect()
    };
    let floor = on_screen(&[
        Vector3::new(-0.2, -0.2, 0.0),
        Vector3::new(2.4, -0.2, 0.0),
        Vector3::new(2.4, 2.2, 0.0),
        Vector3::new(-0.2, 2.2, 0.0),
        Vector3::new(-0.2, -0.2, 0.0),
    ]);
    left.draw_series([Polygon::new(floor.clone(), REFERENCE.mix(0.08).filled())])?;
    left.draw_series([PathElement::new(floor, REFERENCE.mix(0.5).stroke_width(1))])?;
    left.draw_series([Polygon::new(on_screen(shadow), color(0).mix(0.35).filled())])?;
    for (p, q) in tri.iter().zip(shadow) {
        dashed_line(&mut left, &[view.at(p), view.at(q)], REFERENCE, 1)?;
    }
    let face = on_screen(tri);
    left.draw_series([Polygon::new(face.clone(), color(1).mix(0.45).filled())])?;
    let mut outline = face.clone();
    outline.push(face[0]);
    line(&mut left, &outline, color(1), 2)?;
    let centre = (tri[0] + tri[1] + tri[2]) / 3.0;
    arrow(
        &mut left,
        view.at(&centre),
        view.at(&(centre + normal * 0.8)),
        0.15,
        REFERENCE,
        2,
    )?;
    let origin = Vector3::new(-0.2, -0.2, 0.0);
    let axis = ["x", "y", "z"];
    for (k, letter) in abc.into_iter().zip(["a", "b", "c"]) {
        let tip = origin + Vector3::ith(k, 0.7);
        arrow(&mut left, view.at(&origin), view.at(&tip), 0.12, REFERENCE, 1)?;
        let at = view.at(&(origin + Vector3::ith(k, 0.82)));
        text(&mut left, format!("{} = {letter}", axis[k]), at, &label_font())?;
    }
    let tip = view.at(&(centre + normal * 0.9));
    let middle = view.at(&((shadow[0] + shadow[1] + shadow[2]) / 3.0));
    text(&mut left, "n", (tip.0 + 0.05, tip.1 + 0.1), &label_font())?;
    text(&mut left, "face", (face[1].0 + 0.05, face[1].1 + 0.05), &label_font())?;
    text(&mut left, "Π", middle, &label_font())
}

/// Panel (b) of [`projection_integral`]: the shadow `flat` in the (a, b) plane (the
/// axes `names`), its edges walked around, and the first edge's legs Δa and Δb.
pub(super) fn draw_edge_integral(
    area: &Area<'_>,
    flat: &[(f64, f64)],
    names: (&str, &str),
) -> DrawResult {
    let mut right = chart_on(area).build_cartesian_2d(
        equal_scale(area, 0.0..2.4, 0.0..2.2).0,
        equal_scale(area, 0.0..2.4, 0.0..2.2).1,
    )?;
    axes(
        &mut right,
        &format!("a = {} (m)", names.0),
        &format!("b = {} (m)", names.1),
    )
    .draw()?;
    right.draw_series([Polygon::new(flat.to_vec(), color(0).mix(0.35).filled())])?;
    for e in 0..3 {
        let (p, q) = (flat[e], flat[(e + 1) % 3]);
        line(&mut right, &[p, q], color(0), 2)?;
        arrow(
            &mut right,
            p,
            (p.0 + 0.55 * (q.0 - p.0), p.1 + 0.55 * (q.1 - p.1)),
            0.12,
            color(0),
            2,
        )?;
    }
    let (p, q) = (flat[0], flat[1]);
    dashed_line(&mut right, &[p, (q.0, p.1), q], color(3), 2)?;
    let middle = (
        0.5 * (flat[0].0 + flat[1].0 + flat[2].0) / 1.5,
        (flat[0].1 + flat[1].1 + flat[2].1) / 3.0,
    );
    let labels = [
        ("(a₀, b₀)", (p.0 - 0.1, p.1 - 0.08)),
        ("(a₁, b₁)", (q.0 - 0.1, q.1 + 0.18)),
        ("Δa", (0.5 * (p.0 + q.0), p.1 - 0.05)),
        ("Δb", (q.0 + 0.05, 0.5 * (p.1 + q.1) + 0.05)),
        ("Π", middle),
        ("∮ F db = ∬ ∂F/∂a dA", (0.05, 2.15)),
    ];
    for (name, at) in labels {
        text(&mut right, name, at, &label_font())?;
    }
    Ok(())
}
