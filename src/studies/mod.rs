//! Study kinds: one module per kind, each turning its spec into a
//! [`Study`](crate::harness::study::Study).

/// The registered study kinds.
pub const KINDS: [&str; 1] = ["gap-system"];

/// The kinds as a list for error messages.
pub fn kind_names() -> String {
    KINDS.map(|k| format!("\"{k}\"")).join(", ")
}
