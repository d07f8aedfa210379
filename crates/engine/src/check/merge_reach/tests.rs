use super::*;

/// Builds `source` with the flags of a merged build of examples and
/// reads it.
fn built(source: &str) -> Outside {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(dir.path().join("main.rs"), source).expect("write");
    let out = std::process::Command::new("rustc")
        .current_dir(dir.path())
        .args([
            "--edition",
            "2021",
            "--crate-type",
            "bin",
            "--crate-name",
            "main",
            "-C",
            "debuginfo=0",
            "-o",
            "main",
            "main.rs",
        ])
        .output()
        .expect("rustc");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    read(&std::fs::read(dir.path().join("main")).expect("binary")).expect("an ELF binary")
}

#[test]
fn what_runs_outside_main_is_read_from_the_binary_and_named_by_member() {
    let empty = built("fn main() {}\n");
    // The C library's and std's own constructors are there, named.
    assert!(
        empty.calls.iter().any(|c| c.contains("frame_dummy")),
        "{empty:?}"
    );
    assert!(empty.unmangled.contains("main"), "{empty:?}");
    assert!(!empty.allocator.is_empty(), "{empty:?}");
    // A program that only uses more of std adds nothing.
    let busy = built(
        "fn main() {\n    let t = std::thread::spawn(|| 1u128 << 100);\n    let v: Vec<String> = std::env::args().collect();\n    println!(\"{} {} {:?}\", t.join().unwrap() / 3, v.len(), std::fs::read(\"/nonexistent\").is_err());\n}\n",
    );
    assert_eq!(
        offences(&busy, &empty, 1, &BTreeSet::new()),
        Offences::default()
    );
    // Member 1's constructor and exit hook (one made by a macro), a
    // symbol of the C library's made by member 0 and a global
    // allocator made by a macro in member 2.
    let merged = built(
        r#"mod __companion_ex_0 {
    #[unsafe(no_mangle)]
    pub extern "C" fn getpid() -> i32 { 7 }
    pub fn main() {}
}
mod __companion_ex_1 {
    #[used]
    #[link_section = ".init_array"]
    static AT_START: extern "C" fn() = at_start;
    extern "C" fn at_start() {}
    macro_rules! at_exit { ($f:ident) => { #[used] #[link_section = ".fini_array"] static AT_EXIT: extern "C" fn() = $f; } }
    extern "C" fn bye() {}
    at_exit!(bye);
    pub fn main() {}
}
mod __companion_ex_2 {
    struct Counting;
    unsafe impl std::alloc::GlobalAlloc for Counting {
        unsafe fn alloc(&self, l: std::alloc::Layout) -> *mut u8 { unsafe { std::alloc::System.alloc(l) } }
        unsafe fn dealloc(&self, p: *mut u8, l: std::alloc::Layout) { unsafe { std::alloc::System.dealloc(p, l) } }
    }
    macro_rules! counted { ($i:item) => { #[global_allocator] $i } }
    counted!(static A: Counting = Counting;);
    pub fn main() {}
}
fn main() { __companion_ex_0::main(); __companion_ex_1::main(); __companion_ex_2::main(); }
"#,
    );
    let found = offences(&merged, &empty, 3, &BTreeSet::new());
    assert_eq!(found.members, BTreeSet::from([1]), "{found:?}");
    assert_eq!(
        found.unattributed,
        [
            "getpid is defined for the whole binary",
            "a global allocator replaces the standard one"
        ],
        "{merged:?}"
    );
    // A member number past the group's is nobody's.
    assert!(named_members("_ZN4main17__companion_ex_121f17h0123456789abcdefE", 3).is_empty());
    assert_eq!(
        named_members(
            "_ZN4main16__companion_ex_14main17h0123456789abcdefE,frame_dummy",
            3
        ),
        BTreeSet::from([1])
    );
    assert_eq!(read(b"#!/bin/sh\n"), None);
}

/// Entries the loader fills in from a shared library's symbol, and
/// indirect functions `global_asm!` makes, name no member.
#[cfg(target_arch = "x86_64")]
#[test]
fn a_library_function_as_a_constructor_and_an_indirect_function_name_no_member() {
    let empty = built("fn main() {}\n");
    let merged = built(
        r#"mod __companion_ex_0 {
    unsafe extern "C" {
        fn abort() -> !;
    }
    #[used]
    #[link_section = ".preinit_array"]
    static AT_LOAD: unsafe extern "C" fn() -> ! = abort;
    std::arch::global_asm!(
        ".type pick, @gnu_indirect_function",
        "pick:",
        "lea rax, [rip + chosen]",
        "ret",
        "chosen:",
        "ret",
    );
    unsafe extern "C" {
        fn pick();
    }
    pub fn main() { unsafe { pick() } }
}
fn main() { __companion_ex_0::main(); }
"#,
    );
    let found = offences(&merged, &empty, 1, &BTreeSet::new());
    assert!(found.members.is_empty(), "{found:?}");
    assert_eq!(
        found.unattributed,
        ["abort runs", "pick is an indirect function"],
        "{merged:?}"
    );
}

/// A member calling into the C library's maths needs `libm.so.6`, as its
/// program alone would: nothing outside the members' `main`s. A library
/// of its own choosing (`#[link]`) still is.
#[test]
fn the_c_librarys_own_libraries_are_not_code_outside_main() {
    let empty = built("fn main() {}\n");
    let maths = built(
        "fn main() { let x: f64 = std::hint::black_box(0.5); println!(\"{}\", x.sin().cbrt()); }\n",
    );
    assert!(maths.needed.contains("libm.so.6"), "{maths:?}");
    assert!(!empty.needed.contains("libm.so.6"), "{empty:?}");
    assert_eq!(
        offences(&maths, &empty, 1, &BTreeSet::new()),
        Offences::default()
    );
    let mut linked = maths.clone();
    linked.needed.insert("libz.so.1".to_owned());
    assert_eq!(
        offences(&linked, &empty, 1, &BTreeSet::new()).unattributed,
        ["it needs libz.so.1"]
    );
}

#[test]
fn a_members_own_symbol_is_no_code_outside_main() {
    let empty = built("fn main() {}\n");
    let merged = built(
        r#"mod __companion_ex_0 {
    #[unsafe(no_mangle)]
    pub extern "C" fn companion_answer() -> u32 { 42 }
    pub fn main() { assert_eq!(companion_answer(), 42) }
}
fn main() { __companion_ex_0::main(); }
"#,
    );
    let found = offences(&merged, &empty, 1, &BTreeSet::new());
    assert_eq!(
        found.unattributed,
        ["companion_answer is defined for the whole binary"],
        "{found:?}"
    );
    let own = BTreeSet::from(["companion_answer".to_owned()]);
    assert!(offences(&merged, &empty, 1, &own).none());
}

#[test]
fn a_programs_own_symbols_are_those_no_other_names() {
    let own = own_symbols(&[
        "#[unsafe(no_mangle)]\npub extern \"C\" fn companion_a() -> u32 { 1 }",
        "#[unsafe(no_mangle)]\npub extern \"C\" fn companion_b() -> u32 { 2 }",
        "unsafe extern \"C\" { fn companion_b() -> u32; }\nfn main() {}",
        "#[unsafe(no_mangle)]\npub extern \"C\" fn malloc(_: usize) -> *mut u8 { std::ptr::null_mut() }",
    ]);
    assert_eq!(own, BTreeSet::from(["companion_a".to_owned()]));
}
