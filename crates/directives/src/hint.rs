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

use mdbook_companion_core::markdown::{self, Block};
use mdbook_companion_core::problem::Problem;

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

/// Whether `word` is one edit from `ours` (and not `ours` itself): one
/// character changed, added, dropped, or two neighbours swapped (the
/// optimal string alignment distance is 1), without allocating: the
/// pre-filter asks it of every fence of a book.
fn near(word: &str, ours: &str) -> bool {
    let (a, b) = (word.as_bytes(), ours.as_bytes());
    if a == b || a.len() < 3 || a.len().abs_diff(b.len()) > 1 {
        return false;
    }
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    if a.len() == b.len() {
        let suffix = a[prefix..]
            .iter()
            .rev()
            .zip(b[prefix..].iter().rev())
            .take_while(|(x, y)| x == y)
            .count();
        let differ = a.len() - prefix - suffix;
        differ == 1 || (differ == 2 && a[prefix] == b[prefix + 1] && a[prefix + 1] == b[prefix])
    } else {
        let (long, short) = if a.len() > b.len() { (a, b) } else { (b, a) };
        long[prefix + 1..] == short[prefix..]
    }
}

/// Whether an info string may get a hint, without allocating: its first
/// word is near one of ours, or it is a Rust fence with a word rustdoc
/// does not know.
fn worth_a_look(info: &str) -> bool {
    let mut words = info.split([' ', ',', '\t']).filter(|w| !w.is_empty());
    let Some(first) = words.next() else {
        return false;
    };
    let first = first.split('=').next().unwrap_or(first);
    super::PATTERNS.iter().any(|p| match p.words {
        [one] => near(first, one),
        [lead, ..] if *lead == first => words.clone().any(|w| !known_to_rustdoc(w)),
        [lead, ..] => near(first, lead),
        [] => false,
    }) || near(first, "output")
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
    if !worth_a_look(info) {
        return None;
    }
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
            && !super::attributes::is_attribute(w)
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
        .filter(|k| super::attributes::takes_value(k))
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
            // The opening line, up to a line end, or a backslash: the raw
            // JSON of a chapter (the lazy decoder's pre-filter) writes its
            // line ends as `\n`; an info string is short, so no further
            // than 256 bytes.
            let rest = &bytes[at..(at + 256).min(bytes.len())];
            let end = rest
                .iter()
                .position(|&b| b == b'\n' || b == b'\\')
                .unwrap_or(rest.len());
            // Cut inside a character at the limit: the valid part.
            let line = match std::str::from_utf8(&rest[..end]) {
                Ok(line) => line,
                Err(e) => std::str::from_utf8(&rest[..e.valid_up_to()]).unwrap_or(""),
            };
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
    fn near_is_one_edit() {
        for (a, b, want) in [
            ("exmaple", "example", true),
            ("examle", "example", true),
            ("examplee", "example", true),
            ("exbmple", "example", true),
            ("example", "example", false),
            ("exmapel", "example", false),
            ("exa", "example", false),
            ("rsut", "rust", true),
            ("rst", "rust", true),
            ("toml", "talk", false),
            ("nasm", "asm", true),
        ] {
            assert_eq!(near(a, b), want, "{a} {b}");
            if a.len() >= 3 && b.len() >= 3 && a != b {
                assert_eq!(want, strsim::osa_distance(a, b) == 1, "{a} {b}");
            }
        }
    }

    #[test]
    fn only_fences_that_are_not_ours_are_hinted() {
        let text = "```rust example\nfn main() {}\n```\n\n```rust exmaple\nfn main() {}\n```\n";
        let blocks = crate::scan(text);
        let h = hints(text, &blocks);
        assert_eq!(h.len(), 1);
        assert_eq!(h[0].offset, text.find("exmaple").unwrap());
        assert!(!may_hold_typo("```rust ignore\n```\n"));
    }
}
