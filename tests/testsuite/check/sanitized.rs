//! The book of every checker (`sanitize=`): AddressSanitizer,
//! ThreadSanitizer, UBSan and Memcheck claims that hold and that do not,
//! and how a report names its sides. Shared by the testsuite (a missing
//! Valgrind) and the Valgrind target (`tests/valgrind/`), which includes
//! this file.

use super::run::line_of;

/// The book of every checker: the chapter `src/s.md` of the fixture
/// `check/sanitized`.
pub const SANITIZED: &str = include_str!("sanitized/src/s.md");

/// `src/s.md:LINE`, where the side captioned `caption` opens.
pub fn at(caption: &str) -> String {
    format!(
        "src/s.md:{}",
        line_of(SANITIZED, &format!("caption=\"{caption}\""))
    )
}

/// How a report names the side captioned `caption`.
pub fn side(caption: &str) -> String {
    format!("{}: compare side \"{caption}\"", at(caption))
}
