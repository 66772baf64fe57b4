//! The live demos run the chapters' code: every number a demo shows that an exercise
//! prints too is the same to the last digit, every demo runs from its defaults, and
//! bad parameters are refused with a reason.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use pbm_prelim::ParamKind;
use pbm_web::demo::Drawing;
use pbm_web::{agreements, demos, find};

#[test]
fn every_demo_runs_from_its_defaults_and_its_picture_moves() {
    for spec in demos() {
        let mut demo = spec.create(&spec.defaults()).unwrap();
        let (mut first, mut later) = (Drawing::default(), Drawing::default());
        demo.draw(&mut first);
        for _ in 0..120 {
            demo.frame().unwrap();
        }
        demo.draw(&mut later);
        assert!(
            !first.data.is_empty() && first != later,
            "{} does not move",
            spec.id
        );
        let readouts = demo.readouts();
        assert_eq!(readouts.len(), spec.readouts.len(), "{}", spec.id);
        // NaN is "–" on the page: not measured yet, or not for this choice.
        assert!(
            readouts.iter().all(|r| !r.is_infinite()),
            "{}: {readouts:?}",
            spec.id
        );
        let (x, ys) = spec.plotted().unwrap();
        let plotted = ys.into_iter().chain([x]);
        assert!(plotted.map(|i| readouts[i]).all(f64::is_finite), "{}", spec.id);
        let view = spec.view_of(&spec.defaults()).unwrap();
        assert!(view[0] < view[1] && view[2] < view[3], "{}: {view:?}", spec.id);
    }
}

#[test]
fn every_number_a_demo_shares_with_an_exercise_is_the_same() {
    let chapters = pbm::chapters();
    for a in agreements() {
        let spec = find(a.demo).unwrap();
        let (values, readout) = a.resolve(spec).unwrap();
        let mut demo = spec.create(&values).unwrap();
        for _ in 0..a.frames {
            demo.frame().unwrap();
        }
        let shown = demo.readouts()[readout];
        let shown = if a.absolute { shown.abs() } else { shown };
        let (chapter, exercise) = pbm::find_exercise(&chapters, a.exercise).unwrap();
        let printed = exercise.run_with(chapter.id, a.set).unwrap();
        let printed = printed.pointer(a.key).and_then(|v| v.as_f64()).unwrap();
        assert_eq!(shown, printed, "{} against {} {:?}", a.demo, a.exercise, a.set);
    }
}

#[test]
fn every_demo_plots_readouts_against_one_that_grows_with_time() {
    for spec in demos() {
        let (x, ys) = spec.plotted().unwrap();
        let axis = &spec.readouts[x];
        assert!(
            (axis.label, axis.unit) == ("t", "s")
                || (axis.label, axis.unit) == ("steps", ""),
            "{}: the plot's horizontal axis is `{}`, not time or steps",
            spec.id,
            axis.label
        );
        assert!(!ys.is_empty(), "{} plots nothing", spec.id);
        assert!(!ys.contains(&x), "{} plots its time axis against itself", spec.id);
        let mut demo = spec.create(&spec.defaults()).unwrap();
        let mut last = demo.readouts()[x];
        for _ in 0..30 {
            demo.frame().unwrap();
            let now = demo.readouts()[x];
            assert!(now > last, "{}: the time axis stood still at {now}", spec.id);
            last = now;
        }
    }
}

#[test]
fn every_demo_that_offers_the_pointer_takes_a_drag_and_the_drag_changes_it() {
    use pbm_web::demo::Pointer;
    let mut taking = 0;
    for spec in demos() {
        let mut demo = spec.create(&spec.defaults()).unwrap();
        let mut untouched = spec.create(&spec.defaults()).unwrap();
        for _ in 0..30 {
            demo.frame().unwrap();
            untouched.frame().unwrap();
        }
        // The first point of a 24 × 24 grid over the view that the demo takes.
        let [x0, x1, y0, y1] = spec.view_of(&spec.defaults()).unwrap();
        let grid = (0..24 * 24).map(|k| {
            let (i, j) = ((k % 24) as f64 + 0.5, (k / 24) as f64 + 0.5);
            [x0 + (x1 - x0) * i / 24.0, y0 + (y1 - y0) * j / 24.0]
        });
        let pressed = grid.into_iter().find(|&at| demo.pointer(Pointer::Down, at));
        let Some(at) = pressed else {
            assert!(
                spec.drag.is_none(),
                "{} offers the pointer but takes no press",
                spec.id
            );
            continue;
        };
        assert!(spec.drag.is_some(), "{} takes a press it does not offer", spec.id);
        taking += 1;
        // Drag a fifth of the view up and to the right over ten frames, let go.
        let to = [at[0] + 0.2 * (x1 - x0), at[1] + 0.2 * (y1 - y0)];
        for k in 1..=10 {
            let f = k as f64 / 10.0;
            let here = [at[0] + f * (to[0] - at[0]), at[1] + f * (to[1] - at[1])];
            assert!(
                demo.pointer(Pointer::Move, here),
                "{}: a drag was refused",
                spec.id
            );
            demo.frame().unwrap();
            untouched.frame().unwrap();
        }
        assert!(demo.pointer(Pointer::Up, to), "{}: letting go was refused", spec.id);
        for _ in 0..10 {
            demo.frame().unwrap();
            untouched.frame().unwrap();
        }
        let (mut a, mut b) = (Drawing::default(), Drawing::default());
        demo.draw(&mut a);
        untouched.draw(&mut b);
        assert_ne!(a, b, "{}: the drag changed nothing", spec.id);
        assert!(demo.readouts().iter().all(|r| r.is_finite() || r.is_nan()));
    }
    assert!(taking >= 8, "only {taking} demos take the pointer");
}

#[test]
fn demo_labels_are_words_and_symbols_not_tex() {
    let chapters = pbm::chapters();
    for spec in demos() {
        // The labels of sliders of exercise parameters are the parameters' own.
        let page = pbm::demos::PageDemo::new(spec, &chapters).unwrap();
        let from_exercises: Vec<String> = page
            .sliders
            .values()
            .flat_map(|t| [t["label"].to_string(), t["unit"].to_string()])
            .collect();
        let labels = spec
            .params
            .iter()
            .flat_map(|p| [p.label, p.unit])
            .chain(spec.readouts.iter().flat_map(|r| [r.label, r.unit]))
            .chain([spec.title])
            .chain(from_exercises.iter().map(String::as_str));
        for label in labels {
            assert!(
                !label.contains(['_', '\\', '^', '$', '{']),
                "{}: `{label}` is TeX, not what a reader reads",
                spec.id
            );
        }
    }
}

#[test]
fn demo_ids_are_unique_and_parameters_are_checked() {
    let all: Vec<_> = demos().collect();
    for (i, spec) in all.iter().enumerate() {
        assert!(all[..i].iter().all(|d| d.id != spec.id), "{} twice", spec.id);
        let mut values = spec.defaults();
        values[0] = spec.params[0].max + 1.0;
        let error = spec.create(&values).err().unwrap().to_string();
        assert!(error.contains(spec.params[0].name), "{error}");
        assert!(spec.create(&values[1..]).is_err());
    }
}

#[test]
fn the_module_carries_every_demo_and_agreement_the_chapters_register() {
    // The chapters register their demos; the WebAssembly module lists the chapters'
    // demo modules. The two must be the same, in the book's order.
    let chapters = pbm::chapters();
    let registered: Vec<&str> =
        chapters.iter().flat_map(|c| c.demos.specs.iter().map(|d| d.id)).collect();
    let module: Vec<&str> = demos().map(|d| d.id).collect();
    assert_eq!(module, registered);
    let registered = chapters.iter().map(|c| c.demos.agreements.len()).sum::<usize>();
    assert_eq!(agreements().count(), registered);
    for chapter in &chapters {
        for demo in chapter.demos.specs {
            assert_eq!(demo.id.split('/').next(), Some(chapter.id), "{}", demo.id);
        }
        for a in chapter.demos.agreements {
            assert!(chapter.demos.find(a.demo).is_some(), "{}", a.demo);
        }
    }
}

#[test]
fn plots_and_agreements_name_readouts_and_sliders_the_demos_have() {
    // Every name resolves...
    let mut unresolved = Vec::new();
    for spec in demos() {
        if let Err(e) = spec.plotted() {
            unresolved.push(format!("{} plot: {e}", spec.id));
        }
    }
    for a in agreements() {
        let resolved = find(a.demo).map(|spec| a.resolve(spec));
        match resolved {
            None => {
                unresolved.push(format!("an agreement names no demo: {}", a.demo))
            }
            Some(Err(e)) => unresolved.push(format!("{} agreement: {e}", a.demo)),
            Some(Ok(_)) => {}
        }
    }
    assert!(unresolved.is_empty(), "{unresolved:#?}");
    // ...and one that does not is an error naming it.
    let spec = find("ode/euler-spiral").unwrap();
    let error = spec.readout("diameter").unwrap_err().to_string();
    assert!(error.contains("no readout `diameter`"), "{error}");
    let error = spec.values_of(&["k=1"]).unwrap_err().to_string();
    assert!(error.contains("no slider `k`"), "{error}");
    let error = spec.values_of(&["method=Heun"]).unwrap_err().to_string();
    assert!(error.contains("no choice `Heun`"), "{error}");
}

#[test]
fn a_demo_whose_explicit_method_diverges_says_so_and_runs_on() {
    let spec = find("implicit/stiff").unwrap();
    // h = 0.5 > 2/k = 0.2: explicit Euler multiplies y by −4 every step.
    let mut demo = spec.create(&spec.values_of(&["k=10", "h=0.5"]).unwrap()).unwrap();
    for _ in 0..600 {
        demo.frame().unwrap();
    }
    let note = demo.note().unwrap();
    assert!(
        note.starts_with("explicit Euler: simulation diverged at step "),
        "{note}"
    );
    let readouts = demo.readouts();
    let explicit = readouts[spec.readout("explicit Euler y").unwrap()];
    let backward = readouts[spec.readout("backward Euler y").unwrap()];
    assert!(explicit.is_nan() && backward.abs() < 1e-100, "{readouts:?}");
}

#[test]
fn the_mechanisms_switch_order_as_they_run_and_start_over_for_anything_else() {
    for id in ["interactive/feeder", "interactive/jack"] {
        let spec = find(id).unwrap();
        let params = spec.defaults();
        let mut demo = spec.create(&params).unwrap();
        for _ in 0..60 {
            demo.frame().unwrap();
        }
        let clock = spec.readout("t").unwrap();
        let t = demo.readouts()[clock];
        let order = spec.params.iter().position(|p| p.name == "order").unwrap();
        let mut first = params.clone();
        first[order] = 1.0; // the menu's second choice, first order
        // Taken as it runs: the clock is where it was, and goes on from there.
        assert!(demo.retune(&spec.check(&first).unwrap()), "{id}");
        assert_eq!(demo.readouts()[clock], t, "{id}");
        for _ in 0..30 {
            demo.frame().unwrap();
        }
        assert!(demo.readouts()[clock] > t, "{id}");
        assert!(demo.retune(&spec.check(&params).unwrap()), "{id}: and back");
        // Anything else starts over: here the first parameter, at its least.
        assert!(order != 0 && params[0] != spec.params[0].min, "{id}");
        let mut other = params.clone();
        other[0] = spec.params[0].min;
        assert!(!demo.retune(&spec.check(&other).unwrap()), "{id}");
    }
}

#[test]
fn demo_sliders_carry_the_names_of_the_exercise_parameters_they_set() {
    // A slider stands for the exercise parameter of its name: the parameter's
    // declaration gives its label and unit on the page, the slider only its name and
    // (narrower) range; this holds the names together, and the agreements hold their
    // numbers. A slider the exercise does not have is declared `demo_only`, with why.
    let chapters = pbm::chapters();
    let mut mismatches = Vec::new();
    for a in agreements() {
        let spec = find(a.demo).unwrap();
        let (_, exercise) = pbm::find_exercise(&chapters, a.exercise).unwrap();
        for slider in spec.params {
            let Some(spec) = exercise.params.iter().find(|p| p.name == slider.name)
            else {
                if slider.demo_only.is_none() {
                    mismatches.push(format!(
                        "{}: slider `{}` ({})",
                        a.demo, slider.name, a.exercise
                    ));
                }
                continue;
            };
            // The slider reaches only values the exercise accepts.
            let within = match &spec.kind {
                ParamKind::Float { min, max, min_exclusive, .. } => {
                    (slider.min > *min || (!min_exclusive && slider.min == *min))
                        && slider.max <= *max
                }
                ParamKind::Int { min, max, .. } => {
                    slider.whole
                        && slider.min >= *min as f64
                        && slider.max <= *max as f64
                }
                ParamKind::Choice { options, .. } => {
                    !slider.choices.is_empty()
                        && slider.choices.len() <= options.len()
                }
                ParamKind::Bool { .. } => false,
            };
            if !within {
                mismatches.push(format!(
                    "{}: slider `{}` reaches [{}, {}], outside {}'s range",
                    a.demo, slider.name, slider.min, slider.max, a.exercise
                ));
            }
            // And its label and unit are the parameter's own, which the page gives
            // it: a slider (not a menu) that writes them again says the same fact twice.
            if slider.choices.is_empty() && !slider.from_exercise() {
                mismatches.push(format!(
                    "{}: slider `{}` writes its own label `{}`: declare it \
                     `Param::exercise` and give {}'s parameter the label",
                    a.demo, slider.name, slider.label, a.exercise
                ));
            }
        }
    }
    // A slider declared demo-only that no exercise it agrees with has.
    for spec in demos() {
        let exercises: Vec<_> = agreements()
            .filter(|a| a.demo == spec.id)
            .map(|a| pbm::find_exercise(&chapters, a.exercise).unwrap().1)
            .collect();
        for slider in spec.params.iter().filter(|p| p.demo_only.is_some()) {
            if exercises
                .iter()
                .any(|e| e.params.iter().any(|p| p.name == slider.name))
            {
                mismatches.push(format!(
                    "{}: slider `{}` is declared demo-only, but its exercise has it",
                    spec.id, slider.name
                ));
            }
        }
    }
    mismatches.sort();
    mismatches.dedup();
    assert!(mismatches.is_empty(), "{mismatches:#?}");
}

/// The canvas the test's hand flicks across (CSS pixels): a phone's width, where a
/// flick covers the most of the world, and the page's tallest picture.
const CANVAS: [f64; 2] = [360.0, 480.0];

/// How many world units a canvas pixel is for `view`, drawn as the page draws it:
/// equal scales on both axes, the canvas as wide as the column and at most
/// [`CANVAS`]'s height.
fn metres_per_pixel([x0, x1, y0, y1]: [f64; 4]) -> f64 {
    let height = (CANVAS[0] * (y1 - y0) / (x1 - x0)).min(CANVAS[1]);
    1.0 / (CANVAS[0] / (x1 - x0)).min(height / (y1 - y0))
}

/// What is wrong with `demo` now, if anything: a body outside `view`, or a readout
/// that is infinite.
fn lost(
    demo: &dyn pbm_web::demo::Demo,
    view: [f64; 4],
    when: &str,
) -> Option<String> {
    let bodies = demo.bodies();
    let out: Vec<String> = bodies
        .iter()
        .enumerate()
        .filter(|(_, b)| !b.inside(view))
        .map(|(k, b)| format!("body {k} at {:?}", b.bounds))
        .collect();
    let readouts = demo.readouts();
    if !out.is_empty() {
        Some(format!("{when}: outside the view {view:?}: {}", out.join("; ")))
    } else if readouts.iter().any(|r| r.is_infinite()) {
        Some(format!("{when}: readouts {readouts:?}"))
    } else {
        None
    }
}

#[test]
fn every_body_a_reader_can_throw_comes_back_into_view_and_stays() {
    use pbm_web::demo::{FLICK_PX_PER_S, FRAME, Pointer};
    use std::f64::consts::TAU;
    let mut failures = Vec::new();
    for spec in demos() {
        let values = spec.defaults();
        let view = spec.view_of(&values).unwrap();
        let mut demo = spec.create(&values).unwrap();
        for _ in 0..30 {
            demo.frame().unwrap();
        }
        let count = demo.bodies().len();
        if spec.drag.is_none() {
            assert_eq!(
                count, 0,
                "{} lists bodies it does not let the hand take",
                spec.id
            );
            continue;
        }
        assert!(count > 0, "{} takes the pointer but lists no body", spec.id);
        if let Some(why) = lost(demo.as_ref(), view, "before any throw") {
            failures.push(format!("{}: {why}", spec.id));
            continue;
        }
        // The fastest flick, 400 px in 30 ms, over two frames; let go while moving.
        let reach = FLICK_PX_PER_S * 2.0 * FRAME * metres_per_pixel(view);
        // Every body thrown, each in the next of eight directions, at least eight
        // throws in all.
        let failed = (0..count.max(8)).find_map(|throw| {
            let body = demo.bodies()[throw % count];
            let angle = TAU * ((3 * throw + 2) % 8) as f64 / 8.0;
            let d = [reach * angle.cos(), reach * angle.sin()];
            let at = body.grip;
            if !demo.pointer(Pointer::Down, at) {
                // A demo that has stopped a runaway, and says why, takes no more.
                return demo.note().is_none().then(|| {
                    format!(
                        "throw {throw}: a press on body {} at {at:?} was refused",
                        throw % count
                    )
                });
            }
            let half = [at[0] + 0.5 * d[0], at[1] + 0.5 * d[1]];
            let to = [at[0] + d[0], at[1] + d[1]];
            demo.pointer(Pointer::Move, half);
            if let Err(e) = demo.frame() {
                return Some(format!("throw {throw}: {e}"));
            }
            demo.pointer(Pointer::Move, to);
            demo.pointer(Pointer::Up, to);
            for _ in 0..60 {
                if let Err(e) = demo.frame() {
                    return Some(format!("throw {throw}: {e}"));
                }
            }
            lost(
                demo.as_ref(),
                view,
                &format!("1 s after throw {throw} ({angle:.2} rad)"),
            )
        });
        // And thirty seconds on, every second of them.
        let failed = failed.or_else(|| {
            (1..=30).find_map(|second| {
                for _ in 0..60 {
                    if let Err(e) = demo.frame() {
                        return Some(format!("{second} s after the throws: {e}"));
                    }
                }
                lost(demo.as_ref(), view, &format!("{second} s after the throws"))
            })
        });
        if let Some(why) = failed {
            failures.push(format!("{}: {why}", spec.id));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn a_hand_far_off_the_picture_blows_nothing_up_and_a_runaway_stops_with_a_plain_note()
{
    use pbm_web::demo::Pointer;
    // The reader drags every body to a point far off the picture, holds it there
    // for 1.5 s, and lets go there: no frame fails, every body is back in view
    // within a second, and a note (if any) is in the reader's words.
    let mut failures = Vec::new();
    for spec in demos().filter(|s| s.drag.is_some()) {
        let values = spec.defaults();
        let view = spec.view_of(&values).unwrap();
        let mut demo = spec.create(&values).unwrap();
        for _ in 0..30 {
            demo.frame().unwrap();
        }
        let [x0, x1, y0, y1] = view;
        let far = [x1 + 100.0 * (x1 - x0), y1 + 100.0 * (y1 - y0)];
        let count = demo.bodies().len();
        for k in 0..count {
            let at = demo.bodies()[k].grip;
            if !demo.pointer(Pointer::Down, at) {
                continue;
            }
            demo.pointer(Pointer::Move, far);
            let mut result = Ok(());
            for _ in 0..90 {
                result = result.and_then(|()| demo.frame());
            }
            demo.pointer(Pointer::Up, far);
            for _ in 0..60 {
                result = result.and_then(|()| demo.frame());
            }
            let lost = lost(
                demo.as_ref(),
                view,
                &format!("1 s after body {k} was let go far off"),
            );
            if let Err(e) = result {
                failures.push(format!("{}: body {k}: {e}", spec.id));
            } else if let Some(why) = lost {
                failures.push(format!("{}: {why}", spec.id));
            }
        }
        if let Some(note) = demo.note() {
            for word in ["degenerate", "right-hand side", "finite", "Diverged", "NaN"]
            {
                if note.contains(word) {
                    failures
                        .push(format!("{}: the note says `{word}`: {note}", spec.id));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn the_bead_that_drifts_off_its_wire_stops_and_says_how_to_keep_it_on() {
    let spec = find("constraints/bead").unwrap();
    // Explicit Euler without feedback (the defaults): the drift is the lesson.
    let mut demo = spec.create(&spec.defaults()).unwrap();
    let view = spec.view_of(&spec.defaults()).unwrap();
    for _ in 0..60 * 60 {
        demo.frame().unwrap();
    }
    let note = demo.note().unwrap();
    assert!(
        note.starts_with(
            "Stopped: the bead has drifted off the wire (|C| passed 0.5 m²)"
        ) && note
            .contains("Raise the feedback stiffness (see \"Drift, and feedback\")"),
        "{note}"
    );
    // The picture shows the last state on the wire's scale; the step past it is
    // the largest |C|.
    let readouts = demo.readouts();
    let c = readouts[spec.readout("|C| now, C = (|x|² − 1)/2").unwrap()];
    let worst = readouts[spec.readout("largest |C| so far").unwrap()];
    assert!(c <= 0.5 && worst > 0.5, "{readouts:?}");
    assert!(demo.readouts().iter().all(|r| r.is_finite()), "{:?}", demo.readouts());
    assert!(demo.bodies().iter().all(|b| b.inside(view)), "{:?}", demo.bodies());
    // Stopped: the clock and the picture stand still.
    let t = demo.readouts()[0];
    demo.frame().unwrap();
    assert_eq!(demo.readouts()[0], t);
    // With feedback it stays on, and says nothing.
    let held = spec.values_of(&["solver=RK4", "k_s=100", "k_d=20"]).unwrap();
    let mut demo = spec.create(&held).unwrap();
    for _ in 0..60 * 60 {
        demo.frame().unwrap();
    }
    assert!(demo.note().is_none(), "{:?}", demo.note());
}
