//! The book walk: every chapter of mdBook's book JSON (0.4 `sections` or
//! 0.5 `items`), processed in parallel, with what they report gathered in
//! book order. A chapter rendered cleanly before comes back whole from
//! the [`Memo`].
//!
//! The book is handled as JSON ([`serde_json::Value`]) so that mdBook 0.4
//! and 0.5 input, and the in-process path, share one walk; every field we
//! do not touch goes back out as it came in.

use super::chapter::{self, ChapterOutcome, Page, ParsedChapter, chapter_in};
use super::load::ChapterSource;
use super::memo::Memo;
use super::resolve::{BookContext, lock_warnings, prepare, resolve};
use super::translate;
use mdbook_companion_core::claim::Claim;
use mdbook_companion_core::config::Config;
use mdbook_companion_core::problem::{Located, MissingTool, Purpose, missing_compilers};
use mdbook_companion_directives::{DataMessage, ui, xgettext};
use mdbook_companion_directives::{Facts, Need};
use mdbook_companion_directives::{Target, assets};
use mdbook_companion_engine::cache::Cache;
use mdbook_companion_engine::lock::Lock;
use rayon::prelude::*;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Mutex;

/// A chapter's content in the book, with the file it came from.
#[derive(Debug)]
pub struct Slot<'a> {
    /// The chapter's text, replaced in place.
    pub content: &'a mut String,
    /// The chapter's file as messages name it (`src/intro.md`).
    pub file: String,
    /// Its section number (`2.1`), when mdBook numbers it.
    pub section: Option<String>,
    /// Its name in the table of contents.
    pub name: Option<String>,
    /// The chapter as `check` loaded it ([`Page::origin`]).
    pub origin: Option<&'a ChapterSource>,
}

impl Slot<'_> {
    /// The chapter as the chapter layer places it.
    pub fn page(&self) -> Page<'_> {
        Page {
            file: &self.file,
            section: self.section.as_deref(),
            name: self.name.as_deref(),
            origin: self.origin,
        }
    }
}

/// A section number as mdBook's JSON gives it (`[2, 1]`) in words
/// (`2.1`); `None` for an unnumbered chapter.
pub fn section_of(number: Option<&Value>) -> Option<String> {
    let parts: Vec<String> = number?
        .as_array()?
        .iter()
        .map(|n| n.as_u64().map(|n| n.to_string()))
        .collect::<Option<_>>()?;
    (!parts.is_empty()).then(|| parts.join("."))
}

/// The file messages name for a chapter: its source path under `src`, else
/// its path, else its name.
pub fn chapter_file(
    src: &str,
    source_path: Option<&str>,
    path: Option<&str>,
    name: Option<&str>,
) -> String {
    source_path
        .or(path)
        .map(|p| format!("{src}/{p}"))
        .or_else(|| name.map(|n| format!("chapter \"{n}\"")))
        .unwrap_or_else(|| "chapter".to_owned())
}

/// The book's `src` as chapter file names start (forward slashes).
pub fn src_prefix(config: &Config) -> String {
    config.src.to_string_lossy().replace('\\', "/")
}

/// Collects every chapter of an `items` / `sections` array, depth first.
fn collect<'a>(items: &'a mut Value, src: &str, slots: &mut Vec<Slot<'a>>) {
    let Value::Array(items) = items else { return };
    for item in items {
        let Some(Value::Object(ch)) = item.get_mut("Chapter") else {
            continue;
        };
        let text = |key: &str| ch.get(key).and_then(Value::as_str);
        let file = chapter_file(src, text("source_path"), text("path"), text("name"));
        let section = section_of(ch.get("number"));
        let name = text("name").map(str::to_owned);
        let mut content = None;
        let mut subs = None;
        for (k, v) in ch.iter_mut() {
            match (k.as_str(), v) {
                ("content", Value::String(s)) => content = Some(s),
                ("sub_items", v) => subs = Some(v),
                _ => {}
            }
        }
        if let Some(content) = content {
            slots.push(Slot {
                content,
                file,
                section,
                name,
                origin: None,
            });
        }
        if let Some(subs) = subs {
            collect(subs, src, slots);
        }
    }
}

/// The result of processing a whole book.
#[derive(Debug, Default)]
pub struct BookOutcome {
    /// Warnings, in chapter order.
    pub warnings: Vec<Located>,
    /// Errors, in chapter order; the book is left unchanged when any.
    pub errors: Vec<Located>,
    /// Book-wide warnings (such as a missing stylesheet).
    pub notes: Vec<String>,
    /// For `mdbook-xgettext`: the data files' strings the book shows.
    pub data: Vec<DataMessage>,
    /// For `check`: the claims of the chapters it loaded, each with its
    /// chapter's file, in book order.
    pub claims: Vec<(String, Claim)>,
    /// For `check`: the fences one edit from ours, in book order.
    pub typos: Vec<Located>,
}

/// What `check` asks of the build's walk besides what the build says:
/// the claims of directives and plain blocks, with `edition` the one
/// `mdbook test` gives rustdoc, and only the assembly panels of the
/// blocks at the places (a chapter file and its line) `panels` keeps.
pub struct ForCheck<'p> {
    /// The edition of plain blocks.
    pub edition: u16,
    /// The panels made (and recorded for the lock).
    pub panels: &'p (dyn Fn(&str, usize) -> bool + Sync),
    /// Whether code whose panel cannot be made for that reason fails, as
    /// in a build of the whole book.
    pub faults: bool,
}

/// Processes every chapter of a book given as JSON (`{"items": …}` or
/// `{"sections": …}`), in place.
pub fn book(config: &Config, target: Target, book: &mut Value) -> BookOutcome {
    let src = src_prefix(config);
    let mut slots = Vec::new();
    if let Value::Object(map) = book {
        for (k, v) in map.iter_mut() {
            if k == "items" || k == "sections" {
                collect(v, &src, &mut slots);
            }
        }
    }
    let mut outcome = chapters(config, target, slots);
    add_data_pages(book, std::mem::take(&mut outcome.data));
    outcome
}

/// For `mdbook-xgettext`: a page per data file the book shows strings of,
/// named by the file (`reading-list.toml`), so the template refers to the
/// file's lines. mdbook-xgettext reads only the pages' paths and text.
fn add_data_pages(book: &mut Value, mut data: Vec<DataMessage>) {
    if data.is_empty() {
        return;
    }
    data.sort();
    data.dedup();
    for key in ["items", "sections"] {
        if let Some(Value::Array(items)) = book.get_mut(key) {
            push_pages(items, &data);
            return;
        }
    }
}

fn push_pages(items: &mut Vec<Value>, data: &[DataMessage]) {
    let mut files: Vec<&str> = data.iter().map(|m| m.file.as_str()).collect();
    files.dedup();
    for file in files {
        let messages: Vec<&DataMessage> = data.iter().filter(|m| m.file == file).collect();
        items.push(serde_json::json!({"Chapter": {
            "name": file,
            "content": xgettext::data_page(&messages),
            "number": null,
            "sub_items": [],
            "path": file,
            "source_path": file,
            "parent_names": [],
        }}));
    }
}

/// Processes the chapters of a book, in parallel, and gathers what they
/// report in book order.
pub fn chapters(config: &Config, target: Target, slots: Vec<Slot<'_>>) -> BookOutcome {
    let files = slots.iter().map(|s| s.file.clone()).collect();
    chapters_among(config, target, slots, files)
}

/// [`chapters`] of a book whose chapters are `files` (as messages name
/// them), some of which may have no slot: the lazy path decodes only the
/// chapters that may hold a directive, and directives that link to
/// chapters need them all.
pub fn chapters_among(
    config: &Config,
    target: Target,
    slots: Vec<Slot<'_>>,
    files: Vec<String>,
) -> BookOutcome {
    let mut run =
        BookContext::new(Cache::for_book(&config.root)).with_lock_read(Lock::read(&config.root));
    walk(config, target, &mut run, slots, files, None)
}

/// `check`'s one walk over the chapters it loaded: their claims
/// ([`ForCheck`]) and what `mdbook build` fails with and warns about on
/// them (the same parse, resolve and render, and the book's checks such
/// as unique ids) in `run`, with every error an error (as under
/// `on-failure = "bail"`; code whose assembly cannot be made keeps its
/// block, so that its claims are checked, and is told in the run's
/// faults), no `verify`, and no chapter remembered (the keys would be
/// this walk's, never a build's); then what mdBook's HTML renderer fails
/// on after us (a file `[output.html]` names that is not there: see
/// [`super::renderer`]).
pub fn build_says(
    config: &Config,
    target: Target,
    run: &mut BookContext,
    slots: Vec<Slot<'_>>,
    files: Vec<String>,
    check: &ForCheck<'_>,
) -> BookOutcome {
    let mut config = config.clone();
    config.verify = false;
    config.on_failure = mdbook_companion_core::config::OnFailure::Bail;
    run.faults = Some(Mutex::default());
    let mut outcome = walk(&config, target, run, slots, files, Some(check));
    let faults = run
        .faults
        .take()
        .map(|f| f.into_inner().unwrap_or_else(|e| e.into_inner()));
    outcome
        .errors
        .extend(faults.into_iter().flatten().filter(|_| check.faults));
    outcome.errors.extend(super::renderer::faults(&config));
    outcome
}

/// The walk of [`chapters_among`] in `run`, remembering clean chapters
/// unless it is `check`'s.
fn walk(
    config: &Config,
    target: Target,
    run: &mut BookContext,
    slots: Vec<Slot<'_>>,
    files: Vec<String>,
    check: Option<&ForCheck<'_>>,
) -> BookOutcome {
    let shared = &mut run.shared;
    shared.chapters = files;
    match translate::load(config, target) {
        Ok(t) => shared.translations = t.map(std::sync::Arc::new),
        Err(e) => {
            return BookOutcome {
                errors: vec![e],
                ..BookOutcome::default()
            };
        }
    }
    shared.claims_page = slots
        .iter()
        .any(|s| mdbook_companion_directives::has_claims_page(s.content));
    let run = &*run;
    let memo = Memo::new(config, target, &run.shared).filter(|_| check.is_none());
    let triple = mdbook_companion_core::doctest::host_triple();
    // Every chapter not remembered is parsed; the needs of the whole book
    // are resolved at once, in parallel; then each chapter renders from
    // its facts.
    let mut parsed: Vec<Step<'_>> = slots
        .par_iter()
        .map(|s| {
            let page = s.page();
            let recalled = memo
                .as_ref()
                .and_then(|m| m.recall(&run.cache, &page, s.content));
            match recalled {
                Some(outcome) => Err(Box::new(outcome)),
                None => {
                    let mut parsed = chapter::parse(config, run, target, &page, s.content);
                    if let Some(c) = check {
                        let panels = |line| (c.panels)(&s.file, line);
                        parsed.for_check(c.edition, &triple, &panels);
                    }
                    Ok(parsed)
                }
            }
        })
        .collect();
    let facts = resolve_book(config, run, target, &parsed);
    let render = |((s, parsed), facts): ((&Slot<'_>, &Step<'_>), &Vec<Facts>)| match parsed {
        Err(recalled) => (**recalled).clone(),
        Ok(p) => {
            let (reps, mut outcome) = chapter::render(config, run, target, p, facts);
            outcome.text = chapter::spliced(s.content, &reps, &outcome);
            if let Some(m) = &memo {
                m.remember(&run.cache, &s.page(), s.content, &outcome);
            }
            outcome
        }
    };
    let mut outcomes: Vec<ChapterOutcome> = slots
        .par_iter()
        .zip(&parsed)
        .zip(&facts)
        .map(render)
        .collect();
    let id_errors = duplicate_ids(&outcomes);
    // A claims page lists every chapter's frames: rendered again, now
    // that they are all known.
    if outcomes.iter().any(|o| o.claims_page) {
        claims_pages_again(
            config,
            run,
            target,
            &slots,
            &mut parsed,
            &facts,
            &mut outcomes,
        );
    }
    book_outcome(config, target, run, slots, outcomes, id_errors)
}

/// The chapters with a claims page rendered again, once every chapter's
/// frames (`outcomes`' rows) are known; the other outcomes left as they
/// are.
fn claims_pages_again(
    config: &Config,
    run: &BookContext,
    target: Target,
    slots: &[Slot<'_>],
    parsed: &mut [Step<'_>],
    facts: &[Vec<Facts>],
    outcomes: &mut [ChapterOutcome],
) {
    let rows = outcomes
        .iter()
        .flat_map(|o| o.rows.iter().cloned())
        .collect();
    let _ = run.shared.rows.set(rows);
    let again = slots
        .iter()
        .zip(parsed.iter_mut())
        .zip(facts)
        .zip(outcomes.iter_mut());
    for (((slot, parsed), facts), outcome) in again {
        if outcome.claims_page {
            let rows = std::mem::take(&mut outcome.rows);
            *outcome = match parsed {
                Ok(p) => {
                    let facts = p.claims_page_again(config, run, target, facts);
                    let (reps, mut again) = chapter::render(config, run, target, p, &facts);
                    again.text = chapter::spliced(slot.content, &reps, &again);
                    again
                }
                Err(_) => chapter_in(config, run, target, &slot.page(), slot.content),
            };
            outcome.rows = rows;
        }
    }
}

/// The book's outcome from its chapters': each chapter's text spliced
/// into its slot, their claims, problems and data gathered in book
/// order, and what is told once for the book (duplicate ids, missing
/// compilers, the lock, translators' words, the stylesheet) added.
fn book_outcome(
    config: &Config,
    target: Target,
    run: &BookContext,
    slots: Vec<Slot<'_>>,
    outcomes: Vec<ChapterOutcome>,
    id_errors: Vec<Located>,
) -> BookOutcome {
    let mut result = BookOutcome::default();
    let r = &mut result;
    config
        .on_failure
        .route(id_errors, &mut r.errors, &mut r.warnings);
    result
        .notes
        .extend(translate::order_warning(config, target));
    let mut directives = 0;
    let mut unchecked = Vec::new();
    let mut claimed = Vec::new();
    for (slot, outcome) in slots.into_iter().zip(outcomes) {
        claimed.extend(outcome.claimed.into_iter().map(|c| (slot.file.clone(), c)));
        (result.claims).extend(outcome.claims.into_iter().map(|c| (slot.file.clone(), c)));
        result.typos.extend(outcome.typos);
        if let Some(text) = outcome.text {
            *slot.content = text;
        }
        directives += outcome.directives;
        result.warnings.extend(outcome.warnings);
        result.errors.extend(outcome.errors);
        unchecked.extend(outcome.unchecked);
        result.data.extend(outcome.data);
    }
    // Chapters ran in parallel; their unchecked blocks are gathered here in
    // book order, so each missing compiler is reported once per build.
    let (checks, panels): (Vec<MissingTool<_>>, Vec<MissingTool<_>>) = unchecked
        .into_iter()
        .partition(|u| u.purpose == Purpose::Check);
    let r = &mut result;
    (config.on_failure).route(missing_compilers(&checks), &mut r.errors, &mut r.warnings);
    result.warnings.extend(missing_compilers(&panels));
    // What the lock does not vouch for, told once for the book.
    if target == Target::Html {
        result.notes.extend(lock_warnings(run, &claimed));
    }
    // The template offers translators our own words too, on a page of
    // their own.
    if directives > 0 && target == Target::Xgettext {
        result
            .data
            .extend(ui::WORDS.iter().enumerate().map(|(i, w)| DataMessage {
                file: ui::PAGE.to_owned(),
                line: i + 1,
                prose: false,
                text: (*w).to_owned(),
            }));
    }
    if directives > 0 && target == Target::Html {
        result.notes.extend(assets::stylesheet_warning(
            &config.root,
            &config.additional_css,
        ));
    }
    result
}

/// A chapter on its way: parsed, or handed back whole by the memo.
type Step<'a> = Result<ParsedChapter<'a>, Box<ChapterOutcome>>;

/// The facts of every block of the parsed chapters (by chapter, then by
/// block): the needs of the whole book, resolved once, in parallel.
fn resolve_book(
    config: &Config,
    run: &BookContext,
    target: Target,
    parsed: &[Step<'_>],
) -> Vec<Vec<Facts>> {
    let jobs: Vec<(usize, usize, &ParsedChapter<'_>, &[Need])> = parsed
        .iter()
        .enumerate()
        .filter_map(|(c, p)| Some((c, p.as_ref().ok()?)))
        .flat_map(|(c, p)| p.needs().map(move |(b, needs)| (c, b, p, needs)))
        .collect();
    prepare(run, config, jobs.iter().flat_map(|j| j.3));
    let answers: Vec<Facts> = jobs
        .par_iter()
        .map(|(_, _, p, needs)| resolve(run, &p.env(config, run, target), needs))
        .collect();
    let mut facts: Vec<Vec<Facts>> = parsed
        .iter()
        .map(|p| vec![Facts::default(); p.as_ref().map_or(0, ParsedChapter::blocks)])
        .collect();
    for ((c, b, _, _), f) in jobs.into_iter().zip(answers) {
        facts[c][b] = f;
    }
    facts
}

/// Every `id=` used twice in the book: the anchors the claims page and
/// cross-references link to must be unique.
fn duplicate_ids(outcomes: &[ChapterOutcome]) -> Vec<Located> {
    let mut seen: HashMap<&str, (&str, usize, usize)> = HashMap::new();
    let mut errors = Vec::new();
    for row in outcomes.iter().flat_map(|o| &o.rows) {
        let Some((line, column)) = row.id_at else {
            continue;
        };
        match seen.get(row.id.as_str()) {
            Some((file, l, c)) => errors.push(Located {
                file: row.file.clone(),
                line,
                column,
                message: format!(
                    "found `id=\"{}\"` already used at {file}:{l}:{c}; expected an id used once in the book",
                    row.id
                ),
            }),
            None => {
                seen.insert(&row.id, (&row.file, line, column));
            }
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use serde_json::json;
    use std::path::PathBuf;

    fn config(table: Value) -> Config {
        Config::from_json(
            PathBuf::from("/b"),
            &json!({"preprocessor": {"companion": table}}),
        )
        .unwrap()
    }

    #[test]
    fn book_walk_reaches_nested_chapters_and_keeps_other_items() {
        let mut b = json!({"items": [
            {"PartTitle": "Part"},
            {"Chapter": {"name": "A", "content": "```rust example\nfn main() {}\n```\n", "number": [1],
                "sub_items": [{"Chapter": {"name": "B", "content": "```rust example nope\nfn main() {}\n```\n",
                    "number": [1, 1], "sub_items": [], "path": "b.md", "source_path": "b.md", "parent_names": ["A"]}}],
                "path": "a.md", "source_path": "a.md", "parent_names": []}},
            "Separator",
            {"Chapter": {"name": "Draft", "content": "", "number": null, "sub_items": [], "path": null,
                "source_path": null, "parent_names": []}}
        ]});
        let before = b.clone();
        let out = book(&config(json!({})), Target::Html, &mut b);
        assert_eq!(out.errors.len(), 1);
        assert!(
            out.errors[0]
                .to_string()
                .starts_with("src/b.md:1:17: found unknown attribute `nope`")
        );
        assert_eq!(b["items"][0], before["items"][0]);
        assert_eq!(b["items"][2], before["items"][2]);
        assert_eq!(b["items"][3], before["items"][3]);
        assert!(
            b["items"][1]["Chapter"]["content"]
                .as_str()
                .unwrap()
                .starts_with("<div class=\"companion-example")
        );
    }

    #[test]
    fn verify_reports_a_missing_rustc_once_across_chapters() {
        let chapter = |name: &str| {
            json!({"Chapter": {"name": name, "content": "```rust example\nfn main() {}\n```\n\n```rust example\nfn main() {}\n```\n",
                "number": null, "sub_items": [], "path": format!("{name}.md"), "source_path": format!("{name}.md"), "parent_names": []}})
        };
        for (on_failure, marks) in [("bail", 0), ("continue", 2)] {
            let mut b = json!({"items": [chapter("a"), chapter("b")]});
            let cfg = config(
                json!({"verify": true, "rustc": "/nonexistent/rustc", "on-failure": on_failure}),
            );
            let out = book(&cfg, Target::Html, &mut b);
            let (reported, other) = match on_failure {
                "bail" => (&out.errors, &out.warnings),
                _ => (&out.warnings, &out.errors),
            };
            assert!(other.is_empty(), "{other:?}");
            assert_eq!(
                reported.iter().map(Located::to_string).collect::<Vec<_>>(),
                [
                    "src/a.md:1:4: the compiler `/nonexistent/rustc` could not be run, so 4 blocks were not checked (the first is here); set `rustc` in [preprocessor.companion] to a compiler that runs"
                ],
                "{on_failure}"
            );
            let page = b["items"][1]["Chapter"]["content"].as_str().unwrap();
            assert_eq!(page.matches("companion-verify").count(), marks, "{page}");
        }
    }
}
