//! The reading list's data: entries as the TOML file (or a block's body)
//! writes them, checked and located, and the book's data file read once
//! per run.

use crate::contract::Env;
pub use crate::datafile::LoadError;
use crate::datafile::{DataFile, Spot};
use crate::note::render_note;
use mdbook_companion_core::config::{Config, DataKey};
use mdbook_companion_core::escape::check_url;
use mdbook_companion_core::markdown;
use mdbook_companion_core::problem::Fault;
use serde::Deserialize;
use std::sync::Arc;
use toml::Spanned;

/// The fields of an entry, for messages.
pub const FIELDS: &str =
    "id, title, url, authors, kind, access, audience, level, status, recommended, tags, note";

/// What sort of resource an entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EntryKind {
    /// A book.
    Book,
    /// A web site or article.
    Web,
    /// A video.
    Video,
    /// A paper.
    Paper,
    /// A talk.
    Talk,
    /// A tool, such as the Playground.
    Tool,
}

impl EntryKind {
    /// The values `kind` takes.
    pub const CHOICES: [(&'static str, EntryKind); 6] = [
        ("book", EntryKind::Book),
        ("web", EntryKind::Web),
        ("video", EntryKind::Video),
        ("paper", EntryKind::Paper),
        ("talk", EntryKind::Talk),
        ("tool", EntryKind::Tool),
    ];

    /// The value as the data writes it.
    pub fn name(self) -> &'static str {
        Self::CHOICES
            .iter()
            .find(|(_, k)| *k == self)
            .map_or("", |(n, _)| n)
    }

    fn badge(self) -> &'static str {
        match self {
            EntryKind::Book => "Book",
            EntryKind::Web => "Web",
            EntryKind::Video => "Video",
            EntryKind::Paper => "Paper",
            EntryKind::Talk => "Talk",
            EntryKind::Tool => "Tool",
        }
    }
}

/// Whether a resource costs money.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Access {
    /// Free to read or use.
    Free,
    /// Paid.
    Paid,
}

impl Access {
    /// The values `access` takes.
    pub const CHOICES: [(&'static str, Access); 2] =
        [("free", Access::Free), ("paid", Access::Paid)];
}

/// Who a resource is pitched at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// New to the subject.
    Beginner,
    /// Knows the basics.
    Intermediate,
    /// Knows the subject well.
    Advanced,
}

/// Whether a resource is finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Finished.
    Complete,
    /// Unfinished or partly out of date.
    Incomplete,
}

/// The data file (or a block body) as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawList {
    #[serde(default)]
    entry: Vec<RawEntry>,
}

/// One `[[entry]]` table as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    id: Option<Spanned<String>>,
    title: Spanned<String>,
    url: Spanned<String>,
    #[serde(default)]
    authors: Vec<String>,
    kind: Option<EntryKind>,
    access: Option<Access>,
    audience: Option<Spanned<String>>,
    level: Option<Level>,
    status: Option<Status>,
    #[serde(default)]
    recommended: bool,
    #[serde(default)]
    tags: Vec<String>,
    note: Option<Spanned<String>>,
}

/// A checked entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The id blocks select it by.
    pub id: Option<String>,
    /// The title.
    pub title: String,
    /// An http(s) address.
    pub url: String,
    /// The authors, as written.
    pub authors: Vec<String>,
    /// What sort of resource.
    pub kind: Option<EntryKind>,
    /// Free or paid.
    pub access: Option<Access>,
    /// Who it is for, as written.
    pub audience: Option<String>,
    /// Beginner, intermediate or advanced.
    pub level: Option<Level>,
    /// Complete or incomplete.
    pub status: Option<Status>,
    /// Recommended by the book.
    pub recommended: bool,
    /// Tags blocks select it by.
    pub tags: Vec<String>,
    /// The note rendered as HTML (one line, raw HTML escaped).
    pub note_html: Option<String>,
    /// The note as Markdown for other renderers (one line, raw HTML escaped).
    pub note_markdown: Option<String>,
    /// Where `audience` was written (for translators).
    pub audience_at: Option<Spot>,
    /// The note as written, and where (what is translated).
    pub note_source: Option<(String, Spot)>,
}

impl Entry {
    /// The badges, as words, in display order.
    pub fn badges(&self) -> Vec<(&'static str, &'static str)> {
        let mut b = Vec::new();
        match self.access {
            Some(Access::Free) => b.push(("free", "Free")),
            Some(Access::Paid) => b.push(("paid", "Paid")),
            None => {}
        }
        if self.recommended {
            b.push(("recommended", "Recommended"));
        }
        if self.status == Some(Status::Incomplete) {
            b.push(("incomplete", "Incomplete"));
        }
        match self.level {
            Some(Level::Beginner) => b.push(("beginner", "Beginner")),
            Some(Level::Intermediate) => b.push(("intermediate", "Intermediate")),
            Some(Level::Advanced) => b.push(("advanced", "Advanced")),
            None => {}
        }
        if let Some(k) = self.kind {
            b.push((k.name(), k.badge()));
        }
        b
    }
}

/// Parses and checks reading-list TOML: `[[entry]]` tables.
pub fn parse_entries(text: &str) -> Result<Vec<Entry>, Fault> {
    let raw: RawList = toml::from_str(text).map_err(|e| {
        let offset = e.span().map_or(0, |s| s.start);
        Fault::at(offset, toml_message(e.message()))
    })?;
    let mut entries: Vec<Entry> = Vec::with_capacity(raw.entry.len());
    let mut ids: Vec<(String, usize)> = Vec::new();
    for e in raw.entry {
        let id = match e.id {
            Some(id) => {
                let at = id.span().start;
                let id = id.into_inner();
                if id.trim().is_empty() || id.chars().any(char::is_whitespace) {
                    return Err(Fault::at(
                        at,
                        format!("found id `{id}`; expected a word without spaces, such as `trpl`"),
                    ));
                }
                if let Some((_, first)) = ids.iter().find(|(known, _)| *known == id) {
                    let (line, _) = markdown::line_col(text, *first);
                    return Err(Fault::at(
                        at,
                        format!(
                            "found id `{id}` a second time (first on line {line}); expected each id once"
                        ),
                    ));
                }
                ids.push((id.clone(), at));
                Some(id)
            }
            None => None,
        };
        if e.title.get_ref().trim().is_empty() {
            return Err(Fault::at(
                e.title.span().start,
                "found an empty title; expected the resource's title",
            ));
        }
        check_url(e.url.get_ref()).map_err(|m| Fault::at(e.url.span().start, m))?;
        let (note_html, note_markdown, note_source) = match e.note {
            Some(note) => {
                let at = note.span().start;
                let (html, md) = render_note(note.get_ref()).map_err(|m| Fault::at(at, m))?;
                (
                    Some(html),
                    Some(md),
                    Some((note.into_inner(), Spot::new(text, at))),
                )
            }
            None => (None, None, None),
        };
        let audience_at = e.audience.as_ref().map(|a| Spot::new(text, a.span().start));
        entries.push(Entry {
            id,
            title: e.title.into_inner(),
            url: e.url.into_inner(),
            authors: e.authors,
            kind: e.kind,
            access: e.access,
            audience: e.audience.map(Spanned::into_inner),
            level: e.level,
            status: e.status,
            recommended: e.recommended,
            tags: e.tags,
            note_html,
            note_markdown,
            audience_at,
            note_source,
        });
    }
    Ok(entries)
}

/// Rephrases a toml/serde message as "found …; expected …".
fn toml_message(msg: &str) -> String {
    let msg = msg.trim();
    let split = |prefix: &str| {
        msg.strip_prefix(prefix)
            .and_then(|rest| rest.split_once(", expected "))
            .map(|(what, exp)| (what.trim().to_owned(), exp.replace('`', "")))
    };
    if let Some((what, exp)) = split("unknown field ") {
        let exp = if exp == "entry" {
            "[[entry]] tables".to_owned()
        } else {
            format!("one of {FIELDS}")
        };
        return format!("found unknown field {what}; expected {exp}");
    }
    if let Some((what, exp)) = split("unknown variant ") {
        return format!("found unknown value {what}; expected {exp}");
    }
    if let Some((what, exp)) = split("invalid type: ") {
        let exp = exp.replace("a sequence", "an array");
        return format!("found {what}; expected {exp}");
    }
    if let Some(field) = msg
        .strip_prefix("missing field `")
        .and_then(|r| r.strip_suffix('`'))
    {
        return format!(
            "found an [[entry]] without `{field}`; expected `{field}` in every entry (required: title, url)"
        );
    }
    format!("found invalid TOML ({msg}); expected [[entry]] tables of fields {FIELDS}")
}

/// The book's data file, read and checked at most once per run and shared
/// by every chapter (chapters are processed in parallel).
pub fn entries(env: &Env<'_>) -> Result<Arc<Vec<Entry>>, LoadError> {
    env.shared.data.get_or_load(DATA.key, || {
        file(env.config).load(env.config, |text| parse_entries(text).map(Arc::new))
    })
}

/// The reading list's key and default file.
pub const DATA: DataKey = DataKey {
    key: "reading-list",
    default: "reading-list.toml",
};

/// The reading list's data file.
pub fn file(config: &Config) -> DataFile<'_> {
    DataFile {
        key: DATA.key,
        rel: config.data_file(&DATA),
        tables: "[[entry]]",
        what: "reading-list data file",
    }
}
