//! `pbm practice check` builds and runs this program: it runs the chapter's check on
//! the reader's function and writes one JSON object, `{"task", "passed", "lines"}`,
//! to the file named by `PBM_PRACTICE_REPORT` (standard output without it). The
//! report has its own channel, so the reader's `println!`, `eprintln!` and `dbg!`
//! go where they always go, and `pbm` shows them after the verdict.
//! A reader's `todo!()`, panic or endless loop never takes `pbm` down with it: the
//! panic is caught here and said in one line, and `pbm` stops a run that takes too
//! long.

use std::process::ExitCode;
use std::sync::{Arc, Mutex};

include!(concat!(env!("OUT_DIR"), "/glue.rs"));

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
        let place = info.location().map(|l| format!(" ({}:{})", l.file(), l.line()));
        if let Ok(mut c) = keep.lock() {
            *c = format!("{message}{}", place.unwrap_or_default());
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
