//! `pbm`: draw the figures, build the book, list and run the exercises.

use clap::{Parser, Subcommand};
use pbm::{chapters, find_exercise, repo_root};
use pbm_prelim::{ParamKind, PbmError};
use std::io::IsTerminal;
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
    /// List the chapters, their exercises with parameters and defaults, and their figures.
    List,
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
}

/// A failure: its message and exit code (2 for bad input, 1 for anything else).
struct Failure(String, u8);

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command.unwrap_or(Command::Book) {
        Command::Book => book(),
        Command::Figures { chapter } => {
            figures(chapter.as_deref()).map(|n| eprintln!("wrote {n} figures"))
        }
        Command::List => {
            list();
            Ok(())
        }
        Command::Run { id, set, json } => run(&id, &set, json),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure(message, code)) => {
            eprintln!("error: {message}");
            ExitCode::from(code)
        }
    }
}

fn figures(only: Option<&str>) -> Result<usize, Failure> {
    let dir = repo_root().join("book/src/figures");
    let progress = std::io::stderr().is_terminal();
    match pbm::figures::render_figures(&chapters(), &dir, only, progress) {
        Ok(paths) => Ok(paths.len()),
        Err(e) if e.starts_with("unknown chapter") => Err(Failure(e, 2)),
        Err(e) => Err(Failure(format!("figures failed:\n{e}"), 1)),
    }
}

fn book() -> Result<(), Failure> {
    let n = figures(None)?;
    let book_dir = repo_root().join("book");
    pbm::book::build_book(&book_dir, None).map_err(|e| Failure(e, 1))?;
    eprintln!(
        "wrote {n} figures and the book: {}",
        book_dir.join("build/index.html").display()
    );
    Ok(())
}

fn list() {
    for chapter in chapters() {
        println!("{} {}  [{}]", chapter.number, chapter.title, chapter.id);
        for exercise in &chapter.exercises {
            println!("  run {}/{}: {}", chapter.id, exercise.id, exercise.summary);
            for p in &exercise.params {
                let default = match &p.kind {
                    ParamKind::Float { default, .. } => default.to_string(),
                    ParamKind::Int { default, .. } => default.to_string(),
                    ParamKind::Bool { default } => default.to_string(),
                    ParamKind::Choice { default, .. } => default.to_string(),
                };
                println!(
                    "      --set {}={default:<10} {} ({})",
                    p.name,
                    p.help,
                    p.allowed()
                );
            }
        }
        for figure in &chapter.figures {
            println!("  figure {}/{}.svg: {}", chapter.id, figure.name, figure.title);
        }
    }
}

fn run(id: &str, set: &[String], json: bool) -> Result<(), Failure> {
    let chapters = chapters();
    let (chapter, exercise) = find_exercise(&chapters, id).map_err(|e| Failure(e, 2))?;
    let value = exercise.run_with(chapter.id, set).map_err(|e| {
        let code = match e {
            PbmError::Param(_) | PbmError::Invalid { .. } => 2,
            _ => 1,
        };
        Failure(e.to_string(), code)
    })?;
    if json {
        let text = serde_json::to_string(&value).map_err(|e| Failure(e.to_string(), 1))?;
        println!("{text}");
    } else {
        println!("{id}");
        print!("{}", pbm::report::table(&value));
    }
    Ok(())
}
