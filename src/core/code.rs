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

/// The Rust code the reader sees: hidden lines dropped, `##` shown as `#`.
pub fn rust_shown(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    for line in code.split_inclusive('\n') {
        let rest = line.trim_start();
        if rest.starts_with("##") {
            out.push_str(&line.replacen("##", "#", 1));
        } else if !(rest.starts_with("# ") || rest.trim_end() == "#") {
            out.push_str(line);
        }
    }
    out
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

/// C or C++ code split by the hidden-line prefix: `(shown, full)`. Shown
/// drops the hidden lines; full keeps them without the prefix.
pub fn c_split(code: &str, prefix: &str) -> (String, String) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn rust_hidden_lines_are_unhidden() {
        let code = "# fn main() {\n    # let x = 1;\nlet y = 2;\n## not hidden\n#\n#[derive(Debug)]\n# }\n";
        assert_eq!(
            rust_source(code),
            "fn main() {\n    let x = 1;\nlet y = 2;\n# not hidden\n\n#[derive(Debug)]\n}\n"
        );
    }

    #[test]
    fn rust_shown_drops_hidden_lines() {
        let code = "# fn main() {\n    # let x = 1;\nlet y = 2;\n## not hidden\n#\n#[derive(Debug)]\n# }\n";
        assert_eq!(
            rust_shown(code),
            "let y = 2;\n# not hidden\n#[derive(Debug)]\n"
        );
    }

    #[test]
    fn program_wraps_code_without_main() {
        assert_eq!(
            rust_program("#![allow(unused)]\nlet x = 1;\n"),
            "#![allow(unused)]\nfn main() {\nlet x = 1;\n}\n"
        );
        assert_eq!(rust_program("fn main() {}\n"), "fn main() {}\n");
    }

    #[test]
    fn c_prefix_hides_lines_from_the_reader_only() {
        let code = "~ #include <stdio.h>\nint f(void) { return 1; }\n  ~ int g;\n~\n";
        let (shown, full) = c_split(code, "~ ");
        assert_eq!(shown, "int f(void) { return 1; }\n");
        assert_eq!(
            full,
            "#include <stdio.h>\nint f(void) { return 1; }\n  int g;\n\n"
        );
    }
}
