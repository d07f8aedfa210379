//! The info-string attribute parser.
//!
//! Every directive is a fenced code block whose info string carries
//! attributes after its kind words: `rust example title="Two words" asm`.
//! Attributes are separated by spaces or commas, as mdBook splits them;
//! `key=value` takes a TOML value (`"text"`, `['a', 'b']`, `true`, `3`) or a
//! bare word (`mode=release`); a word without `=` is a flag. The parser keeps
//! each attribute's byte offset so that errors point at the exact column.

use std::ops::Range;

/// One attribute of an info string.
#[derive(Debug, Clone, PartialEq)]
pub struct Attr {
    /// The key, as written (`title`, `expect`, `should_panic`).
    pub key: String,
    /// The value: `None` for a bare flag.
    pub value: Option<toml::Value>,
    /// Byte offset of the attribute in the info string.
    pub offset: usize,
}

impl Attr {
    /// The value's TOML type name, for messages.
    pub fn type_name(&self) -> &'static str {
        self.value.as_ref().map_or("a flag", |v| v.type_str())
    }
}

/// A syntax error in an info string, at a byte offset of that string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttrError {
    /// Byte offset in the info string where the problem starts.
    pub offset: usize,
    /// What was found and what was expected.
    pub message: String,
}

/// Splits an info string into its words: runs separated by spaces, tabs or
/// commas that lie outside quotes and brackets. Returns each word's range.
pub fn words(info: &str) -> Result<Vec<Range<usize>>, AttrError> {
    let bytes = info.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if matches!(bytes[i], b' ' | b'\t' | b',') {
            i += 1;
            continue;
        }
        let start = i;
        let mut depth: Vec<(u8, usize)> = Vec::new();
        while i < bytes.len() {
            let b = bytes[i];
            match b {
                b'"' | b'\'' => i = skip_string(info, i)?,
                b'[' | b'{' => {
                    depth.push((b, i));
                    i += 1;
                }
                b']' | b'}' => {
                    let open = if b == b']' { b'[' } else { b'{' };
                    match depth.pop() {
                        Some((o, _)) if o == open => i += 1,
                        _ => {
                            return Err(AttrError {
                                offset: i,
                                message: format!(
                                    "found an unmatched `{}`; expected it to close a `{}`",
                                    b as char, open as char
                                ),
                            });
                        }
                    }
                }
                b' ' | b'\t' | b',' if depth.is_empty() => break,
                _ => i += 1,
            }
        }
        if let Some(&(open, at)) = depth.last() {
            let close = if open == b'[' { ']' } else { '}' };
            return Err(AttrError {
                offset: at,
                message: format!(
                    "found an unclosed `{}`; expected a closing `{close}` before the end of the line",
                    open as char
                ),
            });
        }
        out.push(start..i);
    }
    Ok(out)
}

/// Returns the index just past the string literal that starts at `start`.
fn skip_string(info: &str, start: usize) -> Result<usize, AttrError> {
    let bytes = info.as_bytes();
    let quote = bytes[start];
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if quote == b'"' => i += 2,
            b if b == quote => return Ok(i + 1),
            _ => i += 1,
        }
    }
    Err(AttrError {
        offset: start,
        message: format!(
            "found an unterminated string; expected a closing `{}`",
            quote as char
        ),
    })
}

/// Parses the attributes in `info[from..]` (the part after the kind words).
pub fn parse(info: &str, words: &[Range<usize>]) -> Result<Vec<Attr>, AttrError> {
    words.iter().map(|w| parse_one(info, w.clone())).collect()
}

fn parse_one(info: &str, range: Range<usize>) -> Result<Attr, AttrError> {
    let word = &info[range.clone()];
    let offset = range.start;
    let (key, value) = match word.find('=') {
        Some(eq) => (&word[..eq], Some((&word[eq + 1..], offset + eq + 1))),
        None => (word, None),
    };
    if key.is_empty()
        || !key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(AttrError {
            offset,
            message: format!(
                "found `{word}`; expected an attribute `key=value` or a flag made of letters, digits, `-` and `_`"
            ),
        });
    }
    let value = match value {
        None => None,
        Some((src, at)) => Some(parse_value(key, src, at)?),
    };
    Ok(Attr {
        key: key.to_owned(),
        value,
        offset,
    })
}

fn parse_value(key: &str, src: &str, offset: usize) -> Result<toml::Value, AttrError> {
    if src.is_empty() {
        return Err(AttrError {
            offset,
            message: format!("found nothing after `{key}=`; expected a value"),
        });
    }
    let toml_like = src.starts_with(['"', '\'', '[', '{'])
        || matches!(src, "true" | "false")
        || src.starts_with(|c: char| c.is_ascii_digit() || c == '+' || c == '-')
            && src.parse::<f64>().is_ok();
    if !toml_like {
        return Ok(toml::Value::String(src.to_owned()));
    }
    let doc = format!("v = {src}");
    match doc.parse::<toml::Table>() {
        Ok(mut table) => table.remove("v").ok_or_else(|| AttrError {
            offset,
            message: format!("found `{src}`; expected one value for `{key}`"),
        }),
        Err(e) => Err(AttrError {
            offset,
            message: format!(
                "found `{src}`, which is not a valid value for `{key}`: {}; expected a TOML value or a bare word",
                e.message()
            ),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn attrs(info: &str) -> Result<Vec<Attr>, AttrError> {
        let w = words(info)?;
        parse(info, &w)
    }

    fn flat(info: &str) -> Vec<(String, String)> {
        attrs(info)
            .unwrap()
            .into_iter()
            .map(|a| {
                (
                    a.key,
                    a.value.map(|v| v.to_string()).unwrap_or_else(|| "-".into()),
                )
            })
            .collect()
    }

    #[test]
    fn words_split_on_spaces_commas_and_tabs_outside_quotes() {
        let info = r#"rust,example title="a, b" tags=["x", "y"]	asm"#;
        let got: Vec<&str> = words(info).unwrap().into_iter().map(|r| &info[r]).collect();
        assert_eq!(
            got,
            [
                "rust",
                "example",
                r#"title="a, b""#,
                r#"tags=["x", "y"]"#,
                "asm"
            ]
        );
    }

    #[test]
    fn values_are_toml_or_bare_words() {
        let cases: &[(&str, &[(&str, &str)])] = &[
            (r#"title="Two words""#, &[("title", r#""Two words""#)]),
            ("title='single'", &[("title", r#""single""#)]),
            ("mode=release", &[("mode", r#""release""#)]),
            ("edition=2021", &[("edition", "2021")]),
            ("asm", &[("asm", "-")]),
            ("asm=false", &[("asm", "false")]),
            (
                r#"tags=["kernel", "ub"]"#,
                &[("tags", r#"["kernel", "ub"]"#)],
            ),
            ("hidelines=~", &[("hidelines", r#""~""#)]),
            ("error=E0381", &[("error", r#""E0381""#)]),
            (r#"a="x\"y",b"#, &[("a", r#"'x"y'"#), ("b", "-")]),
            ("über=ja", &[]),
        ];
        for (info, want) in cases {
            if want.is_empty() {
                assert!(attrs(info).is_err(), "{info} should fail");
                continue;
            }
            let want: Vec<(String, String)> = want
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            assert_eq!(flat(info), want, "{info}");
        }
    }

    #[test]
    fn offsets_point_at_each_attribute() {
        let info = r#"title="x"  asm, mode=debug"#;
        let offsets: Vec<usize> = attrs(info).unwrap().iter().map(|a| a.offset).collect();
        assert_eq!(offsets, [0, 11, 16]);
    }

    #[test]
    fn unterminated_quote_points_at_the_quote() {
        let err = attrs(r#"asm title="never closed"#).unwrap_err();
        assert_eq!(err.offset, 10);
        assert_eq!(
            err.message,
            "found an unterminated string; expected a closing `\"`"
        );
    }

    #[test]
    fn unclosed_bracket_is_an_error() {
        let err = attrs(r#"tags=["a", "b""#).unwrap_err();
        assert_eq!(err.offset, 5);
        assert!(err.message.contains("unclosed `[`"), "{}", err.message);
        let err = attrs("tags=]").unwrap_err();
        assert_eq!(err.offset, 5);
    }

    #[test]
    fn empty_value_and_bad_toml_are_errors() {
        let err = attrs("title=").unwrap_err();
        assert_eq!(
            (err.offset, err.message.as_str()),
            (6, "found nothing after `title=`; expected a value")
        );
        let err = attrs("tags=[1,,2]").unwrap_err();
        assert_eq!(err.offset, 5);
        assert!(err.message.starts_with("found `[1,,2]`"), "{}", err.message);
    }

    #[test]
    fn non_ascii_text_in_values_keeps_byte_offsets() {
        let info = r#"title="Ünïcödé ✓" asm"#;
        let a = attrs(info).unwrap();
        assert_eq!(a[0].value, Some(toml::Value::String("Ünïcödé ✓".into())));
        assert_eq!(&info[a[1].offset..], "asm");
    }
}
