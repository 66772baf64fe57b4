//! The file helpers: a file the book reads is never seen half written, and the stamp
//! that says which code wrote the generated files.

use sha2::{Digest, Sha256};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// Writes `contents` to `path` by writing a temporary file beside it and renaming, so
/// a reader (or a browser) never sees half a figure.
pub fn write_atomically(path: &Path, contents: &str) -> io::Result<()> {
    write_atomically_bytes(path, contents.as_bytes())
}

/// [`write_atomically`] for bytes (a font, an image).
pub fn write_atomically_bytes(path: &Path, contents: &[u8]) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let file_name = path.file_name().and_then(|n| n.to_str()).unwrap_or("figure");
    let tmp = dir.join(format!(".{file_name}.{}.tmp", std::process::id()));
    fs::write(&tmp, contents)?;
    fs::rename(&tmp, path).inspect_err(|_| {
        let _ = fs::remove_file(&tmp);
    })
}

/// Every page of the book under `book_src` (every `.md` file), sorted; the figures'
/// and timing tables' folders hold parts of pages, not pages.
pub fn pages(book_src: &Path) -> Result<Vec<PathBuf>, crate::Error> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
        for entry in fs::read_dir(dir)? {
            let path = entry?.path();
            if path.is_dir() {
                if path
                    .file_name()
                    .is_some_and(|n| n != "figures" && n != "benchmarks")
                {
                    walk(&path, out)?;
                }
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(book_src, &mut out).map_err(|source| crate::Error::Read {
        path: book_src.to_path_buf(),
        source,
    })?;
    out.sort();
    Ok(out)
}

/// A fingerprint of the code that draws the figures and runs the program outputs: the
/// SHA-256 of every file [`code_files`] lists, each with its path. The book build
/// records it beside the files it wrote (`book/generated.stamp`, committed with them).
/// While the code is the code that wrote them, they are what it would write again, so
/// a fresh clone, or a change to a page alone, renders the pages without redrawing.
pub fn code_stamp(root: &Path) -> io::Result<String> {
    let mut hash = Sha256::new();
    for path in code_files(root)? {
        let name = path.strip_prefix(root).unwrap_or(&path).to_string_lossy();
        let bytes = fs::read(&path)?;
        // The path and the length delimit each file: no two lists hash alike.
        hash.update(name.replace('\\', "/").as_bytes());
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(&bytes);
    }
    let hex: String = hash.finalize().iter().map(|b| format!("{b:02x}")).collect();
    Ok(format!("{hex}\n"))
}

/// Whether the stamp recorded at `path` is `stamp` (a missing or unreadable record is
/// not).
pub fn stamp_matches(path: &Path, stamp: &str) -> bool {
    fs::read_to_string(path).is_ok_and(|recorded| recorded == stamp)
}

/// The files the figures and program outputs are made from, sorted: the workspace's
/// manifest and lock file, the binary's `src/`, and everything in `book-tools/` and in
/// each chapter's folder but its tests and benchmarks (the figures' data files too).
pub fn code_files(root: &Path) -> io::Result<Vec<PathBuf>> {
    let mut files = vec![root.join("Cargo.toml"), root.join("Cargo.lock")];
    collect(&root.join("src"), &mut files)?;
    let mut crates = vec![root.join("book-tools")];
    for entry in fs::read_dir(root.join("chapters"))? {
        crates.push(entry?.path());
    }
    for dir in crates {
        for entry in fs::read_dir(&dir)? {
            let path = entry?.path();
            if !path.ends_with("tests") && !path.ends_with("benches") {
                collect(&path, &mut files)?;
            }
        }
    }
    files.sort();
    Ok(files)
}

/// `path` if it is a file, or every file under it; hidden names (an editor's swap
/// file, a half-written temporary) are left out.
fn collect(path: &Path, files: &mut Vec<PathBuf>) -> io::Result<()> {
    let hidden =
        path.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.'));
    if hidden {
        return Ok(());
    }
    if path.is_dir() {
        for entry in fs::read_dir(path)? {
            collect(&entry?.path(), files)?;
        }
    } else {
        files.push(path.to_path_buf());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_file_replaces_the_old_one_and_leaves_no_temporary_behind() {
        let dir =
            std::env::temp_dir().join(format!("pbm-files-{}", std::process::id()));
        let path = dir.join("deeper/a.txt");
        write_atomically(&path, "one").unwrap_or_else(|e| panic!("{e}"));
        write_atomically(&path, "two").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(fs::read_to_string(&path).ok().as_deref(), Some("two"));
        let left: Vec<_> = fs::read_dir(dir.join("deeper"))
            .map(|d| d.filter_map(Result::ok).map(|e| e.file_name()).collect())
            .unwrap_or_default();
        assert_eq!(left.len(), 1, "{left:?}");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_stamp_covers_the_code_and_changes_with_a_byte_of_it() {
        let dir =
            std::env::temp_dir().join(format!("pbm-code-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let file = |name: &str, text: &str| {
            write_atomically(&dir.join(name), text).unwrap_or_else(|e| panic!("{e}"))
        };
        file("Cargo.toml", "[workspace]");
        file("Cargo.lock", "");
        file("src/main.rs", "fn main() {}");
        file("book-tools/src/lib.rs", "");
        file("chapters/01-ode/src/lib.rs", "pub fn f() {}");
        file("chapters/01-ode/data/timings.json", "[]");
        file("chapters/01-ode/tests/exercises.rs", "");
        file("chapters/01-ode/benches/b.rs", "");
        file("chapters/01-ode/src/.lib.rs.swp", "");
        let listed: Vec<String> = code_files(&dir)
            .unwrap_or_else(|e| panic!("{e}"))
            .iter()
            .map(|p| {
                p.strip_prefix(&dir).unwrap_or(p).to_string_lossy().replace('\\', "/")
            })
            .collect();
        assert_eq!(
            listed,
            [
                "Cargo.lock",
                "Cargo.toml",
                "book-tools/src/lib.rs",
                "chapters/01-ode/data/timings.json",
                "chapters/01-ode/src/lib.rs",
                "src/main.rs"
            ]
        );
        let stamp = code_stamp(&dir).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(stamp.trim_end().len(), 64, "{stamp}");
        file("chapters/01-ode/tests/exercises.rs", "// tests do not draw");
        assert_eq!(code_stamp(&dir).ok().as_ref(), Some(&stamp));
        file("chapters/01-ode/src/lib.rs", "pub fn g() {}");
        assert_ne!(code_stamp(&dir).ok().as_ref(), Some(&stamp));
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_stamp_matches_only_what_was_recorded() {
        let dir =
            std::env::temp_dir().join(format!("pbm-stamp-{}", std::process::id()));
        let path = dir.join("stamp");
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let stamp = code_stamp(&root).unwrap_or_else(|e| panic!("{e}"));
        assert!(!stamp_matches(&path, &stamp), "nothing recorded yet");
        write_atomically(&path, &stamp).unwrap_or_else(|e| panic!("{e}"));
        assert!(stamp_matches(&path, &stamp));
        assert!(!stamp_matches(&path, &stamp.replace('\n', " ")));
        let _ = fs::remove_dir_all(&dir);
    }
}
