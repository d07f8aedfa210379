//! Writing talks: a card per talk on an HTML page (a schedule grouped by
//! date when there are several), plain Markdown elsewhere, nothing for
//! `mdbook test`.

use super::data::{Talk, When, parse_time};
use crate::contract::Target;
use crate::pages::chapter_href;
use mdbook_companion_core::escape::{escape, escape_markdown};
use mdbook_companion_core::markdown::Out;

/// The video's address opened at `seconds`: YouTube's `t=…s` parameter,
/// Vimeo's `#t=…s`, and the media fragment `#t=` for any other host.
pub(crate) fn video_at(video: &str, seconds: u64) -> String {
    let (base, _fragment) = video.split_once('#').unwrap_or((video, ""));
    let host = base
        .split_once("://")
        .map_or("", |(_, rest)| rest)
        .split(['/', '?'])
        .next()
        .unwrap_or("");
    let host = host.rsplit('@').next().unwrap_or(host);
    let host = host.split(':').next().unwrap_or(host).to_ascii_lowercase();
    let is = |domain: &str| host == domain || host.ends_with(&format!(".{domain}"));
    if is("youtube.com") || is("youtu.be") || is("youtube-nocookie.com") {
        // The video's own start (`t=`) gives way to the moment's.
        let (path, query) = base.split_once('?').unwrap_or((base, ""));
        let mut params: Vec<&str> = query
            .split('&')
            .filter(|p| !p.is_empty() && !p.starts_with("t="))
            .collect();
        let t = format!("t={seconds}s");
        params.push(&t);
        format!("{path}?{}", params.join("&"))
    } else if is("vimeo.com") {
        format!("{base}#t={seconds}s")
    } else {
        format!("{base}#t={seconds}")
    }
}

/// A length in words: `45 s`, `10 min`, `1 h`, `1 h 5 min` (seconds shown
/// only under a minute, or when the data gives them).
pub(crate) fn length_in_words(secs: u64) -> String {
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    let mut parts = Vec::new();
    if h > 0 {
        parts.push(format!("{h} h"));
    }
    if m > 0 {
        parts.push(format!("{m} min"));
    }
    if s > 0 || parts.is_empty() {
        parts.push(format!("{s} s"));
    }
    parts.join(" ")
}

/// Where the chapter links start from.
pub(crate) struct LinkBase<'a> {
    /// The book's `src`, as chapter files start (`src`).
    pub src: &'a str,
    /// This chapter's file (`src/talk.md`).
    pub file: &'a str,
}

fn group_by_date<'t>(talks: &[&'t Talk]) -> Vec<(Option<When>, Vec<&'t Talk>)> {
    let mut sorted: Vec<&Talk> = talks.to_vec();
    // Undated talks last; a stable sort keeps the data's order otherwise.
    sorted.sort_by_key(|t| (t.when.is_none(), t.when));
    let mut groups: Vec<(Option<When>, Vec<&Talk>)> = Vec::new();
    for t in sorted {
        let day = t.when.map(|w| w.date);
        match groups.last_mut() {
            Some((w, list)) if w.map(|w| w.date) == day => list.push(t),
            _ => groups.push((t.when.map(|w| When { time: None, ..w }), vec![t])),
        }
    }
    groups
}

/// Renders the talks: one card, or a schedule of several.
pub(crate) fn render_talks(
    title: Option<&str>,
    talks: &[&Talk],
    page: &LinkBase<'_>,
    target: Target,
) -> Out {
    let mut out = Out::new();
    match target {
        Target::Test => {}
        Target::Html => {
            let schedule = talks.len() > 1;
            let class = if schedule {
                "companion-talks companion-schedule"
            } else {
                "companion-talks"
            };
            out.line(format!("<div class=\"{class}\">"));
            if let Some(t) = title {
                out.line(format!(
                    "<p class=\"companion-talks-title\">{}</p>",
                    escape(t)
                ));
            }
            if schedule {
                for (day, list) in group_by_date(talks) {
                    out.line("<section class=\"companion-schedule-day\">");
                    out.line(match day {
                        Some(d) => format!(
                            "<p class=\"companion-schedule-date\"><time datetime=\"{}\">{}</time></p>",
                            d.machine(),
                            d.day_in_words()
                        ),
                        None => "<p class=\"companion-schedule-date\">Date not given</p>".to_owned(),
                    });
                    for t in list {
                        card_html(&mut out, t, page);
                    }
                    out.line("</section>");
                }
            } else {
                for t in talks {
                    card_html(&mut out, t, page);
                }
            }
            out.line("</div>");
        }
        Target::Markdown | Target::Xgettext => {
            if let Some(t) = title {
                out.line(format!("**{}**", escape_markdown(t))).blank();
            }
            let groups = if talks.len() > 1 {
                group_by_date(talks)
            } else {
                vec![(None, talks.to_vec())]
            };
            for (day, list) in groups {
                if let Some(d) = day {
                    out.line(format!("*{}*", d.day_in_words())).blank();
                }
                for t in list {
                    card_markdown(&mut out, t, page);
                }
            }
        }
    }
    out
}

fn links(t: &Talk) -> Vec<(&str, &str)> {
    let mut v: Vec<(&str, &str)> = Vec::new();
    if let Some(video) = &t.video {
        v.push(("Video", video));
    }
    v.extend(t.links.iter().map(|l| (l.label.as_str(), l.url.as_str())));
    v
}

fn card_html(out: &mut Out, t: &Talk, page: &LinkBase<'_>) {
    out.line("<article class=\"companion-talk\">");
    out.line(format!(
        "<p class=\"companion-talk-title\">{}</p>",
        escape(&t.title)
    ));
    if !t.speakers.is_empty() {
        let names: Vec<String> = t.speakers.iter().map(|s| escape(s)).collect();
        out.line(format!(
            "<p class=\"companion-talk-speakers\">{}</p>",
            names.join(", ")
        ));
    }
    let meta = meta_html(t);
    if !meta.is_empty() {
        out.line(format!(
            "<p class=\"companion-talk-meta\">{}</p>",
            meta.join(" <span aria-hidden=\"true\">·</span> ")
        ));
    }
    let links = links(t);
    if !links.is_empty() {
        let items: Vec<String> = links
            .iter()
            .map(|(label, url)| {
                format!(
                    "<li><a class=\"companion-talk-link\" href=\"{}\">{}</a></li>",
                    escape(url),
                    escape(label)
                )
            })
            .collect();
        out.line(format!(
            "<ul class=\"companion-talk-links\" aria-label=\"Links\">{}</ul>",
            items.join("")
        ));
    }
    if let Some(a) = &t.abstract_html {
        out.line(format!("<div class=\"companion-talk-abstract\">{a}</div>"));
    }
    if !t.moments.is_empty() {
        out.line("<ol class=\"companion-talk-moments\" aria-label=\"Moments\">");
        for m in &t.moments {
            let time = match &t.video {
                Some(v) => format!(
                    "<a class=\"companion-talk-time\" href=\"{}\">{}</a>",
                    escape(&video_at(v, m.seconds)),
                    escape(&m.at)
                ),
                None => format!(
                    "<span class=\"companion-talk-time\">{}</span>",
                    escape(&m.at)
                ),
            };
            let what = match &m.chapter {
                Some(c) => format!(
                    "<a class=\"companion-talk-moment-title\" href=\"{}\">{}</a>",
                    escape(&chapter_href(page.src, page.file, c, Target::Html)),
                    escape(&m.title)
                ),
                None => format!(
                    "<span class=\"companion-talk-moment-title\">{}</span>",
                    escape(&m.title)
                ),
            };
            out.line(format!(
                "<li class=\"companion-talk-moment\">{time} {what}</li>"
            ));
        }
        out.line("</ol>");
    }
    out.line("</article>");
}

/// A talk card's line of facts: its event, date, place and length.
fn meta_html(t: &Talk) -> Vec<String> {
    let mut meta = Vec::new();
    if let Some(e) = &t.event {
        meta.push(format!(
            "<span class=\"companion-talk-event\">{}</span>",
            escape(e)
        ));
    }
    if let Some(w) = &t.when {
        meta.push(format!(
            "<time class=\"companion-talk-date\" datetime=\"{}\">{}</time>",
            w.machine(),
            w.in_words()
        ));
    }
    if let Some(p) = &t.place {
        meta.push(format!(
            "<span class=\"companion-talk-place\">{}</span>",
            escape(p)
        ));
    }
    if let Some(d) = &t.duration {
        meta.push(match parse_time(d) {
            Some(secs) => format!(
                "<time class=\"companion-talk-duration\" datetime=\"PT{secs}S\">{}</time>",
                length_in_words(secs)
            ),
            None => format!(
                "<span class=\"companion-talk-duration\">{}</span>",
                escape(d)
            ),
        });
    }
    meta
}

fn card_markdown(out: &mut Out, t: &Talk, page: &LinkBase<'_>) {
    let mut head = format!("**{}**", escape_markdown(&t.title));
    if !t.speakers.is_empty() {
        let names: Vec<String> = t.speakers.iter().map(|s| escape_markdown(s)).collect();
        head.push_str(&format!(" — {}", names.join(", ")));
    }
    let mut meta = Vec::new();
    if let Some(e) = &t.event {
        meta.push(escape_markdown(e));
    }
    if let Some(w) = &t.when {
        meta.push(w.in_words());
    }
    if let Some(p) = &t.place {
        meta.push(escape_markdown(p));
    }
    if let Some(d) = &t.duration {
        meta.push(parse_time(d).map_or_else(|| escape_markdown(d), length_in_words));
    }
    let links: Vec<String> = links(t)
        .iter()
        .map(|(label, url)| format!("[{}](<{url}>)", escape_markdown(label)))
        .collect();
    // One paragraph, a line each, joined by hard breaks (a trailing `\`).
    let mut lines = vec![head];
    if !meta.is_empty() {
        lines.push(meta.join(" · "));
    }
    if !links.is_empty() {
        lines.push(links.join(" · "));
    }
    let last = lines.len() - 1;
    for (i, l) in lines.into_iter().enumerate() {
        out.line(if i < last { format!("{l}\\") } else { l });
    }
    out.blank();
    if let Some(a) = &t.abstract_markdown {
        out.line(a.clone()).blank();
    }
    for m in &t.moments {
        let time = match &t.video {
            Some(v) => format!("[{}](<{}>)", m.at, video_at(v, m.seconds)),
            None => m.at.clone(),
        };
        let what = match &m.chapter {
            Some(c) => format!(
                "[{}](<{}>)",
                escape_markdown(&m.title),
                chapter_href(page.src, page.file, c, Target::Markdown)
            ),
            None => escape_markdown(&m.title),
        };
        out.line(format!("- {time} {what}"));
    }
    if !t.moments.is_empty() {
        out.blank();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn videos_open_at_the_second() {
        assert_eq!(
            video_at("https://www.youtube.com/watch?v=abc", 750),
            "https://www.youtube.com/watch?v=abc&t=750s"
        );
        assert_eq!(
            video_at("https://youtu.be/abc", 5),
            "https://youtu.be/abc?t=5s"
        );
        assert_eq!(
            video_at("https://vimeo.com/123", 90),
            "https://vimeo.com/123#t=90s"
        );
        assert_eq!(
            video_at("https://example.org/talk.webm#x", 90),
            "https://example.org/talk.webm#t=90"
        );
        // The moment's time replaces the video's own start.
        assert_eq!(
            video_at("https://www.youtube.com/watch?v=a&t=10s&list=x", 30),
            "https://www.youtube.com/watch?v=a&list=x&t=30s"
        );
        // A host that merely contains a name is not that host.
        assert_eq!(
            video_at("https://notyoutube.com/v", 1),
            "https://notyoutube.com/v#t=1"
        );
    }

    #[test]
    fn lengths_read_in_words() {
        for (secs, words) in [
            (0, "0 s"),
            (45, "45 s"),
            (600, "10 min"),
            (3600, "1 h"),
            (3900, "1 h 5 min"),
            (3723, "1 h 2 min 3 s"),
        ] {
            assert_eq!(length_in_words(secs), words);
        }
    }

    #[test]
    fn chapter_links_are_relative_to_the_page() {
        assert_eq!(
            chapter_href("src", "src/talk.md", "uninit.md", Target::Html),
            "uninit.html"
        );
        assert_eq!(
            chapter_href("src", "src/a/b.md", "c/d.md", Target::Html),
            "../c/d.html"
        );
        assert_eq!(
            chapter_href("src", "src/talk.md", "u.md", Target::Markdown),
            "u.md"
        );
    }
}
