//! The broad phase page's figures: Table 1's scene of moving boxes, one exchange of
//! the coherent sort, and the time per step against the number of boxes.

use super::parts::{Chart2d, each_panel, letter, level_arrow, shaded_box};
use super::{OVERLAPPING, figure_error};
use crate::aabb::Aabb;
use crate::scenes::{BoxScene, PAPER_TABLE_1};
use crate::sweep::{CoherentSweep, brute_force_pairs};
use pbm_ode::convergence::log_log_slope;
use pbm_prelim::plot::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use serde_json::Value;

/// Criterion's medians for the broad phase, written by `pbm bench-tables`.
pub const BROAD_PHASE_TIMINGS: &str =
    include_str!("../../data/broad-phase-timings.json");

/// The colour of a box that overlaps none.
const CLEAR: RGBColor = RGBColor(0, 158, 115);

/// One drawn instant of the box scene: the step, the boxes, which of them overlap
/// another, and how many pairs overlap.
type BoxFrame = (usize, Vec<Aabb<2>>, Vec<bool>, usize);

/// Table 1's scene every ten steps up to step 30, and its region's size.
fn box_frames() -> Result<(Vec<BoxFrame>, [f64; 2]), PbmError> {
    let mut scene = BoxScene::new(100, 0.05, 1)?;
    let region = scene.region();
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
    Ok((frames, region))
}

pub(super) fn box_scene() -> Result<Vec<Drawing>, PbmError> {
    let (frames, [w, h]) = box_frames()?;
    titled_figure(
        [600, 1180],
        "Table 1's scene: 100 boxes in a 20 × 16 region, speeds up to 0.05 per step",
        |root, layout| {
            let legend: Legend = vec![
                ("overlaps another box".into(), Swatch::Square(OVERLAPPING)),
                ("overlaps none".into(), Swatch::Square(CLEAR)),
            ];
            let root = legend_below(root, &legend)?;
            let caption = |k: usize| {
                let (step, _, _, pairs) = &frames[k];
                format!("({}) step {step}: {pairs} overlapping pairs", letter(k))
            };
            each_panel(&root, layout, (frames.len(), 2), caption, |k, panel| {
                let (_, boxes, hit, _) = &frames[k];
                let mut chart = scene_chart(panel, 0.0..w, 0.0..h)?;
                chart.draw_series(std::iter::once(Rectangle::new(
                    [(0.0, 0.0), (w, h)],
                    REFERENCE.stroke_width(1),
                )))?;
                for (b, &overlapping) in boxes.iter().zip(hit) {
                    let c = if overlapping { OVERLAPPING } else { CLEAR };
                    let corners = [(b.min[0], b.min[1]), (b.max[0], b.max[1])];
                    shaded_box(&mut chart, corners, c)?;
                }
                Ok(())
            })
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

/// A curve of the timing figure: its legend text, its points (n, ms), its swatch,
/// and whether it is the paper's (dashed).
type Timing = (String, Series, Swatch, bool);

/// The measured curves in milliseconds, each with its log-log slope, then the
/// paper's.
fn timing_curves(measured: &[(String, Series)]) -> Vec<Timing> {
    let label = |name: &str| match name {
        "coherent" => "coherent sweep (this chapter)",
        "resort" => "full sort and sweep every step",
        "brute" => "brute force, every pair",
        "parry-bvh" => "parry's BVH, refitted (production)",
        _ => "other",
    };
    let mut curves: Vec<Timing> = Vec::new();
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
    curves
}

pub(super) fn sweep_timing() -> Result<Vec<Drawing>, PbmError> {
    let (measured, run) = timing_series()?;
    let curves = timing_curves(&measured);
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
                    line_and_dots(&mut chart, points, (color(i), LINE_WIDTH + 1), 4)?;
                }
            }
            Ok(())
        },
    )
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

/// An end in the sweep's sorted list, named as the page names it.
fn token(o: &(u32, bool, f64)) -> String {
    end_name(o.0, o.1)
}

/// One side of the exchange figure: the intervals, the sweep's sorted list of
/// their ends, and the caption.
struct Moment {
    boxes: Vec<Aabb<1>>,
    order: Vec<(u32, bool, f64)>,
    caption: String,
}

/// The exchange figure's data: the two moments, the box that moved and where it
/// was, the pair whose overlap began, and the two slots of the list exchanged.
struct Exchange {
    moments: [Moment; 2],
    moved: usize,
    ghost: Aabb<1>,
    pair: (usize, usize),
    slots: [usize; 2],
}

/// Four boxes' intervals on the x axis (m); in one step the third moves left, and
/// the coherent sweep makes one exchange of two ends.
fn exchange() -> Result<Exchange, PbmError> {
    let start = [(0.5, 2.0), (1.5, 3.2), (3.6, 5.0), (5.6, 6.8)];
    let (moved, shift) = (2, -0.6);
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
    let (first, second) =
        (token(&order_before[slot]), token(&order_before[slot + 1]));
    let (a, b) = (i + 1, j + 1);
    let captions = [
        format!(
            "(a) before: {first} before {second} in the list; boxes {a} and {b} apart"
        ),
        format!(
            "(b) box {} moved {} m left: {} exchange, {second} past {first}; boxes {a} and {b} overlap",
            moved + 1,
            -shift,
            changes.exchanges,
        ),
    ];
    require_finite(before.iter().chain(&after).flat_map(|b| [b.min[0], b.max[0]]))?;
    let ghost = before[moved];
    let [c0, c1] = captions;
    let moments = [
        Moment { boxes: before, order: order_before, caption: c0 },
        Moment { boxes: after, order: order_after, caption: c1 },
    ];
    let (pair, slots) = ((i as usize, j as usize), [differ[0], differ[1]]);
    Ok(Exchange { moments, moved, ghost, pair, slots })
}

pub(super) fn sweep_exchange() -> Result<Vec<Drawing>, PbmError> {
    let ex = exchange()?;
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
                    format!("box {} before it moved", ex.moved + 1),
                    Swatch::Dashed(REFERENCE, 2),
                ),
                ("the two ends exchanged".into(), Swatch::Line(OVERLAPPING, 2)),
            ];
            let root = legend_below(root, &legend)?;
            let captions = [ex.moments[0].caption.as_str(), &ex.moments[1].caption];
            for (k, half) in even_halves(&root, captions, 14).iter().enumerate() {
                exchange_moment(half, &ex, k, root.dim_in_pixel().0)?;
            }
            Ok(())
        },
    )
}

/// `area` split into two halves, one above the other with `gap` pixels between, so
/// that both plots get the same height whatever their captions' lengths.
fn even_halves<'a>(area: &Area<'a>, captions: [&str; 2], gap: u32) -> [Area<'a>; 2] {
    let (w, h) = area.dim_in_pixel();
    let title_height = |text: &str| -> u32 {
        let lines = wrap(area, text, &label_font(), w.saturating_sub(16)).len();
        let line = area.estimate_text_size("Ag", &label_font()).map_or(20, |s| s.1);
        8 + (f64::from(line) * 1.25).ceil() as u32 * lines as u32
    };
    let body = (h - gap - title_height(captions[0]) - title_height(captions[1])) / 2;
    let (upper, lower) = area.split_vertically(title_height(captions[0]) + body);
    [upper, lower.margin(gap, 0, 0, 0)]
}

/// Moment `k` of the exchange figure on `half`: the intervals above, the sorted
/// list of ends below (`width` pixels wide); the second moment shows the move and
/// the exchange.
fn exchange_moment(
    half: &Area<'_>,
    ex: &Exchange,
    k: usize,
    width: u32,
) -> DrawResult {
    let moment = &ex.moments[k];
    let panel = titled(half, &moment.caption, &label_font())?;
    let (_, ph) = panel.dim_in_pixel();
    let strip_height = 70;
    let (plot, strip) = panel.split_vertically(ph.saturating_sub(strip_height));
    let rows = moment.boxes.len() as f64;
    let mut chart = interval_chart(&plot, rows)?;
    let level = |id: usize| rows - id as f64;
    let began = k == 1;
    if began {
        overlap_and_ghost(&mut chart, ex, &moment.boxes, level)?;
    }
    let hot = |id: usize| began && (id == ex.pair.0 || id == ex.pair.1);
    intervals(&mut chart, &moment.boxes, level, hot)?;
    if began {
        let y = level(ex.moved) - 0.34;
        let tip = (moment.boxes[ex.moved].min[0], y);
        level_arrow(&mut chart, ((ex.ghost.min[0], y), tip), REFERENCE, false)?;
    }
    let tokens: Vec<String> = moment.order.iter().map(token).collect();
    sorted_strip(&strip, width, &tokens, ex.slots, began)
}

/// A chart of intervals on the x axis (m), `rows` of them one above another, with
/// only the x axis drawn.
fn interval_chart<'a, 'b>(
    plot: &'a Area<'b>,
    rows: f64,
) -> Result<Chart2d<'a, 'b>, Box<dyn std::error::Error>> {
    let mut chart = ChartBuilder::on(plot)
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
    Ok(chart)
}

/// Where the pair's two intervals now overlap, shaded, and the moved box where it
/// was, dashed.
fn overlap_and_ghost<'a, 'b: 'a>(
    chart: &mut Chart2d<'a, 'b>,
    ex: &Exchange,
    boxes: &[Aabb<1>],
    level: impl Fn(usize) -> f64,
) -> DrawResult {
    let (i, j) = ex.pair;
    let (lo, hi) =
        (boxes[i].min[0].max(boxes[j].min[0]), boxes[i].max[0].min(boxes[j].max[0]));
    chart.draw_series(std::iter::once(Rectangle::new(
        [(lo, level(j) - 0.35), (hi, level(i) + 0.3)],
        OVERLAPPING.mix(0.3).filled(),
    )))?;
    let (y, ghost) = (level(ex.moved), ex.ghost);
    let outline = [
        (ghost.min[0], y - 0.16),
        (ghost.max[0], y - 0.16),
        (ghost.max[0], y + 0.16),
        (ghost.min[0], y + 0.16),
        (ghost.min[0], y - 0.16),
    ];
    dashed_line(chart, &outline, REFERENCE, 2)
}

/// Each interval as a bar at its level, its ends named above it; the `hot` ones in
/// the overlap colour.
fn intervals<'a, 'b: 'a>(
    chart: &mut Chart2d<'a, 'b>,
    boxes: &[Aabb<1>],
    level: impl Fn(usize) -> f64,
    hot: impl Fn(usize) -> bool,
) -> DrawResult {
    let left = tick_font().pos(Pos::new(HPos::Left, VPos::Bottom));
    let right = tick_font().pos(Pos::new(HPos::Right, VPos::Bottom));
    for (id, b) in boxes.iter().enumerate() {
        let y = level(id);
        let c = if hot(id) { OVERLAPPING } else { color(0) };
        shaded_box(chart, [(b.min[0], y - 0.16), (b.max[0], y + 0.16)], c)?;
        let id = id as u32;
        chart.draw_series([
            Text::new(end_name(id, true), (b.min[0], y + 0.2), left.clone()),
            Text::new(end_name(id, false), (b.max[0], y + 0.2), right.clone()),
        ])?;
    }
    Ok(())
}

/// The sorted list of ends as the sweep keeps it, one slot each across `width`
/// pixels of `strip`: the two `swapped` slots in the overlap colour, and under them
/// a two-headed bracket when `bracket` is set.
fn sorted_strip(
    strip: &Area<'_>,
    width: u32,
    tokens: &[String],
    swapped: [usize; 2],
    bracket: bool,
) -> DrawResult {
    let n = tokens.len() as i32;
    let pad = 16;
    let slot = (width as i32 - 2 * pad) / n;
    let centre = |s: usize| pad + slot * s as i32 + slot / 2;
    strip.draw(&Text::new(
        "the sorted list of ends, as the sweep keeps it:",
        (pad, 4),
        tick_font().pos(Pos::new(HPos::Left, VPos::Top)),
    ))?;
    let y = 34;
    for (s, name) in tokens.iter().enumerate() {
        let c = if swapped.contains(&s) { OVERLAPPING } else { REFERENCE };
        let style = tick_font().color(&c).pos(Pos::new(HPos::Center, VPos::Center));
        strip.draw(&Text::new(name.as_str(), (centre(s), y), style))?;
    }
    if bracket {
        two_headed_bracket(strip, (centre(swapped[0]), centre(swapped[1])), y + 12)?;
    }
    Ok(())
}

/// A bracket in pixels from `a` to `b` hanging 10 pixels below `top`, with a head
/// pointing up at each end: two things exchanged.
fn two_headed_bracket(area: &Area<'_>, (a, b): (i32, i32), top: i32) -> DrawResult {
    let bottom = top + 10;
    let ink = OVERLAPPING.stroke_width(2);
    area.draw(&PathElement::new(
        vec![(a, top), (a, bottom), (b, bottom), (b, top)],
        ink,
    ))?;
    for x in [a, b] {
        area.draw(&PathElement::new(
            vec![(x - 4, top + 6), (x, top), (x + 4, top + 6)],
            ink,
        ))?;
    }
    Ok(())
}
