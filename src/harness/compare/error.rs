//! Why no comparison was made.

/// Why no comparison was made (exit code 2).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CompareError {
    /// A bad revision, option or environment; a build or run that failed.
    #[error("{0}")]
    Input(String),
}
