use super::*;

/// Every prefix of a quiz file, and the file with a byte of TOML
/// syntax dropped in at every line start: no panic, every fault inside
/// the text (the fuzz target's property, on a fixed corpus).
#[test]
fn mangled_files_fail_inside_the_text_without_panicking() {
    let config = crate::testing::config();
    let file = include_str!("../../../../../tests/testsuite/quiz/talk.toml");
    let mut cases: Vec<String> = (0..=file.len())
        .filter(|i| file.is_char_boundary(*i))
        .map(|i| file[..i].to_owned())
        .collect();
    for (i, _) in file.match_indices('\n') {
        for junk in ["[", "\"", "=", "]]", "type = 3\n"] {
            cases.push(format!("{}{junk}{}", &file[..=i], &file[i + 1..]));
        }
    }
    for text in &cases {
        if let Err(Fault { offset, message }) = questions(text, "q.toml", 0, &config) {
            assert!(offset <= text.len(), "{message}\n{text}");
            assert!(message.starts_with("found "), "{message}");
        }
    }
}
