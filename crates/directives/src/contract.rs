//! The contract between a directive and the layers around it: what a
//! directive is ([`Kind`], one row of the registry), what it sees
//! ([`Env`], [`Shared`]), what it parses a block into ([`Parsed`]: a
//! [`Model`] and its [`Need`]s) and what it gives back ([`Rendered`]).

pub use super::facts::{Facts, Need};
use super::facts::{Published, Topic};
pub use super::numbering::{Numbered, Numbers, Row};
use mdbook_companion_core::attrs::Attr;
use mdbook_companion_core::claim::{BlessTarget, Claim};
use mdbook_companion_core::config::{Config, Key};
use mdbook_companion_core::i18n::Translations;
use mdbook_companion_core::lines::ProgramLines;
use mdbook_companion_core::markdown::{self, Block, Out, Pattern};
use mdbook_companion_core::problem::{MissingTool, Problem};
use std::any::Any;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// One directive: how it is written, how it renders, what it styles.
#[derive(Debug, Clone, Copy)]
pub struct Kind {
    /// Its name in messages and code: `example`, `compare`, `reading-list`.
    pub name: &'static str,
    /// The info string that starts it, and whether an ```` ```output ````
    /// block after it is its own.
    pub pattern: Pattern,
    /// Parses the block into its model, with what the model needs
    /// resolved before it renders.
    pub parse: fn(&Block, &Env<'_>) -> Result<Parsed, Problem>,
    /// Whether its blocks make claims (`check` renders only those).
    pub makes_claims: bool,
    /// Whether its blocks list the whole book (the claims page): they
    /// render once more after every other chapter has given its rows.
    pub lists_the_book: bool,
    /// The references it resolves for other directives (a talk's
    /// moments): the book layer asks it, so no directive imports another.
    pub publishes: &'static [Publish],
    /// Its keys of `[preprocessor.companion]`: its data file (the reading
    /// list's `reading-list`), its flags (`print-solutions`). The
    /// configuration accepts them, and the chapter memo watches the files.
    pub keys: &'static [Key],
    /// Its rules of the stylesheet.
    pub stylesheet: &'static str,
    /// Its part of the script (empty when it needs none: every directive
    /// works without JavaScript, scripts only add to it).
    pub script: &'static str,
}

impl Kind {
    /// The attributes of one of its blocks: the info string after the
    /// words naming the directive.
    pub fn attributes(&self, block: &Block) -> Result<Vec<Attr>, Problem> {
        markdown::attributes(&block.fence, self.pattern.words.len())
            .map_err(|e| Problem::from_attr(&block.fence, e))
    }
}

/// A directive's offer to resolve references of one [`Topic`] (a row of
/// the registry lists its offers; the book layer asks the one that
/// publishes the topic).
#[derive(Debug, Clone, Copy)]
pub struct Publish {
    /// What it resolves.
    pub topic: Topic,
    /// Resolves a value written at an offset of the chapter.
    pub resolve: fn(&Env<'_>, &str, usize) -> Result<Published, Problem>,
}

/// A block parsed: its model, and what the model needs to render.
#[derive(Debug)]
pub struct Parsed {
    /// The directive's model of the block.
    pub model: Box<dyn Model>,
    /// What the book layer resolves for it ([`Facts`] answer them).
    pub needs: Vec<Need>,
}

impl Parsed {
    /// A model that needs nothing.
    pub fn of(model: impl Model + 'static) -> Parsed {
        Parsed {
            model: Box::new(model),
            needs: Vec::new(),
        }
    }

    /// A directive whose model is its block: it parses and renders in
    /// one step, from the block and what `env` offers, and needs no fact.
    pub fn direct(render: fn(&Block, &Env<'_>) -> Result<Rendered, Problem>) -> Parsed {
        Parsed::of(Direct(render))
    }
}

/// A directive's model of one block, rendered from its facts: pure (no
/// process, no file, no cache).
pub trait Model: std::fmt::Debug + Send + Sync {
    /// Renders the block for `env.target`, with the claims it makes.
    fn render(&self, block: &Block, env: &Env<'_>, facts: &Facts) -> Result<Rendered, Problem>;

    /// The Cargo package the block offers students, with the starter or,
    /// with `solutions`, the solution (an exercise); `None` for blocks
    /// that offer none. The `exercises` command writes these.
    fn package(&self, _solutions: bool) -> Option<Package> {
        None
    }
}

/// A Cargo package a block offers students: one library crate whose
/// `src/lib.rs` is `code` (an exercise's code with its tests).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Package {
    /// The package's name (the exercise's `id`, else its title's words).
    pub name: String,
    /// The title, in the book's source language.
    pub title: String,
    /// The task as Markdown, for the crate's doc comment.
    pub about: Option<String>,
    /// The Rust edition.
    pub edition: u16,
    /// The crate's source: the code, then its tests in `mod tests`.
    pub code: String,
}

/// See [`Parsed::direct`].
#[derive(Debug)]
struct Direct(fn(&Block, &Env<'_>) -> Result<Rendered, Problem>);

impl Model for Direct {
    fn render(&self, block: &Block, env: &Env<'_>, _: &Facts) -> Result<Rendered, Problem> {
        (self.0)(block, env)
    }
}

/// What the replacement is for, decided by mdBook's renderer name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The `html` renderer: rich output, styled by our stylesheet.
    Html,
    /// `mdbook test`: plain Rust fences with rustdoc's attributes.
    Test,
    /// Any other renderer: plain Markdown.
    Markdown,
    /// `mdbook-xgettext`: plain Markdown in which every translatable
    /// string of a directive is a message of its own, on the line it was
    /// written on, and the code is a plain fence.
    Xgettext,
}

impl Target {
    /// The target for an mdBook renderer name.
    pub fn for_renderer(name: &str) -> Target {
        match name {
            "html" => Target::Html,
            "test" => Target::Test,
            "xgettext" => Target::Xgettext,
            _ => Target::Markdown,
        }
    }
}

/// What every chapter of one run shares and a directive may read: the
/// data files directives read (each read and checked at most once per
/// run; a run makes a fresh one, so nothing leaks between books or between
/// `mdbook serve` rebuilds), the chapter list, the book's frames and its
/// catalog. What the engine keeps for a run (the cache, the lock) is the
/// book layer's, never a directive's.
#[derive(Debug, Default)]
pub struct Shared {
    /// Data files, by name.
    pub data: DataFiles,
    /// The book's chapter files as messages name them (`src/intro.md`),
    /// for directives that link to chapters.
    pub chapters: Vec<String>,
    /// Whether the book has a claims page: only then do chapters hash
    /// their claims for it.
    pub claims_page: bool,
    /// Every numbered frame of the book, in book order, once all chapters
    /// have rendered (what the claims page lists).
    pub rows: OnceLock<Vec<Row>>,
    /// The book's catalog, when it is built in a language that has one.
    pub translations: Option<Arc<Translations>>,
}

impl Shared {
    /// A run that has read nothing yet.
    pub fn disabled() -> Shared {
        Shared::default()
    }
}

/// Values computed once per run and shared by every chapter (chapters
/// are processed in parallel): each directive keeps its data file here
/// under its own name.
#[derive(Debug, Default)]
pub struct DataFiles(Mutex<HashMap<&'static str, Arc<dyn Any + Send + Sync>>>);

impl DataFiles {
    /// The value under `name`, made by `load` the first time it is asked
    /// for. A name always holds one type: asking for another makes a new
    /// value rather than fail.
    pub(crate) fn get_or_load<T: Clone + Send + Sync + 'static>(
        &self,
        name: &'static str,
        load: impl FnOnce() -> T,
    ) -> T {
        let cell: Arc<dyn Any + Send + Sync> = {
            let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
            Arc::clone(
                map.entry(name)
                    .or_insert_with(|| Arc::new(OnceLock::<T>::new())),
            )
        };
        match cell.downcast_ref::<OnceLock<T>>() {
            Some(once) => once.get_or_init(load).clone(),
            None => load(),
        }
    }
}

/// What a directive sees besides its own block.
#[derive(Debug, Clone, Copy)]
pub struct Env<'a> {
    /// The checked configuration.
    pub config: &'a Config,
    /// The output target.
    pub target: Target,
    /// The whole chapter text, for offsets.
    pub text: &'a str,
    /// The chapter's file (`src/intro.md`), for ids unique on the print
    /// page and for claims.
    pub file: &'a str,
    /// What the run shares.
    pub shared: &'a Shared,
    /// Where the block's frame numbers start.
    pub numbers: Numbers<'a>,
    /// Where the chapter's offsets stand in the file the author edits:
    /// claims are built with their line (and their `--bless` target)
    /// through it.
    pub place: &'a dyn Place,
}

/// Where a chapter's offsets stand in the file the author edits: the
/// book layer knows (a block inside an `{{#include}}` stands at the
/// include's line), directives ask.
pub trait Place: std::fmt::Debug {
    /// The 1-based line, in the chapter file, of the byte at `offset` of
    /// the chapter's text.
    fn line(&self, offset: usize) -> usize;
    /// Where `--bless` may write over the output block at `range` of the
    /// chapter's text: only where it stands literally in the file.
    fn bless(&self, range: &std::ops::Range<usize>) -> Option<BlessTarget>;
    /// The file's line (0-based) of the chapter text's line `from`
    /// (0-based), when lines `from..=to` stand literally in the file, in
    /// a row (not through an `{{#include}}`).
    fn literal(&self, from: usize, to: usize) -> Option<usize>;
    /// The 1-based line of `text` (the chapter's) that the byte at
    /// `offset` is on; a place that knows the text may answer from an
    /// index instead of counting.
    fn text_line(&self, text: &str, offset: usize) -> usize {
        mdbook_companion_core::markdown::line_col(text, offset).0
    }
}

/// No file behind the text: renders that report no line (a page build,
/// a unit test) place everything at line 0 and bless nothing.
#[derive(Debug, Clone, Copy)]
pub struct Unplaced;

impl Place for Unplaced {
    fn line(&self, _: usize) -> usize {
        0
    }

    fn bless(&self, _: &std::ops::Range<usize>) -> Option<BlessTarget> {
        None
    }

    /// The text is taken for the file.
    fn literal(&self, from: usize, _: usize) -> Option<usize> {
        Some(from)
    }
}

impl Env<'_> {
    /// Where the lines of `program`, made of the block whose info string
    /// is at `offset` of the chapter, stand in the chapter's file, when
    /// the block stands there literally.
    pub fn program_lines(&self, offset: usize, program: &str) -> Option<ProgramLines> {
        self.joined_program_lines(&[offset], program, 2)
    }

    /// The same for a program made of several blocks (their info strings
    /// at `offsets`, in order), with at most `added` lines of its own.
    pub(crate) fn joined_program_lines(
        &self,
        offsets: &[usize],
        program: &str,
        added: usize,
    ) -> Option<ProgramLines> {
        let starts: Vec<(usize, usize)> = (offsets.iter())
            .map(|&o| {
                let before = self.text.get(..o).unwrap_or(self.text);
                let at = before.rfind('\n').map_or(0, |i| i + 1);
                (at, self.place.text_line(self.text, o))
            })
            .collect();
        let lines = ProgramLines::of_blocks(self.text, &starts, program, self.file, added)?;
        self.in_file(lines)
    }

    /// Lines of the chapter's text told as the file's, when they stand
    /// there literally.
    fn in_file(&self, lines: ProgramLines) -> Option<ProgramLines> {
        let file = self.place.literal(lines.open - 1, lines.close - 1)?;
        let by = file as isize + 1 - lines.open as isize;
        Some(lines.shifted(by))
    }

    /// An author's plain string (a title, a caption) in the book's
    /// language: every directive translates through here.
    pub fn text<'s>(&self, text: &'s str) -> Cow<'s, str> {
        match &self.shared.translations {
            Some(t) => t.text(text),
            None => Cow::Borrowed(text),
        }
    }

    /// One of our own words (`Example`, `Panics`, one of [`super::ui::WORDS`])
    /// in the book's language: looked up in the same catalog.
    pub fn ui<'s>(&self, word: &'s str) -> Cow<'s, str> {
        self.text(word)
    }

    /// [`Env::text`] for an optional string.
    pub(crate) fn text_opt<'s>(&self, text: Option<&'s str>) -> Option<Cow<'s, str>> {
        text.map(|t| self.text(t))
    }

    /// An author's Markdown prose (a note, an abstract) in the book's
    /// language.
    pub fn markdown<'s>(&self, markdown: &'s str) -> Cow<'s, str> {
        match &self.shared.translations {
            Some(t) => t.markdown(markdown),
            None => Cow::Borrowed(markdown),
        }
    }
}

/// A translatable string of a data file (`reading-list.toml`,
/// `talks.toml`): handed to `mdbook-xgettext` in a page of its own that
/// stands for the file ([`super::xgettext::data_page`]), so its messages are referenced by the file's line
/// and the chapters that show it keep their lines.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct DataMessage {
    /// The data file, relative to `src` (`reading-list.toml`).
    pub file: String,
    /// The line it was written on.
    pub line: usize,
    /// Markdown prose (a note), rather than a plain string.
    pub prose: bool,
    /// The string.
    pub text: String,
}

/// A directive's replacement, what it claims, and what it met on the way.
#[derive(Debug, Default)]
pub struct Rendered {
    /// The replacement lines.
    pub out: Out,
    /// The claims of the block, in order (`check` and `verify` read these).
    pub claims: Vec<Claim>,
    /// Things worth telling the author that do not stop the build.
    pub warnings: Vec<Problem>,
    /// Compilers the directive could not run for its assembly: told once
    /// for the whole book, not per block.
    pub missing: Vec<MissingTool>,
    /// Its numbered frames, in order (the claims page lists them).
    pub entries: Vec<Numbered>,
    /// For `mdbook-xgettext`: the strings of data files the block shows.
    pub data: Vec<DataMessage>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_follow_renderer_names() {
        assert_eq!(Target::for_renderer("html"), Target::Html);
        assert_eq!(Target::for_renderer("test"), Target::Test);
        assert_eq!(Target::for_renderer("markdown"), Target::Markdown);
        assert_eq!(Target::for_renderer("epub"), Target::Markdown);
        assert_eq!(Target::for_renderer("xgettext"), Target::Xgettext);
    }

    #[test]
    fn data_files_load_once_per_name() {
        let data = DataFiles::default();
        let calls = std::sync::atomic::AtomicUsize::new(0);
        let load = || {
            calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Arc::new(7)
        };
        assert_eq!(*data.get_or_load("a", load), 7);
        assert_eq!(*data.get_or_load("a", load), 7);
        assert_eq!(*data.get_or_load("b", load), 7);
        assert_eq!(calls.load(std::sync::atomic::Ordering::Relaxed), 2);
    }
}
