//! The `mdbook-companion` binary: parse arguments, call the library, print
//! errors with their context, exit.

mod cli;

use clap::Parser as _;
use std::io::IsTerminal as _;
use std::process::ExitCode;

fn main() -> ExitCode {
    // First: this binary is also the supervisor of the programs it runs.
    mdbook_companion_engine::exec::supervisor_hook();
    // `MDBOOK_LOG` as mdBook reads it (`debug`, `mdbook_companion=debug,
    // mdbook_driver=warn`); one that does not parse leaves `info`.
    let filter = std::env::var("MDBOOK_LOG")
        .ok()
        .and_then(|v| v.parse::<tracing_subscriber::filter::Targets>().ok())
        .unwrap_or_else(|| {
            tracing_subscriber::filter::Targets::new()
                .with_default(tracing_subscriber::filter::LevelFilter::INFO)
        });
    use tracing_subscriber::layer::SubscriberExt as _;
    use tracing_subscriber::util::SubscriberInitExt as _;
    tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_target(false)
                .with_ansi(std::io::stderr().is_terminal())
                .without_time(),
        )
        .with(filter)
        .init();
    let cli = cli::Cli::parse();
    let result = match cli.command {
        // On a terminal, the preprocessor would wait for JSON nobody
        // types: say what to do instead.
        None if std::io::stdin().is_terminal() => Err(anyhow::anyhow!(
            mdbook_companion::book::protocol::terminal_input()
        )),
        None => mdbook_companion::commands::preprocess::run(
            std::io::stdin().lock(),
            std::io::stdout().lock(),
        )
        .map_err(anyhow::Error::from),
        Some(cli::Command::Supports { .. }) => Ok(()),
        Some(cli::Command::Build { book }) => mdbook_companion::commands::build::build(&book),
        Some(cli::Command::Init { dir, title }) => init(&dir, title.as_deref()),
        Some(cli::Command::Install { book, css }) => install(&book, &css),
        Some(cli::Command::Exercises {
            book,
            out,
            solutions,
        }) => exercises(&book, &out, solutions),
        Some(cli::Command::Adopt { book, write, jobs }) => adopt(&book, write, jobs),
        Some(cli::Command::Check(args)) => check(&args),
        Some(cli::Command::Drift(args)) => drift(&args),
    };
    mdbook_companion::book::tally::log_tally();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is::<ChecksFailed>() || e.is::<VerdictsFlip>() => ExitCode::FAILURE,
        // The run could not do its work (no compiler that runs): 2, as
        // for a wrong argument, never a green or a plain red run.
        Err(e) if e.is::<mdbook_companion_engine::toolchain::Error>() || e.is::<Incomplete>() => {
            eprintln!(
                "mdbook-companion: error: {}",
                mdbook_companion_core::escape::terminal(&said_once(&e))
            );
            ExitCode::from(2)
        }
        Err(e) => {
            // A chapter title or a program's words in the message must
            // not act on the terminal.
            eprintln!(
                "mdbook-companion: error: {}",
                mdbook_companion_core::escape::terminal(&said_once(&e))
            );
            ExitCode::FAILURE
        }
    }
}

/// The error and its causes as one line (`error: cause: cause`), each
/// cause said once: an error whose message already holds its cause's
/// words (`cannot write …: Broken pipe` over the I/O error) does not
/// repeat them.
fn said_once(e: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in e.chain() {
        let words = cause.to_string();
        if line.is_empty() {
            line = words;
        } else if !line.contains(&words) {
            line.push_str(": ");
            line.push_str(&words);
        }
    }
    line
}

fn init(dir: &std::path::Path, title: Option<&str>) -> anyhow::Result<()> {
    let done = mdbook_companion::commands::init::init(dir, title)?;
    let shown = dir.display();
    eprintln!(
        "mdbook-companion init: wrote {} in {shown}",
        done.written.join(", ")
    );
    eprintln!(
        "  next: `mdbook-companion check {shown}` checks the example and writes companion.lock; `mdbook-companion build {shown}` builds the book"
    );
    Ok(())
}

fn install(book: &std::path::Path, css: &str) -> anyhow::Result<()> {
    let done = mdbook_companion::commands::install::install(book, css)?;
    let js = mdbook_companion::commands::install::script_path(css);
    let mut changed: Vec<String> = Vec::new();
    if done.stylesheet {
        changed.push(format!("wrote {css}"));
    }
    if done.script {
        changed.push(format!("wrote {js}"));
    }
    if done.book_toml {
        changed.push("updated book.toml".to_owned());
    }
    let what = if changed.is_empty() {
        "already installed; nothing changed".to_owned()
    } else {
        changed.join(", ")
    };
    eprintln!("mdbook-companion install: {what}");
    Ok(())
}

fn exercises(book: &std::path::Path, out: &std::path::Path, solutions: bool) -> anyhow::Result<()> {
    let done = mdbook_companion::commands::exercises::run(book, out, solutions)?;
    let what = if solutions { "solutions" } else { "starters" };
    if done.packages.is_empty() {
        eprintln!("mdbook-companion exercises: the book has no exercise; nothing written");
        return Ok(());
    }
    eprintln!(
        "mdbook-companion exercises: {} exercise(s) ({what}) in {}: {} file(s) written, {} unchanged",
        done.packages.len(),
        out.display(),
        done.written.len(),
        done.unchanged.len()
    );
    for f in &done.kept {
        eprintln!("  kept {f}: changed since it was written (delete it to get the book's version)");
    }
    for f in &done.stale {
        eprintln!("  left {f}: written earlier, no longer made by the book");
    }
    if !done.packages.is_empty() {
        eprintln!(
            "  run `cargo test -p NAME` in {} (NAME: {})",
            out.display(),
            done.packages.join(", ")
        );
    }
    Ok(())
}

fn adopt(book: &std::path::Path, write: bool, jobs: Option<usize>) -> anyhow::Result<()> {
    use mdbook_companion::commands::adopt;
    let plan = adopt::plan(book, jobs)?;
    print!("{}", plan.diff());
    if !plan.left.is_empty() {
        eprintln!("left as they are:");
        for l in &plan.left {
            eprintln!("  {l}");
        }
    }
    if !plan.varying.is_empty() {
        eprintln!(
            "output that varies between runs (each program was run twice, one that starts threads or hashes with a random key up to 24 times):"
        );
        for l in &plan.varying {
            eprintln!("  {l}");
        }
    }
    if !plan.shown.is_empty() {
        eprintln!("output the book already shows (no output block added):");
        for l in &plan.shown {
            eprintln!("  {l}");
        }
    }
    if write {
        let done = adopt::write(book, &plan, jobs)?;
        for note in &done.notes {
            eprintln!("mdbook-companion adopt: {note}");
        }
        if done.checked.fails() {
            eprintln!(
                "mdbook-companion adopt: `mdbook-companion check` tells which blocks fail (the blocks left as they are among them)"
            );
        }
        eprintln!(
            "mdbook-companion adopt: {} block(s) became examples; {} left as they are",
            done.adopted,
            plan.left.len()
        );
        if done.refused > 0 {
            return Err(AdoptRefused(done.refused).into());
        }
        return Ok(());
    }
    eprintln!(
        "mdbook-companion adopt: {} block(s) would become examples; {} left as they are",
        plan.adopted,
        plan.left.len()
    );
    Ok(())
}

/// `adopt --write` left files unwritten (the notes say which and why).
#[derive(Debug, thiserror::Error)]
#[error("{0} file(s) not written")]
struct AdoptRefused(usize);

/// `check` found false claims (the report says which).
#[derive(Debug, thiserror::Error)]
#[error("some checks failed")]
struct ChecksFailed;

fn check(args: &cli::CheckArgs) -> anyhow::Result<()> {
    use mdbook_companion::commands::check;
    let partition = args
        .partition
        .as_deref()
        .map(check::Partition::parse)
        .transpose()?;
    let options = check::Options {
        jobs: args.jobs,
        bless: args.bless,
        locked: args.locked,
        progress: args.format == cli::Format::Text && std::io::stderr().is_terminal(),
        no_merge: args.no_merge,
        exact: args.exact,
        partition,
        library_path: args.library_path.clone(),
        chapter: args.chapter.clone(),
        toolchain: args
            .toolchain
            .as_deref()
            .map(|name| toolchain(name, args.format, "check"))
            .transpose()?,
    };
    let report = check::run(&args.book, &options)?;
    match args.format {
        cli::Format::Text => print!("{}", check::report::text(&report)),
        cli::Format::Json => println!("{}", check::report::json(&report)),
        cli::Format::Github => print!("{}", check::formats::github(&report)),
        cli::Format::Junit => print!("{}", check::formats::junit(&report)),
    }
    if report.fails() {
        return Err(ChecksFailed.into());
    }
    Ok(())
}

/// `drift` found a claim whose verdict flips (the report says which).
#[derive(Debug, thiserror::Error)]
#[error("some verdicts flip")]
struct VerdictsFlip;

/// `--toolchain NAME` resolved to a compiler that runs; when it is not,
/// the report in `format` says so too (JUnit: an `<error>`), as the
/// error does on stderr.
fn toolchain(
    name: &str,
    format: cli::Format,
    command: &str,
) -> anyhow::Result<mdbook_companion_engine::toolchain::Toolchain> {
    use mdbook_companion::commands::check::formats;
    mdbook_companion_engine::toolchain::resolve(name).map_err(|e| {
        let title = format!("mdbook-companion {command}");
        let message = e.to_string();
        match format {
            cli::Format::Junit => {
                print!("{}", formats::junit_error(&title, "--toolchain", &message))
            }
            cli::Format::Github => print!("{}", formats::github_error("--toolchain", &message)),
            cli::Format::Json => println!("{}", serde_json::json!({ "error": message })),
            cli::Format::Text => {}
        }
        e.into()
    })
}

/// A run that could not do all its work (a compiler the book needs
/// could not be run): exit 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Incomplete(String);

fn drift(args: &cli::DriftArgs) -> anyhow::Result<()> {
    use mdbook_companion::commands::drift;
    let options = drift::Options {
        toolchain: toolchain(&args.toolchain, args.format, "drift")?,
        jobs: args.jobs,
        progress: args.format == cli::Format::Text && std::io::stderr().is_terminal(),
    };
    let result = drift::run(&args.book, &options)?;
    match args.format {
        cli::Format::Text => print!("{}", drift::report::text(&result)),
        cli::Format::Json => println!("{}", drift::report::json(&result)),
        cli::Format::Github => print!("{}", drift::report::github(&result)),
        cli::Format::Junit => print!("{}", drift::report::junit(&result)),
    }
    if let Some(m) = result.report.missing.first() {
        return Err(Incomplete(format!(
            "{}, so drift could not compare every claim ({})",
            m.cannot_run(),
            m.remedy()
        ))
        .into());
    }
    if result.flipped() > 0 {
        return Err(VerdictsFlip.into());
    }
    Ok(())
}
