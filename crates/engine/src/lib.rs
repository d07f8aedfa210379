//! The engine: running tools safely ([`exec`], under a supervisor that
//! kills what they leave behind), the content-addressed
//! [`cache`], build-time assembly ([`asm`]) and checking one claim
//! ([`check`]). It knows claims and languages, never directives or pages.

pub mod asm;
pub mod cache;
pub mod check;
pub mod crates;
pub mod exec;
pub(crate) mod libraries;
pub mod lock;
pub mod sandbox;
#[cfg(target_os = "linux")]
mod spawner;
#[cfg(target_os = "linux")]
mod supervise;
pub mod toolchain;
