//! Languages as data: a language whose blocks are programs that commands
//! compile (or not) and run, described by a row rather than by code.
//! Python and Go are built-in rows; a book declares more under
//! `[preprocessor.companion.languages.NAME]`, and its sides get what a
//! C side gets (expected outcome, output blocks, recorded runs, the lock)
//! but sanitizers and assembly (a built-in row may say how its assembly
//! is made: Go's does).

use serde::Deserialize;
use serde_json::Value;

/// A language of programs, as a row of data.
#[derive(Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Language {
    /// The fence name (`go`), also the name reports use.
    pub name: &'static str,
    /// The name a reader sees (`Go`).
    pub label: &'static str,
    /// The file the block's program is written to (`main.go`).
    pub file: &'static str,
    /// The command that compiles it (`{file}`, `{dir}` and `{exe}`
    /// replaced); empty when nothing compiles it (then it only runs).
    pub compile: &'static [&'static str],
    /// The command that runs it.
    pub run: &'static [&'static str],
    /// The exit status a program stopped by an uncaught error (a panic,
    /// an exception) ends with, and a line its standard error then
    /// starts with: what `expect=panic` means.
    pub panic: Option<(i32, &'static str)>,
    /// Compiler Explorer's language and compiler ids, when it has the
    /// language.
    pub explorer: Option<(&'static str, &'static str)>,
    /// The highlight.js class of its code.
    pub highlight: &'static str,
    /// The key of book.toml that names its first command, for messages
    /// (`languages.js.run`); empty for a built-in row.
    pub key: &'static str,
    /// How its assembly panel is made, when it can be (a built-in row
    /// only).
    pub asm: Option<Assembler>,
}

/// How a language's assembly listing is made and read: what a side with
/// `asm` gets in its panel.
#[derive(Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Assembler {
    /// The command that compiles the program and prints its listing
    /// (placeholders as in [`Language::compile`]).
    pub command: &'static [&'static str],
    /// What the panel says made the listing (`go build -gcflags=-S`).
    pub shown_as: &'static str,
    /// Where the command prints the listing.
    pub stream: Stream,
    /// The word that opens a function's definition (`func`): the
    /// functions the shown code defines are the ones the panel keeps.
    pub defines: &'static str,
    /// How the listing reads.
    pub format: ListingFormat,
}

/// A process's output stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stream {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

/// The shape of an assembler listing a compiler prints, which decides
/// how it is filtered to the reader's functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ListingFormat {
    /// The Go compiler's `-S` listing: a `main.f STEXT …` line opens a
    /// function, then one instruction a line, `\t0x0000 00000
    /// (main.go:5)\tTEXT\tmain.f(SB), …`, jumps naming an offset; hex
    /// dumps and relocations after each function.
    Go,
}

/// Python 3: checked for syntax by `py_compile`, run by `python3`; an
/// uncaught exception is its panic.
pub const PYTHON: Language = Language {
    name: "python",
    label: "Python",
    file: "main.py",
    compile: &["python3", "-m", "py_compile", "{file}"],
    run: &["python3", "{file}"],
    panic: Some((1, "Traceback (most recent call last):")),
    explorer: None,
    highlight: "python",
    key: "",
    asm: None,
};

/// Go: one file built by `go build`, run as a program.
pub const GO: Language = Language {
    name: "go",
    label: "Go",
    file: "main.go",
    compile: &["go", "build", "-o", "{exe}", "{file}"],
    run: &["{exe}"],
    panic: Some((2, "panic: ")),
    // Compiler Explorer's gc 1.22 for x86-64.
    explorer: Some(("go", "gl1220")),
    highlight: "go",
    key: "",
    // `go build` prints the listing of the packages it is given on
    // standard error (and prints it again from its own cache), needing
    // nothing but the toolchain; `go tool compile -S` would need the
    // standard library's import configuration from Go 1.20 on.
    asm: Some(Assembler {
        command: &["go", "build", "-gcflags=-S", "-o", "{exe}", "{file}"],
        shown_as: "go build -gcflags=-S",
        stream: Stream::Stderr,
        defines: "func",
        format: ListingFormat::Go,
    }),
};

/// The built-in rows, in the order messages list them.
pub(crate) const BUILT_IN: [&Language; 2] = [&PYTHON, &GO];

/// The name a compiled program gets in its folder.
pub const EXE: &str = "prog";

impl Language {
    /// A command of the row with its placeholders replaced, for a program
    /// in `dir`.
    pub fn command(&self, words: &[&str], dir: &str) -> Vec<String> {
        words
            .iter()
            .map(|w| {
                w.replace("{file}", self.file)
                    .replace("{exe}", &format!("./{EXE}"))
                    .replace("{dir}", dir)
            })
            .collect()
    }

    /// The tool whose version decides the cache and the lock: the first
    /// word of the compile command, else of the run command.
    pub fn tool(&self) -> &'static str {
        self.compile
            .first()
            .or(self.run.first())
            .copied()
            .unwrap_or_default()
    }
}

/// One `[preprocessor.companion.languages.NAME]` table as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Declared {
    label: Option<String>,
    file: String,
    #[serde(default)]
    compile: Vec<String>,
    run: Vec<String>,
    panic_status: Option<i32>,
    panic_stderr: Option<String>,
    compiler_explorer_language: Option<String>,
    compiler_explorer_compiler: Option<String>,
    highlight: Option<String>,
}

/// The languages a book declares, from the `languages` table (`None`
/// when it has none), each made a row that lives as long as the process
/// (a book declares a handful; the same declaration read again is the
/// same row). An error names the key (`languages.js.run`) and what was
/// found and expected.
pub fn declared(table: Option<&Value>) -> Result<Vec<&'static Language>, (Vec<String>, String)> {
    let Some(table) = table else {
        return Ok(Vec::new());
    };
    let Some(map) = table.as_object() else {
        return Err((
            vec!["languages".into()],
            format!(
                "found `languages = {table}`; expected a table of languages, such as [preprocessor.companion.languages.js]"
            ),
        ));
    };
    let mut rows = Vec::new();
    for (name, value) in map {
        let at = |key: &str| {
            let mut path = vec!["languages".to_owned(), name.clone()];
            if !key.is_empty() {
                path.push(key.to_owned());
            }
            path
        };
        let reserved = ["rust", "c", "cpp", "asm", "output", "text"];
        if reserved.contains(&name.as_str()) || BUILT_IN.iter().any(|l| l.name == name) {
            return Err((
                at(""),
                format!(
                    "found a declaration of `{name}`, a language built in; expected a name of another language"
                ),
            ));
        }
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err((
                at(""),
                format!(
                    "found the language name `{name}`; expected a fence name of letters, digits, `-` and `_`"
                ),
            ));
        }
        let d: Declared =
            serde_json::from_value(value.clone()).map_err(|e| (at(""), e.to_string()))?;
        if d.run.is_empty() {
            return Err((at("run"), "found an empty `run`; expected the command that runs the program, such as [\"node\", \"{file}\"]".into()));
        }
        if d.file.is_empty() || d.file.contains('/') || d.file.starts_with('.') {
            return Err((
                at("file"),
                format!(
                    "found `file = {:?}`; expected a file name such as \"main.js\", without a folder",
                    d.file
                ),
            ));
        }
        rows.push(intern(Language {
            name: leak(name),
            label: leak(d.label.as_deref().unwrap_or(name)),
            file: leak(&d.file),
            compile: leak_all(&d.compile),
            run: leak_all(&d.run),
            panic: d
                .panic_status
                .map(|s| (s, leak(d.panic_stderr.as_deref().unwrap_or_default()))),
            explorer: d
                .compiler_explorer_language
                .as_deref()
                .zip(d.compiler_explorer_compiler.as_deref())
                .map(|(l, c)| (leak(l), leak(c))),
            highlight: leak(d.highlight.as_deref().unwrap_or(name)),
            key: leak(&format!(
                "languages.{name}.{}",
                if d.compile.is_empty() {
                    "run"
                } else {
                    "compile"
                }
            )),
            asm: None,
        }));
    }
    Ok(rows)
}

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_owned().into_boxed_str())
}

fn leak_all(words: &[String]) -> &'static [&'static str] {
    Box::leak(
        words
            .iter()
            .map(|w| leak(w))
            .collect::<Vec<_>>()
            .into_boxed_slice(),
    )
}

/// The row equal to `row` made before, else `row` kept for good: a book
/// read again (every build of `serve`) leaks nothing more.
fn intern(row: Language) -> &'static Language {
    use std::sync::Mutex;
    static ROWS: Mutex<Vec<&'static Language>> = Mutex::new(Vec::new());
    let mut rows = ROWS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(same) = rows.iter().find(|r| ***r == row) {
        return same;
    }
    let kept: &'static Language = Box::leak(Box::new(row));
    rows.push(kept);
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_get_the_file_and_program() {
        assert_eq!(
            GO.command(GO.compile, "/d"),
            ["go", "build", "-o", "./prog", "main.go"]
        );
        assert_eq!(PYTHON.command(PYTHON.run, "/d"), ["python3", "main.py"]);
        assert_eq!(GO.tool(), "go");
    }

    #[test]
    fn a_declared_language_is_one_row_however_often_read() {
        let table = serde_json::json!({ "js": { "file": "main.js", "run": ["node", "{file}"] } });
        let a = declared(Some(&table)).unwrap();
        let b = declared(Some(&table)).unwrap();
        assert!(std::ptr::eq(a[0], b[0]));
        assert_eq!((a[0].name, a[0].label, a[0].tool()), ("js", "js", "node"));
    }

    #[test]
    fn bad_declarations_name_their_key() {
        let bad = [
            (
                serde_json::json!({ "go": { "file": "x.go", "run": ["x"] } }),
                "languages.go",
                "a language built in",
            ),
            (
                serde_json::json!({ "js": { "file": "main.js", "run": [] } }),
                "languages.js.run",
                "expected the command",
            ),
            (
                serde_json::json!({ "js": { "file": "../x.js", "run": ["node"] } }),
                "languages.js.file",
                "without a folder",
            ),
            (
                serde_json::json!({ "js": { "file": "main.js", "run": ["node"], "colour": 1 } }),
                "languages.js",
                "unknown field `colour`",
            ),
        ];
        for (table, key, words) in bad {
            let (at, message) = declared(Some(&table)).unwrap_err();
            assert_eq!(at.join("."), key);
            assert!(message.contains(words), "{message}");
        }
    }
}
