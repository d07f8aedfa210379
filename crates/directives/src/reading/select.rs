//! A reading-list block's filters, order and caption, and the entries
//! they select.

use super::data::{Access, Entry, EntryKind};
use crate::cards::Unselected;
use mdbook_companion_core::attrs::Attr;
use mdbook_companion_core::markdown::Fence;
use mdbook_companion_core::problem::Problem;
use mdbook_companion_core::values::Attrs;

/// The attributes a reading list knows, for messages.
pub const KNOWN: &str = "tags, ids, kind, access, sort, title";

/// How the selected entries are ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Sort {
    /// The order of the data (or the order of `ids`).
    #[default]
    File,
    /// By title, ignoring case.
    Title,
}

/// A block's selection and caption.
#[derive(Debug, Default, Clone, PartialEq)]
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

impl Selection {
    /// Reads the block's attributes; also returns the `ids` attribute, to
    /// locate an unknown id.
    pub fn parse<'f>(
        fence: &Fence,
        attrs: &'f [Attr],
    ) -> Result<(Selection, Option<&'f Attr>), Problem> {
        let mut sel = Selection::default();
        let mut ids_attr = None;
        let mut a = Attrs::new(fence);
        for attr in attrs {
            let key = attr.key.as_str();
            a.once(attr, key)?;
            match key {
                "tags" => sel.tags = a.strings(attr)?,
                "ids" => {
                    sel.ids = Some(a.strings(attr)?);
                    ids_attr = Some(attr);
                }
                "kind" => {
                    for k in a.strings(attr)? {
                        let one = Attr {
                            key: attr.key.clone(),
                            value: Some(toml::Value::String(k)),
                            offset: attr.offset,
                        };
                        sel.kinds.push(a.choice(&one, &EntryKind::CHOICES)?);
                    }
                }
                "access" => sel.access = Some(a.choice(attr, &Access::CHOICES)?),
                "sort" => {
                    sel.sort = a.choice(attr, &[("file", Sort::File), ("title", Sort::Title)])?;
                }
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
    /// an error, with where its message belongs.
    ///
    /// `from` names where the entries came from, for messages.
    pub fn select<'e>(
        &self,
        entries: &'e [Entry],
        from: &str,
    ) -> Result<Vec<&'e Entry>, Unselected> {
        let keep = |e: &Entry| {
            (self.tags.is_empty() || e.tags.iter().any(|t| self.tags.contains(t)))
                && (self.kinds.is_empty() || e.kind.is_some_and(|k| self.kinds.contains(&k)))
                && (self.access.is_none() || e.access == self.access)
        };
        let mut out = crate::cards::select(
            entries,
            self.ids.as_deref(),
            |e| e.id.as_deref(),
            keep,
            ("entry", "id"),
        )?;
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
            return Err(Unselected::AtBlock(message));
        }
        if self.sort == Sort::Title {
            out.sort_by_cached_key(|e| e.title.to_lowercase());
        }
        Ok(out)
    }
}
