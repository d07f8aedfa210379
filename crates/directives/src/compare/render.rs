//! Writing a compare block: columns or tabs of framed sides on an HTML
//! page, the Rust sides alone for `mdbook test`, plain Markdown elsewhere.

use super::{Compare, Layout, Side};
use crate::asmspec;
use crate::contract::{Env, Rendered, Target};
use crate::facts::{AsmAnswer, Facts, MomentLink};
use crate::frame::{self, Frame, FrameClaim};
use crate::numbering::Number;
use crate::xgettext::{self, Piece};
use mdbook_companion_core::escape::{escape, escape_markdown};
use mdbook_companion_core::expect::Expect;
use mdbook_companion_core::links::Pane;
use mdbook_companion_core::markdown::Block;
use mdbook_companion_core::markdown::Out;
use mdbook_companion_core::problem::Problem;
use mdbook_companion_core::run::{RecordedRun, RunButton};
use mdbook_companion_core::tie;

/// A short id, unique on the page and on the print page (which joins
/// every chapter): a hash of the chapter's file and the block's offset.
pub(super) fn block_id(env: &Env<'_>, at: usize) -> String {
    let key = mdbook_companion_core::hash::key(&[env.file.as_bytes(), at.to_string().as_bytes()]);
    format!("companion-cmp-{}", &key[..10])
}

impl Side {
    /// The note in the book's language, made safe (raw HTML shown as
    /// text, links checked: a translation is an author's string too).
    pub(super) fn note(&self, env: &Env<'_>) -> Result<Option<String>, Problem> {
        let (Some(note), Some((source, at))) = (&self.note, &self.note_source) else {
            return Ok(None);
        };
        match env.markdown(source) {
            std::borrow::Cow::Borrowed(_) => Ok(Some(note.clone())),
            std::borrow::Cow::Owned(t) => super::parse::safe_note(&t, *at).map(Some),
        }
    }
}

impl Compare {
    /// Renders the block for `env.target`, its sides numbered `numbers`.
    pub(crate) fn render_for_target(
        &self,
        env: &Env<'_>,
        facts: &Facts,
        moment: Option<&MomentLink>,
        at: usize,
        numbers: &[Number],
    ) -> Result<Rendered, Problem> {
        match env.target {
            Target::Test => Ok(self.render_test(env, facts)),
            Target::Html => self.render_html(env, facts, moment, at, numbers),
            Target::Markdown | Target::Xgettext => {
                self.render_markdown(env, facts, moment, at, numbers)
            }
        }
    }

    /// `mdbook test`: only the Rust sides, as plain Rust fences.
    fn render_test(&self, env: &Env<'_>, facts: &Facts) -> Rendered {
        let mut r = Rendered::default();
        for (i, s) in self.sides.iter().enumerate() {
            if let Some(ex) = s.example() {
                if i > 0 && !r.out.lines().is_empty() {
                    r.out.blank();
                }
                r.out.append(
                    ex.render_with(env, facts, s.info_offset, &AsmAnswer::default(), None, None)
                        .out,
                );
            }
        }
        r
    }

    fn render_html(
        &self,
        env: &Env<'_>,
        facts: &Facts,
        moment: Option<&MomentLink>,
        at: usize,
        numbers: &[Number],
    ) -> Result<Rendered, Problem> {
        let mut r = Rendered::default();
        let mut warnings = Vec::new();
        let compare_link = self.compare_link(env, facts, at, &mut warnings);
        let layout = match self.layout {
            Layout::Columns => "columns",
            Layout::Tabs => "tabs",
        };
        let out = &mut r.out;
        let id = self
            .id
            .as_ref()
            .map(|(id, _)| format!(" id=\"{}\"", escape(id)))
            .unwrap_or_default();
        out.line(format!(
            "<div class=\"companion-compare companion-layout-{layout}\"{id}>"
        ));
        if self.title.is_some() || moment.is_some() {
            let title = env
                .text_opt(self.title.as_deref())
                .map(|t| format!("<span class=\"companion-title\">{}</span>", escape(&t)));
            let at = moment.map(frame::moment_html);
            out.line(format!(
                "<div class=\"companion-header\">{}{}</div>",
                title.unwrap_or_default(),
                at.unwrap_or_default()
            ));
        }
        out.line("<div class=\"companion-sides\">");
        if self.layout == Layout::Tabs {
            self.tabs(env, at, out);
        }
        for (s, number) in self.sides.iter().zip(numbers) {
            out.line(format!(
                "<div class=\"companion-side companion-side-{}\">",
                s.lang.fence()
            ));
            let listing = match s.asm_request(env) {
                Some(req) => facts.assembly(&req)?,
                None => AsmAnswer::default(),
            };
            warnings.extend(listing.warnings.iter().cloned());
            r.missing.extend(listing.missing.iter().cloned());
            let recorded = s.recorded(env, facts);
            side(
                s,
                env,
                facts,
                recorded,
                &listing,
                number,
                &mut warnings,
                out,
            );
            if let Some(note) = s.note(env)? {
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
        let shown = match compare_link {
            Some(Ok(url)) => Some(frame::anchor(&env.ui("Compare in Compiler Explorer"), &url)),
            Some(Err(note)) => Some(frame::note_html(&note)),
            None => None,
        };
        if let Some(shown) = shown {
            out.line(format!(
                "<div class=\"companion-links companion-compare-links\">{shown}</div>"
            ));
        }
        out.line("</div>");
        r.warnings = warnings;
        Ok(r)
    }

    /// The tabs of a tabbed comparison (its info string at `at`): a radio
    /// input and its label per side.
    fn tabs(&self, env: &Env<'_>, at: usize, out: &mut Out) {
        let id = block_id(env, at);
        for i in 0..self.sides.len() {
            // A caption as a tab's label is the author's: translated.
            let label = match (self.tab_label(i), &self.sides[i].caption) {
                (l, Some(c)) if l == *c => env.text(c).into_owned(),
                (l, _) => l,
            };
            let label = escape(&label);
            out.line(format!(
                "<input type=\"radio\" class=\"companion-tab-input\" name=\"{id}\" id=\"{id}-{i}\" data-companion-tab=\"{label}\"{}><label class=\"companion-tab\" for=\"{id}-{i}\">{label}</label>",
                if i == 0 { " checked" } else { "" },
            ));
        }
    }

    /// A tab's label: the language, or the caption (else a number) when
    /// two sides share a language.
    pub(super) fn tab_label(&self, i: usize) -> String {
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

    /// Other renderers: a title, then each side as a plain fence with its
    /// caption, note and output, then the comparison link.
    fn render_markdown(
        &self,
        env: &Env<'_>,
        facts: &Facts,
        moment: Option<&MomentLink>,
        at: usize,
        numbers: &[Number],
    ) -> Result<Rendered, Problem> {
        let mut r = Rendered::default();
        let mut warnings = Vec::new();
        let out = &mut r.out;
        let head: Vec<String> = [
            env.text_opt(self.title.as_deref())
                .map(|t| format!("**{}**", escape_markdown(&t))),
            moment.map(frame::moment_markdown),
        ]
        .into_iter()
        .flatten()
        .collect();
        if !head.is_empty() {
            out.line(head.join(" — ")).blank();
        }
        for (i, (s, number)) in self.sides.iter().zip(numbers).enumerate() {
            if i > 0 {
                out.blank();
            }
            let listing = AsmAnswer::default();
            side(s, env, facts, None, &listing, number, &mut warnings, out);
            if let Some(note) = s.note(env)? {
                out.blank();
                for l in note.split('\n') {
                    out.line(l);
                }
            }
        }
        match self.compare_link(env, facts, at, &mut warnings) {
            Some(Ok(url)) => {
                out.blank().line(format!(
                    "[{}](<{url}>)",
                    escape_markdown(&env.ui("Compare in Compiler Explorer"))
                ));
            }
            Some(Err(note)) => {
                out.blank().line(frame::note_markdown(&note));
            }
            None => {}
        }
        r.warnings = warnings;
        Ok(r)
    }

    /// `mdbook-xgettext`: the title, then each side's caption, code and
    /// note, each on the line it was written on.
    pub(super) fn render_xgettext(&self, env: &Env<'_>, block: &Block) -> Rendered {
        let mut pieces = Vec::new();
        if let Some(t) = &self.title {
            pieces.push(Piece::Text {
                at: block.fence.info_offset,
                text: t,
            });
        }
        for s in &self.sides {
            if let Some(c) = &s.caption {
                pieces.push(Piece::Text {
                    at: s.info_offset,
                    text: c,
                });
            }
            pieces.push(Piece::Code {
                at: s.offset,
                info: s.lang.fence(),
                code: &s.code,
            });
            if let Some((note, at)) = &s.note_source {
                pieces.push(Piece::Markdown {
                    at: *at,
                    text: note,
                });
            }
        }
        Rendered {
            out: xgettext::write(env, &block.range, &pieces),
            ..Rendered::default()
        }
    }

    /// The one Compiler Explorer link of every side, or the note that
    /// replaces it when a Rust side needs the book's crates (our links
    /// hand Compiler Explorer the code alone).
    fn compare_link(
        &self,
        env: &Env<'_>,
        facts: &Facts,
        at: usize,
        warnings: &mut Vec<Problem>,
    ) -> Option<Result<String, String>> {
        env.config.compiler_explorer_url.as_ref()?;
        let mut needs: Vec<String> = self
            .sides
            .iter()
            .filter(|s| s.lang.follows_rustdoc())
            .flat_map(|s| facts.crates(&s.source).iter().cloned())
            .collect();
        needs.sort();
        needs.dedup();
        if !needs.is_empty() {
            return Some(Err(format!(
                "needs {}, not on Compiler Explorer",
                frame::quoted(&needs)
            )));
        }
        let sessions: Vec<Pane> = self.sides.iter().filter_map(|s| s.session(env)).collect();
        frame::compiler_explorer_link(env, &sessions, at, warnings).map(Ok)
    }
}

/// A side's frame: a Rust side's is its example's; a C, C++ or Python
/// side's is in the frame of an example, on an HTML page with its own
/// Compiler Explorer link (compiled sides), and, when the check recorded
/// its run (`recorded`), a Run button that replays it and the checker's
/// real report under the claimed one.
#[allow(clippy::too_many_arguments)]
fn side(
    s: &Side,
    env: &Env<'_>,
    facts: &Facts,
    recorded: Option<&RecordedRun>,
    listing: &AsmAnswer,
    number: &Number,
    warnings: &mut Vec<Problem>,
    out: &mut Out,
) {
    if let Some(ex) = s.example() {
        let side = ex.render_with(env, facts, s.info_offset, listing, Some(number), None);
        warnings.extend(side.warnings);
        out.append(side.out);
        return;
    }
    let vouched = s.vouched(env, facts);
    let links: Vec<(&str, String)> = match env.target {
        Target::Html => {
            let session: Vec<Pane> = s.session(env).into_iter().collect();
            frame::compiler_explorer_link(env, &session, s.info_offset, warnings)
                .map(|url| ("Compiler Explorer", url))
                .into_iter()
                .collect()
        }
        // Elsewhere the comparison's own link follows the sides.
        Target::Markdown | Target::Test | Target::Xgettext => Vec::new(),
    };
    let heading = env.text(&s.heading()).into_owned();
    let badge = frame::vouched_badge(env, s.badge(env), &vouched);
    let panel = s.spec().and_then(|spec| {
        asmspec::asm_panel(
            listing,
            s.lang
                .program()
                .and_then(|row| row.asm.as_ref())
                .map_or("cc -O2", |asm| asm.shown_as),
            &s.shown,
            &tie::c_lines(&s.code, &env.config.c_hidden_prefix),
            spec,
            Some(number),
        )
    });
    // The recorded run, replayed offline (C runs on no Playground), its
    // places told in the lines the reader sees.
    let lines = tie::c_lines(&s.code, &env.config.c_hidden_prefix);
    let told = |t: &str| tie::told_as_shown(t, s.lang.source_file(), &lines);
    let recorded = recorded.map(|r| RecordedRun {
        stderr: told(&r.stderr),
        report: r.report.as_deref().map(told),
        ..r.clone()
    });
    let recorded = recorded.as_ref();
    let run = RunButton::new(
        env.config.run,
        None,
        None,
        env.config.edition,
        false,
        recorded,
        None,
    )
    .map(|b| b.attribute());
    let report = recorded.and_then(|r| r.report.as_deref());
    let label = match report {
        // The author's block stays the claim, beside the real report.
        Some(_) => "Claimed: the report contains",
        None => s.expect().map_or("Output", Expect::output_label),
    };
    Frame {
        outcome: FrameClaim::of(s.expect(), s.ignore()),
        title: Some(&heading),
        badge: (!badge.is_empty()).then_some(badge.as_str()),
        info: s.lang.fence(),
        code: &s.shown,
        output: s.output.as_deref().map(|o| (label, o)),
        assembly: panel.as_ref(),
        links: &links,
        notes: &[],
        at: None,
        number: Some(number),
        run: run.as_deref(),
        report,
    }
    .write(env, out);
}
