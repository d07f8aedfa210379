//! The report of `drift`: a line per claim that changed (both
//! toolchains' versions, a diff where there is text), the summary last;
//! also as JSON, GitHub Actions annotations (a flip is an error, any other
//! change a warning) and JUnit XML (a flip fails its case), through the
//! writers `check`'s reports use.

use super::{Drift, Drifted, short};
use crate::commands::check::formats::{self, Case};
use std::fmt::Write as _;

/// Lines of a diff shown per change.
const DIFF_LINES: usize = 40;

/// The diff of `before` and `after`, headed by the two toolchains.
fn diff(d: &Drifted, before: &str, after: &str) -> String {
    let (from, to) = (short(&d.from), short(&d.to));
    // The same words on both sides name the files apart.
    let (from, to) = match from == to {
        true => (format!("{from} (lock)"), format!("{to} (now)")),
        false => (from.to_owned(), to.to_owned()),
    };
    // Whole lines, and no line at all for no text.
    let lines = |t: &str| match t.trim_end_matches('\n') {
        "" => String::new(),
        t => format!("{t}\n"),
    };
    let (a, b) = (lines(before), lines(after));
    let text = mdbook_companion_core::diff::unified(&a, &b, &from, &to);
    let lines: Vec<&str> = text.lines().collect();
    let mut out = lines[..lines.len().min(DIFF_LINES)].join("\n");
    if lines.len() > DIFF_LINES {
        out.push_str(&format!("\n… {} more lines", lines.len() - DIFF_LINES));
    }
    out
}

/// A drifted claim's head: `src/a.md:3: rust example "x" (expect=run)`.
fn head(d: &Drifted) -> String {
    format!("{}:{}: {} (expect={})", d.file, d.line, d.what, d.expect)
}

/// Its line: what changed, with both toolchains.
fn line(d: &Drifted) -> String {
    let kinds: Vec<&str> = d.changes.iter().map(|c| c.kind.name()).collect();
    let first = d.changes.first().map(|c| c.message.as_str()).unwrap_or("");
    format!(
        "{} ({} → {}): {}: {first}",
        head(d),
        short(&d.from),
        short(&d.to),
        kinds.join(", ")
    )
}

/// The body under a drifted claim's line: every change's message and diff.
fn body(d: &Drifted) -> String {
    let mut s = String::new();
    for (i, c) in d.changes.iter().enumerate() {
        if i > 0 {
            let _ = writeln!(s, "{}: {}", c.kind.name(), c.message);
        }
        if let (Some(a), Some(b)) = (&c.before, &c.after) {
            let _ = writeln!(s, "{}", diff(d, a, b));
        } else if let Some(b) = &c.after {
            let _ = writeln!(s, "{b}");
        }
    }
    s
}

fn indent(text: &str, by: &str) -> String {
    let mut s = String::new();
    for line in text.trim_end().lines() {
        s.push_str(by);
        s.push_str(line);
        s.push('\n');
    }
    s
}

/// The text report; its last line is the summary.
pub fn text(drift: &Drift) -> String {
    let mut s = String::new();
    for d in &drift.drifted {
        let tag = if d.flipped { "FLIPPED" } else { "changed" };
        let _ = writeln!(s, "{tag} {}", line(d));
        s.push_str(&indent(&body(d), "    "));
    }
    for u in &drift.unlocked {
        let _ = writeln!(
            s,
            "new     {u}: no entry in companion.lock (run `mdbook-companion check` to record it)"
        );
    }
    for n in &drift.notes {
        let _ = writeln!(s, "{n}");
    }
    let report = &drift.report;
    for m in &report.missing {
        let _ = writeln!(s, "error: {} ({})", m.cannot_run(), m.remedy());
    }
    for located in &report.invalid {
        let _ = writeln!(s, "FAILED  {located}");
    }
    let c = report.counters;
    let _ = writeln!(
        s,
        "compiler runs: {}, program runs: {}, from cache: {}",
        c.compiler_runs, c.program_runs, c.cache_hits
    );
    s.push_str(&drift.summary());
    s.push('\n');
    mdbook_companion_core::escape::terminal(&s).into_owned()
}

#[derive(serde::Serialize)]
struct Json<'a> {
    from: &'a str,
    to: &'a str,
    claims: usize,
    same: usize,
    changed: usize,
    flipped: usize,
    drifted: &'a [Drifted],
    not_in_lock: &'a [String],
    notes: &'a [String],
    compiler_runs: usize,
    program_runs: usize,
    cache_hits: usize,
    summary: String,
}

/// The JSON report (one object).
pub fn json(drift: &Drift) -> String {
    let c = drift.report.counters;
    let j = Json {
        from: &drift.from,
        to: &drift.to,
        claims: drift.claims,
        same: drift.claims.saturating_sub(drift.drifted.len()),
        changed: drift.drifted.len(),
        flipped: drift.flipped(),
        drifted: &drift.drifted,
        not_in_lock: &drift.unlocked,
        notes: &drift.notes,
        compiler_runs: c.compiler_runs,
        program_runs: c.program_runs,
        cache_hits: c.cache_hits,
        summary: drift.summary(),
    };
    serde_json::to_string_pretty(&j).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

/// GitHub Actions workflow commands: an `::error` at each claim whose
/// verdict flips, a `::warning` at each other change, the summary last.
pub fn github(drift: &Drift) -> String {
    let mut s = String::new();
    for d in &drift.drifted {
        let level = if d.flipped { "error" } else { "warning" };
        let _ = writeln!(
            s,
            "::{level} file={},line={},title={}::{}",
            formats::escape_property(&d.file),
            d.line,
            formats::escape_property(&format!(
                "{} drifts ({} → {})",
                d.what,
                short(&d.from),
                short(&d.to)
            )),
            formats::escape_data(format!("{}\n{}", line(d), body(d)).trim_end())
        );
    }
    for n in &drift.notes {
        let _ = writeln!(s, "::notice::{}", formats::escape_data(n));
    }
    s.push_str(&drift.summary());
    s.push('\n');
    s
}

/// JUnit XML: a test case per claim that changed, failing when its
/// verdict flips (the others carry their diff as output).
pub fn junit(drift: &Drift) -> String {
    let cases: Vec<Case> = drift
        .drifted
        .iter()
        .map(|d| {
            let text = format!("{}\n{}", line(d), body(d));
            Case {
                suite: d.file.clone(),
                name: format!("{}:{} {}", d.file, d.line, d.what),
                failure: d.flipped.then(|| {
                    (
                        d.changes
                            .first()
                            .map(|c| c.message.clone())
                            .unwrap_or_default(),
                        text.clone(),
                    )
                }),
                skipped: false,
                out: (!d.flipped).then_some(text),
            }
        })
        .collect();
    formats::junit_of(
        &format!("mdbook-companion drift: {}", drift.summary()),
        &cases,
    )
}
