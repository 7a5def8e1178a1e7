//! Tests of the history section: the regressions table is empty when
//! nothing regressed and names the kernel that slowed down; the detail is
//! folded and shows absolute values with their bands; a counter change is
//! listed as such.

use super::*;
use crate::harness::history::{CPU, ESTIMATED_CYCLES, INSTRUCTIONS, TIMING_METHOD};
use crate::harness::kernels::STUDY;

fn row(commit: &str, study: &str, case: &str, metric: &str, v: f64) -> HistoryRow {
    HistoryRow {
        commit: commit.into(),
        date: "2026-12-03T10:00:00Z".into(),
        host: "h".into(),
        suite: "all".into(),
        study: study.into(),
        case: case.into(),
        method: "m".into(),
        metric: metric.into(),
        value: v,
        spread: f64::NAN,
        timing: TIMING_METHOD.into(),
        profile: "release".into(),
        rustc: "rustc 1.95.0".into(),
        cpu: "Test CPU (2 logical cores)".into(),
    }
}

/// Three commits of kernel `k` (instructions `ir[c]`, steps `steps[c]`)
/// and of a study's CPU time (unchanged).
fn history(ir: [f64; 3], steps: [f64; 3]) -> History {
    let mut rows = Vec::new();
    for c in 0..3 {
        let commit = format!("commit{c}");
        rows.push(row(&commit, STUDY, "k", INSTRUCTIONS, ir[c]));
        rows.push(row(&commit, STUDY, "k", ESTIMATED_CYCLES, 2.0 * ir[c]));
        rows.push(row(&commit, STUDY, "k", "steps", steps[c]));
        rows.push(row(&commit, "sdof", "dt", CPU, 0.25));
    }
    History { rows }
}

fn run() -> RunResult {
    RunResult {
        suite: "all".into(),
        studies: Vec::new(),
        manifest: crate::harness::manifest::collect(
            "test",
            "experiments/all",
            serde_json::json!({}),
        ),
        record_history: false,
        costs: Default::default(),
    }
}

fn section_of(h: &History) -> Document {
    let mut doc = Document::default();
    let ctx = Context::new(h);
    let (flags, changes) = (
        history::compare_latest_in(&ctx),
        history::counter_changes_in(&ctx),
    );
    body(&mut doc, h, &ctx, &["sdof"], &run(), &flags, &changes);
    doc
}

fn regressions_of(doc: &Document) -> &Table {
    doc.blocks
        .iter()
        .find_map(|b| match b {
            Block::Table(t) if t.header.first().map(String::as_str) == Some("benchmark") => Some(t),
            _ => None,
        })
        .expect("the regressions table")
}

fn details(doc: &Document) -> Vec<String> {
    doc.blocks
        .iter()
        .filter_map(|b| match b {
            Block::Details { summary, blocks } => Some(format!("{summary:?} {blocks:?}")),
            _ => None,
        })
        .collect()
}

#[test]
fn unchanged_code_has_an_empty_regressions_table() {
    let doc = section_of(&history([1e6; 3], [10.0; 3]));
    let table = regressions_of(&doc);
    assert!(table.rows.is_empty(), "{:?}", table.rows);
    assert!(format!("{:?}", doc.blocks).contains("No regressions."));
    // Everything else is folded: rule, counter changes, detail, commits.
    assert_eq!(details(&doc).len(), 4, "{:?}", details(&doc));
}

#[test]
fn a_slower_kernel_is_a_row_naming_it_and_the_detail_has_absolute_values() {
    let doc = section_of(&history([1e6, 1e6, 1.05e6], [10.0; 3]));
    let table = regressions_of(&doc);
    assert_eq!(table.rows.len(), 2, "{:?}", table.rows);
    let first = &table.rows[0].cells;
    assert_eq!(first[0], vec![text("kernels / k / m")]);
    assert_eq!(first[1], vec![code("commit2")]);
    assert_eq!(first[4], vec![strong("+5 %")]);
    assert_eq!(first[5], vec![text("±1 %")]);
    assert_eq!(first[6], vec![text("commit1 (previous commit)")]);
    let detail = details(&doc).join(" ");
    // Absolute values and the band in the folded detail.
    assert!(detail.contains("Text(\"1050000\")"), "{detail}");
    assert!(detail.contains("Text(\"1000000\")"), "{detail}");
    assert!(detail.contains("±1 %"), "{detail}");
}

#[test]
fn a_change_with_its_counters_is_a_counter_change_not_a_regression() {
    let doc = section_of(&history([1e6, 1e6, 2e6], [10.0, 10.0, 20.0]));
    assert!(regressions_of(&doc).rows.is_empty());
    let detail = details(&doc).join(" ");
    assert!(detail.contains("Counter changes: 1 "), "{detail}");
    assert!(detail.contains("steps 10 → 20"), "{detail}");
    assert!(detail.contains("counters changed"), "{detail}");
}

/// The answer's blocks of a history of kernels `k0, k1, ..` whose
/// instructions go `ir[i][0] -> ir[i][1] -> ir[i][2]` and steps
/// `steps[i][..]`.
fn answer_of(ir: &[[f64; 3]], steps: &[[f64; 3]]) -> String {
    let mut rows = Vec::new();
    for c in 0..3 {
        let commit = format!("commit{c}");
        for (i, (ir, st)) in ir.iter().zip(steps).enumerate() {
            let case = format!("k{i}");
            rows.push(row(&commit, STUDY, &case, INSTRUCTIONS, ir[c]));
            rows.push(row(&commit, STUDY, &case, "steps", st[c]));
        }
    }
    let h = History { rows };
    let ctx = Context::new(&h);
    let (flags, changes) = (
        history::compare_latest_in(&ctx),
        history::counter_changes_in(&ctx),
    );
    format!("{:?}", answer::since_previous(&h, &flags, &changes))
}

/// The section opens with what moved since the previous commit: one
/// kernel slower, one faster, one that changed its method with a counter
/// that moved fourfold (named), the rest unchanged; unchanged code says
/// nothing moved.
#[test]
fn the_answer_names_what_got_faster_or_slower_and_the_large_counter_moves() {
    let text = answer_of(
        &[
            [1e6, 1e6, 1.05e6],
            [1e6, 1e6, 0.5e6],
            [1e6, 1e6, 3e6],
            [1e6, 1e6, 1e6],
        ],
        &[[10.0; 3], [10.0; 3], [10.0, 10.0, 40.0], [10.0; 3]],
    );
    assert!(
        text.contains("Since commit1 (the previous recorded commit): 1 faster, 1 slower"),
        "{text}"
    );
    assert!(text.contains("1 with their counters changed"), "{text}");
    assert!(text.contains("the other 1 unchanged"), "{text}");
    assert!(text.contains("1 counter(s) moved more than 2x"), "{text}");
    // The table, largest move first: k1 halved, then k0 +5 %; the method
    // change of k2 (tripled with its counters) leads.
    let order: Vec<usize> = ["kernels / k2", "kernels / k1", "kernels / k0"]
        .iter()
        .map(|b| text.find(b).unwrap_or_else(|| panic!("{b} in {text}")))
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}: {text}");
    assert!(
        text.contains("Strong(\"slower\")") && text.contains("Strong(\"faster\")"),
        "{text}"
    );
    assert!(
        text.contains("Strong(\"40\")"),
        "the counter's new value: {text}"
    );
    let quiet = answer_of(&[[1e6; 3]], &[[10.0; 3]]);
    assert!(quiet.contains("0 faster, 0 slower"), "{quiet}");
    assert!(!quiet.contains("moved more than"), "{quiet}");
}
