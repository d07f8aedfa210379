//! Making author strings safe for the page: every string that reaches
//! HTML is escaped, Markdown the page renders has its syntax neutralised
//! where it must be shown literally, and links are http(s) or relative.

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
}
