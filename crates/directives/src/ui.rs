//! Our own words on the page ("Example", "Runs", "Output", "Playground",
//! the claims page's headings), as opposed to the author's strings. In a
//! translated book they are looked up in the book's catalog like the
//! author's strings ([`super::Env::ui`]), and `mdbook-xgettext` gets them
//! on a page of their own ([`PAGE`]), so translators see them.

/// The page of the template that holds our words.
pub const PAGE: &str = "mdbook-companion";

/// Every word of ours that is translated, in the order the template lists
/// them.
pub const WORDS: &[&str] = &[
    "Example",
    "Runs",
    "Panics",
    "Does not compile",
    "Compiles",
    "Undefined behaviour",
    "Not checked",
    "Check failed",
    "Not checked: {tool} was not found",
    "Not checked since the code changed",
    "Output",
    "Panics with",
    "Compiler error",
    "Sanitizer reports",
    "Claimed: the report contains",
    "Sanitizer report recorded by the check",
    "Playground",
    "Compiler Explorer",
    "Compare in Compiler Explorer",
    "Assembly",
    "No machine code for the functions shown (they are generic, inlined or empty).",
    "Block",
    "Title",
    "Claims",
    "Verdict",
    "Toolchain",
    "Holds",
    "Does not hold",
    "Not checked (ignore)",
    "Not checked (no compiler)",
    "Shown only",
    "Not in companion.lock",
    "block",
    "blocks",
    "passed",
    "failed",
    "ignored",
    "not checked",
    "not in companion.lock",
    "shown only",
    // Reading-list cards.
    "Properties",
    "Audience:",
    "for",
    "Free",
    "Paid",
    "Recommended",
    "Incomplete",
    "Beginner",
    "Intermediate",
    "Advanced",
    "Book",
    "Web",
    "Video",
    "Paper",
    "Talk",
    "Tool",
    // Assembly panels: the tied view, claims in words, graphs.
    "Source and assembly",
    "Source",
    "The listing shows:",
    "Not checked on {arch}",
    "Control-flow graph of {function}",
    "Assembly as stated",
    "In {pattern}:",
    "{pattern} appears",
    "then {pattern}",
    "on the next line, {pattern}",
    "on the same line, {pattern}",
    "then {pattern}, {n} times",
    "no {pattern} before the next match",
    "no {pattern} after that",
    "no {pattern} anywhere",
    // Exercises.
    "Exercise",
    "Tests",
    "Hints",
    "Solution",
    "Compiles with the tests",
    "A test fails",
    "Every test passes",
    // Quizzes.
    "Quiz",
    "Question",
    "Check",
    "Try again",
    "Right.",
    "Not quite.",
    "Not answered.",
    "{n} of {total} right",
    "Answer key",
    "Choose all that apply.",
    "Your answer:",
    "Answer",
    "The right answer:",
    "The right answers:",
    "Accepted answers:",
    "It prints:",
    "It panics:",
    "Its behaviour is undefined:",
    "It does not compile: the first error is on line {line}.",
    "What it prints",
    "It panics",
    "It does not compile; the first error is on line",
    "Line of the first error",
    "Its behaviour is undefined",
    "Answer key: line {line} ({label})",
    "The first error labels (each line is a right answer):",
    "line {line}: {label}",
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `ui("…")` in the source names a word of [`WORDS`], so the
    /// template offers translators every word the pages can show.
    #[test]
    fn every_word_looked_up_is_listed() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = vec![root.clone()];
        let mut found = 0;
        while let Some(p) = files.pop() {
            if p.is_dir() {
                for e in std::fs::read_dir(&p).unwrap() {
                    files.push(e.unwrap().path());
                }
                continue;
            }
            if p.extension().is_none_or(|e| e != "rs") || p.ends_with("ui.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            for (i, _) in text.match_indices("ui(\"") {
                let rest = &text[i + 4..];
                let word = &rest[..rest.find('"').unwrap()];
                assert!(
                    WORDS.contains(&word),
                    "{}: `{word}` is not in WORDS",
                    p.display()
                );
                found += 1;
            }
        }
        assert!(found >= 10, "only {found} lookups found");
    }

    /// The words looked up through a value rather than a literal.
    #[test]
    fn badges_and_output_labels_are_listed() {
        use mdbook_companion_core::expect::Expect;
        for e in [
            Expect::Run,
            Expect::Panic,
            Expect::CompileFail,
            Expect::NoRun,
            Expect::Compile,
            Expect::Ub,
            Expect::Asm,
            Expect::StarterCompiles,
            Expect::StarterFails,
            Expect::SolutionPasses,
        ] {
            assert!(WORDS.contains(&e.badge()), "{}", e.badge());
            assert!(WORDS.contains(&e.output_label()), "{}", e.output_label());
        }
        for p in mdbook_companion_core::filecheck::Phrase::ALL {
            assert!(WORDS.contains(&p.words()), "{}", p.words());
        }
        for w in crate::asmview::WORDS {
            assert!(WORDS.contains(&w), "{w}");
        }
    }
}
