//! Seeded mutation testing through the command line, as a user's typos and
//! extreme values would reach it: small valid specs of every study kind and
//! the Siconos LCP files, mutated (numbers replaced by -1, 0, 1e308, nan,
//! inf, a string or an array; lines deleted, duplicated or swapped;
//! characters inserted or deleted). Every run must end within a time limit
//! with exit 0, 1 or 2, never a panic, and an input error (exit 2) writes
//! no results. The seed and the count are fixed, so a failure reproduces;
//! `MUTATION_SEED` and `MUTATION_COUNT` run other or more inputs.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Per-input wall-time limit [s] (a valid input here runs in well under a
/// second; the limit is for a loaded machine).
const LIMIT_S: u64 = 30;

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

/// Runs the binary with `args` in `dir`; None if it ran past the limit.
fn run_limited(dir: &Path, args: &[&str]) -> Option<(Option<i32>, String)> {
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

#[test]
fn mutated_specs_of_every_kind_end_cleanly() {
    let (seed, count) = settings();
    let mut rng = Rng(seed);
    let specs = specs();
    let dir = tempfile::tempdir().expect("tempdir");
    // The repository's reference files are found relative to the spec:
    // keep the layout (`experiments/x.toml` next to `reference-data/`).
    std::fs::create_dir_all(dir.path().join("experiments")).expect("dir");
    let link = dir.path().join("reference-data");
    #[cfg(unix)]
    std::os::unix::fs::symlink(repo().join("reference-data"), &link).expect("link");
    let mut failures = Vec::new();
    let mut codes = [0usize; 3];
    for k in 0..count {
        let (kind, base) = &specs[k % specs.len()];
        let mut text = base.clone();
        for _ in 0..1 + rng.below(2) {
            text = mutate(&text, &mut rng);
        }
        let spec = dir.path().join(format!("experiments/m{k}.toml"));
        std::fs::write(&spec, &text).expect("write");
        let out = format!("out{k}");
        let args = [
            spec.to_str().expect("path"),
            "--out",
            out.as_str(),
            "--report",
            "rep",
            // A valid but slow spec ends by the per-job limit (exit 1); the
            // kill after LIMIT_S catches anything the limit does not cover.
            "--time-limit",
            "10",
        ];
        match run_limited(dir.path(), &args) {
            None => failures.push(format!(
                "{kind} #{k}: still running after {LIMIT_S} s:\n{text}"
            )),
            Some((code, stderr)) => {
                if let Some(c @ 0..=2) = code {
                    codes[c as usize] += 1;
                }
                if stderr.contains("panicked") || !matches!(code, Some(0..=2)) {
                    failures.push(format!("{kind} #{k}: exit {code:?}: {stderr}\n{text}"));
                } else if code == Some(2) && dir.path().join(&out).exists() {
                    failures.push(format!("{kind} #{k}: exit 2 but results written\n{text}"));
                }
            }
        }
        let _ = std::fs::remove_dir_all(dir.path().join(&out));
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
            Some((code, stderr)) => {
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
