//! The parts of a study's section that fold (issue 20, class 9): the
//! headline figure with the others folded, the checks as a count with the
//! failing rows open, the timings, the study scalars.

use super::doc::{Block, Document, RenderedFigure, RowKind, Table, code, strong, text};
use super::tables::{
    FOLD_TIMINGS_ABOVE, SHOWN_TIMING_ROWS, checks_table, timings_compact, timings_summary,
    timings_table,
};
use crate::harness::format::sig;
use crate::harness::outcome::StudyResult;
use crate::harness::rows::CheckRow;

/// A study's timings: the columns a reader compares (a small table open
/// under a heading; a larger one folded, with the explanation, in one fold
/// named "Timings: ..."), every column in a nested fold.
pub(super) fn timings_section(doc: &mut Document, study: &StudyResult) {
    let Some(t) = timings_table(study) else {
        doc.heading(3, "Timings", None);
        doc.paragraph(vec![text("No timings (no case produced output).")]);
        return;
    };
    let explanation = Block::Paragraph(vec![text(
        "CPU time is that of the thread that ran the method (a method runs single-threaded): the robust \
         measure on a loaded machine, where wall time stretches; median of the timed runs, ± half their range. \
         CPU per step = CPU time / steps; speedup = the baseline method's CPU time in the same case over this \
         method's, shown only when both took the same steps (otherwise see the speed-up at equal accuracy). \
         Counters are exact counts; derived statistics (e.g. mean_active) come after them.",
    )]);
    let every = Block::Details {
        summary: vec![text(format!(
            "All timing columns: wall time, runs, CPU per step, every counter and statistic ({} columns, {} rows)",
            t.header.len(),
            t.rows.len()
        ))],
        blocks: vec![Block::Table(t)],
    };
    let shown = if study.cases.len() > FOLD_TIMINGS_ABOVE {
        Some(timings_summary(study))
    } else {
        timings_compact(study)
    };
    match shown {
        Some(table) if table.rows.len() <= SHOWN_TIMING_ROWS => {
            doc.heading(3, "Timings", None);
            doc.blocks.push(Block::Table(table));
            doc.blocks.push(Block::Details {
                summary: vec![text("How the times are measured, and every column")],
                blocks: vec![explanation, every],
            });
        }
        Some(table) => doc.blocks.push(Block::Details {
            summary: vec![text(format!(
                "Timings: CPU time, spread, steps and speed-up ({} rows), how they are measured, and every column",
                table.rows.len()
            ))],
            blocks: vec![explanation, Block::Table(table), every],
        }),
        None => doc.blocks.push(Block::Details {
            summary: vec![text("Timings: how they are measured, and every column")],
            blocks: vec![explanation, every],
        }),
    }
}

/// The study-level scalars: quantity, method, group, value, meaning.
pub(super) fn scalars_table(study: &StudyResult) -> Table {
    let mut table = Table::new(&[
        ("quantity", false),
        ("method", false),
        ("group", false),
        ("value", true),
        ("meaning and unit", false),
    ]);
    for s in &study.summary.scalars {
        table.push(
            RowKind::Normal,
            vec![
                vec![code(&s.scalar.name)],
                vec![text(s.method.as_deref().unwrap_or(""))],
                vec![text(&s.group)],
                vec![text(sig(s.scalar.value))],
                vec![text(&s.scalar.doc)],
            ],
        );
    }
    table
}

/// The figure a study's section shows open (issue 20, class 9: a page a
/// reviewer reads in one sitting): its work-precision figure when it has
/// one (the comparison the study makes), else its first; the others are
/// folded under it.
pub fn headline_figure(figures: &[crate::harness::figure::Figure]) -> Option<usize> {
    figures
        .iter()
        .position(|f| f.name == "work-precision")
        .or(if figures.is_empty() { None } else { Some(0) })
}

/// The blocks of one numbered figure: the image with its caption, the
/// sentence that replaces a figure showing nothing, or the drawing error.
fn figure_blocks(
    figure: &crate::harness::figure::Figure,
    rendered: &RenderedFigure,
    n: usize,
) -> Vec<Block> {
    // The page shows the rendered title and caption (a shared title with
    // its study's name, a caption ending with the methods it draws).
    let title = strong(format!("Figure {n}. {}.", rendered.title));
    if let Some(sentence) = &rendered.replaced {
        return vec![
            Block::Anchor(format!("fig-{n}")),
            Block::Paragraph(vec![title, text(format!(" Not drawn: {sentence}."))]),
        ];
    }
    match &rendered.error {
        None => vec![
            Block::Anchor(format!("fig-{n}")),
            Block::Figure {
                src: rendered.src.clone(),
                alt: rendered.title.clone(),
                caption: vec![title, text(format!(" {}", rendered.caption))],
            },
        ],
        Some(e) => vec![Block::Paragraph(vec![strong(format!(
            "Figure `{}` could not be drawn: {e}",
            figure.name
        ))])],
    }
}

/// A study's figures: the headline one ([`headline_figure`]) open, the
/// others (per case and quantity) in one fold; numbered in list order.
pub(super) fn figures_section(
    doc: &mut Document,
    study: &StudyResult,
    figures: &[RenderedFigure],
    figure_number: &mut usize,
) {
    let list = &study.summary.figures;
    let Some(shown) = headline_figure(list) else {
        return;
    };
    doc.heading(3, "Figures", None);
    let mut folded = Vec::new();
    let mut numbers = Vec::new();
    for (i, (figure, rendered)) in list.iter().zip(figures).enumerate() {
        *figure_number += 1;
        let blocks = figure_blocks(figure, rendered, *figure_number);
        if i == shown {
            doc.blocks.extend(blocks);
        } else {
            numbers.push(*figure_number);
            folded.extend(blocks);
        }
    }
    if let (Some(first), Some(last)) = (numbers.first(), numbers.last()) {
        let which = if first == last {
            format!("Figure {first}")
        } else {
            format!("Figures {first} to {last}")
        };
        doc.blocks.push(Block::Details {
            summary: vec![text(format!(
                "{} more figure(s) of this study ({which}: per case and quantity)",
                numbers.len()
            ))],
            blocks: folded,
        });
    }
}

/// A study's checks: the failing rows open under a heading, every row
/// (value, tolerance, reference, why) in a fold; when all pass, only the
/// fold, its summary the count.
pub(super) fn checks_section(doc: &mut Document, checks: &[CheckRow]) {
    if checks.is_empty() {
        doc.heading(3, "Checks", None);
        doc.paragraph(vec![text("This study has no checks.")]);
        return;
    }
    let failed: Vec<CheckRow> = checks.iter().filter(|c| !c.passed).cloned().collect();
    let mut names: Vec<&str> = checks.iter().map(|c| c.check.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    if failed.is_empty() {
        // Nothing to read above the fold: the count is its summary.
        doc.blocks.push(Block::Details {
            summary: vec![text(format!(
                "Checks: all {} check rows pass ({} check{}); every row: case, method, value against tolerance, and why",
                checks.len(),
                names.len(),
                if names.len() == 1 { "" } else { "s" }
            ))],
            blocks: vec![Block::Table(checks_table(checks))],
        });
        return;
    }
    doc.heading(3, "Checks", None);
    doc.paragraph(vec![strong(format!(
        "{} of {} check rows FAIL:",
        failed.len(),
        checks.len()
    ))]);
    doc.blocks.push(Block::Table(checks_table(&failed)));
    doc.blocks.push(Block::Details {
        summary: vec![text(format!(
            "Every check: case, method, value against tolerance, and why ({} rows)",
            checks.len()
        ))],
        blocks: vec![Block::Table(checks_table(checks))],
    });
}
