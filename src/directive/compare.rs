//! Comparison blocks: ```` ````compare title="…" layout=tabs asm ````.
//!
//! A compare block holds two to four fenced code blocks (`c`, `cpp`,
//! `rust`, `python`), each optionally followed by a note paragraph and an
//! ```` ```output ```` block. On an HTML page the sides stand in columns
//! (stacking on narrow screens) or in tabs made of radio inputs, so neither
//! needs JavaScript; each side stays a real mdBook code block, the Rust
//! side rendered by the example directive (play button, outcome, links).
//! One "Compare in Compiler Explorer" link opens every compiled side in one
//! session. With `asm`, each side's assembly is made at build time
//! ([`crate::asm`]) and shown in a collapsible panel.
//!
//! The body is parsed here with pulldown-cmark, as the chapter is, and
//! every offset is mapped back to the chapter so that errors point at the
//! exact line and column.

use super::example::{Example, asm_panel};
use super::{Attrs, Env, Problem, Rendered, Target, escape, escape_markdown};
use crate::asm;
use crate::attrs::{self, Attr};
use crate::cache::Cache;
use crate::code;
use crate::expect::Expect;
use crate::links::{self, Session};
use crate::markdown::{self, Block, Fence, Kind, Out};
use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag};

/// The languages a side can be written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// C: compiled with `cc`, hidden lines with the configured prefix.
    C,
    /// C++: compiled with `cc`, hidden lines with the configured prefix.
    Cpp,
    /// Rust: a full example (attributes, outcome, Playground).
    Rust,
    /// Python: shown and highlighted, not compiled.
    Python,
}

/// The fence names of the languages, for parsing and messages.
const LANGS: [(&str, Lang); 4] = [
    ("c", Lang::C),
    ("cpp", Lang::Cpp),
    ("rust", Lang::Rust),
    ("python", Lang::Python),
];

/// The known side languages, for messages.
pub const KNOWN_LANGS: &str = "c, cpp, rust, python";

/// The container attributes, for messages.
pub const KNOWN: &str = "title, layout, asm";

impl Lang {
    /// The fence name (`cpp`), which is also highlight.js's name.
    pub fn fence(self) -> &'static str {
        match self {
            Lang::C => "c",
            Lang::Cpp => "cpp",
            Lang::Rust => "rust",
            Lang::Python => "python",
        }
    }

    /// The name a reader sees.
    pub fn label(self) -> &'static str {
        match self {
            Lang::C => "C",
            Lang::Cpp => "C++",
            Lang::Rust => "Rust",
            Lang::Python => "Python",
        }
    }

    /// The language for [`crate::asm`], if it compiles.
    pub fn asm(self) -> Option<asm::Lang> {
        match self {
            Lang::C => Some(asm::Lang::C),
            Lang::Cpp => Some(asm::Lang::Cpp),
            Lang::Rust => Some(asm::Lang::Rust),
            Lang::Python => None,
        }
    }
}

/// How the sides are laid out on an HTML page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Side by side, stacking on narrow screens.
    Columns,
    /// One side at a time, chosen by tabs.
    Tabs,
}

/// One side of a comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct Side {
    /// Its language.
    pub lang: Lang,
    /// The caption above the code.
    pub caption: Option<String>,
    /// The code as written, hidden-line markers included.
    pub code: String,
    /// What the reader sees: hidden lines dropped.
    pub shown: String,
    /// The full source for compiling, checking and links: hidden lines
    /// included, their markers stripped.
    pub source: String,
    /// The expected outcome; `None` for a side that is only shown
    /// (Python).
    pub expect: Option<Expect>,
    /// The expected output, from an ```` ```output ```` block.
    pub output: Option<String>,
    /// Byte range in the chapter of that ```` ```output ```` block, fences
    /// included (where `check --bless` writes).
    pub output_range: Option<std::ops::Range<usize>>,
    /// The note paragraph after the side's fence, as Markdown.
    pub note: Option<String>,
    /// Show this side's assembly (the side's or the block's `asm`).
    pub asm: bool,
    /// Byte offset in the chapter of the side's fence.
    pub offset: usize,
    /// Byte offset in the chapter of the side's info string.
    pub info_offset: usize,
    /// The Rust side's example model.
    pub example: Option<Example>,
}

/// A parsed comparison block.
#[derive(Debug, Clone, PartialEq)]
pub struct Compare {
    /// The block's title.
    pub title: Option<String>,
    /// Columns or tabs.
    pub layout: Layout,
    /// Show every side's assembly.
    pub asm: bool,
    /// The sides, in order.
    pub sides: Vec<Side>,
}

/// The sides of a compare block, for `check`: each with its full source,
/// expected outcome and output, and where it stands in the chapter.
pub fn sides(block: &Block, env: &Env<'_>) -> Result<Vec<Side>, Problem> {
    Compare::parse(block, env).map(|c| c.sides)
}

/// Maps offsets in a compare block's body to offsets in the chapter.
struct Mapper {
    /// Where each body line starts, in the body.
    body_lines: Vec<usize>,
    /// Where each body line's text starts in the chapter: after the
    /// container prefix (list indent, `> `) for all but the first.
    chapter_lines: Vec<usize>,
    len: usize,
}

impl Mapper {
    fn new(text: &str, body: &str, body_offset: usize, prefix: usize) -> Self {
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

    fn map(&self, at: usize) -> usize {
        let line = self.body_lines.partition_point(|&start| start <= at) - 1;
        (self.chapter_lines[line] + at - self.body_lines[line]).min(self.len)
    }

    fn fence(&self, f: &Fence) -> Fence {
        Fence {
            info: f.info.clone(),
            info_offset: self.map(f.info_offset),
            body: f.body.clone(),
            body_offset: self.map(f.body_offset),
            range: self.map(f.range.start)..self.map(f.range.end),
        }
    }
}

/// A top-level piece of the body.
enum Item {
    Fence(Fence),
    Paragraph(std::ops::Range<usize>),
    Other(&'static str, usize),
}

const ALLOWED: &str = "expected fenced code blocks (```c, ```cpp, ```rust, ```python), each followed by an optional note paragraph and an optional ```output block";

fn describe(tag: &Tag<'_>) -> &'static str {
    match tag {
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
fn items(body: &str) -> Vec<Item> {
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
                    Tag::Paragraph => out.push(Item::Paragraph(range)),
                    other => out.push(Item::Other(describe(&other), range.start)),
                }
            }
            Event::Rule => out.push(Item::Other("a horizontal rule", range.start)),
            _ => out.push(Item::Other("text", range.start)),
        }
    }
    out
}

impl Compare {
    /// Parses a compare block: its attributes and its sides.
    pub fn parse(block: &Block, env: &Env<'_>) -> Result<Compare, Problem> {
        let fence = &block.fence;
        let attrs =
            markdown::attributes(fence, Kind::Compare).map_err(|e| Problem::from_attr(fence, e))?;
        let mut cmp = Compare {
            title: None,
            layout: Layout::Columns,
            asm: false,
            sides: Vec::new(),
        };
        let mut a = Attrs::new(fence);
        for attr in &attrs {
            let key = attr.key.as_str();
            a.once(attr, key)?;
            match key {
                "title" => cmp.title = Some(a.string(attr)?),
                "layout" => {
                    cmp.layout = a.choice(
                        attr,
                        &[("columns", Layout::Columns), ("tabs", Layout::Tabs)],
                    )?;
                }
                "asm" => cmp.asm = a.boolean(attr)?,
                _ => {
                    return Err(a.problem(
                        attr,
                        format!("found unknown attribute `{key}`; expected one of {KNOWN}"),
                    ));
                }
            }
        }
        let text = env.text;
        let line_start = text[..fence.body_offset.min(text.len())]
            .rfind('\n')
            .map_or(0, |i| i + 1);
        let mapper = Mapper::new(
            text,
            &fence.body,
            fence.body_offset,
            fence.body_offset.saturating_sub(line_start),
        );
        // A side's pieces as they are met: fence, note, output.
        struct Pending {
            fence: Fence,
            note: Option<String>,
            output: Option<Fence>,
        }
        let mut pending: Vec<Pending> = Vec::new();
        for item in items(&fence.body) {
            match item {
                Item::Fence(f) => {
                    let mapped = mapper.fence(&f);
                    let lang = markdown::first_word(&f.info);
                    if lang == "output" {
                        match pending.last_mut() {
                            Some(p) if p.output.is_none() => p.output = Some(mapped),
                            Some(p) => {
                                return Err(Problem::at(
                                    mapped.range.start,
                                    format!(
                                        "found a second ```output block after the `{}` side; expected one output block per side",
                                        markdown::first_word(&p.fence.info)
                                    ),
                                ));
                            }
                            None => {
                                return Err(Problem::at(
                                    mapped.range.start,
                                    "found an ```output block before the first side; expected it after the side's code",
                                ));
                            }
                        }
                        continue;
                    }
                    if !LANGS.iter().any(|(n, _)| *n == lang) {
                        let found = if lang.is_empty() {
                            "a code block without a language".to_owned()
                        } else {
                            format!("a `{lang}` code block")
                        };
                        return Err(Problem::at(
                            if lang.is_empty() {
                                mapped.range.start
                            } else {
                                mapped.info_offset
                            },
                            format!("found {found}; expected a side in one of {KNOWN_LANGS}"),
                        ));
                    }
                    if pending.len() == 4 {
                        return Err(Problem::at(
                            mapped.range.start,
                            "found a 5th side; expected 2 to 4 sides in a compare block",
                        ));
                    }
                    pending.push(Pending {
                        fence: mapped,
                        note: None,
                        output: None,
                    });
                }
                Item::Paragraph(range) => {
                    let at = mapper.map(range.start);
                    let note = fence.body[range].trim_end().to_owned();
                    match pending.last_mut() {
                        Some(p) if p.note.is_none() && p.output.is_none() => p.note = Some(note),
                        Some(p) => {
                            let side = markdown::first_word(&p.fence.info);
                            let why = if p.output.is_some() {
                                "expected the note before the ```output block"
                            } else {
                                "expected one note paragraph per side"
                            };
                            return Err(Problem::at(
                                at,
                                format!("found a second paragraph after the `{side}` side; {why}"),
                            ));
                        }
                        None => {
                            return Err(Problem::at(
                                at,
                                format!("found a paragraph before the first side; {ALLOWED}"),
                            ));
                        }
                    }
                }
                Item::Other(what, at) => {
                    return Err(Problem::at(
                        mapper.map(at),
                        format!("found {what} in a compare block; {ALLOWED}"),
                    ));
                }
            }
        }
        if pending.len() < 2 {
            let found = match pending.len() {
                0 => "no side".to_owned(),
                _ => "1 side".to_owned(),
            };
            return Err(Problem::at(
                fence.info_offset,
                format!("found {found}; expected 2 to 4 fenced code blocks in a compare block"),
            ));
        }
        for p in pending {
            cmp.sides
                .push(side(p.fence, p.note, p.output, cmp.asm, env)?);
        }
        Ok(cmp)
    }
}

/// A side's note, Markdown the page renders, with raw HTML turned into
/// text (raw markup could inject script or unbalance the side's `<div>`)
/// and its links checked (http(s) or relative only). `at` locates errors.
fn safe_note(note: &str, at: usize) -> Result<String, Problem> {
    let mut out = String::with_capacity(note.len());
    let mut done = 0;
    for (event, range) in Parser::new(note).into_offset_iter() {
        match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. })
                if !super::reading::note_link_ok(&dest_url) =>
            {
                return Err(Problem::at(
                    at,
                    format!(
                        "found a link to `{dest_url}` in this side's note; expected an http(s) or relative link"
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

/// Parses one side from its (chapter-mapped) fence.
fn side(
    fence: Fence,
    note: Option<String>,
    output: Option<Fence>,
    block_asm: bool,
    env: &Env<'_>,
) -> Result<Side, Problem> {
    let lang = LANGS
        .iter()
        .find(|(n, _)| *n == markdown::first_word(&fence.info))
        .map_or(Lang::C, |(_, l)| *l);
    let words = attrs::words(&fence.info).map_err(|e| Problem::from_attr(&fence, e))?;
    let list = attrs::parse(&fence.info, words.get(1..).unwrap_or(&[]))
        .map_err(|e| Problem::from_attr(&fence, e))?;
    let a = Attrs::new(&fence);
    let mut caption = None;
    let mut rest: Vec<Attr> = Vec::new();
    for attr in list {
        if attr.key == "caption" {
            if caption.is_some() {
                return Err(a.problem(
                    &attr,
                    "found `caption` a second time; expected each attribute once",
                ));
            }
            caption = Some(a.string(&attr)?);
        } else {
            rest.push(attr);
        }
    }
    let mut s = Side {
        lang,
        caption,
        code: fence.body.clone(),
        shown: String::new(),
        source: String::new(),
        expect: None,
        output: output.as_ref().map(|o| o.body.clone()),
        output_range: output.as_ref().map(|o| o.range.clone()),
        note: note.map(|n| safe_note(&n, fence.info_offset)).transpose()?,
        asm: block_asm,
        offset: fence.range.start,
        info_offset: fence.info_offset,
        example: None,
    };
    match lang {
        Lang::Rust => {
            let mut ex =
                Example::parse(&fence, &rest, output.as_ref(), env.config).map_err(|mut p| {
                    if p.message.starts_with("found unknown attribute") {
                        p.message.push_str(", and caption on a compare side");
                    }
                    p
                })?;
            ex.title = s.caption.clone().or(ex.title.take());
            ex.asm |= block_asm;
            s.asm = ex.asm;
            s.shown = code::rust_shown(&ex.code);
            s.source = ex.source();
            s.expect = Some(ex.expect);
            s.example = Some(ex);
        }
        Lang::C | Lang::Cpp => {
            let mut a = Attrs::new(&fence);
            s.expect = Some(Expect::Compile);
            for attr in &rest {
                let key = attr.key.as_str();
                a.once(attr, key)?;
                match key {
                    "expect" => s.expect = Some(a.choice(attr, &Expect::C_CHOICES)?),
                    "asm" => s.asm = a.boolean(attr)? || block_asm,
                    _ => {
                        return Err(a.problem(
                            attr,
                            format!(
                                "found unknown attribute `{key}` on a `{}` side; expected one of caption, expect, asm",
                                lang.fence()
                            ),
                        ));
                    }
                }
            }
            let (shown, full) = code::c_split(&fence.body, &env.config.c_hidden_prefix);
            s.shown = shown;
            s.source = full;
        }
        Lang::Python => {
            if let Some(attr) = rest.first() {
                return Err(a.problem(
                    attr,
                    format!(
                        "found unknown attribute `{}` on a `python` side; expected only caption",
                        attr.key
                    ),
                ));
            }
            s.shown = fence.body.clone();
            s.source = fence.body.clone();
        }
    }
    if s.shown.trim().is_empty() {
        return Err(Problem::at(
            fence.info_offset,
            format!(
                "found an empty `{}` side; expected code the reader can see",
                lang.fence()
            ),
        ));
    }
    Ok(s)
}

impl Side {
    /// This side's Compiler Explorer session (compiled sides only),
    /// optimised as `-O2` / `opt-level=2` so the sides compare fairly.
    pub fn session(&self, config: &crate::config::Config) -> Option<Session> {
        let (language, compiler, options) = match self.lang {
            Lang::C => ("c", config.c_compiler.clone(), "-O2".to_owned()),
            Lang::Cpp => ("c++", config.cpp_compiler.clone(), "-O2".to_owned()),
            Lang::Rust => {
                let edition = self.example.as_ref().map_or(config.edition, |e| e.edition);
                (
                    "rust",
                    config.rust_compiler.clone(),
                    links::rust_options(edition, 2),
                )
            }
            Lang::Python => return None,
        };
        Some(Session {
            language,
            source: self.source.clone(),
            compiler,
            options,
        })
    }

    /// The assembly request for this side.
    fn asm_request<'s>(&'s self, source: &'s str, edition: u16) -> Option<asm::Request<'s>> {
        Some(asm::Request {
            lang: self.lang.asm()?,
            source,
            shown: &self.shown,
            edition,
        })
    }

    /// The title of the side's header.
    fn heading(&self) -> String {
        self.caption
            .clone()
            .unwrap_or_else(|| self.lang.label().to_owned())
    }
}

/// A Compiler Explorer link for `sessions`, with a warning when it had to
/// fall back to the bare site.
fn ce_link(
    env: &Env<'_>,
    sessions: &[Session],
    at: usize,
    warnings: &mut Vec<Problem>,
) -> Option<String> {
    let base = env.config.compiler_explorer_url.as_ref()?;
    if sessions.is_empty() {
        return None;
    }
    Some(match links::compiler_explorer(base, sessions) {
        Ok(url) => url,
        Err(e) => {
            warnings.push(Problem::at(at, format!(
                "the Compiler Explorer link would be {} bytes even compressed, more than {}; linking to Compiler Explorer without the code",
                e.len,
                links::MAX_URL_LEN
            )));
            e.fallback
        }
    })
}

fn anchor(label: &str, url: &str) -> String {
    format!(
        "<a class=\"companion-link\" href=\"{}\">{}</a>",
        escape(url),
        escape(label)
    )
}

/// A short id, unique on the page and on the print page (which joins
/// every chapter): a hash of the chapter's file and the block's offset.
fn block_id(env: &Env<'_>, at: usize) -> String {
    let key = Cache::key(&[env.file.as_bytes(), at.to_string().as_bytes()]);
    format!("companion-cmp-{}", &key[..10])
}

impl Compare {
    /// Renders the block for `env.target`.
    pub fn render(&self, env: &Env<'_>, at: usize) -> Result<Rendered, Problem> {
        match env.target {
            Target::Test => Ok(self.render_test(env)),
            Target::Html => self.render_html(env, at),
            Target::Markdown => Ok(self.render_markdown(env, at)),
        }
    }

    /// `mdbook test`: only the Rust sides, as plain Rust fences.
    fn render_test(&self, env: &Env<'_>) -> Rendered {
        let mut r = Rendered::default();
        for (i, s) in self.sides.iter().enumerate() {
            if let Some(ex) = &s.example {
                if i > 0 && !r.out.lines().is_empty() {
                    r.out.blank();
                }
                r.out.append(ex.render(env, s.info_offset).out);
            }
        }
        r
    }

    fn render_html(&self, env: &Env<'_>, at: usize) -> Result<Rendered, Problem> {
        let mut r = Rendered::default();
        let mut warnings = Vec::new();
        let sessions: Vec<Session> = self
            .sides
            .iter()
            .filter_map(|s| s.session(env.config))
            .collect();
        let compare_link = ce_link(env, &sessions, at, &mut warnings);
        let layout = match self.layout {
            Layout::Columns => "columns",
            Layout::Tabs => "tabs",
        };
        let out = &mut r.out;
        out.line(format!(
            "<div class=\"companion-compare companion-layout-{layout}\">"
        ));
        if let Some(title) = &self.title {
            out.line(format!(
                "<div class=\"companion-header\"><span class=\"companion-title\">{}</span></div>",
                escape(title)
            ));
        }
        out.line("<div class=\"companion-sides\">");
        if self.layout == Layout::Tabs {
            let id = block_id(env, at);
            for i in 0..self.sides.len() {
                out.line(format!(
                    "<input type=\"radio\" class=\"companion-tab-input\" name=\"{id}\" id=\"{id}-{i}\"{}><label class=\"companion-tab\" for=\"{id}-{i}\">{}</label>",
                    if i == 0 { " checked" } else { "" },
                    escape(&self.tab_label(i))
                ));
            }
        }
        for s in &self.sides {
            out.line(format!(
                "<div class=\"companion-side companion-side-{}\">",
                s.lang.fence()
            ));
            let listing = if s.asm {
                let source = match &s.example {
                    Some(ex) if ex.wants_asm() => Some(code::rust_program(&s.source)),
                    Some(_) => None,
                    None => Some(s.source.clone()),
                };
                let edition = s.example.as_ref().map_or(env.config.edition, |e| e.edition);
                match source
                    .as_deref()
                    .and_then(|src| s.asm_request(src, edition))
                {
                    Some(req) => {
                        asm::for_page(&req, env, s.info_offset, &mut warnings, &mut r.missing)?
                    }
                    None => None,
                }
            } else {
                None
            };
            if let Some(ex) = &s.example {
                let side = ex.render_with(env, s.info_offset, listing.as_deref());
                warnings.extend(side.warnings);
                out.append(side.out);
            } else {
                self.c_side_html(out, s, env, listing.as_deref(), &mut warnings);
            }
            if let Some(note) = &s.note {
                out.line("<div class=\"companion-note\">");
                out.blank();
                for l in note.split('\n') {
                    out.line(l);
                }
                out.blank();
                out.line("</div>");
            }
            out.line("</div>");
        }
        out.line("</div>");
        if let Some(url) = compare_link {
            out.line(format!(
                "<div class=\"companion-links companion-compare-links\">{}</div>",
                anchor("Compare in Compiler Explorer", &url)
            ));
        }
        out.line("</div>");
        r.warnings = warnings;
        Ok(r)
    }

    /// A tab's label: the language, or the caption (else a number) when
    /// two sides share a language.
    fn tab_label(&self, i: usize) -> String {
        let side = &self.sides[i];
        let same = self.sides.iter().filter(|s| s.lang == side.lang).count();
        if same == 1 {
            return side.lang.label().to_owned();
        }
        match &side.caption {
            Some(c) => c.clone(),
            None => {
                let nth = self.sides[..=i]
                    .iter()
                    .filter(|s| s.lang == side.lang)
                    .count();
                format!("{} {nth}", side.lang.label())
            }
        }
    }

    /// A C, C++ or Python side: the same frame as an example.
    fn c_side_html(
        &self,
        out: &mut Out,
        s: &Side,
        env: &Env<'_>,
        listing: Option<&str>,
        warnings: &mut Vec<Problem>,
    ) {
        out.line(format!(
            "<div class=\"companion-example companion-expect-{}\">",
            s.expect.map_or("shown", Expect::name)
        ));
        let badge = s.expect.map_or("", Expect::badge);
        let badge = if badge.is_empty() {
            String::new()
        } else {
            format!("<span class=\"companion-badge\">{badge}</span>")
        };
        out.line(format!(
            "<div class=\"companion-header\"><span class=\"companion-title\">{}</span>{badge}</div>",
            escape(&s.heading())
        ));
        out.blank().fence(s.lang.fence(), &s.shown).blank();
        if let Some(output) = &s.output {
            out.line(format!(
                "<div class=\"companion-output\"><div class=\"companion-output-label\">{}</div>",
                s.expect.map_or("Output", Expect::output_label)
            ));
            out.blank().fence("text", output).blank();
            out.line("</div>");
        }
        if let Some(listing) = listing {
            asm_panel(out, listing, "cc -O2");
        }
        let session: Vec<Session> = s.session(env.config).into_iter().collect();
        if let Some(url) = ce_link(env, &session, s.info_offset, warnings) {
            out.line(format!(
                "<div class=\"companion-links\">{}</div>",
                anchor("Compiler Explorer", &url)
            ));
        }
        out.line("</div>");
    }

    /// Other renderers: a title, then each side as a plain fence with its
    /// caption, note and output, then the comparison link.
    fn render_markdown(&self, env: &Env<'_>, at: usize) -> Rendered {
        let mut r = Rendered::default();
        let mut warnings = Vec::new();
        let out = &mut r.out;
        if let Some(title) = &self.title {
            out.line(format!("**{}**", escape_markdown(title))).blank();
        }
        for (i, s) in self.sides.iter().enumerate() {
            if i > 0 {
                out.blank();
            }
            if let Some(ex) = &s.example {
                let side = ex.render(env, s.info_offset);
                warnings.extend(side.warnings);
                out.append(side.out);
            } else {
                let badge = s.expect.map_or("", Expect::badge);
                let badge = if badge.is_empty() {
                    String::new()
                } else {
                    format!(" — *{badge}*")
                };
                out.line(format!("**{}**{badge}", escape_markdown(&s.heading())));
                out.blank().fence(s.lang.fence(), &s.shown);
                if let Some(output) = &s.output {
                    out.blank()
                        .line(format!(
                            "{}:",
                            s.expect.map_or("Output", Expect::output_label)
                        ))
                        .blank()
                        .fence("text", output);
                }
            }
            if let Some(note) = &s.note {
                out.blank();
                for l in note.split('\n') {
                    out.line(l);
                }
            }
        }
        let sessions: Vec<Session> = self
            .sides
            .iter()
            .filter_map(|s| s.session(env.config))
            .collect();
        if let Some(url) = ce_link(env, &sessions, at, &mut warnings) {
            out.blank()
                .line(format!("[Compare in Compiler Explorer](<{url}>)"));
        }
        r.warnings = warnings;
        r
    }
}

/// Parses and renders a compare block.
pub fn render(block: &Block, env: &Env<'_>) -> Result<Rendered, Problem> {
    Compare::parse(block, env)?.render(env, block.fence.info_offset)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::markdown::scan;
    use pretty_assertions::assert_eq;
    use std::path::PathBuf;

    fn config() -> Config {
        Config::from_json(PathBuf::from("/b"), &serde_json::json!({})).unwrap()
    }

    fn with_env<T>(text: &str, target: Target, f: impl FnOnce(&Block, &Env<'_>) -> T) -> T {
        let cfg = config();
        let cache = Cache::disabled();
        let block = scan(text).into_iter().next().expect("a block");
        let env = Env {
            config: &cfg,
            target,
            text,
            file: "src/a.md",
            cache: &cache,
        };
        f(&block, &env)
    }

    fn parse(text: &str) -> Result<Compare, Problem> {
        with_env(text, Target::Html, Compare::parse)
    }

    fn problem(text: &str) -> (usize, usize, String) {
        let p = parse(text).unwrap_err();
        let (l, c) = markdown::line_col(text, p.offset);
        (l, c, p.message)
    }

    const DIVISION: &str = "Intro.\n\n````compare title=\"Integer division\" layout=tabs\n```c caption=\"C: undefined\" expect=ub\n~ #include <limits.h>\nint divide(int a, int b) { return a / b; }\n~ int main(void) { return divide(INT_MIN, -1); }\n```\nA *note* about C,\nover two lines.\n```output\nruntime error: division overflow\n```\n```rust caption=\"Rust: panics\" expect=panic\npub fn divide(a: i32, b: i32) -> i32 { a / b }\n# fn main() { divide(1, 0); }\n```\n\nRust note.\n\n```python\ndef divide(a, b): return a // b\n```\n````\n";

    #[test]
    fn sides_carry_captions_notes_outputs_and_sources() {
        let cmp = parse(DIVISION).unwrap();
        assert_eq!(cmp.title.as_deref(), Some("Integer division"));
        assert_eq!((cmp.layout, cmp.asm), (Layout::Tabs, false));
        let langs: Vec<Lang> = cmp.sides.iter().map(|s| s.lang).collect();
        assert_eq!(langs, [Lang::C, Lang::Rust, Lang::Python]);
        let [c, rust, py] = &cmp.sides[..] else {
            panic!("three sides")
        };
        assert_eq!(c.caption.as_deref(), Some("C: undefined"));
        assert_eq!(c.expect, Some(Expect::Ub));
        assert_eq!(c.shown, "int divide(int a, int b) { return a / b; }\n");
        assert_eq!(
            c.source,
            "#include <limits.h>\nint divide(int a, int b) { return a / b; }\nint main(void) { return divide(INT_MIN, -1); }\n"
        );
        assert_eq!(
            c.note.as_deref(),
            Some("A *note* about C,\nover two lines.")
        );
        assert_eq!(
            c.output.as_deref(),
            Some("runtime error: division overflow\n")
        );
        assert_eq!(markdown::line_col(DIVISION, c.offset), (4, 1));
        assert!(DIVISION[c.offset..].starts_with("```c caption"));
        assert_eq!(rust.expect, Some(Expect::Panic));
        assert_eq!(
            rust.source,
            "pub fn divide(a: i32, b: i32) -> i32 { a / b }\nfn main() { divide(1, 0); }\n"
        );
        assert_eq!(
            rust.shown,
            "pub fn divide(a: i32, b: i32) -> i32 { a / b }\n"
        );
        assert_eq!(rust.note.as_deref(), Some("Rust note."));
        assert_eq!(
            rust.example.as_ref().and_then(|e| e.title.as_deref()),
            Some("Rust: panics")
        );
        assert!(DIVISION[rust.offset..].starts_with("```rust caption"));
        assert_eq!((py.expect, py.note.as_deref()), (None, None));
        assert_eq!(with_env(DIVISION, Target::Html, sides).unwrap(), cmp.sides);
    }

    #[test]
    fn block_asm_reaches_compiled_sides() {
        let cmp = parse("````compare asm\n```c\nint f(void) { return 1; }\n```\n```rust\npub fn f() -> i32 { 1 }\n```\n```python\nx = 1\n```\n````\n").unwrap();
        let asm: Vec<bool> = cmp.sides.iter().map(|s| s.asm).collect();
        assert_eq!(asm, [true, true, true]);
        let cmp = parse("````compare\n```c asm\nint f(void) { return 1; }\n```\n```rust asm=false\npub fn f() -> i32 { 1 }\n```\n````\n").unwrap();
        let asm: Vec<bool> = cmp.sides.iter().map(|s| s.asm).collect();
        assert_eq!(asm, [true, false]);
    }

    #[test]
    fn errors_are_located_and_name_what_was_expected() {
        let five = format!("````compare\n{}````\n", "```c\nint x;\n```\n".repeat(5));
        let cases: Vec<(&str, (usize, usize, &str))> = vec![
            (
                "````compare\n```c\nint x;\n```\n````\n",
                (1, 5, "found 1 side; expected 2 to 4 fenced code blocks"),
            ),
            (&five, (14, 1, "found a 5th side; expected 2 to 4 sides")),
            (
                "Text\n\n````compare\n```c\nint x;\n```\n```java caption=\"J\"\nclass A {}\n```\n````\n",
                (
                    7,
                    4,
                    "found a `java` code block; expected a side in one of c, cpp, rust, python",
                ),
            ),
            (
                "````compare\n```c caption=3\nint x;\n```\n```rust\nfn f() {}\n```\n````\n",
                (2, 6, "found integer for `caption`; expected a string"),
            ),
            (
                "````compare\n```c\nint x;\n```\n```rust caption=\"a\" caption=\"b\"\nfn f() {}\n```\n````\n",
                (
                    5,
                    21,
                    "found `caption` a second time; expected each attribute once",
                ),
            ),
            (
                "````compare colour=red\n```c\nint x;\n```\n```c\nint y;\n```\n````\n",
                (
                    1,
                    13,
                    "found unknown attribute `colour`; expected one of title, layout, asm",
                ),
            ),
            (
                "````compare\n```c volatile\nint x;\n```\n```c\nint y;\n```\n````\n",
                (
                    2,
                    6,
                    "found unknown attribute `volatile` on a `c` side; expected one of caption, expect, asm",
                ),
            ),
            (
                "````compare\n```c\nint x;\n```\n```rust colour=red\nfn f() {}\n```\n````\n",
                (
                    5,
                    9,
                    "found unknown attribute `colour`; expected one of title, expect",
                ),
            ),
            (
                "````compare\n```c\nint x;\n```\n```rust expect=explode\nfn f() {}\n```\n````\n",
                (
                    5,
                    9,
                    "found `explode` for `expect`; expected one of run, panic, compile-fail, no-run",
                ),
            ),
            (
                "````compare\n```c expect=crash\nint x;\n```\n```c\nint y;\n```\n````\n",
                (
                    2,
                    6,
                    "found `crash` for `expect`; expected one of compile, run, ub",
                ),
            ),
            (
                "````compare layout=grid\n```c\nint x;\n```\n```c\nint y;\n```\n````\n",
                (
                    1,
                    13,
                    "found `grid` for `layout`; expected one of columns, tabs",
                ),
            ),
            (
                "````compare\n```c\nint x;\n```\n# Heading\n```c\nint y;\n```\n````\n",
                (
                    5,
                    1,
                    "found a heading in a compare block; expected fenced code blocks",
                ),
            ),
            (
                "````compare\nFirst a paragraph.\n\n```c\nint x;\n```\n```c\nint y;\n```\n````\n",
                (
                    2,
                    1,
                    "found a paragraph before the first side; expected fenced code blocks",
                ),
            ),
            (
                "````compare\n```c\nint x;\n```\nOne.\n\nTwo.\n```c\nint y;\n```\n````\n",
                (
                    7,
                    1,
                    "found a second paragraph after the `c` side; expected one note paragraph per side",
                ),
            ),
            (
                "````compare\n```output\nx\n```\n```c\nint y;\n```\n````\n",
                (2, 1, "found an ```output block before the first side"),
            ),
            (
                "````compare\n```c\n~ int hidden;\n```\n```c\nint y;\n```\n````\n",
                (2, 4, "found an empty `c` side; expected code"),
            ),
            (
                "````compare\n```\nx\n```\n```c\nint y;\n```\n````\n",
                (
                    2,
                    1,
                    "found a code block without a language; expected a side in one of c, cpp, rust, python",
                ),
            ),
            (
                // Inside a list item: columns count the indentation.
                "- Item:\n\n  ````compare\n  ```c\n  int x;\n  ```\n  ```rust ignore=maybe\n  fn f() {}\n  ```\n  ````\n",
                (7, 11, "found string for `ignore`; expected true or false"),
            ),
            (
                // Inside a block quote.
                "> ````compare\n> ```c\n> int x;\n> ```\n> ```go\n> func f() {}\n> ```\n> ````\n",
                (5, 6, "found a `go` code block"),
            ),
        ];
        for (text, (line, col, msg)) in &cases {
            let (l, c, m) = problem(text);
            assert!(m.starts_with(msg), "{text}: got {m}");
            assert_eq!((l, c), (*line, *col), "{text}: {m}");
        }
    }

    fn render_text(text: &str, target: Target) -> String {
        with_env(text, target, render)
            .unwrap()
            .out
            .lines()
            .join("\n")
    }

    #[test]
    fn test_target_keeps_only_the_rust_sides() {
        assert_eq!(
            render_text(DIVISION, Target::Test),
            "```rust,should_panic,edition2021\npub fn divide(a: i32, b: i32) -> i32 { a / b }\n# fn main() { divide(1, 0); }\n```"
        );
        let two_rust = "````compare\n```c\nint x;\n```\n```rust\nfn a() {}\n```\n```rust expect=no-run\nfn b() {}\n```\n````\n";
        assert_eq!(
            render_text(two_rust, Target::Test),
            "```rust,edition2021\nfn a() {}\n```\n\n```rust,no_run,edition2021\nfn b() {}\n```"
        );
        let no_rust = "````compare\n```c\nint x;\n```\n```python\nx = 1\n```\n````\n";
        assert_eq!(render_text(no_rust, Target::Test), "");
    }

    #[test]
    fn markdown_target_is_a_titled_sequence_of_plain_fences() {
        let md = render_text(DIVISION, Target::Markdown);
        let ce = md
            .lines()
            .last()
            .and_then(|l| l.strip_prefix("[Compare in Compiler Explorer](<"))
            .and_then(|l| l.strip_suffix(">)"))
            .unwrap_or_else(|| panic!("{md}"));
        let state = crate::links::tests::decode_client_state(ce);
        assert_eq!(state["sessions"].as_array().map(Vec::len), Some(2));
        let body = md.rsplit_once("\n\n[Compare").unwrap().0;
        let rust_links = body
            .lines()
            .find(|l| l.starts_with("[Playground]"))
            .unwrap_or_else(|| panic!("{md}"));
        let expected = format!(
            "**Integer division**\n\n**C: undefined** — *Undefined behaviour*\n\n```c\nint divide(int a, int b) {{ return a / b; }}\n```\n\nSanitizer reports:\n\n```text\nruntime error: division overflow\n```\n\nA *note* about C,\nover two lines.\n\n**Rust: panics** — *Panics*\n\n```rust,should_panic,edition2021\npub fn divide(a: i32, b: i32) -> i32 {{ a / b }}\n# fn main() {{ divide(1, 0); }}\n```\n\n{rust_links}\n\nRust note.\n\n**Python**\n\n```python\ndef divide(a, b): return a // b\n```"
        );
        assert_eq!(body, expected);
    }

    #[test]
    fn html_escapes_captions_and_titles() {
        let text = "````compare title=\"<T>\"\n```c caption=\"a < b & 'c'\"\nint x;\n```\n```python caption=\"<script>\"\nx = 1\n```\n````\n";
        let html = render_text(text, Target::Html);
        assert!(html.contains(">&lt;T&gt;</span>"), "{html}");
        assert!(
            html.contains(">a &lt; b &amp; &#x27;c&#x27;</span>"),
            "{html}"
        );
        assert!(html.contains(">&lt;script&gt;</span>"), "{html}");
        assert!(!html.contains("<script>"), "{html}");
        assert!(!html.contains("\n\n\n"), "{html}");
    }

    #[test]
    fn tabs_of_one_language_use_captions_or_numbers() {
        let cmp = parse("````compare layout=tabs\n```c caption=\"Checked\"\nint a;\n```\n```c\nint b;\n```\n```rust\nfn f() {}\n```\n````\n").unwrap();
        let labels: Vec<String> = (0..3).map(|i| cmp.tab_label(i)).collect();
        assert_eq!(labels, ["Checked", "C 2", "Rust"]);
    }

    #[test]
    fn tab_ids_differ_between_chapters_and_blocks() {
        let cfg = config();
        let cache = Cache::disabled();
        let env = |file| Env {
            config: &cfg,
            target: Target::Html,
            text: "",
            file,
            cache: &cache,
        };
        let a = block_id(&env("src/a.md"), 10);
        assert_ne!(a, block_id(&env("src/b.md"), 10));
        assert_ne!(a, block_id(&env("src/a.md"), 11));
        assert_eq!(a, block_id(&env("src/a.md"), 10));
    }

    #[test]
    fn missing_compiler_is_a_located_warning_and_keeps_the_links() {
        let text = "# T\n\n````compare asm\n```c\nint f(void) { return 1; }\n```\n```rust\npub fn f() -> i32 { 1 }\n```\n````\n";
        let mut cfg = config();
        cfg.cc = "/nonexistent/cc".into();
        cfg.rustc = "/nonexistent/rustc".into();
        let out = crate::process::chapter(&cfg, &Cache::disabled(), Target::Html, "src/a.md", text);
        assert!(out.errors.is_empty(), "{:?}", out.errors);
        // Left to the book layer, which tells each missing compiler once.
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        let told: Vec<String> = crate::process::missing_compilers(&out.unchecked)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            told,
            [
                "src/a.md:4:4: the compiler `/nonexistent/cc` could not be run, so the assembly of 1 block is not shown (the first is here); set `cc` in [preprocessor.companion] to a compiler that runs",
                "src/a.md:7:4: the compiler `/nonexistent/rustc` could not be run, so the assembly of 1 block is not shown (the first is here); set `rustc` in [preprocessor.companion] to a compiler that runs",
            ]
        );
        let page = out.text.unwrap();
        assert!(!page.contains("companion-asm"), "{page}");
        assert_eq!(page.matches("Compiler Explorer</a>").count(), 3, "{page}");
    }

    #[test]
    fn code_that_does_not_compile_fails_under_bail_and_warns_under_continue() {
        let text =
            "````compare\n```c asm\nint f(void) { return }\n```\n```python\nx = 1\n```\n````\n";
        let mut cfg = config();
        let out = crate::process::chapter(&cfg, &Cache::disabled(), Target::Html, "src/a.md", text);
        assert_eq!(out.errors.len(), 1);
        let e = out.errors[0].to_string();
        assert!(
            e.starts_with("src/a.md:2:4: cannot show the assembly: `cc` rejected the code"),
            "{e}"
        );
        cfg.on_failure = crate::config::OnFailure::Continue;
        let out = crate::process::chapter(&cfg, &Cache::disabled(), Target::Html, "src/a.md", text);
        assert!(out.errors.is_empty());
        assert_eq!(out.warnings.len(), 1);
        assert!(out.text.unwrap().contains("companion-compare"));
    }

    #[test]
    fn notes_show_raw_html_as_text_and_refuse_other_schemes() {
        for (note, want) in [
            ("A *note*.", Ok("A *note*.")),
            (
                "Has <script>x</script> in it",
                Ok("Has &lt;script&gt;x&lt;/script&gt; in it"),
            ),
            ("<div>\nopen", Ok("&lt;div&gt;\nopen")),
            (
                "[ok](https://a.example/) [rel](../b.md)",
                Ok("[ok](https://a.example/) [rel](../b.md)"),
            ),
            ("[x](javascript:alert(1))", Err("javascript:alert(1)")),
            ("<javascript:alert(1)>", Err("javascript:alert(1)")),
        ] {
            match (safe_note(note, 7), want) {
                (Ok(got), Ok(want)) => assert_eq!(got, want, "{note}"),
                (Err(p), Err(url)) => {
                    assert_eq!(p.offset, 7);
                    assert_eq!(
                        p.message,
                        format!(
                            "found a link to `{url}` in this side's note; expected an http(s) or relative link"
                        )
                    );
                }
                (got, _) => panic!("{note}: {got:?}"),
            }
        }
    }
}
