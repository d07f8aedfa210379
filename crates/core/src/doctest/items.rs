//! Whether a block keeps its own `main`, as rustdoc decides it: the code
//! read as the statements of a function, each an item or a macro call,
//! from its tokens.

use crate::tokens::{Tokens, group_end, is_ident};

/// Whether rustdoc would leave `items` (the code after its crate
/// attributes) unwrapped. rustdoc parses the code as the statements of a
/// function: it has its own `main` when one of them is a `fn main` item,
/// or a macro call with the tokens `fn main (` in it, and every statement
/// is an item or a macro call. Anything else (a `let`, an expression, a
/// stray `;` after an item such as `struct S { … };`) gets the whole code
/// wrapped in `fn main`, its own `main` then being an unused inner item.
pub(super) fn has_main(items: &str) -> bool {
    let tokens: Vec<&str> = Tokens::new(items).collect();
    let mut at = 0;
    let mut main = false;
    while at < tokens.len() {
        // Outer attributes (and inner ones left in the middle).
        let Some(after) = attributes(&tokens, at) else {
            return false;
        };
        at = after;
        if at >= tokens.len() {
            break;
        }
        match statement(&tokens, at) {
            Some((next, Statement::Item { main: m } | Statement::Macro { main: m })) => {
                main |= m;
                at = next;
            }
            None => return false,
        }
    }
    main
}

/// A statement of a function's body that rustdoc reads as such
/// ([`statement`]): an item, or a macro call; each with whether it is
/// (or holds) `fn main`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Statement {
    Item { main: bool },
    Macro { main: bool },
}

/// The attributes starting at `tokens[at]` (outer `#[…]` and inner
/// `#![…]`) read past: where what they stand on starts; `None` when a
/// `#` starts no attribute.
pub(crate) fn attributes(tokens: &[&str], mut at: usize) -> Option<usize> {
    while tokens.get(at) == Some(&"#") {
        at += 1;
        if tokens.get(at) == Some(&"!") {
            at += 1;
        }
        if tokens.get(at) != Some(&"[") {
            return None;
        }
        at = group_end(tokens, at);
    }
    Some(at)
}

/// The item or macro call starting at `tokens[at]` (after its
/// attributes): where the next statement starts, and which it is;
/// `None` when the statement is neither (a `let`, an expression).
pub(crate) fn statement(tokens: &[&str], at: usize) -> Option<(usize, Statement)> {
    let next = |i: usize| tokens.get(i + 1).copied().unwrap_or("");
    let item = |end: usize, main: bool| Some((end, Statement::Item { main }));
    let (at, abi, external) = qualifiers(tokens, at)?;
    let at = macro_name(tokens, at)?;
    let t = *tokens.get(at)?;
    match t {
        // `extern "C" { … }`
        "{" if abi => item(group_end(tokens, at), false),
        "fn" => item(item_end(tokens, at, true), next(at) == "main"),
        "struct" | "enum" | "trait" | "impl" | "mod" | "macro_rules" => {
            item(item_end(tokens, at, true), false)
        }
        "union" if is_ident(next(at)) => item(item_end(tokens, at, true), false),
        "use" | "static" | "const" | "type" => item(item_end(tokens, at, false), false),
        "crate" if external => item(item_end(tokens, at, false), false),
        w if is_ident(w) && next(at) == "!" => {
            macro_call(tokens, at).map(|(end, main)| (end, Statement::Macro { main }))
        }
        _ => None,
    }
}

/// The qualifiers an item may start with (`pub(crate)`, `unsafe`,
/// `const`, `extern "C"` …) read past: where its keyword stands, whether
/// an ABI was written and whether `extern` was; `None` when they open a
/// block expression (`unsafe { … }`, `async move { … }`, `const { … }`).
fn qualifiers(tokens: &[&str], mut at: usize) -> Option<(usize, bool, bool)> {
    let next = |i: usize| tokens.get(i + 1).copied().unwrap_or("");
    let mut abi = false;
    let mut external = false;
    loop {
        match *tokens.get(at)? {
            "pub" => {
                at += 1;
                if tokens.get(at) == Some(&"(") {
                    at = group_end(tokens, at);
                }
            }
            // A block (`unsafe { … }`, `async move { … }`) is an expression.
            "unsafe" | "async" if matches!(next(at), "{" | "move") => return None,
            "const" if next(at) == "{" => return None,
            "unsafe" | "async" | "safe" => at += 1,
            "default" | "auto"
                if matches!(
                    next(at),
                    "fn" | "impl" | "unsafe" | "trait" | "type" | "const" | "async"
                ) =>
            {
                at += 1
            }
            "const" if matches!(next(at), "fn" | "unsafe" | "async" | "extern") => at += 1,
            "extern" => {
                at += 1;
                external = true;
                if tokens.get(at).is_some_and(|t| t.starts_with('"')) {
                    at += 1;
                    abi = true;
                }
            }
            _ => return Some((at, abi, external)),
        }
    }
}

/// A macro called by its path (`core::arch::global_asm!`, `::m!`): where
/// its last name stands (else `at` itself); `None` when a path at `at`
/// breaks off.
fn macro_name(tokens: &[&str], at: usize) -> Option<usize> {
    let mut path = at;
    while tokens.get(path) == Some(&":") && tokens.get(path + 1) == Some(&":") {
        path += 2;
        match tokens.get(path) {
            Some(t) if is_ident(t) => path += 1,
            _ => return None,
        }
    }
    if path == at && tokens.get(at).is_some_and(|t| is_ident(t)) {
        path = at + 1;
        while tokens.get(path) == Some(&":") && tokens.get(path + 1) == Some(&":") {
            match tokens.get(path + 2) {
                Some(t) if is_ident(t) => path += 3,
                _ => return None,
            }
        }
    }
    Some(if path > at + 1 && tokens.get(path) == Some(&"!") {
        path - 1
    } else {
        at
    })
}

/// The macro call whose name is `tokens[at]` (`name!(…)`, `name! other
/// { … }`): where the next statement starts and whether it holds `fn
/// main (`; `None` when the call is part of an expression.
fn macro_call(tokens: &[&str], at: usize) -> Option<(usize, bool)> {
    let mut open = at + 2;
    // `name! other { … }`
    if tokens.get(open).is_some_and(|t| is_ident(t)) {
        open += 1;
    }
    let brace = *tokens.get(open)?;
    if !matches!(brace, "(" | "[" | "{") {
        return None;
    }
    let close = group_end(tokens, open);
    let mut depth = 0usize;
    let mut main = false;
    for (i, t) in tokens.iter().enumerate().take(close).skip(open) {
        match *t {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth = depth.saturating_sub(1),
            "fn" if depth == 1 => {
                main |= tokens.get(i + 1) == Some(&"main") && tokens.get(i + 2) == Some(&"(");
            }
            _ => {}
        }
    }
    match tokens.get(close).copied() {
        Some(";") => Some((close + 1, main)),
        None => Some((close, main)),
        Some(_) if brace == "{" => Some((close, main)),
        // `vec![1].len()`: an expression.
        Some(_) => None,
    }
}

/// The index after the item starting at `tokens[at]`: its `;`, or, when
/// `braced` (a `fn`, `struct`, `impl` …), the end of its first `{ … }`.
fn item_end(tokens: &[&str], at: usize, braced: bool) -> usize {
    let mut i = at;
    while i < tokens.len() {
        match tokens[i] {
            ";" => return i + 1,
            "{" if braced => return group_end(tokens, i),
            "(" | "[" | "{" => i = group_end(tokens, i),
            _ => i += 1,
        }
    }
    tokens.len()
}
