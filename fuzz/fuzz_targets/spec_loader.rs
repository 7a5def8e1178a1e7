//! Fuzz target: the spec loader and every kind's validation (`runner::plan`:
//! TOML, includes, sweeps, the kind's keys, the checks), on arbitrary text
//! written as a study file. Must return an input error or a plan, never
//! panic or hang. Nothing runs.
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

/// One directory per fuzzing process; the input is written to `spec.toml`.
fn spec_path() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("contact-harness-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        dir.join("spec.toml")
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = spec_path();
    std::fs::write(path, text).expect("write spec");
    if let Err(e) = contact_harness::harness::runner::plan(path, &[]) {
        // The message must name the file.
        let message = e.to_string();
        assert!(message.contains("spec.toml") || message.contains("--only"), "{message}");
    }
});
