//! Reading-list cards: ```` ```reading-list tags=["kernel"] ````.
//!
//! A book keeps its resources (books, sites, talks, tools) in one TOML data
//! file of `[[entry]]` tables, `reading-list.toml` beside `SUMMARY.md` by
//! default; a block selects some of them by tag, id, kind or access, or
//! lists the `[[entry]]` tables written in its own body. [`data`] parses
//! the entries with serde (`deny_unknown_fields`), so a misspelt field, a
//! wrong type or a bad value is an error located by line and column in the
//! file it came from; the checks serde cannot make (http(s) URLs, unique
//! ids, safe links in notes) are located through [`toml::Spanned`] fields.
//! The data file is read once per run, however many chapters ask for it.
//! [`select`] reads the block's filters; [`mod@render`] writes the cards.
//!
//! On an HTML page each entry is an `<article>` card; other renderers get a
//! Markdown list, and `mdbook test` gets nothing.

pub mod data;
pub mod render;
pub mod select;

pub use data::{Access, Entry, EntryKind, FIELDS, Level, Status, parse_entries};
pub use select::{KNOWN, Selection, Sort};

use super::cards::{self, cards_for_xgettext, translated_prose};
use super::contract::{Env, Kind, Parsed, Rendered, Target};
use super::note;
use mdbook_companion_core::config::Key;
use mdbook_companion_core::markdown::{Block, Pattern};
use mdbook_companion_core::problem::Problem;

/// The reading list's row of the registry.
pub(crate) const KIND: Kind = Kind {
    name: "reading-list",
    pattern: Pattern {
        words: &["reading-list"],
        takes_output: false,
    },
    parse,
    makes_claims: false,
    lists_the_book: false,
    publishes: &[],
    keys: &[Key::File(data::DATA)],
    stylesheet: include_str!("reading.css"),
    script: "",
};

impl Entry {
    /// The entry in the book's language: `audience` and `note`.
    fn translated(&self, env: &Env<'_>, at: usize) -> Result<Entry, Problem> {
        let mut e = self.clone();
        e.audience = self.audience.as_deref().map(|a| env.text(a).into_owned());
        if let Some((note, _)) = &self.note_source
            && let Some((html, md)) = translated_prose(env, note, at, note::render_note)?
        {
            e.note_html = Some(html);
            e.note_markdown = Some(md);
        }
        Ok(e)
    }
}

/// Parses and renders in one step: the block is its own model and
/// needs no fact.
fn parse(_: &Block, _: &Env<'_>) -> Result<Parsed, Problem> {
    Ok(Parsed::direct(render))
}

/// Parses and renders a reading-list block.
pub fn render(block: &Block, env: &Env<'_>) -> Result<Rendered, Problem> {
    let fence = &block.fence;
    let attrs = KIND.attributes(block)?;
    let (sel, ids_attr) = Selection::parse(fence, &attrs)?;
    let at = fence.info_offset;
    let file = data::file(env.config);
    let (entries, from, data_file) =
        cards::load(env, fence, file, parse_entries, || data::entries(env))?;
    let selected = sel
        .select(&entries, &from)
        .map_err(|u| u.locate(ids_attr.map(|attr| at + attr.offset), at))?;
    if env.target == Target::Xgettext {
        let mut strings = Vec::new();
        for e in &selected {
            if let (Some(a), Some(spot)) = (&e.audience, e.audience_at) {
                strings.push((spot, a.as_str(), false));
            }
            if let Some((note, spot)) = &e.note_source {
                strings.push((*spot, note.as_str(), true));
            }
        }
        let title = sel.title.as_deref();
        let file = data_file.as_ref();
        return Ok(cards_for_xgettext(env, block, title, &strings, file));
    }
    if env.shared.translations.is_none() {
        return Ok(render::render_entries(&sel, &selected, env));
    }
    let translated: Vec<Entry> = selected
        .iter()
        .map(|e| e.translated(env, at))
        .collect::<Result<_, _>>()?;
    let sel = Selection {
        title: sel.title.as_deref().map(|t| env.text(t).into_owned()),
        ..sel
    };
    let refs: Vec<&Entry> = translated.iter().collect();
    Ok(render::render_entries(&sel, &refs, env))
}

#[cfg(test)]
mod tests;
