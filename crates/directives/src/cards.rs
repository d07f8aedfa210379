//! What the card directives (reading lists, talks) share: their data
//! come from a TOML file or from tables in the block's own body, their
//! prose is translated and made safe the same way, and `mdbook-xgettext`
//! gets their strings the same way.

use super::contract::{DataMessage, Env, Rendered};
use super::datafile::{DataFile, LoadError, Spot};
use super::xgettext::{self, Piece};
use mdbook_companion_core::markdown::{self, Block, Fence};
use mdbook_companion_core::problem::{Fault, Problem};
use std::sync::Arc;

/// Why a selection of cards (`ids`, filters) failed, and where its
/// message belongs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unselected {
    /// At the `ids` attribute: an id unknown or named twice.
    AtIds(String),
    /// At the block: nothing selected.
    AtBlock(String),
}

impl Unselected {
    /// The located problem: at the `ids` attribute (`ids_at`, an offset of
    /// the chapter) when the message belongs there, else at `block_at`.
    pub fn locate(self, ids_at: Option<usize>, block_at: usize) -> Problem {
        match (self, ids_at) {
            (Unselected::AtIds(m), Some(at)) => Problem::at(at, m),
            (Unselected::AtIds(m) | Unselected::AtBlock(m), _) => Problem::at(block_at, m),
        }
    }
}

/// The cards a block selects, as reading lists and talks select them:
/// those `ids` names, in its order and each once, or else every card; then
/// those `keep` keeps. An id named twice or unknown is an error at the
/// `ids` attribute; `noun` names a card (`entry`, `talk`) and `id_word`
/// its id (`id`, `talk id`) in those messages. An empty result is the
/// caller's to explain, as only it knows its filters.
pub(crate) fn select<'c, T>(
    cards: &'c [T],
    ids: Option<&[String]>,
    id: impl Fn(&T) -> Option<&str>,
    keep: impl Fn(&T) -> bool,
    (noun, id_word): (&str, &str),
) -> Result<Vec<&'c T>, Unselected> {
    let Some(ids) = ids else {
        return Ok(cards.iter().filter(|c| keep(c)).collect());
    };
    let mut chosen = Vec::with_capacity(ids.len());
    for (i, wanted) in ids.iter().enumerate() {
        if ids[..i].contains(wanted) {
            return Err(Unselected::AtIds(format!(
                "found id `{wanted}` twice in `ids`; expected each id once"
            )));
        }
        match cards.iter().find(|c| id(c) == Some(wanted.as_str())) {
            Some(c) => chosen.push(c),
            None => {
                let known: Vec<&str> = cards.iter().filter_map(&id).collect();
                let known = if known.is_empty() {
                    format!("none (no {noun} has an `id`)")
                } else {
                    known.join(", ")
                };
                return Err(Unselected::AtIds(format!(
                    "found unknown {id_word} `{wanted}`; expected one of {known}"
                )));
            }
        }
    }
    Ok(chosen.into_iter().filter(|c| keep(c)).collect())
}

/// A block's cards, how a message names where they came from, and the
/// data file when they came from it.
pub(crate) type Loaded<'c, T> = (Arc<Vec<T>>, String, Option<DataFile<'c>>);

/// A block's cards: `parse`d from the tables of its body when it has
/// any, else those of the book's data `file`, which `load` reads once per
/// run; with how a message names where they came from, and the data file
/// when they came from it (`mdbook-xgettext` tells its strings there).
pub(crate) fn load<'c, T>(
    env: &Env<'c>,
    fence: &Fence,
    file: DataFile<'c>,
    parse: impl FnOnce(&str) -> Result<Vec<T>, Fault>,
    load: impl FnOnce() -> Result<Arc<Vec<T>>, LoadError>,
) -> Result<Loaded<'c, T>, Problem> {
    if fence.body.trim().is_empty() {
        let cards = load().map_err(|e| e.at(fence.info_offset))?;
        return Ok((cards, file.shown(env.config), Some(file)));
    }
    let cards = parse(&fence.body)
        .map_err(|f| Problem::at(body_offset_in_chapter(env.text, fence, f.offset), f.message))?;
    Ok((Arc::new(cards), "this block's body".to_owned(), None))
}

/// Maps a byte offset of a fence body to the chapter.
pub(crate) fn body_offset_in_chapter(text: &str, fence: &Fence, offset: usize) -> usize {
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

/// A block of cards for `mdbook-xgettext`: its caption on its line, then
/// each of `strings` (where it was written, the text, whether it is
/// Markdown prose): a block's own tables at their lines in the chapter,
/// the data file's (`data_file`) for its page.
pub(crate) fn cards_for_xgettext(
    env: &Env<'_>,
    block: &Block,
    title: Option<&str>,
    strings: &[(Spot, &str, bool)],
    data_file: Option<&DataFile<'_>>,
) -> Rendered {
    let fence = &block.fence;
    let rel = data_file.map(|d| d.rel.to_string_lossy().replace('\\', "/"));
    let mut pieces = Vec::new();
    let mut data = Vec::new();
    if let Some(text) = title {
        pieces.push(Piece::Text {
            at: fence.info_offset,
            text,
        });
    }
    for &(spot, text, prose) in strings {
        match &rel {
            None => {
                let at = body_offset_in_chapter(env.text, fence, spot.offset);
                pieces.push(if prose {
                    Piece::Markdown { at, text }
                } else {
                    Piece::Text { at, text }
                });
            }
            Some(file) => data.push(DataMessage {
                file: file.to_owned(),
                line: spot.line,
                prose,
                text: text.to_owned(),
            }),
        }
    }
    Rendered {
        out: xgettext::write(env, &block.range, &pieces),
        data,
        ..Rendered::default()
    }
}

/// A translated Markdown prose string of a data file rendered as HTML and
/// Markdown by `render` (a note, an abstract), or `None` when the book's
/// language leaves it as written. A link the translation brings in is
/// checked as the author's are, and located at the block.
pub(crate) fn translated_prose(
    env: &Env<'_>,
    source: &str,
    at: usize,
    render: impl Fn(&str) -> Result<(String, String), String>,
) -> Result<Option<(String, String)>, Problem> {
    match env.markdown(source) {
        std::borrow::Cow::Borrowed(_) => Ok(None),
        std::borrow::Cow::Owned(t) => render(&t).map(Some).map_err(|m| {
            let file = env
                .shared
                .translations
                .as_ref()
                .map_or("the catalog", |tr| tr.file.as_str());
            Problem::at(at, format!("{m}, in its translation in {file}"))
        }),
    }
}
