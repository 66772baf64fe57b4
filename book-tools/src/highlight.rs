//! The syntax highlighter every page loads, cut to the languages the book's listings use.
//!
//! mdBook ships highlight.js 10 with 48 languages, 138 KB a page; the book's listings are
//! Rust, shell sessions (`console`) and plain text. highlight.js's own bundle registers each
//! language in a statement of its own line (`hljs.registerLanguage("rust",…);`) after the
//! library, so the languages the book does not use can be left out line by line, and the
//! library itself is untouched. `pbm book` writes the result as `book/theme/highlight.js`,
//! which mdBook loads instead of its own.

use std::path::Path;

/// The languages the book's listings are written in, with the ones they lean on: `shell`
/// (a ```` ```console ```` block) highlights its commands as `bash`.
pub const LANGUAGES: [&str; 4] = ["rust", "shell", "bash", "plaintext"];

/// mdBook's own highlight.js, as its theme would copy it.
pub fn mdbook_highlight_js() -> std::io::Result<String> {
    let dir =
        std::env::temp_dir().join(format!("pbm-mdbook-theme-{}", std::process::id()));
    for sub in ["theme/css", "theme/fonts"] {
        std::fs::create_dir_all(dir.join(sub))?;
    }
    let copied = mdbook_html::theme::Theme::copy_theme(&Default::default(), &dir)
        .map_err(std::io::Error::other)
        .and_then(|()| std::fs::read_to_string(dir.join("theme/highlight.js")));
    let _ = std::fs::remove_dir_all(&dir);
    copied
}

/// `bundle` (highlight.js's browser bundle) with only the `languages` registered. Errors
/// if the bundle is not laid out as expected or lacks one of them: a new mdBook may ship
/// another highlighter, and the book must not lose its colours silently.
pub fn keep_languages(bundle: &str, languages: &[&str]) -> Result<String, String> {
    const REGISTER: &str = "hljs.registerLanguage(\"";
    let mut out = String::with_capacity(bundle.len() / 4);
    let mut found = Vec::new();
    for line in bundle.split_inclusive('\n') {
        match line.strip_prefix(REGISTER) {
            Some(rest) => {
                let name = rest.split('"').next().unwrap_or_default();
                if languages.contains(&name) {
                    found.push(name);
                    out.push_str(line);
                }
            }
            None => out.push_str(line),
        }
    }
    let missing: Vec<&&str> =
        languages.iter().filter(|l| !found.contains(l)).collect();
    if !missing.is_empty() {
        return Err(format!(
            "mdBook's highlight.js registers none of {missing:?} on a line of its own"
        ));
    }
    if !out.contains("var hljs=") {
        return Err("mdBook's highlight.js is not the highlight.js bundle".into());
    }
    Ok(out)
}

/// Writes the cut highlighter into `book_dir/theme/highlight.js` unless it is there already.
pub fn write_highlight_js(book_dir: &Path) -> Result<(), String> {
    let bundle =
        mdbook_highlight_js().map_err(|e| format!("mdBook's highlight.js: {e}"))?;
    let js = keep_languages(&bundle, &LANGUAGES)?;
    let path = book_dir.join("theme/highlight.js");
    if std::fs::read_to_string(&path).is_ok_and(|old| old == js) {
        return Ok(());
    }
    std::fs::write(&path, js).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cut_highlighter_keeps_the_library_and_the_books_languages_only() {
        let bundle = mdbook_highlight_js().unwrap();
        let cut = keep_languages(&bundle, &LANGUAGES).unwrap();
        assert!(
            cut.len() * 4 < bundle.len(),
            "{} of {} bytes",
            cut.len(),
            bundle.len()
        );
        for language in LANGUAGES {
            assert!(
                cut.contains(&format!("registerLanguage(\"{language}\"")),
                "{language}"
            );
        }
        for gone in ["python", "javascript", "cpp"] {
            assert!(
                bundle.contains(&format!("registerLanguage(\"{gone}\"")),
                "{gone}"
            );
            assert!(!cut.contains(&format!("registerLanguage(\"{gone}\"")), "{gone}");
        }
        // The library comes first and whole: everything before the first language.
        let library = bundle.split("\nhljs.registerLanguage").next().unwrap();
        assert!(cut.starts_with(library));
    }

    #[test]
    fn a_language_the_bundle_lacks_is_an_error() {
        let bundle = "var hljs=function(){}();\nhljs.registerLanguage(\"rust\",x);\n";
        assert!(keep_languages(bundle, &["rust"]).is_ok());
        let e = keep_languages(bundle, &["rust", "shell"]).unwrap_err();
        assert!(e.contains("shell"), "{e}");
    }
}
