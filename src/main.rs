//! Command line: parse, call the library, map errors to exit codes
//! (0 all checks passed, 1 a check or solver failed, 2 bad input).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use contact_harness::harness::kernels;
use contact_harness::harness::runner::{self, RunError, RunOptions};
use contact_harness::lcp::{self, LcpOptions, LcpSolverKind};

/// Benchmark and reproduction harness for non-smooth contact dynamics.
///
/// Runs the studies of PATH (a study file or a suite such as
/// `experiments/all`), checks every result against its reference, and writes
/// results to --out and a report to --report.
#[derive(Debug, Parser)]
#[command(
    version,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Debug, Args)]
struct RunArgs {
    /// Study file or suite (`experiments/all` means `experiments/all.toml`).
    #[arg(required = true)]
    path: Option<PathBuf>,
    /// Results directory.
    #[arg(long, default_value = "results")]
    out: PathBuf,
    /// Report directory.
    #[arg(long, default_value = "report")]
    report: PathBuf,
    /// Run only this study (repeatable).
    #[arg(long = "only", value_name = "STUDY")]
    only: Vec<String>,
    /// Time limit of every job (a method of a case, or a case's reference)
    /// in seconds; replaces the studies' `time_limit` (default 600 s). A job
    /// past it fails with a message and the run goes on.
    #[arg(
        long = "time-limit",
        value_name = "SECONDS",
        allow_negative_numbers = true
    )]
    time_limit: Option<f64>,
    /// Do not measure the kernels' instruction counts under Valgrind (a run
    /// that appends to the history measures them otherwise).
    #[arg(long = "no-kernels")]
    no_kernels: bool,
    /// Also run N samples of the assumption box of every study that lists
    /// assumptions (`[[study.assumption]]`), judge its claims on each, and
    /// write DIR/<study>/robustness.csv and claims.csv's `holds_in`. Not
    /// recorded in the history.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(2..=100_000))]
    robustness: Option<u32>,
    /// Run only part I of N of the plan's jobs (balanced by their cost
    /// estimates) into --out, a directory of its own; `merge` combines the
    /// N parts. I is a Slurm array's SLURM_ARRAY_TASK_ID.
    #[arg(long, value_name = "I/N", conflicts_with = "slurm")]
    shard: Option<contact_harness::harness::shard::ShardSpec>,
    /// Print the two sbatch commands that run the plan as N parts on Slurm
    /// (a job array, then a dependent merge into --out and --report).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    slurm: Option<u32>,
    /// With --slurm: CPUs per array task, the worker threads of each part.
    #[arg(long, value_name = "C", default_value_t = 1, requires = "slurm", value_parser = clap::value_parser!(u32).range(1..=4096))]
    cpus_per_task: u32,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Merge the parts of a sharded run (`PATH --shard I/N --out DIR`) into
    /// the results, history and report a single run writes.
    Merge {
        /// The part directories, all N of one plan.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// Results directory.
        #[arg(long, default_value = "results")]
        out: PathBuf,
        /// Report directory.
        #[arg(long, default_value = "report")]
        report: PathBuf,
    },
    /// Linear complementarity problems.
    #[command(subcommand)]
    Lcp(LcpCommand),
    /// Runs one per-step kernel (the run measures each under Valgrind).
    #[command(hide = true)]
    Kernel {
        /// The kernel, `case/method` (the kinds register them; `harness::kernels`).
        #[arg(required_unless_present = "list")]
        name: Option<String>,
        /// Time RUNS runs natively instead and print the median CPU seconds.
        #[arg(long, value_name = "RUNS")]
        time: Option<usize>,
        /// Print the kernels' names, one per line.
        #[arg(long, conflicts_with_all = ["name", "time"])]
        list: bool,
    },
    /// Compare two git revisions side by side: build both, count their
    /// kernels' instructions under callgrind and run the suite's timed jobs
    /// interleaved (BASE, HEAD, HEAD, BASE, ...); write DIR/compare.csv and
    /// print the changes. Exit 1 when a benchmark is slower beyond the
    /// threshold.
    Compare {
        /// The base revision (a branch, tag, hash, HEAD~N).
        base: String,
        /// The head revision; the working tree when left out.
        head: Option<String>,
        /// The suite whose timed jobs run, a path in each revision's tree.
        #[arg(long, default_value = "experiments/quick")]
        suite: PathBuf,
        /// Count the kernels only (no suite runs).
        #[arg(long, conflicts_with = "no_kernels")]
        no_suite: bool,
        /// Run the suite only (no kernel counts).
        #[arg(long)]
        no_kernels: bool,
        /// Only benchmarks whose name contains PATTERN (repeatable).
        #[arg(long = "benchmark", value_name = "PATTERN")]
        benchmarks: Vec<String>,
        /// Interleaved rounds of the suite per revision.
        #[arg(long, default_value_t = 3)]
        rounds: usize,
        #[command(flatten)]
        gate: Gate,
    },
    /// Find the first commit between GOOD and BAD at which a kernel's
    /// instruction count rose beyond the threshold (binary search, builds
    /// cached like compare's); write DIR/bisect.csv.
    Bisect {
        /// A commit where the kernel was fast.
        good: String,
        /// A later commit where it is slow.
        bad: String,
        /// The kernel, `case/method` or `kernels/case/method`.
        #[arg(long, value_name = "NAME")]
        benchmark: String,
        #[command(flatten)]
        gate: Gate,
    },
}

/// The threshold and output directory of `compare` and `bisect`.
#[derive(Debug, Args)]
struct Gate {
    /// compare exits 1 when a benchmark is slower by more than PCT percent;
    /// bisect calls a commit bad when its count exceeds GOOD's by more.
    #[arg(
        long,
        value_name = "PCT",
        default_value_t = 5.0,
        allow_negative_numbers = true
    )]
    threshold: f64,
    /// Where compare.csv or bisect.csv goes.
    #[arg(long, value_name = "DIR", default_value = ".")]
    out: PathBuf,
}

#[derive(Debug, Subcommand)]
enum LcpCommand {
    /// Solve one LCP in the Siconos text format; prints one JSON object.
    Solve {
        /// The .dat file.
        file: PathBuf,
        /// Solver: lemke, pgs, newton-min, newton-fb, enumerate, auto.
        #[arg(long, default_value = "auto")]
        solver: String,
        /// Residual below which the problem counts as solved.
        #[arg(long)]
        tolerance: Option<f64>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Lcp(LcpCommand::Solve {
            file,
            solver,
            tolerance,
        })) => lcp_solve(&file, &solver, tolerance),
        Some(Command::Kernel { name, time, list }) => kernel(name.as_deref(), time, list),
        Some(Command::Compare {
            base,
            head,
            suite,
            no_suite,
            no_kernels,
            benchmarks,
            rounds,
            gate: Gate { threshold, out },
        }) => compare(&contact_harness::harness::compare::CompareOptions {
            base,
            head,
            suite: (!no_suite).then_some(suite),
            kernels: !no_kernels,
            filters: benchmarks,
            rounds,
            threshold: threshold / 100.0,
            out,
        }),
        Some(Command::Bisect {
            good,
            bad,
            benchmark,
            gate: Gate { threshold, out },
        }) => bisect(&good, &bad, &benchmark, threshold / 100.0, &out),
        Some(Command::Merge { dirs, out, report }) => merge(&dirs, &out, &report),
        None => run(cli.run),
    }
}

fn run(args: RunArgs) -> ExitCode {
    let Some(path) = args.path else {
        eprintln!("error: a study file or suite is required (e.g. experiments/all)");
        return ExitCode::from(2);
    };
    let command = command_line();
    let max = contact_harness::harness::spec::MAX_TIME_LIMIT_S;
    let time_limit = match args.time_limit {
        None => None,
        Some(s) if s > 0.0 && s <= max => Some(std::time::Duration::from_secs_f64(s)),
        Some(s) => {
            eprintln!("error: --time-limit {s}: expected a number of seconds in (0, {max:e}]");
            return ExitCode::from(2);
        }
    };
    let options = RunOptions {
        spec: path,
        out: args.out,
        report: args.report,
        only: args.only,
        command,
        time_limit,
        kernels: !args.no_kernels,
        robustness: args.robustness.map(|n| n as usize),
    };
    if let Some(n) = args.slurm {
        return slurm_commands(&options, args.time_limit, n as usize, args.cpus_per_task);
    }
    let kinds = contact_harness::studies::registry();
    if let Some(part) = args.shard {
        return shard(&kinds, &options, part);
    }
    match runner::run(&kinds, &options) {
        Ok(run) => print_run(&run, &options.out, &options.report),
        Err(RunError::Input(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
        Err(RunError::Output(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// The command line as the manifest and report footer give it (the
/// reproduce command names the profile this binary was built with).
fn command_line() -> String {
    let cargo = if env!("CONTACT_HARNESS_CARGO_PROFILE") == "release" {
        "cargo run --release --"
    } else {
        "cargo run --"
    };
    std::iter::once(cargo.to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `PATH --shard I/N`: runs part I of N into --out.
fn shard(
    kinds: &contact_harness::harness::registry::Registry,
    options: &RunOptions,
    part: contact_harness::harness::shard::ShardSpec,
) -> ExitCode {
    match contact_harness::harness::shard::run_shard(kinds, options, part) {
        Ok(s) => {
            let f = &s.file;
            println!(
                "part {}/{} of plan {}: {} of {} jobs, estimated cost {:.4e}, {:.1} s on {} threads, {} failed",
                f.shard,
                f.shards,
                f.plan_hash,
                f.jobs.len(),
                s.plan_jobs,
                f.estimated_cost,
                f.wall_s,
                f.threads,
                s.failures.len()
            );
            for (job, e) in &s.failures {
                println!("    FAIL {job}: {e} (reported by the merge)");
            }
            println!("part: {}", options.out.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

/// `merge DIR...`: combines the parts into results, history and report.
fn merge(dirs: &[PathBuf], out: &std::path::Path, report: &std::path::Path) -> ExitCode {
    let kinds = contact_harness::studies::registry();
    match contact_harness::harness::merge::merge(&kinds, dirs, out, report, &command_line()) {
        Ok(run) => print_run(&run, out, report),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

/// `PATH --slurm N`: prints the sbatch commands of N parts and the merge.
fn slurm_commands(options: &RunOptions, time_limit: Option<f64>, n: usize, cpus: u32) -> ExitCode {
    use contact_harness::harness::slurm;
    let bin = std::env::current_exe()
        .ok()
        .and_then(|p| std::path::absolute(p).ok())
        .unwrap_or_else(|| PathBuf::from("contact-harness"));
    let mut part_args = Vec::new();
    for s in &options.only {
        part_args.extend(["--only".to_string(), s.clone()]);
    }
    if let Some(t) = time_limit {
        part_args.extend(["--time-limit".to_string(), t.to_string()]);
    }
    if let Some(n) = options.robustness {
        part_args.extend(["--robustness".to_string(), n.to_string()]);
    }
    let run = slurm::SlurmRun {
        bin,
        spec: options.spec.clone(),
        shards: n,
        cpus_per_task: cpus as usize,
        work: slurm::work_dir(&options.out),
        out: options.out.clone(),
        report: options.report.clone(),
        part_args,
    };
    print!("{}", slurm::commands(&run));
    ExitCode::SUCCESS
}

/// Prints each study's status line and its failures; the exit code of the
/// run (0 all checks passed and every claim as expected, else 1).
fn print_run(
    run: &contact_harness::harness::outcome::RunResult,
    out: &std::path::Path,
    report: &std::path::Path,
) -> ExitCode {
    {
        {
            for study in &run.studies {
                let bad = study.checks.iter().filter(|c| !c.passed).count();
                let unexpected = study.claims.iter().filter(|c| !c.as_expected()).count();
                let mut status = if bad == 0 {
                    "ok".to_string()
                } else {
                    format!("{bad} FAILED")
                };
                if !study.claims.is_empty() {
                    status.push_str(&format!(
                        "  claims: {}",
                        contact_harness::harness::rows::study_verdict(&study.claims)
                    ));
                    if unexpected > 0 {
                        status.push_str(&format!(", {unexpected} UNEXPECTED"));
                    }
                }
                println!(
                    "{:<28} {:>3} cases  {:>4} checks  {status}",
                    study.name,
                    study.cases.len(),
                    study.checks.len()
                );
                for c in study.claims.iter().filter(|c| !c.as_expected()) {
                    println!(
                        "    CLAIM {}/{}: {} (expected {}): {}",
                        c.study,
                        c.claim,
                        c.verdict.name(),
                        c.expect.name(),
                        c.criterion
                    );
                }
                for c in study.checks.iter().filter(|c| !c.passed) {
                    let method = if c.method.is_empty() {
                        String::new()
                    } else {
                        format!(" [{}]", c.method)
                    };
                    println!(
                        "    FAIL {}/{}{method} {}: {} = {:e} (tolerance {:e}) {}",
                        c.study, c.case, c.check, c.metric, c.value, c.tolerance, c.detail
                    );
                }
            }
            println!(
                "results: {}  report: {}",
                out.display(),
                report.join("index.html").display()
            );
            if run.all_passed() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
    }
}

fn lcp_solve(file: &std::path::Path, solver: &str, tolerance: Option<f64>) -> ExitCode {
    let Some(kind) = LcpSolverKind::from_name(solver) else {
        eprintln!(
            "error: --solver {solver}: one of {}",
            LcpSolverKind::allowed_names()
        );
        return ExitCode::from(2);
    };
    let mut options = LcpOptions::default();
    if let Some(t) = tolerance {
        if !(t.is_finite() && t > 0.0) {
            eprintln!("error: --tolerance {t}: a finite number > 0");
            return ExitCode::from(2);
        }
        options.tolerance = t;
    }
    let problem = match lcp::io::read_siconos_file(file) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let json = lcp::cli::solve_json(&problem, kind, &options);
    println!("{json}");
    ExitCode::SUCCESS
}

/// `compare BASE [HEAD]`: the table, and exit 1 on a slowdown beyond the
/// threshold.
fn compare(options: &contact_harness::harness::compare::CompareOptions) -> ExitCode {
    use contact_harness::harness::compare;
    match compare::compare(options) {
        Ok(c) => {
            print!("{}", compare::output::table(&c, options.threshold));
            let slower = c.slower_beyond(options.threshold);
            if slower.is_empty() {
                ExitCode::SUCCESS
            } else {
                println!(
                    "{} slower beyond the threshold of {} %",
                    slower.len(),
                    options.threshold * 100.0
                );
                ExitCode::from(1)
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// `bisect GOOD BAD --benchmark NAME`: prints the first bad commit.
fn bisect(
    good: &str,
    bad: &str,
    benchmark: &str,
    threshold: f64,
    out: &std::path::Path,
) -> ExitCode {
    use contact_harness::harness::compare::bisect;
    match bisect::bisect(good, bad, benchmark, threshold, out) {
        Ok(b) => {
            for s in &b.steps {
                println!("{}  {:>14}  {}", s.commit, s.value, s.verdict);
            }
            println!(
                "{} commits between {good} and {bad}, {} counted; bisect.csv: {}",
                b.candidates,
                b.steps.len(),
                b.csv.display()
            );
            match &b.first_bad {
                Some(c) => {
                    println!("first commit slower beyond {} %: {c}", threshold * 100.0);
                    ExitCode::SUCCESS
                }
                None => {
                    println!(
                        "{bad} is not slower than {good} beyond {} %",
                        threshold * 100.0
                    );
                    ExitCode::from(1)
                }
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn kernel(name: Option<&str>, time: Option<usize>, list: bool) -> ExitCode {
    let root = std::path::Path::new(".");
    let all = contact_harness::studies::registry().kernels();
    if list {
        for k in &all {
            println!("{}", k.info.name());
        }
        return ExitCode::SUCCESS;
    }
    let name = name.unwrap_or_default();
    let result = match time {
        None => kernels::run_one(&all, name, root),
        Some(runs) => kernels::time_native(&all, name, root, runs)
            .map(|cpu| serde_json::json!({ "kernel": name, "cpu_s": cpu }).to_string()),
    };
    match result {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: kernel {name}: {e}");
            ExitCode::from(2)
        }
    }
}
