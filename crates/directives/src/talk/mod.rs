//! Talk cards: ```` ```talk ids=["concepts"] ````.
//!
//! A book keeps its talks in one TOML data file of `[[talk]]` tables,
//! `talks.toml` in `src` by default (the `talks` key of
//! `[preprocessor.companion]`); a block selects some of them by id, event
//! or tag, or lists the `[[talk]]` tables written in its own body, the
//! way reading lists work. [`data`] parses and checks the talks (dates,
//! times, links, chapters) with located errors; [`mod@render`] writes a
//! card per talk, and a block with several talks is a schedule grouped by
//! date. [`at`] reads the `at="12:30"` of examples and comparisons.

pub(crate) mod at;
pub(crate) mod data;
pub(crate) mod render;

pub(crate) use data::{Talk, parse_talks};

use super::contract::{Env, Kind, Parsed, Publish, Rendered, Target};
use super::facts::Topic;
use crate::cards::{self, Unselected, cards_for_xgettext, translated_prose};
use crate::note::render_note;
use mdbook_companion_core::attrs::Attr;
use mdbook_companion_core::config::Key;
use mdbook_companion_core::markdown::{Block, Pattern};
use mdbook_companion_core::problem::Problem;
use mdbook_companion_core::values::Attrs;

/// The talk's row of the registry.
pub(crate) const KIND: Kind = Kind {
    name: "talk",
    pattern: Pattern {
        words: &["talk"],
        takes_output: false,
    },
    parse,
    makes_claims: false,
    lists_the_book: false,
    publishes: &[Publish {
        topic: Topic::Moment,
        resolve: at::publish,
    }],
    keys: &[Key::File(data::DATA)],
    stylesheet: include_str!("talk.css"),
    script: "",
};

/// The attributes a talk block knows, for messages.
pub(crate) const KNOWN: &str = "ids, event, tags, title";

/// A block's filters and caption.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Selection {
    /// Keep exactly these talks, in this order.
    pub ids: Option<Vec<String>>,
    /// Keep talks of this event.
    pub event: Option<String>,
    /// Keep talks with at least one of these tags.
    pub tags: Vec<String>,
    /// A caption above the cards.
    pub title: Option<String>,
}

impl Selection {
    /// Reads the block's attributes; also returns the `ids` attribute, to
    /// locate an unknown id.
    pub(crate) fn parse<'a>(
        block: &Block,
        attrs: &'a [Attr],
    ) -> Result<(Selection, Option<&'a Attr>), Problem> {
        let mut sel = Selection::default();
        let mut ids_attr = None;
        let mut a = Attrs::new(&block.fence);
        for attr in attrs {
            let key = attr.key.as_str();
            a.once(attr, key)?;
            match key {
                "ids" => {
                    sel.ids = Some(a.strings(attr)?);
                    ids_attr = Some(attr);
                }
                "event" => sel.event = Some(a.string(attr)?),
                "tags" => sel.tags = a.strings(attr)?,
                "title" => sel.title = Some(a.string(attr)?),
                _ => {
                    return Err(a.problem(
                        attr,
                        format!("found unknown attribute `{key}`; expected one of {KNOWN}"),
                    ));
                }
            }
        }
        Ok((sel, ids_attr))
    }

    /// The selected talks, or why none, with where the message belongs;
    /// `from` names where the talks came from.
    pub(crate) fn select<'t>(
        &self,
        talks: &'t [Talk],
        from: &str,
    ) -> Result<Vec<&'t Talk>, Unselected> {
        let keep = |t: &Talk| {
            self.event
                .as_ref()
                .is_none_or(|e| t.event.as_ref() == Some(e))
                && (self.tags.is_empty() || t.tags.iter().any(|g| self.tags.contains(g)))
        };
        let chosen = crate::cards::select(
            talks,
            self.ids.as_deref(),
            |t| t.id.as_deref(),
            keep,
            ("talk", "talk id"),
        )?;
        if chosen.is_empty() {
            let message = if self.ids.is_some() || self.event.is_some() || !self.tags.is_empty() {
                format!(
                    "found no talk matching the block's filters among {} talks of {from}; expected a filter that selects at least one",
                    talks.len()
                )
            } else {
                format!("found no [[talk]] tables in {from}; expected at least one talk")
            };
            return Err(Unselected::AtBlock(message));
        }
        Ok(chosen)
    }
}

impl Talk {
    /// The talk in the book's language: its title, abstract and moments'
    /// titles.
    fn translated(&self, env: &Env<'_>, at: usize) -> Result<Talk, Problem> {
        let mut t = self.clone();
        t.title = env.text(&self.title).into_owned();
        if let Some((a, _)) = &self.abstract_source
            && let Some((html, md)) = translated_prose(env, a, at, |s| {
                render_note(s).map_err(|m| m.replace("the note", "the abstract"))
            })?
        {
            t.abstract_html = Some(html);
            t.abstract_markdown = Some(md);
        }
        for m in &mut t.moments {
            m.title = env.text(&m.title).into_owned();
        }
        Ok(t)
    }
}

/// Parses and renders in one step: the block is its own model and
/// needs no fact.
fn parse(_: &Block, _: &Env<'_>) -> Result<Parsed, Problem> {
    Ok(Parsed::direct(render))
}

/// Parses and renders a talk block.
pub(crate) fn render(block: &Block, env: &Env<'_>) -> Result<Rendered, Problem> {
    let fence = &block.fence;
    let attrs = KIND.attributes(block)?;
    let (sel, ids_attr) = Selection::parse(block, &attrs)?;
    let at = fence.info_offset;
    let parse = |body: &str| parse_talks(body, &data::book_chapters(env));
    let (talks, from, data_file) = cards::load(env, fence, data::file(env.config), parse, || {
        data::talks(env)
    })?;
    let chosen = sel
        .select(&talks, &from)
        .map_err(|u| u.locate(ids_attr.map(|attr| at + attr.offset), at))?;
    if env.target == Target::Xgettext {
        let mut strings = Vec::new();
        for t in &chosen {
            strings.push((t.title_at, t.title.as_str(), false));
            if let Some((a, spot)) = &t.abstract_source {
                strings.push((*spot, a.as_str(), true));
            }
            for m in &t.moments {
                strings.push((m.title_at, m.title.as_str(), false));
            }
        }
        let title = sel.title.as_deref();
        let file = data_file.as_ref();
        return Ok(cards_for_xgettext(env, block, title, &strings, file));
    }
    let translated: Vec<Talk>;
    let title = env.text_opt(sel.title.as_deref());
    let chosen: Vec<&Talk> = if env.shared.translations.is_some() {
        translated = chosen
            .iter()
            .map(|t| t.translated(env, at))
            .collect::<Result<_, _>>()?;
        translated.iter().collect()
    } else {
        chosen
    };
    let src = env.config.src.to_string_lossy().replace('\\', "/");
    let page = render::LinkBase {
        src: &src,
        file: env.file,
    };
    Ok(Rendered {
        out: render::render_talks(title.as_deref(), &chosen, &page, env.target),
        ..Rendered::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{config_at, env};
    use crate::{Shared, Target, scan};
    use serde_json::json;

    const TALKS: &str = "[[talk]]\nid = \"b\"\ntitle = \"Second <day>\"\nevent = \"K\"\ndate = 2021-09-14T11:00:00\n\n[[talk]]\nid = \"a\"\ntitle = \"First\"\nevent = \"K\"\ndate = 2021-09-13\ntags = [\"x\"]\n\n[[talk]]\nid = \"c\"\ntitle = \"Early\"\nevent = \"L\"\ndate = 2021-09-14T09:00:00\n";

    fn render_text(text: &str, target: Target) -> Result<String, Problem> {
        let cfg = config_at("/nonexistent-book".as_ref(), json!({}));
        let mut shared = Shared::disabled();
        shared.chapters = vec!["src/talk.md".into(), "src/m.md".into()];
        let block = scan(text).into_iter().next().expect("a block");
        render(&block, &env(&cfg, &shared, target, text, "src/talk.md"))
            .map(|r| r.out.lines().join("\n"))
    }

    fn inline(attrs: &str, body: &str) -> String {
        format!("```talk{attrs}\n{body}```\n")
    }

    #[test]
    fn a_schedule_is_grouped_by_date_in_time_order() {
        let html = render_text(&inline("", TALKS), Target::Html).unwrap();
        let order: Vec<&str> = html
            .lines()
            .filter(|l| l.contains("companion-schedule-date") || l.contains("companion-talk-title"))
            .collect();
        assert_eq!(
            order,
            [
                "<p class=\"companion-schedule-date\"><time datetime=\"2021-09-13\">13 September 2021</time></p>",
                "<p class=\"companion-talk-title\">First</p>",
                "<p class=\"companion-schedule-date\"><time datetime=\"2021-09-14\">14 September 2021</time></p>",
                "<p class=\"companion-talk-title\">Early</p>",
                "<p class=\"companion-talk-title\">Second &lt;day&gt;</p>",
            ]
        );
    }

    #[test]
    fn filters_select_talks() {
        let titles = |attrs: &str| {
            let html = render_text(&inline(attrs, TALKS), Target::Html).unwrap();
            html.lines()
                .filter_map(|l| l.strip_prefix("<p class=\"companion-talk-title\">"))
                .map(|l| l.trim_end_matches("</p>").to_owned())
                .collect::<Vec<_>>()
        };
        assert_eq!(titles(" ids=\"a\""), ["First"]);
        assert_eq!(titles(" event=\"L\""), ["Early"]);
        assert_eq!(titles(" tags=[\"x\"]"), ["First"]);
    }

    #[test]
    fn block_errors_are_located() {
        let text = inline(" ids=[\"zz\"]", TALKS);
        let p = render_text(&text, Target::Html).unwrap_err();
        assert_eq!(&text[p.offset..p.offset + 3], "ids");
        assert_eq!(
            p.message,
            "found unknown talk id `zz`; expected one of b, a, c"
        );
        let text = inline(" colour=1", TALKS);
        let p = render_text(&text, Target::Html).unwrap_err();
        assert!(
            p.message.contains("unknown attribute `colour`"),
            "{}",
            p.message
        );
        let text = inline("", "[[talk]]\ntitle = \"T\"\ndate = \"soon\"\n");
        let p = render_text(&text, Target::Html).unwrap_err();
        assert_eq!(&text[p.offset..p.offset + 6], "\"soon\"");
    }

    #[test]
    fn markdown_and_test_targets() {
        let body = "[[talk]]\ntitle = \"T*\"\nspeakers = [\"A\"]\ndate = 2021-09-14\nvideo = \"https://vimeo.com/1\"\n[[talk.moment]]\nat = \"1:30\"\ntitle = \"M\"\nchapter = \"m.md\"\n";
        let md = render_text(&inline("", body), Target::Markdown).unwrap();
        assert!(
            md.starts_with("**T\\*** — A\\\n14 September 2021\\\n[Video](<https://vimeo.com/1>)"),
            "{md}"
        );
        assert!(
            md.contains("- [1:30](<https://vimeo.com/1#t=90s>) [M](<m.md>)"),
            "{md}"
        );
        assert_eq!(render_text(&inline("", body), Target::Test).unwrap(), "");
    }
}
