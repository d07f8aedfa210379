//! Hints for a fence that is almost one of ours.
//!
//! A typo in a directive's word (```` ```rust exmaple title="…" ````)
//! makes a plain code block: nothing fails to parse, and the block is
//! checked (or not) for what it never claimed. A fence whose info string
//! holds a word one edit away from one of ours (a transposition counts as
//! one edit), or our attributes after a word nobody knows, gets a hint:
//! *unknown word `exmaple`; did you mean `example`?*
//!
//! Words rustdoc and mdBook give meaning to (`ignore`, `should_panic`,
//! `no_run`, `compile_fail`, `edition2021`, `E0123`, `editable`, …) are
//! never hinted at, and neither is another language's fence unless its
//! first word is one edit from a directive's (`comapre`).

use crate::core::markdown::{self, Block};
use crate::core::problem::Problem;

/// Our words that may open an info string on their own: every
/// directive's single word, and the blocks that follow an example.
fn first_words() -> impl Iterator<Item = &'static str> {
    super::KINDS
        .iter()
        .filter(|k| k.pattern.words.len() == 1)
        .map(|k| k.pattern.words[0])
        .chain(["output"])
}

/// Our words that follow a first word (`rust` → `example`).
fn second_words(first: &str) -> impl Iterator<Item = &'static str> + '_ {
    super::KINDS
        .iter()
        .filter(move |k| k.pattern.words.len() == 2 && k.pattern.words[0] == first)
        .map(|k| k.pattern.words[1])
}

/// What rustdoc and mdBook read in a Rust fence's info string.
fn known_to_rustdoc(word: &str) -> bool {
    let key = word.split('=').next().unwrap_or(word);
    matches!(
        key,
        "rust"
            | "ignore"
            | "should_panic"
            | "no_run"
            | "compile_fail"
            | "test_harness"
            | "standalone_crate"
            | "custom"
            | "allow_fail"
            | "editable"
            | "noplayground"
            | "noplaypen"
            | "mdbook-runnable"
            | "hidelines"
    ) || key.starts_with("ignore-")
        || key.starts_with("edition")
        || (key.len() == 5 && key.starts_with('E') && key[1..].bytes().all(|b| b.is_ascii_digit()))
}

/// Whether `word` is one edit from `ours` (and not `ours` itself).
fn near(word: &str, ours: &str) -> bool {
    word != ours && word.len() >= 3 && strsim::osa_distance(word, ours) == 1
}

/// The words of an info string with their byte offsets, `=value` kept.
fn words(info: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    let mut quoted = false;
    for (i, c) in info.char_indices() {
        match (start, c) {
            (Some(_), '"') => quoted = !quoted,
            (Some(s), ' ' | '\t' | ',') if !quoted => {
                out.push((s, &info[s..i]));
                start = None;
            }
            (None, ' ' | '\t' | ',') => {}
            (None, _) => {
                start = Some(i);
                quoted = c == '"';
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &info[s..]));
    }
    out
}

/// The hint for one info string: the offset of the word it is about, in
/// the info string, and the message.
pub fn hint(info: &str) -> Option<(usize, String)> {
    let words = words(info);
    let (first_at, first) = *words.first()?;
    let first_key = first.split('=').next().unwrap_or(first);
    if let Some(ours) = first_words().find(|w| near(first_key, w)) {
        return Some((
            first_at,
            format!("unknown word `{first_key}`; did you mean `{ours}`?"),
        ));
    }
    // `rsut example`: the first word is the typo.
    if let Some((_, second)) = words.get(1) {
        for kind in super::KINDS.iter().filter(|k| k.pattern.words.len() == 2) {
            let [want_first, want_second] = [kind.pattern.words[0], kind.pattern.words[1]];
            if *second == want_second && near(first_key, want_first) {
                return Some((
                    first_at,
                    format!("unknown word `{first_key}`; did you mean `{want_first}`?"),
                ));
            }
        }
    }
    let seconds: Vec<&str> = second_words(first_key).collect();
    // Not ours to hint at, or already a directive.
    if seconds.is_empty() || words.get(1).is_some_and(|(_, w)| seconds.contains(w)) {
        return None;
    }
    let unknown = words.iter().skip(1).find(|(_, w)| {
        !known_to_rustdoc(w)
            && !super::runnable::is_attribute(w)
            && !w.contains('=')
            && !w.starts_with(['{', '(', '"'])
    })?;
    let (at, word) = *unknown;
    if let Some(ours) = seconds.iter().find(|s| near(word, s)) {
        return Some((at, format!("unknown word `{word}`; did you mean `{ours}`?")));
    }
    // An unknown word followed by our attributes (`rust demo title="…"`).
    let ours: Vec<&str> = words
        .iter()
        .filter(|(a, _)| *a > at)
        .filter_map(|(_, w)| w.split_once('=').map(|(k, _)| k))
        .filter(|k| super::runnable::takes_value(k))
        .collect();
    let attr = ours.first()?;
    Some((
        at,
        format!(
            "unknown word `{word}` before the attribute `{attr}`, which only `{first_key} {}` takes; did you mean `{first_key} {}`?",
            seconds[0], seconds[0]
        ),
    ))
}

/// A cheap test that a chapter (or its JSON string) may hold a fence
/// [`hints`] speaks about: each fence's opening line is tried, without
/// parsing the Markdown.
pub fn may_hold_typo(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memmem::find_iter(bytes, b"```")
        .chain(memchr::memmem::find_iter(bytes, b"~~~"))
        .any(|at| {
            // The raw JSON of a chapter (the lazy decoder's pre-filter)
            // writes its line ends as `\n`.
            let line = text[at..].lines().next().unwrap_or("");
            let line = line.split("\\n").next().unwrap_or(line);
            let info = line.trim_start_matches(['`', '~']).trim();
            !info.is_empty() && hint(info).is_some()
        })
}

/// The hints of a chapter whose directives are `blocks`: one per fence
/// that is not a directive (nor a directive's output or asm block) and
/// holds a near miss of our words.
pub fn hints(text: &str, blocks: &[Block]) -> Vec<Problem> {
    if !may_hold_typo(text) {
        return Vec::new();
    }
    let ours: Vec<usize> = blocks
        .iter()
        .flat_map(|b| [Some(&b.fence), b.output.as_ref(), b.asm.as_ref()])
        .flatten()
        .map(|f| f.range.start)
        .collect();
    markdown::fences(text)
        .into_iter()
        .filter(|f| !ours.contains(&f.range.start))
        .filter_map(|f| {
            let (at, message) = hint(&f.info)?;
            Some(Problem::at(f.info_offset + at, message))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn a_word_one_edit_from_ours_gets_a_hint() {
        for (info, want) in [
            (
                "rust exmaple title=\"Hi\"",
                "unknown word `exmaple`; did you mean `example`?",
            ),
            (
                "rust examle",
                "unknown word `examle`; did you mean `example`?",
            ),
            (
                "rust,exampel",
                "unknown word `exampel`; did you mean `example`?",
            ),
            ("rsut example", "unknown word `rsut`; did you mean `rust`?"),
            (
                "comapre title=\"x\"",
                "unknown word `comapre`; did you mean `compare`?",
            ),
            ("outptu", "unknown word `outptu`; did you mean `output`?"),
            (
                "reading-lst tags=[\"a\"]",
                "unknown word `reading-lst`; did you mean `reading-list`?",
            ),
            (
                "rust demo title=\"Hi\" expect=panic",
                "unknown word `demo` before the attribute `title`, which only `rust example` takes; did you mean `rust example`?",
            ),
        ] {
            assert_eq!(hint(info).map(|(_, m)| m).as_deref(), Some(want), "{info}");
        }
        assert_eq!(hint("rust exmaple").map(|(at, _)| at), Some(5));
    }

    #[test]
    fn rustdoc_words_and_other_languages_get_none() {
        for info in [
            "rust",
            "rust,ignore",
            "rust should_panic",
            "rust,no_run",
            "rust compile_fail,E0382",
            "rust edition2021",
            "rust,editable",
            "rust noplayground",
            "rust hidelines=!!!",
            "rust ignore-wasm32",
            "rust test_harness",
            "rust example title=\"Fine\"",
            "rust example title=\"Fine\" asm mode=release",
            "rust asm",
            "rust {.class}",
            "rust (a comment)",
            "rust unknownword",
            "text",
            "console",
            "toml",
            "nasm",
            "rst",
            "just",
            "c caption=\"x\"",
            "python",
            "output",
            "compare",
            "",
        ] {
            assert_eq!(hint(info), None, "{info}");
        }
    }

    #[test]
    fn only_fences_that_are_not_ours_are_hinted() {
        let text = "```rust example\nfn main() {}\n```\n\n```rust exmaple\nfn main() {}\n```\n";
        let blocks = crate::directive::scan(text);
        let h = hints(text, &blocks);
        assert_eq!(h.len(), 1);
        assert_eq!(h[0].offset, text.find("exmaple").unwrap());
        assert!(!may_hold_typo("```rust ignore\n```\n"));
    }
}
