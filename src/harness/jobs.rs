//! Independent jobs on worker threads, with a time limit that holds even
//! when a job never returns.
//!
//! Every job gets a thread of its own; at most `workers` run at once. A job
//! normally stops itself at its limit (the step loops call
//! [`crate::deadline::check`]). A job stuck where no check is reached (inside
//! a library routine, say) is *abandoned* once `limit + grace` has passed:
//! the scheduler stops waiting for it, reports it, and starts the next job
//! in its slot. Its thread is detached; it ends with the process, which
//! therefore exits on time.

use std::collections::VecDeque;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long past its limit a job may run before it is abandoned: time for a
/// job to reach its next deadline check and unwind.
pub const GRACE: Duration = Duration::from_millis(500);

/// A job: its time limit and the work, which returns its result.
pub struct Job<T> {
    /// The job's time limit (it is abandoned after `limit + grace`).
    pub limit: Duration,
    /// The work.
    pub work: Box<dyn FnOnce() -> T + Send + 'static>,
}

/// How a job ended.
#[derive(Debug)]
pub enum JobEnd<T> {
    /// It returned.
    Done(T),
    /// It was still running `limit + grace` after it started and was left
    /// behind.
    Abandoned {
        /// Its limit.
        limit: Duration,
    },
    /// Its thread could not be started.
    NotStarted(String),
}

/// Runs `jobs` on at most `workers` threads at once (in order of the list)
/// and returns how each ended, in the list's order. `on_start(i)` and
/// `on_end(i)` are called on the calling thread as job `i` starts and ends
/// (returned or abandoned).
pub fn run_all<T: Send + 'static>(
    jobs: Vec<Job<T>>,
    workers: usize,
    grace: Duration,
    mut on_start: impl FnMut(usize),
    mut on_end: impl FnMut(usize),
) -> Vec<JobEnd<T>> {
    let workers = workers.max(1);
    let (tx, rx) = mpsc::channel::<(usize, T)>();
    let mut ends: Vec<Option<JobEnd<T>>> = (0..jobs.len()).map(|_| None).collect();
    let mut pending: VecDeque<(usize, Job<T>)> = jobs.into_iter().enumerate().collect();
    // (job, deadline after which it is abandoned, its limit)
    let mut running: Vec<(usize, Instant, Duration)> = Vec::new();
    loop {
        while running.len() < workers {
            let Some((i, job)) = pending.pop_front() else {
                break;
            };
            on_start(i);
            let tx = tx.clone();
            let work = job.work;
            let spawned = std::thread::Builder::new()
                .name(format!("job-{i}"))
                .spawn(move || {
                    let value = work();
                    // The scheduler may have left: nobody to tell then.
                    let _ = tx.send((i, value));
                });
            match spawned {
                Ok(_) => running.push((i, Instant::now() + job.limit + grace, job.limit)),
                Err(e) => {
                    ends[i] = Some(JobEnd::NotStarted(e.to_string()));
                    on_end(i);
                }
            }
        }
        if running.is_empty() {
            break;
        }
        let next_deadline = running.iter().map(|r| r.1).min().expect("running");
        let wait = next_deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(wait) {
            Ok((i, value)) => {
                // A job abandoned earlier may still send: its end stands.
                if let Some(k) = running.iter().position(|r| r.0 == i) {
                    running.swap_remove(k);
                    ends[i] = Some(JobEnd::Done(value));
                    on_end(i);
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let now = Instant::now();
                running.retain(|&(i, deadline, limit)| {
                    if now < deadline {
                        return true;
                    }
                    ends[i] = Some(JobEnd::Abandoned { limit });
                    on_end(i);
                    false
                });
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                unreachable!("the scheduler holds a sender")
            }
        }
    }
    ends.into_iter()
        .map(|e| e.expect("every job ended once"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job<T: Send + 'static>(limit_ms: u64, work: impl FnOnce() -> T + Send + 'static) -> Job<T> {
        Job {
            limit: Duration::from_millis(limit_ms),
            work: Box::new(work),
        }
    }

    #[test]
    fn results_come_back_in_list_order() {
        let jobs: Vec<Job<usize>> = (0..7)
            .map(|i| {
                job(10_000, move || {
                    std::thread::sleep(Duration::from_millis(5 * (7 - i) as u64));
                    i * i
                })
            })
            .collect();
        let ends = run_all(jobs, 3, GRACE, |_| {}, |_| {});
        let values: Vec<usize> = ends
            .into_iter()
            .map(|e| match e {
                JobEnd::Done(v) => v,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(values, vec![0, 1, 4, 9, 16, 25, 36]);
    }

    #[test]
    fn a_job_that_never_returns_is_abandoned_on_time_and_the_others_run() {
        let start = Instant::now();
        let jobs = vec![
            // Stuck with no deadline check, like a library loop.
            job(100, || {
                loop {
                    std::thread::sleep(Duration::from_millis(10));
                }
            }),
            job(100, || 1),
            job(100, || 2),
        ];
        let mut started = Vec::new();
        let ends = run_all(
            jobs,
            1,
            Duration::from_millis(200),
            |i| started.push(i),
            |_| {},
        );
        let elapsed = start.elapsed();
        assert!(
            matches!(ends[0], JobEnd::Abandoned { limit } if limit == Duration::from_millis(100))
        );
        assert!(matches!(ends[1], JobEnd::Done(1)));
        assert!(matches!(ends[2], JobEnd::Done(2)));
        // One worker: the stuck job held it for limit + grace, then the
        // others ran in its slot.
        assert_eq!(started, vec![0, 1, 2]);
        assert!(elapsed >= Duration::from_millis(300), "{elapsed:?}");
        assert!(elapsed < Duration::from_secs(5), "{elapsed:?}");
    }
}
