//! The C and C++ compiler flags a book may give a side (`flags="…"`).
//!
//! A side's flags reach `cc` during a plain `mdbook build` (an assembly
//! panel compiles at build time), so they may only change how code is
//! generated or diagnosed: warnings (`-W…`, `-w`, `-pedantic`), optimisation
//! (`-O…`), the language standard (`-std=…`, `-ansi`), code generation
//! options (`-f…`) that name no file, macros (`-D…`, `-U…`) and machine
//! options (`-m…`). A flag that reads or writes a file (`-MF`, `-MD`,
//! `-include`, `-o`, `@file`, `-fplugin=`, `-fprofile-…=path`,
//! `-fdump-…`), runs another program (`-fuse-ld=`, `-B`), or passes options
//! through to the assembler, linker or preprocessor (`-Wa,`, `-Wl,`, `-Wp,`,
//! `-Xlinker`, `-mllvm`) is refused with the reason.

/// Words in an `-f` option's name or value that point at a file or a
/// folder, or at a program to run.
const FILE_WORDS: &[&str] = &["file", "path", "dir", "plugin", "list", "map"];

/// `-f` options (name prefixes) that read or write files, or run another
/// program, without those words in their names.
const FILE_OPTIONS: &[&str] = &[
    "dump-",
    "profile",
    "auto-profile",
    "cs-profile",
    "save-optimization-record",
    "stack-usage",
    "callgraph-info",
    "opt-info",
    "use-ld",
    "ld-",
    "time-trace",
    "crash-",
    "xray-always-instrument",
    "xray-never-instrument",
    "xray-attr-list",
    "module",
    "diagnostics-add-output",
    "diagnostics-set-output",
    "diagnostics-format",
    "embed-bitcode",
    "record-",
];

/// Checks one flag of a C or C++ side: `Err` says why it is refused.
pub fn check(flag: &str) -> Result<(), String> {
    let has_path = |value: &str| value.contains(['/', '\\', '~']) || value.starts_with('.');
    let file = || Err("it names a file or runs another program".to_owned());
    if let Some(rest) = flag.strip_prefix("-W") {
        if rest.starts_with(['a', 'l', 'p']) && rest.get(1..2) == Some(",") {
            return Err(
                "it passes options through to the assembler, linker or preprocessor".into(),
            );
        }
        if rest.is_empty() || has_path(rest) {
            return file();
        }
        return Ok(());
    }
    if let Some(rest) = flag.strip_prefix("-O") {
        return if rest.chars().all(|c| c.is_ascii_alphanumeric()) && rest.len() <= 5 {
            Ok(())
        } else {
            Err("expected an optimisation level (`-O2`, `-Os`)".into())
        };
    }
    if let Some(rest) = flag.strip_prefix("-std=") {
        return if !rest.is_empty() && rest.chars().all(|c| c.is_ascii_alphanumeric() || c == '+') {
            Ok(())
        } else {
            Err("expected a language standard (`-std=c11`)".into())
        };
    }
    if let Some(rest) = flag.strip_prefix("-f") {
        let name = rest.strip_prefix("no-").unwrap_or(rest);
        let lower = rest.to_ascii_lowercase();
        if rest.is_empty()
            || has_path(rest)
            || rest.contains('@')
            || FILE_WORDS.iter().any(|w| lower.contains(w))
            || FILE_OPTIONS.iter().any(|o| name.starts_with(o))
        {
            return file();
        }
        return Ok(());
    }
    if let Some(rest) = flag.strip_prefix("-m") {
        if rest.is_empty() || rest.starts_with("llvm") || has_path(rest) {
            return file();
        }
        return Ok(());
    }
    if let Some(rest) = flag.strip_prefix("-D").or_else(|| flag.strip_prefix("-U")) {
        // The macro's name must be there; its value is only text.
        return if rest.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            Ok(())
        } else {
            Err("expected a macro name right after it (`-DNDEBUG`, `-DN=4`)".into())
        };
    }
    match flag {
        "-w" | "-pedantic" | "-pedantic-errors" | "-Wpedantic" | "-ansi" => Ok(()),
        _ => {
            Err("it does not change how the code is generated or diagnosed, or names a file".into())
        }
    }
}

/// The flags a side may take, for messages.
pub const ALLOWED: &str =
    "`-W…`, `-O…`, `-std=…`, `-f…` without a file, `-D…`, `-U…`, `-m…`, `-w`, `-pedantic`";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_code_generation_and_diagnostics_flags_pass() {
        for ok in [
            "-Wall",
            "-Wextra",
            "-Wno-unused",
            "-Werror=return-type",
            "-O0",
            "-O2",
            "-Os",
            "-Ofast",
            "-std=c11",
            "-std=gnu++17",
            "-fno-omit-frame-pointer",
            "-fsanitize=address",
            "-fwrapv",
            "-fPIC",
            "-DNDEBUG",
            "-DPATH=\"/tmp\"",
            "-UNDEBUG",
            "-march=x86-64-v3",
            "-mavx2",
            "-pedantic",
            "-w",
        ] {
            assert_eq!(check(ok), Ok(()), "{ok}");
        }
        for bad in [
            "-MF/tmp/x",
            "-MD",
            "-MMD",
            "-include/etc/hostname",
            "-include",
            "-o",
            "@file",
            "-fplugin=/x.so",
            "-fprofile-generate=/tmp/p",
            "-fprofile-use=p",
            "-fdump-tree-all",
            "-fsave-optimization-record",
            "-fuse-ld=/bin/evil",
            "-fsanitize-ignorelist=x.txt",
            "-fdiagnostics-add-output=sarif:file=x",
            "-fstack-usage",
            "-Wl,-o,/tmp/x",
            "-Wa,-adhln=/tmp/x",
            "-Wp,-MD,/tmp/x",
            "-mllvm",
            "-B/tmp",
            "-I/etc",
            "-L/tmp",
            "-lfoo",
            "-save-temps",
            "-specs=/tmp/x",
            "-Xlinker",
            "-D",
            "-D/x",
            "-O/tmp",
            "-std=../x",
            "-",
        ] {
            assert!(check(bad).is_err(), "{bad}");
        }
    }
}
