//! Provenance of a run (`manifest.json`, the report footer): git commit and
//! dirty flag, compiler, build profile and optimisation level, UTC date,
//! host, CPU model, logical cores, total memory, OS and kernel, the timing
//! method, and the versions of the peer tools behind the reference files.
//!
//! Sources: /proc/cpuinfo (`model name`), /proc/meminfo (`MemTotal`),
//! /etc/os-release (`PRETTY_NAME`), `uname -sr` (or
//! /proc/sys/kernel/{ostype,osrelease}), `std::thread::available_parallelism`.
//! Peer tool versions come from `reference-data/*/SOURCE.md`, see
//! [`tool_versions`]. Nothing here fails: whatever cannot be found is
//! `unknown`. The date is
//! formatted from `SystemTime` with the days-to-civil algorithm of
//! H. Hinnant, "chrono-Compatible Low-Level Date Algorithms" (2013),
//! `civil_from_days`, valid for the proleptic Gregorian calendar.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::harness::history::TIMING_METHOD;
use crate::harness::outcome::Manifest;

/// `rustc --version` of the compiler that built this crate (from build.rs).
pub const RUSTC_VERSION: &str = env!("CONTACT_HARNESS_RUSTC");
/// Cargo's `OPT_LEVEL` of this build (from build.rs).
pub const OPT_LEVEL: &str = env!("CONTACT_HARNESS_OPT_LEVEL");

const UNKNOWN: &str = "unknown";

/// Collects the manifest of a run. `command` reproduces the run, `spec_file`
/// is the suite or study file given, `spec` the resolved spec. Seeds start
/// empty (every study deterministic); a runner with random inputs sets them.
pub fn collect(command: &str, spec_file: &str, spec: serde_json::Value) -> Manifest {
    let (commit, dirty) = git_state();
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let os_release = std::fs::read_to_string("/etc/os-release").unwrap_or_default();
    let kernel = kernel();
    Manifest {
        commit,
        dirty,
        rustc: RUSTC_VERSION.to_string(),
        profile: profile().to_string(),
        date: rfc3339_utc(SystemTime::now()),
        host: host_name(),
        cpu: cpu_description(),
        cpu_model: cpu_model(&cpuinfo).unwrap_or_else(|| UNKNOWN.to_string()),
        logical_cores: std::thread::available_parallelism()
            .map_or_else(|_| UNKNOWN.to_string(), |n| n.to_string()),
        memory: mem_total(&meminfo).unwrap_or_else(|| UNKNOWN.to_string()),
        os: os_name(&os_release).unwrap_or_else(|| kernel.clone()),
        kernel,
        build: build_description(),
        timing_method: TIMING_METHOD.to_string(),
        reference_tools: reference_tools(),
        command: command.to_string(),
        spec_file: spec_file.to_string(),
        spec,
        seeds: serde_json::Value::Object(serde_json::Map::new()),
        shards: Vec::new(),
    }
}

/// `debug` when debug assertions are on, else `release` (the dev profile of
/// Cargo.toml has none since the timings it publishes must be an optimised
/// build's).
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

/// `optimised, cargo profile P: opt-level N, debug assertions on|off` of
/// this build (`optimised` when opt-level is above 0 and debug assertions
/// are off: the build whose timings the report publishes; Cargo.toml's dev
/// profile is such a build).
pub fn build_description() -> String {
    let assertions = cfg!(debug_assertions);
    let optimised = OPT_LEVEL != "0" && !assertions;
    format!(
        "{}, cargo profile {}: opt-level {OPT_LEVEL}, debug assertions {}",
        if optimised {
            "optimised"
        } else {
            "not optimised"
        },
        // Cargo's PROFILE is `debug` for the dev profile and profiles
        // inheriting from it, `release` otherwise.
        match env!("CONTACT_HARNESS_CARGO_PROFILE") {
            "debug" => "dev",
            other => other,
        },
        if assertions { "on" } else { "off" },
    )
}

/// `MemTotal` of /proc/meminfo text in GiB with 3 significant digits, e.g.
/// `23.5 GiB`.
fn mem_total(meminfo: &str) -> Option<String> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let mut words = line["MemTotal:".len()..].split_whitespace();
    let value: f64 = words.next()?.parse().ok()?;
    let scale = match words.next().unwrap_or("kB") {
        "kB" | "KB" | "kiB" | "KiB" => 1024.0,
        "B" => 1.0,
        "MB" | "MiB" => 1024.0 * 1024.0,
        _ => return None,
    };
    let gib = value * scale / (1024.0 * 1024.0 * 1024.0);
    Some(format!("{} GiB", crate::harness::format::sig(gib)))
}

/// `PRETTY_NAME` of /etc/os-release text (quotes removed), else `NAME` and
/// `VERSION`.
fn os_name(os_release: &str) -> Option<String> {
    let field = |key: &str| {
        os_release.lines().find_map(|l| {
            let v = l.strip_prefix(key)?.strip_prefix('=')?;
            let v = v.trim().trim_matches('"').trim_matches('\'').trim();
            (!v.is_empty()).then(|| v.to_string())
        })
    };
    field("PRETTY_NAME").or_else(|| {
        let name = field("NAME")?;
        Some(match field("VERSION") {
            Some(v) => format!("{name} {v}"),
            None => name,
        })
    })
}

/// The kernel: `uname -sr`, else /proc/sys/kernel/{ostype,osrelease}, else
/// the target OS name.
pub fn kernel() -> String {
    let uname = Command::new("uname")
        .arg("-sr")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|s| !s.is_empty());
    uname
        .or_else(|| {
            let read = |f: &str| {
                std::fs::read_to_string(f)
                    .ok()
                    .map(|s| s.trim().to_string())
            };
            Some(format!(
                "{} {}",
                read("/proc/sys/kernel/ostype")?,
                read("/proc/sys/kernel/osrelease")?
            ))
        })
        .unwrap_or_else(|| format!("{UNKNOWN} {}", std::env::consts::OS))
}

/// Peer tools whose versions [`tool_versions`] looks for, lower case, with
/// their usual spelling.
pub const PEER_TOOLS: [(&str, &str); 18] = [
    ("python", "Python"),
    ("numpy", "NumPy"),
    ("scipy", "SciPy"),
    ("sympy", "SymPy"),
    ("mpmath", "mpmath"),
    ("numba", "Numba"),
    ("exudyn", "Exudyn"),
    ("openblas", "OpenBLAS"),
    ("lapack", "LAPACK"),
    ("mkl", "MKL"),
    ("matlab", "MATLAB"),
    ("octave", "Octave"),
    ("julia", "Julia"),
    ("siconos", "Siconos"),
    ("chrono", "Chrono"),
    ("mbdyn", "MBDyn"),
    ("gcc", "GCC"),
    ("gfortran", "gfortran"),
];

/// The peer-tool versions named in a SOURCE.md text, in order of first
/// mention, without repeats, e.g. `["Python 3.11.7", "NumPy 2.4.6"]`.
///
/// The rule, over the text split at whitespace (so a name and its version
/// may sit on two lines): a word that, without leading punctuation such as
/// `(` or a backtick, is one of [`PEER_TOOLS`] (any case; `SciPy's` or
/// `NumPy,` is not), followed by a word that, without trailing `.`, `,`,
/// `;`, `:`, `)` or `]` and an optional leading `v`, is a version: digits
/// separated by dots (`SciPy 1e-13` names none). As a regex:
/// `(?i)(?:^|\s)\W*(TOOL)\s+v?(\d+(?:\.\d+)*)[.,;:)\]]*(?:\s|$)`.
pub fn tool_versions(text: &str) -> Vec<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut out: Vec<String> = Vec::new();
    for pair in words.windows(2) {
        let name = pair[0].trim_start_matches(|c: char| !c.is_alphanumeric());
        let Some(&(_, display)) = PEER_TOOLS
            .iter()
            .find(|(t, _)| name.eq_ignore_ascii_case(t))
        else {
            continue;
        };
        let raw = pair[1].trim_end_matches(['.', ',', ';', ':', ')', ']']);
        let version = raw.strip_prefix('v').unwrap_or(raw);
        let is_version = !version.is_empty()
            && version
                .split('.')
                .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
        let entry = format!("{display} {version}");
        if is_version && !out.contains(&entry) {
            out.push(entry);
        }
    }
    out
}

/// [`tool_versions`] of every `reference-data/<dir>/SOURCE.md` (the
/// crate's source tree, else the current directory), by directory name.
/// A directory whose SOURCE.md names no version has an empty list.
pub fn reference_tools() -> BTreeMap<String, Vec<String>> {
    let candidates = [
        Path::new(env!("CARGO_MANIFEST_DIR")).join("reference-data"),
        Path::new("reference-data").to_path_buf(),
    ];
    for dir in candidates {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut out = BTreeMap::new();
        for entry in entries.flatten() {
            let source = entry.path().join("SOURCE.md");
            if let Ok(text) = std::fs::read_to_string(&source) {
                let name = entry.file_name().to_string_lossy().to_string();
                out.insert(name, tool_versions(&text));
            }
        }
        return out;
    }
    BTreeMap::new()
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
        for (what, v) in [
            ("cpu_model", &m.cpu_model),
            ("logical_cores", &m.logical_cores),
            ("memory", &m.memory),
            ("os", &m.os),
            ("kernel", &m.kernel),
            ("build", &m.build),
            ("timing_method", &m.timing_method),
        ] {
            assert!(!v.is_empty(), "{what} empty");
        }
        assert!(
            m.build.starts_with("optimised, cargo profile ")
                || m.build.starts_with("not optimised, cargo profile "),
            "{}",
            m.build
        );
        assert!(m.build.contains(": opt-level "), "{}", m.build);
        assert_eq!(m.timing_method, TIMING_METHOD);
        if cfg!(target_os = "linux") {
            assert!(m.memory.ends_with(" GiB"), "{}", m.memory);
            assert!(m.logical_cores.parse::<usize>().is_ok());
            assert!(m.kernel.starts_with("Linux "), "{}", m.kernel);
        }
        // The crate's own reference data names its tools.
        assert_eq!(
            m.reference_tools.get("gap-system").map(Vec::as_slice),
            Some(
                &[
                    "Python 3.11.7".to_string(),
                    "NumPy 2.4.6".to_string(),
                    "SciPy 1.17.1".to_string()
                ][..]
            )
        );
    }

    #[test]
    fn tool_versions_follow_the_documented_rule() {
        let text = "- Tools: Python 3.11.7, NumPy 2.4.6 (printed by the script).
with exudyn 1.13.6 (the default module), numpy
2.4.6, Python 3.11.7, on the 2-core machine. (NumPy 2.4.6, Python 3, here.)
SciPy's own error; SciPy 1e-13 is close; scipy.integrate 1.2; NumPy, 2.0
Tools: SciPy 1.17.1 (OpenBLAS 0.3.31). MATLAB v9.14; Julia 1.10.";
        assert_eq!(
            tool_versions(text),
            [
                "Python 3.11.7",
                "NumPy 2.4.6",
                "Exudyn 1.13.6",
                "Python 3",
                "SciPy 1.17.1",
                "OpenBLAS 0.3.31",
                "MATLAB 9.14",
                "Julia 1.10"
            ]
        );
        assert!(tool_versions("no tools here 1.2.3").is_empty());
    }

    #[test]
    fn memory_and_os_are_read_or_unknown() {
        assert_eq!(
            mem_total("MemFree: 1 kB\nMemTotal:       24683584 kB\n").as_deref(),
            Some("23.5 GiB")
        );
        assert_eq!(mem_total("MemFree: 1 kB\n"), None);
        assert_eq!(mem_total("MemTotal: lots\n"), None);
        let release = "NAME=\"Debian GNU/Linux\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n";
        assert_eq!(
            os_name(release).as_deref(),
            Some("Debian GNU/Linux 12 (bookworm)")
        );
        assert_eq!(
            os_name("NAME=Alpine\nVERSION='3.20'\n").as_deref(),
            Some("Alpine 3.20")
        );
        assert_eq!(os_name(""), None);
    }
}
