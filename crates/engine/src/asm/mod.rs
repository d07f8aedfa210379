//! Assembly at build time: what the local compiler makes of a block.
//!
//! A reader comparing C and Rust wants to see the machine code of the
//! functions they read, not a whole assembler listing. So each block is
//! compiled with the book's own `cc` or `rustc` (`-O2` / `opt-level=2`, to
//! assembly, as a library), and [`filter()`] keeps only the functions whose
//! names appear in the visible code: their labels, their instructions and
//! the local labels those instructions jump to, with assembler directives,
//! comments, blank lines and hidden helpers (such as a hidden `main`)
//! removed. Rust and C++ symbol names are demangled. The listing is in
//! Intel syntax unless AT&T is asked for, and each of its instructions
//! carries the source line it came from: blocks are compiled with line
//! tables (`-g1`, `-C debuginfo=line-tables-only`), which never change
//! the instructions (a test compiles both ways and compares), and
//! [`filter()`] reads them before dropping the directives.
//!
//! Compiling is slow next to the rest of a build, so results are cached by
//! content (source, visible functions, compiler version, flags) in the
//! book's [`Cache`] under the namespace `"asm"`: a second build of an
//! unchanged book runs no compiler.

use crate::cache::Cache;
use crate::crates::{self, Crates};
use crate::exec::{self, Limits};
use mdbook_companion_core::config::Config;
use mdbook_companion_core::lang::Compiler;
use mdbook_companion_core::languages::{Assembler, ListingFormat, Stream};
use mdbook_companion_core::links::Mode;
use mdbook_companion_core::machine::{self, Syntax};
use std::fmt;

mod filter;
mod go;
#[cfg(test)]
use filter::shorten_anon;
pub use filter::{filter, reader_functions};
pub use mdbook_companion_core::asm::{Listing, Request};

/// The cache namespace of assembly listings.
pub const NAMESPACE: &str = "asm";

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
pub enum Provenance {
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
    pub listing: Listing,
    /// Where it came from.
    pub origin: Provenance,
    /// The compiler's version that made it.
    pub toolchain: String,
    /// Its name in the lock ([`lock_key`]).
    pub hash: String,
}

/// The program and arguments that compile `lang` to `out.s` in the
/// current directory, with line tables when `lines` (always, but for the
/// test that proves they change nothing).
fn command(req: &Request, config: &Config, lines: bool) -> (String, Vec<String>) {
    if let (Some(row), Some(asm)) = (req.lang.program(), req.assembler()) {
        // A row's command prints the listing itself, with its lines.
        let mut words = row.command(asm.command, ".").into_iter();
        let program = words.next().unwrap_or_default();
        return (program, words.collect());
    }
    let file = req.lang.asm_file().to_owned();
    let x86 = machine::is_x86(machine::host_arch());
    let mut args: Vec<String> = Vec::new();
    let program = match req.compiler() {
        Compiler::Cc => {
            args.extend(["-O2", "-S", "-fno-asynchronous-unwind-tables"].map(String::from));
            if lines {
                args.push("-g1".into());
            }
            if x86 && req.syntax.unwrap_or(config.asm_syntax) == Syntax::Intel {
                args.push("-masm=intel".into());
            }
            args.extend(req.flags.iter().cloned());
            config.cc.clone()
        }
        Compiler::Rustc => {
            args.extend(
                [
                    "--emit",
                    "asm",
                    "-C",
                    "opt-level=2",
                    "--crate-type",
                    "lib",
                    "--crate-name",
                    "example",
                    // Keep functions the library does not export: the
                    // reader's private `fn`s are what they want to see.
                    "-C",
                    "link-dead-code",
                    "-A",
                    "warnings",
                ]
                .map(String::from),
            );
            if lines {
                args.extend(["-C", "debuginfo=line-tables-only"].map(String::from));
            }
            if x86 && req.syntax.unwrap_or(config.asm_syntax) == Syntax::Intel {
                args.extend(["-C", "llvm-args=-x86-asm-syntax=intel"].map(String::from));
            }
            args.push(format!("--edition={}", req.edition));
            config.rustc.clone()
        }
    };
    args.extend(["-o".into(), "out.s".into(), file]);
    (program, args)
}

/// The filtered assembly of the functions the reader wrote, from the cache
/// when an identical request was compiled before.
pub fn assembly(req: &Request, config: &Config, cache: &Cache) -> Result<Listing, AsmError> {
    assembly_from(req, config, cache).map(|(listing, _)| listing)
}

/// [`assembly`], also telling whether a compiler ran (a request alone: the
/// book's crates read for it).
pub(crate) fn assembly_from(
    req: &Request,
    config: &Config,
    cache: &Cache,
) -> Result<(Listing, Provenance), AsmError> {
    made(req, config, cache, None, &crates::for_book(config)).map(|m| (m.listing, m.origin))
}

/// The functions of the listing the reader wrote.
fn kept(req: &Request) -> Vec<String> {
    let mut keep = reader_functions(req.lang, &req.shown);
    if keep.is_empty() {
        // Loose statements, wrapped in `main`: then `main` is the reader's.
        keep.push("main".into());
    }
    keep
}

/// The name of a request in `companion.lock`: the program, the functions
/// kept, the flags and the machine, but neither the compiler's path nor
/// its version (a machine without the compiler must find it).
pub fn lock_key(req: &Request, config: &Config) -> String {
    let (_, args) = command(req, config, true);
    crate::lock::hash(&[
        b"asm-v2",
        req.compiler_key().as_bytes(),
        req.source.as_bytes(),
        kept(req).join(",").as_bytes(),
        args.join(" ").as_bytes(),
        std::env::consts::ARCH.as_bytes(),
    ])
}

/// The listing of `req`: from the cache, else from the lock (with no
/// compiler, or with the very compiler the lock names), else compiled.
pub fn made(
    req: &Request,
    config: &Config,
    cache: &Cache,
    lock: Option<&crate::lock::Index>,
    crates: &Crates,
) -> Result<Made, AsmError> {
    let (program, mut args) = command(req, config, true);
    let keep = kept(req);
    let used = match req.compiler() {
        Compiler::Rustc => crates.used_by(&req.source),
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
        false => crate::lock::hash(&[lock_key(req, config).as_bytes(), fingerprint.as_bytes()]),
    };
    let locked = lock.and_then(|l| l.assembly(&hash));
    let Some(version) = exec::tool_version_cached(&program, cache) else {
        return match locked {
            Some(a) => Ok(Made {
                listing: from_lock(a),
                origin: Provenance::Lock,
                toolchain: a.toolchain.clone(),
                hash,
            }),
            None => Err(AsmError::Missing {
                program: program.clone(),
                error: "it did not answer a version query".into(),
            }),
        };
    };
    let made = |listing: Listing, origin| Made {
        listing,
        origin,
        toolchain: crate::lock::toolchain(&version),
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
        .and_then(|b| serde_json::from_slice::<Listing>(&b).ok())
    {
        return Ok(made(hit, Provenance::Cache));
    }
    if let Some(a) = locked.filter(|a| a.toolchain == crate::lock::toolchain(&version)) {
        return Ok(made(from_lock(a), Provenance::Lock));
    }
    if !used.is_empty() {
        // Against the debug libraries `check` uses: the example's own code
        // is what the listing shows, at its own opt-level.
        let extra = crates.args(Mode::Debug, &used).map_err(rejected)?;
        let at = args.len().saturating_sub(3);
        args.splice(at..at, extra);
    }
    let raw = compile(req, config, &program, &args)?;
    let filtered = match req.assembler() {
        Some(Assembler {
            format: ListingFormat::Go,
            ..
        }) => go::filter(&raw, &keep, req.lang.asm_file()),
        None => filter(&raw, req.lang, &keep, req.lang.asm_file()),
    };
    if let Ok(bytes) = serde_json::to_vec(&filtered) {
        cache.put(NAMESPACE, &key, &bytes);
    }
    Ok(made(filtered, Provenance::Compiler))
}

/// Runs `program args` on the block in a scratch folder: the assembler
/// listing it writes.
fn compile(
    req: &Request,
    config: &Config,
    program: &str,
    args: &[String],
) -> Result<String, AsmError> {
    let dir = exec::scratch_dir().map_err(|e| AsmError::Io(e.to_string()))?;
    std::fs::write(dir.path().join(req.lang.asm_file()), &req.source)
        .map_err(|e| AsmError::Io(e.to_string()))?;
    let sandbox = crates::compiler_box(config.isolation, &config.root);
    let finished = exec::run_in(
        exec::compiler_command(program, dir.path()).args(args),
        b"",
        Limits::with_timeout(config.timeout),
        sandbox.as_ref(),
    )
    .map_err(|e| AsmError::Missing {
        program: program.to_owned(),
        error: e.to_string(),
    })?;
    if finished.timed_out {
        return Err(AsmError::TimedOut {
            program: program.to_owned(),
            seconds: config.timeout.as_secs(),
        });
    }
    if !finished.success() {
        let stderr: Vec<&str> = finished.stderr.lines().take(6).collect();
        return Err(AsmError::Rejected {
            program: program.to_owned(),
            stderr: stderr.join("\n"),
        });
    }
    match req.assembler().map(|a| a.stream) {
        Some(Stream::Stdout) => Ok(finished.stdout),
        Some(Stream::Stderr) => Ok(finished.stderr),
        None => std::fs::read_to_string(dir.path().join("out.s"))
            .map_err(|e| AsmError::Io(e.to_string())),
    }
}

/// The cache namespace of control-flow graphs.
pub(crate) const GRAPHS: &str = "cfg";

/// The control-flow graph of every function of `listing`, laid out once
/// and cached by the listing's text (layout is the slow part).
pub fn graphs(listing: &str, cache: &Cache) -> Vec<mdbook_companion_core::flowgraph::Drawing> {
    use mdbook_companion_core::flowgraph::{self, Drawing};
    let key = Cache::key(&[b"cfg-v1", listing.as_bytes()]);
    if let Some(hit) = cache
        .get(GRAPHS, &key)
        .and_then(|b| serde_json::from_slice::<Vec<Drawing>>(&b).ok())
    {
        return hit;
    }
    let drawn: Vec<Drawing> = flowgraph::graphs(listing)
        .iter()
        .map(|g| Drawing {
            function: g.function.clone(),
            svg: flowgraph::svg(g, flowgraph::ID_SLOT, &g.function),
        })
        .collect();
    if let Ok(bytes) = serde_json::to_vec(&drawn) {
        cache.put(GRAPHS, &key, &bytes);
    }
    drawn
}

/// A listing as the lock holds it.
fn from_lock(a: &crate::lock::Assembly) -> Listing {
    Listing {
        text: a.listing.clone(),
        lines: a.lines.clone(),
    }
}

#[cfg(test)]
mod tests;
