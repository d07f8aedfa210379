//! The tests that run Valgrind (`sanitize=memcheck` claims, and the books
//! that make them: the example book, the guide). A test target of its own
//! (`cargo test --test valgrind`), beside `testsuite` and `browser`, so the
//! suite that needs no Valgrind runs without one and each target's time
//! shows; it shares `testsuite`'s support, tools and the helpers its
//! modules need, included by path. Without Valgrind these tests install
//! Debian's when they run as root, or fail saying how to get it.

#![allow(unreachable_pub, missing_docs, dead_code)]

#[path = "../testsuite/check/run.rs"]
mod run;
#[path = "../testsuite/shown.rs"]
mod shown;
#[path = "../testsuite/support.rs"]
mod support;
#[path = "../testsuite/tools.rs"]
mod tools;

mod example_book;
mod guide;
mod recorded;
mod sanitize;
