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
mod items;
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
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn rust_blocks_as_rustdoc_tells_them() {
        for (info, rust) in [
            ("", true),
            ("rust", true),
            ("ignore", true),
            ("should_panic", true),
            ("compile_fail,E0382", true),
            ("rust,compile_fail,", true),
            ("rust ignore", true),
            ("rust, ignore", true),
            ("rust,edition2024,compile_fail", true),
            ("edition2021", true),
            ("text", false),
            ("grammar,expressions", false),
            ("rust example", true),
            ("sh", false),
            ("console,ignore", false),
            ("ignore,console", true),
            ("rust,custom", false),
            ("rust,ignore (not a test)", true),
            ("rust,ignore(unclosed", false),
            ("rust {.class}", true),
            ("E12", false),
            // rustdoc's tokenizer: an error makes the block not Rust.
            ("rust,ignore=foo", false),
            ("rust a=b", false),
            ("rust,=", false),
            ("rust,@", false),
            ("rust,{x}", false),
            ("rust,{a=b", false),
            ("rust,{.x", false),
            ("rust,\"x", false),
            ("rust,x\"y\"", false),
            ("rust,x{y}", false),
            ("rust,{a=b}", true),
            ("rust,{ .x }", true),
            ("rust,{.x}y", true),
            ("rust,\"x\"", true),
            ("rust,x(y)z", true),
            ("rust,foo:bar", true),
            ("rust,a.b!", true),
            ("rust,{\"k\"=\"v\"}", true),
            ("rust,{\"\"=v}", false),
            ("rust,{a=\"\"}", false),
            ("rust,{a=}", false),
            ("{", false),
            ("\"", false),
            ("(", false),
            ("rust,ñ", false),
            ("rust,{.é}", false),
        ] {
            assert_eq!(LangString::parse(info).rust, rust, "{info:?}");
        }
    }

    #[test]
    fn flags_and_outcomes() {
        let l = LangString::parse("rust,compile_fail,E0382,E0499,edition2018");
        assert_eq!(
            (l.compile_fail, l.no_run, l.error_codes.clone(), l.edition),
            (
                true,
                true,
                vec!["E0382".to_owned(), "E0499".to_owned()],
                Some(2018)
            )
        );
        assert_eq!(l.expect(), Expect::CompileFail);
        assert_eq!(l.flags(), "compile_fail,E0382,E0499,edition2018");
        assert_eq!(LangString::parse("should_panic").expect(), Expect::Panic);
        assert_eq!(
            LangString::parse("should_panic,no_run").expect(),
            Expect::NoRun
        );
        assert_eq!(LangString::parse("rust").expect(), Expect::Run);
        assert!(LangString::parse("test_harness").test_harness);
        assert_eq!(LangString::parse("edition2019").edition, None);
    }

    #[test]
    fn ignore_targets_override_ignore() {
        let linux = "x86_64-unknown-linux-gnu";
        assert!(LangString::parse("ignore").ignored_on(linux));
        assert!(LangString::parse("ignore-x86_64").ignored_on(linux));
        assert!(!LangString::parse("ignore-windows").ignored_on(linux));
        assert!(!LangString::parse("ignore,ignore-windows").ignored_on(linux));
        assert!(!LangString::parse("rust").ignored_on(linux));
    }

    #[test]
    fn hidden_lines_as_rustdoc_hides_them() {
        assert_eq!(
            unhidden(
                "# fn main() {\n    # let x = 1;\nlet y = 2;\n## not hidden\n#\n#[derive(Debug)]\n#\tz\n# }\n"
            ),
            "fn main() {\nlet x = 1;\nlet y = 2;\n# not hidden\n\n#[derive(Debug)]\n#\tz\n}"
        );
    }

    #[test]
    fn loose_code_is_wrapped_in_main() {
        let p = program("let x = 1;\nassert_eq!(x, 1);", false);
        assert!(p.wrapped);
        assert_eq!(
            p.source,
            "fn main() { #[allow(non_snake_case)] fn _doctest_main() {\nlet x = 1;\nassert_eq!(x, 1);\n} _doctest_main() }\n"
        );
    }

    #[test]
    fn crate_attributes_and_extern_crates_stay_on_top() {
        let code = "// a comment\n#![crate_name = \"foo\"]\n#![feature(\n    never_type,\n)]\n\nextern crate core;\nlet x = 1;";
        let p = program(code, false);
        assert_eq!(
            p.source,
            "// a comment\n#![crate_name = \"foo\"]\n#![feature(\n    never_type,\n)]\n\nextern crate core;\nfn main() { #[allow(non_snake_case)] fn _doctest_main() {\nlet x = 1;\n} _doctest_main() }\n"
        );
    }

    #[test]
    fn extern_crates_anywhere_go_to_the_root() {
        let wrap = |items: &str, body: &str| {
            format!(
                "{items}fn main() {{ #[allow(non_snake_case)] fn _doctest_main() {{\n{body}\n}} _doctest_main() }}\n"
            )
        };
        for (code, items, body) in [
            (
                "let x = 1;\nextern crate core;\nuse core::mem;",
                "extern crate core ; ",
                "let x = 1;\n                  \nuse core::mem;",
            ),
            (
                "#[macro_use]\nextern crate std as s;\nlet v = vec![1];",
                "# [ macro_use ] extern crate std as s ; ",
                "            \n                      \nlet v = vec![1];",
            ),
            (
                "let v = S { a: 1 };\n#[allow(unused)] extern crate core;",
                "# [ allow ( unused ) ] extern crate core ; ",
                "let v = S { a: 1 };\n                                   ",
            ),
            // Doc comments above go with it, a comment inside does not
            // hide the wrapper.
            (
                "let x = 1;\n/// doc\n#[macro_use] // c\nextern crate std as s;",
                "# [ macro_use ] extern crate std as s ; ",
                "let x = 1;\n       \n                 \n                      ",
            ),
            // Not a statement of the code's own: left where it is.
            (
                "fn f() {\n    extern crate core;\n}\nf();",
                "",
                "fn f() {\n    extern crate core;\n}\nf();",
            ),
            ("#[cfg(unix)]\nlet x = 1;", "", "#[cfg(unix)]\nlet x = 1;"),
        ] {
            assert_eq!(program(code, false).source, wrap(items, body), "{code:?}");
        }
    }

    #[test]
    fn a_main_of_another_abi_is_told() {
        for (code, foreign) in [
            ("extern \"C\" fn main() {}", true),
            ("pub extern fn main() {}", true),
            ("extern \"Rust\" fn main() {}", false),
            ("fn main() {}", false),
            ("mod m { extern \"C\" fn main() {} }\nfn main() {}", false),
            ("extern \"C\" fn f() {}\nfn main() {}", false),
        ] {
            assert_eq!(foreign_main(code), foreign, "{code:?}");
        }
    }

    #[test]
    fn code_ending_in_ok_returns_a_result() {
        let p = program(
            "let n: i32 = \"1\".parse()?;\nOk::<(), std::num::ParseIntError>(())",
            false,
        );
        assert!(
            p.source
                .contains("-> core::result::Result<(), impl core::fmt::Debug>")
        );
        assert!(p.source.ends_with("} _doctest_main().unwrap() }\n"));
        // Plain comments after `(())` do not count, a doc comment or an
        // attribute (even one dropped as dangling) does; `(())` in a
        // comment is no code.
        for (code, result) in [
            ("Ok::<(), E>(()) // done", true),
            ("Ok::<(), E>(())\n/* c */", true),
            ("Ok::<(), E>(())\n/// doc", false),
            ("Ok::<(), E>(())\n// c\n#[allow(unused)]", false),
            ("Ok::<(), E>(())\n#![allow(unused)]", false),
            ("let s = 1; // (())", false),
            ("", false),
        ] {
            assert_eq!(returns_result(code), result, "{code:?}");
        }
    }

    #[test]
    fn dangling_attributes_and_doc_comments_become_blanks() {
        for (code, want) in [
            ("#[cfg(unix)]", "            "),
            ("/// Panics\n/// if", "          \n      "),
            (
                "let x = 1;\n#[allow(unused)]\n// end",
                "let x = 1;\n                \n      ",
            ),
            ("let x = 1; /// doc", "let x = 1;        "),
            (
                "fn f() {}\n#[doc = \"a ] b\"]",
                "fn f() {}\n                ",
            ),
            ("let x = 1;\n/** block */", "let x = 1;\n            "),
            // Attributes that attach to something stay.
            ("#[cfg(unix)]\nfn f() {}", "#[cfg(unix)]\nfn f() {}"),
            (
                "let x = 1;\n#[cfg(unix)]\n{ 2; }",
                "let x = 1;\n#[cfg(unix)]\n{ 2; }",
            ),
            // Inner attributes and inner doc comments after the last
            // statement too (rustdoc passes `let x = 1;\n#![no_std]`).
            (
                "let x = 1;\n#![allow(unused)]",
                "let x = 1;\n                 ",
            ),
            (
                "fn f() {}\n//! doc\n/*! d */",
                "fn f() {}\n       \n        ",
            ),
            // Plain comments alone, something the tokens skip (a
            // number): left as they are.
            ("let x = 1; // c", "let x = 1; // c"),
            ("x + 1 #[a]", "x + 1 #[a]"),
            ("impl S {\n    #[inline]\n}", "impl S {\n    #[inline]\n}"),
            ("let x = 1;\n#[cfg(unix", "let x = 1;\n#[cfg(unix"),
        ] {
            assert_eq!(without_dangling(code), want, "{code:?}");
        }
        let p = program("fn main() {}\n#[cfg(unix)]", false);
        assert_eq!(p.source, "fn main() {}\n");
        assert!(!p.wrapped);
    }

    #[test]
    fn a_shebang_goes_to_rustc_as_it_is() {
        let code = "#!/usr/bin/env cargo\nlet x = 1;";
        assert_eq!(
            program(code, false),
            Program {
                source: format!("{code}\n"),
                wrapped: false
            }
        );
        for (code, want) in [
            ("#!/usr/bin/env cargo\nfn main() {}", true),
            ("#! /bin/sh", true),
            ("#![allow(unused)]", false),
            ("#! [allow(unused)]", false),
            ("#!/*c*/[allow(unused)]", false),
            ("fn main() {}\n#!/x", false),
        ] {
            assert_eq!(shebang(code), want, "{code:?}");
        }
    }

    #[test]
    fn main_is_found_as_rustdoc_finds_it() {
        for (code, has) in [
            ("fn main() {}", true),
            (
                "use std::fmt;\n#[derive(Debug)]\nstruct S;\nfn main() {}",
                true,
            ),
            ("pub(crate) async fn main() {}", true),
            ("fn helper() { fn main() {} }", false),
            ("let x = 1; fn main() {}", false),
            ("// fn main\nlet x = 1;", false),
            ("const S: &str = \"fn main() {}\";", false),
            ("impl S { fn main() {} }", false),
            // A macro's own tokens `fn main (` count, not its expansion
            // nor a string (rustdoc 1.95).
            ("macro_rules! m { () => { fn main() {} } }\nm!();", false),
            ("println!(\"fn main\");", false),
            ("m! { fn main() {} }", true),
            // A macro called by its path is an item too (the Reference's
            // `core::arch::global_asm!` next to `fn main`).
            (
                "fn main() {}\n#[cfg(target_arch = \"x86_64\")]\ncore::arch::global_asm!(\"/* {} */\", const 0);",
                true,
            ),
            ("fn main() {}\n::m!();", true),
            ("fn main() {}\na::b::c;", false),
            ("fn main() {}\nprintln!(\"x\");", true),
            // A statement that is not an item wraps the whole code, even
            // after `fn main` or as a stray `;` after an item.
            ("struct S { a: i32 };\npub fn main() {}", false),
            ("fn main() {}\nlet x = 1;", false),
            ("fn main() {};", false),
            ("unsafe { f() }\nfn main() {}", false),
            ("crate::f();\nfn main() {}", false),
            ("extern crate core;\nfn main() {}", true),
            ("extern \"C\" { fn f(); }\nfn main() {}", true),
            (
                "struct T(u8);\nconst X: [u8; 2] = [1, 2];\n#[derive(Debug)]\nenum E { A }\nfn main() {}",
                true,
            ),
            (
                "struct S { a: u8 }\nstatic X: S = S { a: 1 };\nfn main() {}",
                true,
            ),
            ("/* fn main() {} */ let x = 1;", false),
            ("let c = '{'; fn main() {}", false),
            ("fn f<'a>(x: &'a str) {}\nfn main() {}", true),
            ("extern \"C\" fn main() {}", true),
        ] {
            assert_eq!(program(code, false).wrapped, !has, "{code}");
        }
        assert!(!program("#[test]\nfn t() {}", true).wrapped);
        assert!(!program("#![no_std]\nlet x = 1;", false).wrapped);
    }
}
