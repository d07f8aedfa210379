use super::*;
use mdbook_companion_core::claim::Claim;

/// A Rust claim for unit tests.
pub(crate) fn claim(expect: Expect, source: &str) -> Claim {
    let mut claim = Claim::new("src/a.md", 0, "rust example", Lang::Rust, source, expect);
    claim.origin.line = 1;
    claim
}

#[test]
fn normalize_drops_trailing_whitespace_only() {
    for (input, want) in [
        ("a  \nb\t\n\n\n", "a\nb"),
        ("  lead\r\nx \r\n", "  lead\nx"),
        ("", ""),
        ("\n\n", ""),
    ] {
        assert_eq!(normalize(input), want, "{input:?}");
    }
}

#[test]
fn contains_ignores_trailing_whitespace() {
    assert!(contains_normalized(
        "thread 'main' panicked\nattempt to divide by zero  \n",
        "attempt to divide by zero\n"
    ));
    assert!(contains_normalized("anything", "\n"));
    assert!(!contains_normalized("abc", "abd"));
}
