//! The merged crate of a group ([`super::merge`]): its members, each a
//! module in a file of its own with a wrapper that calls its `main`, the
//! root with the selector that picks the member a run is for, and what a
//! member's run reports told as its program alone would tell it.

use super::merge_fail::member_file;
use super::verdict::Job;
use mdbook_companion_core::claim::Stated;
use mdbook_companion_core::doctest::shebang_blanked;
use mdbook_companion_core::tokens::crate_paths_from_module;

/// The environment variable that selects the example a merged binary runs.
pub(super) const SELECT: &str = "__COMPANION_EXAMPLE";

/// One example of a group: its cache key, its claim and its job alone.
pub(super) struct Member<'a> {
    pub(super) key: String,
    pub(super) claim: &'a Stated<'a>,
    pub(super) job: Job,
    /// The declared crates it uses.
    pub(super) used: Vec<String>,
}

/// A merged crate: its root, and per member its file (in
/// [`member_file`]), how many lines of it are the member's own, and
/// whether its `crate::` paths were rewritten (so that a diagnostic may
/// show a line otherwise than the author wrote it).
pub(super) struct Merged {
    pub(super) root: String,
    pub(super) files: Vec<String>,
    pub(super) lines: Vec<usize>,
    pub(super) rewritten: Vec<bool>,
}

/// The job a merged build of a group makes from its first member's
/// (`job`): a block that names its crate compiles alone without
/// `--crate-name` ([`super::rustc::job`]), but its merged build, and the
/// empty program the binary is read against, name the crate `main` as
/// every other group's do (in a member's module the attribute names
/// nothing).
pub(super) fn merged_job(job: &Job) -> Job {
    let mut job = job.clone();
    if !job.args.iter().any(|a| a == "--crate-name")
        && let Some(at) = job.args.iter().position(|a| a == "-C")
    {
        job.args
            .splice(at..at, ["--crate-name".to_owned(), "main".to_owned()]);
    }
    job
}

/// A member's program as its file in a merged crate holds it: its
/// shebang line blanked ([`shebang_blanked`]), which rustc reads only at
/// the start of a crate's root and ignores there.
pub(super) fn member_source(source: &str) -> std::borrow::Cow<'_, str> {
    match shebang_blanked(source) {
        Some(blanked) => std::borrow::Cow::Owned(blanked),
        None => std::borrow::Cow::Borrowed(source),
    }
}

/// The merged crate of `members`: a binary with a selector, or, for
/// exercises, a test crate (the harness is the selector). Each member is
/// a module in a file of its own, so that rustc's locations name it and
/// its lines and columns are its own.
pub(super) fn merged_source(members: &[Member<'_>]) -> Merged {
    let tests = members.first().is_some_and(|m| harnessed(m.claim));
    let mut root = String::new();
    let mut files = Vec::new();
    let mut lines = Vec::new();
    let mut rewritten = Vec::new();
    for (i, m) in members.iter().enumerate() {
        root.push_str(&format!(
            "#[path = \"{}\"]\nmod __companion_ex_{i};\n",
            member_file(i)
        ));
        // Paths from the crate's root, from the member's module instead,
        // at the same lines and columns ([`super::mergeable::mergeable_code`] took only
        // code where they can be).
        let own = member_source(&m.claim.program.source);
        let source = match own.contains("crate::") {
            true => crate_paths_from_module(&own),
            false => None,
        };
        rewritten.push(source.as_ref().is_some_and(|s| **s != *own));
        let body = source.as_deref().unwrap_or(&own).trim_end_matches('\n');
        let mut file = format!("{body}\n");
        if !tests {
            file.push_str(
                "pub fn __companion_run() -> impl ::std::process::Termination { main() }\n",
            );
        }
        files.push(file);
        lines.push(body.lines().count().max(1));
    }
    if !tests {
        root.push_str(&format!(
            "fn main() -> ::std::process::ExitCode {{\n    let which = ::std::env::var(\"{SELECT}\").unwrap_or_default();\n    #[allow(unused_unsafe)]\n    unsafe {{ ::std::env::remove_var(\"{SELECT}\"); }}\n    match which.as_str() {{\n"
        ));
        for i in 0..members.len() {
            root.push_str(&format!(
                "        \"{i}\" => ::std::process::Termination::report(__companion_ex_{i}::__companion_run()),\n"
            ));
        }
        root.push_str("        _ => ::std::process::ExitCode::from(254),\n    }\n}\n");
        if members
            .first()
            .is_some_and(|m| m.claim.program.doctest.is_some())
        {
            root.push_str(super::merge_alone::PROBE);
        }
    }
    Merged {
        root,
        files,
        lines,
        rewritten,
    }
}

/// `text` with member `i`'s file told as the file of the example alone.
pub(super) fn remap(text: &str, i: usize) -> String {
    text.replace(&format!("{}:", member_file(i)), "main.rs:")
}

/// Whether a claim's program is a test harness (an exercise's test
/// crate, a plain block's `test_harness`, both compiled with `--test`):
/// merged, its module is the harness's filter, and it has no `main` for
/// the selector to call.
pub(super) fn harnessed(claim: &Stated<'_>) -> bool {
    claim.expectation.expect.tests()
        || claim
            .program
            .doctest
            .as_ref()
            .is_some_and(|d| d.test_harness)
}

/// A merged test crate's report as the exercise's test crate alone
/// gives it: test names without the module, and nothing filtered out.
pub(super) fn alone(report: &str, module: &str) -> String {
    let mut out = String::with_capacity(report.len());
    for line in report.split_inclusive('\n') {
        let line = line.replace(module, "");
        match (line.find("; "), line.find(" filtered out;")) {
            (Some(_), Some(end)) if line.starts_with("test result: ") => {
                let start = line[..end].rfind("; ").map_or(end, |s| s + 2);
                out.push_str(&line[..start]);
                out.push('0');
                out.push_str(&line[end..]);
            }
            _ => out.push_str(&line),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::rustc;
    use crate::check::tests::claim;
    use mdbook_companion_core::expect::Expect;

    #[test]
    fn a_block_that_names_its_crate_builds_merged_as_any_other() {
        let named = claim(Expect::Run, "#![crate_name = \"projx\"]\nfn main() {}");
        let plain = claim(Expect::Run, "fn main() {}");
        let named = rustc::job(&named.stated(), "rustc");
        let plain = rustc::job(&plain.stated(), "rustc");
        assert!(!named.args.iter().any(|a| a == "--crate-name"), "{named:?}");
        assert_eq!(merged_job(&named).args, plain.args);
        assert_eq!(merged_job(&plain).args, plain.args);
    }

    #[test]
    fn locations_map_back_to_the_example_alone() {
        assert_eq!(
            remap(
                "panicked at __companion_ex_3.rs:2:5:\nboom at __companion_ex_13.rs:3:1 main.rs:",
                3
            ),
            "panicked at main.rs:2:5:\nboom at __companion_ex_13.rs:3:1 main.rs:"
        );
    }

    #[test]
    fn a_merged_test_report_reads_as_the_crate_alone() {
        let merged = "running 1 test\ntest __companion_ex_3::tests::adds ... FAILED\n\n---- __companion_ex_3::tests::adds stdout ----\n\ntest result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 7 filtered out; finished in 0.00s\n";
        assert_eq!(
            alone(merged, "__companion_ex_3::"),
            "running 1 test\ntest tests::adds ... FAILED\n\n---- tests::adds stdout ----\n\ntest result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n"
        );
    }

    #[test]
    fn every_member_gets_a_module_and_a_selector_arm() {
        let a = claim(Expect::Run, "fn main() {\n    println!(\"a\");\n}\n");
        let b = claim(Expect::Run, "fn main() {}");
        let stated = [a.stated(), b.stated()];
        let members: Vec<Member<'_>> = stated
            .iter()
            .map(|c| Member {
                key: String::new(),
                claim: c,
                job: rustc::job(c, "rustc"),
                used: Vec::new(),
            })
            .collect();
        let m = merged_source(&members);
        assert_eq!(m.lines, [3, 1]);
        assert!(
            m.root
                .starts_with("#[path = \"__companion_ex_0.rs\"]\nmod __companion_ex_0;\n")
        );
        // The example's lines are its own, the wrapper after them.
        let lines: Vec<&str> = m.files[0].lines().collect();
        assert_eq!(lines[1], "    println!(\"a\");");
        assert!(lines[3].contains("__companion_run"));
        assert_eq!(m.files[1].lines().next(), Some("fn main() {}"));
        assert!(m.root.contains(
            "\"1\" => ::std::process::Termination::report(__companion_ex_1::__companion_run())"
        ));
    }
}
