//! Quizzes: the `quiz` block parsed and checked through the binary (each
//! program question a claim of `check`, `verify`, the lock, the claims
//! page and every report format), and the page through real mdBook.

mod check;
mod course;
mod file;
mod page;
mod proven;
