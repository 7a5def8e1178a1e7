//! Names the output directory keeps for itself: the spec refuses them as
//! study and case names, the results write them.

/// File stems of a study directory that no case output may use (a case of
/// that name is refused at spec load).
pub const RESERVED_STEMS: [&str; 5] = ["summary", "study", "work-precision", "speedup", "branch"];

/// Name of the top-level directory that holds the performance history; no
/// study may use it.
pub const HISTORY_DIR: &str = "history";
