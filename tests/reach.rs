//! A declared range is what a reader may type. With every other parameter at its
//! default, nearly all of it must run: the joint limits may cut a range there only
//! where the exercise says so ([`pbm_prelim::Exercise::joint`]: a page runs the far
//! end with another parameter changed), and then `pbm list` says how far it reaches.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

/// The least share of each range the joint limits must admit with the other
/// parameters at their defaults.
const SHARE: f64 = 0.9;

#[test]
fn every_range_runs_nearly_whole_with_the_others_at_their_defaults() {
    let mut short = Vec::new();
    let mut stale = Vec::new();
    for chapter in pbm::chapters() {
        for exercise in &chapter.exercises {
            for name in exercise.joint {
                assert!(
                    exercise.params.iter().any(|p| p.name == *name),
                    "{}/{}: `{name}` is marked joint but is no parameter",
                    chapter.id,
                    exercise.id
                );
            }
            for spec in &exercise.params {
                let share = exercise.share_admitted(spec);
                let id = format!("{}/{} {}", chapter.id, exercise.id, spec.name);
                let joint = exercise.joint.contains(&spec.name);
                if share < SHARE && !joint {
                    short.push(format!("{id}: {:.0} % admitted", 100.0 * share));
                }
                if share >= SHARE && joint {
                    stale.push(format!("{id}: {:.0} % admitted", 100.0 * share));
                }
                eprintln!(
                    "{id}: {:.1} %{}",
                    100.0 * share,
                    if joint { " (joint)" } else { "" }
                );
            }
        }
    }
    assert!(
        short.is_empty(),
        "ranges mostly refused with the other parameters at their defaults:\n{}",
        short.join("\n")
    );
    assert!(
        stale.is_empty(),
        "ranges marked joint that run nearly whole at the defaults:\n{}",
        stale.join("\n")
    );
}

#[test]
fn the_listed_reach_of_a_joint_range_runs_and_one_step_past_it_does_not() {
    for chapter in pbm::chapters() {
        for exercise in &chapter.exercises {
            let lines = exercise.reach_lines();
            assert_eq!(
                lines.len(),
                exercise.joint.len(),
                "{}/{}",
                chapter.id,
                exercise.id
            );
            for spec in
                exercise.params.iter().filter(|p| exercise.joint.contains(&p.name))
            {
                let (lo, hi) = exercise.reach(spec).unwrap();
                let whole = matches!(spec.kind, pbm_prelim::ParamKind::Int { .. });
                let id = format!("{}/{} {}", chapter.id, exercise.id, spec.name);
                let admits = |x: f64| {
                    let set = [format!("{}={}", spec.name, spec.text_of(x))];
                    exercise.admit(chapter.id, &set).is_ok()
                };
                assert!(admits(lo) && admits(hi), "{id}: {lo}..{hi}");
                // Past an end that is not the range's own, the limits refuse.
                let (min, max) = match spec.kind {
                    pbm_prelim::ParamKind::Int { min, max, .. } => {
                        (min as f64, max as f64)
                    }
                    pbm_prelim::ParamKind::Float { min, max, .. } => (min, max),
                    _ => unreachable!("only numbers are marked joint"),
                };
                let next_up = pbm_prelim::params::next_up;
                let above = if whole { hi + 1.0 } else { next_up(hi) };
                let below = if whole { lo - 1.0 } else { -next_up(-lo) };
                for (end, own, past) in [(hi, max, above), (lo, min, below)] {
                    assert!(end == own || !admits(past), "{id}: {past} is admitted");
                }
            }
        }
    }
}
