//! Unit tests of the code map: every source file of the crate is listed in the `//!` doc
//! of its folder's index (`D/mod.rs`, else the sibling `D.rs`; `lib.rs` for the files and
//! folders at the top), so a file added without a line there fails here, naming the file
//! to list and the file whose doc should list it.

use std::fs;
use std::path::{Path, PathBuf};

/// The `//!` lines of a source file, joined: where a folder's index lists its files.
fn module_doc(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter_map(|line| line.trim_start().strip_prefix("//!"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The entries of a folder, sorted so the report reads in a stable order.
fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a readable folder entry").path())
        .collect();
    paths.sort();
    paths
}

/// Checks the folder `dir` against the doc of `index` (the file that indexes it), then
/// every subfolder against its own index, adding a line to `missing` per source file or
/// folder no index lists. Paths in the report are relative to `from` (the workspace).
fn check_folder(from: &Path, dir: &Path, index: &Path, missing: &mut Vec<String>) {
    let doc = module_doc(index);
    let shown = |path: &Path| {
        path.strip_prefix(from)
            .unwrap_or(path)
            .display()
            .to_string()
    };
    for path in entries(dir) {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .expect("a UTF-8 file name");
        if path.is_dir() {
            let entry = format!("`{name}/`");
            if !doc.contains(&entry) {
                missing.push(format!(
                    "folder {}/ is not in the code map: add the line \"//! - {entry}: <what it \
                     holds>\" to the //! doc of {}",
                    shown(&path),
                    shown(index)
                ));
            }
            // Rust 2018 layout: `D/mod.rs`, or the module file `D.rs` beside the folder.
            let own = path.join("mod.rs");
            let sibling = dir.join(format!("{name}.rs"));
            let sub_index = if own.is_file() { own } else { sibling };
            if sub_index.is_file() {
                check_folder(from, &path, &sub_index, missing);
            } else {
                missing.push(format!(
                    "folder {}/ has no index: neither {} nor {}",
                    shown(&path),
                    shown(&path.join("mod.rs")),
                    shown(&sub_index)
                ));
            }
        } else if name.ends_with(".rs") && name != "mod.rs" && path != index {
            let entry = format!("`{name}`");
            if !doc.contains(&entry) {
                missing.push(format!(
                    "{} is not in the code map: add the line \"//! - {entry}: <what it holds>\" \
                     to the //! doc of {}",
                    shown(&path),
                    shown(index)
                ));
            }
        }
    }
}

/// Every source file and folder under `src` no index lists, `root` being the crate root
/// (`lib.rs`) that indexes the top folder; paths in the report are relative to `from`.
fn missing_from_code_map(from: &Path, src: &Path, root: &str) -> Vec<String> {
    let mut missing = Vec::new();
    check_folder(from, src, &src.join(root), &mut missing);
    missing
}

#[test]
fn code_map_lists_every_source_file_and_folder() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Paths from the workspace's root (crates/sicher/src/...), where merges are made.
    let workspace = manifest.parent().and_then(Path::parent).unwrap_or(manifest);
    let missing = missing_from_code_map(workspace, &manifest.join("src"), "lib.rs");
    assert!(
        missing.is_empty(),
        "{} entries missing from the code map (each needs one line in the index named, \
         saying what the file or folder holds):\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn code_map_check_names_what_is_missing() {
    // A folder laid out like the crate, with one file and one folder left out of the map,
    // so the check is seen to fail (and to say where) and not only to pass.
    let root = tempfile::tempdir().unwrap();
    let src = root.path().join("src");
    fs::create_dir_all(src.join("a/b")).unwrap();
    fs::create_dir_all(src.join("c")).unwrap();
    fs::write(
        src.join("lib.rs"),
        "//! - `a/`: listed\n//! - `top.rs`: listed\n",
    )
    .unwrap();
    fs::write(src.join("top.rs"), "").unwrap();
    fs::write(
        src.join("a/mod.rs"),
        "//! - `b.rs`, `x.rs`: listed\n// `y.rs`: not in the doc\n",
    )
    .unwrap();
    fs::write(src.join("a/x.rs"), "").unwrap();
    fs::write(src.join("a/y.rs"), "").unwrap();
    fs::write(src.join("a/b.rs"), "//! - `z.rs`: listed\n").unwrap();
    fs::write(src.join("a/b/z.rs"), "").unwrap();
    fs::write(src.join("c/mod.rs"), "").unwrap();
    let missing = missing_from_code_map(&src, &src, "lib.rs");
    let sep = std::path::MAIN_SEPARATOR;
    assert_eq!(missing.len(), 3, "{missing:#?}");
    assert!(missing[0].starts_with(&format!("folder a{sep}b/ is not in the code map")));
    assert!(
        missing[0].ends_with(&format!("doc of a{sep}mod.rs")),
        "{}",
        missing[0]
    );
    assert!(missing[1].starts_with(&format!("a{sep}y.rs is not in the code map")));
    assert!(
        missing[1].ends_with(&format!("doc of a{sep}mod.rs")),
        "{}",
        missing[1]
    );
    assert!(
        missing[2].starts_with("folder c/ is not in the code map"),
        "{}",
        missing[2]
    );
    assert!(missing[2].ends_with("doc of lib.rs"), "{}", missing[2]);
}
