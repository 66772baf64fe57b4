//! The figures of the step: the loop, the road runner, the first-order push and the tolerance correction.

use super::*;

/// The stages of [`World::step`], in order, each with the file that does it:
/// what the loop figure draws.
pub(super) fn stages() -> [(&'static str, String); 6] {
    [
        ("Check", "refuse a pair deeper than ε (world/mod.rs)".into()),
        ("Detect", "contacts: vertices within ε of an edge (world/detect.rs)".into()),
        (
            "Collide",
            "one impulse LCP stops closing contacts and keeps pins together (world/collide.rs)"
                .into(),
        ),
        (
            "Hold",
            "one force LCP for contacts, pins and friction; these contacts last the whole step (world/hold.rs)"
                .into(),
        ),
        (
            "Integrate",
            "one RK4 step of h, shorter if a body could pass through a thin solid (world/integrate.rs)"
                .into(),
        ),
        (
            "Correct",
            format!(
                "pairs deeper than ε{} moved apart, in the kinetic-energy norm (world/correct.rs)",
                sub("w")
            ),
        ),
    ]
}

pub(super) fn step_loop() -> Result<Vec<Drawing>, PbmError> {
    titled_figure(
        [620, 900],
        "One step of the interactive world; between frames the mouse moves, and pins come and go",
        |area, layout| loop_diagram(&Diagram::new(area, layout), layout),
    )
}

/// The loop figure: the stages in a column, top to bottom, with the loop back up
/// on the left, and the collision-time branch beside Integrate.
pub(super) fn loop_diagram(d: &Diagram<'_, '_>, layout: Layout) -> DrawResult {
    let (column, half) = (layout.pick(0.37, 0.355), layout.pick(0.29, 0.3));
    let stages = stages();
    let boxes: Vec<TextBox> = stages
        .iter()
        .map(|(name, what)| d.text_box(&format!("{name}: {what}"), half))
        .collect();
    let ys: Vec<f64> = (0..stages.len())
        .map(|k| 0.07 + 0.86 * k as f64 / (stages.len() - 1) as f64)
        .collect();
    for k in 0..stages.len() - 1 {
        let from = (column, ys[k] + boxes[k].1);
        d.arrow((from, (column, ys[k + 1] - boxes[k + 1].1)))?;
    }
    let left = column - half - 0.035;
    let (last, first) = (stages.len() - 1, 0);
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
pub(super) type TextBox = (Vec<String>, f64);

/// A diagram drawn on `area` in fractions of its width and height: boxes of wrapped
/// text, and arrows between them.
pub(super) struct Diagram<'x, 'a> {
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
pub(super) const SLIDE: Ledge =
    Ledge { block: (0.1, 0.1), from: 0.95, ..Ledge::BOOK };
pub(super) const SLIDE_SPEED: f64 = 6.0;

/// The steps the road-runner figure compares (s): a reference of a tenth of the
/// book's, the book's, and five times it.
pub(super) fn slide_steps() -> [f64; 3] {
    let book = Settings::default().h;
    [0.1 * book, book, 5.0 * book]
}

/// One step's end of a run of [`SLIDE`]: the time (s), the height of the block's
/// centre (m) and its vertical velocity (m/s), and how far past the table's edge
/// its centre and its trailing bottom corner are (m).
#[derive(Debug, Clone, Copy)]
pub(super) struct Slid {
    t: f64,
    y: f64,
    vy: f64,
    centre: f64,
    corner: f64,
}

/// [`SLIDE`]'s block slid off the table at [`SLIDE_SPEED`] in steps of `h` for
/// `seconds`, seen at every step's end.
pub(super) fn slide_off(h: f64, seconds: f64) -> Result<Vec<Slid>, PbmError> {
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
pub(super) fn step_past_edge(
    track: &[Slid],
    x: fn(&Slid) -> f64,
) -> Result<(f64, f64), PbmError> {
    let k = track.iter().position(|p| x(p) > 0.0).filter(|&k| k > 0).ok_or_else(
        || PbmError::Figure { why: "the block never left the table".into() },
    )?;
    Ok((track[k - 1].t, track[k].t))
}

pub(super) fn road_runner() -> Result<Vec<Drawing>, PbmError> {
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
pub(super) struct RoadRunner {
    steps: [f64; 3],
    tracks: Vec<Vec<Slid>>,
    tip: f64,
    edge: f64,
    coarse: (f64, f64),
    late: [f64; 2],
}

pub(super) fn road_runs() -> Result<RoadRunner, PbmError> {
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
pub(super) fn road_runner_legend(steps: &[f64; 3]) -> Legend {
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
pub(super) fn slide_panel(
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
pub(super) const PUSH_SPEED: f64 = 2.0;
pub(super) const LET_GO: [f64; 2] = [0.35, 0.9];
pub(super) const PUSH_SECONDS: f64 = 1.6;

/// A dot on a path every this many seconds.
pub(super) const PATH_DOTS: f64 = 0.05;

/// [`Ledge::BOOK`]'s block pushed by the mouse in a world of `order` and let go
/// at `release`: its centre after every step, and every [`PATH_DOTS`] seconds.
pub(super) fn pushed(
    order: Order,
    release: f64,
) -> Result<[Vec<(f64, f64)>; 2], PbmError> {
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

pub(super) fn first_order_push() -> Result<Vec<Drawing>, PbmError> {
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
pub(super) fn push_legend(orders: &[&str; 2]) -> Legend {
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
pub(super) fn push_panel(
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
pub(super) fn closed(polygon: &ConvexPolygon) -> Vec<(f64, f64)> {
    let mut points: Vec<(f64, f64)> =
        polygon.vertices().iter().map(|v| (v.x, v.y)).collect();
    points.push(points[0]);
    points
}

/// How deep parts `a` and `b` overlap, in units of `eps` (negative: apart).
pub(super) fn depth_in(a: &ConvexPolygon, b: &ConvexPolygon, eps: f64) -> f64 {
    -separation(a, b).0 / eps
}

/// A depth in ε as words: "0.90 ε deep", "0.10 ε apart", or "touching" to two
/// places.
pub(super) fn deep_or_apart(d: f64) -> String {
    if d.abs() < 0.005 {
        "touching".into()
    } else if d > 0.0 {
        format!("{d:.2} ε deep")
    } else {
        format!("{:.2} ε apart", -d)
    }
}

/// How many times longer the correction figure draws the displacements.
pub(super) const SHOWN_LONGER: f64 = 5.0;

pub(super) fn tolerance_correction() -> Result<Vec<Drawing>, PbmError> {
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
pub(super) struct Correction {
    before: Vec<ConvexPolygon>,
    after: Vec<ConvexPolygon>,
    from: Vec<V2>,
    to: Vec<V2>,
    was: Vec<f64>,
    now: Vec<f64>,
    lo: V2,
    hi: V2,
}

pub(super) fn one_correction() -> Result<Correction, PbmError> {
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
pub(super) fn draw_correction<'a, 'b: 'a>(
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
