//! What a merged build's members do outside their own `main`, told from
//! the binary the build made ([`super::merge`]), not from their words.
//!
//! A merged binary holds every member's code, and some code runs in every
//! program started from it, whichever member the selector picks: a
//! constructor (a function pointer in `.preinit_array`, `.init_array` or
//! `.ctors`; at exit, `.fini_array` or `.dtors`; code in `.init` or
//! `.fini`), a global allocator, an indirect function the loader resolves,
//! a shared library the binary needs (its constructors; not the C
//! library's own, such as `libm.so.6`), and a
//! defined symbol without a Rust name, which stands for the C library's
//! (`write`, `getpid`, `malloc`) or another member's for every caller in
//! the binary, the standard library included (but for a member's own
//! `#[no_mangle]` function, which no library defines and no other member
//! names: [`own_symbols`]). A word list of the source
//! cannot see them all: a macro, or a crate's macro, makes them from an
//! invocation that names none, and `global_asm!` makes any of them.
//!
//! So the built binary is read (ELF, with `object`) and compared with the
//! binary of an empty program built by the same compiler with the same
//! flags (the baseline: built once per compiler and flags, and kept in
//! the cache with the other tool facts). What it has more is a member's
//! doing. A constructor or an indirect function whose name, demangled,
//! is in a member's module (`__companion_ex_N::`) sends that member to be
//! compiled and run alone, and the others are built together again (and
//! read again). Anything else names no member: a group that links none of
//! the book's crates is built again in halves, each read again, until the
//! halves that hold it are single members, which run alone; a group that
//! links crates (whose code follows every member that uses one) runs
//! alone, each member. A binary that cannot be read (not ELF), or a
//! baseline that cannot be built, sends the group alone too: a member's
//! program runs from a merged binary only when that binary was read and
//! found to run nothing but its members' `main`s.

use super::verdict::Job;
use crate::cache::Cache;
use crate::exec::{self, Limits};
use mdbook_companion_core::tokens::root::root_names;
use object::read::elf::{ElfFile, ElfFile32, ElfFile64, FileHeader};
use object::{
    Endianness, Object, ObjectSection, ObjectSymbol, ObjectSymbolTable, RelocationTarget,
    SymbolFlags, SymbolKind, elf,
};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Arc, OnceLock};

/// The cache namespace of tool facts (shared with the compilers'
/// versions).
const TOOLS: &str = "tools";

/// The C library's own shared libraries (glibc's, and the unwinder the
/// standard library links): at load they run nothing of a member's, and
/// nothing another member's program could see. A merged binary needs one
/// an empty program does not when a member calls into it (`f64::sin`
/// needs `libm.so.6`), as that member's program alone would: not code
/// outside the members' `main`s. Any other library (a `#[link]`) is.
const C_RUNTIME: [&str; 9] = [
    "libc.so.6",
    "libm.so.6",
    "libgcc_s.so.1",
    "libpthread.so.0",
    "libdl.so.2",
    "librt.so.1",
    "libutil.so.1",
    "ld-linux-x86-64.so.2",
    "ld-linux-aarch64.so.1",
];

/// What a program runs besides its `main`, as its binary says.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Outside {
    /// One line per function the loader or the C library calls before or
    /// after `main`: where it is listed (an array's section, `DT_INIT`)
    /// and the names of the symbols at its address (`?` for none).
    calls: Vec<String>,
    /// The size of the code run at start and exit (`.init`, `.fini`) and
    /// the loader named in `.interp`: code there runs in every program.
    startup: BTreeMap<String, String>,
    /// Defined symbols seen from outside the binary's own code (global or
    /// weak) whose names are not Rust's: each stands for a C library's
    /// symbol of that name, or answers another member's declaration.
    unmangled: BTreeSet<String>,
    /// The allocator's symbols (`__rust_alloc`, std's default `__rdl_*`,
    /// a global allocator's `__rg_*`) and whether each is global: a
    /// `#[global_allocator]` changes them.
    allocator: BTreeSet<String>,
    /// The shared libraries it needs (`DT_NEEDED`).
    needed: BTreeSet<String>,
    /// Indirect functions, whose resolvers the loader runs.
    indirect: BTreeSet<String>,
}

/// What a merged binary runs outside its members' `main`s that an empty
/// program built alike does not.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Offences {
    /// The members whose code it is (by its name).
    pub(super) members: BTreeSet<usize>,
    /// What names no member, in words for the log: when there is any, the
    /// group is built again in halves, or its members run alone.
    pub(super) unattributed: Vec<String>,
}

impl Offences {
    /// Whether the binary runs nothing but its members' `main`s.
    pub(super) fn none(&self) -> bool {
        self.members.is_empty() && self.unattributed.is_empty()
    }
}

/// What the ELF binary `data` runs outside its `main`; `None` when it is
/// not an ELF file `object` can read.
pub(super) fn read(data: &[u8]) -> Option<Outside> {
    match object::FileKind::parse(data).ok()? {
        object::FileKind::Elf64 => read_elf(&ElfFile64::<Endianness>::parse(data).ok()?),
        object::FileKind::Elf32 => read_elf(&ElfFile32::<Endianness>::parse(data).ok()?),
        _ => None,
    }
}

/// [`read`] for one ELF class.
fn read_elf<Elf: FileHeader<Endian = Endianness>>(file: &ElfFile<'_, Elf>) -> Option<Outside> {
    let mut out = Outside::default();
    let at = symbols(file, &mut out);
    let mut arrays = array_sections(file, &mut out);
    dynamic_tags(file, &at, &mut arrays, &mut out);
    array_entries(file, &at, &arrays, &mut out)?;
    out.calls.sort();
    Some(out)
}

/// The names of the symbols at each address.
type Names<'a> = HashMap<u64, BTreeSet<&'a str>>;

/// The names at `address`, joined (`?` for none).
fn names_at(at: &Names<'_>, address: u64) -> String {
    match at.get(&address) {
        Some(names) => names.iter().copied().collect::<Vec<_>>().join(","),
        None => "?".to_owned(),
    }
}

/// The names at each address, from both symbol tables (a stripped binary
/// keeps its dynamic one); the indirect functions, the allocator's
/// symbols and the unmangled global ones noted in `out` on the way.
fn symbols<'data, Elf: FileHeader<Endian = Endianness>>(
    file: &ElfFile<'data, Elf>,
    out: &mut Outside,
) -> Names<'data> {
    let mut at: Names<'data> = HashMap::new();
    for s in file.symbols().chain(file.dynamic_symbols()) {
        if s.is_undefined() || matches!(s.kind(), SymbolKind::Section | SymbolKind::File) {
            continue;
        }
        let Ok(name) = s.name() else { continue };
        if name.is_empty() {
            continue;
        }
        at.entry(s.address()).or_default().insert(name);
        if let SymbolFlags::Elf { st_info, .. } = s.flags()
            && st_info.st_type() == elf::STT_GNU_IFUNC
        {
            out.indirect.insert(name.to_owned());
        }
        if is_allocator(name) {
            let scope = if s.is_global() { "global" } else { "local" };
            out.allocator.insert(format!("{name} {scope}"));
        }
        if s.is_global() && rustc_demangle::try_demangle(name).is_err() {
            out.unmangled.insert(name.to_owned());
        }
    }
    at
}

/// The arrays of functions by section name (what a static link's C
/// library walks), each range with its name; the code run at start and
/// exit and the loader's name noted in `out` on the way.
fn array_sections<Elf: FileHeader<Endian = Endianness>>(
    file: &ElfFile<'_, Elf>,
    out: &mut Outside,
) -> BTreeMap<(u64, u64), String> {
    let mut arrays: BTreeMap<(u64, u64), String> = BTreeMap::new();
    for section in file.sections() {
        let Ok(name) = section.name() else { continue };
        if ARRAYS.iter().any(|a| {
            name.strip_prefix(a)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
        }) {
            arrays.insert((section.address(), section.size()), name.to_owned());
        }
        if STARTUP.contains(&name) {
            let shown = match name {
                ".interp" => String::from_utf8_lossy(section.data().unwrap_or_default())
                    .trim_end_matches('\0')
                    .to_owned(),
                _ => section.size().to_string(),
            };
            out.startup.insert(name.to_owned(), shown);
        }
    }
    arrays
}

/// What the dynamic tags add (what the loader walks): the arrays they
/// name that no section did, the `DT_INIT` and `DT_FINI` functions and
/// the shared libraries needed.
fn dynamic_tags<Elf: FileHeader<Endian = Endianness>>(
    file: &ElfFile<'_, Elf>,
    at: &Names<'_>,
    arrays: &mut BTreeMap<(u64, u64), String>,
    out: &mut Outside,
) {
    let dynamic = file.elf_dynamic_table().ok();
    let tags: Vec<_> = dynamic.iter().flat_map(|d| d.iter()).collect();
    let tag = |t: elf::DynamicTag| tags.iter().find(|d| d.tag == t).map(|d| d.val);
    for (start, size, name) in [
        (
            elf::DT_PREINIT_ARRAY,
            elf::DT_PREINIT_ARRAYSZ,
            "DT_PREINIT_ARRAY",
        ),
        (elf::DT_INIT_ARRAY, elf::DT_INIT_ARRAYSZ, "DT_INIT_ARRAY"),
        (elf::DT_FINI_ARRAY, elf::DT_FINI_ARRAYSZ, "DT_FINI_ARRAY"),
    ] {
        if let (Some(a), Some(n)) = (tag(start), tag(size)) {
            arrays.entry((a, n)).or_insert_with(|| name.to_owned());
        }
    }
    for (t, name) in [(elf::DT_INIT, "DT_INIT"), (elf::DT_FINI, "DT_FINI")] {
        if let Some(a) = tag(t) {
            out.calls.push(format!("{name} {}", names_at(at, a)));
        }
    }
    if let Some(d) = &dynamic {
        for n in tags.iter().filter(|d| d.tag == elf::DT_NEEDED) {
            if let Ok(lib) = d.string(*n) {
                out.needed.insert(String::from_utf8_lossy(lib).into_owned());
            }
        }
    }
}

/// Each entry of each array, as a call in `out`: its dynamic
/// relocation's target (a position-independent binary's entries are
/// filled in by the loader), else the names at what it holds. `None`
/// when an array is past belief (its group then runs alone).
fn array_entries<Elf: FileHeader<Endian = Endianness>>(
    file: &ElfFile<'_, Elf>,
    at: &Names<'_>,
    arrays: &BTreeMap<(u64, u64), String>,
    out: &mut Outside,
) -> Option<()> {
    let endian = file.endian();
    let width: u64 = if file.is_64() { 8 } else { 4 };
    let relocated: HashMap<u64, object::Relocation> = file
        .dynamic_relocations()
        .into_iter()
        .flatten()
        .filter(|(offset, _)| {
            arrays
                .keys()
                .any(|(a, n)| (*a..a.saturating_add(*n)).contains(offset))
        })
        .collect();
    let dynsym = file.dynamic_symbol_table();
    for ((start, size), name) in arrays {
        // Sizes come from the file: a binary whose arrays are past
        // belief is not read (its group runs alone).
        if size / width > MAX_ENTRIES {
            return None;
        }
        let mut slot = *start;
        while slot.saturating_add(width) <= start.saturating_add(*size) {
            let held = word(file, slot, width, endian);
            let target = match relocated.get(&slot) {
                Some(r) => match r.target() {
                    RelocationTarget::Symbol(i) => dynsym
                        .as_ref()
                        .and_then(|t| t.symbol_by_index(i).ok())
                        .and_then(|s| s.name().ok().map(str::to_owned))
                        .unwrap_or_else(|| "?".to_owned()),
                    _ => {
                        let base = if r.has_implicit_addend() { held } else { 0 };
                        names_at(at, base.wrapping_add_signed(r.addend()))
                    }
                },
                None => match held {
                    // The ends of a `.ctors` list, never called.
                    0 => "0".to_owned(),
                    v if v == u64::MAX >> (64 - 8 * width) => "-1".to_owned(),
                    v => names_at(at, v),
                },
            };
            out.calls.push(format!("{name} {target}"));
            slot += width;
        }
    }
    Some(())
}

/// The sections whose entries are functions called before or after `main`
/// (with their `.NNNNN` priority forms).
const ARRAYS: [&str; 5] = [
    ".preinit_array",
    ".init_array",
    ".fini_array",
    ".ctors",
    ".dtors",
];

/// The most entries an array may have for its binary to be read (an
/// empty program has three).
const MAX_ENTRIES: u64 = 1 << 16;

/// The sections of code run at start and exit, and the loader's name.
const STARTUP: [&str; 3] = [".init", ".fini", ".interp"];

/// The word of `width` bytes at `address` in the file's sections (0 where
/// none holds it, as a section without data has zeros).
fn word<Elf: FileHeader<Endian = Endianness>>(
    file: &ElfFile<'_, Elf>,
    address: u64,
    width: u64,
    endian: Endianness,
) -> u64 {
    let bytes = file
        .sections()
        .find_map(|s| s.data_range(address, width).ok().flatten());
    let Some(bytes) = bytes else { return 0 };
    let mut buf = [0u8; 8];
    let n = bytes.len().min(8);
    match endian {
        Endianness::Little => {
            buf[..n].copy_from_slice(&bytes[..n]);
            u64::from_le_bytes(buf)
        }
        Endianness::Big => {
            buf[8 - n..].copy_from_slice(&bytes[..n]);
            u64::from_be_bytes(buf)
        }
    }
}

/// Whether a symbol is one of the allocator's: the functions the standard
/// library calls (`__rust_alloc` …), its default allocator's (`__rdl_*`)
/// and a global allocator's (`__rg_*`), mangled or not.
fn is_allocator(name: &str) -> bool {
    if !name.contains("__r") {
        return false;
    }
    let demangled = format!("{:#}", rustc_demangle::demangle(name));
    let last = demangled.rsplit("::").next().unwrap_or_default();
    matches!(
        last,
        "__rust_alloc" | "__rust_dealloc" | "__rust_realloc" | "__rust_alloc_zeroed"
    ) || last.starts_with("__rdl_")
        || last.starts_with("__rg_")
}

/// The members (of `count`) a symbol's name puts it in: the
/// `__companion_ex_N` modules its demangled Rust name goes through (a
/// name that is not Rust's names none).
fn named_members(names: &str, count: usize) -> BTreeSet<usize> {
    const MODULE: &str = "__companion_ex_";
    let mut found = BTreeSet::new();
    for name in names.split(',') {
        let Ok(demangled) = rustc_demangle::try_demangle(name) else {
            continue;
        };
        let text = format!("{demangled:#}");
        for (i, _) in text.match_indices(MODULE) {
            let digits: String = text[i + MODULE.len()..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            if let Ok(n) = digits.parse::<usize>()
                && n < count
            {
                found.insert(n);
            }
        }
    }
    found
}

/// What `built` (a merged binary of `count` members) runs outside its
/// members' `main`s that `baseline` (an empty program built alike) does
/// not, and whose it is.
/// `own`: the symbols without a Rust name that members define for
/// themselves ([`own_symbols`]), which are not offences.
pub(super) fn offences(
    built: &Outside,
    baseline: &Outside,
    count: usize,
    own: &BTreeSet<String>,
) -> Offences {
    let mut out = Offences::default();
    let mut expected: HashMap<&str, usize> = HashMap::new();
    for c in &baseline.calls {
        *expected.entry(c).or_default() += 1;
    }
    // A function listed more often than in the baseline, or not at all
    // there (the same function listed twice runs twice).
    let extra_calls = built
        .calls
        .iter()
        .filter(|c| match expected.get_mut(c.as_str()) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        });
    let indirect = built.indirect.difference(&baseline.indirect);
    for (what, names) in extra_calls
        .map(|c| ("runs", c.split_once(' ').map_or("", |(_, n)| n)))
        .chain(indirect.map(|n| ("is an indirect function", n.as_str())))
    {
        let members = named_members(names, count);
        match members.is_empty() {
            true => out.unattributed.push(format!("{names} {what}")),
            false => out.members.extend(members),
        }
    }
    for (name, value) in &built.startup {
        if baseline.startup.get(name) != Some(value) {
            out.unattributed
                .push(format!("{name} is {value}, not as in an empty program"));
        }
    }
    for name in (built.unmangled.difference(&baseline.unmangled)).filter(|n| !own.contains(*n)) {
        out.unattributed
            .push(format!("{name} is defined for the whole binary"));
    }
    if built.allocator != baseline.allocator {
        out.unattributed
            .push("a global allocator replaces the standard one".to_owned());
    }
    for lib in built
        .needed
        .difference(&baseline.needed)
        .filter(|lib| !C_RUNTIME.contains(&lib.as_str()))
    {
        out.unattributed.push(format!("it needs {lib}"));
    }
    out
}

/// Whether a linker symbol is one a program's own binary does not make
/// its own: one a library the binary links defines (`malloc`, which every
/// program of a merged binary would call), or one kept for the runtime
/// (`main`, `rust_…`, a leading underscore).
pub(super) fn foreign(symbol: &str) -> bool {
    symbol.starts_with('_') || symbol.starts_with("rust_") || symbol == "main" || linked(symbol)
}

/// The linker symbols the programs `sources` (a merged build's members)
/// define by name ([`root_names`]) that are one program's own: not
/// [`foreign`], and no other program defines or names it. Defined for
/// the whole binary, such a symbol is called by its program's code
/// alone, as in its own binary, so it is no code outside the members'
/// `main`s.
pub(super) fn own_symbols(sources: &[&str]) -> BTreeSet<String> {
    // (Only code that names a symbol is read as tokens.)
    let defined: Vec<Vec<String>> = (sources.iter())
        .map(
            |s| match s.contains("no_mangle") || s.contains("export_name") {
                true => root_names(s).map(|n| n.symbols).unwrap_or_default(),
                false => Vec::new(),
            },
        )
        .collect();
    let mut own = BTreeSet::new();
    for (i, symbols) in defined.iter().enumerate() {
        for symbol in symbols.iter().filter(|s| !foreign(s)) {
            let elsewhere =
                (sources.iter().enumerate()).any(|(j, s)| j != i && s.contains(symbol.as_str()));
            if !elsewhere && symbols.iter().filter(|s| *s == symbol).count() == 1 {
                own.insert(symbol.clone());
            }
        }
    }
    own
}

/// Whether a library this process links (the C library and the loader,
/// as every program's binary does) defines `symbol`; every symbol where
/// the loader cannot tell (a static build of ours, whose lookups find
/// not even `malloc`).
fn linked(symbol: &str) -> bool {
    let Ok(name) = std::ffi::CString::new(symbol) else {
        return true;
    };
    // SAFETY: dlsym(3) reads the NUL-terminated name we pass and looks it
    // up in the global scope; nothing is called.
    let found = |name: &std::ffi::CStr| {
        !unsafe { libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr()) }.is_null()
    };
    !found(c"malloc") || found(&name)
}

/// The baselines known to this run, by compiler and flags: each built
/// once, by the first group that needs it (the others wait for it).
#[derive(Debug, Default)]
pub(super) struct Baselines(std::sync::Mutex<HashMap<String, Arc<OnceLock<Option<Outside>>>>>);

impl Baselines {
    /// What the merged binary `dir/program`, built with `job`'s compiler
    /// and flags from members of code `sources`, runs outside their `main`s; `None`
    /// when that cannot be told (the binary or its baseline unreadable).
    /// `tests`: a test crate (`--test`), whose baseline is an empty one.
    pub(super) fn outside_mains(
        &self,
        cache: &Cache,
        dir: &std::path::Path,
        program: &str,
        job: &Job,
        tests: bool,
        sources: &[&str],
    ) -> Option<Offences> {
        let count = sources.len();
        let start = std::time::Instant::now();
        let built = read(&std::fs::read(dir.join(program)).ok()?)?;
        let read_in = start.elapsed();
        let baseline = self.baseline(cache, job, tests)?;
        tracing::debug!(
            "a merged binary of {count} blocks read in {} ms, its baseline had in {} ms",
            read_in.as_millis(),
            (start.elapsed() - read_in).as_millis()
        );
        let own = own_symbols(sources);
        Some(offences(&built, &baseline, count, &own))
    }

    /// Has the baseline of `job`'s compiler and flags ready for
    /// [`Baselines::outside_mains`].
    pub(super) fn prepare(&self, cache: &Cache, job: &Job, tests: bool) {
        let _ = self.baseline(cache, job, tests);
    }

    /// [`Outside`] of an empty program built by `job`'s compiler with its
    /// flags: from this run's memory, the cache (with the other tool
    /// facts), or a compile.
    fn baseline(&self, cache: &Cache, job: &Job, tests: bool) -> Option<Outside> {
        let version = exec::tool_version_cached(&job.tool, cache)?;
        let mut parts: Vec<&[u8]> =
            vec![b"merge-baseline-1", job.tool.as_bytes(), version.as_bytes()];
        parts.extend(job.args.iter().map(|a| a.as_bytes()));
        let key = Cache::key(&parts);
        let cell = {
            let mut known = self.0.lock().unwrap_or_else(|e| e.into_inner());
            Arc::clone(known.entry(key.clone()).or_default())
        };
        cell.get_or_init(|| {
            if let Some(cached) = cache
                .get(TOOLS, &key)
                .and_then(|b| serde_json::from_slice(&b).ok())
            {
                return Some(cached);
            }
            let built = build_baseline(job, tests)?;
            if let Ok(bytes) = serde_json::to_vec(&built) {
                cache.put(TOOLS, &key, &bytes);
            }
            Some(built)
        })
        .clone()
    }
}

/// Builds an empty program (an empty test crate for `tests`) with `job`'s
/// compiler and flags in a scratch directory, and reads it.
fn build_baseline(job: &Job, tests: bool) -> Option<Outside> {
    let dir = exec::scratch_dir().ok()?;
    let source = match tests {
        true => "",
        false => "fn main() {}\n",
    };
    std::fs::write(dir.path().join(job.source_file), source).ok()?;
    let mut cmd = exec::compiler_command(&job.tool, dir.path());
    cmd.args(&job.args);
    let built = exec::run(
        &mut cmd,
        b"",
        Limits::with_timeout(super::verdict::COMPILE_TIMEOUT),
    )
    .ok()?;
    if !built.success() {
        tracing::debug!(
            "the merged builds' baseline did not build:\n{}",
            built.stderr
        );
        return None;
    }
    let program = job.run.unwrap_or("main");
    read(&std::fs::read(dir.path().join(program)).ok()?)
}

#[cfg(test)]
mod tests;
