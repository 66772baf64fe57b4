//! Puts the check `pbm practice check` asked for into the build: the file it writes,
//! `practice/.check/glue.rs`, names the reader's file as a module and the chapter's
//! check to run on it. Without one (a fresh clone, CI), or when the reader's file it
//! names is gone, the runner says there is nothing to check.

use std::path::Path;

const NOTHING: &str = "use pbm_chapters::*;\nconst TASK: &str = \"\";\nconst FILE: &str = \"\";\n\
fn run() -> pbm_prelim::practice::Report {\n    \
pbm_prelim::practice::Report::fail(\"no task to check: run `pbm practice check CHAPTER/TASK`\")\n}\n";

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let glue = Path::new(&manifest).join("../practice/.check/glue.rs");
    println!("cargo:rerun-if-changed={}", glue.display());
    // A glue whose reader's file is gone (a test's temporary folder, a deleted task)
    // checks nothing rather than break the workspace's build.
    let text = std::fs::read_to_string(&glue)
        .ok()
        .filter(|text| {
            text.lines()
                .find_map(|l| l.strip_prefix("include!(\"")?.strip_suffix("\");"))
                .is_some_and(|file| {
                    // Gone later, it must be noticed then too.
                    println!("cargo:rerun-if-changed={file}");
                    Path::new(file).is_file()
                })
        })
        .unwrap_or_else(|| NOTHING.to_string());
    let out = std::env::var("OUT_DIR").unwrap_or_default();
    if let Err(e) = std::fs::write(Path::new(&out).join("glue.rs"), text) {
        println!("cargo:warning=cannot write the practice glue: {e}");
    }
}
