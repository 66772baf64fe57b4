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

/// The book's answer, once the reader has run a check at least once.
pub fn solution(root: &Path, task: &Task) -> Result<String, Error> {
    if !folder(root, task).join(".tried").is_file() {
        return Err(Error::Practice(format!(
            "try it first: `pbm practice start {0}`, then `pbm practice check {0}`; the \
             solution is there after one check",
            task.id
        )));
    }
    task.solution.text().ok_or_else(|| {
        Error::Practice(format!("{}: the solution is missing", task.id))
    })
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
pub fn check(root: &Path, task: &Task) -> Result<Checked, Error> {
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
    // The release profile, as `cargo run --release` builds the book, and `pbm` in the
    // same build: Cargo then settles every shared dependency's features as it did for
    // `pbm` alone (the runner asks for none of its own), so the chapters' compiled code
    // is reused and a check compiles the runner and the reader's file, nothing else.
    let build = cargo()
        .current_dir(root)
        .args(["build", "--release", "--quiet", "--message-format=short"])
        .args(["-p", "pbm", "-p", "pbm-practice-runner"])
        .output()
        .map_err(|e| Error::Practice(format!("cannot run cargo: {e}")))?;
    if !build.status.success() {
        let errors: Vec<String> = String::from_utf8_lossy(&build.stderr)
            .lines()
            .filter(|l| l.contains("error") || l.contains("warning: unused"))
            .map(str::to_string)
            .collect();
        let mut lines = vec![format!("{} does not compile:", task.file)];
        lines.extend(errors);
        return Ok(Checked { passed: false, lines, printed: Vec::new() });
    }
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
                return Ok(Checked {
                    passed: false,
                    lines: vec![format!(
                        "the checks did not finish in {} s: does a loop in your code \
                         never end?",
                        TIME_LIMIT.as_secs()
                    )],
                    printed: Vec::new(),
                });
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
        let why = if stderr.contains("has overflowed its stack") {
            "your code overflowed the stack: does a function of yours call itself \
             without end?"
                .to_string()
        } else {
            format!(
                "your code ended the check before it could report ({status}): does it \
                 call std::process::exit or abort?"
            )
        };
        return Ok(Checked { passed: false, lines: vec![why], printed });
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
    Ok(Checked { passed, lines, printed })
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
    fn a_check_of_a_task_not_started_says_how_to_start_it() {
        let root = tempfile::tempdir().unwrap();
        let e = check(root.path(), &TASK).unwrap_err().to_string();
        assert!(e.contains("pbm practice start ode/euler"), "{e}");
    }
}
