//! Writing the selected entries: cards on an HTML page, a Markdown list
//! elsewhere, nothing for `mdbook test`.

use super::data::{Entry, Status};
use super::select::Selection;
use crate::contract::{Env, Rendered, Target};
use mdbook_companion_core::escape::{escape, escape_markdown};
use mdbook_companion_core::markdown::Out;

/// Renders the cards for `entries`, our words in the book's language.
pub(crate) fn render_entries(sel: &Selection, entries: &[&Entry], env: &Env<'_>) -> Rendered {
    let mut r = Rendered::default();
    let out = &mut r.out;
    match env.target {
        Target::Test => {}
        Target::Html => {
            out.line("<div class=\"companion-reading-list\">");
            if let Some(t) = &sel.title {
                out.line(format!(
                    "<p class=\"companion-reading-list-title\">{}</p>",
                    escape(t)
                ));
            }
            out.line("<div class=\"companion-cards\">");
            for e in entries {
                card_html(e, env, out);
                out.line("</article>");
            }
            out.line("</div>");
            out.line("</div>");
        }
        Target::Markdown | Target::Xgettext => {
            if let Some(t) = &sel.title {
                out.line(format!("**{}**", escape_markdown(t))).blank();
            }
            for e in entries {
                let mut parts = vec![format!("[{}](<{}>)", escape_markdown(&e.title), e.url)];
                if !e.authors.is_empty() {
                    let names: Vec<String> = e.authors.iter().map(|a| escape_markdown(a)).collect();
                    parts.push(names.join(", "));
                }
                let badges: Vec<String> = e
                    .badges()
                    .into_iter()
                    .map(|(_, w)| escape_markdown(&env.ui(w)))
                    .collect();
                if !badges.is_empty() {
                    parts.push(format!("*{}*", badges.join(" · ")));
                }
                if let Some(a) = &e.audience {
                    parts.push(format!(
                        "{} {}",
                        escape_markdown(&env.ui("for")),
                        escape_markdown(a)
                    ));
                }
                if let Some(n) = &e.note_markdown {
                    parts.push(n.clone());
                }
                out.line(format!("- {}", parts.join(" — ")));
            }
        }
    }
    r
}

/// One entry's card on a page, up to its closing tag.
fn card_html(e: &Entry, env: &Env<'_>, out: &mut Out) {
    let mut classes = String::from("companion-card");
    if e.recommended {
        classes.push_str(" companion-card-recommended");
    }
    if e.status == Some(Status::Incomplete) {
        classes.push_str(" companion-card-incomplete");
    }
    out.line(format!("<article class=\"{classes}\">"));
    out.line(format!(
        "<p class=\"companion-card-title\"><a class=\"companion-card-link\" href=\"{}\">{}</a></p>",
        escape(&e.url),
        escape(&e.title)
    ));
    if !e.authors.is_empty() {
        let names: Vec<String> = e.authors.iter().map(|a| escape(a)).collect();
        out.line(format!(
            "<p class=\"companion-card-authors\">{}</p>",
            names.join(", ")
        ));
    }
    let badges = e.badges();
    if !badges.is_empty() {
        let items: Vec<String> = badges
            .iter()
            .map(|(class, word)| {
                format!(
                    "<li class=\"companion-badge companion-badge-{class}\">{}</li>",
                    escape(&env.ui(word))
                )
            })
            .collect();
        out.line(format!(
            "<ul class=\"companion-badges\" aria-label=\"{}\">{}</ul>",
            escape(&env.ui("Properties")),
            items.join("")
        ));
    }
    if let Some(a) = &e.audience {
        out.line(format!(
            "<p class=\"companion-card-audience\"><span class=\"companion-card-label\">{}</span> {}</p>",
            escape(&env.ui("Audience:")),
            escape(a)
        ));
    }
    if let Some(note) = &e.note_html {
        out.line(format!("<div class=\"companion-card-note\">{note}</div>"));
    }
}
