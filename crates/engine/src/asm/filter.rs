//! From a compiler's assembler output to the listing a reader sees: the
//! functions they wrote, demangled, without directives, comments and
//! unused labels; each instruction with the source line it came from, read
//! from the line table (`.file` and `.loc` directives) before those
//! directives are dropped.

use mdbook_companion_core::asm::Listing;
use mdbook_companion_core::lang::{Lang, Symbols};

/// The names of the functions defined or called in the visible code: `fn
/// name` for Rust, `name(` for C and C++ (keywords excluded), the
/// functions defined after its row's word (`func name(`, `func (r T)
/// name(`) for a language of programs.
pub fn reader_functions(lang: Lang, shown: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut push = |n: &str| {
        if !n.is_empty() && !names.iter().any(|m| m == n) {
            names.push(n.to_owned());
        }
    };
    let idents = identifiers(shown);
    let defines = lang
        .program()
        .and_then(|row| row.asm.as_ref())
        .map(|a| a.defines);
    for (i, &(start, end)) in idents.iter().enumerate() {
        let word = &shown[start..end];
        match (defines, lang.symbols()) {
            (Some(defines), _) => {
                // The first name after the word that a `(` or `[` follows.
                if word == defines
                    && let Some(&(s, e)) = idents[i + 1..]
                        .iter()
                        .find(|&&(_, e)| shown[e..].trim_start().starts_with(['(', '[']))
                {
                    push(&shown[s..e]);
                }
            }
            (None, Symbols::Rust) => {
                if word == "fn"
                    && let Some(&(s, e)) = idents.get(i + 1)
                {
                    push(&shown[s..e]);
                }
            }
            (None, Symbols::Plain | Symbols::Itanium) => {
                let next = shown[end..].trim_start().chars().next();
                const KEYWORDS: [&str; 8] = [
                    "if", "while", "for", "switch", "return", "sizeof", "defined", "catch",
                ];
                if next == Some('(') && !KEYWORDS.contains(&word) {
                    push(word);
                }
            }
        }
    }
    // A visible `main` that drives the functions the block is about would
    // bury them under formatting machinery: it is shown only when it is the
    // only function.
    if names.len() > 1 {
        names.retain(|n| n != "main");
    }
    names
}

/// Rust's anonymous constants are labelled `.Lanon.<32 hex digits>.<n>`;
/// the hash is the same for the whole listing and only takes room, so it
/// becomes `.Lanon.<n>`.
pub(super) fn shorten_anon(line: &str) -> String {
    const MARK: &str = ".Lanon.";
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find(MARK) {
        let after = &rest[at + MARK.len()..];
        let hash_len = after.bytes().take_while(u8::is_ascii_hexdigit).count();
        out.push_str(&rest[..at + MARK.len()]);
        rest = if hash_len >= 16 && after[hash_len..].starts_with('.') {
            &after[hash_len + 1..]
        } else {
            after
        };
    }
    out.push_str(rest);
    out
}

/// Byte ranges of identifiers in `code`.
fn identifiers(code: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in code.char_indices() {
        let ident = c == '_' || c.is_alphanumeric();
        match (start, ident) {
            (None, true) => start = Some(i),
            (Some(s), false) => {
                out.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, code.len()));
    }
    out
}

/// True when a function symbol of the listing is one of `keep`: the plain
/// name for C, the last path segment of the demangled name for Rust and
/// C++ (methods and namespaced functions included).
fn wanted(symbol: &str, lang: Lang, keep: &[String]) -> bool {
    match lang.symbols() {
        Symbols::Plain => keep.iter().any(|k| k == symbol),
        Symbols::Itanium => {
            // `ns::Type::name<T>(int) const` -> `name`.
            let shown = display_symbol(symbol, lang);
            let path = shown.split('(').next().unwrap_or(&shown);
            let path = path.split('<').next().unwrap_or(path);
            let last = path.rsplit("::").next().unwrap_or(path);
            keep.iter().any(|k| k == symbol || k == last)
        }
        Symbols::Rust => {
            let name = display_symbol(symbol, lang);
            let last = name.rsplit("::").next().unwrap_or(&name);
            keep.iter().any(|k| k == last)
        }
    }
}

/// How a function's label is shown: Rust symbols demangled without their
/// hash and without the crate name, C++ symbols demangled.
fn display_symbol(symbol: &str, lang: Lang) -> String {
    match lang.symbols() {
        Symbols::Plain => return symbol.to_owned(),
        Symbols::Itanium => {
            return cpp_demangle::Symbol::new(symbol)
                .ok()
                .and_then(|s| s.demangle().ok())
                .unwrap_or_else(|| symbol.to_owned());
        }
        Symbols::Rust => {}
    }
    match rustc_demangle::try_demangle(symbol) {
        Ok(d) => {
            let s = as_legacy(symbol, format!("{d:#}"));
            match s.split_once("::") {
                Some((krate, rest)) if !krate.starts_with('<') => rest.to_owned(),
                _ => s,
            }
        }
        Err(_) => symbol.to_owned(),
    }
}

/// A demangled name as the legacy scheme tells it, when `symbol` is of
/// the v0 scheme (`_R…`, nightly's): an inherent method's impl path
/// without its angle brackets (`<example::positive::Positive>::get` ->
/// `example::positive::Positive::get`) and a function's generic
/// arguments left out (`example::twice::<u8>` -> `example::twice`), so a
/// listing's names stay the same on either toolchain.
fn as_legacy(symbol: &str, demangled: String) -> String {
    if !symbol.starts_with("_R") {
        return demangled;
    }
    let mut name = demangled;
    if name.starts_with('<')
        && let Some(close) = group_close(&name, 0)
        && !name[1..close].contains(" as ")
    {
        name = format!("{}{}", &name[1..close], &name[close + 1..]);
    }
    // `::<…>` generic arguments, outside the trait impl's own brackets.
    let mut out = String::with_capacity(name.len());
    let mut at = 0;
    while let Some(found) = name[at..].find("::<") {
        let start = at + found;
        out.push_str(&name[at..start]);
        at = group_close(&name, start + 2).map_or(name.len(), |c| c + 1);
    }
    out.push_str(&name[at..]);
    out
}

/// The index of the `>` that closes the `<` at `open` in `text`.
fn group_close(text: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices().skip_while(|&(i, _)| i < open) {
        match c {
            '<' => depth += 1,
            '>' if i > 0 && text.as_bytes()[i - 1] == b'-' => {}
            '>' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Replaces mangled Rust symbols inside an instruction by their readable
/// names.
fn demangle_operands(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find("_ZN").or_else(|| rest.find("_R")) {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let len = from
            .find(|c: char| !(c == '_' || c == '$' || c == '.' || c.is_ascii_alphanumeric()))
            .unwrap_or(from.len());
        let (sym, after) = from.split_at(len);
        match rustc_demangle::try_demangle(sym) {
            Ok(d) => out.push_str(&as_legacy(sym, format!("{d:#}"))),
            Err(_) => out.push_str(sym),
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// The comment marker of this machine's assembler syntax.
fn comment_marker() -> &'static str {
    match std::env::consts::ARCH {
        "arm" | "aarch64" => "//",
        _ => "#",
    }
}

/// The line table of a listing: which `.file` numbers name the block's
/// own source file (`block.rs`, `block.c`); other files are headers and
/// the standard library, whose lines are not the reader's.
fn own_files(lines: &[&str], file: &str) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| {
            let rest = l.trim_start().strip_prefix(".file")?;
            let mut words = rest.split_whitespace();
            let number = words.next()?;
            if !number.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let names: Vec<&str> = rest.split('"').skip(1).step_by(2).collect();
            let name = names.last()?;
            let base = name.rsplit('/').next().unwrap_or(name);
            (base == file).then(|| number.to_owned())
        })
        .collect()
}

/// The source line a `.loc FILE LINE ...` directive sets: `Some(0)` when
/// it names another file or line 0 (code of no line); `None` when `t` is
/// not a `.loc`.
fn loc_line(t: &str, own: &[String]) -> Option<u32> {
    let rest = t.strip_prefix(".loc")?;
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    let mut words = rest.split_whitespace();
    let file = words.next().unwrap_or("");
    let line = words
        .next()
        .and_then(|w| w.parse::<u32>().ok())
        .unwrap_or(0);
    Some(if own.iter().any(|f| f == file) {
        line
    } else {
        0
    })
}

/// A function's instructions and labels, each with the line of the
/// block's own file it came from (0 for labels and for code of no line
/// of the block): directives, comments and blank lines dropped, anonymous
/// constants shortened and Rust operands demangled.
fn instructions(body: &[&str], lang: Lang, own: &[String]) -> Vec<(String, u32)> {
    let marker = comment_marker();
    let mut instructions: Vec<(String, u32)> = Vec::new();
    let mut source_line = 0;
    for l in body {
        let code = match l.find(marker) {
            Some(at) => &l[..at],
            None => l,
        };
        let t = code.trim();
        if let Some(line) = loc_line(t, own) {
            source_line = line;
            continue;
        }
        if t.is_empty() || (t.starts_with('.') && !t.ends_with(':')) {
            continue;
        }
        if let Some(local) = t.strip_suffix(':') {
            instructions.push((format!("{}:", shorten_anon(local)), 0));
            continue;
        }
        let t = shorten_anon(&t.replace('\t', " "));
        let t = if lang.symbols() == Symbols::Rust {
            demangle_operands(&t)
        } else {
            t
        };
        instructions.push((format!("    {t}"), source_line));
    }
    instructions
}

/// A function's block: its label, then its instructions and the local
/// labels an instruction refers to.
fn block(name: &str, lang: Lang, instructions: &[(String, u32)]) -> Vec<(String, u32)> {
    // Local labels stay only when an instruction refers to them.
    let used = |label: &str| {
        instructions.iter().any(|(ins, _)| {
            ins.starts_with("    ")
                && ins
                    .split(|c: char| !(c == '_' || c == '.' || c == '$' || c.is_alphanumeric()))
                    .any(|w| w == label)
        })
    };
    let mut block = vec![(format!("{}:", display_symbol(name, lang)), 0)];
    for (ins, line) in instructions {
        if let Some(local) = ins.strip_suffix(':').filter(|_| !ins.starts_with(' '))
            && !used(local)
        {
            continue;
        }
        block.push((ins.clone(), *line));
    }
    block
}

/// Keeps the functions named in `keep` from an assembler listing: their
/// labels, instructions, and the local labels their instructions refer
/// to; drops directives, comments and blank lines. Functions are separated
/// by one blank line, in listing order. Each line of the result carries
/// the line of `file` its instruction came from (0 for labels and for
/// code of no line of the block).
pub fn filter(listing: &str, lang: Lang, keep: &[String], file: &str) -> Listing {
    let lines: Vec<&str> = listing.lines().collect();
    let own = own_files(&lines, file);
    let functions: Vec<&str> = lines
        .iter()
        .filter_map(|l| {
            let rest = l.trim_start().strip_prefix(".type")?;
            let (name, kind) = rest.split_once(',')?;
            kind.contains("function").then_some(name.trim())
        })
        .collect();
    let mut blocks: Vec<Vec<(String, u32)>> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let label = lines[i]
            .strip_suffix(':')
            .filter(|l| !l.starts_with([' ', '\t']));
        let Some(name) = label.filter(|n| functions.contains(n)) else {
            i += 1;
            continue;
        };
        // The function runs to its `.size` directive or the next function.
        let mut body: Vec<&str> = Vec::new();
        let mut j = i + 1;
        while j < lines.len() {
            let l = lines[j];
            let t = l.trim();
            if t.starts_with(".size") && t.contains(name) {
                break;
            }
            if l.strip_suffix(':').is_some_and(|n| functions.contains(&n)) {
                break;
            }
            body.push(l);
            j += 1;
        }
        i = j;
        if !wanted(name, lang, keep) {
            continue;
        }
        let instructions = instructions(&body, lang, &own);
        blocks.push(block(name, lang, &instructions));
    }
    let mut out = Listing::default();
    for (k, block) in blocks.into_iter().enumerate() {
        if k > 0 {
            out.text.push('\n');
            out.lines.push(0);
        }
        for (text, line) in block {
            out.text.push_str(&text);
            out.text.push('\n');
            out.lines.push(line);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v0_symbols_read_as_legacy_ones() {
        // rustc 1.9x's symbols for the same functions, legacy (stable's)
        // and v0 (`-C symbol-mangling-version=v0`, nightly's).
        for (legacy, v0, shown) in [
            (
                "_ZN7example8positive8Positive3get17h4567d1a6e651f270E",
                "_RNvMNtCsbdRDyALLnXW_7example8positiveNtB2_8Positive3get",
                "positive::Positive::get",
            ),
            (
                "_ZN7example5twice17h615f5af5f209c9ebE",
                "_RINvCsbdRDyALLnXW_7example5twicehEB2_",
                "twice",
            ),
            (
                "_ZN66_$LT$example..positive..Positive$u20$as$u20$core..fmt..Display$GT$3fmt17h30bff5ac8d891b06E",
                "_RNvXs_NtCsbdRDyALLnXW_7example8positiveNtB4_8PositiveNtNtCsgEmfK2I1SDS_4core3fmt7Display3fmt",
                "<example::positive::Positive as core::fmt::Display>::fmt",
            ),
        ] {
            assert_eq!(display_symbol(legacy, Lang::Rust), shown);
            assert_eq!(display_symbol(v0, Lang::Rust), shown);
            assert_eq!(
                demangle_operands(&format!("call {v0}")),
                demangle_operands(&format!("call {legacy}"))
            );
        }
        assert!(wanted(
            "_RNvMNtCsbdRDyALLnXW_7example8positiveNtB2_8Positive3get",
            Lang::Rust,
            &["get".to_owned()]
        ));
    }
}
