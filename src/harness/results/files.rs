//! The files of one case: its series, its tables and their stems.

use crate::harness::study::CaseOutput;
use crate::harness::table::Table;

/// One file of a case: its stem, its table and what it holds.
pub struct CaseFile<'a> {
    /// File stem (`<case>`, `<case>.<label>`, `<case>.<what>`, ...).
    pub stem: String,
    /// The data.
    pub table: &'a Table,
    /// What it holds, for the README.
    pub doc: String,
}

/// The files of a case: the first method's series as `<case>`, every
/// further method's as `<case>.<label>`, each method table as
/// `<case>.<label>.<what>`, each case table as `<case>.<what>`. Failed
/// methods have no files.
pub fn case_files(case: &CaseOutput) -> Vec<CaseFile<'_>> {
    let mut files = Vec::new();
    for (i, m) in case.methods.iter().enumerate() {
        let Some(output) = m.output() else { continue };
        let stem = if i == 0 {
            case.name.clone()
        } else {
            format!("{}.{}", case.name, m.label())
        };
        files.push(CaseFile {
            stem,
            table: &output.series,
            doc: format!("series of method `{}` ({})", m.label(), m.plan.method),
        });
        for extra in &output.tables {
            files.push(CaseFile {
                stem: format!("{}.{}.{}", case.name, m.label(), extra.what),
                table: &extra.table,
                doc: format!("{} (method `{}`)", extra.doc, m.label()),
            });
        }
    }
    for extra in &case.tables {
        files.push(CaseFile {
            stem: format!("{}.{}", case.name, extra.what),
            table: &extra.table,
            doc: extra.doc.clone(),
        });
    }
    files
}
