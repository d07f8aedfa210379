//! A container block's body (```` ````compare ````, ```` ````exercise ````)
//! read as Markdown: its top-level pieces (fences and other Markdown) in
//! order, with every offset mapped back to the chapter (list indents and
//! block-quote markers included), so errors point at the exact line and
//! column.

use mdbook_companion_core::escape::{escape, link_ok};
use mdbook_companion_core::markdown::{self, Fence};
use mdbook_companion_core::problem::Problem;
use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag};

/// Maps offsets in a container block's body to offsets in the chapter.
pub(crate) struct Mapper {
    /// Where each body line starts, in the body.
    body_lines: Vec<usize>,
    /// Where each body line's text starts in the chapter: after the
    /// container prefix (list indent, `> `) for all but the first.
    chapter_lines: Vec<usize>,
    len: usize,
}

impl Mapper {
    /// A mapper for `body`, which starts at `body_offset` of the chapter
    /// `text`, every line after the first behind `prefix` bytes.
    pub(crate) fn new(text: &str, body: &str, body_offset: usize, prefix: usize) -> Self {
        let body_lines: Vec<usize> = std::iter::once(0)
            .chain(memchr::memchr_iter(b'\n', body.as_bytes()).map(|i| i + 1))
            .collect();
        let mut chapter_lines = Vec::with_capacity(body_lines.len());
        let mut at = body_offset;
        for i in 0..body_lines.len() {
            chapter_lines.push(if i == 0 { at } else { at + prefix });
            at = text[at.min(text.len())..]
                .find('\n')
                .map_or(text.len(), |n| at + n + 1);
        }
        Self {
            body_lines,
            chapter_lines,
            len: text.len(),
        }
    }

    /// The mapper of a container fence's body in the chapter `text`.
    pub(crate) fn for_block(text: &str, fence: &Fence) -> Self {
        let line_start = text[..fence.body_offset.min(text.len())]
            .rfind('\n')
            .map_or(0, |i| i + 1);
        Mapper::new(
            text,
            &fence.body,
            fence.body_offset,
            fence.body_offset.saturating_sub(line_start),
        )
    }

    /// The chapter offset of body offset `at`.
    pub(crate) fn map(&self, at: usize) -> usize {
        let line = self.body_lines.partition_point(|&start| start <= at) - 1;
        (self.chapter_lines[line] + at - self.body_lines[line]).min(self.len)
    }

    /// A fence of the body with its offsets in the chapter.
    pub(crate) fn fence(&self, f: &Fence) -> Fence {
        Fence {
            info: f.info.clone(),
            info_offset: self.map(f.info_offset),
            body: f.body.clone(),
            body_offset: self.map(f.body_offset),
            range: self.map(f.range.start)..self.map(f.range.end),
        }
    }
}

/// A top-level piece of the body: a fence, or any other Markdown.
pub(crate) enum Item {
    /// A fenced code block.
    Fence(Fence),
    /// Other Markdown: what it is (`a paragraph`) and its range in the body.
    Markdown(&'static str, std::ops::Range<usize>),
}

fn describe(tag: &Tag<'_>) -> &'static str {
    match tag {
        Tag::Paragraph => "a paragraph",
        Tag::Heading { .. } => "a heading",
        Tag::BlockQuote(_) => "a block quote",
        Tag::List(_) => "a list",
        Tag::HtmlBlock => "an HTML block",
        Tag::Table(_) => "a table",
        Tag::CodeBlock(CodeBlockKind::Indented) => "an indented code block",
        Tag::FootnoteDefinition(_) => "a footnote definition",
        Tag::DefinitionList => "a definition list",
        _ => "other Markdown",
    }
}

/// The top-level pieces of a body, in order.
pub(crate) fn items(body: &str) -> Vec<Item> {
    let mut fences = markdown::fences(body).into_iter();
    let mut out = Vec::new();
    let mut parser = Parser::new_ext(body, markdown::options()).into_offset_iter();
    while let Some((event, range)) = parser.next() {
        match event {
            Event::Start(tag) => {
                let mut depth = 1usize;
                for (e, _) in parser.by_ref() {
                    match e {
                        Event::Start(_) => depth += 1,
                        Event::End(_) => depth -= 1,
                        _ => {}
                    }
                    if depth == 0 {
                        break;
                    }
                }
                match tag {
                    Tag::CodeBlock(CodeBlockKind::Fenced(_)) => {
                        if let Some(f) = fences.next() {
                            out.push(Item::Fence(f));
                        }
                    }
                    other => out.push(Item::Markdown(describe(&other), range)),
                }
            }
            Event::Rule => out.push(Item::Markdown("a horizontal rule", range)),
            _ => out.push(Item::Markdown("text", range)),
        }
    }
    out
}

/// Whether a fence of `body` (its range in `body`) has a closing fence
/// line: a side that runs to the end of the block never closed.
pub(crate) fn closes(body: &str, range: &std::ops::Range<usize>) -> bool {
    let text = body.get(range.clone()).unwrap_or("");
    let open = text.trim_start();
    let Some(ch) = open.chars().next() else {
        return false;
    };
    let width = open.chars().take_while(|&c| c == ch).count();
    let mut lines = text.trim_end().lines();
    lines.next();
    lines.next_back().is_some_and(|last| {
        let last = last.trim();
        last.len() >= width && last.chars().all(|c| c == ch)
    })
}

/// An author's Markdown (a side's note, an exercise's task) as the page
/// renders it, with raw HTML turned into text (raw markup could inject
/// script or unbalance the block's `<div>`) and its links checked (http(s)
/// or relative only). `at` locates errors; `whose` names the text in them
/// (`this side's note`).
pub(crate) fn safe_markdown(note: &str, at: usize, whose: &str) -> Result<String, Problem> {
    let mut out = String::with_capacity(note.len());
    let mut done = 0;
    for (event, range) in Parser::new(note).into_offset_iter() {
        match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. })
                if !link_ok(&dest_url) =>
            {
                return Err(Problem::at(
                    at,
                    format!(
                        "found a link to `{dest_url}` in {whose}; expected an http(s) or relative link"
                    ),
                ));
            }
            Event::Html(_) | Event::InlineHtml(_) if range.start >= done => {
                out.push_str(&note[done..range.start]);
                out.push_str(&escape(&note[range.clone()]));
                done = range.end;
            }
            _ => {}
        }
    }
    out.push_str(note.get(done..).unwrap_or(""));
    Ok(out)
}
