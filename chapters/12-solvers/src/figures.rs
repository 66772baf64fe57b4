//! The chapter's figures: the bench as a table of marks, each scene under each
//! solver, drawn from the runs of `solvers/bench` at its defaults.

use crate::bench::{Outcome, run};
use crate::scenes::Scene;
use crate::solvers::SolverKind;
use crate::world::Settings;
use pbm_prelim::Choice;
use pbm_prelim::plot::prelude::*;

/// Every figure of the chapter, in reading order.
pub fn all() -> Vec<Figure> {
    vec![
        Figure::new("bench", "The bench: every scene under every solver", bench)
            .heavy(),
    ]
}

/// The bench at the defaults of `solvers/bench`: 3 s, a pyramid of base 10, 4 and 2
/// passes, warm starting.
pub fn bench_runs() -> Result<Vec<Vec<Outcome>>, PbmError> {
    Scene::ALL
        .iter()
        .map(|&scene| {
            SolverKind::ALL
                .iter()
                .map(|&solver| {
                    run(scene, Settings { solver, ..Settings::default() }, 10, 3.0)
                })
                .collect()
        })
        .collect()
}

/// What a cell says of its run: the measure its scene's test reads (the caption
/// names it per row).
fn measure(scene: Scene, o: &Outcome) -> String {
    match scene {
        Scene::SingleBox
        | Scene::VerticalStack
        | Scene::Pyramid
        | Scene::FrictionRamp => {
            format!("{} mm", short(1e3 * o.drift))
        }
        Scene::OverlapRecovery => format!("{} m/s", short(o.max_speed_settled)),
        Scene::MassRatio => format!("{} mm", short(1e3 * o.max_penetration)),
    }
}

/// `x` with one decimal below 10 and none above, short enough for a cell.
fn short(x: f64) -> String {
    if x >= 10.0 { format!("{x:.0}") } else { format!("{x:.1}") }
}

fn bench() -> Result<Vec<Drawing>, PbmError> {
    let runs = bench_runs()?;
    require_finite(runs.iter().flatten().flat_map(|o| [o.drift, o.max_penetration]))?;
    let (rows, cols) = (Scene::ALL.len() as f64, SolverKind::ALL.len() as f64);
    titled_figure(
        [330, 600],
        "Where each solver passes (✓) or fails (✗) the scene's test, with the measure the test reads",
        |root, layout| {
            // Wide: the scenes' names in a column on the left. Narrow: each above its row.
            let narrow = layout == Layout::Narrow;
            let (label_width, pitch) = if narrow { (0.0, 1.5) } else { (1.9, 1.0) };
            let top = rows * pitch;
            let mut chart = ChartBuilder::on(root)
                .margin(6)
                .build_cartesian_2d(-label_width..cols, 0.0..top + 0.6)?;
            let right = anchored(label_font(), HPos::Right, VPos::Center);
            let left = anchored(label_font(), HPos::Left, VPos::Center);
            let centre = anchored(tick_font(), HPos::Center, VPos::Center);
            for (k, solver) in SolverKind::ALL.iter().enumerate() {
                text(
                    &mut chart,
                    solver.word(),
                    (k as f64 + 0.5, top + 0.3),
                    &centre,
                )?;
            }
            for (i, scene) in Scene::ALL.iter().enumerate() {
                let y = top - i as f64 * pitch - pitch + 0.5;
                if narrow {
                    text(&mut chart, scene.word(), (0.0, y + 0.75), &left)?;
                } else {
                    text(&mut chart, scene.word(), (-0.1, y), &right)?;
                }
                for (k, o) in runs[i].iter().enumerate() {
                    let x = k as f64;
                    let fill = if o.stands {
                        color(2).mix(0.25)
                    } else {
                        color(1).mix(0.35)
                    };
                    framed(
                        &mut chart,
                        [(x, y - 0.5), (x + 1.0, y + 0.5)],
                        fill.filled(),
                    )?;
                    let mark = if o.stands { "✓" } else { "✗" };
                    text(&mut chart, mark, (x + 0.5, y + 0.2), &centre)?;
                    text(
                        &mut chart,
                        measure(*scene, o),
                        (x + 0.5, y - 0.2),
                        &centre,
                    )?;
                }
            }
            Ok(())
        },
    )
}
