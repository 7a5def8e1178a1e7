//! Length limits of the crate's code (ARCHITECTURE.md: a module does one
//! job): no file under `src/` over [`MAX_FILE`] lines and no function over
//! [`MAX_FN`] lines, except the functions of [`ALLOWED`], each with the
//! reason it reads better whole. Unit tests (`#[cfg(test)] mod ... { }`
//! blocks and `tests.rs` files) are not counted. The list stays true: an
//! entry whose function is gone or now within the limit fails too.
//!
//! A function's length runs from the line of its `fn` keyword to the line
//! of its closing brace. Braces are matched on the source with comments
//! (line, nested block), string literals (plain, byte, raw with any number
//! of `#`) and char literals blanked out, so a brace in a string or a
//! comment does not count; a lifetime (`'a`) is not a char literal.

use std::path::{Path, PathBuf};

/// The most lines a file may have.
const MAX_FILE: usize = 800;

/// The most lines a function may have.
const MAX_FN: usize = 120;

/// Functions allowed over [`MAX_FN`]: (file under `src/`, function name,
/// why it is still long). Entries that say "not split yet" are debts, each
/// with the split it wants; remove an entry when its function is split
/// (the test then fails until the list is updated).
const ALLOWED: &[(&str, &str, &str)] = &[];

/// A function over the limit: (file, name, lines).
type Long = (String, String, usize);

/// `src` with comments, string and char literals replaced by spaces
/// (newlines kept, so line numbers stay).
fn blank_literals(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let mut out: Vec<char> = Vec::with_capacity(c.len());
    let blank = |out: &mut Vec<char>, ch: char| out.push(if ch == '\n' { '\n' } else { ' ' });
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    let mut i = 0;
    while i < c.len() {
        let at = |k: usize| c.get(k).copied().unwrap_or('\0');
        let prev_ident = i > 0 && ident(c[i - 1]);
        if at(i) == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                blank(&mut out, c[i]);
                i += 1;
            }
        } else if at(i) == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            loop {
                if i >= c.len() {
                    break;
                }
                if at(i) == '/' && at(i + 1) == '*' {
                    depth += 1;
                    blank(&mut out, c[i]);
                    blank(&mut out, c[i + 1]);
                    i += 2;
                } else if at(i) == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    blank(&mut out, c[i]);
                    blank(&mut out, c[i + 1]);
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
        } else if !prev_ident && (at(i) == 'r' || (at(i) == 'b' && at(i + 1) == 'r')) && {
            let mut k = if at(i) == 'b' { i + 2 } else { i + 1 };
            while at(k) == '#' {
                k += 1;
            }
            at(k) == '"'
        } {
            // A raw string: r"..." or r#"..."# (b-prefixed alike).
            let start = if at(i) == 'b' { i + 2 } else { i + 1 };
            let mut k = start;
            while at(k) == '#' {
                k += 1;
            }
            let hashes = k - start;
            for &ch in &c[i..=k] {
                blank(&mut out, ch);
            }
            i = k + 1;
            while i < c.len() {
                if c[i] == '"' && (1..=hashes).all(|h| at(i + h) == '#') {
                    for &ch in &c[i..=i + hashes] {
                        blank(&mut out, ch);
                    }
                    i += hashes + 1;
                    break;
                }
                blank(&mut out, c[i]);
                i += 1;
            }
        } else if at(i) == '"' {
            blank(&mut out, c[i]);
            i += 1;
            while i < c.len() {
                if c[i] == '\\' {
                    blank(&mut out, c[i]);
                    if i + 1 < c.len() {
                        blank(&mut out, c[i + 1]);
                    }
                    i += 2;
                    continue;
                }
                let end = c[i] == '"';
                blank(&mut out, c[i]);
                i += 1;
                if end {
                    break;
                }
            }
        } else if at(i) == '\'' && (at(i + 1) == '\\' || (at(i + 1) != '\0' && at(i + 2) == '\'')) {
            // A char literal ('x', '\n', '\u{7f}', '\''); else a lifetime.
            let mut k = i + 1;
            if at(k) == '\\' {
                k += 2;
                while k < c.len() && c[k] != '\'' {
                    k += 1;
                }
            } else {
                k += 1;
            }
            for &ch in &c[i..=k.min(c.len() - 1)] {
                blank(&mut out, ch);
            }
            i = k + 1;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out.into_iter().collect()
}

/// The index of the brace closing the one at `open` in `code` (blanked).
fn closing(code: &[char], open: usize) -> usize {
    let mut depth = 0usize;
    for (k, &ch) in code.iter().enumerate().skip(open) {
        match ch {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    code.len() - 1
}

/// Whether `code[k..]` starts with `word` as a whole word.
fn word_at(code: &[char], k: usize, word: &str) -> bool {
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    let w: Vec<char> = word.chars().collect();
    code.len() >= k + w.len()
        && code[k..k + w.len()] == w[..]
        && (k == 0 || !ident(code[k - 1]))
        && code.get(k + w.len()).is_none_or(|&ch| !ident(ch))
}

/// `code` (blanked) with every `#[cfg(test)]` module's body blanked.
fn without_test_modules(code: &[char]) -> Vec<char> {
    let mut out = code.to_vec();
    let attr: Vec<char> = "#[cfg(test)]".chars().collect();
    let mut k = 0;
    while k + attr.len() <= code.len() {
        if code[k..k + attr.len()] != attr[..] {
            k += 1;
            continue;
        }
        // Past further attributes and a visibility, to `mod name {`.
        let mut j = k + attr.len();
        let skip_ws = |j: &mut usize| {
            while *j < code.len() && code[*j].is_whitespace() {
                *j += 1;
            }
        };
        skip_ws(&mut j);
        while j < code.len() && code[j] == '#' {
            while j < code.len() && code[j] != ']' {
                j += 1;
            }
            j += 1;
            skip_ws(&mut j);
        }
        if word_at(code, j, "pub") {
            j += 3;
            if code.get(j) == Some(&'(') {
                while j < code.len() && code[j] != ')' {
                    j += 1;
                }
                j += 1;
            }
            skip_ws(&mut j);
        }
        if word_at(code, j, "mod") {
            let open = (j..code.len()).find(|&m| code[m] == '{' || code[m] == ';');
            if let Some(open) = open.filter(|&m| code[m] == '{') {
                let close = closing(code, open);
                for ch in &mut out[open..=close] {
                    if *ch != '\n' {
                        *ch = ' ';
                    }
                }
                k = close;
            }
        }
        k += 1;
    }
    out
}

/// Every function of `src` (Rust source) over `max` lines, outside test
/// modules: (name, lines).
fn long_functions(src: &str, max: usize) -> Vec<(String, usize)> {
    let blanked: Vec<char> = blank_literals(src).chars().collect();
    let code = without_test_modules(&blanked);
    let line_of = |k: usize| code[..k].iter().filter(|&&ch| ch == '\n').count();
    let mut found = Vec::new();
    for k in 0..code.len() {
        if !word_at(&code, k, "fn") {
            continue;
        }
        let mut j = k + 2;
        while j < code.len() && code[j].is_whitespace() {
            j += 1;
        }
        let name: String = code[j..]
            .iter()
            .take_while(|ch| ch.is_alphanumeric() || **ch == '_')
            .collect();
        if name.is_empty() {
            continue; // a fn pointer type: fn(..) -> ..
        }
        let Some(open) = (j..code.len()).find(|&m| code[m] == '{' || code[m] == ';') else {
            continue;
        };
        if code[open] == ';' {
            continue; // a declaration without a body
        }
        let lines = line_of(closing(&code, open)) - line_of(k) + 1;
        if lines > max {
            found.push((name, lines));
        }
    }
    found
}

/// The `.rs` files under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("read src/") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// (files over [`MAX_FILE`] lines with their lengths, functions over
/// [`MAX_FN`] lines) under `root`, paths relative to it; `tests.rs` files
/// left out.
fn measure(root: &Path) -> (Vec<(String, usize)>, Vec<Long>) {
    let (mut files, mut fns) = (Vec::new(), Vec::new());
    for path in rust_files(root) {
        if path.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let rel = path
            .strip_prefix(root)
            .expect("under root")
            .to_string_lossy()
            .replace('\\', "/");
        let src = std::fs::read_to_string(&path).expect("read a source file");
        let lines = src.lines().count();
        if lines > MAX_FILE {
            files.push((rel.clone(), lines));
        }
        for (name, n) in long_functions(&src, MAX_FN) {
            fns.push((rel.clone(), name, n));
        }
    }
    (files, fns)
}

/// What breaks the limits given the allow-list: files too long, functions
/// too long and not allowed, and allow-list entries without a function
/// over the limit (gone, renamed or now short).
fn violations(
    files: &[(String, usize)],
    fns: &[Long],
    allowed: &[(&str, &str, &str)],
) -> Vec<String> {
    let mut out: Vec<String> = files
        .iter()
        .map(|(f, n)| format!("file src/{f}: {n} lines (at most {MAX_FILE})"))
        .collect();
    for (f, name, n) in fns {
        if !allowed.iter().any(|(af, an, _)| af == f && an == name) {
            out.push(format!(
                "fn {name} in src/{f}: {n} lines (at most {MAX_FN}; split it by concern, or allow it in tests/lengths.rs with the reason)"
            ));
        }
    }
    for (af, an, _) in allowed {
        if !fns.iter().any(|(f, name, _)| f == af && name == an) {
            out.push(format!(
                "allow-list entry {af}::{an} has no function over {MAX_FN} lines: remove it"
            ));
        }
    }
    out
}

#[test]
fn no_file_or_function_over_the_limits() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let (files, fns) = measure(&root);
    let bad = violations(&files, &fns, ALLOWED);
    assert!(bad.is_empty(), "length limits broken:\n{}", bad.join("\n"));
    for (_, _, why) in ALLOWED {
        assert!(
            !why.trim().is_empty(),
            "an allow-list entry without a reason"
        );
    }
}

/// A synthetic source: a 130-line function whose body holds braces in
/// strings, raw strings, chars and comments, a short function with a
/// lifetime, a fn pointer type, and a long function inside a test module.
fn synthetic() -> String {
    let mut s = String::from("/// Doc with a brace {\nfn long_one<'a>(x: &'a str) -> usize {\n");
    s.push_str("    let a = \"}\"; let b = '{'; let c = r#\"}\"#; // }\n");
    s.push_str("    /* nested /* } */ } */ let d = b'}'; let e = '\\'';\n");
    for _ in 0..125 {
        s.push_str("    let _ = 1;\n");
    }
    s.push_str("    0\n}\n"); // lines 2..=131: 130 lines
    s.push_str("fn short(f: fn(u8) -> u8) -> u8 {\n    f(1)\n}\n");
    s.push_str("#[cfg(test)]\nmod tests {\n    fn hidden() {\n");
    for _ in 0..200 {
        s.push_str("        let _ = 2;\n");
    }
    s.push_str("    }\n}\n");
    s
}

/// The checks find a planted long function (only it: braces in literals
/// and comments do not end or open one, test modules are skipped), a long
/// file, and a stale allow-list entry; an allowed function passes.
#[test]
fn a_long_function_and_a_long_file_are_found() {
    let fns = long_functions(&synthetic(), MAX_FN);
    assert_eq!(fns, vec![("long_one".to_string(), 130)]);
    assert!(long_functions(&synthetic(), 130).is_empty());

    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::create_dir_all(dir.path().join("m")).unwrap();
    std::fs::write(dir.path().join("m/long.rs"), "// x\n".repeat(MAX_FILE + 1)).unwrap();
    std::fs::write(dir.path().join("f.rs"), synthetic()).unwrap();
    std::fs::write(dir.path().join("m/tests.rs"), "// x\n".repeat(2 * MAX_FILE)).unwrap();
    let (files, fns) = measure(dir.path());
    assert_eq!(files, vec![("m/long.rs".to_string(), MAX_FILE + 1)]);
    assert_eq!(fns, vec![("f.rs".to_string(), "long_one".to_string(), 130)]);
    let bad = violations(&files, &fns, &[]);
    assert_eq!(bad.len(), 2, "{bad:?}");
    assert!(bad[0].contains("m/long.rs") && bad[1].contains("long_one"));
    let allowed = [("f.rs", "long_one", "reads as the paper's algorithm")];
    assert_eq!(violations(&[], &fns, &allowed), Vec::<String>::new());
    let stale = [("f.rs", "short", "was long once")];
    let bad = violations(&[], &fns, &stale);
    assert!(bad.iter().any(|b| b.contains("f.rs::short")), "{bad:?}");
}
