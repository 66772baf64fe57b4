//! Program output on the pages is generated (`pbm book` writes `book/src/output/`)
//! and included, never pasted. These tests fail when a page shows output the code no
//! longer prints: change an exercise and forget to rebuild the book, and the page is
//! caught stale.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use pbm::output::SHOWN;
use std::collections::BTreeSet;
use std::fs;

fn output_dir() -> std::path::PathBuf {
    pbm::repo_root().join("book/src/output")
}

#[test]
fn every_shown_output_is_what_the_code_prints_now() {
    let chapters = pbm::chapters();
    for shown in SHOWN {
        let path = output_dir().join(shown.file_name());
        let committed = fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!("{}: {e} (run `cargo run --release`)", path.display())
        });
        assert!(
            shown.is_current(&chapters, &committed).unwrap(),
            "{} is stale: the code now prints\n{}\nRebuild the book (`cargo run --release`) \
             and review the change.",
            path.display(),
            shown.render(&chapters, false).unwrap()
        );
    }
}

#[test]
fn pages_include_exactly_the_shown_outputs() {
    let known: BTreeSet<String> = SHOWN.iter().map(|s| s.file_name()).collect();
    assert_eq!(known.len(), SHOWN.len(), "two shown runs write the same file");
    let mut included = BTreeSet::new();
    for page in glob_pages() {
        let text = fs::read_to_string(&page).unwrap();
        for (i, _) in text.match_indices("{{#include ../output/") {
            let rest = &text[i + "{{#include ../output/".len()..];
            let name = rest[..rest.find("}}").unwrap()].to_string();
            assert!(
                known.contains(&name),
                "{} includes unknown output {name}",
                page.display()
            );
            included.insert(name);
        }
        // No console block shows output typed by hand: commands (`$ ...`) and
        // included output only. A block inside a list item is indented with it.
        for block in text.split("```console\n").skip(1) {
            let body = &block[..block.find("```").unwrap()];
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
    assert_eq!(included, known, "outputs written but shown on no page");
}

#[test]
fn a_stale_output_is_caught() {
    // The check can fail: the committed text with one number changed is not current.
    let chapters = pbm::chapters();
    let shown = SHOWN.iter().find(|s| s.id == "rigid/translation-free").unwrap();
    let text = shown.render(&chapters, false).unwrap();
    assert!(shown.is_current(&chapters, &text).unwrap());
    let stale = text.replace("12", "13");
    assert_ne!(stale, text);
    assert!(!shown.is_current(&chapters, &stale).unwrap());
}

fn glob_pages() -> Vec<std::path::PathBuf> {
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
