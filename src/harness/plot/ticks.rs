//! Tick labels: powers of ten as 10^k with Unicode superscripts on log
//! axes, at most 6 significant digits without rounding noise on linear axes.

/// Tick label for a log axis. With `powers_only` (an axis of three or more
/// decades, ticked at powers of ten) every label is 10^k. Otherwise values
/// from 0.01 to 9999 print plainly (`0.02`, `1`, `500`) and others as
/// m×10^k (`2×10⁻⁶`; `10⁻⁶` for m = 1), so that one axis uses one style.
pub fn log_tick(v: f64, powers_only: bool) -> String {
    if !(v > 0.0 && v.is_finite()) {
        return String::new();
    }
    // Exponent and mantissa of the value rounded to 3 significant digits.
    let rounded: f64 = format!("{v:.2e}").parse().unwrap_or(v);
    let e = rounded.log10().floor() as i64;
    let mantissa = rounded / 10f64.powi(e as i32);
    let is_power = (mantissa - 1.0).abs() < 1e-9;
    if powers_only || (is_power && !(-2..=3).contains(&e)) {
        return format!("10{}", superscript(e));
    }
    if (-2..=3).contains(&e) {
        trim_number(&format!("{rounded:.*}", (2 - e).max(0) as usize))
    } else {
        format!(
            "{}×10{}",
            trim_number(&format!("{mantissa:.2}")),
            superscript(e)
        )
    }
}

pub(super) fn superscript(e: i64) -> String {
    e.to_string()
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            '0' => '⁰',
            '1' => '¹',
            '2' => '²',
            '3' => '³',
            '4' => '⁴',
            '5' => '⁵',
            '6' => '⁶',
            '7' => '⁷',
            '8' => '⁸',
            _ => '⁹',
        })
        .collect()
}

/// Removes trailing zeros of a decimal fraction (`1.500` -> `1.5`, `2.0` -> `2`).
pub(super) fn trim_number(s: &str) -> String {
    if let Some((mantissa, exp)) = s.split_once('e') {
        return format!("{}e{exp}", trim_number(mantissa));
    }
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

/// Tick label for a linear axis whose range spans `span`: values that are
/// zero up to rounding print as 0; at most 6 significant digits.
pub fn linear_tick(v: f64, span: f64) -> String {
    if !v.is_finite() {
        return String::new();
    }
    if v == 0.0 || v.abs() < 1e-9 * span.abs() {
        return "0".to_string();
    }
    let e = v.abs().log10().floor() as i64;
    if (-4..6).contains(&e) {
        let decimals = (5 - e).clamp(0, 12) as usize;
        trim_number(&format!("{v:.decimals$}"))
    } else {
        trim_number(&format!("{v:.5e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_ticks_print_powers_of_ten_with_superscripts() {
        assert_eq!(log_tick(1e-3, true), "10⁻³");
        assert_eq!(log_tick(1.0, true), "10⁰");
        assert_eq!(log_tick(1e12, true), "10¹²");
        assert_eq!(log_tick(1e-3, false), "10⁻³");
        assert_eq!(log_tick(2e-3, false), "2×10⁻³");
        assert_eq!(log_tick(3e-6, false), "3×10⁻⁶");
        assert_eq!(log_tick(0.02, false), "0.02");
        assert_eq!(log_tick(1.0, false), "1");
        assert_eq!(log_tick(500.0, false), "500");
        assert_eq!(log_tick(0.1 * 3.0, false), "0.3");
    }

    #[test]
    fn linear_ticks_hide_rounding_noise() {
        assert_eq!(linear_tick(0.30000000000000004, 1.0), "0.3");
        assert_eq!(linear_tick(1e-17, 1.0), "0");
        assert_eq!(linear_tick(2.5e-7, 1e-6), "2.5e-7");
        assert_eq!(linear_tick(100.0, 500.0), "100");
    }
}
