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
    let is_sep = |c: char| c == ' ' || c == ',' || c == '\t';
    let leading = |c: char| c == '_' || c == '-' || c == ':' || c.is_ascii_alphanumeric();
    let bare = |c: char| leading(c) || ".!#$%&*+/;<>?@^|~".contains(c);
    // After a token inside braces: a separator, `}`, `(` or the end.
    let after_ok = |rest: &str| {
        rest.chars()
            .next()
            .is_none_or(|c| c == '}' || c == '(' || is_sep(c))
    };
    let mut out = Vec::new();
    let mut in_braces = false;
    let mut i = 0;
    let char_at = |i: usize| info[i..].chars().next();
    loop {
        while char_at(i).is_some_and(is_sep) {
            i += 1;
        }
        let Some(c) = char_at(i) else {
            return (!in_braces).then_some(out);
        };
        if in_braces {
            i += c.len_utf8();
            if c == '}' {
                in_braces = false;
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
                if char_at(i) != Some('=') {
                    return None;
                }
                i += 1;
                match char_at(i)? {
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
            continue;
        }
        let start = i;
        loop {
            let Some(c) = char_at(i) else {
                out.push(&info[start..]);
                return Some(out);
            };
            i += c.len_utf8();
            match c {
                '"' if i - 1 == start => {
                    let len = info[i..].find('"')?;
                    out.push(&info[i..i + len]);
                    i += len + 1;
                    if char_at(i).is_some_and(|c| c != '{' && c != '(' && !is_sep(c)) {
                        return None;
                    }
                    break;
                }
                '"' => return None,
                // A word cut short by `{` is lost, as in rustdoc.
                '{' => {
                    in_braces = true;
                    break;
                }
                '(' => {
                    let word = &info[start..i - 1];
                    i += info[i..].find(')')? + 1;
                    if !word.is_empty() {
                        out.push(word);
                    }
                    break;
                }
                c if is_sep(c) => {
                    out.push(&info[start..i - 1]);
                    break;
                }
                c if (i - c.len_utf8() == start && leading(c))
                    || (i - c.len_utf8() != start && bare(c)) => {}
                _ => return None,
            }
        }
    }
}
