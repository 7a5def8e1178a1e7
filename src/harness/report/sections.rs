//! The run's sections of the report: header with the overall status, the
//! overview of studies, one section per study (description, notes, figures,
//! checks, timings, solver errors) and the provenance footer.

use super::doc::{Block, Document, Inline, RenderedFigure, RowKind, Table, code, strong, text};
use crate::harness::format::short_commit;
use crate::harness::outcome::{Manifest, RunResult, StudyResult};
use crate::harness::robustness::saved::SavedRobustness;
use crate::harness::rows::{CheckRow, ClaimRow, Verdict, sentences, study_verdict};

use super::findings::{findings, headline};
use super::study_parts::{checks_section, figures_section, scalars_table, timings_section};

/// Findings shown open in a study's section; the rest are folded.
pub const SHOWN_FINDINGS: usize = 3;

/// Title, overall status, the seed sentences' verdicts, every claim not
/// reproduced with its one-line cause (all on the first screen), and the
/// command of the run.
pub fn header(doc: &mut Document, run: &RunResult, saved: &[SavedRobustness]) {
    doc.heading(1, format!("contact-harness report: {}", run.suite), None);
    let rows: Vec<&CheckRow> = run.studies.iter().flat_map(|s| &s.checks).collect();
    let checks: std::collections::BTreeSet<(&str, &str)> = rows
        .iter()
        .map(|c| (c.study.as_str(), c.check.as_str()))
        .collect();
    let failed_rows = rows.iter().filter(|c| !c.passed).count();
    let failed_checks: std::collections::BTreeSet<(&str, &str)> = rows
        .iter()
        .filter(|c| !c.passed)
        .map(|c| (c.study.as_str(), c.check.as_str()))
        .collect();
    let failed_cases: usize = run.studies.iter().map(|s| s.failures().len()).sum();
    let status = if failed_rows == 0 {
        format!("all {} checks ({} rows) passed", checks.len(), rows.len())
    } else {
        format!(
            "{} of {} checks FAILED ({failed_rows} of {} rows)",
            failed_checks.len(),
            checks.len(),
            rows.len()
        )
    };
    let claims: Vec<&ClaimRow> = run.studies.iter().flat_map(|s| &s.claims).collect();
    let unexpected = claims.iter().filter(|c| !c.as_expected()).count();
    let mut line = vec![
        text("Suite "),
        code(&run.suite),
        text(" · status: "),
        strong(status),
    ];
    if !claims.is_empty() {
        let sentences = sentences(claims.iter().copied());
        let reproduced = sentences.iter().filter(|s| s.reproduced()).count();
        let partly = sentences
            .iter()
            .filter(|s| !s.reproduced() && s.rows.iter().any(|r| r.verdict == Verdict::Reproduced))
            .count();
        let measures_reproduced = claims
            .iter()
            .filter(|c| c.verdict == Verdict::Reproduced)
            .count();
        line.push(text(format!(
            " · seed sentences: {reproduced} of {} reproduced{} ({measures_reproduced} of {} measures)",
            sentences.len(),
            if partly > 0 {
                format!(", {partly} partly")
            } else {
                String::new()
            },
            claims.len()
        )));
        if unexpected > 0 {
            line.push(text(" · "));
            line.push(strong(format!("{unexpected} claim verdict(s) UNEXPECTED")));
        }
    }
    if failed_cases > 0 {
        line.push(text(" · "));
        line.push(strong(format!(
            "{failed_cases} method run(s) or reference(s) failed"
        )));
    }
    doc.paragraph(line);
    not_reproduced(doc, &claims, saved);
    if !saved.is_empty() {
        let claims: usize = saved.iter().map(|s| s.claims.len()).sum();
        let commits: Vec<String> = saved.iter().map(|s| short_commit(&s.commit)).collect();
        doc.paragraph(vec![
            text(format!(
                "Robustness over the unknowns: {claims} claims judged on samples of their study's assumption box by the saved run(s) at {} (",
                commits.join(", ")
            )),
            Inline::Link {
                text: "the section".into(),
                href: format!("#{}", super::saved_robustness::ANCHOR),
            },
            text(")."),
        ]);
    }
    doc.paragraph(vec![text("Run command: "), code(&run.manifest.command)]);
}

/// Every claim not reproduced, one line each with its cause and where in
/// its assumption box it holds (this run's, else the `saved` run's),
/// linked to its study's claims (the report's first screen).
fn not_reproduced(doc: &mut Document, claims: &[&ClaimRow], saved: &[SavedRobustness]) {
    let missing: Vec<&&ClaimRow> = claims
        .iter()
        .filter(|c| c.verdict == Verdict::NotReproduced)
        .collect();
    if missing.is_empty() {
        return;
    }
    doc.paragraph(vec![strong(format!(
        "Not reproduced ({} of {} measures):",
        missing.len(),
        claims.len()
    ))]);
    let items = missing
        .iter()
        .map(|c| {
            let mut line = vec![
                Inline::Link {
                    text: c.claim.clone(),
                    href: format!("#{}-claims", c.study),
                },
                text(format!(" ({}, {}): ", c.study, c.formulation.name())),
                text(&c.cause),
            ];
            if !c.robustness.is_empty() {
                line.push(text(format!(
                    "; over the assumption box it {}",
                    c.robustness
                )));
            } else if let Some((h, _, _)) = saved
                .iter()
                .find_map(|s| s.claim(&c.study, &c.claim))
                .and_then(|c| c.holds)
            {
                line.push(text("; "));
                line.push(Inline::Link {
                    text: format!("holds in {:.0} % of the assumption box", 100.0 * h),
                    href: format!("#{}", super::saved_robustness::ANCHOR),
                });
            }
            if !c.as_expected() {
                line.push(strong(" (unexpected)"));
            }
            line
        })
        .collect();
    doc.blocks.push(Block::List(items));
}

/// The summary at the top: one row per study with its verdict (checks
/// passed, failed runs, claims) and its headline result; what it
/// reproduces opens its section.
pub fn overview(doc: &mut Document, run: &RunResult) {
    let mut table = Table::new(&[
        ("study", false),
        ("kind", false),
        ("cases", true),
        ("failed runs", true),
        ("checks passed", true),
        ("verdict on the paper", false),
        ("headline (from the results)", false),
    ]);
    for s in &run.studies {
        let failed_cases = s.failures().len();
        let passed = s.checks.iter().filter(|c| c.passed).count();
        let expected = s.claims.iter().all(ClaimRow::as_expected);
        let ok = failed_cases == 0 && passed == s.checks.len() && expected;
        let checks = format!("{passed} / {}", s.checks.len());
        let verdict = study_verdict(&s.claims);
        table.push(
            if ok { RowKind::Normal } else { RowKind::Fail },
            vec![
                vec![Inline::Link {
                    text: s.name.clone(),
                    href: format!("#{}", s.name),
                }],
                vec![text(&s.kind)],
                vec![text(s.cases.len().to_string())],
                vec![if failed_cases > 0 {
                    strong(failed_cases.to_string())
                } else {
                    text("0")
                }],
                vec![if ok { text(checks) } else { strong(checks) }],
                vec![if expected {
                    text(verdict)
                } else {
                    strong(format!("{verdict}, unexpected"))
                }],
                vec![text(headline(s))],
            ],
        );
    }
    doc.blocks.push(Block::Table(table));
}

/// The section of one study; `figure_number` counts the figures of the
/// whole page (each is numbered and anchored `fig-<n>`).
pub fn study(
    doc: &mut Document,
    study: &StudyResult,
    figures: &[RenderedFigure],
    figure_number: &mut usize,
) {
    doc.heading(2, &study.name, Some(&study.name));
    let failed = study.failures();
    doc.paragraph(vec![
        text("Kind "),
        code(&study.kind),
        text(" · spec "),
        code(study.file.display().to_string()),
        text(format!(" · {} case(s)", study.cases.len())),
        text(match &study.baseline {
            Some(b) => format!(" · baseline method {b}"),
            None => String::new(),
        }),
    ]);
    if !study.reproduces.trim().is_empty() {
        doc.paragraph(vec![strong("Reproduces: "), text(study.reproduces.trim())]);
    }
    if !study.description.trim().is_empty() {
        doc.paragraph(vec![text(study.description.trim())]);
    }
    doc.paragraph(vec![strong("Findings (from this run's results):")]);
    let mut all_findings: Vec<Vec<Inline>> =
        findings(study).into_iter().map(|f| vec![text(f)]).collect();
    let more = all_findings.split_off(all_findings.len().min(SHOWN_FINDINGS));
    doc.blocks.push(Block::List(all_findings));
    if !more.is_empty() {
        doc.blocks.push(Block::Details {
            summary: vec![text(format!("{} more finding(s)", more.len()))],
            blocks: vec![Block::List(more)],
        });
    }
    if !study.parameters.is_empty() {
        let mut table = Table::new(&[("key", false), ("value", false)]);
        for (k, v) in &study.parameters {
            table.push(RowKind::Normal, vec![vec![code(k)], vec![text(v)]]);
        }
        doc.blocks.push(Block::Details {
            summary: vec![text(format!(
                "Parameters ({} keys of the spec; swept keys with their values)",
                study.parameters.len()
            ))],
            blocks: vec![Block::Table(table)],
        });
    }
    if !failed.is_empty() {
        doc.paragraph(vec![strong(format!(
            "{} method run(s) or reference(s) failed (the other methods of their cases ran and were checked):",
            failed.len()
        ))]);
        doc.blocks.push(Block::List(
            failed
                .iter()
                .map(|(case, what, e)| {
                    vec![
                        code(*case),
                        text(" / "),
                        code(*what),
                        text(": "),
                        strong(e.as_str()),
                    ]
                })
                .collect(),
        ));
    }
    if !study.summary.notes.is_empty() {
        doc.blocks.push(Block::Details {
            summary: vec![text(format!(
                "Notes ({}: modelling choices and readings of the paper)",
                study.summary.notes.len()
            ))],
            blocks: vec![Block::List(
                study.summary.notes.iter().map(|n| vec![text(n)]).collect(),
            )],
        });
    }
    if !study.summary.scalars.is_empty() {
        doc.blocks.push(Block::Details {
            summary: vec![text(format!(
                "Study results ({} quantities with their meaning and unit)",
                study.summary.scalars.len()
            ))],
            blocks: vec![Block::Table(scalars_table(study))],
        });
    }
    figures_section(doc, study, figures, figure_number);
    if !study.claims.is_empty() {
        let anchor = format!("{}-claims", study.name);
        doc.heading(3, "Claims of the paper", Some(&anchor));
        doc.paragraph(vec![text(format!(
            "Verdict: {}. Each claim is the seed's own words judged by criteria over this run's results \
             (all must hold); a verdict unlike the expected one fails the run.",
            study_verdict(&study.claims)
        ))]);
        doc.blocks.push(Block::Table(claims_table(&study.claims)));
        doc.blocks.push(claims_reasons(&study.claims));
    }
    checks_section(doc, &study.checks);
    timings_section(doc, study);
}

/// The claims of a study: id and formulation, verdict (and the expected
/// one when it differs) with its cause, the seed's words (quoted once for
/// consecutive claims on the same sentence), the criteria ("needs ...;
/// measured ...: met"). The predictions' reasons are folded beneath
/// ([`claims_reasons`]).
pub fn claims_table(rows: &[ClaimRow]) -> Table {
    let mut table = Table::new(&[
        ("claim", false),
        ("judged on", false),
        ("verdict", false),
        ("the paper says", false),
        ("criteria: needed, measured", false),
    ]);
    for (i, r) in rows.iter().enumerate() {
        let same_sentence = i > 0 && rows[i - 1].seed == r.seed && rows[i - 1].words == r.words;
        let words = if same_sentence {
            text("the same sentence as the row above")
        } else {
            text(format!("{}: “{}”", r.seed, r.words))
        };
        let mut verdict = vec![if r.as_expected() {
            text(r.verdict.name())
        } else {
            strong(format!(
                "{} (expected {})",
                r.verdict.name(),
                r.expect.name()
            ))
        }];
        if !r.cause.is_empty() {
            verdict.push(text(format!(": {}", r.cause)));
        }
        if !r.robustness.is_empty() {
            verdict.push(text(format!(". Over the assumption box: {}", r.robustness)));
        }
        table.push(
            if r.as_expected() {
                RowKind::Normal
            } else {
                RowKind::Fail
            },
            vec![
                vec![code(&r.claim)],
                vec![text(r.formulation.name())],
                verdict,
                vec![words],
                vec![text(&r.criterion)],
            ],
        );
    }
    table
}

/// Each claim's prediction with its reason and what the runs showed, in a
/// fold beneath the claims table.
fn claims_reasons(rows: &[ClaimRow]) -> Block {
    Block::Details {
        summary: vec![text(format!(
            "Why each verdict was expected, and what the runs showed ({} claims)",
            rows.len()
        ))],
        blocks: vec![Block::List(
            rows.iter()
                .map(|r| {
                    vec![
                        code(&r.claim),
                        text(format!(" ({}): {}", r.formulation.name(), r.reason)),
                    ]
                })
                .collect(),
        )],
    }
}

/// Provenance: commit and dirty flag, compiler, build profile, timing
/// method, machine (CPU model, cores, memory, OS, kernel, host), date, spec,
/// the command that reproduces the run, and the peer tools behind each
/// reference directory (versions named in its SOURCE.md).
pub fn footer(doc: &mut Document, m: &Manifest) {
    doc.blocks.push(Block::Rule);
    doc.heading(2, "Provenance", Some("provenance"));
    let commit = if m.dirty {
        format!("{} (+dirty: uncommitted changes)", short_commit(&m.commit))
    } else {
        short_commit(&m.commit)
    };
    let dirty = if m.dirty {
        "yes: the work tree had uncommitted changes (outside results/ and report/)"
    } else {
        "no"
    };
    doc.blocks.push(Block::List(vec![
        vec![
            text("Commit: "),
            code(commit),
            text(" (full: "),
            code(&m.commit),
            text(")"),
        ],
        vec![text("Uncommitted changes: "), text(dirty)],
        vec![text("rustc: "), code(&m.rustc)],
        vec![
            text(format!("Build: {} (history profile ", m.build)),
            code(&m.profile),
            text(")"),
        ],
        vec![text("Timing method: "), code(&m.timing_method)],
        vec![text("CPU: "), text(&m.cpu)],
        vec![text("CPU model: "), text(&m.cpu_model)],
        vec![text("Logical cores: "), text(&m.logical_cores)],
        vec![text("Memory: "), text(&m.memory)],
        vec![text("OS: "), text(&m.os)],
        vec![text("Kernel: "), text(&m.kernel)],
        vec![text("Host: "), code(&m.host)],
        vec![text("Date: "), text(&m.date)],
        vec![text("Spec: "), code(&m.spec_file)],
        vec![text("Reproduce: "), code(&m.command)],
    ]));
    if m.reference_tools.is_empty() {
        return;
    }
    doc.paragraph(vec![text(
        "Peer tools behind the reference files, as named with their versions in each \
         reference-data/<dir>/SOURCE.md:",
    )]);
    doc.blocks.push(Block::List(
        m.reference_tools
            .iter()
            .map(|(dir, tools)| {
                let what = if tools.is_empty() {
                    "no tool version named".to_string()
                } else {
                    tools.join(", ")
                };
                vec![
                    code(format!("reference-data/{dir}/")),
                    text(format!(": {what}")),
                ]
            })
            .collect(),
    ));
}
