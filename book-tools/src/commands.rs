//! The `run` commands a page shows. A reader copies `cargo run --release -- run id --set
//! k=v …` from a console block or from a sentence and expects it to run as shown: the
//! book's tests hold every such command to its exercise's ranges and joint limits
//! ([`check`], quick), and CI runs each one in release against a time limit.

use crate::error::Error;
use pbm_prelim::Chapter;
use std::path::Path;

/// What a reader types before the exercise's id.
pub const PREFIX: &str = "cargo run --release -- run ";

/// One `run` command as a page shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct PageCommand {
    /// The line of the page the command starts on (1-based).
    pub line: usize,
    /// `chapter/exercise`.
    pub id: String,
    /// The `--set` assignments, as typed.
    pub set: Vec<String>,
    /// Whether it asks for `--json`.
    pub json: bool,
    /// The command after [`PREFIX`], on one line.
    pub text: String,
}

/// Every `run` command in a page's Markdown: in console blocks (`$ cargo run …`, a long
/// one continued over lines ending in a backslash, as a shell reads it) and in inline
/// code in a sentence. A command ends at the end of its line or code span, or at a
/// shell's pipe, redirection or comment.
pub fn in_page(text: &str) -> Vec<PageCommand> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut n = 0;
    while n < lines.len() {
        let start = n;
        // A console line continued with " \" goes on over the next line.
        let mut line = lines[n].to_string();
        while line.ends_with(" \\") && n + 1 < lines.len() {
            line.truncate(line.len() - 1);
            n += 1;
            line += lines[n].trim_start();
        }
        n += 1;
        for (at, _) in line.match_indices(PREFIX) {
            let rest = &line[at + PREFIX.len()..];
            let end = rest.find(['`', '|', '>', '#']).unwrap_or(rest.len());
            let words: Vec<&str> = rest[..end].split_whitespace().collect();
            let Some((id, flags)) = words.split_first() else { continue };
            let mut command = PageCommand {
                line: start + 1,
                id: (*id).to_string(),
                set: Vec::new(),
                json: false,
                text: words.join(" "),
            };
            let mut flags = flags.iter();
            while let Some(flag) = flags.next() {
                match *flag {
                    "--set" => {
                        command.set.extend(flags.next().map(|s| s.to_string()))
                    }
                    "--json" => command.json = true,
                    other => command.set.push(format!("(unknown flag {other})")),
                }
            }
            out.push(command);
        }
    }
    out
}

/// Every `run` command on every page under `book_src`, as (page, command); program
/// output (`output/`) and timing tables (`benchmarks/`) are not pages a reader copies
/// from.
pub fn in_book(book_src: &Path) -> Result<Vec<(String, PageCommand)>, Error> {
    let mut out = Vec::new();
    for page in crate::files::pages(book_src)? {
        let relative = page.strip_prefix(book_src).unwrap_or(&page).to_string_lossy();
        if relative.starts_with("output/") || relative.starts_with("benchmarks/") {
            continue;
        }
        let text = std::fs::read_to_string(&page)
            .map_err(|source| Error::Read { path: page.clone(), source })?;
        out.extend(in_page(&text).into_iter().map(|c| (relative.to_string(), c)));
    }
    Ok(out)
}

/// Whether the program accepts `command` as typed: the exercise exists, every flag is
/// one `run` takes, every value parses and lies in its range, and the run is inside
/// every joint limit its exercise declares. The error is the program's own refusal.
pub fn check(chapters: &[Chapter], command: &PageCommand) -> Result<(), Error> {
    if let Some(bad) = command.set.iter().find(|s| s.starts_with("(unknown flag")) {
        return Err(Error::Book(format!("{}: {bad}", command.text)));
    }
    let (chapter, exercise) = crate::find_exercise(chapters, &command.id)?;
    exercise.admit(chapter.id, &command.set)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_read_from_console_blocks_and_sentences() {
        let page = "Run it:\n\n```console\n$ cargo run --release -- run ode/stability \
                    --set h=0.25\n$ cargo run --release -- run contact/stack --set \
                    solver=sequential \\\n    --set boxes=40 --json | jq .top\n```\n\n\
                    Then `cargo run --release -- run cloth/drape --set h=0.01` again, and \
                    compare with\n`cargo run --release -- run cloth/drape`.\n";
        let commands = in_page(page);
        let summary: Vec<(usize, &str, Vec<&str>, bool)> = commands
            .iter()
            .map(|c| {
                (
                    c.line,
                    c.id.as_str(),
                    c.set.iter().map(String::as_str).collect(),
                    c.json,
                )
            })
            .collect();
        assert_eq!(
            summary,
            [
                (4, "ode/stability", vec!["h=0.25"], false),
                (5, "contact/stack", vec!["solver=sequential", "boxes=40"], true),
                (9, "cloth/drape", vec!["h=0.01"], false),
                (10, "cloth/drape", vec![], false),
            ]
        );
        assert_eq!(
            commands[1].text,
            "contact/stack --set solver=sequential --set boxes=40 --json"
        );
    }

    #[test]
    fn a_flag_run_does_not_take_is_kept_so_the_check_can_refuse_it() {
        let commands =
            in_page("`cargo run --release -- run ode/stability --sett h=1`");
        assert_eq!(commands[0].set, ["(unknown flag --sett)", "(unknown flag h=1)"]);
        let error = check(&[], &commands[0]).unwrap_err();
        assert!(error.to_string().contains("unknown flag --sett"), "{error}");
    }
}
