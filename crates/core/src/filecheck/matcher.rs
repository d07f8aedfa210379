//! How a FileCheck pattern is looked for in a line of a listing: literal
//! words without a regex, or a `{{regex}}` pattern's expression, built
//! once per distinct source in a process; and the step counter every
//! part of FileCheck counts its work with in tests.

use regex::Regex;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// How a pattern is looked for in a line.
#[derive(Debug, Clone)]
pub(super) enum Matcher {
    /// Literal text (most patterns): its words, each after the one before
    /// with a run of spaces and tabs between them. Nothing to build.
    Words(Vec<String>),
    /// A pattern with `{{regex}}`: the regular expression's source, and
    /// the expression, built on first use (once per distinct source in a
    /// process, [`built`]).
    Regex(String, OnceLock<Result<Regex, String>>),
}

impl Matcher {
    /// The first match in `text` at or after byte `begin`: its start and
    /// end; `Err` when the pattern's regex cannot be built.
    pub(super) fn find_at(
        &self,
        text: &str,
        begin: usize,
    ) -> Result<Option<(usize, usize)>, String> {
        match self {
            Matcher::Words(words) => Ok(find_words(words, text, begin)),
            Matcher::Regex(source, re) => {
                let re = re
                    .get_or_init(|| built(source))
                    .as_ref()
                    .map_err(Clone::clone)?;
                Ok(re.find_at(text, begin).map(|m| (m.start(), m.end())))
            }
        }
    }
}

/// The first place at or after `begin` where `words` stand in `text`,
/// each after the one before with a run of spaces and tabs between them:
/// what the regex `w1[ \t]+w2…` finds (leftmost; a word never starts
/// with a space or a tab, so the run is the whole run), without one.
pub(super) fn find_words(words: &[String], text: &str, begin: usize) -> Option<(usize, usize)> {
    let (first, rest) = words.split_first()?;
    let mut from = begin;
    while let Some(i) = text.get(from..)?.find(first.as_str()) {
        work(1);
        let start = from + i;
        let mut end = start + first.len();
        let holds = rest.iter().all(|w| {
            let after = &text[end..];
            let gap = after.len() - after.trim_start_matches([' ', '\t']).len();
            let found = gap > 0 && after[gap..].starts_with(w.as_str());
            if found {
                end += gap + w.len();
            }
            found
        });
        if holds {
            return Some((start, end));
        }
        // The next place, one character on.
        from = start + first.chars().next().map_or(1, char::len_utf8);
    }
    None
}

/// The regex of `source`, built once per distinct source in a process
/// (the same claim is read by `check` and by the page, and blocks repeat
/// patterns).
pub(super) fn built(source: &str) -> Result<Regex, String> {
    static BUILT: std::sync::LazyLock<Mutex<HashMap<String, Result<Regex, String>>>> =
        std::sync::LazyLock::new(Default::default);
    let mut map = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    map.entry(source.to_owned())
        .or_insert_with(|| {
            work(1);
            Regex::new(source).map_err(|e| format!("cannot be compiled as a regex: {e}"))
        })
        .clone()
}

/// Counts steps of work, so that a test (here or in a crate that uses
/// FileCheck) can tell linear from quadratic without a clock ([`WORK`]).
/// One thread-local add per step: nothing a user could measure.
pub fn work(steps: usize) {
    WORK.with(|w| w.set(w.get() + steps));
}

thread_local! {
    /// The steps [`work`] counted on this thread.
    pub static WORK: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}
