//! Assembly at build time: what the local compiler makes of a block.
//!
//! A reader comparing C and Rust wants to see the machine code of the
//! functions they read, not a whole assembler listing. So each block is
//! compiled with the book's own `cc` or `rustc` (`-O2` / `opt-level=2`, to
//! assembly, as a library), and [`filter`] keeps only the functions whose
//! names appear in the visible code: their labels, their instructions and
//! the local labels those instructions jump to, with assembler directives,
//! comments, blank lines and hidden helpers (such as a hidden `main`)
//! removed. Rust and C++ symbol names are demangled.
//!
//! Compiling is slow next to the rest of a build, so results are cached by
//! content (source, visible functions, compiler version, flags) in the
//! book's [`Cache`] under the namespace `"asm"`: a second build of an
//! unchanged book runs no compiler.

use crate::core::config::Config;
use crate::core::lang::{Compiler, Lang};
use crate::core::links::Mode;
use crate::engine::cache::Cache;
use crate::engine::crates;
use crate::engine::exec::{self, Limits};
use std::fmt;

/// The cache namespace of assembly listings.
pub const NAMESPACE: &str = "asm";

/// The file a block is compiled from (`cc` picks C++ by the `.cpp` name).
fn file_name(lang: Lang) -> &'static str {
    match lang {
        Lang::C => "block.c",
        Lang::Cpp => "block.cpp",
        Lang::Rust => "block.rs",
        Lang::Python => "block.py",
    }
}

/// What to compile.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// The language (one that compiles: C, C++ or Rust).
    pub lang: Lang,
    /// The whole program, hidden lines included.
    pub source: &'a str,
    /// The code the reader sees; its functions are the ones kept.
    pub shown: &'a str,
    /// The Rust edition (ignored for C and C++).
    pub edition: u16,
}

impl Request<'_> {
    /// The compiler that makes the assembly (`cc` for anything that is not
    /// Rust).
    pub fn compiler(&self) -> Compiler {
        self.lang.compiler().unwrap_or(Compiler::Cc)
    }
}

/// Why no assembly could be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AsmError {
    /// The compiler could not be started.
    Missing {
        /// The command that was tried.
        program: String,
        /// The operating system's message.
        error: String,
    },
    /// The compiler ran and rejected the code.
    Rejected {
        /// The command.
        program: String,
        /// The first lines of its error output.
        stderr: String,
    },
    /// The compiler did not finish within the time limit.
    TimedOut {
        /// The command.
        program: String,
        /// The limit in seconds.
        seconds: u64,
    },
    /// A temporary file could not be written or read.
    Io(String),
}

impl AsmError {
    /// True when the code itself is at fault (rather than the machine).
    pub fn is_code_error(&self) -> bool {
        matches!(self, AsmError::Rejected { .. })
    }
}

impl fmt::Display for AsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AsmError::Missing { program, error } => {
                write!(f, "cannot run the compiler `{program}` ({error})")
            }
            AsmError::Rejected { program, stderr } => {
                write!(f, "`{program}` rejected the code: {stderr}")
            }
            AsmError::TimedOut { program, seconds } => {
                write!(f, "`{program}` took longer than {seconds} s")
            }
            AsmError::Io(e) => write!(f, "cannot prepare the compilation: {e}"),
        }
    }
}

/// Where a listing came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Read from the cache: no compiler ran.
    Cache,
    /// Made by running the compiler (and then stored in the cache).
    Compiler,
    /// Taken from the book's `companion.lock`: no compiler ran.
    Lock,
}

/// A listing and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Made {
    /// The filtered listing.
    pub listing: String,
    /// Where it came from.
    pub origin: Origin,
    /// The compiler's version that made it.
    pub toolchain: String,
    /// Its name in the lock ([`lock_key`]).
    pub hash: String,
}

/// The program and arguments that compile `lang` to `out.s` in the
/// current directory.
fn command(req: &Request<'_>, config: &Config) -> (String, Vec<String>) {
    let file = file_name(req.lang).to_owned();
    match req.compiler() {
        Compiler::Cc => (
            config.cc.clone(),
            vec![
                "-O2".into(),
                "-S".into(),
                "-fno-asynchronous-unwind-tables".into(),
                "-o".into(),
                "out.s".into(),
                file,
            ],
        ),
        Compiler::Rustc => (
            config.rustc.clone(),
            vec![
                "--emit".into(),
                "asm".into(),
                "-C".into(),
                "opt-level=2".into(),
                "--crate-type".into(),
                "lib".into(),
                "--crate-name".into(),
                "example".into(),
                // Keep functions the library does not export: the reader's
                // private `fn`s are what they want to see.
                "-C".into(),
                "link-dead-code".into(),
                "-A".into(),
                "warnings".into(),
                format!("--edition={}", req.edition),
                "-o".into(),
                "out.s".into(),
                file,
            ],
        ),
    }
}

/// The filtered assembly of the functions the reader wrote, from the cache
/// when an identical request was compiled before.
pub fn assembly(req: &Request<'_>, config: &Config, cache: &Cache) -> Result<String, AsmError> {
    assembly_from(req, config, cache).map(|(listing, _)| listing)
}

/// [`assembly`], also telling whether a compiler ran.
pub fn assembly_from(
    req: &Request<'_>,
    config: &Config,
    cache: &Cache,
) -> Result<(String, Origin), AsmError> {
    made(req, config, cache, None).map(|m| (m.listing, m.origin))
}

/// The functions of the listing the reader wrote.
fn kept(req: &Request<'_>) -> Vec<String> {
    let mut keep = reader_functions(req.lang, req.shown);
    if keep.is_empty() {
        // Loose statements, wrapped in `main`: then `main` is the reader's.
        keep.push("main".into());
    }
    keep
}

/// The name of a request in `companion.lock`: the program, the functions
/// kept, the flags and the machine, but neither the compiler's path nor
/// its version (a machine without the compiler must find it).
pub fn lock_key(req: &Request<'_>, config: &Config) -> String {
    let (_, args) = command(req, config);
    crate::engine::lock::hash(&[
        b"asm-v1",
        req.compiler().key().as_bytes(),
        req.source.as_bytes(),
        kept(req).join(",").as_bytes(),
        args.join(" ").as_bytes(),
        std::env::consts::ARCH.as_bytes(),
    ])
}

/// The listing of `req`: from the cache, else from the lock (with no
/// compiler, or with the very compiler the lock names), else compiled.
pub fn made(
    req: &Request<'_>,
    config: &Config,
    cache: &Cache,
    lock: Option<&crate::engine::lock::Index>,
) -> Result<Made, AsmError> {
    let (program, mut args) = command(req, config);
    let keep = kept(req);
    let crates = crates::for_book(config);
    let used = match req.compiler() {
        Compiler::Rustc => crates.used_by(req.source),
        Compiler::Cc => Vec::new(),
    };
    let rejected = |stderr: String| AsmError::Rejected {
        program: program.clone(),
        stderr,
    };
    let fingerprint = match used.is_empty() {
        true => String::new(),
        false => crates.fingerprint().map_err(rejected)?.to_owned(),
    };
    let hash = match used.is_empty() {
        true => lock_key(req, config),
        false => {
            crate::engine::lock::hash(&[lock_key(req, config).as_bytes(), fingerprint.as_bytes()])
        }
    };
    let locked = lock.and_then(|l| l.assembly(&hash));
    let Some(version) = exec::tool_version_cached(&program, cache) else {
        return match locked {
            Some(a) => Ok(Made {
                listing: a.listing.clone(),
                origin: Origin::Lock,
                toolchain: a.toolchain.clone(),
                hash,
            }),
            None => Err(AsmError::Missing {
                program: program.clone(),
                error: "it did not answer a version query".into(),
            }),
        };
    };
    let made = |listing: String, origin| Made {
        listing,
        origin,
        toolchain: crate::engine::lock::toolchain(&version),
        hash: hash.clone(),
    };
    let key = Cache::key(&[
        req.source.as_bytes(),
        keep.join(",").as_bytes(),
        version.as_bytes(),
        program.as_bytes(),
        args.join(" ").as_bytes(),
        std::env::consts::ARCH.as_bytes(),
        fingerprint.as_bytes(),
    ]);
    if let Some(hit) = cache
        .get(NAMESPACE, &key)
        .and_then(|b| String::from_utf8(b).ok())
    {
        return Ok(made(hit, Origin::Cache));
    }
    if let Some(a) = locked.filter(|a| a.toolchain == crate::engine::lock::toolchain(&version)) {
        return Ok(made(a.listing.clone(), Origin::Lock));
    }
    if !used.is_empty() {
        // Against the debug libraries `check` uses: the example's own code
        // is what the listing shows, at its own opt-level.
        let extra = crates.args(Mode::Debug, &used).map_err(rejected)?;
        let at = args.len().saturating_sub(3);
        args.splice(at..at, extra);
    }
    let dir = exec::scratch_dir().map_err(|e| AsmError::Io(e.to_string()))?;
    std::fs::write(dir.path().join(file_name(req.lang)), req.source)
        .map_err(|e| AsmError::Io(e.to_string()))?;
    let finished = exec::run(
        exec::compiler_command(&program, dir.path()).args(&args),
        b"",
        Limits::with_timeout(config.timeout),
    )
    .map_err(|e| AsmError::Missing {
        program: program.clone(),
        error: e.to_string(),
    })?;
    if finished.timed_out {
        return Err(AsmError::TimedOut {
            program,
            seconds: config.timeout.as_secs(),
        });
    }
    if !finished.success() {
        let stderr: Vec<&str> = finished.stderr.lines().take(6).collect();
        return Err(AsmError::Rejected {
            program,
            stderr: stderr.join("\n"),
        });
    }
    let listing = std::fs::read_to_string(dir.path().join("out.s"))
        .map_err(|e| AsmError::Io(e.to_string()))?;
    let filtered = filter(&listing, req.lang, &keep);
    cache.put(NAMESPACE, &key, filtered.as_bytes());
    Ok(made(filtered, Origin::Compiler))
}

/// The names of the functions defined or called in the visible code: `fn
/// name` for Rust, `name(` for C and C++ (keywords excluded).
pub fn reader_functions(lang: Lang, shown: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut push = |n: &str| {
        if !n.is_empty() && !names.iter().any(|m| m == n) {
            names.push(n.to_owned());
        }
    };
    let idents = identifiers(shown);
    for (i, &(start, end)) in idents.iter().enumerate() {
        let word = &shown[start..end];
        match lang {
            Lang::Rust => {
                if word == "fn"
                    && let Some(&(s, e)) = idents.get(i + 1)
                {
                    push(&shown[s..e]);
                }
            }
            Lang::C | Lang::Cpp | Lang::Python => {
                let next = shown[end..].trim_start().chars().next();
                const KEYWORDS: [&str; 8] = [
                    "if", "while", "for", "switch", "return", "sizeof", "defined", "catch",
                ];
                if next == Some('(') && !KEYWORDS.contains(&word) {
                    push(word);
                }
            }
        }
    }
    // A visible `main` that drives the functions the block is about would
    // bury them under formatting machinery: it is shown only when it is the
    // only function.
    if names.len() > 1 {
        names.retain(|n| n != "main");
    }
    names
}

/// Rust's anonymous constants are labelled `.Lanon.<32 hex digits>.<n>`;
/// the hash is the same for the whole listing and only takes room, so it
/// becomes `.Lanon.<n>`.
fn shorten_anon(line: &str) -> String {
    const MARK: &str = ".Lanon.";
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find(MARK) {
        let after = &rest[at + MARK.len()..];
        let hash_len = after.bytes().take_while(u8::is_ascii_hexdigit).count();
        out.push_str(&rest[..at + MARK.len()]);
        rest = if hash_len >= 16 && after[hash_len..].starts_with('.') {
            &after[hash_len + 1..]
        } else {
            after
        };
    }
    out.push_str(rest);
    out
}

/// Byte ranges of identifiers in `code`.
fn identifiers(code: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in code.char_indices() {
        let ident = c == '_' || c.is_alphanumeric();
        match (start, ident) {
            (None, true) => start = Some(i),
            (Some(s), false) => {
                out.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, code.len()));
    }
    out
}

/// True when a function symbol of the listing is one of `keep`: the plain
/// name for C, the last path segment of the demangled name for Rust and
/// C++ (methods and namespaced functions included).
fn wanted(symbol: &str, lang: Lang, keep: &[String]) -> bool {
    match lang {
        Lang::C | Lang::Python => keep.iter().any(|k| k == symbol),
        Lang::Cpp => {
            // `ns::Type::name<T>(int) const` -> `name`.
            let shown = display_symbol(symbol, lang);
            let path = shown.split('(').next().unwrap_or(&shown);
            let path = path.split('<').next().unwrap_or(path);
            let last = path.rsplit("::").next().unwrap_or(path);
            keep.iter().any(|k| k == symbol || k == last)
        }
        Lang::Rust => {
            let name = display_symbol(symbol, lang);
            let last = name.rsplit("::").next().unwrap_or(&name);
            keep.iter().any(|k| k == last)
        }
    }
}

/// How a function's label is shown: Rust symbols demangled without their
/// hash and without the crate name, C++ symbols demangled.
fn display_symbol(symbol: &str, lang: Lang) -> String {
    match lang {
        Lang::C | Lang::Python => return symbol.to_owned(),
        Lang::Cpp => {
            return cpp_demangle::Symbol::new(symbol)
                .ok()
                .and_then(|s| s.demangle().ok())
                .unwrap_or_else(|| symbol.to_owned());
        }
        Lang::Rust => {}
    }
    match rustc_demangle::try_demangle(symbol) {
        Ok(d) => {
            let s = format!("{d:#}");
            match s.split_once("::") {
                Some((krate, rest)) if !krate.starts_with('<') => rest.to_owned(),
                _ => s,
            }
        }
        Err(_) => symbol.to_owned(),
    }
}

/// Replaces mangled Rust symbols inside an instruction by their readable
/// names.
fn demangle_operands(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find("_ZN").or_else(|| rest.find("_R")) {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let len = from
            .find(|c: char| !(c == '_' || c == '$' || c == '.' || c.is_ascii_alphanumeric()))
            .unwrap_or(from.len());
        let (sym, after) = from.split_at(len);
        match rustc_demangle::try_demangle(sym) {
            Ok(d) => out.push_str(&format!("{d:#}")),
            Err(_) => out.push_str(sym),
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// The comment marker of this machine's assembler syntax.
fn comment_marker() -> &'static str {
    match std::env::consts::ARCH {
        "arm" | "aarch64" => "//",
        _ => "#",
    }
}

/// Keeps the functions named in `keep` from an assembler listing: their
/// labels, instructions, and the local labels their instructions refer
/// to; drops directives, comments and blank lines. Functions are separated
/// by one blank line, in listing order.
pub fn filter(listing: &str, lang: Lang, keep: &[String]) -> String {
    let lines: Vec<&str> = listing.lines().collect();
    let functions: Vec<&str> = lines
        .iter()
        .filter_map(|l| {
            let rest = l.trim_start().strip_prefix(".type")?;
            let (name, kind) = rest.split_once(',')?;
            kind.contains("function").then_some(name.trim())
        })
        .collect();
    let marker = comment_marker();
    let mut blocks: Vec<String> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let label = lines[i]
            .strip_suffix(':')
            .filter(|l| !l.starts_with([' ', '\t']));
        let Some(name) = label.filter(|n| functions.contains(n)) else {
            i += 1;
            continue;
        };
        // The function runs to its `.size` directive or the next function.
        let mut body: Vec<&str> = Vec::new();
        let mut j = i + 1;
        while j < lines.len() {
            let l = lines[j];
            let t = l.trim();
            if t.starts_with(".size") && t.contains(name) {
                break;
            }
            if l.strip_suffix(':').is_some_and(|n| functions.contains(&n)) {
                break;
            }
            body.push(l);
            j += 1;
        }
        i = j;
        if !wanted(name, lang, keep) {
            continue;
        }
        let mut instructions: Vec<String> = Vec::new();
        for l in &body {
            let code = match l.find(marker) {
                Some(at) => &l[..at],
                None => l,
            };
            let t = code.trim();
            if t.is_empty() || (t.starts_with('.') && !t.ends_with(':')) {
                continue;
            }
            if let Some(local) = t.strip_suffix(':') {
                instructions.push(format!("{}:", shorten_anon(local)));
                continue;
            }
            let t = shorten_anon(&t.replace('\t', " "));
            let t = if lang == Lang::Rust {
                demangle_operands(&t)
            } else {
                t
            };
            instructions.push(format!("    {t}"));
        }
        // Local labels stay only when an instruction refers to them.
        let used = |label: &str| {
            instructions.iter().any(|ins| {
                ins.starts_with("    ")
                    && ins
                        .split(|c: char| !(c == '_' || c == '.' || c == '$' || c.is_alphanumeric()))
                        .any(|w| w == label)
            })
        };
        let mut text = format!("{}:\n", display_symbol(name, lang));
        for ins in &instructions {
            if let Some(local) = ins.strip_suffix(':').filter(|_| !ins.starts_with(' '))
                && !used(local)
            {
                continue;
            }
            text.push_str(ins);
            text.push('\n');
        }
        blocks.push(text);
    }
    blocks.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use std::path::PathBuf;

    fn config() -> Config {
        Config::from_json(PathBuf::from("/b"), &serde_json::json!({})).unwrap()
    }

    fn compile(lang: Lang, source: &str, shown: &str) -> String {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::for_book(dir.path());
        let req = Request {
            lang,
            source,
            shown,
            edition: 2021,
        };
        assembly(&req, &config(), &cache).unwrap_or_else(|e| panic!("{e}"))
    }

    fn labels(asm: &str) -> Vec<&str> {
        asm.lines()
            .filter(|l| !l.starts_with(' ') && l.ends_with(':'))
            .collect()
    }

    #[test]
    fn reader_functions_come_from_visible_code() {
        assert_eq!(
            reader_functions(
                Lang::Rust,
                "pub fn divide(a: i32) -> i32 { a }\nfn rest(a: i32) -> i32 { a }\n"
            ),
            ["divide", "rest"]
        );
        assert_eq!(
            reader_functions(
                Lang::C,
                "int divide(int a, int b) { if (b) return a / b; return sizeof (int); }\n"
            ),
            ["divide"]
        );
    }

    #[test]
    fn c_listing_keeps_only_the_readers_function() {
        let source =
            "int divide(int a, int b) { return a / b; }\nint main(void) { return divide(4, 2); }\n";
        let asm = compile(
            Lang::C,
            source,
            "int divide(int a, int b) { return a / b; }\n",
        );
        assert_eq!(labels(&asm), ["divide:"], "{asm}");
        assert!(asm.contains("idiv"), "{asm}");
        for line in asm.lines() {
            let t = line.trim();
            assert!(
                !t.starts_with('.') || t.ends_with(':'),
                "directive kept: {line}\n{asm}"
            );
            assert!(!t.is_empty() && !t.contains('#'), "blank or comment: {asm}");
        }
    }

    #[test]
    fn c_jump_targets_are_kept_and_unused_labels_dropped() {
        let source = "int sum(const int *v, int n) { int s = 0; for (int i = 0; i < n; i++) { if (v[i] < 0) break; s += v[i]; } return s; }\n";
        let asm = compile(Lang::C, source, source);
        assert_eq!(labels(&asm)[0], "sum:", "{asm}");
        let locals: Vec<&str> = labels(&asm)[1..].to_vec();
        assert!(!locals.is_empty(), "a loop has jump targets: {asm}");
        for l in locals {
            let name = l.trim_end_matches(':');
            assert!(
                asm.lines()
                    .any(|i| i.starts_with("    ") && i.contains(name)),
                "{name} is referenced\n{asm}"
            );
        }
        assert!(!asm.contains(".LFB") && !asm.contains(".LFE"), "{asm}");
    }

    #[test]
    fn rust_listing_is_demangled_and_hidden_main_dropped() {
        let source = "fn divide(a: i32, b: i32) -> i32 { a / b }\nfn main() { divide(1, 0); }\n";
        let asm = compile(
            Lang::Rust,
            source,
            "fn divide(a: i32, b: i32) -> i32 { a / b }\n",
        );
        assert_eq!(labels(&asm)[0], "divide:", "{asm}");
        assert!(!asm.contains("main:"), "{asm}");
        assert!(!asm.contains("_ZN"), "symbols are demangled: {asm}");
        assert!(asm.contains("idiv"), "{asm}");
        assert!(
            asm.contains("core::panicking::panic_const::panic_const_div_by_zero"),
            "{asm}"
        );
    }

    #[test]
    fn cpp_functions_match_their_mangled_names() {
        let source = "int twice(int x) { return 2 * x; }\nnamespace m { struct S { int v; int get() const; }; int S::get() const { return v; } }\n";
        let asm = compile(Lang::Cpp, source, source);
        assert_eq!(labels(&asm), ["twice(int):", "m::S::get() const:"], "{asm}");
    }

    #[test]
    fn main_is_kept_only_when_alone_and_anon_hashes_are_dropped() {
        let shown = "pub fn f(x: u32) -> u32 { x / 3 }\nfn main() { println!(\"{}\", f(9)); }\n";
        assert_eq!(reader_functions(Lang::Rust, shown), ["f"]);
        assert_eq!(reader_functions(Lang::Rust, "fn main() {}\n"), ["main"]);
        assert_eq!(
            reader_functions(Lang::C, "int f(void);\nint main(void) { return f(); }\n"),
            ["f"]
        );
        assert_eq!(
            shorten_anon("    leaq .Lanon.84aa650e52a326698febdc518806384d.2(%rip), %rdi"),
            "    leaq .Lanon.2(%rip), %rdi"
        );
        assert_eq!(shorten_anon(".Lanon.x.1 .Lanon."), ".Lanon.x.1 .Lanon.");
    }

    #[test]
    fn filter_on_a_fixed_listing() {
        let listing = "\t.text\n\t.globl\tf\n\t.type\tf, @function\nf:\n.LFB0:\n\t.cfi_startproc\n\ttestl\t%edi, %edi # test\n\tje\t.L2\n\tmovl\t$1, %eax\n.L2:\n\tret\n\t.cfi_endproc\n.LFE0:\n\t.size\tf, .-f\n\t.type\tg, @function\ng:\n\tret\n\t.size\tg, .-g\n";
        assert_eq!(
            filter(listing, Lang::C, &["f".into()]),
            "f:\n    testl %edi, %edi\n    je .L2\n    movl $1, %eax\n.L2:\n    ret\n"
        );
        assert_eq!(
            filter(listing, Lang::C, &["f".into(), "g".into()])
                .matches(':')
                .count(),
            3
        );
    }

    #[test]
    fn second_request_is_served_from_the_cache() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::for_book(dir.path());
        let source = "int cached_twice(int x) { return 2 * x; }\n";
        let req = Request {
            lang: Lang::C,
            source,
            shown: source,
            edition: 2021,
        };
        let (first, origin) = assembly_from(&req, &config(), &cache).unwrap();
        assert_eq!(origin, Origin::Compiler);
        // A new cache over the same directory, as the next build has.
        let again = Cache::for_book(dir.path());
        let mut cfg = config();
        let (second, origin) = assembly_from(&req, &cfg, &again).unwrap();
        assert_eq!((second.as_str(), origin), (first.as_str(), Origin::Cache));
        // A different flag set (another compiler) is another key.
        cfg.cc = "gcc".into();
        let (_, origin) = assembly_from(&req, &cfg, &again).unwrap();
        assert_eq!(origin, Origin::Compiler);
    }

    #[test]
    fn missing_compiler_and_bad_code_are_told_apart() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::for_book(dir.path());
        let mut cfg = config();
        cfg.cc = "/nonexistent/cc".into();
        let req = Request {
            lang: Lang::C,
            source: "int f(void) { return 1; }\n",
            shown: "",
            edition: 2021,
        };
        let e = assembly(&req, &cfg, &cache).unwrap_err();
        assert!(
            matches!(e, AsmError::Missing { .. }) && !e.is_code_error(),
            "{e}"
        );
        let req = Request {
            source: "int f(void) { return }\n",
            ..req
        };
        let e = assembly(&req, &config(), &cache).unwrap_err();
        assert!(e.is_code_error(), "{e}");
        assert!(e.to_string().contains("error"), "{e}");
    }

    #[test]
    fn corrupt_or_deleted_cache_entries_are_compiled_again() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::for_book(dir.path());
        let source = "int corrupt_me(int x) { return 3 * x; }\n";
        let req = Request {
            lang: Lang::C,
            source,
            shown: source,
            edition: 2021,
        };
        let (first, _) = assembly_from(&req, &config(), &cache).unwrap();
        let entries: Vec<PathBuf> =
            walk(&dir.path().join(crate::engine::cache::DIR).join(NAMESPACE));
        assert_eq!(entries.len(), 1);
        // A bit flipped in the stored listing: not shown, compiled again.
        let mut bytes = std::fs::read(&entries[0]).unwrap();
        let at = bytes.len() - 2;
        bytes[at] ^= 0x20;
        std::fs::write(&entries[0], &bytes).unwrap();
        let (second, origin) = assembly_from(&req, &config(), &cache).unwrap();
        assert_eq!(
            (second.as_str(), origin),
            (first.as_str(), Origin::Compiler)
        );
        // The entry was repaired: the next request is a hit again.
        let (_, origin) = assembly_from(&req, &config(), &cache).unwrap();
        assert_eq!(origin, Origin::Cache);
        // The whole cache deleted mid-run: compiled again, then cached again.
        std::fs::remove_dir_all(dir.path().join(crate::engine::cache::DIR)).unwrap();
        let (third, origin) = assembly_from(&req, &config(), &cache).unwrap();
        assert_eq!((third.as_str(), origin), (first.as_str(), Origin::Compiler));
        let (_, origin) = assembly_from(&req, &config(), &cache).unwrap();
        assert_eq!(origin, Origin::Cache);
    }

    fn walk(dir: &std::path::Path) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                out.extend(walk(&p));
            } else {
                out.push(p);
            }
        }
        out
    }
}
