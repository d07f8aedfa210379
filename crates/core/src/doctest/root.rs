//! What rustdoc moves to a doctest's crate root from among its statements.

use crate::tokens::{Tokens, group_end};

/// The `extern crate` items among `code`'s statements (with their outer
/// attributes, `#[macro_use]`), on one line, and `code` with them blanked
/// (lines and columns kept): rustdoc puts them at the crate's root, where
/// a 2015-edition path finds the crate and `#[macro_use]` is allowed.
pub(super) fn extern_crates(code: &str) -> (String, std::borrow::Cow<'_, str>) {
    let tokens: Vec<&str> = Tokens::new(code).collect();
    let offset = |t: &str| t.as_ptr() as usize - code.as_ptr() as usize;
    let mut ranges = Vec::new();
    // Where the statement at hand starts, and its first attribute.
    let mut start = 0;
    let mut attrs = None;
    let mut at = 0;
    while at < tokens.len() {
        let t = tokens[at];
        if at == start && t == "#" && tokens.get(at + 1) == Some(&"[") {
            attrs.get_or_insert(at);
            at = group_end(&tokens, at + 1);
            start = at;
            continue;
        }
        if at == start && t == "extern" && tokens.get(at + 1) == Some(&"crate") {
            let Some(semi) = (at..tokens.len()).find(|&i| tokens[i] == ";") else {
                break;
            };
            let first = attrs.take().unwrap_or(at);
            // With the doc comments written above it.
            let gap = match first {
                0 => 0,
                i => offset(tokens[i - 1]) + tokens[i - 1].len(),
            };
            let from = first_doc_comment(&code[gap..offset(tokens[first])])
                .map_or(offset(tokens[first]), |d| gap + d);
            ranges.push((from..offset(tokens[semi]) + 1, first..semi + 1));
            at = semi + 1;
            start = at;
            continue;
        }
        if at == start {
            attrs = None;
        }
        let end = match t {
            "(" | "[" | "{" => group_end(&tokens, at),
            _ => at + 1,
        };
        if t == ";" || t == "{" {
            start = end;
        }
        at = end;
    }
    if ranges.is_empty() {
        return (String::new(), code.into());
    }
    // Their tokens (no comment, which would hide the rest of the line).
    let mut items = String::new();
    for (_, t) in &ranges {
        for token in &tokens[t.clone()] {
            items.push_str(token);
            items.push(' ');
        }
    }
    // From the last, so that the earlier ranges stay where they are.
    let mut out = code.to_owned();
    for (r, _) in ranges.into_iter().rev() {
        let blank: String = code[r.clone()]
            .chars()
            .map(|c| if c == '\n' { c } else { ' ' })
            .collect();
        out.replace_range(r, &blank);
    }
    (items, out.into())
}

/// Where the first doc comment of `gap` (blanks and comments only)
/// starts.
pub(super) fn first_doc_comment(gap: &str) -> Option<usize> {
    let mut rest = gap.trim_start();
    while rest.starts_with('/') {
        if doc_comment(rest) {
            return Some(gap.len() - rest.len());
        }
        let len = if rest.starts_with("/*") {
            crate::tokens::block_comment_len(rest)
        } else {
            rest.find('\n').unwrap_or(rest.len())
        };
        rest = rest[len.max(1)..].trim_start();
    }
    None
}

/// Whether `text` starts with a doc comment, outer or inner (`///`,
/// `//!`, `/**`, `/*!`, but not `////`, `/***` or `/**/`).
pub(super) fn doc_comment(text: &str) -> bool {
    (text.starts_with("///") && !text.starts_with("////"))
        || text.starts_with("//!")
        || (text.starts_with("/**") && !text.starts_with("/***") && !text.starts_with("/**/"))
        || text.starts_with("/*!")
}
