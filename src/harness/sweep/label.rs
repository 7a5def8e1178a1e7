//! Swept values as a reader reads them (issue 20, class 7): a case's
//! coordinates as `dt = 6.25 µs, tol = 1e-10` instead of its file stem
//! `dt-0.00000625_tolerance-0.0000000001`. The unit of a key is found from
//! its last segment ([`unit_of`]); seconds and metres take an SI prefix,
//! and a value that is a simple fraction to rounding is written as one
//! (`alpha_b = -1/3`).

use crate::harness::study::Coord;

/// The unit of a swept key, from its last dotted segment (`integrator.dt`:
/// s); `None` for a dimensionless one. Units as `experiments/README.md`
/// documents the keys.
pub fn unit_of(key: &str) -> Option<&'static str> {
    let last = key.rsplit('.').next().unwrap_or(key);
    Some(match last {
        "dt" | "t_end" | "output_interval" | "error_window" => "s",
        "omega" => "rad/s",
        "cam_speed" => "rev/s",
        "clearance" | "gap" | "lash" => "m",
        "penalty_stiffness" | "stem_stiffness" | "stiffness" | "sigma0" => "N/m",
        "sharpness" | "b" | "decay" => "s/m",
        "critical_speed" | "stribeck_speed" | "belt_speed" => "m/s",
        "normal_force" => "N",
        _ => return None,
    })
}

/// `v` in at most 6 significant digits, the shortest that reads back to
/// 1e-9 relative: fixed between 1e-3 and 1e5, else `6.25e-6`; a value
/// that needs more digits but is n/d (d <= 12) to 1e-12 as the fraction.
pub fn short(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let close = |s: &str| {
        s.parse::<f64>()
            .is_ok_and(|r| (r - v).abs() <= 1e-9 * v.abs())
    };
    let fixed = (1e-3..1e5).contains(&v.abs());
    for digits in 0..6usize {
        let s = if fixed {
            let decimals = (digits as i32 - v.abs().log10().floor() as i32).max(0) as usize;
            format!("{v:.decimals$}")
        } else {
            format!("{v:.digits$e}")
        };
        if close(&s) {
            return s;
        }
    }
    for d in 2..=12i64 {
        let n = (v * d as f64).round();
        if (v * d as f64 - n).abs() <= 1e-12 * v.abs().max(1.0) * d as f64 {
            return format!("{}/{d}", n as i64);
        }
    }
    if fixed {
        crate::harness::format::sig(v).to_string()
    } else {
        format!("{v:.3e}")
    }
}

/// `v` with its unit: seconds and metres scaled by an SI prefix into
/// [1, 1000) (`6.25 µs`, `50 µm`), other units as they are.
pub fn with_unit(v: f64, unit: Option<&str>) -> String {
    match unit {
        Some(u @ ("s" | "m")) if v != 0.0 && v.abs() < 1.0 => {
            let (scale, prefix) = [(1e3, "m"), (1e6, "µ"), (1e9, "n")]
                .into_iter()
                .find(|(s, _)| v.abs() * s >= 1.0 - 1e-12)
                .unwrap_or((1e12, "p"));
            format!("{} {prefix}{u}", short(v * scale))
        }
        Some(u) => format!("{} {u}", short(v)),
        None => short(v),
    }
}

/// One coordinate: `label = value unit` (strings as they are).
pub fn coord_text(c: &Coord) -> String {
    match c.number() {
        Some(v) => format!("{} = {}", c.label, with_unit(v, unit_of(&c.key))),
        None => format!("{} = {}", c.label, c.value_text()),
    }
}

/// A case's coordinates joined by `, ` (empty without sweeps).
pub fn coords_text<'a>(coords: impl IntoIterator<Item = &'a Coord>) -> String {
    coords
        .into_iter()
        .map(coord_text)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A key's axis label: `key [unit]` (`[-]` when dimensionless).
pub fn key_with_unit(key: &str) -> String {
    format!("{key} [{}]", unit_of(key).unwrap_or("-"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn coord(key: &str, label: &str, value: toml::Value) -> Coord {
        Coord {
            key: key.into(),
            label: label.into(),
            value,
        }
    }

    /// The raw case ids read as swept values with units.
    #[test]
    fn raw_case_ids_read_as_values_with_units() {
        let c = [
            coord("integrator.dt", "dt", toml::Value::Float(6.25e-6)),
            coord("integrator.tolerance", "tol", toml::Value::Float(1e-10)),
        ];
        assert_eq!(coords_text(&c), "dt = 6.25 µs, tol = 1e-10");
        let a = coord(
            "integrator.alpha_b",
            "alpha_b",
            toml::Value::Float(-0.3333333333333333),
        );
        assert_eq!(coord_text(&a), "alpha_b = -1/3");
        let a = coord("integrator.alpha_b", "alpha_b", toml::Value::Float(-0.3));
        assert_eq!(coord_text(&a), "alpha_b = -0.3");
        let m = coord("joint.model", "joint", toml::Value::String("ideal".into()));
        assert_eq!(coord_text(&m), "joint = ideal");
        let k = coord("variants.tanh-ode.sharpness", "k", toml::Value::Float(2e8));
        assert_eq!(coord_text(&k), "k = 2e8 s/m");
    }

    #[test]
    fn numbers_are_short_and_prefixed() {
        assert_eq!(short(0.0003125), "3.125e-4");
        assert_eq!(with_unit(0.0003125, Some("s")), "312.5 µs");
        assert_eq!(with_unit(0.01, Some("s")), "10 ms");
        assert_eq!(with_unit(5e-5, Some("m")), "50 µm");
        assert_eq!(with_unit(209.44, Some("rad/s")), "209.44 rad/s");
        assert_eq!(short(1000.0), "1000");
        assert_eq!(short(1e9), "1e9");
        assert_eq!(short(-0.05), "-0.05");
        assert_eq!(key_with_unit("integrator.dt"), "integrator.dt [s]");
        assert_eq!(
            key_with_unit("integrator.tolerance"),
            "integrator.tolerance [-]"
        );
    }
}
