//! The command line as a reader uses it: listing, running with and without --json, and every
//! kind of bad input answered with one line and exit code 2.

use std::process::{Command, Output};

fn pbm(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pbm")).args(args).output().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn list_shows_every_exercise_with_its_parameters_and_every_figure() {
    let out = pbm(&["list"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for chapter in pbm::chapters() {
        for exercise in &chapter.exercises {
            assert!(
                text.contains(&format!("run {}/{}", chapter.id, exercise.id)),
                "{text}"
            );
            for p in &exercise.params {
                assert!(text.contains(&format!("--set {}=", p.name)), "{}: {text}", p.name);
            }
        }
        for figure in &chapter.figures {
            assert!(text.contains(&format!("{}/{}.svg", chapter.id, figure.name)));
        }
    }
}

#[test]
fn run_json_prints_exactly_one_json_object() {
    let out = pbm(&["run", "ode/stability", "--set", "h=0.25", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.trim().lines().count(), 1, "{stdout}");
    let value: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(value["regime"], "divergent");
    assert_eq!(value["h"], 0.25);
}

#[test]
fn run_without_json_prints_a_table() {
    let out = pbm(&["run", "ode/euler-spiral"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("expected_ratio") && text.contains("1.00499"), "{text}");
}

#[test]
fn bad_input_is_one_line_on_stderr_with_exit_code_2() {
    let cases: [(&[&str], &str); 9] = [
        (&["run", "nope/stability"], "chapters: ode"),
        (&["run", "ode/nope"], "ode/stability"),
        (&["run", "stability"], "CHAPTER/EXERCISE"),
        (&["run", "ode/stability", "--set", "x=1"], "allowed: k, h, steps"),
        (&["run", "ode/stability", "--set", "h=-1"], "(0, 100]"),
        (&["run", "ode/stability", "--set", "h=NaN"], "(0, 100]"),
        (&["run", "ode/stability", "--set", "h=fast"], "a number"),
        (&["run", "ode/euler-spiral", "--set", "steps=0"], "1..=1000000"),
        (&["figures", "--chapter", "nope"], "chapters: ode"),
    ];
    for (args, needle) in cases {
        let out = pbm(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn unknown_subcommands_and_flags_are_usage_errors() {
    for args in [&["frobnicate"][..], &["run", "ode/stability", "--bogus"][..]] {
        let out = pbm(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}
