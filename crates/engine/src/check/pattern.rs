//! Expected output with patterns, as snapshot tools write it: a line `...`
//! matches any number of lines, `[..]` any text within a line (the rules
//! of snapbox and trycmd, whose matcher this is).
//!
//! Text without either token is compared as it always was (equal, or
//! contained), so books of the first round read the same.

use snapbox::Data;
use snapbox::filter::NormalizeToExpected;

pub use mdbook_companion_core::claim::has_pattern;

/// `actual` written in `pattern`'s terms: where a token of the pattern
/// matches, the token is kept; the rest is the actual text. Equal to the
/// pattern exactly when it matches, and what `--bless` writes otherwise
/// (the author's patterns that still match survive).
pub fn fit(pattern: &str, actual: &str) -> String {
    if !has_pattern(pattern) {
        return actual.to_owned();
    }
    let fitted = NormalizeToExpected::new()
        .redact()
        .normalize(Data::text(actual), &Data::text(pattern));
    fitted.render().unwrap_or_else(|| actual.to_owned())
}

/// Whether `actual` matches `pattern` as a whole (both normalized).
pub fn matches(pattern: &str, actual: &str) -> bool {
    fit(pattern, actual) == pattern
}

/// Whether `pattern` (normalized, non-empty) matches a stretch of
/// `haystack`: its first line may start and its last line may end
/// anywhere in a line, as a plain substring search allows.
pub(crate) fn found_in(haystack: &str, pattern: &str) -> bool {
    if !has_pattern(pattern) {
        return haystack.contains(pattern);
    }
    let open = if pattern.starts_with("[..]") {
        ""
    } else {
        "[..]"
    };
    let close = if pattern.ends_with("[..]") {
        ""
    } else {
        "[..]"
    };
    let wrapped = format!("...\n{open}{pattern}{close}\n...");
    let haystack = format!("{haystack}\n");
    matches(&wrapped, &fit(&wrapped, &haystack))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_compared_as_before() {
        assert!(!has_pattern("a\nb. . .\n[.]"));
        assert!(matches("a\nb", "a\nb"));
        assert!(!matches("a\nb", "a\nc"));
        assert_eq!(fit("a", "b"), "b");
        assert!(found_in("x abc y", "abc"));
        assert!(!found_in("x abd y", "abc"));
    }

    #[test]
    fn dots_match_any_number_of_lines() {
        let pattern = "start\n...\nend";
        for actual in ["start\nend", "start\none\nend", "start\none\ntwo\nend"] {
            assert!(matches(pattern, actual), "{actual:?}");
        }
        assert!(!matches(pattern, "start\none"));
        assert!(!matches(pattern, "begin\none\nend"));
        assert!(matches("...\nlast", "a\nb\nlast"));
        assert!(matches("first\n...", "first\nb\nc"));
    }

    #[test]
    fn brackets_match_any_text_within_a_line() {
        assert!(matches("address 0x[..] freed", "address 0x7ffd5a freed"));
        assert!(matches("[..] ms", "12 ms"));
        assert!(!matches("address [..] freed", "address 0x1\nfreed"));
        assert!(!matches("took [..] ms", "took 12 s"));
    }

    #[test]
    fn fitting_keeps_the_patterns_that_still_match() {
        // A `...` survives while the line after it still matches.
        let pattern = "id [..]\n...\nend\ntotal: 3";
        let actual = "id 42\nx\ny\nend\ntotal: 4";
        assert_eq!(fit(pattern, actual), "id [..]\n...\nend\ntotal: 4");
        assert!(!matches(pattern, actual));
        assert!(matches(pattern, "id 7\nend\ntotal: 3"));
    }

    #[test]
    fn a_pattern_is_found_inside_a_longer_text() {
        let stderr = "thread 'main' panicked at src/main.rs:3:5:\nindex out of bounds: the len is 3 but the index is 7\nnote: run with";
        assert!(found_in(stderr, "the len is [..] but the index is 7"));
        assert!(found_in(stderr, "index out of bounds: [..]"));
        assert!(!found_in(stderr, "the len is [..] but the index is 8"));
        assert!(found_in("a\nb\nc\nd", "b\n...\nd"));
        assert!(!found_in("a\nb\nc\nd", "c\n...\nb"));
    }
}
