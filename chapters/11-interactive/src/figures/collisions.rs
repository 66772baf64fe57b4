//! The figures of multiple collisions: the graze and the thin bar through the slab.

use super::*;

/// The third panel of the collision-search figure: a thin bar (width, length)
/// driven along its length through a slab (width, thickness), in metres.
pub(super) const BAR: (f64, f64) = (0.1, 0.6);
pub(super) const SLAB: (f64, f64) = (2.0, 0.3);

/// Whether a corner of either polygon is inside the other.
pub(super) fn corner_inside(a: &ConvexPolygon, b: &ConvexPolygon) -> bool {
    let inside = |p: &V2, q: &ConvexPolygon| {
        let v = q.vertices();
        (0..v.len()).all(|i| (v[(i + 1) % v.len()] - v[i]).perp(&(p - v[i])) > 0.0)
    };
    a.vertices().iter().any(|p| inside(p, b))
        || b.vertices().iter().any(|p| inside(p, a))
}

/// Samples `f` at `n` + 1 points from `a` to `b`.
pub(super) fn sampled(
    a: f64,
    b: f64,
    n: usize,
    f: impl Fn(f64) -> f64,
) -> Vec<(f64, f64)> {
    (0..=n).map(|i| a + (b - a) * i as f64 / n as f64).map(|x| (x, f(x))).collect()
}

/// A plotted line: (x, y) points.
pub(super) type Curve = Vec<(f64, f64)>;

/// The depths of panel (a) of the collision-search figure: each of two blocks
/// against the floor over the step (cm against ms), where the search on the later
/// one alone stops, where it stops with both, and the earlier one's depth at the
/// first stop (m).
pub(super) struct TwoStrikes {
    curves: Vec<Vec<(f64, f64)>>,
    late_alone: f64,
    both: f64,
    early_at_stop: f64,
}

pub(super) fn two_strikes(h: f64) -> Result<TwoStrikes, PbmError> {
    // The motion is straight, so the step's interpolation is the motion itself,
    // and the depths are straight lines: ten pieces draw them.
    let blocks = [Falling::EARLY, Falling::LATE];
    let world = Falling::world(&blocks)?;
    let floor = world.fixtures()[0].parts[0].clone();
    let block = world.shape(0).parts[0].clone();
    let depth = |b: &Falling, s: f64| {
        -separation(&block.placed(b.centre_at(s), 0.0), &floor).0
    };
    let late_alone = Falling::world(&[Falling::LATE])?.step()?;
    let both = Falling::world(&blocks)?.step()?;
    let curves = blocks
        .iter()
        .map(|b| sampled(0.0, h, 10, |s| depth(b, s)))
        .map(|c| c.iter().map(|&(s, d)| (1000.0 * s, 100.0 * d)).collect())
        .collect();
    let early_at_stop = depth(&Falling::EARLY, late_alone);
    Ok(TwoStrikes { curves, late_alone, both, early_at_stop })
}

/// Panel (b): the graze's depth over the step (cm against ms), the step the loop
/// took (s) and the impacts it saw.
pub(super) fn graze(h: f64) -> Result<(Curve, f64, usize), PbmError> {
    let graze = Graze::BOOK;
    let fixed = Graze::fixed()?;
    let mut world = graze.world()?;
    let square = world.shape(0).parts[0].clone();
    let depth =
        |s: f64| -separation(&square.placed(graze.centre_at(s), 0.0), &fixed).0;
    let taken = world.step()?;
    let curve = sampled(0.0, h, 10, depth);
    let curve = curve.iter().map(|&(s, d)| (1000.0 * s, 100.0 * d)).collect();
    Ok((curve, taken, world.stats().impacts))
}

/// Panel (c): chapter 7's depth of the bar in the slab against how far the bar's
/// end is below the slab's top (cm against cm), and the stretch where no corner
/// of either is inside the other (cm).
pub(super) fn bar_through_slab() -> Result<(Curve, (f64, f64)), PbmError> {
    let half = |(w, h): (f64, f64)| 0.5 * V2::new(w, h);
    let slab = ConvexPolygon::rectangle(V2::new(0.0, -0.5 * SLAB.1), half(SLAB))?;
    let bar_at =
        |d: f64| ConvexPolygon::rectangle(V2::new(0.0, 0.5 * BAR.1 - d), half(BAR));
    let travel = BAR.1 + SLAB.1;
    let (mut curve, mut plus) = (Vec::new(), (f64::INFINITY, f64::NEG_INFINITY));
    for (d, _) in sampled(-0.1, travel + 0.1, 110, |d| d) {
        let bar = bar_at(d)?;
        let (gap, _) = separation(&bar, &slab);
        curve.push((100.0 * d, -100.0 * gap));
        if gap < 0.0 && !corner_inside(&bar, &slab) {
            plus = (plus.0.min(100.0 * d), plus.1.max(100.0 * d));
        }
    }
    Ok((curve, plus))
}

pub(super) fn collision_search() -> Result<Vec<Drawing>, PbmError> {
    let settings = *Falling::world(&[])?.settings();
    let (h, eps) = (settings.h, settings.epsilon);
    let strikes = two_strikes(h)?;
    let graze = graze(h)?;
    let (through, plus) = bar_through_slab()?;
    require_finite(
        strikes.curves.iter().flatten().chain(&graze.0).chain(&through).map(|p| p.1),
    )?;
    titled_figure(
        [1150, 2000],
        &format!(
            "Depth (positive: overlapping) against time within one {:.0} ms step, which the loop looks at only at its two ends; and against how far a thin part has gone into another",
            1000.0 * h
        ),
        |root, layout| {
            // Panel (a) on top, with its long legend; (b) and (c) below it, side by
            // side when wide.
            let share = layout.pick(52, 44);
            let (top, bottom) =
                root.split_vertically(root.dim_in_pixel().1 * share / 100);
            let bottom = bottom.margin(layout.pick(8, 24), 0, 0, 0);
            let lower = panels(&bottom, layout, 2, 2);
            strikes_panel(&top, &strikes, (h, eps))?;
            graze_panel(&lower[0], &graze, (h, eps))?;
            slab_panel(&lower[1], &through, plus)
        },
    )
}

/// Milliseconds and centimetres: the units of the collision-search figure.
pub(super) fn ms(s: f64) -> f64 {
    1000.0 * s
}
pub(super) fn cm(d: f64) -> f64 {
    100.0 * d
}

/// Panel (a) of the collision-search figure: two blocks strike the floor in one
/// step of `h`, the searches on each, and ε.
pub(super) fn strikes_panel(
    area: &Area<'_>,
    strikes: &TwoStrikes,
    (h, eps): (f64, f64),
) -> DrawResult {
    let panel = titled(
        area,
        &format!(
            "(a) two blocks strike the floor in one step: the search on B stops at {:.1} ms, and started again on A, at {:.1} ms",
            ms(strikes.late_alone),
            ms(strikes.both)
        ),
        &label_font(),
    )?;
    let panel = legend_below(&panel, &strikes_legend(strikes.early_at_stop / eps))?;
    let (y0, y1) = (-30.0, 18.0);
    let mut chart = chart_on(&panel).build_cartesian_2d(0.0..ms(h), y0..y1)?;
    depth_axes(&mut chart, "time within the step (ms)")?;
    window_band(&mut chart, (0.0, ms(h)), cm(eps))?;
    dashed_line(&mut chart, &[(0.0, cm(eps)), (ms(h), cm(eps))], REFERENCE, 1)?;
    let stop = ms(strikes.late_alone);
    dashed_line(&mut chart, &[(stop, y0), (stop, y1)], color(1), LINE_WIDTH)?;
    let both = ms(strikes.both);
    line(&mut chart, &[(both, y0), (both, y1)], color(0), LINE_WIDTH)?;
    for (i, curve) in strikes.curves.iter().enumerate() {
        line(&mut chart, curve, color(i), LINE_WIDTH)?;
        ends(&mut chart, curve)?;
    }
    chart.draw_series(std::iter::once(Circle::new(
        (stop, cm(strikes.early_at_stop)),
        5,
        color(0).stroke_width(2),
    )))?;
    Ok(())
}

/// Panel (a)'s legend; `early` is A's depth (in ε) where the search on B stops.
pub(super) fn strikes_legend(early: f64) -> Legend {
    let (a, b) = (Falling::EARLY, Falling::LATE);
    vec![
        (
            format!("block A, {:.0} cm up at {} m/s", cm(a.gap), a.speed),
            Swatch::Line(color(0), LINE_WIDTH),
        ),
        (
            format!("block B, {:.0} cm up at {} m/s", cm(b.gap), b.speed),
            Swatch::Line(color(1), LINE_WIDTH),
        ),
        (
            "the loop's two looks, at the step's ends".into(),
            Swatch::Dot(REFERENCE, 4),
        ),
        (
            "ε: deeper at the step's end starts a search".into(),
            Swatch::Dashed(REFERENCE, 1),
        ),
        (
            "accepted as touching: within ε/2 of zero".into(),
            Swatch::Square(tint(color(2), 0.3)),
        ),
        (
            "the search on B, the deeper at the end, stops here".into(),
            Swatch::Dashed(color(1), LINE_WIDTH),
        ),
        (
            format!("A there: {early:.2} ε deep, so it struck first"),
            Swatch::Ring(color(0), 5),
        ),
        (
            "the search on A: the step is cut here".into(),
            Swatch::Line(color(0), LINE_WIDTH),
        ),
    ]
}

/// Panel (b): a corner grazing a corner within a step of `h`, deeper than ε
/// between the loop's two looks.
pub(super) fn graze_panel(
    area: &Area<'_>,
    (grazed, taken, impacts): &(Curve, f64, usize),
    (h, eps): (f64, f64),
) -> DrawResult {
    let seen = if *impacts == 0 {
        "no impact".to_string()
    } else {
        format!("{impacts} impacts")
    };
    let panel = titled(
        area,
        &format!(
            "(b) a corner grazes a corner: the step is taken whole, {:.0} ms, and {seen}",
            ms(*taken)
        ),
        &label_font(),
    )?;
    let legend: Legend = vec![
        (
            "the moving square's depth in the fixed one".into(),
            Swatch::Line(color(3), LINE_WIDTH),
        ),
        ("the loop's two looks: apart at both".into(), Swatch::Dot(REFERENCE, 4)),
        (
            "deeper than ε, never looked at".into(),
            Swatch::Square(tint(color(3), 0.35)),
        ),
    ];
    let panel = legend_below(&panel, &legend)?;
    let mut chart = chart_on(&panel).build_cartesian_2d(0.0..ms(h), -4.0..6.0)?;
    depth_axes(&mut chart, "time within the step (ms)")?;
    window_band(&mut chart, (0.0, ms(h)), cm(eps))?;
    let above = clipped_above(grazed, cm(eps));
    chart.draw_series(std::iter::once(Polygon::new(
        above,
        tint(color(3), 0.35).filled(),
    )))?;
    dashed_line(&mut chart, &[(0.0, cm(eps)), (ms(h), cm(eps))], REFERENCE, 1)?;
    line(&mut chart, grazed, color(3), LINE_WIDTH)?;
    ends(&mut chart, grazed)
}

/// Panel (c): the depth of a bar driven end first through a slab, the stretch
/// `plus` where no corner of either is inside the other, and the half-way mark.
pub(super) fn slab_panel(
    area: &Area<'_>,
    through: &[(f64, f64)],
    plus: (f64, f64),
) -> DrawResult {
    let panel = titled(
        area,
        &format!(
            "(c) a bar {:.0} cm thick and {:.0} cm long driven end first through a slab {:.0} cm thick",
            cm(BAR.0),
            cm(BAR.1),
            cm(SLAB.1)
        ),
        &label_font(),
    )?;
    let legend: Legend = vec![
        (
            "depth: the shortest move that parts them".into(),
            Swatch::Line(color(4), LINE_WIDTH),
        ),
        (
            "a plus sign: no corner of either inside the other".into(),
            Swatch::Square(tint(REFERENCE, 0.2)),
        ),
        (
            "half way: beyond, the depth falls as the bar goes in".into(),
            Swatch::Dashed(REFERENCE, 1),
        ),
    ];
    let panel = legend_below(&panel, &legend)?;
    let peak = through
        .iter()
        .copied()
        .fold((0.0, 0.0), |m, p| if p.1 > m.1 { p } else { m });
    let (x0, x1) = (through[0].0, through[through.len() - 1].0);
    let (y0, y1) = (-15.0, peak.1 + 10.0);
    let mut chart = chart_on(&panel).build_cartesian_2d(x0..x1, y0..y1)?;
    depth_axes(&mut chart, "bar's end below the slab's top (cm)")?;
    chart.draw_series(std::iter::once(Rectangle::new(
        [(plus.0, y0), (plus.1, y1)],
        tint(REFERENCE, 0.2).filled(),
    )))?;
    dashed_line(&mut chart, &[(peak.0, y0), (peak.0, y1)], REFERENCE, 1)?;
    line(&mut chart, through, color(4), LINE_WIDTH)
}

/// Axes for a depth in centimetres against `x`, whole numbers on both.
pub(super) fn depth_axes<'a, 'b: 'a>(
    chart: &mut Chart2d<'a, 'b>,
    x: &str,
) -> DrawResult {
    axes(chart, x, "depth (cm)")
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| format!("{v:.0}"))
        .draw()?;
    Ok(())
}

/// The part of `curve` at or above `level`, with the points where it crosses
/// `level` put in, as the outline of the region between the two.
pub(super) fn clipped_above(curve: &[(f64, f64)], level: f64) -> Curve {
    let mut out = Vec::new();
    for (k, &(x, y)) in curve.iter().enumerate() {
        if let Some(&(x0, y0)) = k.checked_sub(1).map(|j| &curve[j])
            && (y0 - level) * (y - level) < 0.0
        {
            out.push((x0 + (x - x0) * (level - y0) / (y - y0), level));
        }
        if y >= level {
            out.push((x, y));
        }
    }
    out
}

/// Marks the first and last points of `curve`: what the loop looks at.
pub(super) fn ends<'a, 'b: 'a>(
    chart: &mut Chart2d<'a, 'b>,
    curve: &[(f64, f64)],
) -> DrawResult {
    if let (Some(&first), Some(&last)) = (curve.first(), curve.last()) {
        dots(chart, &[first, last], 4, REFERENCE)?;
    }
    Ok(())
}

/// Shades the depths a collision search accepts as touching, within ε/2 of zero
/// (`eps` in the chart's units), across `x`.
pub(super) fn window_band<'a, 'b: 'a>(
    chart: &mut Chart2d<'a, 'b>,
    x: (f64, f64),
    eps: f64,
) -> DrawResult {
    chart.draw_series(std::iter::once(Rectangle::new(
        [(x.0, -0.5 * eps), (x.1, 0.5 * eps)],
        tint(color(2), 0.3).filled(),
    )))?;
    Ok(())
}

/// `c` laid at `alpha` over white: a light shade for bands, and its legend square.
pub(super) fn tint(c: RGBColor, alpha: f64) -> RGBColor {
    let over = |v: u8| (alpha * f64::from(v) + (1.0 - alpha) * 255.0).round() as u8;
    RGBColor(over(c.0), over(c.1), over(c.2))
}
