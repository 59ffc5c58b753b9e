//! The integration tests: one binary, one module per subject, the shared helpers (an
//! independent reference solver, running the binary, one-line errors) in `common`.
//! Adding a test means adding a `#[test]` to the module of its subject; a new subject is
//! a new file here and one `mod` line below.

mod common;

mod cli;
mod closed_forms;
mod compress;
mod faults;
mod fuzz;
mod grundy;
mod newcomer;
mod partizan;
mod picture;
mod picture_cli;
mod play;
mod quotient;
mod quotient_cli;
mod readme;
mod remoteness;
mod remoteness_answer;
mod resume;
mod rules;
mod scripts;
mod search;
mod serve;
mod tables;
mod voice;
mod work_dir;
