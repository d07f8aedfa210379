//! Command-line arguments.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// An mdBook preprocessor that proves what a book claims: runnable Rust
/// examples, comparison blocks, reading lists, talks and a claims page, and
/// every plain Rust block `mdbook test` would test. With no command it runs
/// as mdBook's preprocessor.
#[derive(Debug, Parser)]
#[command(version, about)]
pub(crate) struct Cli {
    /// What to do; none means: act as mdBook's preprocessor on stdin.
    #[command(subcommand)]
    pub(crate) command: Option<Command>,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Tell mdBook whether a renderer is supported (always yes).
    Supports {
        /// The renderer's name.
        renderer: String,
    },
    /// Make a new book (what `mdbook init` makes) with the preprocessor
    /// installed and one checked example: `check` then passes and the
    /// book builds. Refuses a folder that already has a book.toml.
    Init {
        /// The folder to make the book in (made when missing).
        #[arg(default_value = ".")]
        dir: PathBuf,
        /// The book's title (default: the folder's name).
        #[arg(long)]
        title: Option<String>,
    },
    /// Write the stylesheet into a book and register the preprocessor and
    /// the stylesheet in its book.toml (safe to run again).
    Install {
        /// The book's root directory.
        #[arg(default_value = ".")]
        book: PathBuf,
        /// Where to put the stylesheet, relative to the book root.
        #[arg(long, default_value = mdbook_companion::commands::install::DEFAULT_CSS)]
        css: String,
    },
    /// Build a book with the preprocessor registered in-process.
    Build {
        /// The book's root directory.
        #[arg(default_value = ".")]
        book: PathBuf,
    },
    /// Turn the book's passing plain Rust blocks into examples, with the
    /// output they printed: print the change as a unified diff, or write
    /// it with --write (and register the preprocessor as `install` does).
    Adopt {
        /// The book's root directory.
        #[arg(default_value = ".")]
        book: PathBuf,
        /// Write the changes (each file atomically) instead of printing
        /// only the diff.
        #[arg(long)]
        write: bool,
        /// Checks run at once (default: one per core).
        #[arg(long, short)]
        jobs: Option<usize>,
    },
    /// Write the book's exercises as a Cargo workspace, one package per
    /// exercise, so students run `cargo test -p NAME` locally.
    Exercises {
        /// The book's root directory.
        #[arg(default_value = ".")]
        book: PathBuf,
        /// The workspace's directory (created if missing).
        #[arg(long)]
        out: PathBuf,
        /// Write the solutions instead of the starters.
        #[arg(long)]
        solutions: bool,
    },
    /// Compile and run every example and compiled comparison side, and
    /// check what the book claims about each.
    Check(CheckArgs),
    /// Check the book with another Rust toolchain and report every claim
    /// whose observation differs from companion.lock (which is not
    /// written): verdicts that flip, outputs, panic messages, error codes,
    /// assembly listings, new warnings. Fails when a verdict flips.
    Drift(DriftArgs),
}

/// What `drift` is given.
#[derive(Debug, Args)]
pub(crate) struct DriftArgs {
    /// The book's root directory.
    #[arg(default_value = ".")]
    pub(crate) book: PathBuf,
    /// The toolchain to compare with the lock: a rustup toolchain
    /// (`beta`, `nightly`, `1.95.0`) or the path of a `rustc`.
    #[arg(long, value_name = "NAME")]
    pub(crate) toolchain: String,
    /// Checks run at once (default: one per core).
    #[arg(long, short)]
    pub(crate) jobs: Option<usize>,
    /// Report format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
}

/// What `check` is given.
#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// The book's root directory.
    #[arg(default_value = ".")]
    pub(crate) book: PathBuf,
    /// Write the actual outputs into the chapters' output blocks.
    #[arg(long)]
    pub(crate) bless: bool,
    /// Compare with companion.lock instead of writing it: fail when an
    /// entry is missing or stale, or the lock is missing.
    #[arg(long)]
    pub(crate) locked: bool,
    /// Checks run at once (default: one per core).
    #[arg(long, short)]
    pub(crate) jobs: Option<usize>,
    /// Report format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
    /// Compile every Rust example alone, not in merged builds.
    #[arg(long)]
    pub(crate) no_merge: bool,
    /// Report every failing plain block with rustc's own words for it
    /// compiled alone, not a merged build's or our lexer's (which hold
    /// the same verdict), and run every plain block's program, one whose
    /// `main` holds only items too (`--bless` and `--no-merge` imply it).
    #[arg(long)]
    pub(crate) exact: bool,
    /// Check only share K of N (`hash:K/N`, K from 1), chosen by a
    /// stable hash of each block, as cargo-nextest partitions tests.
    #[arg(long, value_name = "hash:K/N")]
    pub(crate) partition: Option<String>,
    /// A directory of compiled crates, as `mdbook test -L` (repeatable or
    /// comma-separated): a crate a Rust block names that is found there is
    /// passed with `--extern`, its most recent build.
    #[arg(short = 'L', long, value_name = "DIR", value_delimiter = ',')]
    pub(crate) library_path: Vec<PathBuf>,
    /// Check only this chapter: its title in SUMMARY.md or its path under
    /// `src`, as `mdbook test --chapter`.
    #[arg(short = 'c', long, value_name = "NAME|PATH")]
    pub(crate) chapter: Option<String>,
    /// Compile and run every Rust claim with this toolchain: a rustup
    /// toolchain (`beta`, `nightly`, `1.95.0`) or the path of a `rustc`.
    #[arg(long, value_name = "NAME")]
    pub(crate) toolchain: Option<String>,
}

/// The report formats of `check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// A line per claim, failures with diffs, a summary line last.
    Text,
    /// One JSON object.
    Json,
    /// GitHub Actions workflow annotations (`::error file=…,line=…::…`),
    /// the summary line last.
    Github,
    /// JUnit XML: a test case per block.
    Junit,
}
