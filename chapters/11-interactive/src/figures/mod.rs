//! The chapter's figures, drawn from runs of the chapter's own scenes: the loop, a
//! block slid off a table's edge at three steps (the paper's Figure 8), one
//! tolerance correction (Figures 9 and 10), the same push in a first- and a
//! second-order world, the feeder through a turn of its crank (Figure 11), its
//! blocks over forty seconds, a feeder that jams beside one that does not (Figure
//! 2), the double-action jack through a pump of its handle (Figure 12) and over
//! nine seconds, a pile, and two collisions, a graze and a thin part's depth within
//! a step.

use crate::scenes::{Falling, Feeder, Graze, Jack, Ledge, Overlaps, Pile};
use crate::scenes::{Fault, drive, faulty};
use crate::world::{Order, Settings, World};
use nalgebra::Vector2;
use pbm_collision::figures::parts::{Chart2d, each_panel, letter, shape};
use pbm_collision::polygon::{ConvexPolygon, separation};
use pbm_prelim::plot::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

type V2 = Vector2<f64>;

mod collisions;
mod step;

use collisions::*;
use step::*;

/// Every figure of the chapter, in reading order.
pub fn all() -> Vec<Figure> {
    vec![
        Figure::new("loop", "One step of the world, stage by stage", step_loop),
        Figure::new(
            "road-runner",
            "A block slid off a table's edge falls only when its step ends",
            road_runner,
        ),
        Figure::new(
            "tolerance-correction",
            "One tolerance correction: the least displacement in the kinetic-energy norm",
            tolerance_correction,
        ),
        Figure::new(
            "first-order-push",
            "The same push in a second-order and a first-order world",
            first_order_push,
        ),
        Figure::new(
            "feeder-turn",
            "The block feeder through one turn of its crank",
            feeder_turn,
        ),
        Figure::new(
            "feeder-blocks",
            "Where each block is over forty seconds of feeding",
            feeder_blocks,
        )
        .heavy(),
        Figure::new(
            "feeder-jam",
            "A pusher taller than a block jams the feeder",
            feeder_jam,
        )
        .heavy(),
        Figure::new(
            "jack-pump",
            "The double-action jack through one pump of its handle",
            jack_pump,
        ),
        Figure::new(
            "jack-climb",
            "The jack's rack climbing on both strokes, and a swing too short to climb",
            jack_climb,
        ),
        Figure::new("pile", "Twenty polygons dropped into a box", pile),
        Figure::new(
            "collision-search",
            "Two collisions in one step, a graze between two looks, and a depth through a thin part",
            collision_search,
        ),
    ]
}

/// What a part of a picture is, which sets its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Frame,
    Block,
    Pusher,
    Rod,
    Crank,
    Rack,
    Load,
    Lever,
    Pawl,
}

impl Kind {
    fn colour(self) -> RGBColor {
        match self {
            Kind::Frame => REFERENCE,
            Kind::Block => color(0),
            Kind::Pusher => color(1),
            Kind::Rod => color(2),
            Kind::Crank => color(3),
            Kind::Rack => color(0),
            Kind::Load => color(4),
            Kind::Lever => color(3),
            Kind::Pawl => color(1),
        }
    }
}

/// The pins' outline colour (they are drawn white, as the paper draws them).
const PIN: RGBColor = REFERENCE;

/// The contact points' colour (green, as in the paper's Figure 12).
fn contact_colour() -> RGBColor {
    color(2)
}

/// The mouse's colour.
fn mouse_colour() -> RGBColor {
    color(5)
}

/// A picture of the world at one instant: its parts placed, its pins, the contacts
/// held (drawn only where a figure asks for them), and where the mouse is and the
/// point it holds.
struct Frame {
    time: f64,
    parts: Vec<(Kind, ConvexPolygon)>,
    pins: Vec<V2>,
    contacts: Vec<V2>,
    mouse: Option<(V2, V2)>,
}

/// The feeder's world as a picture: blocks, then the pusher, rod and crank.
fn frame_of_feeder(feeder: &Feeder, world: &World) -> Frame {
    let kind = |k: usize| match k.checked_sub(feeder.blocks) {
        None => Kind::Block,
        Some(0) => Kind::Pusher,
        Some(1) => Kind::Rod,
        Some(_) => Kind::Crank,
    };
    frame_of(world, kind)
}

fn frame_of(world: &World, kind: impl Fn(usize) -> Kind) -> Frame {
    let mut parts: Vec<(Kind, ConvexPolygon)> = world
        .fixtures()
        .iter()
        .flat_map(|f| f.parts.iter().map(|p| (Kind::Frame, p.clone())))
        .collect();
    for k in 0..world.bodies().len() {
        parts.extend(world.placed(k).into_iter().map(|p| (kind(k), p)));
    }
    let mouse =
        world.mouse.map(|m| (m.target, world.bodies()[m.body].world_point(&m.local)));
    let pins = world.pins().iter().map(|p| world.anchor_point(&p.a)).collect();
    Frame { time: world.time(), parts, pins, contacts: Vec::new(), mouse }
}

/// Axes on `area` for a window of `x` by `y` metres at equal scale, with about
/// `labels` tick labels along x, to `decimals` places.
fn scene_axes<'a, 'b>(
    area: &'a Area<'b>,
    x: std::ops::Range<f64>,
    y: std::ops::Range<f64>,
    (labels, decimals): (usize, usize),
) -> Result<Chart2d<'a, 'b>, Box<dyn std::error::Error>> {
    let (pw, ph) = area.dim_in_pixel();
    let (xr, yr) =
        equal_scale_in((pw.saturating_sub(70), ph.saturating_sub(50)), x, y);
    let mut chart = chart_on(area).build_cartesian_2d(xr, yr)?;
    // Narrow panels otherwise get a single tick.
    axes(&mut chart, "x (m)", "y (m)")
        .x_labels(labels)
        .x_label_formatter(&|v| format!("{v:.decimals$}"))
        .draw()?;
    Ok(chart)
}

/// Draws `frame` on `area` in a window of `x` by `y` metres, equal scale.
fn draw_frame(
    area: &Area<'_>,
    frame: &Frame,
    x: std::ops::Range<f64>,
    y: std::ops::Range<f64>,
) -> DrawResult {
    let mut chart = scene_axes(area, x, y, (8, 0))?;
    draw_parts(&mut chart, frame)
}

/// Draws `frame`'s parts, pins, contacts and mouse on `chart`.
fn draw_parts<'a, 'b: 'a>(chart: &mut Chart2d<'a, 'b>, frame: &Frame) -> DrawResult {
    // Fixed parts first, then the mechanism's, then what it carries on top.
    let passes = [
        Kind::Frame,
        Kind::Lever,
        Kind::Crank,
        Kind::Rod,
        Kind::Pusher,
        Kind::Rack,
        Kind::Pawl,
        Kind::Load,
        Kind::Block,
    ];
    for pass in passes {
        for (kind, polygon) in frame.parts.iter().filter(|(k, _)| *k == pass) {
            let corners: Vec<(f64, f64)> =
                polygon.vertices().iter().map(|v| (v.x, v.y)).collect();
            let c = kind.colour();
            let fill = if *kind == Kind::Frame { 0.3 } else { 0.45 };
            shape(chart, &corners, c.mix(fill), (c, 1))?;
        }
    }
    for p in &frame.pins {
        ring(chart, (p.x, p.y), 4, PIN)?;
    }
    let contacts: Vec<(f64, f64)> =
        frame.contacts.iter().map(|p| (p.x, p.y)).collect();
    dots(chart, &contacts, 3, contact_colour())?;
    if let Some((target, held)) = frame.mouse {
        let spring = [(held.x, held.y), (target.x, target.y)];
        dashed_line(chart, &spring, mouse_colour(), LINE_WIDTH)?;
        chart.draw_series(std::iter::once(Cross::new(
            (target.x, target.y),
            7,
            mouse_colour().stroke_width(3),
        )))?;
    }
    Ok(())
}

fn feeder_legend() -> Legend {
    vec![
        ("frame (fixed)".into(), Swatch::Square(REFERENCE)),
        ("blocks".into(), Swatch::Square(color(0))),
        ("pusher".into(), Swatch::Square(color(1))),
        ("rod (own layer)".into(), Swatch::Square(color(2))),
        ("crank (own layer)".into(), Swatch::Square(color(3))),
        ("pins".into(), Swatch::Ring(PIN, 4)),
        ("mouse and its spring".into(), Swatch::Dashed(mouse_colour(), LINE_WIDTH)),
    ]
}

/// The exercises' settings: friction 0.3, restitution 0.1, the paper's ε and step.
fn settings() -> Settings {
    Settings { friction: 0.3, restitution: 0.1, ..Settings::default() }
}

/// Runs `feeder` with the scripted mouse, keeping a picture at each of `times`.
fn frames_of_feeder(feeder: &Feeder, times: &[f64]) -> Result<Vec<Frame>, PbmError> {
    let mut world = feeder.build(settings())?;
    let mut frames = Vec::new();
    for &t in times {
        while world.time() < t - 1e-9 {
            feeder.step(&mut world)?;
        }
        frames.push(frame_of_feeder(feeder, &world));
    }
    Ok(frames)
}

fn feeder_turn() -> Result<Vec<Drawing>, PbmError> {
    let feeder = Feeder::BOOK;
    // The second turn, when the first block goes: a quarter turn apart.
    let times = [4.0, 5.0, 6.0, 7.0];
    let frames = frames_of_feeder(&feeder, &times)?;
    let phase = [
        "crank at the left: the pusher pulled back",
        "crank at the bottom: pushing",
        "crank at the right: the pusher fully in",
        "crank at the top: pulling back",
    ];
    titled_figure(
        [1250, 900],
        "The feeder's second turn, a quarter turn apart (the magazine cut off at 4.5 m): the pusher carries the lowest block out under the magazine's wall, and it slides down the ramp",
        |root, layout| {
            let root = legend_below(root, &feeder_legend())?;
            let letters = ["a", "b", "c", "d"];
            for (i, (panel, frame)) in
                panels(&root, layout, frames.len(), 1).iter().zip(&frames).enumerate()
            {
                let panel = titled(
                    panel,
                    &format!(
                        "({}) t = {:.1} s, {}",
                        letters[i], frame.time, phase[i]
                    ),
                    &label_font(),
                )?;
                draw_frame(&panel, frame, -7.0..13.5, -2.0..4.5)?;
            }
            Ok(())
        },
    )
}

fn feeder_blocks() -> Result<Vec<Drawing>, PbmError> {
    let feeder = Feeder::BOOK;
    let seconds = 40.0;
    let mut world = feeder.build(settings())?;
    let mut tracks = vec![Vec::new(); feeder.blocks];
    let every = 0.05;
    let mut next = 0.0;
    while world.time() < seconds - 1e-9 {
        if world.time() >= next - 1e-9 {
            next += every;
            for (track, body) in tracks.iter_mut().zip(world.bodies()) {
                track.push((world.time(), body.position().x));
            }
        }
        feeder.step(&mut world)?;
    }
    require_finite(tracks.iter().flatten().map(|p| p.1))?;
    let out = feeder.output_x();
    let stats = world.stats();
    titled_figure(
        [480, 560],
        &format!(
            "Each block's centre over 40 s: about one block out per 4-s turn of the crank; {} tolerance corrections in all",
            stats.corrections
        ),
        |root, _| {
            let mut legend: Legend = vec![
                ("block 1 (the lowest)".into(), Swatch::Line(color(0), LINE_WIDTH)),
                ("blocks 2 to 8".into(), Swatch::Line(color(1), LINE_WIDTH)),
            ];
            legend.push((
                "fed: out of the magazine".into(),
                Swatch::Dashed(REFERENCE, 1),
            ));
            let root = legend_below(root, &legend)?;
            let mut chart =
                chart_on(&root).build_cartesian_2d(0.0..seconds, -1.0..13.5)?;
            axes(&mut chart, "time (s)", "block centre x (m)").draw()?;
            dashed_line(&mut chart, &[(0.0, out), (seconds, out)], REFERENCE, 1)?;
            for (k, track) in tracks.iter().enumerate() {
                let c = if k == 0 { color(0) } else { color(1) };
                line(&mut chart, track, c, LINE_WIDTH)?;
            }
            Ok(())
        },
    )
}

fn feeder_jam() -> Result<Vec<Drawing>, PbmError> {
    let seconds = 9.6;
    let good = Feeder::BOOK;
    let tall = faulty(Fault::TallPusher);
    let on_end = faulty(Fault::Misaligned);
    let runs = [
        (good, "a pusher 0.6 m high"),
        (tall, "a pusher 1.6 m high"),
        (on_end, "oblong blocks loaded on end"),
    ];
    let mut frames = Vec::new();
    for (feeder, what) in runs {
        let run = drive(&feeder, settings(), seconds)?;
        let fed = feeder.fed(&run.world);
        frames.push((frame_of_feeder(&feeder, &run.world), what, fed));
    }
    titled_figure(
        [1000, 1000],
        "At 9.6 s, the mouse (×) going anticlockwise past the bottom of its circle: the good feeder pushes its next block out; the tall pusher, and a block on end, are held against the magazine's wall, and the crank trails the mouse (the magazine cut off at 4.5 m)",
        |root, layout| {
            let root = legend_below(root, &feeder_legend())?;
            let letters = ["a", "b", "c"];
            for (i, (panel, (frame, what, fed))) in
                panels(&root, layout, frames.len(), 1).iter().zip(&frames).enumerate()
            {
                let panel = titled(
                    panel,
                    &format!("({}) {what}: {fed} out so far", letters[i]),
                    &label_font(),
                )?;
                draw_frame(&panel, frame, -7.0..13.5, -2.0..4.5)?;
            }
            Ok(())
        },
    )
}

/// The jack's world as a picture, with its contacts: rack, load, lever, pawls.
fn frame_of_jack(world: &World) -> Frame {
    let kind = |k: usize| match k {
        Jack::RACK => Kind::Rack,
        1 => Kind::Load,
        2 => Kind::Lever,
        _ => Kind::Pawl,
    };
    Frame { contacts: world.contact_points(), ..frame_of(world, kind) }
}

fn jack_pump() -> Result<Vec<Drawing>, PbmError> {
    let jack = Jack::BOOK;
    let mut world = jack.build(settings())?;
    let start = world.bodies()[Jack::RACK].position().y;
    // The first pump, a quarter of it apart: down, level, up, level.
    let times: Vec<f64> = (1..=4).map(|i| 0.25 * jack.period * i as f64).collect();
    let mut frames = Vec::new();
    for &t in &times {
        while world.time() < t - 1e-9 {
            jack.step(&mut world)?;
        }
        let lift = world.bodies()[Jack::RACK].position().y - start;
        frames.push((frame_of_jack(&world), lift));
    }
    let phase = [
        "handle down: the left pawl lifts",
        "handle level",
        "handle up: the right pawl lifts",
        "level: a pump done",
    ];
    let legend: Legend = vec![
        ("frame: two collars (fixed)".into(), Swatch::Square(REFERENCE)),
        ("rack".into(), Swatch::Square(color(0))),
        ("load".into(), Swatch::Square(color(4))),
        ("lever (own layer)".into(), Swatch::Square(color(3))),
        ("pawls".into(), Swatch::Square(color(1))),
        ("pins".into(), Swatch::Ring(PIN, 4)),
        ("contacts held".into(), Swatch::Dot(contact_colour(), 3)),
        ("mouse and its spring".into(), Swatch::Dashed(mouse_colour(), LINE_WIDTH)),
    ];
    titled_figure(
        [1080, 1900],
        "The jack's first pump, a quarter pump apart (the rack cut off below −0.6 m): each stroke lifts the rack on one pawl while the other slides down over a tooth and springs back in under the next",
        |root, layout| {
            let root = legend_below(root, &legend)?;
            let letters = ["a", "b", "c", "d"];
            for (i, (panel, (frame, lift))) in
                panels(&root, layout, frames.len(), 2).iter().zip(&frames).enumerate()
            {
                let panel = titled(
                    panel,
                    &format!(
                        "({}) t = {:.2} s, {}; rack up {:.2} m",
                        letters[i], frame.time, phase[i], lift
                    ),
                    &label_font(),
                )?;
                draw_frame(&panel, frame, -1.7..3.9, -0.6..6.5)?;
            }
            Ok(())
        },
    )
}

fn jack_climb() -> Result<Vec<Drawing>, PbmError> {
    let seconds = 9.0;
    let lifts = [Jack::BOOK.swing, 0.2]
        .iter()
        .map(|&swing| rack_rise(swing, seconds))
        .collect::<Result<Vec<_>, _>>()?;
    let angle: Vec<(f64, f64)> = (0..=900)
        .map(|i| {
            let t = seconds * i as f64 / 900.0;
            (t, Jack::BOOK.lever_angle(t))
        })
        .collect();
    let pitch = Jack::PITCH;
    titled_figure(
        [760, 620],
        &format!(
            "The rack's climb over 9 s of pumping every {} s: swung 0.3 rad either way, it gains a tooth on every stroke, up and down; swung 0.2 rad, the idle pawl never gets past a tooth and the rack falls back each time",
            Jack::BOOK.period
        ),
        |root, _| {
            let root = legend_below(root, &climb_legend())?;
            let (upper, lower) = root.split_vertically(root.dim_in_pixel().1 * 3 / 5);
            let mut chart =
                chart_on(&upper).build_cartesian_2d(0.0..seconds, -0.2..2.8)?;
            axes(&mut chart, "time (s)", "rack's rise (m)").draw()?;
            for k in 1..=6 {
                let y = pitch * k as f64;
                dashed_line(&mut chart, &[(0.0, y), (seconds, y)], REFERENCE, 1)?;
            }
            palette_lines(&mut chart, &lifts)?;
            let mut chart =
                chart_on(&lower).build_cartesian_2d(0.0..seconds, -0.4..0.4)?;
            axes(&mut chart, "time (s)", "lever angle (rad)").y_labels(5).draw()?;
            line(&mut chart, &angle, color(3), LINE_WIDTH)
        },
    )
}

/// The rise of the jack's rack over `seconds` of pumping, its lever swung `swing`
/// either way: (t, rise) after every step.
fn rack_rise(swing: f64, seconds: f64) -> Result<Vec<(f64, f64)>, PbmError> {
    let jack = Jack { swing, ..Jack::BOOK };
    let mut world = jack.build(settings())?;
    let start = world.bodies()[Jack::RACK].position().y;
    let mut track = vec![(0.0, 0.0)];
    while world.time() < seconds - 1e-9 {
        jack.step(&mut world)?;
        track.push((world.time(), world.bodies()[Jack::RACK].position().y - start));
    }
    require_finite(track.iter().map(|p| p.1))?;
    Ok(track)
}

/// The climb figure's legend.
fn climb_legend() -> Legend {
    vec![
        ("rack, lever swung 0.3 rad".into(), Swatch::Line(color(0), LINE_WIDTH)),
        ("rack, lever swung 0.2 rad".into(), Swatch::Line(color(1), LINE_WIDTH)),
        ("whole teeth (0.4 m apart)".into(), Swatch::Dashed(REFERENCE, 1)),
        (
            "the mouse's lever angle, 0.3 rad swing".into(),
            Swatch::Line(color(3), LINE_WIDTH),
        ),
    ]
}

fn pile() -> Result<Vec<Drawing>, PbmError> {
    let pile = Pile::BOOK;
    let mut world = pile.build(settings())?;
    let start = frame_of(&world, |_| Kind::Block);
    world.run_until(3.0, |_| {})?;
    let end = frame_of(&world, |_| Kind::Block);
    let frames = [(start, "as dropped"), (end, "settled")];
    titled_figure(
        [420, 860],
        &format!(
            "{} convex polygons of 3 to 6 sides, friction 0.3, dropped into a box 8 m wide and left for 3 s",
            pile.count
        ),
        |root, layout| {
            let legend: Legend = vec![
                ("box (fixed)".into(), Swatch::Square(REFERENCE)),
                ("polygons".into(), Swatch::Square(color(0))),
            ];
            let root = legend_below(root, &legend)?;
            let letters = ["a", "b", "c"];
            for (i, (panel, (frame, what))) in
                panels(&root, layout, frames.len(), 2).iter().zip(&frames).enumerate()
            {
                let panel = titled(
                    panel,
                    &format!("({}) t = {:.1} s, {what}", letters[i], frame.time),
                    &label_font(),
                )?;
                draw_frame(&panel, frame, -4.6..4.6, -0.6..5.8)?;
            }
            Ok(())
        },
    )
}
