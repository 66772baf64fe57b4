//! The chapter's figures, computed with the chapter's own code (the timings from the
//! criterion run committed beside it).

use crate::polyhedron::{Axis, ConvexPolyhedron, PlaneCache, plane};
use crate::scenes::BoxScene;
use crate::scenes::PAPER_TABLE_1;
use crate::sweep::brute_force_pairs;
use crate::tunnel::{Flight, Shot, WALL_X};
use nalgebra::{UnitQuaternion, Vector3};
use pbm_ode::convergence::log_log_slope;
use pbm_prelim::plot::prelude::*;
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
            "sweep-timing",
            "Time per step against the number of boxes",
            sweep_timing,
        ),
        Figure::new(
            "separating-plane",
            "A separating plane kept as a witness",
            separating_plane,
        ),
        Figure::new("tunnelling", "A thin fast plate and a wall", tunnelling),
    ]
}

/// Criterion's medians for the broad phase, written by `pbm bench-tables`.
pub const BROAD_PHASE_TIMINGS: &str =
    include_str!("../data/broad-phase-timings.json");

const OVERLAPPING: RGBColor = RGBColor(213, 94, 0);
const CLEAR: RGBColor = RGBColor(0, 158, 115);

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
        "box-scene",
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

/// The series of the committed criterion run, by method name.
fn timing_series() -> Result<(Vec<(String, Series)>, String), PbmError> {
    let bad = |why: String| PbmError::Figure { name: "sweep-timing".into(), why };
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
    let machine = json["machine"].as_str().unwrap_or("this machine").to_string();
    Ok((out, machine))
}

fn sweep_timing() -> Result<Vec<Drawing>, PbmError> {
    let (measured, machine) = timing_series()?;
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
    require_finite(
        "sweep-timing",
        curves.iter().flat_map(|c| c.1.iter().flat_map(|p| [p.0, p.1])),
    )?;
    let (lo, hi) = curves
        .iter()
        .flat_map(|c| c.1.iter().map(|p| p.1))
        .fold((f64::INFINITY, 0.0_f64), |(lo, hi), y| (lo.min(y), hi.max(y)));
    let y_range = 10f64.powf(lo.log10().floor())..10f64.powf(hi.log10().ceil());
    titled_figure(
        "sweep-timing",
        [540, 600],
        &format!("Finding every change in overlap, one step; {machine}, one thread"),
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
    // The exercise's pass: a fixed unit cube and one tumbling past it, 1.45 above.
    let half = Vector3::new(0.5, 0.5, 0.5);
    let fixed = ConvexPolyhedron::cuboid(Vector3::zeros(), half)?;
    let moving = ConvexPolyhedron::cuboid(Vector3::zeros(), half)?;
    let axis = Vector3::new(0.3, 0.5, 0.8).normalize();
    let steps = 2000;
    let at = |k: usize| {
        let t = k as f64 / steps as f64;
        let turn = UnitQuaternion::from_scaled_axis(axis * (4.0 * t));
        moving.placed(Vector3::new(-3.0 + 6.0 * t, 0.2, 1.45), turn)
    };
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
        "separating-plane",
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
    titled_figure(
        "tunnelling",
        [500, 1080],
        "A 2 cm plate at 45 m/s towards a 10 cm wall, steps of 1/60 s",
        |root, layout| {
            let legend: Legend = vec![
                ("plate where tested".into(), Swatch::Dot(color(0), 5)),
                ("collision found".into(), Swatch::Dot(color(1), 8)),
                ("wall".into(), Swatch::Square(RGBColor(150, 150, 150))),
            ];
            let root = legend_below(root, &legend)?;
            let letters = ["a", "b", "c"];
            for (i, (panel, (name, flight))) in
                panels(&root, layout, 3, 3).iter().zip(&runs).enumerate()
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
