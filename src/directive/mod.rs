//! The directives: each module parses its block into a model and renders
//! that model for the renderer at hand (rich HTML, plain Rust for
//! `mdbook test`, plain Markdown for everything else).
//!
//! Directive code works with byte offsets into the chapter; the chapter
//! layer ([`crate::process`]) turns them into `file:line:column`.

pub mod compare;
pub mod example;
pub mod reading;
mod unexpanded;

use crate::attrs::{Attr, AttrError};
use crate::cache::Cache;
use crate::config::Config;
use crate::markdown::{Block, Fence, Kind, Out};

/// What the replacement is for, decided by mdBook's renderer name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The `html` renderer: rich output, styled by our stylesheet.
    Html,
    /// `mdbook test`: plain Rust fences with rustdoc's attributes.
    Test,
    /// Any other renderer: plain Markdown.
    Markdown,
}

impl Target {
    /// The target for an mdBook renderer name.
    pub fn for_renderer(name: &str) -> Target {
        match name {
            "html" => Target::Html,
            "test" => Target::Test,
            _ => Target::Markdown,
        }
    }
}

/// What a directive sees besides its own block.
#[derive(Debug, Clone, Copy)]
pub struct Env<'a> {
    /// The checked configuration.
    pub config: &'a Config,
    /// The output target.
    pub target: Target,
    /// The whole chapter text, for offsets.
    pub text: &'a str,
    /// The chapter's file (`src/intro.md`), for ids unique on the print page.
    pub file: &'a str,
    /// The book's cache of build-time work (assembly listings).
    pub cache: &'a Cache,
}

/// A problem at a byte offset of the chapter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Byte offset in the chapter.
    pub offset: usize,
    /// What was found and what was expected.
    pub message: String,
    /// Where the problem is when it lies in another file the directive
    /// read (a data file): the message then names that file and the
    /// chapter's `offset` becomes "asked for by".
    pub file: Option<FileLocation>,
}

/// A place in a file other than the chapter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileLocation {
    /// The file as shown to the author, relative to the book root.
    pub path: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

impl Problem {
    /// A problem at `offset`.
    pub fn at(offset: usize, message: impl Into<String>) -> Problem {
        Problem {
            offset,
            message: message.into(),
            file: None,
        }
    }

    /// A problem in another file (`location`), found while rendering the
    /// directive at `offset` of the chapter.
    pub fn in_file(offset: usize, location: FileLocation, message: impl Into<String>) -> Problem {
        Problem {
            offset,
            message: message.into(),
            file: Some(location),
        }
    }

    /// An attribute syntax error of `fence`'s info string.
    pub fn from_attr(fence: &Fence, e: AttrError) -> Problem {
        Problem::at(fence.info_offset + e.offset, e.message)
    }
}

/// A directive's replacement and the warnings it raised.
#[derive(Debug, Default)]
pub struct Rendered {
    /// The replacement lines.
    pub out: Out,
    /// Things worth telling the author that do not stop the build.
    pub warnings: Vec<Problem>,
    /// Compilers the directive could not run for its assembly: told once
    /// for the whole book, not per block.
    pub missing: Vec<MissingTool>,
}

/// A compiler a directive needed and could not run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingTool {
    /// The command that could not be run.
    pub tool: String,
    /// The `[preprocessor.companion]` key naming it: `rustc` or `cc`.
    pub key: &'static str,
    /// Where the block that needed it is, in the chapter.
    pub offset: usize,
}

/// Renders one directive.
pub fn render(block: &Block, env: &Env<'_>) -> Result<Rendered, Problem> {
    let mut r = match block.kind {
        Kind::Example => example::render(block, env),
        Kind::Compare => compare::render(block, env),
        Kind::ReadingList => reading::render(block, env),
    }?;
    r.warnings.extend(unexpanded::unexpanded_links(block, env));
    Ok(r)
}

/// Renders the visible error box that takes a broken directive's place
/// under `on-failure = "continue"`; the directive's code stays visible
/// below it as plain code, so nothing the author wrote disappears.
pub fn error_box(block: &Block, env: &Env<'_>, location: &str, message: &str) -> Out {
    let mut out = Out::new();
    let lang = crate::markdown::first_word(&block.fence.info);
    match env.target {
        Target::Html => {
            out.line(format!(
                "<div class=\"companion-error\" role=\"alert\"><strong>mdbook-companion:</strong> <code>{}</code> {}</div>",
                escape(location),
                escape(message)
            ));
            out.blank().fence(lang, &block.fence.body);
        }
        Target::Markdown => {
            out.line(format!(
                "> **mdbook-companion:** `{location}` {}",
                escape_markdown(message)
            ));
            out.blank().fence(lang, &block.fence.body);
        }
        Target::Test => {
            out.line(format!(
                "mdbook-companion: {location} {}",
                escape_markdown(message)
            ));
        }
    }
    out
}

/// Escapes text for HTML, in element content and in quoted attributes.
pub fn escape(text: &str) -> String {
    html_escape::encode_quoted_attribute(text).into_owned()
}

/// Escapes text so Markdown shows it literally.
pub fn escape_markdown(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|' | '!' | '&' | '~'
        ) {
            s.push('\\');
        }
        s.push(c);
    }
    s
}

/// Helpers for reading attribute values with located messages.
pub(crate) struct Attrs<'a> {
    fence: &'a Fence,
    seen: Vec<String>,
}

impl<'a> Attrs<'a> {
    pub(crate) fn new(fence: &'a Fence) -> Self {
        Attrs {
            fence,
            seen: Vec::new(),
        }
    }

    /// A problem at the attribute.
    pub(crate) fn problem(&self, attr: &Attr, message: impl Into<String>) -> Problem {
        Problem::at(self.fence.info_offset + attr.offset, message)
    }

    /// Rejects a key given twice.
    pub(crate) fn once(&mut self, attr: &Attr, name: &str) -> Result<(), Problem> {
        if self.seen.iter().any(|s| s == name) {
            return Err(self.problem(
                attr,
                format!("found `{name}` a second time; expected each attribute once"),
            ));
        }
        self.seen.push(name.to_owned());
        Ok(())
    }

    /// A string value.
    pub(crate) fn string(&self, attr: &Attr) -> Result<String, Problem> {
        match &attr.value {
            Some(toml::Value::String(s)) => Ok(s.clone()),
            _ => Err(self.problem(
                attr,
                format!(
                    "found {} for `{}`; expected a string",
                    attr.type_name(),
                    attr.key
                ),
            )),
        }
    }

    /// A boolean: a bare flag is `true`.
    pub(crate) fn boolean(&self, attr: &Attr) -> Result<bool, Problem> {
        match &attr.value {
            None => Ok(true),
            Some(toml::Value::Boolean(b)) => Ok(*b),
            Some(_) => Err(self.problem(
                attr,
                format!(
                    "found {} for `{}`; expected true or false (or the bare flag)",
                    attr.type_name(),
                    attr.key
                ),
            )),
        }
    }

    /// One of a fixed set of words.
    pub(crate) fn choice<T: Copy>(&self, attr: &Attr, choices: &[(&str, T)]) -> Result<T, Problem> {
        let names: Vec<&str> = choices.iter().map(|(n, _)| *n).collect();
        let found = match &attr.value {
            Some(toml::Value::String(s)) => s.clone(),
            Some(v) => v.to_string(),
            None => String::new(),
        };
        choices
            .iter()
            .find(|(n, _)| *n == found)
            .map(|(_, v)| *v)
            .ok_or_else(|| {
                let found = if attr.value.is_none() {
                    "no value".to_owned()
                } else {
                    format!("`{found}`")
                };
                self.problem(
                    attr,
                    format!(
                        "found {found} for `{}`; expected one of {}",
                        attr.key,
                        names.join(", ")
                    ),
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_escape_covers_quotes_and_tags() {
        assert_eq!(
            escape(r#"<script>alert("x")</script> & 'y'"#),
            "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#x27;y&#x27;"
        );
    }

    #[test]
    fn markdown_escape_neutralises_syntax() {
        assert_eq!(escape_markdown("*a* [b](c) <d>"), r"\*a\* \[b\](c) \<d\>");
    }

    #[test]
    fn targets_follow_renderer_names() {
        assert_eq!(Target::for_renderer("html"), Target::Html);
        assert_eq!(Target::for_renderer("test"), Target::Test);
        assert_eq!(Target::for_renderer("markdown"), Target::Markdown);
        assert_eq!(Target::for_renderer("epub"), Target::Markdown);
    }
}
