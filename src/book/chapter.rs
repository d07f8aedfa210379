//! The chapter layer: scan a chapter, parse its directives into models
//! with their needs, resolve the needs ([`super::resolve`]), render each
//! model from its facts, check the claims under `verify`, splice the
//! replacements, and turn byte offsets into `file:line:column` messages.

use super::load::{ChapterSource, FilePlace, LineMap};
use super::resolve::{BookContext, Claimed, prepare, resolve};
use super::verify;
use mdbook_companion_core::claim::Claim;
use mdbook_companion_core::config::Config;
use mdbook_companion_core::markdown;
use mdbook_companion_core::offsets::LineIndex;
use mdbook_companion_core::problem::{Located, MissingTool, Problem};
use mdbook_companion_directives::contract::Place;
use mdbook_companion_directives::{self as directive, Env, Numbers, Row, Target};
use mdbook_companion_engine::check;
use std::ops::Range;

/// What processing one chapter gave.
#[derive(Debug, Default, Clone)]
pub struct ChapterOutcome {
    /// The new text, or `None` when the chapter has no directive.
    pub text: Option<String>,
    /// Warnings to log.
    pub warnings: Vec<Located>,
    /// Errors that fail the build (`on-failure = "bail"`).
    pub errors: Vec<Located>,
    /// How many directives the chapter has.
    pub directives: usize,
    /// Blocks whose compiler could not be run (for `verify` or `asm`), in
    /// chapter order: the book layer reports them once per compiler for
    /// the whole book ([`mdbook_companion_core::problem::missing_compilers`]), not
    /// once per block.
    pub unchecked: Vec<MissingTool<Located>>,
    /// Its numbered frames, for the claims page (only those with an
    /// `id=` when the book has none).
    pub rows: Vec<Row>,
    /// Whether it holds a claims page (rendered again once every chapter
    /// has given its rows).
    pub claims_page: bool,
    /// For `mdbook-xgettext`: the data files' strings its blocks show.
    pub data: Vec<directive::DataMessage>,
    /// Its claims as `companion.lock` names them, when the book has a
    /// lock (or a file that should be one): the book layer tells the
    /// author once when the lock does not vouch for them.
    pub claimed: Vec<Claimed>,
    /// For `check` (a chapter as loaded, [`Page::origin`]): the claims of
    /// its directives and plain blocks, in chapter order.
    pub claims: Vec<Claim>,
    /// For `check`: its fences one edit from ours (also among its
    /// warnings), which `check` fails on.
    pub typos: Vec<Located>,
}

/// A chapter as the book places it.
#[derive(Debug, Clone, Copy)]
pub struct Page<'a> {
    /// The file as messages name it (`src/intro.md`).
    pub file: &'a str,
    /// Its section number (`5`, `2.1`), when mdBook numbers it.
    pub section: Option<&'a str>,
    /// Its name in the table of contents.
    pub name: Option<&'a str>,
    /// The chapter as `check` loaded it (its file's text and path): its
    /// blocks are placed at their lines of the file, with their `--bless`
    /// targets, and its claims are kept.
    pub origin: Option<&'a ChapterSource>,
}

impl<'a> Page<'a> {
    /// A page known by its file only.
    pub fn file(file: &'a str) -> Page<'a> {
        Page {
            file,
            section: None,
            name: None,
            origin: None,
        }
    }
}

/// A chapter whose directives are parsed: each block's model with what it
/// needs, or the problem that stops it. The book layer resolves the needs
/// of every chapter at once ([`ParsedChapter::needs`]), then each chapter
/// renders from its facts ([`render`]).
#[derive(Debug)]
pub struct ParsedChapter<'a> {
    page: Page<'a>,
    text: &'a str,
    place: BuildPlace<'a>,
    blocks: Vec<markdown::Block>,
    parsed: Vec<Result<directive::Parsed, Problem>>,
    outcome: ChapterOutcome,
}

impl<'a> ParsedChapter<'a> {
    /// What a directive of the chapter sees.
    pub fn env<'r>(&'r self, config: &'r Config, run: &'r BookContext, target: Target) -> Env<'r> {
        Env {
            config,
            target,
            text: self.text,
            file: self.page.file,
            shared: &run.shared,
            numbers: Numbers {
                section: self.page.section,
                first: 0,
            },
            place: &self.place,
        }
    }

    /// The needs of each block, by the block's index in the chapter.
    pub fn needs(&self) -> impl Iterator<Item = (usize, &[directive::Need])> {
        self.parsed
            .iter()
            .enumerate()
            .filter_map(|(i, p)| Some((i, p.as_ref().ok()?.needs.as_slice())))
    }

    /// How many blocks it has (the length [`render`] wants its facts in).
    pub fn blocks(&self) -> usize {
        self.blocks.len()
    }

    /// Its claims pages parsed and resolved again, now that every
    /// chapter's frames are known (what such a page needs is their
    /// verdicts): the facts to render the chapter again with, every other
    /// block keeping its own.
    pub fn claims_page_again(
        &mut self,
        config: &Config,
        run: &BookContext,
        target: Target,
        facts: &[directive::Facts],
    ) -> Vec<directive::Facts> {
        let env = self.env(config, run, target);
        let again: Vec<_> = (self.blocks.iter().enumerate())
            .filter(|(_, block)| directive::is_claims_page(block))
            .map(|(i, block)| (i, directive::parse(block, &env)))
            .collect();
        let needs = again
            .iter()
            .flat_map(|(_, p)| p.iter().flat_map(|p| &p.needs));
        prepare(run, config, needs);
        let mut facts = facts.to_vec();
        let again: Vec<_> = (again.into_iter())
            .map(|(i, parsed)| {
                if let Ok(p) = &parsed {
                    facts[i] = resolve(run, &env, &p.needs);
                }
                (i, parsed)
            })
            .collect();
        for (i, parsed) in again {
            self.parsed[i] = parsed;
        }
        facts
    }

    /// For `check`: its plain blocks' claims ([`super::plain`]), when it
    /// is a chapter `check` loaded, and only the assembly panels of the
    /// blocks at the lines of its file `panels` keeps.
    pub fn for_check(&mut self, edition: u16, triple: &str, panels: &dyn Fn(usize) -> bool) {
        let Some(origin) = &self.place.origin else {
            return;
        };
        let directives: Vec<Range<usize>> = self.blocks.iter().map(|b| b.range.clone()).collect();
        self.outcome.claims = super::plain::claims(origin, &directives, edition, triple);
        let place = &self.place;
        for parsed in self.parsed.iter_mut().flatten() {
            parsed.needs.retain(|n| match n {
                directive::Need::Assembly(req) => panels(place.line(req.at)),
                _ => true,
            });
        }
    }
}

/// Where a chapter's lines stand in its file. In a build no line is
/// reported and nothing blessed (as
/// [`mdbook_companion_directives::contract::Unplaced`]), but a block's
/// program is placed in the file's lines where the block stands there
/// literally (the file read, once, only when a block asks); a chapter
/// `check` loaded is placed as its [`FilePlace`] says.
#[derive(Debug)]
struct BuildPlace<'a> {
    /// Where `check` places the chapter it loaded.
    origin: Option<FilePlace<'a>>,
    path: std::path::PathBuf,
    text: &'a str,
    /// The text's lines in the file's, once the file is read.
    literal: std::sync::OnceLock<Option<LineMap>>,
    /// Where each line of the text starts, once asked: the lines of many
    /// blocks and problems without counting from the chapter's start for
    /// each.
    index: std::sync::OnceLock<LineIndex>,
}

impl BuildPlace<'_> {
    /// The text's line starts.
    fn index(&self) -> &LineIndex {
        self.index.get_or_init(|| LineIndex::new(self.text))
    }

    /// `problem` of the text, located.
    fn located(&self, file: &str, problem: &Problem) -> Located {
        Located::indexed(file, self.text, self.index(), problem)
    }
}

impl Place for BuildPlace<'_> {
    fn line(&self, offset: usize) -> usize {
        self.origin.as_ref().map_or(0, |o| o.line(offset))
    }

    fn bless(&self, range: &Range<usize>) -> Option<mdbook_companion_core::claim::BlessTarget> {
        self.origin.as_ref()?.bless(range)
    }

    fn literal(&self, from: usize, to: usize) -> Option<usize> {
        if let Some(o) = &self.origin {
            return o.literal(from, to);
        }
        let map = self.literal.get_or_init(|| {
            let raw = std::fs::read_to_string(&self.path).ok()?;
            Some(LineMap::new(&raw, self.text))
        });
        map.as_ref()?.literal(from, to)
    }

    fn text_line(&self, text: &str, offset: usize) -> usize {
        if !std::ptr::eq(text, self.text) {
            return markdown::line_col(text, offset).0;
        }
        self.index().line0(offset) + 1
    }
}

/// Scans a chapter and parses its directives.
pub fn parse<'a>(
    config: &Config,
    run: &BookContext,
    target: Target,
    page: &Page<'a>,
    text: &'a str,
) -> ParsedChapter<'a> {
    let mut chapter = ParsedChapter {
        page: *page,
        text,
        place: BuildPlace {
            origin: page.origin.map(FilePlace::new),
            path: config.root.join(page.file),
            text,
            literal: std::sync::OnceLock::new(),
            index: std::sync::OnceLock::new(),
        },
        blocks: Vec::new(),
        parsed: Vec::new(),
        outcome: ChapterOutcome::default(),
    };
    // The links the chapter's file wrote escaped (`\\{{#quiz FILE}}`):
    // mdBook's `links` drops the backslash, so only the file tells.
    let escaped = match (text.contains("{{"), page.origin) {
        (false, _) => Vec::new(),
        (true, Some(origin)) => directive::escaped_links(&origin.raw, text),
        (true, None) => std::fs::read_to_string(config.root.join(page.file))
            .map(|raw| directive::escaped_links(&raw, text))
            .unwrap_or_default(),
    };
    super::tally::parsed(page.file, run.shared.chapters.len());
    super::tally::scanned();
    match directive::try_scan(text, &escaped) {
        Ok(blocks) => {
            let stray = mdbook_companion_directives::asmspec::stray_asm(text, &blocks);
            let hints = directive::hint::hints(text, &blocks);
            let located: Vec<Located> = (stray.iter().chain(&hints))
                .map(|p| chapter.place.located(page.file, p))
                .collect();
            if page.origin.is_some() {
                let typos = hints.iter().map(|p| chapter.place.located(page.file, p));
                chapter.outcome.typos = typos.collect();
            }
            chapter.outcome.warnings.extend(located);
            chapter.blocks = blocks;
        }
        Err(message) => {
            let located = Located {
                file: page.file.to_owned(),
                line: 1,
                column: 1,
                message,
            };
            let o = &mut chapter.outcome;
            config
                .on_failure
                .route([located], &mut o.errors, &mut o.warnings);
            return chapter;
        }
    }
    let env = chapter.env(config, run, target);
    let parsed = chapter
        .blocks
        .iter()
        .map(|block| directive::parse(block, &env))
        .collect();
    chapter.parsed = parsed;
    chapter
}

/// The facts of every block of a chapter, resolved on their own (the book
/// resolves all chapters' needs at once; this serves one chapter).
pub fn resolve_chapter(
    config: &Config,
    run: &BookContext,
    target: Target,
    chapter: &ParsedChapter<'_>,
) -> Vec<directive::Facts> {
    let env = chapter.env(config, run, target);
    prepare(run, config, chapter.needs().flat_map(|(_, needs)| needs));
    let mut facts = vec![directive::Facts::default(); chapter.blocks()];
    for (i, needs) in chapter.needs() {
        facts[i] = resolve(run, &env, needs);
    }
    facts
}

/// The replacements of one chapter's directives, as `(range, text)` pairs
/// sorted by position: the heart of the preprocessor as a pure function.
pub fn replacements(
    config: &Config,
    run: &BookContext,
    target: Target,
    page: &Page<'_>,
    text: &str,
) -> (Vec<(Range<usize>, String)>, ChapterOutcome) {
    let chapter = parse(config, run, target, page, text);
    let facts = resolve_chapter(config, run, target, &chapter);
    render(config, run, target, &chapter, &facts)
}

/// Renders a parsed chapter from the facts of its blocks (`facts[i]` for
/// block `i`), checks the claims under `verify`, and gives the
/// replacements. A chapter is parsed once and may be rendered again (a
/// claims page, once every chapter's frames are known).
pub fn render(
    config: &Config,
    run: &BookContext,
    target: Target,
    chapter: &ParsedChapter<'_>,
    facts: &[directive::Facts],
) -> (Vec<(Range<usize>, String)>, ChapterOutcome) {
    let ParsedChapter {
        page,
        text,
        place,
        blocks,
        outcome,
        ..
    } = chapter;
    let (text, mut outcome) = (*text, outcome.clone());
    let file = page.file;
    let shared = &run.shared;
    let mut env = Env {
        config,
        target,
        text,
        file,
        shared,
        numbers: Numbers {
            section: page.section,
            first: 0,
        },
        place,
    };
    outcome.directives = blocks.len();
    // Hashes, for the claims page and the lock's warnings (a book with no
    // lock file needs none).
    let keys = (shared.claims_page || run.lock.is_some() || run.lock_invalid.is_some())
        .then(|| check::Checker::new(config).with_crates(run.crates(config)));
    let (mut outs, claims) = render_blocks(chapter, &mut env, facts, keys.as_ref(), &mut outcome);
    if let Some(k) = &keys
        && (run.lock.is_some() || run.lock_invalid.is_some())
    {
        outcome.claimed = claimed(k, &claims, place);
    }
    if config.verify && target == Target::Html {
        let (unchecked, failed) = verify::verify(config, run, file, text, &claims, &mut outs);
        outcome.unchecked.extend(unchecked);
        let o = &mut outcome;
        (config.on_failure).route(failed, &mut o.errors, &mut o.warnings);
    }
    if page.origin.is_some() {
        outcome.claims.extend(claims.into_iter().map(|(_, c)| c));
        outcome.claims.sort_by_key(|c| c.origin.offset);
    }
    let reps = blocks
        .iter()
        .zip(&outs)
        .map(|(block, out)| {
            (
                block.range.clone(),
                markdown::materialize(text, &block.range, out),
            )
        })
        .collect();
    (reps, outcome)
}

/// Each block of `chapter` rendered from its facts in turn, numbering on
/// from the block before; its rows, warnings, missing compilers and data
/// gathered in `outcome`, and a block that cannot be read rendered as an
/// error box (failing the build or warned of, as `on-failure` says). The
/// blocks' replacements, and their claims with each one's block index.
fn render_blocks(
    chapter: &ParsedChapter<'_>,
    env: &mut Env<'_>,
    facts: &[directive::Facts],
    keys: Option<&check::Checker>,
    outcome: &mut ChapterOutcome,
) -> (
    Vec<markdown::Out>,
    Vec<(usize, mdbook_companion_core::claim::Claim)>,
) {
    let ParsedChapter {
        page,
        text,
        place,
        blocks,
        parsed,
        ..
    } = chapter;
    let (text, file, config) = (*text, page.file, env.config);
    let mut outs = Vec::with_capacity(blocks.len());
    let mut claims = Vec::new();
    for ((block, parsed), facts) in blocks.iter().zip(parsed).zip(facts) {
        outcome.claims_page |= directive::is_claims_page(block);
        let rendered = (parsed.as_ref().map_err(Clone::clone))
            .and_then(|p| directive::render(block, env, p.model.as_ref(), facts));
        let out = match rendered {
            Ok(r) => {
                // Several entries may share a number (an exercise's
                // claims): the next block numbers on from the highest.
                env.numbers.first = r
                    .entries
                    .iter()
                    .map(|e| e.number.n)
                    .max()
                    .unwrap_or(env.numbers.first);
                (outcome.rows).extend(rows(&r, page, place, text, env.shared.claims_page, keys));
                outcome
                    .warnings
                    .extend(r.warnings.iter().map(|w| place.located(file, w)));
                outcome.unchecked.extend(r.missing.into_iter().map(|m| {
                    let at = place.located(file, &Problem::at(m.at, String::new()));
                    m.at(at)
                }));
                claims.extend(r.claims.into_iter().map(|c| (outs.len(), c)));
                outcome.data.extend(r.data);
                r.out
            }
            Err(p) => {
                let located = place.located(file, &p);
                let out = directive::error_box(block, env, &located.place(), &located.message);
                let o = &mut *outcome;
                config
                    .on_failure
                    .route([located], &mut o.errors, &mut o.warnings);
                out
            }
        };
        outs.push(out);
    }
    (outs, claims)
}

/// The rows of a rendered block's numbered frames: every frame for the
/// claims page, else those with an id (for the book's check that ids
/// are unique); each with its claim's hash when `keys` makes them.
fn rows(
    r: &directive::contract::Rendered,
    page: &Page<'_>,
    place: &BuildPlace<'_>,
    text: &str,
    claims_page: bool,
    keys: Option<&check::Checker>,
) -> Vec<Row> {
    let rows = r
        .entries
        .iter()
        .filter(|e| claims_page || e.id_at.is_some());
    rows.map(|e| Row {
        file: page.file.to_owned(),
        chapter: page.name.map(str::to_owned),
        section: page.section.map(str::to_owned),
        digits: e.number.digits.clone(),
        word: e.number.word.to_owned(),
        id: e.number.id.clone(),
        id_at: e.id_at.map(|at| place.index().line_col(text, at)),
        title: e.title.clone(),
        what: e.what.clone(),
        badge: e.badge.clone(),
        hash: keys
            .zip(e.claim.and_then(|i| r.claims.get(i)))
            .map(|(k, c)| k.claim_key(&c.stated())),
    })
    .collect()
}

/// What the chapter's `claims` (with their blocks' indexes) claim, for
/// the lock's warnings: each claim's line, what it is and its hash.
fn claimed(
    keys: &check::Checker,
    claims: &[(usize, mdbook_companion_core::claim::Claim)],
    place: &BuildPlace<'_>,
) -> Vec<Claimed> {
    claims
        .iter()
        .map(|(_, c)| Claimed {
            line: place.index().line0(c.origin.offset) + 1,
            what: c.origin.what.clone(),
            hash: keys.claim_key(&c.stated()),
        })
        .collect()
}

/// Processes one chapter's text.
pub fn chapter(
    config: &Config,
    run: &BookContext,
    target: Target,
    file: &str,
    text: &str,
) -> ChapterOutcome {
    chapter_in(config, run, target, &Page::file(file), text)
}

/// [`chapter`] of a chapter the book numbers and names.
pub fn chapter_in(
    config: &Config,
    run: &BookContext,
    target: Target,
    page: &Page<'_>,
    text: &str,
) -> ChapterOutcome {
    let (reps, mut outcome) = replacements(config, run, target, page, text);
    outcome.text = spliced(text, &reps, &outcome);
    outcome
}

/// The chapter's new text: its replacements spliced in, unless it has none
/// or has errors (then the book is left as it was).
pub fn spliced(
    text: &str,
    reps: &[(Range<usize>, String)],
    outcome: &ChapterOutcome,
) -> Option<String> {
    (!reps.is_empty() && outcome.errors.is_empty()).then(|| markdown::splice(text, reps))
}

#[cfg(test)]
mod tests;
