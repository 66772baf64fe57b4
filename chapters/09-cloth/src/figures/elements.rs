//! The figures of the cloth elements and contact: the pattern map, the hinge, self-contact and contact solves.

use super::*;

/// The pattern triangle of the map figure (m) and where its corners are in the
/// world (a plane, seen from above).
pub(super) const PATTERN: [[f64; 2]; 3] = [[0.0, 0.0], [0.3, 0.04], [0.06, 0.26]];
pub(super) const WORLD: [[f64; 2]; 3] = [[0.0, 0.0], [0.34, 0.13], [0.0, 0.28]];

pub(super) fn pattern_map() -> Result<Vec<Drawing>, PbmError> {
    use crate::triangle::RestTriangle;
    let triangle = RestTriangle::new([0, 1, 2], PATTERN)?;
    let x = WORLD.map(|p| nalgebra::Vector3::new(p[0], p[1], 0.0));
    let (w_u, w_v) = triangle.map(&x);
    require_finite(w_u.iter().chain(w_v.iter()).copied())?;
    let angle = w_u.angle(&w_v).to_degrees();
    titled_figure(
        [380, 700],
        "One triangle: its threads in the pattern, and where the map T takes them",
        |root, layout| {
            let legend: Legend = vec![
                (
                    format!(
                        "warp (u) threads, and one metre of warp: û, w{}",
                        sub("u")
                    ),
                    Swatch::Line(color(0), 2),
                ),
                (
                    format!(
                        "weft (v) threads, and one metre of weft: v̂, w{}",
                        sub("v")
                    ),
                    Swatch::Line(color(1), 2),
                ),
            ];
            let root = legend_below(root, &legend)?;
            let titles = [
                "(a) the pattern: (u, v) in metres of cloth".to_string(),
                format!(
                    "(b) the world: |w{}| {:.2}, |w{}| {:.2}, {angle:.0}°",
                    sub("u"),
                    w_u.norm(),
                    sub("v"),
                    w_v.norm()
                ),
            ];
            each_panel(
                &root,
                layout,
                (2, 2),
                |k| titles[k].clone(),
                |k, panel| {
                    // A point of the pattern, where the panel draws it.
                    let place = |u: f64, v: f64| -> (f64, f64) {
                        if k == 0 {
                            (u, v)
                        } else {
                            (u * w_u.x + v * w_v.x, u * w_u.y + v * w_v.y)
                        }
                    };
                    let named =
                        |v: &str| ["i", "j", "k"].map(|i| format!("{v}{}", sub(i)));
                    let (tenths, corners) = if k == 0 {
                        (["û/10".to_string(), "v̂/10".into()], named("p"))
                    } else {
                        (
                            [
                                format!("w{}/10", sub("u")),
                                format!("w{}/10", sub("v")),
                            ],
                            named("x"),
                        )
                    };
                    let corners = [&*corners[0], &*corners[1], &*corners[2]];
                    triangle_panel(
                        panel,
                        &place,
                        ([&*tenths[0], &*tenths[1]], corners),
                    )
                },
            )
        },
    )
}

/// A point of the pattern (u, v) where a panel of the map figure draws it.
pub(super) type Place<'a> = &'a dyn Fn(f64, f64) -> (f64, f64);

/// One panel of the map figure: the triangle's threads, its outline, a tenth of a
/// metre of warp and of weft as arrows, and its corners, each named.
pub(super) fn triangle_panel(
    panel: &Area<'_>,
    place: Place<'_>,
    (tenths, corner_names): ([&str; 2], [&str; 3]),
) -> DrawResult {
    let mut chart = scene_chart(panel, -0.08..0.42, -0.06..0.33)?;
    threads(&mut chart, place)?;
    let corners: Vec<(f64, f64)> =
        PATTERN.iter().map(|p| place(p[0], p[1])).collect();
    line(&mut chart, &closed_ring(&corners), REFERENCE, 2)?;
    let tenth = 0.1;
    let (u_tip, v_tip) = (place(tenth, 0.0), place(0.0, tenth));
    arrow(&mut chart, (0.0, 0.0), u_tip, 0.025, color(0), 3)?;
    arrow(&mut chart, (0.0, 0.0), v_tip, 0.025, color(1), 3)?;
    labels(
        &mut chart,
        &[
            (tenths[0], (u_tip.0 + 0.005, u_tip.1 - 0.03)),
            (tenths[1], (v_tip.0 - 0.075, v_tip.1 + 0.02)),
        ],
    )?;
    for (name, &(x, y)) in corner_names.iter().zip(&corners) {
        dots(&mut chart, &[(x, y)], 4, REFERENCE)?;
        labels(&mut chart, &[(name, (x + 0.01, y + 0.02))])?;
    }
    Ok(())
}

/// The threads through the map figure's triangle: lines of constant v (warp) and
/// constant u (weft), every 4 cm of pattern, clipped to the triangle.
pub(super) fn threads<'a, 'b: 'a>(
    chart: &mut Chart2d<'a, 'b>,
    place: Place<'_>,
) -> DrawResult {
    for step in 1..8 {
        let c = 0.04 * f64::from(step);
        for (warp, ink) in [(true, color(0)), (false, color(1))] {
            if let Some((p, q)) = chord(&PATTERN, warp, c) {
                let ends = [place(p[0], p[1]), place(q[0], q[1])];
                line(chart, &ends, pale(ink), 1)?;
            }
        }
    }
    Ok(())
}

/// The chord of `triangle` along a thread: the line v = c (warp) or u = c (weft)
/// where it crosses the triangle, if it does.
pub(super) fn chord(
    triangle: &[[f64; 2]; 3],
    warp: bool,
    c: f64,
) -> Option<([f64; 2], [f64; 2])> {
    let (fixed, free) = if warp { (1, 0) } else { (0, 1) };
    let mut hits = Vec::new();
    for e in 0..3 {
        let (p, q) = (triangle[e], triangle[(e + 1) % 3]);
        let (a, b) = (p[fixed] - c, q[fixed] - c);
        if a * b < 0.0 {
            let t = a / (a - b);
            let mut hit = [0.0; 2];
            hit[fixed] = c;
            hit[free] = p[free] + t * (q[free] - p[free]);
            hits.push(hit);
        }
    }
    (hits.len() == 2).then(|| (hits[0], hits[1]))
}

pub(super) fn hinge() -> Result<Vec<Drawing>, PbmError> {
    use crate::hinge::{Bend, RestHinge};
    use crate::triangle::RestTriangle;
    use pbm_particles::condition::Condition;
    // The pattern: edge a–b along x, c above, d below (m).
    let flat = [[0.0, 0.0], [0.4, 0.0], [0.14, 0.2], [0.26, -0.15]];
    let t1 = RestTriangle::new([0, 1, 2], [flat[0], flat[1], flat[2]])?;
    let t2 = RestTriangle::new([1, 0, 3], [flat[1], flat[0], flat[3]])?;
    let rest = RestHinge::between(&t1, &t2)?;
    // Folded: d's triangle turned 40° about the edge; its fold angle, from the
    // bend condition itself.
    let fold = 40f64.to_radians();
    let x: Vec<nalgebra::Vector3<f64>> = vec![
        nalgebra::Vector3::new(0.0, 0.0, 0.0),
        nalgebra::Vector3::new(0.4, 0.0, 0.0),
        nalgebra::Vector3::new(0.14, 0.2, 0.0),
        nalgebra::Vector3::new(0.26, -0.15 * fold.cos(), 0.15 * fold.sin()),
    ];
    let bend = Bend(rest.clone());
    let mut c = [0.0];
    let mut j = [nalgebra::Vector3::zeros(); 4];
    bend.position(&x, &mut c, &mut j)?;
    let theta = c[0] * rest.l_perp / rest.area.sqrt();
    require_finite([theta, rest.l_perp])?;
    titled_figure(
        [400, 700],
        "A hinge: the triangles a b c and b a d share the edge a b",
        |root, layout| {
            let titles = [
                format!(
                    "(a) flat: l⊥ = (h{} + h{})/3 = {:.3} m",
                    sub("c"),
                    sub("d"),
                    rest.l_perp
                ),
                format!(
                    "(b) along the edge: folded by θ = {:.0}°",
                    theta.to_degrees().abs()
                ),
            ];
            each_panel(
                root,
                layout,
                (2, 2),
                |k| titles[k].clone(),
                |k, panel| {
                    if k == 0 {
                        flat_hinge(panel, &flat)
                    } else {
                        folded_hinge(panel, fold)
                    }
                },
            )
        },
    )
}

/// The hinge flat, in its pattern (m): the two triangles, the shared edge, the
/// heights h_c and h_d, the triangles' centres a third of the way up them, and l⊥
/// between the centres.
pub(super) fn flat_hinge(panel: &Area<'_>, flat: &[[f64; 2]; 4]) -> DrawResult {
    let mut chart = scene_chart(panel, -0.06..0.52, -0.2..0.25)?;
    let pt = |i: usize| (flat[i][0], flat[i][1]);
    for tri in [[0, 1, 2, 0], [0, 1, 3, 0]] {
        let path: Vec<(f64, f64)> = tri.iter().map(|&i| pt(i)).collect();
        shape(&mut chart, &path, color(0).mix(0.12), (REFERENCE, 2))?;
    }
    line(&mut chart, &[pt(0), pt(1)], color(1), 4)?;
    dashed_line(&mut chart, &[pt(2), (flat[2][0], 0.0)], REFERENCE, 1)?;
    dashed_line(&mut chart, &[pt(3), (flat[3][0], 0.0)], REFERENCE, 1)?;
    let centre =
        |i: usize| ((flat[0][0] + flat[1][0] + flat[i][0]) / 3.0, flat[i][1] / 3.0);
    dots(&mut chart, &[centre(2), centre(3)], 5, color(2))?;
    let at = flat[1][0] + 0.05;
    for i in [2, 3] {
        dashed_line(&mut chart, &[centre(i), (at, centre(i).1)], color(2), 1)?;
    }
    let (c, d) = ((at, centre(2).1), (at, centre(3).1));
    arrow(&mut chart, d, c, 0.02, color(2), 2)?;
    arrow(&mut chart, c, d, 0.02, color(2), 2)?;
    let (h_c, h_d) = (format!("h{}", sub("c")), format!("h{}", sub("d")));
    labels(
        &mut chart,
        &[
            ("a", (-0.04, 0.01)),
            ("b", (0.405, -0.035)),
            ("c", (flat[2][0], flat[2][1] + 0.03)),
            ("d", (flat[3][0] + 0.01, flat[3][1] - 0.005)),
            (&h_c, (flat[2][0] + 0.01, 0.12)),
            (&h_d, (flat[3][0] + 0.01, -0.07)),
            ("l⊥", (at + 0.012, 0.05)),
        ],
    )
}

/// The hinge seen along its edge (a point here), folded by `fold`: face c to the
/// left and up the page, face d turned by the fold, their normals, and the angle.
pub(super) fn folded_hinge(panel: &Area<'_>, fold: f64) -> DrawResult {
    let (h_c, h_d) = (0.2, 0.15);
    let mut chart = scene_chart(panel, -0.2..0.28, -0.2..0.25)?;
    let face_c = (-h_c, 0.0);
    let face_d = (h_d * fold.cos(), h_d * fold.sin());
    line(&mut chart, &[face_c, (0.0, 0.0), face_d], REFERENCE, 3)?;
    dashed_line(&mut chart, &[(0.0, 0.0), (h_d, 0.0)], REFERENCE, 1)?;
    dots(&mut chart, &[(0.0, 0.0)], 6, color(1))?;
    let n_c = (0.0, 0.12);
    let n_d = (-0.12 * fold.sin(), 0.12 * fold.cos());
    let base_c = (-0.6 * h_c, 0.0);
    let base_d = (0.6 * face_d.0, 0.6 * face_d.1);
    let tip_c = (base_c.0 + n_c.0, base_c.1 + n_c.1);
    let tip_d = (base_d.0 + n_d.0, base_d.1 + n_d.1);
    arrow(&mut chart, base_c, tip_c, 0.025, color(0), 2)?;
    arrow(&mut chart, base_d, tip_d, 0.025, color(0), 2)?;
    let arc: Vec<(f64, f64)> = (0..=20)
        .map(|i| {
            let a = fold * f64::from(i) / 20.0;
            (0.09 * a.cos(), 0.09 * a.sin())
        })
        .collect();
    line(&mut chart, &arc, color(2), 2)?;
    let (n_c_name, n_d_name) = (format!("n{}", sub("c")), format!("n{}", sub("d")));
    labels(
        &mut chart,
        &[
            ("edge a b", (-0.07, -0.04)),
            ("c's face", (face_c.0, -0.03)),
            ("d's face", (face_d.0 - 0.02, face_d.1 + 0.03)),
            (&n_c_name, (base_c.0 + 0.01, base_c.1 + 0.13)),
            (&n_d_name, (tip_d.0 - 0.05, tip_d.1 + 0.03)),
            ("θ", (0.1, 0.02)),
        ],
    )
}

/// `c` mixed halfway to white: a thread drawn behind the figure's arrows.
pub(super) fn pale(c: RGBColor) -> RGBColor {
    let half = |v: u8| ((u16::from(v) + 255) / 2) as u8;
    RGBColor(half(c.0), half(c.1), half(c.2))
}

/// The figure's napkin: `cloth/self-contact` at its defaults.
pub(super) const FOLD: (usize, f64, f64, f64) = (16, 10.0, 0.01, 100.0);

/// The steps of h = 1/30 s after which the side views are drawn.
pub(super) const FOLD_STEPS: [usize; 5] = [0, 2, 4, 9, 60];

/// One run of the figure's napkin: the middle column of particles, (y, z) in m,
/// after each of [`FOLD_STEPS`], and the smallest signed distance of any pair at the
/// start of each step, (t, d) in s and m.
pub(super) type Fold = (Vec<Vec<(f64, f64)>>, Vec<(f64, f64)>);

pub(super) fn fold_run(respond: bool) -> Result<Fold, PbmError> {
    let (n, opening, thickness, stiffness) = FOLD;
    let model = napkin(n, opening.to_radians(), (thickness, stiffness), respond)?;
    let h = 1.0 / 30.0;
    let (mut columns, mut nearest) = (Vec::new(), Vec::new());
    let column = |c: &Cloth| -> Vec<(f64, f64)> {
        (0..n).map(|i| (c.x[i * n + n / 2].y, c.x[i * n + n / 2].z)).collect()
    };
    let steps = FOLD_STEPS[FOLD_STEPS.len() - 1];
    let r = run(model, h, steps, false, 1, |c| {
        if FOLD_STEPS.iter().any(|&k| (c.t - k as f64 * h).abs() < 0.5 * h) {
            columns.push(column(c));
        }
        if let Some(d) = c.self_contact.as_ref().and_then(|s| s.nearest) {
            nearest.push((c.t - h, d));
        }
    })?;
    match r.failure {
        Some(why) => Err(PbmError::Figure { why }),
        None => Ok((columns, nearest)),
    }
}

pub(super) fn self_contact() -> Result<Vec<Drawing>, PbmError> {
    let runs = map_range(2, |k| fold_run(k == 1));
    let runs = runs.into_iter().collect::<Result<Vec<_>, _>>()?;
    let points = runs.iter().flat_map(|(c, d)| c.iter().flatten().chain(d));
    require_finite(points.flat_map(|p| [p.0, p.1]))?;
    titled_figure(
        [760, 1180],
        "A napkin glued to a board over 60 cm, its 40 cm flap opened 10° and let go \
         (16 × 16 particles, h = 1/30 s)",
        |root, layout| {
            let (top, bottom) = root.split_vertically(layout.pick(440, 760));
            side_views(&top, layout, &runs)?;
            closest_over_time(&bottom, &runs)
        },
    )
}

/// Panels (a) and (b) of the self-contact figure: the middle column of each run
/// seen from the side after [`FOLD_STEPS`].
pub(super) fn side_views(
    area: &Area<'_>,
    layout: Layout,
    runs: &[Fold],
) -> DrawResult {
    let times: Legend = series_legend(&FOLD_STEPS, Swatch::Line, LINE_WIDTH, |k| {
        format!("t = {:.2} s", *k as f64 / 30.0)
    });
    let area = legend_below(area, &times)?;
    let titles = ["(a) without self-contact", "(b) with it (heights in cm)"];
    let ranges = [(-0.05..1.0, -0.45..0.1), (0.1..0.65, -1.0..8.0)];
    let units = [("height (m)", 1.0), ("height (cm)", 100.0)];
    for (p, (panel, title)) in
        panels(&area, layout, 2, 2).iter().zip(titles).enumerate()
    {
        let panel = titled(panel, title, &label_font())?;
        let (x, y) = ranges[p].clone();
        let (unit, scale) = units[p];
        let mut chart = chart_on(&panel).build_cartesian_2d(x, y)?;
        axes(&mut chart, "along the napkin, y (m)", unit)
            .x_label_formatter(&|y| format!("{y:.1}"))
            .y_label_formatter(&|z| format!("{z:.1}"))
            .draw()?;
        for (i, points) in runs[p].0.iter().enumerate() {
            let points: Vec<_> =
                points.iter().map(|&(y, z)| (y, z * scale)).collect();
            line(&mut chart, &points, color(i), LINE_WIDTH)?;
        }
    }
    Ok(())
}

/// Panel (c) of the self-contact figure: the smallest signed distance of any pair
/// at each step of each run, and the thickness.
pub(super) fn closest_over_time(area: &Area<'_>, runs: &[Fold]) -> DrawResult {
    let legend: Legend = vec![
        ("without self-contact".into(), Swatch::Line(color(4), LINE_WIDTH)),
        ("with it".into(), Swatch::Line(color(5), LINE_WIDTH)),
        ("the thickness τ".into(), Swatch::Dashed(REFERENCE, 1)),
    ];
    let area = legend_below(area, &legend)?;
    let title = "(c) the nearest vertex over a triangle, signed";
    let area = titled(&area, title, &label_font())?;
    let mut chart = chart_on(&area).build_cartesian_2d(0.0..2.0, -13.0..4.0)?;
    axes(&mut chart, "time (s)", "distance (cm)")
        .x_label_formatter(&|t| format!("{t:.1}"))
        .y_label_formatter(&|d| format!("{d:.0}"))
        .draw()?;
    for (k, (_, nearest)) in runs.iter().enumerate() {
        let points: Vec<_> = nearest.iter().map(|&(t, d)| (t, 100.0 * d)).collect();
        line(&mut chart, &points, color(4 + k), LINE_WIDTH)?;
    }
    let tau = 100.0 * FOLD.2;
    dashed_line(&mut chart, &[(0.0, tau), (2.0, tau)], REFERENCE, 1)
}

/// The solids of the CG figure, with their names in its legend.
pub(super) const CG_SOLIDS: [(SolidKind, &str); 3] = [
    (SolidKind::Sphere, "ball"),
    (SolidKind::Box, "box (four edges, four corners)"),
    (SolidKind::Bar, "bar (two edges, no corners)"),
];

pub(super) fn contact_cg() -> Result<Vec<Drawing>, PbmError> {
    // `cloth/contact` at its defaults on each solid: 8 s at h = 1/30 s.
    let h = 1.0 / 30.0;
    let runs = map_range(CG_SOLIDS.len(), |k| {
        let model = on_solid(CG_SOLIDS[k].0, 16, ClothMaterial::COTTON, 1000.0)?;
        let r = run(model, h, 240, false, usize::MAX, |_| {})?;
        let points = r.cg_iterations.iter().enumerate();
        Ok(points.map(|(i, &n)| ((i + 1) as f64 * h, n as f64)).collect::<Vec<_>>())
    })
    .into_iter()
    .collect::<Result<Vec<_>, PbmError>>()?;
    require_finite(runs.iter().flatten().map(|p| p.1))?;
    let top = runs.iter().flatten().map(|p| p.1).fold(0.0, f64::max) * 1.05;
    titled_figure(
        [420, 520],
        "CG iterations of each step of cloth/contact, the cloth held on three solids",
        |root, _| {
            let legend: Legend =
                series_legend(&CG_SOLIDS, Swatch::Line, LINE_WIDTH, |s| {
                    s.1.to_string()
                });
            let root = legend_below(root, &legend)?;
            let mut chart = chart_on(&root).build_cartesian_2d(0.0..8.0, 0.0..top)?;
            axes(&mut chart, "time (s)", "CG iterations")
                .x_label_formatter(&|t| format!("{t:.0}"))
                .y_label_formatter(&|i| format!("{i:.0}"))
                .draw()?;
            palette_lines(&mut chart, &runs)?;
            Ok(())
        },
    )
}
