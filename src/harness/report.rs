//! The report of a run: `report/index.html` (self-contained page, inline
//! CSS, no scripts), `report/README.md` (GitHub markdown, same content) and
//! `report/figures/*.svg`.
//!
//! Content: header (suite, overall status, run command), an overview of the
//! studies, one section per study (description, notes, figures with
//! captions, checks with failed rows red / **FAIL**, timings, solver errors),
//! the performance history (`harness::history`), and a provenance footer.
//! Both pages are rendered from one document tree (`doc`), so they cannot
//! drift apart. The figures directory is rebuilt and swapped in as a whole
//! (`harness::atomic::StagedDir`), so figures of studies no longer in the
//! run disappear; the pages are replaced by rename. The report describes the
//! studies of this run only (after `--only a`, study `a` alone).
//!
//! Figure files: `figures/<study>-<figure>.svg` (a numeric suffix makes a
//! clash unique) and `figures/history/summary.svg`.

mod doc;
mod findings;
mod html;
mod markdown;
mod perf;
mod saved_robustness;
mod sections;
mod study_parts;
mod tables;

use std::collections::BTreeSet;
use std::path::Path;

pub use doc::{Block, Document, Inline, RenderedFigure, Row, RowKind, Table};

use crate::error::OutputError;
use crate::harness::atomic::{self, StagedDir};
use crate::harness::figure::Figure;
use crate::harness::history::{Context, History};
use crate::harness::outcome::RunResult;
use crate::harness::plot;
use crate::harness::robustness::saved::SavedRobustness;

/// Renders `figure` into the staging figures directory as `relative`
/// (below `figures/`). Drawing errors are kept for the page; I/O errors
/// abort.
/// A study figure that shows nothing ([`Figure::shows_nothing`]) is
/// replaced by its sentence.
fn render(stage: &Path, relative: &str, figure: &Figure) -> Result<RenderedFigure, OutputError> {
    render_labelled(stage, relative, figure, &[], figure.shows_nothing())
}

/// [`render`] with labels on the x axis's integer ticks, replaced by
/// `replaced` when given (the history's figure is always drawn: flat lines
/// are its news).
fn render_labelled(
    stage: &Path,
    relative: &str,
    figure: &Figure,
    x_labels: &[String],
    replaced: Option<String>,
) -> Result<RenderedFigure, OutputError> {
    let path = stage.join(relative);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| OutputError::Io {
            path: dir.to_path_buf(),
            source: e,
        })?;
    }
    let problems = figure.problems();
    let error = if !problems.is_empty() {
        Some(problems.join("; "))
    } else if replaced.is_some() {
        None
    } else {
        match plot::render_svg_labelled(figure, x_labels) {
            Ok(svg) => {
                atomic::write_plain(&path, svg.as_bytes())?;
                None
            }
            Err(message) => Some(message),
        }
    };
    Ok(RenderedFigure {
        src: format!("figures/{relative}"),
        title: figure.title.clone(),
        caption: figure.caption.clone(),
        error,
        replaced,
        same_as: None,
    })
}

/// How many figures of the run carry each title: a title shared by two
/// figures (two studies of one kind) is shown with its study's name, so
/// that no two figures of the page read alike (issue 20, class 7).
fn title_counts(run: &RunResult) -> std::collections::HashMap<&str, usize> {
    let mut counts = std::collections::HashMap::new();
    for figure in run.studies.iter().flat_map(|s| &s.summary.figures) {
        *counts.entry(figure.title.as_str()).or_insert(0) += 1;
    }
    counts
}

/// The method labels of `study`'s cases and of their timed reference
/// solvers (the timings table's methods), each once, in order.
fn study_methods(study: &crate::harness::outcome::StudyResult) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for c in &study.cases {
        let labels = c.methods.iter().map(|m| m.label());
        for label in labels.chain(c.reference_timings.iter().map(|t| t.method.as_str())) {
            if !out.contains(&label) {
                out.push(label);
            }
        }
    }
    out
}

/// The caption of `figure`, ending with the methods it draws (a part of a
/// legend entry between `,`, `:`, `(`, `)` or `=` equal to one of
/// `methods`) that neither its title nor its caption names: "Methods
/// drawn: a, b." A caption written for the figure names them itself; this
/// keeps any other from leaving a drawn method unnamed (issue 20, class 1:
/// a caption says what the figure shows, from the data it draws).
pub fn caption_naming_methods(figure: &Figure, methods: &[&str]) -> String {
    let named = format!("{} {}", figure.title, figure.caption).to_lowercase();
    let mut unnamed: Vec<&str> = Vec::new();
    for series in &figure.series {
        for part in series.label.split([',', ':', '(', ')', '=']) {
            let part = part.trim();
            if let Some(&m) = methods.iter().find(|&&m| m == part)
                && !named.contains(&m.to_lowercase())
                && !unnamed.contains(&m)
            {
                unnamed.push(m);
            }
        }
    }
    if unnamed.is_empty() {
        figure.caption.clone()
    } else {
        let caption = figure.caption.trim_end();
        let stop = if caption.is_empty() || caption.ends_with('.') {
            ""
        } else {
            "."
        };
        format!("{caption}{stop} Methods drawn: {}.", unnamed.join(", "))
            .trim_start()
            .to_string()
    }
}

/// The first earlier figure equal to `figure` but for its name, among
/// `studies`' figures before (study `s`, figure `i`).
fn earlier_equal(
    studies: &[crate::harness::outcome::StudyResult],
    s: usize,
    i: usize,
    figure: &Figure,
) -> Option<(usize, usize)> {
    studies.iter().take(s + 1).enumerate().find_map(|(k, st)| {
        let before = if k == s { i } else { st.summary.figures.len() };
        st.summary.figures[..before]
            .iter()
            .position(|f| {
                Figure {
                    name: figure.name.clone(),
                    ..f.clone()
                } == *figure
            })
            .map(|j| (k, j))
    })
}

/// A file stem unique among `taken`.
fn unique_stem(taken: &mut BTreeSet<String>, stem: String) -> String {
    let mut candidate = stem.clone();
    let mut n = 2;
    while !taken.insert(candidate.clone()) {
        candidate = format!("{stem}-{n}");
        n += 1;
    }
    candidate
}

/// Builds the document; `figures[i]` are the rendered figures of study `i`,
/// `history_summary` the rendered summary figure of the history.
pub fn document(
    run: &RunResult,
    history: &History,
    figures: &[Vec<RenderedFigure>],
    history_summary: Option<&RenderedFigure>,
) -> Document {
    let ctx = Context::new(history);
    judged_document(run, history, &ctx, figures, history_summary, None)
}

/// The saved robustness runs with the figures drawn from their samples.
type SavedView<'a> = (&'a [SavedRobustness], &'a [RenderedFigure]);

/// [`document`] with the history's judgment `ctx` (of `history`) made
/// once for the whole report.
fn judged_document(
    run: &RunResult,
    history: &History,
    ctx: &Context,
    figures: &[Vec<RenderedFigure>],
    history_summary: Option<&RenderedFigure>,
    saved: Option<SavedView>,
) -> Document {
    let mut doc = Document {
        title: format!("contact-harness report: {}", run.suite),
        blocks: Vec::new(),
    };
    sections::header(&mut doc, run, saved.map_or(&[], |(s, _)| s));
    sections::overview(&mut doc, run);
    findings::regressions_summary(&mut doc, history, ctx);
    if let Some((saved, figures)) = saved {
        saved_robustness::section(&mut doc, run, saved, figures);
    }
    // Figures are numbered in order over the studies: a repeated figure
    // points to the number of its first drawing.
    let mut offsets = Vec::with_capacity(figures.len());
    let mut total = 0;
    for f in figures {
        offsets.push(total);
        total += f.len();
    }
    let figures: Vec<Vec<RenderedFigure>> = figures
        .iter()
        .map(|list| {
            list.iter()
                .map(|r| match r.same_as {
                    Some((k, j)) => RenderedFigure {
                        replaced: Some(format!(
                            "the same figure as Figure {} ({})",
                            offsets.get(k).copied().unwrap_or(0) + j + 1,
                            run.studies.get(k).map_or("", |s| s.name.as_str())
                        )),
                        ..r.clone()
                    },
                    None => r.clone(),
                })
                .collect()
        })
        .collect();
    let mut figure_number = 0;
    for (i, study) in run.studies.iter().enumerate() {
        sections::study(
            &mut doc,
            study,
            figures.get(i).map_or(&[], Vec::as_slice),
            &mut figure_number,
        );
    }
    perf::section(&mut doc, run, history, ctx, history_summary);
    sections::footer(&mut doc, &run.manifest);
    doc
}

/// Writes `report_dir/index.html`, `report_dir/README.md` and
/// `report_dir/figures/` for `run` with the performance `history`.
pub fn write_report(
    report_dir: &Path,
    run: &RunResult,
    history: &History,
) -> Result<(), OutputError> {
    write_report_with(report_dir, run, history, &[])
}

/// [`write_report`] with a section on the saved robustness runs
/// (`harness::robustness::saved`, none when `saved` is empty): their
/// figures drawn from their samples where the tables carry the spec's
/// assumptions.
pub fn write_report_with(
    report_dir: &Path,
    run: &RunResult,
    history: &History,
    saved: &[SavedRobustness],
) -> Result<(), OutputError> {
    std::fs::create_dir_all(report_dir).map_err(|e| OutputError::Io {
        path: report_dir.to_path_buf(),
        source: e,
    })?;
    let staged = StagedDir::new(&report_dir.join("figures"))?;
    let mut taken = BTreeSet::new();
    let mut figures = Vec::with_capacity(run.studies.len());
    let titles = title_counts(run);
    for (s, study) in run.studies.iter().enumerate() {
        let methods = study_methods(study);
        let mut rendered = Vec::with_capacity(study.summary.figures.len());
        for (i, figure) in study.summary.figures.iter().enumerate() {
            let stem = unique_stem(&mut taken, format!("{}-{}", study.name, figure.name));
            let mut shown = figure.clone();
            shown.caption = caption_naming_methods(figure, &methods);
            if titles.get(figure.title.as_str()).is_some_and(|&n| n > 1) {
                shown.title = format!("{} ({})", figure.title, study.name);
            }
            if let Some(same) = earlier_equal(&run.studies, s, i, figure) {
                rendered.push(RenderedFigure {
                    src: format!("figures/{stem}.svg"),
                    title: shown.title,
                    caption: shown.caption,
                    error: None,
                    replaced: None,
                    same_as: Some(same),
                });
                continue;
            }
            rendered.push(render(staged.path(), &format!("{stem}.svg"), &shown)?);
        }
        figures.push(rendered);
    }
    let ctx = Context::new(history);
    let summary = match perf::history_summary(run, history, &ctx) {
        Some((figure, labels)) => Some(render_labelled(
            staged.path(),
            "history/summary.svg",
            &figure,
            &labels,
            None,
        )?),
        None => None,
    };
    let mut saved_figures = Vec::new();
    for table in saved.iter().flat_map(|r| &r.tables) {
        for figure in saved_robustness::figures(table.0, table.1) {
            let stem = unique_stem(&mut taken, format!("saved-{}-{}", table.0, figure.name));
            saved_figures.push(render(staged.path(), &format!("{stem}.svg"), &figure)?);
        }
    }
    staged.commit()?;
    let doc = judged_document(
        run,
        history,
        &ctx,
        &figures,
        summary.as_ref(),
        (!saved.is_empty()).then_some((saved, saved_figures.as_slice())),
    );
    atomic::write_file(
        &report_dir.join("index.html"),
        html::render(&doc).as_bytes(),
    )?;
    atomic::write_file(
        &report_dir.join("README.md"),
        markdown::render(&doc).as_bytes(),
    )
}

/// The document rendered as HTML (for tests and tools).
pub fn render_html(doc: &Document) -> String {
    html::render(doc)
}

/// The document rendered as markdown (for tests and tools).
pub fn render_markdown(doc: &Document) -> String {
    markdown::render(doc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::figure::{Axis, Series, Style};

    fn figure(caption: &str, labels: &[&str]) -> Figure {
        Figure {
            name: "f".into(),
            title: "Tip displacement, case sharp".into(),
            x: Axis::linear("t [s]"),
            y: Axis::linear("u [m]"),
            series: labels
                .iter()
                .map(|l| Series::new(*l, &[0.0, 1.0], &[0.0, 1.0], Style::Line))
                .collect(),
            caption: caption.into(),
        }
    }

    #[test]
    fn a_caption_ends_with_the_methods_it_does_not_name() {
        let methods = ["moreau", "rk4", "dopri5"];
        let f = figure(
            "Regenerates the seed's Fig. 4b",
            &[
                "u, moreau",
                "u, rk4 (order 4)",
                "reference = dopri5",
                "exact",
            ],
        );
        assert_eq!(
            caption_naming_methods(&f, &methods),
            "Regenerates the seed's Fig. 4b. Methods drawn: moreau, rk4, dopri5."
        );
        let named = figure("By Moreau and RK4.", &["u, moreau", "u, rk4"]);
        assert_eq!(
            caption_naming_methods(&named, &methods),
            "By Moreau and RK4."
        );
        let empty = figure("", &["moreau"]);
        assert_eq!(
            caption_naming_methods(&empty, &methods),
            "Methods drawn: moreau."
        );
    }
}
