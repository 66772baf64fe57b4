//! Turns on the module of each task whose file the reader has started: `src/lib.rs`
//! declares every task's module under `#[cfg(started_<name>)]` with its
//! `#[path = "../<folder>/<file>"]`, and this script sets the cfg of those whose file
//! is there, so a task not started costs nothing and an editor sees the ones that are.

use std::path::Path;

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let here = Path::new(&manifest);
    println!("cargo::rerun-if-changed=src/lib.rs");
    let lib = std::fs::read_to_string(here.join("src/lib.rs")).unwrap_or_default();
    let mut cfg = None;
    for line in lib.lines().map(str::trim) {
        if let Some(name) =
            line.strip_prefix("#[cfg(").and_then(|l| l.strip_suffix(")]"))
        {
            println!("cargo::rustc-check-cfg=cfg({name})");
            cfg = Some(name.to_string());
        } else if let Some(file) =
            line.strip_prefix("#[path = \"").and_then(|l| l.strip_suffix("\"]"))
        {
            let path = here.join("src").join(file);
            // Watch the folder, so that a start (which makes it) or a deletion reruns this.
            if let Some(folder) = path.parent() {
                println!("cargo::rerun-if-changed={}", folder.display());
            }
            if let Some(name) = cfg.take().filter(|_| path.is_file()) {
                println!("cargo::rustc-cfg={name}");
            }
        }
    }
}
