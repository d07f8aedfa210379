//! The JSON form of book.toml read into a [`Config`]: the table taken
//! apart from the directives' keys, then each key of ours checked by a
//! step of its own (a located [`ConfigError`] naming the key when its
//! value is wrong).

use super::{
    Config, ConfigError, DEFAULT_C_COMPILER, DEFAULT_COMPILER_EXPLORER, DEFAULT_CPP_COMPILER,
    DEFAULT_MEMORY, DEFAULT_PLAYGROUND, DEFAULT_RUST_COMPILER, EDITIONS, LinkSetting, OutputFilter,
    RawConfig, RunMode, keys,
};
use crate::crates::{Dependency, PLAYGROUND_CRATES};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

impl Config {
    /// Reads and checks the configuration from the JSON form of book.toml.
    pub fn from_json(root: PathBuf, book_config: &Value) -> Result<Config, ConfigError> {
        let (table, others) = split_table(book_config);
        let raw: RawConfig =
            serde_json::from_value(table).map_err(|e| ConfigError::new(e.to_string()))?;
        let src = book_config
            .pointer("/book/src")
            .and_then(Value::as_str)
            .unwrap_or("src");
        let edition = edition(book_config)?;
        let _ = (
            &raw.command,
            &raw.before,
            &raw.after,
            &raw.renderers,
            &raw.optional,
        );
        Ok(Config {
            root,
            src: PathBuf::from(src),
            on_failure: raw.on_failure.unwrap_or_default(),
            isolation: raw.isolation.unwrap_or_default(),
            warnings: raw.warnings.unwrap_or_default(),
            playground_url: link("playground-url", raw.playground_url, DEFAULT_PLAYGROUND)?,
            compiler_explorer_url: link(
                "compiler-explorer-url",
                raw.compiler_explorer_url,
                DEFAULT_COMPILER_EXPLORER,
            )?,
            rust_compiler: compiler_id("rust-compiler", raw.rust_compiler, DEFAULT_RUST_COMPILER)?,
            c_compiler: compiler_id("c-compiler", raw.c_compiler, DEFAULT_C_COMPILER)?,
            cpp_compiler: compiler_id("cpp-compiler", raw.cpp_compiler, DEFAULT_CPP_COMPILER)?,
            languages: languages(raw.languages.as_ref())?,
            others,
            verify: raw.verify.unwrap_or(false),
            asm_syntax: asm_syntax(raw.asm_syntax.as_deref())?,
            asm_arch: asm_arch(raw.asm_arch)?,
            cc: raw.cc.unwrap_or_else(|| "cc".to_owned()),
            rustc: raw.rustc.unwrap_or_else(|| "rustc".to_owned()),
            rustc_from: None,
            valgrind: raw.valgrind.unwrap_or_else(|| "valgrind".to_owned()),
            timeout: seconds("timeout", raw.timeout, 10)?,
            hang_guard: seconds("hang-guard", raw.hang_guard, 120)?,
            memory: memory(raw.memory.as_ref())?,
            c_hidden_prefix: c_hidden_prefix(raw.c_hidden_prefix)?,
            edition,
            additional_css: paths(book_config, "/output/html/additional-css"),
            additional_js: paths(book_config, "/output/html/additional-js"),
            theme: (book_config.pointer("/output/html/theme"))
                .and_then(Value::as_str)
                .map(PathBuf::from),
            input_404: (book_config.pointer("/output/html/input-404"))
                .and_then(Value::as_str)
                .map(str::to_owned),
            renders_html: renders_html(book_config),
            editable: (book_config.pointer("/output/html/playground/editable"))
                .and_then(Value::as_bool)
                .unwrap_or(false),
            output_filters: output_filters(raw.output_filters.unwrap_or_default())?,
            dependencies: dependencies(raw.dependencies.as_ref())?,
            cargo_manifest: raw.cargo_manifest.map(PathBuf::from),
            playground_crates: match raw.playground_crates {
                Some(list) => list.iter().map(|c| c.replace('-', "_")).collect(),
                None => PLAYGROUND_CRATES.iter().map(|c| (*c).to_owned()).collect(),
            },
            language: book_config
                .pointer("/book/language")
                .and_then(Value::as_str)
                .filter(|l| !l.trim().is_empty())
                .map(str::to_owned),
            po_dir: PathBuf::from(
                book_config
                    .pointer("/preprocessor/gettext/po-dir")
                    .and_then(Value::as_str)
                    .unwrap_or("po"),
            ),
            gettext_first: gettext_first(book_config),
            run: RunMode::read(raw.run.as_ref())?,
        })
    }
}

/// `[preprocessor.companion]` (an empty table when there is none) with
/// the keys this layer does not know taken out: those are the
/// directives' (or mistakes), kept apart for the book layer to check.
fn split_table(book_config: &Value) -> (Value, BTreeMap<String, Value>) {
    let table = book_config
        .pointer("/preprocessor/companion")
        .filter(|v| !v.is_null())
        .cloned()
        .unwrap_or(Value::Object(Default::default()));
    let mut others = BTreeMap::new();
    let table = match table {
        Value::Object(mut map) => {
            let ours = keys();
            let theirs: Vec<String> = map
                .keys()
                .filter(|k| !ours.contains(&k.as_str()))
                .cloned()
                .collect();
            for key in theirs {
                if let Some(v) = map.remove(&key) {
                    others.insert(key, v);
                }
            }
            Value::Object(map)
        }
        other => other,
    };
    (table, others)
}

/// `[rust] edition`: 2021 when unset, else one of [`EDITIONS`].
fn edition(book_config: &Value) -> Result<u16, ConfigError> {
    Ok(match book_config.pointer("/rust/edition") {
        None | Some(Value::Null) => 2021,
        Some(v) => {
            let text = v
                .as_str()
                .map(str::to_owned)
                .unwrap_or_else(|| v.to_string());
            text.parse::<u16>()
                .ok()
                .filter(|e| EDITIONS.contains(e))
                .ok_or_else(|| {
                    ConfigError::new(format!(
                        "[rust] edition is `{text}`; expected one of 2015, 2018, 2021, 2024"
                    ))
                })?
        }
    })
}

/// `languages`: the languages the book declares, an error keeping the
/// path of its key.
fn languages(
    table: Option<&Value>,
) -> Result<Vec<&'static crate::languages::Language>, ConfigError> {
    crate::languages::declared(table).map_err(|(key, message)| ConfigError {
        message: format!("{}: {message}", key.join(".")),
        key,
        at: None,
    })
}

/// `asm-syntax`: Intel or AT&T, the default when unset.
fn asm_syntax(value: Option<&str>) -> Result<crate::machine::Syntax, ConfigError> {
    match value {
        None => Ok(crate::machine::Syntax::default()),
        Some(v) => crate::machine::Syntax::parse(v).ok_or_else(|| {
            ConfigError::new(format!(
                "asm-syntax is `{v}`; expected {}",
                crate::machine::Syntax::KNOWN
            ))
        }),
    }
}

/// `asm-arch`: one of the architectures we know, the default when unset.
fn asm_arch(value: Option<String>) -> Result<String, ConfigError> {
    match value {
        None => Ok(crate::machine::DEFAULT_ARCH.to_owned()),
        Some(a) if crate::machine::ARCHES.contains(&a.as_str()) => Ok(a),
        Some(a) => Err(ConfigError::new(format!(
            "asm-arch is `{a}`; expected one of {}",
            crate::machine::ARCHES.join(", ")
        ))),
    }
}

/// A number of seconds of at least 1 (`timeout`, `hang-guard`), `default`
/// when unset.
fn seconds(key: &str, value: Option<u64>, default: u64) -> Result<Duration, ConfigError> {
    Ok(Duration::from_secs(match value {
        Some(0) => {
            return Err(ConfigError::new(format!(
                "{key} is 0; expected a number of seconds of at least 1"
            )));
        }
        Some(t) => t,
        None => default,
    }))
}

/// `c-hidden-prefix`: a marker that is not blank, `~ ` when unset.
fn c_hidden_prefix(value: Option<String>) -> Result<String, ConfigError> {
    match value {
        Some(p) if p.trim().is_empty() => Err(ConfigError::new(
            "c-hidden-prefix is blank; expected a marker such as \"~ \"",
        )),
        Some(p) => Ok(p),
        None => Ok("~ ".to_owned()),
    }
}

/// Whether the book renders HTML: it names no output, or names `html`.
fn renders_html(book_config: &Value) -> bool {
    match book_config.pointer("/output").and_then(Value::as_object) {
        Some(outputs) => outputs.is_empty() || outputs.contains_key("html"),
        None => true,
    }
}

/// `dependencies`: the entries read, an error's key under `dependencies`.
fn dependencies(table: Option<&Value>) -> Result<Vec<Dependency>, ConfigError> {
    Dependency::parse_table(table.unwrap_or(&Value::Null)).map_err(|e| ConfigError {
        message: e.message,
        key: std::iter::once("dependencies".to_owned())
            .chain(e.key)
            .collect(),
        at: None,
    })
}

/// The list of paths at `pointer` of the book's configuration.
fn paths(book_config: &Value, pointer: &str) -> Vec<PathBuf> {
    (book_config.pointer(pointer))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(PathBuf::from)
                .collect()
        })
        .unwrap_or_default()
}

/// Whether mdBook runs `[preprocessor.gettext]` before us: our `after`
/// names it, or its `before` names us (`None` when the book has none).
fn gettext_first(book_config: &Value) -> Option<bool> {
    let gettext = book_config.pointer("/preprocessor/gettext")?;
    let names = |v: Option<&Value>, name: &str| {
        v.and_then(Value::as_array)
            .is_some_and(|a| a.iter().any(|n| n.as_str() == Some(name)))
    };
    let ours = book_config.pointer("/preprocessor/companion");
    Some(
        names(ours.and_then(|c| c.get("after")), "gettext")
            || names(gettext.get("before"), "companion"),
    )
}

/// `output-filters`: each pattern a regular expression, with its
/// replacement.
fn output_filters(
    table: std::collections::BTreeMap<String, String>,
) -> Result<Vec<OutputFilter>, ConfigError> {
    table
        .into_iter()
        .map(|(pattern, replacement)| {
            let regex = regex::Regex::new(&pattern).map_err(|e| {
                ConfigError::new(format!(
                    "output-filters: `{pattern}` is not a regular expression ({}); expected a pattern of the regex crate, such as \"0x[0-9a-f]+\"",
                    e.to_string().lines().last().unwrap_or("invalid").trim().trim_start_matches("error: ")
                ))
            })?;
            Ok(OutputFilter {
                pattern: regex,
                replacement,
            })
        })
        .collect()
}

/// A link setting: the default address, none, or an http(s) address
/// (ending in `/`).
fn link(
    key: &str,
    setting: Option<LinkSetting>,
    default: &str,
) -> Result<Option<String>, ConfigError> {
    match setting {
        None | Some(LinkSetting::Enabled(true)) => Ok(Some(default.to_owned())),
        Some(LinkSetting::Enabled(false)) => Ok(None),
        Some(LinkSetting::Url(url)) => {
            if !(url.starts_with("https://") || url.starts_with("http://")) {
                return Err(ConfigError::new(format!(
                    "{key} is `{url}`; expected an http:// or https:// address, or false"
                )));
            }
            let mut url = url;
            if !url.ends_with('/') {
                url.push('/');
            }
            Ok(Some(url))
        }
    }
}

/// A Compiler Explorer compiler id, `default` when unset.
fn compiler_id(key: &str, id: Option<String>, default: &str) -> Result<String, ConfigError> {
    let id = id.unwrap_or_else(|| default.to_owned());
    if id.is_empty()
        || !id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return Err(ConfigError::new(format!(
            "{key} is `{id}`; expected a Compiler Explorer compiler id such as `{default}`"
        )));
    }
    Ok(id)
}

/// Reads `memory`: a whole number of MiB (`2048`), or a size with its unit
/// (`"512 MiB"`, `"2 GiB"`), or `"unlimited"`; at least 16 MiB.
fn memory(value: Option<&Value>) -> Result<Option<u64>, ConfigError> {
    let expected = "expected a size such as \"2 GiB\" or \"512 MiB\" (a bare number is MiB), at least 16 MiB, or \"unlimited\"";
    let bytes = match value {
        None => return Ok(Some(DEFAULT_MEMORY)),
        Some(Value::Number(mib)) => mib.as_u64().and_then(|m| m.checked_mul(1 << 20)),
        Some(Value::String(s)) if s.trim() == "unlimited" => return Ok(None),
        Some(Value::String(s)) => {
            let s = s.trim();
            let split = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
            let (number, unit) = s.split_at(split);
            let shift = match unit.trim() {
                "" | "MiB" | "M" | "MB" => Some(20),
                "GiB" | "G" | "GB" => Some(30),
                "KiB" | "K" | "KB" => Some(10),
                _ => None,
            };
            number
                .parse::<u64>()
                .ok()
                .zip(shift)
                .and_then(|(n, shift)| n.checked_mul(1 << shift))
        }
        Some(_) => None,
    };
    match bytes {
        Some(b) if b >= 16 << 20 => Ok(Some(b)),
        _ => Err(ConfigError::new(format!(
            "memory is `{}`; {expected}",
            value.map(ToString::to_string).unwrap_or_default()
        ))),
    }
}
