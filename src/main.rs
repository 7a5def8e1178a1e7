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
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Linear complementarity problems.
    #[command(subcommand)]
    Lcp(LcpCommand),
    /// Runs one per-step kernel (the run measures each under Valgrind).
    #[command(hide = true)]
    Kernel {
        /// The kernel, `case/method` (harness::kernels::KERNELS).
        name: String,
        /// Time RUNS runs natively instead and print the median CPU seconds.
        #[arg(long, value_name = "RUNS")]
        time: Option<usize>,
    },
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
        Some(Command::Kernel { name, time }) => kernel(&name, time),
        None => run(cli.run),
    }
}

fn run(args: RunArgs) -> ExitCode {
    let Some(path) = args.path else {
        eprintln!("error: a study file or suite is required (e.g. experiments/all)");
        return ExitCode::from(2);
    };
    // The reproduce command names the profile this binary was built with.
    let cargo = if env!("CONTACT_HARNESS_CARGO_PROFILE") == "release" {
        "cargo run --release --"
    } else {
        "cargo run --"
    };
    let command = std::iter::once(cargo.to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ");
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
    };
    let kinds = contact_harness::studies::registry();
    match runner::run(&kinds, &options) {
        Ok(run) => {
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
                        contact_harness::harness::claims::study_verdict(&study.claims)
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
                options.out.display(),
                options.report.join("index.html").display()
            );
            if run.all_passed() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
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

fn kernel(name: &str, time: Option<usize>) -> ExitCode {
    let root = std::path::Path::new(".");
    let result = match time {
        None => kernels::run_one(name, root),
        Some(runs) => kernels::time_native(name, root, runs)
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
