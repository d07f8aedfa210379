//! Rust source read as tokens by rustc's own lexer (no macro expansion, no parser):
//! enough to follow brackets and tell items, crate attributes and paths
//! apart, for rustdoc's wrapping ([`super::doctest`]) and for what may
//! share a merged crate.

/// The crate-level inner attributes of a program (`#![…]` outside any
/// braces), each as its tokens inside the brackets, joined
/// (`allow(unused_mut)`, `feature(never_type)`); those inside a function
/// or a module are not the crate's.
pub fn crate_attributes(source: &str) -> Vec<String> {
    let tokens: Vec<&str> = Tokens::new(source).collect();
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < tokens.len() {
        match tokens[i] {
            "#" if depth == 0
                && tokens.get(i + 1) == Some(&"!")
                && tokens.get(i + 2) == Some(&"[") =>
            {
                let end = group_end(&tokens, i + 2);
                out.push(tokens[i + 3..end.saturating_sub(1).max(i + 3)].concat());
                i = end;
                continue;
            }
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    out
}

/// Whether `super` appears outside the program's own `mod` blocks, where
/// it would name what lies around the program (a module of ours, when the
/// program is compiled inside one) rather than a module of the program.
pub fn super_outside_modules(source: &str) -> bool {
    let tokens: Vec<&str> = Tokens::new(source).collect();
    // For each open brace: whether it opens a `mod`'s body.
    let mut open: Vec<bool> = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        match *t {
            "{" => open.push(i >= 2 && tokens[i - 2] == "mod" && is_ident(tokens[i - 1])),
            "}" => {
                open.pop();
            }
            "super" if !open.contains(&true) => return true,
            _ => {}
        }
    }
    false
}

/// Whether 2015-edition code names something from the crate's root
/// other than the standard crates, where a module it is compiled in would
/// read it otherwise: in 2015 a `use` path and a path that starts with
/// `::` are read from the crate's root, wherever they are written. Such
/// code is merged only when every such path starts with `std`, `core` or
/// `alloc` (the same crates at any root), or, in a `use`, with `self` or
/// `super` (read from the module the `use` is in, the same alone and in a
/// module); and when nothing of the program is named `std`, `core` or
/// `alloc`, by an item or an import's `as` (at the root, that name would
/// be what those paths find alone). A `use` of a `{…}` group, or one this cannot read, counts
/// as a path from the root.
pub fn paths_from_the_root_2015(source: &str) -> bool {
    const STANDARD: [&str; 3] = ["std", "core", "alloc"];
    // What names an item, or renames an import (`use std::fmt as core`).
    const DEFINES: [&str; 11] = [
        "mod", "struct", "enum", "union", "trait", "type", "fn", "const", "static", "crate", "as",
    ];
    let tokens: Vec<&str> = Tokens::new(source).collect();
    let at = |t: &str| t.as_ptr() as usize - source.as_ptr() as usize;
    // `tokens[i]` and `tokens[i + 1]` are `::`.
    let path_separator = |i: usize| {
        tokens.get(i) == Some(&":")
            && tokens
                .get(i + 1)
                .is_some_and(|n| *n == ":" && at(n) == at(tokens[i]) + 1)
    };
    for (i, t) in tokens.iter().enumerate() {
        if STANDARD.contains(t) && i > 0 && DEFINES.contains(&tokens[i - 1]) {
            return true;
        }
        let first = match *t {
            "use" => match path_separator(i + 1) {
                true => tokens.get(i + 3),
                false => tokens.get(i + 1),
            },
            // `::` where no path goes on through it: a path from the root
            // (not `a::b`, `Vec::<u8>::new`, `<T as Tr>::X`).
            ":" if path_separator(i)
                && (i == 0 || !(is_ident(tokens[i - 1]) || tokens[i - 1] == ">"))
                && (i < 2 || !path_separator(i - 1)) =>
            {
                tokens.get(i + 2)
            }
            _ => continue,
        };
        let allowed = match *t {
            "use" => ["std", "core", "alloc", "self", "super"].as_slice(),
            _ => STANDARD.as_slice(),
        };
        if !first.is_some_and(|f| allowed.contains(f)) {
            return true;
        }
    }
    false
}

/// The program with its paths from the crate's root (`crate::x`) told
/// from the root of a module it is compiled in instead, every line and
/// column kept: `crate::` becomes `self:: ` at the program's top level and
/// `super::` inside one of its own `mod` blocks (the same width). `None`
/// when one cannot be told so: in a module two deep, or inside a macro's
/// call or definition (whose tokens a program may print, as `assert!`
/// does), or with space inside `crate::`. The source itself (`Some` of
/// it unchanged) when it has no such path.
pub fn crate_paths_from_module(source: &str) -> Option<String> {
    let tokens: Vec<&str> = Tokens::new(source).collect();
    let at = |t: &str| t.as_ptr() as usize - source.as_ptr() as usize;
    // For each open bracket: whether it opens a `mod`'s body, and
    // whether a macro's tokens.
    let mut open: Vec<(bool, bool)> = Vec::new();
    let mut out = source.to_owned();
    for (i, t) in tokens.iter().enumerate() {
        match *t {
            "(" | "[" | "{" => {
                let module =
                    *t == "{" && i >= 2 && tokens[i - 2] == "mod" && is_ident(tokens[i - 1]);
                let macro_call = i >= 1 && tokens[i - 1] == "!"
                    || i >= 2 && tokens[i - 2] == "!" && is_ident(tokens[i - 1]);
                open.push((module, macro_call));
            }
            ")" | "]" | "}" => {
                open.pop();
            }
            // (`$crate::` is a macro's, told by [`root_names`].)
            "crate"
                if tokens.get(i + 1) == Some(&":")
                    && tokens.get(i + 2) == Some(&":")
                    && (i == 0 || tokens[i - 1] != "$") =>
            {
                let start = at(t);
                if source.get(start..start + 7) != Some("crate::") {
                    return None;
                }
                if open.iter().any(|&(_, m)| m) {
                    return None;
                }
                let with = match open.iter().filter(|&&(m, _)| m).count() {
                    0 => "self:: ",
                    1 => "super::",
                    _ => return None,
                };
                out.replace_range(start..start + 7, with);
            }
            _ => {}
        }
    }
    Some(out)
}

/// Whether rustc's lexer reads the whole program without a fatal error:
/// every bracket closed by its match, no literal or block comment left
/// open. rustc stops the whole crate at such an error (in a merged build,
/// every other block's later diagnostics with it), where it recovers from
/// most others.
pub fn lexes_whole(source: &str) -> bool {
    lexer_stop(source).is_none()
}

/// Where and why rustc's lexer stops reading a program ([`lexes_whole`]):
/// the byte offset rustc points at (a closing bracket that matches none,
/// the bracket one closes wrongly, a literal or block comment left open;
/// the end of the program for a bracket never closed) and what is wrong.
pub fn lexer_stop(source: &str) -> Option<(usize, String)> {
    use ra_ap_rustc_lexer::{LiteralKind as L, TokenKind as K};
    let mut open: Vec<(K, usize, char)> = Vec::new();
    let mut at = 0;
    for token in ra_ap_rustc_lexer::tokenize(source, ra_ap_rustc_lexer::FrontmatterAllowed::No) {
        let here = at;
        at += token.len as usize;
        let close = |c: char| match c {
            '(' => K::CloseParen,
            '[' => K::CloseBracket,
            _ => K::CloseBrace,
        };
        // What is wrong, and where rustc points: the token, or the bracket
        // a closing one does not match.
        let wrong: Option<(usize, String)> = match token.kind {
            K::OpenParen | K::OpenBracket | K::OpenBrace => {
                let c = source[here..].chars().next().unwrap_or('{');
                open.push((close(c), here, c));
                None
            }
            K::CloseParen | K::CloseBracket | K::CloseBrace => {
                let c = source[here..].chars().next().unwrap_or('}');
                match open.pop() {
                    Some((k, _, _)) if k == token.kind => None,
                    Some((_, o_at, o)) => Some((
                        o_at,
                        format!("mismatched closing delimiter: `{c}` closes `{o}`"),
                    )),
                    None => Some((here, format!("unexpected closing delimiter: `{c}`"))),
                }
            }
            K::BlockComment {
                terminated: false, ..
            } => Some((here, "unterminated block comment".to_owned())),
            K::Literal { kind, .. } => match kind {
                L::Char { terminated: false } => Some("unterminated character literal"),
                L::Byte { terminated: false } => Some("unterminated byte constant"),
                L::Str { terminated: false } => Some("unterminated double quote string"),
                L::ByteStr { terminated: false } => Some("unterminated double quote byte string"),
                L::CStr { terminated: false } => Some("unterminated C string"),
                L::RawStr { n_hashes: None }
                | L::RawByteStr { n_hashes: None }
                | L::RawCStr { n_hashes: None } => Some("invalid or unterminated raw string"),
                _ => None,
            }
            .map(|w| (here, w.to_owned())),
            _ => None,
        };
        if wrong.is_some() {
            return wrong;
        }
    }
    // As rustc: at the end of the file (its last line), which the
    // bracket never reaches.
    open.pop()?;
    let text = source.trim_end();
    let last = text.rfind('\n').map_or(0, |n| n + 1);
    Some((last, "this file contains an unclosed delimiter".to_owned()))
}

/// Whether a program has an identifier that is not ASCII: rustc's lints
/// on such identifiers (`mixed_script_confusables`, `confusable_idents`)
/// look at the whole crate's identifiers at once.
pub fn non_ascii_identifiers(source: &str) -> bool {
    use ra_ap_rustc_lexer::TokenKind as K;
    let mut at = 0;
    for token in ra_ap_rustc_lexer::tokenize(source, ra_ap_rustc_lexer::FrontmatterAllowed::No) {
        let text = source.get(at..at + token.len as usize).unwrap_or_default();
        at += token.len as usize;
        if matches!(
            token.kind,
            K::Ident | K::RawIdent | K::InvalidIdent | K::UnknownPrefix | K::Lifetime { .. }
        ) && !text.is_ascii()
        {
            return true;
        }
    }
    false
}

/// Whether a program iterates something std hashes with a random key
/// per process (`HashMap`, `HashSet`): its order can change from run to
/// run, and with a few entries two runs often agree.
pub fn hashes_randomly(source: &str) -> bool {
    source.contains("HashMap") || source.contains("HashSet")
}

/// Whether a program's code uses syntax a compiler refuses without a
/// `#![feature]`, so that it most often fails: a C-variadic function's
/// definition (`fn f(ap: ...) {`, not a declaration in an `extern`
/// block), or an ABI that is not stable (`extern "custom"`,
/// `extern "rust-call"`). A guess from tokens, for keeping such code
/// apart in merged builds, never a verdict.
pub fn uses_gated_syntax(source: &str) -> bool {
    const STABLE_ABIS: [&str; 11] = [
        "Rust", "C", "system", "cdecl", "stdcall", "fastcall", "thiscall", "win64", "sysv64",
        "aapcs", "efiapi",
    ];
    let tokens: Vec<&str> = Tokens::new(source).collect();
    let at = |t: &str| t.as_ptr() as usize - source.as_ptr() as usize;
    let ellipsis = |i: usize| {
        tokens
            .get(i..i + 3)
            .is_some_and(|w| w.iter().all(|t| *t == ".") && at(w[2]) == at(w[0]) + 2)
    };
    tokens.iter().enumerate().any(|(i, t)| match *t {
        "extern" => tokens.get(i + 1).is_some_and(|abi| {
            abi.strip_prefix('"')
                .and_then(|a| a.strip_suffix('"'))
                .is_some_and(|a| !STABLE_ABIS.contains(&a.trim_end_matches("-unwind")))
        }),
        "fn" => {
            let Some(open) = (i..tokens.len())
                .take_while(|&j| tokens[j] != "{")
                .find(|&j| tokens[j] == "(")
            else {
                return false;
            };
            let close = group_end(&tokens, open);
            (open..close).any(ellipsis)
                && tokens[close..]
                    .iter()
                    .find(|t| matches!(**t, "{" | ";"))
                    .is_some_and(|t| *t == "{")
        }
        _ => false,
    })
}

/// Whether a program starts threads (whose output may come in another
/// order, or with other values, on another run, even when runs agreed).
pub fn starts_threads(source: &str) -> bool {
    [
        "thread::spawn",
        "thread::scope",
        "thread::Builder",
        "spawn_scoped",
    ]
    .iter()
    .any(|w| source.contains(w))
}

/// How long a program's code says it sleeps, in milliseconds, read from
/// its `Duration::from_secs(N)` and `from_millis(N)` with literal `N`
/// (summed), each times the counts of the `for` loops over a literal
/// range around it (`for i in 1..11`: ten times); a loop over anything
/// else counts once. A guess, to start the longest programs first: code
/// that names its durations otherwise reads as shorter than it is.
pub fn sleep_millis(source: &str) -> u64 {
    let tokens: Vec<&str> = Tokens::with_integers(source).collect();
    let int = |t: &str| t.replace('_', "").parse::<u64>().ok();
    // The factor of each open brace, and the one the next brace opens
    // with (set by a `for` header).
    let mut open: Vec<u64> = Vec::new();
    let mut next: Option<u64> = None;
    let mut total = 0u64;
    let mut i = 0;
    while i < tokens.len() {
        match tokens[i] {
            "for" => {
                // `for PAT in A..B {` or `A..=B`: B - A (+ 1) times.
                let header: Vec<&str> = tokens[i..]
                    .iter()
                    .take_while(|t| **t != "{")
                    .copied()
                    .collect();
                let range =
                    header
                        .iter()
                        .position(|t| *t == "in")
                        .and_then(|at| match &header[at + 1..] {
                            [a, ".", ".", b] => Some(int(b)?.saturating_sub(int(a)?)),
                            [a, ".", ".", "=", b] => Some(int(b)?.saturating_sub(int(a)?) + 1),
                            _ => None,
                        });
                next = Some(range.unwrap_or(1).max(1));
            }
            "{" => open.push(next.take().unwrap_or(1)),
            "}" => {
                open.pop();
            }
            unit @ ("from_secs" | "from_millis") => {
                if let (Some("("), Some(n), Some(")")) = (
                    tokens.get(i + 1).copied(),
                    tokens.get(i + 2).and_then(|t| int(t)),
                    tokens.get(i + 3).copied(),
                ) {
                    let ms = if unit == "from_secs" {
                        n.saturating_mul(1000)
                    } else {
                        n
                    };
                    let times = open.iter().fold(1u64, |a, f| a.saturating_mul(*f));
                    total = total.saturating_add(ms.saturating_mul(times));
                }
            }
            _ => {}
        }
        i += 1;
    }
    total
}

/// Where a quiz's proof template takes its option: each `{}` that is
/// not an empty block (outside strings and comments, which the lexer
/// skips, so `println!("{}")` keeps its `{}`). A `{}` is a block, and
/// stays, after `)`, `]`, `}`, `>` (but `->`, where a type follows) or a word
/// that is not one a type or an expression follows (`as`, `dyn`, `for`,
/// `impl`, `in`, `mut`, `return`, `let`, `ref`, `const`, `static`,
/// `where`, `type`): `fn f() {}`, `impl X for Y {}`, `loop {}`, `=> {}`.
pub fn template_slots(source: &str) -> Vec<std::ops::Range<usize>> {
    const BEFORE_A_SLOT: [&str; 13] = [
        "as", "dyn", "for", "impl", "in", "mut", "return", "let", "ref", "const", "static",
        "where", "type",
    ];
    let base = source.as_ptr() as usize;
    let tokens: Vec<(usize, &str)> = Tokens::new(source)
        .map(|t| (t.as_ptr() as usize - base, t))
        .collect();
    let mut out = Vec::new();
    for (i, &(at, t)) in tokens.iter().enumerate() {
        if t != "{" || tokens.get(i + 1) != Some(&(at + 1, "}")) {
            continue;
        }
        let prev = i.checked_sub(1).and_then(|j| tokens.get(j));
        let block = match prev {
            None => false,
            Some(&(_, ")" | "]" | "}")) => true,
            Some(&(p, ">")) => !matches!(
                i.checked_sub(2).and_then(|j| tokens.get(j)),
                Some(&(q, "-")) if q + 1 == p
            ),
            Some(&(_, w)) if is_ident(w) => !BEFORE_A_SLOT.contains(&w),
            Some(_) => false,
        };
        if !block {
            out.push(at..at + 2);
        }
    }
    out
}

/// The index after the bracket group opening at `tokens[open]`.
pub(crate) fn group_end(tokens: &[&str], open: usize) -> usize {
    let mut depth = 0usize;
    for (i, t) in tokens.iter().enumerate().skip(open) {
        match *t {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
    }
    tokens.len()
}

pub(crate) fn is_ident(t: &str) -> bool {
    t.chars()
        .next()
        .is_some_and(|c| c == '_' || c.is_alphabetic())
}

/// Rust source as tokens, by rustc's own lexer (`rustc_lexer`): comments
/// and whitespace left out, as are character, byte and number literals
/// (nothing here looks inside them); a string literal (raw or not, any
/// prefix) whole; a lifetime as its name (`'a` is `a`); punctuation one
/// character at a time; every token a slice of the source.
pub(crate) struct Tokens<'a> {
    text: &'a str,
    at: usize,
    tokens: Box<dyn Iterator<Item = ra_ap_rustc_lexer::Token> + 'a>,
    /// Whether integer literals are kept ([`Tokens::with_integers`]).
    integers: bool,
}

impl<'a> Tokens<'a> {
    pub(crate) fn new(text: &'a str) -> Tokens<'a> {
        let tokens = ra_ap_rustc_lexer::tokenize(text, ra_ap_rustc_lexer::FrontmatterAllowed::No);
        Tokens {
            text,
            at: 0,
            tokens: Box::new(tokens),
            integers: false,
        }
    }

    /// The same tokens, integer literals among them.
    pub(crate) fn with_integers(text: &'a str) -> Tokens<'a> {
        Tokens {
            integers: true,
            ..Tokens::new(text)
        }
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        use ra_ap_rustc_lexer::{LiteralKind as L, TokenKind as K};
        loop {
            let token = self.tokens.next()?;
            let start = self.at;
            self.at += token.len as usize;
            let text = self.text.get(start..self.at)?;
            match token.kind {
                K::Eof => return None,
                K::Whitespace | K::LineComment { .. } | K::BlockComment { .. } => {}
                K::Literal {
                    kind: L::Int { .. },
                    ..
                } if self.integers => return Some(text),
                K::Literal {
                    kind: L::Char { .. } | L::Byte { .. } | L::Int { .. } | L::Float { .. },
                    ..
                } => {}
                K::Lifetime { .. } | K::RawLifetime => {
                    return Some(text.trim_start_matches('\'').trim_start_matches("r#"));
                }
                _ => return Some(text),
            }
        }
    }
}

/// The length of the block comment `text` starts with (nested comments
/// inside it), or of `text` when it does not end.
pub(crate) fn block_comment_len(text: &str) -> usize {
    ra_ap_rustc_lexer::tokenize(text, ra_ap_rustc_lexer::FrontmatterAllowed::No)
        .next()
        .filter(|t| matches!(t.kind, ra_ap_rustc_lexer::TokenKind::BlockComment { .. }))
        .map_or(text.len(), |t| t.len as usize)
}

pub mod inert;
pub mod root;

#[cfg(test)]
mod tests;
