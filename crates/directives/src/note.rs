//! A card's note (a reading-list note, a talk abstract): inline Markdown
//! made safe, as one line of HTML and one line of Markdown.

use mdbook_companion_core::escape::{escape_markdown, link_ok};
use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};
use std::ops::Range;

/// Renders a note as one line of HTML and one line of Markdown. Raw HTML
/// is shown as text in both; block structure (headings, code blocks) is
/// flattened to paragraphs and code spans, so nothing in a note reaches
/// the page outline; links must be http(s) or relative.
pub(crate) fn render_note(note: &str) -> Result<(String, String), String> {
    let options = Options::ENABLE_STRIKETHROUGH;
    let mut events = Vec::new();
    let mut raw_html: Vec<Range<usize>> = Vec::new();
    let mut in_code_block = false;
    for (event, range) in Parser::new_ext(note, options).into_offset_iter() {
        let event = match event {
            Event::Start(Tag::Link { ref dest_url, .. } | Tag::Image { ref dest_url, .. })
                if !link_ok(dest_url) =>
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
