//! What of a program's output its runs agree on: what `adopt` records
//! (the text, its lines in any order, `[..]` for a span that changes, or
//! nothing).

use mdbook_companion_engine::check::pattern;

/// What of a program's output its runs agree on.
#[derive(Debug, PartialEq)]
pub(super) enum Stable {
    /// The same text every time.
    Same(String),
    /// The same lines in another order: ```` ```output unordered ````.
    Unordered(String),
    /// The same lines but for spans (a path, a time, an address), each
    /// written `[..]`.
    Spans(String),
    /// Lines in another order, and spans of them changing:
    /// ```` ```output unordered ```` with `[..]`.
    UnorderedSpans(String),
    /// Nothing an output block can say.
    Varies,
}

/// What of `first` the other runs (`others`) printed too. `may_reorder`:
/// the lines may be taken in any order (a run's stdout, not a panic's
/// message).
pub(super) fn stable(first: &str, others: &[String], may_reorder: bool) -> Stable {
    let others: Vec<&str> = others
        .iter()
        .map(String::as_str)
        .filter(|o| *o != first)
        .collect();
    if others.is_empty() {
        return Stable::Same(first.to_owned());
    }
    let runs: Vec<Vec<&str>> = std::iter::once(first)
        .chain(others.iter().copied())
        .map(|r| r.lines().collect())
        .collect();
    let sorted: Vec<Vec<&str>> = runs
        .iter()
        .map(|r| {
            let mut r = r.clone();
            r.sort_unstable();
            r
        })
        .collect();
    if may_reorder && sorted.iter().all(|r| *r == sorted[0]) {
        return Stable::Unordered(first.to_owned());
    }
    // A pattern token the program printed itself could not be told apart.
    if runs.iter().any(|r| r.len() != runs[0].len())
        || std::iter::once(first)
            .chain(others.iter().copied())
            .any(pattern::has_pattern)
    {
        return Stable::Varies;
    }
    // In their order, or (when the lines may come in any order: threads
    // sending their numbers) lined up by sorting, which keeps a line in
    // its place when what changes does not change its rank: whichever
    // says more, that is has fewer spans.
    let in_order = spans(&runs);
    let any_order = spans(&sorted).filter(|_| may_reorder);
    let vague = |lines: &Vec<String>| lines.iter().filter(|l| l.contains("[..]")).count();
    match (in_order, any_order) {
        (Some(a), Some(b)) if vague(&b) < vague(&a) => Stable::UnorderedSpans(b.join("\n")),
        (Some(a), _) => Stable::Spans(a.join("\n")),
        (None, Some(b)) => Stable::UnorderedSpans(b.join("\n")),
        (None, None) => Stable::Varies,
    }
}

/// The runs' lines, one by one, as one line with `[..]` where they
/// differ; `None` when a line changes as a whole.
fn spans(runs: &[Vec<&str>]) -> Option<Vec<String>> {
    let first = runs.first()?;
    let mut lines = Vec::with_capacity(first.len());
    for (i, line) in first.iter().enumerate() {
        let versions: Vec<&str> = runs.iter().filter_map(|r| r.get(i).copied()).collect();
        if versions.iter().all(|v| v == line) {
            lines.push((*line).to_owned());
            continue;
        }
        let pattern = span_pattern(&versions);
        // A line that varies as a whole says nothing.
        if pattern.trim() == "[..]" || !versions.iter().all(|v| pattern::matches(&pattern, v)) {
            return None;
        }
        lines.push(pattern);
    }
    Some(lines)
}

/// Versions of a line (at least one) as one with `[..]` where they
/// differ: what they all share before and after, cut back to a word's
/// edge (so a part of a varying word that the runs happened to share is
/// not kept).
fn span_pattern(versions: &[&str]) -> String {
    let x = versions.first().copied().unwrap_or_default();
    let edge = |c: char| !c.is_alphanumeric();
    let common_prefix = |y: &str| {
        x.char_indices()
            .zip(y.chars())
            .find(|((_, a), b)| a != b)
            .map_or(x.len().min(y.len()), |((i, _), _)| i)
    };
    let mut pre = versions.iter().map(|y| common_prefix(y)).min().unwrap_or(0);
    if !x[..pre].ends_with(edge) {
        pre = x[..pre]
            .rfind(edge)
            .map_or(0, |i| i + x[i..].chars().next().map_or(1, char::len_utf8));
    }
    let common_suffix = |y: &str| {
        x.chars()
            .rev()
            .zip(y.chars().rev())
            .take_while(|(a, b)| a == b)
            .map(|(a, _)| a.len_utf8())
            .sum::<usize>()
    };
    // Every version starts with `x[..pre]`, so each is at least that long.
    let max_suffix = versions.iter().map(|v| v.len() - pre).min().unwrap_or(0);
    let mut suf = versions
        .iter()
        .map(|y| common_suffix(y))
        .min()
        .unwrap_or(0)
        .min(max_suffix);
    // Cut forward to a word's edge.
    let tail = &x[x.len() - suf..];
    if suf < max_suffix || !tail.starts_with(edge) {
        suf = tail.find(edge).map_or(0, |i| suf - i);
    }
    format!("{}[..]{}", &x[..pre], &x[x.len() - suf..])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(r: &[&str]) -> Vec<String> {
        r.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn only_what_the_runs_agree_on_is_recorded() {
        assert_eq!(
            stable("a\nb", &runs(&["a\nb"]), true),
            Stable::Same("a\nb".into())
        );
        assert_eq!(stable("a\nb", &[], true), Stable::Same("a\nb".into()));
        assert_eq!(
            stable("thread 1\nthread 2", &runs(&["thread 2\nthread 1"]), true),
            Stable::Unordered("thread 1\nthread 2".into())
        );
        // A panic message is one text: no reordering.
        assert_eq!(stable("x\ny", &runs(&["y\nx"]), false), Stable::Varies);
        assert_eq!(
            stable(
                "path: /tmp/.tmpAb3x/main\nok",
                &runs(&["path: /tmp/.tmpAbQ7/main\nok"]),
                true
            ),
            Stable::Spans("path: /tmp/.[..]/main\nok".into())
        );
        assert_eq!(
            stable("took 12ms", &runs(&["took 9ms"]), true),
            Stable::Spans("took [..]".into())
        );
        assert_eq!(stable("a\nb", &runs(&["a"]), true), Stable::Varies);
        assert_eq!(stable("x [..]", &runs(&["y [..]"]), true), Stable::Varies);
    }

    #[test]
    fn every_run_is_heard_not_just_the_second() {
        // Two runs agree; the third tells the span.
        assert_eq!(
            stable("took 12ms", &runs(&["took 12ms", "took 9ms"]), true),
            Stable::Spans("took [..]".into())
        );
        // What all runs share, not what two of them do.
        assert_eq!(
            stable(
                "[Ok(0), Ok(1), Ok(2)]",
                &runs(&["[Ok(0), Ok(2), Ok(1)]", "[Ok(1), Ok(0), Ok(2)]"]),
                true
            ),
            Stable::Spans("[Ok([..])]".into())
        );
    }

    #[test]
    fn threads_lines_in_any_order_with_changing_spans() {
        // Rust by Example's std_misc/channels.md, as three runs printed it.
        let first =
            "thread 0 finished\nthread 1 finished\nthread 2 finished\n[Ok(0), Ok(1), Ok(2)]";
        let others = runs(&[
            "thread 1 finished\nthread 0 finished\nthread 2 finished\n[Ok(1), Ok(0), Ok(2)]",
            "thread 0 finished\nthread 2 finished\nthread 1 finished\n[Ok(0), Ok(2), Ok(1)]",
        ]);
        let Stable::UnorderedSpans(text) = stable(first, &others, true) else {
            panic!("{:?}", stable(first, &others, true));
        };
        assert_eq!(
            text,
            "[Ok([..])]\nthread 0 finished\nthread 1 finished\nthread 2 finished"
        );
        // Not for a panic's message, whose lines keep their order.
        assert_eq!(
            stable(first, &others, false),
            Stable::Spans(
                "thread [..] finished\nthread [..] finished\nthread [..] finished\n[Ok([..])]"
                    .into()
            )
        );
    }
}
