//! mdBook's preprocessor protocol: `[context, book]` JSON on stdin, the
//! book JSON on stdout.
//!
//! The input is read as plain JSON rather than through mdBook's types, so
//! one binary accepts both mdBook 0.5 (`{"items": …}`) and mdBook 0.4
//! (`{"sections": …, "__non_exhaustive": null}`, config values that may be
//! `null`) and answers in the shape it was given: every field it does not
//! change goes back out untouched. The usual input is read lazily
//! ([`crate::book::lazy`]): only chapters that may hold a directive are decoded,
//! everything else is written back byte for byte.

use mdbook_companion_core::config::{Config, ConfigError};
use mdbook_companion_core::problem::Located;
use mdbook_companion_directives::Target;
use serde_json::Value;
use std::path::PathBuf;

/// The preprocessor's name in book.toml: `[preprocessor.companion]`.
pub const NAME: &str = "companion";

/// Everything that can stop the preprocessor.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// mdBook's input could not be read or had the wrong shape.
    #[error("{0}")]
    Input(String),
    /// The book's configuration is wrong.
    #[error(transparent)]
    Config(#[from] mdbook_companion_core::config::ConfigError),
    /// The book's toolchain file selects a toolchain that cannot be had.
    #[error("{0}")]
    Toolchain(String),
    /// One or more directives are wrong.
    #[error("{}", format_located(.0))]
    Directives(Vec<Located>),
    /// Writing the book back failed (for example, mdBook closed the pipe).
    #[error("could not write the book to standard output: {0}")]
    Output(#[source] std::io::Error),
}

fn format_located(errors: &[Located]) -> String {
    let mut s = String::new();
    for (i, e) in errors.iter().enumerate() {
        if i > 0 {
            s.push('\n');
        }
        s.push_str(&e.to_string());
    }
    if errors.len() > 1 {
        s.push_str(&format!("\n{} directives have errors", errors.len()));
    }
    s
}

/// The mdBook versions this binary is tested with. Others get a warning,
/// never a failure.
pub const TESTED_MDBOOK: &str = ">=0.4.36, <0.6.0";

/// The parts of mdBook's context we use.
#[derive(Debug)]
pub struct MdbookContext {
    /// The book root.
    pub root: PathBuf,
    /// The renderer the book is being prepared for.
    pub renderer: String,
    /// The calling mdBook's version.
    pub mdbook_version: String,
    /// The checked configuration.
    pub config: Config,
}

/// What to do instead of giving the preprocessor its input by hand.
pub const HOW_TO_RUN: &str = "run mdbook-companion through mdBook, or use `mdbook-companion build`";

/// The message for a standard input that is a terminal: the preprocessor
/// would wait for JSON nobody types.
pub fn terminal_input() -> String {
    format!(
        "expected mdBook's JSON `[context, book]` on standard input, but it is a terminal; {HOW_TO_RUN} (`mdbook-companion --help` lists the commands)"
    )
}

/// Reads `[context, book]` from JSON text.
pub fn parse_input(input: &str) -> Result<(MdbookContext, Value), Error> {
    let value: Value = serde_json::from_str(input).map_err(|e| {
        Error::Input(format!(
            "expected mdBook's JSON `[context, book]` on standard input, but it is not JSON ({e}); {HOW_TO_RUN}"
        ))
    })?;
    let Value::Array(mut parts) = value else {
        return Err(Error::Input(format!(
            "expected a JSON array `[context, book]` on standard input; found {}",
            kind(&value)
        )));
    };
    if parts.len() != 2 {
        return Err(Error::Input(format!(
            "expected a JSON array of two elements `[context, book]`; found {} elements",
            parts.len()
        )));
    }
    let book = parts.pop().unwrap_or(Value::Null);
    let ctx = parts.pop().unwrap_or(Value::Null);
    let has_items = |k: &str| book.get(k).is_some_and(Value::is_array);
    if !(has_items("items") || has_items("sections")) {
        return Err(Error::Input(
            "expected the book to have `items` (mdBook 0.5) or `sections` (mdBook 0.4); found neither".into(),
        ));
    }
    Ok((context(&ctx)?, book))
}

/// The parts of mdBook's context we use, checked.
pub fn context(ctx: &Value) -> Result<MdbookContext, Error> {
    let text = |key: &str| ctx.get(key).and_then(Value::as_str);
    let (Some(root), Some(renderer)) = (text("root"), text("renderer")) else {
        return Err(Error::Input(
            "expected the context to have `root` and `renderer` strings; found it without them"
                .into(),
        ));
    };
    let root = PathBuf::from(root);
    let config = config(root.clone(), ctx.get("config").unwrap_or(&Value::Null))?;
    Ok(MdbookContext {
        root,
        renderer: renderer.to_owned(),
        mdbook_version: text("mdbook_version").unwrap_or("").to_owned(),
        config,
    })
}

/// The book's configuration from the JSON form of its book.toml; an error
/// at a key is placed in the book.toml at `root` (line and column).
pub fn config(root: PathBuf, book_config: &Value) -> Result<Config, Error> {
    let toml = root.join("book.toml");
    let checked = Config::from_json(root, book_config)
        .and_then(|config| {
            config
                .check_keys(&mdbook_companion_directives::keys())
                .map(|()| config)
        })
        .and_then(|config| {
            // The crates' table read against the disk: path crates and the
            // `cargo-manifest` must be there.
            match mdbook_companion_engine::crates::for_book(&config).error() {
                None => Ok(config),
                Some(e) => {
                    let mut err = ConfigError::new(e);
                    err.key = match e.strip_prefix("dependencies.") {
                        Some(rest) => vec![
                            "dependencies".into(),
                            rest.split(':').next().unwrap_or_default().into(),
                        ],
                        None => vec!["cargo-manifest".into()],
                    };
                    Err(err)
                }
            }
        });
    let mut config = checked.map_err(|e| match std::fs::read_to_string(&toml) {
        Ok(text) if !e.key.is_empty() => e.locate(&text),
        _ => e,
    })?;
    // The compiler the book's toolchain file selects, as `mdbook test`
    // gets it from rustup in the book's directory.
    if config.rustc == "rustc"
        && let Some(t) =
            mdbook_companion_engine::toolchain::of_book(&config.root).map_err(Error::Toolchain)?
    {
        config.rustc = t.rustc.to_string_lossy().into_owned();
        config.rustc_from = Some(t.name);
    }
    Ok(config)
}

/// A warning when `version` is outside [`TESTED_MDBOOK`].
pub fn version_warning(version: &str) -> Option<String> {
    let req = semver::VersionReq::parse(TESTED_MDBOOK).ok()?;
    match semver::Version::parse(version) {
        Ok(v) if req.matches(&v) => None,
        Ok(v) => Some(format!(
            "mdbook-companion {} is tested with mdBook {TESTED_MDBOOK}, but is being called by mdBook {v}; carrying on",
            env!("CARGO_PKG_VERSION")
        )),
        Err(_) => Some(format!(
            "could not read the calling mdBook's version `{version}`; carrying on"
        )),
    }
}

/// Warns about an untested mdBook version; the target of its renderer.
pub fn start(ctx: &MdbookContext) -> Target {
    if let Some(w) = version_warning(&ctx.mdbook_version) {
        tracing::warn!("{w}");
    }
    Target::for_renderer(&ctx.renderer)
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_inside_the_tested_range_are_quiet() {
        assert_eq!(version_warning("0.5.4"), None);
        assert_eq!(version_warning("0.4.52"), None);
        assert!(
            version_warning("0.6.0")
                .unwrap()
                .contains("tested with mdBook")
        );
        assert!(version_warning("0.3.7").is_some());
        assert!(
            version_warning("banana")
                .unwrap()
                .contains("could not read")
        );
    }

    #[test]
    fn wrong_shapes_are_clear_errors() {
        let cases = [
            ("not json", "it is not JSON"),
            ("{}", "found an object"),
            ("[1]", "found 1 elements"),
            ("[{}, {\"chapters\": []}]", "found neither"),
            ("[{}, {\"items\": []}]", "`root` and `renderer`"),
        ];
        for (input, want) in cases {
            let err = parse_input(input).unwrap_err().to_string();
            assert!(err.contains(want), "{input}: {err}");
        }
    }
}
