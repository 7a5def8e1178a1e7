//! Atomic file and directory writes.
//!
//! A file is written to a temporary sibling (`.<name>.tmp-<pid>-<n>`), synced
//! and renamed over the target: `rename(2)` within one directory is atomic on
//! POSIX file systems, so a reader (or a run killed half-way) sees either the
//! old file or the new one, never a half-written file.
//!
//! A directory that must be replaced as a whole (a study's result directory,
//! the report's figures) is built in a staging sibling
//! (`.<name>.tmp-<pid>-<n>/`) and swapped in by [`StagedDir::commit`]: the old
//! directory is renamed to `.<name>.old-<pid>-<n>`, the staging directory is
//! renamed into place, then the old one is deleted. Files of an earlier run
//! that the new run does not produce therefore disappear, and a run killed at
//! any point leaves the earlier directory intact (in place, or under its
//! `.old-` name, from which the next run restores it before doing anything
//! else: see [`StagedDir::new`]).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::OutputError;

/// Process-wide counter that makes temporary names unique across threads.
static SEQUENCE: AtomicU64 = AtomicU64::new(0);

fn io_error(path: &Path, source: std::io::Error) -> OutputError {
    OutputError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// A unique suffix `<pid>-<n>` for temporary names of this process.
fn unique_suffix() -> String {
    let n = SEQUENCE.fetch_add(1, Ordering::Relaxed);
    format!("{}-{n}", std::process::id())
}

/// The file name of `path` as text, or a format error for a path without one.
fn file_name(path: &Path) -> Result<String, OutputError> {
    path.file_name()
        .and_then(|n| n.to_str())
        .map(str::to_string)
        .ok_or_else(|| OutputError::Format {
            path: path.to_path_buf(),
            message: "the path has no (UTF-8) file name".to_string(),
        })
}

/// The directory that holds `path` (`.` for a bare file name).
fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Best-effort fsync of a directory so that a rename inside it is durable.
fn sync_dir(dir: &Path) {
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Writes `bytes` to `path` atomically (temporary sibling + rename), creating
/// the parent directory if needed.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    let dir = parent_dir(path);
    fs::create_dir_all(&dir).map_err(|e| io_error(&dir, e))?;
    let tmp = dir.join(format!(".{}.tmp-{}", file_name(path)?, unique_suffix()));
    let result = (|| {
        let mut file = fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(io_error(path, e));
    }
    sync_dir(&dir);
    Ok(())
}

/// Writes `bytes` to `path` directly (for files inside a staging directory,
/// which is itself swapped in atomically).
pub fn write_plain(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
    }
    fs::write(path, bytes).map_err(|e| io_error(path, e))
}

/// Whether process `pid` may still be running. Without `/proc` (not Linux)
/// nothing can be known and every process counts as alive, so no leftover is
/// touched.
fn process_alive(pid: u32) -> bool {
    if !Path::new("/proc/self").exists() {
        return true;
    }
    Path::new("/proc").join(pid.to_string()).exists()
}

/// A leftover of an earlier (killed) run: `.<name>.tmp-<pid>-<n>` or
/// `.<name>.old-<pid>-<n>`.
struct Leftover {
    path: PathBuf,
    old: bool,
    pid: u32,
}

fn leftovers(parent: &Path, name: &str) -> Vec<Leftover> {
    let Ok(entries) = fs::read_dir(parent) else {
        return Vec::new();
    };
    let tmp_prefix = format!(".{name}.tmp-");
    let old_prefix = format!(".{name}.old-");
    let mut found: Vec<Leftover> = entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let file = entry.file_name().to_str()?.to_string();
            let (old, rest) = if let Some(rest) = file.strip_prefix(&tmp_prefix) {
                (false, rest)
            } else {
                (true, file.strip_prefix(&old_prefix)?)
            };
            let pid = rest.split('-').next()?.parse().ok()?;
            Some(Leftover {
                path: entry.path(),
                old,
                pid,
            })
        })
        .collect();
    found.sort_by(|a, b| a.path.cmp(&b.path));
    found
}

/// A directory being built beside its target, swapped in as a whole by
/// [`StagedDir::commit`]. Dropped without commit, it is deleted.
#[derive(Debug)]
pub struct StagedDir {
    target: PathBuf,
    staging: PathBuf,
    committed: bool,
}

impl StagedDir {
    /// Prepares a staging directory for `target`. First repairs what a killed
    /// run of a dead process left behind: a missing `target` is restored from
    /// its `.old-` copy, and stale staging and old directories are deleted.
    pub fn new(target: &Path) -> Result<Self, OutputError> {
        let parent = parent_dir(target);
        fs::create_dir_all(&parent).map_err(|e| io_error(&parent, e))?;
        let name = file_name(target)?;
        let own_pid = std::process::id();
        for leftover in leftovers(&parent, &name) {
            if leftover.pid == own_pid || process_alive(leftover.pid) {
                continue;
            }
            if leftover.old && !target.exists() {
                fs::rename(&leftover.path, target).map_err(|e| io_error(target, e))?;
            } else {
                let _ = fs::remove_dir_all(&leftover.path);
            }
        }
        let staging = parent.join(format!(".{name}.tmp-{}", unique_suffix()));
        fs::create_dir_all(&staging).map_err(|e| io_error(&staging, e))?;
        Ok(Self {
            target: target.to_path_buf(),
            staging,
            committed: false,
        })
    }

    /// The staging directory: write the new contents here.
    pub fn path(&self) -> &Path {
        &self.staging
    }

    /// Replaces the target by the staging directory.
    pub fn commit(mut self) -> Result<(), OutputError> {
        let parent = parent_dir(&self.target);
        let name = file_name(&self.target)?;
        let old = parent.join(format!(".{name}.old-{}", unique_suffix()));
        let had_old = match fs::rename(&self.target, &old) {
            Ok(()) => true,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => false,
            Err(e) => return Err(io_error(&self.target, e)),
        };
        if let Err(e) = fs::rename(&self.staging, &self.target) {
            if had_old {
                let _ = fs::rename(&old, &self.target);
            }
            return Err(io_error(&self.target, e));
        }
        self.committed = true;
        sync_dir(&parent);
        if had_old {
            let _ = fs::remove_dir_all(&old);
        }
        Ok(())
    }
}

impl Drop for StagedDir {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_dir_all(&self.staging);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_file_replaces_content_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("a.txt");
        write_file(&path, b"first").unwrap();
        write_file(&path, b"second").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second");
        let names: Vec<_> = fs::read_dir(dir.path().join("sub"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("a.txt")]);
    }

    #[test]
    fn staged_dir_replaces_the_whole_directory() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("study");
        fs::create_dir_all(&target).unwrap();
        fs::write(target.join("stale.csv"), "old").unwrap();
        let staged = StagedDir::new(&target).unwrap();
        fs::write(staged.path().join("new.csv"), "new").unwrap();
        staged.commit().unwrap();
        assert!(!target.join("stale.csv").exists());
        assert_eq!(fs::read_to_string(target.join("new.csv")).unwrap(), "new");
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no staging or old directory left"
        );
    }

    #[test]
    fn dropped_staging_leaves_the_target_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("study");
        fs::create_dir_all(&target).unwrap();
        fs::write(target.join("keep.csv"), "old").unwrap();
        {
            let staged = StagedDir::new(&target).unwrap();
            fs::write(staged.path().join("half.csv"), "x").unwrap();
        }
        assert_eq!(fs::read_to_string(target.join("keep.csv")).unwrap(), "old");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_killed_swap_is_repaired_from_the_old_copy() {
        // Simulates a run killed between the two renames: the target is gone
        // and its previous contents sit under `.study.old-<dead pid>-0`.
        let dir = tempfile::tempdir().unwrap();
        let dead_pid = u32::MAX - 7; // beyond pid_max: no such process
        let old = dir.path().join(format!(".study.old-{dead_pid}-0"));
        let tmp = dir.path().join(format!(".study.tmp-{dead_pid}-1"));
        fs::create_dir_all(&old).unwrap();
        fs::create_dir_all(&tmp).unwrap();
        fs::write(old.join("earlier.csv"), "earlier").unwrap();
        let target = dir.path().join("study");
        let staged = StagedDir::new(&target).unwrap();
        if Path::new("/proc/self").exists() {
            assert_eq!(
                fs::read_to_string(target.join("earlier.csv")).unwrap(),
                "earlier"
            );
            assert!(!old.exists() && !tmp.exists());
        }
        drop(staged);
    }
}
