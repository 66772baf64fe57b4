//! The chapter's figures, computed with the chapter's own code (the timings from the
//! criterion run committed beside it).

use crate::aabb::Aabb;
use crate::gjk::{Proximity, difference_support, epa_watched, gjk_from};
use crate::polygon::{ConvexPolygon, Witness, separation};
use crate::polyhedron::{
    Axis, ConvexPolyhedron, Feature, PlaneCache, contacts, plane,
};
use crate::scenes::PAPER_TABLE_1;
use crate::scenes::{BoxScene, TumblingPass};
use crate::sweep::{CoherentSweep, brute_force_pairs};
use crate::toi::{
    BOOK_TOSS, FallingBox, LastStep, Search, collision_time, last_step,
};
use crate::tunnel::{Flight, Shot, WALL_X};
use nalgebra::{Vector2, Vector3};
use pbm_ode::convergence::log_log_slope;
use pbm_prelim::plot::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use serde_json::Value;

/// Every figure of the chapter, in reading order.
pub fn all() -> Vec<Figure> {
    vec![
        Figure::new(
            "box-scene",
            "A hundred moving boxes, ten steps apart",
            box_scene,
        ),
        Figure::new(
            "sweep-exchange",
            "One exchange of the coherent sort begins an overlap",
            sweep_exchange,
        ),
        Figure::new(
            "sweep-timing",
            "Time per step against the number of boxes",
            sweep_timing,
        ),
        Figure::new(
            "separating-axis",
            "Candidate axes, the shapes' shadows on them, and the gap",
            separating_axis,
        ),
        Figure::new(
            "gjk-epa",
            "The Minkowski difference, GJK's simplices and EPA's polygon",
            gjk_epa,
        ),
        Figure::new(
            "separating-plane",
            "A separating plane kept as a witness",
            separating_plane,
        ),
        Figure::new(
            "table-edge",
            "The contacts of a box over a table's edge",
            table_edge,
        ),
        Figure::new(
            "collision-time-trials",
            "The separation over the overshooting step and the search's trials",
            collision_time_trials,
        ),
        Figure::new("tunnelling", "A thin fast plate and a wall", tunnelling),
    ]
}

/// Criterion's medians for the broad phase, written by `pbm bench-tables`.
pub const BROAD_PHASE_TIMINGS: &str =
    include_str!("../data/broad-phase-timings.json");

const OVERLAPPING: RGBColor = RGBColor(213, 94, 0);
const CLEAR: RGBColor = RGBColor(0, 158, 115);
/// The tolerance band of the collision-time search.
const BAND: RGBColor = RGBColor(210, 210, 210);

fn box_scene() -> Result<Vec<Drawing>, PbmError> {
    let mut scene = BoxScene::new(100, 0.05, 1)?;
    let [w, h] = scene.region();
    let mut frames = Vec::new();
    for step in 0..=30 {
        if step % 10 == 0 {
            let boxes = scene.bounds()?;
            let pairs = brute_force_pairs(&boxes);
            let mut hit = vec![false; boxes.len()];
            for &(a, b) in &pairs {
                hit[a as usize] = true;
                hit[b as usize] = true;
            }
            frames.push((step, boxes, hit, pairs.len()));
        }
        scene.step();
    }
    titled_figure(
        [600, 1180],
        "Table 1's scene: 100 boxes in a 20 × 16 region, speeds up to 0.05 per step",
        |root, layout| {
            let legend: Legend = vec![
                ("overlaps another box".into(), Swatch::Square(OVERLAPPING)),
                ("overlaps none".into(), Swatch::Square(CLEAR)),
            ];
            let root = legend_below(root, &legend)?;
            let letters = ["a", "b", "c", "d"];
            for (k, (panel, (step, boxes, hit, pairs))) in
                panels(&root, layout, frames.len(), 2).iter().zip(&frames).enumerate()
            {
                let panel = titled(
                    panel,
                    &format!(
                        "({}) step {step}: {pairs} overlapping pairs",
                        letters[k]
                    ),
                    &label_font(),
                )?;
                let (pw, ph) = panel.dim_in_pixel();
                let (xr, yr) = equal_scale_in((pw - 8, ph - 8), 0.0..w, 0.0..h);
                let mut chart =
                    ChartBuilder::on(&panel).margin(4).build_cartesian_2d(xr, yr)?;
                chart.draw_series(std::iter::once(Rectangle::new(
                    [(0.0, 0.0), (w, h)],
                    REFERENCE.stroke_width(1),
                )))?;
                for (b, &overlapping) in boxes.iter().zip(hit) {
                    let c = if overlapping { OVERLAPPING } else { CLEAR };
                    let corners = [(b.min[0], b.min[1]), (b.max[0], b.max[1])];
                    chart.draw_series([
                        Rectangle::new(corners, c.mix(0.55).filled()),
                        Rectangle::new(corners, c.stroke_width(1)),
                    ])?;
                }
            }
            Ok(())
        },
    )
}

/// One timed series: (n, median seconds).
type Series = Vec<(f64, f64)>;

/// The series of the committed recorded run, by method name, and which run it is.
fn timing_series() -> Result<(Vec<(String, Series)>, String), PbmError> {
    let bad = |why: String| PbmError::Figure { why };
    let json: Value = serde_json::from_str(BROAD_PHASE_TIMINGS)
        .map_err(|e| bad(format!("broad-phase-timings.json: {e}")))?;
    let series = json["series"]
        .as_object()
        .ok_or_else(|| bad("broad-phase-timings.json has no series".into()))?;
    let mut out = Vec::new();
    for (name, rows) in series {
        let points = rows
            .as_array()
            .map(|rows| {
                rows.iter()
                    .filter_map(|r| Some((r["n"].as_f64()?, r["median_s"].as_f64()?)))
                    .collect::<Series>()
            })
            .unwrap_or_default();
        out.push((name.clone(), points));
    }
    let run = json["run"].as_str().ok_or_else(|| bad("no run named".into()))?;
    let rounds = json["rounds"].as_u64().ok_or_else(|| bad("no rounds".into()))?;
    Ok((out, format!("medians of the {rounds} rounds of run {run}")))
}

fn sweep_timing() -> Result<Vec<Drawing>, PbmError> {
    let (measured, run) = timing_series()?;
    let label = |name: &str| match name {
        "coherent" => "coherent sweep (this chapter)",
        "resort" => "full sort and sweep every step",
        "brute" => "brute force, every pair",
        "parry-bvh" => "parry's BVH, refitted (production)",
        _ => "other",
    };
    let mut curves: Vec<(String, Series, Swatch, bool)> = Vec::new();
    for (i, (name, points)) in measured.iter().enumerate() {
        let ms: Series = points.iter().map(|&(n, s)| (n, s * 1e3)).collect();
        let slope = log_log_slope(&ms);
        let text = format!("{} (slope {slope:.2})", label(name));
        curves.push((text, ms, Swatch::LineDots(color(i), LINE_WIDTH + 1), false));
    }
    let paper: Series = PAPER_TABLE_1.iter().map(|&(n, ms)| (n as f64, ms)).collect();
    let paper_text =
        format!("Baraff 1995, Mips R4000 (slope {:.2})", log_log_slope(&paper));
    curves.push((paper_text, paper, Swatch::Dashed(REFERENCE, LINE_WIDTH), true));
    require_finite(curves.iter().flat_map(|c| c.1.iter().flat_map(|p| [p.0, p.1])))?;
    let (lo, hi) = curves
        .iter()
        .flat_map(|c| c.1.iter().map(|p| p.1))
        .fold((f64::INFINITY, 0.0_f64), |(lo, hi), y| (lo.min(y), hi.max(y)));
    // A decade's margin below a point that falls on a power of ten, so that no point
    // sits on the axis.
    let y_range =
        10f64.powf((lo.log10() - 0.1).floor())..10f64.powf(hi.log10().ceil());
    titled_figure(
        [540, 600],
        &format!("Finding every change in overlap, one step, one thread; {run}"),
        |root, _| {
            let legend: Legend = curves
                .iter()
                .map(|(name, _, swatch, _)| (name.clone(), *swatch))
                .collect();
            let plot = legend_below(root, &legend)?;
            let mut chart = chart_on(&plot).build_cartesian_2d(
                (70.0..4500.0).log_scale(),
                y_range.clone().log_scale(),
            )?;
            axes(&mut chart, "number of boxes n", "time per step (ms)")
                .x_label_formatter(&|n| format!("{n:.0}"))
                .y_label_formatter(&power_of_ten)
                .draw()?;
            for (i, (_, points, _, dashed)) in curves.iter().enumerate() {
                if *dashed {
                    dashed_line(&mut chart, points, REFERENCE, LINE_WIDTH)?;
                } else {
                    line(&mut chart, points, color(i), LINE_WIDTH + 1)?;
                    chart.draw_series(
                        points.iter().map(|&p| Circle::new(p, 4, color(i).filled())),
                    )?;
                }
            }
            Ok(())
        },
    )
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

fn separating_plane() -> Result<Vec<Drawing>, PbmError> {
    // The exercise's pass: a fixed unit cube and one tumbling past it.
    let pass = TumblingPass::BOOK;
    let fixed = TumblingPass::cube()?;
    let steps = pass.steps;
    let at = |k: usize| pass.moving(&fixed, k);
    let mut cache = PlaneCache::default();
    // (step, body, witness, searched at this step, steps the witness has lasted)
    let mut log = Vec::new();
    let mut since = 0;
    for k in 0..steps {
        let body = at(k);
        let searched_before = cache.searched;
        cache.test(&fixed, &body, 1e-3);
        let searched = cache.searched > searched_before;
        since = if searched { 0 } else { since + 1 };
        log.push((k, body, cache.witness(), searched, since));
    }
    // Four instants: the pass's middle third, at even spacing.
    let picks: Vec<usize> = (0..4).map(|i| 700 + 200 * i).collect();
    let describe =
        |w: Option<crate::polyhedron::PlaneWitness>| match w.map(|w| w.axis) {
            Some(Axis::FaceOfA(_)) => "a face of the fixed cube",
            Some(Axis::FaceOfB(_)) => "a face of the moving cube",
            Some(Axis::Edges(..)) => "an edge of each cube",
            None => "none",
        };
    let reuse = cache.reused as f64 / steps as f64;
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
            let letters = ["a", "b", "c", "d"];
            for (i, (panel, &k)) in
                panels(&root, layout, 4, 2).iter().zip(&picks).enumerate()
            {
                let (_, body, witness, _, lasted) = &log[k];
                let panel = titled(
                    panel,
                    &format!(
                        "({}) step {k}: plane of {}, unchanged for {lasted} steps",
                        letters[i],
                        describe(*witness)
                    ),
                    &label_font(),
                )?;
                let (pw, ph) = panel.dim_in_pixel();
                let (xr, yr) = equal_scale_in((pw - 8, ph - 8), -2.4..2.4, -1.3..2.3);
                let mut chart =
                    ChartBuilder::on(&panel).margin(4).build_cartesian_2d(xr, yr)?;
                let found = witness.and_then(|w| plane(&fixed, body, w));
                let view = found
                    .map_or(Vector3::new(0.55, -0.8, 0.35), |(n, _)| edge_on(&n));
                if let Some((n, level)) = found {
                    // A 2.6-wide square of the plane, centred on the line between
                    // the cubes' centres.
                    let (ca, cb) = (fixed.centre(), body.centre());
                    let mid = 0.5 * (ca + cb);
                    let centre = mid + n * (level - n.dot(&mid));
                    let u = n
                        .cross(&if n.x.abs() < 0.9 {
                            Vector3::x()
                        } else {
                            Vector3::y()
                        })
                        .normalize();
                    let v = n.cross(&u);
                    let square: Vec<(f64, f64)> =
                        [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                            .iter()
                            .map(|&(a, b)| {
                                project(&view, &(centre + (u * a + v * b) * 1.3))
                            })
                            .collect();
                    // Seen edge-on, the square is a segment: the plane's trace.
                    let mut outline = square.clone();
                    outline.push(square[0]);
                    line(&mut chart, &outline, color(4), 4)?;
                }
                for (solid, c) in [(&fixed, REFERENCE), (body, color(0))] {
                    for &[a, b] in solid.edges() {
                        let (pa, pb) = (
                            project(&view, &solid.vertices()[a]),
                            project(&view, &solid.vertices()[b]),
                        );
                        line(&mut chart, &[pa, pb], c, 2)?;
                    }
                }
            }
            Ok(())
        },
    )
}

fn tunnelling() -> Result<Vec<Drawing>, PbmError> {
    let shot = Shot::new(45.0, 0.0, 0.02, 0.1, 1.0 / 60.0)?;
    let eps = 1e-3;
    let runs: [(String, Flight); 3] = [
        ("tested at the end of each step".into(), shot.discrete(1, eps)?),
        ("tested at 4 sub-steps per step".into(), shot.discrete(4, eps)?),
        ("conservative advancement".into(), shot.advancing(eps)?),
    ];
    let ms = |x: f64| (x - (WALL_X - 1.0)) / shot.speed * 1e3;
    // The close-up: the last instant (a) tests in front of the wall and the first
    // behind it, with the plate drawn at its real thickness.
    let track = &runs[0].1.track;
    let dt = shot.h;
    let skip = (1..track.len())
        .find(|&k| {
            track[k - 1].0 + 0.5 * shot.plate < WALL_X
                && track[k].0 - 0.5 * shot.plate > WALL_X + shot.wall
        })
        .ok_or_else(|| figure_error("the plain test does not skip the wall"))?;
    let instants = [skip - 1, skip];
    let plates: Vec<ConvexPolygon> = instants
        .iter()
        .map(|&k| shot.shapes(k as f64 * dt).map(|(_, plate)| plate))
        .collect::<Result<_, PbmError>>()?;
    let (wall_poly, _) = shot.shapes(0.0)?;
    let stride = track[skip].0 - track[skip - 1].0;
    let cm = |m: f64| format!("{:.0} cm", m * 100.0);
    titled_figure(
        [860, 1450],
        &format!(
            "A {} plate at {} m/s towards a {} wall, steps of 1/{:.0} s",
            cm(shot.plate),
            shot.speed,
            cm(shot.wall),
            1.0 / shot.h
        ),
        |root, layout| {
            let legend: Legend = vec![
                ("plate where tested".into(), Swatch::Dot(color(0), 5)),
                ("collision found".into(), Swatch::Dot(color(1), 8)),
                ("wall".into(), Swatch::Square(RGBColor(150, 150, 150))),
                ("plate at its thickness, in (d)".into(), Swatch::Square(color(0))),
            ];
            let root = legend_below(root, &legend)?;
            let (_, h) = root.dim_in_pixel();
            let (top, close_up) = root.split_vertically(h - layout.pick(330, 340));
            let close_up = close_up.margin(layout.pick(10, 24), 0, 0, 0);
            let panel = titled(
                &close_up,
                &format!(
                    "(d) close-up of (a): between two tests the plate moves v h = {}, more than plate and wall together, b + w = {}",
                    cm(stride),
                    cm(shot.plate + shot.wall)
                ),
                &label_font(),
            )?;
            let (pw, ph) = panel.dim_in_pixel();
            let mid = 0.5 * (track[skip - 1].0 + track[skip].0);
            let (xr, yr) = equal_scale_in(
                (pw - 8, ph - 8),
                mid - 0.5 * stride - 0.25..mid + 0.5 * stride + 0.25,
                -0.5..0.55,
            );
            let mut chart =
                ChartBuilder::on(&panel).margin(4).build_cartesian_2d(xr, yr)?;
            let outline = |p: &ConvexPolygon| {
                let mut o: Vec<(f64, f64)> =
                    p.vertices().iter().map(|v| (v.x, v.y)).collect();
                o.push(o[0]);
                o
            };
            let grey = RGBColor(150, 150, 150);
            chart.draw_series(std::iter::once(Polygon::new(
                outline(&wall_poly),
                grey.mix(0.7).filled(),
            )))?;
            let above = 0.38;
            let centre_bottom = tick_font().pos(Pos::new(HPos::Center, VPos::Bottom));
            let left = tick_font().pos(Pos::new(HPos::Left, VPos::Center));
            let right = tick_font().pos(Pos::new(HPos::Right, VPos::Center));
            for (k, text) in ["wall".to_string(), format!("w = {}", cm(shot.wall))]
                .iter()
                .enumerate()
            {
                chart.draw_series(std::iter::once(
                    EmptyElement::at((WALL_X + shot.wall, 0.0))
                        + Text::new(
                            text.clone(),
                            (8, 20 * k as i32 - 10),
                            left.clone(),
                        ),
                ))?;
            }
            for (plate, &k) in plates.iter().zip(&instants) {
                chart.draw_series([Polygon::new(
                    outline(plate),
                    color(0).mix(0.8).filled(),
                )])?;
                line(&mut chart, &outline(plate), color(0), 1)?;
                let x = track[k].0;
                chart.draw_series(std::iter::once(Text::new(
                    format!("step {k}"),
                    (x, above + 0.06),
                    centre_bottom.clone(),
                )))?;
            }
            let x = track[skip - 1].0;
            for (k, text) in ["plate".to_string(), format!("b = {}", cm(shot.plate))]
                .iter()
                .enumerate()
            {
                chart.draw_series(std::iter::once(
                    EmptyElement::at((x - 0.5 * shot.plate, 0.0))
                        + Text::new(
                            text.clone(),
                            (-8, 20 * k as i32 - 10),
                            right.clone(),
                        ),
                ))?;
            }
            // The step, from one tested centre to the next, below the plates.
            let y = -0.42;
            let (a, b) = ((track[skip - 1].0, y), (track[skip].0, y));
            line(&mut chart, &[a, b], REFERENCE, 2)?;
            for (end, side) in [(a, 9), (b, -9)] {
                chart.draw_series(std::iter::once(
                    EmptyElement::at(end)
                        + PathElement::new(
                            vec![(side, -5), (0, 0), (side, 5)],
                            REFERENCE.stroke_width(2),
                        ),
                ))?;
            }
            chart.draw_series(std::iter::once(Text::new(
                format!("one step, v h = {}", cm(stride)),
                (0.5 * (a.0 + b.0), y + 0.04),
                centre_bottom.clone(),
            )))?;
            let letters = ["a", "b", "c"];
            for (i, (panel, (name, flight))) in
                panels(&top, layout, 3, 3).iter().zip(&runs).enumerate()
            {
                let verdict = match flight.hit {
                    Some(t) => format!("hit at {:.1} ms", t * 1e3),
                    None if flight.tunnelled => "passes through".into(),
                    None => "no hit".into(),
                };
                let panel = titled(
                    panel,
                    &format!("({}) {name}: {verdict}", letters[i]),
                    &label_font(),
                )?;
                let mut chart =
                    chart_on(&panel).build_cartesian_2d(0.9..3.6, -3.0..60.0)?;
                axes(&mut chart, "plate position x (m)", "time (ms)")
                    .y_label_formatter(&|t| format!("{t:.0}"))
                    .x_label_formatter(&|x| format!("{x:.1}"))
                    .draw()?;
                chart.draw_series(std::iter::once(Rectangle::new(
                    [(WALL_X, -3.0), (WALL_X + shot.wall, 60.0)],
                    RGBColor(150, 150, 150).mix(0.7).filled(),
                )))?;
                // The chart shows the plate up to 3.5 m: past that nothing happens.
                let points: Vec<(f64, f64)> = flight
                    .track
                    .iter()
                    .filter(|&&(x, _)| x <= 3.5)
                    .map(|&(x, _)| (x, ms(x)))
                    .collect();
                line(&mut chart, &points, color(0), 1)?;
                chart.draw_series(
                    points.iter().map(|&p| Circle::new(p, 5, color(0).filled())),
                )?;
                if let Some(t) = flight.hit {
                    let x = shot.at(t).0;
                    chart.draw_series(std::iter::once(Circle::new(
                        (x, t * 1e3),
                        8,
                        color(1).filled(),
                    )))?;
                }
            }
            Ok(())
        },
    )
}

/// A figure error saying what went wrong with its data.
fn figure_error(why: impl Into<String>) -> PbmError {
    PbmError::Figure { why: why.into() }
}

/// "b₃" or "e₃": the begin or the end of box `id` (counted from 1 on the page).
fn end_name(id: u32, begin: bool) -> String {
    let digits = ['₀', '₁', '₂', '₃', '₄', '₅', '₆', '₇', '₈', '₉'];
    let sub: String = (id + 1)
        .to_string()
        .chars()
        .map(|c| digits[c.to_digit(10).unwrap_or(0) as usize])
        .collect();
    format!("{}{sub}", if begin { 'b' } else { 'e' })
}

fn sweep_exchange() -> Result<Vec<Drawing>, PbmError> {
    // Four boxes' intervals on the x axis (m); in one step the third moves left.
    let start = [(0.5, 2.0), (1.5, 3.2), (3.6, 5.0), (5.6, 6.8)];
    let moved = 2;
    let shift = -0.6;
    let intervals = |k: f64| -> Result<Vec<Aabb<1>>, PbmError> {
        start
            .iter()
            .enumerate()
            .map(|(i, &(b, e))| {
                let s = if i == moved { k * shift } else { 0.0 };
                Aabb::new([b + s], [e + s])
            })
            .collect()
    };
    let (before, after) = (intervals(0.0)?, intervals(1.0)?);
    let mut sweep = CoherentSweep::new(&before)?;
    let order_before = sweep.order(0);
    let changes = sweep.update(&after)?;
    let order_after = sweep.order(0);
    // The figure is about one exchange: find it by comparing the two orders, and
    // check it against the sweep's own count.
    let differ: Vec<usize> = (0..order_before.len())
        .filter(|&k| {
            (order_before[k].0, order_before[k].1)
                != (order_after[k].0, order_after[k].1)
        })
        .collect();
    if changes.exchanges != 1 || differ.len() != 2 || differ[1] != differ[0] + 1 {
        return Err(figure_error(format!(
            "{} exchanges, orders differ at {differ:?}",
            changes.exchanges
        )));
    }
    let Some(&(i, j)) = changes.began.first() else {
        return Err(figure_error("the exchange began no overlap"));
    };
    let slot = differ[0];
    let token = |o: &(u32, bool, f64)| end_name(o.0, o.1);
    let (first, second) =
        (token(&order_before[slot]), token(&order_before[slot + 1]));
    let moments = [
        (
            &before,
            &order_before,
            format!(
                "(a) before: {first} before {second} in the list; boxes {} and {} apart",
                i + 1,
                j + 1
            ),
        ),
        (
            &after,
            &order_after,
            format!(
                "(b) box {} moved {} m left: {} exchange, {second} past {first}; boxes {} and {} overlap",
                moved + 1,
                -shift,
                changes.exchanges,
                i + 1,
                j + 1
            ),
        ),
    ];
    require_finite(before.iter().chain(&after).flat_map(|b| [b.min[0], b.max[0]]))?;
    let ghost = before[moved];
    titled_figure(
        [760, 900],
        "Sort and sweep kept sorted by insertion sort: one exchange of two ends, one new overlapping pair",
        |root, _| {
            let legend: Legend = vec![
                ("a box's interval on the x axis".into(), Swatch::Square(color(0))),
                (
                    "the pair whose overlap the exchange begins".into(),
                    Swatch::Square(OVERLAPPING),
                ),
                (
                    format!("box {} before it moved", moved + 1),
                    Swatch::Dashed(REFERENCE, 2),
                ),
                ("the two ends exchanged".into(), Swatch::Line(OVERLAPPING, 2)),
            ];
            let root = legend_below(root, &legend)?;
            let (w, h) = root.dim_in_pixel();
            // Split so that both panels' plots get the same height whatever their
            // captions' lengths.
            let title_height = |text: &str| -> u32 {
                let lines =
                    wrap(&root, text, &label_font(), w.saturating_sub(16)).len();
                let line =
                    root.estimate_text_size("Ag", &label_font()).map_or(20, |s| s.1);
                8 + (f64::from(line) * 1.25).ceil() as u32 * lines as u32
            };
            let gap = 14;
            let body =
                (h - gap - title_height(&moments[0].2) - title_height(&moments[1].2))
                    / 2;
            let halves = root.split_vertically(title_height(&moments[0].2) + body);
            let halves = [halves.0, halves.1];
            for (k, (half, (boxes, order, caption))) in
                halves.iter().zip(&moments).enumerate()
            {
                let half =
                    if k > 0 { half.margin(gap, 0, 0, 0) } else { half.clone() };
                let panel = titled(&half, caption, &label_font())?;
                let (_, ph) = panel.dim_in_pixel();
                let strip_height = 70;
                let (plot, strip) =
                    panel.split_vertically(ph.saturating_sub(strip_height));
                let rows = boxes.len() as f64;
                let mut chart = ChartBuilder::on(&plot)
                    .margin(6)
                    .margin_left(16)
                    .margin_right(16)
                    .x_label_area_size(44)
                    .build_cartesian_2d(0.0..7.4, 0.45..rows + 0.75)?;
                chart
                    .configure_mesh()
                    .disable_y_axis()
                    .disable_y_mesh()
                    .x_desc("x (m)")
                    .axis_desc_style(label_font())
                    .label_style(tick_font())
                    .x_labels(8)
                    .light_line_style(TRANSPARENT)
                    .bold_line_style(BLACK.mix(0.1))
                    .draw()?;
                let level = |id: usize| rows - id as f64;
                let began = k == 1;
                if began {
                    // Where the two intervals now overlap.
                    let (lo, hi) = (
                        boxes[i as usize].min[0].max(boxes[j as usize].min[0]),
                        boxes[i as usize].max[0].min(boxes[j as usize].max[0]),
                    );
                    chart.draw_series(std::iter::once(Rectangle::new(
                        [
                            (lo, level(j as usize) - 0.35),
                            (hi, level(i as usize) + 0.3),
                        ],
                        OVERLAPPING.mix(0.3).filled(),
                    )))?;
                    let y = level(moved);
                    let outline = [
                        (ghost.min[0], y - 0.16),
                        (ghost.max[0], y - 0.16),
                        (ghost.max[0], y + 0.16),
                        (ghost.min[0], y + 0.16),
                        (ghost.min[0], y - 0.16),
                    ];
                    dashed_line(&mut chart, &outline, REFERENCE, 2)?;
                }
                let left = tick_font().pos(Pos::new(HPos::Left, VPos::Bottom));
                let right = tick_font().pos(Pos::new(HPos::Right, VPos::Bottom));
                for (id, b) in boxes.iter().enumerate() {
                    let y = level(id);
                    let hot = began && (id == i as usize || id == j as usize);
                    let c = if hot { OVERLAPPING } else { color(0) };
                    let corners = [(b.min[0], y - 0.16), (b.max[0], y + 0.16)];
                    chart.draw_series([
                        Rectangle::new(corners, c.mix(0.55).filled()),
                        Rectangle::new(corners, c.stroke_width(1)),
                    ])?;
                    let id = id as u32;
                    chart.draw_series([
                        Text::new(
                            end_name(id, true),
                            (b.min[0], y + 0.2),
                            left.clone(),
                        ),
                        Text::new(
                            end_name(id, false),
                            (b.max[0], y + 0.2),
                            right.clone(),
                        ),
                    ])?;
                }
                if began {
                    let y = level(moved) - 0.34;
                    let tip = (boxes[moved].min[0], y);
                    line(&mut chart, &[(ghost.min[0], y), tip], REFERENCE, 2)?;
                    // The head in pixels: the chart's two scales differ.
                    let side = if ghost.min[0] > tip.0 { 9 } else { -9 };
                    chart.draw_series(std::iter::once(
                        EmptyElement::at(tip)
                            + PathElement::new(
                                vec![(side, -5), (0, 0), (side, 5)],
                                REFERENCE.stroke_width(2),
                            ),
                    ))?;
                }
                // The sorted list of ends, one slot each.
                let n = order.len() as i32;
                let pad = 16;
                let slot = (w as i32 - 2 * pad) / n;
                let centre = |s: usize| pad + slot * s as i32 + slot / 2;
                strip.draw(&Text::new(
                    "the sorted list of ends, as the sweep keeps it:",
                    (pad, 4),
                    tick_font().pos(Pos::new(HPos::Left, VPos::Top)),
                ))?;
                let y = 34;
                for (s, o) in order.iter().enumerate() {
                    let hot = s == differ[0] || s == differ[1];
                    let c = if hot { OVERLAPPING } else { REFERENCE };
                    strip.draw(&Text::new(
                        token(o),
                        (centre(s), y),
                        tick_font()
                            .color(&c)
                            .pos(Pos::new(HPos::Center, VPos::Center)),
                    ))?;
                }
                if began {
                    // A two-headed bracket under the exchanged ends.
                    let (a, b) = (centre(differ[0]), centre(differ[1]));
                    let (top, bottom) = (y + 12, y + 22);
                    strip.draw(&PathElement::new(
                        vec![(a, top), (a, bottom), (b, bottom), (b, top)],
                        OVERLAPPING.stroke_width(2),
                    ))?;
                    for x in [a, b] {
                        strip.draw(&PathElement::new(
                            vec![(x - 4, top + 6), (x, top), (x + 4, top + 6)],
                            OVERLAPPING.stroke_width(2),
                        ))?;
                    }
                }
            }
            Ok(())
        },
    )
}

/// The two polygons of the separating-axis figure.
fn axis_polygons() -> Result<(ConvexPolygon, ConvexPolygon), PbmError> {
    let v = Vector2::new;
    let a = ConvexPolygon::new(vec![
        v(0.0, 0.0),
        v(1.4, -0.2),
        v(1.9, 0.8),
        v(1.0, 1.6),
        v(-0.2, 1.0),
    ])?;
    let b = ConvexPolygon::rectangle(Vector2::zeros(), v(0.75, 0.35))?
        .placed(v(3.1, 1.7), 0.6);
    Ok((a, b))
}

/// The interval a polygon's vertices cover along the unit direction `n`.
fn projection(p: &ConvexPolygon, n: &Vector2<f64>) -> (f64, f64) {
    p.vertices()
        .iter()
        .map(|v| n.dot(v))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), s| {
            (lo.min(s), hi.max(s))
        })
}

fn separating_axis() -> Result<Vec<Drawing>, PbmError> {
    let (a, b) = axis_polygons()?;
    // The chapter's answer: the best gap and the edge whose normal attains it.
    let (best, witness) = separation(&a, &b);
    let towards_b =
        |w: Witness| if w.of_b { -b.normal(w.edge) } else { a.normal(w.edge) };
    // Every candidate the search tries, as a direction from A towards B, and its gap
    // g(n) = min over B − max over A.
    let gap = |n: &Vector2<f64>| projection(&b, n).0 - projection(&a, n).1;
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
    let overlap = |n: &Vector2<f64>| {
        let ((lo_a, hi_a), (lo_b, hi_b)) = (projection(&a, n), projection(&b, n));
        hi_a.min(hi_b) - lo_a.max(lo_b)
    };
    let centre = |p: &ConvexPolygon| {
        p.vertices().iter().sum::<Vector2<f64>>() / p.vertices().len() as f64
    };
    let (worst_witness, worst) = candidates
        .iter()
        .map(|&w| {
            let n = towards_b(w);
            (w, if n.dot(&(centre(&b) - centre(&a))) < 0.0 { -n } else { n })
        })
        .max_by(|p, q| overlap(&p.1).total_cmp(&overlap(&q.1)))
        .ok_or_else(|| figure_error("no candidates"))?;
    if overlap(&worst) <= 0.0 {
        return Err(figure_error("every candidate separates the polygons"));
    }
    let whose = |w: Witness| if w.of_b { "B" } else { "A" };
    let views = [
        (
            worst,
            format!(
                "(a) the normal of an edge of {}: the shadows overlap by {:.2} m, so it does not separate",
                whose(worst_witness),
                overlap(&worst)
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
    require_finite(a.vertices().iter().chain(b.vertices()).flat_map(|v| [v.x, v.y]))?;
    let shade_a = REFERENCE;
    let shade_b = color(0);
    titled_figure(
        [520, 960],
        &format!(
            "Two convex polygons A and B, {} candidate axes (the edge normals): each shape's shadow on an axis, and the gap between the shadows",
            candidates.len()
        ),
        |root, layout| {
            let legend: Legend = vec![
                ("A, and its shadow on the axis".into(), Swatch::Line(shade_a, 6)),
                ("B, and its shadow".into(), Swatch::Line(shade_b, 6)),
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
            for (panel, (n, caption)) in
                panels(&root, layout, 2, 2).iter().zip(&views)
            {
                let panel = titled(panel, caption, &label_font())?;
                // The axis: a line along n, to the right of both shapes seen along n.
                let side = Vector2::new(n.y, -n.x);
                let all = a.vertices().iter().chain(b.vertices());
                let beside = all
                    .clone()
                    .map(|v| side.dot(v))
                    .fold(f64::NEG_INFINITY, f64::max)
                    + 0.7;
                let on_axis = |s: f64| side * beside + n * s;
                let (lo_a, hi_a) = projection(&a, n);
                let (lo_b, hi_b) = projection(&b, n);
                let (s0, s1) = (lo_a.min(lo_b) - 0.4, hi_a.max(hi_b) + 0.6);
                // The gap from A's far end to B's near end or, where the shadows
                // overlap, the stretch they share.
                let g = lo_b - hi_a;
                let mark = side * 0.3;
                let (p, q) = if g > 0.0 {
                    (on_axis(hi_a) + mark, on_axis(lo_b) + mark)
                } else {
                    (on_axis(lo_a.max(lo_b)) + mark, on_axis(hi_a.min(hi_b)) + mark)
                };
                // The label beside the bracket, reading away from the shapes.
                let label_at = (p + q) / 2.0 + side * 0.3;
                let label_pos = if side.x < 0.0 { HPos::Right } else { HPos::Left };
                let label_reach = Vector2::new(2.3 * side.x.signum(), 0.0);
                let points: Vec<Vector2<f64>> = all
                    .copied()
                    .chain([on_axis(s0), on_axis(s1)])
                    .chain([on_axis(s0) + side * 0.9, on_axis(s1) + side * 0.9])
                    .chain(
                        [on_axis(s1 + 0.1) + Vector2::new(0.8 * n.x.signum(), 0.0)],
                    )
                    .chain([label_at + label_reach])
                    .collect();
                let (x0, x1) = points
                    .iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| {
                        (l.min(p.x), h.max(p.x))
                    });
                let (y0, y1) = points
                    .iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| {
                        (l.min(p.y), h.max(p.y))
                    });
                let (pw, ph) = panel.dim_in_pixel();
                let (xr, yr) = equal_scale_in(
                    (pw - 12, ph - 12),
                    x0 - 0.2..x1 + 0.2,
                    y0 - 0.2..y1 + 0.2,
                );
                let mut chart =
                    ChartBuilder::on(&panel).margin(6).build_cartesian_2d(xr, yr)?;
                let xy = |v: Vector2<f64>| (v.x, v.y);
                for (p, c, label) in [(&a, shade_a, "A"), (&b, shade_b, "B")] {
                    let mut outline: Vec<(f64, f64)> =
                        p.vertices().iter().map(|v| xy(*v)).collect();
                    outline.push(outline[0]);
                    chart.draw_series(std::iter::once(Polygon::new(
                        outline.clone(),
                        c.mix(0.25).filled(),
                    )))?;
                    line(&mut chart, &outline, c, 2)?;
                    let centre = p.vertices().iter().sum::<Vector2<f64>>()
                        / p.vertices().len() as f64;
                    chart.draw_series(std::iter::once(Text::new(
                        label,
                        xy(centre),
                        label_font().pos(Pos::new(HPos::Center, VPos::Center)),
                    )))?;
                    // Dashed lines from the vertices that give the shadow's ends.
                    let (lo, hi) = projection(p, n);
                    for v in p.vertices().iter().filter(|v| {
                        let s = n.dot(v);
                        (s - lo).abs() < 1e-12 || (s - hi).abs() < 1e-12
                    }) {
                        dashed_line(
                            &mut chart,
                            &[xy(*v), xy(on_axis(n.dot(v)))],
                            c,
                            1,
                        )?;
                    }
                }
                // The axis, its direction, and the two shadows a little to either side.
                arrow(
                    &mut chart,
                    xy(on_axis(s0)),
                    xy(on_axis(s1)),
                    0.25,
                    REFERENCE,
                    1,
                )?;
                let h_pos = if n.x >= 0.0 { HPos::Left } else { HPos::Right };
                chart.draw_series(std::iter::once(Text::new(
                    "axis n",
                    xy(on_axis(s1 + 0.1) + side * 0.15),
                    tick_font().pos(Pos::new(h_pos, VPos::Center)),
                )))?;
                let offset = 0.07;
                line(
                    &mut chart,
                    &[
                        xy(on_axis(lo_a) - side * offset),
                        xy(on_axis(hi_a) - side * offset),
                    ],
                    shade_a,
                    6,
                )?;
                line(
                    &mut chart,
                    &[
                        xy(on_axis(lo_b) + side * offset),
                        xy(on_axis(hi_b) + side * offset),
                    ],
                    shade_b,
                    6,
                )?;
                line(&mut chart, &[xy(p), xy(q)], OVERLAPPING, 3)?;
                for e in [p, q] {
                    line(
                        &mut chart,
                        &[xy(e - side * 0.1), xy(e + side * 0.1)],
                        OVERLAPPING,
                        3,
                    )?;
                }
                let text = if g > 0.0 {
                    format!("gap {g:.2} m")
                } else {
                    format!("overlap {:.2} m", overlap(n))
                };
                chart.draw_series(std::iter::once(Text::new(
                    text,
                    xy(label_at),
                    tick_font()
                        .color(&OVERLAPPING)
                        .pos(Pos::new(label_pos, VPos::Center)),
                )))?;
            }
            Ok(())
        },
    )
}

/// How the search chose a trial time.
#[derive(Clone, Copy, PartialEq)]
enum Trial {
    /// One of the bracket's two ends, placed before the search starts.
    End,
    /// The bracket's midpoint.
    Midpoint,
    /// The secant estimate from the separations at the bracket's ends.
    Secant,
}

/// One placement of the search: time, separation there, and how the time was chosen.
type TrialPoint = (f64, f64, Trial);

/// Every time `collision_time` placed the shapes, in order, with the separation there
/// and how the time was chosen (found by replaying the bracket the search kept).
fn search_trials(
    step: &LastStep,
    epsilon: f64,
    search: Search,
) -> Result<(Vec<TrialPoint>, f64), PbmError> {
    let gap = |t: f64| -> Result<f64, PbmError> {
        let (a, b) = FallingBox::shapes(&step.on_curve(true, t))?;
        Ok(separation(&a, &b).0)
    };
    let mut times = Vec::new();
    let found = collision_time(
        |t| {
            times.push(t);
            FallingBox::shapes(&step.on_curve(true, t))
        },
        (step.t0, step.t0 + step.h),
        epsilon,
        search,
    )?;
    let mut trials = Vec::new();
    let (mut lo, mut hi) = ((f64::NAN, 0.0), (f64::NAN, 0.0));
    for (k, &t) in times.iter().enumerate() {
        let d = gap(t)?;
        let kind = if k < 2 {
            Trial::End
        } else {
            let (l, h): ((f64, f64), (f64, f64)) = (lo, hi);
            let secant = l.0 + (h.0 - l.0) * l.1 / (l.1 - h.1);
            if t == 0.5 * (l.0 + h.0) {
                Trial::Midpoint
            } else if t == secant {
                Trial::Secant
            } else {
                return Err(figure_error(format!("trial {t} is neither rule")));
            }
        };
        if k == 0 || (k >= 2 && d > 0.0) {
            lo = (t, d);
        } else {
            hi = (t, d);
        }
        trials.push((t, d, kind));
    }
    if times.last() != Some(&found.t) {
        return Err(figure_error("the last trial is not the time found"));
    }
    Ok((trials, found.t))
}

/// The vertical coordinate of the collision-time figure for a separation `d`: linear
/// inside the tolerance band (±1 at ±ε), and one unit per factor of ten beyond it, so
/// that the band and trials a thousand times farther out fit one plot.
fn stretched(d: f64, epsilon: f64) -> f64 {
    let r = d / epsilon;
    if r.abs() <= 1.0 { r } else { r.signum() * (1.0 + r.abs().log10()) }
}

fn collision_time_trials() -> Result<Vec<Drawing>, PbmError> {
    let p = BOOK_TOSS;
    let body = FallingBox::new(p.spin, p.drag)?;
    let step = last_step(&body, p.h, p.epsilon)?;
    let (t0, h, eps) = (step.t0, step.h, p.epsilon);
    // Time in the step (ms) against the stretched separation.
    let ms = |t: f64| (t - t0) * 1e3;
    let y = |d: f64| stretched(d, eps);
    // The curve, finely sampled where it crosses the band.
    let searches = [
        ("bisection", search_trials(&step, eps, Search::Bisection)?),
        ("Baraff's secant hybrid", search_trials(&step, eps, Search::Secant)?),
    ];
    let found = searches[1].1.1;
    let mut times: Vec<f64> = (0..=400).map(|k| t0 + h * k as f64 / 400.0).collect();
    times.extend((0..=400).map(|k| found + 2e-3 * (k as f64 / 200.0 - 1.0)));
    times.retain(|t| (t0..=t0 + h).contains(t));
    times.sort_by(f64::total_cmp);
    let curve: Vec<(f64, f64)> = times
        .iter()
        .map(|&t| {
            let (a, b) = FallingBox::shapes(&step.on_curve(true, t))?;
            Ok((ms(t), y(separation(&a, &b).0)))
        })
        .collect::<Result<_, PbmError>>()?;
    require_finite(curve.iter().flat_map(|p| [p.0, p.1]).chain(
        searches.iter().flat_map(|(_, (tr, _))| tr.iter().flat_map(|x| [x.0, x.1])),
    ))?;
    let top = curve.iter().map(|p| p.1.abs()).fold(1.0, f64::max) + 0.35;
    let eps_mm = eps * 1e3;
    // Tick k stands for ±ε·10^(|k|−1); 0 for zero.
    let tick = move |v: &f64| -> String {
        let k = v.round();
        if (v - k).abs() > 1e-9 {
            return String::new();
        }
        if k == 0.0 {
            return "0".into();
        }
        let d = k.signum() * eps_mm * 10f64.powf(k.abs() - 1.0);
        let digits = (-d.abs().log10().floor()).max(0.0) as usize;
        format!("{d:.digits$}")
    };
    let marker = |kind: Trial| match kind {
        Trial::End => (REFERENCE, "the bracket's two ends, tested first"),
        Trial::Midpoint => (color(0), "a midpoint (bisection)"),
        Trial::Secant => (color(2), "a secant estimate"),
    };
    titled_figure(
        [600, 1120],
        &format!(
            "Finding the collision time inside the RK4 step that overshot: the box's separation d(t) from the floor on the cubic through the step's ends, and the times each search tries, in order (h = {} s, ε = {eps_mm} mm)",
            h
        ),
        |root, layout| {
            let legend: Legend = vec![
                ("d(t) on the cubic".into(), Swatch::Line(REFERENCE, 2)),
                ("tolerance band |d| ≤ ε".into(), Swatch::Square(BAND)),
                (marker(Trial::End).1.into(), Swatch::Ring(marker(Trial::End).0, 5)),
                (
                    marker(Trial::Midpoint).1.into(),
                    Swatch::Dot(marker(Trial::Midpoint).0, 5),
                ),
                (
                    marker(Trial::Secant).1.into(),
                    Swatch::Square(marker(Trial::Secant).0),
                ),
                ("the time accepted: |d| ≤ ε".into(), Swatch::Ring(OVERLAPPING, 8)),
            ];
            let root = legend_below(root, &legend)?;
            for (area, (method, (trials, found))) in
                panels(&root, layout, 2, 2).iter().zip(&searches)
            {
                let letter = if method.starts_with("bisection") { "a" } else { "b" };
                let title =
                    format!("({letter}) {method}: {} placements", trials.len());
                let panel = titled(area, &title, &label_font())?;
                let (xr, yr) = (-2.0..h * 1e3 + 2.0, -top..top);
                let mut chart =
                    chart_on(&panel).build_cartesian_2d(xr.clone(), yr.clone())?;
                axes(
                    &mut chart,
                    &format!("time into the step, t − {t0:.2} s (ms)"),
                    "separation d (mm), log beyond ±ε",
                )
                .y_labels(2 * top as usize + 1)
                .x_label_formatter(&|x| format!("{x:.0}"))
                .y_label_formatter(&tick)
                .draw()?;
                chart.draw_series(std::iter::once(Rectangle::new(
                    [(xr.start, -1.0), (xr.end, 1.0)],
                    BAND.filled(),
                )))?;
                line(&mut chart, &[(xr.start, 0.0), (xr.end, 0.0)], REFERENCE, 1)?;
                line(&mut chart, &curve, REFERENCE, 2)?;
                // Numbered points, each number placed beside its point where it
                // covers no other number and no point.
                let centres: Vec<(i32, i32)> = trials
                    .iter()
                    .map(|&(t, d, _)| chart.backend_coord(&(ms(t), y(d))))
                    .collect();
                let mut taken: Vec<[i32; 4]> = Vec::new();
                for (k, &(t, d, kind)) in trials.iter().enumerate() {
                    let at = (ms(t), y(d));
                    let c = marker(kind).0;
                    match kind {
                        Trial::Secant => {
                            chart.draw_series(std::iter::once(
                                EmptyElement::at(at)
                                    + Rectangle::new([(-5, -5), (5, 5)], c.filled()),
                            ))?;
                        }
                        Trial::End => {
                            chart.draw_series([
                                Circle::new(at, 5, WHITE.filled()),
                                Circle::new(at, 5, c.stroke_width(2)),
                            ])?;
                        }
                        Trial::Midpoint => {
                            chart.draw_series(std::iter::once(Circle::new(
                                at,
                                5,
                                c.filled(),
                            )))?;
                        }
                    }
                    if k + 1 == trials.len() {
                        chart.draw_series(std::iter::once(Circle::new(
                            at,
                            9,
                            OVERLAPPING.stroke_width(3),
                        )))?;
                    }
                    // The label's box for each corner it may take: [x0, y0, x1, y1].
                    let px = centres[k];
                    let width = if k + 1 >= 10 { 20 } else { 11 };
                    let boxes =
                        [(1, -1), (1, 1), (-1, -1), (-1, 1)].map(|(sx, sy)| {
                            let (x, y) = (px.0 + sx * 9, px.1 + sy * 9);
                            let (x0, x1) =
                                if sx > 0 { (x, x + width) } else { (x - width, x) };
                            let (y0, y1) =
                                if sy < 0 { (y - 16, y) } else { (y, y + 16) };
                            ([x0, y0, x1, y1], (sx, sy))
                        });
                    let clear = |r: &[i32; 4]| {
                        taken.iter().all(|q| {
                            r[2] <= q[0]
                                || q[2] <= r[0]
                                || r[3] <= q[1]
                                || q[3] <= r[1]
                        }) && centres.iter().all(|c| {
                            c.0 + 5 <= r[0]
                                || r[2] <= c.0 - 5
                                || c.1 + 5 <= r[1]
                                || r[3] <= c.1 - 5
                        })
                    };
                    if let Some((r, (sx, sy))) = boxes.iter().find(|(r, _)| clear(r))
                    {
                        taken.push(*r);
                        let h_pos = if *sx > 0 { HPos::Left } else { HPos::Right };
                        let v_pos = if *sy < 0 { VPos::Bottom } else { VPos::Top };
                        chart.draw_series(std::iter::once(
                            EmptyElement::at(at)
                                + Text::new(
                                    format!("{}", k + 1),
                                    (sx * 9, sy * 9),
                                    tick_font().pos(Pos::new(h_pos, v_pos)),
                                ),
                        ))?;
                    }
                }
                chart.draw_series(std::iter::once(Text::new(
                    format!("t = {found:.4} s"),
                    (xr.end - 1.0, -0.5),
                    tick_font()
                        .color(&OVERLAPPING)
                        .pos(Pos::new(HPos::Right, VPos::Center)),
                )))?;
            }
            Ok(())
        },
    )
}

fn table_edge() -> Result<Vec<Drawing>, PbmError> {
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
    let (table_top, block_bottom) = (top(&table), top(&block));
    let vertex_face: Vec<(f64, f64)> = found
        .iter()
        .filter(|c| matches!(c.feature, Feature::VertexFace { .. }))
        .map(|c| (c.point.x, c.point.z))
        .collect();
    let edge_edge: Vec<(f64, f64)> = found
        .iter()
        .filter(|c| matches!(c.feature, Feature::EdgeEdge { .. }))
        .map(|c| (c.point.x, c.point.z))
        .collect();
    titled_figure(
        [470, 560],
        "A block resting flat over a table's edge, seen from above",
        |root, _| {
            let legend: Legend = vec![
                (
                    "the table's top (its edge at x = 0)".into(),
                    Swatch::Square(RGBColor(170, 170, 170)),
                ),
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
            axes(&mut chart, "x (m)", "z (m)")
                .x_label_formatter(&|v| format!("{v:.1}"))
                .y_label_formatter(&|v| format!("{v:.1}"))
                .draw()?;
            chart.draw_series(std::iter::once(Polygon::new(
                table_top.clone(),
                RGBColor(170, 170, 170).mix(0.8).filled(),
            )))?;
            line(&mut chart, &block_bottom, color(0), LINE_WIDTH)?;
            chart.draw_series(
                vertex_face.iter().map(|&p| Circle::new(p, 6, color(1).filled())),
            )?;
            // Squares of a fixed size in pixels, whatever the scale.
            chart.draw_series(edge_edge.iter().map(|&p| {
                EmptyElement::at(p)
                    + Rectangle::new([(-6, -6), (6, 6)], color(2).filled())
            }))?;
            Ok(())
        },
    )
}

/// A chart in metres on both axes, as the GJK figure's panels draw on.
type Chart2d<'a, 'b> = ChartContext<
    'a,
    SVGBackend<'b>,
    Cartesian2d<
        plotters::coord::types::RangedCoordf64,
        plotters::coord::types::RangedCoordf64,
    >,
>;

/// A − B drawn from its support mapping: the support points along 720 directions
/// round the circle are its vertices, counter-clockwise.
fn minkowski_outline(a: &ConvexPolygon, b: &ConvexPolygon) -> Vec<Vector2<f64>> {
    let mut ring: Vec<Vector2<f64>> = Vec::new();
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
fn gjk_panel<'a, 'b>(
    panel: &'a Area<'b>,
    points: &[Vector2<f64>],
) -> Result<Chart2d<'a, 'b>, Box<dyn std::error::Error>> {
    let (lo, hi) = points.iter().fold(
        (Vector2::repeat(f64::INFINITY), Vector2::repeat(f64::NEG_INFINITY)),
        |(lo, hi), p| (lo.inf(p), hi.sup(p)),
    );
    let (xr, yr) =
        equal_scale(panel, lo.x - 0.25..hi.x + 0.25, lo.y - 0.25..hi.y + 0.25);
    let mut chart = chart_on(panel).build_cartesian_2d(xr, yr)?;
    axes(&mut chart, "x (m)", "y (m)")
        .x_label_formatter(&|v| format!("{v:.1}"))
        .y_label_formatter(&|v| format!("{v:.1}"))
        .draw()?;
    Ok(chart)
}

/// Draws a closed outline of `points`, filled lightly when `fill` is set.
fn closed<'a, 'b: 'a>(
    chart: &mut Chart2d<'a, 'b>,
    points: &[Vector2<f64>],
    c: RGBColor,
    width: u32,
    fill: bool,
) -> DrawResult {
    let mut ring: Vec<(f64, f64)> = points.iter().map(|p| (p.x, p.y)).collect();
    ring.extend(ring.first().copied());
    if fill {
        chart.draw_series(std::iter::once(Polygon::new(
            ring.clone(),
            c.mix(0.2).filled(),
        )))?;
    }
    line(chart, &ring, c, width)
}

/// Dots at `points`, numbered 1, 2, … in `c`. Each number stands out from the
/// middle of the dots, or on the other side of its dot where that would crowd a
/// number already placed.
fn numbered<'a, 'b: 'a>(
    chart: &mut Chart2d<'a, 'b>,
    points: &[Vector2<f64>],
    c: RGBColor,
) -> DrawResult {
    let middle = points.iter().sum::<Vector2<f64>>() / points.len().max(1) as f64;
    let mut placed: Vec<(i32, i32)> = Vec::new();
    for (k, p) in points.iter().enumerate() {
        let out = p - middle;
        let out =
            if out.norm() > 1e-9 { out.normalize() } else { Vector2::new(-1.0, 0.0) };
        let (x, y) = chart.backend_coord(&(p.x, p.y));
        let offset =
            |d: Vector2<f64>| ((d.x * 18.0) as i32 - 5, (-d.y * 18.0) as i32 - 9);
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
fn origin_mark<'a, 'b: 'a>(
    chart: &mut Chart2d<'a, 'b>,
    arrow: Vector2<f64>,
) -> DrawResult {
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

fn gjk_epa() -> Result<Vec<Drawing>, PbmError> {
    // The separating-axis figure's pentagon and rectangle, and the rectangle moved
    // in until it overlaps the pentagon.
    let (a, b) = axis_polygons()?;
    let b_in = b.placed(Vector2::zeros(), 0.0).placed(Vector2::new(-1.1, -0.75), 0.0);
    // GJK on the pair apart, each simplex and its nearest point kept.
    let mut steps: Vec<(Vec<Vector2<f64>>, Vector2<f64>)> = Vec::new();
    // Started from A − B's lowest point, so that its steps spread out.
    let start = Vector2::new(0.0, 1.0);
    let apart = gjk_from(&a, &b, &start, |simplex, v| {
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
    // GJK then EPA on the overlapping pair, each polygon of EPA kept.
    let inside = gjk_from(&a, &b_in, &Vector2::new(1.0, 1.0), |_, _| {});
    let Proximity::Overlapping { simplex } = inside.proximity else {
        return Err(figure_error("the second pair is apart"));
    };
    let last_triangle: Vec<Vector2<f64>> = simplex.iter().map(|p| p.w).collect();
    // Each polygon's edges, and the foot of its edge nearest the origin.
    let mut polygons: Vec<Vec<(Vector2<f64>, Vector2<f64>)>> = Vec::new();
    let mut feet: Vec<Vector2<f64>> = Vec::new();
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
    let (diff_apart, diff_in) =
        (minkowski_outline(&a, &b), minkowski_outline(&a, &b_in));
    require_finite(diff_apart.iter().chain(&diff_in).flat_map(|v| [v.x, v.y]))?;
    let (shade_a, shade_b, shade_diff) = (REFERENCE, color(0), color(3));
    let (shade_gjk, shade_epa, shade_answer) = (color(1), color(2), BLACK);
    let pair_points: Vec<Vector2<f64>> = a
        .vertices()
        .iter()
        .chain(b.vertices())
        .chain(b_in.vertices())
        .copied()
        .collect();
    let xy = |v: &Vector2<f64>| (v.x, v.y);
    titled_figure(
        [1000, 1900],
        "A pentagon A and a rectangle B, apart and overlapping, and their Minkowski difference A − B: GJK finds the distance as the origin's distance to A − B, EPA the depth as its distance to the boundary",
        |root, layout| {
            let legend: Legend = vec![
                ("A".into(), Swatch::Line(shade_a, 2)),
                ("B".into(), Swatch::Line(shade_b, 2)),
                ("A − B".into(), Swatch::Line(shade_diff, 2)),
                ("GJK's simplices (numbered), nearest points dotted".into(), Swatch::LineDots(shade_gjk, 2)),
                ("EPA's polygons, the last solid; the nearest point of each numbered".into(), Swatch::LineDots(shade_epa, 2)),
                ("distance or depth".into(), Swatch::Line(shade_answer, 2)),
                ("B moved by the depth".into(), Swatch::Dashed(shade_b, 2)),
            ];
            let root = legend_below(root, &legend)?;
            let parts = panels(&root, layout, 4, 2);
            let titles = [
                format!("(a) apart: {distance:.2} m between the nearest points"),
                format!(
                    "(b) A − B: GJK reaches its nearest point in {} steps",
                    steps.len()
                ),
                format!("(c) overlapping: B must move {:.2} m to part", found.depth),
                format!(
                    "(d) A − B holds the origin: EPA grows GJK's last triangle in {} steps",
                    feet.len()
                ),
            ];
            let mut areas = Vec::new();
            for (part, title) in parts.iter().zip(&titles) {
                areas.push(titled(part, title, &label_font())?);
            }
            // (a) The pair apart, and the segment between the nearest points.
            let mut chart = gjk_panel(
                &areas[0],
                &pair_points[..a.vertices().len() + b.vertices().len()],
            )?;
            closed(&mut chart, a.vertices(), shade_a, 2, true)?;
            closed(&mut chart, b.vertices(), shade_b, 2, true)?;
            line(&mut chart, &[xy(&on_a), xy(&on_b)], shade_answer, 2)?;
            chart.draw_series(
                [xy(&on_a), xy(&on_b)]
                    .map(|p| Circle::new(p, 4, shade_answer.filled())),
            )?;
            // (b) A − B, the origin, and GJK's simplices.
            let mut seen = diff_apart.clone();
            seen.push(Vector2::zeros());
            let mut chart = gjk_panel(&areas[1], &seen)?;
            closed(&mut chart, &diff_apart, shade_diff, 2, true)?;
            for (simplex, _) in &steps {
                if simplex.len() > 1 {
                    closed(&mut chart, simplex, shade_gjk, 2, false)?;
                }
            }
            let nearest_points: Vec<Vector2<f64>> =
                steps.iter().map(|s| s.1).collect();
            numbered(&mut chart, &nearest_points, shade_gjk)?;
            let v = steps.last().map_or(Vector2::zeros(), |s| s.1);
            arrow(&mut chart, (0.0, 0.0), xy(&v), 0.15, shade_answer, 2)?;
            origin_mark(&mut chart, v)?;
            // (c) The pair overlapping, and the move that parts them (the moved B
            // inside the panel too).
            let moved: Vec<Vector2<f64>> = b_in
                .vertices()
                .iter()
                .map(|p| p + found.normal * found.depth)
                .collect();
            let shown: Vec<Vector2<f64>> = a
                .vertices()
                .iter()
                .chain(b_in.vertices())
                .chain(&moved)
                .copied()
                .collect();
            let mut chart = gjk_panel(&areas[2], &shown)?;
            closed(&mut chart, a.vertices(), shade_a, 2, true)?;
            closed(&mut chart, b_in.vertices(), shade_b, 2, true)?;
            let mut ring: Vec<(f64, f64)> = moved.iter().map(xy).collect();
            ring.extend(ring.first().copied());
            dashed_line(&mut chart, &ring, shade_b, 2)?;
            arrow(
                &mut chart,
                xy(&found.on_b),
                xy(&found.on_a),
                0.12,
                shade_answer,
                2,
            )?;
            // (d) A − B holding the origin, GJK's last triangle, EPA's polygons.
            let mut seen = diff_in.clone();
            seen.push(Vector2::zeros());
            let mut chart = gjk_panel(&areas[3], &seen)?;
            closed(&mut chart, &diff_in, shade_diff, 2, true)?;
            for (k, polygon) in polygons.iter().enumerate() {
                let last = k + 1 == polygons.len();
                for (p, q) in polygon {
                    if last {
                        line(&mut chart, &[xy(p), xy(q)], shade_epa, 3)?;
                    } else {
                        dashed_line(&mut chart, &[xy(p), xy(q)], shade_epa, 1)?;
                    }
                }
            }
            closed(&mut chart, &last_triangle, shade_gjk, 2, false)?;
            let deepest = found.normal * found.depth;
            arrow(&mut chart, (0.0, 0.0), xy(&deepest), 0.12, shade_answer, 2)?;
            numbered(&mut chart, &feet, shade_epa)?;
            origin_mark(&mut chart, deepest)?;
            Ok(())
        },
    )
}
