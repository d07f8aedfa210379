//! A quiz on the page: its number and title, then each question as a
//! `<fieldset>` of real inputs (radio buttons, checkboxes, a text box, or
//! for a program the outcomes to choose from), with a live region for the
//! verdict. The key is in the HTML's attributes only (`data-companion-key`,
//! and a closed `<details>` whose contents `quiz.js` takes from its
//! `data-companion-answer` and reveals after the reader checks): never in
//! the page's visible text, nor in mdBook's search index, which indexes
//! text. Print shows the questions, and the
//! answers only with `print-answers = true`; other renderers get the
//! questions as Markdown (the answers under the same key); `mdbook test`
//! gets the Rust programs with rustdoc's attributes.

use super::{
    Answer, Behaviour, Labelled, PRINT_ANSWERS, Program, Prose, Question, Quiz, Role, WHAT,
};
use crate::contract::{Env, Model, Numbered, Rendered, Target};
use crate::facts::Facts;
use crate::note::render_note;
use crate::numbering::Number;
use mdbook_companion_core::escape::escape;
use mdbook_companion_core::lang::Family;
use mdbook_companion_core::markdown::{Block, Out};
use mdbook_companion_core::problem::Problem;

/// The words the script says, in the book's language (see `quiz.js`).
const SCRIPT_WORDS: [(&str, &str); 4] = [
    ("right", "Right."),
    ("wrong", "Not quite."),
    ("none", "Not answered."),
    ("score", "{n} of {total} right"),
];

impl Model for Quiz {
    /// The block for `env.target`, with the claims of its program
    /// questions, each a row of the claims page under the quiz's number.
    fn render(&self, block: &Block, env: &Env<'_>, facts: &Facts) -> Result<Rendered, Problem> {
        let claims = self.claims(env);
        // For each question, the lines its recorded first error labels.
        let labelled: Vec<Vec<Labelled>> = (1..=self.questions.len())
            .map(|n| {
                let program = match &self.questions[n - 1].answer {
                    Answer::Program(p) => p,
                    _ => return Vec::new(),
                };
                claims
                    .iter()
                    .find(|(k, c)| *k == n && c.expectation.error_line.is_some())
                    .map_or_else(Vec::new, |(_, c)| {
                        program.labelled(facts.recorded(c), c.program.lines.as_ref())
                    })
            })
            .collect();
        let id = self.id.as_ref();
        let mut number = env.numbers.number(0, id.map(|(id, _)| id.as_str()));
        number.word = WHAT;
        let title = env.text_opt(self.title.as_deref()).map(|t| t.into_owned());
        // A proven question has a claim per option: its rows are
        // numbered in the question's order of options.
        let mut options = vec![0usize; self.questions.len() + 1];
        let mut entries: Vec<Numbered> = claims
            .iter()
            .enumerate()
            .map(|(i, (n, _))| Numbered {
                number: number.clone(),
                id_at: id.filter(|_| i == 0).map(|(_, at)| *at),
                title: title.clone(),
                what: match &self.questions[n - 1].proof {
                    Some(_) => {
                        options[*n] += 1;
                        format!("question {n}, option {}", options[*n])
                    }
                    None => format!("question {n}"),
                },
                // The claims page names what is proved, not the answer;
                // a line's key says which of the error's labels it is.
                badge: Some(super::shown::key_badge(
                    env,
                    &self.questions[n - 1],
                    &labelled[n - 1],
                )),
                claim: Some(i),
            })
            .collect();
        if entries.is_empty() {
            entries.push(Numbered {
                number: number.clone(),
                id_at: id.map(|(_, at)| *at),
                title: title.clone(),
                what: "quiz".to_owned(),
                badge: None,
                claim: None,
            });
        }
        let mut r = Rendered {
            entries,
            claims: claims.into_iter().map(|(_, c)| c).collect(),
            ..Rendered::default()
        };
        match env.target {
            Target::Test => self.test(&mut r.out),
            Target::Xgettext => r.out = self.xgettext(block, env),
            Target::Html => self.html(env, &number, title.as_deref(), &labelled, &mut r.out)?,
            Target::Markdown => self.markdown(env, &number, title.as_deref(), &mut r.out)?,
        }
        Ok(r)
    }
}

/// Inline Markdown (an option, a prompt) as HTML for inside a `<label>`
/// or `<legend>`: raw HTML shown as text, links checked, one paragraph's
/// contents.
pub(super) fn inline(
    env: &Env<'_>,
    prose: &Prose,
    translate_as_text: bool,
) -> Result<String, Problem> {
    let text = match translate_as_text {
        true => env.text(&prose.text),
        false => env.markdown(&prose.text),
    };
    super::shown::inline_html(&text, prose.at).map_err(|p| prose.told(p))
}

/// The words of an explanation (a `>` quote) as HTML.
fn why_html(env: &Env<'_>, prose: &Prose) -> Result<String, Problem> {
    let text = env.markdown(&prose.text);
    let (html, _) = render_note(&text).map_err(|m| prose.told(Problem::at(prose.at, m)))?;
    Ok(html)
}

/// A JSON string literal of `s` (for the key in a `data-` attribute).
fn json(s: &str) -> String {
    serde_json::Value::String(s.to_owned()).to_string()
}

impl Quiz {
    fn html(
        &self,
        env: &Env<'_>,
        number: &Number,
        title: Option<&str>,
        labelled: &[Vec<Labelled>],
        out: &mut Out,
    ) -> Result<(), Problem> {
        let id = escape(&number.id);
        let printed = match env.config.flag(PRINT_ANSWERS) {
            true => " companion-quiz-printed",
            false => "",
        };
        let words: Vec<String> = SCRIPT_WORDS
            .iter()
            .map(|(k, w)| format!("{}:{}", json(k), json(&env.ui(w))))
            .collect();
        out.line(format!(
            "<div class=\"companion-quiz{printed}\" id=\"{id}\" data-companion-quiz=\"{}\" data-companion-words=\"{}\">",
            escape(&self.hash),
            escape(&format!("{{{}}}", words.join(",")))
        ));
        let title = title
            .map(|t| format!("<span class=\"companion-title\">{}</span>", escape(t)))
            .unwrap_or_default();
        out.line(format!(
            "<div class=\"companion-header\"><a class=\"companion-number\" href=\"#{id}\">{} {}</a>{title}</div>",
            escape(&env.ui(WHAT)),
            escape(&number.digits),
        ));
        for (i, q) in self.questions.iter().enumerate() {
            self.question_html(env, number, i + 1, q, &labelled[i], out)?;
        }
        out.line(format!(
            "<div class=\"companion-quiz-actions\"><button type=\"button\" class=\"companion-quiz-check\" hidden>{}</button><button type=\"button\" class=\"companion-quiz-again\" hidden>{}</button><span class=\"companion-quiz-score\" role=\"status\" aria-live=\"polite\"></span></div>",
            escape(&env.ui("Check")),
            escape(&env.ui("Try again")),
        ));
        out.line("</div>");
        Ok(())
    }

    fn question_html(
        &self,
        env: &Env<'_>,
        number: &Number,
        n: usize,
        q: &Question,
        labelled: &[Labelled],
        out: &mut Out,
    ) -> Result<(), Problem> {
        let name = escape(&format!("{}-q{n}", number.id));
        let (kind, key) = match &q.answer {
            Answer::Choices(c) => {
                let right: Vec<String> = c
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| c.right)
                    .map(|(i, _)| i.to_string())
                    .collect();
                let kind = if q.all_that_apply() { "all" } else { "one" };
                (kind, format!("{{\"right\":[{}]}}", right.join(",")))
            }
            Answer::Text { accepted, .. } => {
                let list: Vec<String> = accepted.iter().map(|a| json(&env.text(a))).collect();
                ("text", format!("{{\"accepted\":[{}]}}", list.join(",")))
            }
            Answer::Program(p) => ("program", program_key(p, labelled)),
        };
        // A quiz file's question id: its anchor, as mdbook-quiz keeps it.
        let anchor =
            q.id.as_ref()
                .map(|id| format!(" id=\"{}\"", escape(id)))
                .unwrap_or_default();
        out.line(format!(
            "<fieldset class=\"companion-quiz-question\"{anchor} data-companion-kind=\"{kind}\" data-companion-key=\"{}\">",
            escape(&key)
        ));
        out.line(format!(
            "<legend><span class=\"companion-quiz-n\">{} {n}</span> {}</legend>",
            escape(&env.ui("Question")),
            inline(env, &q.prompt, false)?
        ));
        for prose in &q.body {
            let text = prose.safe(env)?;
            out.blank();
            for line in text.lines() {
                out.line(line);
            }
            out.blank();
        }
        match &q.answer {
            Answer::Choices(choices) => {
                let ty = if q.all_that_apply() {
                    "checkbox"
                } else {
                    "radio"
                };
                if q.all_that_apply() {
                    out.line(format!(
                        "<p class=\"companion-quiz-hint\">{}</p>",
                        escape(&env.ui("Choose all that apply."))
                    ));
                }
                out.line("<div class=\"companion-quiz-options\">");
                for (i, c) in choices.iter().enumerate() {
                    out.line(format!(
                        "<label class=\"companion-quiz-option\"><input type=\"{ty}\" name=\"{name}\" value=\"{i}\"> <span>{}</span></label>",
                        super::shown::option_html(env, &c.text)?
                    ));
                }
                out.line("</div>");
            }
            Answer::Text { .. } => {
                out.line(format!(
                    "<div class=\"companion-quiz-options\"><label class=\"companion-quiz-option\"><span>{}</span> <input type=\"text\" name=\"{name}\" class=\"companion-quiz-text\" autocomplete=\"off\" spellcheck=\"false\"></label></div>",
                    escape(&env.ui("Your answer:"))
                ));
            }
            Answer::Program(p) => program_inputs(env, p, &name, out),
        }
        out.line(
            "<div class=\"companion-quiz-feedback\" role=\"status\" aria-live=\"polite\"></div>",
        );
        self.answer_html(env, q, labelled, out)?;
        out.line("</fieldset>");
        Ok(())
    }

    /// The closed disclosure of the key in words and the explanations.
    /// Its contents are in its `data-companion-answer` attribute, which
    /// `quiz.js` puts inside it: mdBook's search indexes a page's text
    /// (never its attributes), so a search cannot show the key.
    fn answer_html(
        &self,
        env: &Env<'_>,
        q: &Question,
        labelled: &[Labelled],
        out: &mut Out,
    ) -> Result<(), Problem> {
        let mut inner = Out::new();
        self.answer_contents(env, q, labelled, &mut inner)?;
        out.line(format!(
            "<details class=\"companion-quiz-answer\" data-companion-answer=\"{}\"><summary>{}</summary></details>",
            escape(&inner.lines().join("\n")).replace('\n', "&#10;"),
            escape(&env.ui("Answer"))
        ));
        Ok(())
    }

    /// The key in words and the explanations, as HTML.
    fn answer_contents(
        &self,
        env: &Env<'_>,
        q: &Question,
        labelled: &[Labelled],
        out: &mut Out,
    ) -> Result<(), Problem> {
        match &q.answer {
            Answer::Choices(choices) => {
                let right: Vec<String> = choices
                    .iter()
                    .filter(|c| c.right)
                    .map(|c| super::shown::option_html(env, &c.text))
                    .collect::<Result<_, _>>()?;
                let label = match right.len() {
                    1 => env.ui("The right answer:"),
                    _ => env.ui("The right answers:"),
                };
                out.line(format!(
                    "<div class=\"companion-quiz-key\"><p>{} {}</p></div>",
                    escape(&label),
                    right.join("; ")
                ));
                for (i, c) in choices.iter().enumerate() {
                    if let Some(why) = &c.why {
                        out.line(format!(
                            "<div class=\"companion-quiz-why\" data-companion-option=\"{i}\"><p><strong>{}</strong></p>{}</div>",
                            super::shown::option_html(env, &c.text)?,
                            why_html(env, why)?
                        ));
                    }
                }
            }
            Answer::Text { accepted, .. } => {
                let list: Vec<String> = accepted
                    .iter()
                    .map(|a| format!("<code>{}</code>", escape(&env.text(a))))
                    .collect();
                let label = match list.len() {
                    1 => env.ui("The right answer:"),
                    _ => env.ui("Accepted answers:"),
                };
                out.line(format!(
                    "<div class=\"companion-quiz-key\"><p>{} {}</p></div>",
                    escape(&label),
                    list.join(", ")
                ));
            }
            Answer::Program(p) => {
                let said = match p.outcome() {
                    Behaviour::Prints => env.ui("It prints:").into_owned(),
                    Behaviour::Panics => env.ui("It panics:").into_owned(),
                    Behaviour::Undefined => env.ui("Its behaviour is undefined:").into_owned(),
                    Behaviour::DoesNotCompile => env
                        .ui("It does not compile: the first error is on line {line}.")
                        .replace("{line}", &p.line.unwrap_or(0).to_string()),
                };
                let mut key = format!("<p>{}</p>\n", escape(&said));
                if labelled.iter().any(|l| !l.text.is_empty()) {
                    let items: Vec<String> = labelled
                        .iter()
                        .map(|l| format!("<li>{}</li>", escape(&super::shown::label_words(env, l))))
                        .collect();
                    key.push_str(&format!(
                        "<p>{}</p><ul class=\"companion-quiz-labels\">{}</ul>\n",
                        escape(&env.ui("The first error labels (each line is a right answer):")),
                        items.concat()
                    ));
                }
                if let Some(o) = &p.output {
                    key.push_str(&format!(
                        "<pre class=\"companion-quiz-output\"><code>{}</code></pre>",
                        escape(o.trim_end_matches('\n'))
                    ));
                }
                out.line(format!("<div class=\"companion-quiz-key\">{key}</div>"));
            }
        }
        if let Some(why) = &q.why {
            out.line(format!(
                "<div class=\"companion-quiz-why\">{}</div>",
                why_html(env, why)?
            ));
        }
        Ok(())
    }
}

/// A program question's key for the script: its outcome, output and line
/// (the lines its first error labels, each a right answer, when the
/// build recorded them).
fn program_key(p: &Program, labelled: &[Labelled]) -> String {
    let mut key = format!("{{\"outcome\":{}", json(p.outcome().name()));
    if p.outcome() == Behaviour::Prints {
        key.push_str(&format!(
            ",\"output\":{}",
            json(p.output.as_deref().unwrap_or(""))
        ));
    }
    if let Some(l) = p.line {
        key.push_str(&format!(",\"line\":{l}"));
        let mut lines: Vec<usize> = labelled.iter().map(|l| l.line).collect();
        if !lines.contains(&l) {
            lines.push(l);
        }
        let lines: Vec<String> = lines.iter().map(usize::to_string).collect();
        key.push_str(&format!(",\"lines\":[{}]", lines.join(",")));
    }
    key.push('}');
    key
}

/// The program and the outcomes the reader chooses from: the same for
/// every program of a language, so the inputs tell nothing.
fn program_inputs(env: &Env<'_>, p: &Program, name: &str, out: &mut Out) {
    // mdBook hides a Rust program's hidden lines itself.
    let (info, code) = match p.lang.follows_rustdoc() {
        true => (
            format!(
                "rust,noplayground,edition{}",
                match &p.role {
                    Role::Rust(ex) => ex.edition,
                    Role::Compiled { .. } => env.config.edition,
                }
            ),
            &p.code,
        ),
        false => (p.lang.fence().to_owned(), &p.shown),
    };
    out.blank().fence(&info, code).blank();
    let option = |value: &str, word: &str| {
        format!(
            "<label class=\"companion-quiz-option\"><input type=\"radio\" name=\"{name}\" value=\"{value}\"> <span>{}</span></label>",
            escape(&env.ui(word))
        )
    };
    out.line("<div class=\"companion-quiz-options companion-quiz-outcomes\">");
    out.line(option(Behaviour::Prints.name(), "It prints:"));
    out.line(format!(
        "<textarea class=\"companion-quiz-prints\" name=\"{name}-prints\" rows=\"2\" spellcheck=\"false\" aria-label=\"{}\"></textarea>",
        escape(&env.ui("What it prints"))
    ));
    // Native code's undefined behaviour is the other's panic.
    let native = p.lang.family() == Family::Native;
    if !native {
        out.line(option(Behaviour::Panics.name(), "It panics"));
    }
    out.line(format!(
        "<div class=\"companion-quiz-compile\">{} <input type=\"number\" class=\"companion-quiz-line\" name=\"{name}-line\" min=\"1\" inputmode=\"numeric\" aria-label=\"{}\"></div>",
        option(Behaviour::DoesNotCompile.name(), "It does not compile; the first error is on line"),
        escape(&env.ui("Line of the first error"))
    ));
    if native {
        out.line(option(
            Behaviour::Undefined.name(),
            "Its behaviour is undefined",
        ));
    }
    out.line("</div>");
}
