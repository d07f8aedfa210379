//! The claims page: ```` ```claims ````.
//!
//! Lists every numbered frame of the book (each example and comparison
//! side) chapter by chapter: its number, its title linked to its anchor,
//! what it claims, and the verdict and toolchain `companion.lock` records
//! for it. A block whose code changed since the last `check` is "not in
//! companion.lock": the page never claims more than was verified.
//!
//! The rows come from every chapter's rendering, so the book layer
//! renders a chapter holding this block once more after all the others
//! ([`crate::Shared::rows`]); before that it renders nothing.

use super::contract::Model;
use super::contract::{Env, Kind, Parsed, Rendered, Row, Target};
use super::facts::{Facts, Locked, Need};
use super::pages::chapter_href;
use mdbook_companion_core::claim::Recorded;
use mdbook_companion_core::escape::{escape, escape_markdown};
use mdbook_companion_core::markdown::{Block, Pattern};
use mdbook_companion_core::problem::Problem;

/// The claims page's row of the registry.
pub(crate) const KIND: Kind = Kind {
    name: "claims",
    pattern: Pattern {
        words: &["claims"],
        takes_output: false,
    },
    parse,
    makes_claims: false,
    lists_the_book: true,
    publishes: &[],
    keys: &[],
    stylesheet: include_str!("claims.css"),
    script: "",
};

/// What the lock says of one row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status<'l> {
    /// Only shown: it claims nothing.
    Shown,
    /// The lock has no entry for its current code.
    NotLocked,
    /// The lock's entry.
    Locked(&'l Locked),
}

impl Status<'_> {
    fn of<'l>(row: &Row, facts: &'l Facts) -> Status<'l> {
        match &row.hash {
            None => Status::Shown,
            Some(h) => facts.locked(h).map_or(Status::NotLocked, Status::Locked),
        }
    }

    /// The verdict in words, and its CSS name.
    fn verdict(&self) -> (&'static str, &'static str) {
        match self {
            Status::Shown => ("Shown only", "shown"),
            Status::NotLocked => ("Not in companion.lock", "unlocked"),
            Status::Locked(e) => match e.verdict {
                Recorded::Passed => ("Holds", "passed"),
                Recorded::Ignored => ("Not checked (ignore)", "ignored"),
                Recorded::Unchecked | Recorded::OtherArch => {
                    ("Not checked (no compiler)", "unchecked")
                }
                Recorded::Failed => ("Does not hold", "failed"),
            },
        }
    }

    fn toolchain(&self) -> &str {
        match self {
            Status::Locked(e) => &e.toolchain,
            _ => "",
        }
    }
}

/// The rows grouped by chapter, in book order.
fn by_chapter(rows: &[Row]) -> Vec<&[Row]> {
    rows.chunk_by(|a, b| a.file == b.file).collect()
}

/// A chapter's heading: `5. Ownership`, else its name, else its file.
fn chapter_title(row: &Row) -> String {
    let name = row.chapter.as_deref().unwrap_or(&row.file);
    match &row.section {
        Some(s) => format!("{s}. {name}"),
        None => name.to_owned(),
    }
}

/// One summary sentence: `12 blocks: 10 passed, 2 not in companion.lock.`,
/// its words in the book's language.
fn summary(env: &Env<'_>, statuses: &[Status<'_>]) -> String {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for s in statuses {
        let words = match s.verdict().1 {
            "unlocked" => "not in companion.lock",
            "shown" => "shown only",
            "unchecked" => "not checked",
            class => class,
        };
        match counts.iter_mut().find(|(w, _)| *w == words) {
            Some((_, n)) => *n += 1,
            None => counts.push((words, 1)),
        }
    }
    let parts: Vec<String> = counts
        .iter()
        .map(|(w, n)| format!("{n} {}", env.ui(w)))
        .collect();
    let blocks = env.ui(if statuses.len() == 1 {
        "block"
    } else {
        "blocks"
    });
    format!("{} {blocks}: {}.", statuses.len(), parts.join(", "))
}

/// A claims page: it needs the lock's entry of every row that makes a
/// claim, once the book's rows are known.
#[derive(Debug)]
struct Page;

/// Checks the block (no attribute, no text) and states what the page
/// needs.
fn parse(block: &Block, env: &Env<'_>) -> Result<Parsed, Problem> {
    let attrs = KIND.attributes(block)?;
    if let Some(attr) = attrs.first() {
        return Err(Problem::at(
            block.fence.info_offset + attr.offset,
            format!(
                "found unknown attribute `{}`; expected none: a claims page lists every block of the book",
                attr.key
            ),
        ));
    }
    if !block.fence.body.trim().is_empty() {
        return Err(Problem::at(
            block.fence.info_offset,
            "found text inside a claims block; expected an empty block (the page is made from the book)",
        ));
    }
    let needs = env
        .shared
        .rows
        .get()
        .into_iter()
        .flatten()
        .filter_map(|row| row.hash.clone().map(Need::Locked))
        .collect();
    Ok(Parsed {
        model: Box::new(Page),
        needs,
    })
}

impl Model for Page {
    fn render(&self, block: &Block, env: &Env<'_>, facts: &Facts) -> Result<Rendered, Problem> {
        render(block, env, facts)
    }
}

/// Renders the page from the book's rows and the lock's entries.
fn render(_: &Block, env: &Env<'_>, facts: &Facts) -> Result<Rendered, Problem> {
    let mut r = Rendered::default();
    let Some(rows) = env.shared.rows.get() else {
        return Ok(r);
    };
    let statuses: Vec<Status<'_>> = rows.iter().map(|row| Status::of(row, facts)).collect();
    let src = env.config.src.to_string_lossy().replace('\\', "/");
    let href = |row: &Row, target: Target| {
        let to = row
            .file
            .strip_prefix(&src)
            .and_then(|f| f.strip_prefix('/'))
            .unwrap_or(&row.file);
        chapter_href(&src, env.file, to, target)
    };
    let out = &mut r.out;
    match env.target {
        Target::Test | Target::Xgettext => {}
        Target::Html => {
            out.line("<div class=\"companion-claims\">");
            out.line(format!(
                "<p class=\"companion-claims-summary\">{}</p>",
                escape(&summary(env, &statuses))
            ));
            let mut k = 0;
            for chapter in by_chapter(rows) {
                let page = href(&chapter[0], Target::Html);
                out.line("<div class=\"companion-claims-scroll\"><table class=\"companion-claims-table\">");
                out.line(format!(
                    "<caption><a href=\"{}\">{}</a></caption>",
                    escape(&page),
                    escape(&chapter_title(&chapter[0]))
                ));
                let heads: Vec<String> = [
                    env.ui("Block"),
                    env.ui("Title"),
                    env.ui("Claims"),
                    env.ui("Verdict"),
                    env.ui("Toolchain"),
                ]
                .iter()
                .map(|h| format!("<th scope=\"col\">{}</th>", escape(h)))
                .collect();
                out.line(format!("<thead><tr>{}</tr></thead>", heads.concat()));
                out.line("<tbody>");
                for row in chapter {
                    let status = statuses[k];
                    k += 1;
                    out.line(row_html(row, status, &page, env));
                }
                out.line("</tbody></table></div>");
            }
            out.line("</div>");
        }
        Target::Markdown => {
            out.line(escape_markdown(&summary(env, &statuses)));
            let mut k = 0;
            for chapter in by_chapter(rows) {
                let page = href(&chapter[0], Target::Markdown);
                out.blank().line(format!(
                    "**[{}](<{page}>)**",
                    escape_markdown(&chapter_title(&chapter[0]))
                ));
                out.blank();
                for row in chapter {
                    let status = statuses[k];
                    k += 1;
                    let title = row.title.as_deref().unwrap_or(&row.what);
                    let toolchain = match status.toolchain() {
                        "" => String::new(),
                        t => format!(" ({})", escape_markdown(t)),
                    };
                    out.line(format!(
                        "- {}: [{}](<{page}#{}>) — {} — {}{toolchain}",
                        escape_markdown(&format!("{} {}", env.ui(&row.word), row.digits)),
                        escape_markdown(title),
                        row.id,
                        escape_markdown(row.badge.as_deref().unwrap_or("shown")),
                        escape_markdown(&env.ui(status.verdict().0)),
                    ));
                }
            }
        }
    }
    Ok(r)
}

/// A claim's row of the table: its block, title, claims, verdict and
/// toolchain, its title a link to the block on its `page`.
fn row_html(row: &Row, status: Status<'_>, page: &str, env: &Env<'_>) -> String {
    let (verdict, class) = status.verdict();
    let verdict = escape(&env.ui(verdict));
    let label = format!("{} {}", env.ui(&row.word), row.digits);
    let (title, what) = match &row.title {
        Some(t) => (
            t.as_str(),
            format!(
                " <span class=\"companion-claims-what\">{}</span>",
                escape(&row.what)
            ),
        ),
        None => (row.what.as_str(), String::new()),
    };
    format!(
        "<tr class=\"companion-claim companion-claim-{class}\"><td>{}</td><td><a href=\"{}#{}\">{}</a>{what}</td><td>{}</td><td>{verdict}</td><td>{}</td></tr>",
        escape(&label),
        escape(page),
        escape(&row.id),
        escape(title),
        escape(row.badge.as_deref().unwrap_or("—")),
        escape(status.toolchain()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(file: &str, digits: &str, hash: Option<&str>) -> Row {
        Row {
            file: file.into(),
            chapter: Some("Ownership".into()),
            section: Some("5".into()),
            digits: digits.into(),
            word: "Example".into(),
            id: "example-5-1".into(),
            id_at: None,
            title: None,
            what: "Rust example".into(),
            badge: Some("Runs".into()),
            hash: hash.map(str::to_owned),
        }
    }

    #[test]
    fn statuses_come_from_the_lock() {
        let entry = Locked {
            verdict: Recorded::Passed,
            toolchain: "rustc 1.0.0".into(),
        };
        let facts = Facts::new(vec![
            (
                Need::Locked("h1".into()),
                crate::facts::Fact::Locked(Some(entry.clone())),
            ),
            (Need::Locked("h2".into()), crate::facts::Fact::Locked(None)),
        ]);
        let rows = [
            row("src/a.md", "5.1", Some("h1")),
            row("src/a.md", "5.2", Some("h2")),
            row("src/b.md", "6.1", None),
        ];
        let statuses: Vec<Status<'_>> = rows.iter().map(|r| Status::of(r, &facts)).collect();
        assert_eq!(statuses[0].verdict().1, "passed");
        assert_eq!(statuses[0].toolchain(), "rustc 1.0.0");
        assert_eq!(statuses[1], Status::NotLocked);
        assert_eq!(statuses[2], Status::Shown);
        let (config, shared) = (crate::testing::config(), crate::Shared::disabled());
        let env = crate::testing::env(&config, &shared, Target::Html, "", "src/claims.md");
        assert_eq!(
            summary(&env, &statuses),
            "3 blocks: 1 passed, 1 not in companion.lock, 1 shown only."
        );
        assert_eq!(by_chapter(&rows).len(), 2);
        // Every word the page can show is offered to translators.
        for verdict in [
            Recorded::Passed,
            Recorded::Ignored,
            Recorded::Unchecked,
            Recorded::Failed,
        ] {
            let e = Locked {
                verdict,
                ..entry.clone()
            };
            let words = Status::Locked(&e).verdict().0;
            assert!(crate::ui::WORDS.contains(&words), "{words}");
        }
        for s in [Status::Shown, Status::NotLocked] {
            assert!(crate::ui::WORDS.contains(&s.verdict().0));
        }
        assert_eq!(chapter_title(&rows[0]), "5. Ownership");
    }
}
