//! Running compilers and compiled programs safely: in a directory of their
//! own, with a time limit, with capped output, with a memory limit for the
//! book's programs, and leaving nothing behind.
//!
//! On Linux each child runs under a small supervisor: a process between us
//! and the child (forked by the spawner, a small process of our binary's,
//! where there is one) that makes itself a child subreaper
//! (`prctl(PR_SET_CHILD_SUBREAPER)`), so everything the child starts stays
//! its descendant however it detaches (`setsid`, double forks): when the
//! child exits or the time limit comes, the supervisor kills what is left of
//! the tree (its own children, again and again, as the killed ones' children
//! are handed to it) and only then exits; it reports how the child ended
//! (a time-out among them) on a pipe of its own. Elsewhere the child gets its own process group, killed
//! at the limit. Reading the output stops at the limit too, even if
//! something still holds the pipes open. Output beyond the cap is read and
//! dropped, so a program that floods its pipes can neither block nor fill
//! memory.

mod process;
mod tools;
pub use process::{
    Confinement, Finished, Limits, MEMORY_ROOM, book_box, boxes, confinement, memory_dir, run,
    run_in, scratch_base, scratch_dir, supervisor_hook,
};
pub use tools::{
    compiler_command, describe, target_libdir, tool_fingerprint, tool_version, tool_version_cached,
};
