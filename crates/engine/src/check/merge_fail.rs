//! Failing blocks found in batches: a merged build's diagnostics told
//! block by block, as each block's compile alone tells them.
//!
//! rustc recovers from errors and reports them across every module of a
//! crate in one run. [`super::merge`] puts each block in a file of its own
//! (`__companion_ex_N.rs`, a `#[path]` module), so every diagnostic's
//! primary location names its block; [`attribute`] cuts a failed merged
//! build's stderr into its diagnostics and gives each block its own, with
//! rustc's closing summary (the count of errors and warnings, the error
//! codes to explain) as its compile alone would end. Where the merged text
//! could differ from the block's alone, the block is marked so and
//! compiled alone once: another block with errors in the same build
//! (its error may stop the crate, by a fatal error or a phase rustc skips
//! after any error, before this block's later errors: common in books
//! whose blocks fail on purpose; marked `crowded`, and decided by
//! [`super::merge_alone`]), a diagnostic
//! naming the merged crate's modules or
//! another block's file (a path printed in full because two blocks define
//! the same name, an import suggested from another block), a location
//! past the block's own lines (the wrapper that calls its `main`),
//! candidates left unnamed, a location in the merged crate's root (a
//! suggestion to add a crate attribute), a lint's "on by default" note that went to
//! another block (rustc gives it once per lint and run), or a summary
//! rustc ended otherwise. An error outside every block (in the crate's
//! root, or with no location) cannot be attributed: that group is split.
//!
//! A block with no error of its own in a failed build is not decided:
//! rustc stops some analyses for the whole crate after an error (lints,
//! code generation), so it is built again with the undecided ones.
//!
//! `compile_fail` plain blocks are merged the same way
//! ([`super::mergeable::candidate`]); rustdoc compiles each alone. A block is taken as
//! failing there only with every error code it names among its own.

use mdbook_companion_core::claim::Stated;

/// The codes a claim's failure must carry.
pub(super) fn codes(claim: &Stated<'_>) -> Vec<String> {
    match &claim.program.doctest {
        Some(d) => d.error_codes.clone(),
        None => claim.expectation.error.iter().cloned().collect(),
    }
}

/// The file a merged build gives member `i` (relative to the crate root;
/// beside it, not in a folder of its own: a folder per member was a
/// directory made per block and build, which a file system slow to make
/// them makes a cost of a cold check; the guide's Performance page has
/// the figure).
pub(super) fn member_file(i: usize) -> String {
    format!("__companion_ex_{i}.rs")
}

/// What a failed merged build says of one member.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Own {
    /// Its errors.
    pub errors: usize,
    /// Its diagnostics as its compile alone prints them (its messages,
    /// then rustc's summary).
    pub diagnostics: String,
    /// Whether its compile alone could print them otherwise.
    pub differs: bool,
    /// Whether they point outside the block's own code (at the merged
    /// crate's root, at the code the merged build adds after the block,
    /// at another block's module): what the merged build made of the
    /// block, not only how it words it, may be another's.
    pub foreign: bool,
    /// Whether another block failed in the same build, so that this
    /// block's later errors may be missing (its first errors, and the
    /// codes among them, are its own all the same).
    pub crowded: bool,
}

/// One diagnostic of rustc's human output: its text and the file and line
/// of its primary location.
struct Message<'a> {
    text: &'a str,
    error: bool,
    at: Option<(&'a str, usize)>,
}

/// rustc's stderr cut into its diagnostics and its closing summary (from
/// `error: aborting due to`, or a last `warning: N warnings emitted`).
fn messages(stderr: &str) -> (Vec<Message<'_>>, &str) {
    let mut starts = Vec::new();
    let mut summary = stderr.len();
    let mut offset = 0;
    for line in stderr.split_inclusive('\n') {
        if line.starts_with("error: aborting due to")
            || (line.starts_with("warning: ") && line.trim_end().ends_with(" emitted"))
        {
            summary = offset;
            break;
        }
        if line.starts_with("error") || line.starts_with("warning") {
            starts.push(offset);
        }
        offset += line.len();
    }
    let mut out = Vec::new();
    if starts.first().is_some_and(|&s| s > 0) {
        // Text before the first diagnostic: nothing rustc says of a block.
        out.push(Message {
            text: &stderr[..starts[0]],
            error: true,
            at: None,
        });
    }
    for (n, &start) in starts.iter().enumerate() {
        let end = starts.get(n + 1).copied().unwrap_or(summary);
        let text = &stderr[start..end];
        let at = text.lines().find_map(|l| {
            let place = l.trim_start().strip_prefix("--> ")?;
            let (file, rest) = place.split_once(':')?;
            Some((file, rest.split(':').next()?.parse().ok()?))
        });
        out.push(Message {
            text,
            error: text.starts_with("error"),
            at,
        });
    }
    (out, &stderr[summary..])
}

/// The code in a diagnostic's first line (`error[E0308]: …`).
fn code(text: &str) -> Option<&str> {
    let rest = text
        .strip_prefix("error[")
        .or_else(|| text.strip_prefix("warning["))?;
    rest.split_once(']').map(|(c, _)| c)
}

/// rustc's closing summary for `errors` errors, `warnings` warnings and
/// the codes `codes` (as `print_error_count` words it).
fn summary(errors: usize, warnings: usize, codes: &[&str]) -> String {
    let plural = |n: usize, word: &str| match n {
        1 => format!("1 {word}"),
        n => format!("{n} {word}s"),
    };
    let mut out = match errors {
        1 => "error: aborting due to 1 previous error".to_owned(),
        n => format!("error: aborting due to {n} previous errors"),
    };
    if warnings > 0 {
        out.push_str(&format!("; {} emitted", plural(warnings, "warning")));
    }
    out.push_str("\n\n");
    match codes {
        [] => {}
        [one] => out.push_str(&format!(
            "For more information about this error, try `rustc --explain {one}`.\n"
        )),
        [first, ..] => {
            let shown = &codes[..codes.len().min(9)];
            out.push_str(&format!(
                "Some errors have detailed explanations: {}{}\nFor more information about an error, try `rustc --explain {first}`.\n",
                shown.join(", "),
                if codes.len() > 9 { "..." } else { "." }
            ));
        }
    }
    out
}

/// Whether a merged build's summary is the one rustc ends a failed build
/// with and nothing else (such as a future-incompatibility report).
fn plain_summary(tail: &str) -> bool {
    tail.lines().all(|l| {
        l.is_empty()
            || l.starts_with("error: aborting due to")
            || l.starts_with("Some errors have detailed explanations: ")
            || l.starts_with("For more information about")
    })
}

/// rustc's output under `--error-format=json` as its human output (each
/// diagnostic's `rendered` text, as rustc would print it), and the lint
/// of each diagnostic before the closing summary (`None` for what is no
/// lint); `None` for output that is not rustc's JSON throughout.
pub(super) fn from_json(stderr: &str) -> Option<(String, Vec<Option<String>>)> {
    let mut human = String::new();
    let mut lints = Vec::new();
    for line in stderr.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).ok()?;
        if v["$message_type"] != "diagnostic" {
            return None;
        }
        human.push_str(v["rendered"].as_str()?);
        let message = v["message"].as_str().unwrap_or_default();
        let summary = v["level"] == "failure-note"
            || message.starts_with("aborting due to")
            || (message.ends_with(" emitted") && v["spans"].as_array().is_none_or(Vec::is_empty));
        if !summary {
            let code = v["code"]["code"].as_str();
            lints.push(
                code.filter(|c| {
                    !(c.starts_with('E') && c[1..].bytes().all(|b| b.is_ascii_digit()))
                })
                .map(str::to_owned),
            );
        }
    }
    Some((human, lints))
}

/// Each member's own diagnostics in a failed merged build's `stderr`
/// (member `i`'s code is `lines[i]` lines long in [`member_file`]`(i)`);
/// `None` when an error lies outside every member. `lints`, when known
/// (from [`from_json`]), names the lint of each diagnostic.
pub(super) fn attribute(
    stderr: &str,
    lints: Option<&[Option<String>]>,
    lines: &[usize],
) -> Option<Vec<Own>> {
    let (messages, tail) = messages(stderr);
    let lints = lints.filter(|l| l.len() == messages.len());
    let own = by_member(&messages, lints, lines.len())?;
    // Another block's error can stop the whole crate early (a fatal
    // error, or a phase rustc skips after any error), where the block
    // alone would have gone on to errors of its own in later phases: a
    // block's errors are all there only where no other block has any.
    let failing = own
        .iter()
        .filter(|m| m.iter().any(|(m, _)| m.error))
        .count();
    let build = FailedBuild {
        stderr,
        lints_known: lints.is_some(),
        lints_noted: stderr.contains("` on by default"),
        exact_tail: plain_summary(tail),
        crowded: failing > 1,
    };
    Some(
        own.into_iter()
            .enumerate()
            .map(|(i, messages)| build.own(i, lines[i], &messages))
            .collect(),
    )
}

/// A diagnostic of a failed merged build with the lint it is of (when
/// known).
type Told<'m, 'a> = (&'m Message<'a>, Option<&'m str>);

/// Each diagnostic of `messages` given to the member (of `members`)
/// whose file it points into, with its lint from `lints`; the root's
/// warnings dropped. `None` when an error lies outside every member.
fn by_member<'m, 'a>(
    messages: &'m [Message<'a>],
    lints: Option<&'m [Option<String>]>,
    members: usize,
) -> Option<Vec<Vec<Told<'m, 'a>>>> {
    let mut own: Vec<Vec<Told<'m, 'a>>> = vec![Vec::new(); members];
    for (n, m) in messages.iter().enumerate() {
        let lint = lints.and_then(|l| l[n].as_deref());
        let member = m.at.and_then(|(file, _)| {
            let n: usize = file
                .strip_prefix("__companion_ex_")?
                .strip_suffix(".rs")?
                .parse()
                .ok()?;
            (n < members).then_some(n)
        });
        match member {
            Some(i) => own[i].push((m, lint)),
            // The root's warnings are no block's.
            None if !m.error => {}
            None => return None,
        }
    }
    Some(own)
}

/// What a failed merged build says of all its members alike.
struct FailedBuild<'s> {
    /// Its whole stderr.
    stderr: &'s str,
    /// Whether each diagnostic's lint is known.
    lints_known: bool,
    /// Whether a lint's "on by default" note is anywhere in it.
    lints_noted: bool,
    /// Whether its closing summary is the one a member alone would print.
    exact_tail: bool,
    /// Whether more than one member failed in it.
    crowded: bool,
}

impl FailedBuild<'_> {
    /// What the build says of member `i` (its code `last` lines long),
    /// from its diagnostics `messages`.
    fn own(&self, i: usize, last: usize, messages: &[Told<'_, '_>]) -> Own {
        let file = member_file(i);
        let mut text = String::new();
        let mut differs = !self.exact_tail;
        let mut foreign = false;
        let own_module = format!("__companion_ex_{i}::");
        let (mut errors, mut warnings) = (0, 0);
        let mut codes = Vec::new();
        let mut seen_lints = Vec::new();
        for &(m, lint) in messages {
            let told = m.text.replace(&format!("{file}:"), "main.rs:");
            // The merged crate's root (a suggestion to add a crate
            // attribute points there), the code after the block, another
            // block's module.
            let outside = beyond(m.text, 0)
                || m.at.is_some_and(|(_, l)| l > last)
                || beyond(&told, last)
                || told.replace(&own_module, "").contains("__companion");
            foreign |= outside;
            differs |= outside
                // Its own items, named with their merged module.
                || told.contains("__companion")
                || told.contains("other candidate");
            // A lint's first diagnostic of the run carries its note; it
            // may have gone to another block.
            differs |= match (self.lints_known, lint) {
                (true, None) => false,
                (true, Some(lint)) => {
                    let first = !seen_lints.contains(&lint);
                    seen_lints.push(lint);
                    first
                        && !told.contains("` on by default")
                        && self.stderr.lines().any(|l| {
                            l.contains(&format!("({lint})]`")) && l.contains("on by default")
                        })
                }
                (false, _) => {
                    self.lints_noted
                        && (!m.error || code(m.text).is_none())
                        && !told.contains("` on by default")
                }
            };
            match m.error {
                true => errors += 1,
                false => warnings += 1,
            }
            codes.extend(code(m.text));
            text.push_str(&told);
        }
        if errors == 0 {
            return Own::default();
        }
        codes.sort_unstable();
        codes.dedup();
        text.push_str(&summary(errors, warnings, &codes));
        Own {
            errors,
            diagnostics: text,
            differs,
            foreign,
            crowded: self.crowded,
        }
    }
}

/// Whether `text` points at a line of `main.rs` past `last` (the code
/// the merged build adds after a block's own).
fn beyond(text: &str, last: usize) -> bool {
    text.lines().any(|l| {
        let l = l.trim_start();
        l.strip_prefix("--> main.rs:")
            .or_else(|| l.strip_prefix("::: main.rs:"))
            .and_then(|r| r.split(':').next()?.parse::<usize>().ok())
            .is_some_and(|n| n > last)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::mergeable::candidate;
    use crate::check::tests::claim;
    use mdbook_companion_core::expect::Expect;

    /// rustc 1.9x's output for two blocks in `#[path]` modules: the first
    /// (4 lines of its own) with two errors and a deprecation warning, the
    /// second (5 lines) with one error and a warning whose "on by default"
    /// note went to the first.
    const MERGED: &str = "error[E0425]: cannot find value `undefined_thing` in this scope\n --> __companion_ex_0.rs:4:13\n  |\n4 |     let y = undefined_thing;\n  |             ^^^^^^^^^^^^^^^ not found in this scope\n\nwarning: use of deprecated function `old`\n --> __companion_ex_0.rs:3:5\n  |\n3 |     old();\n  |     ^^^\n  |\n  = note: `#[warn(deprecated)]` on by default\n\nwarning: use of deprecated function `old2`\n --> __companion_ex_1.rs:5:5\n  |\n5 |     old2();\n  |     ^^^^\n\nerror[E0308]: mismatched types\n --> __companion_ex_0.rs:2:18\n  |\n2 |     let x: i32 = \"a\";\n  |            ---   ^^^ expected `i32`, found `&str`\n  |            |\n  |            expected due to this\n\nerror[E0308]: mismatched types\n --> __companion_ex_1.rs:3:18\n  |\n3 |     let f: Foo = 3;\n  |            ---   ^ expected `Foo`, found integer\n  |            |\n  |            expected due to this\n\nerror: aborting due to 3 previous errors; 2 warnings emitted\n\nSome errors have detailed explanations: E0308, E0425.\nFor more information about an error, try `rustc --explain E0308`.\n";

    #[test]
    fn each_block_gets_its_own_diagnostics_as_alone() {
        let own = attribute(MERGED, None, &[4, 5]).expect("attributed");
        assert_eq!(own[0].errors, 2);
        // Both blocks fail: either may have stopped the crate before the
        // other's later errors.
        assert!(!own[0].differs);
        assert!(own[0].crowded);
        assert_eq!(
            own[0].diagnostics,
            "error[E0425]: cannot find value `undefined_thing` in this scope\n --> main.rs:4:13\n  |\n4 |     let y = undefined_thing;\n  |             ^^^^^^^^^^^^^^^ not found in this scope\n\nwarning: use of deprecated function `old`\n --> main.rs:3:5\n  |\n3 |     old();\n  |     ^^^\n  |\n  = note: `#[warn(deprecated)]` on by default\n\nerror[E0308]: mismatched types\n --> main.rs:2:18\n  |\n2 |     let x: i32 = \"a\";\n  |            ---   ^^^ expected `i32`, found `&str`\n  |            |\n  |            expected due to this\n\nerror: aborting due to 2 previous errors; 1 warning emitted\n\nSome errors have detailed explanations: E0308, E0425.\nFor more information about an error, try `rustc --explain E0308`.\n"
        );
        // Its warning lost the note: alone it would carry it.
        assert_eq!(own[1].errors, 1);
        assert!(own[1].differs);
        assert!(
            own[1]
                .diagnostics
                .ends_with("error: aborting due to 1 previous error; 1 warning emitted\n\nFor more information about this error, try `rustc --explain E0308`.\n")
        );
    }

    #[test]
    fn what_a_merged_build_could_tell_otherwise_is_marked() {
        let one = |text: &str, lines: usize| {
            let stderr = format!("{text}\nerror: aborting due to 1 previous error\n\n");
            attribute(&stderr, None, &[lines, 1])
                .expect("attributed")
                .remove(0)
        };
        let plain = "error: expected one of `;` or `}`, found `x`\n --> __companion_ex_0.rs:2:5\n";
        let own = one(plain, 3);
        assert!(!own.differs && !own.foreign);
        assert_eq!(
            own.diagnostics,
            "error: expected one of `;` or `}`, found `x`\n --> main.rs:2:5\n\nerror: aborting due to 1 previous error\n\n"
        );
        // Worded otherwise, of the block's own code: its own item named
        // with the merged module's path, candidates left unnamed.
        for own in [
            one(
                "error[E0599]: no method named `double` found for struct `__companion_ex_0::main::_doctest_main::Meters`\n --> __companion_ex_0.rs:2:11\n",
                3,
            ),
            one(
                "error[E0425]: x\n --> __companion_ex_0.rs:1:8\n  and 3 other candidates\n",
                3,
            ),
        ] {
            assert!(own.differs && !own.foreign, "{own:?}");
        }
        // Pointing outside the block's code: the wrapper after its
        // lines, another block's item (by its path or its file), the
        // merged crate's root (where a crate attribute would go).
        for own in [
            one(plain, 1),
            one(
                "error[E0412]: cannot find type `Foo`\n --> __companion_ex_0.rs:1:8\n  = help: use crate::__companion_ex_1::Foo;\n",
                3,
            ),
            one(
                "error[E0308]: x\n --> __companion_ex_0.rs:1:8\n  ::: __companion_ex_1.rs:4:1\n",
                3,
            ),
            one(
                "error[E0658]: x\n --> __companion_ex_0.rs:1:8\nhelp: add `#![feature(x)]` to the crate attributes to enable\n --> main.rs:1:1\n",
                3,
            ),
        ] {
            assert!(own.differs && own.foreign, "{own:?}");
        }
        // No error of its own: undecided.
        assert_eq!(
            one("error: x\n --> __companion_ex_1.rs:1:1\n", 3),
            Own::default()
        );
    }

    #[test]
    fn an_error_outside_every_block_is_not_attributed() {
        let root = "error[E0425]: cannot find function `main`\n --> main.rs:9:1\n\nerror: aborting due to 1 previous error\n\n";
        assert_eq!(attribute(root, None, &[3, 3]), None);
        let nowhere = "error: linking with `cc` failed: exit status: 1\n\nerror: aborting due to 1 previous error\n\n";
        assert_eq!(attribute(nowhere, None, &[3, 3]), None);
        // A warning in the root is no block's.
        let warned = "warning: x\n --> main.rs:9:1\n\nerror: y\n --> __companion_ex_1.rs:1:1\n\nerror: aborting due to 1 previous error; 1 warning emitted\n\n";
        assert_eq!(
            attribute(warned, None, &[3, 3]).map(|o| o[1].errors),
            Some(1)
        );
    }

    /// rustc's JSON for two blocks that each call a deprecated function
    /// and have a type error (paths shortened): the lint's note went to
    /// the first block's warning.
    const JSON: &str = r##"{"$message_type": "diagnostic", "message": "use of deprecated function `old`", "code": {"code": "deprecated", "explanation": null}, "level": "warning", "spans": [{"file_name": "__companion_ex_0.rs", "line_start": 2, "is_primary": true}], "rendered": "warning: use of deprecated function `old`\n --> __companion_ex_0.rs:2:13\n  |\n2 | fn main() { old(); let x: i32 = \"a\"; }\n  |             ^^^\n  |\n  = note: `#[warn(deprecated)]` on by default\n\n"}
{"$message_type": "diagnostic", "message": "use of deprecated function `old`", "code": {"code": "deprecated", "explanation": null}, "level": "warning", "spans": [{"file_name": "__companion_ex_1.rs", "line_start": 2, "is_primary": true}], "rendered": "warning: use of deprecated function `old`\n --> __companion_ex_1.rs:2:13\n  |\n2 | fn main() { old(); let x: i32 = \"b\"; }\n  |             ^^^\n\n"}
{"$message_type": "diagnostic", "message": "mismatched types", "code": {"code": "E0308", "explanation": null}, "level": "error", "spans": [{"file_name": "__companion_ex_0.rs", "line_start": 2, "is_primary": true}, {"file_name": "__companion_ex_0.rs", "line_start": 2, "is_primary": false}], "rendered": "error[E0308]: mismatched types\n --> __companion_ex_0.rs:2:33\n  |\n2 | fn main() { old(); let x: i32 = \"a\"; }\n  |                           ---   ^^^ expected `i32`, found `&str`\n  |                           |\n  |                           expected due to this\n\n"}
{"$message_type": "diagnostic", "message": "mismatched types", "code": {"code": "E0308", "explanation": null}, "level": "error", "spans": [{"file_name": "__companion_ex_1.rs", "line_start": 2, "is_primary": true}, {"file_name": "__companion_ex_1.rs", "line_start": 2, "is_primary": false}], "rendered": "error[E0308]: mismatched types\n --> __companion_ex_1.rs:2:33\n  |\n2 | fn main() { old(); let x: i32 = \"b\"; }\n  |                           ---   ^^^ expected `i32`, found `&str`\n  |                           |\n  |                           expected due to this\n\n"}
{"$message_type": "diagnostic", "message": "aborting due to 2 previous errors; 2 warnings emitted", "code": null, "level": "error", "spans": [], "rendered": "error: aborting due to 2 previous errors; 2 warnings emitted\n\n"}
{"$message_type": "diagnostic", "message": "For more information about this error, try `rustc --explain E0308`.", "code": null, "level": "failure-note", "spans": [], "rendered": "For more information about this error, try `rustc --explain E0308`.\n"}
"##;

    #[test]
    fn json_names_each_diagnostics_lint() {
        let (human, lints) = from_json(JSON).expect("rustc's JSON");
        assert_eq!(
            lints,
            [
                Some("deprecated".to_owned()),
                Some("deprecated".to_owned()),
                None,
                None
            ]
        );
        assert!(
            human
                .ends_with("For more information about this error, try `rustc --explain E0308`.\n")
        );
        let own = attribute(&human, Some(&lints), &[2, 2]).expect("attributed");
        // The first block's warning carries the note, as alone; the
        // second's lost it to the first; both fail, so both are crowded.
        assert!(!own[0].differs, "{own:?}");
        assert!(own[1].differs, "{own:?}");
        assert!(own[0].crowded && own[1].crowded, "{own:?}");
        // With the first block's error gone, it alone fails: its warning
        // lost the note to the first block.
        let one: String = human.replacen("error[E0308]", "warning[E0308]", 1);
        let own = attribute(&one, Some(&lints), &[2, 2]).expect("attributed");
        assert_eq!(own[0].errors, 0);
        assert!(own[1].differs && !own[1].crowded, "{own:?}");
        assert!(own[1].diagnostics.contains(" --> main.rs:2:33\n"));
        // Not rustc's JSON throughout: nothing to attribute.
        assert_eq!(from_json("thread 'rustc' panicked\n"), None);
    }

    #[test]
    fn the_summary_is_rustcs() {
        assert_eq!(
            summary(1, 0, &[]),
            "error: aborting due to 1 previous error\n\n"
        );
        assert_eq!(
            summary(2, 2, &["E0308"]),
            "error: aborting due to 2 previous errors; 2 warnings emitted\n\nFor more information about this error, try `rustc --explain E0308`.\n"
        );
        let ten: Vec<String> = (0..10).map(|n| format!("E{n:04}")).collect();
        let ten: Vec<&str> = ten.iter().map(String::as_str).collect();
        assert!(
            summary(10, 0, &ten)
                .contains("E0000, E0001, E0002, E0003, E0004, E0005, E0006, E0007, E0008...\n")
        );
    }

    #[test]
    fn only_cold_plain_compile_failures_of_2018_on_merge() {
        let plain = |expect, source: &str| {
            let mut c = claim(expect, source);
            c.program.doctest = Some(mdbook_companion_core::doctest::Doctest {
                test_harness: false,
                error_codes: Vec::new(),
                test_line: 1,
            });
            c
        };
        let wrong = "fn main() { let x: i32 = \"a\"; }";
        assert!(candidate(&plain(Expect::CompileFail, wrong).stated()));
        assert!(
            !candidate(&plain(Expect::CompileFail, "fn main() { let x = [1; }").stated()),
            "a bracket left open stops the merged crate"
        );
        assert!(
            !candidate(&claim(Expect::CompileFail, wrong).stated()),
            "an example compiles alone"
        );
        assert!(!candidate(&plain(Expect::Run, "fn main() {}").stated()));
        assert!(!candidate(
            &plain(
                Expect::CompileFail,
                "#![recursion_limit = \"4\"]\nfn main() {}"
            )
            .stated()
        ));
        // A lint level is the block's module's too.
        assert!(candidate(
            &plain(
                Expect::CompileFail,
                "#![deny(unused_must_use)]\nfn main() { let x: i32 = \"a\"; }"
            )
            .stated()
        ));
        let mut old = plain(Expect::CompileFail, wrong);
        old.program.edition = 2015;
        assert!(!candidate(&old.stated()));
    }
}
