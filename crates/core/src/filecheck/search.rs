//! [`Checks::run`]: the directives matched against a listing, labels
//! first, each region in turn, and a false claim told with where the
//! search stood.

use super::matcher::{Matcher, work};
use super::{Checks, Failure, Rule, Stood};

/// A place in the listing: line index and byte column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Pos {
    line: usize,
    col: usize,
}

/// A match: where it starts and ends.
#[derive(Debug, Clone, Copy)]
struct Found {
    start: Pos,
    end: Pos,
}

/// The listing's lines and the search over them.
struct Listing<'a> {
    lines: Vec<&'a str>,
}

impl Listing<'_> {
    fn end(&self) -> Pos {
        Pos {
            line: self.lines.len(),
            col: 0,
        }
    }

    /// The first match of `m` at or after `from` and before `to`; `Err`
    /// when its regex cannot be built.
    fn find(&self, m: &Matcher, from: Pos, to: Pos) -> Result<Option<Found>, String> {
        let mut line = from.line;
        while line < self.lines.len() && line <= to.line {
            work(1);
            let text = self.lines[line];
            let begin = if line == from.line { from.col } else { 0 };
            let stop = if line == to.line { to.col } else { text.len() };
            if begin <= stop
                && let Some((start, end)) = m.find_at(&text[..stop], begin)?
            {
                return Ok(Some(Found {
                    start: Pos { line, col: start },
                    end: Pos { line, col: end },
                }));
            }
            if line == to.line {
                break;
            }
            line += 1;
        }
        Ok(None)
    }

    /// Where the search stood, for a message.
    fn stood(&self, at: Pos) -> Stood {
        let line = at.line.min(self.lines.len().saturating_sub(1));
        Stood {
            line: line + 1,
            text: self.lines.get(line).copied().unwrap_or("").to_owned(),
        }
    }
}

impl Checks {
    /// Matches the directives against `listing`: `Ok` when every claim
    /// holds, else the first false one.
    pub fn run(&self, listing: &str) -> Result<(), Failure> {
        let list = Listing {
            lines: listing.lines().collect(),
        };
        let fail = |i: usize, reason: String, at: Pos| {
            let d = &self.directives[i];
            Err(Failure {
                directive: i,
                written: format!("{}: {}", d.kind.name(), d.pattern),
                line: d.line,
                reason,
                stood: list.stood(at),
            })
        };
        // Labels first, each after the one before.
        let mut labels: Vec<(usize, Found)> = Vec::new();
        let mut pos = Pos { line: 0, col: 0 };
        for (i, d) in self.directives.iter().enumerate() {
            if d.kind != Rule::Label {
                continue;
            }
            match list.find(&d.matcher, pos, list.end()) {
                Ok(Some(f)) => {
                    labels.push((i, f));
                    pos = f.end;
                }
                Ok(None) => return fail(i, "was not found".into(), pos),
                Err(e) => return fail(i, e, pos),
            }
        }
        // Then each region: from a label's match to the next label's.
        let mut group_start = 0;
        let mut region_start = Pos { line: 0, col: 0 };
        let mut last: Option<Found> = None;
        for k in 0..=labels.len() {
            let (group_end, region_end) = match labels.get(k) {
                Some((i, f)) => (*i, f.start),
                None => (self.directives.len(), list.end()),
            };
            self.run_region(
                &list,
                group_start..group_end,
                region_start,
                region_end,
                last,
                &fail,
            )?;
            if let Some((i, f)) = labels.get(k) {
                group_start = i + 1;
                region_start = f.end;
                last = Some(*f);
            }
        }
        Ok(())
    }

    /// The directives `range` (no labels among them) within one region.
    fn run_region(
        &self,
        list: &Listing<'_>,
        range: std::ops::Range<usize>,
        start: Pos,
        end: Pos,
        mut last: Option<Found>,
        fail: &dyn Fn(usize, String, Pos) -> Result<(), Failure>,
    ) -> Result<(), Failure> {
        let mut pos = start;
        let mut nots: Vec<usize> = Vec::new();
        let check_nots = |nots: &mut Vec<usize>, from: Pos, to: Pos| -> Result<(), Failure> {
            for i in nots.drain(..) {
                match list.find(&self.directives[i].matcher, from, to) {
                    Ok(None) => {}
                    Ok(Some(f)) => {
                        return fail(
                            i,
                            format!(
                                "was found on line {}, where it must not be",
                                f.start.line + 1
                            ),
                            f.start,
                        );
                    }
                    Err(e) => return fail(i, e, from),
                }
            }
            Ok(())
        };
        for i in range {
            let d = &self.directives[i];
            let times = match d.kind {
                Rule::Not => {
                    nots.push(i);
                    continue;
                }
                Rule::Count(n) => n,
                Rule::Check | Rule::Next | Rule::Same | Rule::Label => 1,
            };
            let mut first: Option<Found> = None;
            let mut at = pos;
            for n in 0..times {
                let f = match list.find(&d.matcher, at, end) {
                    Ok(Some(f)) => f,
                    Ok(None) => {
                        let reason = match d.kind {
                            Rule::Count(total) => format!("was found {n} of {total} times"),
                            _ => "was not found".into(),
                        };
                        return fail(i, reason, at);
                    }
                    Err(e) => return fail(i, e, at),
                };
                work(1);
                first.get_or_insert(f);
                // An empty match where the search stood is found there
                // again every time: the rest of the count holds as is.
                let again = f.end == at;
                at = f.end;
                if again {
                    break;
                }
            }
            let Some(found) = first else { continue };
            let previous = last.map(|l| l.end.line);
            match (d.kind, previous) {
                (Rule::Next, Some(p)) if found.start.line != p + 1 => {
                    return fail(
                        i,
                        format!(
                            "is on line {}, not on the line after line {} (the last match)",
                            found.start.line + 1,
                            p + 1
                        ),
                        Pos {
                            line: p + 1,
                            col: 0,
                        },
                    );
                }
                (Rule::Same, Some(p)) if found.start.line != p => {
                    return fail(
                        i,
                        format!("is not on line {} (the last match's line)", p + 1),
                        pos,
                    );
                }
                _ => {}
            }
            check_nots(&mut nots, pos, found.start)?;
            pos = at;
            last = Some(Found {
                start: found.start,
                end: at,
            });
        }
        check_nots(&mut nots, pos, end)
    }
}
