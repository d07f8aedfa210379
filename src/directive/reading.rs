//! Reading-list cards: ```` ```reading-list tags=["kernel"] ````.
//!
//! A book keeps its resources (books, sites, talks, tools) in one TOML data
//! file of `[[entry]]` tables, `reading-list.toml` beside `SUMMARY.md` by
//! default; a block selects some of them by tag, id, kind or access, or
//! lists the `[[entry]]` tables written in its own body. The data is parsed
//! with serde (`deny_unknown_fields`), so a misspelt field, a wrong type or
//! a bad value is an error located by line and column in the file it came
//! from; the checks serde cannot make (http(s) URLs, unique ids, safe links
//! in notes) are located through [`toml::Spanned`] fields. The data file is
//! read once per run ([`DataCache`]), however many chapters ask for it.
//!
//! On an HTML page each entry is an `<article>` card; other renderers get a
//! Markdown list, and `mdbook test` gets nothing.

use super::{Attrs, Env, FileLocation, Problem, Rendered, Target, escape, escape_markdown};
use crate::attrs::Attr;
use crate::config::Config;
use crate::markdown::{self, Block, Fence, Kind};
use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};
use serde::Deserialize;
use std::ops::Range;
use std::path::Component;
#[cfg(test)]
use std::path::Path;
use std::sync::{Arc, OnceLock};
use toml::Spanned;

/// The attributes a reading list knows, for messages.
pub const KNOWN: &str = "tags, ids, kind, access, sort, title";

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
    const CHOICES: [(&'static str, EntryKind); 6] = [
        ("book", EntryKind::Book),
        ("web", EntryKind::Web),
        ("video", EntryKind::Video),
        ("paper", EntryKind::Paper),
        ("talk", EntryKind::Talk),
        ("tool", EntryKind::Tool),
    ];

    fn name(self) -> &'static str {
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
    const CHOICES: [(&'static str, Access); 2] = [("free", Access::Free), ("paid", Access::Paid)];
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
    audience: Option<String>,
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

/// A problem at a byte offset of the TOML text it was found in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    /// Byte offset in the TOML text.
    pub offset: usize,
    /// What was found and what was expected.
    pub message: String,
}

impl Fault {
    fn at(offset: usize, message: impl Into<String>) -> Fault {
        Fault {
            offset,
            message: message.into(),
        }
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
        let (note_html, note_markdown) = match e.note {
            Some(note) => {
                let at = note.span().start;
                let (html, md) = render_note(note.get_ref()).map_err(|m| Fault::at(at, m))?;
                (Some(html), Some(md))
            }
            None => (None, None),
        };
        entries.push(Entry {
            id,
            title: e.title.into_inner(),
            url: e.url.into_inner(),
            authors: e.authors,
            kind: e.kind,
            access: e.access,
            audience: e.audience,
            level: e.level,
            status: e.status,
            recommended: e.recommended,
            tags: e.tags,
            note_html,
            note_markdown,
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

/// Accepts only absolute http(s) URLs without spaces or control characters.
fn check_url(url: &str) -> Result<(), String> {
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

/// A link target allowed in a note: http(s), or relative (`../x.md`,
/// `#part`). Anything with another scheme (`javascript:`, `data:`) is not.
pub(crate) fn note_link_ok(dest: &str) -> bool {
    let lower = dest.trim().to_ascii_lowercase();
    if lower.starts_with("http://") || lower.starts_with("https://") {
        return true;
    }
    let end = lower.find(['/', '?', '#']).unwrap_or(lower.len());
    !lower[..end].contains(':')
}

/// Renders a note as one line of HTML and one line of Markdown. Raw HTML
/// is shown as text in both; block structure (headings, code blocks) is
/// flattened to paragraphs and code spans, so nothing in a note reaches
/// the page outline; links must be http(s) or relative.
fn render_note(note: &str) -> Result<(String, String), String> {
    let options = Options::ENABLE_STRIKETHROUGH;
    let mut events = Vec::new();
    let mut raw_html: Vec<Range<usize>> = Vec::new();
    let mut in_code_block = false;
    for (event, range) in Parser::new_ext(note, options).into_offset_iter() {
        let event = match event {
            Event::Start(Tag::Link { ref dest_url, .. } | Tag::Image { ref dest_url, .. })
                if !note_link_ok(dest_url) =>
            {
                return Err(format!(
                    "found a link to `{dest_url}` in the note; expected an http(s) or relative link"
                ));
            }
            Event::Html(s) | Event::InlineHtml(s) => {
                raw_html.push(range);
                Event::Text(s)
            }
            Event::Start(Tag::Heading { .. }) => Event::Start(Tag::Paragraph),
            Event::End(TagEnd::Heading(_)) => Event::End(TagEnd::Paragraph),
            Event::Start(Tag::CodeBlock(_)) => {
                in_code_block = true;
                Event::Start(Tag::Paragraph)
            }
            Event::End(TagEnd::CodeBlock) => {
                in_code_block = false;
                Event::End(TagEnd::Paragraph)
            }
            Event::Start(Tag::HtmlBlock) | Event::End(TagEnd::HtmlBlock) => continue,
            Event::Text(t) if in_code_block => {
                Event::Code(CowStr::from(t.trim_end_matches('\n').replace('\n', " ")))
            }
            e => e,
        };
        events.push(event);
    }
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, events.into_iter());
    let html = one_line(&html);
    // Markdown: the note as written, raw HTML escaped, on one line.
    let mut md = String::with_capacity(note.len());
    let mut at = 0;
    for r in raw_html {
        if r.start < at {
            continue;
        }
        md.push_str(&note[at..r.start]);
        md.push_str(&escape_markdown(&note[r.clone()]));
        at = r.end;
    }
    md.push_str(&note[at..]);
    Ok((html, one_line(&md)))
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The data file, read and checked at most once per run and shared by
/// every chapter (chapters are processed in parallel). Lives in
/// [`Config`], which is made afresh for each run.
#[derive(Debug, Clone, Default)]
pub struct DataCache(Arc<OnceLock<Result<Arc<Vec<Entry>>, LoadError>>>);

/// Why the data file could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
enum LoadError {
    /// The file is missing, unreadable or outside the book: told at the
    /// block that asked.
    AtBlock(String),
    /// The file's content is wrong at a place in it.
    InFile(FileLocation, String),
}

/// The data file's path as shown in messages: `src/reading-list.toml`.
fn display_path(config: &Config) -> String {
    config
        .src
        .join(&config.reading_list)
        .to_string_lossy()
        .replace('\\', "/")
}

fn load(config: &Config) -> Result<Arc<Vec<Entry>>, LoadError> {
    let shown = display_path(config);
    let rel = &config.reading_list;
    if rel.as_os_str().is_empty()
        || rel
            .components()
            .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Err(LoadError::AtBlock(format!(
            "found `reading-list = \"{}\"` in book.toml; expected a path inside the book's source directory, without `..`",
            rel.display()
        )));
    }
    let src_dir = config.root.join(&config.src);
    let path = src_dir.join(rel);
    let missing = |e: std::io::Error| {
        LoadError::AtBlock(format!(
            "found no readable reading-list data file at {shown} ({e}); expected a TOML file of [[entry]] tables there, or a `reading-list` path in [preprocessor.companion] of book.toml, or [[entry]] tables in this block's body"
        ))
    };
    let real = path.canonicalize().map_err(missing)?;
    let real_src = src_dir.canonicalize().map_err(missing)?;
    if !real.starts_with(&real_src) {
        return Err(LoadError::AtBlock(format!(
            "found {shown} pointing outside the book's source directory (to {}); expected the data file inside it",
            real.display()
        )));
    }
    let text = std::fs::read_to_string(&real).map_err(missing)?;
    parse_entries(&text).map(Arc::new).map_err(|f| {
        let (line, column) = markdown::line_col(&text, f.offset);
        LoadError::InFile(
            FileLocation {
                path: shown,
                line,
                column,
            },
            f.message,
        )
    })
}

impl DataCache {
    fn get(&self, config: &Config) -> Result<Arc<Vec<Entry>>, LoadError> {
        self.0.get_or_init(|| load(config)).clone()
    }
}

/// How the selected entries are ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sort {
    /// The order of the data (or the order of `ids`).
    File,
    /// By title, ignoring case.
    Title,
}

/// A block's selection and caption.
#[derive(Debug, Clone, PartialEq)]
pub struct Selection {
    /// Keep entries with at least one of these tags.
    pub tags: Vec<String>,
    /// Keep exactly these entries, in this order.
    pub ids: Option<Vec<String>>,
    /// Keep entries of one of these kinds.
    pub kinds: Vec<EntryKind>,
    /// Keep entries with this access.
    pub access: Option<Access>,
    /// The order.
    pub sort: Sort,
    /// A caption above the cards.
    pub title: Option<String>,
}

/// The attribute holding each filter, to locate "selects nothing" errors.
struct Where<'a> {
    ids: Option<&'a Attr>,
}

/// One string or an array of strings.
fn strings(a: &Attrs<'_>, attr: &Attr) -> Result<Vec<String>, Problem> {
    let bad = || {
        a.problem(
            attr,
            format!(
                "found {} for `{}`; expected a string or an array of strings, such as {}=[\"a\", \"b\"]",
                attr.type_name(),
                attr.key,
                attr.key
            ),
        )
    };
    match &attr.value {
        Some(toml::Value::String(s)) => Ok(vec![s.clone()]),
        Some(toml::Value::Array(items)) if !items.is_empty() => items
            .iter()
            .map(|v| v.as_str().map(str::to_owned).ok_or_else(bad))
            .collect(),
        _ => Err(bad()),
    }
}

impl Selection {
    fn parse<'f>(fence: &'f Fence, attrs: &'f [Attr]) -> Result<(Selection, Where<'f>), Problem> {
        let mut sel = Selection {
            tags: Vec::new(),
            ids: None,
            kinds: Vec::new(),
            access: None,
            sort: Sort::File,
            title: None,
        };
        let mut wh = Where { ids: None };
        let mut a = Attrs::new(fence);
        for attr in attrs {
            let key = attr.key.as_str();
            match key {
                "tags" => {
                    a.once(attr, key)?;
                    sel.tags = strings(&a, attr)?;
                }
                "ids" => {
                    a.once(attr, key)?;
                    sel.ids = Some(strings(&a, attr)?);
                    wh.ids = Some(attr);
                }
                "kind" => {
                    a.once(attr, key)?;
                    for k in strings(&a, attr)? {
                        let one = Attr {
                            key: attr.key.clone(),
                            value: Some(toml::Value::String(k)),
                            offset: attr.offset,
                        };
                        sel.kinds.push(a.choice(&one, &EntryKind::CHOICES)?);
                    }
                }
                "access" => {
                    a.once(attr, key)?;
                    sel.access = Some(a.choice(attr, &Access::CHOICES)?);
                }
                "sort" => {
                    a.once(attr, key)?;
                    sel.sort = a.choice(attr, &[("file", Sort::File), ("title", Sort::Title)])?;
                }
                "title" => {
                    a.once(attr, key)?;
                    sel.title = Some(a.string(attr)?);
                }
                _ => {
                    return Err(a.problem(
                        attr,
                        format!("found unknown attribute `{key}`; expected one of {KNOWN}"),
                    ));
                }
            }
        }
        Ok((sel, wh))
    }

    fn filtered(&self) -> bool {
        !self.tags.is_empty()
            || self.ids.is_some()
            || !self.kinds.is_empty()
            || self.access.is_some()
    }

    fn describe(&self) -> String {
        let mut parts = Vec::new();
        if !self.tags.is_empty() {
            parts.push(format!("tags={:?}", self.tags));
        }
        if let Some(ids) = &self.ids {
            parts.push(format!("ids={ids:?}"));
        }
        if !self.kinds.is_empty() {
            let k: Vec<&str> = self.kinds.iter().map(|k| k.name()).collect();
            parts.push(format!("kind={k:?}"));
        }
        if let Some(a) = self.access {
            parts.push(format!(
                "access=\"{}\"",
                if a == Access::Free { "free" } else { "paid" }
            ));
        }
        parts.join(" ")
    }

    /// The selected entries, in order. An unknown id or an empty result is
    /// an error: `Err((true, message))` belongs at the `ids` attribute,
    /// `Err((false, message))` at the block.
    ///
    /// `from` names where the entries came from, for messages.
    pub fn select<'e>(
        &self,
        entries: &'e [Entry],
        from: &str,
    ) -> Result<Vec<&'e Entry>, (bool, String)> {
        let keep = |e: &Entry| {
            (self.tags.is_empty() || e.tags.iter().any(|t| self.tags.contains(t)))
                && (self.kinds.is_empty() || e.kind.is_some_and(|k| self.kinds.contains(&k)))
                && (self.access.is_none() || e.access == self.access)
        };
        let mut out: Vec<&Entry> = match &self.ids {
            Some(ids) => {
                let mut v = Vec::with_capacity(ids.len());
                for (i, id) in ids.iter().enumerate() {
                    if ids[..i].contains(id) {
                        return Err((
                            true,
                            format!("found id `{id}` twice in `ids`; expected each id once"),
                        ));
                    }
                    match entries.iter().find(|e| e.id.as_deref() == Some(id)) {
                        Some(e) => v.push(e),
                        None => {
                            let known: Vec<&str> =
                                entries.iter().filter_map(|e| e.id.as_deref()).collect();
                            let known = if known.is_empty() {
                                "none (no entry has an `id`)".to_owned()
                            } else {
                                known.join(", ")
                            };
                            return Err((
                                true,
                                format!("found unknown id `{id}`; expected one of {known}"),
                            ));
                        }
                    }
                }
                v.into_iter().filter(|e| keep(e)).collect()
            }
            None => entries.iter().filter(|e| keep(e)).collect(),
        };
        if out.is_empty() {
            let message = if self.filtered() {
                let mut tags: Vec<&str> = entries
                    .iter()
                    .flat_map(|e| e.tags.iter().map(String::as_str))
                    .collect();
                tags.sort_unstable();
                tags.dedup();
                format!(
                    "found no entry matching {} among {} entries of {from}; expected a filter that selects at least one (tags in use: {})",
                    self.describe(),
                    entries.len(),
                    if tags.is_empty() {
                        "none".to_owned()
                    } else {
                        tags.join(", ")
                    }
                )
            } else {
                format!("found no [[entry]] tables in {from}; expected at least one entry")
            };
            return Err((false, message));
        }
        if self.sort == Sort::Title {
            out.sort_by_cached_key(|e| e.title.to_lowercase());
        }
        Ok(out)
    }
}

/// Maps a byte offset of a fence body to the chapter.
fn body_offset_in_chapter(text: &str, fence: &Fence, offset: usize) -> usize {
    let body = &fence.body;
    let before = body.get(..offset).unwrap_or(body);
    let offset = before.len();
    let line = before.matches('\n').count();
    let line_start_in_body = before.rfind('\n').map_or(0, |i| i + 1);
    let body_line_end = body[line_start_in_body..]
        .find('\n')
        .map_or(body.len(), |i| line_start_in_body + i);
    let body_line_len = body_line_end - line_start_in_body;
    let start = markdown::body_line_offset(text, fence.body_offset, line);
    let chapter_line = text[start..].split('\n').next().unwrap_or("");
    let chapter_line = chapter_line.strip_suffix('\r').unwrap_or(chapter_line);
    // The body line is the end of the chapter line, after any container
    // prefix (list indentation, `> `).
    let prefix = chapter_line.len().saturating_sub(body_line_len);
    (start + prefix + offset - line_start_in_body).min(text.len())
}

/// Renders the cards for `entries`.
pub fn render_entries(sel: &Selection, entries: &[&Entry], target: Target) -> Rendered {
    let mut r = Rendered::default();
    let out = &mut r.out;
    match target {
        Target::Test => {}
        Target::Html => {
            out.line("<div class=\"companion-reading-list\">");
            if let Some(t) = &sel.title {
                out.line(format!(
                    "<p class=\"companion-reading-list-title\">{}</p>",
                    escape(t)
                ));
            }
            out.line("<div class=\"companion-cards\">");
            for e in entries {
                let mut classes = String::from("companion-card");
                if e.recommended {
                    classes.push_str(" companion-card-recommended");
                }
                if e.status == Some(Status::Incomplete) {
                    classes.push_str(" companion-card-incomplete");
                }
                out.line(format!("<article class=\"{classes}\">"));
                out.line(format!(
                    "<p class=\"companion-card-title\"><a class=\"companion-card-link\" href=\"{}\">{}</a></p>",
                    escape(&e.url),
                    escape(&e.title)
                ));
                if !e.authors.is_empty() {
                    let names: Vec<String> = e.authors.iter().map(|a| escape(a)).collect();
                    out.line(format!(
                        "<p class=\"companion-card-authors\">{}</p>",
                        names.join(", ")
                    ));
                }
                let badges = e.badges();
                if !badges.is_empty() {
                    let items: Vec<String> = badges
                        .iter()
                        .map(|(class, word)| {
                            format!(
                                "<li class=\"companion-badge companion-badge-{class}\">{word}</li>"
                            )
                        })
                        .collect();
                    out.line(format!(
                        "<ul class=\"companion-badges\" aria-label=\"Properties\">{}</ul>",
                        items.join("")
                    ));
                }
                if let Some(a) = &e.audience {
                    out.line(format!(
                        "<p class=\"companion-card-audience\"><span class=\"companion-card-label\">Audience:</span> {}</p>",
                        escape(a)
                    ));
                }
                if let Some(note) = &e.note_html {
                    out.line(format!("<div class=\"companion-card-note\">{note}</div>"));
                }
                out.line("</article>");
            }
            out.line("</div>");
            out.line("</div>");
        }
        Target::Markdown => {
            if let Some(t) = &sel.title {
                out.line(format!("**{}**", escape_markdown(t))).blank();
            }
            for e in entries {
                let mut parts = vec![format!("[{}](<{}>)", escape_markdown(&e.title), e.url)];
                if !e.authors.is_empty() {
                    let names: Vec<String> = e.authors.iter().map(|a| escape_markdown(a)).collect();
                    parts.push(names.join(", "));
                }
                let badges: Vec<&str> = e.badges().into_iter().map(|(_, w)| w).collect();
                if !badges.is_empty() {
                    parts.push(format!("*{}*", badges.join(" · ")));
                }
                if let Some(a) = &e.audience {
                    parts.push(format!("for {}", escape_markdown(a)));
                }
                if let Some(n) = &e.note_markdown {
                    parts.push(n.clone());
                }
                out.line(format!("- {}", parts.join(" — ")));
            }
        }
    }
    r
}

/// Parses and renders a reading-list block.
pub fn render(block: &Block, env: &Env<'_>) -> Result<Rendered, Problem> {
    let fence = &block.fence;
    let attrs =
        markdown::attributes(fence, Kind::ReadingList).map_err(|e| Problem::from_attr(fence, e))?;
    let (sel, wh) = Selection::parse(fence, &attrs)?;
    let at = fence.info_offset;
    let inline = !fence.body.trim().is_empty();
    let entries: Arc<Vec<Entry>> = if !inline {
        env.config
            .reading_data
            .get(env.config)
            .map_err(|e| match e {
                LoadError::AtBlock(m) => Problem::at(at, m),
                LoadError::InFile(loc, m) => Problem::in_file(at, loc, m),
            })?
    } else {
        Arc::new(parse_entries(&fence.body).map_err(|f| {
            Problem::at(body_offset_in_chapter(env.text, fence, f.offset), f.message)
        })?)
    };
    let from = if inline {
        "this block's body".to_owned()
    } else {
        display_path(env.config)
    };
    let selected = sel
        .select(&entries, &from)
        .map_err(|(on_ids, m)| match wh.ids {
            Some(attr) if on_ids => Problem::at(fence.info_offset + attr.offset, m),
            _ => Problem::at(at, m),
        })?;
    Ok(render_entries(&sel, &selected, env.target))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::markdown::scan;
    use pretty_assertions::assert_eq;
    use serde_json::json;

    const SAMPLE: &str = include_str!("../../tests/testsuite/reading-list.toml");

    const ENTRY: &str = "[[entry]]\ntitle = \"T\"\nurl = \"https://example.org/\"\n";

    fn config_at(root: &Path, table: serde_json::Value) -> Config {
        Config::from_json(
            root.to_path_buf(),
            &json!({"book": {"src": "src"}, "preprocessor": {"companion": table}}),
        )
        .unwrap()
    }

    fn config() -> Config {
        config_at(Path::new("/nonexistent-book"), json!({}))
    }

    /// A book directory holding `src/reading-list.toml`.
    fn book_with(data: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/reading-list.toml"), data).unwrap();
        dir
    }

    fn render_with(cfg: &Config, text: &str, target: Target) -> Result<String, Problem> {
        let block = scan(text).into_iter().next().expect("a block");
        let cache = crate::cache::Cache::disabled();
        let env = Env {
            config: cfg,
            target,
            text,
            file: "src/intro.md",
            cache: &cache,
        };
        render(&block, &env).map(|r| r.out.lines().join("\n"))
    }

    /// Renders the first block of `text` against the sample data.
    fn sample_render(text: &str, target: Target) -> Result<String, Problem> {
        let dir = book_with(SAMPLE);
        render_with(&config_at(dir.path(), json!({})), text, target)
    }

    fn titles(html: &str) -> Vec<String> {
        html.lines()
            .filter_map(|l| l.strip_prefix("<p class=\"companion-card-title\">"))
            .map(|l| {
                let start = l.find("\">").unwrap() + 2;
                l[start..l.find("</a>").unwrap()].to_owned()
            })
            .collect()
    }

    #[test]
    fn sample_data_parses_into_entries() {
        let entries = parse_entries(SAMPLE).unwrap();
        assert_eq!(entries.len(), 7);
        let trpl = &entries[0];
        assert_eq!(trpl.id.as_deref(), Some("trpl"));
        assert_eq!(trpl.title, "The Rust Programming Language");
        assert_eq!(trpl.authors, ["Steve Klabnik", "Carol Nichols"]);
        assert_eq!(
            trpl.badges(),
            [
                ("free", "Free"),
                ("recommended", "Recommended"),
                ("beginner", "Beginner"),
                ("book", "Book")
            ]
        );
        assert_eq!(
            trpl.note_html.as_deref(),
            Some(
                "<p>The definitive introduction. Kernel developers can skip parts, such as most of the <em>concurrency</em> chapters.</p>"
            )
        );
        let nomicon = &entries[3];
        assert_eq!(
            nomicon.badges(),
            [
                ("free", "Free"),
                ("incomplete", "Incomplete"),
                ("advanced", "Advanced"),
                ("book", "Book")
            ]
        );
        assert_eq!(entries[1].access, Some(Access::Paid));
        assert_eq!(entries[6].kind, Some(EntryKind::Tool));
        // Optional fields may all be left out.
        let minimal = parse_entries(ENTRY).unwrap();
        assert_eq!(minimal[0].badges(), []);
        assert_eq!(minimal[0].note_html, None);
    }

    #[test]
    fn validation_errors_are_located_and_name_what_was_expected() {
        let cases: &[(&str, (usize, usize), &str)] = &[
            (
                "[[entry]]\ntitle = \"T\"\nurl = \"https://x.org\"\nautor = \"me\"\n",
                (4, 1),
                "found unknown field `autor`; expected one of id, title, url, authors, kind, access, audience, level, status, recommended, tags, note",
            ),
            (
                "[[entries]]\ntitle = \"T\"\n",
                (1, 3),
                "found unknown field `entries`; expected [[entry]] tables",
            ),
            (
                "[[entry]]\nurl = \"https://x.org\"\n",
                (1, 1),
                "found an [[entry]] without `title`; expected `title` in every entry (required: title, url)",
            ),
            (
                "[[entry]]\ntitle = \"A\"\nurl = \"https://x.org\"\n\n[[entry]]\ntitle = \"B\"\n",
                (5, 1),
                "found an [[entry]] without `url`; expected `url` in every entry",
            ),
            (
                "[[entry]]\ntitle = 3\nurl = \"https://x.org\"\n",
                (2, 9),
                "found integer `3`; expected a string",
            ),
            (
                "[[entry]]\ntitle = \"T\"\nurl = \"https://x.org\"\nauthors = \"Me\"\n",
                (4, 11),
                "found string \"Me\"; expected an array",
            ),
            (
                "[[entry]]\ntitle = \"T\"\nurl = \"https://x.org\"\nrecommended = \"yes\"\n",
                (4, 15),
                "found string \"yes\"; expected a boolean",
            ),
            (
                "[[entry]]\ntitle = \"T\"\nurl = \"https://x.org\"\ntags = [\"a\", 2]\n",
                (4, 14),
                "found integer `2`; expected a string",
            ),
            (
                "[[entry]]\ntitle = \"T\"\nurl = \"https://x.org\"\nkind = \"bok\"\n",
                (4, 8),
                "found unknown value `bok`; expected one of book, web, video, paper, talk, tool",
            ),
            (
                "[[entry]]\ntitle = \"T\"\nurl = \"https://x.org\"\naccess = \"cheap\"\n",
                (4, 10),
                "found unknown value `cheap`; expected free or paid",
            ),
            (
                "[[entry]]\ntitle = \"T\"\nurl = \"https://x.org\"\nlevel = \"expert\"\n",
                (4, 9),
                "found unknown value `expert`; expected one of beginner, intermediate, advanced",
            ),
            (
                "[[entry]]\ntitle = \"T\"\nurl = \"https://x.org\"\nstatus = \"done\"\n",
                (4, 10),
                "found unknown value `done`; expected complete or incomplete",
            ),
            (
                "[[entry]]\nid = \"a\"\ntitle = \"A\"\nurl = \"https://x.org\"\n\n[[entry]]\nid = \"a\"\ntitle = \"B\"\nurl = \"https://y.org\"\n",
                (7, 6),
                "found id `a` a second time (first on line 2); expected each id once",
            ),
            (
                "[[entry]]\nid = \"two words\"\ntitle = \"T\"\nurl = \"https://x.org\"\n",
                (2, 6),
                "found id `two words`; expected a word without spaces",
            ),
            (
                "[[entry]]\ntitle = \"T\"\nurl = \"javascript:alert(1)\"\n",
                (3, 7),
                "found url `javascript:alert(1)`; expected an http:// or https:// address",
            ),
            (
                "[[entry]]\ntitle = \"T\"\nurl = \"ftp://x.org/\"\n",
                (3, 7),
                "found url `ftp://x.org/`; expected an http:// or https:// address",
            ),
            (
                "[[entry]]\ntitle = \"T\"\nurl = \"https://x.org/a b\"\n",
                (3, 7),
                "found a space, quote or angle bracket in url `https://x.org/a b`; expected them percent-encoded",
            ),
            (
                "[[entry]]\ntitle = \" \"\nurl = \"https://x.org\"\n",
                (2, 9),
                "found an empty title; expected the resource's title",
            ),
            (
                "[[entry]]\ntitle = \"T\"\nurl = \"https://x.org\"\nnote = \"see [this](javascript:alert(1))\"\n",
                (4, 8),
                "found a link to `javascript:alert(1)` in the note; expected an http(s) or relative link",
            ),
            (
                "[[entry]]\ntitle = \"T\nurl = \"https://x.org\"\n",
                (2, 11),
                "found invalid TOML (",
            ),
        ];
        for (text, (line, col), msg) in cases {
            let f = parse_entries(text).unwrap_err();
            assert!(f.message.starts_with(msg), "{text}\ngot: {}", f.message);
            assert_eq!(
                markdown::line_col(text, f.offset),
                (*line, *col),
                "{text}\n{}",
                f.message
            );
        }
    }

    #[test]
    fn notes_render_inline_markdown_and_show_raw_html_as_text() {
        let (html, md) = render_note(
            "*Read* `unsafe` [docs](https://x.org/) and <script>alert(1)</script>\nmore.",
        )
        .unwrap();
        assert_eq!(
            html,
            "<p><em>Read</em> <code>unsafe</code> <a href=\"https://x.org/\">docs</a> and &lt;script&gt;alert(1)&lt;/script&gt; more.</p>"
        );
        assert_eq!(
            md,
            r"*Read* `unsafe` [docs](https://x.org/) and \<script\>alert(1)\</script\> more."
        );
        // Block HTML, headings and code blocks are flattened, never raw.
        let (html, _) = render_note("<div onclick=\"x\">hi</div>\n\n# Big\n\n    code\n").unwrap();
        assert_eq!(
            html,
            "&lt;div onclick=\"x\"&gt;hi&lt;/div&gt; <p>Big</p> <p><code>code</code></p>"
        );
        assert!(!html.contains("<div") && !html.contains("<h1"), "{html}");
    }

    #[test]
    fn note_links_must_be_http_or_relative() {
        for (dest, ok) in [
            ("https://x.org/", true),
            ("HTTP://x.org/", true),
            ("../ch1.md#part", true),
            ("#part", true),
            ("page.html?a=b:c", true),
            ("javascript:alert(1)", false),
            (" JavaScript:alert(1)", false),
            ("data:text/html,x", false),
            ("vbscript:x", false),
            ("mailto:a@b.org", false),
        ] {
            assert_eq!(note_link_ok(dest), ok, "{dest}");
        }
        assert!(render_note("![x](javascript:alert(1))").is_err());
        assert!(render_note("<javascript:alert(1)>").is_err());
    }

    #[test]
    fn filters_select_and_order_entries() {
        let cases: &[(&str, &[&str])] = &[
            (
                "```reading-list\n```\n",
                &[
                    "The Rust Programming Language",
                    "Programming Rust",
                    "Rust by Example",
                    "The Rustonomicon",
                    "The Rust Reference",
                    "Rust Playground",
                    "Compiler Explorer",
                ],
            ),
            (
                "```reading-list tags=[\"kernel\"]\n```\n",
                &["Programming Rust", "The Rustonomicon", "Compiler Explorer"],
            ),
            (
                "```reading-list tags=kernel kind=book\n```\n",
                &["Programming Rust", "The Rustonomicon"],
            ),
            (
                "```reading-list tags=[\"start\", \"tools\"] sort=title\n```\n",
                &[
                    "Compiler Explorer",
                    "Rust by Example",
                    "Rust Playground",
                    "The Rust Programming Language",
                ],
            ),
            (
                "```reading-list ids=[\"reference\", \"trpl\", \"playground\"]\n```\n",
                &[
                    "The Rust Reference",
                    "The Rust Programming Language",
                    "Rust Playground",
                ],
            ),
            (
                "```reading-list ids=[\"reference\", \"trpl\"] sort=title\n```\n",
                &["The Rust Programming Language", "The Rust Reference"],
            ),
            ("```reading-list access=paid\n```\n", &["Programming Rust"]),
            (
                "```reading-list kind=[\"tool\"] access=\"free\"\n```\n",
                &["Rust Playground", "Compiler Explorer"],
            ),
            (
                "```reading-list,kind=tool,sort=file\n```\n",
                &["Rust Playground", "Compiler Explorer"],
            ),
        ];
        for (text, want) in cases {
            let html = sample_render(text, Target::Html).unwrap();
            assert_eq!(titles(&html), *want, "{text}");
        }
    }

    #[test]
    fn selection_and_attribute_errors_are_located_in_the_chapter() {
        let cases: &[(&str, (usize, usize), &str)] = &[
            (
                "Text\n\n```reading-list ids=[\"trpl\", \"nope\"]\n```\n",
                (3, 17),
                "found unknown id `nope`; expected one of trpl, programming-rust, rust-by-example, nomicon, reference, playground, compiler-explorer",
            ),
            (
                "```reading-list tags=[\"gpu\"]\n```\n",
                (1, 4),
                "found no entry matching tags=[\"gpu\"] among 7 entries of src/reading-list.toml; expected a filter that selects at least one (tags in use: exercises, kernel, language, start, tools, unsafe)",
            ),
            (
                "```reading-list kind=video\n```\n",
                (1, 4),
                "found no entry matching kind=[\"video\"] among 7 entries",
            ),
            (
                "```reading-list ids=[\"trpl\", \"nomicon\", \"trpl\"]\n```\n",
                (1, 17),
                "found id `trpl` twice in `ids`; expected each id once",
            ),
            (
                "```reading-list colour=red\n```\n",
                (1, 17),
                "found unknown attribute `colour`; expected one of tags, ids, kind, access, sort, title",
            ),
            (
                "```reading-list kind=[\"book\", \"blog\"]\n```\n",
                (1, 17),
                "found `blog` for `kind`; expected one of book, web, video, paper, talk, tool",
            ),
            (
                "```reading-list access=gratis\n```\n",
                (1, 17),
                "found `gratis` for `access`; expected one of free, paid",
            ),
            (
                "```reading-list sort=year\n```\n",
                (1, 17),
                "found `year` for `sort`; expected one of file, title",
            ),
            (
                "```reading-list tags=3\n```\n",
                (1, 17),
                "found integer for `tags`; expected a string or an array of strings",
            ),
            (
                "```reading-list tags=[]\n```\n",
                (1, 17),
                "found array for `tags`; expected a string or an array of strings",
            ),
            (
                "```reading-list tags=a tags=b\n```\n",
                (1, 24),
                "found `tags` a second time; expected each attribute once",
            ),
        ];
        for (text, (line, col), msg) in cases {
            let p = sample_render(text, Target::Html).unwrap_err();
            assert!(p.message.starts_with(msg), "{text}\ngot: {}", p.message);
            assert_eq!(markdown::line_col(text, p.offset), (*line, *col), "{text}");
            assert_eq!(p.file, None);
        }
    }

    #[test]
    fn inline_entries_are_used_and_their_errors_point_into_the_chapter() {
        let text = format!("# Ch\n\n```reading-list\n{ENTRY}```\n");
        let html = render_with(&config(), &text, Target::Html).unwrap();
        assert_eq!(titles(&html), ["T"]);
        let cases: &[(&str, (usize, usize))] = &[
            (
                "Intro\n\n```reading-list\n[[entry]]\ntitle = \"T\"\nurl = \"https://x.org\"\nautor = 1\n```\n",
                (7, 1),
            ),
            (
                "- item\n\n  > ```reading-list\n  > [[entry]]\n  > title = \"T\"\n  > url = \"ftp://x.org\"\n  > ```\n",
                (6, 11),
            ),
            (
                "```reading-list\r\n[[entry]]\r\ntitle = 5\r\n```\r\n",
                (3, 9),
            ),
        ];
        for (text, want) in cases {
            let p = render_with(&config(), text, Target::Html).unwrap_err();
            assert_eq!(
                markdown::line_col(text, p.offset),
                *want,
                "{text}: {}",
                p.message
            );
            assert_eq!(p.file, None);
        }
        // A body with no entry at all selects nothing.
        let p = render_with(
            &config(),
            "```reading-list\n# just a comment\n```\n",
            Target::Html,
        )
        .unwrap_err();
        assert_eq!(
            p.message,
            "found no [[entry]] tables in this block's body; expected at least one entry"
        );
    }

    #[test]
    fn data_file_errors_name_the_file_and_the_asking_chapter() {
        let dir = book_with("[[entry]]\ntitle = \"T\"\nurl = \"https://x.org\"\nautor = \"me\"\n");
        let cfg = config_at(dir.path(), json!({}));
        let text = "# Ch\n\n```reading-list\n```\n";
        let out = crate::process::chapter(
            &cfg,
            &crate::cache::Cache::disabled(),
            Target::Html,
            "src/intro.md",
            text,
        );
        assert_eq!(
            out.errors[0].to_string(),
            format!(
                "src/reading-list.toml:4:1: found unknown field `autor`; expected one of {FIELDS} (asked for by src/intro.md:3:4)"
            )
        );
    }

    #[test]
    fn missing_or_outside_data_files_are_errors_at_the_block() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src")).unwrap();
        let text = "```reading-list\n```\n";
        let p = render_with(&config_at(dir.path(), json!({})), text, Target::Html).unwrap_err();
        assert_eq!(p.offset, 3);
        assert!(
            p.message
                .starts_with("found no readable reading-list data file at src/reading-list.toml ("),
            "{}",
            p.message
        );
        assert!(
            p.message
                .contains("or [[entry]] tables in this block's body"),
            "{}",
            p.message
        );
        for bad in ["../outside.toml", "/etc/passwd", "a/../../x.toml"] {
            let cfg = config_at(dir.path(), json!({"reading-list": bad}));
            let p = render_with(&cfg, text, Target::Html).unwrap_err();
            assert!(
                p.message.starts_with(&format!(
                    "found `reading-list = \"{bad}\"` in book.toml; expected a path inside"
                )),
                "{}",
                p.message
            );
        }
        #[cfg(unix)]
        {
            std::fs::write(dir.path().join("secret.toml"), ENTRY).unwrap();
            std::os::unix::fs::symlink(
                dir.path().join("secret.toml"),
                dir.path().join("src/reading-list.toml"),
            )
            .unwrap();
            let p = render_with(&config_at(dir.path(), json!({})), text, Target::Html).unwrap_err();
            assert!(
                p.message.starts_with(
                    "found src/reading-list.toml pointing outside the book's source directory"
                ),
                "{}",
                p.message
            );
        }
    }

    #[test]
    fn configured_data_file_in_a_subdirectory_is_read() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src/data")).unwrap();
        std::fs::write(dir.path().join("src/data/books.toml"), SAMPLE).unwrap();
        let cfg = config_at(dir.path(), json!({"reading-list": "data/books.toml"}));
        let html = render_with(&cfg, "```reading-list ids=nomicon\n```\n", Target::Html).unwrap();
        assert_eq!(titles(&html), ["The Rustonomicon"]);
    }

    #[test]
    fn data_file_is_read_once_per_run() {
        let dir = book_with(ENTRY);
        let cfg = config_at(dir.path(), json!({}));
        let text = "```reading-list\n```\n";
        assert_eq!(
            titles(&render_with(&cfg, text, Target::Html).unwrap()),
            ["T"]
        );
        // Changed on disk mid-run: this run keeps what it read ...
        std::fs::write(
            dir.path().join("src/reading-list.toml"),
            ENTRY.replace("\"T\"", "\"U\""),
        )
        .unwrap();
        let clone = cfg.clone();
        assert_eq!(
            titles(&render_with(&clone, text, Target::Html).unwrap()),
            ["T"]
        );
        // ... and the next run (a fresh Config, as `mdbook serve` makes) sees the edit.
        let next = config_at(dir.path(), json!({}));
        assert_eq!(
            titles(&render_with(&next, text, Target::Html).unwrap()),
            ["U"]
        );
    }

    const HOSTILE: &str = r#"```reading-list title="<b>List</b>"
[[entry]]
title = "<script>alert('t')</script>"
url = "https://x.org/?a=1&b='2'"
authors = ["<img src=x onerror=alert(1)>", "O'Brien \"Bob\" & co"]
audience = "<i>everyone</i>"
note = "Read *ok* <script>alert(1)</script> and [x](https://y.org/\"onmouseover=\"alert(1))"
```
"#;

    #[test]
    fn hostile_strings_are_escaped_in_html() {
        let html = render_with(&config(), HOSTILE, Target::Html).unwrap();
        assert_eq!(
            html,
            [
                "<div class=\"companion-reading-list\">",
                "<p class=\"companion-reading-list-title\">&lt;b&gt;List&lt;/b&gt;</p>",
                "<div class=\"companion-cards\">",
                "<article class=\"companion-card\">",
                "<p class=\"companion-card-title\"><a class=\"companion-card-link\" href=\"https://x.org/?a=1&amp;b=&#x27;2&#x27;\">&lt;script&gt;alert(&#x27;t&#x27;)&lt;/script&gt;</a></p>",
                "<p class=\"companion-card-authors\">&lt;img src=x onerror=alert(1)&gt;, O&#x27;Brien &quot;Bob&quot; &amp; co</p>",
                "<p class=\"companion-card-audience\"><span class=\"companion-card-label\">Audience:</span> &lt;i&gt;everyone&lt;/i&gt;</p>",
                "<div class=\"companion-card-note\"><p>Read <em>ok</em> &lt;script&gt;alert(1)&lt;/script&gt; and <a href=\"https://y.org/%22onmouseover=%22alert(1)\">x</a></p></div>",
                "</article>",
                "</div>",
                "</div>",
            ]
            .join("\n")
        );
    }

    #[test]
    fn hostile_strings_are_escaped_in_markdown() {
        let md = render_with(&config(), HOSTILE, Target::Markdown).unwrap();
        assert_eq!(
            md,
            [
                r"**\<b\>List\</b\>**",
                "",
                r#"- [\<script\>alert('t')\</script\>](<https://x.org/?a=1&b='2'>) — \<img src=x onerror=alert(1)\>, O'Brien "Bob" \& co — for \<i\>everyone\</i\> — Read *ok* \<script\>alert(1)\</script\> and [x](https://y.org/"onmouseover="alert(1))"#,
            ]
            .join("\n")
        );
    }

    #[test]
    fn markdown_target_is_a_list_with_badges_as_words() {
        let md = sample_render(
            "```reading-list ids=[\"trpl\", \"playground\"]\n```\n",
            Target::Markdown,
        )
        .unwrap();
        assert_eq!(
            md,
            [
                "- [The Rust Programming Language](<https://doc.rust-lang.org/book/>) — Steve Klabnik, Carol Nichols — *Free · Recommended · Beginner · Book* — for Programmers new to Rust — The definitive introduction. Kernel developers can skip parts, such as most of the *concurrency* chapters.",
                "- [Rust Playground](<https://play.rust-lang.org/>) — *Free · Tool* — Builds and runs code in the browser, runs linters such as Clippy, and shows the assembly.",
            ]
            .join("\n")
        );
    }

    #[test]
    fn test_target_drops_the_cards_but_still_checks_them() {
        assert_eq!(
            sample_render("```reading-list\n```\n", Target::Test).unwrap(),
            ""
        );
        assert!(sample_render("```reading-list ids=nope\n```\n", Target::Test).is_err());
    }
}
