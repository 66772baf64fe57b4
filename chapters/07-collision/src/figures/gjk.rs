//! The GJK page's figure: a pentagon and a rectangle apart and overlapping, their
//! Minkowski difference, GJK's simplices and EPA's polygons.

use super::parts::Chart2d;
use super::{axis_polygons, figure_error};
use crate::gjk::{Depth, Proximity, difference_support, epa_watched, gjk_from};
use crate::polygon::{ConvexPolygon, separation};
use nalgebra::Vector2;
use pbm_prelim::plot::prelude::*;

type V2 = Vector2<f64>;

/// What the GJK figure draws: the pair apart (A and B) and overlapping (A and
/// `b_in`); GJK's simplices and nearest points on the pair apart, and the nearest
/// points of A and B; GJK's last triangle on the overlapping pair, then EPA's
/// polygons (their edges), the foot of each one's edge nearest the origin, and the
/// depth EPA found.
struct GjkRuns {
    a: ConvexPolygon,
    b: ConvexPolygon,
    b_in: ConvexPolygon,
    steps: Vec<(Vec<V2>, V2)>,
    nearest: (V2, V2),
    last_triangle: Vec<V2>,
    polygons: Vec<Vec<(V2, V2)>>,
    feet: Vec<V2>,
    found: Depth<2>,
}

/// The separating-axis figure's pentagon and rectangle, and the rectangle moved in
/// until it overlaps the pentagon: GJK on the first pair, GJK then EPA on the
/// second, each checked against the separating axes.
fn gjk_runs() -> Result<(GjkRuns, f64), PbmError> {
    let (a, b) = axis_polygons()?;
    let b_in = b.placed(Vector2::zeros(), 0.0).placed(Vector2::new(-1.1, -0.75), 0.0);
    // GJK on the pair apart, each simplex and its nearest point kept, started from
    // A − B's lowest point, so that its steps spread out.
    let mut steps: Vec<(Vec<V2>, V2)> = Vec::new();
    let apart = gjk_from(&a, &b, &Vector2::new(0.0, 1.0), |simplex, v| {
        steps.push((simplex.iter().map(|p| p.w).collect(), *v));
    });
    let Proximity::Apart { distance, on_a, on_b } = apart.proximity else {
        return Err(figure_error("the first pair overlaps"));
    };
    // The distance is the separating axes' gap when a vertex of one meets an edge
    // of the other, as here.
    let (gap, _) = separation(&a, &b);
    if (gap - distance).abs() > 1e-9 {
        return Err(figure_error(format!("gap {gap}, distance {distance}")));
    }
    let inside = gjk_from(&a, &b_in, &Vector2::new(1.0, 1.0), |_, _| {});
    let Proximity::Overlapping { simplex } = inside.proximity else {
        return Err(figure_error("the second pair is apart"));
    };
    let last_triangle: Vec<V2> = simplex.iter().map(|p| p.w).collect();
    let (mut polygons, mut feet) = (Vec::new(), Vec::new());
    let found = epa_watched(&a, &b_in, &simplex, |points, facets| {
        polygons.push(
            facets
                .iter()
                .map(|f| (points[f.corners[0]].w, points[f.corners[1]].w))
                .collect(),
        );
        if let Some(f) =
            facets.iter().min_by(|f, g| f.distance.total_cmp(&g.distance))
        {
            feet.push(f.normal * f.distance);
        }
    })
    .ok_or_else(|| figure_error("EPA found no depth"))?;
    let (depth, _) = separation(&a, &b_in);
    if (depth + found.depth).abs() > 1e-9 {
        return Err(figure_error(format!("EPA {found:?}, SAT {depth}")));
    }
    let nearest = (on_a, on_b);
    Ok((
        GjkRuns { a, b, b_in, steps, nearest, last_triangle, polygons, feet, found },
        distance,
    ))
}

/// The colours of the GJK figure: A, B, A − B, GJK, EPA, and the answer.
const SHADE_A: RGBColor = REFERENCE;
const SHADE_ANSWER: RGBColor = BLACK;
fn shade_b() -> RGBColor {
    color(0)
}
fn shade_diff() -> RGBColor {
    color(3)
}
fn shade_gjk() -> RGBColor {
    color(1)
}
fn shade_epa() -> RGBColor {
    color(2)
}

pub(super) fn gjk_epa() -> Result<Vec<Drawing>, PbmError> {
    let (runs, distance) = gjk_runs()?;
    let (a, b, b_in) = (&runs.a, &runs.b, &runs.b_in);
    let diffs = [minkowski_outline(a, b), minkowski_outline(a, b_in)];
    require_finite(diffs.iter().flatten().flat_map(|v| [v.x, v.y]))?;
    let titles = [
        format!("(a) apart: {distance:.2} m between the nearest points"),
        format!(
            "(b) A − B: GJK reaches its nearest point in {} steps",
            runs.steps.len()
        ),
        format!("(c) overlapping: B must move {:.2} m to part", runs.found.depth),
        format!(
            "(d) A − B holds the origin: EPA grows GJK's last triangle in {} steps",
            runs.feet.len()
        ),
    ];
    titled_figure(
        [1000, 1900],
        "A pentagon A and a rectangle B, apart and overlapping, and their Minkowski difference A − B: GJK finds the distance as the origin's distance to A − B, EPA the depth as its distance to the boundary",
        |root, layout| {
            let root = legend_below(root, &gjk_legend())?;
            let mut areas = Vec::new();
            for (part, title) in panels(&root, layout, 4, 2).iter().zip(&titles) {
                areas.push(titled(part, title, &label_font())?);
            }
            apart_panel(&areas[0], &runs)?;
            gjk_panel(&areas[1], &runs, &diffs[0])?;
            overlap_panel(&areas[2], &runs)?;
            epa_panel(&areas[3], &runs, &diffs[1])
        },
    )
}

/// The GJK figure's legend.
fn gjk_legend() -> Legend {
    vec![
        ("A".into(), Swatch::Line(SHADE_A, 2)),
        ("B".into(), Swatch::Line(shade_b(), 2)),
        ("A − B".into(), Swatch::Line(shade_diff(), 2)),
        (
            "GJK's simplices (numbered), nearest points dotted".into(),
            Swatch::LineDots(shade_gjk(), 2),
        ),
        (
            "EPA's polygons, the last solid; the nearest point of each numbered"
                .into(),
            Swatch::LineDots(shade_epa(), 2),
        ),
        ("distance or depth".into(), Swatch::Line(SHADE_ANSWER, 2)),
        ("B moved by the depth".into(), Swatch::Dashed(shade_b(), 2)),
    ]
}

fn xy(v: &V2) -> (f64, f64) {
    (v.x, v.y)
}

/// (a) The pair apart, and the segment between the nearest points.
fn apart_panel(area: &Area<'_>, runs: &GjkRuns) -> DrawResult {
    let (a, b) = (&runs.a, &runs.b);
    let shown: Vec<V2> = a.vertices().iter().chain(b.vertices()).copied().collect();
    let mut chart = metre_chart(area, &shown)?;
    closed(&mut chart, a.vertices(), SHADE_A, 2, true)?;
    closed(&mut chart, b.vertices(), shade_b(), 2, true)?;
    let ends = [xy(&runs.nearest.0), xy(&runs.nearest.1)];
    line(&mut chart, &ends, SHADE_ANSWER, 2)?;
    dots(&mut chart, &ends, 4, SHADE_ANSWER)
}

/// (b) A − B, the origin, and GJK's simplices and nearest points.
fn gjk_panel(area: &Area<'_>, runs: &GjkRuns, diff: &[V2]) -> DrawResult {
    let mut chart = metre_chart(area, &with_origin(diff))?;
    closed(&mut chart, diff, shade_diff(), 2, true)?;
    for (simplex, _) in &runs.steps {
        if simplex.len() > 1 {
            closed(&mut chart, simplex, shade_gjk(), 2, false)?;
        }
    }
    let nearest_points: Vec<V2> = runs.steps.iter().map(|s| s.1).collect();
    numbered(&mut chart, &nearest_points, shade_gjk())?;
    let v = runs.steps.last().map_or(Vector2::zeros(), |s| s.1);
    arrow(&mut chart, (0.0, 0.0), xy(&v), 0.15, SHADE_ANSWER, 2)?;
    origin_mark(&mut chart, v)
}

/// (c) The pair overlapping, and the move that parts them (the moved B inside the
/// panel too).
fn overlap_panel(area: &Area<'_>, runs: &GjkRuns) -> DrawResult {
    let (a, b_in, found) = (&runs.a, &runs.b_in, &runs.found);
    let moved: Vec<V2> =
        b_in.vertices().iter().map(|p| p + found.normal * found.depth).collect();
    let shown: Vec<V2> =
        a.vertices().iter().chain(b_in.vertices()).chain(&moved).copied().collect();
    let mut chart = metre_chart(area, &shown)?;
    closed(&mut chart, a.vertices(), SHADE_A, 2, true)?;
    closed(&mut chart, b_in.vertices(), shade_b(), 2, true)?;
    let mut ring: Vec<(f64, f64)> = moved.iter().map(xy).collect();
    ring.extend(ring.first().copied());
    dashed_line(&mut chart, &ring, shade_b(), 2)?;
    arrow(&mut chart, xy(&found.on_b), xy(&found.on_a), 0.12, SHADE_ANSWER, 2)
}

/// (d) A − B holding the origin, GJK's last triangle, EPA's polygons (the last
/// solid) and the depth.
fn epa_panel(area: &Area<'_>, runs: &GjkRuns, diff: &[V2]) -> DrawResult {
    let mut chart = metre_chart(area, &with_origin(diff))?;
    closed(&mut chart, diff, shade_diff(), 2, true)?;
    for (k, polygon) in runs.polygons.iter().enumerate() {
        let last = k + 1 == runs.polygons.len();
        for (p, q) in polygon {
            if last {
                line(&mut chart, &[xy(p), xy(q)], shade_epa(), 3)?;
            } else {
                dashed_line(&mut chart, &[xy(p), xy(q)], shade_epa(), 1)?;
            }
        }
    }
    closed(&mut chart, &runs.last_triangle, shade_gjk(), 2, false)?;
    let deepest = runs.found.normal * runs.found.depth;
    arrow(&mut chart, (0.0, 0.0), xy(&deepest), 0.12, SHADE_ANSWER, 2)?;
    numbered(&mut chart, &runs.feet, shade_epa())?;
    origin_mark(&mut chart, deepest)
}

/// `points` and the origin.
fn with_origin(points: &[V2]) -> Vec<V2> {
    let mut seen = points.to_vec();
    seen.push(Vector2::zeros());
    seen
}

/// A − B drawn from its support mapping: the support points along 720 directions
/// round the circle are its vertices, counter-clockwise.
fn minkowski_outline(a: &ConvexPolygon, b: &ConvexPolygon) -> Vec<V2> {
    let mut ring: Vec<V2> = Vec::new();
    for k in 0..720 {
        let t = std::f64::consts::TAU * k as f64 / 720.0;
        let w = difference_support(a, b, &Vector2::new(t.cos(), t.sin())).w;
        if ring.last() != Some(&w) && ring.first() != Some(&w) {
            ring.push(w);
        }
    }
    ring
}

/// One panel of the GJK figure, in metres on both axes, covering `points`.
fn metre_chart<'a, 'b>(
    panel: &'a Area<'b>,
    points: &[V2],
) -> Result<Chart2d<'a, 'b>, Box<dyn std::error::Error>> {
    let (lo, hi) = points.iter().fold(
        (Vector2::repeat(f64::INFINITY), Vector2::repeat(f64::NEG_INFINITY)),
        |(lo, hi), p| (lo.inf(p), hi.sup(p)),
    );
    let (xr, yr) =
        equal_scale(panel, lo.x - 0.25..hi.x + 0.25, lo.y - 0.25..hi.y + 0.25);
    let mut chart = chart_on(panel).build_cartesian_2d(xr, yr)?;
    super::parts::tenths_axes(&mut chart, "x (m)", "y (m)")?;
    Ok(chart)
}

/// Draws a closed outline of `points`, filled lightly when `fill` is set.
fn closed<'a, 'b: 'a>(
    chart: &mut Chart2d<'a, 'b>,
    points: &[V2],
    c: RGBColor,
    width: u32,
    fill: bool,
) -> DrawResult {
    let mut ring: Vec<(f64, f64)> = points.iter().map(|p| (p.x, p.y)).collect();
    ring.extend(ring.first().copied());
    if fill {
        super::parts::fill(chart, &ring, c.mix(0.2))?;
    }
    line(chart, &ring, c, width)
}

/// Dots at `points`, numbered 1, 2, … in `c`. Each number stands out from the
/// middle of the dots, or on the other side of its dot where that would crowd a
/// number already placed.
fn numbered<'a, 'b: 'a>(
    chart: &mut Chart2d<'a, 'b>,
    points: &[V2],
    c: RGBColor,
) -> DrawResult {
    let middle = points.iter().sum::<V2>() / points.len().max(1) as f64;
    let mut placed: Vec<(i32, i32)> = Vec::new();
    for (k, p) in points.iter().enumerate() {
        let out = p - middle;
        let out =
            if out.norm() > 1e-9 { out.normalize() } else { Vector2::new(-1.0, 0.0) };
        let (x, y) = chart.backend_coord(&(p.x, p.y));
        let offset = |d: V2| ((d.x * 18.0) as i32 - 5, (-d.y * 18.0) as i32 - 9);
        let crowded = |o: (i32, i32)| {
            placed
                .iter()
                .any(|q| (x + o.0 - q.0).abs() < 14 && (y + o.1 - q.1).abs() < 18)
        };
        let at = if crowded(offset(out)) { offset(-out) } else { offset(out) };
        placed.push((x + at.0, y + at.1));
        chart.draw_series(std::iter::once(
            EmptyElement::at((p.x, p.y))
                + Circle::new((0, 0), 4, c.filled())
                + Text::new(format!("{}", k + 1), at, tick_font().color(&c)),
        ))?;
    }
    Ok(())
}

/// The origin of A − B: a black cross, labelled on the side away from `arrow`.
fn origin_mark<'a, 'b: 'a>(chart: &mut Chart2d<'a, 'b>, arrow: V2) -> DrawResult {
    let away = -arrow / arrow.norm().max(1e-12);
    let at = ((away.x * 18.0) as i32 - 5, (-away.y * 18.0) as i32 - 9);
    chart.draw_series(std::iter::once(
        EmptyElement::at((0.0, 0.0))
            + PathElement::new(vec![(-7, -7), (7, 7)], BLACK.stroke_width(2))
            + PathElement::new(vec![(-7, 7), (7, -7)], BLACK.stroke_width(2))
            + Text::new("0", at, tick_font()),
    ))?;
    Ok(())
}
