//! Hidden lines: what the reader sees versus what the compiler gets.
//!
//! Rust follows mdBook and rustdoc: a line whose first non-blank text is `#`
//! followed by a space (or nothing) is hidden, and `##` stands for a literal
//! `#`. C and C++ use a configurable prefix (default `~ `) that the
//! preprocessor strips itself, since mdBook's highlight.js does not know it.

/// The full Rust source of a block as the compiler sees it: hidden lines
/// un-hidden, `##` turned back into `#`.
pub fn rust_source(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    for line in code.split_inclusive('\n') {
        let indent = line.len() - line.trim_start().len();
        let (lead, rest) = line.split_at(indent);
        out.push_str(lead);
        if let Some(r) = rest.strip_prefix("##") {
            out.push('#');
            out.push_str(r);
        } else if let Some(r) = rest.strip_prefix("# ") {
            out.push_str(r);
        } else if rest.trim_end() == "#" {
            out.push_str(&rest[1..]);
        } else {
            out.push_str(rest);
        }
    }
    out
}

/// Whether a line of Rust code is hidden from the reader, as mdBook
/// decides it: `# ` or a lone `#` after its indent (not `##`, an escaped
/// `#`).
pub fn rust_hides(line: &str) -> bool {
    let rest = line.trim_start();
    !rest.starts_with("##") && (rest.starts_with("# ") || rest.trim_end() == "#")
}

/// The Rust code the reader sees: hidden lines dropped, `##` shown as `#`.
pub fn rust_shown(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    for line in code.split_inclusive('\n') {
        if line.trim_start().starts_with("##") {
            out.push_str(&line.replacen("##", "#", 1));
        } else if !rust_hides(line) {
            out.push_str(line);
        }
    }
    out
}

/// Rust code cut where the lines the reader sees begin and end:
/// `(above, shown, below)`, the hidden lines above the first shown line
/// and those below the last as the compiler gets them, and the code
/// between as written (a hidden line among shown ones stays hidden).
pub fn rust_hidden_ends(code: &str) -> (String, String, String) {
    let lines: Vec<&str> = code.split_inclusive('\n').collect();
    let hidden = |line: &&str| rust_hides(line);
    let first = lines.iter().position(|l| !hidden(l)).unwrap_or(lines.len());
    let last = lines
        .iter()
        .rposition(|l| !hidden(l))
        .map_or(first, |l| l + 1);
    (
        rust_source(&lines[..first].concat()),
        lines[first..last].concat(),
        rust_source(&lines[last..].concat()),
    )
}

/// True when the source defines `fn main`, as mdBook decides it.
pub fn has_main(source: &str) -> bool {
    source.contains("fn main")
}

/// The Rust program mdBook's play button would run: `source` wrapped in
/// `fn main() { ... }` when it has none, inner attributes kept on top.
pub fn rust_program(source: &str) -> String {
    if has_main(source) {
        return source.to_owned();
    }
    let mut head = String::new();
    let mut body = String::new();
    for line in source.split_inclusive('\n') {
        if body.is_empty() && line.trim_start().starts_with("#![") {
            head.push_str(line);
        } else {
            body.push_str(line);
        }
    }
    let nl = if body.ends_with('\n') || body.is_empty() {
        ""
    } else {
        "\n"
    };
    format!("{head}fn main() {{\n{body}{nl}}}\n")
}

/// An exercise's test crate: its code (the starter or the solution) with
/// its tests inside `mod tests { use super::*; … }`, as a student's
/// `src/lib.rs` holds them. The tests keep their text (a raw string in a
/// test reads as written); the module opens on a line of its own, so a
/// line of the tests is its line in the fence plus
/// [`test_crate_offset`] of the code.
pub fn test_crate(code: &str, tests: &str) -> String {
    let nl = |t: &str| {
        if t.ends_with('\n') || t.is_empty() {
            ""
        } else {
            "\n"
        }
    };
    format!("{code}{}\n{TESTS_OPEN}\n{tests}{}}}\n", nl(code), nl(tests))
}

/// [`test_crate`] as a student's `src/lib.rs` holds it: the tests
/// indented inside their module (unless a string literal of theirs spans
/// lines, which indenting would change), and a starter's unfinished code
/// (`todo!()`, arguments not yet used) free of `unused` warnings.
pub fn student_crate(code: &str, tests: &str, starter: bool) -> String {
    let allow = if starter {
        "// The starter is yours to finish: its unused names are not warned about.\n#![allow(unused)]\n\n"
    } else {
        ""
    };
    if spans_lines(tests) {
        return format!("{allow}{}", test_crate(code, tests));
    }
    let mut indented = String::with_capacity(tests.len() + tests.lines().count() * 4);
    for line in tests.lines() {
        if !line.trim().is_empty() {
            indented.push_str("    ");
            indented.push_str(line);
        }
        indented.push('\n');
    }
    format!("{allow}{}", test_crate(code, &indented))
}

/// Whether a string literal of Rust `code` spans lines (a scan of
/// strings, raw strings, character literals and comments, not a parser).
fn spans_lines(code: &str) -> bool {
    let b = code.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = code[i..].find('\n').map_or(b.len(), |n| i + n);
            }
            b'\'' => {
                // 'x', '\n', '\'' are characters; 'a without a close is a
                // lifetime.
                if b.get(i + 1) == Some(&b'\\') {
                    i = code[i + 2..].find('\'').map_or(b.len(), |n| i + 3 + n);
                } else if let Some(c) = code[i + 1..].chars().next()
                    && code[i + 1 + c.len_utf8()..].starts_with('\'')
                {
                    i += 2 + c.len_utf8();
                } else {
                    i += 1;
                }
            }
            b'r' if matches!(b.get(i + 1), Some(b'"' | b'#'))
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) =>
            {
                let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
                if b.get(i + 1 + hashes) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let close = format!("\"{}", "#".repeat(hashes));
                let start = i + 2 + hashes;
                let Some(n) = code[start..].find(&close) else {
                    return true;
                };
                if code[start..start + n].contains('\n') {
                    return true;
                }
                i = start + n + close.len();
            }
            b'"' => {
                let mut j = i + 1;
                while j < b.len() && b[j] != b'"' {
                    if b[j] == b'\n' {
                        return true;
                    }
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                i = j + 1;
            }
            _ => i += 1,
        }
    }
    false
}

/// How [`test_crate`] opens the tests' module (its `super::` is ours, not
/// the author's).
pub const TESTS_OPEN: &str = "#[cfg(test)]\nmod tests {\n    use super::*;\n";

/// The line (0-based) of [`test_crate`]'s output on which the tests' first
/// line stands.
pub fn test_crate_offset(code: &str) -> usize {
    code.lines().count() + 5
}

/// What follows an exercise's code in the program mdBook's Run button
/// (and `mdbook test`) runs: the tests in a module, their harness
/// attributes taken off, and a `fn main` that calls each in turn and
/// reports as libtest does (`test tests::name ... ok`), exiting with 101
/// when one failed. The Playground's `evaluate.json`, which mdBook's
/// button calls, builds a binary and never runs `#[test]` functions (they
/// exist only under `--test`), so the page's Run needs this stand-in;
/// `check` and the Playground link use the real harness. A test with
/// `#[should_panic]` passes when it panics (its `expected` text is not
/// compared), one with `#[ignore]` is reported ignored.
pub fn test_runner(tests: &str) -> String {
    let mut body = String::with_capacity(tests.len());
    let mut found: Vec<TestFn> = Vec::new();
    let mut pending = None;
    for line in tests.split_inclusive('\n') {
        let indent = line.len() - line.trim_start().len();
        let (rest, test) = test_line(line, &mut pending);
        found.extend(test);
        if !rest.is_empty() {
            body.push_str(&line[..indent]);
            body.push_str(rest);
        }
        if !body.ends_with('\n') && line.ends_with('\n') {
            body.push('\n');
        }
    }
    let nl = if body.ends_with('\n') || body.is_empty() {
        ""
    } else {
        "\n"
    };
    let mut list = String::new();
    for TestFn {
        name,
        should_panic,
        ignored,
    } in &found
    {
        list.push_str(&format!(
            "        (\"{name}\", {should_panic}, {ignored}, || __companion_ok({name}())),\n"
        ));
    }
    format!(
        "#[allow(unused)]\nmod tests {{\n    use super::*;\n\n{body}{nl}\n    pub fn __companion_run() {{\n        let tests: &[(&str, bool, bool, fn() -> bool)] = &[\n{list}        ];\n        println!(\"running {{}} tests\", tests.len());\n        let mut failed = 0;\n        for &(name, panics, ignored, test) in tests {{\n            if ignored {{\n                println!(\"test tests::{{name}} ... ignored\");\n                continue;\n            }}\n            let ok = match ::std::panic::catch_unwind(test) {{\n                Ok(ok) => ok && !panics,\n                Err(_) => panics,\n            }};\n            failed += usize::from(!ok);\n            println!(\"test tests::{{name}} ... {{}}\", if ok {{ \"ok\" }} else {{ \"FAILED\" }});\n        }}\n        println!(\"\\ntest result: {{}}. {{}} failed\", if failed == 0 {{ \"ok\" }} else {{ \"FAILED\" }}, failed);\n        if failed > 0 {{\n            ::std::process::exit(101);\n        }}\n    }}\n\n    pub trait __CompanionOutcome {{\n        fn ok(self) -> bool;\n    }}\n    impl __CompanionOutcome for () {{\n        fn ok(self) -> bool {{\n            true\n        }}\n    }}\n    impl<E: ::std::fmt::Debug> __CompanionOutcome for Result<(), E> {{\n        fn ok(self) -> bool {{\n            self.map_err(|e| eprintln!(\"Error: {{e:?}}\")).is_ok()\n        }}\n    }}\n    fn __companion_ok(outcome: impl __CompanionOutcome) -> bool {{\n        outcome.ok()\n    }}\n}}\n\nfn main() {{\n    tests::__companion_run();\n}}\n"
    )
}

/// A `#[test]` function of an exercise's tests, as a line scan finds it
/// (the `#[test]` attribute, then the `fn` it stands on).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestFn {
    /// The function's name.
    pub name: String,
    /// It carries `#[should_panic]`.
    pub should_panic: bool,
    /// It carries `#[ignore]`.
    pub ignored: bool,
}

/// The `#[test]` functions of an exercise's tests, in their order.
pub fn test_functions(tests: &str) -> Vec<TestFn> {
    let mut pending = None;
    tests
        .split_inclusive('\n')
        .filter_map(|line| test_line(line, &mut pending).1)
        .collect()
}

/// The tests of an exercise's test crate ([`test_crate`]): what follows
/// the opening of its tests' module. `None` for a source that is no
/// exercise's.
pub fn exercise_tests(source: &str) -> Option<&str> {
    let at = source.rfind(TESTS_OPEN)?;
    Some(&source[at + TESTS_OPEN.len()..])
}

/// One line of tests read: what is left of it once its harness
/// attributes (`#[test]`, `#[should_panic]`, `#[ignore]` after a
/// `#[test]`) are taken off, and the test whose `fn` it declares, given
/// the `(should_panic, ignore)` of a `#[test]` whose `fn` is still to come
/// (`pending`, carried from line to line).
fn test_line<'a>(line: &'a str, pending: &mut Option<(bool, bool)>) -> (&'a str, Option<TestFn>) {
    let mut rest = line.trim_start();
    loop {
        if let Some(r) = rest.strip_prefix("#[test]") {
            *pending = Some((false, false));
            rest = r.trim_start();
        } else if let (Some(p), Some(end)) = (pending.as_mut(), attribute_end(rest, "should_panic"))
        {
            p.0 = true;
            rest = rest[end..].trim_start();
        } else if let (Some(p), Some(end)) = (pending.as_mut(), attribute_end(rest, "ignore")) {
            p.1 = true;
            rest = rest[end..].trim_start();
        } else {
            break;
        }
    }
    let test = match (*pending, fn_name(rest)) {
        (Some((should_panic, ignored)), Some(name)) => {
            *pending = None;
            Some(TestFn {
                name,
                should_panic,
                ignored,
            })
        }
        _ => None,
    };
    (rest, test)
}

/// Where an attribute `#[name]` or `#[name(…)]` / `#[name = …]` at the
/// start of `text` ends, when it is one.
fn attribute_end(text: &str, name: &str) -> Option<usize> {
    let rest = text.strip_prefix("#[")?.strip_prefix(name)?;
    if !rest.starts_with([']', '(', ' ', '=']) {
        return None;
    }
    let mut depth = 1usize;
    for (i, c) in text.char_indices().skip(2) {
        match c {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// The name of the function a line declares (`fn name(`, `pub fn name`).
fn fn_name(line: &str) -> Option<String> {
    let at = line.find("fn ")?;
    let before = line[..at].trim();
    if !before
        .split_whitespace()
        .all(|w| matches!(w, "pub" | "async" | "unsafe" | "pub(crate)"))
    {
        return None;
    }
    let name: String = line[at + 3..]
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// Code made hidden lines (`# ` before each line, `#` on a blank one), as
/// mdBook hides them.
pub fn hidden(code: &str) -> String {
    let mut out = String::with_capacity(code.len() + code.len() / 8);
    for line in code.lines() {
        match line.is_empty() {
            true => out.push_str("#\n"),
            false => {
                out.push_str("# ");
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

/// C or C++ code split by the hidden-line prefix: `(shown, full)`. Shown
/// drops the hidden lines; full keeps them without the prefix.
pub(crate) fn c_split(code: &str, prefix: &str) -> (String, String) {
    let mut shown = String::with_capacity(code.len());
    let mut full = String::with_capacity(code.len());
    let bare = prefix.trim_end();
    for line in code.split_inclusive('\n') {
        let indent = line.len() - line.trim_start().len();
        let rest = &line[indent..];
        if let Some(r) = rest.strip_prefix(prefix) {
            full.push_str(&line[..indent]);
            full.push_str(r);
        } else if rest.trim_end() == bare {
            full.push_str(&rest[bare.len()..]);
        } else {
            shown.push_str(line);
            full.push_str(line);
        }
    }
    (shown, full)
}

/// The highlight.js language of this machine's assembly (what an
/// assembly panel's fence is marked as).
pub fn asm_fence_language() -> &'static str {
    match std::env::consts::ARCH {
        "arm" | "aarch64" => "armasm",
        _ => "x86asm",
    }
}

/// `text` (a compiler's or a program's words) with every `FILE:L:C`
/// whose line `to` places elsewhere told as `to(L, C)`: `main.rs:4:12`
/// becomes the line of an example alone, or `src/c.md:6:12`.
pub fn relocate(text: &str, file: &str, to: impl Fn(usize, usize) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(file) {
        let (head, tail) = rest.split_at(at + file.len());
        let number = |s: &str| {
            let digits = s.bytes().take_while(u8::is_ascii_digit).count();
            Some((s[..digits].parse::<usize>().ok()?, digits))
        };
        let whole_name = !head[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '/' || c == '.');
        let place = number(tail).and_then(|(line, n)| {
            let after = tail[n..].strip_prefix(':')?;
            let (column, m) = number(after)?;
            Some((line, column, n + 1 + m))
        });
        match place.filter(|_| whole_name) {
            Some((line, column, len)) => match to(line, column) {
                Some(new) => {
                    out.push_str(&head[..at]);
                    out.push_str(&new);
                    rest = &tail[len..];
                }
                None => {
                    out.push_str(head);
                    rest = tail;
                }
            },
            None => {
                out.push_str(head);
                rest = tail;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `text` with the line numbers of rustc's source snippets (`12 | code`)
/// that `to` places elsewhere renumbered, the gutter widened when a new
/// number needs it.
pub fn renumber_gutter(text: &str, to: impl Fn(usize) -> Option<usize>) -> String {
    // A snippet line: blanks, a number, ` |`.
    let numbered = |line: &str| {
        let at = line.len() - line.trim_start().len();
        let digits = line[at..].bytes().take_while(u8::is_ascii_digit).count();
        let n = line[at..at + digits].parse::<usize>().ok()?;
        line[at + digits..]
            .starts_with(" |")
            .then_some((at + digits, n))
    };
    // Each line read once: its number's end, the number, where `to`
    // places it.
    let lines: Vec<_> = text
        .split_inclusive('\n')
        .map(|line| (line, numbered(line).map(|(end, n)| (end, n, to(n)))))
        .collect();
    let numbers = || lines.iter().filter_map(|(_, n)| *n);
    let width = numbers().map(|(end, _, _)| end).max().unwrap_or(0);
    let placed = numbers().filter_map(|(_, _, to)| to);
    let wanted = placed
        .map(|n| n.to_string().len())
        .max()
        .unwrap_or(0)
        .max(width);
    let grow = wanted - width;
    let mut out = String::with_capacity(text.len() + 8);
    for (line, numbered) in lines {
        if let Some((end, n, to)) = numbered {
            use std::fmt::Write as _;
            let _ = write!(out, "{:>wanted$}", to.unwrap_or(n));
            out.push_str(&line[end..]);
            continue;
        }
        // The gutter's other lines (`  |`, `  = note`, ` --> `) widen
        // with it.
        let t = line.trim_start();
        if grow > 0 && (t.starts_with('|') || t.starts_with("= ") || t.starts_with("-->")) {
            out.extend(std::iter::repeat_n(' ', grow));
        }
        out.push_str(line);
    }
    out
}

#[cfg(test)]
mod tests;
