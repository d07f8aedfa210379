//! What the page shows of mdbook-quiz's schema and of the compiler's
//! labels: an option written as a code block kept a code block, and the
//! words of a line key (the claims page's badge, the reader's list of the
//! lines the first error labels).

use super::{Answer, Labelled, Prose, Question};
use crate::contract::Env;
use crate::note::render_note;
use mdbook_companion_core::escape::escape;
use mdbook_companion_core::problem::Problem;

/// An option's Markdown as HTML for inside its `<label>`: its code
/// blocks stay code blocks (mdbook-quiz's options are often programs),
/// the rest is inline Markdown as [`inline_html`] makes it; one line of HTML
/// (a code block's line ends are `&#10;`), so the option stays one line
/// of the page's HTML.
pub(super) fn option_html(env: &Env<'_>, prose: &Prose) -> Result<String, Problem> {
    option_markup(env, prose).map_err(|p| prose.told(p))
}

fn option_markup(env: &Env<'_>, prose: &Prose) -> Result<String, Problem> {
    let text = env.text(&prose.text);
    let fences = mdbook_companion_core::markdown::fences(&text);
    if fences.is_empty() {
        return inline_html(&text, prose.at);
    }
    let mut html = String::new();
    let mut from = 0;
    let words = |part: &str| -> Result<String, Problem> {
        match part.trim() {
            "" => Ok(String::new()),
            t => inline_html(t, prose.at),
        }
    };
    for f in &fences {
        html.push_str(&words(text.get(from..f.range.start).unwrap_or(""))?);
        let lang = mdbook_companion_core::markdown::first_word(&f.info);
        // Not `language-…`: mdBook would make a Rust one a playground
        // (its hidden `fn main` lines and all).
        let class = match lang {
            "" => String::new(),
            l => format!(" data-lang=\"{}\"", escape(l)),
        };
        html.push_str(&format!(
            "<pre class=\"companion-quiz-option-code\"><code{class}>{}</code></pre>",
            escape(f.body.trim_end_matches('\n')).replace('\n', "&#10;")
        ));
        from = f.range.end;
    }
    html.push_str(&words(text.get(from..).unwrap_or(""))?);
    Ok(html)
}

/// The claims page's words for a question's key: "Answer key", and for
/// a line the error labels, which label it is.
pub(super) fn key_badge(env: &Env<'_>, q: &Question, labelled: &[Labelled]) -> String {
    let line = match &q.answer {
        Answer::Program(p) => p.line,
        _ => None,
    };
    match labelled
        .iter()
        .find(|l| Some(l.line) == line && !l.text.is_empty())
    {
        Some(l) => env
            .ui("Answer key: line {line} ({label})")
            .replace("{line}", &l.line.to_string())
            .replace("{label}", &l.text),
        None => env.ui("Answer key").into_owned(),
    }
}

/// One labelled line in words: `line 6: immutable borrow later used here`.
pub(super) fn label_words(env: &Env<'_>, l: &Labelled) -> String {
    env.ui("line {line}: {label}")
        .replace("{line}", &l.line.to_string())
        .replace("{label}", &l.text)
}

/// Inline Markdown already in the book's language (an option, a prompt)
/// as HTML for inside a `<label>` or `<legend>`: raw HTML shown as text,
/// links checked, one paragraph's contents (`at`: where a problem is
/// told).
pub(super) fn inline_html(text: &str, at: usize) -> Result<String, Problem> {
    let (html, _) = render_note(text).map_err(|m| Problem::at(at, m))?;
    let one = html.matches("<p>").count() == 1;
    Ok(
        match (
            one,
            html.strip_prefix("<p>")
                .and_then(|h| h.strip_suffix("</p>")),
        ) {
            (true, Some(inner)) => inner.to_owned(),
            _ => html.replace("<p>", "").replace("</p>", " "),
        },
    )
}
