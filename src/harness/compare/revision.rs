//! The revisions a comparison builds: a git revision resolved to its
//! commit, checked out in a git worktree of its own, built once per source
//! tree and cached.
//!
//! Layout under the repository's `target/compare/`:
//! - `worktrees/<commit>`: a detached `git worktree` of the commit (the
//!   suite's specs, the reference data and the kernels' files are read from
//!   there, so each revision runs its own studies);
//! - `bin/<key>/contact-harness`: the revision's binary. `key` is a hash of
//!   the git objects of what the binary is built from (`src`, `Cargo.toml`,
//!   `Cargo.lock`, `build.rs`), so commits that change only documents,
//!   specs or results share one build;
//! - `target`: one cargo target directory shared by the revisions' builds
//!   (dev profile, like `cargo run`). Each worktree is a package of its own
//!   path, so cargo keeps each revision's crate apart in it and only the
//!   dependencies are shared. It starts as a copy of the dependencies of
//!   the running binary's target directory, so that a second revision
//!   compiles only the crate (about 1-2 min on 2 cores), not polars & co.
//!
//! The working tree (HEAD left out) is built in place with `cargo build`.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::error::CompareError;

/// The binary's name.
const BINARY: &str = "contact-harness";

/// The paths a binary is built from (those that exist in a commit).
const BUILD_INPUTS: [&str; 4] = ["src", "Cargo.toml", "Cargo.lock", "build.rs"];

/// A revision to measure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revision {
    /// As the user named it (`main`, `HEAD~3`, ...; `working tree`).
    pub name: String,
    /// The commit, None for the working tree.
    pub commit: Option<String>,
}

impl Revision {
    /// The commit's first 10 hex digits, or `working tree`.
    pub fn short(&self) -> String {
        match &self.commit {
            Some(c) => c.chars().take(10).collect(),
            None => "working tree".to_string(),
        }
    }
}

/// A built revision: its binary and the directory it runs in.
#[derive(Debug, Clone)]
pub struct Built {
    /// The revision.
    pub revision: Revision,
    /// Its binary.
    pub binary: PathBuf,
    /// Its tree (the working directory of its runs).
    pub root: PathBuf,
    /// Where its kernel counts are kept (`target/compare/counts/<key>`):
    /// the same binary gives the same counts, so a revision counted once
    /// (by compare or bisect) is not counted again. None for the working
    /// tree, which may change between calls.
    pub counts: Option<PathBuf>,
}

/// Runs git in `repo`; its trimmed stdout, or the error with git's words.
pub fn git(repo: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(args)
        .output()
        .map_err(|e| format!("git could not be started: {e}"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
    } else {
        Err(format!(
            "git {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// The top directory of the git repository around `dir`.
pub fn repository(dir: &Path) -> Result<PathBuf, CompareError> {
    git(dir, &["rev-parse", "--show-toplevel"])
        .map(PathBuf::from)
        .map_err(|e| {
            CompareError::Input(format!(
                "{}: not inside a git repository ({e}); compare and bisect build git revisions",
                dir.display()
            ))
        })
}

/// Resolves `name` to its commit in `repo` (None: the working tree).
pub fn resolve(repo: &Path, name: Option<&str>) -> Result<Revision, CompareError> {
    let Some(name) = name else {
        return Ok(Revision {
            name: "working tree".to_string(),
            commit: None,
        });
    };
    let commit = git(
        repo,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{name}^{{commit}}"),
        ],
    )
    .map_err(|_| {
        CompareError::Input(format!(
            "revision `{name}`: not a commit of the repository at {} (a branch, tag, hash or \
             HEAD~N is expected)",
            repo.display()
        ))
    })?;
    Ok(Revision {
        name: name.to_string(),
        commit: Some(commit),
    })
}

/// The build key of `commit` (module doc): the git object ids of its build
/// inputs, hashed by git.
pub fn build_key(repo: &Path, commit: &str) -> Result<String, CompareError> {
    let mut listing = String::new();
    for path in BUILD_INPUTS {
        if let Ok(id) = git(
            repo,
            &[
                "rev-parse",
                "--verify",
                "--quiet",
                &format!("{commit}:{path}"),
            ],
        ) {
            listing.push_str(&format!("{path} {id}\n"));
        }
    }
    let mut child = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["hash-object", "--stdin"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| CompareError::Input(format!("git could not be started: {e}")))?;
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("piped stdin");
        stdin
            .write_all(listing.as_bytes())
            .map_err(|e| CompareError::Input(format!("git hash-object: {e}")))?;
    }
    let out = child
        .wait_with_output()
        .map_err(|e| CompareError::Input(format!("git hash-object: {e}")))?;
    let hash = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if !out.status.success() || hash.len() < 16 {
        return Err(CompareError::Input(format!(
            "git hash-object of {commit}'s build inputs failed"
        )));
    }
    Ok(hash[..16].to_string())
}

/// The cache directory of comparisons in `repo`.
pub fn cache_dir(repo: &Path) -> PathBuf {
    repo.join("target").join("compare")
}

/// Checks out and builds `revision` (cached: see the module doc). Progress
/// goes to stderr.
pub fn build(repo: &Path, revision: &Revision) -> Result<Built, CompareError> {
    let Some(commit) = &revision.commit else {
        return build_working_tree(repo, revision);
    };
    let cache = cache_dir(repo);
    let root = checkout(repo, &cache.join("worktrees").join(commit), commit)?;
    let key = build_key(repo, commit)?;
    let binary = cache.join("bin").join(&key).join(BINARY);
    if binary.is_file() {
        eprintln!(
            "{} ({}): built before ({})",
            revision.name,
            revision.short(),
            binary.display()
        );
        return Ok(Built {
            revision: revision.clone(),
            binary,
            root,
            counts: Some(cache.join("counts").join(&key)),
        });
    }
    let target = cache.join("target");
    seed_target(&target);
    eprintln!(
        "{} ({}): building in {} ...",
        revision.name,
        revision.short(),
        root.display()
    );
    let watch = std::time::Instant::now();
    cargo_build(&root, Some(&target), revision)?;
    let built = target.join("debug").join(BINARY);
    let dir = binary.parent().expect("bin/<key>");
    std::fs::create_dir_all(dir)
        .map_err(|e| CompareError::Input(format!("{}: {e}", dir.display())))?;
    let tmp = dir.join(format!(".{BINARY}.tmp-{}", std::process::id()));
    std::fs::copy(&built, &tmp)
        .and_then(|_| std::fs::rename(&tmp, &binary))
        .map_err(|e| {
            CompareError::Input(format!("{} -> {}: {e}", built.display(), binary.display()))
        })?;
    eprintln!(
        "{} ({}): built in {:.0} s",
        revision.name,
        revision.short(),
        watch.elapsed().as_secs_f64()
    );
    Ok(Built {
        revision: revision.clone(),
        binary,
        root,
        counts: Some(cache.join("counts").join(&key)),
    })
}

/// The working tree, built in place.
fn build_working_tree(repo: &Path, revision: &Revision) -> Result<Built, CompareError> {
    eprintln!("working tree: cargo build in {} ...", repo.display());
    cargo_build(repo, None, revision)?;
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map(|t| if t.is_absolute() { t } else { repo.join(t) })
        .unwrap_or_else(|| repo.join("target"));
    Ok(Built {
        revision: revision.clone(),
        binary: target.join("debug").join(BINARY),
        root: repo.to_path_buf(),
        counts: None,
    })
}

/// `cargo build --bin contact-harness` in `dir` (dev profile), into
/// `target` when given.
fn cargo_build(dir: &Path, target: Option<&Path>, revision: &Revision) -> Result<(), CompareError> {
    let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cmd.current_dir(dir)
        .args(["build", "--quiet", "--bin", BINARY]);
    if let Some(t) = target {
        cmd.env("CARGO_TARGET_DIR", t);
    }
    let out = cmd
        .output()
        .map_err(|e| CompareError::Input(format!("cargo could not be started: {e}")))?;
    if out.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let tail: Vec<&str> = stderr.lines().rev().take(30).collect();
    Err(CompareError::Input(format!(
        "revision {} ({}) does not build:\n{}",
        revision.name,
        revision.short(),
        tail.into_iter().rev().collect::<Vec<_>>().join("\n")
    )))
}

/// A detached worktree of `commit` at `dir` (reused when it is already
/// there at that commit).
fn checkout(repo: &Path, dir: &Path, commit: &str) -> Result<PathBuf, CompareError> {
    if dir.is_dir() && git(dir, &["rev-parse", "HEAD"]).as_deref() == Ok(commit) {
        return Ok(dir.to_path_buf());
    }
    if dir.exists() {
        let _ = git(
            repo,
            &["worktree", "remove", "--force", &dir.to_string_lossy()],
        );
        let _ = std::fs::remove_dir_all(dir);
    }
    let _ = git(repo, &["worktree", "prune"]);
    git(
        repo,
        &[
            "worktree",
            "add",
            "--detach",
            "--force",
            &dir.to_string_lossy(),
            commit,
        ],
    )
    .map_err(|e| CompareError::Input(format!("checking out {commit}: {e}")))?;
    Ok(dir.to_path_buf())
}

/// Seeds the shared target directory `target` with the dependencies of the
/// running binary's target directory (when `target` has no build yet and
/// the running binary sits in `<dir>/debug/`): `.fingerprint`, `build` and
/// the dependencies' libraries in `deps`, the crate's own files left out.
/// A seed that fails only costs a full build.
fn seed_target(target: &Path) {
    let to = target.join("debug");
    if to.exists() {
        return;
    }
    let Some(from) = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(Path::to_path_buf))
        .filter(|d| d.file_name().is_some_and(|n| n == "debug") && d.join("deps").is_dir())
    else {
        return;
    };
    eprintln!(
        "seeding {} with the dependencies built in {} ...",
        to.display(),
        from.display()
    );
    let own = |name: &str| {
        name.starts_with("contact_harness")
            || name.starts_with("libcontact_harness")
            || name.starts_with("contact-harness")
    };
    let result = (|| -> std::io::Result<()> {
        for dir in [".fingerprint", "build"] {
            copy_tree(&from.join(dir), &to.join(dir), &|n: &str| !own(n))?;
        }
        copy_tree(&from.join("deps"), &to.join("deps"), &|n: &str| {
            !own(n) && (n.starts_with("lib") || n.ends_with(".d"))
        })
    })();
    if let Err(e) = result {
        eprintln!(
            "note: seeding {} failed ({e}); the build starts from scratch",
            to.display()
        );
        let _ = std::fs::remove_dir_all(&to);
    }
}

/// Copies the entries of `from` whose names `keep` accepts into `to`,
/// recursively, keeping modification times (cargo's freshness).
fn copy_tree(from: &Path, to: &Path, keep: &dyn Fn(&str) -> bool) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().to_string();
        if !keep(&name) {
            continue;
        }
        let (src, dst) = (entry.path(), to.join(&name));
        let meta = entry.metadata()?;
        if meta.is_dir() {
            copy_tree(&src, &dst, &|_: &str| true)?;
        } else {
            std::fs::copy(&src, &dst)?;
            let file = std::fs::File::options().write(true).open(&dst)?;
            file.set_modified(meta.modified()?)?;
        }
    }
    Ok(())
}
