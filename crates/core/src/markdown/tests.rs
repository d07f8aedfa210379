use super::*;

#[test]
fn escaped_links_are_told_apart_by_the_file() {
    let raw = "{{#quiz a.toml}}\n\\{{#quiz a.toml}}\n`\\{{#quiz b.toml}}` {{#quiz c.toml}}\n{{#include x.md}}\n";
    // What mdBook's `links` makes of it: backslashes dropped, the
    // include expanded (into a link of its own).
    let expanded = "{{#quiz a.toml}}\n{{#quiz a.toml}}\n`{{#quiz b.toml}}` {{#quiz c.toml}}\n{{#quiz a.toml}}\n";
    let at = |n: usize| expanded.match_indices("{{#quiz").nth(n).unwrap().0;
    // The escape runs to the line's last `}}`, as mdBook's does.
    assert_eq!(escaped_links(raw, expanded, "quiz"), [at(1), at(2), at(3)]);
    assert!(escaped_links(expanded, expanded, "quiz").is_empty());
    let blocks = link_blocks(expanded, "quiz", &["quiz"], 0, &[at(1)]);
    let infos: Vec<&str> = blocks.iter().map(|b| b.fence.info.as_str()).collect();
    assert_eq!(
        infos,
        [
            "quiz src=\"a.toml\"",
            "quiz src=\"b.toml\" link=code",
            "quiz src=\"c.toml\" link=code",
            "quiz src=\"a.toml\"",
        ]
    );
}
use pretty_assertions::assert_eq;

/// The directives' patterns, as the registry has them.
const PATTERNS: [Pattern; 3] = [
    Pattern {
        words: &["rust", "example"],
        takes_output: true,
    },
    Pattern {
        words: &["compare"],
        takes_output: false,
    },
    Pattern {
        words: &["reading-list"],
        takes_output: false,
    },
];
const EXAMPLE: usize = 0;
const COMPARE: usize = 1;
const READING_LIST: usize = 2;

fn scan(text: &str) -> Vec<Block> {
    super::scan(text, &PATTERNS)
}

fn may_contain_directive(text: &str) -> bool {
    super::may_contain_directive(text, &PATTERNS)
}

fn kinds(text: &str) -> Vec<(usize, &str)> {
    scan(text)
        .into_iter()
        .map(|b| (b.kind, &text[b.range]))
        .collect()
}

#[test]
fn finds_each_kind_of_directive() {
    let text = "# T\n\n```rust example\nfn main() {}\n```\n\n````compare\n```c\nint x;\n```\n````\n\n```reading-list\n```\n";
    let got: Vec<usize> = kinds(text).into_iter().map(|(k, _)| k).collect();
    assert_eq!(got, [EXAMPLE, COMPARE, READING_LIST]);
}

#[test]
fn ordinary_code_blocks_are_not_directives() {
    for text in [
        "```rust\nfn main() {}\n```\n",
        "```rust,editable\nfn example() {}\n```\n",
        "```text\nrust example compare reading-list\n```\n",
        "```examples\n```\n",
    ] {
        assert_eq!(kinds(text), [], "{text}");
    }
}

#[test]
fn directive_in_longer_fence_is_text() {
    let text = "````markdown\n```rust example\nfn main() {}\n```\n````\n";
    assert_eq!(kinds(text), []);
}

#[test]
fn directive_in_code_span_or_html_block_is_text() {
    let text = "Write `` ```rust example `` to start.\n\n<div>\n```rust example\nfn main() {}\n```\n</div>\n";
    assert_eq!(kinds(text), []);
}

#[test]
fn directive_in_indented_code_block_is_text() {
    let text = "Para.\n\n    ```rust example\n    fn main() {}\n    ```\n";
    assert_eq!(kinds(text), []);
}

#[test]
fn output_block_right_after_an_example_joins_it() {
    let text =
        "```rust example\nfn main() { println!(\"hi\"); }\n```\n\n```output\nhi\n```\nafter\n";
    let blocks = scan(text);
    assert_eq!(blocks.len(), 1);
    let out = blocks[0].output.as_ref().unwrap();
    assert_eq!(out.body, "hi\n");
    assert_eq!(&text[blocks[0].range.end..], "\nafter\n");
}

#[test]
fn asm_block_joins_an_example_before_or_after_its_output() {
    for text in [
        "```rust example\nfn main() {}\n```\n\n```output\nhi\n```\n\n```asm\nCHECK: ret\n```\nafter\n",
        "```rust example\nfn main() {}\n```\n```asm\nCHECK: ret\n```\n```output\nhi\n```\nafter\n",
    ] {
        let blocks = scan(text);
        let b = &blocks[0];
        assert_eq!(b.asm.as_ref().unwrap().body, "CHECK: ret\n", "{text}");
        assert_eq!(b.output.as_ref().unwrap().body, "hi\n");
        assert_eq!(text[b.range.end..].trim_start(), "after\n");
    }
    // A second asm block, or one after text, is the chapter's.
    let text = "```rust example\nfn main() {}\n```\n```asm\nCHECK: a\n```\n```asm\nCHECK: b\n```\n";
    let b = &scan(text)[0];
    assert_eq!(b.asm.as_ref().unwrap().body, "CHECK: a\n");
    assert!(
        text[b.range.end..]
            .trim_start()
            .starts_with("```asm\nCHECK: b")
    );
    let text = "```rust example\nfn main() {}\n```\n\nText.\n\n```asm\nCHECK: a\n```\n";
    assert!(scan(text)[0].asm.is_none());
}

#[test]
fn output_block_after_other_text_stays_ordinary_code() {
    let text = "```rust example\nfn main() {}\n```\n\nText between.\n\n```output\nhi\n```\n";
    assert!(scan(text)[0].output.is_none());
    let text = "```output\nhi\n```\n";
    assert_eq!(kinds(text), []);
}

#[test]
fn list_item_fence_keeps_body_and_prefix() {
    let text = "1. Step:\n\n   ```rust example title=\"x\"\n   fn main() {}\n   ```\n2. Next\n";
    let b = &scan(text)[0];
    assert_eq!(b.fence.body, "fn main() {}\n");
    assert!(text[b.fence.info_offset..].starts_with("rust example title"));
    assert_eq!(b.fence.info, "rust example title=\"x\"");
    let mut out = Out::new();
    out.line("<div>")
        .blank()
        .fence("rust", "a\n\nb\n")
        .blank()
        .line("</div>");
    let replaced = materialize(text, &b.range, &out);
    assert_eq!(
        replaced,
        "<div>\n\n   ```rust\n   a\n\n   b\n   ```\n\n   </div>\n"
    );
}

#[test]
fn block_quote_fence_gets_quote_prefix() {
    let text = "> Quote\n>\n> ```rust example\n> fn main() {}\n> ```\n";
    let b = &scan(text)[0];
    assert_eq!(b.fence.body, "fn main() {}\n");
    let mut out = Out::new();
    out.line("<div>").blank().line("</div>");
    assert_eq!(materialize(text, &b.range, &out), "<div>\n>\n> </div>");
}

#[test]
fn nested_quote_in_list_maps_markers_to_spaces() {
    let text = "- > ```rust example\n  > fn main() {}\n  > ```\n";
    let b = &scan(text)[0];
    assert_eq!(b.fence.body, "fn main() {}\n");
    let mut out = Out::new();
    out.line("a").line("b");
    assert_eq!(materialize(text, &b.range, &out), "a\n  > b");
}

#[test]
fn crlf_chapters_keep_crlf() {
    let text = "Intro\r\n\r\n```rust example\r\nfn main() {}\r\n```\r\nAfter\r\n";
    let b = &scan(text)[0];
    assert_eq!(b.fence.body, "fn main() {}\n");
    let mut out = Out::new();
    out.line("x").line("y");
    let r = materialize(text, &b.range, &out);
    assert_eq!(r, "x\r\ny\r\n");
    let spliced = splice(text, &[(b.range.clone(), r)]);
    assert_eq!(spliced, "Intro\r\n\r\nx\r\ny\r\n\r\nAfter\r\n");
}

#[test]
fn non_ascii_text_around_directives_is_kept() {
    let text = "Ünïcödé — 日本語 🦀\n\n```rust example title=\"Grüße\"\nfn main() { println!(\"é\"); }\n```\nNach 🦀\n";
    let b = &scan(text)[0];
    assert_eq!(b.fence.info, "rust example title=\"Grüße\"");
    let spliced = splice(text, &[(b.range.clone(), "X".into())]);
    assert_eq!(spliced, "Ünïcödé — 日本語 🦀\n\nX\nNach 🦀\n");
}

#[test]
fn tilde_fences_are_directives_too() {
    let text = "~~~rust example\nfn main() {}\n~~~\n";
    assert_eq!(kinds(text).len(), 1);
}

#[test]
fn fence_at_end_of_file_without_newline() {
    let text = "```rust example\nfn main() {}\n```";
    let b = &scan(text)[0];
    assert_eq!(b.range, 0..text.len());
    let mut out = Out::new();
    out.line("x");
    assert_eq!(materialize(text, &b.range, &out), "x");
}

#[test]
fn splice_copies_text_between_ranges() {
    let text = "aaBBccDDee";
    let got = splice(text, &[(2..4, "11".into()), (6..8, "2".into())]);
    assert_eq!(got, "aa11cc2ee");
}

#[test]
fn out_fence_is_longer_than_backticks_in_code() {
    let mut out = Out::new();
    out.fence("rust", "let s = \"````\";\n");
    assert_eq!(out.lines(), ["`````rust", "let s = \"````\";", "`````"]);
}

#[test]
fn line_col_counts_characters() {
    let text = "ab\nüx\n";
    assert_eq!(line_col(text, 0), (1, 1));
    assert_eq!(line_col(text, 3), (2, 1));
    assert_eq!(line_col(text, 5), (2, 2));
}

#[test]
fn prefilter_skips_chapters_without_fences_or_names() {
    assert!(!may_contain_directive("plain example text"));
    assert!(!may_contain_directive(
        "```rust\nfn main(){}\n```\nFor example, compare."
    ));
    assert!(!may_contain_directive("```rustexample\n```"));
    for yes in [
        "```rust example\n```",
        "~~~ rust,example\n",
        "````compare\n",
        "```reading-list\n",
    ] {
        assert!(may_contain_directive(yes), "{yes}");
    }
}
