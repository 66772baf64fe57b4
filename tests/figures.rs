//! The figure pipeline: every figure renders, wide and narrow, to a finite, labelled
//! SVG of its layout's width with no text below the tick size, written atomically,
//! and the result does not depend on the number of threads.
//!
//! Plain `cargo test` draws every figure but the few that run a long simulation
//! (registered with [`Figure::heavy`]); CI draws all of them in release (`cargo test
//! --release --test figures -- --include-ignored`, in `.ci/run`), after the book
//! build has drawn them once more.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use pbm_prelim::plot::{Layout, TICK_PX};
use pbm_prelim::{Chapter, Figure};
use std::fs;

/// The chapters with only the figures `keep` accepts.
fn chapters_with(keep: impl Fn(&Figure) -> bool) -> Vec<Chapter> {
    let mut chapters = pbm::chapters();
    for chapter in &mut chapters {
        chapter.figures.retain(&keep);
    }
    chapters
}

fn render_with_threads(
    threads: usize,
    chapters: &[Chapter],
    dir: &std::path::Path,
) -> Vec<std::path::PathBuf> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| pbm::figures::render_figures(chapters, dir, None, false)).unwrap()
}

#[test]
fn every_light_figure_renders_identically_with_one_or_two_threads() {
    check_figures(&chapters_with(|f| !f.heavy));
}

#[test]
#[ignore = "every figure, the heavy ones too: CI runs it in release"]
fn every_figure_renders_identically_with_one_or_two_threads() {
    check_figures(&chapters_with(|_| true));
}

/// The labels of `svg` that still hold TeX: a `_` before a letter or a brace (`k_d`,
/// `x_{i}`), or a `^` (`e^(−kt)`), or a script marker that was never set as a
/// `tspan`. A label's text is read with its `tspan`s' tags taken out.
fn tex_in_labels(svg: &str) -> Vec<String> {
    let mut found = Vec::new();
    for element in svg.split("<text").skip(1) {
        let Some(body) = element.split_once('>').map(|(_, b)| b) else { continue };
        let body = body.split("</text>").next().unwrap_or_default();
        let mut text = String::new();
        let mut in_tag = false;
        for c in body.chars() {
            match c {
                '<' => in_tag = true,
                '>' => in_tag = false,
                _ if !in_tag => text.push(c),
                _ => {}
            }
        }
        let chars: Vec<char> = text.chars().collect();
        let tex = chars
            .windows(2)
            .any(|w| w[0] == '_' && (w[1].is_alphabetic() || w[1] == '{'))
            || text.contains('^')
            || text.contains(['\u{E000}', '\u{E001}', '\u{E002}']);
        if tex {
            found.push(text.trim().to_string());
        }
    }
    found
}

#[test]
fn tex_in_labels_finds_subscripts_and_powers_but_not_set_ones() {
    let svg = "<text a=\"1\">\nk_d = 2\n</text><text>\ne^(−kt)\n</text>\
               <text>\nk<tspan dy=\"4\">d</tspan> and x₁ ≥ 0\n</text>";
    assert_eq!(tex_in_labels(svg), ["k_d = 2", "e^(−kt)"]);
}

fn check_figures(chapters: &[Chapter]) {
    let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    // The one-thread and the two-thread renderings run at the same time, each on its
    // own pool, so that the one-thread pass does not leave a core idle.
    let paths_one = std::thread::scope(|scope| {
        let single = scope.spawn(|| render_with_threads(1, chapters, one.path()));
        render_with_threads(2, chapters, two.path());
        single.join().unwrap()
    });
    let figures: usize = chapters.iter().map(|c| c.figures.len()).sum();
    assert_eq!(paths_one.len(), figures * Layout::ALL.len());
    for path in paths_one {
        let svg = fs::read_to_string(&path).unwrap();
        let name = path.file_name().unwrap().to_str().unwrap();
        assert!(
            svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
            "{name}"
        );
        for bad in ["NaN", "\"inf", " inf", ",inf", "-inf"] {
            assert!(!svg.contains(bad), "{name}: non-finite coordinate ({bad})");
        }
        assert!(svg.contains("<text"), "{name}: no labels");
        let layout =
            if name.ends_with(".narrow.svg") { Layout::Narrow } else { Layout::Wide };
        let width = format!("<svg width=\"{}\"", layout.width());
        assert!(svg.starts_with(&width), "{name}: not {} px wide", layout.width());
        // A label's size is its `<text>`'s; a subscript or a power inside it (a `tspan`)
        // is set at three quarters of it, as a script is in print.
        let smallest = svg
            .split("<text")
            .skip(1)
            .map(|text| {
                let open = &text[..text.find('>').unwrap()];
                let rest = open.split("font-size=\"").nth(1).unwrap();
                rest[..rest.find('"').unwrap()].parse::<f64>().unwrap()
            })
            .fold(f64::INFINITY, f64::min);
        // The page shows these at most one to one, so this is the smallest a reader
        // sees on a desktop; the browser test measures the displayed size on a phone
        // too.
        assert!(smallest >= TICK_PX, "{name}: text of {smallest} px");
        let tex = tex_in_labels(&svg);
        assert!(tex.is_empty(), "{name}: TeX left in its labels: {tex:?}");
        for bad in ["-0.0<", ">\n-0\n", ">\n-"] {
            assert!(
                !svg.contains(bad),
                "{name}: a hyphen for a minus sign or a signed zero"
            );
        }
        let relative = path.strip_prefix(one.path()).unwrap();
        let other = fs::read_to_string(two.path().join(relative)).unwrap();
        assert!(svg == other, "{name} differs between 1 and 2 threads");
    }
    // No temporary files are left behind.
    for chapter in chapters.iter().filter(|c| !c.figures.is_empty()) {
        for entry in fs::read_dir(one.path().join(chapter.id)).unwrap() {
            let name = entry.unwrap().file_name();
            assert!(
                !name.to_string_lossy().ends_with(".tmp"),
                "{name:?} left behind"
            );
        }
    }
}
