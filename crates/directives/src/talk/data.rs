//! The talks' data: `[[talk]]` tables as the TOML file (or a block's body)
//! writes them, checked and located, and the book's data file read once
//! per run.
//!
//! serde rejects unknown fields and wrong types with their span; the
//! checks it cannot make (a TOML date, times as `m:ss` or `h:mm:ss`, a
//! moment past the talk's `duration`, http(s) links, chapters the book
//! has) are located through [`toml::Spanned`] fields.

use crate::contract::Env;
pub(crate) use crate::datafile::LoadError;
use crate::datafile::{DataFile, Spot};
use crate::note::render_note;
use mdbook_companion_core::config::{Config, DataKey};
use mdbook_companion_core::escape::check_url;
use mdbook_companion_core::markdown;
use mdbook_companion_core::problem::Fault;
use serde::Deserialize;
use std::sync::Arc;
use toml::Spanned;

/// The fields of a talk, for messages.
pub(crate) const FIELDS: &str =
    "id, title, speakers, event, date, duration, place, video, links, abstract, tags, moment";

/// The fields of a moment, for messages.
const MOMENT_FIELDS: &str = "at, title, chapter";

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTalks {
    #[serde(default)]
    talk: Vec<RawTalk>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTalk {
    id: Option<Spanned<String>>,
    title: Spanned<String>,
    #[serde(default)]
    speakers: Vec<String>,
    event: Option<String>,
    date: Option<Spanned<toml::Value>>,
    duration: Option<Spanned<String>>,
    place: Option<String>,
    video: Option<Spanned<String>>,
    #[serde(default)]
    links: Vec<RawLink>,
    r#abstract: Option<Spanned<String>>,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    moment: Vec<RawMoment>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLink {
    label: String,
    url: Spanned<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMoment {
    at: Spanned<String>,
    title: Spanned<String>,
    chapter: Option<Spanned<String>>,
}

/// A talk's date, and its start time when the data gives one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct When {
    /// Year, month (1–12), day.
    pub date: (u16, u8, u8),
    /// Hour and minute of the start.
    pub time: Option<(u8, u8)>,
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

impl When {
    /// The machine-readable form for `<time datetime>`.
    pub(crate) fn machine(&self) -> String {
        let (y, m, d) = self.date;
        match self.time {
            Some((h, min)) => format!("{y:04}-{m:02}-{d:02}T{h:02}:{min:02}"),
            None => format!("{y:04}-{m:02}-{d:02}"),
        }
    }

    /// The date in words: `14 September 2021`.
    pub(crate) fn day_in_words(&self) -> String {
        let (y, m, d) = self.date;
        let month = MONTHS.get(usize::from(m).saturating_sub(1)).unwrap_or(&"");
        format!("{d} {month} {y}")
    }

    /// The date in words, with the time when given: `14 September 2021, 10:00`.
    pub(crate) fn in_words(&self) -> String {
        match self.time {
            Some((h, min)) => format!("{}, {h:02}:{min:02}", self.day_in_words()),
            None => self.day_in_words(),
        }
    }
}

/// A link of a talk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Link {
    /// What the link is (`Slides`).
    pub label: String,
    /// An http(s) address.
    pub url: String,
}

/// A moment of a talk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Moment {
    /// The time as written (`12:30`).
    pub at: String,
    /// The time in seconds.
    pub seconds: u64,
    /// What happens then.
    pub title: String,
    /// The chapter that covers it, relative to `src` (`uninitialized.md`).
    pub chapter: Option<String>,
    /// Where the title was written (for translators).
    pub title_at: Spot,
}

/// A checked talk.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Talk {
    /// The id blocks and `at="id@12:30"` name it by.
    pub id: Option<String>,
    /// The title.
    pub title: String,
    /// The speakers, as written.
    pub speakers: Vec<String>,
    /// The event, as written.
    pub event: Option<String>,
    /// The date (and start time).
    pub when: Option<When>,
    /// The length as written (`1:00:00`).
    pub duration: Option<String>,
    /// Where it was given.
    pub place: Option<String>,
    /// The recording, an http(s) address.
    pub video: Option<String>,
    /// Slides, event page, write-ups.
    pub links: Vec<Link>,
    /// The abstract as HTML (one line, raw HTML escaped).
    pub abstract_html: Option<String>,
    /// The abstract as Markdown (one line, raw HTML escaped).
    pub abstract_markdown: Option<String>,
    /// Where the title was written (for translators).
    pub title_at: Spot,
    /// The abstract as written, and where (what is translated).
    pub abstract_source: Option<(String, Spot)>,
    /// Tags blocks select it by.
    pub tags: Vec<String>,
    /// The moments, in time order.
    pub moments: Vec<Moment>,
}

fn fault(offset: usize, message: impl Into<String>) -> Fault {
    Fault::at(offset, message)
}

/// Seconds of `m:ss` or `h:mm:ss`; `None` when malformed.
pub(crate) fn parse_time(text: &str) -> Option<u64> {
    let parts: Vec<&str> = text.split(':').collect();
    let num = |s: &str, two: bool| -> Option<u64> {
        let ok = !s.is_empty() && s.len() <= 5 && s.bytes().all(|b| b.is_ascii_digit());
        if !ok || (two && s.len() != 2) {
            return None;
        }
        s.parse().ok()
    };
    let secs = |s: &str| num(s, true).filter(|&v| v < 60);
    match parts.as_slice() {
        [m, s] => Some(num(m, false)? * 60 + secs(s)?),
        [h, m, s] => Some(num(h, false)? * 3600 + secs(m)? * 60 + secs(s)?),
        _ => None,
    }
}

fn time_or_fault(at: &Spanned<String>, what: &str) -> Result<u64, Fault> {
    parse_time(at.get_ref()).ok_or_else(|| {
        fault(
            at.span().start,
            format!(
                "found {what} `{}`; expected a time as m:ss or h:mm:ss, such as 12:30 or 1:02:03",
                at.get_ref()
            ),
        )
    })
}

fn when(value: &Spanned<toml::Value>) -> Result<When, Fault> {
    let bad = |found: String| {
        fault(
            value.span().start,
            format!(
                "found {found} for `date`; expected a TOML date, such as 2021-09-14 (no quotes)"
            ),
        )
    };
    let dt = match value.get_ref() {
        toml::Value::Datetime(dt) => dt,
        toml::Value::String(s) => return Err(bad(format!("the string \"{s}\""))),
        other => return Err(bad(format!("{} `{other}`", other.type_str()))),
    };
    let Some(d) = dt.date else {
        return Err(bad(format!("the time `{dt}` without a date")));
    };
    if dt.offset.is_some() {
        return Err(bad(format!("`{dt}` with a time zone offset")));
    }
    Ok(When {
        date: (d.year, d.month, d.day),
        time: dt.time.map(|t| (t.hour, t.minute)),
    })
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
        let exp = match exp.as_str() {
            "talk" => "[[talk]] tables".to_owned(),
            // serde names two fields as "`label` or `url`".
            "label or url" | "label, url" | "one of label, url" => {
                "one of label, url (in a link)".to_owned()
            }
            e if e.contains("chapter") => format!("one of {MOMENT_FIELDS} (in a moment)"),
            _ => format!("one of {FIELDS}"),
        };
        return format!("found unknown field {what}; expected {exp}");
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
            "found a table without `{field}`; expected `{field}` (required: title in a talk, at and title in a moment, label and url in a link)"
        );
    }
    // The TOML parser's own date checks: `2026-02-30`, `T25:00`.
    if msg.starts_with("invalid date") || msg.starts_with("invalid time") {
        return format!(
            "found an impossible date or time ({msg}); expected one that exists, such as 2021-09-14 or 2021-09-14T10:30:00"
        );
    }
    format!("found invalid TOML ({msg}); expected [[talk]] tables of fields {FIELDS}")
}

/// Parses and checks talk TOML. `chapters` are the book's chapters
/// relative to `src` (`uninitialized.md`); a moment's `chapter` must be
/// one of them.
pub(crate) fn parse_talks(text: &str, chapters: &[String]) -> Result<Vec<Talk>, Fault> {
    let raw: RawTalks = toml::from_str(text).map_err(|e| {
        let offset = e.span().map_or(0, |s| s.start);
        fault(offset, toml_message(e.message()))
    })?;
    let mut talks: Vec<Talk> = Vec::with_capacity(raw.talk.len());
    let mut ids: Vec<(String, usize)> = Vec::new();
    for t in raw.talk {
        let id = talk_id(t.id, &mut ids, text)?;
        if t.title.get_ref().trim().is_empty() {
            return Err(fault(
                t.title.span().start,
                "found an empty title; expected the talk's title",
            ));
        }
        let when = t.date.as_ref().map(when).transpose()?;
        let duration = match &t.duration {
            Some(d) => Some(time_or_fault(d, "duration")?),
            None => None,
        };
        if let Some(v) = &t.video {
            check_url(v.get_ref()).map_err(|m| fault(v.span().start, m))?;
        }
        for l in &t.links {
            check_url(l.url.get_ref()).map_err(|m| fault(l.url.span().start, m))?;
        }
        let (abstract_html, abstract_markdown) = match &t.r#abstract {
            Some(a) => {
                let (html, md) = render_note(a.get_ref())
                    .map_err(|m| fault(a.span().start, m.replace("the note", "the abstract")))?;
                (Some(html), Some(md))
            }
            None => (None, None),
        };
        let mut moments = Vec::with_capacity(t.moment.len());
        for m in t.moment {
            moments.push(moment(
                m,
                duration.zip(t.duration.as_ref()),
                chapters,
                text,
            )?);
        }
        moments.sort_by_key(|m| m.seconds);
        let title_at = Spot::new(text, t.title.span().start);
        let abstract_source = t
            .r#abstract
            .as_ref()
            .map(|a| (a.get_ref().clone(), Spot::new(text, a.span().start)));
        talks.push(Talk {
            title_at,
            abstract_source,
            id,
            title: t.title.into_inner(),
            speakers: t.speakers,
            event: t.event,
            when,
            duration: t.duration.map(Spanned::into_inner),
            place: t.place,
            video: t.video.map(Spanned::into_inner),
            links: t
                .links
                .into_iter()
                .map(|l| Link {
                    label: l.label,
                    url: l.url.into_inner(),
                })
                .collect(),
            abstract_html,
            abstract_markdown,
            tags: t.tags,
            moments,
        });
    }
    Ok(talks)
}

/// A talk's `id`: a word without spaces or `@`, once in the file
/// (`ids`: those met so far, where they stand).
fn talk_id(
    id: Option<Spanned<String>>,
    ids: &mut Vec<(String, usize)>,
    text: &str,
) -> Result<Option<String>, Fault> {
    let Some(id) = id else { return Ok(None) };
    let at = id.span().start;
    let id = id.into_inner();
    if id.is_empty() || id.chars().any(|c| c.is_whitespace() || c == '@') {
        return Err(fault(
            at,
            format!("found id `{id}`; expected a word without spaces or @, such as `concepts`"),
        ));
    }
    if let Some((_, first)) = ids.iter().find(|(known, _)| *known == id) {
        let (line, _) = markdown::line_col(text, *first);
        return Err(fault(
            at,
            format!("found id `{id}` a second time (first on line {line}); expected each id once"),
        ));
    }
    ids.push((id.clone(), at));
    Ok(Some(id))
}

/// A moment of a talk whose duration (seconds, as written) is `limit`,
/// its chapter one of the book's `chapters`.
fn moment(
    m: RawMoment,
    limit: Option<(u64, &Spanned<String>)>,
    chapters: &[String],
    text: &str,
) -> Result<Moment, Fault> {
    let seconds = time_or_fault(&m.at, "at")?;
    if let Some((limit, d)) = limit
        && seconds > limit
    {
        return Err(fault(
            m.at.span().start,
            format!(
                "found at = \"{}\" past the talk's duration {}; expected a time within the talk",
                m.at.get_ref(),
                d.get_ref()
            ),
        ));
    }
    if m.title.get_ref().trim().is_empty() {
        return Err(fault(
            m.title.span().start,
            "found an empty moment title; expected what the talk covers then",
        ));
    }
    let chapter = match m.chapter {
        Some(c) => {
            let name = c.get_ref().trim_start_matches("./");
            if !chapters.iter().any(|k| k == name) {
                let known = if chapters.is_empty() {
                    "a chapter of the book (it lists none)".to_owned()
                } else {
                    format!("one of {}", chapters.join(", "))
                };
                return Err(fault(
                    c.span().start,
                    format!(
                        "found chapter `{}`, which is not in the book; expected {known}",
                        c.get_ref()
                    ),
                ));
            }
            Some(name.to_owned())
        }
        None => None,
    };
    Ok(Moment {
        title_at: Spot::new(text, m.title.span().start),
        at: m.at.into_inner(),
        seconds,
        title: m.title.into_inner(),
        chapter,
    })
}

/// The book's chapters relative to `src`, for [`parse_talks`].
pub(crate) fn book_chapters(env: &Env<'_>) -> Vec<String> {
    let src = format!("{}/", env.config.src.to_string_lossy().replace('\\', "/"));
    env.shared
        .chapters
        .iter()
        .filter_map(|f| f.strip_prefix(&src).map(str::to_owned))
        .collect()
}

/// The book's talk data, read and checked at most once per run.
pub(crate) fn talks(env: &Env<'_>) -> Result<Arc<Vec<Talk>>, LoadError> {
    env.shared.data.get_or_load("talk", || {
        let chapters = book_chapters(env);
        file(env.config).load(env.config, |text| {
            parse_talks(text, &chapters).map(Arc::new)
        })
    })
}

/// The talks' key and default file.
pub(crate) const DATA: DataKey = DataKey {
    key: "talks",
    default: "talks.toml",
};

/// The talks' data file.
pub(crate) fn file(config: &Config) -> DataFile<'_> {
    DataFile {
        key: DATA.key,
        rel: config.data_file(&DATA),
        tables: "[[talk]]",
        what: "talk data file",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_m_ss_or_h_mm_ss() {
        assert_eq!(parse_time("12:30"), Some(750));
        assert_eq!(parse_time("0:05"), Some(5));
        assert_eq!(parse_time("1:02:03"), Some(3723));
        assert_eq!(parse_time("75:00"), Some(4500));
        for bad in [
            "12", "12:3", "12:60", "1:60:00", "a:00", "", "1:2:3:4", "-1:00", " 1:00",
        ] {
            assert_eq!(parse_time(bad), None, "{bad}");
        }
    }

    #[test]
    fn dates_read_in_words() {
        let w = When {
            date: (2021, 9, 14),
            time: None,
        };
        assert_eq!(w.machine(), "2021-09-14");
        assert_eq!(w.in_words(), "14 September 2021");
        let w = When {
            time: Some((9, 5)),
            ..w
        };
        assert_eq!(w.machine(), "2021-09-14T09:05");
        assert_eq!(w.in_words(), "14 September 2021, 09:05");
    }

    #[test]
    fn a_full_talk_parses() {
        let text = "[[talk]]\nid = \"c\"\ntitle = \"T\"\nspeakers = [\"A\", \"B\"]\nevent = \"E\"\ndate = 2021-09-14T10:00:00\nduration = \"1:00:00\"\nplace = \"online\"\nvideo = \"https://youtu.be/x\"\nlinks = [{ label = \"Slides\", url = \"https://x.org/s.pdf\" }]\nabstract = \"*Key* ideas\"\ntags = [\"k\"]\n[[talk.moment]]\nat = \"12:30\"\ntitle = \"M\"\nchapter = \"m.md\"\n";
        let t = &parse_talks(text, &["m.md".to_owned()]).unwrap()[0];
        assert_eq!(t.id.as_deref(), Some("c"));
        assert_eq!(t.when.unwrap().in_words(), "14 September 2021, 10:00");
        assert_eq!(
            t.abstract_html.as_deref(),
            Some("<p><em>Key</em> ideas</p>")
        );
        assert_eq!(t.moments[0].seconds, 750);
        assert_eq!(t.moments[0].chapter.as_deref(), Some("m.md"));
    }

    #[test]
    fn bad_input_is_located() {
        let at = |text: &str| {
            let f = parse_talks(text, &["m.md".to_owned()]).unwrap_err();
            (markdown::line_col(text, f.offset), f.message)
        };
        let (pos, m) = at("[[talk]]\ntitle = \"T\"\nspeaker = \"A\"\n");
        assert_eq!(pos, (3, 1));
        assert!(
            m.starts_with("found unknown field `speaker`; expected one of id, title"),
            "{m}"
        );
        let (pos, m) = at("[[talk]]\ntitle = \"T\"\ndate = \"2021-09-14\"\n");
        assert_eq!(pos, (3, 8));
        assert!(m.contains("expected a TOML date"), "{m}");
        let (pos, m) = at(
            "[[talk]]\ntitle = \"T\"\nduration = \"10:00\"\n[[talk.moment]]\nat = \"10:01\"\ntitle = \"M\"\n",
        );
        assert_eq!(pos, (5, 6));
        assert!(m.contains("past the talk's duration 10:00"), "{m}");
        let (pos, m) =
            at("[[talk]]\ntitle = \"T\"\n[[talk.moment]]\nat = \"1:2\"\ntitle = \"M\"\n");
        assert_eq!(pos, (4, 6));
        assert!(
            m.starts_with("found at `1:2`; expected a time as m:ss"),
            "{m}"
        );
        let (pos, m) = at("[[talk]]\ntitle = \"T\"\nvideo = \"ftp://x.org/v\"\n");
        assert_eq!(pos, (3, 9));
        assert!(m.contains("expected an http:// or https:// address"), "{m}");
        let (pos, m) = at(
            "[[talk]]\ntitle = \"T\"\n[[talk.moment]]\nat = \"1:00\"\ntitle = \"M\"\nchapter = \"gone.md\"\n",
        );
        assert_eq!(pos, (6, 11));
        assert!(m.contains("not in the book; expected one of m.md"), "{m}");
        let (_, m) = at(
            "[[talk]]\ntitle = \"T\"\n[[talk.moment]]\nat = \"1:00\"\ntitle = \"M\"\nwhen = 1\n",
        );
        assert!(m.contains("expected one of at, title, chapter"), "{m}");
        let (pos, m) = at(
            "[[talk]]\ntitle = \"T\"\nlinks = [{ label = \"S\", url = \"https://x.org/\", kind = \"pdf\" }]\n",
        );
        assert_eq!(pos, (3, 49));
        assert_eq!(
            m,
            "found unknown field `kind`; expected one of label, url (in a link)"
        );
        let (pos, m) = at("[[talk]]\ntitle = \"T\"\ndate = 2026-02-30\n");
        assert_eq!(pos, (3, 8));
        assert_eq!(
            m,
            "found an impossible date or time (invalid date, expected day between 01 and 28); expected one that exists, such as 2021-09-14 or 2021-09-14T10:30:00"
        );
    }
}
