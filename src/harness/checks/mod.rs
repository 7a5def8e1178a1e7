//! Checks: a study's `[[study.check]]` entries, evaluated on its outputs.
//!
//! A check compares a **quantity** with a **reference** through a
//! **metric** and passes when the metric is within the **tolerance**:
//!
//! - quantity: a study scalar (e.g. `order`; per method and per group of
//!   cases when the harness fits it per method), a method scalar (e.g.
//!   `max_error_x`, one value per method run), a case scalar (e.g.
//!   `exact_x0_max`, one per case), or a column pattern of the methods'
//!   series (`x0`, `x*` = every `x<digits>` column; one comparison per
//!   method run);
//! - method: `method = "<label>"` or `method = ["<label>", ...]` restricts
//!   the check to those methods (default: every method of every case; a
//!   case scalar belongs to no method);
//! - reference: `reference = "<table>"` (a table of the case computed by an
//!   independent method, e.g. `exact` = `<case>.exact.csv`, compared column
//!   by column with the same names), `reference = "<method label>"`
//!   (another method's series of the same case; the row of that method
//!   itself is skipped), `reference = "<file>.csv"` (a reference file, path
//!   relative to the spec file), `reference = "<scalar>"` (another scalar:
//!   of the same method, else of the case, else of the study), or
//!   `value = <number>` (a number from a paper or formula written in the
//!   spec);
//! - metric: curves `max-abs` (max |y - r|), `max-rel` (max |y - r| / max |r|),
//!   `rms-rel` (||y - r||_2 / ||r||_2); scalars `abs` (|y - r|), `rel`
//!   (|y - r| / |r|); bounds `at-least` / `at-most` (the quantity itself
//!   against `tolerance`, no reference).
//!
//! A NaN value never passes; a failed method gives a failed row. Rows are
//! one per (case, method) for method quantities, one per case for case
//! scalars, one per (method, group) for study scalars, and one per method
//! for a scalar over the cases against a file (its first column names the
//! abscissa scalar, e.g. `omega`).

pub mod curves;
mod evaluate;
mod resolve;

pub use curves::{CurveDifference, curve_difference, curve_metric};
pub use evaluate::evaluate;
pub use resolve::*;
