//! The chapter's live demos (WebAssembly in the pages).
//!
//! Chapter 7: Baraff's moving boxes and the coherent sort-and-sweep. Each frame the
//! boxes move one step, the sorted lists of interval ends are repaired by insertion
//! sort, and only pairs whose ends were exchanged are tested.

use crate::aabb::Aabb;
use crate::scenes::BoxScene;
use crate::sweep::CoherentSweep;
use pbm_prelim::PbmError;
use pbm_prelim::demo::{
    Agreement, Demo, DemoSpec, Demos, Drawing, Ink, Param, Plot, Readout,
};

/// The chapter's demos, and the numbers they show that its exercises print too.
pub const DEMOS: Demos = Demos {
    specs: &[SWEEP],
    agreements: &[
        Agreement::demo("collision/sweep")
            .set(&["n=100", "speed=0.05"])
            .frames(50)
            .readout("overlapping pairs now")
            .matches(
                "collision/sweep-table",
                &["n_max=200", "steps=50"],
                "/coherence/0/overlapping_pairs",
            ),
        Agreement::demo("collision/sweep")
            .set(&["n=100", "speed=0.05"])
            .frames(50)
            .readout("exchanges per step, mean")
            .matches(
                "collision/sweep-table",
                &["n_max=200", "steps=50"],
                "/coherence/0/exchanges_per_step",
            ),
    ],
};

/// The scene the exercise `collision/sweep-table` times (its default seed).
const SEED: u64 = 1;

/// The demo of chapter 7's broad phase.
pub const SWEEP: DemoSpec = DemoSpec {
    id: "collision/sweep",
    title: "Moving boxes, their overlaps kept by the coherent sort-and-sweep",
    params: &[
        Param::count("n", "boxes", [100.0, 10.0, 1000.0])
            .demo_only("the box count; the exercise sweeps counts up to n_max"),
        Param::exercise("speed", [0.05, 0.0, 0.4]),
    ],
    readouts: &[
        Readout::plain("steps", ""),
        Readout::inked("overlapping pairs now", "", Ink::Second),
        Readout::plain("exchanges made by the insertion sorts, last step", ""),
        Readout::plain("exchanges per step, mean", ""),
        Readout::plain("overlaps begun or ended per step, mean", ""),
        Readout::plain("pairs brute force would test every step", ""),
    ],
    plot: Plot::over("steps", &["exchanges made by the insertion sorts, last step"]),
    view: |p| {
        let region = BoxScene::new(p.whole("n")?, 0.0, SEED)?.region();
        Ok([0.0, region[0], 0.0, region[1]])
    },
    drag: None,
    build: |p| {
        let scene = BoxScene::new(p.whole("n")?, p.get("speed")?, SEED)?;
        let boxes = scene.bounds()?;
        let sweep = CoherentSweep::new(&boxes)?;
        Ok(Box::new(Sweep {
            scene,
            sweep,
            boxes,
            steps: 0,
            last_exchanges: 0,
            exchanges: 0,
            changes: 0,
        }))
    },
};

struct Sweep {
    scene: BoxScene,
    sweep: CoherentSweep<2>,
    boxes: Vec<Aabb<2>>,
    steps: usize,
    last_exchanges: usize,
    exchanges: usize,
    changes: usize,
}

impl Demo for Sweep {
    fn frame(&mut self) -> Result<(), PbmError> {
        // As `sweep_table` steps: move, then update the sweep with the new bounds.
        self.scene.step();
        self.boxes = self.scene.bounds()?;
        let changes = self.sweep.update(&self.boxes)?;
        self.steps += 1;
        self.last_exchanges = changes.exchanges;
        self.exchanges += changes.exchanges;
        self.changes += changes.began.len() + changes.ended.len();
        Ok(())
    }

    fn readouts(&self) -> Vec<f64> {
        let n = self.boxes.len() as f64;
        let mean = |total: usize| {
            if self.steps == 0 { f64::NAN } else { total as f64 / self.steps as f64 }
        };
        vec![
            self.steps as f64,
            self.sweep.pairs().len() as f64,
            self.last_exchanges as f64,
            mean(self.exchanges),
            mean(self.changes),
            n * (n - 1.0) / 2.0,
        ]
    }

    fn draw(&self, out: &mut Drawing) {
        let mut touching = vec![false; self.boxes.len()];
        for (i, j) in self.sweep.pairs() {
            touching[i as usize] = true;
            touching[j as usize] = true;
        }
        for (b, &touch) in self.boxes.iter().zip(&touching) {
            let ink = if touch { Ink::Second } else { Ink::First };
            let [x0, y0] = b.min;
            let [x1, y1] = b.max;
            out.polygon(ink, [[x0, y0], [x1, y0], [x1, y1], [x0, y1]].into_iter());
        }
    }
}
