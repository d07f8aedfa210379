//! What an assembly panel shows besides the listing: the source and the
//! listing tied by colour (each shown line and its instructions share a
//! `companion-cN` class; pointing at either highlights its partners, see
//! `asm.js`), the claims of an ```` ```asm ```` block in words with their
//! verdict, and the control-flow graphs of `asm=graph`. Pure functions of
//! what they are given: the panel's facts come from the book layer.

use mdbook_companion_core::escape::escape;
use mdbook_companion_core::filecheck::{Checks, Phrase};
use mdbook_companion_core::flowgraph;
use mdbook_companion_core::markdown::Out;
use mdbook_companion_core::tie;

/// The source (`shown`, the code the reader sees) beside the listing,
/// each instruction coloured as the shown line it came from
/// (`lines[i]`, 1-based; 0 for none).
pub(crate) fn tied(
    out: &mut Out,
    shown: &str,
    listing: &str,
    lines: &[u32],
    ui: &dyn Fn(&str) -> String,
) {
    let used: std::collections::BTreeSet<u32> = lines.iter().copied().filter(|&l| l > 0).collect();
    out.line(format!(
        "<div class=\"companion-asm-tie\" role=\"group\" aria-label=\"{}\">",
        escape(&ui("Source and assembly"))
    ));
    // Each `pre` on one line: its lines are blocks, each ending in its own
    // newline (the text reads and copies as lines), and a newline between
    // them would be one more, empty, line.
    let shown_lines: Vec<&str> = shown.lines().collect();
    let width = shown_lines.len().to_string().len();
    let source: String = shown_lines
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let n = i as u32 + 1;
            format!(
                "{}<span class=\"companion-lno\">{n:>width$}</span>{}\n</span>",
                open(n, used.contains(&n)),
                escape(text)
            )
        })
        .collect();
    out.line(format!(
        "<pre class=\"companion-asm-src\" aria-label=\"{}\">{source}</pre>",
        escape(&ui("Source"))
    ));
    let asm: String = listing
        .lines()
        .enumerate()
        .map(|(i, text)| {
            let n = lines.get(i).copied().unwrap_or(0);
            format!("{}{}\n</span>", open(n, n > 0), escape(text))
        })
        .collect();
    out.line(format!(
        "<pre class=\"companion-asm-listing\" aria-label=\"{}\">{asm}</pre>",
        escape(&ui("Assembly"))
    ));
    out.line("</div>");
}

/// The opening tag of a line: coloured and focusable when it has
/// partners on the other side.
fn open(n: u32, tied: bool) -> String {
    if tied {
        format!(
            "<span class=\"companion-ln companion-c{}\" data-line=\"{n}\" tabindex=\"0\">",
            tie::colour(n)
        )
    } else {
        "<span class=\"companion-ln\">".to_owned()
    }
}

/// How a claim about assembly came out, for its words on the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Standing<'a> {
    /// Checked and true.
    Holds,
    /// Checked and false.
    Fails,
    /// A claim about another architecture's code, on this machine.
    OtherArch(&'a str),
}

/// The claims of an `asm` block in words, with how they stand: what must
/// appear, in what order, and what must not.
pub(crate) fn claims(
    out: &mut Out,
    checks: &Checks,
    arch: &str,
    standing: Standing<'_>,
    ui: &dyn Fn(&str) -> String,
) {
    let (class, verdict) = match standing {
        Standing::Holds => ("holds", ui("Holds")),
        Standing::Fails => ("fails", ui("Does not hold")),
        Standing::OtherArch(here) => (
            "unchecked",
            ui("Not checked on {arch}").replace("{arch}", here),
        ),
    };
    out.line(format!(
        "<div class=\"companion-asm-claims companion-asm-{class}\"><p class=\"companion-asm-claims-head\">{} <span class=\"companion-asm-arch\">({})</span> <span class=\"companion-badge\">{}</span></p>",
        escape(&ui("The listing shows:")),
        escape(arch),
        escape(&verdict)
    ));
    out.line("<ul>");
    for step in checks.describe() {
        let words = ui(step.phrase.words());
        let mut html = String::new();
        for (i, part) in words.split("{pattern}").enumerate() {
            if i > 0 {
                html.push_str(&format!("<code>{}</code>", escape(&step.pattern)));
            }
            html.push_str(&escape(part).replace("{n}", &step.count.to_string()));
        }
        let class = match step.phrase {
            Phrase::Label => " class=\"companion-asm-label\"",
            Phrase::NotBefore | Phrase::NotAfter | Phrase::Nowhere => {
                " class=\"companion-asm-not\""
            }
            _ => "",
        };
        out.line(format!("<li{class}>{html}</li>"));
    }
    out.line("</ul></div>");
}

/// The control-flow graphs of a listing (`engine::asm::graphs`), one
/// figure each; `id` makes the graphs' ids unique on the page.
pub(crate) fn graphs(
    out: &mut Out,
    drawings: &[flowgraph::Drawing],
    id: &str,
    ui: &dyn Fn(&str) -> String,
) {
    for (k, d) in drawings.iter().enumerate() {
        let title = ui("Control-flow graph of {function}").replace("{function}", &d.function);
        out.line(format!(
            "<figure class=\"companion-cfg\"><figcaption>{}</figcaption><div class=\"companion-cfg-scroll\" tabindex=\"0\">{}</div></figure>",
            escape(&title),
            flowgraph::with_id(&d.svg, &format!("{id}-{k}"))
        ));
    }
}

/// Our words these views look up, for the translators' list (which a
/// test keeps holding them).
#[cfg(test)]
pub(crate) const WORDS: [&str; 8] = [
    "Source and assembly",
    "Source",
    "The listing shows:",
    "Not checked on {arch}",
    "Control-flow graph of {function}",
    "Holds",
    "Does not hold",
    "Not checked",
];

#[cfg(test)]
mod tests {
    use super::*;
    use mdbook_companion_core::filecheck;
    use pretty_assertions::assert_eq;

    fn ui(s: &str) -> String {
        s.to_owned()
    }

    fn html(out: Out) -> String {
        out.lines().join("\n")
    }

    #[test]
    fn lines_and_instructions_share_colours() {
        let mut out = Out::default();
        let shown = "int divide(int a, int b) {\n    return a / b;\n}\n<b>";
        let listing = "divide:\n    mov eax, edi\n    cdq\n    idiv esi\n    ret\n";
        tied(&mut out, shown, listing, &[0, 2, 2, 2, 3], &ui);
        let text = html(out);
        let doc = scraper::Html::parse_fragment(&text);
        let sel = |s: &str| scraper::Selector::parse(s).unwrap();
        let partners: Vec<String> = doc
            .select(&sel(".companion-c1"))
            .map(|e| e.text().collect::<String>())
            .collect();
        assert_eq!(
            partners,
            // Each line ends in its own newline: the text reads as lines.
            [
                "2    return a / b;\n",
                "    mov eax, edi\n",
                "    cdq\n",
                "    idiv esi\n"
            ]
        );
        assert_eq!(
            doc.select(&sel(".companion-c2")).count(),
            2,
            "line 3 and ret"
        );
        // Line 1 has no instruction: not coloured, not focusable.
        let first = doc
            .select(&sel(".companion-asm-src .companion-ln"))
            .next()
            .unwrap();
        assert_eq!(first.value().attr("tabindex"), None);
        assert_eq!(doc.select(&sel("[tabindex='0'][data-line]")).count(), 6);
        assert!(text.contains("&lt;b&gt;"), "escaped: {text}");
        // No blank line ends the HTML block early.
        assert!(text.lines().all(|l| !l.trim().is_empty()), "{text}");
    }

    #[test]
    fn claims_are_told_in_words() {
        let checks = filecheck::parse(
            "CHECK-LABEL: divide:\nCHECK-NOT: call\nCHECK-COUNT-2: <x>\nCHECK-NOT: call",
        )
        .unwrap();
        let mut out = Out::default();
        claims(
            &mut out,
            &checks,
            "x86_64",
            Standing::OtherArch("aarch64"),
            &ui,
        );
        assert_eq!(
            html(out),
            "<div class=\"companion-asm-claims companion-asm-unchecked\"><p class=\"companion-asm-claims-head\">The listing shows: <span class=\"companion-asm-arch\">(x86_64)</span> <span class=\"companion-badge\">Not checked on aarch64</span></p>\n<ul>\n<li class=\"companion-asm-label\">In <code>divide:</code>:</li>\n<li class=\"companion-asm-not\">no <code>call</code> before the next match</li>\n<li>then <code>&lt;x&gt;</code>, 2 times</li>\n<li class=\"companion-asm-not\">no <code>call</code> after that</li>\n</ul></div>"
        );
    }

    #[test]
    fn each_function_gets_a_graph() {
        let mut out = Out::default();
        let drawings: Vec<flowgraph::Drawing> =
            flowgraph::graphs("f:\n    ret\n\ng:\n    jmp .L1\n.L1:\n    ret\n")
                .iter()
                .map(|g| flowgraph::Drawing {
                    function: g.function.clone(),
                    svg: flowgraph::svg(g, flowgraph::ID_SLOT, &g.function),
                })
                .collect();
        graphs(&mut out, &drawings, "cmp-1", &ui);
        let text = html(out);
        assert_eq!(text.matches("<figure class=\"companion-cfg\">").count(), 2);
        assert!(text.contains("<figcaption>Control-flow graph of g</figcaption>"));
        assert!(text.contains("id=\"cmp-1-1-always\""));
    }
}
