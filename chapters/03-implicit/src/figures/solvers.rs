//! The figures of the solvers and the damping: the colour order, stability regions, implicit midpoint and aggregation multigrid.

use super::*;

/// The springs behind the coloured particles: a light grey.
pub(super) const SPRING: RGBColor = RGBColor(170, 170, 170);

/// Particles of the sheet drawn in the colour-order figure, along a side.
pub(super) const COLOURED_SIDE: usize = 8;

/// The colour-order figure's sheet: its matrix, the order the sweep takes its
/// particles in, each colour's range of that order, and each particle's colour and
/// place in the order.
pub(super) struct ColourOrder {
    a: crate::block_sparse::BlockSparse<3>,
    order: Vec<usize>,
    colours: Vec<std::ops::Range<usize>>,
    colour_of: Vec<usize>,
    rank: Vec<usize>,
}

impl ColourOrder {
    fn new(n: usize) -> Result<Self, PbmError> {
        let (a, _) = sheet(n, 1000.0)?.system_matrices(1.0 / 30.0, None)?;
        let (order, colours) = colour_order(&a);
        let mut colour_of = vec![0; order.len()];
        let mut rank = vec![0; order.len()];
        for (c, range) in colours.iter().enumerate() {
            for k in range.clone() {
                (colour_of[order[k]], rank[order[k]]) = (c, k);
            }
        }
        Ok(ColourOrder { a, order, colours, colour_of, rank })
    }

    /// Panel (a): the springs, and each particle a disc of its colour carrying its
    /// place in the sweep.
    fn draw_sheet(&self, area: &Area<'_>, n: usize) -> DrawResult {
        let at = |i: usize| ((i % n) as f64, (i / n) as f64);
        let side = (n - 1) as f64;
        let mut chart = scene_chart(area, -0.5..side + 0.5, -0.5..side + 0.5)?;
        for i in 0..self.a.block_rows() {
            for &j in self.a.row(i).0.iter().filter(|&&j| j > i) {
                line(&mut chart, &[at(i), at(j)], SPRING, 1)?;
            }
        }
        let white = anchored(label_font().color(&WHITE), HPos::Center, VPos::Center);
        for i in 0..self.a.block_rows() {
            dots(&mut chart, &[at(i)], 11, color(self.colour_of[i]))?;
            text(&mut chart, format!("{}", self.rank[i] + 1), at(i), &white)?;
        }
        Ok(())
    }

    /// Panel (b): the matrix in sweep order, each colour's diagonal square shaded.
    fn draw_matrix(&self, area: &Area<'_>) -> DrawResult {
        let size = self.a.block_rows() as f64;
        let mut chart = scene_chart(area, 0.0..size, 0.0..size)?;
        let cell = |r: usize, c: usize, style: ShapeStyle| {
            let (x, y) = (c as f64, size - 1.0 - r as f64);
            Rectangle::new([(x, y), (x + 1.0, y + 1.0)], style)
        };
        for (c, range) in self.colours.iter().enumerate() {
            let (lo, hi) = (range.start as f64, range.end as f64);
            chart.draw_series([Rectangle::new(
                [(lo, size - hi), (hi, size - lo)],
                color(c).mix(0.3).filled(),
            )])?;
        }
        for (p, &i) in self.order.iter().enumerate() {
            for &j in self.a.row(i).0 {
                let style = if i == j {
                    color(self.colour_of[i]).filled()
                } else {
                    REFERENCE.filled()
                };
                chart.draw_series([cell(p, self.rank[j], style)])?;
            }
        }
        Ok(())
    }
}

pub(super) fn colour_order_figure() -> Result<Vec<Drawing>, PbmError> {
    let n = COLOURED_SIDE;
    let ordered = ColourOrder::new(n)?;
    let count = ordered.colours.len();
    let mut legend: Legend = (0..count)
        .map(|c| {
            let swept = match c {
                0 => " (swept first)".to_string(),
                c if c + 1 == count => " (swept last)".to_string(),
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
            ordered.draw_sheet(&titled(&parts[0], &titles[0], &font)?, n)?;
            ordered.draw_matrix(&titled(&parts[1], &titles[1], &font)?)
        },
    )
}

pub(super) fn stability_regions() -> Result<Vec<Drawing>, PbmError> {
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
            for (x, y, name, c, dy) in marks {
                dots(&mut chart, &[(x, y)], 4, c)?;
                text(&mut chart, name, (x + 0.08, y + dy), &label_font())?;
            }
            Ok(())
        },
    )
}

/// Implicit midpoint beside the chapter's two ways of keeping energy: (a) the energy
/// error on the swinging spring at 20 ms, against symplectic Euler; (b) the stiff
/// mode y of ẋ = −x, ẏ = −k y at hk = 100, against backward Euler.
pub(super) fn midpoint() -> Result<Vec<Drawing>, PbmError> {
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
    let stiff =
        [stiff_mode(false, h_stiff, steps)?, stiff_mode(true, h_stiff, steps)?];
    require_finite(
        swings
            .iter()
            .flat_map(|s| &s.1)
            .chain(stiff.iter().flatten())
            .flat_map(|p| [p.0, p.1]),
    )?;
    let top = swings.iter().flat_map(|s| &s.1).map(|p| p.1.abs()).fold(0.0, f64::max);
    let legends = midpoint_legends(&swings);
    let titles = [
        "(a) energy error on the swinging spring".to_string(),
        format!("(b) the stiff mode y at hk = {}", h_stiff * k),
    ];
    draw_figure([430, 720], |root, layout| {
        let titles = [titles[0].as_str(), titles[1].as_str()];
        let plots = panels_with_legends(root, layout, titles, &legends)?;
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
            line_and_dots(&mut chart, ys, (c, LINE_WIDTH), 3)?;
        }
        Ok(())
    })
}

/// The midpoint figure's legends: the swinging spring's runs with the largest energy
/// error each makes, and the stiff mode's two methods.
pub(super) fn midpoint_legends(swings: &[(&str, Vec<(f64, f64)>)]) -> [Legend; 2] {
    [
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
    ]
}

/// The stiff mode y of ẋ = −x, ẏ = −K y from (1, 1), after each of `steps` steps of
/// `h` by implicit midpoint or by backward Euler.
pub(super) fn stiff_mode(
    implicit_midpoint: bool,
    h: f64,
    steps: u32,
) -> Result<Vec<(f64, f64)>, PbmError> {
    let mut system = StiffExample::new(K, 1.0, 1.0)?;
    let mut ys = vec![(0.0, 1.0)];
    for n in 1..=steps {
        if implicit_midpoint {
            implicit_midpoint_step(&mut system, h)?;
        } else {
            backward_euler_step(&mut system, h)?;
        }
        ys.push((f64::from(n), state_of(&system)[1]));
    }
    Ok(ys)
}

/// The corners of the convex hull of a few points, in order around them (for ≤ 4
/// points: sorted by angle about their centroid).
pub(super) fn around(points: &mut [(f64, f64)]) {
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
pub(super) fn aggregation() -> Result<Vec<Drawing>, PbmError> {
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
        for (k, part) in parts.iter().enumerate() {
            let area = titled(part, &titles[k], &label_font())?;
            let sets = if k == 0 { &pairs } else { &groups };
            draw_matching(&area, n, sets, if k == 0 { 5 } else { 3 })?;
        }
        let area = titled(&bottom, &titles[2], &label_font())?;
        let area = legend_below(&area, &cycle_legend)?;
        draw_v_cycle(&area, &sizes, layout)
    })
}

/// Panels (a) and (b) of the aggregation figure: the `n` × `n` sheet's particles, and
/// each set of `sets` (a pair or a group) outlined in its colour at `width`.
pub(super) fn draw_matching(
    area: &Area<'_>,
    n: usize,
    sets: &[Vec<(f64, f64)>],
    width: u32,
) -> DrawResult {
    let side = (n - 1) as f64;
    let mut chart = scene_chart(area, -0.5..side + 0.5, -0.5..side + 0.5)?;
    for (c, pts) in sets.iter().enumerate() {
        let colour = color(c % 7);
        let mut ring = pts.clone();
        if pts.len() >= 3 {
            chart.draw_series([Polygon::new(
                pts.clone(),
                colour.mix(0.35).filled(),
            )])?;
            ring.push(pts[0]);
        }
        line(&mut chart, &ring, colour, width)?;
    }
    let at = |i: usize| ((i % n) as f64, (i / n) as f64);
    dots(&mut chart, &(0..n * n).map(at).collect::<Vec<_>>(), 4, REFERENCE)
}

/// Panel (c) of the aggregation figure: the V-cycle down the levels of `sizes` and
/// back, each node and edge numbered by its step in the legend.
pub(super) fn draw_v_cycle(
    area: &Area<'_>,
    sizes: &[usize],
    layout: Layout,
) -> DrawResult {
    let last = sizes.len() - 1;
    let steps: Vec<(f64, f64)> = (0..sizes.len())
        .map(|l| (l as f64, -(l as f64)))
        .chain((0..last).rev().map(|l| ((2 * last - l) as f64, -(l as f64))))
        .collect();
    let width = (2 * sizes.len() - 2) as f64;
    let depth = last as f64;
    // Room on the left for the levels' names, more of it on a narrow page.
    let left = layout.pick(-2.6, -4.4);
    let mut chart = ChartBuilder::on(area)
        .margin(8)
        .build_cartesian_2d(left..width + 0.6, (-depth - 0.4)..0.4)?;
    line(&mut chart, &steps, REFERENCE, 2)?;
    for (l, size) in sizes.iter().enumerate() {
        let name = match l {
            0 => format!("fine: {size} nodes"),
            l if l == last => format!("coarsest: {size}"),
            l => format!("level {l}: {size}"),
        };
        let anchor = anchored(tick_font(), HPos::Left, VPos::Center);
        text(&mut chart, name, (left + 0.1, -(l as f64)), &anchor)?;
    }
    let numbered = |h: HPos| anchored(label_font(), h, VPos::Center);
    for (k, &(x, y)) in steps.iter().enumerate() {
        dots(&mut chart, &[(x, y)], 6, color(if k == last { 1 } else { 0 }))?;
        let (name, h, dx) = match k.cmp(&last) {
            std::cmp::Ordering::Less => ("1", HPos::Right, -0.15),
            std::cmp::Ordering::Equal => ("3", HPos::Left, 0.15),
            std::cmp::Ordering::Greater => ("5", HPos::Left, 0.15),
        };
        text(&mut chart, name, (x + dx, y), &numbered(h))?;
    }
    for k in 0..steps.len() - 1 {
        let (p, q) = (steps[k], steps[k + 1]);
        let (x, y) = (0.5 * (p.0 + q.0), 0.5 * (p.1 + q.1));
        let (name, h, dx) = if k < last {
            ("2", HPos::Right, -0.12)
        } else {
            ("4", HPos::Left, 0.12)
        };
        text(&mut chart, name, (x + dx, y), &numbered(h))?;
    }
    Ok(())
}
