//! Reading an exercise block: its attributes, then its body as Markdown
//! (the task, then the fences), every offset mapped back to the chapter.

use super::{Code, Exercise, PARTS, PATTERN, Prose};
use crate::attributes;
use crate::body::{Item, Mapper, closes, items};
use crate::reader::Reader;
use mdbook_companion_core::attrs;
use mdbook_companion_core::config::Config;
use mdbook_companion_core::links::Mode;
use mdbook_companion_core::markdown::{self, Block, Fence};
use mdbook_companion_core::problem::Problem;

/// The parts of an exercise, as they are met.
#[derive(Default)]
struct Parts {
    task: Vec<std::ops::Range<usize>>,
    starter: Option<Fence>,
    solution: Option<Fence>,
    tests: Option<Fence>,
    hints: Option<Fence>,
}

impl Exercise {
    /// Parses an exercise block of the chapter `text`.
    pub fn parse(block: &Block, text: &str, config: &Config) -> Result<Exercise, Problem> {
        parse(block, text, config)
    }
}

/// [`Exercise::parse`].
fn parse(block: &Block, text: &str, config: &Config) -> Result<Exercise, Problem> {
    let fence = &block.fence;
    let list = markdown::attributes(fence, PATTERN.words.len())
        .map_err(|e| Problem::from_attr(fence, e))?;
    let given = Reader::read(fence, &list, &attributes::EXERCISE, "exercise")?;
    let (title, id) = (given.title, given.id);
    let edition = given.edition.unwrap_or(config.edition);
    let mode = given.mode.unwrap_or(Mode::Debug);
    let title = title.ok_or_else(|| {
        Problem::at(
            fence.info_offset,
            "found no `title` on the exercise; expected title=\"…\"",
        )
    })?;
    let mapper = Mapper::for_block(text, fence);
    let parts = parts(fence, &mapper)?;
    let Parts {
        task,
        starter,
        solution,
        tests,
        hints,
    } = parts;
    let need = |f: Option<Fence>, part: &str| {
        let f = f.ok_or_else(|| {
            Problem::at(
                fence.info_offset,
                format!("found no ```{part} block in the exercise; expected {PARTS}"),
            )
        })?;
        code(f, part)
    };
    let starter = need(starter, "rust starter")?;
    let solution = need(solution, "rust solution")?;
    let tests = need(tests, "rust tests")?;
    let task = task.first().map(|first| {
        let pieces: Vec<&str> = task
            .iter()
            .map(|r| fence.body[r.clone()].trim_end())
            .collect();
        Prose {
            text: pieces.join("\n\n"),
            at: mapper.map(first.start),
        }
    });
    let hints = match hints {
        Some(h) if h.body.trim().is_empty() => {
            return Err(Problem::at(
                h.info_offset,
                "found an empty ```hints block; expected Markdown the reader may open",
            ));
        }
        Some(h) => Some(Prose {
            text: h.body.trim_end().to_owned(),
            at: h.body_offset,
        }),
        None => None,
    };
    Ok(Exercise {
        title,
        id,
        edition,
        mode,
        task,
        hints,
        starter,
        solution,
        tests,
        info_offset: fence.info_offset,
    })
}

/// The parts of the exercise block `fence` as they are met: the task's
/// Markdown, then the fences, each once.
fn parts(fence: &Fence, mapper: &Mapper) -> Result<Parts, Problem> {
    let mut parts = Parts::default();
    let mut last: Option<String> = None;
    for item in items(&fence.body) {
        match item {
            Item::Markdown(what, range) => match &last {
                None => parts.task.push(range),
                Some(part) => {
                    return Err(Problem::at(
                        mapper.map(range.start),
                        format!(
                            "found {what} after the ```{part} block; expected the task's Markdown before the first fence (hints go in a ```hints block)"
                        ),
                    ));
                }
            },
            Item::Fence(f) => {
                let mapped = mapper.fence(&f);
                let part = part_name(&mapped)?;
                if !closes(&fence.body, &f.range) {
                    return Err(Problem::at(
                        mapped.range.start,
                        format!(
                            "found a ```{part} block whose fence never closes; expected a closing fence before the end of the exercise"
                        ),
                    ));
                }
                let slot = match part {
                    "rust starter" => &mut parts.starter,
                    "rust solution" => &mut parts.solution,
                    "rust tests" => &mut parts.tests,
                    _ => &mut parts.hints,
                };
                if slot.is_some() {
                    return Err(Problem::at(
                        mapped.info_offset,
                        format!("found a second ```{part} block; expected one in an exercise"),
                    ));
                }
                *slot = Some(mapped);
                last = Some(part.to_owned());
            }
        }
    }
    Ok(parts)
}

/// Which part a fence of the body is (`rust starter`, `hints`), or the
/// located error naming what was found and what is expected.
fn part_name(f: &Fence) -> Result<&'static str, Problem> {
    let words = attrs::words(&f.info).map_err(|e| Problem::from_attr(f, e))?;
    let word = |i: usize| words.get(i).map(|r| &f.info[r.clone()]);
    let part = match (word(0), word(1)) {
        (Some("rust"), Some("starter")) => "rust starter",
        (Some("rust"), Some("solution")) => "rust solution",
        (Some("rust"), Some("tests")) => "rust tests",
        (Some("hints"), None) => "hints",
        _ => {
            let found = match f.info.is_empty() {
                true => "a code block without a language".to_owned(),
                false => format!("a ```{} block", f.info),
            };
            let at = match f.info.is_empty() {
                true => f.range.start,
                false => f.info_offset,
            };
            return Err(Problem::at(
                at,
                format!("found {found}; expected one of {PARTS}"),
            ));
        }
    };
    let names = if part == "hints" { 1 } else { 2 };
    if let Some(extra) = words.get(names) {
        return Err(Problem::at(
            f.info_offset + extra.start,
            format!(
                "found `{}` after ```{part}; expected nothing more (edition and mode go on the exercise)",
                &f.info[extra.clone()]
            ),
        ));
    }
    Ok(part)
}

/// A Rust part from its fence, with its hidden lines split.
fn code(f: Fence, part: &str) -> Result<Code, Problem> {
    let shown = mdbook_companion_core::code::rust_shown(&f.body);
    if shown.trim().is_empty() {
        return Err(Problem::at(
            f.info_offset,
            format!("found an empty ```{part} block; expected code the reader can see"),
        ));
    }
    Ok(Code {
        source: mdbook_companion_core::code::rust_source(&f.body),
        shown,
        code: f.body,
        info_offset: f.info_offset,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{config, located};
    use mdbook_companion_core::expect::Expect;
    use pretty_assertions::assert_eq;

    const GOOD: &str = r#"# Chapter

````exercise title="Safe division" id=safe-division edition=2024
Write `divide`, which returns `None` where `/` would panic.

It must never panic.

```rust starter
pub fn divide(a: i32, b: i32) -> Option<i32> {
    todo!()
}
```

```rust tests
#[test]
fn divides() { assert_eq!(divide(7, 2), Some(3)); }
```

```rust solution
pub fn divide(a: i32, b: i32) -> Option<i32> {
    a.checked_div(b)
}
```

```hints
Look at `i32::checked_div`.
```
````
"#;

    fn parsed(text: &str) -> Result<Exercise, String> {
        let blocks = markdown::scan(text, &[PATTERN]);
        let block = blocks.first().expect("an exercise block");
        parse(block, text, &config()).map_err(|p| located(text, &p))
    }

    #[test]
    fn every_part_fills_the_model() {
        let ex = parsed(GOOD).unwrap();
        assert_eq!(ex.title, "Safe division");
        assert_eq!(ex.id.as_ref().unwrap().0, "safe-division");
        assert_eq!(ex.package(), "safe-division");
        assert_eq!(ex.edition, 2024);
        assert_eq!(
            ex.task.as_ref().unwrap().text,
            "Write `divide`, which returns `None` where `/` would panic.\n\nIt must never panic."
        );
        assert_eq!(&GOOD[ex.task.as_ref().unwrap().at..][..5], "Write");
        assert_eq!(ex.hints.unwrap().text, "Look at `i32::checked_div`.");
        assert!(ex.starter.shown.contains("todo!()"));
        assert!(ex.solution.source.contains("checked_div"));
        assert_eq!(&GOOD[ex.tests.info_offset..][..10], "rust tests");
    }

    /// Lines as the chapter text counts them (the book layer maps them
    /// into the file the author edits).
    #[derive(Debug)]
    struct TextLines(&'static str);

    impl crate::contract::Place for TextLines {
        fn line(&self, offset: usize) -> usize {
            markdown::line_col(self.0, offset).0
        }

        fn bless(
            &self,
            _: &std::ops::Range<usize>,
        ) -> Option<mdbook_companion_core::claim::BlessTarget> {
            None
        }

        fn literal(&self, from: usize, _: usize) -> Option<usize> {
            Some(from)
        }
    }

    #[test]
    fn three_claims_each_at_its_own_fence() {
        let ex = parsed(GOOD).unwrap();
        let cfg = config();
        let shared = crate::Shared::disabled();
        let env = crate::Env {
            place: &TextLines(GOOD),
            ..crate::testing::env(&cfg, &shared, crate::Target::Test, GOOD, "src/a.md")
        };
        let claims = ex.claims(&env);
        // Built whole: each claim carries its fence's line.
        for c in &claims {
            assert_eq!(
                c.origin.line,
                markdown::line_col(GOOD, c.origin.offset).0,
                "{}",
                c.origin.what
            );
        }
        let got: Vec<(Expect, &str, &str)> = claims
            .iter()
            .map(|c| {
                (
                    c.expectation.expect,
                    &GOOD[c.origin.offset..][..13],
                    c.origin.what.as_str(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (
                    Expect::StarterCompiles,
                    "rust starter\n",
                    "exercise \"Safe division\" (starter)"
                ),
                (
                    Expect::StarterFails,
                    "rust tests\n#[",
                    "exercise \"Safe division\" (tests)"
                ),
                (
                    Expect::SolutionPasses,
                    "rust solution",
                    "exercise \"Safe division\" (solution)"
                ),
            ]
        );
        // The starter's two claims are one program; the solution's differs.
        assert_eq!(claims[0].program.source, claims[1].program.source);
        assert!(
            claims[0]
                .program
                .source
                .contains("todo!()\n}\n\n#[cfg(test)]\nmod tests {")
        );
        assert!(claims[2].program.source.contains("checked_div"));
        assert!(claims[2].program.source.contains("fn divides()"));
        assert!(claims.iter().all(|c| c.program.edition == 2024));
    }

    #[test]
    fn unknown_missing_and_duplicate_parts_are_located() {
        let cases = [
            (
                GOOD.replace("```rust tests", "```rust test"),
                "src/a.md:14:4: found a ```rust test block; expected one of ```rust starter, ```rust solution, ```rust tests and, optionally, ```hints",
            ),
            (
                GOOD.replace("```hints", "```python"),
                "src/a.md:25:4: found a ```python block; expected one of ```rust starter, ```rust solution, ```rust tests and, optionally, ```hints",
            ),
            (
                GOOD.replace("```rust solution", "```rust starter"),
                "src/a.md:19:4: found a second ```rust starter block; expected one in an exercise",
            ),
            (
                GOOD.replace("```hints\nLook", "```rust tests\nLook"),
                "src/a.md:25:4: found a second ```rust tests block; expected one in an exercise",
            ),
            (
                GOOD.replace("```rust solution", "```rust starter edition=2021"),
                "src/a.md:19:17: found `edition=2021` after ```rust starter; expected nothing more (edition and mode go on the exercise)",
            ),
            (
                GOOD.replace(
                    "```rust solution\npub fn divide(a: i32, b: i32) -> Option<i32> {\n    a.checked_div(b)\n}\n```\n",
                    "",
                ),
                "src/a.md:3:5: found no ```rust solution block in the exercise; expected ```rust starter, ```rust solution, ```rust tests and, optionally, ```hints",
            ),
            (
                GOOD.replace("```\n\n```rust tests", "```\n\nMore task.\n\n```rust tests"),
                "src/a.md:14:1: found a paragraph after the ```rust starter block; expected the task's Markdown before the first fence (hints go in a ```hints block)",
            ),
            (
                GOOD.replace(" title=\"Safe division\"", ""),
                "src/a.md:3:5: found no `title` on the exercise; expected title=\"…\"",
            ),
            (
                GOOD.replace("edition=2024", "edition=2024 asm"),
                "src/a.md:3:66: found unknown attribute `asm`; expected one of title, id, edition, mode",
            ),
            (
                GOOD.replace("    todo!()\n", "").replace(
                    "pub fn divide(a: i32, b: i32) -> Option<i32> {\n}\n",
                    "",
                ),
                "src/a.md:8:4: found an empty ```rust starter block; expected code the reader can see",
            ),
        ];
        for (text, want) in cases {
            assert_eq!(parsed(&text).unwrap_err(), want, "{text}");
        }
    }

    #[test]
    fn without_an_id_the_package_is_named_after_the_title() {
        for (title, want) in [
            ("Safe division", "safe-division"),
            ("A page size, checked once!", "a-page-size-checked-once"),
            ("2 + 2", "exercise-2-2"),
            ("Écrire", "crire"),
            ("!!!", "exercise"),
        ] {
            let text = GOOD
                .replace(" id=safe-division", "")
                .replace("Safe division", title);
            assert_eq!(parsed(&text).unwrap().package(), want, "{title}");
        }
    }

    #[test]
    fn inside_a_list_offsets_keep_the_indent() {
        let text = GOOD
            .lines()
            .enumerate()
            .map(|(i, l)| match (i, l.is_empty()) {
                (0..=1, _) => format!("{l}\n"),
                (2, _) => format!("- {l}\n"),
                (_, true) => "\n".to_owned(),
                _ => format!("  {l}\n"),
            })
            .collect::<String>();
        let ex = parsed(&text).unwrap();
        assert_eq!(&text[ex.solution.info_offset..][..13], "rust solution");
        let bad = text.replace("```rust tests", "```rust testz");
        assert_eq!(
            parsed(&bad).unwrap_err(),
            "src/a.md:14:6: found a ```rust testz block; expected one of ```rust starter, ```rust solution, ```rust tests and, optionally, ```hints"
        );
    }
}
