//! `pbm practice`: the reader implements a method, and the chapter's own checks say
//! what is wrong. The tasks are the chapters' ([`pbm_prelim::practice::Task`], each
//! crate's `practice` module); this module lists them, writes the reader's starting
//! file, and checks it: it writes `practice/.check/glue.rs` (the reader's file as a
//! module and the chapter's check on it), builds `pbm-practice-runner` with it in the
//! release profile the book is built with, and runs it under a time limit.
//!
//! The reader's folder is `practice/<chapter>-<task>/` (or under `PBM_PRACTICE_DIR`)
//! and theirs alone: `start`
//! never overwrites it, and git ignores it. Beside their file it keeps `.hints` (how
//! many hints were shown), `.tried` and `.passed`.

use crate::equations::Equations;
use crate::error::Error;
use pbm_prelim::Chapter;
use pbm_prelim::practice::{Task, difficulty_mark};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long a check may run once built, before it is stopped as a loop that does not
/// end.
pub const TIME_LIMIT: Duration = Duration::from_secs(30);

/// Every task, chapter by chapter.
pub fn tasks(chapters: &[Chapter]) -> Vec<&'static Task> {
    chapters.iter().flat_map(|c| c.practice.iter()).collect()
}

/// The task `id`; the error lists the tasks there are.
pub fn find_task(chapters: &[Chapter], id: &str) -> Result<&'static Task, Error> {
    let all = tasks(chapters);
    all.iter().find(|t| t.id == id).copied().ok_or_else(|| Error::UnknownTask {
        name: id.to_string(),
        known: all.iter().map(|t| t.id).collect::<Vec<_>>().join(", "),
    })
}

/// The environment variable that moves the reader's folders elsewhere (the tests
/// use it); by default they are under `practice/` at the repository's root.
pub const PRACTICE_DIR: &str = "PBM_PRACTICE_DIR";

/// The reader's folder for `task` under the repository `root`.
pub fn folder(root: &Path, task: &Task) -> PathBuf {
    let base = std::env::var_os(PRACTICE_DIR)
        .map_or_else(|| root.join("practice"), PathBuf::from);
    base.join(task.id.replace('/', "-"))
}

/// Where a task's equation is in the built book: `01-ode/euler.html#eq-1-1` and
/// its number `(1.1)`, if the sources number it.
fn anchor(equations: Option<&Equations>, task: &Task) -> (String, String) {
    let html = task.page.replace(".md", ".html");
    match equations.and_then(|e| e.get(task.equation)) {
        Some(eq) => (format!("{html}#{}", eq.id()), eq.number()),
        None => (html, String::new()),
    }
}

/// The tasks as `pbm practice --json` prints them: `{"tasks": [{"id": …}, …]}`.
pub fn list_json(chapters: &[Chapter], root: &Path) -> Value {
    let equations = Equations::of_book(&root.join("book/src")).ok();
    let tasks: Vec<Value> = chapters
        .iter()
        .flat_map(|c| c.practice.iter().map(move |t| (c, t)))
        .map(|(chapter, task)| {
            let (page, number) = anchor(equations.as_ref(), task);
            json!({
                "id": task.id,
                "chapter": chapter.number,
                "title": task.title,
                "section": task.section,
                "page": page,
                "equation": number,
                "difficulty": task.difficulty,
                "file": task.file,
                "started": folder(root, task).join(task.file).is_file(),
                "passed": folder(root, task).join(".passed").is_file(),
            })
        })
        .collect();
    json!({ "tasks": tasks })
}

/// The tasks as text, chapter by chapter, with ✓ for those passed.
pub fn list_text(chapters: &[Chapter], root: &Path) -> String {
    let mut out = String::new();
    let width =
        tasks(chapters).iter().map(|t| t.id.chars().count()).max().unwrap_or(0);
    for chapter in chapters.iter().filter(|c| !c.practice.is_empty()) {
        out.push_str(&format!("{} {}\n", chapter.number, chapter.title));
        for task in chapter.practice {
            let dir = folder(root, task);
            let state = if dir.join(".passed").is_file() {
                "✓"
            } else if dir.join(task.file).is_file() {
                "…"
            } else {
                " "
            };
            out.push_str(&format!(
                "  {state} {} {:<width$}  {}\n",
                difficulty_mark(task.difficulty),
                task.id,
                task.title
            ));
        }
    }
    out.push_str(
        "\n✓ passed, … started. Begin with `pbm practice start CHAPTER/TASK`.\n",
    );
    out
}

/// Writes the reader's starting file, unless it is there: then it is left as it is,
/// and the message says so.
pub fn start(root: &Path, task: &Task) -> Result<String, Error> {
    let dir = folder(root, task);
    let file = dir.join(task.file);
    if file.exists() {
        return Ok(format!(
            "{} already exists and is left as it is; check it with `pbm practice check {}`",
            file.display(),
            task.id
        ));
    }
    std::fs::create_dir_all(&dir)
        .map_err(|source| Error::Write { path: dir.clone(), source })?;
    let equations = Equations::of_book(&root.join("book/src")).ok();
    let (page, number) = anchor(equations.as_ref(), task);
    let header = format!(
        "// {} {}: {}. Read \"{}\", book/build/{page}{}.\n",
        difficulty_mark(task.difficulty),
        task.id,
        task.title,
        task.section,
        if number.is_empty() {
            String::new()
        } else {
            format!(", equation {number}")
        },
    );
    std::fs::write(&file, header + task.stub)
        .map_err(|source| Error::Write { path: file.clone(), source })?;
    Ok(format!(
        "wrote {}: fill in the function, then `pbm practice check {}` ({} hints: `pbm \
         practice hint {}`)",
        file.display(),
        task.id,
        task.hints.len(),
        task.id
    ))
}

/// The module name of `task` in the editor's crate: `ode/rk4` → `ode_rk4`.
fn module(task: &Task) -> String {
    task.id.replace(['/', '-'], "_")
}

/// `practice/src/lib.rs`, the editor's crate (`pbm-practice`): every task's file as a
/// module, each behind the cfg its build script sets once the reader has started it,
/// so rust-analyzer checks and completes the reader's files where they are. `pbm book`
/// writes it; a test requires the committed one to be this.
pub fn editor_lib(chapters: &[Chapter]) -> String {
    let mut text = String::from(
        "//! Your practice files, one module a task, so that an editor's Rust support \
         checks\n//! and completes them where they are. A task's module is there once \
         `pbm practice\n//! start` has written its file (`build.rs`); \
         `pbm practice check` builds it with\n//! the book's checks instead. Written by \
         `pbm book` from the chapters' tasks;\n//! `rustfmt::skip` keeps `cargo fmt` \
         from looking for files not started.\n",
    );
    for task in tasks(chapters) {
        text.push_str(&format!(
            "\n/// `{}`: {}.\n#[rustfmt::skip]\n#[cfg(started_{m})]\n#[path = \"../{}/{}\"]\npub mod {m};\n",
            task.id,
            task.title,
            task.id.replace('/', "-"),
            task.file,
            m = module(task),
        ));
    }
    text
}

/// `practice/Cargo.toml`, the editor's crate's manifest: a dependency on every chapter's
/// crate (`pbm-<id>`, with `book`), pbm-prelim, and any other crate a task's file names in
/// its `use` lines (nalgebra), so that the list of chapters stays written once. `pbm book`
/// writes it beside [`editor_lib`].
pub fn editor_manifest(chapters: &[Chapter]) -> String {
    let mut crates: std::collections::BTreeSet<String> =
        chapters.iter().map(|c| format!("pbm-{}", c.id)).collect();
    crates.insert("pbm-prelim".to_string());
    for task in tasks(chapters) {
        for line in task.stub.lines() {
            if let Some(path) = line.trim_start().strip_prefix("use ") {
                let name: String = path
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !matches!(
                    name.as_str(),
                    "std" | "core" | "alloc" | "crate" | "self" | "super"
                ) {
                    crates.insert(name.replace('_', "-"));
                }
            }
        }
    }
    let mut text = String::from(
        "# Written by `pbm book` from the crates the tasks' files name (book-tools/src/practice.rs).\n\
         [package]\n\
         name = \"pbm-practice\"\n\
         version = \"0.1.0\"\n\
         description = \"Your practice files as one crate, so that an editor's Rust support \
         (rust-analyzer) checks and completes them; `pbm practice check` builds each with the \
         book's checks instead\"\n\
         edition.workspace = true\n\
         rust-version.workspace = true\n\
         license.workspace = true\n\
         publish.workspace = true\n\
         \n\
         [dependencies]\n",
    );
    for name in crates {
        if name.starts_with("pbm-") {
            text.push_str(&format!(
                "{name} = {{ workspace = true, features = [\"book\"] }}\n"
            ));
        } else {
            text.push_str(&format!("{name}.workspace = true\n"));
        }
    }
    text
}

/// The next hint (each call shows one more, then the last again).
pub fn hint(root: &Path, task: &Task) -> Result<String, Error> {
    let dir = folder(root, task);
    let seen_file = dir.join(".hints");
    let seen: usize = std::fs::read_to_string(&seen_file)
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0);
    let Some(last) = task.hints.len().checked_sub(1) else {
        return Ok(format!("{} has no hints", task.id));
    };
    let shown = seen.min(last);
    if dir.is_dir() {
        std::fs::write(&seen_file, (shown + 1).to_string())
            .map_err(|source| Error::Write { path: seen_file, source })?;
    }
    Ok(format!("hint {} of {}: {}", shown + 1, task.hints.len(), task.hints[shown]))
}

/// The book's answer, once the reader has run a check at least once: the whole
/// answer file, the stub's imports and signature with the book's body, without the
/// page's anchor lines, so that pasted over the stub it compiles and passes.
pub fn solution(root: &Path, task: &Task) -> Result<String, Error> {
    if !folder(root, task).join(".tried").is_file() {
        return Err(Error::Practice(format!(
            "try it first: `pbm practice start {0}`, then `pbm practice check {0}`; the \
             solution is there after one check",
            task.id
        )));
    }
    if task.solution.text().is_none() {
        return Err(Error::Practice(format!("{}: the solution is missing", task.id)));
    }
    let lines: Vec<&str> = task
        .solution
        .source
        .lines()
        .filter(|l| !l.trim_start().starts_with("// ANCHOR"))
        .collect();
    Ok(lines.join("\n").trim().to_string() + "\n")
}

/// The signature the book calls the reader's function with: the stub's first
/// `pub fn …` up to its body, whitespace folded.
pub fn signature(stub: &str) -> Option<String> {
    let start = stub.find("pub fn ")?;
    let end = start + stub[start..].find(" {")?;
    Some(stub[start..end].split_whitespace().collect::<Vec<_>>().join(" "))
}

/// What a check found.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    /// Whether the reader's function passed.
    pub passed: bool,
    /// What to tell the reader.
    pub lines: Vec<String>,
    /// What the reader's code printed, each stream under its heading, cut to a
    /// screenful.
    pub printed: Vec<String>,
    /// The compiler's warnings about the reader's file, as rustc renders them (shown
    /// on a pass too: `derivative(…);` without `?` compiles, and drops an error).
    pub warnings: Vec<String>,
}

impl Checked {
    fn failed(lines: Vec<String>) -> Checked {
        Checked { passed: false, lines, printed: Vec::new(), warnings: Vec::new() }
    }

    /// The verdict as `pbm practice check` prints it: ✓ or ✗ and the task, the
    /// report's lines wrapped to [`WIDTH`] columns, the compiler's warnings, then
    /// what the reader's code printed.
    pub fn text(&self, id: &str) -> String {
        let mark = if self.passed { "✓" } else { "✗" };
        let mut text = format!("{mark} {id}\n");
        for line in &self.lines {
            if line.contains('\n') {
                // rustc's rendering: its columns matter, so it is never wrapped.
                for part in line.lines() {
                    text.push_str(&format!("  {part}\n"));
                }
            } else {
                text.push_str(&wrap(line, "  ", "    "));
            }
        }
        if !self.warnings.is_empty() {
            text.push_str("the compiler warns about your file:\n");
            for warning in &self.warnings {
                for line in warning.trim_end().lines() {
                    text.push_str(&format!("  {line}\n"));
                }
            }
        }
        if !self.printed.is_empty() {
            text.push_str("your code printed:\n");
            for line in &self.printed {
                text.push_str(&format!("  {line}\n"));
            }
        }
        text
    }
}

/// The width a report's lines are wrapped to.
pub const WIDTH: usize = 86;

/// `line` wrapped at spaces to [`WIDTH`] columns, the first line after `first`, the
/// rest after `rest`; a word longer than the width stays whole.
fn wrap(line: &str, first: &str, rest: &str) -> String {
    let mut out = String::new();
    let mut current = first.to_string();
    let mut empty = true;
    for word in line.split(' ') {
        let len = current.chars().count() + 1 + word.chars().count();
        if !empty && len > WIDTH {
            out.push_str(current.trim_end());
            out.push('\n');
            current = rest.to_string();
            empty = true;
        }
        if !empty {
            current.push(' ');
        }
        current.push_str(word);
        empty = false;
    }
    out.push_str(current.trim_end());
    out.push('\n');
    out
}

/// The most lines of each of the reader's two streams shown after a verdict.
pub const PRINTED_LINES: usize = 10;

/// The reader's output as lines: each stream that printed anything under a heading of
/// its own, cut to [`PRINTED_LINES`] with a last line saying how many more there were.
fn printed(stdout: &str, stderr: &str) -> Vec<String> {
    let mut shown = Vec::new();
    for (heading, text) in [("standard output:", stdout), ("standard error:", stderr)]
    {
        let lines: Vec<&str> = text.lines().collect();
        if lines.is_empty() {
            continue;
        }
        shown.push(heading.to_string());
        shown.extend(lines.iter().take(PRINTED_LINES).map(|l| format!("| {l}")));
        if lines.len() > PRINTED_LINES {
            shown.push(format!("… and {} more lines", lines.len() - PRINTED_LINES));
        }
    }
    shown
}

/// The glue the runner includes: the reader's file as module `reader`, and the
/// chapter's check on it.
pub fn glue(task: &Task, file: &Path) -> String {
    format!(
        "// Generated by `pbm practice check {id}` (book-tools/src/practice.rs).\n\
         use pbm_chapters::*;\n\
         /// The reader's file, which names the chapters' crates as its own.\n\
         #[allow(dead_code, unused_imports, unused_variables, missing_docs)]\n\
         mod reader {{\n\
         use pbm_chapters::*;\n\
         include!({path:?});\n\
         }}\n\
         const TASK: &str = {id:?};\n\
         const FILE: &str = {path:?};\n\
         fn run() -> pbm_prelim::practice::Report {{\n    {check}\n}}\n",
        id = task.id,
        path = file.display().to_string(),
        check = task.check,
    )
}

fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// Builds the runner with the reader's code and runs the chapter's check on it.
pub fn check(
    chapters: &[Chapter],
    root: &Path,
    task: &Task,
) -> Result<Checked, Error> {
    let dir = folder(root, task);
    let file = dir.join(task.file);
    if !file.is_file() {
        return Err(Error::Practice(format!(
            "{} is not started: `pbm practice start {}` writes {}",
            task.id,
            task.id,
            file.display()
        )));
    }
    let file =
        file.canonicalize().map_err(|source| Error::Read { path: file, source })?;
    let check_dir = root.join("practice/.check");
    std::fs::create_dir_all(&check_dir)
        .map_err(|source| Error::Write { path: check_dir.clone(), source })?;
    // One check at a time: the runner is built from one glue file, and a second check
    // started meanwhile waits here rather than build or read the first one's.
    let lock_path = check_dir.join("lock");
    let lock = std::fs::File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|source| Error::Write { path: lock_path.clone(), source })?;
    lock.lock().map_err(|source| Error::Write { path: lock_path, source })?;
    let glue_file = check_dir.join("glue.rs");
    std::fs::write(&glue_file, glue(task, &file))
        .map_err(|source| Error::Write { path: glue_file.clone(), source })?;
    let tried = dir.join(".tried");
    std::fs::write(&tried, "")
        .map_err(|source| Error::Write { path: tried, source })?;
    let passed_file = dir.join(".passed");
    let _ = std::fs::remove_file(&passed_file);
    let warnings = match build(chapters, root, task, &file)? {
        Built::Ok(warnings) => warnings,
        Built::Failed(lines) => return Ok(Checked::failed(lines)),
    };
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| root.join("target"), |d| root.join(d));
    let runner = target.join("release").join("pbm-practice-runner");
    // The report on a channel of its own; the reader's prints to files, read after.
    let (report_file, out_file, err_file) = (
        check_dir.join("report.json"),
        check_dir.join("stdout.txt"),
        check_dir.join("stderr.txt"),
    );
    let _ = std::fs::remove_file(&report_file);
    let sink = |path: &Path| {
        std::fs::File::create(path)
            .map(Stdio::from)
            .map_err(|source| Error::Write { path: path.to_path_buf(), source })
    };
    let mut child = Command::new(&runner)
        .env("PBM_PRACTICE_REPORT", &report_file)
        .stdout(sink(&out_file)?)
        .stderr(sink(&err_file)?)
        .spawn()
        .map_err(|e| {
            Error::Practice(format!("cannot run {}: {e}", runner.display()))
        })?;
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() > TIME_LIMIT => {
                let _ = child.kill();
                let _ = child.wait();
                return Ok(Checked::failed(vec![format!(
                    "the checks did not finish in {} s: does a loop in your code never \
                     end?",
                    TIME_LIMIT.as_secs()
                )]));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => {
                return Err(Error::Practice(format!("the check failed to run: {e}")));
            }
        }
    };
    let read = |path: &Path| std::fs::read_to_string(path).unwrap_or_default();
    let (stdout, stderr) = (read(&out_file), read(&err_file));
    let printed = printed(&stdout, &stderr);
    let Some(report) = std::fs::read(&report_file)
        .ok()
        .and_then(|r| serde_json::from_slice::<Value>(&r).ok())
    else {
        let why = crashed(status, &stderr);
        return Ok(Checked { passed: false, lines: vec![why], printed, warnings });
    };
    let passed = report["passed"].as_bool() == Some(true);
    let lines = report["lines"]
        .as_array()
        .map(|a| a.iter().filter_map(|l| l.as_str().map(str::to_string)).collect())
        .unwrap_or_default();
    if passed {
        std::fs::write(&passed_file, "")
            .map_err(|source| Error::Write { path: passed_file, source })?;
    }
    Ok(Checked { passed, lines, printed, warnings })
}

/// How often `watch` looks at the reader's file.
pub const WATCH_EVERY: Duration = Duration::from_millis(250);

/// The task `watch` starts with when none is named: the first started and not passed,
/// else the first not passed; None when every task has passed.
pub fn next_task(
    chapters: &[Chapter],
    root: &Path,
    after: Option<&Task>,
) -> Option<&'static Task> {
    let all = tasks(chapters);
    let passed = |t: &Task| folder(root, t).join(".passed").is_file();
    let started = |t: &Task| folder(root, t).join(t.file).is_file();
    match after {
        // The next one in the book's order not yet passed, round to the start.
        Some(done) => {
            let at = all.iter().position(|t| t.id == done.id).unwrap_or(0);
            all.iter()
                .cycle()
                .skip(at + 1)
                .take(all.len())
                .find(|t| t.id != done.id && !passed(t))
                .copied()
        }
        None => all
            .iter()
            .find(|t| started(t) && !passed(t))
            .or_else(|| all.iter().find(|t| !passed(t)))
            .copied(),
    }
}

/// What identifies a version of a file: its length and time of change.
fn version(file: &Path) -> Option<(u64, std::time::SystemTime)> {
    let meta = std::fs::metadata(file).ok()?;
    Some((meta.len(), meta.modified().ok()?))
}

/// `pbm practice watch`: checks `task` (or [`next_task`]), then again each time its
/// file is saved, as rustlings does; when a check passes it starts the next task not
/// yet passed and watches that. `say` prints; it runs until every task has passed,
/// or until `say` fails (the reader closed the terminal) or the reader stops it.
pub fn watch(
    chapters: &[Chapter],
    root: &Path,
    task: Option<&'static Task>,
    say: &mut dyn FnMut(&str) -> Result<(), Error>,
) -> Result<(), Error> {
    let Some(mut task) = task.or_else(|| next_task(chapters, root, None)) else {
        return say("every task has passed: nothing to watch\n");
    };
    loop {
        let file = folder(root, task).join(task.file);
        if !file.is_file() {
            say(&(start(root, task)? + "\n"))?;
        }
        say(&format!(
            "watching {}: save it to check again (Ctrl-C stops)\n",
            file.display()
        ))?;
        let mut seen = version(&file);
        loop {
            let checked = check(chapters, root, task)?;
            say(&checked.text(task.id))?;
            if checked.passed {
                break;
            }
            // Until the file changes (a save while the check ran counts too).
            while version(&file) == seen {
                std::thread::sleep(WATCH_EVERY);
            }
            // An editor may write a file in pieces: let the save finish.
            std::thread::sleep(WATCH_EVERY);
            seen = version(&file);
            say(&format!("\n{} changed: checking again\n", task.file))?;
        }
        match next_task(chapters, root, Some(task)) {
            Some(next) => {
                say(&format!(
                    "\n{} passed; next: {} ({})\n",
                    task.id, next.id, next.title
                ))?;
                task = next;
            }
            None => {
                return say(&format!(
                    "\n{} passed, and with it every task\n",
                    task.id
                ));
            }
        }
    }
}

/// Why the runner ended without a report, in the reader's words: a stack overflow,
/// another signal, or an exit of its own.
fn crashed(status: std::process::ExitStatus, stderr: &str) -> String {
    if stderr.contains("has overflowed its stack") {
        return "your code overflowed the stack: does a function of yours call itself \
                without end?"
            .to_string();
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt as _;
        match status.signal() {
            Some(6) => {
                return "your code aborted (SIGABRT): std::process::abort, or a panic \
                        while a panic was being handled"
                    .to_string();
            }
            Some(9) => {
                return "your code was killed (SIGKILL): did it use up the memory, a \
                        Vec growing without end?"
                    .to_string();
            }
            Some(11) => {
                return "your code crashed (SIGSEGV, a bad memory access): look at any \
                        `unsafe` block"
                    .to_string();
            }
            Some(signal) => {
                return format!("your code crashed: it died of signal {signal}");
            }
            None => {}
        }
    }
    format!(
        "your code ended the check before it could report ({status}): does it call \
         std::process::exit?"
    )
}

/// What building the runner with the reader's file gave.
enum Built {
    /// It compiled: the warnings about the reader's file.
    Ok(Vec<String>),
    /// It did not: what to tell the reader.
    Failed(Vec<String>),
}

/// The packages a check builds: `pbm`, the runner, and every chapter's crate. `cargo run
/// --release` at the root (the page's command) selects the workspace's default members,
/// so each chapter is built with its `default` feature too; naming them here gives Cargo
/// the same features for every crate, so the check reuses what that build compiled and
/// compiles the runner and the reader's file, nothing else.
pub fn packages(chapters: &[Chapter]) -> Vec<String> {
    let mut names =
        vec!["pbm".to_string(), "pbm-practice-runner".into(), "pbm-prelim".into()];
    names.extend(chapters.iter().map(|c| format!("pbm-{}", c.id)));
    names
}

/// Builds the runner with the reader's file `file` in the release profile, beside the
/// [`packages`] that build shares with `cargo run --release`. Cargo's progress goes to
/// the terminal (the first check after a build with other features compiles the
/// chapters, for a minute or more); rustc's diagnostics come back as JSON, each rendered
/// as rustc prints it.
fn build(
    chapters: &[Chapter],
    root: &Path,
    task: &Task,
    file: &Path,
) -> Result<Built, Error> {
    let mut cargo = cargo();
    cargo.current_dir(root).args(["build", "--release", "--message-format=json"]);
    for name in packages(chapters) {
        cargo.args(["-p", &name]);
    }
    let mut child = cargo
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Error::Practice(format!("cannot run cargo: {e}")))?;
    // Cargo's own lines: progress shown as it comes, the rest kept for a failure.
    let stderr = child.stderr.take();
    let progress = std::thread::spawn(move || {
        use std::io::BufRead as _;
        let mut kept = String::new();
        for line in std::io::BufReader::new(stderr?).lines().map_while(Result::ok) {
            if line.trim_start().starts_with("Compiling ") {
                use std::io::Write as _;
                let _ = writeln!(std::io::stderr(), "  {}", line.trim());
            } else {
                kept.push_str(&line);
                kept.push('\n');
            }
        }
        Some(kept)
    });
    let output = child
        .wait_with_output()
        .map_err(|e| Error::Practice(format!("cannot run cargo: {e}")))?;
    let cargo_said = progress.join().ok().flatten().unwrap_or_default();
    let diagnostics = diagnostics(&String::from_utf8_lossy(&output.stdout), file);
    let yours = |d: &&Diagnostic| d.in_file;
    let warnings: Vec<String> = diagnostics
        .iter()
        .filter(|d| d.level == "warning")
        .filter(yours)
        .map(|d| d.rendered.clone())
        .collect();
    if output.status.success() {
        return Ok(Built::Ok(warnings));
    }
    let mut lines = vec![format!("{} does not compile:", task.file)];
    let errors = || diagnostics.iter().filter(|d| d.level == "error");
    for d in errors().filter(|d| d.runner) {
        if d.in_glue {
            lines.push(called_as(task, d));
        } else {
            lines.push(d.rendered.trim_end().to_string());
        }
    }
    if lines.len() == 1 {
        // Nothing wrong in the reader's file or its call: the book's own code or Cargo
        // failed, and says why.
        lines = vec![
            "the book's code did not build, so your file was not checked; Cargo said:"
                .to_string(),
        ];
        lines.extend(errors().map(|d| d.rendered.trim_end().to_string()));
        lines.extend(
            cargo_said.lines().filter(|l| !l.trim().is_empty()).map(String::from),
        );
    }
    Ok(Built::Failed(lines))
}

/// One of rustc's diagnostics of the runner's build.
struct Diagnostic {
    level: String,
    /// As rustc prints it: the message, the source lines, the notes and the help.
    rendered: String,
    /// rustc's message alone, and its notes (`expected fn pointer … found fn item …`).
    message: String,
    notes: Vec<String>,
    /// Whether it is about the runner's crate (the reader's file and its call), not
    /// the book's.
    runner: bool,
    /// Whether a span is in the reader's file, or in the generated glue that calls it.
    in_file: bool,
    in_glue: bool,
}

/// The diagnostics in Cargo's JSON messages (`--message-format=json`) about the
/// runner's build (not the summaries "aborting due to …"), with where they point.
fn diagnostics(json_lines: &str, file: &Path) -> Vec<Diagnostic> {
    let file = file.display().to_string();
    json_lines
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-message")
        .map(|m| {
            let runner = m["package_id"]
                .as_str()
                .is_some_and(|p| p.contains("pbm-practice-runner"));
            (runner, m["message"].clone())
        })
        .filter(|(_, m)| m["spans"].as_array().is_some_and(|s| !s.is_empty()))
        .map(|(runner, m)| {
            let spans = m["spans"].as_array().cloned().unwrap_or_default();
            let named = |f: &dyn Fn(&str) -> bool| {
                spans.iter().any(|s| s["file_name"].as_str().is_some_and(f))
            };
            let notes = m["children"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|c| c["message"].as_str().map(String::from))
                .collect();
            Diagnostic {
                level: m["level"].as_str().unwrap_or_default().to_string(),
                rendered: m["rendered"].as_str().unwrap_or_default().to_string(),
                message: m["message"].as_str().unwrap_or_default().to_string(),
                notes,
                runner,
                in_file: named(&|f| f == file),
                in_glue: named(&|f| f.ends_with("glue.rs")),
            }
        })
        .collect()
}

/// An error where the book calls the reader's function (a renamed or private function,
/// a changed signature): what the book calls, with rustc's message and notes.
fn called_as(task: &Task, d: &Diagnostic) -> String {
    let mut text = format!("error: {}", d.message);
    for note in &d.notes {
        text.push_str(&format!("\n  = note: {note}"));
    }
    let wanted = signature(task.stub).unwrap_or_else(|| "the stub's function".into());
    text.push_str(&format!(
        "\nThe book's check calls your function as the stub declares it:\n    {wanted}\n\
         Keep that name, `pub`, and that signature ({}).",
        task.file
    ));
    text
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

    use super::*;
    use pbm_prelim::practice::Listing;

    #[test]
    fn a_readers_prints_are_shown_a_screenful_at_most() {
        assert_eq!(
            printed("a\nb\n", "c\n"),
            ["standard output:", "| a", "| b", "standard error:", "| c"]
        );
        let many = "x\n".repeat(PRINTED_LINES + 5);
        let shown = printed(&many, "e\n");
        assert_eq!(shown.len(), PRINTED_LINES + 4);
        assert_eq!(shown[PRINTED_LINES + 1], "… and 5 more lines");
        assert_eq!(shown.last().map(String::as_str), Some("| e"));
        assert!(printed("", "").is_empty());
    }

    const TASK: Task = Task {
        id: "ode/euler",
        title: "Euler's step",
        section: "Euler's method",
        page: "01-ode/euler.md",
        equation: "euler-step",
        difficulty: 1,
        file: "euler.rs",
        stub: "pub fn euler_step() { todo!() }\n",
        check: "pbm_ode::practice::check_euler(reader::euler_step)",
        hints: &["first", "second"],
        solution: Listing {
            source: "// ANCHOR: s\nfn s() {}\n// ANCHOR_END: s\n",
            anchor: "s",
        },
    };

    #[test]
    fn start_writes_the_stub_once_and_never_overwrites_it() {
        let root = tempfile::tempdir().unwrap();
        let said = start(root.path(), &TASK).unwrap();
        let file = root.path().join("practice/ode-euler/euler.rs");
        assert!(said.contains("wrote") && file.is_file(), "{said}");
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(
            text.starts_with("// ① ode/euler") && text.ends_with(TASK.stub),
            "{text}"
        );
        std::fs::write(&file, "mine").unwrap();
        let again = start(root.path(), &TASK).unwrap();
        assert!(again.contains("left as it is"), "{again}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine");
    }

    #[test]
    fn hints_come_one_at_a_time_and_the_solution_only_after_a_try() {
        let root = tempfile::tempdir().unwrap();
        start(root.path(), &TASK).unwrap();
        assert!(hint(root.path(), &TASK).unwrap().starts_with("hint 1 of 2: first"));
        assert!(hint(root.path(), &TASK).unwrap().starts_with("hint 2 of 2: second"));
        assert!(hint(root.path(), &TASK).unwrap().starts_with("hint 2 of 2"));
        let before = solution(root.path(), &TASK).unwrap_err().to_string();
        assert!(before.contains("try it first"), "{before}");
        std::fs::write(folder(root.path(), &TASK).join(".tried"), "").unwrap();
        assert_eq!(solution(root.path(), &TASK).unwrap(), "fn s() {}\n");
        // The whole file, but its anchor lines, so pasted over the stub it compiles.
        let whole = Task {
            solution: Listing {
                source: "use a::B;\n// ANCHOR: s\npub fn s() {}\n// ANCHOR_END: s\n",
                anchor: "s",
            },
            ..TASK
        };
        assert_eq!(
            solution(root.path(), &whole).unwrap(),
            "use a::B;\npub fn s() {}\n"
        );
    }

    #[test]
    fn the_glue_names_the_readers_file_and_the_chapters_check() {
        let text = glue(&TASK, Path::new("/home/r/practice/ode-euler/euler.rs"));
        assert!(text.contains(
            "mod reader {\nuse pbm_chapters::*;\ninclude!(\"/home/r/practice/ode-euler/euler.rs\");\n}"
        ));
        assert!(text.contains("pbm_ode::practice::check_euler(reader::euler_step)"));
        assert!(text.contains("const TASK: &str = \"ode/euler\";"));
    }

    #[test]
    fn a_report_is_wrapped_at_spaces_but_rustcs_rendering_never() {
        let long = "word ".repeat(40);
        let text = Checked {
            passed: false,
            lines: vec![
                long.trim().to_string(),
                "error: x\n --> a.rs:1:2\n  |   ^^^".into(),
            ],
            printed: Vec::new(),
            warnings: Vec::new(),
        }
        .text("ode/euler");
        assert!(text.starts_with("✗ ode/euler\n  word word"), "{text}");
        assert!(text.lines().all(|l| l.chars().count() <= WIDTH), "{text}");
        assert!(
            text.lines().nth(2).is_some_and(|l| l.starts_with("    word")),
            "{text}"
        );
        assert!(
            text.ends_with("  error: x\n   --> a.rs:1:2\n    |   ^^^\n"),
            "{text}"
        );
    }

    #[test]
    fn the_signature_the_book_calls_is_the_stubs() {
        let stub = "use a::B;\n/// Doc.\npub fn step(\n    x: &mut B,\n    h: f64,\n) -> f64 {\n    todo!()\n}\n";
        assert_eq!(
            signature(stub).unwrap(),
            "pub fn step( x: &mut B, h: f64, ) -> f64"
        );
    }

    /// One of Cargo's JSON lines for a diagnostic of `package` at `file`.
    fn message(package: &str, level: &str, file: &str) -> String {
        json!({
            "reason": "compiler-message",
            "package_id": format!("path+file:///w/{package}#{package}@0.1.0"),
            "message": {
                "level": level,
                "message": "mismatched types",
                "rendered": format!("{level}: mismatched types\n --> {file}:3:9\n"),
                "spans": [{"file_name": file, "is_primary": true}],
                "children": [{"message": "expected fn pointer `fn(f64)`", "children": []}],
            }
        })
        .to_string()
    }

    #[test]
    fn diagnostics_say_where_they_point_and_a_glue_error_is_the_books_call() {
        let file = Path::new("/r/practice/ode-euler/euler.rs");
        let lines = [
            message("pbm-practice-runner", "error", "/t/out/glue.rs"),
            message("pbm-practice-runner", "warning", "/r/practice/ode-euler/euler.rs"),
            message("pbm-ode", "warning", "chapters/01-ode/src/lib.rs"),
            r#"{"reason":"compiler-message","package_id":"x","message":{"level":"error","message":"aborting","rendered":"","spans":[],"children":[]}}"#.to_string(),
            "not json".to_string(),
        ]
        .join("\n");
        let found = diagnostics(&lines, file);
        assert_eq!(found.len(), 3);
        assert!(found[0].runner && found[0].in_glue && !found[0].in_file);
        assert!(found[1].runner && found[1].in_file);
        assert!(!found[2].runner && !found[2].in_file);
        let said = called_as(&TASK, &found[0]);
        assert!(
            said.starts_with(
                "error: mismatched types\n  = note: expected fn pointer"
            )
        );
        assert!(
            said.contains("pub fn euler_step()") && !said.contains("glue"),
            "{said}"
        );
    }

    #[test]
    fn the_editors_crate_has_a_module_behind_a_cfg_for_each_task() {
        const TASKS: &[Task] = &[TASK];
        let chapter = Chapter {
            id: "ode",
            number: 1,
            title: "ODEs",
            pages: "01-ode",
            exercises: Vec::new(),
            figures: Vec::new(),
            shown: Vec::new(),
            tables: &[],
            demos: pbm_prelim::demo::Demos::NONE,
            practice: TASKS,
        };
        let manifest = editor_manifest(std::slice::from_ref(&chapter));
        assert!(
            manifest.contains(
                "\npbm-ode = { workspace = true, features = [\"book\"] }\n"
            )
        );
        assert!(manifest.contains("\npbm-prelim = {"), "{manifest}");
        let lib = editor_lib(&[chapter]);
        assert!(lib.contains(
            "#[rustfmt::skip]\n#[cfg(started_ode_euler)]\n#[path = \"../ode-euler/euler.rs\"]\npub mod ode_euler;\n"
        ), "{lib}");
    }

    #[test]
    fn a_check_of_a_task_not_started_says_how_to_start_it() {
        let root = tempfile::tempdir().unwrap();
        let e = check(&[], root.path(), &TASK).unwrap_err().to_string();
        assert!(e.contains("pbm practice start ode/euler"), "{e}");
    }
}
