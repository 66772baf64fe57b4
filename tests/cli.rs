//! The command line as a reader uses it: listing, running with and without --json,
//! every kind of bad input answered with one line and exit code 2, a failed
//! computation with one line and exit code 1, and output cut short by the reader's
//! pipe.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use std::io::{BufRead, BufReader};
use std::process::{Command, Output, Stdio};

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
                assert!(
                    text.contains(&format!("--set {}=", p.name)),
                    "{}: {text}",
                    p.name
                );
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
    let cases: [(&[&str], &str); 10] = [
        (&["run", "nope/stability"], "chapters: ode"),
        (&["run", "ode/nope"], "ode/stability"),
        (&["run", "stability"], "CHAPTER/EXERCISE"),
        (&["run", "ode/stability", "--set", "x=1"], "allowed: k, h, steps"),
        (&["run", "ode/stability", "--set", "h=-1"], "(0, 100]"),
        (&["run", "ode/stability", "--set", "h=NaN"], "(0, 100]"),
        (&["run", "ode/stability", "--set", "h=fast"], "a number"),
        (
            &["run", "ode/adaptive", "--set", "method=DOPRI5"],
            "allowed: dopri5|euler-doubling",
        ),
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

#[test]
fn a_failed_computation_is_one_line_naming_the_step_with_exit_code_1() {
    // Euler gains energy on the bead without feedback until the state overflows at
    // 10.81 s; the constraint solve then has no finite right-hand side. Valid input,
    // failed computation: exit code 1, and the message says where.
    let out = pbm(&["run", "constraints/drift", "--set", "solver=euler"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(out.stdout.is_empty());
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.starts_with("error: at step 1081 (t = 10.81 s): "), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_reader_who_closes_the_pipe_early_gets_no_error() {
    // `pbm list | head -1`: the reader takes one line and closes the pipe.
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbm"))
        .arg("list")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    assert!(first.starts_with("1 Differential Equation Basics"), "{first}");
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
}

#[test]
fn a_full_disk_is_an_error_message_not_a_panic() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // not a Linux machine: nothing to test
    };
    let out = Command::new(env!("CARGO_BIN_EXE_pbm"))
        .args(["run", "ode/stability", "--json"])
        .stdout(full)
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.starts_with("error: cannot write the output"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
