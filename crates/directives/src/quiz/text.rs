//! A quiz for the targets other than a page: the questions as Markdown
//! (the answers under each only with `print-answers = true`), the Rust
//! programs for `mdbook test`, and the messages for `mdbook-xgettext`.

use super::{Answer, PRINT_ANSWERS, Quiz, Role, WHAT};
use crate::body;
use crate::contract::Env;
use crate::note::render_note;
use crate::numbering::Number;
use crate::xgettext::{self, Piece};
use mdbook_companion_core::escape::escape_markdown;
use mdbook_companion_core::markdown::{Block, Out};
use mdbook_companion_core::problem::Problem;

impl Quiz {
    /// Other renderers: the questions as Markdown; the answers under each
    /// only with `print-answers = true`.
    pub(super) fn markdown(
        &self,
        env: &Env<'_>,
        number: &Number,
        title: Option<&str>,
        out: &mut Out,
    ) -> Result<(), Problem> {
        let head = match title {
            Some(t) => format!(
                "**{} {} — {}**",
                escape_markdown(&env.ui(WHAT)),
                escape_markdown(&number.digits),
                escape_markdown(t)
            ),
            None => format!(
                "**{} {}**",
                escape_markdown(&env.ui(WHAT)),
                escape_markdown(&number.digits)
            ),
        };
        out.line(head);
        let answers = env.config.flag(PRINT_ANSWERS);
        for (i, q) in self.questions.iter().enumerate() {
            let (_, prompt) = render_note(&env.markdown(&q.prompt.text))
                .map_err(|m| q.prompt.told(Problem::at(q.prompt.at, m)))?;
            out.blank().line(format!(
                "**{} {}.** {prompt}",
                escape_markdown(&env.ui("Question")),
                i + 1
            ));
            for prose in &q.body {
                let text = prose.safe(env)?;
                out.blank();
                for line in text.lines() {
                    out.line(line);
                }
            }
            out.blank();
            match &q.answer {
                Answer::Choices(choices) => {
                    for c in choices {
                        let (_, md) = render_note(&env.text(&c.text.text))
                            .map_err(|m| c.text.told(Problem::at(c.text.at, m)))?;
                        let mark = if answers && c.right { "x" } else { " " };
                        out.line(format!("- [{mark}] {md}"));
                    }
                }
                Answer::Text { accepted, .. } => {
                    if answers {
                        let list: Vec<String> = accepted
                            .iter()
                            .map(|a| escape_markdown(&env.text(a)))
                            .collect();
                        out.line(format!(
                            "{} {}",
                            escape_markdown(&env.ui("Accepted answers:")),
                            list.join(", ")
                        ));
                    } else {
                        out.line(format!(
                            "{} \\_\\_\\_\\_",
                            escape_markdown(&env.ui("Your answer:"))
                        ));
                    }
                }
                Answer::Program(p) => {
                    out.fence(p.lang.fence(), &p.shown);
                    if answers {
                        out.blank()
                            .line(escape_markdown(&env.ui(p.expect().badge())));
                        if let Some(o) = &p.output {
                            out.blank().fence("text", o);
                        }
                    }
                }
            }
            if answers && let Some(why) = &q.why {
                let text = body::safe_markdown(&env.markdown(&why.text), why.at, "the explanation")
                    .map_err(|p| why.told(p))?;
                out.blank();
                for line in text.lines() {
                    out.line(format!("> {line}"));
                }
            }
        }
        Ok(())
    }

    /// `mdbook test`: each Rust program with rustdoc's attributes, as an
    /// example gives them.
    pub(super) fn test(&self, out: &mut Out) {
        let mut first = true;
        for q in &self.questions {
            if let Answer::Program(p) = &q.answer
                && let Role::Rust(ex) = &p.role
            {
                let mut info = vec!["rust".to_owned()];
                if let Some(a) = ex.expect.rustdoc() {
                    info.push(a.to_owned());
                }
                info.push(format!("edition{}", ex.edition));
                if !first {
                    out.blank();
                }
                first = false;
                out.fence(&info.join(","), &p.code);
            }
        }
    }

    /// `mdbook-xgettext`: the title, each prompt, its Markdown, options,
    /// answers and explanations as messages; code as plain fences.
    pub(super) fn xgettext(&self, block: &Block, env: &Env<'_>) -> Out {
        let mut pieces = Vec::new();
        if let Some(t) = &self.title {
            pieces.push(Piece::Text {
                at: self.info_offset,
                text: t,
            });
        }
        for q in &self.questions {
            // The question is inline Markdown: a message as written.
            if !q.prompt.text.is_empty() {
                pieces.push(Piece::Markdown {
                    at: q.prompt.at,
                    text: &q.prompt.text,
                });
            }
            for p in &q.body {
                pieces.push(Piece::Markdown {
                    at: p.at,
                    text: &p.text,
                });
            }
            match &q.answer {
                Answer::Choices(choices) => {
                    for c in choices {
                        pieces.push(Piece::Text {
                            at: c.text.at,
                            text: &c.text.text,
                        });
                        if let Some(w) = &c.why {
                            pieces.push(Piece::Markdown {
                                at: w.at,
                                text: &w.text,
                            });
                        }
                    }
                }
                Answer::Text { accepted, at } => {
                    for a in accepted {
                        pieces.push(Piece::Text { at: *at, text: a });
                    }
                }
                Answer::Program(p) => pieces.push(Piece::Code {
                    at: p.info_offset,
                    info: p.lang.fence(),
                    code: &p.code,
                }),
            }
            if let Some(w) = &q.why {
                pieces.push(Piece::Markdown {
                    at: w.at,
                    text: &w.text,
                });
            }
        }
        pieces.sort_by_key(|p| match p {
            Piece::Text { at, .. } | Piece::Markdown { at, .. } | Piece::Code { at, .. } => *at,
        });
        xgettext::write(env, &block.range, &pieces)
    }
}
