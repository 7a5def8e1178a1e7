//! The `valvetrain` kind through the command line: bad keys exit 2 with a
//! message naming the file, study, key, value and what is allowed (nothing
//! written); a valvetrain unlike the repository's (other masses, spring,
//! lift, rise and dwell angles) jumps at the rigid valvetrain's analytic
//! speed, computed here independently.

use std::f64::consts::PI;

mod common;
use common::{assert_input_errors, run_spec, stderr};

/// Signorini's checks on every contact of a valvetrain study.
const SIGNORINI_CHECKS: &str = r#"
[[study.check]]
name = "signorini-penetration"
quantity = "max_penetration"
metric = "at-most"
tolerance = 1e-12
why = "the Newton tolerance in gap, 1e-10 d = 4e-13 m"

[[study.check]]
name = "forces-never-negative"
quantity = "min_lambda"
metric = "at-least"
tolerance = -1e-6
why = "the Newton tolerance in force, 1e-10 k_s d = 6e-7 N"
"#;

const SPEC: &str = r#"
[[study]]
name = "train"
kind = "valvetrain"
[study.valvetrain]
valve_mass = 0.050
follower_mass = 0.030
stem_stiffness = 5.94e9
lash = 0.0
[study.spring]
wire_diameter = 4.0e-3
mean_diameter = 24.0e-3
active_coils = 4.5
end_coils = 2
shear_modulus = 81.5e9
density = 7850.0
masses_per_coil = 8
damping_ratio = 0.0
[study.cam]
lift = 8.0e-3
rise_angle = 60.0
dwell_angle = 0.0
cam_speed = 40.0
[study.integrator]
method = "ncp-bdf"
spring_model = "single-mass"
dt = 1.0e-5
revolutions = 1
samples_per_revolution = 360
[study.jump]
low = 20.0
high = 90.0
resolution = 0.1
"#;

#[test]
fn bad_valvetrain_keys_exit_2_naming_the_key() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "valve_mass = 0.050",
            "valve_mass = -0.05",
            &["study.valvetrain.valve_mass", "> 0"],
        ),
        (
            "stem_stiffness = 5.94e9",
            "stem_stiffness = 0.0",
            &["study.valvetrain.stem_stiffness", "> 0"],
        ),
        (
            "lash = 0.0",
            "lash = 0.01",
            &["study.valvetrain.lash", "below the cam lift"],
        ),
        (
            "spring_model = \"single-mass\"",
            "spring_model = \"two-mass\"",
            &[
                "study.integrator.spring_model",
                "\"multi-mass\" or \"single-mass\"",
            ],
        ),
        (
            "spring_model = \"single-mass\"",
            "spring_model = \"single-mass\"\ncoil_contact = true",
            &["study.integrator.coil_contact", "no coil contact"],
        ),
        (
            "revolutions = 1",
            "revolutions = 0",
            &["study.integrator.revolutions", "1..=100"],
        ),
        (
            "dwell_angle = 0.0",
            "dwell_angle = 300.0",
            &["study.cam.dwell_angle", "<= 360"],
        ),
        (
            "high = 90.0",
            "high = 10.0",
            &["study.jump.high", "above jump.low"],
        ),
        (
            "resolution = 0.1",
            "resolution = 100.0",
            &["study.jump.resolution", "high - low"],
        ),
        (
            "method = \"ncp-bdf\"",
            "method = \"ncp-bdf\"\npenalty_stiffness = 1e8",
            &["study.integrator.penalty_stiffness", "no penalty keys"],
        ),
        (
            // diffsol runs the valve spring's penalty model only.
            "method = \"ncp-bdf\"",
            "method = \"penalty-diffsol-bdf\"\npenalty_stiffness = 1e8",
            &[
                "study.integrator.method",
                "penalty-diffsol-bdf",
                "\"penalty-bdf\"",
            ],
        ),
        (
            "[study.jump]",
            "[study.analysis]\nforce_window = 1.0\n[study.jump]",
            &["study.analysis.force_window", "no longer than a revolution"],
        ),
        (
            "[study.jump]",
            "[study.reference]\nmethod = \"exact\"\n[study.jump]",
            &["study.reference.method", "\"ncp-fine\""],
        ),
        (
            "valve_mass = 0.050",
            "valve_mass = 0.050\nvalve_colour = 1",
            &["valve_colour"],
        ),
    ];
    assert_input_errors(SPEC, "train", cases);
}

/// The rigid valvetrain's jump speed, by a grid of one million cam angles
/// over the lift event: min over the angles with x'' < 0 of
/// sqrt((F0 + k x) / (m |x''|)) / (2 pi), x the cycloidal
/// rise-dwell-return lift.
fn analytic_jump(
    lift: f64,
    rise_deg: f64,
    dwell_deg: f64,
    (d, dm, na, ne, g, rho): (f64, f64, f64, f64, f64, f64),
    (l0, linst): (f64, f64),
    (valve, follower): (f64, f64),
) -> f64 {
    let k = g * d.powi(4) / (8.0 * dm.powi(3) * na);
    let coil = rho * PI * d * d / 4.0 * PI * dm;
    let m = valve + follower + ne / 2.0 * coil + na * coil / 3.0;
    let (b, dw) = (rise_deg.to_radians(), dwell_deg.to_radians());
    let cyc = |u: f64| {
        (
            lift * (u - (2.0 * PI * u).sin() / (2.0 * PI)),
            lift * 2.0 * PI * (2.0 * PI * u).sin() / (b * b),
        )
    };
    let mut best = f64::INFINITY;
    let n = 1_000_000;
    for i in 1..n {
        let theta = (2.0 * b + dw) * i as f64 / n as f64;
        let (x, a) = if theta <= b {
            cyc(theta / b)
        } else if theta <= b + dw {
            (lift, 0.0)
        } else {
            cyc((2.0 * b + dw - theta) / b)
        };
        if a < 0.0 {
            best = best.min((k * (l0 - linst) + k * x) / (m * -a));
        }
    }
    best.sqrt() / (2.0 * PI)
}

#[test]
fn another_valvetrain_jumps_at_its_analytic_speed() {
    let spec = SPEC
        .replace("valve_mass = 0.050", "valve_mass = 0.065")
        .replace("follower_mass = 0.030", "follower_mass = 0.022")
        .replace("wire_diameter = 4.0e-3", "wire_diameter = 3.8e-3")
        .replace("mean_diameter = 24.0e-3", "mean_diameter = 22.0e-3")
        .replace("active_coils = 4.5", "active_coils = 5.0")
        .replace("lift = 8.0e-3", "lift = 7.0e-3")
        .replace("rise_angle = 60.0", "rise_angle = 70.0")
        .replace("dwell_angle = 0.0", "dwell_angle = 15.0");
    let expected = analytic_jump(
        7e-3,
        70.0,
        15.0,
        (3.8e-3, 22e-3, 5.0, 2.0, 81.5e9, 7850.0),
        (41e-3, 39e-3),
        (0.065, 0.022),
    );
    let (dir, out) = run_spec(&spec);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let summary =
        std::fs::read_to_string(dir.path().join("out/train/summary.csv")).expect("summary.csv");
    let mut lines = summary.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let row: Vec<&str> = lines.next().expect("row").split(',').collect();
    let value = |name: &str| -> f64 {
        let i = header.iter().position(|h| *h == name).expect(name);
        row[i].parse().expect("number")
    };
    let (low, high) = (value("jump_low"), value("jump_high"));
    assert!(high - low <= 0.1, "bracket [{low}, {high}]");
    assert!(
        low - 0.01 <= expected && expected <= high + 0.01,
        "analytic {expected} outside the bisection bracket [{low}, {high}]"
    );
    assert!(
        (value("analytic_jump_speed") - expected).abs() < 1e-6 * expected,
        "the harness's analytic value {} against {expected}",
        value("analytic_jump_speed")
    );
}

/// Above the jump speed (1.5x the rigid valvetrain's 46.4 rev/s) the
/// follower flies off the cam, the valve overshoots the 8 mm lift and the
/// multi-mass spring with coil contact goes solid (coil bind at 9 mm:
/// installed 39 mm, solid 7.5 d = 30 mm), where its closed coil pairs are
/// dependent: the fixed-step run stopped there ("the Newton iteration did
/// not converge" at t = 2.2 ms). Every method runs now, every spring model
/// lifts off, the valve with coil contact stops at the solid length, and
/// the Signorini checks hold through the coil bind.
#[test]
fn above_the_jump_speed_every_method_runs_and_the_follower_lifts_off() {
    let study = r#"
[[study]]
name = "above-jump"
kind = "valvetrain"
[study.valvetrain]
valve_mass = 0.050
follower_mass = 0.030
stem_stiffness = 5.94e7
[study.spring]
wire_diameter = 4.0e-3
mean_diameter = 24.0e-3
active_coils = 4.5
end_coils = 2
shear_modulus = 81.5e9
density = 7850.0
masses_per_coil = 8
free_length = 41.0e-3
installed_length = 39.0e-3
[study.cam]
lift = 8.0e-3
rise_angle = 60.0
cam_speed = 70.0
[study.integrator]
method = "ncp-bdf"
dt = 1.0e-5
revolutions = 1
samples_per_revolution = 360
[study.variants.no-coil-contact]
coil_contact = false
[study.variants.single-mass]
spring_model = "single-mass"

"#;
    let (dir, out) = run_spec(&format!("{study}{SIGNORINI_CHECKS}"));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let summary = std::fs::read_to_string(dir.path().join("out/above-jump/summary.csv"))
        .expect("summary.csv");
    let mut lines = summary.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 3, "{summary}");
    for row in &rows {
        let value = |name: &str| -> f64 { row[col(name)].parse().expect(name) };
        let method = row[col("method")];
        assert_eq!(row[col("status")], "ok", "{method}");
        assert_eq!(value("liftoff"), 1.0, "{method}: lift-off");
        assert!(value("min_cam_force") <= 1e-6 * 83.8, "{method}: cam force");
        // The follower leaves the cam by millimetres, not by round-off.
        assert!(
            value("max_separation") > 1e-3,
            "{method}: separation {}",
            value("max_separation")
        );
        // Past the cam's 8 mm lift; with coil contact up to the solid
        // length (9 mm lift) and no further than the Newton tolerance.
        let lift = value("max_lift");
        assert!(lift > 8.5e-3, "{method}: lift {lift}");
        if method == "ncp-bdf" {
            assert!((lift - 9e-3).abs() < 1e-9, "{method}: coil bind at {lift}");
        }
        assert!(value("impact_velocity") > 0.0, "{method}: lands");
    }
    let timings = std::fs::read_to_string(dir.path().join("out/timings.csv")).expect("timings.csv");
    let mut lines = timings.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let (m, r) = (
        header.iter().position(|h| *h == "method").expect("method"),
        header
            .iter()
            .position(|h| *h == "regularized")
            .expect("regularized"),
    );
    let regularized: f64 = lines
        .map(|l| l.split(',').collect::<Vec<&str>>())
        .find(|row| row[m] == "ncp-bdf")
        .expect("ncp-bdf")[r]
        .parse()
        .expect("number");
    assert!(regularized >= 1.0, "the coil bind's steps: {regularized}");
}

/// A robustness sample of valvetrain-speed-sweep (sample 5 of the saved
/// run: the wire 2.2 x steel's density, 62.5 rev/s, above the jump speed)
/// where the spring reaches coil bind: the closed coil contacts' gradients
/// are dependent, and round-off left the Newton matrix's pivot at about
/// epsilon instead of zero. The increment of 2.7e23 N was taken, and
/// Newton never recovered (residuals of 2^24-2^26, "did not converge at
/// t = 0.00261 s"). The increment now reveals the singular matrix, which
/// is regularized like an exact zero pivot: the run finishes with
/// Signorini kept.
#[test]
fn a_heavy_spring_at_coil_bind_above_the_jump_is_integrated() {
    let study = r#"
[[study]]
name = "coil-bind"
kind = "valvetrain"
[study.valvetrain]
valve_mass = 0.050
follower_mass = 0.030
stem_stiffness = 5.94e7
stem_damping_ratio = 0.04468389833258639
lash = 0.0
[study.spring]
wire_diameter = 4.0e-3
mean_diameter = 24.0e-3
active_coils = 4.5
end_coils = 2
shear_modulus = 81.5e9
density = 17046.7518894406
masses_per_coil = 8
free_length = 41.0e-3
installed_length = 39.0e-3
progressivity = 0.5
damping_ratio = 0.017141077381332755
[study.cam]
lift = 8.0e-3
rise_angle = 60.0
cam_speed = 62.5
[study.integrator]
method = "ncp-bdf"
order = 2
dt = 1.0e-5
revolutions = 1
samples_per_revolution = 360

"#;
    let (dir, out) = run_spec(&format!("{study}{SIGNORINI_CHECKS}"));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let summary =
        std::fs::read_to_string(dir.path().join("out/coil-bind/summary.csv")).expect("summary.csv");
    let mut lines = summary.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let row: Vec<&str> = lines.next().expect("a row").split(',').collect();
    assert_eq!(row[col("status")], "ok", "{summary}");
    assert!(
        row[col("max_penetration")]
            .parse::<f64>()
            .expect("penetration")
            <= 1e-12
    );
    // The spring did reach coil bind: steps were regularized (timings.csv's
    // counter).
    let timings = std::fs::read_to_string(dir.path().join("out/timings.csv")).expect("timings.csv");
    let mut lines = timings.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let row: Vec<&str> = lines
        .map(|l| l.split(',').collect::<Vec<_>>())
        .find(|r| r[col("method")] == "ncp-bdf")
        .expect("the ncp-bdf row");
    let regularized: f64 = row[col("regularized")].parse().expect("regularized");
    assert!(regularized > 0.0, "{timings}");
}
