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
