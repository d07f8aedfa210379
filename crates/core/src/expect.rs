//! What a block claims its program does: one model for runnable examples,
//! comparison sides and `check`, so that the attribute an author writes,
//! the badge a reader sees and the verdict `check` gives all read the same
//! value.

use serde::{Deserialize, Serialize};

/// An expected outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Expect {
    /// Compiles and runs successfully; stdout is the output block.
    Run,
    /// Rust: runs and panics; the panic message contains the output block.
    Panic,
    /// Rust: does not compile (with the error code, if given).
    CompileFail,
    /// Rust: compiles; not run.
    NoRun,
    /// C/C++: compiles with `-Wall`; not run.
    Compile,
    /// C/C++: under UBSan, the sanitizer reports.
    Ub,
    /// The assembly listing holds what an ```` ```asm ```` block says.
    Asm,
    /// Exercise: the starter compiles with the tests (`rustc --test`).
    StarterCompiles,
    /// Exercise: at least one test fails on the starter (the tests test
    /// something).
    StarterFails,
    /// Exercise: every test passes on the solution.
    SolutionPasses,
}

impl Expect {
    /// The values `expect=` takes on a Rust block.
    pub const RUST_CHOICES: [(&'static str, Expect); 4] = [
        ("run", Expect::Run),
        ("panic", Expect::Panic),
        ("compile-fail", Expect::CompileFail),
        ("no-run", Expect::NoRun),
    ];

    /// The values `expect=` takes on a C or C++ side.
    pub const C_CHOICES: [(&'static str, Expect); 3] = [
        ("compile", Expect::Compile),
        ("run", Expect::Run),
        ("ub", Expect::Ub),
    ];

    /// The values `expect=` takes on a side in a language of programs
    /// (Python, Go, a book's own).
    pub const PROGRAM_CHOICES: [(&'static str, Expect); 4] = [
        ("run", Expect::Run),
        ("panic", Expect::Panic),
        ("compile", Expect::Compile),
        ("compile-fail", Expect::CompileFail),
    ];

    /// The attribute value as the book writes it (also the CSS name).
    pub fn name(self) -> &'static str {
        match self {
            Expect::Run => "run",
            Expect::Panic => "panic",
            Expect::CompileFail => "compile-fail",
            Expect::NoRun => "no-run",
            Expect::Compile => "compile",
            Expect::Ub => "ub",
            Expect::Asm => "asm",
            Expect::StarterCompiles => "starter-compiles",
            Expect::StarterFails => "starter-fails",
            Expect::SolutionPasses => "solution-passes",
        }
    }

    /// Whether the program is run after compiling (an exercise's test
    /// harness always is: the starter's two claims share one build and
    /// one run).
    pub fn runs(self) -> bool {
        !matches!(self, Expect::CompileFail | Expect::NoRun | Expect::Compile)
    }

    /// Whether the claim is about an exercise's tests: the program is a
    /// test crate (`rustc --test`) and its run is the test harness's.
    pub fn tests(self) -> bool {
        matches!(
            self,
            Expect::StarterCompiles | Expect::StarterFails | Expect::SolutionPasses
        )
    }

    /// The words of the outcome badge.
    pub fn badge(self) -> &'static str {
        match self {
            Expect::Run => "Runs",
            Expect::Panic => "Panics",
            Expect::CompileFail => "Does not compile",
            Expect::NoRun | Expect::Compile => "Compiles",
            Expect::Ub => "Undefined behaviour",
            Expect::Asm => "Assembly as stated",
            Expect::StarterCompiles => "Compiles with the tests",
            Expect::StarterFails => "A test fails",
            Expect::SolutionPasses => "Every test passes",
        }
    }

    /// The label above the output block.
    pub fn output_label(self) -> &'static str {
        match self {
            Expect::Run
            | Expect::NoRun
            | Expect::Compile
            | Expect::StarterCompiles
            | Expect::StarterFails
            | Expect::SolutionPasses => "Output",
            Expect::Panic => "Panics with",
            Expect::CompileFail => "Compiler error",
            Expect::Ub => "Sanitizer reports",
            Expect::Asm => "Assembly",
        }
    }

    /// rustdoc's attribute for the outcome (`mdbook test`), if any.
    pub fn rustdoc(self) -> Option<&'static str> {
        match self {
            Expect::Panic => Some("should_panic"),
            Expect::CompileFail => Some("compile_fail"),
            Expect::NoRun => Some("no_run"),
            Expect::Run
            | Expect::Compile
            | Expect::Ub
            | Expect::Asm
            | Expect::StarterCompiles
            | Expect::StarterFails
            | Expect::SolutionPasses => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_choice_reads_back_by_its_name() {
        for (word, e) in Expect::RUST_CHOICES.iter().chain(&Expect::C_CHOICES) {
            assert_eq!(e.name(), *word);
        }
        // The C and Rust spellings of `run` are one outcome.
        assert_eq!(Expect::RUST_CHOICES[0].1, Expect::C_CHOICES[1].1);
    }

    #[test]
    fn badges_and_labels() {
        let table = [
            (Expect::Run, "Runs", "Output", None),
            (Expect::Panic, "Panics", "Panics with", Some("should_panic")),
            (
                Expect::CompileFail,
                "Does not compile",
                "Compiler error",
                Some("compile_fail"),
            ),
            (Expect::NoRun, "Compiles", "Output", Some("no_run")),
            (Expect::Compile, "Compiles", "Output", None),
            (Expect::Ub, "Undefined behaviour", "Sanitizer reports", None),
            (Expect::Asm, "Assembly as stated", "Assembly", None),
            (
                Expect::StarterCompiles,
                "Compiles with the tests",
                "Output",
                None,
            ),
            (Expect::StarterFails, "A test fails", "Output", None),
            (Expect::SolutionPasses, "Every test passes", "Output", None),
        ];
        for (e, badge, label, rustdoc) in table {
            assert_eq!(
                (e.badge(), e.output_label(), e.rustdoc()),
                (badge, label, rustdoc),
                "{e:?}"
            );
        }
    }
}
