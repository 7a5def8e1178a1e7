//! Performance history over commits: `<out>/history/` (committed to git),
//! one row per timing value of every case of every recorded run, stored one
//! file per run (`store`: the index `runs.csv`, `runs/<run>.parquet`, and
//! `history.csv` with the latest runs). The judge and the report read the
//! latest [`WINDOW_RUNS`] runs.
//!
//! Columns of a row ([`COLUMNS`]): `commit,date,host,suite,study,case,method,metric,
//! value,spread,timing,profile,rustc,cpu`, where
//! - `metric` is `wall_s` (wall-clock seconds), `cpu_s` (CPU seconds of the
//!   thread that ran the method; absent when the thread clock was
//!   unavailable) or a counter name. The `stats` of a timing (derived floats
//!   such as `mean_active`) are not recorded: they are not exact counts, and
//!   they are no measure of speed;
//! - `spread` is the half range of the CPU times of the repeated runs behind
//!   a `cpu_s` (empty for other metrics and for rows that did not record it);
//! - `timing` names how the times were measured ([`TIMING_METHOD`]);
//! - `profile` is the build profile (`debug`, `release`), `rustc` the
//!   compiler's `rustc --version`, `cpu` the CPU model and logical core
//!   count of the machine (`host` is its name).
//!
//! The commit is `git rev-parse HEAD`, with `+dirty` appended when the work
//! tree had uncommitted changes.
//!
//! Files written before the last five columns existed ([`COLUMNS_V1`]) still
//! load: their `spread` is empty, `profile`, `rustc` and `cpu` are
//! `unknown`, and `timing` is told from the row's date by [`legacy_timing`]
//! (single run before commit 37abbca, fastest of repeated runs from it, the
//! median of repeated runs from 661293e). The next record migrates them
//! into the store with all columns.
//!
//! # Comparison
//!
//! A *benchmark* is a (study, case, method, metric); its value at a commit
//! is the commit's most recent row; commits are ordered by first appearance
//! in the file. Metrics are of three kinds ([`MetricKind`]; a fourth,
//! [`MetricKind::Environment`], records the machine's load and is never judged):
//! - *counters* (steps, iterations, pivots, factorizations, ...) are exact:
//!   a value that differs from the previous commit's is a
//!   [`CounterChange`], whatever the machine. A time or cost that changes
//!   at a commit where a counter of the same (study, case, method) changed
//!   is shown as that counter change ([`Verdict::WithCounters`]): the method
//!   changed, its speed did not;
//! - *costs*: the instruction count (`instructions`) and the estimated
//!   cycles (`estimated_cycles`) of the per-step kernels under Valgrind
//!   (`harness::kernels`), deterministic for a binary, Valgrind version and
//!   CPU. A cost is `Slower` when it exceeds the previous commit's value of
//!   its baseline by more than [`COST_BAND`] (1 %), `Faster` below by more;
//! - *times*: `cpu_s` (CPU seconds of the thread that ran the method) and
//!   `wall_s`, noisy on a shared machine.
//!
//! Times and costs are compared only within one *baseline*: the rows with
//! the same [`Config`] (timing method, host, CPU, build profile). A change
//! of any of these starts a new baseline ([`Verdict::NewBaseline`]): nothing
//! is flagged faster or slower across it. The machine can change under the
//! same host name and CPU string (a VM moved to other hardware): times are
//! therefore compared only within one *machine epoch* of a baseline, and a
//! new epoch starts at a quiet run whose calibration kernel's CPU time
//! departs from the median of its previous (up to) [`MACHINE_WINDOW`]
//! quiet values of the epoch by more than [`MACHINE_CHANGE`]. The kernel is
//! fixed code, so such a shift is the machine's, and cache-resident and
//! memory-bound methods change speed by different factors across it
//! (measured on 4 Dec 2026: the kernel -21 %, the dense Lemke chain +70 %
//! in seconds), which no calibration corrects. Costs and counters do not
//! depend on the epoch.
//!
//! CPU times recorded with [`TIMING_METHOD`] are judged in units of the
//! calibration kernel timed in the same run (`harness::kernels::calibration`,
//! the rows `kernels / calibration / fixed-kernel / cpu_s`): n = cpu_s /
//! calibration, which takes out the machine's speed and load of that run.
//! With m = median and sigma = 1.4826 MAD (Rousseeuw & Croux, JASA 88
//! (1993) 1273) of n over the previous (up to) [`BASELINE_COMMITS`] commits
//! since the benchmark's last counter change (a method change starts its
//! window afresh: earlier commits ran another method),
//! the band is max(q m, 3 sigma, m (r + r_base + c + c_base)), where
//! - q is the noise of unchanged code measured in this baseline: the
//!   [`CPU_NOISE_QUANTILE`] quantile of |n_k / n_(k-1) - 1| over every
//!   benchmark and pair of consecutive commits before this one at which the
//!   benchmark's counters did not change, [`CPU_UNKNOWN_NOISE`] while fewer
//!   than [`CPU_MIN_NOISE_SAMPLES`] such changes are known;
//! - r and c are the relative spreads (half range over the value) of the
//!   repeated runs and of the calibration runs of the commit, r_base and
//!   c_base their medians over the window.
//!
//! A CPU time above m by more than the band is slower; it is a
//! [`Regression`] only when the next commit of the baseline is above the
//! same m + band too (a single slower commit is [`Verdict::Unconfirmed`]).
//! A *shared run*, one during which other processes took more than
//! [`MAX_OTHERS_SHARE`] of the machine's CPU (the row
//! `kernels / calibration / fixed-kernel / others_cpu_share`, measured by
//! `harness::kernels::load`), has its CPU times [`Verdict::Shared`]: not
//! judged, and no window, noise sample or confirmation for other commits.
//! Under contention a memory-bound method slows far more than the
//! cache-resident calibration kernel (measured: the dense Lemke chain +50 to
//! +100 % in calibration units beside a concurrent build), so no unit
//! measured in the run corrects it. Its costs and counters are judged as
//! always. Likewise an *unsteady run*, one whose calibration kernel moved
//! by more than [`MACHINE_CHANGE`] without the next quiet run confirming
//! the move (a machine change is confirmed; see `judge::machine_epochs`),
//! has its CPU times [`Verdict::Unsteady`].
//! Older CPU times (other timing methods, no calibration) are judged on
//! their seconds with the band max(20 % m, 3 sigma, s + s_base) (s the
//! recorded spreads), without confirmation. A `wall_s` whose benchmark has
//! a judged `cpu_s` at the same commit is `Informational`; where there is
//! none (rows recorded before CPU time was measured), `wall_s` is judged
//! like an old CPU time.
//!
//! [`regressions`] lists the slower commits of the whole history, asv
//! style: a run of consecutive slower commits of a benchmark is one step,
//! listed at its first commit, and only while it is still present: the
//! benchmark still runs at the history's latest commit, its latest value is
//! in the same baseline and still above that step's m + band. A step in a
//! superseded baseline (the timing method, host, CPU or profile changed
//! since) or of a retired benchmark (one the latest run no longer has, e.g.
//! a case whose swept values changed) is no longer listed: it can be
//! neither confirmed nor undone.

mod csv;
mod data;
mod judge;
mod lists;
mod store;

pub use csv::*;
pub use data::*;
pub use judge::*;
pub use lists::*;
pub use store::*;

#[cfg(test)]
mod tests;
