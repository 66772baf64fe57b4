//! `pbm`: draw the figures, build the book, list and run the exercises.

use clap::{Parser, Subcommand};
use pbm::{Error, chapters, find_exercise, repo_root};
use std::io::{self, IsTerminal, Write};
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
    /// Draw every figure and render the book into book/build (the default).
    Book,
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
    /// Build the live demos (the chapters' code for WebAssembly) into the book's
    /// module script; `pbm book` does this first.
    Demos,
    /// Turn `cargo bench` results (target/criterion) into the timing tables the pages
    /// include (book/src/benchmarks).
    BenchTables {
        /// Only the tables of this package (e.g. `pbm-contact`), after `cargo bench -p`
        /// it; the others keep their measurements and dates.
        #[arg(long)]
        package: Option<String>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command.unwrap_or(Command::Book) {
        Command::Book => book(),
        Command::Figures { chapter } => figures(chapter.as_deref())
            .map(|n| eprintln!("drew {n} figures, wide and narrow")),
        Command::List { json: false } => print(&list()),
        Command::List { json: true } => print(&(pbm::list_json().to_string() + "\n")),
        Command::Run { id, set, json } => {
            run(&id, &set, json).and_then(|text| print(&text))
        }
        Command::Demos => demos().map(|_| ()),
        Command::BenchTables { package } => bench_tables(package.as_deref()),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

/// Writes `text` to standard output. A reader who pipes it into `head` closes the
/// pipe early; that is not an error.
fn print(text: &str) -> Result<(), Error> {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(Error::Output(e)),
        _ => Ok(()),
    }
}

fn figures(only: Option<&str>) -> Result<usize, Error> {
    let dir = repo_root().join("book/src/figures");
    let progress = io::stderr().is_terminal();
    let drawings =
        pbm::figures::render_figures(&chapters(), &dir, only, progress)?.len();
    Ok(drawings / pbm_prelim::plot::Layout::ALL.len())
}

/// Builds the demos' WebAssembly module and writes it (or the fallback) into the book.
fn demos() -> Result<pbm::demos::Module, Error> {
    let module = pbm::demos::build_module(&repo_root());
    pbm::demos::write_module(&chapters(), &repo_root().join("book"), &module)?;
    Ok(module)
}

fn book() -> Result<(), Error> {
    let n = figures(None)?;
    let book_dir = repo_root().join("book");
    let chapters = chapters();
    let outputs =
        pbm::output::write_outputs(&chapters, &book_dir.join("src/output"))?;
    demos()?;
    pbm::book::build_book(&chapters, &book_dir, None)?;
    eprintln!(
        "drew {n} figures (wide and narrow), {outputs} changed program outputs and the book: {}",
        book_dir.join("build/index.html").display()
    );
    Ok(())
}

fn bench_tables(package: Option<&str>) -> Result<(), Error> {
    let root = repo_root();
    let out = root.join("book/src/benchmarks");
    let tables: Vec<_> =
        chapters().iter().flat_map(|c| c.tables.iter().copied()).collect();
    let n = pbm::benchmarks::write_tables(
        &tables,
        &root.join("target/criterion"),
        &out,
        package,
    )?;
    eprintln!("wrote {n} timing tables into {}", out.display());
    if package.is_some_and(|p| p != "pbm-collision") {
        return Ok(());
    }
    let series = root.join("chapters/07-collision/data/broad-phase-timings.json");
    pbm::benchmarks::write_broad_phase_series(
        &root.join("target/criterion"),
        &series,
    )?;
    eprintln!("wrote the broad-phase series into {}", series.display());
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
            for o in exercise.optional {
                out += &format!("      result {} is null {}\n", o.field, o.null_when);
            }
        }
        for figure in &chapter.figures {
            out += &format!(
                "  figure {}/{}.svg: {}\n",
                chapter.id, figure.name, figure.title
            );
        }
        // The live demos in the chapter's pages (compiled to WebAssembly by `pbm demos`).
        for demo in chapter.demos {
            let params: Vec<&str> = demo.params.iter().map(|p| p.name).collect();
            out += &format!(
                "  demo {}: {} (live in the book; sliders {})\n",
                demo.id,
                demo.title,
                params.join(", ")
            );
        }
    }
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
