//! Crates the examples use: `[preprocessor.companion.dependencies]` read
//! and checked, the crates an example names, the crates rustc says it
//! could not find, and the crates the Playground offers.
//!
//! Entries take Cargo's syntax (`rand = "0.8"`, `{ version, path, git,
//! branch, tag, rev, features, default-features, package }`) and become
//! the `[dependencies]` of a Cargo project the engine builds once
//! (`mdbook_companion_engine::crates`). A bad entry is an error that names its key,
//! so the book layer can place it in book.toml ([`locate`]).
//!
//! Which crates an example uses is read from its text: a declared crate's
//! name followed by `::` (`use rand::Rng`, `serde_json::json!`) or after
//! `extern crate`. A false positive (a module of the same name) only adds
//! an `--extern`; a crate the book does not declare is found by rustc
//! (E0432/E0433 "unlinked crate", E0463 "can't find crate"), whose words
//! [`undeclared`] reads.

use serde::Deserialize;
use serde_json::Value;
use std::path::PathBuf;

/// One entry of `[preprocessor.companion.dependencies]` (or of a
/// `cargo-manifest`'s `[dependencies]`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Dependency {
    /// The key: the name examples use (`-` read as `_`).
    #[serde(skip)]
    pub key: String,
    /// A version requirement.
    pub version: Option<String>,
    /// A path crate's directory (relative to the file that declares it
    /// until the engine resolves it).
    pub path: Option<PathBuf>,
    /// A git repository.
    pub git: Option<String>,
    /// A git branch.
    pub branch: Option<String>,
    /// A git tag.
    pub tag: Option<String>,
    /// A git revision.
    pub rev: Option<String>,
    /// Features to enable.
    #[serde(default)]
    pub features: Vec<String>,
    /// Whether the crate's default features are on.
    pub default_features: Option<bool>,
    /// The package's name when it differs from the key.
    pub package: Option<String>,
}

/// The keys an entry may have, for messages.
pub(crate) const ENTRY_KEYS: &str =
    "version, path, git, branch, tag, rev, features, default-features, package";

/// A bad entry: the message and the key path under
/// `[preprocessor.companion]` where it is (`["dependencies", "rand"]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryError {
    /// What was found and what was expected.
    pub message: String,
    /// Where it is, as keys from the table that holds the entries.
    pub key: Vec<String>,
}

impl Dependency {
    /// The name the crate has in examples: the key with `-` as `_`.
    pub fn extern_name(&self) -> String {
        self.key.replace('-', "_")
    }

    /// Reads one entry (a version string or a table) named `key`.
    pub fn parse(key: &str, value: &Value) -> Result<Dependency, EntryError> {
        let at = |message: String, field: Option<&str>| EntryError {
            message: format!("dependencies.{key}: {message}"),
            key: std::iter::once(key.to_owned())
                .chain(field.map(str::to_owned))
                .collect(),
        };
        if !key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            || key.is_empty()
        {
            return Err(at(
                format!(
                    "found the name `{key}`; expected a crate name (letters, digits, `-`, `_`)"
                ),
                None,
            ));
        }
        let mut dep = match value {
            Value::String(v) => Dependency {
                version: Some(v.clone()),
                ..Dependency::default()
            },
            Value::Object(map) => {
                let field = map
                    .iter()
                    .find(|(k, _)| !ENTRY_KEYS.split(", ").any(|known| known == k.as_str()))
                    .map(|(k, _)| k.as_str());
                serde_json::from_value(value.clone()).map_err(|e| {
                    let e = e.to_string();
                    let hint = match e.starts_with("unknown field") {
                        true => String::new(),
                        false => format!("; an entry takes {ENTRY_KEYS}"),
                    };
                    at(
                        format!("{e}{hint}"),
                        field.or_else(|| map.keys().next().map(String::as_str)),
                    )
                })?
            }
            other => {
                return Err(at(
                    format!(
                        "found {other}; expected a version such as \"1.0\" or a table such as {{ path = \"../mylib\" }}"
                    ),
                    None,
                ));
            }
        };
        dep.key = key.to_owned();
        if let Some(v) = &dep.version
            && let Err(e) = semver::VersionReq::parse(v)
        {
            return Err(at(
                format!(
                    "version `{v}` is not a version requirement ({e}); expected one such as \"0.8\" or \"=1.2.3\""
                ),
                Some("version").filter(|_| value.is_object()),
            ));
        }
        if dep.path.is_some() && dep.git.is_some() {
            return Err(at(
                "has both `path` and `git`; expected one source".into(),
                Some("git"),
            ));
        }
        if dep.git.is_none()
            && let Some(field) = [
                ("branch", &dep.branch),
                ("tag", &dep.tag),
                ("rev", &dep.rev),
            ]
            .iter()
            .find(|(_, v)| v.is_some())
            .map(|(k, _)| *k)
        {
            return Err(at(
                format!("has `{field}` but no `git`; expected `git` alongside it"),
                Some(field),
            ));
        }
        if dep.version.is_none() && dep.path.is_none() && dep.git.is_none() {
            return Err(at(
                "has no source; expected `version`, `path` or `git`".into(),
                None,
            ));
        }
        Ok(dep)
    }

    /// Reads a whole `dependencies` table.
    pub(crate) fn parse_table(table: &Value) -> Result<Vec<Dependency>, EntryError> {
        match table {
            Value::Null => Ok(Vec::new()),
            Value::Object(map) => map.iter().map(|(k, v)| Dependency::parse(k, v)).collect(),
            other => Err(EntryError {
                message: format!(
                    "dependencies is {other}; expected a table of crates, such as `rand = \"0.8\"`"
                ),
                key: Vec::new(),
            }),
        }
    }
}

/// The declared crates (by extern name) that `source` names: followed by
/// `::`, or after `extern crate`. Sorted, each once. One pass over the
/// source's words, whatever the number of names (a `--library-path`
/// directory of a crate's dependencies holds a hundred): the few words
/// that name a crate there are then looked for among the names.
pub fn used<'n>(source: &str, names: impl IntoIterator<Item = &'n str>) -> Vec<String> {
    let mut names = names.into_iter().peekable();
    if names.peek().is_none() {
        return Vec::new();
    }
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut named: Vec<&str> = Vec::new();
    let mut start = None;
    for (at, c) in source.char_indices().chain([(source.len(), ' ')]) {
        match (is_ident(c), start) {
            (true, None) => start = Some(at),
            (false, Some(from)) => {
                start = None;
                let word = &source[from..at];
                if !named.contains(&word) && names_crate_at(source, from, at) {
                    named.push(word);
                }
            }
            _ => {}
        }
    }
    let mut found: Vec<String> = names
        .filter(|n| named.contains(n))
        .map(str::to_owned)
        .collect();
    found.sort();
    found.dedup();
    found
}

/// Whether the word at `from..to` of `source` names a crate: followed by
/// `::` (and not itself after `::`), or after `extern crate`.
fn names_crate_at(source: &str, from: usize, to: usize) -> bool {
    let behind = source[..from].trim_end();
    source[to..].trim_start().starts_with("::") && !behind.ends_with("::")
        || behind.ends_with("extern crate")
}

/// A crate rustc could not find, with the 1-based line and column of the
/// first place it was named in the compiled file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Undeclared {
    /// The crate's name.
    pub name: String,
    /// Line in the compiled source.
    pub line: usize,
    /// Column in the compiled source.
    pub column: usize,
}

/// The crates rustc's diagnostics say are missing: "unlinked crate `x`"
/// (E0432, E0433) and "can't find crate for `x`" (E0463), each with the
/// place of the error above it.
pub fn undeclared(diagnostics: &str) -> Vec<Undeclared> {
    const CANT_FIND: &str = "error[E0463]: can't find crate for `";
    const UNLINKED: &str = "unlinked crate `";
    let mut out: Vec<Undeclared> = Vec::new();
    // Most failures name no crate: one search of the whole text each,
    // not of every line.
    if !diagnostics.contains(CANT_FIND) && !diagnostics.contains(UNLINKED) {
        return out;
    }
    let mut place = (0, 0);
    // E0463 names the crate above its place; the labels, below it.
    let mut pending: Option<String> = None;
    let quoted = |line: &str, marker: &str| {
        let rest = &line[line.find(marker)? + marker.len()..];
        let name = rest.split('`').next()?;
        (!name.is_empty()).then(|| name.to_owned())
    };
    let mut add = |name: String, (line, column): (usize, usize)| {
        if !out.iter().any(|u| u.name == name) {
            out.push(Undeclared { name, line, column });
        }
    };
    for line in diagnostics.lines() {
        if let Some(at) = line.trim_start().strip_prefix("--> ") {
            let mut parts = at.rsplitn(3, ':');
            let column = parts.next().and_then(|c| c.parse().ok());
            let line = parts.next().and_then(|l| l.parse().ok());
            if let (Some(l), Some(c)) = (line, column) {
                place = (l, c);
            }
            if let Some(name) = pending.take() {
                add(name, place);
            }
            continue;
        }
        if let Some(name) = quoted(line, CANT_FIND) {
            pending = Some(name);
        } else if let Some(name) = quoted(line, UNLINKED) {
            add(name, place);
        }
    }
    if let Some(name) = pending {
        add(name, place);
    }
    out
}

/// The crates the Rust Playground offers (its top crates, by the name
/// examples use), shipped with the binary; `playground-crates` in
/// book.toml replaces it.
pub(crate) const PLAYGROUND_CRATES: &[&str] = &[
    "addr2line",
    "adler2",
    "ahash",
    "aho_corasick",
    "anstream",
    "anstyle",
    "anyhow",
    "approx",
    "arrayvec",
    "async_trait",
    "atty",
    "autocfg",
    "backtrace",
    "base64",
    "bitflags",
    "block_buffer",
    "bumpalo",
    "byteorder",
    "bytes",
    "cc",
    "cfg_if",
    "chrono",
    "clap",
    "colorchoice",
    "crc32fast",
    "criterion",
    "crossbeam",
    "crossbeam_channel",
    "crossbeam_deque",
    "crossbeam_epoch",
    "crossbeam_utils",
    "crypto_common",
    "csv",
    "digest",
    "either",
    "env_logger",
    "equivalent",
    "fastrand",
    "flate2",
    "fnv",
    "futures",
    "futures_channel",
    "futures_core",
    "futures_executor",
    "futures_io",
    "futures_sink",
    "futures_task",
    "futures_util",
    "generic_array",
    "getrandom",
    "glob",
    "hashbrown",
    "heck",
    "hex",
    "http",
    "humantime",
    "hyper",
    "idna",
    "indexmap",
    "itertools",
    "itoa",
    "js_sys",
    "lazy_static",
    "libc",
    "log",
    "md5",
    "memchr",
    "mime",
    "miniz_oxide",
    "nom",
    "num",
    "num_bigint",
    "num_cpus",
    "num_integer",
    "num_traits",
    "once_cell",
    "parking_lot",
    "percent_encoding",
    "petgraph",
    "pin_project",
    "pin_project_lite",
    "ppv_lite86",
    "proc_macro2",
    "quote",
    "rand",
    "rand_chacha",
    "rand_core",
    "rayon",
    "regex",
    "regex_automata",
    "regex_syntax",
    "reqwest",
    "rustc_hash",
    "ryu",
    "scopeguard",
    "semver",
    "serde",
    "serde_derive",
    "serde_json",
    "sha1",
    "sha2",
    "slab",
    "smallvec",
    "socket2",
    "strsim",
    "syn",
    "tempfile",
    "thiserror",
    "time",
    "tokio",
    "toml",
    "tracing",
    "typenum",
    "unicode_ident",
    "url",
    "uuid",
    "version_check",
    "walkdir",
];

/// The byte range of the key at `path` (tables from the document's root)
/// in a TOML text, or of the deepest key of it that is there.
pub fn locate(text: &str, path: &[&str]) -> Option<std::ops::Range<usize>> {
    let doc = toml_edit::Document::parse(text).ok()?;
    let mut table: &dyn toml_edit::TableLike = doc.as_table();
    let mut found = None;
    for (i, key) in path.iter().enumerate() {
        let Some((k, item)) = table.get_key_value(key) else {
            break;
        };
        found = k.span().or_else(|| item.span()).or(found);
        if i + 1 == path.len() {
            break;
        }
        match item.as_table_like() {
            Some(t) => table = t,
            None => break,
        }
    }
    found
}

/// The entries of `deps` as a Cargo `[dependencies]` table (paths as
/// they stand in the entries).
pub fn entries(deps: &[Dependency]) -> toml::Table {
    let mut entries = toml::Table::new();
    for d in deps {
        let mut e = toml::Table::new();
        let text = [
            ("version", d.version.clone()),
            ("path", d.path.as_ref().map(|p| p.display().to_string())),
            ("git", d.git.clone()),
            ("branch", d.branch.clone()),
            ("tag", d.tag.clone()),
            ("rev", d.rev.clone()),
            ("package", d.package.clone()),
        ];
        for (k, v) in text {
            if let Some(v) = v {
                e.insert(k.into(), v.into());
            }
        }
        if !d.features.is_empty() {
            e.insert("features".into(), d.features.clone().into());
        }
        if let Some(f) = d.default_features {
            e.insert("default-features".into(), f.into());
        }
        entries.insert(d.key.clone(), e.into());
    }
    entries
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn entries_take_cargo_syntax_and_bad_ones_name_their_key() {
        let deps = Dependency::parse_table(&json!({
            "rand": "0.8",
            "my-lib": {"path": "../mylib", "features": ["fast"], "default-features": false},
            "g": {"git": "https://example.org/g.git", "tag": "v1"},
        }))
        .unwrap();
        assert_eq!(deps[0].key, "g");
        assert_eq!(deps[1].extern_name(), "my_lib");
        assert_eq!(deps[1].features, ["fast"]);
        assert_eq!(deps[2].version.as_deref(), Some("0.8"));
        for (entry, key, words) in [
            (
                json!({"feature": ["x"], "version": "1"}),
                vec!["x", "feature"],
                "unknown field `feature`",
            ),
            (
                json!("latest"),
                vec!["x"],
                "version `latest` is not a version requirement",
            ),
            (
                json!({"version": "one"}),
                vec!["x", "version"],
                "expected one such as",
            ),
            (json!(3), vec!["x"], "found 3; expected a version"),
            (
                json!({"features": "a"}),
                vec!["x", "features"],
                "expected a sequence",
            ),
            (
                json!({"path": "a", "git": "b"}),
                vec!["x", "git"],
                "both `path` and `git`",
            ),
            (
                json!({"version": "1", "branch": "main"}),
                vec!["x", "branch"],
                "no `git`",
            ),
            (json!({"features": []}), vec!["x"], "has no source"),
        ] {
            let e = Dependency::parse("x", &entry).unwrap_err();
            assert_eq!(e.key, key, "{entry}");
            assert!(e.message.starts_with("dependencies.x: "), "{}", e.message);
            assert!(e.message.contains(words), "{entry}: {}", e.message);
        }
        assert!(Dependency::parse("a b", &json!("1")).is_err());
        assert!(Dependency::parse_table(&json!(["rand"])).is_err());
    }

    #[test]
    fn examples_name_crates_by_path_or_extern_crate() {
        let names = ["rand", "mylib", "serde_json"];
        for (source, want) in [
            ("use rand::Rng;\nfn main() {}", vec!["rand"]),
            (
                "fn main() { let v = serde_json::json!(1); }",
                vec!["serde_json"],
            ),
            ("extern crate mylib;\nfn main() {}", vec!["mylib"]),
            (
                "use std::{rand, mylib_x::y}; let operand = 1; x::rand::y();",
                vec![],
            ),
            (
                "let rand = 3; // rand is a word\nuse mylib :: f;",
                vec!["mylib"],
            ),
        ] {
            assert_eq!(used(source, names), want, "{source}");
        }
    }

    #[test]
    fn undeclared_crates_come_from_rustcs_words() {
        let d = "error[E0432]: unresolved import `rand`\n --> main.rs:1:5\n  |\n1 | use rand::Rng;\n  |     ^^^^ use of unresolved module or unlinked crate `rand`\n\nerror[E0433]: cannot find module or crate `foo` in this scope\n --> main.rs:2:21\n  |     ^^^ use of unresolved module or unlinked crate `foo`\nerror[E0463]: can't find crate for `bar`\n --> main.rs:4:1\n";
        assert_eq!(
            undeclared(d),
            [
                Undeclared {
                    name: "rand".into(),
                    line: 1,
                    column: 5
                },
                Undeclared {
                    name: "foo".into(),
                    line: 2,
                    column: 21
                },
                Undeclared {
                    name: "bar".into(),
                    line: 4,
                    column: 1
                },
            ]
        );
        assert!(undeclared("error[E0425]: cannot find value `x`").is_empty());
    }

    #[test]
    fn keys_are_found_in_the_text() {
        let text = "[book]\ntitle = \"t\"\n\n[preprocessor.companion.dependencies]\nrand = \"0.8\"\nmylib = { path = \"x\", feature = [] }\n";
        let span = |path: &[&str]| locate(text, path).map(|r| &text[r]);
        assert_eq!(
            span(&["preprocessor", "companion", "dependencies", "rand"]),
            Some("rand")
        );
        assert_eq!(
            span(&[
                "preprocessor",
                "companion",
                "dependencies",
                "mylib",
                "feature"
            ]),
            Some("feature")
        );
        assert_eq!(
            span(&["preprocessor", "companion", "dependencies", "nope"]),
            Some("dependencies")
        );
        assert_eq!(locate("not toml = = ", &["a"]), None);
    }
}
