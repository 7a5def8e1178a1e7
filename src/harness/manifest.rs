//! Provenance of a run (`manifest.json`, the report footer): git commit and
//! dirty flag, compiler, build profile, UTC date, host and CPU.
//!
//! Nothing here fails: whatever cannot be found is `unknown`. The date is
//! formatted from `SystemTime` with the days-to-civil algorithm of
//! H. Hinnant, "chrono-Compatible Low-Level Date Algorithms" (2013),
//! `civil_from_days`, valid for the proleptic Gregorian calendar.

use std::path::Path;
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::harness::outcome::Manifest;

/// `rustc --version` of the compiler that built this crate (from build.rs).
pub const RUSTC_VERSION: &str = env!("CONTACT_HARNESS_RUSTC");

const UNKNOWN: &str = "unknown";

/// Collects the manifest of a run. `command` reproduces the run, `spec_file`
/// is the suite or study file given, `spec` the resolved spec. Seeds start
/// empty (every study deterministic); a runner with random inputs sets them.
pub fn collect(command: &str, spec_file: &str, spec: serde_json::Value) -> Manifest {
    let (commit, dirty) = git_state();
    Manifest {
        commit,
        dirty,
        rustc: RUSTC_VERSION.to_string(),
        profile: profile().to_string(),
        date: rfc3339_utc(SystemTime::now()),
        host: host_name(),
        cpu: cpu_description(),
        command: command.to_string(),
        spec_file: spec_file.to_string(),
        spec,
        seeds: serde_json::Value::Object(serde_json::Map::new()),
    }
}

/// `debug` when debug assertions are on (the dev profile), else `release`.
pub fn profile() -> &'static str {
    if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    }
}

/// Runs `git -C dir args...` and returns its trimmed stdout on success.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The commit of the source tree and whether it has uncommitted changes.
///
/// Asks git in the crate's source directory (the code that built this
/// binary), falling back to the current directory. Changes below `results/`
/// and `report/` are outputs of runs, not code, and do not make the tree
/// dirty.
pub fn git_state() -> (String, bool) {
    let candidates = [Path::new(env!("CARGO_MANIFEST_DIR")), Path::new(".")];
    for dir in candidates {
        let Some(commit) = git(dir, &["rev-parse", "HEAD"]).filter(|c| !c.is_empty()) else {
            continue;
        };
        let status = git(
            dir,
            &[
                "status",
                "--porcelain",
                "--",
                ".",
                ":(exclude)results",
                ":(exclude)report",
            ],
        );
        // An unknown status counts as dirty: the commit alone may not describe the code.
        let dirty = status.is_none_or(|s| !s.is_empty());
        return (commit, dirty);
    }
    (UNKNOWN.to_string(), false)
}

/// Host name from /etc/hostname, else the `hostname` command.
pub fn host_name() -> String {
    std::fs::read_to_string("/etc/hostname")
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .or_else(|| {
            let out = Command::new("hostname").output().ok()?;
            let name = String::from_utf8_lossy(&out.stdout).trim().to_string();
            (out.status.success() && !name.is_empty()).then_some(name)
        })
        .unwrap_or_else(|| UNKNOWN.to_string())
}

/// CPU model (first `model name` of /proc/cpuinfo) and logical core count.
pub fn cpu_description() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| cpu_model(&text))
        .unwrap_or_else(|| format!("{UNKNOWN} {} CPU", std::env::consts::ARCH));
    let cores = std::thread::available_parallelism()
        .map_or_else(|_| UNKNOWN.to_string(), |n| n.to_string());
    format!("{model} ({cores} logical cores)")
}

/// The model name in /proc/cpuinfo text (`model name` on x86, `Model` or
/// `Hardware` on some ARM kernels).
fn cpu_model(cpuinfo: &str) -> Option<String> {
    ["model name", "Model", "Hardware", "cpu model"]
        .iter()
        .find_map(|key| {
            cpuinfo.lines().find_map(|line| {
                let (k, v) = line.split_once(':')?;
                (k.trim() == *key && !v.trim().is_empty())
                    .then(|| v.split_whitespace().collect::<Vec<_>>().join(" "))
            })
        })
}

/// Days since 1970-01-01 to (year, month, day) (Hinnant's `civil_from_days`).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097); // [0, 146096]
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365; // [0, 399]
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // [0, 365]
    let mp = (5 * doy + 2) / 153; // [0, 11]
    let day = doy - (153 * mp + 2) / 5 + 1; // [1, 31]
    let month = if mp < 10 { mp + 3 } else { mp - 9 }; // [1, 12]
    let year = yoe + era * 400 + i64::from(month <= 2);
    // Both casts are in range by the bounds noted above.
    (year, month as u32, day as u32)
}

/// `time` as RFC 3339 UTC with whole seconds, e.g. `2026-12-03T10:11:12Z`.
/// Times before the epoch are clamped to it.
pub fn rfc3339_utc(time: SystemTime) -> String {
    let secs = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let secs = i64::try_from(secs).unwrap_or(i64::MAX / 2);
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn dates_match_known_calendar_days() {
        let at = |s: u64| rfc3339_utc(UNIX_EPOCH + Duration::from_secs(s));
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z"); // leap day of a 400-year leap year
        assert_eq!(at(1_709_251_199), "2024-02-29T23:59:59Z");
        assert_eq!(at(4_102_444_800), "2100-01-01T00:00:00Z");
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn cpu_model_is_read_from_cpuinfo() {
        let text = "processor\t: 0\nmodel name\t: AMD  EPYC 7763 64-Core Processor\nflags\t: fpu\n";
        assert_eq!(
            cpu_model(text).as_deref(),
            Some("AMD EPYC 7763 64-Core Processor")
        );
        assert_eq!(cpu_model("processor: 0\n"), None);
    }

    #[test]
    fn collect_fills_every_field() {
        let m = collect(
            "contact-harness experiments/quick",
            "experiments/quick.toml",
            serde_json::json!({"a": 1}),
        );
        assert!(!m.commit.is_empty() && !m.host.is_empty());
        assert!(
            m.rustc.starts_with("rustc ") || m.rustc == UNKNOWN,
            "{}",
            m.rustc
        );
        assert!(m.cpu.contains("logical cores"));
        assert_eq!(m.date.len(), 20, "{}", m.date);
        assert!(m.date.ends_with('Z') && m.date.as_bytes()[10] == b'T');
        assert_eq!(m.profile, profile());
        assert_eq!(m.spec["a"], 1);
        assert!(m.seeds.as_object().is_some_and(|s| s.is_empty()));
    }
}
