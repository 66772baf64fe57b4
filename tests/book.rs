//! Book integrity: every include resolves to an anchor and every anchor is shown, every
//! figure a page shows is drawn by some chapter, every chapter crate has a page, SUMMARY
//! lists every page, the built book renders its math and loads nothing from the
//! internet, and ARCHITECTURE.md's crate ladder is the manifests.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::PathBuf;

fn book_src() -> PathBuf {
    pbm::repo_root().join("book/src")
}

fn pages() -> Vec<PathBuf> {
    pbm::files::pages(&book_src()).unwrap()
}

/// The `{{#include path:anchor}}` directives of a page, as (path, anchor).
fn includes(text: &str) -> Vec<(String, Option<String>)> {
    text.match_indices("{{#include ")
        .map(|(i, _)| {
            let rest = &text[i + "{{#include ".len()..];
            let inner = &rest[..rest.find("}}").expect("unterminated include")];
            match inner.trim().split_once(':') {
                Some((path, anchor)) => (path.to_string(), Some(anchor.to_string())),
                None => (inner.trim().to_string(), None),
            }
        })
        .collect()
}

#[test]
fn every_include_resolves_to_an_existing_anchor() {
    let mut count = 0;
    for page in pages() {
        let text = fs::read_to_string(&page).unwrap();
        for (path, anchor) in includes(&text) {
            let target = page.parent().unwrap().join(&path);
            let source = fs::read_to_string(&target).unwrap_or_else(|e| {
                panic!("{}: include {path}: {e}", page.display())
            });
            if let Some(anchor) = anchor {
                let start = format!("ANCHOR: {anchor}\n");
                let end = format!("ANCHOR_END: {anchor}\n");
                let (Some(a), Some(b)) = (source.find(&start), source.find(&end))
                else {
                    panic!(
                        "{}: anchor `{anchor}` not found in {path}",
                        page.display()
                    );
                };
                assert!(
                    a < b,
                    "{}: anchor `{anchor}` ends before it starts",
                    page.display()
                );
                assert!(
                    b - a > start.len() + 20,
                    "anchor `{anchor}` in {path} is empty"
                );
            }
            count += 1;
        }
    }
    assert!(count >= 15, "only {count} includes: did the pages lose their code?");
}

/// Columns of code that fit the book's column at 1280 px: 750 px of code block, less 20 px of
/// padding, over 8.4 px per character of 14-px Source Code Pro (measured in Chromium).
const LISTING_COLUMNS: usize = 86;

#[test]
fn every_command_a_page_shows_is_one_the_program_accepts() {
    // A reader copies `cargo run --release -- run id --set k=v ...` from a console block
    // or a sentence: the exercise must exist, every value must parse and lie in its
    // range, and the run must be inside every joint limit (the work budget that refuses
    // a run before it starts). CI runs each command in release against a time limit
    // (tests/output.rs, `every_command_a_page_shows_runs_in_release_in_seconds`).
    let chapters = pbm::chapters();
    let commands = pbm::commands::in_book(&book_src()).unwrap();
    let problems: Vec<String> = commands
        .iter()
        .filter_map(|(page, command)| {
            let e = pbm::commands::check(&chapters, command).err()?;
            Some(format!("{page}:{}: {}: {e}", command.line, command.text))
        })
        .collect();
    assert!(commands.len() > 80, "only {} commands found", commands.len());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every Rust listing the pages include, as (path, anchor, the region's lines).
fn rust_listings() -> Vec<(String, String, Vec<String>)> {
    let mut out = Vec::new();
    for page in pages() {
        let text = fs::read_to_string(&page).unwrap();
        for (path, anchor) in includes(&text) {
            let Some(anchor) = anchor.filter(|_| path.ends_with(".rs")) else {
                continue;
            };
            let source =
                fs::read_to_string(page.parent().unwrap().join(&path)).unwrap();
            let start = format!("ANCHOR: {anchor}\n");
            let end = format!("ANCHOR_END: {anchor}");
            let body = &source[source.find(&start).unwrap() + start.len()..];
            let region = body[..body.find(&end).unwrap()]
                .lines()
                .filter(|l| !l.contains("ANCHOR"))
                .map(str::to_string)
                .collect();
            out.push((path, anchor, region));
        }
    }
    out
}

#[test]
fn no_line_of_display_math_reads_as_markdown() {
    // Markdown sees a line that starts with "+ ", "- ", "* " or "1. " as a list item even
    // inside $$…$$, and the formula is cut in two. Break such lines before the sign.
    // The same holds for inline math broken across lines, in a blockquote too.
    let mut problems = Vec::new();
    for page in pages() {
        let text = fs::read_to_string(&page).unwrap();
        let (mut in_display, mut in_inline, mut in_code) = (false, false, false);
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("```") {
                in_code = !in_code;
            }
            if in_code {
                continue;
            }
            let t = line.trim_start().trim_start_matches('>').trim_start();
            let list_like = ["+ ", "- ", "* "].iter().any(|m| t.starts_with(m))
                || t.split_once(". ").is_some_and(|(d, _)| {
                    !d.is_empty() && d.chars().all(|c| c.is_ascii_digit())
                });
            if (in_display || in_inline) && list_like {
                problems.push(format!("{}:{}: {line}", page.display(), n + 1));
            }
            let display = line.matches("$$").count();
            if display % 2 == 1 {
                in_display = !in_display;
            }
            // Single dollars left after the display ones open and close inline math;
            // a blank line ends a paragraph, and with it any inline math.
            let single = line.matches('$').count() - 2 * display;
            if single % 2 == 1 {
                in_inline = !in_inline;
            }
            if line.trim().is_empty() {
                in_inline = false;
            }
        }
    }
    assert!(
        problems.is_empty(),
        "display math broken by markdown:\n{}",
        problems.join("\n")
    );
}

#[test]
fn every_rust_block_is_a_listing_not_a_playground() {
    // A plain ```rust block gets mdBook's Run button, which asks play.rust-lang.org
    // for its crate list on load: a request to another host from a book read offline,
    // for code that uses the chapters' crates and cannot run there anyway.
    let plain: Vec<String> = pages()
        .into_iter()
        .flat_map(|page| {
            let text = fs::read_to_string(&page).unwrap();
            let name = page.strip_prefix(book_src()).unwrap().display().to_string();
            text.lines()
                .enumerate()
                .filter(|(_, l)| l.trim() == "```rust")
                .map(|(n, _)| format!("{name}:{}", n + 1))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(plain.is_empty(), "```rust without ,ignore: {plain:?}");
}

#[test]
fn every_listing_fits_the_column_without_scrolling_sideways() {
    let mut too_wide = Vec::new();
    for (path, anchor, region) in rust_listings() {
        // The book dedents a region (src/listing.rs) before showing it.
        let indent = region
            .iter()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.len() - l.trim_start().len())
            .min()
            .unwrap_or(0);
        for line in &region {
            let shown = line.get(indent..).unwrap_or("");
            if shown.chars().count() > LISTING_COLUMNS {
                too_wide.push(format!("{path}:{anchor}: {}", shown.trim()));
            }
        }
    }
    assert!(
        too_wide.is_empty(),
        "lines wider than {LISTING_COLUMNS}:\n{}",
        too_wide.join("\n")
    );
}

/// The most lines a listing may have on any page: a longer function is cut into
/// functions the page shows one at a time, with the argument between them.
const LISTING_LINES: usize = 40;

#[test]
fn every_listing_is_short() {
    // The lines shown: a region ends with the `    // ` before its end marker.
    let shown = |region: &[String]| {
        region.iter().rev().skip_while(|l| matches!(l.trim(), "" | "//")).count()
    };
    let long: Vec<String> = rust_listings()
        .into_iter()
        .filter(|(_, _, region)| shown(region) > LISTING_LINES)
        .map(|(path, anchor, region)| {
            format!("{path}:{anchor}: {} lines", shown(&region))
        })
        .collect();
    assert!(
        long.is_empty(),
        "listings over {LISTING_LINES} lines:\n{}",
        long.join("\n")
    );
}

/// Braces opened minus braces closed in Rust source, outside comments, strings and
/// character literals.
fn brace_balance(code: &str) -> i64 {
    let chars: Vec<char> = code.chars().collect();
    let (mut i, mut depth) = (0, 0i64);
    while i < chars.len() {
        match chars[i] {
            '/' if chars.get(i + 1) == Some(&'/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '"' => {
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
            }
            // A character literal ('x', '\n', '{'); a lifetime ('a) has no closing quote.
            '\'' if chars.get(i + 2) == Some(&'\'') => i += 2,
            '\'' if chars.get(i + 1) == Some(&'\\') => {
                i += 2;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
            }
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    depth
}

#[test]
fn every_listing_closes_the_braces_it_opens() {
    // A region that starts at `impl X {` and ends before its `}` shows the reader an
    // unclosed block; one that ends after a `}` it never opened, a stray one.
    assert_eq!(brace_balance("fn f() { let s = \"{\"; let c = '}'; } // {"), 0);
    assert_eq!(brace_balance("impl<'a> X<'a> {\n    fn f() {}\n"), 1);
    let unbalanced: Vec<String> = rust_listings()
        .into_iter()
        .filter(|(_, _, region)| brace_balance(&region.join("\n")) != 0)
        .map(|(path, anchor, region)| {
            format!("{path}:{anchor}: {:+}", brace_balance(&region.join("\n")))
        })
        .collect();
    assert!(
        unbalanced.is_empty(),
        "listings with unbalanced braces:\n{}",
        unbalanced.join("\n")
    );
}

/// Whether a table cell is a duration typed by hand ("0.149 ms", "15.4 ms (67 M bodies/s)").
fn is_timing_cell(cell: &str) -> bool {
    let mut words = cell.split_whitespace();
    let number =
        words.next().is_some_and(|w| w.replace(',', "").parse::<f64>().is_ok());
    number && matches!(words.next(), Some("s" | "ms" | "µs" | "ns"))
}

#[test]
fn timings_on_the_pages_come_from_criterion_tables() {
    let dir = book_src().join("benchmarks");
    let mut included = BTreeSet::new();
    for page in pages() {
        let text = fs::read_to_string(&page).unwrap();
        for (path, _) in includes(&text) {
            // Chapter pages sit one folder down; the appendix sits beside the folder.
            let file = path.strip_prefix("../benchmarks/");
            if let Some(file) = file.or_else(|| path.strip_prefix("benchmarks/")) {
                included.insert(file.to_string());
            }
        }
        for line in text.lines().filter(|l| l.trim_start().starts_with('|')) {
            assert!(
                !line.split('|').any(is_timing_cell),
                "{}: a timing typed into a table; include a table from `pbm bench-tables` \
                 instead:\n{line}",
                page.display()
            );
        }
    }
    for table in &pbm::timing_tables() {
        table.check_compare().unwrap();
        // Each table is its one recorded run's numbers, rendered: the run is named under
        // it, every row comes from it, and it has at least three rounds.
        let data =
            pbm::benchmarks::TableData::committed(&dir, table).unwrap_or_else(|e| {
                panic!(
                    "{}: {e}; run `{}` and `cargo run --release -- bench-tables`",
                    table.file,
                    pbm::benchmarks::run_command(&pbm::benchmarks::packages(table))
                )
            });
        assert!(
            data.tag.rounds >= pbm::benchmarks::MIN_ROUNDS,
            "{} comes from {} rounds",
            table.file,
            data.tag.rounds
        );
        for row in table.rows {
            assert!(
                data.medians(row.id).is_some_and(|m| m.len() == data.tag.rounds),
                "{}: run {} has no complete rounds for {}",
                table.file,
                data.tag.id,
                row.id
            );
        }
        let text = fs::read_to_string(dir.join(table.file)).unwrap();
        assert_eq!(
            text,
            pbm::benchmarks::render(table, &data),
            "{} is not its run's numbers: run `cargo run --release -- bench-tables`",
            table.file
        );
        assert!(
            included.contains(table.file),
            "no page includes benchmarks/{}",
            table.file
        );
    }
    let mut known: BTreeSet<String> = pbm::timing_tables()
        .iter()
        .flat_map(|t| [t.file.to_string(), pbm::benchmarks::data_file(t)])
        .collect();
    // The adaptive solvers' work table and the side tables (what a benchmark measured
    // besides time), written from the files the benchmarks leave.
    let sides = pbm::benchmarks::SIDE_TABLES.iter().map(|t| t.out);
    for side in sides.chain(["production-ode-work.md"]) {
        known.insert(side.to_string());
        assert!(included.contains(side), "no page includes benchmarks/{side}");
    }
    for entry in fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            known.contains(name.as_str()),
            "benchmarks/{name} is registered in no chapter's TABLES"
        );
    }
    assert!(is_timing_cell(" 0.149 ms (67 M bodies/s) ") && !is_timing_cell(" 4.6 "));
}

#[test]
fn every_figure_a_page_shows_is_registered() {
    let registered: BTreeSet<String> = pbm::chapters()
        .iter()
        .flat_map(|c| {
            c.figures.iter().map(move |f| format!("{}/{}.svg", c.id, f.name))
        })
        .collect();
    let mut shown = BTreeSet::new();
    for page in pages() {
        let text = fs::read_to_string(&page).unwrap();
        for (i, _) in text.match_indices("](../figures/") {
            let rest = &text[i + "](../figures/".len()..];
            let name = &rest[..rest.find(')').unwrap()];
            assert!(
                registered.contains(name),
                "{} shows figures/{name}, which no chapter draws",
                page.display()
            );
            shown.insert(name.to_string());
        }
    }
    // And the other way round: a figure no page shows is dead weight.
    assert_eq!(shown, registered, "figures drawn but shown on no page");
}

#[test]
fn every_chapter_crate_has_a_page_that_includes_its_code() {
    let all_pages: String =
        pages().iter().map(|p| fs::read_to_string(p).unwrap()).collect();
    let chapters_dir = pbm::repo_root().join("chapters");
    for entry in fs::read_dir(chapters_dir).unwrap() {
        let dir = entry.unwrap().path();
        let name = dir.file_name().unwrap().to_str().unwrap().to_string();
        // `all` is the list of chapters, not a chapter's code.
        if !dir.join("Cargo.toml").exists() || name == "all" {
            continue;
        }
        assert!(
            all_pages.contains(&format!("chapters/{name}/src/")),
            "no page includes code from chapters/{name}"
        );
    }
    for chapter in pbm::chapters() {
        assert!(
            book_src().join(chapter.pages).join("index.md").exists(),
            "{}",
            chapter.id
        );
    }
}

#[test]
fn every_crate_under_chapters_is_registered_built_and_in_the_summary() {
    // A new chapter is one crate, its name in `pbm-chapters` (chapters/all), its pages
    // and its SUMMARY entry: forgetting the registration or the summary fails here.
    let root = pbm::repo_root();
    let summary = fs::read_to_string(book_src().join("SUMMARY.md")).unwrap();
    let chapters = pbm::chapters();
    for entry in fs::read_dir(root.join("chapters")).unwrap() {
        let dir = entry.unwrap().path();
        let name = dir.file_name().unwrap().to_str().unwrap().to_string();
        // The chapters are the numbered crates; 00 is the shared vocabulary and
        // `all` the list of chapters (the workspace takes every folder by glob).
        let numbered = name.starts_with(|c: char| c.is_ascii_digit());
        if !dir.join("Cargo.toml").exists() || !numbered || name == "00-preliminaries"
        {
            continue;
        }
        assert!(
            chapters.iter().any(|c| c.pages == name),
            "chapters/{name} is not registered in pbm_chapters::chapters() \
             (chapters/all/src/lib.rs)"
        );
        assert!(
            summary.contains(&format!("]({name}/index.md)")),
            "chapters/{name} has no chapter in book/src/SUMMARY.md"
        );
    }
    for (i, chapter) in chapters.iter().enumerate() {
        assert_eq!(chapter.number as usize, i + 1, "{} is out of order", chapter.id);
        assert!(
            chapter.pages.starts_with(&format!("{:02}-", chapter.number)),
            "{}: pages {} do not start with its number",
            chapter.id,
            chapter.pages
        );
    }
}

#[test]
fn figures_and_demos_draw_on_the_scenes_never_on_the_exercises() {
    // What a figure, a demo and an exercise share is a chapter's `scenes` (or a
    // module of the physics); an exercise is one way to run it, not a source of
    // setups, so the three can change apart.
    let root = pbm::repo_root();
    for entry in fs::read_dir(root.join("chapters")).unwrap() {
        let src = entry.unwrap().path().join("src");
        // `figures.rs` and `demos.rs`, or a folder of either.
        let mut files = Vec::new();
        for room in ["figures", "demos"] {
            files.push(src.join(format!("{room}.rs")));
            rust_files(&src.join(room), &mut files);
        }
        for file in files {
            let Ok(code) = fs::read_to_string(&file) else { continue };
            assert!(
                !code.contains("crate::exercises"),
                "{} imports from the exercises",
                file.display()
            );
        }
    }
}

#[test]
fn summary_lists_every_page_and_only_existing_ones() {
    let summary = fs::read_to_string(book_src().join("SUMMARY.md")).unwrap();
    let listed: BTreeSet<PathBuf> = summary
        .match_indices("](")
        .map(|(i, _)| {
            let rest = &summary[i + 2..];
            book_src().join(&rest[..rest.find(')').unwrap()])
        })
        .collect();
    for path in &listed {
        assert!(
            path.exists(),
            "SUMMARY lists {}, which does not exist",
            path.display()
        );
    }
    for page in pages() {
        if page.file_name().is_some_and(|n| n == "SUMMARY.md") {
            continue;
        }
        assert!(listed.contains(&page), "{} is not in SUMMARY.md", page.display());
    }
}

#[test]
fn the_built_book_renders_math_and_loads_nothing_remote() {
    let out = tempfile::tempdir().unwrap();
    pbm::book::build_book(
        &pbm::chapters(),
        &pbm::repo_root().join("book"),
        Some(out.path()),
    )
    .unwrap();
    // The committed subset of the math font draws every character the formulas use, so
    // the book ships it and not the whole font (book-tools/fonts/subset-math-font.sh).
    let font = fs::read(out.path().join("fonts").join(pbm::math::MATH_FONT)).unwrap();
    let subset = pbm::math::math_font_woff2(&Default::default()).unwrap().0;
    assert_eq!(
        font, subset,
        "the math font's subset lacks a character a formula uses (see the build's note)"
    );
    let chapters = pbm::chapters();
    let (output_dir, benchmarks_dir) =
        (book_src().join("output"), book_src().join("benchmarks"));
    let values = pbm::values::Values {
        chapters: &chapters,
        output_dir: &output_dir,
        benchmarks_dir: &benchmarks_dir,
    };
    let mut html_pages = 0;
    for page in pages() {
        let relative = page.strip_prefix(book_src()).unwrap().with_extension("html");
        if relative.file_name().is_some_and(|n| n == "SUMMARY.html") {
            continue;
        }
        let html = fs::read_to_string(out.path().join(&relative))
            .unwrap_or_else(|e| panic!("{}: {e}", relative.display()));
        html_pages += 1;
        // Numbers first, as the book does: a `{{#value}}` may stand inside math.
        let source = values.expand(&fs::read_to_string(&page).unwrap()).unwrap();
        if pbm::math::render_math(&source).unwrap() != source {
            assert!(
                html.contains("<math"),
                "{}: math not rendered",
                relative.display()
            );
        }
        // No unrendered TeX left outside code blocks.
        let prose: String =
            html.split("<pre").map(|s| s.split("</pre>").last().unwrap()).collect();
        assert!(!prose.contains("$$"), "{}: raw $$ left", relative.display());
        for attr in ["src=\"http", "href=\"http"] {
            for (i, _) in html.match_indices(attr) {
                let context = &html[i.saturating_sub(60)..i];
                // Ordinary links (<a href>) are fine; loaded resources are not.
                assert!(
                    attr.starts_with("href")
                        && context
                            .rfind('<')
                            .is_some_and(|j| context[j..].starts_with("<a ")),
                    "{}: loads a remote resource near `{}`",
                    relative.display(),
                    &html[i.saturating_sub(60)..(i + 80).min(html.len())]
                );
            }
        }
        assert!(!html.contains("mathjax"), "{}: MathJax script", relative.display());
    }
    assert!(html_pages >= 8);
    // Vectors are bold in the page itself (Unicode bold letters), whatever the
    // browser does with styles, and minus signs are minus signs.
    let ode = fs::read_to_string(out.path().join("01-ode/index.html")).unwrap();
    assert!(ode.contains('𝐱'), "no bold x in chapter 1's formulas");
    assert!(!ode.contains("<mo>-</mo>"), "a hyphen used as a minus sign");
    // Listings say which file they come from.
    let forces =
        fs::read_to_string(out.path().join("02-particles/forces.html")).unwrap();
    assert!(
        forces.contains(
            "<p class=\"listing-file\"><code>chapters/02-particles/src/spring.rs</code>"
        ),
        "no caption naming the spring's file"
    );
    // Figures are numbered in every chapter, in reading order across its pages.
    let models =
        fs::read_to_string(out.path().join("04-constraints/models.html")).unwrap();
    assert!(
        models.contains("Figure 4.4.</strong>")
            && models.contains("Figure 4.5.</strong>")
    );
    let adaptive =
        fs::read_to_string(out.path().join("01-ode/adaptive.html")).unwrap();
    assert!(adaptive.contains("Figure 1.6.</strong>"));
    // The math font the CSS names is in the build.
    assert!(out.path().join("fonts").join(pbm::math::MATH_FONT).exists());
    // Search works offline: a local index that knows the book's words.
    let index = fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("searchindex"))
        })
        .expect("a search index in the built book");
    let index = fs::read_to_string(index).unwrap();
    for word in ["quaternion", "euler", "stiffness"] {
        assert!(index.contains(word), "the search index does not know `{word}`");
    }
}

/// A measured-looking number in a page's prose: a decimal or grouped number followed by
/// a unit, any number followed by ms, µs, steps/s or ×, a magnitude in words ("29
/// million") or a decimal ratio in words ("0.90 times"). Code, math and directives are
/// left out (a directive's number comes from the code).
fn typed_numbers(text: &str) -> Vec<String> {
    let blank = |text: &str, pattern: &str| -> String {
        regex::Regex::new(pattern)
            .unwrap()
            .replace_all(text, |c: &regex::Captures| {
                c[0].chars()
                    .map(|ch| if ch == '\n' { '\n' } else { ' ' })
                    .collect::<String>()
            })
            .into_owned()
    };
    let mut text = text.to_string();
    for pattern in [
        r"(?s)```.*?```",
        r"(?s)\$\$.*?\$\$",
        r"\$[^$\n]*\$",
        r"`[^`\n]*`",
        r"\{\{#[^}]*\}\}",
    ] {
        text = blank(&text, pattern);
    }
    let unit = r"(?:m|s|ms|µs|us|ns|mm|cm|km|J|N|Nm|kg|g|Hz|kHz|rad|°|%|×|x|m/s|m/s²|steps/s|steps a second|M pairs/s)";
    // A measured-looking number with its unit, the two perhaps on two lines of the
    // source ("0.004\nrad"); a count in prose, grouped in thousands and followed by
    // what it counts ("3,247 directions", "624,000 tests").
    let number = format!(
        r"(?:^|[^\w.,])((?:(?:\d{{1,3}}(?:,\d{{3}})+|\d+)?\.\d+(?:e[-+]?\d+)?\s*{unit})|(?:\d{{1,3}}(?:,\d{{3}})+\s*{unit})|(?:\d+(?:\.\d+)?\s*(?:ms|µs|steps/s|×))|(?:\d{{1,3}}(?:,\d{{3}})+\s+[A-Za-z][\w-]*)|(?:\d+(?:\.\d+)?\s+(?:thousand|million|billion|trillion))|(?:\d+\.\d+\s+times))(?:[^\w]|$)"
    );
    let number = regex::Regex::new(&number).unwrap();
    // The whole text at once, so that a number and its unit on two lines are one hit;
    // a hit is reported with its spaces and line break as one space.
    let mut hits = Vec::new();
    let mut at = 0;
    while let Some(c) = number.captures_at(&text, at) {
        let m = c.get(1).unwrap();
        hits.push(m.as_str().split_whitespace().collect::<Vec<_>>().join(" "));
        // The character after the hit may begin the next one's context.
        at = m.end();
    }
    hits
}

#[test]
fn pages_hold_no_control_characters_or_eaten_tex_escapes() {
    // A backslash read as a C escape by some tool on the way to the file leaves a control
    // byte where a TeX command began: `\frac` becomes a form feed and `rac`, which the
    // math renderer takes for three letters, so the page shows garbage and no other
    // check notices. Any control character but a newline and a tab fails (a carriage
    // return too); so does the tail of a command an escape can eat (`\t` of `\theta`,
    // `\n` of `\nabla`, `\b` of `\beta`...) standing alone inside math.
    let math = regex::Regex::new(r"(?s)\$\$.*?\$\$|\$[^$\n]*\$").unwrap();
    let eaten = regex::Regex::new(
        r"(?:^|[^A-Za-z\\])(rac|heta|imes|abla|lpha|ight|ilde|eta|ewline)(?:[^A-Za-z]|$)",
    )
    .unwrap();
    let mut problems = Vec::new();
    for page in pages() {
        let text = fs::read_to_string(&page).unwrap();
        let line_of = |at: usize| text[..at].matches('\n').count() + 1;
        for (at, c) in text.char_indices() {
            if c.is_control() && c != '\n' && c != '\t' {
                problems.push(format!(
                    "{}:{}: control character U+{:04X}",
                    page.display(),
                    line_of(at),
                    u32::from(c)
                ));
            }
        }
        for span in math.find_iter(&text) {
            let body = span.as_str();
            if body.contains('\t') {
                problems.push(format!(
                    "{}:{}: a tab inside math (a `\\t` eaten?)",
                    page.display(),
                    line_of(span.start())
                ));
            }
            for hit in eaten.captures_iter(body) {
                problems.push(format!(
                    "{}:{}: `{}` inside math, the tail of a TeX command whose backslash \
                     and first letter were read as an escape",
                    page.display(),
                    line_of(span.start()),
                    &hit[1]
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn typed_numbers_are_directives_or_allowed() {
    // A number a run produces comes onto the page through `{{#value}}`, `{{#default}}`
    // or `{{#timing}}`, and cannot drift. What stays typed is listed, with its reason,
    // in tests/typed-numbers.allow: a problem's setup, a source's number, a count that
    // is the argument.
    let allow_file = pbm::repo_root().join("tests/typed-numbers.allow");
    let allow_text = fs::read_to_string(&allow_file).unwrap();
    let mut allowed: BTreeMap<(String, String), usize> = BTreeMap::new();
    for line in
        allow_text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let cells: Vec<&str> = line.split(" | ").map(str::trim).collect();
        assert!(
            cells.len() == 3 && !cells[2].is_empty(),
            "tests/typed-numbers.allow: `{line}` is not `page | number | reason`"
        );
        *allowed.entry((cells[0].to_string(), cells[1].to_string())).or_default() +=
            1;
    }
    let mut found: BTreeMap<(String, String), usize> = BTreeMap::new();
    for page in pages() {
        let relative =
            page.strip_prefix(book_src()).unwrap().to_string_lossy().into_owned();
        if relative.starts_with("output/") || relative.starts_with("benchmarks/") {
            continue;
        }
        for hit in typed_numbers(&fs::read_to_string(&page).unwrap()) {
            *found.entry((relative.clone(), hit)).or_default() += 1;
        }
    }
    let mut problems = Vec::new();
    for (key, n) in &found {
        let allowed_n = allowed.get(key).copied().unwrap_or(0);
        if *n > allowed_n {
            problems.push(format!(
                "{}: `{}` typed by hand {n} time(s), allowed {allowed_n}: put it on the page \
                 with a directive, or add it to tests/typed-numbers.allow with a reason",
                key.0, key.1
            ));
        }
    }
    for (key, n) in &allowed {
        if found.get(key).copied().unwrap_or(0) < *n {
            problems.push(format!(
                "tests/typed-numbers.allow lists `{}` on {} more often than the page has it: \
                 remove the entry",
                key.1, key.0
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let total: usize = allowed.values().sum();
    assert!(total <= 75, "{total} numbers typed by hand: the book keeps at most 75");
    // The scanner finds what it should and skips what it should.
    assert_eq!(
        typed_numbers("fell 0.13 m in 2,112 steps/s and 4 ms, 2.5×"),
        ["0.13 m", "2,112 steps/s", "4 ms", "2.5×"]
    );
    // Across a line break, and counts in prose.
    assert_eq!(
        typed_numbers(
            "never turns more than 0.004\nrad; it tested 3,247 directions\nwhere 624,000\ntests"
        ),
        ["0.004 rad", "3,247 directions", "624,000 tests"]
    );
    // Magnitudes and ratios in words, which carry no unit.
    assert_eq!(
        typed_numbers(
            "checks 29 million pairs, 1.5 billion\nin all, 0.90 times as long"
        ),
        ["29 million", "1.5 billion", "0.90 times"]
    );
    assert!(typed_numbers("in 2026, 40 boxes and 1,000.").is_empty());
    assert!(
        typed_numbers("`0.1 m` $0.2\\,\\mathrm{m}$ {{#value a/b /c unit=m}} 3 m")
            .is_empty()
    );
}

#[test]
fn every_practice_task_is_on_its_exercises_page_and_names_a_real_equation() {
    let chapters = pbm::chapters();
    let equations = pbm::equations::Equations::of_book(&book_src()).unwrap();
    let mut tasks = 0;
    for chapter in &chapters {
        for task in chapter.practice {
            tasks += 1;
            let page = fs::read_to_string(book_src().join(task.page)).unwrap();
            assert!(!page.is_empty(), "{}: {}", task.id, task.page);
            let eq = equations.get(task.equation).unwrap_or_else(|| {
                panic!("{}: no display labelled {}", task.id, task.equation)
            });
            assert!(
                eq.page.to_str() == Some(task.page),
                "{}: {} is on {}, not {}",
                task.id,
                task.equation,
                eq.page.display(),
                task.page
            );
            let exercises = fs::read_to_string(
                book_src().join(chapter.pages).join("exercises.md"),
            )
            .unwrap();
            assert!(
                exercises.contains(&format!("practice start {}`", task.id)),
                "{}: not under \"Implement it\" on {}/exercises.md",
                task.id,
                chapter.pages
            );
            assert!(task.solution.text().is_some(), "{}: no solution", task.id);
            assert!(
                task.stub.contains("todo!("),
                "{}: the stub is not a stub",
                task.id
            );
        }
    }
    assert!(tasks > 0);
}

/// The statements of a Rust file that `practice solution` must keep for its answer to
/// compile where the stub sits: every `use …;` and every `pub fn …` signature, each
/// with its whitespace folded.
fn drop_in_items(source: &str) -> Vec<String> {
    let code: String = source
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let fold = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut items = Vec::new();
    for (start, _) in code.match_indices("use ") {
        if start == 0 || code[..start].ends_with('\n') {
            let end = code[start..].find(';').map_or(code.len(), |e| start + e);
            items.push(fold(&code[start..end]));
        }
    }
    for (start, _) in code.match_indices("pub fn ") {
        let end = code[start..].find(" {").map_or(code.len(), |e| start + e);
        items.push(fold(&code[start..end]));
    }
    items
}

#[test]
fn every_practice_solution_compiles_where_its_stub_sits() {
    // `practice solution` prints the answer's whole file: the stub's imports and
    // signature with the book's body, so a reader who pastes it over the stub gets ✓.
    for chapter in pbm::chapters() {
        for task in chapter.practice {
            let answer = drop_in_items(task.solution.source);
            for item in drop_in_items(task.stub) {
                assert!(
                    answer.contains(&item),
                    "{}: the solution's file lacks the stub's `{item}`",
                    task.id
                );
            }
        }
    }
}

#[test]
fn the_editors_practice_crate_declares_every_task_and_names_every_chapter() {
    // rust-analyzer sees a reader's file only as a module of a crate: `practice/`'s,
    // whose modules are the tasks' files and whose dependencies the crates they name.
    let chapters = pbm::chapters();
    for (file, text) in [
        ("practice/src/lib.rs", pbm::practice::editor_lib(&chapters)),
        ("practice/Cargo.toml", pbm::practice::editor_manifest(&chapters)),
    ] {
        let committed = fs::read_to_string(pbm::repo_root().join(file)).unwrap();
        assert!(
            committed == text,
            "{file} is not what the tasks make it: `cargo run --release -- book` writes it"
        );
    }
    // Every crate a task's file names is a dependency of the editor's crate.
    let manifest = pbm::practice::editor_manifest(&chapters);
    for task in chapters.iter().flat_map(|c| c.practice) {
        for line in task.stub.lines().filter_map(|l| l.strip_prefix("use ")) {
            let name = line.split("::").next().unwrap().replace('_', "-");
            assert!(
                manifest.contains(&format!("\n{name} = {{"))
                    || manifest.contains(&format!("\n{name}.workspace")),
                "{}: its file names {name}, which practice/Cargo.toml lacks",
                task.id
            );
        }
    }
}

/// Every crate and feature `cargo tree` finds for a build selecting `packages` (none: the
/// default members, as `cargo run --release` builds), without the runner's own lines. A
/// selected crate's own features (`default` among them) show only in its inverted tree,
/// so each crate of `inverted` is asked for that too.
fn features_built(packages: &[String], inverted: &[String]) -> BTreeSet<String> {
    let tree = |extra: &[&str]| {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut command = std::process::Command::new(cargo);
        command
            .current_dir(pbm::repo_root())
            .args(["tree", "--edges", "features,no-dev", "--prefix", "none"])
            .args(extra);
        for name in packages {
            command.args(["-p", name]);
        }
        let out = command.output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let mut lines: Vec<String> = tree(&[]).lines().map(String::from).collect();
    for name in inverted {
        let own = format!("{name} feature");
        lines.extend(
            tree(&["-i", name])
                .lines()
                .filter(|l| l.starts_with(&own))
                .map(String::from),
        );
    }
    lines
        .iter()
        .filter(|l| !l.is_empty() && !l.contains("pbm-practice-runner"))
        .map(|l| l.replace(" (*)", "").replace(" (command-line)", ""))
        .collect()
}

#[test]
fn a_practice_check_builds_the_chapters_as_cargo_run_does() {
    // The first check after `cargo run --release` must reuse the chapters it compiled:
    // a crate built with another set of features (even just `default`) is another
    // build, minutes of compiling.
    let chapters = pbm::chapters();
    let packages = pbm::practice::packages(&chapters);
    let run = features_built(&[], &packages[2..]);
    let check = features_built(&packages, &packages[2..]);
    assert!(run.contains("pbm-ode feature \"default\""), "{run:?}");
    let only = |a: &BTreeSet<String>, b: &BTreeSet<String>| {
        a.difference(b)
            .filter(|l| !l.starts_with("pbm-web"))
            .cloned()
            .collect::<Vec<_>>()
    };
    // pbm-web is a default member the check does not build; nothing it asks for is
    // shared with the chapters' build (its crate and features are its own lines).
    assert!(
        only(&run, &check).is_empty() && only(&check, &run).is_empty(),
        "features of `cargo run --release` only: {:?}; of the check only: {:?}",
        only(&run, &check),
        only(&check, &run)
    );
}

/// A workspace crate as `cargo metadata` describes it: its folder (from the repository's
/// root), its features, and its dependencies on the workspace's crates, each as (kind,
/// name) with kind `""`, `"dev"` or `"build"`.
struct Manifest {
    folder: PathBuf,
    depends_on: BTreeSet<(String, String)>,
    features: BTreeMap<String, Vec<String>>,
}

/// Every crate of the workspace, by name, read with `cargo metadata`.
fn manifests() -> BTreeMap<String, Manifest> {
    let root = pbm::repo_root();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = std::process::Command::new(cargo)
        .args(["metadata", "--no-deps", "--format-version", "1"])
        .current_dir(&root)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let packages = metadata["packages"].as_array().unwrap();
    let names: BTreeSet<&str> =
        packages.iter().map(|p| p["name"].as_str().unwrap()).collect();
    packages
        .iter()
        .map(|package| {
            let manifest = PathBuf::from(package["manifest_path"].as_str().unwrap());
            let folder = manifest.parent().unwrap();
            let folder = folder.strip_prefix(&root).unwrap_or(folder).to_path_buf();
            let depends_on = package["dependencies"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| names.contains(d["name"].as_str().unwrap()))
                .map(|d| {
                    let kind = d["kind"].as_str().unwrap_or("").to_string();
                    (kind, d["name"].as_str().unwrap().to_string())
                })
                .collect();
            let features =
                serde_json::from_value(package["features"].clone()).unwrap();
            let name = package["name"].as_str().unwrap().to_string();
            (name, Manifest { folder, depends_on, features })
        })
        .collect()
}

/// The crates of the chapters: those in a `chapters/NN-name/` folder.
fn chapter_crates(manifests: &BTreeMap<String, Manifest>) -> BTreeSet<String> {
    let numbered = |folder: &str| {
        let bytes = folder.as_bytes();
        bytes.len() > 3
            && bytes[..2].iter().all(u8::is_ascii_digit)
            && bytes[2] == b'-'
    };
    manifests
        .iter()
        .filter(|(_, m)| {
            m.folder.parent() == Some(std::path::Path::new("chapters"))
                && m.folder
                    .file_name()
                    .is_some_and(|f| numbered(&f.to_string_lossy()))
        })
        .map(|(name, _)| name.clone())
        .collect()
}

/// Splits a list at the commas outside parentheses.
fn split_list(list: &str) -> Vec<String> {
    let (mut items, mut item, mut depth) = (Vec::new(), String::new(), 0);
    for c in list.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                items.push(std::mem::take(&mut item));
                continue;
            }
            _ => {}
        }
        item.push(c);
    }
    items.push(item);
    items
        .into_iter()
        .map(|i| i.trim().to_string())
        .filter(|i| !i.is_empty())
        .collect()
}

/// The ladder in ARCHITECTURE.md, as (crate, what its line says it depends on, each as
/// (kind, name)). A line that starts with a crate's name (after a chapter's number) states
/// its dependencies: the list after `→` up to two spaces, a `│` or the line's end, going on
/// to the next line while it ends with a comma. "every chapter" is every chapter crate; an
/// item's parenthesis is a remark but for `(dev)` and `(build)`; a crate drawn inside the
/// box also builds on pbm-prelim (the arrow under the box).
fn ladder(
    manifests: &BTreeMap<String, Manifest>,
) -> Vec<(String, BTreeSet<(String, String)>)> {
    let text = fs::read_to_string(pbm::repo_root().join("ARCHITECTURE.md")).unwrap();
    let section =
        &text[text.find("## The crate ladder").expect("no ladder section")..];
    let block = &section[section.find("```text\n").unwrap() + "```text\n".len()..];
    let lines: Vec<&str> = block[..block.find("```").unwrap()].lines().collect();
    // A line's text inside the drawing's frame.
    let inside = |line: &str| line.trim().trim_matches('│').trim().to_string();
    let until_a_gap =
        |text: &str| text.split("  ").next().unwrap().trim().to_string();
    let resolve = |subject: &str, item: &str| -> String {
        [item.to_string(), format!("pbm-{item}")]
            .into_iter()
            .find(|name| manifests.contains_key(name))
            .unwrap_or_else(|| {
                panic!("ARCHITECTURE.md, {subject}: no crate {item} or pbm-{item}")
            })
    };
    let mut statements = Vec::new();
    let mut in_box = false;
    for (i, line) in lines.iter().enumerate() {
        in_box = (in_box || line.contains('┌')) && !line.contains('└');
        let text = inside(line);
        let mut words = text.split_whitespace().peekable();
        words.next_if(|w| w.chars().all(|c| c.is_ascii_digit()));
        let Some(subject) = words.next().filter(|w| manifests.contains_key(*w))
        else {
            continue;
        };
        let mut list =
            text.split_once('→').map(|(_, l)| until_a_gap(l)).unwrap_or_default();
        let mut next = i + 1;
        while list.ends_with(',') && next < lines.len() {
            list = format!("{list} {}", until_a_gap(&inside(lines[next])));
            next += 1;
        }
        let mut stated = BTreeSet::new();
        if in_box {
            stated.insert((String::new(), "pbm-prelim".to_string()));
        }
        for item in split_list(&list) {
            let (name, remark) = match item.split_once('(') {
                Some((name, remark)) => {
                    (name.trim(), remark.trim_end_matches(')').trim())
                }
                None => (item.as_str(), ""),
            };
            let kind = if matches!(remark, "dev" | "build") { remark } else { "" };
            let names: Vec<String> = if name == "every chapter" {
                chapter_crates(manifests).into_iter().collect()
            } else {
                vec![resolve(subject, name)]
            };
            stated.extend(names.into_iter().map(|n| (kind.to_string(), n)));
        }
        statements.push((subject.to_string(), stated));
    }
    statements
}

#[test]
fn the_crate_ladder_is_the_manifests() {
    // ARCHITECTURE.md draws which crate builds on which; the manifests decide it. Every
    // crate of the workspace but a newly added chapter has one line, and the line lists
    // exactly its dependencies.
    let manifests = manifests();
    let ladder = ladder(&manifests);
    assert!(ladder.len() >= 10, "only {} crates found in the ladder", ladder.len());
    let kind = |k: &str| if k.is_empty() { String::new() } else { format!("{k}-") };
    let mut problems = Vec::new();
    let mut drawn = BTreeSet::new();
    for (name, stated) in &ladder {
        if !drawn.insert(name.clone()) {
            problems.push(format!("{name} has two lines in the ladder"));
        }
        let actual = &manifests[name].depends_on;
        let manifest = manifests[name].folder.join("Cargo.toml");
        for (k, dep) in actual.difference(stated) {
            problems.push(format!(
                "{name}: {} has the {}dependency {dep}, which the ladder does not list",
                manifest.display(),
                kind(k)
            ));
        }
        for (k, dep) in stated.difference(actual) {
            problems.push(format!(
                "{name}: the ladder lists the {}dependency {dep}, which {} does not have",
                kind(k),
                manifest.display()
            ));
        }
    }
    // A chapter added after the drawing may wait for its line (adding a chapter edits
    // four files, CONTRIBUTING.md recipe 1); every other crate must be drawn.
    let chapters = chapter_crates(&manifests);
    for name in
        manifests.keys().filter(|n| !drawn.contains(*n) && !chapters.contains(*n))
    {
        problems.push(format!(
            "{name} is a crate of the workspace with no line in the ladder"
        ));
    }
    assert!(
        problems.is_empty(),
        "ARCHITECTURE.md, \"The crate ladder\", differs from the manifests:\n{}",
        problems.join("\n")
    );
}

#[test]
fn every_chapter_forwards_book_and_parallel_to_the_chapters_it_builds_on() {
    // ARCHITECTURE.md, "Features": a chapter built with `book` (or `parallel`) builds the
    // chapters under it the same way, so a figure never runs an earlier chapter's code
    // without its parallel loops, nor a registry without its book parts.
    let manifests = manifests();
    let chapters = chapter_crates(&manifests);
    let mut missing = Vec::new();
    for name in &chapters {
        let manifest = &manifests[name];
        for (_, dep) in manifest
            .depends_on
            .iter()
            .filter(|(k, d)| k.is_empty() && chapters.contains(d))
        {
            for feature in ["book", "parallel"] {
                let forwarded = format!("{dep}/{feature}");
                let listed = manifest
                    .features
                    .get(feature)
                    .is_some_and(|f| f.contains(&forwarded));
                if !listed {
                    missing.push(format!(
                        "{name}: `{feature}` does not forward {forwarded}"
                    ));
                }
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// Every `.rs` file under `dir`, at any depth.
fn rust_files(dir: &std::path::Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_anchor_is_shown_by_a_page_or_a_practice_listing() {
    // An anchor marks a listing; one that nothing shows is a marker left behind when a
    // listing was cut or moved, and misleads whoever reads the source for the book's
    // code. Anchors are matched by file and name.
    let root = fs::canonicalize(pbm::repo_root()).unwrap();
    let relative = |path: &std::path::Path| {
        let path = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        path.strip_prefix(&root).unwrap_or(&path).to_string_lossy().replace('\\', "/")
    };
    let mut files = Vec::new();
    for entry in fs::read_dir(root.join("chapters")).unwrap() {
        rust_files(&entry.unwrap().path().join("src"), &mut files);
    }
    rust_files(&root.join("book-tools/src"), &mut files);
    let sources: BTreeMap<String, String> =
        files.iter().map(|f| (relative(f), fs::read_to_string(f).unwrap())).collect();

    // (file, anchor) → how many start and end markers.
    let mut markers: BTreeMap<(String, String), (usize, usize)> = BTreeMap::new();
    for (file, text) in &sources {
        for line in text.lines().map(str::trim) {
            let key = |name: &str| (file.clone(), name.trim().to_string());
            if let Some(name) = line.strip_prefix("// ANCHOR: ") {
                markers.entry(key(name)).or_default().0 += 1;
            } else if let Some(name) = line.strip_prefix("// ANCHOR_END: ") {
                markers.entry(key(name)).or_default().1 += 1;
            }
        }
    }

    let mut shown = BTreeSet::new();
    for page in pages() {
        let text = fs::read_to_string(&page).unwrap();
        for (path, anchor) in includes(&text) {
            if let Some(anchor) = anchor.filter(|_| path.ends_with(".rs")) {
                shown.insert((relative(&page.parent().unwrap().join(&path)), anchor));
            }
        }
    }
    for chapter in pbm::chapters() {
        for task in chapter.practice {
            let listing = task.solution;
            let file = sources
                .iter()
                .find(|(_, text)| text.as_str() == listing.source)
                .map(|(file, _)| file.clone())
                .unwrap_or_else(|| {
                    panic!("{}: its solution is no file's text", task.id)
                });
            shown.insert((file, listing.anchor.to_string()));
        }
    }
    assert!(shown.len() > 400, "only {} listings shown", shown.len());

    let mut problems = BTreeMap::new();
    for ((file, anchor), &(starts, ends)) in &markers {
        let problem = if (starts, ends) != (1, 1) {
            format!(
                "{starts} `// ANCHOR: {anchor}` and {ends} `// ANCHOR_END: {anchor}`"
            )
        } else if !shown.contains(&(file.clone(), anchor.clone())) {
            format!(
                "anchor `{anchor}` is shown by no page and no practice listing: \
                 delete its two marker lines"
            )
        } else {
            continue;
        };
        problems.insert((file.as_str(), anchor.as_str()), problem);
    }
    let report: Vec<String> = problems
        .iter()
        .map(|((file, _), problem)| format!("{file}: {problem}"))
        .collect();
    assert!(report.is_empty(), "{}", report.join("\n"));
}
