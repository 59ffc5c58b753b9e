//! Empty: a build script, so that the manifest's build-dependencies take part in the
//! host build's features (see `Cargo.toml`).
fn main() {}
