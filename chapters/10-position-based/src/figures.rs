//! The chapter's figures, computed with the chapter's own code.

use crate::joint::BodySystem;
use crate::projection::Stiffness;
use crate::scenes::BoxChain;
use crate::scenes::{ChainSample, FRAME, projected_chain_run};
use crate::scenes::{ITERATIONS, drag_run, stiffness_grid};
use crate::sheet_static::substeps_for_stiffness;
use nalgebra::Vector3;
use pbm_collision::figures::parts::{
    closed_ring, each_panel, fill, labels, letter, shape,
};
use pbm_constraints::scenes::Chain;
use pbm_particles::forces::G;
use pbm_prelim::plot::prelude::*;

/// Every figure of the chapter, in reading order.
pub fn all() -> Vec<Figure> {
    vec![
        Figure::new(
            "projection-picture",
            "A correction shared by inverse mass, between particles and on a body",
            projection_picture,
        ),
        Figure::new(
            "stiffness-vs-steps",
            "Effective stiffness against substeps and iterations",
            stiffness_vs_steps,
        ),
        Figure::new(
            "chain-comparison",
            "Chapter 4's chain by PBD, XPBD and Lagrange multipliers",
            chain_comparison,
        ),
        Figure::new(
            "sheet-calibration",
            "The calibrated XPBD sheet's stretch against substeps, three sizes",
            sheet_calibration,
        )
        .heavy(),
        Figure::new("drag-filmstrip", "Dragging a chain of boxes", drag_filmstrip),
    ]
}

fn stiffness_vs_steps() -> Result<Vec<Drawing>, PbmError> {
    let (compliance, mass) = (1e-3, 1.0);
    let (s, cells) = stiffness_grid(compliance, mass)?;
    let k = |extension: f64| mass * G / extension;
    let series = |pick: fn(&crate::scenes::Cell) -> f64, iterations: usize| {
        cells
            .iter()
            .filter(|c| c.iterations == iterations)
            .map(|c| ((c.substeps as f64).log2(), k(pick(c))))
            .collect::<Vec<_>>()
    };
    let pbd: Vec<_> = ITERATIONS.iter().map(|&n| series(|c| c.pbd, n)).collect();
    let xpbd: Vec<_> = ITERATIONS.iter().map(|&n| series(|c| c.xpbd, n)).collect();
    let slides = series(|c| c.slides, 16);
    require_finite(pbd.iter().chain(&xpbd).flatten().chain(&slides).map(|p| p.1))?;
    titled_figure(
        [500, 620],
        &format!(
            "Stiffness m g / extension of a 1 kg mass resting on a soft constraint, \
                     60 Hz frames; XPBD α = 1 mm/N, PBD s = {s:.3} (equal at 1 step of 1 pass)"
        ),
        |root, _| {
            let root = legend_below(root, &stiffness_legend())?;
            let mut chart = chart_on(&root)
                .build_cartesian_2d(-0.3..5.3, (1e2..1e9).log_scale())?;
            // Steps per frame double from tick to tick: the axis is log₂ of them.
            axes(&mut chart, "steps per 60 Hz frame", "stiffness (N/m)")
                .x_labels(6)
                .x_label_formatter(&|n: &f64| format!("{}", 2f64.powf(n.round())))
                .y_label_formatter(&power_of_ten)
                .draw()?;
            for (i, curve) in pbd.iter().enumerate() {
                line_and_dots(&mut chart, curve, (color(i), LINE_WIDTH), 4)?;
            }
            for curve in &xpbd {
                line(&mut chart, curve, REFERENCE, 3)?;
                chart.draw_series(curve.iter().map(|&(x, y)| {
                    Rectangle::new(
                        [(x - 0.06, y / 1.5), (x + 0.06, y * 1.5)],
                        REFERENCE.filled(),
                    )
                }))?;
            }
            dashed_line(&mut chart, &slides, color(4), LINE_WIDTH)?;
            Ok(())
        },
    )
}

/// The stiffness figure's legend: PBD at each number of passes, XPBD, and the
/// slides' update.
fn stiffness_legend() -> Legend {
    let mut legend: Legend = ITERATIONS
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let passes = if *n == 1 { "pass" } else { "passes" };
            let name = format!("PBD, {n} {passes} per step");
            (name, Swatch::LineDots(color(i), LINE_WIDTH))
        })
        .collect();
    legend.push((
        "XPBD, 1, 4 or 16 passes (one line)".into(),
        Swatch::LineSquares(REFERENCE, 3),
    ));
    legend.push((
        "the slides' λ update, 16 passes".into(),
        Swatch::Dashed(color(4), LINE_WIDTH),
    ));
    legend
}

/// The three runs of the chain figure: (label, samples).
fn chain_runs() -> Result<Vec<(String, Vec<ChainSample>)>, PbmError> {
    let (pbd, _) = projected_chain_run(Chain::BOOK, Stiffness::RIGID, 60 * 3, 1, 20)?;
    let (xpbd3, _) =
        projected_chain_run(Chain::BOOK, Stiffness::RIGID, 60 * 3, 20, 1)?;
    let (lagrange3, _) =
        crate::scenes::lagrange_chain(Chain::BOOK, FRAME / 20.0, 60 * 3, 20)?;
    Ok(vec![
        ("PBD: 1 step of 20 passes per frame".into(), pbd),
        ("XPBD: 20 steps of 1 pass per frame".into(), xpbd3),
        ("chapter 4: RK4, 20 steps per frame".into(), lagrange3),
    ])
}

fn chain_comparison() -> Result<Vec<Drawing>, PbmError> {
    let runs = chain_runs()?;
    let errors: Vec<Vec<(f64, f64)>> = runs
        .iter()
        .map(|(_, r)| {
            r.iter().skip(1).map(|s| (s.t, s.length_error.max(1e-12))).collect()
        })
        .collect();
    let energies: Vec<Vec<(f64, f64)>> = runs
        .iter()
        .map(|(_, r)| r.iter().map(|s| (s.t, s.energy)).collect())
        .collect();
    require_finite(errors.iter().chain(&energies).flatten().map(|p| p.1))?;
    let lowest = energies.iter().flatten().map(|p| p.1).fold(0.0, f64::min);
    titled_figure(
        [480, 820],
        "Chapter 4's chain (10 links of 10 cm, 0.1 kg bobs) released from the \
                 horizontal; the same 20 projections per frame spent two ways",
        |root, layout| {
            let legend: Legend =
                series_legend(&runs, Swatch::Line, LINE_WIDTH, |(label, _)| {
                    label.clone()
                });
            let root = legend_below(root, &legend)?;
            let panes = panels(&root, layout, 2, 2);
            let panel =
                titled(&panes[0], "(a) worst link length error", &label_font())?;
            let mut chart = chart_on(&panel)
                .build_cartesian_2d(0.0..3.0, (1e-12..1.0).log_scale())?;
            axes(&mut chart, "time (s)", "|ℓ − L| / L")
                .x_label_formatter(&|t| format!("{t:.0}"))
                .y_label_formatter(&power_of_ten)
                .draw()?;
            palette_lines(&mut chart, &errors)?;
            let panel =
                titled(&panes[1], "(b) kinetic + potential energy", &label_font())?;
            let mut chart =
                chart_on(&panel).build_cartesian_2d(0.0..3.0, lowest * 1.1..0.5)?;
            axes(&mut chart, "time (s)", "energy (J)")
                .x_label_formatter(&|t| format!("{t:.0}"))
                .y_label_formatter(&|e| format!("{e:.0}"))
                .draw()?;
            palette_lines(&mut chart, &energies)?;
            Ok(())
        },
    )
}

/// The front face (z = +depth/2) of every box: for the drag, which stays in the
/// x-y plane, that is the box as seen from the front.
fn faces(system: &BodySystem, model: &BoxChain) -> Vec<Vec<(f64, f64)>> {
    let [w, l, d] = model.size.map(|s| 0.5 * s);
    system
        .bodies
        .iter()
        .map(|b| {
            [(-w, -l), (w, -l), (w, l), (-w, l)]
                .iter()
                .map(|&(x, y)| {
                    let p = b.world_point(&Vector3::new(x, y, d));
                    (p.x, p.y)
                })
                .collect()
        })
        .collect()
}

/// One frame of the filmstrip: the time (s), each box's front face, and the mouse.
type Shot = (f64, Vec<Vec<(f64, f64)>>, (f64, f64));

/// Times of the filmstrip's frames (s).
const FILM: [f64; 6] = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0];

fn drag_filmstrip() -> Result<Vec<Drawing>, PbmError> {
    let model = BoxChain {
        links: 5,
        release_angle: std::f64::consts::FRAC_PI_2,
        ..BoxChain::BOOK
    };
    let (loop_time, frames) = (2.0, 240);
    let mut shots = Vec::new();
    let mut path = Vec::new();
    let mut frame_index = 0;
    drag_run(model.links, 1e-3, loop_time, 20, frames, |s, mouse| {
        path.push((mouse.x, mouse.y));
        if FILM.iter().any(|t| (t - frame_index as f64 * FRAME).abs() < 0.5 * FRAME) {
            shots.push((s.t, faces(s, &model), (mouse.x, mouse.y)));
        }
        frame_index += 1;
    })?;
    require_finite(
        shots.iter().flat_map(|s| s.1.iter().flatten().flat_map(|p| [p.0, p.1])),
    )?;
    titled_figure(
        [520, 1500],
        "Five 1 kg boxes (5 × 20 cm) hanging from a pin; the mouse grabs the bottom \
                 of the last one and drags it (α = 1 mm/N, 20 steps per 60 Hz frame)",
        |root, layout| {
            let legend: Legend = vec![
                ("boxes".into(), Swatch::Square(color(0))),
                ("mouse path so far".into(), Swatch::Dashed(REFERENCE, LINE_WIDTH)),
                ("mouse".into(), Swatch::Dot(color(1), 5)),
                ("pin".into(), Swatch::Dot(REFERENCE, 5)),
            ];
            let root = legend_below(root, &legend)?;
            let caption =
                |k: usize| format!("({}) t = {:.2} s", letter(k), shots[k].0);
            each_panel(&root, layout, (shots.len(), 3), caption, |k, panel| {
                film_frame(panel, &shots[k], &path)
            })
        },
    )
}

/// One frame of the filmstrip at time t: the mouse's path so far, the boxes, the
/// pin and the mouse.
fn film_frame(panel: &Area<'_>, shot: &Shot, path: &[(f64, f64)]) -> DrawResult {
    let (t, boxes, mouse) = shot;
    let mut chart = scene_chart(panel, -0.45..1.0, -1.15..0.1)?;
    let seen = ((t / FRAME).round() as usize + 1).min(path.len());
    dashed_line(&mut chart, &path[..seen], REFERENCE, LINE_WIDTH)?;
    for face in boxes {
        fill(&mut chart, face, color(0).mix(0.8))?;
    }
    dots(&mut chart, &[(0.0, 0.0)], 5, REFERENCE)?;
    dots(&mut chart, &[*mouse], 5, color(1))
}

/// Two particles on a stretched link (the heavy one first), corrected by one PBD
/// pass with s = 1: their positions before and after.
fn link_correction() -> Result<[[(f64, f64); 2]; 2], PbmError> {
    use crate::projection::{Scratch, project};
    use pbm_particles::condition::Distance;
    let before = [nalgebra::Vector2::new(0.0, 0.0), nalgebra::Vector2::new(1.2, 0.5)];
    let mut x = before.to_vec();
    let w = [1.0 / 3.0, 1.0];
    let link = Distance::new(0, 1, 1.0)?;
    project(
        &link,
        Stiffness::pbd(1.0)?,
        &mut [0.0],
        &w,
        &mut x,
        1.0,
        &mut Scratch::default(),
    )?;
    let pair = |p: &[nalgebra::Vector2<f64>]| [(p[0].x, p[0].y), (p[1].x, p[1].y)];
    Ok([pair(&before), pair(&x)])
}

fn projection_picture() -> Result<Vec<Drawing>, PbmError> {
    let [before, after] = link_correction()?;
    let plate = plate_correction()?;
    titled_figure(
        [420, 760],
        "One projection moves each part by its inverse mass times the same impulse",
        |root, layout| {
            let legend: Legend = vec![
                ("before".into(), Swatch::Dashed(REFERENCE, 2)),
                ("after the projection".into(), Swatch::Line(color(0), 2)),
                ("moves".into(), Swatch::Line(color(1), 2)),
            ];
            let root = legend_below(root, &legend)?;
            let plate_title =
                format!("(b) a plate: w = {:.2} kg⁻¹ at the corner", plate.w);
            let [link, plate_area] = titled_panels(
                &root,
                layout,
                ["(a) a stretched link: 3 kg and 1 kg", &plate_title],
            )?;
            link_panel(&link, before, after)?;
            plate_panel(&plate_area, &plate)
        },
    )
}

/// A 2 kg plate 1.2 m × 0.6 m, pushed at a corner straight up by a positional
/// impulse of 0.04 kg m: its generalized inverse mass w at the corner, its outline
/// before and after, and the corner before and after (how far the corner moves is
/// w times the impulse).
struct PlateCorrection {
    w: f64,
    start: Vec<(f64, f64)>,
    moved: Vec<(f64, f64)>,
    corner: (f64, f64),
    corner_after: (f64, f64),
}

fn plate_correction() -> Result<PlateCorrection, PbmError> {
    use crate::rigid::Body;
    use pbm_rigid::mass::MassProperties;
    let props = MassProperties::block(Vector3::new(1.2, 0.6, 0.1), 2.0)?;
    let mut body = Body::new(&props, Vector3::zeros(), crate::scenes::UNROTATED)?;
    let corner = Vector3::new(0.6, -0.3, 0.0);
    let n = Vector3::new(0.0, 1.0, 0.0);
    let w = body.generalized_inverse_mass(&corner, &n);
    let outline = |b: &Body| -> Vec<(f64, f64)> {
        [[-0.6, -0.3], [0.6, -0.3], [0.6, 0.3], [-0.6, 0.3]]
            .iter()
            .map(|&[x, y]| {
                let p = b.world_point(&Vector3::new(x, y, 0.0));
                (p.x, p.y)
            })
            .collect()
    };
    let start = outline(&body);
    body.apply_correction(&corner, &(n * 0.04));
    let moved = outline(&body);
    let after = body.world_point(&corner);
    require_finite([w, after.x, after.y])?;
    let (corner, corner_after) = ((corner.x, corner.y), (after.x, after.y));
    Ok(PlateCorrection { w, start, moved, corner, corner_after })
}

/// Panel (a): a stretched link before and after one projection, each particle
/// moved by its share.
fn link_panel(
    panel: &Area<'_>,
    before: [(f64, f64); 2],
    after: [(f64, f64); 2],
) -> DrawResult {
    let mut chart = scene_chart(panel, -0.25..1.45, -0.3..0.8)?;
    dashed_line(&mut chart, &before, REFERENCE, 2)?;
    line(&mut chart, &after, color(0), 2)?;
    for (i, radius) in [(0, 9), (1, 5)] {
        chart.draw_series([Circle::new(
            before[i],
            radius,
            REFERENCE.stroke_width(2),
        )])?;
        dots(&mut chart, &[after[i]], radius, color(0))?;
        arrow(&mut chart, before[i], after[i], 0.05, color(1), 2)?;
    }
    labels(
        &mut chart,
        &[
            ("3 kg moves ¼", (before[0].0 - 0.2, before[0].1 - 0.12)),
            ("1 kg moves ¾", (before[1].0 - 0.35, before[1].1 + 0.12)),
        ],
    )
}

/// Panel (b): the plate before and after, the arm r from its centre to the corner
/// and its lever, the impulse's direction n, and the corner's move.
fn plate_panel(panel: &Area<'_>, plate: &PlateCorrection) -> DrawResult {
    let mut chart = scene_chart(panel, -0.9..0.9, -0.55..0.6)?;
    dashed_line(&mut chart, &closed_ring(&plate.start), REFERENCE, 2)?;
    shape(&mut chart, &plate.moved, color(0).mix(0.15), (color(0), 2))?;
    // The arm r from the centre and its lever: the distance from the centre to the
    // impulse's line of action.
    let corner = plate.corner;
    arrow(&mut chart, (0.0, 0.0), corner, 0.05, REFERENCE, 1)?;
    dashed_line(&mut chart, &[(0.0, 0.0), (corner.0, 0.0)], color(2), 2)?;
    arrow(&mut chart, (corner.0, corner.1 - 0.2), corner, 0.05, color(2), 2)?;
    arrow(&mut chart, corner, plate.corner_after, 0.04, color(1), 2)?;
    dots(&mut chart, &[(0.0, 0.0)], 4, REFERENCE)?;
    labels(
        &mut chart,
        &[
            ("r", (0.26, -0.06)),
            ("lever |r × n|", (0.04, 0.13)),
            ("n", (corner.0 + 0.03, corner.1 - 0.2)),
        ],
    )
}

/// The tolerance the calibration figure marks: within 10 % of the closed form.
const CALIBRATION_TOLERANCE: f64 = 0.1;

fn sheet_calibration() -> Result<Vec<Drawing>, PbmError> {
    let alpha = crate::scenes::SHEET_COMPLIANCE;
    let reaches = crate::sheet_static::CALIBRATION_SIZES
        .iter()
        .map(|&n| substeps_for_stiffness(n, alpha, CALIBRATION_TOLERANCE, 1.0))
        .collect::<Result<Vec<_>, _>>()?;
    let curves: Vec<Vec<(f64, f64)>> = reaches
        .iter()
        .map(|r| r.ladder.iter().map(|&(s, x)| ((s as f64).log2(), x)).collect())
        .collect();
    require_finite(curves.iter().flatten().map(|p| p.1))?;
    let highest = curves.iter().flatten().map(|p| p.1).fold(2.0, f64::max) * 1.3;
    titled_figure(
        [500, 560],
        "The XPBD sheet hung at rest, its compliance calibrated so that converged \
         it hangs at ρgL²/2k; one Gauss–Seidel pass per substep, 1 s runs",
        |root, _| {
            let mut legend: Legend = reaches
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    let label = format!("{0} × {0} particles", r.n);
                    (label, Swatch::LineDots(color(i), LINE_WIDTH))
                })
                .collect();
            legend.push((
                "within 10 % of the closed form".into(),
                Swatch::Dashed(REFERENCE, 2),
            ));
            let root = legend_below(root, &legend)?;
            let mut chart = chart_on(&root)
                .build_cartesian_2d(3.0..8.3, (0.8..highest).log_scale())?;
            axes(
                &mut chart,
                "substeps per 60 Hz frame",
                "free edge's stretch / ρgL²/2k",
            )
            .x_labels(6)
            .x_label_formatter(&|n: &f64| format!("{}", 2f64.powf(n.round())))
            .y_labels(12)
            .y_label_formatter(&|y| match (y * 10.0).round() as i64 {
                10 | 20 | 30 | 50 | 100 => format!("{y:.0}"),
                _ => String::new(),
            })
            .draw()?;
            for bound in [1.0 - CALIBRATION_TOLERANCE, 1.0 + CALIBRATION_TOLERANCE] {
                dashed_line(&mut chart, &[(3.0, bound), (8.3, bound)], REFERENCE, 2)?;
            }
            for (i, curve) in curves.iter().enumerate() {
                line_and_dots(&mut chart, curve, (color(i), LINE_WIDTH), 4)?;
            }
            Ok(())
        },
    )
}
