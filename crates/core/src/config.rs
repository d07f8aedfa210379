//! `[preprocessor.companion]` in book.toml: the raw table as written, and
//! the checked [`Config`] every directive reads.
//!
//! The raw table is read from the JSON form of the book's configuration,
//! which is what mdBook sends a command preprocessor and what the in-process
//! path produces from `mdbook_preprocessor::config::Config`, so both paths
//! share one reader. mdBook 0.4 sends `null` for unset values: every raw
//! field is optional, so `null` reads as "not set".

use crate::crates::Dependency;
use serde::Deserialize;
use serde_json::Value;
use std::path::PathBuf;
use std::time::Duration;

mod read;

/// The default Playground address.
pub const DEFAULT_PLAYGROUND: &str = "https://play.rust-lang.org/";
/// The default Compiler Explorer address.
pub const DEFAULT_COMPILER_EXPLORER: &str = "https://godbolt.org/";
/// Compiler Explorer's id of the pinned rustc (1.95.0).
pub const DEFAULT_RUST_COMPILER: &str = "r1950";
/// Compiler Explorer's id of the pinned C compiler (GCC 15.2).
pub const DEFAULT_C_COMPILER: &str = "cg152";
/// Compiler Explorer's id of the pinned C++ compiler (GCC 15.2).
pub const DEFAULT_CPP_COMPILER: &str = "g152";

/// A link setting: an address, `true` for the default, `false` for none.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(untagged)]
pub(crate) enum LinkSetting {
    /// `true` (default address) or `false` (no link).
    Enabled(bool),
    /// A different address, such as a self-hosted instance.
    Url(String),
}

/// The table as written in book.toml.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct RawConfig {
    // mdBook's own keys, accepted and ignored.
    command: Option<Value>,
    before: Option<Value>,
    after: Option<Value>,
    renderers: Option<Value>,
    optional: Option<Value>,
    // Ours (the directives' keys are taken out before, see
    // [`Config::others`]).
    playground_url: Option<LinkSetting>,
    compiler_explorer_url: Option<LinkSetting>,
    rust_compiler: Option<String>,
    c_compiler: Option<String>,
    cpp_compiler: Option<String>,
    on_failure: Option<OnFailure>,
    warnings: Option<Warnings>,
    verify: Option<bool>,
    cc: Option<String>,
    rustc: Option<String>,
    valgrind: Option<String>,
    timeout: Option<u64>,
    hang_guard: Option<u64>,
    memory: Option<Value>,
    c_hidden_prefix: Option<String>,
    languages: Option<Value>,
    output_filters: Option<std::collections::BTreeMap<String, String>>,
    dependencies: Option<Value>,
    cargo_manifest: Option<String>,
    playground_crates: Option<Vec<String>>,
    asm_syntax: Option<String>,
    asm_arch: Option<String>,
    run: Option<Value>,
    isolation: Option<Isolation>,
}

/// `isolation`: whether the book's programs must run in a box (their own
/// namespaces: see the guide's robustness page).
#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Isolation {
    /// In a box where the machine can make one; elsewhere as before, and
    /// `check` says so once and marks its report.
    #[default]
    Auto,
    /// In a box, or `check` fails (for CI).
    Required,
    /// Never in a box: for a book whose programs share files across
    /// blocks or runs on purpose (one writes what the next reads). The
    /// report says so.
    Off,
}

/// What a broken directive does to the build.
#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum OnFailure {
    /// Fail the build with the located message (default).
    #[default]
    Bail,
    /// Render a visible error box in place of the directive and warn.
    Continue,
}

impl OnFailure {
    /// Puts problems where this setting sends them: among the errors that
    /// fail the build (`bail`) or the warnings (`continue`).
    pub fn route<T>(
        self,
        problems: impl IntoIterator<Item = T>,
        errors: &mut Vec<T>,
        warnings: &mut Vec<T>,
    ) {
        match self {
            OnFailure::Bail => errors.extend(problems),
            OnFailure::Continue => warnings.extend(problems),
        }
    }
}

/// What `check` makes of the warnings it prints (`warnings`).
#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Warnings {
    /// Print them; they fail nothing (default).
    #[default]
    Warn,
    /// Each fails the run, as a false claim does (for CI).
    Deny,
}

/// What an example's Run button does (`run`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum RunMode {
    /// Unedited code shows the output the build recorded, with no
    /// request; edited code (or code with nothing recorded) goes to the
    /// book's Playground (`playground-url`).
    #[default]
    Auto,
    /// Only recorded output: no request ever leaves the page.
    Recorded,
    /// mdBook's own play button, as without the preprocessor.
    Playground,
}

impl RunMode {
    /// The values `run` takes, as written.
    pub const CHOICES: [(&'static str, RunMode); 3] = [
        ("auto", RunMode::Auto),
        ("recorded", RunMode::Recorded),
        ("playground", RunMode::Playground),
    ];

    /// The value as written in book.toml (and on the page).
    pub fn name(self) -> &'static str {
        match self {
            RunMode::Auto => "auto",
            RunMode::Recorded => "recorded",
            RunMode::Playground => "playground",
        }
    }

    /// Reads `run`: one of [`RunMode::CHOICES`], else an error at the key.
    fn read(value: Option<&Value>) -> Result<RunMode, ConfigError> {
        let found = match value {
            None | Some(Value::Null) => return Ok(RunMode::default()),
            Some(Value::String(s)) => {
                if let Some((_, m)) = RunMode::CHOICES.iter().find(|(n, _)| n == s) {
                    return Ok(*m);
                }
                format!("`{s}`")
            }
            Some(other) => format!("`{other}`"),
        };
        Err(ConfigError {
            message: format!(
                "run is {found}; expected \"auto\" (recorded output, edited code on the Playground), \"recorded\" (no request ever) or \"playground\" (mdBook's own button)"
            ),
            key: vec!["run".to_owned()],
            at: None,
        })
    }
}

/// The checked configuration.
#[derive(Debug, Clone)]
pub struct Config {
    /// The book's root directory.
    pub root: PathBuf,
    /// The book's `src` directory, relative to the root.
    pub src: PathBuf,
    /// What a broken directive does.
    pub on_failure: OnFailure,
    /// Whether `check` fails on its warnings.
    pub warnings: Warnings,
    /// Playground base address, or `None` for no Playground links.
    pub playground_url: Option<String>,
    /// Compiler Explorer base address, or `None` for no such links.
    pub compiler_explorer_url: Option<String>,
    /// Compiler Explorer id for Rust.
    pub rust_compiler: String,
    /// Compiler Explorer id for C.
    pub c_compiler: String,
    /// Compiler Explorer id for C++.
    pub cpp_compiler: String,
    /// The keys of the table this layer does not read: the directives'
    /// own (their data files), as written. The book layer checks them
    /// against the registry ([`Config::check_keys`]).
    pub others: std::collections::BTreeMap<String, Value>,
    /// Check examples during the build.
    pub verify: bool,
    /// The C compiler command.
    pub cc: String,
    /// The Rust compiler command.
    pub rustc: String,
    /// Where `rustc` came from when the book's toolchain file chose it
    /// (`nightly-x86_64-unknown-linux-gnu, selected by
    /// ../rust-toolchain.toml`), for the report; `None` otherwise.
    pub rustc_from: Option<String>,
    /// Valgrind, which runs `sanitize=memcheck` claims.
    pub valgrind: String,
    /// Time limit for compiling or running one program.
    pub timeout: Duration,
    /// `hang-guard`: time limit for running a plain block that claims no
    /// output (`mdbook test` runs it to completion, with no limit; this
    /// only stops a program that hangs).
    pub hang_guard: Duration,
    /// `memory`: the address space one of the book's programs may use, in
    /// bytes (`None`: no limit). Compilers are not limited.
    pub memory: Option<u64>,
    /// The prefix of hidden lines in C and C++ code.
    pub c_hidden_prefix: String,
    /// The languages of programs the book declares
    /// (`[preprocessor.companion.languages.NAME]`).
    pub languages: Vec<&'static crate::languages::Language>,
    /// The edition examples use unless they say otherwise (`[rust] edition`
    /// of book.toml, else 2021).
    pub edition: u16,
    /// `output.html.additional-css` of book.toml, relative to the root.
    pub additional_css: Vec<PathBuf>,
    /// `output.html.additional-js` of book.toml, relative to the root.
    pub additional_js: Vec<PathBuf>,
    /// `output.html.theme`, when book.toml names a theme directory
    /// (relative to the root).
    pub theme: Option<PathBuf>,
    /// `output.html.input-404`: the 404 page's file, relative to `src`.
    pub input_404: Option<String>,
    /// Whether `mdbook build` runs its HTML renderer: book.toml has an
    /// `[output.html]` table, or no `[output]` table at all.
    pub renders_html: bool,
    /// `output.html.playground.editable`: mdBook's editor (Ace) holds the
    /// `editable` blocks, every line of them shown.
    pub editable: bool,
    /// `output-filters`: what is scrubbed from actual output before it
    /// is compared (addresses, temporary paths, times).
    pub output_filters: Vec<OutputFilter>,
    /// `[preprocessor.companion.dependencies]`: the crates examples may
    /// use, paths relative to the root.
    pub dependencies: Vec<Dependency>,
    /// `cargo-manifest`: a crate whose dependencies, and itself, examples
    /// may use (relative to the root).
    pub cargo_manifest: Option<PathBuf>,
    /// The crates the Playground offers (`playground-crates`, else the
    /// list shipped in the binary), by the names examples use.
    pub playground_crates: Vec<String>,
    /// `asm-syntax`: Intel (default) or AT&T listings.
    pub asm_syntax: crate::machine::Syntax,
    /// `isolation`: whether programs that cannot run in a box fail `check`.
    pub isolation: Isolation,
    /// `asm-arch`: the architecture assembly claims hold for (default
    /// x86_64).
    pub asm_arch: String,
    /// The book's language (`book.language`), when it is set.
    pub language: Option<String>,
    /// Where the PO files are, relative to the root (`po-dir` of
    /// `[preprocessor.gettext]`, else `po`).
    pub po_dir: PathBuf,
    /// Whether `[preprocessor.gettext]` is ordered before us (`None`: the
    /// book has no gettext preprocessor).
    pub gettext_first: Option<bool>,
    /// What an example's Run button does.
    pub run: RunMode,
}

/// One entry of `output-filters`: every match of `pattern` in a
/// program's actual output becomes `replacement` (`$1` names a group).
#[derive(Debug, Clone)]
pub struct OutputFilter {
    /// The regular expression, as written.
    pub pattern: regex::Regex,
    /// What each match becomes.
    pub replacement: String,
}

impl OutputFilter {
    /// `text` with every filter applied, in the order of their patterns.
    pub fn apply_all<'t>(filters: &[OutputFilter], text: &'t str) -> std::borrow::Cow<'t, str> {
        let mut out = std::borrow::Cow::Borrowed(text);
        for f in filters {
            if let std::borrow::Cow::Owned(s) = f.pattern.replace_all(&out, f.replacement.as_str())
            {
                out = std::borrow::Cow::Owned(s);
            }
        }
        out
    }
}

/// The editions rustc knows.
pub const EDITIONS: [u16; 4] = [2015, 2018, 2021, 2024];

/// Names of every key of the table this layer reads, for messages (the
/// directives' keys come first, from their rows).
pub(crate) const KNOWN_KEYS: &str = "playground-url, compiler-explorer-url, rust-compiler, c-compiler, cpp-compiler, on-failure, warnings, verify, cc, rustc, valgrind, timeout, hang-guard, memory, c-hidden-prefix, output-filters, dependencies, cargo-manifest, playground-crates, run, asm-syntax, asm-arch, isolation, languages (and mdBook's command, before, after, renderers, optional)";

/// A configuration error, with the key it is at when that is known (so
/// that [`ConfigError::locate`] can place it in book.toml).
#[derive(Debug)]
pub struct ConfigError {
    /// What was found and what was expected.
    pub message: String,
    /// The keys under `[preprocessor.companion]` where it is.
    pub key: Vec<String>,
    /// Its 1-based line and column in book.toml, once located.
    pub at: Option<(usize, usize)>,
}

impl ConfigError {
    /// An error of the table as a whole.
    pub fn new(message: impl Into<String>) -> ConfigError {
        ConfigError {
            message: message.into(),
            key: Vec::new(),
            at: None,
        }
    }

    /// The error placed in `book_toml`, the text of book.toml.
    pub fn locate(mut self, book_toml: &str) -> ConfigError {
        if self.key.is_empty() {
            return self;
        }
        let path: Vec<&str> = ["preprocessor", "companion"]
            .into_iter()
            .chain(self.key.iter().map(String::as_str))
            .collect();
        if let Some(range) = crate::crates::locate(book_toml, &path) {
            self.at = Some(crate::markdown::line_col(book_toml, range.start));
        }
        self
    }
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.at {
            Some((line, column)) => write!(
                f,
                "book.toml:{line}:{column}: [preprocessor.companion] {}",
                self.message
            ),
            None => write!(f, "book.toml [preprocessor.companion]: {}", self.message),
        }
    }
}

impl std::error::Error for ConfigError {}

/// A data file a directive reads from the book's `src`, named by a key of
/// `[preprocessor.companion]` (a row of the registry declares it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DataKey {
    /// The key (`reading-list`).
    pub key: &'static str,
    /// The path relative to `src` when the key is absent.
    pub default: &'static str,
}

/// A key of `[preprocessor.companion]` that a directive owns: its row of
/// the registry declares it, this layer only keeps it ([`Config::others`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// A data file, a path relative to `src`.
    File(DataKey),
    /// `true` or `false`, false when absent (`print-solutions`).
    Flag(&'static str),
}

impl Key {
    /// The key as written in book.toml.
    pub fn name(&self) -> &'static str {
        match self {
            Key::File(d) => d.key,
            Key::Flag(key) => key,
        }
    }
}

impl Config {
    /// The path, relative to `src`, of a directive's data file.
    pub fn data_file(&self, data: &DataKey) -> PathBuf {
        PathBuf::from(
            self.others
                .get(data.key)
                .and_then(Value::as_str)
                .unwrap_or(data.default),
        )
    }

    /// A directive's flag ([`Key::Flag`]): false unless set to `true`
    /// ([`Config::check_keys`] lets nothing else through).
    pub fn flag(&self, key: &str) -> bool {
        self.others
            .get(key)
            .and_then(Value::as_bool)
            .unwrap_or(false)
    }

    /// Checks the keys this layer left to the directives against theirs
    /// (`owned`, from the registry): each is one of them, of its type.
    pub fn check_keys(&self, owned: &[Key]) -> Result<(), ConfigError> {
        for (key, value) in &self.others {
            let mut err = match owned.iter().find(|k| k.name() == key) {
                None => {
                    let theirs: Vec<&str> = owned.iter().map(Key::name).collect();
                    ConfigError::new(format!(
                        "unknown field `{key}`, expected a key of the table\nknown keys: {}, {KNOWN_KEYS}",
                        theirs.join(", ")
                    ))
                }
                Some(Key::File(_)) if !value.is_string() => ConfigError::new(format!(
                    "found `{key} = {value}`; expected a path relative to the book's source directory, in quotes"
                )),
                Some(Key::Flag(_)) if !value.is_boolean() => {
                    ConfigError::new(format!("found `{key} = {value}`; expected true or false"))
                }
                Some(_) => continue,
            };
            err.key = vec![key.clone()];
            return Err(err);
        }
        Ok(())
    }
}

/// Every key `[preprocessor.companion]` accepts, mdBook's own included,
/// read from the table's definition itself (the fields serde knows), so a
/// list made from it cannot drift from what the reader accepts. The
/// guide's configuration reference is checked against it.
pub fn keys() -> Vec<&'static str> {
    /// A deserializer that only records the field names it is asked for.
    struct Fields(&'static [&'static str]);
    impl<'de> serde::Deserializer<'de> for &mut Fields {
        type Error = serde::de::value::Error;
        fn deserialize_any<V: serde::de::Visitor<'de>>(
            self,
            _: V,
        ) -> Result<V::Value, Self::Error> {
            Err(serde::de::Error::custom("field names only"))
        }
        fn deserialize_struct<V: serde::de::Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Self::Error> {
            self.0 = fields;
            Err(serde::de::Error::custom("field names only"))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
            bytes byte_buf option unit unit_struct newtype_struct seq tuple
            tuple_struct map enum identifier ignored_any
        }
    }
    let mut fields = Fields(&[]);
    let _ = RawConfig::deserialize(&mut fields);
    fields.0.to_vec()
}

/// The default of `memory`: 2 GiB.
pub(crate) const DEFAULT_MEMORY: u64 = 2 << 30;

#[cfg(test)]
mod tests;
