//! Refusing a dense method that would not fit the machine, before it
//! allocates: the dense LCP step (`newmark-lcp`) keeps K_eff and its LU
//! factors (n x n each), D, D^T and G = K_eff^-1 D^T (n x m each, D twice:
//! once dense, once transposed while G is formed) and the LCP matrix A with
//! the solver's m x m workspace (Lemke's basis inverse): about
//! 8 (2 n^2 + 4 n m + 2 m^2) bytes. A run that needs more than the machine
//! has would abort the process (an allocation failure is not recoverable)
//! and write nothing; it is refused at spec load instead (exit 2).

/// Bytes the dense LCP step needs for n DOFs and m gap springs.
pub fn dense_lcp_bytes(n: usize, m: usize) -> f64 {
    let (n, m) = (n as f64, m as f64);
    8.0 * (2.0 * n * n + 4.0 * n * m + 2.0 * m * m)
}

/// Physical memory of the machine in bytes (`MemTotal` of /proc/meminfo),
/// or None where it cannot be read.
pub fn machine_bytes() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024.0)
}

/// Without /proc/meminfo, a dense method may use at most this much [bytes].
pub const FALLBACK_LIMIT: f64 = 16.0 * 1024.0 * 1024.0 * 1024.0;

/// Bytes written with a binary prefix, e.g. `640 GiB`.
pub fn human(bytes: f64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut v = bytes;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < units.len() {
        v /= 1024.0;
        u += 1;
    }
    format!("{v:.3} {}", units[u])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimate_and_units() {
        // n = m = 1e5: 8 * 8e10 bytes = 6.4e11 B.
        assert_eq!(dense_lcp_bytes(100_000, 100_000), 6.4e11);
        assert_eq!(human(1536.0), "1.500 KiB");
        assert!(human(6.4e11).ends_with("GiB"));
        assert!(machine_bytes().is_none_or(|b| b > 1e8));
    }
}
