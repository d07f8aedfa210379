//! The book's dependencies, built once: a Cargo project in the cache whose
//! `[dependencies]` are the book's, `cargo build` once per profile that is
//! needed, and the libraries it made gathered in one directory that every
//! example compiles against (`-L DIR --extern NAME`), as `mdbook test -L
//! DIR` does.
//!
//! - The project is `.companion-cache/crates/` (a `[workspace]` of its
//!   own, so a book inside a library's workspace does not join it). Its
//!   `Cargo.lock` is kept at the book root as [`LOCK_FILE`], beside
//!   `companion.lock`: authors commit it and a re-check uses the same
//!   versions.
//! - The libraries of a profile are copied into `crates/lib-debug/` (or
//!   `lib-release/`), that directory emptied first, so it holds one
//!   candidate per crate for `mdbook test -L DIR`; examples get `-L
//!   dependency=DIR` and `--extern NAME=FILE` (which also takes a crate
//!   used under another name, `package = …`). A stamp in it names the
//!   fingerprint and the compiler version (`rustc -vV`) it was built
//!   for, and the file of each crate.
//! - The [`Crates::fingerprint`] of the set is the entries as written, the
//!   lock's text and the path crates' `Cargo.toml`, `build.rs` and `src/`.
//!   It joins the cache key of each example that uses a crate, so editing
//!   a path crate checks its examples again, and a warm run starts neither
//!   Cargo nor rustc. It is portable (no absolute path), so it also names
//!   the examples in `companion.lock`.
//! - Cargo runs `--offline` first; when that fails for want of packages
//!   (a registry crate, or a path crate's own registry dependencies, not
//!   in Cargo's cache yet), it runs online, and a failure then says when
//!   the network is unreachable.

use crate::cache::{self, Cache};
use crate::exec;
pub use crate::libraries::Libraries;
use crate::libraries::{Library, absolute};
use mdbook_companion_core::config::Config;
use mdbook_companion_core::crates::{self, Dependency};
use mdbook_companion_core::links::Mode;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

mod cargo;

/// The Cargo project's folder in the cache.
const FOLDER: &str = "crates";

/// The box a compiler runs in for the book at `root` (what a crate's
/// procedural macros run as, what `include_bytes!` reads): a program's
/// box ([`exec::book_box`]) whose folder it writes in place, in which the
/// book's folder is read-only (not the machine's: a compiler may keep a
/// cache of its own) with its built crates seen in the hidden cache.
pub(crate) fn compiler_box(
    isolation: mdbook_companion_core::config::Isolation,
    root: &Path,
) -> Option<crate::sandbox::Sandbox> {
    let root = absolute(root);
    let cache = root.join(cache::DIR);
    // A lesser box is for programs: Landlock cannot leave a compiler the
    // machine but the book.
    let mut sandbox = exec::book_box(isolation, &cache, None).filter(|s| !s.lesser)?;
    sandbox.shown.push(cache.join(FOLDER));
    sandbox.read_only = vec![root];
    sandbox.compiler = true;
    Some(sandbox)
}

/// The Cargo.lock of the dependencies, at the book root.
pub const LOCK_FILE: &str = "companion.Cargo.lock";

/// The file of a lib directory that names the build it holds.
const STAMP: &str = ".stamp";

/// The time one `cargo build` of the dependencies gets.
const BUILD_TIMEOUT: Duration = Duration::from_secs(1800);

/// The declared crates of one book, and their builds.
#[derive(Debug)]
pub struct Crates {
    root: PathBuf,
    project: PathBuf,
    rustc: String,
    /// What names the compiler in the lib directories' names: empty for
    /// the plain `rustc`, else a short hash of the compiler's command, so
    /// a run with another toolchain (`--toolchain`) never replaces the
    /// libraries `mdbook test -L` reads with ones it cannot load.
    tag: String,
    declared: Result<Declared, String>,
    fingerprint: OnceLock<Result<String, String>>,
    built: [OnceLock<Result<Arc<Externs>, String>>; 2],
    /// The `cargo build`s this value started.
    builds: AtomicUsize,
    /// The libraries of `check --library-path` (`mdbook test -L`).
    libraries: Libraries,
    /// Whether Cargo builds in a box (`isolation`).
    isolation: mdbook_companion_core::config::Isolation,
}

/// The library file of each declared crate, by extern name, in a lib
/// directory.
pub(crate) type Externs = std::collections::BTreeMap<String, String>;

#[derive(Debug, Default)]
struct Declared {
    /// The entries, paths resolved.
    deps: Vec<Dependency>,
    /// Extern names, sorted.
    names: Vec<String>,
    /// The generated Cargo.toml.
    manifest: String,
    /// The entries as written (no absolute paths).
    written: String,
    /// The path crates' directories, with the names shown for them.
    path_dirs: Vec<(String, PathBuf)>,
}

/// The crates of the book `config` describes, read afresh. A run makes
/// one and hands it to everything in it that compiles (the book layer's
/// `Run`, its checkers, the assembly engine), so it reads the entries once
/// and builds each mode at most once; nothing outlives the run.
pub fn for_book(config: &Config) -> Arc<Crates> {
    for_check(config, Libraries::default())
}

/// [`for_book`] with the libraries of `check --library-path`.
pub fn for_check(config: &Config, libraries: Libraries) -> Arc<Crates> {
    let project = absolute(&config.root).join(cache::DIR).join(FOLDER);
    Arc::new(Crates {
        root: config.root.clone(),
        project,
        rustc: config.rustc.clone(),
        tag: match config.rustc.as_str() {
            "rustc" => String::new(),
            other => {
                let key: String = Cache::key(&[other.as_bytes()]).chars().take(12).collect();
                format!("-{key}")
            }
        },
        declared: declare(config),
        fingerprint: OnceLock::new(),
        built: [OnceLock::new(), OnceLock::new()],
        builds: AtomicUsize::new(0),
        libraries,
        isolation: config.isolation,
    })
}

/// The book's entries and those of its `cargo-manifest`, resolved.
fn declare(config: &Config) -> Result<Declared, String> {
    let mut deps: Vec<Dependency> = Vec::new();
    let mut written = format!("{:?}\n", config.dependencies);
    for d in &config.dependencies {
        let mut d = d.clone();
        if let Some(p) = &d.path {
            d.path = Some(absolute(&config.root.join(p)));
        }
        deps.push(d);
    }
    if let Some(rel) = &config.cargo_manifest {
        let path = config.root.join(rel);
        let shown = rel.display();
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cargo-manifest `{shown}` cannot be read: {e}"))?;
        written.push_str(&text);
        let table: toml::Table = toml::from_str(&text)
            .map_err(|e| format!("cargo-manifest `{shown}` is not TOML: {}", e.message()))?;
        let dir = absolute(path.parent().unwrap_or(Path::new(".")));
        let Some(package) = table
            .get("package")
            .and_then(|p| p.get("name"))
            .and_then(toml::Value::as_str)
        else {
            return Err(format!(
                "cargo-manifest `{shown}` has no [package] name; expected the manifest of a library crate"
            ));
        };
        let lib = table
            .get("lib")
            .and_then(|l| l.get("name"))
            .and_then(toml::Value::as_str)
            .map_or_else(|| package.replace('-', "_"), str::to_owned);
        deps.push(Dependency {
            key: lib.clone(),
            path: Some(dir.clone()),
            package: (lib != package).then(|| package.to_owned()),
            ..Dependency::default()
        });
        if let Some(toml::Value::Table(own)) = table.get("dependencies") {
            for (key, value) in own {
                let json = serde_json::to_value(value).unwrap_or_default();
                let mut d = Dependency::parse(key, &json)
                    .map_err(|e| format!("cargo-manifest `{shown}`: {}", e.message))?;
                if let Some(p) = &d.path {
                    d.path = Some(dir.join(p));
                }
                deps.push(d);
            }
        }
    }
    for d in &mut deps {
        if let Some(p) = &d.path {
            if !p.join("Cargo.toml").is_file() {
                return Err(format!(
                    "dependencies.{}: found no Cargo.toml in `{}`; expected the directory of a crate",
                    d.key,
                    p.display()
                ));
            }
            // As Cargo names it (no `..`, no symbolic link), so that its
            // build's artifacts are found by their manifest.
            if let Ok(canonical) = std::fs::canonicalize(p) {
                d.path = Some(canonical);
            }
        }
    }
    let mut names: Vec<String> = deps.iter().map(Dependency::extern_name).collect();
    names.sort();
    names.dedup();
    Ok(Declared {
        deps: deps.clone(),
        names,
        manifest: manifest(&deps),
        written,
        path_dirs: deps
            .iter()
            .filter_map(|d| Some((d.key.clone(), d.path.clone()?)))
            .collect(),
    })
}

/// The Cargo.toml of the project that builds `deps`.
fn manifest(deps: &[Dependency]) -> String {
    let mut table = toml::Table::new();
    let mut package = toml::Table::new();
    for (k, v) in [
        ("name", "companion-dependencies"),
        ("version", "0.0.0"),
        ("edition", "2021"),
    ] {
        package.insert(k.into(), v.into());
    }
    package.insert("publish".into(), false.into());
    table.insert("package".into(), package.into());
    let mut lib = toml::Table::new();
    lib.insert("path".into(), "lib.rs".into());
    table.insert("lib".into(), lib.into());
    table.insert("workspace".into(), toml::Table::new().into());
    table.insert("dependencies".into(), crates::entries(deps).into());
    toml::to_string(&table).unwrap_or_default()
}

fn profile(mode: Mode) -> &'static str {
    match mode {
        Mode::Debug => "debug",
        Mode::Release => "release",
    }
}

impl Crates {
    /// The `cargo build`s of the dependencies this value started (for
    /// reports and tests).
    pub fn builds(&self) -> usize {
        self.builds.load(Ordering::Relaxed)
    }

    /// The extern names of the declared crates (none when they are broken).
    pub fn names(&self) -> &[String] {
        self.declared.as_ref().map_or(&[], |d| &d.names)
    }

    /// The declared entries, paths resolved (from the root of the file
    /// system), or why they cannot be used.
    pub fn dependencies(&self) -> Result<&[Dependency], String> {
        self.declared
            .as_ref()
            .map(|d| d.deps.as_slice())
            .map_err(Clone::clone)
    }

    /// Why the declared crates cannot be used, if they cannot.
    pub fn error(&self) -> Option<&str> {
        self.declared.as_ref().err().map(String::as_str)
    }

    /// The declared crates `source` uses.
    pub fn used_by(&self, source: &str) -> Vec<String> {
        crates::used(source, self.names().iter().map(String::as_str))
    }

    /// The crates `source` uses: the declared ones, then those of the
    /// `--library-path` directories the book does not declare.
    pub(crate) fn used_with_libraries(&self, source: &str) -> Vec<String> {
        let mut used = self.used_by(source);
        let names = self.names();
        let extra = self
            .libraries
            .names()
            .filter(|n| !names.iter().any(|d| d == n));
        used.extend(crates::used(source, extra));
        used
    }

    /// What names the crates `used` for a key: the declared set's
    /// fingerprint when one of them is declared, and each library file's
    /// name (with, unless `portable`, its path, time and size, so a
    /// rebuilt library checks its blocks again).
    pub(crate) fn link_key(&self, used: &[String], portable: bool) -> Result<String, String> {
        let mut parts = Vec::new();
        if used.iter().any(|u| self.names().contains(u)) {
            parts.push(self.fingerprint()?.to_owned());
        }
        for name in used {
            if let Some(lib) = self.library(name) {
                let file = lib.file.file_name().unwrap_or_default().to_string_lossy();
                parts.push(match portable {
                    true => format!("{name}={file}"),
                    false => format!(
                        "{name}={}:{:?}:{}",
                        lib.file.display(),
                        lib.modified,
                        lib.len
                    ),
                });
            }
        }
        Ok(parts.join("\u{0}"))
    }

    /// The `--library-path` file of `name`, unless the book declares it.
    fn library(&self, name: &str) -> Option<&Library> {
        if self.names().iter().any(|n| n == name) {
            return None;
        }
        self.libraries.get(name)
    }

    /// The box `cargo build` runs in: a compiler's ([`compiler_box`])
    /// whose only folder of the cache is the project's, its own to write.
    fn cargo_box(&self) -> Option<crate::sandbox::Sandbox> {
        let mut sandbox = compiler_box(self.isolation, &self.root)?;
        sandbox.shown.clear();
        sandbox.writable.push(self.project.clone());
        Some(sandbox)
    }

    /// The directory of the libraries of `mode`: what `-L` takes.
    pub fn lib_dir(&self, mode: Mode) -> PathBuf {
        self.project
            .join(format!("lib-{}{}", profile(mode), self.tag))
    }

    /// rustc's arguments that make `used` available, the libraries of
    /// `mode` built first unless they are built already.
    pub fn args(&self, mode: Mode, used: &[String]) -> Result<Vec<String>, String> {
        let (libs, used): (Vec<&String>, Vec<&String>) =
            used.iter().partition(|u| self.library(u).is_some());
        let mut args = Vec::new();
        if !libs.is_empty() {
            // As `mdbook test -L DIR`: every directory searched, and each
            // named crate pinned to its chosen file.
            for dir in self.libraries.dirs() {
                args.push("-L".to_owned());
                args.push(dir.display().to_string());
            }
            for name in libs {
                if let Some(lib) = self.library(name) {
                    args.push("--extern".into());
                    args.push(format!("{name}={}", lib.file.display()));
                }
            }
        }
        if used.is_empty() {
            return Ok(args);
        }
        let externs = self.ensure_built(mode)?;
        let dir = self.lib_dir(mode);
        args.extend(["-L".to_owned(), format!("dependency={}", dir.display())]);
        for name in used {
            let file = externs.get(name).ok_or_else(|| {
                format!(
                    "the dependency build made no library for `{name}`; expected a library crate"
                )
            })?;
            args.push("--extern".into());
            args.push(format!("{name}={}", dir.join(file).display()));
        }
        Ok(args)
    }

    /// The fingerprint of the set (see the module). When the lock does not
    /// answer for the entries (there is none yet, it lacks a crate, or the
    /// entries changed since the last build here), the debug libraries are
    /// built first, so the lock it names is the one used. A fresh clone
    /// with its `companion.Cargo.lock` needs no Cargo for it, so a build
    /// can take verdicts from `companion.lock`.
    pub fn fingerprint(&self) -> Result<&str, String> {
        self.fingerprint
            .get_or_init(|| {
                let declared = self.declared.as_ref().map_err(Clone::clone)?;
                self.write_project(declared)?;
                let changed = std::fs::read_to_string(self.project.join("built-manifest"))
                    .is_ok_and(|m| m != declared.manifest);
                let lock = std::fs::read_to_string(self.root.join(LOCK_FILE)).ok();
                let answers = lock.is_some_and(|text| {
                    declared.deps.iter().all(|d| {
                        let package = d.package.as_deref().unwrap_or(&d.key);
                        text.contains(&format!("name = \"{package}\""))
                    })
                });
                let fresh = changed || !answers;
                let externs = if fresh {
                    Some(self.build(declared, Mode::Debug)?)
                } else {
                    None
                };
                let fp = self.hash(declared);
                if let Some(externs) = externs {
                    self.stamp(Mode::Debug, &fp, &externs);
                }
                Ok(fp)
            })
            .as_deref()
            .map_err(Clone::clone)
    }

    /// What the set's fingerprint is made of (the entries as written, the
    /// lock, the path crates' files), read now without starting Cargo:
    /// for a key that must follow the crates' content where the
    /// fingerprint itself is not needed (the chapter memo); an error when
    /// the entries cannot be read.
    pub fn content_key(&self) -> String {
        match &self.declared {
            Ok(declared) => self.hash(declared),
            Err(e) => e.clone(),
        }
    }

    /// Builds the libraries of `mode` unless they are built for the
    /// current fingerprint.
    pub(crate) fn ensure_built(&self, mode: Mode) -> Result<Arc<Externs>, String> {
        let cell = &self.built[usize::from(mode == Mode::Release)];
        cell.get_or_init(|| {
            let declared = self.declared.as_ref().map_err(Clone::clone)?;
            let fp = self.fingerprint()?.to_owned();
            let stamp = std::fs::read_to_string(self.lib_dir(mode).join(STAMP)).ok();
            if let Some((old, externs)) = stamp.as_deref().and_then(|s| s.split_once('\n'))
                && old == stamp_id(&fp, &self.rustc_version())
                && let Ok(externs) = serde_json::from_str::<Externs>(externs)
            {
                return Ok(Arc::new(externs));
            }
            let externs = self.build(declared, mode)?;
            self.stamp(mode, &fp, &externs);
            Ok(Arc::new(externs))
        })
        .clone()
    }

    /// Records that the lib directory of `mode` holds the build of `fp`
    /// by the compiler of this run.
    fn stamp(&self, mode: Mode, fp: &str, externs: &Externs) {
        let text = format!(
            "{}\n{}",
            stamp_id(fp, &self.rustc_version()),
            serde_json::to_string(externs).unwrap_or_default()
        );
        let _ = std::fs::write(self.lib_dir(mode).join(STAMP), text);
    }

    /// The version of the compiler Cargo builds with (`rustc -vV`, asked
    /// once per process and remembered in the cache); empty when it does
    /// not answer (then the build fails and says why).
    fn rustc_version(&self) -> String {
        exec::tool_version_cached(&self.rustc, &Cache::for_book(&self.root)).unwrap_or_default()
    }

    fn write_project(&self, declared: &Declared) -> Result<(), String> {
        let io = |e: std::io::Error| {
            format!(
                "cannot write the dependency project in {}: {e}",
                self.project.display()
            )
        };
        // The cache directory first, so that it gets its `.gitignore`.
        Cache::for_book(&self.root).ensure_dir().map_err(io)?;
        std::fs::create_dir_all(&self.project).map_err(io)?;
        let toml = self.project.join("Cargo.toml");
        if std::fs::read_to_string(&toml).ok().as_deref() != Some(declared.manifest.as_str()) {
            std::fs::write(&toml, &declared.manifest).map_err(io)?;
        }
        let lib = self.project.join("lib.rs");
        if !lib.is_file() {
            std::fs::write(&lib, "").map_err(io)?;
        }
        Ok(())
    }

    /// The fingerprint: entries as written, the lock, the path crates.
    fn hash(&self, declared: &Declared) -> String {
        let lock = std::fs::read(self.root.join(LOCK_FILE)).unwrap_or_default();
        let mut parts: Vec<Vec<u8>> = vec![
            b"crates-v1".to_vec(),
            declared.written.as_bytes().to_vec(),
            lock,
        ];
        for (name, dir) in &declared.path_dirs {
            parts.push(name.as_bytes().to_vec());
            // What Cargo compiles of a crate: its manifest, build script
            // and `src/` (not the rest of its folder, which may hold the
            // book itself, its output and its cache).
            let mut files: Vec<(String, PathBuf)> = ["Cargo.toml", "build.rs"]
                .into_iter()
                .map(|f| (f.to_owned(), dir.join(f)))
                .filter(|(_, p)| p.is_file())
                .collect();
            walk(dir, &dir.join("src"), &mut files);
            files.sort();
            for (rel, file) in files {
                parts.push(rel.into_bytes());
                parts.push(std::fs::read(file).unwrap_or_default());
            }
        }
        let refs: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
        Cache::key(&refs)
    }
}

/// What a lib directory's stamp names: the fingerprint of the set and the
/// compiler's version, so libraries another rustc built (a `rustup
/// update`, another `RUSTUP_TOOLCHAIN` behind the same `rustc`), which
/// this one cannot load, are built again.
fn stamp_id(fingerprint: &str, rustc_version: &str) -> String {
    Cache::key(&[
        b"stamp-v2",
        fingerprint.as_bytes(),
        rustc_version.as_bytes(),
    ])
}

/// Every file under `dir` but hidden entries, with its path relative to
/// `base`.
fn walk(base: &Path, dir: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let path = e.path();
        if name.starts_with('.') {
            continue;
        }
        match e.file_type() {
            Ok(t) if t.is_dir() => walk(base, &path, out),
            Ok(t) if t.is_file() => {
                let rel = path.strip_prefix(base).unwrap_or(&path);
                out.push((rel.to_string_lossy().replace('\\', "/"), path));
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;
