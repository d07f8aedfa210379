//! The book as mdBook sends it, decoded only where the preprocessor reads
//! or writes.
//!
//! Most chapters of a large book hold no directive. Decoding their text
//! from JSON into strings and escaping it back costs more than everything
//! else the preprocessor does, and holding the decoded copy beside the
//! input doubles the memory. So the book is parsed in one pass into a tree
//! whose leaves stay raw JSON text borrowed from the input: only the
//! structure that leads to chapters is decoded (`items` or `sections`,
//! `Chapter`, `sub_items`), and a chapter's `content` only when the byte
//! pre-filter, run on the raw JSON text, says it may hold a directive.
//! Everything else is written back byte for byte as it came.

use super::walk::{Slot, chapter_file, section_of};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::value::RawValue;
use std::fmt;

/// A node of the book: raw JSON text, a decoded chapter text, or the
/// structure around chapters.
#[derive(Debug)]
pub enum Node<'a> {
    /// JSON text exactly as received.
    Raw(&'a RawValue),
    /// A chapter's text, decoded (and maybe replaced).
    Text(String),
    /// An object, its keys in order.
    Object(Vec<(String, Node<'a>)>),
    /// An array.
    Array(Vec<Node<'a>>),
    /// A scalar item re-encoded (the book held a bare value where an item
    /// object was possible, such as mdBook's `"Separator"`).
    Owned(Box<RawValue>),
}

impl Serialize for Node<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Node::Raw(raw) => raw.serialize(s),
            Node::Owned(raw) => raw.serialize(s),
            Node::Text(text) => s.serialize_str(text),
            Node::Object(entries) => {
                let mut map = s.serialize_map(Some(entries.len()))?;
                for (k, v) in entries {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
            Node::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
        }
    }
}

/// Where in the book a value sits, which decides how much of it is
/// decoded.
#[derive(Clone, Copy)]
enum Level {
    /// The book object: its `items` / `sections` are walked.
    Book,
    /// An array of items.
    Items,
    /// One item: `{"Chapter": …}` is walked, anything else kept raw.
    Item,
    /// A chapter object: `sub_items` walked, `content` raw (for now).
    Chapter,
}

struct Seed(Level);

impl<'de> DeserializeSeed<'de> for Seed {
    type Value = Node<'de>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Node<'de>, D::Error> {
        match self.0 {
            Level::Items => d.deserialize_seq(NodeVisitor(self.0)),
            // An item is a map (`{"Chapter": …}`) or a string
            // (`"Separator"`): `any` lets the visitor tell.
            Level::Item => d.deserialize_any(NodeVisitor(self.0)),
            Level::Book | Level::Chapter => d.deserialize_map(NodeVisitor(self.0)),
        }
    }
}

struct NodeVisitor(Level);

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Level::Items => f.write_str("an array of book items"),
            Level::Item => f.write_str("a book item"),
            Level::Book => f.write_str("a book object"),
            Level::Chapter => f.write_str("a chapter object"),
        }
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node<'de>, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        match self.0 {
            Level::Items => {
                while let Some(item) = seq.next_element_seed(Seed(Level::Item))? {
                    items.push(item);
                }
            }
            // Not a place we walk into: keep each element raw.
            _ => {
                while let Some(item) = seq.next_element::<&'de RawValue>()? {
                    items.push(Node::Raw(item));
                }
            }
        }
        Ok(Node::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node<'de>, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            let walk = match (self.0, key.as_str()) {
                (Level::Book, "items" | "sections") | (Level::Chapter, "sub_items") => {
                    Some(Level::Items)
                }
                (Level::Item, "Chapter") => Some(Level::Chapter),
                _ => None,
            };
            let value = match walk {
                Some(level) => map.next_value_seed(Seed(level))?,
                None => Node::Raw(map.next_value::<&'de RawValue>()?),
            };
            entries.push((key, value));
        }
        Ok(Node::Object(entries))
    }

    // An item that is not an object (mdBook's `"Separator"`): kept as it
    // was, re-encoded (a plain string or scalar encodes one way).
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Node<'de>, E> {
        raw_of(&v)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Node<'de>, E> {
        raw_of(&v)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Node<'de>, E> {
        raw_of(&v)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Node<'de>, E> {
        raw_of(&v)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Node<'de>, E> {
        raw_of(&v)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Node<'de>, E> {
        raw_of(&())
    }
}

/// A scalar met where a structure was possible, as an owned raw value.
fn raw_of<'de, E: de::Error>(v: &impl Serialize) -> Result<Node<'de>, E> {
    serde_json::value::to_raw_value(v)
        .map(Node::Owned)
        .map_err(E::custom)
}

/// `[context, book]`: the context decoded, the book lazily.
struct Input;

impl<'de> Visitor<'de> for Input {
    type Value = (serde_json::Value, Node<'de>);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("`[context, book]`")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let ctx = seq
            .next_element::<serde_json::Value>()?
            .ok_or_else(|| de::Error::invalid_length(0, &self))?;
        let book = seq
            .next_element_seed(Seed(Level::Book))?
            .ok_or_else(|| de::Error::invalid_length(1, &self))?;
        if seq.next_element::<de::IgnoredAny>()?.is_some() {
            return Err(de::Error::invalid_length(3, &self));
        }
        Ok((ctx, book))
    }
}

/// Parses mdBook's input in one pass: the context as a JSON value, the
/// book as a [`Node`] tree borrowing from `bytes`. Anything unexpected is
/// an error; the caller then takes the fully decoded path, which gives the
/// precise message (or handles the odd shape).
pub fn parse(bytes: &[u8]) -> Result<(serde_json::Value, Node<'_>), serde_json::Error> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let parsed = de.deserialize_seq(Input)?;
    de.end()?;
    Ok(parsed)
}

/// Whether the book has `items` (mdBook 0.5) or `sections` (0.4).
pub fn has_items(book: &Node<'_>) -> bool {
    matches!(book, Node::Object(entries)
        if entries.iter().any(|(k, v)| matches!((k.as_str(), v), ("items" | "sections", Node::Array(_)))))
}

/// Decodes the chapters that may hold a directive and returns them as
/// slots, depth first; every other chapter stays raw.
pub fn slots<'n>(book: &'n mut Node<'_>, src: &str) -> Vec<Slot<'n>> {
    let mut out = Vec::new();
    if let Node::Object(entries) = book {
        for (k, v) in entries.iter_mut() {
            if k == "items" || k == "sections" {
                collect(v, src, &mut out);
            }
        }
    }
    out
}

fn collect<'n>(items: &'n mut Node<'_>, src: &str, out: &mut Vec<Slot<'n>>) {
    let Node::Array(items) = items else { return };
    for item in items {
        let Node::Object(entries) = item else {
            continue;
        };
        for (k, chapter) in entries.iter_mut() {
            if k != "Chapter" {
                continue;
            }
            let Node::Object(fields) = chapter else {
                continue;
            };
            let text = |key: &str| {
                fields.iter().find_map(|(k, v)| match v {
                    Node::Raw(raw) if k == key => serde_json::from_str::<String>(raw.get()).ok(),
                    _ => None,
                })
            };
            let file = chapter_file(
                src,
                text("source_path").as_deref(),
                text("path").as_deref(),
                text("name").as_deref(),
            );
            let section = fields.iter().find_map(|(k, v)| match v {
                Node::Raw(raw) if k == "number" => section_of(
                    serde_json::from_str::<serde_json::Value>(raw.get())
                        .ok()
                        .as_ref(),
                ),
                _ => None,
            });
            let name = text("name");
            let mut content = None;
            let mut subs = None;
            for (k, v) in fields.iter_mut() {
                match k.as_str() {
                    "content" => content = Some(v),
                    "sub_items" => subs = Some(v),
                    _ => {}
                }
            }
            if let Some(node) = content {
                if let Node::Raw(raw) = node
                    && may_hold_directive(raw.get())
                    && let Ok(decoded) = serde_json::from_str::<String>(raw.get())
                {
                    *node = Node::Text(decoded);
                }
                if let Node::Text(content) = node {
                    out.push(Slot {
                        content,
                        file,
                        section,
                        name,
                        origin: None,
                    });
                }
            }
            if let Some(subs) = subs {
                collect(subs, src, out);
            }
        }
    }
}

/// Every chapter's file as messages name it (`src/intro.md`), depth
/// first, decoded or not.
pub fn chapter_files(book: &Node<'_>, src: &str) -> Vec<String> {
    let mut out = Vec::new();
    if let Node::Object(entries) = book {
        for (k, v) in entries {
            if k == "items" || k == "sections" {
                files_of(v, src, &mut out);
            }
        }
    }
    out
}

fn files_of(items: &Node<'_>, src: &str, out: &mut Vec<String>) {
    let Node::Array(items) = items else { return };
    for item in items {
        let Node::Object(entries) = item else {
            continue;
        };
        for (k, chapter) in entries {
            let Node::Object(fields) = chapter else {
                continue;
            };
            if k != "Chapter" {
                continue;
            }
            let text = |key: &str| {
                fields.iter().find_map(|(k, v)| match v {
                    Node::Raw(raw) if k == key => serde_json::from_str::<String>(raw.get()).ok(),
                    _ => None,
                })
            };
            out.push(chapter_file(
                src,
                text("source_path").as_deref(),
                text("path").as_deref(),
                text("name").as_deref(),
            ));
            if let Some((_, subs)) = fields.iter().find(|(k, _)| k == "sub_items") {
                files_of(subs, src, out);
            }
        }
    }
}

/// The byte pre-filter on a chapter's raw JSON string: the text's own test
/// with JSON's tab escape undone; a `\u` escape (which mdBook never writes
/// for these characters, but another producer might) always decodes.
fn may_hold_directive(raw: &str) -> bool {
    // A near miss of a directive gets a hint (directive::hint).
    if raw.contains("\\u") || mdbook_companion_directives::hint::may_hold_typo(raw) {
        return true;
    }
    if raw.contains("\\t") {
        return mdbook_companion_directives::may_contain(&raw.replace("\\t", "\t"));
    }
    mdbook_companion_directives::may_contain(raw)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    const DIRECTIVE: &str = "# A\n\n```rust example\nfn main() {}\n```\n";

    fn input(book: Value) -> Vec<u8> {
        serde_json::to_vec(&json!([{"root": "/b", "renderer": "html"}, book])).unwrap()
    }

    fn chapter(name: &str, content: &str, subs: Value) -> Value {
        json!({"Chapter": {"name": name, "content": content, "number": [1],
            "sub_items": subs, "path": format!("{name}.md"),
            "source_path": format!("{name}.md"), "parent_names": [], "extra": {"k": [1, 2.5, null]}}})
    }

    #[test]
    fn only_chapters_that_may_hold_a_directive_are_decoded() {
        let book = json!({"items": [
            chapter("plain", "# Plain\n\nNo fences here. \u{e9} \"q\" \\ \t", json!([])),
            "Separator",
            {"PartTitle": "Part"},
            chapter("dir", DIRECTIVE, json!([chapter("nested", DIRECTIVE, json!([]))])),
        ], "__non_exhaustive": null});
        let bytes = input(book.clone());
        let (ctx, mut node) = parse(&bytes).unwrap();
        assert_eq!(ctx["renderer"], "html");
        assert!(has_items(&node));
        assert_eq!(
            chapter_files(&node, "src"),
            ["src/plain.md", "src/dir.md", "src/nested.md"]
        );
        let slots = slots(&mut node, "src");
        let files: Vec<&str> = slots.iter().map(|s| s.file.as_str()).collect();
        assert_eq!(files, ["src/dir.md", "src/nested.md"]);
        assert!(slots.iter().all(|s| s.content.as_str() == DIRECTIVE));
        // Unchanged, the book goes back out byte for byte (fields in their
        // order, the plain chapter as it came).
        let out = serde_json::to_string(&node).unwrap();
        assert_eq!(out, serde_json::to_string(&book).unwrap());
        // Key order is the input's, whatever it is.
        let (_, node) = parse(br#"[{}, {"z": 1, "items": [], "a": {"y": 2, "b": 3}}]"#).unwrap();
        assert_eq!(
            serde_json::to_string(&node).unwrap(),
            r#"{"z":1,"items":[],"a":{"y": 2, "b": 3}}"#
        );
    }

    #[test]
    fn a_replaced_chapter_is_written_back_encoded() {
        let book =
            json!({"sections": [chapter("dir", DIRECTIVE, json!([]))], "__non_exhaustive": null});
        let bytes = input(book);
        let (_, mut node) = parse(&bytes).unwrap();
        for slot in slots(&mut node, "src") {
            *slot.content = "new \"text\"\n".into();
        }
        let out: Value = serde_json::from_str(&serde_json::to_string(&node).unwrap()).unwrap();
        assert_eq!(out["sections"][0]["Chapter"]["content"], "new \"text\"\n");
        assert_eq!(out["__non_exhaustive"], Value::Null);
    }

    #[test]
    fn escapes_in_the_raw_text_do_not_hide_a_directive() {
        // A tab before the info string, and a producer that escapes every
        // backtick: both still reach the real test.
        for content in ["```\trust example\nfn main() {}\n```\n", "x"] {
            let raw = serde_json::to_string(content).unwrap();
            assert_eq!(
                may_hold_directive(&raw),
                mdbook_companion_directives::may_contain(content),
                "{raw}"
            );
        }
        assert!(may_hold_directive(r#""\u0060\u0060\u0060rust example""#));
        assert!(!may_hold_directive(r#""```rust\n""#));
    }

    #[test]
    fn odd_shapes_are_refused_for_the_decoded_path() {
        for odd in [
            json!({"items": 5}),
            json!({"items": [{"Chapter": "not an object"}]}),
            json!([1, 2]),
        ] {
            assert!(parse(&input(odd.clone())).is_err(), "{odd}");
        }
        assert!(parse(b"[{}, {\"items\": []}, 3]").is_err());
        // A scalar where an item could be is re-encoded, and reads back as
        // the same number (found by fuzzing; needs correct rounding).
        let bytes = b"[{}, {\"items\": [4.1111104111111114e+41, 1e-7, 12345678901234567890123]}]";
        let (_, book) = parse(bytes).unwrap();
        let back: Value = serde_json::from_str(&serde_json::to_string(&book).unwrap()).unwrap();
        let whole: Vec<Value> = serde_json::from_slice(bytes).unwrap();
        assert_eq!(back, whole[1]);
        assert!(parse(b"[{}, {\"items\": []}] trailing").is_err());
        let (_, book) = parse(b"[{}, {\"other\": []}]").unwrap();
        assert!(!has_items(&book));
    }
}
