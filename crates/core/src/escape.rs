//! Making author strings safe for the page: every string that reaches
//! HTML is escaped, Markdown the page renders has its syntax neutralised
//! where it must be shown literally, and links are http(s) or relative.
//! Text a program printed (or an author wrote) is made harmless for a
//! terminal and for XML by one function, [`terminal`], that every report
//! format and message uses: what would act instead of showing is shown as
//! an escape (`\u{1b}`).

/// Escapes text for HTML, in element content and in quoted attributes.
pub fn escape(text: &str) -> String {
    html_escape::encode_quoted_attribute(text).into_owned()
}

/// Escapes text so Markdown shows it literally.
pub fn escape_markdown(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|' | '!' | '&' | '~'
        ) {
            s.push('\\');
        }
        s.push(c);
    }
    s
}

/// A link target allowed in an author's Markdown (notes): http(s), or
/// relative (`../x.md`, `#part`). Anything with another scheme
/// (`javascript:`, `data:`) is not.
pub fn link_ok(dest: &str) -> bool {
    let lower = dest.trim().to_ascii_lowercase();
    if lower.starts_with("http://") || lower.starts_with("https://") {
        return true;
    }
    let end = lower.find(['/', '?', '#']).unwrap_or(lower.len());
    !lower[..end].contains(':')
}

/// Accepts only absolute http(s) URLs without spaces or control
/// characters; the error says what was found and what was expected.
pub fn check_url(url: &str) -> Result<(), String> {
    let lower = url.to_ascii_lowercase();
    let rest = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"));
    match rest {
        Some(host) if !host.is_empty() && !host.starts_with('/') => {}
        _ => {
            return Err(format!(
                "found url `{url}`; expected an http:// or https:// address"
            ));
        }
    }
    if url
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '<' | '>' | '"'))
    {
        return Err(format!(
            "found a space, quote or angle bracket in url `{url}`; expected them percent-encoded (%20, %22, %3C, %3E)"
        ));
    }
    Ok(())
}

/// Whether `c` acts on a terminal (or is not a character at all) rather
/// than showing: C0 and C1 controls, DEL, the bidirectional overrides and
/// isolates (which reorder what follows them), and the non-characters
/// U+FFFE and U+FFFF.
fn acts(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        || matches!(c, '\u{fffe}' | '\u{ffff}')
}

/// `text` with every character that would act on a terminal shown as
/// `\u{…}` instead (tab and line ends are kept; a carriage return only
/// before a line feed): a program's output can then neither colour,
/// move the cursor, clear the screen, retitle the window nor reorder the
/// report.
pub fn terminal(text: &str) -> std::borrow::Cow<'_, str> {
    visible(text, |c, next| match c {
        '\t' | '\n' => true,
        '\r' => next == Some('\n'),
        c => !acts(c),
    })
}

/// `text` with each character `keep` refuses written as `\u{…}`.
fn visible(text: &str, keep: impl Fn(char, Option<char>) -> bool) -> std::borrow::Cow<'_, str> {
    let mut chars = text.chars().peekable();
    let mut out: Option<String> = None;
    let mut at = 0;
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        if keep(c, next) {
            if let Some(o) = &mut out {
                o.push(c);
            }
        } else {
            let o = out.get_or_insert_with(|| text[..at].to_owned());
            o.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        }
        at += c.len_utf8();
    }
    match out {
        Some(o) => std::borrow::Cow::Owned(o),
        None => std::borrow::Cow::Borrowed(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_escape_covers_quotes_and_tags() {
        assert_eq!(
            escape(r#"<script>alert("x")</script> & 'y'"#),
            "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#x27;y&#x27;"
        );
    }

    #[test]
    fn markdown_escape_neutralises_syntax() {
        assert_eq!(escape_markdown("*a* [b](c) <d>"), r"\*a\* \[b\](c) \<d\>");
    }

    #[test]
    fn links_are_http_or_relative() {
        for ok in ["https://x.org/", "HTTP://x", "../a.md", "#part", "a/b:c"] {
            assert!(link_ok(ok), "{ok}");
        }
        for bad in ["javascript:alert(1)", " data:text/html,x", "mailto:a@b"] {
            assert!(!link_ok(bad), "{bad}");
        }
        assert!(check_url("https://example.org/a").is_ok());
        assert!(check_url("ftp://example.org/").is_err());
        assert!(check_url("https://exa mple.org/").is_err());
    }

    #[test]
    fn program_text_is_made_harmless_for_terminals_and_xml() {
        assert_eq!(
            terminal("\u{1b}[2J\u{1b}]0;pwned\u{7}ok\tx\r\ny\rz\u{9b}\u{202e}\u{7f}é…"),
            "\\u{1b}[2J\\u{1b}]0;pwned\\u{7}ok\tx\r\ny\\u{d}z\\u{9b}\\u{202e}\\u{7f}é…"
        );
        assert!(matches!(terminal("plain\n"), std::borrow::Cow::Borrowed(_)));
        // What XML 1.0 forbids is among what it escapes.
        assert_eq!(
            terminal("a\u{fffe}b\u{ffff}\u{1b}c\t\r\n"),
            "a\\u{fffe}b\\u{ffff}\\u{1b}c\t\r\n"
        );
    }
}
