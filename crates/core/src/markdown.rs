//! Finding directives in a chapter and splicing their replacements back.
//!
//! The chapter is never re-rendered: pulldown-cmark's offset iterator tells
//! where each fenced code block starts and ends, the blocks whose info string
//! names one of our directives become [`Block`]s, and each directive's
//! replacement is spliced into the original text by byte range. Everything
//! outside those ranges is copied byte for byte. Because only top-level
//! fenced code blocks are reported by the parser, a directive written inside
//! another code block, a code span, an HTML block or a longer fence is text,
//! not a directive.

use crate::attrs;
use memchr::memmem;
use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use std::ops::Range;

/// How a directive is written: the words its info string starts with
/// (`["rust", "example"]`), and whether an ```` ```output ```` block right
/// after it belongs to it. The directive layer's registry holds one per
/// directive; this module knows no directive by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pattern {
    /// The words that start the info string.
    pub words: &'static [&'static str],
    /// An ```` ```output ```` block right after it is its expected output.
    pub takes_output: bool,
}

impl Pattern {
    /// Whether an info string starts with this pattern's words (a word
    /// may carry `=value`, which then makes it no name).
    pub fn matches(&self, info: &str) -> bool {
        let mut words = info
            .split([' ', '\t', ','])
            .filter(|w| !w.is_empty())
            .map(|w| w.split('=').next().unwrap_or(w));
        self.words.iter().all(|want| words.next() == Some(want))
    }

    /// Whether `rest`, the text right after a fence's backticks or tildes
    /// and blanks, may start this pattern: the byte pre-filter's test.
    fn may_start(&self, rest: &str) -> bool {
        let mut rest = rest;
        for (i, word) in self.words.iter().enumerate() {
            if i > 0 {
                let Some(r) = rest.strip_prefix([' ', ',', '\t']) else {
                    return false;
                };
                rest = r.trim_start_matches([' ', ',', '\t']);
            }
            let Some(r) = rest.strip_prefix(word) else {
                return false;
            };
            rest = r;
        }
        true
    }
}

/// A fenced code block as it stands in the chapter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fence {
    /// The raw info string as written (after the fence characters, trimmed).
    pub info: String,
    /// Byte offset of the info string in the chapter.
    pub info_offset: usize,
    /// The code, with container prefixes removed and line ends as `\n`.
    pub body: String,
    /// Byte offset of the first body line in the chapter.
    pub body_offset: usize,
    /// Byte range of the whole block, fences included.
    pub range: Range<usize>,
}

/// A directive found in a chapter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// Which directive: the index of its pattern in the list [`scan`] was
    /// given.
    pub kind: usize,
    /// The directive's own fence.
    pub fence: Fence,
    /// An ```` ```output ```` block right after it, if any.
    pub output: Option<Fence>,
    /// An ```` ```asm ```` block right after it (before or after its
    /// output block), if any: claims about its assembly.
    pub asm: Option<Fence>,
    /// The text the replacement covers: the directive and the blocks
    /// that follow it.
    pub range: Range<usize>,
}

/// The Markdown extensions mdBook enables, so that block structure (tables,
/// footnotes, definition lists) is seen as mdBook sees it.
pub fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_DEFINITION_LIST
        | Options::ENABLE_GFM
}

/// A cheap test that rules out chapters with no directive at all, so that
/// most chapters of a large book are never parsed as Markdown: it looks for
/// a fence (three backticks or tildes) directly followed by one of the
/// `patterns`. It may say yes for a look-alike (inside a longer fence,
/// say); the parser then decides.
pub fn may_contain_directive(text: &str, patterns: &[Pattern]) -> bool {
    let bytes = text.as_bytes();
    memmem::find_iter(bytes, b"```")
        .chain(memmem::find_iter(bytes, b"~~~"))
        .any(|at| {
            let rest = &text[at..];
            let rest = rest
                .trim_start_matches(['`', '~'])
                .trim_start_matches([' ', '\t']);
            patterns.iter().any(|p| p.may_start(rest))
        })
}

/// Every fenced code block at the top level of `text` (not nested in
/// another code block), in order.
pub fn fences(text: &str) -> Vec<Fence> {
    let mut out = Vec::new();
    let mut parser = Parser::new_ext(text, options()).into_offset_iter();
    while let Some((event, range)) = parser.next() {
        let Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(_))) = event else {
            continue;
        };
        let mut body = String::new();
        let mut body_offset = None;
        for (event, inner) in parser.by_ref() {
            match event {
                Event::Text(t) => {
                    body_offset.get_or_insert(inner.start);
                    body.push_str(&t);
                }
                Event::End(TagEnd::CodeBlock) => break,
                _ => {}
            }
        }
        let (info, info_offset) = raw_info(text, range.start);
        let body_offset = body_offset.unwrap_or_else(|| next_line(text, range.start));
        if body.contains('\r') {
            body = body.replace("\r\n", "\n");
        }
        out.push(Fence {
            info: info.to_owned(),
            info_offset,
            body,
            body_offset,
            range,
        });
    }
    out
}

/// Finds the directives of a chapter: the fences whose info string
/// matches one of `patterns`.
pub fn scan(text: &str, patterns: &[Pattern]) -> Vec<Block> {
    if !may_contain_directive(text, patterns) {
        return Vec::new();
    }
    let fences = fences(text);
    let mut blocks = Vec::new();
    let mut iter = fences.into_iter().peekable();
    while let Some(fence) = iter.next() {
        let Some(kind) = patterns.iter().position(|p| p.matches(&fence.info)) else {
            continue;
        };
        // Its output and asm blocks, in either order, each at most once.
        let mut output = None;
        let mut asm = None;
        let mut end = fence.range.end;
        while let Some(next) = iter.peek().filter(|_| patterns[kind].takes_output) {
            if !only_blank_between(text, end, next.range.start) {
                break;
            }
            let slot = match first_word(&next.info) {
                "output" => &mut output,
                "asm" => &mut asm,
                _ => break,
            };
            if slot.is_some() {
                break;
            }
            end = next.range.end;
            *slot = iter.next();
        }
        blocks.push(Block {
            kind,
            range: fence.range.start..end,
            fence,
            output,
            asm,
        });
    }
    blocks
}

/// The `{{#NAME FILE}}` links of `text` as blocks of `kind` (their info
/// is `WORDS src="FILE"`): a link alone on its line, outside code, is the
/// directive. mdBook's `links` treats a link inside code (a fence or a
/// span) or among other words as a link too (it expands `{{#include}}`
/// there), so such a link is a block too, its info ending in `link=code`
/// for the directive to refuse; a link at an offset in `escaped` was
/// written `\{{#NAME FILE}}` (mdBook shows it as written, without the
/// backslash) and is no block at all.
pub fn link_blocks(
    text: &str,
    name: &str,
    words: &[&str],
    kind: usize,
    escaped: &[usize],
) -> Vec<Block> {
    let open = format!("{{{{#{name}");
    if !text.contains(&open) {
        return Vec::new();
    }
    let code: Vec<Range<usize>> = fences(text).into_iter().map(|f| f.range).collect();
    let mut out = Vec::new();
    for (from, file, end) in links(text, name) {
        if escaped.contains(&from) {
            continue;
        }
        let line_start = text[..from].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[from..].find('\n').map_or(text.len(), |i| from + i);
        let alone =
            text[line_start..from].trim().is_empty() && text[end..line_end].trim().is_empty();
        let in_code = code.iter().any(|r| r.contains(&from));
        let info = match alone && !in_code {
            true => format!("{} src={:?}", words.join(" "), file),
            false => format!("{} src={:?} link=code", words.join(" "), file),
        };
        let range = from..end;
        out.push(Block {
            kind,
            fence: Fence {
                info,
                info_offset: from,
                body: String::new(),
                body_offset: range.end,
                range: range.clone(),
            },
            output: None,
            asm: None,
            range,
        });
    }
    out
}

/// Every `{{#NAME FILE}}` of `text` as mdBook's `links` finds one (`{{`,
/// blanks, `#NAME`, a blank, the path and properties up to `}}`): its
/// start, its file (the first word), its end.
fn links<'t>(text: &'t str, name: &str) -> Vec<(usize, &'t str, usize)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(i) = text[at..].find("{{") {
        let from = at + i;
        at = from + 2;
        let rest = text[at..].trim_start();
        let Some(rest) = rest.strip_prefix('#').and_then(|r| r.strip_prefix(name)) else {
            continue;
        };
        if !rest.starts_with(char::is_whitespace) {
            continue;
        }
        let Some(close) = rest.find("}}") else {
            continue;
        };
        let args = &rest[..close];
        if args.contains('}') {
            continue;
        }
        let Some(file) = args.split_whitespace().next() else {
            continue;
        };
        let end = text.len() - rest.len() + close + 2;
        out.push((from, file, end));
    }
    out
}

/// The offsets in `expanded` (a chapter after mdBook's `links`) of the
/// `{{#NAME …}}` links that `raw` (its file) wrote escaped, `\{{#NAME …}}`:
/// `links` drops the backslash, so only the file tells them apart. An
/// escape runs, as mdBook's does, from `\{{#` to the last `}}` of its
/// line. The links of both texts are paired in order by their text; one
/// only in `expanded` came through an `{{#include}}` and counts as written.
pub fn escaped_links(raw: &str, expanded: &str, name: &str) -> Vec<usize> {
    let mut written: Vec<(&str, bool)> = Vec::new();
    let mut start = 0;
    for line in raw.split_inclusive('\n') {
        let span = line.find("\\{{#").and_then(|s| {
            let end = line.rfind("}}")?;
            (end > s).then_some(start + s..start + end + 2)
        });
        for (from, _, end) in links(line, name) {
            let at = start + from;
            let escaped = span.as_ref().is_some_and(|r| at > r.start && at < r.end);
            written.push((&line[from..end], escaped));
        }
        start += line.len();
    }
    let mut out = Vec::new();
    let mut next = 0;
    for (from, _, end) in links(expanded, name) {
        let link = &expanded[from..end];
        if let Some(k) = written[next..].iter().position(|(w, _)| *w == link) {
            if written[next + k].1 {
                out.push(from);
            }
            next += k + 1;
        }
    }
    out
}

/// [`scan`], guarded against a panic inside the Markdown parser:
/// pulldown-cmark 0.13.6 panics on some odd nestings of block quotes, lists
/// and fences (found by `fuzz/`); such a chapter is reported, not fatal.
pub fn try_scan(text: &str, patterns: &[Pattern]) -> Result<Vec<Block>, String> {
    std::panic::catch_unwind(|| scan(text, patterns)).map_err(|payload| {
        let why = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let why = why.lines().next().unwrap_or("").to_owned();
        format!(
            "found Markdown that makes the Markdown parser (pulldown-cmark) fail ({why}); expected Markdown it can parse: look for an unusual nesting of block quotes, lists and code fences; the chapter's directives were left as written"
        )
    })
}

/// The first word of an info string.
pub fn first_word(info: &str) -> &str {
    info.split([' ', '\t', ',']).next().unwrap_or("")
}

/// True when only blank lines (or blank block-quote lines) separate two
/// blocks: the output block then belongs to the directive before it.
fn only_blank_between(text: &str, from: usize, to: usize) -> bool {
    text.get(from..to).is_some_and(|gap| {
        gap.lines().all(|l| {
            l.trim_matches(|c: char| c.is_whitespace() || c == '>')
                .is_empty()
        })
    })
}

/// The raw info string of the fence that starts at `start`, and its offset.
fn raw_info(text: &str, start: usize) -> (&str, usize) {
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let line = &text[start..line_end];
    let indent = line.len() - line.trim_start().len();
    let rest = &line[indent..];
    let fence_char = rest.chars().next().unwrap_or('`');
    let fence_len = rest.len() - rest.trim_start_matches(fence_char).len();
    let after = &rest[fence_len..];
    let lead = after.len() - after.trim_start().len();
    let info = after.trim();
    (info, start + indent + fence_len + lead)
}

fn next_line(text: &str, from: usize) -> usize {
    text[from..].find('\n').map_or(text.len(), |i| from + i + 1)
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = memchr::memchr_iter(b'\n', before.as_bytes()).count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before[line_start..].chars().count() + 1;
    (line, col)
}

/// Where line `line` (0-based) of a directive's body starts in the chapter,
/// the body starting at `body_offset`: the start of the chapter line, before
/// any container prefix (list indent, `> `).
pub fn body_line_offset(text: &str, body_offset: usize, line: usize) -> usize {
    let mut at = body_offset;
    for _ in 0..line {
        at = next_line(text, at);
    }
    at.min(text.len())
}

/// Lines of a replacement, written without container prefixes.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Out {
    lines: Vec<String>,
}

impl Out {
    /// An empty replacement.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one line (it must not contain a line break).
    pub fn line(&mut self, line: impl Into<String>) -> &mut Self {
        self.lines.push(line.into());
        self
    }

    /// Adds a blank line.
    pub fn blank(&mut self) -> &mut Self {
        self.lines.push(String::new());
        self
    }

    /// Adds a fenced code block holding `code`, with a fence longer than any
    /// backtick run inside the code.
    pub fn fence(&mut self, info: &str, code: &str) -> &mut Self {
        let fence = fence_for(code);
        self.line(format!("{fence}{info}"));
        for l in code.strip_suffix('\n').unwrap_or(code).split('\n') {
            self.line(l);
        }
        self.line(fence)
    }

    /// [`Out::fence`] inside a block quote, without its closing line: the
    /// quote's end (the next line without `>`) closes the code block, so
    /// it takes one line fewer.
    pub fn quoted_fence(&mut self, info: &str, code: &str) -> &mut Self {
        self.line(format!("> {}{info}", fence_for(code)));
        for l in code.strip_suffix('\n').unwrap_or(code).split('\n') {
            self.line(if l.is_empty() {
                ">".to_owned()
            } else {
                format!("> {l}")
            });
        }
        self
    }

    /// Adds every line of another replacement.
    pub fn append(&mut self, other: Out) -> &mut Self {
        self.lines.extend(other.lines);
        self
    }

    /// The lines written so far.
    pub fn lines(&self) -> &[String] {
        &self.lines
    }
}

/// A fence longer than any backtick run inside `code`.
fn fence_for(code: &str) -> String {
    let longest = code.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    "`".repeat((longest + 1).max(3))
}

/// Turns a replacement's lines into the text that takes the place of
/// `text[range]`: every line after the first gets the prefix of the
/// container the block sits in (list indentation, `> ` of a block quote),
/// lines end as the chapter's lines do, and a blank line is added after the
/// replacement when the following line is not blank, so a raw HTML block
/// cannot swallow the paragraph after it.
pub fn materialize(text: &str, range: &Range<usize>, out: &Out) -> String {
    let line_start = text[..range.start].rfind('\n').map_or(0, |i| i + 1);
    let prefix: String = text[line_start..range.start]
        .chars()
        .map(|c| if c == '>' || c == '\t' { c } else { ' ' })
        .collect();
    let blank_prefix = prefix.trim_end();
    let original = &text[range.clone()];
    let eol = if original.contains("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    let mut s = String::with_capacity(original.len() * 2 + 256);
    for (i, line) in out.lines.iter().enumerate() {
        if i > 0 {
            s.push_str(eol);
            s.push_str(if line.is_empty() {
                blank_prefix
            } else {
                &prefix
            });
        }
        s.push_str(line);
    }
    // The block's range stops before its closing fence's line end; the
    // line after that is the one an HTML block could swallow.
    let rest = &text[range.end..];
    let after_eol = rest
        .strip_prefix("\r\n")
        .or_else(|| rest.strip_prefix('\n'));
    if let Some(after) = after_eol {
        let next_line = after.split('\n').next().unwrap_or("");
        let next_blank = next_line
            .trim_matches(|c: char| c.is_whitespace() || c == '>')
            .is_empty();
        if !next_blank {
            s.push_str(eol);
            s.push_str(blank_prefix);
        }
    }
    s
}

/// Replaces each range of `text` with its replacement. Ranges must be
/// sorted and must not overlap; the text between them is copied unchanged.
pub fn splice(text: &str, replacements: &[(Range<usize>, String)]) -> String {
    let extra: usize = replacements.iter().map(|(_, r)| r.len()).sum();
    let mut out = String::with_capacity(text.len() + extra);
    let mut at = 0;
    for (range, replacement) in replacements {
        out.push_str(&text[at..range.start]);
        out.push_str(replacement);
        at = range.end;
    }
    out.push_str(&text[at..]);
    out
}

/// Splits an info string into the `names` words naming the directive and
/// the attributes after them.
pub fn attributes(fence: &Fence, names: usize) -> Result<Vec<attrs::Attr>, attrs::AttrError> {
    let words = attrs::words(&fence.info)?;
    let rest = words.get(names..).unwrap_or(&[]);
    attrs::parse(&fence.info, rest)
}

#[cfg(test)]
mod tests;
