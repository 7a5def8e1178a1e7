//! Reader for the Siconos LCP text format (Siconos numerics,
//! `linearComplementarity_newFromFile` and `NM_dense_from_file`):
//! whitespace-separated tokens
//!
//!   n  storage  size0 size1  size0 size1  M (n*n, column-major)  q (n)  trailer
//!
//! storage 0 is dense, the only one supported. The printed "rows" of M are
//! its columns. Whatever follows the n entries of q (comments, a repeated q)
//! is ignored.

use crate::error::InputError;
use crate::lcp::Lcp;
use nalgebra::{DMatrix, DVector};
use std::path::Path;

/// What is wrong with a Siconos LCP text.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LcpFormatError {
    /// The text ends inside the header.
    #[error("missing {what} (the file ends after {tokens} tokens)")]
    MissingHeader {
        /// The header field.
        what: &'static str,
        /// Tokens read.
        tokens: usize,
    },
    /// A header field is not a nonnegative integer.
    #[error("{what} must be a nonnegative integer, found `{token}`")]
    BadInteger {
        /// The header field.
        what: &'static str,
        /// The token.
        token: String,
    },
    /// n = 0.
    #[error("n must be at least 1, found 0")]
    Empty,
    /// A storage type other than 0.
    #[error("storage type {storage} ({name}) is not supported; only 0 (dense)")]
    UnsupportedStorage {
        /// The storage type.
        storage: u64,
        /// Its meaning in Siconos.
        name: &'static str,
    },
    /// A size in the header differs from n.
    #[error("{what} = {found} differs from n = {n}")]
    SizeMismatch {
        /// The header field.
        what: &'static str,
        /// Its value.
        found: u64,
        /// n.
        n: u64,
    },
    /// Fewer than n*n numbers follow the header.
    #[error("expected n*n = {expected} matrix entries, found {found}{}", next.as_ref().map(|t| format!(" (then `{t}`)")).unwrap_or_default())]
    TooFewMatrixEntries {
        /// n*n.
        expected: usize,
        /// Numbers found.
        found: usize,
        /// The token that stopped the matrix, if any.
        next: Option<String>,
    },
    /// Fewer than n numbers follow the matrix.
    #[error("expected n = {expected} entries of q, found {found}{}", next.as_ref().map(|t| format!(" (then `{t}`)")).unwrap_or_default())]
    TooFewQEntries {
        /// n.
        expected: usize,
        /// Numbers found.
        found: usize,
        /// The token that stopped q, if any.
        next: Option<String>,
    },
    /// NaN or infinity in M or q.
    #[error("{what} is not finite: `{token}`")]
    NonFinite {
        /// Which entry, e.g. "M[2][0]" or "q[1]".
        what: String,
        /// The token.
        token: String,
    },
    /// n*n does not fit in memory arithmetic.
    #[error("n = {0} is too large")]
    TooLarge(u64),
}

/// Parses a Siconos LCP text (see the module doc).
pub fn read_siconos(text: &str) -> Result<Lcp, LcpFormatError> {
    let mut tokens = text.split_whitespace();
    let mut read = 0usize;
    let mut header = |what: &'static str| -> Result<u64, LcpFormatError> {
        let token = tokens
            .next()
            .ok_or(LcpFormatError::MissingHeader { what, tokens: read })?;
        read += 1;
        token
            .parse::<u64>()
            .map_err(|_| LcpFormatError::BadInteger {
                what,
                token: token.to_string(),
            })
    };
    let n = header("n")?;
    let storage = header("storage type")?;
    if storage != 0 {
        let name = match storage {
            1 => "sparse block",
            2 => "sparse",
            _ => "unknown",
        };
        return Err(LcpFormatError::UnsupportedStorage { storage, name });
    }
    for what in ["size0", "size1", "size0 (second)", "size1 (second)"] {
        let found = header(what)?;
        if found != n {
            return Err(LcpFormatError::SizeMismatch { what, found, n });
        }
    }
    if n == 0 {
        return Err(LcpFormatError::Empty);
    }
    let nn = usize::try_from(n)
        .ok()
        .and_then(|n| n.checked_mul(n))
        .ok_or(LcpFormatError::TooLarge(n))?;
    let n = n as usize;
    // Collect the numbers first: never allocate n*n before they exist.
    let mut values: Vec<(f64, &str)> = Vec::new();
    let mut stop: Option<String> = None;
    for token in tokens.by_ref() {
        if values.len() == nn + n {
            break;
        }
        match token.parse::<f64>() {
            Ok(v) => values.push((v, token)),
            Err(_) => {
                stop = Some(token.to_string());
                break;
            }
        }
    }
    if values.len() < nn {
        return Err(LcpFormatError::TooFewMatrixEntries {
            expected: nn,
            found: values.len(),
            next: stop,
        });
    }
    if values.len() < nn + n {
        return Err(LcpFormatError::TooFewQEntries {
            expected: n,
            found: values.len() - nn,
            next: stop,
        });
    }
    for (k, &(v, token)) in values.iter().enumerate() {
        if !v.is_finite() {
            let what = if k < nn {
                format!("M[{}][{}]", k % n, k / n)
            } else {
                format!("q[{}]", k - nn)
            };
            return Err(LcpFormatError::NonFinite {
                what,
                token: token.to_string(),
            });
        }
    }
    let m = DMatrix::from_iterator(n, n, values[..nn].iter().map(|v| v.0));
    let q = DVector::from_iterator(n, values[nn..].iter().map(|v| v.0));
    // M is n x n and q has length n by construction.
    Ok(Lcp { m, q })
}

/// Reads a Siconos LCP file; errors name the file and what is wrong.
pub fn read_siconos_file(path: &Path) -> Result<Lcp, InputError> {
    let text = std::fs::read_to_string(path).map_err(|source| InputError::Read {
        file: path.to_path_buf(),
        source,
    })?;
    read_siconos(&text).map_err(|e| InputError::Syntax {
        file: path.to_path_buf(),
        message: format!("Siconos LCP format: {e}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_column_major_and_ignores_the_trailer() {
        let text = "2\n0\n2\n2\n2\t2\n1 3\n2 4\n-1 -2\n\nRemark: q again -1 -2\n";
        let lcp = read_siconos(text).unwrap();
        assert_eq!(lcp.m, DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 3.0, 4.0]));
        assert_eq!(lcp.q.as_slice(), &[-1.0, -2.0]);
    }

    #[test]
    fn reports_missing_matrix_entries() {
        let text = "3 0 3 3 3 3  1 2 3 4 5 6 7";
        assert_eq!(
            read_siconos(text).unwrap_err().to_string(),
            "expected n*n = 9 matrix entries, found 7"
        );
        let text = "3 0 3 3 3 3  1 2 3 4 5 6 7 Remark";
        assert_eq!(
            read_siconos(text).unwrap_err().to_string(),
            "expected n*n = 9 matrix entries, found 7 (then `Remark`)"
        );
    }

    #[test]
    fn reports_missing_q_entries() {
        let text = "1 0 1 1 1 1  2";
        assert_eq!(
            read_siconos(text).unwrap_err().to_string(),
            "expected n = 1 entries of q, found 0"
        );
    }

    #[test]
    fn rejects_sparse_storage() {
        let text = "2 1 2 2 2 2";
        assert_eq!(
            read_siconos(text).unwrap_err().to_string(),
            "storage type 1 (sparse block) is not supported; only 0 (dense)"
        );
    }

    #[test]
    fn rejects_non_finite_numbers_and_bad_headers() {
        let text = "2 0 2 2 2 2  1 0 inf 1  -1 -1";
        assert_eq!(
            read_siconos(text).unwrap_err().to_string(),
            "M[0][1] is not finite: `inf`"
        );
        let text = "2 0 2 2 2 2  1 0 0 1  -1 NaN";
        assert_eq!(
            read_siconos(text).unwrap_err().to_string(),
            "q[1] is not finite: `NaN`"
        );
        assert!(matches!(
            read_siconos("two 0"),
            Err(LcpFormatError::BadInteger { what: "n", .. })
        ));
        assert!(matches!(
            read_siconos("2 0 2 3 2 2"),
            Err(LcpFormatError::SizeMismatch { found: 3, .. })
        ));
        assert!(matches!(
            read_siconos("2 0"),
            Err(LcpFormatError::MissingHeader { what: "size0", .. })
        ));
        assert_eq!(read_siconos("0 0 0 0 0 0"), Err(LcpFormatError::Empty));
    }

    #[test]
    fn file_errors_name_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.dat");
        std::fs::write(&path, "2 0 2 2 2 2 1 2 3").unwrap();
        let message = read_siconos_file(&path).unwrap_err().to_string();
        assert!(message.contains("bad.dat"), "{message}");
        assert!(
            message.contains("expected n*n = 4 matrix entries, found 3"),
            "{message}"
        );
        let missing = dir.path().join("missing.dat");
        assert!(matches!(
            read_siconos_file(&missing),
            Err(InputError::Read { .. })
        ));
    }
}
