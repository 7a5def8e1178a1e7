//! Number formatting for the report: 4 significant digits for measured
//! values, exact integers for counters, durations with a unit. The CSVs keep
//! full precision; this is only for reading.

/// `v` with 4 significant digits (trailing zeros dropped): `0.001235`,
/// `12.35`, `1.235e-7`, `NaN`, `inf`.
pub fn sig(v: f64) -> String {
    if v.is_nan() {
        return "NaN".to_string();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf" } else { "-inf" }.to_string();
    }
    if v == 0.0 {
        return "0".to_string();
    }
    // Round to 4 significant digits first, so that the exponent is that of
    // the printed number (9.9996 prints as 10, not 10.000).
    let rounded: f64 = format!("{v:.3e}").parse().unwrap_or(v);
    let e = rounded.abs().log10().floor() as i32;
    if (-3..=4).contains(&e) {
        trim(&format!("{rounded:.*}", (3 - e).max(0) as usize))
    } else {
        let s = format!("{rounded:.3e}");
        match s.split_once('e') {
            Some((m, exp)) => format!("{}e{exp}", trim(m)),
            None => s,
        }
    }
}

fn trim(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

/// A counter: exact integer when it is one, else [`sig`].
pub fn count(v: f64) -> String {
    if v.is_finite() && v.fract() == 0.0 && v.abs() < 1e15 {
        // Exact: an integer below 2^53 in magnitude.
        format!("{}", v as i64)
    } else {
        sig(v)
    }
}

/// A duration in seconds with a readable unit: `1.234 s`, `12.3 ms`,
/// `45.6 µs`, `789 ns`.
pub fn seconds(v: f64) -> String {
    let a = v.abs();
    if !v.is_finite() {
        return format!("{} s", sig(v));
    }
    if a == 0.0 {
        "0 s".to_string()
    } else if a >= 1.0 {
        format!("{} s", sig(v))
    } else if a >= 1e-3 {
        format!("{} ms", sig(v * 1e3))
    } else if a >= 1e-6 {
        format!("{} µs", sig(v * 1e6))
    } else {
        format!("{} ns", sig(v * 1e9))
    }
}

/// A relative change as a signed percentage: `+52.3 %`.
pub fn percent(ratio: f64) -> String {
    if !ratio.is_finite() {
        return "n/a".to_string();
    }
    let p = 100.0 * ratio;
    let s = sig(p);
    if p > 0.0 {
        format!("+{s} %")
    } else {
        format!("{s} %")
    }
}

/// The first 10 characters of a commit hash, keeping a `+dirty` suffix.
pub fn short_commit(commit: &str) -> String {
    let (hash, suffix) = match commit.strip_suffix("+dirty") {
        Some(h) => (h, "+dirty"),
        None => (commit, ""),
    };
    let short: String = hash.chars().take(10).collect();
    format!("{short}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn significant_digits() {
        assert_eq!(sig(0.0012346), "0.001235");
        assert_eq!(sig(12.3456), "12.35");
        assert_eq!(sig(12345.6), "12350");
        assert_eq!(sig(1.23456e-7), "1.235e-7");
        assert_eq!(sig(2.0), "2");
        assert_eq!(sig(9.99996), "10");
        assert_eq!(sig(-0.5), "-0.5");
        assert_eq!(sig(3e20), "3e20");
        assert_eq!(sig(f64::NAN), "NaN");
    }

    #[test]
    fn counters_durations_and_commits() {
        assert_eq!(count(1234567.0), "1234567");
        assert_eq!(count(2.5), "2.5");
        assert_eq!(seconds(0.0123456), "12.35 ms");
        assert_eq!(seconds(2.0e-5), "20 µs");
        assert_eq!(seconds(3.5), "3.5 s");
        assert_eq!(percent(0.5), "+50 %");
        assert_eq!(percent(-0.05), "-5 %");
        assert_eq!(short_commit("0123456789abcdef+dirty"), "0123456789+dirty");
        assert_eq!(short_commit("unknown"), "unknown");
    }
}
