//! Links that open code in the Rust Playground and in Compiler Explorer.
//!
//! Both sites take the code in the address itself, so nothing is uploaded
//! at build time and no test talks to either site. A Compiler Explorer link
//! is a base64 `ClientState` (one session per language, side by side);
//! when plain JSON would make an address longer than [`MAX_URL_LEN`], the
//! JSON is zlib-compressed, which Compiler Explorer detects by its first
//! byte. The Playground link carries the
//! code as a form-urlencoded query value, escaping only what must be.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE;
use flate2::Compression;
use flate2::write::ZlibEncoder;
use percent_encoding::{AsciiSet, utf8_percent_encode};
use serde::Serialize;
use std::io::Write as _;

/// The longest address we emit: the sites' front proxies refuse request
/// lines past 8 KiB.
pub const MAX_URL_LEN: usize = 8000;

/// Bytes escaped in the Playground's `code` value. The Playground reads its
/// query with `qs` (as `application/x-www-form-urlencoded`), so a space is
/// written `+` and everything RFC 3986 allows in a query stays literal
/// except what that format gives a meaning (`&`, `+`, `%`, `=` is safe after
/// the first), `#`, quotes, `<`, `>`, and the brackets `qs` reads in keys.
/// Code is mostly punctuation, so this keeps addresses much shorter than
/// escaping every non-alphanumeric byte, which also makes the
/// pages lighter for mdBook to render and for readers to load.
const QUERY: &AsciiSet = &percent_encoding::CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'&')
    .add(b'\'')
    .add(b'+')
    .add(b'<')
    .add(b'>')
    .add(b'[')
    .add(b']')
    .add(b'\\')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

/// `value` escaped for a query, a space as `+`.
fn query_value(value: &str) -> String {
    utf8_percent_encode(value, QUERY)
        .map(|chunk| if chunk == "%20" { "+" } else { chunk })
        .collect()
}

/// Debug or release, as the Playground and rustc understand them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Unoptimised, with debug assertions and overflow checks.
    Debug,
    /// Optimised.
    Release,
}

impl Mode {
    /// The Playground's name for the mode.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Debug => "debug",
            Mode::Release => "release",
        }
    }

    /// rustc's optimisation level for the mode, as Cargo's profiles set it.
    pub fn opt_level(self) -> u8 {
        match self {
            Mode::Debug => 0,
            Mode::Release => 3,
        }
    }
}

/// A link that could not be made at full length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooLong {
    /// The address without code, to use instead.
    pub fallback: String,
    /// How long the full address would have been.
    pub len: usize,
}

/// The Playground address that opens `program` (the full source).
pub fn playground(base: &str, program: &str, edition: u16, mode: Mode) -> Result<String, TooLong> {
    let head = format!(
        "{base}?version=stable&mode={}&edition={edition}",
        mode.as_str()
    );
    let url = format!("{head}&code={}", query_value(program));
    if url.len() > MAX_URL_LEN {
        return Err(TooLong {
            fallback: head,
            len: url.len(),
        });
    }
    Ok(url)
}

/// One editor and compiler pane in a Compiler Explorer session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Pane {
    /// Compiler Explorer's language id: `c`, `c++` or `rust`.
    pub language: &'static str,
    /// The full source, hidden lines included.
    pub source: String,
    /// The compiler id, such as `r1950`.
    pub compiler: String,
    /// Compiler options, such as `-C opt-level=2 --edition=2021`.
    pub options: String,
}

#[derive(Serialize)]
struct ClientState<'a> {
    sessions: Vec<StateSession<'a>>,
}

#[derive(Serialize)]
struct StateSession<'a> {
    id: usize,
    language: &'a str,
    source: &'a str,
    compilers: [StateCompiler<'a>; 1],
}

#[derive(Serialize)]
struct StateCompiler<'a> {
    id: &'a str,
    options: &'a str,
}

/// The Compiler Explorer address that opens every session side by side.
pub fn compiler_explorer(base: &str, sessions: &[Pane]) -> Result<String, TooLong> {
    let state = ClientState {
        sessions: sessions
            .iter()
            .enumerate()
            .map(|(i, s)| StateSession {
                id: i + 1,
                language: s.language,
                source: &s.source,
                compilers: [StateCompiler {
                    id: &s.compiler,
                    options: &s.options,
                }],
            })
            .collect(),
    };
    // Serialising plain structs of strings cannot fail.
    let json = serde_json::to_vec(&state).unwrap_or_default();
    let url = format!("{base}clientstate/{}", URL_SAFE.encode(&json));
    if url.len() <= MAX_URL_LEN {
        return Ok(url);
    }
    // Compressing costs a compressor's set-up (tens of microseconds, more
    // than the rest of the link), so only a state too long for an address
    // is compressed.
    let mut z = ZlibEncoder::new(Vec::new(), Compression::best());
    let packed = z
        .write_all(&json)
        .and_then(|()| z.finish())
        .unwrap_or_default();
    let url = format!("{base}clientstate/{}", URL_SAFE.encode(&packed));
    if url.len() <= MAX_URL_LEN {
        return Ok(url);
    }
    Err(TooLong {
        fallback: base.to_owned(),
        len: url.len(),
    })
}

/// The options Compiler Explorer gets for a C or C++ session: `-O2`, and
/// the sanitizers the side runs under (`-fsanitize=address`), so the
/// link shows what the checker saw.
pub fn c_options(sanitize: crate::sanitize::Sanitize) -> String {
    match sanitize.fsanitize() {
        s if s.is_empty() => "-O2".to_owned(),
        s => format!("-O2 -g -fsanitize={s}"),
    }
}

/// The rustc options Compiler Explorer gets for a Rust session.
pub fn rust_options(edition: u16, opt_level: u8) -> String {
    format!("-C opt-level={opt_level} --edition={edition}")
}

/// Decodes a `clientstate` address back into its JSON, as Compiler
/// Explorer reads it (base64, then zlib when the first byte says so): the
/// inverse of [`compiler_explorer`], for tests of every layer that makes
/// links. `None` when the address is not one we could have made.
pub fn decode_client_state(url: &str) -> Option<serde_json::Value> {
    use flate2::read::ZlibDecoder;
    use std::io::Read as _;
    let b64 = url.rsplit('/').next()?;
    let bytes = URL_SAFE.decode(b64).ok()?;
    let json = if bytes.first() == Some(&0x78) {
        let mut s = Vec::new();
        ZlibDecoder::new(&bytes[..]).read_to_end(&mut s).ok()?;
        s
    } else {
        bytes
    };
    serde_json::from_slice(&json).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn playground_link_carries_edition_mode_and_code() {
        let url = playground(
            "https://play.rust-lang.org/",
            "fn main() { a + b; }\n",
            2021,
            Mode::Release,
        )
        .unwrap();
        assert_eq!(
            url,
            "https://play.rust-lang.org/?version=stable&mode=release&edition=2021&code=fn+main()+%7B+a+%2B+b;+%7D%0A"
        );
    }

    #[test]
    fn playground_code_reads_back_as_the_playground_reads_it() {
        // Every byte class that could end the value early, start a
        // fragment, break out of an attribute, or be read by `qs` as part
        // of a key (`]=`).
        let program =
            "let a = [1, 2]; a[0]=b&c+d%20e#f \"g\" 'h' <i> {j} |k| `l` \\ ^ ~ é 🦀\n\tm\r\n";
        let url = playground("https://p/", program, 2021, Mode::Debug).unwrap();
        let query = url.split_once('?').unwrap().1;
        let code: Vec<_> = form_urlencoded::parse(query.as_bytes())
            .filter(|(k, _)| k == "code")
            .map(|(_, v)| v.into_owned())
            .collect();
        assert_eq!(code, [program]);
        let value = query.split_once("&code=").unwrap().1;
        for c in [' ', '&', '#', '"', '\'', '<', '>', '[', ']', '\n', '\\'] {
            assert!(!value.contains(c), "{c:?} left literal in {value}");
        }
    }

    #[test]
    fn playground_link_falls_back_when_too_long() {
        let code = "x".repeat(MAX_URL_LEN);
        let err = playground("https://p/", &code, 2021, Mode::Debug).unwrap_err();
        assert_eq!(
            err.fallback,
            "https://p/?version=stable&mode=debug&edition=2021"
        );
    }

    #[test]
    fn compiler_explorer_state_round_trips() {
        let s = Pane {
            language: "rust",
            source: "pub fn f() {}\n".into(),
            compiler: "r1950".into(),
            options: rust_options(2021, 2),
        };
        let url = compiler_explorer("https://godbolt.org/", &[s]).unwrap();
        assert!(url.starts_with("https://godbolt.org/clientstate/"));
        let state = decode_client_state(&url).unwrap();
        assert_eq!(
            state,
            serde_json::json!({"sessions": [{"id": 1, "language": "rust", "source": "pub fn f() {}\n",
                "compilers": [{"id": "r1950", "options": "-C opt-level=2 --edition=2021"}]}]})
        );
    }

    #[test]
    fn long_compiler_explorer_state_is_compressed() {
        let source = "pub fn f() -> u32 { 1 }\n".repeat(400);
        let s = Pane {
            language: "rust",
            source: source.clone(),
            compiler: "r1950".into(),
            options: String::new(),
        };
        let url = compiler_explorer("https://godbolt.org/", &[s]).unwrap();
        assert!(url.len() <= MAX_URL_LEN);
        assert_eq!(
            decode_client_state(&url).unwrap()["sessions"][0]["source"],
            source.as_str()
        );
    }
}
