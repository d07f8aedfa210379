//! Source and listing tied together, as Compiler Explorer ties them.
//!
//! The compiler's line table numbers the lines of the *program* it
//! compiled: hidden lines included, and for Rust code without `fn main`,
//! the wrapper mdBook adds. The reader sees the *shown* code. The maps
//! here turn a program line into the shown line it is (or 0 when the
//! reader does not see it), and give each shown line its colour, shared
//! by the line and its instructions.

use crate::code;

/// How many colours lines cycle through (the stylesheet defines
/// `companion-c0` to `companion-c7` for every theme).
pub(crate) const COLOURS: usize = 8;

/// The colour class index of a shown line (1-based).
pub fn colour(shown_line: u32) -> usize {
    (shown_line.saturating_sub(1) as usize) % COLOURS
}

/// For each line of the Rust program mdBook runs for `code` (hidden
/// lines un-hidden, wrapped in `fn main` when it has none), the shown
/// line it is, 1-based, or 0.
pub fn rust_lines(code: &str) -> Vec<u32> {
    let shown = shown_numbers(code, |line| !code::rust_shown(line).is_empty());
    let source = code::rust_source(code);
    if code::has_main(&source) {
        return shown;
    }
    // As `code::rust_program` builds it: leading `#![...]` lines, the
    // wrapper's first line, the body, the wrapper's last line.
    let mut head = Vec::new();
    let mut body = Vec::new();
    for (line, n) in source.split_inclusive('\n').zip(&shown) {
        if body.is_empty() && line.trim_start().starts_with("#![") {
            head.push(*n);
        } else {
            body.push(*n);
        }
    }
    let mut out = head;
    out.push(0);
    out.extend(body);
    out.push(0);
    out
}

/// For each line of a C or C++ program (its code with the hidden-line
/// `prefix` removed), the shown line it is, 1-based, or 0.
pub fn c_lines(code: &str, prefix: &str) -> Vec<u32> {
    shown_numbers(code, |line| !code::c_split(line, prefix).0.is_empty())
}

/// `text` (a C or C++ program's standard error, its checker's report)
/// with every place in the program's `file` (`main.c:3`, `main.c:3:12`)
/// told in the lines the reader sees, through `lines` ([`c_lines`]): a
/// place on a hidden line reads `main.c (a hidden line)`.
pub fn told_as_shown(text: &str, file: &str, lines: &[u32]) -> String {
    if !text.contains(file) {
        return text.to_owned();
    }
    let Ok(place) = regex::Regex::new(&format!(r"(^|[^\w/.]){}:(\d+)(:\d+)?", regex::escape(file)))
    else {
        return text.to_owned();
    };
    place
        .replace_all(text, |c: &regex::Captures<'_>| {
            let line = c[2].parse::<usize>().ok().and_then(|l| l.checked_sub(1));
            match line.and_then(|l| lines.get(l)) {
                Some(0) => format!("{}{file} (a hidden line)", &c[1]),
                Some(n) => format!("{}{file}:{n}{}", &c[1], c.get(3).map_or("", |m| m.as_str())),
                None => c[0].to_owned(),
            }
        })
        .into_owned()
}

/// Numbers the lines of `code` for which `shown` holds, 1-based; 0 for
/// the others.
fn shown_numbers(code: &str, shown: impl Fn(&str) -> bool) -> Vec<u32> {
    let mut n = 0;
    code.split_inclusive('\n')
        .map(|line| {
            if shown(line) {
                n += 1;
                n
            } else {
                0
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_c_report_is_told_in_the_shown_lines() {
        let code = "~ #include <stdio.h>\n~ #include <stdlib.h>\nint main(void) {\n~   int *p = 0;\n    return *p;\n}\n";
        let lines = c_lines(code, "~ ");
        assert_eq!(lines, [0, 0, 1, 0, 2, 3]);
        let report = "main.c:5:12: runtime error: load of null pointer\n    #0 0x… in main main.c:5\n    by 0x…: main (main.c:4)\nSUMMARY: x main.c:3 in main\n/usr/src/main.c:5 xmain.c:5 main.c:99\n";
        assert_eq!(
            told_as_shown(report, "main.c", &lines),
            "main.c:2:12: runtime error: load of null pointer\n    #0 0x… in main main.c:2\n    by 0x…: main (main.c (a hidden line))\nSUMMARY: x main.c:1 in main\n/usr/src/main.c:5 xmain.c:5 main.c:99\n"
        );
    }
    use pretty_assertions::assert_eq;

    #[test]
    fn rust_lines_skip_hidden_lines_and_the_wrapper() {
        let code = "# use std::num::NonZero;\npub fn f(a: u32) -> u32 {\n    a / 2\n}\n# fn main() { f(1); }\n";
        // Has `fn main`: program lines are the code's lines.
        assert_eq!(rust_lines(code), [0, 1, 2, 3, 0]);
        let loose = "#![allow(unused)]\n# let a = 1;\nlet b = a + 1;\n";
        // `#![allow]`, `fn main() {`, `let a`, `let b`, `}`.
        assert_eq!(
            code::rust_program(&code::rust_source(loose))
                .lines()
                .count(),
            5
        );
        assert_eq!(rust_lines(loose), [1, 0, 0, 2, 0]);
    }

    #[test]
    fn c_lines_skip_the_prefix() {
        let code = "~ #include <stdio.h>\nint f(void) {\n  ~ int hidden;\n    return 1;\n}\n";
        assert_eq!(c_lines(code, "~ "), [0, 1, 0, 2, 3]);
    }

    #[test]
    fn colours_cycle() {
        assert_eq!(colour(1), 0);
        assert_eq!(colour(8), 7);
        assert_eq!(colour(9), 0);
    }
}
