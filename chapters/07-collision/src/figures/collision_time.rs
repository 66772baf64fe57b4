//! The collision time page's figures: the searches for the time of contact inside
//! an overshooting step, and a thin fast plate tested against a wall three ways.

use super::parts::{
    Chart2d, LabelBox, each_panel, fill, free_corner, letter, level_arrow, shape,
    text_at,
};
use super::{OVERLAPPING, figure_error};
use crate::polygon::{ConvexPolygon, separation};
use crate::toi::{
    BOOK_TOSS, FallingBox, LastStep, Search, collision_time, last_step,
};
use crate::tunnel::{Flight, Shot, WALL_X};
use pbm_prelim::plot::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The tolerance band of the collision-time search.
const BAND: RGBColor = RGBColor(210, 210, 210);

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

impl Trial {
    /// The colour of the trial's mark.
    fn colour(self) -> RGBColor {
        match self {
            Trial::End => REFERENCE,
            Trial::Midpoint => color(0),
            Trial::Secant => color(2),
        }
    }

    /// What the legend says of it.
    fn meaning(self) -> &'static str {
        match self {
            Trial::End => "the bracket's two ends, tested first",
            Trial::Midpoint => "a midpoint (bisection)",
            Trial::Secant => "a secant estimate",
        }
    }

    /// Its mark at `at`: a ring for an end, a dot for a midpoint, a square for a
    /// secant estimate.
    fn mark<'a, 'b: 'a>(
        self,
        chart: &mut Chart2d<'a, 'b>,
        at: (f64, f64),
    ) -> DrawResult {
        let c = self.colour();
        match self {
            Trial::Secant => {
                chart.draw_series(std::iter::once(
                    EmptyElement::at(at)
                        + Rectangle::new([(-5, -5), (5, 5)], c.filled()),
                ))?;
                Ok(())
            }
            Trial::End => ring(chart, at, 5, c),
            Trial::Midpoint => dots(chart, &[at], 5, c),
        }
    }
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

/// The label of tick `v` on the stretched axis, ε being `eps_mm`: tick k stands for
/// ±ε·10^(|k|−1), 0 for zero, and no label between whole ticks.
fn stretched_tick(v: f64, eps_mm: f64) -> String {
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
}

/// What the collision-time figure draws: the step that overshot, ε, the separation
/// on the step's cubic (ms into the step, stretched), and each search's trials and
/// the time it found.
struct Searches {
    step: LastStep,
    eps: f64,
    curve: Vec<(f64, f64)>,
    searches: [(&'static str, (Vec<TrialPoint>, f64)); 2],
}

impl Searches {
    /// A time, in ms into the step.
    fn ms(&self, t: f64) -> f64 {
        (t - self.step.t0) * 1e3
    }
}

/// The book's toss: the RK4 step that overshot, both searches in it, and the
/// curve, finely sampled where it crosses the band.
fn searches() -> Result<Searches, PbmError> {
    let p = BOOK_TOSS;
    let body = FallingBox::new(p.spin, p.drag)?;
    let step = last_step(&body, p.h, p.epsilon)?;
    let (t0, h, eps) = (step.t0, step.h, p.epsilon);
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
            Ok(((t - t0) * 1e3, stretched(separation(&a, &b).0, eps)))
        })
        .collect::<Result<_, PbmError>>()?;
    require_finite(curve.iter().flat_map(|p| [p.0, p.1]).chain(
        searches.iter().flat_map(|(_, (tr, _))| tr.iter().flat_map(|x| [x.0, x.1])),
    ))?;
    Ok(Searches { step, eps, curve, searches })
}

pub(super) fn collision_time_trials() -> Result<Vec<Drawing>, PbmError> {
    let data = searches()?;
    let (h, eps_mm) = (data.step.h, data.eps * 1e3);
    let top = data.curve.iter().map(|p| p.1.abs()).fold(1.0, f64::max) + 0.35;
    titled_figure(
        [600, 1120],
        &format!(
            "Finding the collision time inside the RK4 step that overshot: the box's separation d(t) from the floor on the cubic through the step's ends, and the times each search tries, in order (h = {} s, ε = {eps_mm} mm)",
            h
        ),
        |root, layout| {
            let root = legend_below(root, &trials_legend())?;
            let caption = |k: usize| {
                let (method, (trials, _)) = &data.searches[k];
                format!("({}) {method}: {} placements", letter(k), trials.len())
            };
            each_panel(&root, layout, (2, 2), caption, |k, panel| {
                trials_panel(panel, &data, k, top)
            })
        },
    )
}

/// The collision-time figure's legend.
fn trials_legend() -> Legend {
    vec![
        ("d(t) on the cubic".into(), Swatch::Line(REFERENCE, 2)),
        ("tolerance band |d| ≤ ε".into(), Swatch::Square(BAND)),
        (Trial::End.meaning().into(), Swatch::Ring(Trial::End.colour(), 5)),
        (Trial::Midpoint.meaning().into(), Swatch::Dot(Trial::Midpoint.colour(), 5)),
        (Trial::Secant.meaning().into(), Swatch::Square(Trial::Secant.colour())),
        ("the time accepted: |d| ≤ ε".into(), Swatch::Ring(OVERLAPPING, 8)),
    ]
}

/// Panel `k` of the collision-time figure: the band, d(t) stretched to ±`top`, and
/// search `k`'s trials, numbered, and the time it found.
fn trials_panel(panel: &Area<'_>, data: &Searches, k: usize, top: f64) -> DrawResult {
    let (h, eps_mm) = (data.step.h, data.eps * 1e3);
    let (trials, found) = &data.searches[k].1;
    let (x0, x1) = (-2.0, h * 1e3 + 2.0);
    let mut chart = chart_on(panel).build_cartesian_2d(x0..x1, -top..top)?;
    axes(
        &mut chart,
        &format!("time into the step, t − {:.2} s (ms)", data.step.t0),
        "separation d (mm), log beyond ±ε",
    )
    .y_labels(2 * top as usize + 1)
    .x_label_formatter(&|x| format!("{x:.0}"))
    .y_label_formatter(&|v| stretched_tick(*v, eps_mm))
    .draw()?;
    chart.draw_series(std::iter::once(Rectangle::new(
        [(x0, -1.0), (x1, 1.0)],
        BAND.filled(),
    )))?;
    line(&mut chart, &[(x0, 0.0), (x1, 0.0)], REFERENCE, 1)?;
    line(&mut chart, &data.curve, REFERENCE, 2)?;
    numbered_trials(&mut chart, data, trials)?;
    chart.draw_series(std::iter::once(Text::new(
        format!("t = {found:.4} s"),
        (x1 - 1.0, -0.5),
        tick_font().color(&OVERLAPPING).pos(Pos::new(HPos::Right, VPos::Center)),
    )))?;
    Ok(())
}

/// Each trial's mark, the accepted one ringed, and its number beside it where the
/// number covers no other number and no mark.
fn numbered_trials<'a, 'b: 'a>(
    chart: &mut Chart2d<'a, 'b>,
    data: &Searches,
    trials: &[TrialPoint],
) -> DrawResult {
    let at = |&(t, d, _): &TrialPoint| (data.ms(t), stretched(d, data.eps));
    let centres: Vec<(i32, i32)> =
        trials.iter().map(|trial| chart.backend_coord(&at(trial))).collect();
    let mut taken: Vec<LabelBox> = Vec::new();
    for (k, trial) in trials.iter().enumerate() {
        trial.2.mark(chart, at(trial))?;
        if k + 1 == trials.len() {
            chart.draw_series(std::iter::once(Circle::new(
                at(trial),
                9,
                OVERLAPPING.stroke_width(3),
            )))?;
        }
        let width = if k + 1 >= 10 { 20 } else { 11 };
        if let Some((r, (sx, sy))) =
            free_corner(centres[k], (width, 16, 9), &taken, &centres)
        {
            taken.push(r);
            let h_pos = if sx > 0 { HPos::Left } else { HPos::Right };
            let v_pos = if sy < 0 { VPos::Bottom } else { VPos::Top };
            let style = tick_font().pos(Pos::new(h_pos, v_pos));
            text_at(
                chart,
                at(trial),
                (sx * 9, sy * 9),
                format!("{}", k + 1),
                &style,
            )?;
        }
    }
    Ok(())
}

/// What the tunnelling figure draws: the shot, its three runs, the step in which
/// the plain test skips the wall, the plate at the two instants either side of it,
/// the wall, and the plate's travel in one step.
struct Tunnel {
    shot: Shot,
    runs: [(String, Flight); 3],
    skip: usize,
    plates: Vec<ConvexPolygon>,
    wall: ConvexPolygon,
    stride: f64,
}

fn tunnel() -> Result<Tunnel, PbmError> {
    let shot = Shot::new(45.0, 0.0, 0.02, 0.1, 1.0 / 60.0)?;
    let eps = 1e-3;
    let runs: [(String, Flight); 3] = [
        ("tested at the end of each step".into(), shot.discrete(1, eps)?),
        ("tested at 4 sub-steps per step".into(), shot.discrete(4, eps)?),
        ("conservative advancement".into(), shot.advancing(eps)?),
    ];
    // The close-up: the last instant (a) tests in front of the wall and the first
    // behind it, with the plate drawn at its real thickness.
    let track = &runs[0].1.track;
    let skip = (1..track.len())
        .find(|&k| {
            track[k - 1].0 + 0.5 * shot.plate < WALL_X
                && track[k].0 - 0.5 * shot.plate > WALL_X + shot.wall
        })
        .ok_or_else(|| figure_error("the plain test does not skip the wall"))?;
    let plates: Vec<ConvexPolygon> = [skip - 1, skip]
        .iter()
        .map(|&k| shot.shapes(k as f64 * shot.h).map(|(_, plate)| plate))
        .collect::<Result<_, PbmError>>()?;
    let (wall, _) = shot.shapes(0.0)?;
    let stride = track[skip].0 - track[skip - 1].0;
    Ok(Tunnel { shot, runs, skip, plates, wall, stride })
}

/// A length in whole centimetres.
fn cm(m: f64) -> String {
    format!("{:.0} cm", m * 100.0)
}

/// The walls' grey.
const GREY: RGBColor = RGBColor(150, 150, 150);

pub(super) fn tunnelling() -> Result<Vec<Drawing>, PbmError> {
    let data = tunnel()?;
    let shot = &data.shot;
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
                ("wall".into(), Swatch::Square(GREY)),
                ("plate at its thickness, in (d)".into(), Swatch::Square(color(0))),
            ];
            let root = legend_below(root, &legend)?;
            let (_, h) = root.dim_in_pixel();
            let (top, close_up) = root.split_vertically(h - layout.pick(330, 340));
            let close_up = close_up.margin(layout.pick(10, 24), 0, 0, 0);
            tunnel_close_up(&close_up, &data)?;
            let caption = |k: usize| {
                let (name, flight) = &data.runs[k];
                let verdict = match flight.hit {
                    Some(t) => format!("hit at {:.1} ms", t * 1e3),
                    None if flight.tunnelled => "passes through".into(),
                    None => "no hit".into(),
                };
                format!("({}) {name}: {verdict}", letter(k))
            };
            each_panel(&top, layout, (3, 3), caption, |k, panel| {
                flight_panel(panel, shot, &data.runs[k].1)
            })
        },
    )
}

/// Panel (d) of the tunnelling figure: the plate at its thickness at the last test
/// in front of the wall and the first behind it, and the step between them.
fn tunnel_close_up(area: &Area<'_>, data: &Tunnel) -> DrawResult {
    let (shot, skip, stride) = (&data.shot, data.skip, data.stride);
    let track = &data.runs[0].1.track;
    let panel = titled(
        area,
        &format!(
            "(d) close-up of (a): between two tests the plate moves v h = {}, more than plate and wall together, b + w = {}",
            cm(stride),
            cm(shot.plate + shot.wall)
        ),
        &label_font(),
    )?;
    let mid = 0.5 * (track[skip - 1].0 + track[skip].0);
    let x = mid - 0.5 * stride - 0.25..mid + 0.5 * stride + 0.25;
    let mut chart = scene_chart(&panel, x, -0.5..0.55)?;
    let outline = |p: &ConvexPolygon| {
        let mut o: Vec<(f64, f64)> =
            p.vertices().iter().map(|v| (v.x, v.y)).collect();
        o.push(o[0]);
        o
    };
    fill(&mut chart, &outline(&data.wall), GREY.mix(0.7))?;
    let (left, right) = (
        tick_font().pos(Pos::new(HPos::Left, VPos::Center)),
        tick_font().pos(Pos::new(HPos::Right, VPos::Center)),
    );
    let wall = ["wall".to_string(), format!("w = {}", cm(shot.wall))];
    side_labels(&mut chart, (WALL_X + shot.wall, 0.0), 8, &wall, &left)?;
    let centre_bottom = tick_font().pos(Pos::new(HPos::Center, VPos::Bottom));
    for (plate, k) in data.plates.iter().zip([skip - 1, skip]) {
        shape(&mut chart, &outline(plate), color(0).mix(0.8), (color(0), 1))?;
        let at = (track[k].0, 0.38 + 0.06);
        chart.draw_series(std::iter::once(Text::new(
            format!("step {k}"),
            at,
            centre_bottom.clone(),
        )))?;
    }
    let plate = ["plate".to_string(), format!("b = {}", cm(shot.plate))];
    let x = track[skip - 1].0;
    side_labels(&mut chart, (x - 0.5 * shot.plate, 0.0), -8, &plate, &right)?;
    // The step, from one tested centre to the next, below the plates.
    let y = -0.42;
    let (a, b) = ((track[skip - 1].0, y), (track[skip].0, y));
    level_arrow(&mut chart, (a, b), REFERENCE, true)?;
    chart.draw_series(std::iter::once(Text::new(
        format!("one step, v h = {}", cm(stride)),
        (0.5 * (a.0 + b.0), y + 0.04),
        centre_bottom,
    )))?;
    Ok(())
}

/// Two lines of text beside the point `at`, `dx` pixels off it, centred on it.
fn side_labels<'a, 'b: 'a>(
    chart: &mut Chart2d<'a, 'b>,
    at: (f64, f64),
    dx: i32,
    lines: &[String; 2],
    style: &TextStyle<'_>,
) -> DrawResult {
    for (k, text) in lines.iter().enumerate() {
        text_at(chart, at, (dx, 20 * k as i32 - 10), text.clone(), style)?;
    }
    Ok(())
}

/// One of the tunnelling figure's runs: the plate's position at each test against
/// the time (ms), the wall, and the collision found, if any.
fn flight_panel(panel: &Area<'_>, shot: &Shot, flight: &Flight) -> DrawResult {
    let ms = |x: f64| (x - (WALL_X - 1.0)) / shot.speed * 1e3;
    let mut chart = chart_on(panel).build_cartesian_2d(0.9..3.6, -3.0..60.0)?;
    axes(&mut chart, "plate position x (m)", "time (ms)")
        .y_label_formatter(&|t| format!("{t:.0}"))
        .x_label_formatter(&|x| format!("{x:.1}"))
        .draw()?;
    chart.draw_series(std::iter::once(Rectangle::new(
        [(WALL_X, -3.0), (WALL_X + shot.wall, 60.0)],
        GREY.mix(0.7).filled(),
    )))?;
    // The chart shows the plate up to 3.5 m: past that nothing happens.
    let points: Vec<(f64, f64)> = flight
        .track
        .iter()
        .filter(|&&(x, _)| x <= 3.5)
        .map(|&(x, _)| (x, ms(x)))
        .collect();
    line_and_dots(&mut chart, &points, (color(0), 1), 5)?;
    if let Some(t) = flight.hit {
        dots(&mut chart, &[(shot.at(t).0, t * 1e3)], 8, color(1))?;
    }
    Ok(())
}
