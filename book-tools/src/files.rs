//! The file helpers: a file the book reads is never seen half written, and the stamp
//! that says which build of the code wrote the generated files.

use std::fs;
use std::io;
use std::path::Path;

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

// ANCHOR: code_stamp
/// Which build of the code is running: the executable's path, size and modification
/// time. The book build records it beside the figures and program outputs it wrote;
/// while the same build runs again, those files are what it would write, so a change
/// to a page alone re-renders the pages without redrawing anything.
pub fn code_stamp() -> Option<String> {
    let exe = std::env::current_exe().ok()?;
    let meta = fs::metadata(&exe).ok()?;
    let modified =
        meta.modified().ok()?.duration_since(std::time::UNIX_EPOCH).ok()?;
    Some(format!("{}\n{}\n{}\n", exe.display(), meta.len(), modified.as_nanos()))
}

/// Whether the stamp recorded at `path` is `stamp` (a missing or unreadable record is
/// not).
pub fn stamp_matches(path: &Path, stamp: &str) -> bool {
    fs::read_to_string(path).is_ok_and(|recorded| recorded == stamp)
}
// ANCHOR_END: code_stamp

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
    fn a_stamp_matches_only_what_was_recorded() {
        let dir =
            std::env::temp_dir().join(format!("pbm-stamp-{}", std::process::id()));
        let path = dir.join("stamp");
        let stamp = code_stamp().unwrap_or_default();
        assert_eq!(stamp.lines().count(), 3, "{stamp}");
        assert!(!stamp_matches(&path, &stamp), "nothing recorded yet");
        write_atomically(&path, &stamp).unwrap_or_else(|e| panic!("{e}"));
        assert!(stamp_matches(&path, &stamp));
        assert!(!stamp_matches(&path, &stamp.replace('\n', " ")));
        let _ = fs::remove_dir_all(&dir);
    }
}
