//! Number formatting for the report, one format everywhere: 3 significant
//! digits, plain decimals from 0.01 to 9990, else a mantissa with two
//! decimals and an exponent (`4.22e-4`, `1.50e6`); exact integers for
//! counters; durations with an SI-prefixed unit. The CSVs keep full
//! precision; this is only for reading.

/// `v` with 3 significant digits: `0.0123`, `12.3`, `2`, `1.24e-7`,
/// `3.00e20`, `NaN`, `inf`.
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
    // Round to 3 significant digits first, so that the exponent is that of
    // the printed number (9.996 prints as 10, not 10.00).
    let rounded: f64 = format!("{v:.2e}").parse().unwrap_or(v);
    let e = rounded.abs().log10().floor() as i32;
    if (-2..=3).contains(&e) {
        trim(&format!("{rounded:.*}", (2 - e).max(0) as usize))
    } else {
        format!("{rounded:.2e}")
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
        assert_eq!(sig(0.012346), "0.0123");
        assert_eq!(sig(0.0012346), "1.23e-3");
        assert_eq!(sig(12.3456), "12.3");
        assert_eq!(sig(1234.56), "1230");
        assert_eq!(sig(12345.6), "1.23e4");
        assert_eq!(sig(1.23456e-7), "1.23e-7");
        assert_eq!(sig(2.0), "2");
        assert_eq!(sig(9.996), "10");
        assert_eq!(sig(-0.5), "-0.5");
        assert_eq!(sig(3e20), "3.00e20");
        assert_eq!(sig(f64::NAN), "NaN");
    }

    #[test]
    fn counters_durations_and_commits() {
        assert_eq!(count(1234567.0), "1234567");
        assert_eq!(count(2.5), "2.5");
        assert_eq!(seconds(0.0123456), "12.3 ms");
        assert_eq!(seconds(2.0e-5), "20 µs");
        assert_eq!(seconds(3.5), "3.5 s");
        assert_eq!(percent(0.5), "+50 %");
        assert_eq!(percent(-0.05), "-5 %");
        assert_eq!(short_commit("0123456789abcdef+dirty"), "0123456789+dirty");
        assert_eq!(short_commit("unknown"), "unknown");
    }
}
