//! Program output and the numbers sentences quote are generated (`pbm book` writes
//! `book/src/output/`) and included, never pasted. These tests fail when a page shows
//! output or a number the code no longer prints: change an exercise and forget to
//! rebuild the book, and the page is caught stale.
//!
//! Plain `cargo test` reruns every registered run but those of the few exercises that
//! take seconds in a test build (marked `heavy` in their chapter); CI reruns all of them in release
//! (`cargo test --release --test output -- --include-ignored`, in `.ci/run`).

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use pbm::output::{
    all_shown, json, json_name, matches, run, stale, text, text_name, text_of_json,
};
use pbm::values::references;
use pbm_prelim::Shown;
use rayon::prelude::*;
use std::collections::BTreeSet;
use std::fs;
use std::path::PathBuf;

fn output_dir() -> PathBuf {
    pbm::repo_root().join("book/src/output")
}

#[test]
fn every_light_output_and_value_file_is_what_the_code_prints_now() {
    let chapters = pbm::chapters();
    let heavy: Vec<String> = chapters
        .iter()
        .flat_map(|c| {
            c.exercises
                .iter()
                .filter(|e| e.heavy)
                .map(|e| format!("{}/{}", c.id, e.id))
        })
        .collect();
    check_outputs(|id| !heavy.iter().any(|h| h == id));
}

#[test]
#[ignore = "every registered run, the heavy ones too: CI runs it in release"]
fn every_shown_output_and_value_file_is_what_the_code_prints_now() {
    check_outputs(|_| true);
}

fn check_outputs(keep: impl Fn(&str) -> bool + Sync) {
    let chapters = pbm::chapters();
    let shown: Vec<&Shown> = all_shown(&chapters)
        .into_iter()
        .map(|(_, s)| s)
        .filter(|s| keep(s.id))
        .collect();
    // The runs are independent: two at a time on two cores.
    let failures: Vec<String> = shown
        .into_par_iter()
        .flat_map_iter(|shown| {
            let names = stale(shown, &chapters, &output_dir()).unwrap();
            names.into_iter().map(|name| {
                let outcome = run(shown, &chapters).unwrap();
                let now = if name.ends_with(".json") {
                    json(shown, &outcome, false).unwrap_or_default()
                } else {
                    text(shown, &outcome, false)
                };
                format!("{name} is stale; the code now prints\n{now}")
            })
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{}\nRebuild the book (`cargo run --release`) and review the change.",
        failures.join("\n")
    );
}

#[test]
fn pages_use_exactly_the_registered_runs() {
    let chapters = pbm::chapters();
    let shown = all_shown(&chapters);
    let known: BTreeSet<String> = shown.iter().map(|(_, s)| s.stem()).collect();
    assert_eq!(known.len(), shown.len(), "two registered runs write the same files");
    let console: BTreeSet<String> =
        shown.iter().filter(|(_, s)| s.console).map(|(_, s)| s.stem()).collect();
    let mut included = BTreeSet::new();
    for (chapter, s) in &shown {
        assert!(
            pbm::find_exercise(&chapters, s.id).is_ok(),
            "chapter {} registers a run of unknown exercise {}",
            chapter.id,
            s.id
        );
    }
    let mut used = BTreeSet::new();
    for page in glob_pages() {
        let text = fs::read_to_string(&page).unwrap();
        for (i, _) in text.match_indices("{{#include ../output/") {
            let rest = &text[i + "{{#include ../output/".len()..];
            let name = &rest[..rest.find("}}").unwrap()];
            let stem = name.strip_suffix(".txt").unwrap_or(name).to_string();
            assert!(
                console.contains(&stem),
                "{} includes output {name} of no run registered as a console block \
                 (`Shown::run`)",
                page.display()
            );
            included.insert(stem.clone());
            used.insert(stem);
        }
        for reference in references(&text) {
            let reference = reference.unwrap_or_else(|e| {
                panic!("{}: a malformed value: {e}", page.display())
            });
            assert!(
                known.contains(&reference.stem()),
                "{}: {} {} is not registered; add {}",
                page.display(),
                reference.id,
                reference.set.join(" "),
                reference.registration()
            );
            used.insert(reference.stem());
        }
        // No console block shows output typed by hand: commands (`$ ...`, going on
        // over lines that end in a backslash) and included output only. A block
        // inside a list item is indented with it.
        for block in text.split("```console\n").skip(1) {
            let body = block[..block.find("```").unwrap()].replace(" \\\n", " ");
            for line in body.lines().map(str::trim_start).filter(|l| !l.is_empty()) {
                assert!(
                    line.starts_with("{{#include ../output/")
                        || line.starts_with("$ "),
                    "{}: console block written by hand: `{line}`",
                    page.display()
                );
            }
        }
    }
    let unused: Vec<_> = known.difference(&used).collect();
    assert!(unused.is_empty(), "runs registered but shown on no page: {unused:?}");
    let not_included: Vec<_> = console.difference(&included).collect();
    assert!(
        not_included.is_empty(),
        "console blocks no page includes (register them with `Shown::values` if only \
         their numbers are quoted): {not_included:?}"
    );
    // Every file in the output folder belongs to a registered run.
    for entry in fs::read_dir(output_dir()).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let stem = name.trim_end_matches(".txt").trim_end_matches(".json");
        assert!(
            known.contains(stem),
            "book/src/output/{name} belongs to no registered run"
        );
    }
}

#[test]
fn a_stale_output_or_value_is_caught() {
    // The check can fail: the committed files with one number changed are not current.
    let chapters = pbm::chapters();
    let shown = Shown::run("rigid/translation-free").set(&["f=2"]);
    let outcome = run(&shown, &chapters).unwrap();
    let page = text(&shown, &outcome, false);
    assert!(matches(&text(&shown, &outcome, true), &page));
    let stale_page = page.replace("12", "13");
    assert_ne!(stale_page, page);
    assert!(!matches(&text(&shown, &outcome, true), &stale_page));
    let value = json(&shown, &outcome, false).unwrap();
    let stale_value = value.replace("12", "13");
    assert_ne!(stale_value, value);
    assert!(!matches(&json(&shown, &outcome, true).unwrap(), &stale_value));
    assert_eq!(text_name(&shown), "rigid-translation-free--f=2.txt");
    assert_eq!(json_name(&shown), "rigid-translation-free--f=2.json");
}

#[test]
fn every_console_block_shows_the_numbers_of_its_json() {
    // A sentence quotes a run through its JSON, and the console block beside it shows
    // the same run's table. Timings differ from run to run, so the staleness checks
    // above accept any timing in either file; this one holds the two files to one
    // run: the block must be the table printed from the committed JSON (rounded to
    // six digits, as the table prints), timings included.
    let chapters = pbm::chapters();
    let mut problems = Vec::new();
    for (_, shown) in all_shown(&chapters) {
        let (txt, json) = (output_dir().join(text_name(shown)), json_name(shown));
        let Ok(committed) = fs::read_to_string(&txt) else { continue };
        let Ok(numbers) = fs::read_to_string(output_dir().join(&json)) else {
            continue;
        };
        if !shown.console {
            continue;
        }
        let from_json = text_of_json(shown, &numbers).unwrap();
        if from_json != committed {
            problems.push(format!(
                "{} does not show the run of {json}; from the JSON it reads\n{from_json}",
                text_name(shown)
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "{}\nRebuild the book (`cargo run --release`): it writes a run's two files \
         together.",
        problems.join("\n")
    );
}

#[test]
fn every_key_a_console_block_names_is_in_its_result() {
    // A key a block shows or hides that the run no longer prints would leave the
    // block silently showing less, or more, than its page says.
    let chapters = pbm::chapters();
    let mut problems = Vec::new();
    for (_, shown) in all_shown(&chapters) {
        let path = output_dir().join(json_name(shown));
        let Ok(json) = fs::read_to_string(&path) else { continue };
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        for key in shown.keys.iter().chain(shown.hidden) {
            if value.get(key).is_none() {
                problems.push(format!("{}: no key `{key}`", json_name(shown)));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

fn glob_pages() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let root = pbm::repo_root().join("book/src");
    for entry in fs::read_dir(&root).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            for page in fs::read_dir(&path).unwrap() {
                let page = page.unwrap().path();
                if page.extension().is_some_and(|e| e == "md") {
                    out.push(page);
                }
            }
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
    out
}

#[test]
fn a_run_that_now_ends_in_an_error_leaves_no_numbers_to_quote() {
    // A page quoting a run that a limit now refuses must not read the numbers the run
    // printed when it still succeeded: its JSON file is stale.
    let chapters = pbm::chapters();
    // A run that fails where its registration does not say so is refused outright.
    let unannounced = Shown::values("ode/stability").set(&["h=1000"]);
    let e = run(&unannounced, &chapters).unwrap_err().to_string();
    assert!(e.contains("`.failing()`"), "{e}");
    // One the page shows failing runs, and leaves no numbers to quote.
    let refused = unannounced.failing();
    assert!(run(&refused, &chapters).unwrap().is_err(), "h=1000 is out of range");
    // And one registered as failing that succeeds is refused too.
    let e = run(&Shown::values("ode/stability").failing(), &chapters).unwrap_err();
    assert!(e.to_string().contains("but succeeded"), "{e}");
    let dir = std::env::temp_dir().join(format!("pbm-stale-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    assert!(stale(&refused, &chapters, &dir).unwrap().is_empty());
    fs::write(dir.join(json_name(&refused)), "{\"x\": 1.0}\n").unwrap();
    let found = stale(&refused, &chapters, &dir).unwrap();
    fs::remove_dir_all(&dir).unwrap();
    assert_eq!(found, vec![json_name(&refused)]);
}

#[test]
#[ignore = "runs every command the pages show, in release: CI"]
fn every_command_a_page_shows_runs_in_release_in_seconds() {
    // The quick check (tests/book.rs) holds each command to its ranges and joint limits;
    // this one types it as the reader does, through the binary, and times it. A command
    // must exit 0 within ten seconds: twice the budget a work limit is measured for.
    const LIMIT: std::time::Duration = std::time::Duration::from_secs(10);
    let book_src = pbm::repo_root().join("book/src");
    let mut seen = BTreeSet::new();
    let mut problems = Vec::new();
    for (page, command) in pbm::commands::in_book(&book_src).unwrap() {
        if !seen.insert(command.text.clone()) {
            continue;
        }
        let mut args = vec!["run".to_string(), command.id.clone()];
        for set in &command.set {
            args.extend(["--set".to_string(), set.clone()]);
        }
        if command.json {
            args.push("--json".into());
        }
        let start = std::time::Instant::now();
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_pbm"))
            .args(&args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break Some(status);
            }
            if start.elapsed() > LIMIT {
                child.kill().unwrap();
                child.wait().unwrap();
                break None;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        let seconds = start.elapsed().as_secs_f64();
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr)
            .unwrap();
        let place = format!("{page}:{}: {}", command.line, command.text);
        match status {
            None => problems.push(format!("{place}: still running after {LIMIT:?}")),
            Some(s) if !s.success() => problems.push(format!(
                "{place}: exit {s} in {seconds:.1} s: {}",
                stderr.trim()
            )),
            Some(_) => eprintln!("{seconds:6.2} s  {place}"),
        }
    }
    assert!(seen.len() > 80, "only {} distinct commands", seen.len());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
