//! The words of a fenced block's info string, as rustdoc reads them.

/// The words of an info string, or `None` when rustdoc would call it
/// malformed and the block not Rust. This is rustdoc's tokenizer of
/// fenced-block attributes (`TagIterator` in
/// `src/librustdoc/html/markdown.rs`): words are separated by spaces,
/// commas or tabs; a word starts with a letter, digit, `_`, `-` or `:`
/// and goes on with those and `.!#$%&*+/;<>?@^|~`; `"quoted"` is a word;
/// `(comments)` are skipped; `{…}` holds `.class` and `key=value`
/// attributes, which test nothing. Anything else (`ignore=x` outside
/// braces, `{x}`, a word glued to a quote, an unclosed `(`, `{` or `"`)
/// is an error, and stops the words read so far from counting.
pub(super) fn words(info: &str) -> Option<Vec<&str>> {
    let mut out = Vec::new();
    let mut in_braces = false;
    let mut i = 0;
    loop {
        while char_at(info, i).is_some_and(is_sep) {
            i += 1;
        }
        let Some(c) = char_at(info, i) else {
            return (!in_braces).then_some(out);
        };
        if in_braces {
            (i, in_braces) = brace_token(info, i, c)?;
            continue;
        }
        match word(info, i, &mut out)? {
            After::Words(next) => i = next,
            After::Braces(next) => {
                i = next;
                in_braces = true;
            }
            After::End => return Some(out),
        }
    }
}

/// The character at byte `i` of `info`.
fn char_at(info: &str, i: usize) -> Option<char> {
    info[i..].chars().next()
}

/// Whether `c` separates words.
fn is_sep(c: char) -> bool {
    c == ' ' || c == ',' || c == '\t'
}

/// Whether a word may start with `c`.
fn leading(c: char) -> bool {
    c == '_' || c == '-' || c == ':' || c.is_ascii_alphanumeric()
}

/// Whether a word may go on with `c`.
fn bare(c: char) -> bool {
    leading(c) || ".!#$%&*+/;<>?@^|~".contains(c)
}

/// Whether what follows a token inside braces may: a separator, `}`, `(`
/// or the end.
fn after_ok(rest: &str) -> bool {
    rest.chars()
        .next()
        .is_none_or(|c| c == '}' || c == '(' || is_sep(c))
}

/// One token inside braces, `c` at byte `i`: `}`, a `.class` or a
/// `key=value`. Where the next starts and whether the braces are still
/// open; `None` for a token rustdoc refuses.
fn brace_token(info: &str, mut i: usize, c: char) -> Option<(usize, bool)> {
    i += c.len_utf8();
    if c == '}' {
        return Some((i, false));
    } else if c == '.' {
        let len = info[i..].find(|c: char| !bare(c)).unwrap_or(info.len() - i);
        if len == 0 || !after_ok(&info[i + len..]) {
            return None;
        }
        i += len;
    } else if c == '"' || leading(c) {
        // key=value; the key a word or a quoted string.
        let key_end = if c == '"' {
            i + info[i..].find('"')? + 1
        } else {
            let len = info[i..].find(|c: char| !bare(c))?;
            i + len
        };
        if key_end == i + 1 && c == '"' {
            return None;
        }
        i = key_end;
        if char_at(info, i) != Some('=') {
            return None;
        }
        i += 1;
        match char_at(info, i)? {
            '"' => {
                let len = info[i + 1..].find('"')?;
                if len == 0 {
                    return None;
                }
                i += len + 2;
            }
            c if bare(c) => i += info[i..].find(|c: char| !bare(c))?,
            _ => return None,
        }
        if !after_ok(&info[i..]) {
            return None;
        }
    } else {
        return None;
    }
    Some((i, true))
}

/// What follows a word outside braces.
enum After {
    /// More words, from this byte.
    Words(usize),
    /// Braces opened; their tokens from this byte.
    Braces(usize),
    /// The end of the info string.
    End,
}

/// The word starting at byte `start` (a bare word, a `"quoted"` one, one
/// cut short by `(comment)` or `{`) pushed to `out`; `None` for one
/// rustdoc refuses.
fn word<'a>(info: &'a str, start: usize, out: &mut Vec<&'a str>) -> Option<After> {
    let mut i = start;
    loop {
        let Some(c) = char_at(info, i) else {
            out.push(&info[start..]);
            return Some(After::End);
        };
        i += c.len_utf8();
        match c {
            '"' if i - 1 == start => {
                let len = info[i..].find('"')?;
                out.push(&info[i..i + len]);
                i += len + 1;
                if char_at(info, i).is_some_and(|c| c != '{' && c != '(' && !is_sep(c)) {
                    return None;
                }
                return Some(After::Words(i));
            }
            '"' => return None,
            // A word cut short by `{` is lost, as in rustdoc.
            '{' => return Some(After::Braces(i)),
            '(' => {
                let word = &info[start..i - 1];
                i += info[i..].find(')')? + 1;
                if !word.is_empty() {
                    out.push(word);
                }
                return Some(After::Words(i));
            }
            c if is_sep(c) => {
                out.push(&info[start..i - 1]);
                return Some(After::Words(i));
            }
            c if (i - c.len_utf8() == start && leading(c))
                || (i - c.len_utf8() != start && bare(c)) => {}
            _ => return None,
        }
    }
}
