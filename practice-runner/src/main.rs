//! `pbm practice check` builds and runs this program: it runs the chapter's check on
//! the reader's function and writes one JSON object, `{"task", "passed", "lines"}`,
//! to the file named by `PBM_PRACTICE_REPORT` (standard output without it). The
//! report has its own channel, so the reader's `println!`, `eprintln!` and `dbg!`
//! go where they always go, and `pbm` shows them after the verdict.
//! A reader's `todo!()`, panic or endless loop never takes `pbm` down with it: the
//! panic is caught here and said in one line (with the reader's own line when it
//! happened inside a library, and the case the check was trying), and `pbm` stops a
//! run that takes too long.

use std::process::ExitCode;
use std::sync::{Arc, Mutex};

include!(concat!(env!("OUT_DIR"), "/glue.rs"));

/// Where a panic happened, in the reader's terms: its place when that is the reader's
/// file or nothing better is known; otherwise the library's file and the reader's line
/// that called into it, read from the backtrace (the runner keeps line tables in
/// release: `[profile.release.package.pbm-practice-runner]`).
fn place(location: Option<&std::panic::Location<'_>>) -> String {
    let Some(location) = location else {
        return String::new();
    };
    let at = format!("{}:{}", location.file(), location.line());
    if FILE.is_empty() || location.file() == FILE {
        return format!(" ({at})");
    }
    let trace = std::backtrace::Backtrace::force_capture().to_string();
    let yours = trace.lines().find_map(|l| {
        let rest = l.trim().strip_prefix("at ")?.strip_prefix(FILE)?;
        rest.strip_prefix(':')?.split(':').next().map(str::to_string)
    });
    // A library's file by its crate and name: nalgebra-0.35.0/…/blas_uninit.rs:147.
    let library = location
        .file()
        .split("/registry/src/")
        .nth(1)
        .and_then(|p| p.split_once('/').map(|(_, p)| p.to_string()))
        .map_or(at.clone(), |p| format!("{p}:{}", location.line()));
    match yours {
        Some(line) => format!(" (inside {library}, called from your {FILE}:{line})"),
        None => format!(" ({library})"),
    }
}

fn main() -> ExitCode {
    // The panic's message and place, kept for the report instead of printed.
    let caught = Arc::new(Mutex::new(String::new()));
    let keep = Arc::clone(&caught);
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let case = pbm_prelim::practice::current_case()
            .map(|c| format!(", while the check tried {c}"))
            .unwrap_or_default();
        if let Ok(mut c) = keep.lock() {
            *c = format!("{message}{}{case}", place(info.location()));
        }
    }));
    let (passed, lines) = match std::panic::catch_unwind(run) {
        Ok(report) => (report.passed, report.lines),
        Err(_) => {
            let message = caught.lock().map(|c| c.clone()).unwrap_or_default();
            let line = if message.starts_with("not yet implemented") {
                format!(
                    "not yet implemented: the function still ends in todo!() ({message}); \
                     fill in its body"
                )
            } else {
                format!("your code panicked: {message}")
            };
            (false, vec![line])
        }
    };
    let json = serde_json::json!({ "task": TASK, "passed": passed, "lines": lines });
    match std::env::var_os("PBM_PRACTICE_REPORT") {
        Some(path) => {
            if let Err(e) = std::fs::write(&path, json.to_string()) {
                eprintln!("cannot write the report to {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        }
        None => println!("{json}"),
    }
    if passed { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
