//! Puts the check `pbm practice check` asked for into the build: the file it writes,
//! `practice/.check/glue.rs`, names the reader's file as a module and the chapter's
//! check to run on it. Without one (a fresh clone, CI) the runner says there is
//! nothing to check.

use std::path::Path;

const NOTHING: &str = "const TASK: &str = \"\";\n\
fn run() -> pbm_prelim::practice::Report {\n    \
pbm_prelim::practice::Report::fail(\"no task to check: run `pbm practice check CHAPTER/TASK`\")\n}\n";

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let glue = Path::new(&manifest).join("../practice/.check/glue.rs");
    println!("cargo:rerun-if-changed={}", glue.display());
    let text = std::fs::read_to_string(&glue).unwrap_or_else(|_| NOTHING.to_string());
    let out = std::env::var("OUT_DIR").unwrap_or_default();
    if let Err(e) = std::fs::write(Path::new(&out).join("glue.rs"), text) {
        println!("cargo:warning=cannot write the practice glue: {e}");
    }
}
