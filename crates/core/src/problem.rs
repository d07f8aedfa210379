//! Problems and where they are: a directive reports a [`Problem`] at a
//! byte offset of its chapter; the book layer turns it into a [`Located`]
//! message, `src/intro.md:12:5: found …; expected …`. A compiler that
//! could not be run is one [`MissingTool`] event, whoever met it (`asm`,
//! `verify`, `check`), told with the same words everywhere. A data file's
//! reader (a reading list, talks, an mdbook-quiz file) reports a
//! [`Fault`] at a byte offset of the file's text, which the directive
//! places in the file.

use crate::markdown;
use crate::offsets::LineIndex;

/// A problem at a byte offset of the chapter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Byte offset in the chapter.
    pub offset: usize,
    /// What was found and what was expected.
    pub message: String,
    /// Where the problem is when it lies in another file the directive
    /// read (a data file): the message then names that file and the
    /// chapter's `offset` becomes "asked for by".
    pub file: Option<FileLocation>,
}

/// A problem at a byte offset of a data file's text (what its reader
/// found and expected), before it is placed in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    /// Byte offset in the file's text.
    pub offset: usize,
    /// What was found and what was expected.
    pub message: String,
}

impl Fault {
    /// A fault at `offset` of the text.
    pub fn at(offset: usize, message: impl Into<String>) -> Fault {
        Fault {
            offset,
            message: message.into(),
        }
    }
}

/// A place in a file other than the chapter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileLocation {
    /// The file as shown to the author, relative to the book root.
    pub path: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

impl Problem {
    /// A problem at `offset`.
    pub fn at(offset: usize, message: impl Into<String>) -> Problem {
        Problem {
            offset,
            message: message.into(),
            file: None,
        }
    }

    /// A problem in another file (`location`), found while rendering the
    /// directive at `offset` of the chapter.
    pub fn in_file(offset: usize, location: FileLocation, message: impl Into<String>) -> Problem {
        Problem {
            offset,
            message: message.into(),
            file: Some(location),
        }
    }

    /// An attribute syntax error of `fence`'s info string.
    pub fn from_attr(fence: &markdown::Fence, e: crate::attrs::AttrError) -> Problem {
        Problem::at(fence.info_offset + e.offset, e.message)
    }
}

/// A message located in a chapter: `src/intro.md:12:5: …`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {message}")]
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

impl Located {
    /// `problem`, found in the chapter `file` whose text is `text`.
    pub fn new(file: &str, text: &str, problem: &Problem) -> Located {
        Located::placed(file, markdown::line_col(text, problem.offset), problem)
    }

    /// [`Located::new`] through the text's line starts, found once
    /// (`index`, of `text`): a chapter with a problem in each of many
    /// blocks does not count lines from its start for each.
    pub fn indexed(file: &str, text: &str, index: &LineIndex, problem: &Problem) -> Located {
        Located::placed(file, index.line_col(text, problem.offset), problem)
    }

    /// `problem` at `(line, column)` of the chapter `file`.
    fn placed(file: &str, (line, column): (usize, usize), problem: &Problem) -> Located {
        match &problem.file {
            None => Located {
                file: file.to_owned(),
                line,
                column,
                message: problem.message.clone(),
            },
            Some(at) => Located {
                file: at.path.clone(),
                line: at.line,
                column: at.column,
                message: format!("{} (asked for by {file}:{line}:{column})", problem.message),
            },
        }
    }

    /// The chapter file that asked for the data file this problem is in
    /// (the `asked for by` that [`Located::new`] writes); `None` for a
    /// problem in a chapter.
    pub fn asked_for_by(&self) -> Option<&str> {
        let (_, at) = self.message.rsplit_once(" (asked for by ")?;
        let place = at.strip_suffix(')')?;
        // `file:line:column`: the file is what comes before the last two.
        let mut parts = place.rsplitn(3, ':');
        let (_column, _line) = (parts.next()?, parts.next()?);
        parts.next()
    }

    /// `file:line:column`, as error boxes show it.
    pub fn place(&self) -> String {
        format!("{}:{}:{}", self.file, self.line, self.column)
    }
}

/// What a block needed a compiler for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Purpose {
    /// `verify` and `check`: checking its claim.
    Check,
    /// `asm`: its assembly panel (always a warning: the page keeps its
    /// links).
    Assembly,
}

/// A compiler a block needed and could not run, at `at`: a chapter
/// offset where a directive meets it, a [`Located`] place once the book
/// layer has placed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingTool<At = usize> {
    /// The command that could not be run.
    pub tool: String,
    /// The `[preprocessor.companion]` key naming it: `rustc` or `cc`.
    pub key: &'static str,
    /// What the block needed it for.
    pub purpose: Purpose,
    /// Where the block is.
    pub at: At,
}

impl<At> MissingTool<At> {
    /// The same event at another resolution of place.
    pub fn at<B>(self, at: B) -> MissingTool<B> {
        MissingTool {
            tool: self.tool,
            key: self.key,
            purpose: self.purpose,
            at,
        }
    }

    /// "the compiler `cc` could not be run"
    pub fn cannot_run(&self) -> String {
        cannot_run(&self.tool, self.key)
    }

    /// What to do about it: the one key to set.
    pub fn remedy(&self) -> String {
        if self.key == "valgrind" {
            return "install Valgrind (`apt-get install valgrind`), or set `valgrind` in [preprocessor.companion] to its path".to_owned();
        }
        if is_runtime(&self.tool) {
            return format!(
                "install `{}` for the C compiler, or set `{}` in [preprocessor.companion] to a compiler that has it",
                self.tool, self.key
            );
        }
        if self.key.is_empty() {
            return format!("install `{}`, or put it on the PATH", self.tool);
        }
        if self.key.starts_with("languages.") {
            return format!(
                "install `{}`, or set `{}` in [preprocessor.companion] to a command that runs",
                self.tool, self.key
            );
        }
        format!(
            "set `{}` in [preprocessor.companion] to a compiler that runs",
            self.key
        )
    }
}

/// A sanitizer's runtime library (`libtsan`), as a missing tool names it.
fn is_runtime(tool: &str) -> bool {
    ["libasan", "libtsan", "libubsan", "liblsan"].contains(&tool)
}

/// What could not be run, in words: "the compiler `cc` could not be run",
/// "the checker `valgrind` could not be run", "the sanitizer runtime
/// `libtsan` could not be run"; `key` is the `[preprocessor.companion]` key
/// that names it.
pub fn cannot_run(tool: &str, key: &str) -> String {
    let what = match key {
        "valgrind" => "the checker",
        _ if is_runtime(tool) => "the sanitizer runtime",
        k if k.starts_with("languages.") => "the command",
        _ => "the compiler",
    };
    format!("{what} `{tool}` could not be run")
}

/// "1 block" / "3 blocks".
pub fn blocks(n: usize) -> String {
    match n {
        1 => "1 block".to_owned(),
        n => format!("{n} blocks"),
    }
}

/// One message per missing compiler (and config key, and need), located at
/// the first block that needed it and saying how many blocks it left
/// unchecked or without assembly.
pub fn missing_compilers(missing: &[MissingTool<Located>]) -> Vec<Located> {
    let mut groups: Vec<(&MissingTool<Located>, usize)> = Vec::new();
    for m in missing {
        match groups.iter_mut().find(|(first, _)| {
            (first.tool.as_str(), first.key, first.purpose) == (m.tool.as_str(), m.key, m.purpose)
        }) {
            Some((_, n)) => *n += 1,
            None => groups.push((m, 1)),
        }
    }
    groups
        .into_iter()
        .map(|(first, n)| {
            let were = if n == 1 { "was" } else { "were" };
            let what = match first.purpose {
                Purpose::Check => format!("{} {were} not checked", blocks(n)),
                Purpose::Assembly => format!("the assembly of {} is not shown", blocks(n)),
            };
            Located {
                message: format!(
                    "{}, so {what} (the first is here); {}",
                    first.cannot_run(),
                    first.remedy()
                ),
                ..first.at.clone()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_compiler_is_one_message_per_tool_at_its_first_block() {
        let at = |file: &str, line| Located {
            file: file.to_owned(),
            line,
            column: 4,
            message: "was not checked".to_owned(),
        };
        let u = |tool: &str, key, need, file, line| MissingTool {
            tool: tool.to_owned(),
            key,
            purpose: need,
            at: at(file, line),
        };
        let got: Vec<String> = missing_compilers(&[
            u("/no/cc", "cc", Purpose::Check, "src/a.md", 3),
            u("/no/rustc", "rustc", Purpose::Check, "src/a.md", 9),
            u("/no/cc", "cc", Purpose::Assembly, "src/a.md", 10),
            u("/no/cc", "cc", Purpose::Check, "src/a.md", 12),
            u("/no/cc", "cc", Purpose::Check, "src/b.md", 3),
            u("/no/cc", "cc", Purpose::Assembly, "src/b.md", 7),
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
    fn a_problem_in_a_data_file_names_the_chapter_that_asked() {
        let text = "one\ntwo three\n";
        let p = Problem::in_file(
            8,
            FileLocation {
                path: "src/data.toml".into(),
                line: 4,
                column: 2,
            },
            "found x; expected y",
        );
        assert_eq!(
            Located::new("src/a.md", text, &p).to_string(),
            "src/data.toml:4:2: found x; expected y (asked for by src/a.md:2:5)"
        );
        assert_eq!(
            Located::new("src/a.md", text, &p).asked_for_by(),
            Some("src/a.md")
        );
        let in_chapter = Problem::at(8, "found x; expected y");
        assert_eq!(
            Located::new("src/a.md", text, &in_chapter).asked_for_by(),
            None
        );
    }
}
