//! `check --bless` of a quiz file's `Tracing` answer (an mdbook-quiz
//! `[[questions]]` table a chapter names): the answer the build saw is
//! written into the question's `answer.doesCompile`, `answer.lineNumber`
//! and `answer.stdout` with `toml_edit`, every comment and the layout of
//! the file kept (a replaced value keeps the comment after it).
//!
//! What the build saw: a program that does not compile has its first
//! error's primary line (as the reader counts lines); one that compiles
//! and runs cleanly has its output. A key that says "does not compile"
//! of a program that compiles is checked again as a program that runs,
//! so its output is known. A panic, a time-out or a program whose first
//! error stands on a hidden line is a wrong claim, not a wrong text: it
//! stays failed, and the note says why.
//!
//! The file is written through the one guard of
//! [`commands::author`](crate::commands::author), inside the book's root
//! (where a chapter may keep its quiz files), atomically.

use super::super::author;
use super::report::Checked;
use crate::book::verify::placed;
use anyhow::Context as _;
use mdbook_companion_core::claim::{BlessTarget, Claim};
use mdbook_companion_core::expect::Expect;
use mdbook_companion_engine::check::{Checker, Verdict};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What a question's answer becomes.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Key {
    /// `doesCompile = true`, `stdout`.
    Prints(String),
    /// `doesCompile = false`, `lineNumber` (as the reader counts).
    FailsOn(usize),
}

/// Blesses the failed `Tracing` answers of quiz files; returns one note
/// per question written or refused. Blessed claims become passed.
pub fn bless(
    root: &Path,
    checker: &Checker,
    checked: &mut [Checked],
) -> anyhow::Result<Vec<String>> {
    let mut notes = Vec::new();
    let mut by_file: BTreeMap<PathBuf, Vec<(BlessTarget, Key, usize)>> = BTreeMap::new();
    for (i, c) in checked.iter().enumerate() {
        let Some(t) = c.claim.origin.bless.as_ref().filter(|t| t.quiz_file) else {
            continue;
        };
        if !matches!(c.outcome.verdict, Verdict::Failed { .. }) {
            continue;
        }
        let at = format!("{}:{}", c.claim.origin.file, c.claim.origin.line);
        match seen(checker, c) {
            Ok(key) => by_file
                .entry(t.path.clone())
                .or_default()
                .push((t.clone(), key, i)),
            Err(why) => notes.push(format!("{at}: not blessed: {why}")),
        }
    }
    for (path, edits) in by_file {
        let real = match author::target(root, "the book's root", &path) {
            Ok(real) => real,
            Err(refused) => {
                super::bless::refused_notes(checked, &edits, &refused, &mut notes);
                continue;
            }
        };
        let text = std::fs::read_to_string(&real)
            .with_context(|| format!("reading {}", real.display()))?;
        let mut blessed = Vec::new();
        let new_text = match write_keys(&text, &edits) {
            Ok(new) => new,
            Err(why) => {
                for (_, _, i) in &edits {
                    let c = &checked[*i];
                    notes.push(format!(
                        "{}:{}: not blessed: {why}",
                        c.claim.origin.file, c.claim.origin.line
                    ));
                }
                continue;
            }
        };
        for (_, key, i) in &edits {
            let c = &checked[*i];
            notes.push(format!(
                "{}:{}: blessed the quiz's answer ({})",
                c.claim.origin.file,
                c.claim.origin.line,
                match key {
                    Key::Prints(_) => "answer.doesCompile = true, answer.stdout".to_owned(),
                    Key::FailsOn(n) =>
                        format!("answer.doesCompile = false, answer.lineNumber = {n}"),
                }
            ));
            blessed.push(*i);
        }
        author::write(&real, new_text.as_bytes())
            .with_context(|| format!("writing {}", real.display()))?;
        for i in blessed {
            checked[i].outcome.verdict = Verdict::Passed;
        }
    }
    Ok(notes)
}

/// The answer the build saw for a failed claim, or why it has none to
/// write.
fn seen(checker: &Checker, c: &Checked) -> Result<Key, String> {
    let claim = &c.claim;
    let Verdict::Failed {
        message,
        expected,
        detail,
        ..
    } = &c.outcome.verdict
    else {
        return Err("it did not fail".to_owned());
    };
    let fails_on = |diagnostics: &str| -> Result<Key, String> {
        let primary = mdbook_companion_core::labels::program_labels(
            diagnostics,
            claim.program.lines.as_ref(),
        )
        .into_iter()
        .find(|l| l.primary)
        .ok_or("the compiler named no line for its first error")?;
        let shown = shown_lines(claim);
        match shown.iter().position(|&l| l == primary.line) {
            Some(i) => Ok(Key::FailsOn(i + 1)),
            None => Err(format!(
                "its first error is on a hidden line (line {} of the program); the reader cannot answer it",
                primary.line
            )),
        }
    };
    match claim.expectation.expect {
        Expect::CompileFail => match detail {
            Some(d) if !d.is_empty() => fails_on(d),
            _ => {
                // It compiled: what does it print?
                let runs = {
                    let mut claim = claim.clone();
                    claim.expectation.expect = Expect::Run;
                    claim.expectation.output = None;
                    claim.expectation.error = None;
                    claim.expectation.error_line = None;
                    claim
                };
                let outcome = placed(checker.check(&runs.stated()), &runs.origin);
                match (&outcome.verdict, outcome.actual) {
                    (Verdict::Passed, Some(out)) => Ok(Key::Prints(out)),
                    (Verdict::Passed, None) => Ok(Key::Prints(String::new())),
                    (v, _) => Err(format!(
                        "it compiles, but does not run cleanly ({v}); mdbook-quiz's doesCompile = true asks for its output"
                    )),
                }
            }
        },
        Expect::Run => match (expected, &c.outcome.actual, detail) {
            (Some(_), Some(actual), _) => Ok(Key::Prints(actual.clone())),
            (_, _, Some(d)) if message == "does not compile" => fails_on(d),
            _ => Err(format!("{}", c.outcome.verdict)),
        },
        _ => Err("only a Tracing answer is blessed".to_owned()),
    }
}

/// For each line the reader sees, its line in the program: the claim's
/// own map when it has one, else the program's lines as they are (a
/// `Tracing` program that runs has no hidden line the key counts from),
/// one lower under a wrapping `fn main`.
fn shown_lines(claim: &Claim) -> Vec<usize> {
    if let Some(e) = &claim.expectation.error_line {
        return e.shown.clone();
    }
    let shift = usize::from(claim.program.wrapped);
    (1..=claim
        .program
        .source
        .lines()
        .count()
        .saturating_sub(2 * shift))
        .map(|l| l + shift)
        .collect()
}

/// The text of the quiz file with each edit's question's answer keys
/// written, the rest of the file as it was.
fn write_keys(text: &str, edits: &[(BlessTarget, Key, usize)]) -> Result<String, String> {
    let parsed = toml_edit::Document::parse(text.to_owned())
        .map_err(|e| format!("the quiz file no longer parses ({})", e.message()))?;
    let starts: Vec<usize> = parsed
        .get("questions")
        .and_then(|q| q.as_array_of_tables())
        .map(|a| a.iter().filter_map(|t| t.span()).map(|s| s.start).collect())
        .unwrap_or_default();
    let mut doc = parsed.into_mut();
    let questions = doc
        .get_mut("questions")
        .and_then(|q| q.as_array_of_tables_mut())
        .ok_or("the quiz file has no [[questions]] any more")?;
    for (target, key, _) in edits {
        if text.get(target.range.clone()) != Some(target.block.as_str()) {
            return Err("the quiz file changed while checking".to_owned());
        }
        let n = starts
            .iter()
            .rposition(|&s| s <= target.range.start)
            .ok_or("its question is no longer in the quiz file")?;
        let q = questions
            .get_mut(n)
            .ok_or("its question is no longer in the quiz file")?;
        let answer = q
            .get_mut("answer")
            .and_then(|a| a.as_table_like_mut())
            .ok_or("its question has no answer table")?;
        match key {
            Key::Prints(out) => {
                set(answer, "doesCompile", true.into());
                instead(answer, "lineNumber", "stdout");
                set(answer, "stdout", out.trim_end_matches('\n').into());
            }
            Key::FailsOn(line) => {
                set(answer, "doesCompile", false.into());
                instead(answer, "stdout", "lineNumber");
                set(
                    answer,
                    "lineNumber",
                    i64::try_from(*line).unwrap_or(0).into(),
                );
            }
        }
    }
    Ok(doc.to_string())
}

/// Removes `old` for `new` (when `new` is not there yet), `new` taking
/// the comment lines above `old` and the comment after its value.
fn instead(table: &mut dyn toml_edit::TableLike, old: &str, new: &str) {
    if table.contains_key(new) {
        table.remove(old);
        return;
    }
    let Some(decor) = table.key(old).map(|k| k.leaf_decor().clone()) else {
        return;
    };
    let Some(item) = table.remove(old) else {
        return;
    };
    let mut value = toml_edit::Value::from(false);
    if let Some(v) = item.as_value() {
        *value.decor_mut() = v.decor().clone();
    }
    table.insert(new, toml_edit::Item::Value(value));
    if let Some(mut k) = table.key_mut(new) {
        *k.leaf_decor_mut() = decor;
    }
}

/// Sets `key` to `value`, keeping the comment and spacing around the
/// value it replaces.
fn set(table: &mut dyn toml_edit::TableLike, key: &str, mut value: toml_edit::Value) {
    match table.get_mut(key).and_then(|i| i.as_value_mut()) {
        Some(old) => {
            *value.decor_mut() = old.decor().clone();
            *old = value;
        }
        None => {
            table.insert(key, toml_edit::Item::Value(value));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    const FILE: &str = "# A quiz.\n\n[[questions]]\ntype = \"ShortAnswer\"\nprompt.prompt = \"?\"\nanswer.answer = \"a\"\n\n[[questions]]\n# The program.\ntype = \"Tracing\"\nprompt.program = \"fn main() {}\"\nanswer.doesCompile = true   # it runs\nanswer.stdout = \"old\" # was\n";

    fn edit(key: Key) -> String {
        let start = FILE.rfind("[[questions]]").unwrap();
        let target = BlessTarget {
            path: PathBuf::from("q.toml"),
            range: start..FILE.len(),
            block: FILE[start..].to_owned(),
            quiz_file: true,
        };
        write_keys(FILE, &[(target, key, 0)]).unwrap()
    }

    #[test]
    fn answers_are_written_keeping_comments_and_layout() {
        assert_eq!(
            edit(Key::Prints("new\nlines\n".into())),
            FILE.replace("\"old\"", "\"\"\"\nnew\nlines\"\"\"")
        );
        assert_eq!(
            edit(Key::FailsOn(3)),
            FILE.replace("true", "false").replace(
                "answer.stdout = \"old\" # was\n",
                "answer.lineNumber = 3 # was\n"
            )
        );
    }
}
