//! Translation lookup: the one place where an author's string of a
//! directive (a title, a caption, a note, a card's text) meets the book's
//! gettext catalog (`po/LANG.po`, read by polib).
//!
//! mdbook-i18n-helpers turns Markdown into messages (normalised Markdown,
//! one per paragraph, list item or heading) and looks them up; our strings
//! are handed to `mdbook-xgettext` as such messages ([`heading`]), so
//! here the same library computes the same message ids, and a string is
//! found exactly when the translator's entry is the one extracted for it.
//! An entry that is untranslated or fuzzy falls back to the source text, as
//! `mdbook-gettext` does. Pure: the catalog is read by the book layer.

use crate::escape::escape_markdown;
use mdbook_i18n_helpers::{
    extract_events, extract_messages, reconstruct_markdown, translate_events,
};
use polib::catalog::Catalog;
use pulldown_cmark::{Event, Parser};
use std::borrow::Cow;

/// A book's catalog for one language.
pub struct Translations {
    /// The language (`fr`).
    pub language: String,
    /// The PO file as messages name it (`po/fr.po`).
    pub file: String,
    catalog: Catalog,
}

impl std::fmt::Debug for Translations {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Translations")
            .field("language", &self.language)
            .field("file", &self.file)
            .field("messages", &self.catalog.count())
            .finish()
    }
}

/// A plain string (a title, a caption) as the line `mdbook-xgettext`
/// extracts it from: a heading (one line, which needs no blank line
/// around it), its Markdown syntax escaped, so the message is the whole
/// string.
pub fn heading(text: &str) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    format!("# {}", escape_markdown(&one_line))
}

/// The plain text a translated message (Markdown) shows; raw HTML in it
/// stays text.
fn plain(markdown: &str) -> String {
    let mut s = String::with_capacity(markdown.len());
    // Read as the heading it was extracted from, so `1. Intro` stays text.
    let line = markdown.split_whitespace().collect::<Vec<_>>().join(" ");
    for event in Parser::new(&format!("# {line}")) {
        match event {
            // Raw HTML is kept as text: the caller escapes it.
            Event::Text(t) | Event::Code(t) | Event::InlineHtml(t) | Event::Html(t) => {
                s.push_str(&t)
            }
            Event::SoftBreak | Event::HardBreak => s.push(' '),
            _ => {}
        }
    }
    s.trim().to_owned()
}

impl Translations {
    /// A catalog read from `file`.
    pub fn new(language: String, file: String, catalog: Catalog) -> Translations {
        Translations {
            language,
            file,
            catalog,
        }
    }

    /// The translation of a message id, if the catalog has one that is
    /// translated and not fuzzy.
    fn find(&self, msgid: &str) -> Option<&str> {
        self.catalog
            .find_message(None, msgid, None)
            .filter(|m| !m.flags().is_fuzzy() && m.is_translated())
            .and_then(|m| m.msgstr().ok())
            .filter(|s| !s.trim().is_empty())
    }

    /// A plain string (title, caption, audience, talk and moment titles)
    /// in the catalog's language, else as written.
    pub fn text<'s>(&self, text: &'s str) -> Cow<'s, str> {
        let Ok(messages) = extract_messages(&heading(text)) else {
            return Cow::Borrowed(text);
        };
        match &messages[..] {
            [(_, only)] => match self.find(&only.message) {
                Some(msgstr) => Cow::Owned(plain(msgstr)),
                None => Cow::Borrowed(text),
            },
            _ => Cow::Borrowed(text),
        }
    }

    /// Markdown prose (a note, an abstract) in the catalog's language,
    /// message by message as `mdbook-gettext` translates a chapter; the
    /// text as written when no message of it is translated.
    pub fn markdown<'s>(&self, markdown: &'s str) -> Cow<'s, str> {
        let events = extract_events(markdown, None);
        let Ok(translated) = translate_events(&events, &self.catalog) else {
            return Cow::Borrowed(markdown);
        };
        if translated == events {
            return Cow::Borrowed(markdown);
        }
        match reconstruct_markdown(&translated, None) {
            Ok((text, _)) => Cow::Owned(text),
            Err(_) => Cow::Borrowed(markdown),
        }
    }
}

/// Checks that `text` is a PO file polib reads without surprise: every
/// line blank, a comment, a keyword (`msgid`, `msgstr`, …) followed by a
/// quoted string, or a quoted continuation. A fault is its line (1-based)
/// and what was found there.
pub fn check_po(text: &str) -> Result<(), (usize, String)> {
    const KEYWORDS: [&str; 4] = ["msgctxt", "msgid_plural", "msgid", "msgstr"];
    for (i, raw) in text.split('\n').enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let n = i + 1;
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let quoted = if line.starts_with('"') {
            line
        } else {
            let word = line.split([' ', '\t']).next().unwrap_or("");
            let base = word.split('[').next().unwrap_or(word);
            if !KEYWORDS.contains(&base)
                || (word != base && !(base == "msgstr" && is_index(&word[base.len()..])))
            {
                return Err((
                    n,
                    format!(
                        "found `{}`; expected msgctxt, msgid, msgid_plural, msgstr, a \"quoted\" continuation, a # comment or a blank line",
                        short(line)
                    ),
                ));
            }
            match line[word.len()..].strip_prefix(' ') {
                Some(rest) if rest.starts_with('"') => rest,
                _ => {
                    return Err((
                        n,
                        format!(
                            "found `{}`; expected `{word}` followed by one space and a \"quoted\" string",
                            short(line)
                        ),
                    ));
                }
            }
        };
        check_quoted(quoted).map_err(|m| (n, m))?;
    }
    // polib needs the header's fields (the entry of `msgid ""`).
    if let Some(header) = text.find("msgid \"\"") {
        let line = text[..header].matches('\n').count() + 1;
        let missing: Vec<&str> = HEADER
            .iter()
            .copied()
            .filter(|k| !text.contains(&format!("\"{k}:")))
            .collect();
        if !missing.is_empty() {
            return Err((
                line,
                format!(
                    "found a header without {}; expected the fields {}",
                    missing.join(", "),
                    HEADER.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

/// The header fields polib requires.
const HEADER: [&str; 8] = [
    "Project-Id-Version",
    "POT-Creation-Date",
    "PO-Revision-Date",
    "Language-Team",
    "MIME-Version",
    "Content-Type",
    "Content-Transfer-Encoding",
    "Language",
];

fn is_index(s: &str) -> bool {
    s.strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .is_some_and(|d| !d.is_empty() && d.len() == 1 && d.bytes().all(|b| b.is_ascii_digit()))
}

fn short(line: &str) -> String {
    let s: String = line.chars().take(40).collect();
    if s.len() < line.len() {
        format!("{s}…")
    } else {
        s
    }
}

/// One `"…"` string, with nothing after it and only PO escapes inside.
fn check_quoted(s: &str) -> Result<(), String> {
    let Some(inner) = s.strip_prefix('"') else {
        return Err(format!(
            "found `{}`; expected a \"quoted\" string",
            short(s)
        ));
    };
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('n' | 't' | 'r' | '"' | '\\' | 'a' | 'b' | 'f' | 'v') => {}
                Some(other) => {
                    return Err(format!(
                        "found the escape `\\{other}`; expected one of \\n \\t \\r \\\" \\\\"
                    ));
                }
                None => return Err("found an unterminated string; expected a closing `\"`".into()),
            },
            '"' => {
                let rest: String = chars.collect();
                return if rest.is_empty() {
                    Ok(())
                } else {
                    Err(format!(
                        "found `{}` after the closing quote; expected the end of the line",
                        short(rest.trim())
                    ))
                };
            }
            _ => {}
        }
    }
    Err("found an unterminated string; expected a closing `\"`".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use polib::message::Message;
    use polib::metadata::CatalogMetadata;

    fn translations(entries: &[(&str, &str, bool)]) -> Translations {
        let mut catalog = Catalog::new(CatalogMetadata::new());
        for (id, s, fuzzy) in entries {
            let mut flags = polib::message::MessageFlags::new();
            if *fuzzy {
                flags.add_flag("fuzzy");
            }
            catalog.append_or_update(
                Message::build_singular()
                    .with_msgid((*id).to_owned())
                    .with_msgstr((*s).to_owned())
                    .with_flags(flags)
                    .done(),
            );
        }
        Translations::new("fr".into(), "po/fr.po".into(), catalog)
    }

    #[test]
    fn plain_strings_are_found_and_fall_back() {
        let t = translations(&[
            ("Dividing by zero", "Diviser par zéro", false),
            ("Half done", "À moitié", true),
            ("Empty", "", false),
        ]);
        let id = &extract_messages(&heading("INT_MIN < 0")).unwrap()[0]
            .1
            .message;
        let t2 = translations(&[(id, "INT_MIN \\< 0 en *français*", false)]);
        assert_eq!(t.text("Dividing by zero"), "Diviser par zéro");
        assert_eq!(t.text("Half done"), "Half done", "fuzzy falls back");
        assert_eq!(t.text("Empty"), "Empty", "untranslated falls back");
        assert_eq!(t.text("Unknown"), "Unknown");
        assert_eq!(t2.text("INT_MIN < 0"), "INT_MIN < 0 en français");
    }

    #[test]
    fn headings_keep_the_whole_string_one_message() {
        for s in [
            "1. Intro",
            "- dash",
            "# hash",
            "a *b* [c](d)",
            "+ plus",
            "=== x",
        ] {
            let messages = extract_messages(&heading(s)).unwrap();
            assert_eq!(messages.len(), 1, "{s}: {messages:?}");
            assert_eq!(plain(&messages[0].1.message), s, "{s}");
        }
    }

    #[test]
    fn markdown_is_translated_message_by_message() {
        let t = translations(&[
            (
                "A _note_ about C, over two lines.",
                "Une _note_ sur C.",
                false,
            ),
            ("Second.", "Deuxième.", true),
        ]);
        assert_eq!(
            t.markdown("A *note* about C,\nover two lines.\n\nSecond."),
            "Une _note_ sur C.\n\nSecond."
        );
        let same = "Nothing *here*.";
        assert!(matches!(t.markdown(same), Cow::Borrowed(s) if s == same));
    }

    #[test]
    fn malformed_po_lines_are_located() {
        let header: String = HEADER.iter().map(|k| format!("\"{k}: x\\n\"\n")).collect();
        let good = format!(
            "# c\nmsgid \"\"\nmsgstr \"\"\n{header}\n#, fuzzy\nmsgid \"a\"\nmsgstr[0] \"b\"\n"
        );
        assert_eq!(check_po(&good), Ok(()));
        let (line, m) = check_po("\nmsgid \"\"\nmsgstr \"\"\n\"Language: fr\\n\"\n").unwrap_err();
        assert_eq!(line, 2);
        assert!(
            m.starts_with("found a header without Project-Id-Version, POT-Creation-Date"),
            "{m}"
        );
        for (text, line, msg) in [
            (
                "msgid \"a\"\nmsgstr \"b\n",
                2,
                "found an unterminated string",
            ),
            (
                "msgid \"a\"\nmsgstr b\n",
                2,
                "found `msgstr b`; expected `msgstr` followed by one space",
            ),
            (
                "msgid \"a\"\nmsgtsr \"b\"\n",
                2,
                "found `msgtsr \"b\"`; expected msgctxt",
            ),
            ("msgid \"a\" x\n", 1, "found `x` after the closing quote"),
            (
                "msgid  \"a\"\n",
                1,
                "found `msgid  \"a\"`; expected `msgid` followed by one space",
            ),
            ("\"\n", 1, "found an unterminated string"),
            ("msgid \"\\q\"\n", 1, "found the escape `\\q`"),
            (
                "msgid\n",
                1,
                "found `msgid`; expected `msgid` followed by one space",
            ),
        ] {
            let (l, m) = check_po(text).unwrap_err();
            assert_eq!(l, line, "{text}: {m}");
            assert!(m.starts_with(msg), "{text}: {m}");
        }
    }
}
