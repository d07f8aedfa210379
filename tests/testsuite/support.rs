//! Case books: a temporary mdBook project whose `[preprocessor.companion]`
//! runs the freshly built binary, built with `mdbook-driver`, or driven
//! through the binary's own commands with snapbox expectations
//! ([`BookTest::run`], [`BookTest::check_file`]).

use mdbook_driver::MDBook;
use scraper::{ElementRef, Html, Selector};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

#[path = "book_test.rs"]
pub mod book_test;

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_mdbook-companion");

/// A book in a temporary directory: written from strings (the chapters,
/// `[preprocessor.companion]` lines), or copied from a fixture directory
/// under `tests/testsuite/`; then built with real mdBook or run through
/// the binary with snapbox expectations.
pub struct BookTest {
    dir: tempfile::TempDir,
    chapters: Vec<(String, String)>,
    companion: String,
    extra: String,
    stylesheet: bool,
    /// The fixture has its own book.toml: the book is used as it is.
    whole: bool,
    written: std::sync::atomic::AtomicBool,
    assert: snapbox::Assert,
}

impl Drop for BookTest {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(compiler_log(self.root()));
    }
}

impl BookTest {
    /// An empty book whose preprocessor is the binary under test.
    pub fn new() -> BookTest {
        let dir = tempfile::tempdir().expect("tempdir");
        let assert = book_test::assert(dir.path());
        BookTest {
            dir,
            chapters: Vec::new(),
            companion: String::new(),
            extra: String::new(),
            stylesheet: true,
            whole: false,
            written: std::sync::atomic::AtomicBool::new(false),
            assert,
        }
    }

    /// Adds lines to `[preprocessor.companion]`.
    pub fn companion(mut self, toml: &str) -> Self {
        self.companion.push_str(toml);
        self.companion.push('\n');
        self
    }

    /// Leaves the companion stylesheet out of the book.
    pub fn no_stylesheet(mut self) -> Self {
        self.stylesheet = false;
        self
    }

    /// Adds other tables to book.toml.
    pub fn toml(mut self, toml: &str) -> Self {
        self.extra.push_str(toml);
        self.extra.push('\n');
        self
    }

    /// Adds a chapter `src/{file}` listed in SUMMARY.md.
    pub fn chapter(mut self, file: &str, content: &str) -> Self {
        self.chapters.push((file.to_owned(), content.to_owned()));
        self
    }

    /// Replaces the text of chapter `src/{file}` (added if new), written
    /// before the next run.
    pub fn set_chapter(&mut self, file: &str, content: &str) {
        self.written
            .store(false, std::sync::atomic::Ordering::Relaxed);
        match self.chapters.iter_mut().find(|(f, _)| f == file) {
            Some((_, text)) => *text = content.to_owned(),
            None => self.chapters.push((file.to_owned(), content.to_owned())),
        }
    }

    /// Writes any file under the book root.
    pub fn file(self, path: &str, content: impl AsRef<[u8]>) -> Self {
        let p = self.dir.path().join(path);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, content).expect("write");
        self
    }

    /// The book's root directory.
    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    /// Writes book.toml, SUMMARY.md and the chapters (a whole fixture
    /// book is already written).
    pub fn write(&self) {
        self.written
            .store(true, std::sync::atomic::Ordering::Relaxed);
        if self.whole {
            assert!(
                self.chapters.is_empty() && self.companion.is_empty() && self.extra.is_empty(),
                "a fixture with its own book.toml is used as it is"
            );
            return;
        }
        let root = self.root();
        let mut toml = String::from("[book]\ntitle = \"Case\"\n\n[preprocessor.companion]\n");
        writeln!(toml, "command = {:?}", BIN).ok();
        toml.push_str("after = [\"links\"]\n");
        toml.push_str(&self.companion);
        toml.push('\n');
        if self.stylesheet {
            let css = "additional-css = [\"theme/companion.css\"]\nadditional-js = [\"theme/companion.js\"]\n";
            if self.extra.contains("[output.html]\n") {
                toml.push_str(
                    &self
                        .extra
                        .replace("[output.html]\n", &format!("[output.html]\n{css}")),
                );
            } else {
                toml.push_str(&self.extra);
                toml.push_str(&format!("\n[output.html]\n{css}"));
            }
            std::fs::create_dir_all(root.join("theme")).expect("theme");
            std::fs::write(
                root.join("theme/companion.css"),
                mdbook_companion_directives::assets::stamped_stylesheet(),
            )
            .expect("css");
            std::fs::write(
                root.join("theme/companion.js"),
                mdbook_companion_directives::assets::stamped_script(),
            )
            .expect("js");
        } else {
            toml.push_str(&self.extra);
        }
        std::fs::write(root.join("book.toml"), toml).expect("book.toml");
        std::fs::create_dir_all(root.join("src")).expect("src");
        let mut summary = String::from("# Summary\n\n");
        for (file, content) in &self.chapters {
            writeln!(summary, "- [{file}]({file})").ok();
            let p = root.join("src").join(file);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(p, content).expect("chapter");
        }
        std::fs::write(root.join("src/SUMMARY.md"), summary).expect("summary");
    }

    /// Builds the book with real mdBook; the error chain on failure.
    pub fn build(&self) -> Result<(), String> {
        self.write();
        let book = MDBook::load(self.root()).map_err(|e| format!("{e:#}"))?;
        book.build().map_err(|e| format!("{e:#}"))
    }

    /// Builds with the preprocessor in-process (`mdbook-companion build`'s
    /// path), which surfaces our error messages in the result.
    pub fn build_in_process(&self) -> Result<(), String> {
        self.write();
        let mut book = MDBook::load(self.root()).map_err(|e| format!("{e:#}"))?;
        book.with_preprocessor(mdbook_companion::Companion);
        book.build().map_err(|e| format!("{e:#}"))
    }

    /// Builds and parses one chapter's HTML page.
    pub fn html(&self, chapter: &str) -> Page {
        if let Err(e) = self.build() {
            panic!("build failed: {e}");
        }
        self.page(chapter)
    }

    /// Parses a page of the last build.
    pub fn page(&self, chapter: &str) -> Page {
        let name = chapter.replace(".md", ".html");
        let path = self.output_dir("html").join(name);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        Page(Html::parse_document(&text))
    }

    /// Where a renderer writes: `book/` with one renderer, else `book/NAME`.
    pub fn output_dir(&self, renderer: &str) -> PathBuf {
        let multi = self.extra.matches("[output.").count() > 1;
        if multi {
            self.root().join("book").join(renderer)
        } else {
            self.root().join("book")
        }
    }

    /// Runs the binary on the given stdin text with `args`.
    pub fn run_bin(args: &[&str], stdin: &[u8]) -> Output {
        let mut child = Command::new(BIN)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        let mut input = child.stdin.take().expect("stdin");
        let data = stdin.to_vec();
        let writer = std::thread::spawn(move || {
            let _ = input.write_all(&data);
        });
        let out = child.wait_with_output().expect("wait");
        writer.join().ok();
        out
    }
}

/// A parsed HTML page.
pub struct Page(pub Html);

impl Page {
    /// Every element matching a CSS selector.
    pub fn all(&self, css: &str) -> Vec<ElementRef<'_>> {
        let sel = Selector::parse(css).unwrap_or_else(|e| panic!("selector {css}: {e:?}"));
        self.0.select(&sel).collect()
    }

    /// The one element matching a selector.
    pub fn one(&self, css: &str) -> ElementRef<'_> {
        let found = self.all(css);
        assert_eq!(
            found.len(),
            1,
            "expected one `{css}`, found {}",
            found.len()
        );
        found[0]
    }

    /// The page as `quiz.js` makes it: each quiz answer's disclosure
    /// filled with the HTML its `data-companion-answer` attribute holds
    /// (kept out of the text mdBook's search indexes).
    pub fn answers_shown(&self) -> Page {
        let mut doc = self.0.html();
        for d in self.all("details.companion-quiz-answer") {
            let inner = d.value().attr("data-companion-answer").unwrap_or("");
            let outer = d.html();
            let filled = outer.replacen("</details>", &format!("{inner}</details>"), 1);
            doc = doc.replacen(&outer, &filled, 1);
        }
        Page(Html::parse_document(&doc))
    }

    /// The text of an element, whitespace collapsed.
    pub fn text(el: ElementRef<'_>) -> String {
        el.text()
            .collect::<String>()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// A compiler wrapper script in the book root that logs each start to
/// `compiler.log` and runs `real`; returns its path.
pub fn logging_wrapper(book: &BookTest, name: &str, real: &str) -> String {
    logging_wrapper_in(book.root(), name, real)
}

/// [`logging_wrapper`] for a book at `root`.
pub fn logging_wrapper_in(root: &Path, name: &str, real: &str) -> String {
    let path = root.join(name);
    let log = compiler_log(root);
    let script = format!(
        "#!/bin/sh\necho \"{name} $*\" >> '{}'\nexec {real} \"$@\"\n",
        log.display()
    );
    executable(&path, &script);
    path.display().to_string()
}

/// Writes `text` to `path`, executable: a script a test passes as a tool.
pub fn executable(path: &Path, text: &str) {
    std::fs::write(path, text).expect("a script");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
}

/// Where the compiler wrappers of the book at `root` log their starts:
/// beside the book, not in it (compilers run in a box in which the book
/// is read-only); removed with the book.
pub fn compiler_log(root: &Path) -> PathBuf {
    let name = root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    root.with_file_name(format!("{name}.compiler.log"))
}

/// The `ClientState` a Compiler Explorer link carries, decoded as Compiler
/// Explorer does: base64, then zlib when the first byte says so.
pub fn client_state(url: &str) -> serde_json::Value {
    use base64::Engine as _;
    use std::io::Read as _;
    let b64 = url
        .strip_prefix("https://godbolt.org/clientstate/")
        .unwrap_or_else(|| panic!("not a clientstate link: {url}"));
    let bytes = base64::engine::general_purpose::URL_SAFE
        .decode(b64)
        .expect("base64");
    let json = if bytes.first() == Some(&b'{') {
        bytes
    } else {
        let mut out = Vec::new();
        flate2::read::ZlibDecoder::new(&bytes[..])
            .read_to_end(&mut out)
            .expect("zlib");
        out
    };
    serde_json::from_slice(&json).expect("json")
}

/// Elements matching `css` inside `el`.
pub fn inside<'a>(el: ElementRef<'a>, css: &str) -> Vec<ElementRef<'a>> {
    let sel = Selector::parse(css).unwrap_or_else(|e| panic!("selector {css}: {e:?}"));
    el.select(&sel).collect()
}
