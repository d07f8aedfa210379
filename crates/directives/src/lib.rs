//! The directives. Each lives in its own folder (parse → model → render
//! for html, test or markdown → claims) and is one row of [`KINDS`], the
//! registry that the scanner, the renderers, `check` and the stylesheet
//! all read: adding a directive is a folder, a row and its stylesheet.
//!
//! Directive code works with byte offsets into the chapter; the book layer
//! turns them into `file:line:column`.

pub mod asmspec;
pub(crate) mod asmview;
pub mod assets;
pub mod attributes;
pub(crate) mod body;
pub(crate) mod cards;
pub(crate) mod claims;
pub(crate) mod compare;
pub mod contract;
pub(crate) mod datafile;
pub(crate) mod example;
pub mod exercise;
pub mod facts;
pub(crate) mod frame;
pub mod given;
pub mod hint;
pub(crate) mod note;
pub(crate) mod numbering;
pub(crate) mod pages;
pub mod quiz;
pub mod reader;
pub mod reading;
pub(crate) mod runnable;
pub(crate) mod talk;
pub mod ui;
mod unexpanded;
pub mod xgettext;

pub use contract::{
    DataFiles, DataMessage, Env, Kind, Model, Numbered, Numbers, Parsed, Rendered, Row, Shared,
    Target,
};
pub use facts::{Facts, Need};

use mdbook_companion_core::config::Key;
use mdbook_companion_core::escape::{escape, escape_markdown};
use mdbook_companion_core::markdown::{self, Block, Out, Pattern};
use mdbook_companion_core::problem::Problem;

/// Every directive, in the order the scanner tries them.
pub const KINDS: [Kind; 7] = [
    example::KIND,
    compare::KIND,
    exercise::KIND,
    quiz::KIND,
    reading::KIND,
    talk::KIND,
    claims::KIND,
];

/// The keys of `[preprocessor.companion]` the directives own, from
/// [`KINDS`]' rows.
pub fn keys() -> Vec<Key> {
    KINDS.iter().flat_map(|k| k.keys).copied().collect()
}

/// The patterns of [`KINDS`], in the same order (a block's `kind` is an
/// index into both).
pub const PATTERNS: [Pattern; 7] = {
    let mut p = [KINDS[0].pattern; 7];
    let mut i = 0;
    while i < KINDS.len() {
        p[i] = KINDS[i].pattern;
        i += 1;
    }
    p
};

/// The directive a scanned block is.
pub(crate) fn kind_of(block: &Block) -> &'static Kind {
    &KINDS[block.kind]
}

/// Whether a block lists the whole book (a claims page: rendered after
/// every other chapter).
pub fn is_claims_page(block: &Block) -> bool {
    kind_of(block).lists_the_book
}

/// Whether a chapter holds a block that lists the whole book (the cheap
/// fence test first; the scan decides).
pub fn has_claims_page(text: &str) -> bool {
    KINDS.iter().filter(|k| k.lists_the_book).any(|k| {
        k.pattern
            .words
            .iter()
            .all(|w| memchr::memmem::find(text.as_bytes(), w.as_bytes()).is_some())
            && markdown::may_contain_directive(text, &[k.pattern])
            && scan(text).iter().any(is_claims_page)
    })
}

/// The `{{#NAME FILE}}` links a directive also stands for: mdbook-quiz's
/// `{{#quiz FILE}}` is a quiz block reading FILE (`src="FILE"`).
const LINKS: [(&str, &str); 1] = [("quiz", quiz::LINK)];

/// A cheap test that a chapter may hold a directive (see
/// [`markdown::may_contain_directive`]), or a link one stands for.
pub fn may_contain(text: &str) -> bool {
    markdown::may_contain_directive(text, &PATTERNS)
        || LINKS
            .iter()
            .any(|(_, link)| text.contains(&format!("{{{{#{link} ")))
}

/// Whether a chapter's directives may read a file the chapter memo does
/// not watch (a quiz's `src=`).
pub fn reads_files(text: &str) -> bool {
    quiz::reads_a_file(text)
}

/// The directives of a chapter, and the links they stand for, in order.
pub fn scan(text: &str) -> Vec<Block> {
    scan_escaped(text, &[])
}

/// [`scan`] of a chapter whose file wrote the links at `escaped` escaped
/// ([`escaped_links`]): they stand for no directive.
pub fn scan_escaped(text: &str, escaped: &[usize]) -> Vec<Block> {
    with_links(text, markdown::scan(text, &PATTERNS), escaped)
}

/// [`scan`], guarded against a panic inside the Markdown parser;
/// `escaped` holds the offsets of links the chapter's file wrote escaped
/// ([`escaped_links`]), which stand for no directive.
pub fn try_scan(text: &str, escaped: &[usize]) -> Result<Vec<Block>, String> {
    let blocks = markdown::try_scan(text, &PATTERNS)?;
    std::panic::catch_unwind(|| with_links(text, blocks, escaped))
        .map_err(|_| "found Markdown the Markdown parser (pulldown-cmark) cannot read; the chapter's directives were left as written".to_owned())
}

/// The offsets in `expanded` (a chapter after mdBook's `links`) of the
/// directives' links that its file `raw` wrote escaped
/// (`\{{#quiz FILE}}`): mdBook shows them as written, so they stand for
/// no directive.
pub fn escaped_links(raw: &str, expanded: &str) -> Vec<usize> {
    if !expanded.contains("{{") {
        return Vec::new();
    }
    LINKS
        .iter()
        .flat_map(|(_, link)| markdown::escaped_links(raw, expanded, link))
        .collect()
}

/// `blocks` with the `{{#NAME FILE}}` links of [`LINKS`] among them.
fn with_links(text: &str, mut blocks: Vec<Block>, escaped: &[usize]) -> Vec<Block> {
    for (name, link) in LINKS {
        let Some(kind) = KINDS.iter().position(|k| k.name == name) else {
            continue;
        };
        blocks.extend(markdown::link_blocks(
            text,
            link,
            KINDS[kind].pattern.words,
            kind,
            escaped,
        ));
    }
    blocks.sort_by_key(|b| b.range.start);
    blocks
}

/// The attributes of a directive's info string, after the words naming it.
pub fn attributes(block: &Block) -> Result<Vec<mdbook_companion_core::attrs::Attr>, Problem> {
    kind_of(block).attributes(block)
}

/// Parses one directive into its model, with what it needs resolved.
pub fn parse(block: &Block, env: &Env<'_>) -> Result<Parsed, Problem> {
    (kind_of(block).parse)(block, env)
}

/// Renders one parsed directive from its facts, with its claims.
pub fn render(
    block: &Block,
    env: &Env<'_>,
    model: &dyn Model,
    facts: &Facts,
) -> Result<Rendered, Problem> {
    let mut r = model.render(block, env, facts)?;
    r.warnings.extend(unexpanded::unexpanded_links(block, env));
    Ok(r)
}

/// Parses and renders one directive from the given facts (whatever it
/// needs and `facts` does not answer is taken as absent): what a test of
/// a directive calls with made-up facts.
pub fn render_block(block: &Block, env: &Env<'_>, facts: &Facts) -> Result<Rendered, Problem> {
    let parsed = parse(block, env)?;
    render(block, env, parsed.model.as_ref(), facts)
}

/// The directive that publishes references of `topic`, and how it
/// resolves them.
pub fn publisher(topic: facts::Topic) -> Option<&'static contract::Publish> {
    KINDS
        .iter()
        .flat_map(|k| k.publishes)
        .find(|p| p.topic == topic)
}

/// The visible alert of a problem on an HTML page (`extra_class` adds to
/// `companion-error`: a false claim under `verify` is ` companion-verify`).
pub fn alert(extra_class: &str, location: &str, message: &str) -> String {
    format!(
        "<div class=\"companion-error{extra_class}\" role=\"alert\"><strong>mdbook-companion:</strong> <code>{}</code> {}</div>",
        escape(location),
        escape(message)
    )
}

/// Renders the visible error box that takes a broken directive's place
/// under `on-failure = "continue"`; the directive's code stays visible
/// below it as plain code, so nothing the author wrote disappears.
pub fn error_box(block: &Block, env: &Env<'_>, location: &str, message: &str) -> Out {
    let mut out = Out::new();
    let lang = markdown::first_word(&block.fence.info);
    match env.target {
        Target::Html => {
            out.line(alert("", location, message));
            out.blank().fence(lang, &block.fence.body);
        }
        Target::Markdown | Target::Xgettext => {
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

/// What the directives' tests share: a book's configuration, a block's
/// env, a book on disk, and a problem as the author reads it.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;
    use mdbook_companion_core::config::Config;
    use mdbook_companion_core::problem::Located;
    use std::path::Path;

    /// The configuration of a book at `/b` that sets nothing.
    pub(crate) fn config() -> Config {
        Config::from_json("/b".into(), &serde_json::json!({})).unwrap()
    }

    /// The configuration of the book at `root` whose sources are in `src`
    /// and whose `[preprocessor.companion]` is `table`.
    pub(crate) fn config_at(root: &Path, table: serde_json::Value) -> Config {
        Config::from_json(
            root.to_path_buf(),
            &serde_json::json!({"book": {"src": "src"}, "preprocessor": {"companion": table}}),
        )
        .unwrap()
    }

    /// The env of a block of `text`, the chapter `file`, placed nowhere.
    pub(crate) fn env<'a>(
        config: &'a Config,
        shared: &'a Shared,
        target: Target,
        text: &'a str,
        file: &'a str,
    ) -> Env<'a> {
        Env {
            config,
            target,
            text,
            file,
            shared,
            numbers: Numbers::default(),
            place: &contract::Unplaced,
        }
    }

    /// `f` of the first block of `text` and its env (in `src/a.md`, in a
    /// book that sets nothing).
    pub(crate) fn with_env<T>(
        text: &str,
        target: Target,
        f: impl FnOnce(&Block, &Env<'_>) -> T,
    ) -> T {
        let (config, shared) = (config(), Shared::disabled());
        let block = scan(text).into_iter().next().expect("a block");
        f(&block, &env(&config, &shared, target, text, "src/a.md"))
    }

    /// A book in a temporary directory with the given files.
    pub(crate) fn book(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (path, content) in files {
            let p = dir.path().join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, content).unwrap();
        }
        dir
    }

    /// `problem` as the author reads it, in the chapter `src/a.md` of `text`.
    pub(crate) fn located(text: &str, problem: &Problem) -> String {
        Located::new("src/a.md", text, problem).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_found_by_its_pattern() {
        let text = "```rust example\nfn main() {}\n```\n\n````compare\n```c\nint x;\n```\n````\n\n```reading-list\n```\n";
        let names: Vec<&str> = scan(text).iter().map(|b| kind_of(b).name).collect();
        assert_eq!(names, ["example", "compare", "reading-list"]);
        assert_eq!(PATTERNS.len(), KINDS.len());
        for (p, k) in PATTERNS.iter().zip(&KINDS) {
            assert_eq!(*p, k.pattern);
        }
    }
}
