//! The live demos in the book: builds `pbm-web` for WebAssembly, ships it in the
//! book as a binary `.wasm` (and, for pages read from file://, as a script), and expands each page's `{{#demo id}}` into the element the
//! loader (`book/demos.js`) brings to life.
//!
//! Building needs the `wasm32-unknown-unknown` target. Where rustup can add it,
//! [`build_module`] does (as wasm-pack and trunk do) and says so; where it cannot,
//! the book is still built, every demo keeps its figure and one line on how to get
//! the live version, and the build says so once.

use crate::error::Error;
use crate::files::write_atomically_bytes;
use crate::find_exercise;
use base64::Engine;
use mdbook_preprocessor::book::{Book, BookItem};
use mdbook_preprocessor::errors::Result as BookResult;
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};
use pbm_prelim::demo::DemoSpec;
use pbm_prelim::{Chapter, ParamSpec};
use serde_json::{Map, Value, json};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The target the demos are compiled for.
pub const TARGET: &str = "wasm32-unknown-unknown";

/// The target [`build_module`] builds for: [`TARGET`], unless `PBM_WASM_TARGET`
/// names another (CI names one that does not exist, to build the book as a machine
/// without the target would).
pub fn target() -> String {
    std::env::var("PBM_WASM_TARGET").unwrap_or_else(|_| TARGET.to_string())
}

/// Where the built book finds the module: `demos/pbm-web.wasm`, under `book/src`. A
/// page with a demo compiles it while it downloads (`WebAssembly.instantiateStreaming`).
pub const MODULE_WASM: &str = "demos/pbm-web.wasm";

/// The same module for a page read from file://, where the browser refuses to fetch:
/// `demos/pbm-web.js`, under `book/src`, a plain script ([`module_script`]) the loader
/// adds only then, or when the `.wasm` cannot be had (a book built without it).
pub const MODULE_SCRIPT: &str = "demos/pbm-web.js";

/// Where the browser test finds what each demo must agree with:
/// `demos/agreements.json`, under `book/src`.
pub const AGREEMENTS_FILE: &str = "demos/agreements.json";

/// The line a demo shows where the book was built without its module.
pub const FALLBACK: &str = "A live demo runs here when the book is built with the \
     WebAssembly target: <code>rustup target add wasm32-unknown-unknown</code>, then \
     <code>cargo run --release</code>.";

/// What became of the module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Module {
    /// Built: the .wasm file.
    Built(PathBuf),
    /// Not built, and why, in one line.
    Missing(String),
}

fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// Whether rustup reports `target` installed; None without rustup.
fn target_installed(target: &str) -> Option<bool> {
    let out = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).lines().any(|l| l == target))
}

/// Builds `pbm-web` in release for [`TARGET`] under `root`, adding the target with
/// rustup first if it is missing. Never fails the book: what went wrong is returned
/// as [`Module::Missing`].
pub fn build_module(root: &Path) -> Module {
    let target = target();
    if target_installed(&target) == Some(false) {
        // A full or closed stderr loses the note, not the book.
        let _ = writeln!(
            std::io::stderr(),
            "adding the {target} target for the live demos (rustup target add {target})"
        );
        let added = Command::new("rustup").args(["target", "add", &target]).status();
        if !added.is_ok_and(|s| s.success()) {
            return Module::Missing(format!("`rustup target add {target}` failed"));
        }
    }
    let built = cargo()
        .current_dir(root)
        .args(["build", "--release", "--target", &target, "-p", "pbm-web"])
        // A module the page downloads: link-time optimization and no symbol names
        // make it a fifth smaller (595 KB to 468 KB), and change no number it computes.
        .args(["--config", "profile.release.lto=true"])
        .args(["--config", "profile.release.codegen-units=1"])
        .args(["--config", "profile.release.strip=true"])
        .status();
    // Cargo's own rule for where it builds: CARGO_TARGET_DIR if set (relative to the
    // directory cargo runs in), else `target/` under the workspace.
    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .map_or_else(|| root.join("target"), |dir| root.join(dir));
    let wasm = target_dir.join(&target).join("release/pbm_web.wasm");
    match built {
        Ok(status) if status.success() && wasm.is_file() => Module::Built(wasm),
        Ok(_) => Module::Missing(format!(
            "`cargo build --target {target} -p pbm-web` failed"
        )),
        Err(e) => Module::Missing(format!("cannot run cargo: {e}")),
    }
}

/// The script that carries the module into a page read from file://: the .wasm
/// gzipped and as base64 (half the size of the base64 alone; the loader inflates it with
/// the browser's `DecompressionStream`), or null (the loader then leaves every demo's
/// fallback line in place).
pub fn module_script(wasm: Option<&[u8]>) -> String {
    let header = "// Generated by `pbm demos` (book-tools/src/demos.rs): the live demos' WebAssembly module, gzipped, as base64.\n";
    match wasm {
        Some(bytes) => {
            let mut gz = flate2::write::GzEncoder::new(
                Vec::with_capacity(bytes.len() / 2),
                flate2::Compression::best(),
            );
            // Writing into a Vec does not fail.
            let zipped =
                gz.write_all(bytes).and_then(|()| gz.finish()).unwrap_or_default();
            format!(
                "{header}window.pbmWasm = \"{}\";\n",
                base64::engine::general_purpose::STANDARD.encode(zipped)
            )
        }
        None => format!("{header}window.pbmWasm = null;\n"),
    }
}

/// Writes the module ([`MODULE_WASM`]) and [`module_script`] into `book_dir/src/demos/`
/// for `module`, and says once when the demos will not be live (then no `.wasm` is left
/// there).
pub fn write_module(
    chapters: &[Chapter],
    book_dir: &Path,
    module: &Module,
) -> Result<(), Error> {
    let path = book_dir.join("src").join(MODULE_SCRIPT);
    let binary = book_dir.join("src").join(MODULE_WASM);
    let script = match module {
        Module::Built(wasm) => {
            let bytes = std::fs::read(wasm)
                .map_err(|source| Error::Read { path: wasm.clone(), source })?;
            write_atomically_bytes(&binary, &bytes)
                .map_err(|source| Error::Write { path: binary, source })?;
            module_script(Some(&bytes))
        }
        Module::Missing(why) => {
            let _ = std::fs::remove_file(&binary);
            let _ = writeln!(
                std::io::stderr(),
                "live demos: {why}; each demo shows its figure and how to get it live"
            );
            module_script(None)
        }
    };
    write_atomically_bytes(&path, script.as_bytes())
        .map_err(|source| Error::Write { path, source })?;
    let path = book_dir.join("src").join(AGREEMENTS_FILE);
    let text =
        serde_json::to_string_pretty(&agreements_json(chapters)?).unwrap_or_default();
    write_atomically_bytes(&path, text.as_bytes())
        .map_err(|source| Error::Write { path, source })
}

/// The chapters' agreements between demos and exercises, for the browser test, each
/// with its demo's parameter values and readout found by name (as the page numbers
/// them: one value per slider, readouts by their place) and the `pbm run` arguments
/// whose output it must match. An agreement naming a demo, slider or readout that
/// does not exist is an error naming it.
pub fn agreements_json(chapters: &[Chapter]) -> Result<serde_json::Value, Error> {
    let mut list = Vec::new();
    for chapter in chapters {
        for a in chapter.demos.agreements {
            let spec = chapter.demos.find(a.demo).ok_or_else(|| {
                Error::Book(format!(
                    "an agreement names demo {}, which {} does not have",
                    a.demo, chapter.id
                ))
            })?;
            let (params, readout) = a.resolve(spec).map_err(|e| {
                Error::Book(format!("an agreement of {}: {e}", a.demo))
            })?;
            let mut args = vec!["run".to_string(), a.exercise.to_string()];
            for s in a.set {
                args.extend(["--set".to_string(), s.to_string()]);
            }
            args.push("--json".into());
            list.push(serde_json::json!({
                "demo": a.demo,
                "params": params,
                "frames": a.frames,
                "readout": readout,
                "pbm_args": args,
                "key": a.key,
                "absolute": a.absolute,
                "tolerance": a.tolerance,
            }));
        }
    }
    Ok(serde_json::Value::Array(list))
}

/// A demo as its page holds it: the spec, and the label and unit of each slider that
/// sets an exercise's parameter ([`Param::from_exercise`]), taken from that
/// parameter's declaration.
///
/// [`Param::from_exercise`]: pbm_prelim::demo::Param::from_exercise
#[derive(Debug, Clone)]
pub struct PageDemo {
    /// The demo.
    pub spec: &'static DemoSpec,
    /// `{name: {"label": …, "unit": …}}` for its sliders of exercise parameters.
    pub sliders: Map<String, Value>,
}

impl PageDemo {
    /// `spec` with its sliders of exercise parameters labelled from the exercises of
    /// `chapters` it agrees with, and the exercise of its own id: a slider none of
    /// them has is an error naming it.
    pub fn new(
        spec: &'static DemoSpec,
        chapters: &[Chapter],
    ) -> Result<Self, String> {
        let agreed = chapters.iter().flat_map(|c| c.demos.agreements);
        let mut ids: Vec<&str> =
            agreed.filter(|a| a.demo == spec.id).map(|a| a.exercise).collect();
        ids.push(spec.id);
        let params: Vec<&ParamSpec> = ids
            .iter()
            .filter_map(|id| find_exercise(chapters, id).ok())
            .flat_map(|(_, e)| &e.params)
            .collect();
        let mut sliders = Map::new();
        for slider in spec.params.iter().filter(|p| p.from_exercise()) {
            let declared =
                params.iter().find(|p| p.name == slider.name).ok_or_else(|| {
                    format!(
                        "demo {}: slider `{}` is no parameter of {}",
                        spec.id,
                        slider.name,
                        ids.join(", ")
                    )
                })?;
            let texts = json!({ "label": declared.label, "unit": declared.unit });
            sliders.insert(slider.name.to_string(), texts);
        }
        Ok(PageDemo { spec, sliders })
    }
}

/// The element that stands for demo `id` among `demos`, or an error naming the demos
/// that exist. Its `data-sliders` carries the labels and units the module leaves to
/// the page.
pub fn demo_element(demos: &[PageDemo], id: &str) -> Result<String, String> {
    match demos.iter().find(|d| d.spec.id == id) {
        Some(demo) => {
            let sliders = Value::Object(demo.sliders.clone()).to_string();
            let attribute = sliders
                .replace('&', "&amp;")
                .replace('\'', "&#39;")
                .replace('<', "&lt;");
            Ok(format!(
                "<div class=\"pbm-demo\" data-demo=\"{}\" data-sliders='{attribute}'><p class=\"pbm-demo-fallback\">{FALLBACK}</p></div>",
                demo.spec.id
            ))
        }
        None => {
            let known: Vec<&str> = demos.iter().map(|d| d.spec.id).collect();
            Err(format!("unknown demo `{id}`; demos: {}", known.join(", ")))
        }
    }
}

/// Replaces every line `{{#demo id}}` of `markdown` by [`demo_element`].
pub fn expand(demos: &[PageDemo], markdown: &str) -> Result<String, String> {
    let mut out = String::with_capacity(markdown.len());
    for line in markdown.split_inclusive('\n') {
        let body = line.trim_end();
        match body.strip_prefix("{{#demo ").and_then(|r| r.strip_suffix("}}")) {
            Some(id) => {
                out.push_str(&demo_element(demos, id.trim())?);
                out.push('\n');
            }
            None => out.push_str(line),
        }
    }
    Ok(out)
}

/// The mdBook preprocessor that applies [`expand`] to every page, with the demos the
/// chapters register.
pub struct DemoPreprocessor {
    /// Every demo of the book.
    pub demos: Vec<PageDemo>,
}

impl DemoPreprocessor {
    /// The preprocessor for the demos of `chapters`; a slider of an exercise
    /// parameter that no exercise declares is an error naming it.
    pub fn new(chapters: &[Chapter]) -> Result<Self, Error> {
        let demos = chapters
            .iter()
            .flat_map(|c| c.demos.specs.iter())
            .map(|spec| PageDemo::new(spec, chapters))
            .collect::<Result<_, _>>()
            .map_err(Error::Book)?;
        Ok(DemoPreprocessor { demos })
    }
}

/// Where the book keeps the demos' loader, `book/demos.js`, and where the built book
/// serves it from (under `book/src`): only pages with a demo load it.
pub const LOADER_SOURCE: &str = "demos.js";
/// See [`LOADER_SOURCE`].
pub const LOADER: &str = "demos/demos.js";

/// `content` (a page's expanded Markdown) with, if the page has a demo, a script after
/// everything else that adds the loader ([`LOADER`]) to the page: by mdBook's
/// `path_to_root`, so it is found from any page, and once, so the print page that holds
/// every chapter starts each demo once. The loader looks for the page's demos when it
/// runs, and they all come before this script.
pub fn with_loader(mut content: String) -> String {
    if content.contains("<div class=\"pbm-demo\"") {
        content.push_str(&format!(
            "\n\n<script>if (!window.pbmLoader) {{ window.pbmLoader = \
             document.createElement(\"script\"); pbmLoader.src = path_to_root + \
             \"{LOADER}\"; document.body.appendChild(pbmLoader); }}</script>\n"
        ));
    }
    content
}

/// Copies the demos' loader from `book_dir` to where the built book serves it ([`LOADER`]).
pub fn write_loader(book_dir: &Path) -> Result<(), Error> {
    let from = book_dir.join(LOADER_SOURCE);
    let js =
        std::fs::read(&from).map_err(|source| Error::Read { path: from, source })?;
    let path = book_dir.join("src").join(LOADER);
    if std::fs::read(&path).is_ok_and(|old| old == js) {
        return Ok(());
    }
    write_atomically_bytes(&path, &js).map_err(|source| Error::Write { path, source })
}

impl Preprocessor for DemoPreprocessor {
    fn name(&self) -> &str {
        "pbm-demos"
    }

    fn run(&self, _ctx: &PreprocessorContext, mut book: Book) -> BookResult<Book> {
        let mut failure = None;
        book.for_each_mut(|item| {
            if let BookItem::Chapter(page) = item {
                match expand(&self.demos, &page.content) {
                    Ok(content) => page.content = with_loader(content),
                    Err(why) => {
                        let path = page.path.as_deref().unwrap_or(Path::new("?"));
                        failure.get_or_insert(format!("{}: {why}", path.display()));
                    }
                }
            }
        });
        match failure {
            Some(why) => Err(mdbook_preprocessor::errors::Error::msg(why)),
            None => Ok(book),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_page_with_a_demo_loads_the_loader_after_its_demos() {
        let demo =
            "text\n\n<div class=\"pbm-demo\" data-demo=\"a/b\"></div>\n".to_string();
        let page = with_loader(demo.clone());
        let script = page.strip_prefix(&demo).unwrap();
        assert!(script.contains("path_to_root + \"demos/demos.js\""), "{script}");
        assert!(script.trim_end().ends_with("</script>"), "{script}");
        assert_eq!(with_loader("no demo here".into()), "no demo here");
    }

    #[test]
    fn a_demo_line_becomes_its_element_and_other_lines_stay() {
        use pbm_prelim::demo::{Param, Plot};
        const SPIRAL: DemoSpec = DemoSpec {
            id: "ode/euler-spiral",
            title: "a test",
            params: &[Param::log("h", "step h", "s", [0.1, 0.01, 1.0])],
            readouts: &[],
            plot: Plot::over("t", &[]),
            view: |_| Ok([-1.0, 1.0, -1.0, 1.0]),
            drag: None,
            build: |_| Err(pbm_prelim::PbmError::invalid("demo", "a test")),
        };
        const CHAIN: DemoSpec = DemoSpec { id: "pbd/chain", ..SPIRAL };
        let page = |spec| PageDemo { spec, sliders: Map::new() };
        let mut demos = [page(&SPIRAL), page(&CHAIN)];
        demos[1].sliders.insert("n".into(), json!({ "label": "it's", "unit": "" }));
        let expand = |page| expand(&demos, page);
        let page = "Text {{#demo ode/euler-spiral}} inline.\n{{#demo ode/euler-spiral}}\nEnd";
        let out = expand(page).unwrap();
        assert!(out.starts_with("Text {{#demo ode/euler-spiral}} inline.\n<div class=\"pbm-demo\" data-demo=\"ode/euler-spiral\" data-sliders='{}'>"), "{out}");
        assert!(out.ends_with("</div>\nEnd"), "{out}");
        let chain = expand("{{#demo pbd/chain}}").unwrap();
        assert!(
            chain.contains(r#"data-sliders='{"n":{"label":"it&#39;s","unit":""}}'"#),
            "{chain}"
        );
        let error = expand("{{#demo ode/nothing}}\n").unwrap_err();
        assert!(
            error.contains("unknown demo `ode/nothing`")
                && error.contains("pbd/chain"),
            "{error}"
        );
    }

    #[test]
    fn the_module_script_carries_the_bytes_gzipped_or_null() {
        use std::io::Read as _;
        let wasm = b"\0asm\x01\0\0\0".repeat(100);
        let script = module_script(Some(&wasm));
        let base64 = script
            .split_once("window.pbmWasm = \"")
            .and_then(|(_, rest)| rest.split_once("\";"))
            .map(|(b, _)| b)
            .unwrap();
        let zipped =
            base64::engine::general_purpose::STANDARD.decode(base64).unwrap();
        assert_eq!(zipped[..2], [0x1f, 0x8b], "gzip's magic number");
        assert!(zipped.len() < wasm.len() / 4, "{} bytes", zipped.len());
        let mut inflated = Vec::new();
        flate2::read::GzDecoder::new(&zipped[..]).read_to_end(&mut inflated).unwrap();
        assert_eq!(inflated, wasm);
        assert!(module_script(None).contains("window.pbmWasm = null;"));
    }
}
