//! Seeded mutation testing through the command line, as a user's typos and
//! extreme values would reach it: small valid specs of every study kind and
//! the Siconos LCP files, mutated (numbers replaced by -1, 0, 1e308, nan,
//! inf, a string or an array; lines deleted, duplicated or swapped;
//! characters inserted or deleted), and every entry of every forcing
//! amplitude replaced by huge values on purpose. Every run must end with
//! exit 0, 1 or 2, never a panic, an input error (exit 2) writes no
//! results, and the run must honour `--time-limit`: it may outlive the
//! limit times the waves of jobs it reports stopped by no more than
//! [`SLACK_S`] plus twice the unmutated spec's own time. The seed and the
//! count are fixed, so a failure reproduces; `MUTATION_SEED` and
//! `MUTATION_COUNT` run other or more inputs.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Per-input wall time after which the process is killed [s] (a valid
/// input here runs in well under a second).
const LIMIT_S: u64 = 30;

/// The `--time-limit` every mutated spec runs with [s].
const JOB_LIMIT_S: f64 = 2.0;

/// How long a run may outlive its jobs' limits [s]: the runner abandons a
/// job stuck past its limit after a 0.5 s grace.
const SLACK_S: f64 = 1.0;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// xorshift64*: a small seeded generator (no dependency).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Small valid specs of every kind (each runs in well under a second).
fn specs() -> Vec<(&'static str, String)> {
    let read = |p: &str| std::fs::read_to_string(repo().join(p)).expect("spec");
    vec![
        ("gap-system", read("experiments/sdof-gap.toml")),
        ("gap-system-2dof", TWO_DOF_SPEC.into()),
        ("gap-system-3dof", read("experiments/three-dof-gaps.toml")),
        ("friction-law", read("experiments/friction-laws.toml")),
        ("slider-crank", common::SLIDER_CRANK_SPEC.into()),
        ("stick-slip", common::STICK_SLIP_SPEC.into()),
        (
            "shrouded-blades",
            r#"
[[study]]
name = "blades"
kind = "shrouded-blades"
[study.friction]
law = "constant"
static = 0.2
[study.variants.tanh]
law = "tanh"
static = 0.2
sharpness = 2.0e4
method = "dopri5"
[study.integrator]
dt = 1.0e-6
t_end = 1.0e-4
tolerance = 1.0e-6
"#
            .into(),
        ),
        (
            "valve-spring",
            r#"
[[study]]
name = "spring"
kind = "valve-spring"
[study.spring]
wire_diameter = 4.0e-3
mean_diameter = 24.0e-3
active_coils = 4.5
end_coils = 2
shear_modulus = 81.5e9
density = 7850.0
masses_per_coil = 8
[study.integrator]
method = "ncp-bdf"
dt = 1.0e-5
t_end = 1.0e-4
output_interval = 1.0e-5
[study.variants.penalty]
method = "penalty-bdf"
penalty_stiffness = 1.0e8
[study.reference]
method = "none"
[study.analysis]
error_window = 1.0e-5
"#
            .into(),
        ),
        (
            "valvetrain",
            r#"
[[study]]
name = "train"
kind = "valvetrain"
[study.valvetrain]
valve_mass = 0.05
follower_mass = 0.03
stem_stiffness = 5.94e7
lash = 0.0
[study.spring]
wire_diameter = 4.0e-3
mean_diameter = 24.0e-3
active_coils = 4.5
end_coils = 2
shear_modulus = 81.5e9
density = 7850.0
masses_per_coil = 2
[study.cam]
lift = 8.0e-3
rise_angle = 60.0
cam_speed = 40.0
[study.integrator]
method = "ncp-bdf"
dt = 1.0e-4
revolutions = 1
samples_per_revolution = 100
[study.variants.single]
spring_model = "single-mass"
[study.jump]
low = 30.0
high = 60.0
resolution = 5.0
"#
            .into(),
        ),
    ]
}

/// A 2-DOF gap system with forcing on both DOFs, Newmark-LCP against the
/// exact event-driven solution (the spec of a hang once found by hand:
/// its second amplitude at 1e308 sent nalgebra's matrix exponential into a
/// loop with no end).
const TWO_DOF_SPEC: &str = r#"
[[study]]
name = "two-dof"
kind = "gap-system"
[study.system]
mass = [[1.0, 0.0], [0.0, 2.0]]
damping = [[0.1, 0.0], [0.0, 0.1]]
stiffness = [[2.0, -1.0], [-1.0, 1.0]]
[[study.system.gaps]]
direction = [1.0, 0.0]
gap = 0.1
stiffness = 3.0
[study.excitation]
amplitude = [0.3, 0.5]
omega = 0.7
[study.initial]
x = [0.0, 0.0]
v = [0.0, 0.0]
[study.integrator]
method = "newmark-lcp"
dt = 0.01
t_end = 5.0
alpha_b = 0.0
lcp_solver = "lemke"
"#;

/// Every spec with one entry of one `amplitude = [...]` array replaced by
/// each of the huge values: the forcing of every DOF reaches the solvers.
fn amplitude_mutations(text: &str) -> Vec<String> {
    const HUGE: [&str; 3] = ["1e308", "-1e308", "1e200"];
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (k, line) in lines.iter().enumerate() {
        let Some(rest) = line.trim_start().strip_prefix("amplitude") else {
            continue;
        };
        let Some(inner) = rest
            .trim_start()
            .strip_prefix('=')
            .map(str::trim)
            .and_then(|r| r.strip_prefix('['))
            .and_then(|r| r.split(']').next())
        else {
            continue;
        };
        let entries: Vec<&str> = inner.split(',').map(str::trim).collect();
        for i in 0..entries.len() {
            for value in HUGE {
                let mut e = entries.clone();
                e[i] = value;
                let mut v = lines.clone();
                let new_line = format!("amplitude = [{}]", e.join(", "));
                v[k] = &new_line;
                out.push(v.join("\n"));
            }
        }
    }
    out
}

/// One mutation of `text`.
fn mutate(text: &str, rng: &mut Rng) -> String {
    const VALUES: [&str; 9] = [
        "-1", "0", "1e308", "-1e308", "nan", "inf", "\"x\"", "[1, 2]", "1e-308",
    ];
    let lines: Vec<&str> = text.lines().collect();
    match rng.below(6) {
        // Replace a number.
        0 | 1 => {
            let spots: Vec<(usize, usize)> = {
                let b = text.as_bytes();
                let mut v = Vec::new();
                let mut i = 0;
                while i < b.len() {
                    let starts = (b[i].is_ascii_digit() || b[i] == b'-')
                        && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'));
                    if starts {
                        let mut j = i + 1;
                        while j < b.len()
                            && (b[j].is_ascii_digit()
                                || matches!(b[j], b'.' | b'e' | b'E' | b'-' | b'+'))
                        {
                            j += 1;
                        }
                        if b[i..j].iter().any(|c| c.is_ascii_digit()) {
                            v.push((i, j));
                        }
                        i = j;
                    } else {
                        i += 1;
                    }
                }
                v
            };
            if spots.is_empty() {
                return text.to_string();
            }
            let (a, b) = spots[rng.below(spots.len())];
            format!(
                "{}{}{}",
                &text[..a],
                VALUES[rng.below(VALUES.len())],
                &text[b..]
            )
        }
        // Delete, duplicate or swap lines.
        2 => {
            let k = rng.below(lines.len());
            lines
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != k)
                .map(|(_, l)| *l)
                .collect::<Vec<_>>()
                .join("\n")
        }
        3 => {
            let k = rng.below(lines.len());
            let mut v: Vec<&str> = lines.clone();
            v.insert(k, lines[k]);
            v.join("\n")
        }
        4 => {
            let (a, b) = (rng.below(lines.len()), rng.below(lines.len()));
            let mut v: Vec<&str> = lines.clone();
            v.swap(a, b);
            v.join("\n")
        }
        // Insert or delete a character.
        _ => {
            let chars: Vec<char> = text.chars().collect();
            let k = rng.below(chars.len());
            let mut v = chars.clone();
            if rng.below(2) == 0 {
                v.remove(k);
            } else {
                const INSERT: [char; 6] = ['=', '[', ']', '"', '9', '\n'];
                v.insert(k, INSERT[rng.below(INSERT.len())]);
            }
            v.into_iter().collect()
        }
    }
}

/// Runs the binary with `args` in `dir`: its exit code, stderr and wall
/// time; None if it ran past [`LIMIT_S`].
fn run_limited(dir: &Path, args: &[&str]) -> Option<(Option<i32>, String, f64)> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_contact-harness"))
        .current_dir(dir)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            let out = child.wait_with_output().expect("output");
            return Some((
                out.status.code(),
                String::from_utf8_lossy(&out.stderr).into_owned(),
                start.elapsed().as_secs_f64(),
            ));
        }
        if start.elapsed() > Duration::from_secs(LIMIT_S) {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn settings() -> (u64, usize) {
    let seed = std::env::var("MUTATION_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5EED_2026);
    let count = std::env::var("MUTATION_COUNT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(140);
    (seed, count)
}

/// A scratch directory laid out like the repository: specs go under
/// `experiments/`, next to a link to `reference-data/` (the specs find
/// their reference files relative to themselves).
fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(dir.path().join("experiments")).expect("dir");
    let link = dir.path().join("reference-data");
    #[cfg(unix)]
    std::os::unix::fs::symlink(repo().join("reference-data"), &link).expect("link");
    dir
}

/// Runs one spec text through the CLI with `--time-limit JOB_LIMIT_S`:
/// its exit code (None when killed or not 0-2) and wall time, or the
/// failure to report. `base_s` is the unmutated spec's wall time.
fn run_spec(dir: &Path, name: &str, text: &str, base_s: f64) -> Result<(Option<i32>, f64), String> {
    let spec = dir.join(format!("experiments/{name}.toml"));
    std::fs::write(&spec, text).expect("write");
    let out = format!("out-{name}");
    let limit = JOB_LIMIT_S.to_string();
    let args = [
        spec.to_str().expect("path"),
        "--out",
        out.as_str(),
        "--report",
        "rep",
        "--time-limit",
        limit.as_str(),
    ];
    let result = match run_limited(dir, &args) {
        None => Err(format!("still running after {LIMIT_S} s")),
        Some((code, stderr, wall)) => {
            // Jobs stopped by the limit run in waves of `workers` at once.
            let stopped = stderr.matches("stopped after the time limit").count();
            let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
            let allowed = JOB_LIMIT_S * stopped.div_ceil(workers) as f64 + SLACK_S + 2.0 * base_s;
            if stderr.contains("panicked") || !matches!(code, Some(0..=2)) {
                Err(format!("exit {code:?}: {stderr}"))
            } else if code == Some(2) && dir.join(&out).exists() {
                Err("exit 2 but results written".into())
            } else if wall > allowed {
                Err(format!(
                    "ran {wall:.2} s with --time-limit {JOB_LIMIT_S} and {stopped} jobs stopped: allowed {allowed:.2} s"
                ))
            } else {
                Ok((code, wall))
            }
        }
    };
    let _ = std::fs::remove_dir_all(dir.join(&out));
    result
}

/// The wall time of each unmutated spec (it must pass: exit 0 or 1).
fn base_times(dir: &Path, specs: &[(&'static str, String)]) -> Vec<f64> {
    specs
        .iter()
        .map(|(kind, text)| {
            let (code, wall) = run_spec(dir, &format!("base-{kind}"), text, 10.0)
                .unwrap_or_else(|e| panic!("unmutated {kind}: {e}"));
            assert!(
                matches!(code, Some(0 | 1)),
                "unmutated {kind}: exit {code:?}"
            );
            wall
        })
        .collect()
}

#[test]
fn huge_forcing_amplitudes_end_within_the_time_limit() {
    let specs = specs();
    let dir = scratch();
    let base = base_times(dir.path(), &specs);
    let mut failures = Vec::new();
    let mut runs = 0;
    for ((kind, text), base_s) in specs.iter().zip(&base) {
        for (k, mutated) in amplitude_mutations(text).into_iter().enumerate() {
            runs += 1;
            if let Err(e) = run_spec(dir.path(), &format!("amp-{kind}-{k}"), &mutated, *base_s) {
                failures.push(format!("{kind} amplitude #{k}: {e}\n{mutated}"));
            }
        }
    }
    // Every gap-system spec has a forcing: sdof (1 entry), 2-dof (2), 3-dof (3).
    assert!(runs >= 3 * 6, "{runs} amplitude mutations");
    assert!(
        failures.is_empty(),
        "{} of {runs} amplitude mutations failed:\n{}",
        failures.len(),
        failures.join("\n---\n")
    );
}

#[test]
fn mutated_specs_of_every_kind_end_cleanly() {
    let (seed, count) = settings();
    let mut rng = Rng(seed);
    let specs = specs();
    let dir = scratch();
    let base = base_times(dir.path(), &specs);
    let mut failures = Vec::new();
    let mut codes = [0usize; 3];
    for k in 0..count {
        let (kind, text0) = &specs[k % specs.len()];
        let mut text = text0.clone();
        for _ in 0..1 + rng.below(2) {
            text = mutate(&text, &mut rng);
        }
        match run_spec(dir.path(), &format!("m{k}"), &text, base[k % specs.len()]) {
            Err(e) => failures.push(format!("{kind} #{k}: {e}\n{text}")),
            Ok((code, _)) => {
                if let Some(c @ 0..=2) = code {
                    codes[c as usize] += 1;
                }
            }
        }
    }
    eprintln!(
        "{count} mutated specs (seed {seed:#x}): exit 0 {}, exit 1 {}, exit 2 {}",
        codes[0], codes[1], codes[2]
    );
    // The mutations must reach both the validation and the solvers.
    assert!(
        codes[2] > count / 10 && codes[0] + codes[1] > count / 10,
        "{codes:?}"
    );
    assert!(
        failures.is_empty(),
        "{} of {count} mutated specs (seed {seed:#x}) failed:\n{}",
        failures.len(),
        failures.join("\n---\n")
    );
}

#[test]
fn mutated_lcp_files_end_cleanly() {
    let (seed, count) = settings();
    let mut rng = Rng(seed ^ 0x1CB);
    let files: Vec<PathBuf> = std::fs::read_dir(repo().join("reference-data/lcp"))
        .expect("lcp dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "dat"))
        .collect();
    let dir = tempfile::tempdir().expect("tempdir");
    let mut failures = Vec::new();
    for k in 0..count / 2 {
        let file = &files[k % files.len()];
        let mut text = std::fs::read_to_string(file).expect("lcp");
        for _ in 0..1 + rng.below(2) {
            text = mutate(&text, &mut rng);
        }
        let path = dir.path().join(format!("m{k}.dat"));
        std::fs::write(&path, &text).expect("write");
        match run_limited(dir.path(), &["lcp", "solve", path.to_str().expect("path")]) {
            None => failures.push(format!(
                "{}: still running after {LIMIT_S} s",
                file.display()
            )),
            Some((code, stderr, _)) => {
                if stderr.contains("panicked") || !matches!(code, Some(0..=2)) {
                    failures.push(format!("{} #{k}: exit {code:?}: {stderr}", file.display()));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} mutated LCP files failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
