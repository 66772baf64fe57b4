//! The narrow phase page's figures: the separating axes of two polygons, a
//! separating plane kept as a witness while a cube tumbles past another, and the
//! contacts of a box over a table's edge.

use super::parts::{Chart2d, each_panel, letter, shape, tenths_axes};
use super::{OVERLAPPING, axis_polygons, figure_error};
use crate::polygon::{ConvexPolygon, Witness, separation};
use crate::polyhedron::{
    Axis, ConvexPolyhedron, Feature, PlaneCache, PlaneWitness, contacts, plane,
};
use crate::scenes::TumblingPass;
use nalgebra::{Vector2, Vector3};
use pbm_prelim::plot::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The interval a polygon's vertices cover along the unit direction `n`.
fn projection(p: &ConvexPolygon, n: &Vector2<f64>) -> (f64, f64) {
    p.vertices()
        .iter()
        .map(|v| n.dot(v))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), s| {
            (lo.min(s), hi.max(s))
        })
}

/// How much the shadows of `a` and `b` along `n` overlap (negative: a gap).
fn overlap(a: &ConvexPolygon, b: &ConvexPolygon, n: &Vector2<f64>) -> f64 {
    let ((lo_a, hi_a), (lo_b, hi_b)) = (projection(a, n), projection(b, n));
    hi_a.min(hi_b) - lo_a.max(lo_b)
}

/// The centre of a polygon's vertices.
fn centre(p: &ConvexPolygon) -> Vector2<f64> {
    p.vertices().iter().sum::<Vector2<f64>>() / p.vertices().len() as f64
}

/// An axis of the separating-axis figure, as a direction, and its caption.
type View = (Vector2<f64>, String);

/// The two axes the figure shows, each a direction from A towards B with its
/// caption: the candidate whose shadows overlap most, and the chapter's best. And
/// how many candidates there are.
fn axis_views(
    a: &ConvexPolygon,
    b: &ConvexPolygon,
) -> Result<([View; 2], usize), PbmError> {
    // The chapter's answer: the best gap and the edge whose normal attains it.
    let (best, witness) = separation(a, b);
    let towards_b =
        |w: Witness| if w.of_b { -b.normal(w.edge) } else { a.normal(w.edge) };
    // Every candidate the search tries, as a direction from A towards B, and its gap
    // g(n) = min over B − max over A.
    let gap = |n: &Vector2<f64>| projection(b, n).0 - projection(a, n).1;
    let candidates: Vec<Witness> = (0..a.vertices().len())
        .map(|edge| Witness { of_b: false, edge })
        .chain((0..b.vertices().len()).map(|edge| Witness { of_b: true, edge }))
        .collect();
    let n_best = towards_b(witness);
    if (gap(&n_best) - best).abs() > 1e-12 {
        return Err(figure_error(format!(
            "projections give {} where separation gives {best}",
            gap(&n_best)
        )));
    }
    // Beside the best, the candidate whose shadows overlap most: an axis that does
    // not separate. Its direction is turned to run from A towards B.
    let (worst_witness, worst) = candidates
        .iter()
        .map(|&w| {
            let n = towards_b(w);
            (w, if n.dot(&(centre(b) - centre(a))) < 0.0 { -n } else { n })
        })
        .max_by(|p, q| overlap(a, b, &p.1).total_cmp(&overlap(a, b, &q.1)))
        .ok_or_else(|| figure_error("no candidates"))?;
    if overlap(a, b, &worst) <= 0.0 {
        return Err(figure_error("every candidate separates the polygons"));
    }
    let whose = |w: Witness| if w.of_b { "B" } else { "A" };
    let views = [
        (
            worst,
            format!(
                "(a) the normal of an edge of {}: the shadows overlap by {:.2} m, so it does not separate",
                whose(worst_witness),
                overlap(a, b, &worst)
            ),
        ),
        (
            n_best,
            format!(
                "(b) the best candidate, the normal of an edge of {}: the gap is {:.2} m",
                whose(witness),
                best
            ),
        ),
    ];
    Ok((views, candidates.len()))
}

pub(super) fn separating_axis() -> Result<Vec<Drawing>, PbmError> {
    let (a, b) = axis_polygons()?;
    let (views, candidates) = axis_views(&a, &b)?;
    require_finite(a.vertices().iter().chain(b.vertices()).flat_map(|v| [v.x, v.y]))?;
    titled_figure(
        [520, 960],
        &format!(
            "Two convex polygons A and B, {candidates} candidate axes (the edge normals): each shape's shadow on an axis, and the gap between the shadows",
        ),
        |root, layout| {
            let legend: Legend = vec![
                ("A, and its shadow on the axis".into(), Swatch::Line(SHADE_A, 6)),
                ("B, and its shadow".into(), Swatch::Line(color(0), 6)),
                (
                    "the gap (or overlap) between the shadows".into(),
                    Swatch::Line(OVERLAPPING, 3),
                ),
                (
                    "from the extreme vertices to the axis".into(),
                    Swatch::Dashed(REFERENCE, 1),
                ),
            ];
            let root = legend_below(root, &legend)?;
            let caption = |k: usize| views[k].1.clone();
            each_panel(&root, layout, (2, 2), caption, |k, panel| {
                let view = AxisView::new(&a, &b, views[k].0);
                let mut chart = axis_chart(panel, &view.extent(&a, &b))?;
                for (p, c, name) in [(&a, SHADE_A, "A"), (&b, color(0), "B")] {
                    polygon_and_feet(&mut chart, p, (c, name), &view)?;
                }
                view.draw(&mut chart, overlap(&a, &b, &view.n))
            })
        },
    )
}

/// The separating-axis figure's colour of A; B is drawn in [`color`]`(0)`.
const SHADE_A: RGBColor = REFERENCE;

/// Where the separating-axis figure draws an axis along `n` (from A towards B): a
/// line beside both shapes as seen along `n`, the shapes' shadows on it, and the
/// gap or overlap between the shadows.
struct AxisView {
    n: Vector2<f64>,
    /// `n` turned a right angle: the axis runs `beside` along it from the origin.
    side: Vector2<f64>,
    beside: f64,
    /// Where the drawn axis starts and ends, along `n`.
    span: (f64, f64),
    /// A's shadow and B's, along `n`.
    shadows: [(f64, f64); 2],
    /// The gap between the shadows (negative: they overlap), and the bracket that
    /// marks it or the stretch they share.
    gap: f64,
    bracket: (Vector2<f64>, Vector2<f64>),
    label_at: Vector2<f64>,
}

impl AxisView {
    fn new(a: &ConvexPolygon, b: &ConvexPolygon, n: Vector2<f64>) -> Self {
        let side = Vector2::new(n.y, -n.x);
        let all = a.vertices().iter().chain(b.vertices());
        let beside = all.map(|v| side.dot(v)).fold(f64::NEG_INFINITY, f64::max) + 0.7;
        let on_axis = |s: f64| side * beside + n * s;
        let (lo_a, hi_a) = projection(a, &n);
        let (lo_b, hi_b) = projection(b, &n);
        let span = (lo_a.min(lo_b) - 0.4, hi_a.max(hi_b) + 0.6);
        // The gap from A's far end to B's near end or, where the shadows overlap,
        // the stretch they share.
        let gap = lo_b - hi_a;
        let mark = side * 0.3;
        let bracket = if gap > 0.0 {
            (on_axis(hi_a) + mark, on_axis(lo_b) + mark)
        } else {
            (on_axis(lo_a.max(lo_b)) + mark, on_axis(hi_a.min(hi_b)) + mark)
        };
        // The label beside the bracket, reading away from the shapes.
        let label_at = (bracket.0 + bracket.1) / 2.0 + side * 0.3;
        let shadows = [(lo_a, hi_a), (lo_b, hi_b)];
        AxisView { n, side, beside, span, shadows, gap, bracket, label_at }
    }

    /// The point `s` along the axis.
    fn on_axis(&self, s: f64) -> Vector2<f64> {
        self.side * self.beside + self.n * s
    }

    /// Every point the panel must show: the shapes, the axis with its shadows and
    /// its name, and the label.
    fn extent(&self, a: &ConvexPolygon, b: &ConvexPolygon) -> Vec<Vector2<f64>> {
        let (s0, s1) = self.span;
        let (side, n) = (self.side, self.n);
        let label_reach = Vector2::new(2.3 * side.x.signum(), 0.0);
        a.vertices()
            .iter()
            .chain(b.vertices())
            .copied()
            .chain([self.on_axis(s0), self.on_axis(s1)])
            .chain([self.on_axis(s0) + side * 0.9, self.on_axis(s1) + side * 0.9])
            .chain([self.on_axis(s1 + 0.1) + Vector2::new(0.8 * n.x.signum(), 0.0)])
            .chain([self.label_at + label_reach])
            .collect()
    }

    /// The axis and its direction, the two shadows a little to either side of it,
    /// and the bracket with its gap or `overlap`.
    fn draw<'a, 'b: 'a>(
        &self,
        chart: &mut Chart2d<'a, 'b>,
        overlap: f64,
    ) -> DrawResult {
        let xy = |v: Vector2<f64>| (v.x, v.y);
        let (s0, s1) = self.span;
        let (side, n) = (self.side, self.n);
        arrow(chart, xy(self.on_axis(s0)), xy(self.on_axis(s1)), 0.25, REFERENCE, 1)?;
        let h_pos = if n.x >= 0.0 { HPos::Left } else { HPos::Right };
        chart.draw_series(std::iter::once(Text::new(
            "axis n",
            xy(self.on_axis(s1 + 0.1) + side * 0.15),
            tick_font().pos(Pos::new(h_pos, VPos::Center)),
        )))?;
        let [(lo_a, hi_a), (lo_b, hi_b)] = self.shadows;
        let off = side * 0.07;
        let (a0, a1) = (self.on_axis(lo_a) - off, self.on_axis(hi_a) - off);
        line(chart, &[xy(a0), xy(a1)], SHADE_A, 6)?;
        let (b0, b1) = (self.on_axis(lo_b) + off, self.on_axis(hi_b) + off);
        line(chart, &[xy(b0), xy(b1)], color(0), 6)?;
        let (p, q) = self.bracket;
        line(chart, &[xy(p), xy(q)], OVERLAPPING, 3)?;
        for e in [p, q] {
            line(chart, &[xy(e - side * 0.1), xy(e + side * 0.1)], OVERLAPPING, 3)?;
        }
        let g = self.gap;
        let text = if g > 0.0 {
            format!("gap {g:.2} m")
        } else {
            format!("overlap {overlap:.2} m")
        };
        let label_pos = if side.x < 0.0 { HPos::Right } else { HPos::Left };
        chart.draw_series(std::iter::once(Text::new(
            text,
            xy(self.label_at),
            tick_font().color(&OVERLAPPING).pos(Pos::new(label_pos, VPos::Center)),
        )))?;
        Ok(())
    }
}

/// A chart at equal scale on `panel` covering `points` with a fifth of a metre to
/// spare, 6 pixels in from the edges, with no axes.
fn axis_chart<'a, 'b>(
    panel: &'a Area<'b>,
    points: &[Vector2<f64>],
) -> Result<Chart2d<'a, 'b>, Box<dyn std::error::Error>> {
    let (x0, x1) =
        points.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| {
            (l.min(p.x), h.max(p.x))
        });
    let (y0, y1) =
        points.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| {
            (l.min(p.y), h.max(p.y))
        });
    let (pw, ph) = panel.dim_in_pixel();
    let (xr, yr) =
        equal_scale_in((pw - 12, ph - 12), x0 - 0.2..x1 + 0.2, y0 - 0.2..y1 + 0.2);
    Ok(ChartBuilder::on(panel).margin(6).build_cartesian_2d(xr, yr)?)
}

/// Polygon `p` shaded in `c` and named at its centre, with dashed lines from the
/// vertices that give its shadow's ends down to the axis.
fn polygon_and_feet<'a, 'b: 'a>(
    chart: &mut Chart2d<'a, 'b>,
    p: &ConvexPolygon,
    (c, name): (RGBColor, &str),
    view: &AxisView,
) -> DrawResult {
    let xy = |v: Vector2<f64>| (v.x, v.y);
    let mut outline: Vec<(f64, f64)> = p.vertices().iter().map(|v| xy(*v)).collect();
    outline.push(outline[0]);
    shape(chart, &outline, c.mix(0.25), (c, 2))?;
    chart.draw_series(std::iter::once(Text::new(
        name.to_string(),
        xy(centre(p)),
        label_font().pos(Pos::new(HPos::Center, VPos::Center)),
    )))?;
    let n = view.n;
    let (lo, hi) = projection(p, &n);
    for v in p.vertices().iter().filter(|v| {
        let s = n.dot(v);
        (s - lo).abs() < 1e-12 || (s - hi).abs() < 1e-12
    }) {
        dashed_line(chart, &[xy(*v), xy(view.on_axis(n.dot(v)))], c, 1)?;
    }
    Ok(())
}

/// Looking along `view` (not vertical), with world z up on the screen: where `p`
/// lands.
fn project(view: &Vector3<f64>, p: &Vector3<f64>) -> (f64, f64) {
    let view = view.normalize();
    let right = Vector3::z().cross(&view).normalize();
    let up = view.cross(&right);
    (p.dot(&right), p.dot(&up))
}

/// A horizontal direction lying in the plane of normal `n`, roughly from azimuth
/// 35°: looking along it, the plane is seen edge-on, as a line between the solids.
fn edge_on(n: &Vector3<f64>) -> Vector3<f64> {
    let usual = Vector3::new(0.55, -0.8, 0.0).normalize();
    let along = n.cross(&Vector3::z());
    if along.norm() < 1e-9 {
        return usual;
    }
    let along = along.normalize();
    if along.dot(&usual) < 0.0 { -along } else { along }
}

/// One step of the tumbling pass: the moving cube, the witness kept, and for how
/// many steps it has lasted.
type Kept = (ConvexPolyhedron, Option<PlaneWitness>, usize);

/// The exercise's pass, a fixed unit cube and one tumbling past it, tested with a
/// plane cache at every step: the fixed cube, every step, and the share of steps
/// that reused the plane.
fn tumbling_pass() -> Result<(ConvexPolyhedron, Vec<Kept>, f64), PbmError> {
    let pass = TumblingPass::BOOK;
    let fixed = TumblingPass::cube()?;
    let mut cache = PlaneCache::default();
    let mut log = Vec::new();
    let mut since = 0;
    for k in 0..pass.steps {
        let body = pass.moving(&fixed, k);
        let searched_before = cache.searched;
        cache.test(&fixed, &body, 1e-3);
        let searched = cache.searched > searched_before;
        since = if searched { 0 } else { since + 1 };
        log.push((body, cache.witness(), since));
    }
    let reuse = cache.reused as f64 / pass.steps as f64;
    Ok((fixed, log, reuse))
}

pub(super) fn separating_plane() -> Result<Vec<Drawing>, PbmError> {
    let (fixed, log, reuse) = tumbling_pass()?;
    let steps = log.len();
    // Four instants: the pass's middle third, at even spacing.
    let picks: Vec<usize> = (0..4).map(|i| 700 + 200 * i).collect();
    let describe = |w: Option<PlaneWitness>| match w.map(|w| w.axis) {
        Some(Axis::FaceOfA(_)) => "a face of the fixed cube",
        Some(Axis::FaceOfB(_)) => "a face of the moving cube",
        Some(Axis::Edges(..)) => "an edge of each cube",
        None => "none",
    };
    titled_figure(
        [600, 1240],
        &format!(
            "A unit cube tumbling past a fixed one: the plane found is reused at {:.1} % of {steps} steps",
            100.0 * reuse
        ),
        |root, layout| {
            let legend: Legend = vec![
                ("fixed cube".into(), Swatch::Line(REFERENCE, 2)),
                ("moving cube".into(), Swatch::Line(color(0), 2)),
                (
                    "separating plane (the witness), seen edge-on".into(),
                    Swatch::Line(color(4), 4),
                ),
            ];
            let root = legend_below(root, &legend)?;
            let caption = |i: usize| {
                let (k, (_, witness, lasted)) = (picks[i], &log[picks[i]]);
                let of = describe(*witness);
                format!(
                    "({}) step {k}: plane of {of}, unchanged for {lasted} steps",
                    letter(i)
                )
            };
            each_panel(&root, layout, (4, 2), caption, |i, panel| {
                let (body, witness, _) = &log[picks[i]];
                let mut chart = scene_chart(panel, -2.4..2.4, -1.3..2.3)?;
                let found = witness.and_then(|w| plane(&fixed, body, w));
                let view = found
                    .map_or(Vector3::new(0.55, -0.8, 0.35), |(n, _)| edge_on(&n));
                if let Some((n, level)) = found {
                    let square = plane_square(&fixed, body, (n, level), &view);
                    line(&mut chart, &square, color(4), 4)?;
                }
                for (solid, c) in [(&fixed, REFERENCE), (body, color(0))] {
                    wireframe(&mut chart, solid, &view, c)?;
                }
                Ok(())
            })
        },
    )
}

/// A 2.6-wide square of the plane `n · x = level`, centred on the line between the
/// cubes' centres, seen along `view` and closed: seen edge-on, a segment, the
/// plane's trace.
fn plane_square(
    fixed: &ConvexPolyhedron,
    body: &ConvexPolyhedron,
    (n, level): (Vector3<f64>, f64),
    view: &Vector3<f64>,
) -> Vec<(f64, f64)> {
    let (ca, cb) = (fixed.centre(), body.centre());
    let mid = 0.5 * (ca + cb);
    let centre = mid + n * (level - n.dot(&mid));
    let u = n
        .cross(&if n.x.abs() < 0.9 { Vector3::x() } else { Vector3::y() })
        .normalize();
    let v = n.cross(&u);
    let square: Vec<(f64, f64)> =
        [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .iter()
            .map(|&(a, b)| project(view, &(centre + (u * a + v * b) * 1.3)))
            .collect();
    let mut outline = square.clone();
    outline.push(square[0]);
    outline
}

/// The edges of `solid` seen along `view`, in `c`.
fn wireframe<'a, 'b: 'a>(
    chart: &mut Chart2d<'a, 'b>,
    solid: &ConvexPolyhedron,
    view: &Vector3<f64>,
    c: RGBColor,
) -> DrawResult {
    for &[a, b] in solid.edges() {
        let (pa, pb) = (
            project(view, &solid.vertices()[a]),
            project(view, &solid.vertices()[b]),
        );
        line(chart, &[pa, pb], c, 2)?;
    }
    Ok(())
}

/// The table's top face and the block's bottom, seen from above as closed (x, z)
/// outlines, and the contacts found between them, vertex/face and edge/edge.
type TableContacts = [Vec<(f64, f64)>; 4];

fn table_contacts() -> Result<TableContacts, PbmError> {
    let (table, block) = crate::scenes::table_edge()?;
    let found = contacts(&table, &block, 1e-4);
    let top = |s: &ConvexPolyhedron| {
        // The face whose normal is +y (or −y for the block's bottom), as (x, z) points.
        let want = if s.centre().y < 0.0 { 1.0 } else { -1.0 };
        let f = (0..s.faces().len())
            .find(|&f| s.normal(f).y * want > 0.99)
            .map_or(Vec::new(), |f| {
                s.faces()[f].iter().map(|&v| s.vertices()[v]).collect()
            });
        let mut ring: Vec<(f64, f64)> =
            f.iter().map(|p: &Vector3<f64>| (p.x, p.z)).collect();
        ring.extend(ring.first().copied());
        ring
    };
    let of = |kind: fn(&Feature) -> bool| -> Vec<(f64, f64)> {
        found
            .iter()
            .filter(|c| kind(&c.feature))
            .map(|c| (c.point.x, c.point.z))
            .collect()
    };
    let vertex_face = of(|f| matches!(f, Feature::VertexFace { .. }));
    let edge_edge = of(|f| matches!(f, Feature::EdgeEdge { .. }));
    Ok([top(&table), top(&block), vertex_face, edge_edge])
}

pub(super) fn table_edge() -> Result<Vec<Drawing>, PbmError> {
    let [table_top, block_bottom, vertex_face, edge_edge] = table_contacts()?;
    let grey = RGBColor(170, 170, 170);
    titled_figure(
        [470, 560],
        "A block resting flat over a table's edge, seen from above",
        |root, _| {
            let legend: Legend = vec![
                ("the table's top (its edge at x = 0)".into(), Swatch::Square(grey)),
                (
                    "the block's bottom face".into(),
                    Swatch::Line(color(0), LINE_WIDTH),
                ),
                (
                    format!("vertex/face contacts: {}", vertex_face.len()),
                    Swatch::Dot(color(1), 6),
                ),
                (
                    format!("edge/edge contacts: {}", edge_edge.len()),
                    Swatch::Square(color(2)),
                ),
            ];
            let root = legend_below(root, &legend)?;
            let (xr, yr) = equal_scale(&root, -0.5..0.45, -0.35..0.35);
            let mut chart = chart_on(&root).build_cartesian_2d(xr, yr)?;
            tenths_axes(&mut chart, "x (m)", "z (m)")?;
            super::parts::fill(&mut chart, &table_top, grey.mix(0.8))?;
            line(&mut chart, &block_bottom, color(0), LINE_WIDTH)?;
            dots(&mut chart, &vertex_face, 6, color(1))?;
            // Squares of a fixed size in pixels, whatever the scale.
            chart.draw_series(edge_edge.iter().map(|&p| {
                EmptyElement::at(p)
                    + Rectangle::new([(-6, -6), (6, 6)], color(2).filled())
            }))?;
            Ok(())
        },
    )
}
