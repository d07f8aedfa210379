//! Link the binary as a position-dependent executable on Linux.
//!
//! mdBook starts the preprocessor twice per build (`supports`, then the
//! run), and a position-independent executable spends a large part of its
//! start-up applying tens of thousands of relative relocations, each page
//! of them a copy-on-write fault. Linked at a fixed address the binary has
//! none, so each start skips that work (`benches/book.rs` measures it).
//! Go links its Linux binaries the same way by default; the code itself is
//! still compiled position-independent, only the executable's own load
//! address is fixed.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
