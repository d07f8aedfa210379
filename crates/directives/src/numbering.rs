//! Numbers and anchors of framed blocks: every example and comparison
//! side is "Example 5.2" (the chapter's section number, then its place in
//! the chapter), shown in its header, with an anchor the claims page and
//! cross-references link to (`id=` makes it stable).
//!
//! A directive numbers its own frames from [`Numbers::first`] (the
//! chapter layer counts what earlier blocks used) and gives back one
//! [`Numbered`] per frame, and one more with the same number for the claim
//! of a frame's ```` ```asm ```` block; the chapter layer turns entries
//! into [`Row`]s, the book-wide list the ```` ```claims ```` page reads.

use mdbook_companion_core::attrs::Attr;
use mdbook_companion_core::markdown::Fence;
use mdbook_companion_core::problem::Problem;
use serde::{Deserialize, Serialize};

/// Where a block's numbers start: what the chapter layer knows.
#[derive(Debug, Clone, Copy, Default)]
pub struct Numbers<'a> {
    /// The chapter's section number (`5`, `2.1`), when mdBook numbers it.
    pub section: Option<&'a str>,
    /// How many frames earlier blocks of the chapter numbered.
    pub first: usize,
}

impl Numbers<'_> {
    /// The number of the block's `k`-th frame (0-based), with its anchor:
    /// `id` when the author gave one, else one made from the number.
    pub fn number(&self, k: usize, id: Option<&str>) -> Number {
        let n = self.first + k + 1;
        let (digits, made) = match self.section {
            Some(s) => (
                format!("{s}.{n}"),
                format!("example-{}-{n}", s.replace('.', "-")),
            ),
            None => (n.to_string(), format!("example-{n}")),
        };
        Number {
            n,
            digits,
            id: id.map_or(made, str::to_owned),
            word: "Example",
        }
    }
}

/// A frame's number and anchor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Number {
    /// Its place in the chapter, from 1.
    pub n: usize,
    /// `5.2` (the page shows `Example 5.2`, in the book's language).
    pub digits: String,
    /// The element id.
    pub id: String,
    /// The word before the digits (`Example`, `Exercise`; one of
    /// [`super::ui::WORDS`]).
    pub word: &'static str,
}

/// One numbered frame, as its directive describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Numbered {
    /// Its number and anchor.
    pub number: Number,
    /// Where the author's `id=` stands in the chapter, when given.
    pub id_at: Option<usize>,
    /// Its title or caption.
    pub title: Option<String>,
    /// What it is: `Rust example`, `C side`.
    pub what: String,
    /// What it claims, as its badge says (`Panics`); `None` when it is
    /// only shown.
    pub badge: Option<String>,
    /// The index of its claim in the block's [`super::Rendered::claims`].
    pub claim: Option<usize>,
}

impl Numbered {
    /// The entry of the same frame's ```` ```asm ```` block, whose claim
    /// is the block's `claim`-th and whose badge is `badge`.
    pub fn assembly(&self, badge: String, claim: usize) -> Numbered {
        Numbered {
            number: self.number.clone(),
            id_at: None,
            title: self.title.clone(),
            what: format!("{}, assembly", self.what),
            badge: Some(badge),
            claim: Some(claim),
        }
    }
}

/// One numbered frame of the book, for the claims page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// The chapter file (`src/intro.md`).
    pub file: String,
    /// The chapter's name, when the book gives it.
    pub chapter: Option<String>,
    /// The chapter's section number.
    pub section: Option<String>,
    /// `5.2`, as in `Example 5.2`.
    pub digits: String,
    /// The word before the digits (`Example`, `Exercise`).
    #[serde(default = "example_word")]
    pub word: String,
    /// The anchor on the chapter's page.
    pub id: String,
    /// Where the author's `id=` stands (`line`, `column`), when given.
    pub id_at: Option<(usize, usize)>,
    /// Its title or caption.
    pub title: Option<String>,
    /// What it is.
    pub what: String,
    /// What it claims, as its badge says; `None` when only shown.
    pub badge: Option<String>,
    /// The hash `companion.lock` files its verdict under (made only when
    /// the book has a claims page).
    pub hash: Option<String>,
}

/// The word of a row from before rows had one.
fn example_word() -> String {
    "Example".to_owned()
}

/// The `id=` of a block (a letter, then letters, digits, `-` or `_`)
/// whose info string is `fence`'s, with where it stands in the chapter.
pub(crate) fn parse_id(
    a: &mdbook_companion_core::values::Attrs<'_>,
    attr: &Attr,
    fence: &Fence,
) -> Result<(String, usize), Problem> {
    let id = a.string(attr)?;
    let mut chars = id.chars();
    let good = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !good {
        return Err(a.problem(
            attr,
            format!(
                "found `{id}` for `id`; expected a letter followed by letters, digits, `-` or `_`"
            ),
        ));
    }
    if is_made(&id) {
        return Err(a.problem(
            attr,
            format!(
                "found `{id}` for `id`; expected a name of your own (`example-` and numbers are the anchors made from block numbers)"
            ),
        ));
    }
    Ok((id, fence.info_offset + attr.offset))
}

/// Whether `id` has the shape of an anchor made from a number
/// (`example-5-2`), which an author's id may not take.
fn is_made(id: &str) -> bool {
    id.strip_prefix("example-").is_some_and(|rest| {
        rest.split('-')
            .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_follow_the_section_and_the_chapter_count() {
        let numbers = Numbers {
            section: Some("5"),
            first: 1,
        };
        let n = numbers.number(0, None);
        assert_eq!(
            (n.n, n.digits.as_str(), n.id.as_str()),
            (2, "5.2", "example-5-2")
        );
        let sub = Numbers {
            section: Some("2.1"),
            first: 0,
        };
        assert_eq!(sub.number(2, None).digits, "2.1.3");
        assert_eq!(sub.number(2, None).id, "example-2-1-3");
        assert_eq!(sub.number(0, Some("own")).id, "own");
        let plain = Numbers::default();
        assert_eq!(plain.number(0, None).digits, "1");
        assert_eq!(plain.number(0, None).id, "example-1");
        assert!(is_made("example-1") && is_made("example-2-1-3"));
        assert!(!is_made("example-") && !is_made("example-a") && !is_made("examples-1"));
    }
}
