use super::*;

/// Every prefix of a chapter with a quiz, and the chapter with Markdown
/// dropped in at every line start: no panic, every problem inside the
/// text (the fuzz target's property, on a fixed corpus).
#[test]
fn mangled_quizzes_fail_inside_the_text_without_panicking() {
    let config = crate::testing::config();
    let chapter = include_str!("../../../../../tests/testsuite/quiz/claims.md");
    let mut cases: Vec<String> = (0..=chapter.len())
        .filter(|i| chapter.is_char_boundary(*i))
        .map(|i| format!("{}\n`````\n", &chapter[..i]))
        .collect();
    for (i, _) in chapter.match_indices('\n') {
        for junk in ["> ", "- [x] ", "## ", "```\n", "answer:", "  - [ ] "] {
            cases.push(format!("{}{junk}{}", &chapter[..=i], &chapter[i + 1..]));
        }
    }
    for text in &cases {
        for r in Quiz::parse_chapter(text, &config) {
            if let Err(p) = r {
                assert!(p.offset <= text.len(), "{}\n{text}", p.message);
                assert!(p.message.starts_with("found "), "{}", p.message);
            }
        }
    }
}
