//! What the build saw a program do, kept for the reader's Run button: the
//! recorded run of an example whose verdict the build knows (from the
//! cache or `companion.lock`), and the Run button's description on the
//! page. The button (`run.js`) shows the recording on unedited code with
//! no request to any server.

use crate::config::RunMode;
use crate::escape::escape;
use crate::lines::ProgramLines;
use serde::{Deserialize, Serialize};

/// Bytes of each stream a page carries; a longer one is cut, and says so.
pub const PAGE_LIMIT: usize = 16 * 1024;

/// A program's run as the build recorded it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedRun {
    /// It compiled (else `stderr` holds the compiler's error).
    pub compiled: bool,
    /// What the program wrote to standard output.
    pub stdout: String,
    /// What it wrote to standard error (a panic message, `dbg!`), or the
    /// compiler's diagnostics when it did not compile.
    pub stderr: String,
    /// The compiler's version that made it (`rustc 1.95.0`).
    pub toolchain: String,
    /// How a C or C++ program ended (`exited with code 1`, `was killed
    /// by a signal`); none for Rust, whose panic says it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// The report of the checker that watched a C or C++ program
    /// (a sanitizer, Memcheck), from its own log: the report itself, with
    /// process ids, addresses, thread ids and temporary paths written
    /// `…` so that every check records the same text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report: Option<String>,
}

impl RecordedRun {
    /// The run for the page: its standard error (diagnostics, a panic
    /// message) told in the lines of the program as the page shows it
    /// when `lines` says where they stand ([`ProgramLines::as_shown`]:
    /// `src/main.rs:3:16`, not the chapter's `src/c.md:41:16`), and each
    /// stream cut to [`PAGE_LIMIT`] bytes (on a character boundary).
    pub fn for_page(&self, lines: Option<&ProgramLines>) -> RecordedRun {
        let stderr = match lines {
            Some(lines) => lines.as_shown(&self.stderr),
            None => self.stderr.clone(),
        };
        RecordedRun {
            stdout: cut(&self.stdout),
            stderr: cut(&stderr),
            report: self.report.as_deref().map(cut),
            ..self.clone()
        }
    }
}

fn cut(text: &str) -> String {
    if text.len() <= PAGE_LIMIT {
        return text.to_owned();
    }
    let mut end = PAGE_LIMIT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!(
        "{}\n[… {} more bytes not shown]\n",
        &text[..end],
        text.len() - end
    )
}

/// What a frame's Run button does: the book's mode, where edited code
/// runs, how it is compiled, and what the build recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RunButton<'a> {
    /// `auto` or `recorded` (`playground` leaves the block to mdBook).
    pub mode: &'static str,
    /// The Playground that runs edited code (`auto` only; none when the
    /// book names none, or the code needs crates it does not offer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub playground: Option<&'a str>,
    /// Why edited code cannot go to the Playground although the book
    /// names one: the crates it needs that the Playground does not offer
    /// (`` `mylib` ``).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub needs: Option<String>,
    /// The Rust edition.
    pub edition: u16,
    /// Compiled with optimisations (`mode=release`).
    pub release: bool,
    /// The recorded run, when the build knows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recorded: Option<RecordedRun>,
    /// Code the page does not show that Run joins to the reader's, as
    /// `[above, below]`: an exercise's tests and their runner, which
    /// mdBook's editor would show ([`RunButton::joined`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub join: Option<[String; 2]>,
}

impl<'a> RunButton<'a> {
    /// The button of a frame in a book whose `run` is `mode`, or `None`
    /// when mdBook's own button stays (`run = "playground"`) or the
    /// button could do nothing (nothing recorded and no Playground).
    /// `needs` names the crates the code needs that the Playground does
    /// not offer, if any: then edited code cannot go there. `lines` says
    /// where the program's lines stand in the author's file, in which
    /// the recording tells its places: the page tells them as the reader
    /// counts the program's lines ([`RecordedRun::for_page`]).
    pub fn new(
        mode: RunMode,
        playground: Option<&'a str>,
        needs: Option<String>,
        edition: u16,
        release: bool,
        recorded: Option<&RecordedRun>,
        lines: Option<&ProgramLines>,
    ) -> Option<RunButton<'a>> {
        let (playground, needs) = match mode {
            RunMode::Playground => return None,
            RunMode::Recorded => (None, None),
            RunMode::Auto if playground.is_some() && needs.is_some() => (None, needs),
            RunMode::Auto => (playground, None),
        };
        if playground.is_none() && recorded.is_none() {
            return None;
        }
        Some(RunButton {
            mode: mode.name(),
            playground,
            needs,
            edition,
            release,
            recorded: recorded.map(|r| r.for_page(lines)),
            join: None,
        })
    }

    /// The button that runs the reader's code with `above` before it and
    /// `below` after it (`run.js` joins them when the reader presses Run:
    /// the editor holds the reader's part only).
    pub fn joined(self, above: String, below: String) -> RunButton<'a> {
        RunButton {
            join: Some([above, below]),
            ..self
        }
    }

    /// The attribute the frame carries: ` data-companion-run="…"`, JSON
    /// escaped for a quoted attribute (no raw newline, so the HTML block
    /// stays one block).
    pub fn attribute(&self) -> String {
        let json = serde_json::to_string(self).unwrap_or_default();
        format!(" data-companion-run=\"{}\"", escape(&json))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run() -> RecordedRun {
        RecordedRun {
            compiled: true,
            stdout: "<b>\"hi\" & 'bye'</b>\n\nline".into(),
            stderr: "thread 'main' panicked\n".into(),
            toolchain: "rustc 1.95.0".into(),
            status: None,
            report: None,
        }
    }

    #[test]
    fn the_attribute_is_escaped_json_on_one_line() {
        let b = RunButton::new(
            RunMode::Auto,
            Some("https://play.example.org/"),
            None,
            2021,
            false,
            Some(&run()),
            None,
        )
        .unwrap();
        let attr = b.attribute();
        assert!(!attr.contains('\n') && !attr.contains('<'), "{attr}");
        assert_eq!(attr.matches('"').count(), 2, "{attr}");
        let value = attr
            .strip_prefix(" data-companion-run=\"")
            .and_then(|a| a.strip_suffix('"'))
            .unwrap();
        let json = html_escape::decode_html_entities(value);
        let back: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(back["mode"], "auto");
        assert_eq!(back["playground"], "https://play.example.org/");
        assert_eq!(back["recorded"]["stdout"], run().stdout);
        assert_eq!(back["recorded"]["toolchain"], "rustc 1.95.0");
    }

    #[test]
    fn modes_decide_what_the_button_may_do() {
        let url = Some("https://play.rust-lang.org/");
        let button = |mode, url, needs: Option<&str>, rec: Option<&RecordedRun>| {
            RunButton::new(mode, url, needs.map(str::to_owned), 2021, false, rec, None)
        };
        assert_eq!(button(RunMode::Playground, url, None, Some(&run())), None);
        let recorded = button(RunMode::Recorded, url, None, Some(&run())).unwrap();
        assert_eq!(recorded.playground, None);
        assert_eq!(button(RunMode::Recorded, url, None, None), None);
        assert_eq!(button(RunMode::Auto, None, None, None), None);
        assert_eq!(
            button(RunMode::Auto, url, Some("`mylib`"), None),
            None,
            "nothing recorded, and the Playground cannot run it"
        );
        let local = button(RunMode::Auto, url, Some("`mylib`"), Some(&run())).unwrap();
        assert_eq!(local.playground, None);
        assert_eq!(local.needs.as_deref(), Some("`mylib`"));
        let unrecorded = RunButton::new(RunMode::Auto, url, None, 2024, true, None, None).unwrap();
        assert_eq!(
            unrecorded.attribute(),
            " data-companion-run=\"{&quot;mode&quot;:&quot;auto&quot;,&quot;playground&quot;:&quot;https://play.rust-lang.org/&quot;,&quot;edition&quot;:2024,&quot;release&quot;:true}\""
        );
    }

    #[test]
    fn long_streams_are_cut_for_the_page_on_a_character_boundary() {
        let long = RecordedRun {
            stdout: "é".repeat(PAGE_LIMIT),
            ..run()
        };
        let page = long.for_page(None);
        assert!(page.stdout.len() < PAGE_LIMIT + 64);
        assert!(
            page.stdout
                .ends_with(&format!("[… {} more bytes not shown]\n", PAGE_LIMIT)),
            "{}",
            &page.stdout[page.stdout.len() - 40..]
        );
        assert_eq!(page.stderr, run().stderr);
    }
}
