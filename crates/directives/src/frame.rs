//! The frame every code block of ours stands in: a header (title and
//! outcome badge), the code as a real mdBook fence, the expected output,
//! the assembly panel and the links row. Examples and comparison sides
//! are both written by [`Frame`], so they look and read the same; the
//! links (with the one "link too long" warning) are made here too. The
//! assembly comes in as a fact: a frame never compiles.

use super::asmview::{self, Standing};
use super::contract::{Env, Target};
use super::facts::{MomentLink, Vouched};
use super::numbering::Number;
use mdbook_companion_core::claim::Recorded;
use mdbook_companion_core::escape::{escape, escape_markdown};
use mdbook_companion_core::expect::Expect;
use mdbook_companion_core::filecheck::Checks;
use mdbook_companion_core::flowgraph::Drawing;
use mdbook_companion_core::lang::Lang;
use mdbook_companion_core::links::{self, Pane, TooLong};
use mdbook_companion_core::markdown::Out;
use mdbook_companion_core::problem::Problem;

/// What a framed block claims, for its class: the stylesheet colours the
/// frame by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FrameClaim {
    /// An expected outcome, checked.
    Expect(Expect),
    /// `ignore`: shown, never compiled or run.
    Ignore,
    /// A side that is only shown (Python).
    Shown,
}

impl FrameClaim {
    /// The outcome of a block that claims `expect` (none: shown only),
    /// unless it is ignored.
    pub(crate) fn of(expect: Option<Expect>, ignore: bool) -> FrameClaim {
        match expect {
            _ if ignore => FrameClaim::Ignore,
            Some(e) => FrameClaim::Expect(e),
            None => FrameClaim::Shown,
        }
    }

    /// Its name in the frame's class.
    pub(crate) fn name(self) -> &'static str {
        match self {
            FrameClaim::Expect(e) => e.name(),
            FrameClaim::Ignore => "ignore",
            FrameClaim::Shown => "shown",
        }
    }
}

/// One framed code block, ready to write.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Frame<'a> {
    /// What the block claims, as its class (`companion-expect-run`).
    pub outcome: FrameClaim,
    /// The title in the header.
    pub title: Option<&'a str>,
    /// The badge in the header.
    pub badge: Option<&'a str>,
    /// The fence's info string.
    pub info: &'a str,
    /// The code the fence holds.
    pub code: &'a str,
    /// The expected output: its label and text.
    pub output: Option<(&'a str, &'a str)>,
    /// The assembly panel.
    pub assembly: Option<&'a AsmPanel<'a>>,
    /// The links row: labels and addresses.
    pub links: &'a [(&'a str, String)],
    /// Notes in the links row, for links left out ("needs `mylib`, not
    /// on the Playground"): plain text, code in backquotes.
    pub notes: &'a [String],
    /// The moment of the talk the block comes from (`at="12:30"`).
    pub at: Option<&'a MomentLink>,
    /// Its number in the chapter and its anchor (`Example 5.2`).
    pub number: Option<&'a Number>,
    /// The Run button's description (` data-companion-run="…"`), when
    /// our Run button takes the block.
    pub run: Option<&'a str>,
    /// The checker's report the check recorded (a C or C++ side's), shown
    /// under the output block, which stays the claim (HTML only).
    pub report: Option<&'a str>,
}

impl Frame<'_> {
    /// The frame as HTML around a real mdBook fence, our words in the
    /// book's language.
    pub(crate) fn html(&self, env: &Env<'_>, out: &mut Out) {
        let id = self
            .number
            .map(|n| format!(" id=\"{}\"", escape(&n.id)))
            .unwrap_or_default();
        out.line(format!(
            "<div class=\"companion-example companion-expect-{}\"{id}{}>",
            self.outcome.name(),
            self.run.unwrap_or_default()
        ));
        let number = self
            .number
            .map(|n| {
                format!(
                    "<a class=\"companion-number\" href=\"#{}\">{} {}</a>",
                    escape(&n.id),
                    escape(&env.ui("Example")),
                    escape(&n.digits)
                )
            })
            .unwrap_or_default();
        let title = self
            .title
            .map(|t| format!("<span class=\"companion-title\">{}</span>", escape(t)))
            .unwrap_or_default();
        let badge = self
            .badge
            .map(|b| format!("<span class=\"companion-badge\">{}</span>", escape(b)))
            .unwrap_or_default();
        let at = self.at.map(moment_html).unwrap_or_default();
        out.line(format!(
            "<div class=\"companion-header\">{number}{title}{badge}{at}</div>"
        ));
        out.blank().fence(self.info, self.code).blank();
        if let Some((label, output)) = self.output {
            out.line(format!(
                "<div class=\"companion-output\"><div class=\"companion-output-label\">{}</div>",
                escape(&env.ui(label))
            ));
            out.blank().fence("text", output).blank();
            out.line("</div>");
        }
        if let Some(report) = self.report {
            out.line(format!(
                "<div class=\"companion-output companion-report\"><div class=\"companion-output-label\">{}</div>",
                escape(&env.ui("Sanitizer report recorded by the check"))
            ));
            out.blank().fence("text", report).blank();
            out.line("</div>");
        }
        if let Some(panel) = self.assembly {
            panel.html(env, out);
        }
        if !self.links.is_empty() || !self.notes.is_empty() {
            let anchors: Vec<String> = self
                .links
                .iter()
                .map(|(label, url)| anchor(&env.ui(label), url))
                .chain(self.notes.iter().map(|n| note_html(n)))
                .collect();
            out.line(format!(
                "<div class=\"companion-links\">{}</div>",
                anchors.join(" ")
            ));
        }
        out.line("</div>");
    }

    /// The frame as plain Markdown: a bold title and the badge, the fence,
    /// the output, the links.
    pub(crate) fn markdown(&self, env: &Env<'_>, out: &mut Out) {
        let head: Vec<String> = [
            self.number
                .map(|n| escape_markdown(&format!("{} {}", env.ui("Example"), n.digits))),
            self.title.map(|t| format!("**{}**", escape_markdown(t))),
            self.badge.map(|b| format!("*{}*", escape_markdown(b))),
            self.at.map(moment_markdown),
        ]
        .into_iter()
        .flatten()
        .collect();
        out.line(head.join(" — "));
        out.blank().fence(self.info, self.code);
        if let Some((label, output)) = self.output {
            out.blank()
                .line(format!("{}:", escape_markdown(&env.ui(label))))
                .blank()
                .fence("text", output);
        }
        if !self.links.is_empty() || !self.notes.is_empty() {
            let list: Vec<String> = self
                .links
                .iter()
                .map(|(label, url)| format!("[{}](<{url}>)", escape_markdown(&env.ui(label))))
                .chain(self.notes.iter().map(|n| note_markdown(n)))
                .collect();
            out.blank().line(list.join(" · "));
        }
    }

    /// The frame for `target`: HTML or Markdown (`mdbook test` gets no
    /// frame; its directives write their bare fences).
    pub(crate) fn write(&self, env: &Env<'_>, out: &mut Out) {
        match env.target {
            Target::Html => self.html(env, out),
            Target::Markdown | Target::Xgettext => self.markdown(env, out),
            Target::Test => {}
        }
    }
}

/// The header's "12:30 in the talk": a link to the video at that second,
/// or plain text when the talk has no video.
pub(crate) fn moment_html(m: &MomentLink) -> String {
    match &m.href {
        Some(href) => format!(
            "<a class=\"companion-talk-at\" href=\"{}\">{}</a>",
            escape(href),
            escape(&m.label)
        ),
        None => format!(
            "<span class=\"companion-talk-at\">{}</span>",
            escape(&m.label)
        ),
    }
}

/// [`moment_html`] for other renderers.
pub(crate) fn moment_markdown(m: &MomentLink) -> String {
    match &m.href {
        Some(href) => format!("[{}](<{href}>)", escape_markdown(&m.label)),
        None => escape_markdown(&m.label),
    }
}

/// A note of the links row: escaped, each `` `name` `` as code.
pub(crate) fn note_html(note: &str) -> String {
    let mut html = String::from("<span class=\"companion-link-note\">");
    for (i, part) in note.split('`').enumerate() {
        if i % 2 == 1 {
            html.push_str(&format!("<code>{}</code>", escape(part)));
        } else {
            html.push_str(&escape(part));
        }
    }
    html.push_str("</span>");
    html
}

/// [`note_html`] for other renderers (crate names are identifiers: a
/// code span holds them as they are).
pub(crate) fn note_markdown(note: &str) -> String {
    let parts: Vec<String> = note
        .split('`')
        .enumerate()
        .map(|(i, part)| match i % 2 {
            1 => format!("`{part}`"),
            _ => escape_markdown(part),
        })
        .collect();
    parts.concat()
}

/// "`a`", "`a` and `b`", "`a`, `b` and `c`": crate names for a note.
pub(crate) fn quoted(names: &[String]) -> String {
    let q: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match q.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// A link of ours: `<a class="companion-link">`, label and address escaped.
pub(crate) fn anchor(label: &str, url: &str) -> String {
    format!(
        "<a class=\"companion-link\" href=\"{}\">{}</a>",
        escape(url),
        escape(label)
    )
}

/// An assembly panel, ready to write: the listing (a fact) tied to the
/// code the reader sees, its graphs, and the claims of the snippet's
/// ```` ```asm ```` block with how they stand.
#[derive(Debug, Clone)]
pub(crate) struct AsmPanel<'a> {
    /// The listing.
    pub listing: &'a str,
    /// How it was made (`cc -O2`).
    pub how: &'a str,
    /// The code the reader sees.
    pub shown: &'a str,
    /// The shown line (1-based; 0 for none) of each line of the
    /// listing; none at all when the listing carries no line table.
    pub lines: Vec<u32>,
    /// The claims of its ```` ```asm ```` block: the directives, the
    /// architecture they hold for, and how they stand.
    pub claims: Option<(&'a Checks, &'a str, Standing<'a>)>,
    /// Each function's control-flow graph (`asm=graph`).
    pub graphs: &'a [Drawing],
    /// What makes the graphs' ids unique on the page.
    pub id: String,
}

impl AsmPanel<'_> {
    /// The collapsible panel: a `<details>` around the source and listing
    /// tied by colour (or, with no line table, an assembly fence that
    /// mdBook's highlight.js colours) and the graphs; the claims in words
    /// after it, seen without opening it.
    fn html(&self, env: &Env<'_>, out: &mut Out) {
        let ui = |w: &str| env.ui(w).into_owned();
        out.line(format!(
            "<details class=\"companion-asm\"><summary>{} <span class=\"companion-asm-how\">({})</span></summary>",
            escape(&ui("Assembly")),
            escape(self.how)
        ));
        if self.listing.trim().is_empty() {
            out.line(format!(
                "<p class=\"companion-asm-empty\">{}</p>",
                escape(&ui(
                    "No machine code for the functions shown (they are generic, inlined or empty)."
                ))
            ));
        } else if self.lines.iter().any(|&l| l > 0) {
            asmview::tied(out, self.shown, self.listing, &self.lines, &ui);
        } else {
            out.blank()
                .fence(
                    mdbook_companion_core::code::asm_fence_language(),
                    self.listing,
                )
                .blank();
        }
        asmview::graphs(out, self.graphs, &self.id, &ui);
        out.line("</details>");
        if let Some((checks, arch, standing)) = self.claims {
            asmview::claims(out, checks, arch, standing, &ui);
        }
    }
}

/// A link that fell back to the bare site: the address, and a warning at
/// `at` saying why. `how` qualifies the length (" even compressed").
fn fallback(
    (name, site): (&str, &str),
    how: &str,
    e: TooLong,
    at: usize,
    warnings: &mut Vec<Problem>,
) -> String {
    warnings.push(Problem::at(
        at,
        format!(
            "the {name} link would be {} bytes{how}, more than {}; linking to {site} without the code",
            e.len,
            links::MAX_URL_LEN
        ),
    ));
    e.fallback
}

/// The Playground link for a Rust program, if the book has one.
pub(crate) fn playground_link(
    env: &Env<'_>,
    program: &str,
    edition: u16,
    mode: links::Mode,
    at: usize,
    warnings: &mut Vec<Problem>,
) -> Option<String> {
    let base = env.config.playground_url.as_ref()?;
    Some(
        links::playground(base, program, edition, mode)
            .unwrap_or_else(|e| fallback(("Playground", "the Playground"), "", e, at, warnings)),
    )
}

/// A Compiler Explorer link opening `sessions`, if the book has one.
pub(crate) fn compiler_explorer_link(
    env: &Env<'_>,
    sessions: &[Pane],
    at: usize,
    warnings: &mut Vec<Problem>,
) -> Option<String> {
    let base = env.config.compiler_explorer_url.as_ref()?;
    if sessions.is_empty() {
        return None;
    }
    Some(
        links::compiler_explorer(base, sessions).unwrap_or_else(|e| {
            fallback(
                ("Compiler Explorer", "Compiler Explorer"),
                " even compressed",
                e,
                at,
                warnings,
            )
        }),
    )
}

/// The Compiler Explorer session of some code in `lang` with `options`.
pub(crate) fn session(env: &Env<'_>, lang: Lang, source: &str, options: String) -> Option<Pane> {
    let (language, compiler) = lang.compiler_explorer(env.config)?;
    Some(Pane {
        language,
        source: source.to_owned(),
        compiler: compiler.to_owned(),
        options,
    })
}

/// Whether frames are rendered for a reader (an HTML page or mdBook's
/// Markdown), whose badges say what the lock vouches for.
pub(crate) fn on_a_page(env: &Env<'_>) -> bool {
    matches!(env.target, Target::Html | Target::Markdown)
}

/// The badge of a frame whose claim says `badge` ("Runs · Memcheck"):
/// that badge where the lock records the claim passed (or the book keeps
/// no lock), else what happened instead, so that a page never shows a
/// proof no check made.
pub(crate) fn vouched_badge(env: &Env<'_>, badge: String, vouched: &Vouched) -> String {
    match vouched {
        Vouched::NoLock
        | Vouched::Verdict(Recorded::Passed | Recorded::Ignored | Recorded::OtherArch, _) => badge,
        Vouched::Verdict(Recorded::Failed, _) => env.ui("Check failed").into_owned(),
        Vouched::Verdict(Recorded::Unchecked, Some(tool)) => env
            .ui("Not checked: {tool} was not found")
            .replace("{tool}", tool.rsplit('/').next().unwrap_or(tool)),
        Vouched::Verdict(Recorded::Unchecked, None) => env.ui("Not checked").into_owned(),
        Vouched::Stale => env.ui("Not checked since the code changed").into_owned(),
    }
}
