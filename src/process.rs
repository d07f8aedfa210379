//! The chapter layer: scan a chapter, render its directives, splice the
//! replacements, and turn byte offsets into `file:line:column` messages.
//!
//! The book is handled as JSON ([`serde_json::Value`]) so that mdBook 0.4
//! and 0.5 input, and the in-process path, share one walk; every field we do
//! not touch goes back out as it came in. Chapters are independent, so they
//! are processed in parallel.

use crate::cache::Cache;
use crate::check;
use crate::config::{Config, OnFailure};
use crate::directive::{self, Env, Problem, Target};
use crate::markdown;
use rayon::prelude::*;
use serde_json::Value;
use std::fmt;
use std::ops::Range;

/// A message located in a chapter: `src/intro.md:12:5: …`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// The chapter's file, relative to the book root (`src/intro.md`).
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// What was found and what was expected.
    pub message: String,
}

impl fmt::Display for Located {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.column, self.message
        )
    }
}

impl Located {
    fn new(file: &str, text: &str, p: &Problem) -> Located {
        let (line, column) = markdown::line_col(text, p.offset);
        match &p.file {
            None => Located {
                file: file.to_owned(),
                line,
                column,
                message: p.message.clone(),
            },
            Some(at) => Located {
                file: at.path.clone(),
                line: at.line,
                column: at.column,
                message: format!("{} (asked for by {file}:{line}:{column})", p.message),
            },
        }
    }
}

/// What processing one chapter gave.
#[derive(Debug, Default)]
pub struct ChapterOutcome {
    /// The new text, or `None` when the chapter has no directive.
    pub text: Option<String>,
    /// Warnings to log.
    pub warnings: Vec<Located>,
    /// Errors that fail the build (`on-failure = "bail"`).
    pub errors: Vec<Located>,
    /// How many directives the chapter has.
    pub directives: usize,
    /// Blocks `verify` could not check because their compiler could not be
    /// run, in chapter order: [`book`] reports them once per compiler for
    /// the whole book ([`missing_compilers`]), not once per block.
    pub unchecked: Vec<Unchecked>,
}

/// A block `verify` left unchecked, or whose assembly is not shown,
/// because its compiler could not be run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unchecked {
    /// The compiler command that could not be run.
    pub tool: String,
    /// The `[preprocessor.companion]` key naming it: `rustc` or `cc`.
    pub key: &'static str,
    /// What the block needed the compiler for.
    pub need: Need,
    /// The block.
    pub at: Located,
}

/// What a block needed a compiler for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// `verify`: checking its claim (fails the build under `bail`).
    Check,
    /// `asm`: its assembly panel (always a warning: the page keeps its
    /// links).
    Assembly,
}

/// One message per missing compiler (and config key), located at the
/// first block that needed it and saying how many blocks went unchecked.
pub fn missing_compilers(unchecked: &[Unchecked]) -> Vec<Located> {
    let mut groups: Vec<(&Unchecked, usize)> = Vec::new();
    for u in unchecked {
        match groups.iter_mut().find(|(first, _)| {
            (first.tool.as_str(), first.key, first.need) == (u.tool.as_str(), u.key, u.need)
        }) {
            Some((_, n)) => *n += 1,
            None => groups.push((u, 1)),
        }
    }
    groups
        .into_iter()
        .map(|(first, n)| {
            let (blocks, were) = match n {
                1 => ("1 block".to_owned(), "was"),
                n => (format!("{n} blocks"), "were"),
            };
            let what = match first.need {
                Need::Check => format!("{blocks} {were} not checked"),
                Need::Assembly => format!("the assembly of {blocks} is not shown"),
            };
            Located {
                message: format!(
                    "the compiler `{}` could not be run, so {what} (the first is here); set `{}` in [preprocessor.companion] to a compiler that runs",
                    first.tool, first.key
                ),
                ..first.at.clone()
            }
        })
        .collect()
}

/// The replacements of one chapter's directives, as `(range, text)` pairs
/// sorted by position: the heart of the preprocessor as a pure function.
pub fn replacements(
    config: &Config,
    cache: &Cache,
    target: Target,
    file: &str,
    text: &str,
) -> (Vec<(Range<usize>, String)>, ChapterOutcome) {
    let mut outcome = ChapterOutcome::default();
    let blocks = match markdown::try_scan(text) {
        Ok(blocks) => blocks,
        Err(message) => {
            let located = Located {
                file: file.to_owned(),
                line: 1,
                column: 1,
                message,
            };
            match config.on_failure {
                OnFailure::Bail => outcome.errors.push(located),
                OnFailure::Continue => outcome.warnings.push(located),
            }
            return (Vec::new(), outcome);
        }
    };
    let env = Env {
        config,
        target,
        text,
        file,
        cache,
    };
    outcome.directives = blocks.len();
    let mut outs = Vec::with_capacity(blocks.len());
    let mut rendered_ok = Vec::new();
    for block in &blocks {
        let out = match directive::render(block, &env) {
            Ok(r) => {
                outcome
                    .warnings
                    .extend(r.warnings.iter().map(|w| Located::new(file, text, w)));
                outcome.unchecked.extend(r.missing.into_iter().map(|m| {
                    let at = Located::new(file, text, &Problem::at(m.offset, String::new()));
                    Unchecked {
                        tool: m.tool,
                        key: m.key,
                        need: Need::Assembly,
                        at,
                    }
                }));
                rendered_ok.push(outs.len());
                r.out
            }
            Err(p) => {
                let located = Located::new(file, text, &p);
                let out = directive::error_box(
                    block,
                    &env,
                    &format!("{}:{}:{}", located.file, located.line, located.column),
                    &located.message,
                );
                match config.on_failure {
                    OnFailure::Bail => outcome.errors.push(located),
                    OnFailure::Continue => outcome.warnings.push(located),
                }
                out
            }
        };
        outs.push(out);
    }
    if config.verify && target == Target::Html {
        verify(
            config,
            file,
            text,
            &blocks,
            &rendered_ok,
            &mut outs,
            &mut outcome,
        );
    }
    let reps = blocks
        .iter()
        .zip(&outs)
        .map(|(block, out)| {
            (
                block.range.clone(),
                markdown::materialize(text, &block.range, out),
            )
        })
        .collect();
    (reps, outcome)
}

/// `verify = true`: checks the claims of the directives that rendered
/// (from the cache when unchanged); a false claim fails the build or, under
/// `on-failure = "continue"`, is warned about and marked on the page above
/// its block.
fn verify(
    config: &Config,
    file: &str,
    text: &str,
    blocks: &[markdown::Block],
    rendered_ok: &[usize],
    outs: &mut [markdown::Out],
    outcome: &mut ChapterOutcome,
) {
    let mut claims = Vec::new();
    for &i in rendered_ok {
        if let Ok(c) = check::book::block_claims(&blocks[i], config, file, text) {
            claims.extend(c.into_iter().map(|c| (i, c)));
        }
    }
    if claims.is_empty() {
        return;
    }
    let checker = check::Checker::new(config);
    let only: Vec<check::Claim> = claims.iter().map(|(_, c)| c.clone()).collect();
    let results = checker.check_all(&only);
    // The marks of a block's false claims, in the block's order.
    let mut marks: std::collections::BTreeMap<usize, Vec<String>> = Default::default();
    for ((i, claim), result) in claims.iter().zip(results) {
        if !result.verdict.is_failure() {
            continue;
        }
        let full = result.verdict.to_string();
        let short = full.lines().next().unwrap_or_default().to_owned();
        let how = match result.verdict {
            check::Verdict::Unchecked { .. } => "was not checked",
            _ => "does not hold",
        };
        let head = format!("{} (expect={}) {how}", claim.what, claim.expect.name());
        let problem = Problem::at(claim.offset, format!("{head}: {full}"));
        let located = Located::new(file, text, &problem);
        // A missing compiler is reported once for the book, not per block.
        let missing = match &result.verdict {
            check::Verdict::Unchecked { tool } => Some(Unchecked {
                tool: tool.clone(),
                key: claim.lang.config_key(),
                need: Need::Check,
                at: located.clone(),
            }),
            _ => None,
        };
        match config.on_failure {
            OnFailure::Bail => match missing {
                Some(m) => outcome.unchecked.push(m),
                None => outcome.errors.push(located),
            },
            OnFailure::Continue => {
                marks.entry(*i).or_default().push(format!(
                    "<div class=\"companion-error companion-verify\" role=\"alert\"><strong>mdbook-companion:</strong> <code>{}:{}:{}</code> {}: {}</div>",
                    directive::escape(&located.file),
                    located.line,
                    located.column,
                    directive::escape(&head),
                    directive::escape(&short)
                ));
                match missing {
                    Some(m) => outcome.unchecked.push(m),
                    None => outcome.warnings.push(located),
                }
            }
        }
    }
    for (i, lines) in marks {
        let mut marked = markdown::Out::new();
        for line in lines {
            marked.line(line);
        }
        marked.append(std::mem::take(&mut outs[i]));
        outs[i] = marked;
    }
}

/// Processes one chapter's text.
pub fn chapter(
    config: &Config,
    cache: &Cache,
    target: Target,
    file: &str,
    text: &str,
) -> ChapterOutcome {
    let (reps, mut outcome) = replacements(config, cache, target, file, text);
    if !reps.is_empty() && outcome.errors.is_empty() {
        outcome.text = Some(markdown::splice(text, &reps));
    }
    outcome
}

/// A chapter's content in the book, with the file it came from.
#[derive(Debug)]
pub struct Slot<'a> {
    /// The chapter's text, replaced in place.
    pub content: &'a mut String,
    /// The chapter's file as messages name it (`src/intro.md`).
    pub file: String,
}

/// The file messages name for a chapter: its source path under `src`, else
/// its path, else its name.
pub fn chapter_file(
    src: &str,
    source_path: Option<&str>,
    path: Option<&str>,
    name: Option<&str>,
) -> String {
    source_path
        .or(path)
        .map(|p| format!("{src}/{p}"))
        .or_else(|| name.map(|n| format!("chapter \"{n}\"")))
        .unwrap_or_else(|| "chapter".to_owned())
}

/// The book's `src` as chapter file names start (forward slashes).
pub fn src_prefix(config: &Config) -> String {
    config.src.to_string_lossy().replace('\\', "/")
}

/// Collects every chapter of an `items` / `sections` array, depth first.
fn collect<'a>(items: &'a mut Value, src: &str, slots: &mut Vec<Slot<'a>>) {
    let Value::Array(items) = items else { return };
    for item in items {
        let Some(Value::Object(ch)) = item.get_mut("Chapter") else {
            continue;
        };
        let text = |key: &str| ch.get(key).and_then(Value::as_str);
        let file = chapter_file(src, text("source_path"), text("path"), text("name"));
        let mut content = None;
        let mut subs = None;
        for (k, v) in ch.iter_mut() {
            match (k.as_str(), v) {
                ("content", Value::String(s)) => content = Some(s),
                ("sub_items", v) => subs = Some(v),
                _ => {}
            }
        }
        if let Some(content) = content {
            slots.push(Slot { content, file });
        }
        if let Some(subs) = subs {
            collect(subs, src, slots);
        }
    }
}

/// The result of processing a whole book.
#[derive(Debug, Default)]
pub struct BookOutcome {
    /// Warnings, in chapter order.
    pub warnings: Vec<Located>,
    /// Errors, in chapter order; the book is left unchanged when any.
    pub errors: Vec<Located>,
    /// Book-wide warnings (such as a missing stylesheet).
    pub notes: Vec<String>,
}

/// Processes every chapter of a book given as JSON (`{"items": …}` or
/// `{"sections": …}`), in place.
pub fn book(config: &Config, target: Target, book: &mut Value) -> BookOutcome {
    let src = src_prefix(config);
    let mut slots = Vec::new();
    if let Value::Object(map) = book {
        for (k, v) in map.iter_mut() {
            if k == "items" || k == "sections" {
                collect(v, &src, &mut slots);
            }
        }
    }
    chapters(config, target, slots)
}

/// Processes the chapters of a book, in parallel, and gathers what they
/// report in book order.
pub fn chapters(config: &Config, target: Target, slots: Vec<Slot<'_>>) -> BookOutcome {
    let cache = Cache::for_book(&config.root);
    let memo = crate::memo::Memo::new(config, target);
    let outcomes: Vec<ChapterOutcome> = slots
        .par_iter()
        .map(|s| match &memo {
            Some(memo) => memo.chapter(config, &cache, target, &s.file, s.content),
            None => chapter(config, &cache, target, &s.file, s.content),
        })
        .collect();
    let mut result = BookOutcome::default();
    let mut directives = 0;
    let mut unchecked = Vec::new();
    for (slot, outcome) in slots.into_iter().zip(outcomes) {
        if let Some(text) = outcome.text {
            *slot.content = text;
        }
        directives += outcome.directives;
        result.warnings.extend(outcome.warnings);
        result.errors.extend(outcome.errors);
        unchecked.extend(outcome.unchecked);
    }
    // Chapters ran in parallel; their unchecked blocks are gathered here in
    // book order, so each missing compiler is reported once per build.
    let (checks, panels): (Vec<Unchecked>, Vec<Unchecked>) =
        unchecked.into_iter().partition(|u| u.need == Need::Check);
    match config.on_failure {
        OnFailure::Bail => result.errors.extend(missing_compilers(&checks)),
        OnFailure::Continue => result.warnings.extend(missing_compilers(&checks)),
    }
    result.warnings.extend(missing_compilers(&panels));
    if directives > 0 && target == Target::Html {
        result.notes.extend(crate::assets::stylesheet_warning(
            &config.root,
            &config.additional_css,
        ));
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use serde_json::json;
    use std::path::PathBuf;

    fn config(table: Value) -> Config {
        Config::from_json(
            PathBuf::from("/b"),
            &json!({"preprocessor": {"companion": table}}),
        )
        .unwrap()
    }

    #[test]
    fn text_outside_directives_is_unchanged() {
        let text = "# Title\r\n\r\nSome *text* with `code`.\r\n\r\n```rust example\r\nfn main() {}\r\n```\r\n\r\n| a | b |\r\n|---|---|\r\n";
        let out = chapter(
            &config(json!({})),
            &Cache::disabled(),
            Target::Html,
            "src/a.md",
            text,
        );
        let new = out.text.unwrap();
        assert!(new.starts_with("# Title\r\n\r\nSome *text* with `code`.\r\n\r\n<div"));
        assert!(new.ends_with("</div>\r\n\r\n| a | b |\r\n|---|---|\r\n"));
    }

    #[test]
    fn chapters_without_directives_are_left_alone() {
        let out = chapter(
            &config(json!({})),
            &Cache::disabled(),
            Target::Html,
            "src/a.md",
            "```rust\nfn main() {}\n```\n",
        );
        assert!(out.text.is_none() && out.errors.is_empty());
    }

    #[test]
    fn bail_reports_located_errors_and_keeps_the_text() {
        let text = "Intro\n\n```rust example bogus\nfn main() {}\n```\n";
        let out = chapter(
            &config(json!({})),
            &Cache::disabled(),
            Target::Html,
            "src/a.md",
            text,
        );
        assert!(out.text.is_none());
        assert_eq!(
            out.errors[0].to_string(),
            format!(
                "src/a.md:3:17: found unknown attribute `bogus`; expected one of {}",
                directive::example::KNOWN
            )
        );
    }

    #[test]
    fn continue_renders_an_error_box_and_warns() {
        let text = "```rust example bogus\nfn main() {}\n```\n";
        let out = chapter(
            &config(json!({"on-failure": "continue"})),
            &Cache::disabled(),
            Target::Html,
            "src/a.md",
            text,
        );
        assert!(out.errors.is_empty());
        assert_eq!(out.warnings.len(), 1);
        let new = out.text.unwrap();
        assert!(
            new.starts_with("<div class=\"companion-error\" role=\"alert\">"),
            "{new}"
        );
        assert!(
            new.contains("<code>src/a.md:1:17</code> found unknown attribute `bogus`"),
            "{new}"
        );
        assert!(new.contains("```rust\nfn main() {}\n```"), "{new}");
    }

    #[test]
    fn book_walk_reaches_nested_chapters_and_keeps_other_items() {
        let mut b = json!({"items": [
            {"PartTitle": "Part"},
            {"Chapter": {"name": "A", "content": "```rust example\nfn main() {}\n```\n", "number": [1],
                "sub_items": [{"Chapter": {"name": "B", "content": "```rust example nope\nfn main() {}\n```\n",
                    "number": [1, 1], "sub_items": [], "path": "b.md", "source_path": "b.md", "parent_names": ["A"]}}],
                "path": "a.md", "source_path": "a.md", "parent_names": []}},
            "Separator",
            {"Chapter": {"name": "Draft", "content": "", "number": null, "sub_items": [], "path": null,
                "source_path": null, "parent_names": []}}
        ]});
        let before = b.clone();
        let out = book(&config(json!({})), Target::Html, &mut b);
        assert_eq!(out.errors.len(), 1);
        assert!(
            out.errors[0]
                .to_string()
                .starts_with("src/b.md:1:17: found unknown attribute `nope`")
        );
        assert_eq!(b["items"][0], before["items"][0]);
        assert_eq!(b["items"][2], before["items"][2]);
        assert_eq!(b["items"][3], before["items"][3]);
        assert!(
            b["items"][1]["Chapter"]["content"]
                .as_str()
                .unwrap()
                .starts_with("<div class=\"companion-example")
        );
    }

    #[test]
    fn a_missing_compiler_is_one_message_per_tool_at_its_first_block() {
        let at = |file: &str, line| Located {
            file: file.to_owned(),
            line,
            column: 4,
            message: "was not checked".to_owned(),
        };
        let u = |tool: &str, key, need, file, line| Unchecked {
            tool: tool.to_owned(),
            key,
            need,
            at: at(file, line),
        };
        let got: Vec<String> = missing_compilers(&[
            u("/no/cc", "cc", Need::Check, "src/a.md", 3),
            u("/no/rustc", "rustc", Need::Check, "src/a.md", 9),
            u("/no/cc", "cc", Need::Assembly, "src/a.md", 10),
            u("/no/cc", "cc", Need::Check, "src/a.md", 12),
            u("/no/cc", "cc", Need::Check, "src/b.md", 3),
            u("/no/cc", "cc", Need::Assembly, "src/b.md", 7),
        ])
        .iter()
        .map(Located::to_string)
        .collect();
        assert_eq!(
            got,
            [
                "src/a.md:3:4: the compiler `/no/cc` could not be run, so 3 blocks were not checked (the first is here); set `cc` in [preprocessor.companion] to a compiler that runs",
                "src/a.md:9:4: the compiler `/no/rustc` could not be run, so 1 block was not checked (the first is here); set `rustc` in [preprocessor.companion] to a compiler that runs",
                "src/a.md:10:4: the compiler `/no/cc` could not be run, so the assembly of 2 blocks is not shown (the first is here); set `cc` in [preprocessor.companion] to a compiler that runs",
            ]
        );
        assert!(missing_compilers(&[]).is_empty());
    }

    #[test]
    fn verify_reports_a_missing_rustc_once_across_chapters() {
        let chapter = |name: &str| {
            json!({"Chapter": {"name": name, "content": "```rust example\nfn main() {}\n```\n\n```rust example\nfn main() {}\n```\n",
                "number": null, "sub_items": [], "path": format!("{name}.md"), "source_path": format!("{name}.md"), "parent_names": []}})
        };
        for (on_failure, marks) in [("bail", 0), ("continue", 2)] {
            let mut b = json!({"items": [chapter("a"), chapter("b")]});
            let cfg = config(
                json!({"verify": true, "rustc": "/nonexistent/rustc", "on-failure": on_failure}),
            );
            let out = book(&cfg, Target::Html, &mut b);
            let (reported, other) = match on_failure {
                "bail" => (&out.errors, &out.warnings),
                _ => (&out.warnings, &out.errors),
            };
            assert!(other.is_empty(), "{other:?}");
            assert_eq!(
                reported.iter().map(Located::to_string).collect::<Vec<_>>(),
                [
                    "src/a.md:1:4: the compiler `/nonexistent/rustc` could not be run, so 4 blocks were not checked (the first is here); set `rustc` in [preprocessor.companion] to a compiler that runs"
                ],
                "{on_failure}"
            );
            let page = b["items"][1]["Chapter"]["content"].as_str().unwrap();
            assert_eq!(page.matches("companion-verify").count(), marks, "{page}");
        }
    }
}
