//! The figure pipeline: every figure renders to a finite, labelled SVG, written atomically, and
//! the result does not depend on the number of threads.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use std::fs;

fn render_with_threads(threads: usize, dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| pbm::figures::render_figures(&pbm::chapters(), dir, None, false))
        .unwrap()
}

#[test]
fn every_figure_renders_identically_with_one_or_two_threads() {
    let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let paths_one = render_with_threads(1, one.path());
    render_with_threads(2, two.path());
    let expected: usize = pbm::chapters().iter().map(|c| c.figures.len()).sum();
    assert_eq!(paths_one.len(), expected);
    for path in paths_one {
        let svg = fs::read_to_string(&path).unwrap();
        let name = path.file_name().unwrap().to_str().unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{name}");
        for bad in ["NaN", "\"inf", " inf", ",inf", "-inf"] {
            assert!(!svg.contains(bad), "{name}: non-finite coordinate ({bad})");
        }
        assert!(svg.contains("<text"), "{name}: no labels");
        let relative = path.strip_prefix(one.path()).unwrap();
        let other = fs::read_to_string(two.path().join(relative)).unwrap();
        assert!(svg == other, "{name} differs between 1 and 2 threads");
    }
    // No temporary files are left behind.
    for chapter in pbm::chapters() {
        for entry in fs::read_dir(one.path().join(chapter.id)).unwrap() {
            let name = entry.unwrap().file_name();
            assert!(!name.to_string_lossy().ends_with(".tmp"), "{name:?} left behind");
        }
    }
}

#[test]
fn atomic_write_replaces_whole_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a/b/figure.svg");
    pbm::figures::write_atomically(&path, "first").unwrap();
    pbm::figures::write_atomically(&path, "second").unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), "second");
    assert_eq!(fs::read_dir(path.parent().unwrap()).unwrap().count(), 1);
}
