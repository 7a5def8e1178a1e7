//! Timing of one method run: wall clock and the CPU time of the calling
//! thread (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`). Cases run on rayon
//! workers, one thread each, with faer set to sequential, so the thread's CPU
//! time is the work of the case alone: on a shared, loaded machine it stays
//! put where wall time stretches.

use std::time::Instant;

/// CPU seconds consumed by the calling thread so far (NaN if unavailable).
pub fn thread_cpu_seconds() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant
    // supported on Linux (and returns an error code, not UB, elsewhere).
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc == 0 {
        ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
    } else {
        f64::NAN
    }
}

/// A started stopwatch over wall and thread CPU time.
#[derive(Debug, Clone, Copy)]
pub struct Stopwatch {
    wall: Instant,
    cpu: f64,
}

impl Stopwatch {
    /// Starts now.
    pub fn start() -> Self {
        Self {
            wall: Instant::now(),
            cpu: thread_cpu_seconds(),
        }
    }

    /// (wall seconds, CPU seconds) since the start.
    pub fn elapsed(&self) -> (f64, f64) {
        (
            self.wall.elapsed().as_secs_f64(),
            thread_cpu_seconds() - self.cpu,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_time_advances_with_work_and_not_with_sleep() {
        let watch = Stopwatch::start();
        std::thread::sleep(std::time::Duration::from_millis(30));
        let (wall, cpu) = watch.elapsed();
        assert!(wall >= 0.03, "wall {wall}");
        assert!(cpu < 0.02, "sleeping used {cpu} s of CPU");
        let watch = Stopwatch::start();
        let mut acc = 0.0f64;
        for i in 0..3_000_000u64 {
            acc += (i as f64).sqrt();
        }
        let (_, cpu) = watch.elapsed();
        assert!(acc > 0.0 && cpu > 0.0, "busy loop used {cpu} s");
    }
}
