//! The answer the performance section opens with: what got faster or
//! slower since the previous commit, in one sentence and one table, and
//! the counters that moved a method's work more than [`COUNTER_FACTOR`]
//! times, by name.
//!
//! A benchmark's time or cost at the latest commit counts as `faster` or
//! `slower` when the history's judge puts it beyond its band (the rule of
//! the section: instructions beyond the cost band, calibrated CPU times
//! beyond the measured noise); `slower` includes a CPU time not yet
//! confirmed by the next commit, marked so. A time or cost that moved with
//! its counters is a method change, counted apart. Those the judge could
//! not judge (a shared or unsteady run, a new baseline, a new benchmark)
//! are counted as such; the rest are unchanged.

use super::super::doc::{Block, Inline, RowKind, Table, code, strong, text};
use super::text::{benchmark, value_text};
use crate::harness::format::{count, percent, short_commit};
use crate::harness::history::{self, CounterChange, History, HistoryFlag, MetricKind, Verdict};

/// A counter whose value moved by more than this factor (up or down) at
/// the latest commit is named in the answer.
pub const COUNTER_FACTOR: f64 = 2.0;

/// Rows of the answer's table in view; the rest are folded.
const SHOWN_ROWS: usize = 8;

/// What a judged time or cost did at the latest commit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Move {
    Faster,
    Slower,
    SlowerOnce,
    MethodChanged,
    Unchanged,
    NotJudged,
}

fn move_of(v: Verdict) -> Option<Move> {
    Some(match v {
        Verdict::Faster => Move::Faster,
        Verdict::Slower => Move::Slower,
        Verdict::Unconfirmed => Move::SlowerOnce,
        Verdict::WithCounters => Move::MethodChanged,
        Verdict::WithinNoise | Verdict::Unchanged => Move::Unchanged,
        Verdict::Shared | Verdict::Unsteady | Verdict::New | Verdict::NewBaseline => {
            Move::NotJudged
        }
        Verdict::Informational | Verdict::Changed => return None,
    })
}

/// The counters of the latest commit that moved by more than
/// [`COUNTER_FACTOR`] (a counter from or to zero included), largest
/// factor first.
pub fn large_counter_moves(changes: &[CounterChange], latest: usize) -> Vec<CounterChange> {
    let factor = |c: &CounterChange| {
        let (a, b) = (c.previous.abs(), c.value.abs());
        if a == 0.0 || b == 0.0 {
            f64::INFINITY
        } else {
            (b / a).max(a / b)
        }
    };
    let mut moves: Vec<CounterChange> = changes
        .iter()
        .filter(|c| c.commit_index == latest && factor(c) > COUNTER_FACTOR)
        .cloned()
        .collect();
    moves.sort_by(|a, b| factor(b).total_cmp(&factor(a)));
    moves
}

/// The answer's blocks: the sentence, the table of what moved (folded
/// beyond its first rows) and the large counter moves. `flags` are the
/// judge's verdicts at the latest commit (`history::compare_latest_in`),
/// `changes` the counter changes (`history::counter_changes_in`), both
/// computed once for the whole section.
pub fn since_previous(
    history: &History,
    flags: &[HistoryFlag],
    changes: &[CounterChange],
) -> Vec<Block> {
    let commits = history.commits();
    let Some(latest) = commits.len().checked_sub(1) else {
        return Vec::new();
    };
    if latest == 0 {
        return vec![Block::Paragraph(vec![text(format!(
            "The history holds one commit ({}): nothing to compare yet.",
            short_commit(commits[0])
        ))])];
    }
    let (last, previous) = (commits[latest], commits[latest - 1]);
    let mut judged: Vec<(Move, HistoryFlag)> = flags
        .iter()
        .filter(|f| f.latest_commit == last)
        .filter(|f| {
            matches!(
                history::metric_kind(&f.metric),
                MetricKind::Time | MetricKind::Cost
            )
        })
        .filter_map(|f| move_of(f.verdict).map(|m| (m, f.clone())))
        .collect();
    let tally = |m: &[Move]| judged.iter().filter(|(x, _)| m.contains(x)).count();
    let (faster, slower, once, method, unchanged, not_judged) = (
        tally(&[Move::Faster]),
        tally(&[Move::Slower]),
        tally(&[Move::SlowerOnce]),
        tally(&[Move::MethodChanged]),
        tally(&[Move::Unchanged]),
        tally(&[Move::NotJudged]),
    );
    let sentence = vec![
        strong(format!(
            "Since {} (the previous recorded commit): {faster} faster, {} slower",
            short_commit(previous),
            slower + once
        )),
        text(format!(
            "{}, {method} with their counters changed (method changes), the other {unchanged} \
             unchanged; {not_judged} not judged (a shared or unsteady run, a new baseline or a \
             new benchmark). Times and instruction counts at {}, judged by the rule below.",
            if once > 0 {
                format!(" ({once} of them once, to be confirmed by the next commit)")
            } else {
                String::new()
            },
            short_commit(last)
        )),
    ];
    judged.retain(|(m, _)| {
        matches!(
            m,
            Move::Faster | Move::Slower | Move::SlowerOnce | Move::MethodChanged
        )
    });
    judged.sort_by(|a, b| size(&b.1).total_cmp(&size(&a.1)));
    let mut blocks = vec![Block::Paragraph(sentence)];
    folded_table(&mut blocks, &judged, moves_table, "that moved");
    let moves = large_counter_moves(changes, latest);
    if !moves.is_empty() {
        blocks.push(Block::Paragraph(vec![strong(format!(
            "{} counter(s) moved more than {}x:",
            moves.len(),
            COUNTER_FACTOR
        ))]));
        let what = format!("counters that moved more than {COUNTER_FACTOR}x");
        folded_table(&mut blocks, &moves, counter_moves_table, &what);
    }
    blocks
}

/// The table of the first [`SHOWN_ROWS`] of `rows` and, folded beneath
/// it, that of the others ("The other n <what>").
fn folded_table<T>(blocks: &mut Vec<Block>, rows: &[T], table: fn(&[T]) -> Table, what: &str) {
    let shown = rows.len().min(SHOWN_ROWS);
    if shown > 0 {
        blocks.push(Block::Table(table(&rows[..shown])));
    }
    if rows.len() > shown {
        blocks.push(Block::Details {
            summary: vec![text(format!("The other {} {what}", rows.len() - shown))],
            blocks: vec![Block::Table(table(&rows[shown..]))],
        });
    }
}

/// The size of a move: |log(value / baseline)| (a halving and a doubling
/// are the same size).
fn size(f: &HistoryFlag) -> f64 {
    match f.baseline {
        Some(b) if b > 0.0 && f.judged > 0.0 => (f.judged / b).ln().abs(),
        _ => 0.0,
    }
}

fn moves_table(rows: &[(Move, HistoryFlag)]) -> Table {
    let mut table = Table::new(&[
        ("moved", false),
        ("benchmark", false),
        ("measure", false),
        ("now", true),
        ("change", true),
        ("band", true),
    ]);
    for (m, f) in rows {
        let word = match m {
            Move::Faster => "faster",
            Move::Slower => "slower",
            Move::SlowerOnce => "slower once",
            _ => "method changed",
        };
        let band = match (f.threshold, f.baseline) {
            (Some(t), Some(b)) if b != 0.0 => {
                format!("±{}", percent(t / b).trim_start_matches('+'))
            }
            _ => String::new(),
        };
        table.push(
            if matches!(m, Move::Slower | Move::SlowerOnce) {
                RowKind::Flag
            } else {
                RowKind::Normal
            },
            vec![
                vec![strong(word)],
                vec![text(benchmark(&f.study, &f.case, &f.method))],
                vec![code(&f.metric)],
                vec![text(value_text(&f.metric, f.latest))],
                vec![text(f.change().map(percent).unwrap_or_default())],
                vec![text(band)],
            ],
        );
    }
    table
}

fn counter_moves_table(moves: &[CounterChange]) -> Table {
    let mut table = Table::new(&[
        ("counter moved", false),
        ("benchmark", false),
        ("before", true),
        ("now", true),
    ]);
    for c in moves {
        let cells: Vec<Vec<Inline>> = vec![
            vec![code(&c.metric)],
            vec![text(benchmark(&c.study, &c.case, &c.method))],
            vec![text(count(c.previous))],
            vec![strong(count(c.value))],
        ];
        table.push(RowKind::Flag, cells);
    }
    table
}
