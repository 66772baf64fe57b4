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

#[test]
fn a_closed_stdout_is_an_error_and_dev_null_is_not() {
    if !std::path::Path::new("/proc/self/fdinfo").is_dir() {
        return; // not Linux: pbm cannot tell a closed stdout there
    }
    let pbm = env!("CARGO_BIN_EXE_pbm");
    let shell = |redirect: &str| {
        Command::new("sh")
            .args(["-c", &format!("\"$0\" run ode/stability --json {redirect}"), pbm])
            .output()
            .unwrap()
    };
    let closed = shell(">&-");
    let err = stderr(&closed);
    assert_eq!(closed.status.code(), Some(1), "{err}");
    assert_eq!(err, "error: cannot write the output: standard output is closed\n");
    let discarded = shell("> /dev/null");
    assert_eq!(discarded.status.code(), Some(0), "{}", stderr(&discarded));
    assert!(discarded.stderr.is_empty(), "{}", stderr(&discarded));
}

#[test]
fn the_slowest_adaptive_run_is_refused_before_it_starts() {
    // The reliability review's slowest valid run (3.7 s here): the fixed-step Euler run
    // it is compared with grows as (1 − e)^-2, which the limit now counts.
    let slow = [
        "run",
        "ode/adaptive",
        "--set",
        "tol=1.5804081632653046e-07",
        "--set",
        "method=euler-doubling",
        "--set",
        "eccentricity=0.95",
        "--json",
    ];
    let out = pbm(&slow);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("Euler steps") && err.contains("raise tol"), "{err}");
}

#[test]
fn an_unknown_id_is_quoted_on_one_short_line() {
    // Ids are echoed as parameter values are: control characters escaped, long ones
    // cut, so the error stays one readable line.
    let long = format!("ode/{}", "x".repeat(10_000));
    for id in ["bad\nid", "ode/bad\nid", "bad\nchapter/x", long.as_str()] {
        let out = pbm(&["run", id]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.len() < 400, "{} bytes: {err}", err.len());
    }
}

#[test]
fn a_full_stderr_loses_the_message_not_the_exit_code() {
    // Bad input with stderr on a full disk: the message cannot be written, and the
    // exit code still says whose fault it was (2), without a panic (101).
    for args in
        [&["run", "nope/nope"][..], &["run", "ode/stability", "--set", "h=abc"][..]]
    {
        let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full")
        else {
            return; // not a Linux machine: nothing to test
        };
        let out = Command::new(env!("CARGO_BIN_EXE_pbm"))
            .args(args)
            .stderr(full)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn every_refusal_is_one_line_that_says_what_is_allowed() {
    // (arguments, what the one line must say): a missing id, a `--set` without `=`, a
    // number that does not parse, a step too small to ever finish, a tiny number below
    // a range that starts above zero.
    let cases: &[(&[&str], &str)] = &[
        (
            &["run", "--json"],
            "required arguments were not provided: <ID> (usage: pbm run",
        ),
        (&["run", "ode/euler-spiral", "--set", "h"], "parameters: h, steps"),
        (
            &["run", "ode/euler-spiral", "--set", "h=0x10"],
            "cannot read `0x10` as a number; allowed: a finite number in (0, 2]",
        ),
        (
            &["run", "constraints/double-pendulum", "--set", "h=4.9e-324"],
            "would never finish",
        ),
        (
            &["run", "contact/turntable", "--set", "speed=4.9e-324"],
            "is out of range; allowed: a finite number in [0.02, 0.5]",
        ),
    ];
    for (args, said) in cases {
        let out = pbm(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: ") && err.contains(said), "{args:?}: {err}");
    }
}

/// `pbm practice` with its reader's folders in `dir`.
fn practice(dir: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pbm"))
        .arg("practice")
        .args(args)
        .env("PBM_PRACTICE_DIR", dir)
        .output()
        .unwrap()
}

#[test]
fn practice_lists_its_tasks_as_json_and_start_never_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let out = practice(dir.path(), &["--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let tasks = json["tasks"].as_array().unwrap();
    // At least four tasks in every chapter from the first to the eleventh.
    assert!(tasks.len() >= 44, "{} tasks", tasks.len());
    for number in 1..=11 {
        let n = tasks.iter().filter(|t| t["chapter"] == number).count();
        assert!(n >= 4, "chapter {number} has {n} tasks");
    }
    let chapters = pbm::chapters().len() as u64;
    for task in tasks {
        let id = task["id"].as_str().unwrap();
        assert!(id.contains('/'), "{id}");
        assert!(
            task["chapter"].as_u64().is_some_and(|c| (1..=chapters).contains(&c)),
            "{task}"
        );
        assert!(task["page"].as_str().unwrap().contains(".html#eq-"), "{task}");
        assert!((1..=3).contains(&task["difficulty"].as_u64().unwrap()), "{task}");
    }
    let start = practice(dir.path(), &["start", "ode/rk4"]);
    assert!(start.status.success(), "{}", stderr(&start));
    let file = dir.path().join("ode-rk4/rk4.rs");
    std::fs::write(&file, "my own work").unwrap();
    let again = practice(dir.path(), &["start", "ode/rk4"]);
    assert!(again.status.success());
    assert!(String::from_utf8_lossy(&again.stdout).contains("left as it is"));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "my own work");
    let hint = practice(dir.path(), &["hint", "ode/rk4"]);
    assert!(String::from_utf8_lossy(&hint.stdout).starts_with("hint 1 of "));
    let early = practice(dir.path(), &["solution", "ode/rk4"]);
    assert_eq!(early.status.code(), Some(2), "{}", stderr(&early));
    let unknown = practice(dir.path(), &["start", "ode/rk5"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(stderr(&unknown).contains("ode/rk4"), "{}", stderr(&unknown));
}

/// Builds the practice runner (release): run by CI after the book build, with
/// `cargo test --test cli -- --ignored`.
#[test]
#[ignore = "compiles the practice runner in release; CI runs it after the book build"]
fn practice_check_says_not_implemented_passes_the_solution_and_diagnoses_a_mutant() {
    let dir = tempfile::tempdir().unwrap();
    assert!(practice(dir.path(), &["start", "ode/rk4"]).status.success());
    let stub = practice(dir.path(), &["check", "ode/rk4"]);
    assert_eq!(stub.status.code(), Some(1), "{}", stderr(&stub));
    let said = String::from_utf8_lossy(&stub.stdout).to_string();
    assert!(said.contains("not yet implemented"), "{said}");
    let solution = practice(dir.path(), &["solution", "ode/rk4"]);
    assert!(solution.status.success(), "{}", stderr(&solution));
    // The whole file, imports and all: pasted over the stub it compiles and passes.
    let code = String::from_utf8_lossy(&solution.stdout).to_string();
    let file = dir.path().join("ode-rk4/rk4.rs");
    std::fs::write(&file, &code).unwrap();
    let right = practice(dir.path(), &["check", "ode/rk4"]);
    let said = String::from_utf8_lossy(&right.stdout).to_string();
    assert!(right.status.success(), "{said}{}", stderr(&right));
    assert!(said.starts_with("✓ ode/rk4") && said.contains("order"), "{said}");
    let mutant = code.replace(
        "h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i])",
        "h / 4.0 * (k1[i] + k2[i] + k3[i] + k4[i])",
    );
    assert_ne!(mutant, code, "the mutant must change the solution");
    std::fs::write(&file, mutant).unwrap();
    let wrong = practice(dir.path(), &["check", "ode/rk4"]);
    let said = String::from_utf8_lossy(&wrong.stdout).to_string();
    assert_eq!(wrong.status.code(), Some(1), "{said}");
    assert!(said.contains("k₂ and k₃ are weighted"), "{said}");
    // Every task's stub compiles with its check, which says it is not implemented yet.
    let dir = tempfile::tempdir().unwrap();
    let list = practice(dir.path(), &["--json"]);
    let json: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    for task in json["tasks"].as_array().unwrap() {
        let id = task["id"].as_str().unwrap();
        assert!(practice(dir.path(), &["start", id]).status.success(), "{id}");
        let out = practice(dir.path(), &["check", id]);
        let said = String::from_utf8_lossy(&out.stdout).to_string();
        assert_eq!(out.status.code(), Some(1), "{id}: {said}{}", stderr(&out));
        assert!(said.contains("not yet implemented"), "{id}: {said}");
    }
}

/// Builds the practice runner (release), as the test above: a reader's prints are
/// shown after the verdict, never taken for the report, and two checks started
/// together each report their own result.
#[test]
#[ignore = "compiles the practice runner in release; CI runs it after the book build"]
fn practice_check_shows_the_readers_prints_and_keeps_two_checks_apart() {
    let (right_dir, wrong_dir) =
        (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    for dir in [&right_dir, &wrong_dir] {
        assert!(practice(dir.path(), &["start", "ode/rk4"]).status.success());
    }
    // The book's answer is shown only to a reader who has tried.
    assert_eq!(
        practice(right_dir.path(), &["check", "ode/rk4"]).status.code(),
        Some(1)
    );
    let solution = practice(right_dir.path(), &["solution", "ode/rk4"]);
    let solution = String::from_utf8_lossy(&solution.stdout).to_string();
    // The body's first line prints to both streams, as a reader debugging would.
    let body = solution
        .find("pub fn")
        .and_then(|f| solution[f..].find('{').map(|b| f + b + 1));
    let body = body.expect("the solution has a function");
    let loud = format!(
        "{}\n    println!(\"hello from stdout\");\n    eprintln!(\"hello from stderr\");{}",
        &solution[..body],
        &solution[body..]
    );
    std::fs::write(right_dir.path().join("ode-rk4/rk4.rs"), &loud).unwrap();
    let mutant = solution.replace(
        "h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i])",
        "h / 4.0 * (k1[i] + k2[i] + k3[i] + k4[i])",
    );
    std::fs::write(wrong_dir.path().join("ode-rk4/rk4.rs"), &mutant).unwrap();
    let (right, wrong) = std::thread::scope(|s| {
        let right = s.spawn(|| practice(right_dir.path(), &["check", "ode/rk4"]));
        let wrong = s.spawn(|| practice(wrong_dir.path(), &["check", "ode/rk4"]));
        (right.join().unwrap(), wrong.join().unwrap())
    });
    let said = String::from_utf8_lossy(&right.stdout).to_string();
    assert!(right.status.success(), "{said}{}", stderr(&right));
    assert!(said.starts_with("✓ ode/rk4"), "{said}");
    assert!(said.contains("your code printed:"), "{said}");
    assert!(
        said.contains("| hello from stdout") && said.contains("| hello from stderr"),
        "{said}"
    );
    let said = String::from_utf8_lossy(&wrong.stdout).to_string();
    assert_eq!(wrong.status.code(), Some(1), "{said}");
    assert!(
        said.starts_with("✗ ode/rk4") && said.contains("k₂ and k₃ are weighted"),
        "{said}"
    );
}

/// The book's answer to `id` in `dir`, after a first check of the stub (the answer is
/// shown only to a reader who has tried).
fn tried_solution(dir: &std::path::Path, id: &str) -> String {
    assert!(practice(dir, &["start", id]).status.success(), "{id}");
    assert_eq!(practice(dir, &["check", id]).status.code(), Some(1), "{id}");
    let solution = practice(dir, &["solution", id]);
    assert!(solution.status.success(), "{}", stderr(&solution));
    String::from_utf8_lossy(&solution.stdout).to_string()
}

/// Builds the practice runner (release), as the tests above: what goes wrong before
/// or outside the reader's arithmetic is said in the reader's terms: rustc's own
/// message with its notes, at the reader's line; a changed signature as the call the
/// book makes; a warning about the reader's file on a pass; a panic inside nalgebra
/// at the reader's line that called it; an abort as an abort.
#[test]
#[ignore = "compiles the practice runner in release; CI runs it after the book build"]
fn practice_check_says_compile_errors_warnings_library_panics_and_aborts_plainly() {
    let dir = tempfile::tempdir().unwrap();
    let solution = tried_solution(dir.path(), "ode/rk4");
    let file = dir.path().join("ode-rk4/rk4.rs");
    let check = |code: &str| {
        std::fs::write(&file, code).unwrap();
        let out = practice(dir.path(), &["check", "ode/rk4"]);
        (out.status.code(), String::from_utf8_lossy(&out.stdout).to_string())
    };
    // A changed signature: the call the book makes, with rustc's notes.
    let (code, said) = check(&solution.replace("h: f64)", "h: f32)"));
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("calls your function as the stub declares it"), "{said}");
    assert!(
        said.contains("pub fn rk4_step(system: &mut dyn OdeSystem, h: f64)"),
        "{said}"
    );
    assert!(said.contains("= note: expected fn pointer"), "{said}");
    assert!(!said.contains("glue.rs"), "{said}");
    // A type error in the reader's own file: rustc's rendering, at their line.
    let (code, said) = check(
        &solution.replace("let t0 = system.time();", "let t0: u32 = system.time();"),
    );
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("error[E0308]: mismatched types"), "{said}");
    assert!(said.contains("ode-rk4/rk4.rs:"), "{said}");
    // A dropped `?` compiles; the check finds the error it drops, and rustc's warning
    // is shown beside the verdict.
    let quiet = solution
        .replace("system.derivative(&mut out)?;", "system.derivative(&mut out);");
    assert_ne!(quiet, solution);
    let (code, said) = check(&quiet);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("pass the error"), "{said}");
    assert!(said.contains("the compiler warns about your file"), "{said}");
    assert!(said.contains("unused `Result`"), "{said}");
    // A shape error inside nalgebra, at the reader's line that made it.
    let body = solution.find("let t0 = system.time();").unwrap();
    let line = solution[..body].lines().count();
    let shapes = format!(
        "{}let _ = nalgebra::DMatrix::<f64>::zeros(2, 3) * nalgebra::DVector::<f64>::zeros(2);\n    {}",
        &solution[..body],
        &solution[body..]
    );
    let (code, said) = check(&shapes);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("your code panicked"), "{said}");
    assert!(said.contains(&format!("rk4.rs:{line}")), "line {line}: {said}");
    assert!(said.contains("nalgebra"), "{said}");
    // An abort.
    let (code, said) = check(&solution.replace(
        "let t0 = system.time();",
        "std::process::abort();\n    let t0 = system.time();",
    ));
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("aborted"), "{said}");
}

/// Builds the practice runner (release), as the tests above: `practice watch` checks,
/// checks again when the file is saved, and on a pass starts the next task.
#[test]
#[ignore = "compiles the practice runner in release; CI runs it after the book build"]
fn practice_check_in_watch_mode_rechecks_on_save_and_moves_on() {
    use std::io::BufRead as _;
    let dir = tempfile::tempdir().unwrap();
    let solution = tried_solution(dir.path(), "ode/rk4");
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbm"))
        .args(["practice", "watch", "ode/rk4"])
        .env("PBM_PRACTICE_DIR", dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let (send, lines) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
            if send.send(line).is_err() {
                break;
            }
        }
    });
    let mut seen = String::new();
    let mut wait_for = |text: &str| {
        let until = std::time::Instant::now() + std::time::Duration::from_secs(300);
        while !seen.contains(text) {
            let left = until.saturating_duration_since(std::time::Instant::now());
            match lines.recv_timeout(left) {
                Ok(line) => seen.push_str(&(line + "\n")),
                Err(_) => return Err(seen.clone()),
            }
        }
        Ok(())
    };
    let first = wait_for("not yet implemented");
    // Saved: checked again without a command, and passed.
    std::fs::write(dir.path().join("ode-rk4/rk4.rs"), &solution).unwrap();
    let again = first.and_then(|()| wait_for("rk4.rs changed: checking again"));
    let passed = again.and_then(|()| wait_for("✓ ode/rk4"));
    // Then on to the next task, its stub written and checked.
    let next = passed.and_then(|()| wait_for("ode/rk4 passed; next:"));
    let _ = child.kill();
    let _ = child.wait();
    if let Err(seen) = next {
        panic!("watch said:\n{seen}");
    }
}
