//! No file of the training crate imports a file that imports it back, directly or through
//! others: `scripts/check-imports.py --train` reads every import of `src/` (but `lib.rs` and the
//! program) and prints each cycle with the imports that close it. A method's file is imported
//! by the method table, which the configuration imports: a method that reached back for the
//! configuration would close such a cycle.

use std::path::Path;
use std::process::Command;

#[test]
fn no_file_of_the_training_crate_imports_one_that_imports_it_back() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/check-imports.py");
    let out = Command::new("python3")
        .arg(&script)
        .arg("--train")
        .output()
        .expect("python3 runs scripts/check-imports.py");
    assert!(
        out.status.success(),
        "{} --train:\n{}{}",
        script.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
