//! Reports CI systems read: GitHub Actions workflow annotations (a failing
//! block shows on the pull request's diff, at its line) and JUnit XML (one
//! test case per block, as cargo-nextest writes it, the format CI
//! dashboards read).

use super::report::Report;
use mdbook_companion_engine::check::{Verdict, diff};
use quick_junit::{NonSuccessKind, Report as Junit, TestCase, TestCaseStatus, TestSuite};
use std::fmt::Write as _;

/// Lines of detail an annotation or a failure carries at most.
const DETAIL_LINES: usize = 40;

/// What a failed verdict says, in full: its message, the diff of outputs
/// and the first lines of its detail.
fn failure_text(verdict: &Verdict) -> Option<(String, String)> {
    match verdict {
        Verdict::Failed {
            message,
            expected,
            actual,
            detail,
            ..
        } => {
            let mut body = String::new();
            if let (Some(e), Some(a)) = (expected, actual) {
                body.push_str(&diff(e, a));
            }
            if let Some(d) = detail {
                let lines: Vec<&str> = d.trim_end().lines().take(DETAIL_LINES).collect();
                body.push_str(&lines.join("\n"));
            }
            Some((message.clone(), body))
        }
        Verdict::Unchecked { tool, .. } => Some((
            format!("not checked: `{tool}` could not be run"),
            String::new(),
        )),
        Verdict::Passed | Verdict::Ignored | Verdict::OtherArch { .. } => None,
    }
}

/// A workflow command's data, escaped as the runner expects.
pub(crate) fn escape_data(text: &str) -> String {
    mdbook_companion_core::escape::terminal(text)
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A workflow command's property value, escaped.
pub(crate) fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// The report as GitHub Actions workflow commands: an `::error` at the
/// file and line of every failing block, a `::notice` per note, and the
/// summary line last.
pub fn github(report: &Report) -> String {
    let mut s = String::new();
    for c in &report.checked {
        let Some((message, body)) = failure_text(&c.outcome.verdict) else {
            continue;
        };
        let text = if body.is_empty() {
            message
        } else {
            format!("{message}\n{body}")
        };
        let _ = writeln!(
            s,
            "::error file={},line={},title={}::{}",
            escape_property(&c.claim.origin.file),
            c.claim.origin.line,
            escape_property(&format!(
                "{} (expect={})",
                c.claim.origin.what,
                c.claim.expectation.expect.name()
            )),
            escape_data(&text)
        );
    }
    for i in &report.invalid {
        let _ = writeln!(
            s,
            "::error file={},line={},col={},title=the build fails::{}",
            escape_property(&i.file),
            i.line,
            i.column,
            escape_data(&i.message)
        );
    }
    for e in &report.lock_errors {
        let _ = writeln!(s, "::error title=companion.lock::{}", escape_data(e));
    }
    for m in &report.missing {
        let _ = writeln!(
            s,
            "::error title=missing compiler::{} ({}): {}",
            escape_data(&m.cannot_run()),
            escape_data(&m.remedy()),
            escape_data(&m.at.join(", "))
        );
    }
    for e in &report.errors {
        let _ = writeln!(s, "::error title=book.toml::{}", escape_data(e));
    }
    for n in report.notes.iter().chain(&report.lock_notes) {
        let level = match report.deny_warnings && n.starts_with("warning: ") {
            true => "error",
            false => "notice",
        };
        let _ = writeln!(s, "::{level}::{}", escape_data(n));
    }
    s.push_str(&report.summary());
    s.push('\n');
    s
}

/// Text XML 1.0 can hold, escaped as every report format escapes it
/// (control characters but tab and line ends, U+FFFE, U+FFFF, which XML
/// forbids, among them).
fn xml_text(text: &str) -> String {
    mdbook_companion_core::escape::terminal(text).into_owned()
}

/// One test case of the JUnit report.
pub(crate) struct Case {
    /// The test suite (a chapter file).
    pub(crate) suite: String,
    /// The case's name.
    pub(crate) name: String,
    /// Its failure: message and body.
    pub(crate) failure: Option<(String, String)>,
    /// Skipped (ignored, another architecture).
    pub(crate) skipped: bool,
    /// Text for `<system-out>` (what changed, for a case that passes).
    pub(crate) out: Option<String>,
}

/// The report as JUnit XML: a test suite per chapter file, a test case per
/// block (failures with their message and detail, ignored blocks and
/// claims about another architecture skipped), and the book's unreadable directives and lock differences as
/// failing cases too.
pub fn junit(report: &Report) -> String {
    let mut cases: Vec<Case> = report
        .checked
        .iter()
        .map(|c| Case {
            suite: c.claim.origin.file.clone(),
            name: format!(
                "{}:{} {}",
                c.claim.origin.file, c.claim.origin.line, c.claim.origin.what
            ),
            failure: failure_text(&c.outcome.verdict),
            skipped: matches!(
                c.outcome.verdict,
                Verdict::Ignored | Verdict::OtherArch { .. }
            ),
            out: None,
        })
        .collect();
    for i in &report.invalid {
        cases.push(Case {
            suite: i.file.clone(),
            name: format!("{}:{}:{} the build fails", i.file, i.line, i.column),
            failure: Some((i.message.clone(), String::new())),
            skipped: false,
            out: None,
        });
    }
    for e in &report.lock_errors {
        cases.push(Case {
            suite: "companion.lock".to_owned(),
            name: "companion.lock".to_owned(),
            failure: Some((e.clone(), String::new())),
            skipped: false,
            out: None,
        });
    }
    let book = report.errors.iter().map(String::as_str);
    for e in book.chain(report.denied()) {
        cases.push(Case {
            suite: "book".to_owned(),
            name: e.to_owned(),
            failure: Some((e.to_owned(), String::new())),
            skipped: false,
            out: None,
        });
    }
    junit_of("mdbook-companion check", &cases)
}

/// A command that could not do its work (`--toolchain` names no compiler
/// that runs), as a JUnit report: one test case `name` in `<error>`, so a
/// CI that reads the report sees an error, never an empty green run.
pub fn junit_error(title: &str, name: &str, message: &str) -> String {
    let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
    status.set_message(xml_text(message));
    let mut case = TestCase::new(xml_text(name), status);
    case.set_classname(xml_text(title));
    let mut suite = TestSuite::new(xml_text(title));
    suite.add_test_case(case);
    written(Junit::new(xml_text(title)).add_test_suite(suite))
}

/// A command that could not do its work, as a GitHub workflow command.
pub fn github_error(title: &str, message: &str) -> String {
    format!(
        "::error title={}::{}\n",
        escape_property(title),
        escape_data(message)
    )
}

/// JUnit XML of `cases` under the name `title` (nextest's `quick-junit`
/// writes it): a test suite per chapter file, in the order the cases come.
pub(crate) fn junit_of(title: &str, cases: &[Case]) -> String {
    let mut suites: Vec<TestSuite> = Vec::new();
    for case in cases {
        let status = match &case.failure {
            Some((message, body)) => {
                let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                status.set_message(xml_text(message));
                if !body.is_empty() {
                    status.set_description(xml_text(body));
                }
                status
            }
            None if case.skipped => TestCaseStatus::skipped(),
            None => TestCaseStatus::success(),
        };
        let mut test = TestCase::new(xml_text(&case.name), status);
        test.set_classname(xml_text(&case.suite));
        if let Some(out) = &case.out {
            test.set_system_out(xml_text(out));
        }
        let suite = xml_text(&case.suite);
        match suites.iter_mut().find(|s| s.name.as_str() == suite) {
            Some(s) => {
                s.add_test_case(test);
            }
            None => {
                let mut s = TestSuite::new(suite);
                s.add_test_case(test);
                suites.push(s);
            }
        }
    }
    written(Junit::new(title).add_test_suites(suites))
}

/// The report's text, or an XML comment saying why there is none.
fn written(report: &Junit) -> String {
    match report.to_string() {
        Ok(mut xml) => {
            if !xml.ends_with('\n') {
                xml.push('\n');
            }
            xml
        }
        Err(e) => format!("<!-- cannot write the report: {e} -->\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workflow_commands_escape_their_data() {
        assert_eq!(escape_data("50%\nnext\r\n"), "50%25%0Anext%0D%0A");
        // Control characters are shown as the text report shows them.
        assert_eq!(escape_data("\u{1b}[2J\u{7}"), "\\u{1b}[2J\\u{7}");
        assert_eq!(escape_property("src/a.md: x, y"), "src/a.md%3A x%2C y");
    }

    #[test]
    fn xml_text_shows_what_xml_forbids_as_escapes() {
        assert_eq!(
            xml_text("a\u{1b}[31mb\tc\n\u{fffe}"),
            "a\\u{1b}[31mb\tc\n\\u{fffe}"
        );
    }
}
