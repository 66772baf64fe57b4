//! The browser test of the built book (`browser/check-book.mjs`, headless Chromium) from
//! `cargo test --test browser -- --ignored` (it takes a minute and more, so plain `cargo test`
//! leaves it out). It runs where Chromium, Node.js, the test's npm package and a current build
//! of the book are all present; elsewhere it prints one line saying what is missing and how to
//! run it, and passes. CI builds the book and runs the browser test itself (`.ci/run`).

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use std::io::Write;
use std::path::Path;
use std::process::Command;
use std::time::SystemTime;

/// The newest modification time of any file under `dir`.
fn newest(dir: &Path) -> Option<SystemTime> {
    let mut latest = None;
    for entry in std::fs::read_dir(dir).ok()? {
        let entry = entry.ok()?;
        let path = entry.path();
        let time = if path.is_dir() {
            newest(&path)
        } else {
            entry.metadata().ok()?.modified().ok()
        };
        latest = newest_of(latest, time);
    }
    latest
}

fn newest_of(a: Option<SystemTime>, b: Option<SystemTime>) -> Option<SystemTime> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    }
}

/// What the browser test needs that this machine lacks, if anything.
fn missing(root: &Path) -> Vec<String> {
    let chromium =
        std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let mut missing = Vec::new();
    if !Path::new(&chromium).exists() {
        missing.push(format!("no Chromium at {chromium}"));
    }
    if Command::new("node").arg("--version").output().is_err() {
        missing.push("no Node.js".into());
    }
    if !root.join("browser/node_modules/playwright-core").exists() {
        missing.push("browser/node_modules not installed".into());
    }
    let built = std::fs::metadata(root.join("book/build/index.html"))
        .and_then(|m| m.modified())
        .ok();
    match built {
        None => missing.push("the book is not built".into()),
        Some(built)
            if newest(&root.join("book/src")).is_some_and(|src| src > built) =>
        {
            missing.push("book/build is older than book/src".into())
        }
        Some(_) => {}
    }
    // The demos' checks compare the page with the command line's output.
    if !root.join("target/release/pbm").exists() {
        missing.push("no release build of pbm (target/release/pbm)".into());
    }
    let module = std::fs::read_to_string(root.join("book/build/demos/pbm-web.js"));
    if !module.is_ok_and(|m| m.contains("window.pbmWasm = \"")) {
        missing.push("the book was built without the demos' module".into());
    }
    missing
}

#[test]
#[ignore = "a minute and more in Chromium: `cargo test --test browser -- --ignored`; CI runs it"]
fn the_built_book_passes_the_browser_test_where_a_browser_exists() {
    let root = pbm::repo_root();
    let missing = missing(&root);
    if !missing.is_empty() {
        // Written to the stream itself, not through the test harness's capture, so that
        // `cargo test` shows it.
        let _ = writeln!(
            std::io::stderr(),
            "browser test skipped ({}): run `cargo run --release`, then \
             `cd browser && npm ci && node check-book.mjs`",
            missing.join("; ")
        );
        return;
    }
    let run = Command::new("node")
        .arg("check-book.mjs")
        .current_dir(root.join("browser"))
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "browser test failed:\n{report}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(report.contains("browser test: "), "{report}");
}
