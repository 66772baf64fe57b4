//! The chapter's figures: the bench as a table of marks, each scene under each
//! solver, drawn from the runs of `solvers/bench` at its defaults.

use crate::bench::{Outcome, run};
use crate::body::Body;
use crate::scenes::{Scene, build};
use crate::solvers::SolverKind;
use crate::world::Settings;
use pbm_collision::figures::parts::{closed_ring, letter, shape};
use pbm_prelim::Choice;
use pbm_prelim::plot::prelude::*;
use std::ops::Range;

/// Every figure of the chapter, in reading order.
pub fn all() -> Vec<Figure> {
    vec![
        Figure::new("bench", "The bench: every scene under every solver", bench)
            .heavy(),
        Figure::new(
            "final-stack",
            "The vertical stack after 3 s, by each solver",
            || final_states(Scene::VerticalStack),
        )
        .heavy(),
        Figure::new("final-pyramid", "The pyramid after 3 s, by each solver", || {
            final_states(Scene::Pyramid)
        })
        .heavy(),
        Figure::new(
            "final-ramp",
            "The friction ramp after 3 s, by each solver",
            || final_states(Scene::FrictionRamp),
        )
        .heavy(),
        Figure::new(
            "final-overlap",
            "The overlapping boxes after 3 s, by each solver",
            || final_states(Scene::OverlapRecovery),
        )
        .heavy(),
        Figure::new(
            "final-mass-ratio",
            "The heavy box after 3 s, by each solver",
            || final_states(Scene::MassRatio),
        )
        .heavy(),
        Figure::new(
            "final-heavy-tops",
            "The pyramids with heavy tops after 3 s, by each solver",
            || final_states(Scene::HeavyTops),
        )
        .heavy(),
        Figure::new("final-arch", "The arch after 3 s, by each solver", || {
            final_states(Scene::Arch)
        })
        .heavy(),
        Figure::new(
            "final-chain",
            "The ball and chain after 3 s, by each solver",
            || final_states(Scene::Chain),
        )
        .heavy(),
        Figure::new("final-net", "The net after 3 s, by each solver", || {
            final_states(Scene::JointGrid)
        })
        .heavy(),
        Figure::new("final-domino", "The dominoes after 3 s, by each solver", || {
            final_states(Scene::Domino)
        })
        .heavy(),
    ]
}

/// The window each scene's drawing shows (m), and how many panels stand side by
/// side in the wide drawing.
fn window(scene: Scene) -> (Range<f64>, Range<f64>, usize) {
    match scene {
        Scene::SingleBox => (-2.0..2.0, -0.5..1.5, 5),
        Scene::VerticalStack => (-2.5..2.5, -0.5..16.5, 5),
        Scene::Pyramid => (-5.5..5.5, -0.5..10.5, 3),
        Scene::FrictionRamp => (-17.0..14.0, -0.5..8.5, 2),
        Scene::OverlapRecovery => (-4.0..4.0, -0.5..4.5, 3),
        Scene::MassRatio => (-11.0..11.0, -0.5..22.0, 3),
        Scene::HeavyTops => (-32.0..35.0, -0.5..24.0, 2),
        Scene::Arch => (-7.0..7.0, -0.5..15.5, 3),
        Scene::Chain => (-50.0..60.0, -0.5..65.0, 3),
        Scene::JointGrid => (-11.0..11.0, 0.0..36.0, 3),
        Scene::Domino => (-8.5..8.5, -0.5..2.0, 2),
    }
}

/// Every body's outline in the world, as points, and whether it is fixed.
fn outlines(bodies: &[Body]) -> Vec<(Vec<(f64, f64)>, bool)> {
    let mut out = Vec::new();
    for b in bodies {
        for part in b.placed() {
            out.push((
                part.vertices().iter().map(|v| (v.x, v.y)).collect(),
                b.is_fixed(),
            ));
        }
    }
    out
}

/// One panel's world: each body's outline after 3 s, and whether the scene's test
/// passed.
type Final = (SolverKind, Vec<(Vec<(f64, f64)>, bool)>, bool);

/// `scene` at the bench's defaults under each solver: where it started (dashed
/// outlines) and where it is after 3 s (filled), fixed bodies in grey.
fn final_states(scene: Scene) -> Result<Vec<Drawing>, PbmError> {
    let mut finals: Vec<Final> = Vec::new();
    for solver in SolverKind::ALL {
        let settings = Settings { solver, ..Settings::default() };
        let mut built = build(scene, settings.clone(), 10)?;
        built.world.run(3.0, |_| {})?;
        let stands = run(scene, settings, 10, 3.0)?.stands;
        finals.push((solver, outlines(&built.world.bodies), stands));
    }
    let start = outlines(&build(scene, Settings::default(), 10)?.world.bodies);
    let points = finals.iter().flat_map(|f| f.1.iter()).flat_map(|p| &p.0);
    require_finite(points.flat_map(|&(x, y)| [x, y]))?;
    let (x, y, columns) = window(scene);
    let title = format!(
        "{}: where the bodies started (dashed) and are after 3 s",
        scene.word()
    );
    titled_figure(
        [if columns >= 5 { 420 } else { 600 }, 1500],
        &title,
        |root, layout| {
            let legend: Legend = vec![
                ("fixed".into(), Swatch::Square(REFERENCE)),
                ("moving, after 3 s".into(), Swatch::Square(color(0))),
                ("where they started".into(), Swatch::Dashed(REFERENCE, 1)),
            ];
            let root = legend_below(root, &legend)?;
            let areas = panels(&root, layout, finals.len(), columns);
            for (k, (panel, (solver, bodies, stands))) in
                areas.iter().zip(&finals).enumerate()
            {
                let mark = if *stands { "passes" } else { "fails" };
                let caption = format!("({}) {}: {mark}", letter(k), solver.word());
                let panel = titled(panel, &caption, &label_font())?;
                let mut chart = scene_chart(&panel, x.clone(), y.clone())?;
                for (points, _) in start.iter().filter(|(_, fixed)| !fixed) {
                    dashed_line(&mut chart, &closed_ring(points), REFERENCE, 1)?;
                }
                for (points, fixed) in bodies {
                    let ink = if *fixed { REFERENCE } else { color(0) };
                    shape(&mut chart, points, ink.mix(0.4), (ink, 1))?;
                }
            }
            Ok(())
        },
    )
}

/// The bench at the defaults of `solvers/bench`: 3 s, a pyramid of base 10, 4 and 2
/// passes, warm starting; each row ends with chapter 11's exact loop, None where the
/// bench does not run it.
pub fn bench_runs() -> Result<Vec<Vec<Option<Outcome>>>, PbmError> {
    Scene::ALL
        .iter()
        .map(|&scene| {
            let mut row = SolverKind::ALL
                .iter()
                .map(|&solver| {
                    run(scene, Settings { solver, ..Settings::default() }, 10, 3.0)
                        .map(Some)
                })
                .collect::<Result<Vec<_>, _>>()?;
            row.push(crate::exact::reference(scene, 10, 3.0)?.ok());
            Ok(row)
        })
        .collect()
}

/// What a cell says of its run: how far the watched box moved after the scene
/// settled, or, for the overlapping boxes, the fastest speed after the first
/// second, or, for the pinned scenes, the widest a pin opened.
fn measure(scene: Scene, o: &Outcome) -> String {
    let metres = |x: f64| {
        if x >= 1.0 {
            format!("{} m", short(x))
        } else {
            format!("{} mm", short(1e3 * x))
        }
    };
    match scene {
        Scene::OverlapRecovery => format!("{} m/s", short(o.max_speed_settled)),
        Scene::Chain | Scene::JointGrid => metres(o.max_joint_error),
        _ => metres(o.drift),
    }
}

/// `x` with one decimal below 10 and none above, short enough for a cell.
fn short(x: f64) -> String {
    if x >= 10.0 { format!("{x:.0}") } else { format!("{x:.1}") }
}

fn bench() -> Result<Vec<Drawing>, PbmError> {
    let runs = bench_runs()?;
    let outcomes = runs.iter().flatten().flatten();
    require_finite(outcomes.flat_map(|o| [o.drift, o.max_penetration]))?;
    let heads: Vec<&str> =
        SolverKind::ALL.iter().map(|s| s.word()).chain(["exact"]).collect();
    let (rows, cols) = (Scene::ALL.len() as f64, heads.len());
    // Narrow, the columns are split into two bands, one above the other, so that a
    // cell's text still fits its cell.
    let narrow_bands = [0..cols.div_ceil(2), cols.div_ceil(2)..cols];
    // A row of cells is about 45 px tall wide and 70 narrow, under the title and heads.
    let height = |row: f64, top: f64, bands: f64| (top + bands * row * rows) as u32;
    titled_figure(
        [height(45.0, 90.0, 1.0), height(70.0, 220.0, 2.0)],
        "Each scene's test passed (✓) or failed (✗) under each solver, with its measure",
        |root, layout| {
            // Wide: the scenes' names in a column on the left. Narrow: each above its row.
            let narrow = layout == Layout::Narrow;
            let (label_width, pitch) = if narrow { (0.0, 1.5) } else { (1.9, 1.0) };
            let whole = std::iter::once(0..cols).collect::<Vec<_>>();
            let bands: &[Range<usize>] = if narrow { &narrow_bands } else { &whole };
            let width = bands.iter().map(|b| b.len()).max().unwrap_or(cols) as f64;
            let band_height = rows * pitch + 0.6;
            let total = band_height * bands.len() as f64;
            let mut chart = ChartBuilder::on(root)
                .margin(6)
                .build_cartesian_2d(-label_width..width, 0.0..total)?;
            let right = anchored(label_font(), HPos::Right, VPos::Center);
            let left = anchored(label_font(), HPos::Left, VPos::Center);
            let centre = anchored(tick_font(), HPos::Center, VPos::Center);
            for (b, band) in bands.iter().enumerate() {
                let top = total - b as f64 * band_height - 0.6;
                for k in band.clone() {
                    let x = (k - band.start) as f64 + 0.5;
                    text(&mut chart, heads[k], (x, top + 0.3), &centre)?;
                }
                for (i, scene) in Scene::ALL.iter().enumerate() {
                    let y = top - i as f64 * pitch - pitch + 0.5;
                    if narrow {
                        text(&mut chart, scene.word(), (0.0, y + 0.75), &left)?;
                    } else {
                        text(&mut chart, scene.word(), (-0.1, y), &right)?;
                    }
                    for k in band.clone() {
                        let o = &runs[i][k];
                        let x = (k - band.start) as f64;
                        let fill = match o {
                            Some(o) if o.stands => color(2).mix(0.25),
                            Some(_) => color(1).mix(0.35),
                            None => WHITE.mix(0.0),
                        };
                        let cell = [(x, y - 0.5), (x + 1.0, y + 0.5)];
                        framed(&mut chart, cell, fill.filled())?;
                        let (mark, said) = match o {
                            Some(o) if o.stands => ("✓", measure(*scene, o)),
                            Some(o) => ("✗", measure(*scene, o)),
                            None => ("–", "not run".to_string()),
                        };
                        text(&mut chart, mark, (x + 0.5, y + 0.2), &centre)?;
                        text(&mut chart, said, (x + 0.5, y - 0.2), &centre)?;
                    }
                }
            }
            Ok(())
        },
    )
}
