//! One `cargo build` of the book's dependency project: Cargo run offline,
//! then with what it lacked fetched (or online), the libraries it made
//! gathered in the lib directory, its lock kept at the book root.

use super::{BUILD_TIMEOUT, Crates, Declared, Externs, LOCK_FILE};
use crate::exec::{self, Finished, Limits};
use mdbook_companion_core::crates::Dependency;
use mdbook_companion_core::links::Mode;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::Ordering;

impl Crates {
    /// One `cargo build` of `mode`; its libraries gathered in the lib
    /// directory, its lock kept at the book root.
    pub(super) fn build(&self, declared: &Declared, mode: Mode) -> Result<Externs, String> {
        self.write_project(declared)?;
        let book_lock = self.root.join(LOCK_FILE);
        let project_lock = self.project.join("Cargo.lock");
        if let Ok(text) = std::fs::read(&book_lock) {
            let _ = std::fs::write(&project_lock, text);
        }
        let done = self.cargo_build(mode)?;
        let externs = gather(
            &self.lib_dir(mode),
            &artifacts(&done.stdout),
            &declared.deps,
        )?;
        if let Ok(text) = std::fs::read(&project_lock)
            && std::fs::read(&book_lock).ok().as_ref() != Some(&text)
        {
            let tmp = tempfile::NamedTempFile::new_in(&self.root)
                .and_then(|mut t| std::io::Write::write_all(&mut t, &text).map(|()| t));
            tmp.and_then(|t| t.persist(&book_lock).map_err(|e| e.error))
                .map_err(|e| format!("cannot write {}: {e}", book_lock.display()))?;
        }
        let _ = std::fs::write(self.project.join("built-manifest"), &declared.manifest);
        Ok(externs)
    }

    /// `cargo build --lib` of `mode` in the project: offline first, and
    /// again once what it lacked is fetched (or online, when Cargo runs
    /// unboxed); what Cargo printed, or why the build failed.
    fn cargo_build(&self, mode: Mode) -> Result<Finished, String> {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        // What the build runs for the book (build scripts, procedural
        // macros) runs in a box: the project's folder its only one to
        // write (and to see of the cache), no network. What the offline
        // build lacks is fetched outside it, by `cargo fetch` (which runs
        // nothing of the packages'), and the build is boxed again.
        let sandbox = self.cargo_box();
        let limits = Limits {
            timeout: BUILD_TIMEOUT,
            max_output: 64 << 20,
            // Cargo and the compilers it runs are not the book's
            // programs: no memory limit.
            memory: None,
            resident: None,
        };
        let cargo_in = |command: &str| {
            let mut cmd = Command::new(&cargo);
            cmd.current_dir(&self.project)
                .arg(command)
                .env("RUSTC", &self.rustc)
                .env_remove("RUSTFLAGS")
                .env_remove("CARGO_BUILD_RUSTFLAGS")
                .env("CARGO_TERM_COLOR", "never");
            cmd
        };
        let run = |offline: bool| {
            self.builds.fetch_add(1, Ordering::Relaxed);
            let mut cmd = cargo_in("build");
            cmd.args(["--lib", "--message-format=json-render-diagnostics"])
                .arg("--target-dir")
                .arg(self.project.join("target"));
            if mode == Mode::Release {
                cmd.arg("--release");
            }
            if offline {
                cmd.arg("--offline");
            }
            exec::run_in(&mut cmd, b"", limits, sandbox.as_ref()).map_err(|e| {
                format!("`{cargo}` could not be run ({e}); the book's dependencies need Cargo")
            })
        };
        // Offline first; online whenever that fails for want of packages,
        // whatever the kind of the declared crates (a path crate's own
        // dependencies may come from the registry).
        let mut done = run(true)?;
        let mut online = false;
        if !done.success() && needs_network(&done.stderr) {
            online = true;
            done = match sandbox {
                Some(_) => {
                    let fetched = exec::run(&mut cargo_in("fetch"), b"", limits).map_err(|e| {
                        format!(
                            "`{cargo}` could not be run ({e}); the book's dependencies need Cargo"
                        )
                    })?;
                    match fetched.success() {
                        true => run(true)?,
                        false => fetched,
                    }
                }
                None => run(false)?,
            };
        }
        if done.timed_out || !done.success() {
            return Err(self.failure(&done, online));
        }
        Ok(done)
    }

    /// Why the build `done` failed: it ran out of time, the network was
    /// unreachable (when it ran `online`), or Cargo's own words.
    fn failure(&self, done: &Finished, online: bool) -> String {
        let how = if done.timed_out {
            format!("did not finish within {} s", BUILD_TIMEOUT.as_secs())
        } else if online && unreachable(&done.stderr) {
            "failed: the network is unreachable, and the packages the offline attempt lacked could not be downloaded (build once with the network, or fill Cargo's cache with `cargo fetch`)".to_owned()
        } else {
            "failed".to_owned()
        };
        format!(
            "building the book's dependencies (`cargo build` in {}) {how}:\n{}",
            self.project.display(),
            done.stderr.trim_end()
        )
    }
}

/// The libraries Cargo `made` linked (or copied) into `lib`, emptied
/// first; the file of each of `deps`, by extern name.
fn gather(lib: &Path, made: &[Artifact], deps: &[Dependency]) -> Result<Externs, String> {
    let _ = std::fs::remove_dir_all(lib);
    std::fs::create_dir_all(lib).map_err(|e| format!("cannot create {}: {e}", lib.display()))?;
    let mut externs = Externs::new();
    for d in deps {
        let own = d.package.as_deref().unwrap_or(&d.key).replace('-', "_");
        let manifest = d.path.as_ref().map(|p| p.join("Cargo.toml"));
        let file = made
            .iter()
            .filter(|a| match &manifest {
                Some(m) => a.manifest == *m,
                None => a.name == own,
            })
            .flat_map(|a| &a.files)
            .filter_map(|f| f.file_name())
            .max_by_key(|f| !f.to_string_lossy().ends_with(".rmeta"));
        if let Some(file) = file {
            externs.insert(d.extern_name(), file.to_string_lossy().into_owned());
        }
    }
    for file in made.iter().flat_map(|a| &a.files) {
        let Some(name) = file.file_name() else {
            continue;
        };
        let to = lib.join(name);
        if std::fs::hard_link(file, &to).is_err() {
            std::fs::copy(file, &to).map_err(|e| {
                format!("cannot copy {} into {}: {e}", file.display(), lib.display())
            })?;
        }
    }
    Ok(externs)
}

/// Whether Cargo's `--offline` failure is for want of packages it has
/// not downloaded (its messages then name the offline mode).
fn needs_network(stderr: &str) -> bool {
    stderr.contains("offline")
}

/// Whether Cargo's online failure is the network's: no host, no
/// connection, no answer.
fn unreachable(stderr: &str) -> bool {
    const SIGNS: [&str; 8] = [
        "Couldn't resolve host",
        "Could not resolve host",
        "failed to connect",
        "Connection refused",
        "network failure",
        "spurious network error",
        "Timeout was reached",
        "failed to query replaced source registry",
    ];
    SIGNS.iter().any(|s| stderr.contains(s))
}

/// A library Cargo made.
#[derive(Debug, PartialEq)]
struct Artifact {
    /// Its target's name.
    name: String,
    /// The manifest of its package.
    manifest: PathBuf,
    /// Its files.
    files: Vec<PathBuf>,
}

/// The libraries of Cargo's JSON messages, but the project's own.
fn artifacts(stdout: &str) -> Vec<Artifact> {
    let mut out = Vec::new();
    for line in stdout.lines() {
        let Ok(msg) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if msg["reason"] != "compiler-artifact" {
            continue;
        }
        let kinds = msg["target"]["kind"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let library = kinds
            .iter()
            .filter_map(|k| k.as_str())
            .any(|k| matches!(k, "lib" | "rlib" | "dylib" | "proc-macro"));
        let own = msg["target"]["name"] == "companion_dependencies";
        if !library || own {
            continue;
        }
        out.push(Artifact {
            name: msg["target"]["name"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
            manifest: PathBuf::from(msg["manifest_path"].as_str().unwrap_or_default()),
            files: msg["filenames"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|f| f.as_str().map(PathBuf::from))
                .collect(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn artifacts_are_the_libraries_but_ours() {
        let stdout = r#"{"reason":"compiler-artifact","manifest_path":"/m/Cargo.toml","target":{"name":"mylib","kind":["lib"]},"filenames":["/t/libmylib-1.rlib","/t/libmylib-1.rmeta"]}
{"reason":"compiler-artifact","target":{"name":"build_script_build","kind":["custom-build"]},"filenames":["/t/build"]}
{"reason":"compiler-artifact","target":{"name":"derive","kind":["proc-macro"]},"filenames":["/t/libderive-2.so"]}
{"reason":"compiler-artifact","target":{"name":"companion_dependencies","kind":["lib"]},"filenames":["/t/libcompanion_dependencies.rlib"]}
not json
{"reason":"build-finished","success":true}"#;
        let made = artifacts(stdout);
        assert_eq!(made.len(), 2);
        assert_eq!(made[0].name, "mylib");
        assert_eq!(made[0].manifest, PathBuf::from("/m/Cargo.toml"));
        assert_eq!(
            made[0].files,
            ["/t/libmylib-1.rlib", "/t/libmylib-1.rmeta"].map(PathBuf::from)
        );
        assert_eq!(made[1].files, [PathBuf::from("/t/libderive-2.so")]);
    }
}
