//! Links that open code in the Rust Playground and in Compiler Explorer.
//!
//! Both sites take the code in the address itself, so nothing is uploaded
//! at build time and no test talks to either site. A Compiler Explorer link
//! is a base64 `ClientState` (one session per language, side by side);
//! when plain JSON would make an address longer than [`MAX_URL_LEN`], the
//! JSON is zlib-compressed, which Compiler Explorer detects by its first
//! byte.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE;
use flate2::Compression;
use flate2::write::ZlibEncoder;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde::Serialize;
use std::io::Write as _;

/// The longest address we emit: the sites' front proxies refuse request
/// lines past 8 KiB.
pub const MAX_URL_LEN: usize = 8000;

/// Characters escaped in a query value: all but unreserved ones.
const QUERY: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~');

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
    let url = format!("{head}&code={}", utf8_percent_encode(program, QUERY));
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
pub struct Session {
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
pub fn compiler_explorer(base: &str, sessions: &[Session]) -> Result<String, TooLong> {
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

/// The rustc options Compiler Explorer gets for a Rust session.
pub fn rust_options(edition: u16, opt_level: u8) -> String {
    format!("-C opt-level={opt_level} --edition={edition}")
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use flate2::read::ZlibDecoder;
    use std::io::Read as _;

    /// Decodes a `clientstate` address back into its JSON.
    pub(crate) fn decode_client_state(url: &str) -> serde_json::Value {
        let b64 = url.rsplit('/').next().unwrap();
        let bytes = URL_SAFE.decode(b64).unwrap();
        let json = if bytes.first() == Some(&0x78) {
            let mut s = Vec::new();
            ZlibDecoder::new(&bytes[..]).read_to_end(&mut s).unwrap();
            s
        } else {
            bytes
        };
        serde_json::from_slice(&json).unwrap()
    }

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
            "https://play.rust-lang.org/?version=stable&mode=release&edition=2021&code=fn%20main%28%29%20%7B%20a%20%2B%20b%3B%20%7D%0A"
        );
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
        let s = Session {
            language: "rust",
            source: "pub fn f() {}\n".into(),
            compiler: "r1950".into(),
            options: rust_options(2021, 2),
        };
        let url = compiler_explorer("https://godbolt.org/", &[s]).unwrap();
        assert!(url.starts_with("https://godbolt.org/clientstate/"));
        let state = decode_client_state(&url);
        assert_eq!(
            state,
            serde_json::json!({"sessions": [{"id": 1, "language": "rust", "source": "pub fn f() {}\n",
                "compilers": [{"id": "r1950", "options": "-C opt-level=2 --edition=2021"}]}]})
        );
    }

    #[test]
    fn long_compiler_explorer_state_is_compressed() {
        let source = "pub fn f() -> u32 { 1 }\n".repeat(400);
        let s = Session {
            language: "rust",
            source: source.clone(),
            compiler: "r1950".into(),
            options: String::new(),
        };
        let url = compiler_explorer("https://godbolt.org/", &[s]).unwrap();
        assert!(url.len() <= MAX_URL_LEN);
        assert_eq!(
            decode_client_state(&url)["sessions"][0]["source"],
            source.as_str()
        );
    }
}
