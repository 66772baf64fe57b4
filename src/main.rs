//! `pbm`: draw the figures, build the book, list and run the exercises.

use clap::{Parser, Subcommand};
use pbm::{Error, chapters, find_exercise, repo_root};
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "pbm",
    version,
    about = "Physically based modeling: a literate, tested textbook"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Draw every figure and render the book into book/build (the default). Figures
    /// and program outputs are redrawn only when the code changed since the last book
    /// build (a new build of pbm), or with --redraw.
    Book {
        /// Redraw the figures and rerun the program outputs even if this build of pbm
        /// drew them.
        #[arg(long)]
        redraw: bool,
    },
    /// Draw the figures into book/src/figures.
    Figures {
        /// Only this chapter's figures (e.g. `ode`).
        #[arg(long)]
        chapter: Option<String>,
    },
    /// List the chapters, their exercises with parameters and defaults, and their
    /// figures.
    List {
        /// Print one JSON object (for scripts) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Run an exercise, e.g. `pbm run ode/stability --set h=0.25`.
    Run {
        /// CHAPTER/EXERCISE, as shown by `pbm list`.
        id: String,
        /// Set a parameter (repeatable).
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
        /// Print exactly one JSON object on stdout instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Implement the book's methods yourself and have the book check them: `pbm
    /// practice` lists the tasks; `start`, `check`, `hint` and `solution` take one.
    Practice {
        #[command(subcommand)]
        action: Option<PracticeAction>,
        /// Print the tasks as one JSON object (for scripts) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Build the live demos (the chapters' code for WebAssembly) into the book's
    /// module script; `pbm book` does this first.
    Demos,
    /// Record a run of the benchmarks behind the timing tables: `cargo bench` for each
    /// package, several independent rounds, tagged with the commit, machine and date
    /// (target/bench-runs/).
    BenchRun {
        /// Only these packages (e.g. `pbm-contact`); every table's package if none.
        #[arg(long)]
        package: Vec<String>,
        /// Independent rounds: a table needs at least three.
        #[arg(long, default_value_t = 3)]
        rounds: usize,
        /// Options for criterion, e.g. `--measurement-time 3`.
        #[arg(last = true)]
        criterion: Vec<String>,
    },
    /// Turn the recorded runs (target/bench-runs) into the timing tables the pages
    /// include (book/src/benchmarks), each table from one run.
    BenchTables {
        /// Only the tables of this package (e.g. `pbm-contact`); the others keep their
        /// runs.
        #[arg(long)]
        package: Option<String>,
    },
}

#[derive(Subcommand)]
enum PracticeAction {
    /// Write practice/<chapter>-<task>/ with the function to fill in (never over
    /// your own file).
    Start {
        /// CHAPTER/TASK, as `pbm practice` lists them.
        id: String,
    },
    /// Compile your function and run the book's checks on it.
    Check {
        /// CHAPTER/TASK.
        id: String,
    },
    /// Check a task now and again each time you save its file; when it passes, go
    /// on to the next task not yet passed (Ctrl-C stops).
    Watch {
        /// CHAPTER/TASK; without it, the first task started and not yet passed.
        id: Option<String>,
    },
    /// One more hint.
    Hint {
        /// CHAPTER/TASK.
        id: String,
    },
    /// The book's own code for it (after a check).
    Solution {
        /// CHAPTER/TASK.
        id: String,
    },
}

/// Writes a line to stderr, as `eprintln!` does, but never panics: a closed or full
/// stderr loses the message, not the exit code.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Help and the version are answers, printed as clap writes them.
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        // A usage error in one line, as every other refusal is.
        Err(e) => {
            say!("error: {}", one_line(&e.to_string()));
            return ExitCode::from(2);
        }
    };
    let outcome = match cli.command.unwrap_or(Command::Book { redraw: false }) {
        Command::Book { redraw } => book(redraw),
        Command::Figures { chapter } => figures(chapter.as_deref())
            .map(|n| say!("drew {n} figures, wide and narrow")),
        Command::List { json: false } => print(&list()),
        Command::List { json: true } => print(&(pbm::list_json().to_string() + "\n")),
        Command::Run { id, set, json } => {
            run(&id, &set, json).and_then(|text| print(&text))
        }
        Command::Practice { action, json } => match practice(action, json) {
            // A check that found your code wrong is not an error of pbm's: its report
            // is printed, and the exit code says it failed.
            Ok(false) => return ExitCode::FAILURE,
            other => other.map(|_| ()),
        },
        Command::Demos => demos().map(|_| ()),
        Command::BenchRun { package, rounds, criterion } => {
            bench_run(&package, rounds, &criterion)
        }
        Command::BenchTables { package } => bench_tables(package.as_deref()),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            say!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

/// clap's several-line usage error as one line: its message, what it lists, and the
/// usage in brackets ("error: the following required arguments were not provided:
/// <ID> (usage: pbm run [OPTIONS] <ID>)").
fn one_line(rendered: &str) -> String {
    let mut parts = Vec::new();
    for line in rendered.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if line.starts_with("For more information") {
            continue;
        }
        let line = line.strip_prefix("error: ").unwrap_or(line);
        match line.strip_prefix("Usage: ") {
            Some(usage) => parts.push(format!("(usage: {usage})")),
            None => parts.push(line.to_string()),
        }
    }
    parts.join(" ")
}

/// Runs a practice command; false when a check found the reader's code wrong.
fn practice(action: Option<PracticeAction>, json: bool) -> Result<bool, Error> {
    use pbm::practice as p;
    let (chapters, root) = (chapters(), repo_root());
    let task = |id: &str| p::find_task(&chapters, id);
    match action {
        None if json => print(&(p::list_json(&chapters, &root).to_string() + "\n"))?,
        None => print(&p::list_text(&chapters, &root))?,
        Some(PracticeAction::Start { id }) => {
            print(&(p::start(&root, task(&id)?)? + "\n"))?;
        }
        Some(PracticeAction::Hint { id }) => {
            print(&(p::hint(&root, task(&id)?)? + "\n"))?
        }
        Some(PracticeAction::Solution { id }) => {
            print(&p::solution(&root, task(&id)?)?)?
        }
        Some(PracticeAction::Watch { id }) => {
            let first = id.as_deref().map(task).transpose()?;
            p::watch(&chapters, &root, first, &mut |text| print(text))?;
        }
        Some(PracticeAction::Check { id }) => {
            let task = task(&id)?;
            say!("checking {id}: building your code with the book's checks");
            let checked = p::check(&chapters, &root, task)?;
            let text = checked.text(&id);
            print(&text)?;
            return Ok(checked.passed);
        }
    }
    Ok(true)
}

/// Writes `text` to standard output. A reader who pipes it into `head` closes the
/// pipe early; that is not an error.
fn print(text: &str) -> Result<(), Error> {
    if stdout_was_closed() {
        return Err(Error::Output(io::Error::other("standard output is closed")));
    }
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(Error::Output(e)),
        _ => Ok(()),
    }
}

/// Whether standard output was closed when pbm started (`pbm list >&-`). Rust's runtime
/// opens /dev/null read-write in a closed descriptor's place before `main`, so writing
/// would succeed and say nothing; a shell's `> /dev/null` opens it write-only, and stays a
/// place the reader chose to send the output. Read from Linux's /proc; false elsewhere.
fn stdout_was_closed() -> bool {
    let read_write =
        std::fs::read_to_string("/proc/self/fdinfo/1").is_ok_and(|info| {
            info.lines()
                .find_map(|l| l.strip_prefix("flags:"))
                .and_then(|f| u32::from_str_radix(f.trim(), 8).ok())
                .is_some_and(|flags| flags & 0o3 == 0o2)
        });
    read_write
        && std::fs::read_link("/proc/self/fd/1")
            .is_ok_and(|p| p == std::path::Path::new("/dev/null"))
}

fn figures(only: Option<&str>) -> Result<usize, Error> {
    let dir = repo_root().join("book/src/figures");
    let progress = io::stderr().is_terminal();
    let mut drawings =
        pbm::figures::render_figures(&chapters(), &dir, only, progress)?.len();
    if only.is_none() {
        drawings += pbm::readers_path::render(&chapters(), &repo_root(), &dir)?.len();
    }
    Ok(drawings / pbm_prelim::plot::Layout::ALL.len())
}

/// Builds the demos' WebAssembly module and writes it (or the fallback) into the book.
fn demos() -> Result<pbm::demos::Module, Error> {
    let module = pbm::demos::build_module(&repo_root());
    pbm::demos::write_module(&chapters(), &repo_root().join("book"), &module)?;
    Ok(module)
}

fn book(redraw: bool) -> Result<(), Error> {
    let book_dir = repo_root().join("book");
    let chapters = chapters();
    // The figures and outputs depend on the code alone: if this very code wrote them,
    // those that are there are what it would write again. The outputs are committed,
    // so a fresh clone has them; the figures are not, so its first build draws them.
    let record = book_dir.join("generated.stamp");
    let stamp = pbm::files::code_stamp(&repo_root()).ok();
    let same_code = !redraw
        && stamp.as_ref().is_some_and(|s| pbm::files::stamp_matches(&record, s));
    let all_there = |files: Vec<PathBuf>| files.iter().all(|p| p.exists());
    let figures_drawn = if same_code && all_there(figure_files(&chapters, &book_dir))
    {
        None
    } else {
        Some(figures(None)?)
    };
    let outputs_run = if same_code && all_there(output_files(&chapters, &book_dir)) {
        None
    } else {
        Some(pbm::output::write_outputs(&chapters, &book_dir.join("src/output"))?)
    };
    demos()?;
    // The editor's crate around the reader's practice files: every task, and every
    // crate their files name.
    for (file, text) in [
        ("practice/src/lib.rs", pbm::practice::editor_lib(&chapters)),
        ("practice/Cargo.toml", pbm::practice::editor_manifest(&chapters)),
    ] {
        let path = repo_root().join(file);
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            pbm::files::write_atomically(&path, &text)
                .map_err(|source| Error::Write { path: path.clone(), source })?;
        }
    }
    pbm::book::build_book(&chapters, &book_dir, None)?;
    if let Some(stamp) = &stamp {
        // Without the record the next build only redraws, so a failure to write it
        // is not worth stopping for.
        if let Err(e) = pbm::files::write_atomically(&record, stamp) {
            say!(
                "note: could not record the code's stamp in {}: {e}",
                record.display()
            );
        }
    }
    let figures = match figures_drawn {
        Some(n) => format!("drew {n} figures (wide and narrow)"),
        None => "kept the figures".to_string(),
    };
    let outputs = match outputs_run {
        Some(n) => format!("{n} changed program outputs"),
        None => "kept the program outputs".to_string(),
    };
    let index = book_dir.join("build/index.html");
    say!("{figures}, {outputs} and rendered the book: {}", index.display());
    if figures_drawn.is_none() && outputs_run.is_none() {
        say!("(the code is the code that wrote them; --redraw draws them again)");
    }
    Ok(())
}

/// Every figure file the book includes.
fn figure_files(chapters: &[pbm_prelim::Chapter], book_dir: &Path) -> Vec<PathBuf> {
    use pbm_prelim::plot::Layout;
    let figures = book_dir.join("src/figures");
    chapters
        .iter()
        .flat_map(|c| {
            c.figures.iter().flat_map(|f| {
                Layout::ALL
                    .map(|l| pbm::figures::figure_path(&figures, c.id, f.name, l))
            })
        })
        .chain(Layout::ALL.map(|l| {
            let name = pbm::readers_path::NAME;
            figures.join(format!("{name}{}.svg", l.file_suffix()))
        }))
        .collect()
}

/// Every registered run's file in the book's sources.
fn output_files(chapters: &[pbm_prelim::Chapter], book_dir: &Path) -> Vec<PathBuf> {
    let output = book_dir.join("src/output");
    pbm::output::all_shown(chapters)
        .into_iter()
        .map(|(_, s)| {
            let name = if s.console {
                pbm::output::text_name(s)
            } else {
                pbm::output::json_name(s)
            };
            output.join(name)
        })
        .collect()
}

fn bench_tables(package: Option<&str>) -> Result<(), Error> {
    let root = repo_root();
    let out = root.join("book/src/benchmarks");
    let runs = root.join(BENCH_RUNS);
    let n =
        pbm::benchmarks::write_tables(&pbm::timing_tables(), &runs, &out, package)?;
    say!("wrote {n} timing tables into {}", out.display());
    if package.is_some_and(|p| p != "pbm-collision") {
        return Ok(());
    }
    let series = root.join("chapters/07-collision/data/broad-phase-timings.json");
    pbm::benchmarks::write_broad_phase_series(&runs, &series)?;
    say!("wrote the broad-phase series into {}", series.display());
    Ok(())
}

/// Where `pbm bench-run` keeps its records.
const BENCH_RUNS: &str = "target/bench-runs";

/// Runs `cargo bench` for `packages` (every table's, if empty) `rounds` times and records
/// each round's estimates in one tagged run.
fn bench_run(
    packages: &[String],
    rounds: usize,
    criterion: &[String],
) -> Result<(), Error> {
    let root = repo_root();
    if rounds < pbm::benchmarks::MIN_ROUNDS {
        return Err(Error::Bench(format!(
            "--rounds {rounds}: a table needs at least {} independent rounds",
            pbm::benchmarks::MIN_ROUNDS
        )));
    }
    let tables = pbm::timing_tables();
    let mut known: Vec<&str> =
        tables.iter().flat_map(pbm::benchmarks::packages).collect();
    known.sort_unstable();
    known.dedup();
    let chosen: Vec<&str> = if packages.is_empty() {
        known.clone()
    } else {
        packages.iter().map(String::as_str).collect()
    };
    if let Some(bad) = chosen.iter().find(|p| !known.contains(p)) {
        return Err(Error::Bench(format!(
            "no timing table belongs to {bad}; the packages with tables are {}",
            known.join(", ")
        )));
    }
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(&root)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let mut commit =
        git(&["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "unknown".into());
    if git(&["status", "--porcelain", "--untracked-files=no"])
        .is_some_and(|s| !s.is_empty())
    {
        commit += "-dirty";
    }
    let mut record = pbm::benchmarks::Record::start(&commit, &criterion.join(" "));
    let criterion_dir = root.join("target/criterion");
    for round in 0..rounds {
        for package in &chosen {
            say!(
                "round {} of {rounds}: {}",
                round + 1,
                pbm::benchmarks::bench_command(package)
            );
            let since = std::time::SystemTime::now();
            let mut command = std::process::Command::new(env!("CARGO"));
            // Only the bench targets (not the library's tests): the options after `--`
            // are criterion's.
            command.current_dir(&root).args(["bench", "-p", package, "--bench", "*"]);
            if *package != "pbm-bench" {
                command.args(["--features", "bench"]);
            }
            if !criterion.is_empty() {
                command.arg("--").args(criterion);
            }
            let status = command.status().map_err(Error::Output)?;
            if !status.success() {
                return Err(Error::Book(format!(
                    "`cargo bench -p {package}` failed: {status}"
                )));
            }
            let n = record.add_round(round, &criterion_dir, since)?;
            say!("  recorded {n} estimates");
        }
        // Saved after every round: a run cut short keeps what it measured.
        let path = record.save(&root.join(BENCH_RUNS))?;
        say!("run {} ({} rounds) in {}", record.tag.id, round + 1, path.display());
    }
    Ok(())
}

fn list() -> String {
    let mut out = String::new();
    for chapter in chapters() {
        out += &format!("{} {}  [{}]\n", chapter.number, chapter.title, chapter.id);
        for exercise in &chapter.exercises {
            out += &format!(
                "  run {}/{}: {}\n",
                chapter.id, exercise.id, exercise.summary
            );
            let width = exercise
                .params
                .iter()
                .map(|p| p.name.len() + 1 + p.default_text().len())
                .max()
                .unwrap_or(0);
            for p in &exercise.params {
                out += &format!("      {}\n", p.list_line(width));
            }
            for line in exercise.reach_lines() {
                out += &format!("      {line}\n");
            }
            for promise in exercise.promises {
                out += &format!("      promise: {}\n", promise.words());
            }
            for o in exercise.optional {
                out += &format!("      result {} is null {}\n", o.field, o.null_when);
            }
            for l in &exercise.limits {
                let max = match l.max {
                    m if m >= 1e4 => format!("{m:e}"),
                    m => pbm_prelim::short(m),
                };
                out += &format!("      together: {} ≤ {max} {}\n", l.work, l.unit);
            }
        }
        for figure in &chapter.figures {
            out += &format!(
                "  figure {}/{}.svg: {}\n",
                chapter.id, figure.name, figure.title
            );
        }
        // The live demos in the chapter's pages (compiled to WebAssembly by `pbm demos`).
        for demo in chapter.demos.specs {
            let params: Vec<&str> = demo.params.iter().map(|p| p.name).collect();
            out += &format!(
                "  demo {}: {} (live in the book; sliders {})\n",
                demo.id,
                demo.title,
                params.join(", ")
            );
        }
    }
    out += &format!(
        "(in the joint limits above, {})\n",
        pbm_prelim::budget::STEPS_MEANS
    );
    out
}

/// Runs an exercise and returns what to print: one JSON line, or a table.
fn run(id: &str, set: &[String], json: bool) -> Result<String, Error> {
    let chapters = chapters();
    let (chapter, exercise) = find_exercise(&chapters, id)?;
    let value = exercise.run_with(chapter.id, set)?;
    if json {
        let text = serde_json::to_string(&value)
            .map_err(|e| Error::Output(io::Error::other(e)))?;
        Ok(text + "\n")
    } else {
        Ok(format!("{id}\n{}", pbm::report::table(&value)))
    }
}
