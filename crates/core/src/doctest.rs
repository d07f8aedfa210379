//! rustdoc's meaning of a code block, for books that never heard of us.
//!
//! `mdbook test` hands each chapter to `rustdoc --test`, which decides
//! from a block's info string whether it is Rust and what it claims
//! ([`LangString`]: `ignore`, `should_panic`, `no_run`, `compile_fail`
//! with error codes, `edition20xx`, `test_harness`), un-hides `# ` lines,
//! and turns the code into a program ([`program`]): crate attributes and
//! `extern crate` lines stay at the crate root, the rest goes inside `fn
//! main` unless the code has one. This module follows rustdoc 1.95
//! (`src/librustdoc/html/markdown.rs`, `LangString::parse`, and
//! `src/librustdoc/doctest/make.rs`), without rustc's parser: the code is
//! read as rustdoc reads it, as the statements of a function, by a scan of
//! its tokens ([`program`] says when the code keeps its own `main`).
//! Attributes and doc comments (outer or inner) that attach to nothing at
//! the end of a block are dropped as rustdoc drops them, `extern crate`
//! items go to the crate's root wherever they are written, and a block
//! that starts with a shebang is handed to rustc as it is ([`shebang`]).
//!
//! Differences from rustdoc, kept on purpose (the guide lists them too):
//!
//! - The `#![allow(unused)]` rustdoc puts on top of every program is a
//!   command-line `-A unused` here ([`ALLOW`]), so that a block without
//!   crate attributes of its own can share a merged build with others.
//!   The two mean the same: a crate attribute of the block still overrides
//!   either.
//! - Code rustc cannot parse at all is wrapped like any other here;
//!   rustdoc passes it through unchanged. Either way it does not compile,
//!   so the verdict is the same; only the error's wording may differ.

use crate::expect::Expect;
use crate::tokens::{Tokens, group_end};

mod info;
pub(crate) mod items;
mod root;

/// The lint flag that stands for rustdoc's `#![allow(unused)]`.
pub const ALLOW: [&str; 2] = ["-A", "unused"];

/// What a plain block's claim carries beyond a directive's: what
/// rustdoc's meaning needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Doctest {
    /// `test_harness`: compiled with `--test`.
    pub test_harness: bool,
    /// The error codes of `compile_fail,E0382` (checked on stable too).
    pub error_codes: Vec<String>,
    /// The line `mdbook test` names the block by: its fence's line in the
    /// chapter after `{{#include}}` expansion.
    pub test_line: usize,
}

/// What rustdoc reads from an info string.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LangString {
    /// The block is Rust (tested at all).
    pub rust: bool,
    /// `should_panic`: the program must exit with a failure.
    pub should_panic: bool,
    /// `no_run` (also implied by `compile_fail`): compiled, not run.
    pub no_run: bool,
    /// `ignore`: never compiled.
    pub ignore: bool,
    /// `ignore-TARGET`: ignored on targets whose triple contains one.
    pub ignore_on: Vec<String>,
    /// `test_harness`: compiled with `--test`, its tests run.
    pub test_harness: bool,
    /// `compile_fail`: must not compile.
    pub compile_fail: bool,
    /// `E0382`-style codes the compile failure must carry.
    pub error_codes: Vec<String>,
    /// `edition2021` and friends.
    pub edition: Option<u16>,
}

impl LangString {
    /// Parses an info string as rustdoc does: words separated by spaces,
    /// commas or tabs; `(comments)` and `{attribute blocks}` skipped; a
    /// malformed string makes the block not Rust.
    pub fn parse(info: &str) -> LangString {
        let mut data = LangString {
            rust: true,
            ..LangString::default()
        };
        let mut seen_rust = false;
        let mut seen_other = false;
        let mut seen_custom = false;
        let Some(tokens) = info::words(info) else {
            data.rust = false;
            return data;
        };
        for token in tokens {
            match token {
                "should_panic" => {
                    data.should_panic = true;
                    seen_rust = !seen_other;
                }
                "no_run" => {
                    data.no_run = true;
                    seen_rust = !seen_other;
                }
                "ignore" => {
                    data.ignore = true;
                    seen_rust = !seen_other;
                }
                t if t.starts_with("ignore-") => {
                    data.ignore_on.push(t["ignore-".len()..].to_owned());
                    seen_rust = !seen_other;
                }
                "rust" => seen_rust = true,
                "custom" => seen_custom = true,
                "test_harness" => {
                    data.test_harness = true;
                    seen_rust = !seen_other || seen_rust;
                }
                "compile_fail" => {
                    data.compile_fail = true;
                    data.no_run = true;
                    seen_rust = !seen_other || seen_rust;
                }
                "standalone_crate" => seen_rust = !seen_other || seen_rust,
                t if t.starts_with("edition") => {
                    data.edition = t["edition".len()..]
                        .parse()
                        .ok()
                        .filter(|e| [2015, 2018, 2021, 2024].contains(e));
                }
                t if t.starts_with('E') && t.len() == 5 => {
                    if t[1..].bytes().all(|b| b.is_ascii_digit()) {
                        data.error_codes.push(t.to_owned());
                        seen_rust = !seen_other || seen_rust;
                    } else {
                        seen_other = true;
                    }
                }
                _ => seen_other = true,
            }
        }
        data.rust &= !seen_custom && (!seen_other || seen_rust);
        data
    }

    /// Whether the block is ignored on the target `triple` (`ignore`, or
    /// an `ignore-TARGET` the triple contains; the latter overrides the
    /// former, as in rustdoc).
    pub fn ignored_on(&self, triple: &str) -> bool {
        if self.ignore_on.is_empty() {
            self.ignore
        } else {
            self.ignore_on.iter().any(|t| triple.contains(t.as_str()))
        }
    }

    /// The outcome the block claims.
    pub fn expect(&self) -> Expect {
        if self.compile_fail {
            Expect::CompileFail
        } else if self.no_run {
            Expect::NoRun
        } else if self.should_panic {
            Expect::Panic
        } else {
            Expect::Run
        }
    }

    /// The flags as `mdbook test` would name them, for messages:
    /// `should_panic`, `compile_fail,E0382`.
    pub fn flags(&self) -> String {
        let mut words: Vec<String> = Vec::new();
        let mut add = |on: bool, w: &str| {
            if on {
                words.push(w.to_owned());
            }
        };
        add(self.ignore, "ignore");
        add(self.compile_fail, "compile_fail");
        add(self.no_run && !self.compile_fail, "no_run");
        add(self.should_panic, "should_panic");
        add(self.test_harness, "test_harness");
        words.extend(self.error_codes.iter().cloned());
        if let Some(e) = self.edition {
            words.push(format!("edition{e}"));
        }
        words.join(",")
    }
}

/// The code rustdoc compiles from a block's text: `# ` lines un-hidden
/// (their indentation dropped, as rustdoc does), `##` turned into `#`,
/// lines joined with `\n` and no newline at the end.
pub fn unhidden(code: &str) -> String {
    let lines: Vec<&str> = code
        .lines()
        .map(|line| {
            let trimmed = line.trim();
            if trimmed.starts_with("##") {
                // Written back below.
                line
            } else if let Some(rest) = trimmed.strip_prefix("# ") {
                // Only `# `: rustdoc shows `#\tcode` (a tab after `#`) as
                // it is, and compiles it so.
                rest
            } else if trimmed == "#" {
                ""
            } else {
                line
            }
        })
        .collect();
    let mut out = String::with_capacity(code.len());
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if line.trim_start().starts_with("##") {
            out.push_str(&line.replacen("##", "#", 1));
        } else {
            out.push_str(line);
        }
    }
    out
}

/// A block's program as rustdoc builds it (without its
/// `#![allow(unused)]`, see [`ALLOW`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    /// The source to compile.
    pub source: String,
    /// Whether `fn main` was added around the code.
    pub wrapped: bool,
}

/// The program rustdoc makes of `code` (already [`unhidden`]).
pub fn program(code: &str, test_harness: bool) -> Program {
    if shebang(code) {
        // rustdoc cannot read a shebang as Rust, so it hands the code to
        // rustc as it is, and rustc accepts a shebang on a file's first
        // line: a block with its own `fn main` runs, loose code does not
        // compile.
        return Program {
            source: format!("{code}\n"),
            wrapped: false,
        };
    }
    let parts = partition(code);
    let mut source = String::with_capacity(code.len() + 120);
    source.push_str(&parts.head);
    source.push_str(&parts.crates);
    let rest = without_dangling(&parts.rest);
    let body = rest.trim();
    let main = items::has_main(&format!("{}{body}", parts.crates));
    let wrapped = !(test_harness || main || source.contains("![no_std]"));
    if wrapped {
        let (pre, post) = if returns_result(&parts.rest) {
            (
                "fn main() { #[allow(non_snake_case)] fn _doctest_main() -> core::result::Result<(), impl core::fmt::Debug> {\n",
                "\n} _doctest_main().unwrap() }",
            )
        } else {
            (
                "fn main() { #[allow(non_snake_case)] fn _doctest_main() {\n",
                "\n} _doctest_main() }",
            )
        };
        // rustdoc keeps `extern crate` items at the crate's root wherever
        // the code has them: on the wrapper's line, so that every line of
        // the code stays where it was.
        let (items, body) = root::extern_crates(body);
        source.push_str(&items);
        source.push_str(pre);
        source.push_str(&body);
        source.push_str(post);
    } else {
        source.push_str(body);
    }
    source.push('\n');
    Program { source, wrapped }
}

/// Whether rustdoc wraps `code` in a function returning a `Result`: its
/// last token ends it in `(())`, whatever plain comments follow (`Ok(())
/// // done`). A doc comment or an attribute after it, even one rustdoc
/// then drops as dangling, ends the code otherwise.
fn returns_result(code: &str) -> bool {
    let Some(last) = Tokens::new(code).last() else {
        return false;
    };
    let end = last.as_ptr() as usize - code.as_ptr() as usize + last.len();
    code[..end].ends_with("(())") && !comments_hold_docs(&code[end..])
}

/// Whether `tail`, blanks and comments only, holds a doc comment (`///`,
/// `//!`, `/** */`, `/*! */`): rustc reads those as attributes.
fn comments_hold_docs(tail: &str) -> bool {
    root::first_doc_comment(tail).is_some()
}

/// Whether `source`'s own `fn main` (outside any braces) has an ABI other
/// than Rust's (`extern "C" fn main`): a module takes it as any function,
/// the crate's root refuses it as `main` (E0580), so a program with one
/// must be compiled alone to be judged as rustdoc judges it.
pub fn foreign_main(source: &str) -> bool {
    let tokens: Vec<&str> = Tokens::new(source).collect();
    let mut depth = 0usize;
    for (i, t) in tokens.iter().enumerate() {
        match *t {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth = depth.saturating_sub(1),
            "fn" if depth == 0 && tokens.get(i + 1) == Some(&"main") && i >= 1 => {
                let abi = tokens[i - 1];
                if abi == "extern" || (i >= 2 && tokens[i - 2] == "extern" && abi != "\"Rust\"") {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// Whether `code` starts with a shebang as rustc reads one: `#!` on the
/// first line, not followed by `[` (after blanks and comments), which
/// would make it an inner attribute.
pub fn shebang(code: &str) -> bool {
    code.strip_prefix("#!")
        .is_some_and(|rest| Tokens::new(rest).next() != Some("["))
}

/// `code` with its shebang line ([`shebang`]) blanked, each of its
/// characters a space, so that every line and column stays where the
/// author wrote it: what rustc reads of a file that starts with one,
/// wherever the file is (a merged crate's module). `None` when `code`
/// has no shebang, or has a line starting `---` (frontmatter, which
/// rustc reads only at the start of a crate's root).
pub fn shebang_blanked(code: &str) -> Option<String> {
    if !shebang(code) || code.lines().any(|l| l.trim_start().starts_with("---")) {
        return None;
    }
    let end = code.find('\n').unwrap_or(code.len());
    let blank: String = code[..end]
        .chars()
        .map(|c| if c == '\r' { c } else { ' ' })
        .collect();
    Some(format!("{blank}{}", &code[end..]))
}

/// `code` without the attributes and doc comments at its end that
/// attach to nothing (a block that is only `#[cfg(unix)]` or `/// Panics
/// if …` lines, a stray attribute after the last statement, an inner
/// `#![…]` or `//!` after it): rustdoc drops them, where rustc would refuse them ("expected statement after
/// outer attribute", E0585). They become blanks, so that every other line
/// and column stays where the author wrote it. Code whose end holds
/// anything else is returned as it is.
fn without_dangling(code: &str) -> std::borrow::Cow<'_, str> {
    let tokens: Vec<&str> = Tokens::new(code).collect();
    let end_of = |t: &str| t.as_ptr() as usize - code.as_ptr() as usize + t.len();
    // Where the code's last token outside an outer attribute ends.
    let mut start = 0;
    let mut at = 0;
    while at < tokens.len() {
        // Outer or inner: `#[…]`, `#![…]`.
        let bang = usize::from(tokens.get(at + 1) == Some(&"!"));
        let attribute = tokens[at] == "#" && tokens.get(at + 1 + bang) == Some(&"[");
        let end = match tokens[at] {
            "#" if attribute => group_end(&tokens, at + 1 + bang),
            "(" | "[" | "{" => group_end(&tokens, at),
            _ => at + 1,
        };
        if !attribute {
            start = end_of(tokens[end - 1]);
        }
        at = end;
    }
    let tail = &code[start..];
    if !dangling(tail) {
        return code.into();
    }
    let mut out = String::with_capacity(code.len());
    out.push_str(&code[..start]);
    out.extend(tail.chars().map(|c| if c == '\n' { c } else { ' ' }));
    out.into()
}

/// Whether `tail` is only blanks, comments and attributes (outer or
/// inner), with at least one attribute or doc comment among them.
fn dangling(tail: &str) -> bool {
    let mut rest = tail;
    let mut found = false;
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return found;
        }
        if rest.starts_with("//") {
            found |= root::doc_comment(rest);
            rest = &rest[rest.find('\n').unwrap_or(rest.len())..];
        } else if rest.starts_with("/*") {
            found |= root::doc_comment(rest);
            rest = &rest[crate::tokens::block_comment_len(rest)..];
        } else if let Some(after) = rest.strip_prefix('#') {
            let mut tokens = Tokens::new(after).peekable();
            tokens.next_if_eq(&"!");
            if tokens.next() != Some("[") {
                return false;
            }
            let mut depth = 1usize;
            let close = tokens.find(|t| {
                match *t {
                    "(" | "[" | "{" => depth += 1,
                    ")" | "]" | "}" => depth -= 1,
                    _ => {}
                }
                depth == 0
            });
            let Some(close) = close else {
                return false;
            };
            rest = &after[close.as_ptr() as usize - after.as_ptr() as usize + close.len()..];
            found = true;
        } else {
            return false;
        }
    }
}

/// A block's lines as rustdoc sorts them: crate attributes (with the
/// blank and comment lines among them), `extern crate` lines, the rest.
#[derive(Debug, Default)]
struct Parts {
    head: String,
    crates: String,
    rest: String,
}

fn partition(code: &str) -> Parts {
    #[derive(PartialEq)]
    enum State {
        Attrs,
        Crates,
        Other,
    }
    let mut parts = Parts::default();
    let mut state = State::Attrs;
    let mut pending = String::new();
    let is_crate =
        |t: &str| t.starts_with("extern crate") || t.starts_with("#[macro_use] extern crate");
    let is_filler = |t: &str| t.is_empty() || (t.starts_with("//") && !t.starts_with("///"));
    for line in code.lines() {
        let t = line.trim();
        if state == State::Attrs {
            if !pending.is_empty() {
                pending.push('\n');
                pending.push_str(line);
                if complete(&pending) {
                    parts.head.push_str(&pending);
                    parts.head.push('\n');
                    pending.clear();
                }
                continue;
            }
            if t.starts_with("#![") {
                if complete(line) {
                    parts.head.push_str(line);
                    parts.head.push('\n');
                } else {
                    pending.push_str(line);
                }
                continue;
            }
            state = if is_filler(t) {
                State::Attrs
            } else if is_crate(t) {
                State::Crates
            } else {
                State::Other
            };
        } else if state == State::Crates && !(is_crate(t) || is_filler(t)) {
            state = State::Other;
        }
        let to = match state {
            State::Attrs => &mut parts.head,
            State::Crates => &mut parts.crates,
            State::Other => &mut parts.rest,
        };
        to.push_str(line);
        to.push('\n');
    }
    if !pending.is_empty() {
        // rustdoc passes code with an unfinished attribute through as it
        // is; the compiler reports it.
        parts.rest = code.to_owned();
        parts.head.clear();
        parts.crates.clear();
    }
    parts
}

/// Whether an inner attribute's text has its brackets closed.
fn complete(attr: &str) -> bool {
    let mut depth = 0i32;
    for t in Tokens::new(attr) {
        match t {
            "[" | "(" | "{" => depth += 1,
            "]" | ")" | "}" => {
                depth -= 1;
                if depth == 0 {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// The target triple the checked programs run on, as `ignore-TARGET`
/// matches it (`x86_64-unknown-linux-gnu`).
pub fn host_triple() -> String {
    let os = std::env::consts::OS;
    let (vendor, env) = match os {
        "linux" => ("unknown", "-gnu"),
        "macos" => ("apple", ""),
        "windows" => ("pc", "-msvc"),
        _ => ("unknown", ""),
    };
    let os = if os == "macos" { "darwin" } else { os };
    format!("{}-{vendor}-{os}{env}", std::env::consts::ARCH)
}

#[cfg(test)]
mod tests;
