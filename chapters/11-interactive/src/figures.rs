//! The chapter's figures, drawn from runs of the chapter's own scenes: the feeder
//! through a turn of its crank (the paper's Figure 11), its blocks over forty
//! seconds, a feeder that jams beside one that does not (Figure 2), the
//! double-action jack through a pump of its handle (Figure 12) and over nine
//! seconds, and a pile.

use crate::scenes::{Fault, drive, faulty};
use crate::scenes::{Feeder, Jack, Pile};
use crate::world::{Settings, World};
use nalgebra::Vector2;
use pbm_collision::polygon::ConvexPolygon;
use pbm_prelim::plot::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

type V2 = Vector2<f64>;

/// Every figure of the chapter, in reading order.
pub fn all() -> Vec<Figure> {
    vec![
        Figure::new("loop", "One step of the world, stage by stage", step_loop),
        Figure::new(
            "feeder-turn",
            "The block feeder through one turn of its crank",
            feeder_turn,
        ),
        Figure::new(
            "feeder-blocks",
            "Where each block is over forty seconds of feeding",
            feeder_blocks,
        ),
        Figure::new(
            "feeder-jam",
            "A pusher taller than a block jams the feeder",
            feeder_jam,
        ),
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

/// Draws `frame` on `area` in a window of `x` by `y` metres, equal scale.
fn draw_frame(
    area: &Area<'_>,
    frame: &Frame,
    x: std::ops::Range<f64>,
    y: std::ops::Range<f64>,
) -> DrawResult {
    let (pw, ph) = area.dim_in_pixel();
    let (xr, yr) =
        equal_scale_in((pw.saturating_sub(70), ph.saturating_sub(50)), x, y);
    let mut chart = chart_on(area).build_cartesian_2d(xr, yr)?;
    // Whole metres along x: narrow panels otherwise get a single tick.
    axes(&mut chart, "x (m)", "y (m)")
        .x_labels(8)
        .x_label_formatter(&|v| format!("{v:.0}"))
        .draw()?;
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
            chart.draw_series(std::iter::once(Polygon::new(
                corners.clone(),
                c.mix(fill).filled(),
            )))?;
            let mut outline = corners.clone();
            outline.push(corners[0]);
            line(&mut chart, &outline, c, 1)?;
        }
    }
    for p in &frame.pins {
        chart.draw_series(std::iter::once(Circle::new(
            (p.x, p.y),
            4,
            WHITE.filled(),
        )))?;
        chart.draw_series(std::iter::once(Circle::new(
            (p.x, p.y),
            4,
            PIN.stroke_width(2),
        )))?;
    }
    chart.draw_series(
        frame
            .contacts
            .iter()
            .map(|p| Circle::new((p.x, p.y), 3, contact_colour().filled())),
    )?;
    if let Some((target, held)) = frame.mouse {
        let spring = [(held.x, held.y), (target.x, target.y)];
        dashed_line(&mut chart, &spring, mouse_colour(), LINE_WIDTH)?;
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
        "feeder-turn",
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
    require_finite("feeder-blocks", tracks.iter().flatten().map(|p| p.1))?;
    let out = feeder.output_x();
    let stats = world.stats();
    titled_figure(
        "feeder-blocks",
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
        "feeder-jam",
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
        "jack-pump",
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
    let swings = [Jack::BOOK.swing, 0.2];
    let mut lifts = Vec::new();
    for &swing in &swings {
        let jack = Jack { swing, ..Jack::BOOK };
        let mut world = jack.build(settings())?;
        let start = world.bodies()[Jack::RACK].position().y;
        let mut track = vec![(0.0, 0.0)];
        while world.time() < seconds - 1e-9 {
            jack.step(&mut world)?;
            track.push((
                world.time(),
                world.bodies()[Jack::RACK].position().y - start,
            ));
        }
        require_finite("jack-climb", track.iter().map(|p| p.1))?;
        lifts.push(track);
    }
    let angle: Vec<(f64, f64)> = (0..=900)
        .map(|i| {
            let t = seconds * i as f64 / 900.0;
            (t, Jack::BOOK.lever_angle(t))
        })
        .collect();
    let pitch = Jack::PITCH;
    titled_figure(
        "jack-climb",
        [760, 620],
        &format!(
            "The rack's climb over 9 s of pumping every {} s: swung 0.3 rad either way, it gains a tooth on every stroke, up and down; swung 0.2 rad, the idle pawl never gets past a tooth and the rack falls back each time",
            Jack::BOOK.period
        ),
        |root, _| {
            let legend: Legend = vec![
                (
                    "rack, lever swung 0.3 rad".into(),
                    Swatch::Line(color(0), LINE_WIDTH),
                ),
                (
                    "rack, lever swung 0.2 rad".into(),
                    Swatch::Line(color(1), LINE_WIDTH),
                ),
                ("whole teeth (0.4 m apart)".into(), Swatch::Dashed(REFERENCE, 1)),
                (
                    "the mouse's lever angle, 0.3 rad swing".into(),
                    Swatch::Line(color(3), LINE_WIDTH),
                ),
            ];
            let root = legend_below(root, &legend)?;
            let (upper, lower) = root.split_vertically(root.dim_in_pixel().1 * 3 / 5);
            let mut chart =
                chart_on(&upper).build_cartesian_2d(0.0..seconds, -0.2..2.8)?;
            axes(&mut chart, "time (s)", "rack's rise (m)").draw()?;
            for k in 1..=6 {
                let y = pitch * k as f64;
                dashed_line(&mut chart, &[(0.0, y), (seconds, y)], REFERENCE, 1)?;
            }
            for (i, track) in lifts.iter().enumerate() {
                line(&mut chart, track, color(i), LINE_WIDTH)?;
            }
            let mut chart =
                chart_on(&lower).build_cartesian_2d(0.0..seconds, -0.4..0.4)?;
            axes(&mut chart, "time (s)", "lever angle (rad)").y_labels(5).draw()?;
            line(&mut chart, &angle, color(3), LINE_WIDTH)?;
            Ok(())
        },
    )
}

fn pile() -> Result<Vec<Drawing>, PbmError> {
    let pile = Pile::BOOK;
    let mut world = pile.build(settings())?;
    let start = frame_of(&world, |_| Kind::Block);
    world.run_until(3.0, |_| {})?;
    let end = frame_of(&world, |_| Kind::Block);
    let frames = [(start, "as dropped"), (end, "settled")];
    titled_figure(
        "pile",
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

/// The stages of [`World::step`], in order, each with the file that does it:
/// what the loop figure draws.
const STAGES: [(&str, &str); 6] = [
    ("Check", "refuse a pair deeper than ε (world/mod.rs)"),
    ("Detect", "contacts: vertices within ε of an edge (world/detect.rs)"),
    (
        "Collide",
        "one impulse LCP stops closing contacts and keeps pins together (world/collide.rs)",
    ),
    (
        "Hold",
        "one force LCP for contacts, pins and friction; these contacts last the whole step (world/hold.rs)",
    ),
    (
        "Integrate",
        "one RK4 step of h, shorter if a body could pass through a thin solid (world/integrate.rs)",
    ),
    (
        "Correct",
        "pairs deeper than ε_w moved apart, in the kinetic-energy norm (world/correct.rs)",
    ),
];

fn step_loop() -> Result<Vec<Drawing>, PbmError> {
    titled_figure(
        "loop",
        [620, 900],
        "One step of the interactive world; between frames the mouse moves, and pins come and go",
        |area, layout| {
            let (w, h) = area.dim_in_pixel();
            let (w, h) = (f64::from(w), f64::from(h));
            let pixel =
                |(x, y): (f64, f64)| ((x * w).round() as i32, (y * h).round() as i32);
            let font = layout.pick(label_font(), tick_font());
            let centred = font.pos(Pos::new(HPos::Center, VPos::Center));
            let line_step = layout.pick(19.0, 17.0) / h;
            // Each box's lines and half height (fractions of the area).
            let boxed = |text: &str, half_w: f64| {
                let inside = (2.0 * half_w * w - 14.0).max(1.0) as u32;
                let lines = wrap(area, text, &font, inside);
                let half_h = 0.5 * line_step * lines.len() as f64 + 7.0 / h;
                (lines, half_h)
            };
            let draw_box = |(x, y): (f64, f64),
                            half_w: f64,
                            (lines, half_h): &(Vec<String>, f64),
                            ink: RGBColor|
             -> DrawResult {
                let corners = [
                    pixel((x - half_w, y - half_h)),
                    pixel((x + half_w, y + half_h)),
                ];
                area.draw(&Rectangle::new(corners, WHITE.filled()))?;
                area.draw(&Rectangle::new(corners, ink.stroke_width(2)))?;
                let top = y - line_step * (lines.len() as f64 - 1.0) / 2.0;
                for (k, line) in lines.iter().enumerate() {
                    let at = pixel((x, top + line_step * k as f64));
                    area.draw(&Text::new(line.clone(), at, centred.clone()))?;
                }
                Ok(())
            };
            let arrow_between = |from: (f64, f64), to: (f64, f64)| -> DrawResult {
                let (a, b) = (pixel(from), pixel(to));
                area.draw(&PathElement::new(vec![a, b], REFERENCE.stroke_width(2)))?;
                let (dx, dy) = (f64::from(b.0 - a.0), f64::from(b.1 - a.1));
                let len = dx.hypot(dy).max(1e-9);
                let (ux, uy) = (dx / len, dy / len);
                let back = (f64::from(b.0) - 9.0 * ux, f64::from(b.1) - 9.0 * uy);
                let side = (-uy * 5.0, ux * 5.0);
                let round = |(x, y): (f64, f64)| (x.round() as i32, y.round() as i32);
                let head = vec![
                    b,
                    round((back.0 + side.0, back.1 + side.1)),
                    round((back.0 - side.0, back.1 - side.1)),
                ];
                area.draw(&Polygon::new(head, REFERENCE.filled()))?;
                Ok(())
            };
            // The main column, top to bottom; the collision-time branch beside
            // Integrate; the loop back up on the left.
            let (column, half) = (layout.pick(0.37, 0.355), layout.pick(0.29, 0.3));
            let boxes: Vec<_> = STAGES
                .iter()
                .map(|(name, what)| boxed(&format!("{name}: {what}"), half))
                .collect();
            let ys: Vec<f64> = (0..STAGES.len())
                .map(|k| 0.07 + 0.86 * k as f64 / (STAGES.len() - 1) as f64)
                .collect();
            for k in 0..STAGES.len() - 1 {
                let from = (column, ys[k] + boxes[k].1);
                arrow_between(from, (column, ys[k + 1] - boxes[k + 1].1))?;
            }
            let left = column - half - 0.035;
            let (last, first) = (STAGES.len() - 1, 0);
            let back =
                [(column - half, ys[last]), (left, ys[last]), (left, ys[first])];
            let back: Vec<_> = back.iter().map(|&p| pixel(p)).collect();
            area.draw(&PathElement::new(back, REFERENCE.stroke_width(2)))?;
            arrow_between((left, ys[first]), (column - half, ys[first]))?;
            let (side_x, side_half) =
                (layout.pick(0.84, 0.845), layout.pick(0.145, 0.15));
            let side = boxed(
                "deeper than ε after the step? collision time: interpolate, check, cut the step",
                side_half,
            );
            let branch_y = 0.5 * (ys[4] + ys[5]);
            arrow_between(
                (column + half, ys[4]),
                (side_x - side_half, branch_y - 0.02),
            )?;
            arrow_between(
                (side_x - side_half, branch_y + 0.02),
                (column + half, ys[5]),
            )?;
            for (k, b) in boxes.iter().enumerate() {
                let ink = if k == 3 { color(1) } else { color(0) };
                draw_box((column, ys[k]), half, b, ink)?;
            }
            draw_box((side_x, branch_y), side_half, &side, color(2))?;
            Ok(())
        },
    )
}
