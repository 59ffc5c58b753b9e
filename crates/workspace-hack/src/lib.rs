//! Empty: this crate exists for the dependency features its manifest turns on (see
//! `Cargo.toml`), so every build of the workspace compiles each shared crate once.
