//! Links between the book's pages: a chapter file as the address its
//! rendered page has, relative to the page that links to it.

use super::contract::Target;

/// The link from chapter `from` (`src/a/b.md`) to chapter `to`, relative
/// to `src` (`c.md`), as the HTML page's address (`../c.html`).
pub(crate) fn chapter_href(src: &str, from: &str, to: &str, target: Target) -> String {
    let from = from
        .strip_prefix(src)
        .and_then(|f| f.strip_prefix('/'))
        .unwrap_or(from);
    let depth = from.matches('/').count();
    let to = match target {
        Target::Html => match to.strip_suffix(".md") {
            // mdBook's `index` preprocessor turns README.md into index.html.
            Some(stem)
                if stem
                    .rsplit('/')
                    .next()
                    .is_some_and(|name| name.eq_ignore_ascii_case("readme")) =>
            {
                format!("{}index.html", &stem[..stem.len() - "readme".len()])
            }
            Some(stem) => format!("{stem}.html"),
            None => to.to_owned(),
        },
        _ => to.to_owned(),
    };
    format!("{}{to}", "../".repeat(depth))
}
