//! An exercise on the page: its number and title, the task, the starter
//! as a runnable block (Run calls the tests through
//! [`code::test_runner`]; the Playground link carries the starter and the
//! real test module, never the solution), then the tests, the hints and
//! the solution, each in a closed `<details>`. The print page shows the
//! task, the starter and the tests; the solution only with
//! `print-solutions = true` (a class the stylesheet reads), and other
//! renderers the same.

use super::{Code, Exercise, Prose, WHAT};
use crate::body;
use crate::contract::{Env, Model, Numbered, Package, Rendered, Target};
use crate::facts::Facts;
use crate::frame;
use crate::numbering::Number;
use crate::xgettext::{self, Piece};
use mdbook_companion_core::code;
use mdbook_companion_core::config::RunMode;
use mdbook_companion_core::escape::{escape, escape_markdown};
use mdbook_companion_core::links::Mode;
use mdbook_companion_core::markdown::{Block, Out};
use mdbook_companion_core::problem::Problem;
use mdbook_companion_core::run::RunButton;

impl Model for Exercise {
    /// The block for `env.target`, with its three claims and one row per
    /// claim on the claims page (all under the exercise's one number).
    fn render(&self, block: &Block, env: &Env<'_>, facts: &Facts) -> Result<Rendered, Problem> {
        let mut r = Rendered {
            claims: self.claims(env),
            ..Rendered::default()
        };
        let id = self.id.as_ref();
        let mut number = env.numbers.number(0, id.map(|(id, _)| id.as_str()));
        number.word = WHAT;
        let title = env.text(&self.title).into_owned();
        r.entries = r
            .claims
            .iter()
            .enumerate()
            .map(|(i, c)| Numbered {
                number: number.clone(),
                id_at: id.filter(|_| i == 0).map(|(_, at)| *at),
                title: Some(title.clone()),
                what: WHAT.to_owned(),
                badge: Some(env.ui(c.expectation.expect.badge()).into_owned()),
                claim: Some(i),
            })
            .collect();
        match env.target {
            Target::Test => self.test(&mut r.out),
            Target::Xgettext => r.out = self.xgettext(block, env),
            Target::Html => self.html(env, facts, &number, &title, &mut r)?,
            Target::Markdown => self.markdown(env, &number, &title, &mut r.out)?,
        }
        Ok(r)
    }

    fn package(&self, solutions: bool) -> Option<Package> {
        Some(self.to_package(solutions))
    }
}

impl Exercise {
    /// `mdbook test`: the starter with the tests compiles (`no_run`), and
    /// the solution passes them (the runner exits non-zero on a failure).
    fn test(&self, out: &mut Out) {
        let info = |extra: &str| format!("rust,{extra}edition{}", self.edition);
        out.fence(&info("no_run,"), &self.program(&self.starter));
        out.blank();
        out.fence(&info(""), &self.program(&self.solution));
    }

    /// The code of a runnable block: `part` as written, then (unless it
    /// has a `fn main` of its own) the tests and their runner as hidden
    /// lines.
    fn program(&self, part: &Code) -> String {
        let nl = if part.code.ends_with('\n') { "" } else { "\n" };
        match code::has_main(&part.source) {
            true => part.code.clone(),
            false => format!(
                "{}{nl}{}",
                part.code,
                code::hidden(&code::test_runner(&self.tests.source))
            ),
        }
    }

    /// The starter's fence on the page (its info string and code) and,
    /// when our Run button takes it, the exercise's `data-companion-run`
    /// attribute. mdBook's editor (`editable = true`) shows every line of
    /// a block, hidden ones too: there the block holds the starter as the
    /// reader sees it, and the button joins the rest (the starter's hidden
    /// lines above and below, the tests and their runner) when the reader
    /// presses Run, and sends it to the book's Playground. Elsewhere, and
    /// with `run = "playground"` (mdBook's own button, which sends what
    /// the block holds), the block carries them as hidden lines.
    fn starter_html(
        &self,
        env: &Env<'_>,
        missing: &[String],
    ) -> ((String, String), Option<String>) {
        let mut info = format!("rust,editable,edition{}", self.edition);
        if !env.config.editable || env.config.run == RunMode::Playground {
            if !missing.is_empty() {
                info.push_str(",noplayground");
            }
            return ((info, self.program(&self.starter)), None);
        }
        info.push_str(",noplayground");
        let (above, shown, mut below) = code::rust_hidden_ends(&self.starter.code);
        if !code::has_main(&self.starter.source) {
            if !below.is_empty() && !below.ends_with('\n') {
                below.push('\n');
            }
            below.push_str(&code::test_runner(&self.tests.source));
        }
        let button = RunButton::new(
            env.config.run,
            env.config.playground_url.as_deref(),
            (!missing.is_empty()).then(|| missing.join(", ")),
            self.edition,
            self.mode == Mode::Release,
            None,
            None,
        );
        let run = button.map(|b| b.joined(above, below).attribute());
        ((info, shown), run)
    }

    /// The task or the hints in the book's language, made safe.
    fn prose(env: &Env<'_>, prose: &Prose, whose: &str) -> Result<String, Problem> {
        body::safe_markdown(&env.markdown(&prose.text), prose.at, whose)
    }

    fn html(
        &self,
        env: &Env<'_>,
        facts: &Facts,
        number: &Number,
        title: &str,
        r: &mut Rendered,
    ) -> Result<(), Problem> {
        let used = facts.crates(&self.test_crate(false));
        let missing: Vec<String> = used
            .iter()
            .filter(|c| !env.config.playground_crates.contains(c))
            .cloned()
            .collect();
        let (starter, run) = self.starter_html(env, &missing);
        let out = &mut r.out;
        let id = escape(&number.id);
        out.line(format!(
            "<div class=\"companion-exercise\" id=\"{id}\"{}>",
            run.unwrap_or_default()
        ));
        out.line(format!(
            "<div class=\"companion-header\"><a class=\"companion-number\" href=\"#{id}\">{} {}</a><span class=\"companion-title\">{}</span></div>",
            escape(&env.ui("Exercise")),
            escape(&number.digits),
            escape(title)
        ));
        if let Some(task) = &self.task {
            let task = Self::prose(env, task, "the exercise's task")?;
            out.line("<div class=\"companion-exercise-task\">").blank();
            lines(out, &task);
            out.blank().line("</div>");
        }
        out.blank().fence(&starter.0, &starter.1).blank();
        // The Playground link, or the note that replaces it.
        let link = if !missing.is_empty() {
            let note = format!("needs {}, not on the Playground", frame::quoted(&missing));
            Some(frame::note_html(&note))
        } else {
            let program = self.test_crate(false);
            let at = self.starter.info_offset;
            frame::playground_link(env, &program, self.edition, self.mode, at, &mut r.warnings)
                .map(|url| frame::anchor(&env.ui("Playground"), &url))
        };
        if let Some(link) = link {
            out.line(format!("<div class=\"companion-links\">{link}</div>"));
        }
        let tests_info = format!("rust,noplayground,edition{}", self.edition);
        details(out, "tests", &env.ui("Tests"), |out| {
            out.blank().fence(&tests_info, &self.tests.code).blank();
        });
        if let Some(hints) = &self.hints {
            let hints = Self::prose(env, hints, "the exercise's hints")?;
            details(out, "hints", &env.ui("Hints"), |out| {
                out.blank();
                lines(out, &hints);
                out.blank();
            });
        }
        let class = match env.config.flag(super::PRINT_SOLUTIONS) {
            true => "solution companion-exercise-printed",
            false => "solution",
        };
        let solution_info = format!("rust,edition{}", self.edition);
        details(out, class, &env.ui("Solution"), |out| {
            out.blank()
                .fence(&solution_info, &self.program(&self.solution))
                .blank();
        });
        out.line("</div>");
        Ok(())
    }

    /// Other renderers: the same parts as plain Markdown; the solution
    /// only with `print-solutions = true`.
    fn markdown(
        &self,
        env: &Env<'_>,
        number: &Number,
        title: &str,
        out: &mut Out,
    ) -> Result<(), Problem> {
        out.line(format!(
            "**{} {} — {}**",
            escape_markdown(&env.ui("Exercise")),
            escape_markdown(&number.digits),
            escape_markdown(title)
        ));
        if let Some(task) = &self.task {
            out.blank();
            lines(out, &Self::prose(env, task, "the exercise's task")?);
        }
        let info = format!("rust,edition{}", self.edition);
        out.blank().fence(&info, &self.starter.shown);
        out.blank()
            .line(format!("{}:", escape_markdown(&env.ui("Tests"))))
            .blank()
            .fence(&info, &self.tests.shown);
        if let Some(hints) = &self.hints {
            out.blank()
                .line(format!("{}:", escape_markdown(&env.ui("Hints"))))
                .blank();
            lines(out, &Self::prose(env, hints, "the exercise's hints")?);
        }
        if env.config.flag(super::PRINT_SOLUTIONS) {
            out.blank()
                .line(format!("{}:", escape_markdown(&env.ui("Solution"))))
                .blank()
                .fence(&info, &self.solution.shown);
        }
        Ok(())
    }

    /// `mdbook-xgettext`: the title, the task, each part's code and the
    /// hints, each on the line it was written on.
    fn xgettext(&self, block: &Block, env: &Env<'_>) -> Out {
        let mut pieces = vec![(
            block.fence.info_offset,
            Piece::Text {
                at: block.fence.info_offset,
                text: &self.title,
            },
        )];
        for prose in [&self.task, &self.hints].into_iter().flatten() {
            let piece = Piece::Markdown {
                at: prose.at,
                text: &prose.text,
            };
            pieces.push((prose.at, piece));
        }
        for part in [&self.starter, &self.solution, &self.tests] {
            let piece = Piece::Code {
                at: part.info_offset,
                info: "rust",
                code: &part.code,
            };
            pieces.push((part.info_offset, piece));
        }
        pieces.sort_by_key(|(at, _)| *at);
        let pieces: Vec<Piece<'_>> = pieces.into_iter().map(|(_, p)| p).collect();
        xgettext::write(env, &block.range, &pieces)
    }
}

/// Markdown text as lines of `out` (blank lines kept as blank lines).
fn lines(out: &mut Out, text: &str) {
    for l in text.split('\n') {
        match l.trim().is_empty() {
            true => out.blank(),
            false => out.line(l),
        };
    }
}

/// A closed disclosure `companion-exercise-{class}` titled `summary`.
fn details(out: &mut Out, class: &str, summary: &str, inner: impl FnOnce(&mut Out)) {
    out.line(format!(
        "<details class=\"companion-exercise-{class}\"><summary>{}</summary>",
        escape(summary)
    ));
    inner(out);
    out.line("</details>");
}

#[cfg(test)]
mod tests {
    use crate::contract::{Shared, Target};
    use crate::facts::{Fact, Facts, Need};
    use crate::{parse, render, scan};
    use mdbook_companion_core::config::Config;
    use mdbook_companion_core::expect::Expect;
    use pretty_assertions::assert_eq;

    const BLOCK: &str = "````exercise title=\"Safe division\"\nDivide.\n\n```rust starter\npub fn divide(a: i32, b: i32) -> Option<i32> { todo!() }\n```\n\n```rust tests\n#[test]\nfn divides() { assert_eq!(divide(7, 2), Some(3)); }\n```\n\n```rust solution\npub fn divide(a: i32, b: i32) -> Option<i32> { mylib::SECRET; a.checked_div(b) }\n```\n````\n";

    /// The page of `BLOCK` from `facts`, with the needs it stated.
    fn page(facts: impl FnOnce(&[Need]) -> Facts) -> (Vec<Need>, String, Vec<Expect>) {
        page_in(crate::testing::config(), facts)
    }

    /// The same in a book whose configuration is `config`.
    fn page_in(
        mut config: Config,
        facts: impl FnOnce(&[Need]) -> Facts,
    ) -> (Vec<Need>, String, Vec<Expect>) {
        // Nothing could compile or run: everything comes from the facts.
        config.rustc = "/nonexistent/rustc".into();
        let block = scan(BLOCK).into_iter().next().expect("a block");
        let shared = Shared::disabled();
        let env = crate::testing::env(&config, &shared, Target::Html, BLOCK, "src/a.md");
        let parsed = parse(&block, &env).expect("parses");
        let facts = facts(&parsed.needs);
        let r = render(&block, &env, parsed.model.as_ref(), &facts).expect("renders");
        assert!(r.warnings.is_empty() && r.missing.is_empty());
        let expects = r.claims.iter().map(|c| c.expectation.expect).collect();
        (parsed.needs, r.out.lines().join("\n"), expects)
    }

    #[test]
    fn renders_from_made_up_facts_without_a_compiler() {
        let (needs, html, expects) = page(|needs| {
            let answers = needs
                .iter()
                .map(|n| (n.clone(), Fact::Crates(vec!["mylib".into()])));
            Facts::new(answers.collect())
        });
        let [Need::Crates(starter)] = needs.as_slice() else {
            panic!("needs: {needs:?}");
        };
        assert!(starter.contains("todo!()") && starter.contains("mod tests"));
        assert!(!starter.contains("SECRET"), "{starter}");
        assert_eq!(
            expects,
            [
                Expect::StarterCompiles,
                Expect::StarterFails,
                Expect::SolutionPasses
            ]
        );
        // The facts say the starter needs a crate the Playground lacks.
        assert!(
            html.contains("needs <code>mylib</code>, not on the Playground"),
            "{html}"
        );
        assert!(html.contains("```rust,editable,edition2021,noplayground"));
        assert!(!html.contains("play.rust-lang.org"), "{html}");
        // Told nothing, it links the starter with its tests, never the
        // solution.
        let (_, html, _) = page(|_| Facts::default());
        let link = html
            .lines()
            .find(|l| l.contains("companion-links"))
            .expect("a Playground link");
        assert!(
            link.contains("play.rust-lang.org") && link.contains("todo"),
            "{link}"
        );
        assert!(!link.contains("SECRET"), "{link}");
        assert!(html.contains("```rust,editable,edition2021\n"), "{html}");
        assert!(html.contains("<details class=\"companion-exercise-solution\">"));
    }

    /// With mdBook's editor on, the starter's block holds what the reader
    /// sees; the tests and their runner are in our button's attribute,
    /// escaped, joined when the reader presses Run. With mdBook's own
    /// button (`run = "playground"`) they stay hidden lines of the block.
    #[test]
    fn with_editable_the_block_holds_the_starter_and_the_button_the_rest() {
        let config = |run: &str| {
            let book = serde_json::json!({
                "preprocessor": {"companion": {"run": run}},
                "output": {"html": {"playground": {"editable": true}}},
            });
            let mut c = Config::from_json("/b".into(), &book).expect("config");
            assert!(c.editable);
            c.rustc = "/nonexistent/rustc".into();
            c
        };
        let (_, html, _) = page_in(config("auto"), |_| Facts::default());
        assert!(
            html.contains("```rust,editable,edition2021,noplayground\npub fn divide(a: i32, b: i32) -> Option<i32> { todo!() }\n```\n"),
            "{html}"
        );
        let div = html
            .lines()
            .find(|l| l.starts_with("<div class=\"companion-exercise\""))
            .expect("the exercise");
        assert!(
            !div.contains("Result<(), E>") && div.contains("Result&lt;(), E&gt;"),
            "unescaped: {div}"
        );
        let fragment = scraper::Html::parse_fragment(&format!("{div}</div>"));
        let selector = scraper::Selector::parse("div[data-companion-run]").expect("selector");
        let attr = (fragment.select(&selector).next())
            .and_then(|d| d.value().attr("data-companion-run"))
            .expect("our Run button");
        let spec: serde_json::Value = serde_json::from_str(attr).expect("JSON");
        assert_eq!(spec["join"][0], "");
        let below = spec["join"][1].as_str().expect("the rest");
        assert!(below.contains("fn divides()") && below.contains("tests::__companion_run();"));
        assert!(!below.contains("SECRET"), "the solution: {below}");
        // The page's block has none of it.
        let fenced = html.split("```rust,editable").nth(1).expect("the block");
        assert!(
            !fenced
                .split("```\n")
                .next()
                .unwrap_or("")
                .contains("__companion")
        );
        // mdBook's own button sends what the block holds: all of it.
        let (_, html, _) = page_in(config("playground"), |_| Facts::default());
        assert!(!html.contains("data-companion-run"), "{html}");
        assert!(
            html.contains("# fn main() {\n#     tests::__companion_run();\n# }\n"),
            "{html}"
        );
        // `run = "recorded"`: nothing recorded, no Playground: no button.
        let (_, html, _) = page_in(config("recorded"), |_| Facts::default());
        assert!(!html.contains("data-companion-run"), "{html}");
        assert!(
            html.contains("```rust,editable,edition2021,noplayground\npub fn divide(a: i32, b: i32) -> Option<i32> { todo!() }\n```\n"),
            "{html}"
        );
    }
}
