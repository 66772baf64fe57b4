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
            for (i, track) in lifts.iter().enumerate() {
                line(&mut chart, track, color(i), LINE_WIDTH)?;
            }
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
        [620, 900],
        "One step of the interactive world; between frames the mouse moves, and pins come and go",
        |area, layout| loop_diagram(&Diagram::new(area, layout), layout),
    )
}

/// The loop figure: the stages in a column, top to bottom, with the loop back up
/// on the left, and the collision-time branch beside Integrate.
fn loop_diagram(d: &Diagram<'_, '_>, layout: Layout) -> DrawResult {
    let (column, half) = (layout.pick(0.37, 0.355), layout.pick(0.29, 0.3));
    let boxes: Vec<TextBox> = STAGES
        .iter()
        .map(|(name, what)| d.text_box(&format!("{name}: {what}"), half))
        .collect();
    let ys: Vec<f64> = (0..STAGES.len())
        .map(|k| 0.07 + 0.86 * k as f64 / (STAGES.len() - 1) as f64)
        .collect();
    for k in 0..STAGES.len() - 1 {
        let from = (column, ys[k] + boxes[k].1);
        d.arrow((from, (column, ys[k + 1] - boxes[k + 1].1)))?;
    }
    let left = column - half - 0.035;
    let (last, first) = (STAGES.len() - 1, 0);
    let back = [(column - half, ys[last]), (left, ys[last]), (left, ys[first])];
    let back: Vec<_> = back.iter().map(|&p| d.pixel(p)).collect();
    d.area.draw(&PathElement::new(back, REFERENCE.stroke_width(2)))?;
    d.arrow(((left, ys[first]), (column - half, ys[first])))?;
    let (side_x, side_half) = (layout.pick(0.84, 0.845), layout.pick(0.145, 0.15));
    let side = d.text_box(
        "deeper than ε after the step? collision time: interpolate, check, cut the step",
        side_half,
    );
    let branch_y = 0.5 * (ys[4] + ys[5]);
    d.arrow(((column + half, ys[4]), (side_x - side_half, branch_y - 0.02)))?;
    d.arrow(((side_x - side_half, branch_y + 0.02), (column + half, ys[5])))?;
    for (k, b) in boxes.iter().enumerate() {
        let ink = if k == 3 { color(1) } else { color(0) };
        d.draw_box((column, ys[k]), half, b, ink)?;
    }
    d.draw_box((side_x, branch_y), side_half, &side, color(2))
}

/// A box of text: its lines, and its half height (a fraction of the diagram).
type TextBox = (Vec<String>, f64);

/// A diagram drawn on `area` in fractions of its width and height: boxes of wrapped
/// text, and arrows between them.
struct Diagram<'x, 'a> {
    area: &'x Area<'a>,
    w: f64,
    h: f64,
    font: TextStyle<'static>,
    /// The height of a line of text, a fraction of the diagram's.
    line_step: f64,
}

impl<'x, 'a> Diagram<'x, 'a> {
    fn new(area: &'x Area<'a>, layout: Layout) -> Self {
        let (w, h) = area.dim_in_pixel();
        let (w, h) = (f64::from(w), f64::from(h));
        let font = layout.pick(label_font(), tick_font());
        Diagram { area, w, h, font, line_step: layout.pick(19.0, 17.0) / h }
    }

    /// Where the point (x, y), in fractions of the diagram, is in pixels.
    fn pixel(&self, (x, y): (f64, f64)) -> (i32, i32) {
        ((x * self.w).round() as i32, (y * self.h).round() as i32)
    }

    /// `text` wrapped to a box `half_w` either side of its centre.
    fn text_box(&self, text: &str, half_w: f64) -> TextBox {
        let inside = (2.0 * half_w * self.w - 14.0).max(1.0) as u32;
        let lines = wrap(self.area, text, &self.font, inside);
        let half_h = 0.5 * self.line_step * lines.len() as f64 + 7.0 / self.h;
        (lines, half_h)
    }

    /// Draws `text` in a white box edged in `ink`, centred at (x, y).
    fn draw_box(
        &self,
        (x, y): (f64, f64),
        half_w: f64,
        (lines, half_h): &TextBox,
        ink: RGBColor,
    ) -> DrawResult {
        let corners = [
            self.pixel((x - half_w, y - half_h)),
            self.pixel((x + half_w, y + half_h)),
        ];
        self.area.draw(&Rectangle::new(corners, WHITE.filled()))?;
        self.area.draw(&Rectangle::new(corners, ink.stroke_width(2)))?;
        let top = y - self.line_step * (lines.len() as f64 - 1.0) / 2.0;
        let centred = self.font.pos(Pos::new(HPos::Center, VPos::Center));
        for (k, line) in lines.iter().enumerate() {
            let at = self.pixel((x, top + self.line_step * k as f64));
            self.area.draw(&Text::new(line.clone(), at, centred.clone()))?;
        }
        Ok(())
    }

    /// An arrow from `from` to `to` with a filled head.
    fn arrow(&self, (from, to): ((f64, f64), (f64, f64))) -> DrawResult {
        let (a, b) = (self.pixel(from), self.pixel(to));
        self.area.draw(&PathElement::new(vec![a, b], REFERENCE.stroke_width(2)))?;
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
        self.area.draw(&Polygon::new(head, REFERENCE.filled()))?;
        Ok(())
    }
}

/// The road-runner figure's ledge, a block 10 cm square slid off it at
/// `SLIDE_SPEED` (m/s): fast enough to cross the edge whole within one of the
/// longest steps, which begins with the block on the table more than ε short of
/// the edge (so that only its bottom corners are held), and to tip little.
const SLIDE: Ledge = Ledge { block: (0.1, 0.1), from: 0.95, ..Ledge::BOOK };
const SLIDE_SPEED: f64 = 6.0;

/// The steps the road-runner figure compares (s): a reference of a tenth of the
/// book's, the book's, and five times it.
fn slide_steps() -> [f64; 3] {
    let book = Settings::default().h;
    [0.1 * book, book, 5.0 * book]
}

/// One step's end of a run of [`SLIDE`]: the time (s), the height of the block's
/// centre (m) and its vertical velocity (m/s), and how far past the table's edge
/// its centre and its trailing bottom corner are (m).
#[derive(Debug, Clone, Copy)]
struct Slid {
    t: f64,
    y: f64,
    vy: f64,
    centre: f64,
    corner: f64,
}

/// [`SLIDE`]'s block slid off the table at [`SLIDE_SPEED`] in steps of `h` for
/// `seconds`, seen at every step's end.
fn slide_off(h: f64, seconds: f64) -> Result<Vec<Slid>, PbmError> {
    let ledge = SLIDE;
    let settings = Settings { h, ..Settings::default() };
    let mut world = ledge.build(settings, V2::new(SLIDE_SPEED, 0.0))?;
    let corner = -0.5 * V2::new(ledge.block.0, ledge.block.1);
    let state = |w: &World| {
        let body = &w.bodies()[0];
        Slid {
            t: w.time(),
            y: body.position().y,
            vy: body.velocity().y,
            centre: body.position().x,
            corner: body.world_point(&corner).x,
        }
    };
    let mut track = vec![state(&world)];
    while world.time() < seconds - 1e-9 {
        world.step()?;
        track.push(state(&world));
    }
    require_finite(track.iter().flat_map(|p| [p.y, p.vy]))?;
    Ok(track)
}

/// The step of `track` in which `x` (a point's distance past the edge) turned
/// positive: its start and end (s).
fn step_past_edge(
    track: &[Slid],
    x: fn(&Slid) -> f64,
) -> Result<(f64, f64), PbmError> {
    let k = track.iter().position(|p| x(p) > 0.0).filter(|&k| k > 0).ok_or_else(
        || PbmError::Figure { why: "the block never left the table".into() },
    )?;
    Ok((track[k - 1].t, track[k].t))
}

fn road_runner() -> Result<Vec<Drawing>, PbmError> {
    let runs = road_runs()?;
    let (steps, [book_late, coarse_late]) = (runs.steps, runs.late);
    let window = (runs.tip - 0.04)..(runs.edge + 0.14);
    let height: fn(&Slid) -> f64 = |p| 100.0 * p.y;
    let speed: fn(&Slid) -> f64 = |p| p.vy;
    let ms = |h: f64| 1000.0 * h;
    titled_figure(
        [900, 1180],
        &format!(
            "A block {:.0} cm square slid off a table's edge at {SLIDE_SPEED} m/s. The contacts found at a step's start hold for the whole step: the {:.0}-ms step that begins with the block on the table carries it level past the edge, and it falls as if it had left {:.0} ms late; with the book's {:.0} ms steps, {:.0} ms late",
            100.0 * SLIDE.block.0,
            ms(steps[2]),
            ms(coarse_late),
            ms(steps[1]),
            ms(book_late),
        ),
        |root, layout| {
            let root = legend_below(root, &road_runner_legend(&steps))?;
            let quantities = [
                ("(a) the block's height", "height of the centre (cm)", height),
                (
                    "(b) its vertical velocity: free fall is a line of slope −g, and a late start shifts it to the right",
                    "vertical velocity (m/s)",
                    speed,
                ),
            ];
            each_panel(
                &root,
                layout,
                (2, 1),
                |k| quantities[k].0.into(),
                |k, panel| {
                    let (_, axis, value) = quantities[k];
                    slide_panel(panel, &runs, &window, (axis, value))
                },
            )
        },
    )
}

/// The road-runner figure's runs: the three steps and a track of each; when the
/// reference's centre passes the edge (`tip`) and its trailing corner leaves it
/// (`edge`); the coarse step in which the corner leaves; and how late the book's
/// and the coarse run fall (s).
struct RoadRunner {
    steps: [f64; 3],
    tracks: Vec<Vec<Slid>>,
    tip: f64,
    edge: f64,
    coarse: (f64, f64),
    late: [f64; 2],
}

fn road_runs() -> Result<RoadRunner, PbmError> {
    let seconds = 0.8;
    let steps = slide_steps();
    let tracks = steps
        .iter()
        .map(|&h| slide_off(h, seconds))
        .collect::<Result<Vec<_>, _>>()?;
    // The reference's step is short enough to date the passings.
    let (_, tip) = step_past_edge(&tracks[0], |p| p.centre)?;
    let (_, edge) = step_past_edge(&tracks[0], |p| p.corner)?;
    let coarse = step_past_edge(&tracks[2], |p| p.corner)?;
    // Once both fall freely their velocities differ by g times how much later the
    // run began to: read it a step after the one in which the corner left.
    let g = Settings::default().gravity.norm();
    let late = |track: &[Slid]| -> Result<f64, PbmError> {
        let (_, held) = step_past_edge(track, |p| p.corner)?;
        let after = track.iter().find(|p| p.t > held + 1e-9);
        let reference_at = |t: f64| {
            tracks[0]
                .iter()
                .min_by(|a, b| (a.t - t).abs().total_cmp(&(b.t - t).abs()))
        };
        let late = match after.and_then(|p| Some((p, reference_at(p.t)?))) {
            Some((p, r)) => (p.vy - r.vy) / g,
            None => f64::NAN,
        };
        require_finite([late])?;
        Ok(late)
    };
    let late = [late(&tracks[1])?, late(&tracks[2])?];
    Ok(RoadRunner { steps, tracks, tip, edge, coarse, late })
}

/// The road-runner figure's legend: the three runs, the reference's two moments,
/// and the coarse step in which the block leaves.
fn road_runner_legend(steps: &[f64; 3]) -> Legend {
    let ms = |h: f64| 1000.0 * h;
    vec![
        (
            format!("h = {:.0} ms, the reference", ms(steps[0])),
            Swatch::Line(REFERENCE, LINE_WIDTH),
        ),
        (
            format!(
                "h = {:.0} ms, the book's: a dot at each step's end",
                ms(steps[1])
            ),
            Swatch::LineDots(color(0), LINE_WIDTH),
        ),
        (
            format!("h = {:.0} ms: a dot at each step's end", ms(steps[2])),
            Swatch::LineDots(color(1), LINE_WIDTH),
        ),
        (
            "its centre passes the edge, and it starts to tip (reference run)".into(),
            Swatch::Line(tint(REFERENCE, 0.5), 1),
        ),
        (
            "its trailing corner leaves the edge (reference run)".into(),
            Swatch::Dashed(REFERENCE, 1),
        ),
        (
            format!(
                "the {:.0}-ms step in which it leaves: held up to the step's end",
                ms(steps[2])
            ),
            Swatch::Square(tint(color(1), 0.2)),
        ),
    ]
}

/// One panel of the road-runner figure: `value` of each run over `window` (s),
/// against the coarse step in which the block leaves and the reference's moments.
fn slide_panel(
    panel: &Area<'_>,
    runs: &RoadRunner,
    window: &std::ops::Range<f64>,
    (axis, value): (&str, fn(&Slid) -> f64),
) -> DrawResult {
    let series = |track: &[Slid]| -> Vec<(f64, f64)> {
        track
            .iter()
            .filter(|p| window.contains(&p.t))
            .map(|p| (p.t, value(p)))
            .collect()
    };
    let all: Vec<f64> =
        runs.tracks.iter().flat_map(|t| series(t)).map(|p| p.1).collect();
    let lo = all.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = all.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let pad = 0.08 * (hi - lo);
    let (lo, hi) = (lo - pad, hi + pad);
    let mut chart = chart_on(panel).build_cartesian_2d(window.clone(), lo..hi)?;
    axes(&mut chart, "time (s)", axis).draw()?;
    chart.draw_series(std::iter::once(Rectangle::new(
        [(runs.coarse.0, lo), (runs.coarse.1, hi)],
        tint(color(1), 0.2).filled(),
    )))?;
    line(&mut chart, &[(runs.tip, lo), (runs.tip, hi)], tint(REFERENCE, 0.5), 1)?;
    dashed_line(&mut chart, &[(runs.edge, lo), (runs.edge, hi)], REFERENCE, 1)?;
    line(&mut chart, &series(&runs.tracks[0]), REFERENCE, LINE_WIDTH)?;
    for (i, track) in runs.tracks.iter().enumerate().skip(1) {
        line_and_dots(&mut chart, &series(track), (color(i - 1), LINE_WIDTH), 3)?;
    }
    Ok(())
}

/// The first-order figure's push: the mouse's speed (m/s), when it lets go, with
/// the block still on the table and with it past the edge (s), and how long each
/// run goes on (s).
const PUSH_SPEED: f64 = 2.0;
const LET_GO: [f64; 2] = [0.35, 0.9];
const PUSH_SECONDS: f64 = 1.6;

/// A dot on a path every this many seconds.
const PATH_DOTS: f64 = 0.05;

/// [`Ledge::BOOK`]'s block pushed by the mouse in a world of `order` and let go
/// at `release`: its centre after every step, and every [`PATH_DOTS`] seconds.
fn pushed(order: Order, release: f64) -> Result<[Vec<(f64, f64)>; 2], PbmError> {
    let ledge = Ledge::BOOK;
    let settings = Settings { order, ..Settings::default() };
    let mut world = ledge.build(settings, V2::zeros())?;
    let centre = |w: &World| {
        let p = w.bodies()[0].position();
        (p.x, p.y)
    };
    let (mut path, mut dots) = (vec![centre(&world)], vec![centre(&world)]);
    let mut next = PATH_DOTS;
    while world.time() < PUSH_SECONDS - 1e-9 {
        ledge.push(&mut world, PUSH_SPEED, release)?;
        path.push(centre(&world));
        if world.time() >= next - 1e-9 {
            dots.push(centre(&world));
            next += PATH_DOTS;
        }
    }
    require_finite(path.iter().flat_map(|p| [p.0, p.1]))?;
    Ok([path, dots])
}

fn first_order_push() -> Result<Vec<Drawing>, PbmError> {
    let ledge = Ledge::BOOK;
    let orders =
        [(Order::Second, "second order (Newton)"), (Order::First, "first order")];
    let mut runs = Vec::new();
    for release in LET_GO {
        let mut pair = Vec::new();
        for (order, _) in orders {
            pair.push(pushed(order, release)?);
        }
        runs.push(pair);
    }
    let table =
        frame_of(&ledge.build(Settings::default(), V2::zeros())?, |_| Kind::Block);
    let g = Settings::default().gravity.norm();
    let places = ["on the table", "past the edge"];
    titled_figure(
        [500, 880],
        &format!(
            "The mouse pushes a block to the right at {PUSH_SPEED} m/s and lets go: the second-order block coasts on and falls in a parabola; the first-order block stops the moment it is let go, and falls at a steady {g:.2} m/s, gravity's acceleration read as a velocity"
        ),
        |root, layout| {
            let names = orders.map(|(_, name)| name);
            let root = legend_below(root, &push_legend(&names))?;
            let caption = |k: usize| {
                format!("({}) let go at {} s, {}", letter(k), LET_GO[k], places[k])
            };
            each_panel(&root, layout, (2, 2), caption, |k, panel| {
                push_panel(panel, &table, &runs[k], LET_GO[k])
            })
        },
    )
}

/// The first-order figure's legend: the path in each world, the mouse, the table
/// and the block.
fn push_legend(orders: &[&str; 2]) -> Legend {
    let mut legend: Legend = orders
        .iter()
        .enumerate()
        .map(|(i, name)| {
            (
                format!("{name}: the centre, a dot every {PATH_DOTS} s"),
                Swatch::LineDots(color(i), LINE_WIDTH),
            )
        })
        .collect();
    legend.push((
        "the mouse's path, to where it lets go (×)".into(),
        Swatch::Dashed(mouse_colour(), LINE_WIDTH),
    ));
    legend.push(("table and floor (fixed)".into(), Swatch::Square(REFERENCE)));
    legend.push(("the block at the start".into(), Swatch::Square(color(0))));
    legend
}

/// One panel of the first-order figure: the table, the mouse's path to where it
/// lets go at `release` (s), and the block's path in each world.
fn push_panel(
    panel: &Area<'_>,
    table: &Frame,
    pair: &[[Vec<(f64, f64)>; 2]],
    release: f64,
) -> DrawResult {
    let mut chart = scene_axes(panel, -1.4..2.4, -2.2..0.4, (5, 0))?;
    draw_parts(&mut chart, table)?;
    let start = Ledge::BOOK.start();
    let gone = start.x + PUSH_SPEED * release;
    let mouse = [(start.x, start.y), (gone, start.y)];
    dashed_line(&mut chart, &mouse, mouse_colour(), LINE_WIDTH)?;
    chart.draw_series(std::iter::once(Cross::new(
        (gone, start.y),
        7,
        mouse_colour().stroke_width(3),
    )))?;
    for (i, [path, marks]) in pair.iter().enumerate() {
        line(&mut chart, path, color(i), LINE_WIDTH)?;
        dots(&mut chart, marks, 3, color(i))?;
    }
    Ok(())
}

/// An outline closed on itself.
fn closed(polygon: &ConvexPolygon) -> Vec<(f64, f64)> {
    let mut points: Vec<(f64, f64)> =
        polygon.vertices().iter().map(|v| (v.x, v.y)).collect();
    points.push(points[0]);
    points
}

/// How deep parts `a` and `b` overlap, in units of `eps` (negative: apart).
fn depth_in(a: &ConvexPolygon, b: &ConvexPolygon, eps: f64) -> f64 {
    -separation(a, b).0 / eps
}

/// A depth in ε as words: "0.90 ε deep", "0.10 ε apart", or "touching" to two
/// places.
fn deep_or_apart(d: f64) -> String {
    if d.abs() < 0.005 {
        "touching".into()
    } else if d > 0.0 {
        format!("{d:.2} ε deep")
    } else {
        format!("{:.2} ε apart", -d)
    }
}

/// How many times longer the correction figure draws the displacements.
const SHOWN_LONGER: f64 = 5.0;

fn tolerance_correction() -> Result<Vec<Drawing>, PbmError> {
    let c = one_correction()?;
    let (was, now) = (&c.was, &c.now);
    let margin = 0.01;
    titled_figure(
        [520, 600],
        &format!(
            "Before (dashed): B's corner {} in A, past the warning depth ¾ ε; B {} in C; D {} in E. After one correction (filled): A and B {}, B and C {}, D and E {}, untouched: nothing joins them to the deep pair",
            deep_or_apart(was[0]),
            deep_or_apart(was[1]),
            deep_or_apart(was[2]),
            deep_or_apart(now[0]),
            deep_or_apart(now[1]),
            deep_or_apart(now[2]),
        ),
        |root, layout| {
            let legend: Legend = vec![
                (
                    "before the correction".into(),
                    Swatch::Dashed(REFERENCE, LINE_WIDTH),
                ),
                ("after it".into(), Swatch::Line(REFERENCE, LINE_WIDTH)),
                (
                    format!(
                        "each centre's displacement, drawn {SHOWN_LONGER} times as long"
                    ),
                    Swatch::Line(BLACK, LINE_WIDTH),
                ),
            ];
            let root = legend_below(root, &legend)?;
            let mut chart = scene_axes(
                &root,
                (c.lo.x - margin)..(c.hi.x + margin),
                (c.lo.y - margin)..(c.hi.y + margin),
                (layout.pick(8, 4), 2),
            )?;
            draw_correction(&mut chart, &c)
        },
    )
}

/// One step of [`Overlaps::BOOK`], which makes one tolerance correction: the parts
/// and their centres before and after it, the depths of the pairs A–B, B–C and D–E
/// (in ε) before and after, and the corners of the box round it all.
struct Correction {
    before: Vec<ConvexPolygon>,
    after: Vec<ConvexPolygon>,
    from: Vec<V2>,
    to: Vec<V2>,
    was: Vec<f64>,
    now: Vec<f64>,
    lo: V2,
    hi: V2,
}

fn one_correction() -> Result<Correction, PbmError> {
    let mut world = Overlaps::BOOK.build()?;
    let eps = world.settings().epsilon;
    let n = world.bodies().len();
    let shapes = |w: &World| -> Vec<ConvexPolygon> {
        (0..n).flat_map(|k| w.placed(k)).collect()
    };
    let centres =
        |w: &World| -> Vec<V2> { w.bodies().iter().map(|b| b.position()).collect() };
    let (before, from) = (shapes(&world), centres(&world));
    world.step()?;
    let (after, to) = (shapes(&world), centres(&world));
    if world.stats().corrections != 1 {
        let why = format!("{} corrections, not one", world.stats().corrections);
        return Err(PbmError::Figure { why });
    }
    require_finite(to.iter().flat_map(|c| [c.x, c.y]))?;
    let pairs = [(0, 1), (1, 2), (3, 4)];
    let depths = |shapes: &[ConvexPolygon]| -> Vec<f64> {
        pairs.iter().map(|&(i, j)| depth_in(&shapes[i], &shapes[j], eps)).collect()
    };
    let (was, now) = (depths(&before), depths(&after));
    let (lo, hi) = before.iter().chain(&after).flat_map(|p| p.vertices()).fold(
        (V2::repeat(f64::INFINITY), V2::repeat(f64::NEG_INFINITY)),
        |(lo, hi), v| (lo.inf(v), hi.sup(v)),
    );
    Ok(Correction { before, after, from, to, was, now, lo, hi })
}

/// Each part after the correction, filled, and before it, dashed; then each
/// centre's displacement, drawn [`SHOWN_LONGER`] times as long, and its name.
fn draw_correction<'a, 'b: 'a>(
    chart: &mut Chart2d<'a, 'b>,
    c: &Correction,
) -> DrawResult {
    let n = c.from.len();
    for (k, (before, after)) in c.before.iter().zip(&c.after).enumerate().take(n) {
        let ink = color(k);
        let (old, new) = (closed(before), closed(after));
        shape(chart, &new, ink.mix(0.3), (ink, LINE_WIDTH))?;
        dashed_line(chart, &old, ink, LINE_WIDTH)?;
    }
    let names = ["A", "B", "C", "D", "E"];
    for ((&from, &to), name) in c.from.iter().zip(&c.to).zip(names) {
        let tip = from + SHOWN_LONGER * (to - from);
        arrow(chart, (from.x, from.y), (tip.x, tip.y), 0.006, BLACK, LINE_WIDTH)?;
        let label = tick_font().pos(Pos::new(HPos::Center, VPos::Center));
        chart.draw_series(std::iter::once(Text::new(
            name,
            (to.x, to.y - 0.012),
            label,
        )))?;
    }
    Ok(())
}

/// The third panel of the collision-search figure: a thin bar (width, length)
/// driven along its length through a slab (width, thickness), in metres.
const BAR: (f64, f64) = (0.1, 0.6);
const SLAB: (f64, f64) = (2.0, 0.3);

/// Whether a corner of either polygon is inside the other.
fn corner_inside(a: &ConvexPolygon, b: &ConvexPolygon) -> bool {
    let inside = |p: &V2, q: &ConvexPolygon| {
        let v = q.vertices();
        (0..v.len()).all(|i| (v[(i + 1) % v.len()] - v[i]).perp(&(p - v[i])) > 0.0)
    };
    a.vertices().iter().any(|p| inside(p, b))
        || b.vertices().iter().any(|p| inside(p, a))
}

/// Samples `f` at `n` + 1 points from `a` to `b`.
fn sampled(a: f64, b: f64, n: usize, f: impl Fn(f64) -> f64) -> Vec<(f64, f64)> {
    (0..=n).map(|i| a + (b - a) * i as f64 / n as f64).map(|x| (x, f(x))).collect()
}

/// A plotted line: (x, y) points.
type Curve = Vec<(f64, f64)>;

/// The depths of panel (a) of the collision-search figure: each of two blocks
/// against the floor over the step (cm against ms), where the search on the later
/// one alone stops, where it stops with both, and the earlier one's depth at the
/// first stop (m).
struct TwoStrikes {
    curves: Vec<Vec<(f64, f64)>>,
    late_alone: f64,
    both: f64,
    early_at_stop: f64,
}

fn two_strikes(h: f64) -> Result<TwoStrikes, PbmError> {
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
fn graze(h: f64) -> Result<(Curve, f64, usize), PbmError> {
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
fn bar_through_slab() -> Result<(Curve, (f64, f64)), PbmError> {
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

fn collision_search() -> Result<Vec<Drawing>, PbmError> {
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
fn ms(s: f64) -> f64 {
    1000.0 * s
}
fn cm(d: f64) -> f64 {
    100.0 * d
}

/// Panel (a) of the collision-search figure: two blocks strike the floor in one
/// step of `h`, the searches on each, and ε.
fn strikes_panel(
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
fn strikes_legend(early: f64) -> Legend {
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
fn graze_panel(
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
fn slab_panel(
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
fn depth_axes<'a, 'b: 'a>(chart: &mut Chart2d<'a, 'b>, x: &str) -> DrawResult {
    axes(chart, x, "depth (cm)")
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| format!("{v:.0}"))
        .draw()?;
    Ok(())
}

/// The part of `curve` at or above `level`, with the points where it crosses
/// `level` put in, as the outline of the region between the two.
fn clipped_above(curve: &[(f64, f64)], level: f64) -> Curve {
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
fn ends<'a, 'b: 'a>(chart: &mut Chart2d<'a, 'b>, curve: &[(f64, f64)]) -> DrawResult {
    if let (Some(&first), Some(&last)) = (curve.first(), curve.last()) {
        dots(chart, &[first, last], 4, REFERENCE)?;
    }
    Ok(())
}

/// Shades the depths a collision search accepts as touching, within ε/2 of zero
/// (`eps` in the chart's units), across `x`.
fn window_band<'a, 'b: 'a>(
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
fn tint(c: RGBColor, alpha: f64) -> RGBColor {
    let over = |v: u8| (alpha * f64::from(v) + (1.0 - alpha) * 255.0).round() as u8;
    RGBColor(over(c.0), over(c.1), over(c.2))
}
