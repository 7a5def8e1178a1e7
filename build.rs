//! Records the compiler version and optimisation level for the run
//! manifest: sets `CONTACT_HARNESS_RUSTC` to the output of `$RUSTC
//! --version` (or `unknown` when it cannot be run) and
//! `CONTACT_HARNESS_OPT_LEVEL` to cargo's `OPT_LEVEL` of the build and
//! `CONTACT_HARNESS_CARGO_PROFILE` to its `PROFILE` (`debug` or `release`).

use std::process::Command;

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let version = Command::new(&rustc)
        .arg("--version")
        .output()
        .ok()
        .filter(|out| out.status.success())
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=CONTACT_HARNESS_RUSTC={version}");
    let opt_level = std::env::var("OPT_LEVEL").unwrap_or_else(|_| "unknown".to_string());
    println!("cargo:rustc-env=CONTACT_HARNESS_OPT_LEVEL={opt_level}");
    // Cargo's profile family: `debug` for dev (and test), `release`.
    let profile = std::env::var("PROFILE").unwrap_or_else(|_| "unknown".to_string());
    println!("cargo:rustc-env=CONTACT_HARNESS_CARGO_PROFILE={profile}");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=RUSTC");
}
