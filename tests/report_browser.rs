//! The report as a reader's browser shows it. Headless Chromium loads
//! `report/index.html` (the committed one and one generated here from two
//! small studies) at a window width of 1280 px, and the test fails on
//! (a) an image that did not load, (b) a link to an anchor no element
//! carries or to a relative file that does not exist, (c) a table (the box
//! it scrolls in, if any) or a figure wider than the page body, (d) a
//! table-of-contents entry (a link in `nav`, `.toc`, `#toc` or `#contents`)
//! without a target, (e) a table shown with the folds closed that scrolls
//! sideways in its box (issue 20, class 8: the columns a reader compares
//! are shown, the rest folded), (f) a page taller than [`MAX_PAGE_HEIGHT`]
//! with every fold closed (issue 20, class 9: a page a reviewer reads in
//! one sitting), (g) a claim not reproduced (a row of a claims table whose
//! verdict reads `not-reproduced`) that the first screen does not list, or
//! lists below the fold of a 1280 x 900 window (issue 32: the first screen
//! says what is not reproduced). `checks_can_fail` feeds a page with each
//! defect and asserts each is reported.
//!
//! How: the page is copied to a temporary directory with a `<base href>`
//! pointing at the original report directory (relative figure paths
//! resolve) and a script that runs the checks on `load` and writes them as
//! JSON into `<pre id="browser-check">`; `chromium --headless --dump-dom`
//! prints the resulting DOM (killed after 60 s). The committed page itself
//! stays script-free.
//!
//! Without a Chromium binary (`chromium`, `chromium-browser`,
//! `google-chrome` on PATH, or the path in `CHROMIUM`) the tests print a
//! notice to standard error and pass, unless `REQUIRE_BROWSER=1` (set by
//! `.ci/run`), which makes that a failure.

#![cfg(unix)]

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Deserialize;

/// Runs in the page on `load`; its JSON result is [`Findings`].
const CHECK_JS: &str = r#"
window.addEventListener('load', function () {
  var r = {broken_images: [], missing_anchors: [], toc_entries: 0, toc_missing: [],
           relative_links: [], too_wide: [], scrolls: [], body_width: 0, tables: 0, images: 0, page_height: 0,
           not_reproduced: 0, first_screen: 0, below_fold: [], error: null};
  try {
    var body = document.body, cs = getComputedStyle(body), br = body.getBoundingClientRect();
    var left = br.left + parseFloat(cs.paddingLeft) + parseFloat(cs.borderLeftWidth);
    var right = br.right - parseFloat(cs.paddingRight) - parseFloat(cs.borderRightWidth);
    r.body_width = right - left;
    function heading(el) {
      for (var p = el; p; p = p.parentElement)
        for (var q = p.previousElementSibling; q; q = q.previousElementSibling)
          if (/^H[1-6]$/.test(q.tagName)) return q.textContent;
      return '';
    }
    function describe(el) {
      var s = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '');
      if (el.tagName === 'IMG') return s + ' ' + el.getAttribute('src');
      return s + ' under "' + heading(el).slice(0, 80) + '"';
    }
    // The nearest ancestor inside the body that clips or scrolls
    // horizontally: a wide table inside it scrolls in its own box.
    function scroller(el) {
      for (var p = el.parentElement; p && p !== body; p = p.parentElement) {
        var o = getComputedStyle(p).overflowX;
        if (o === 'auto' || o === 'scroll' || o === 'hidden') return p;
      }
      return null;
    }
    function fits(el) {
      var box = scroller(el) || el, b = box.getBoundingClientRect();
      if (b.width === 0 && b.height === 0) return; // not rendered (closed <details>)
      if (b.left < left - 1 || b.right > right + 1)
        r.too_wide.push({what: describe(el), width: b.width, left: b.left - left});
      var folded = el.closest('details:not([open])') !== null;
      if (el.tagName === 'TABLE' && box !== el && !folded && box.scrollWidth > box.clientWidth + 1)
        r.scrolls.push({what: describe(el), width: box.scrollWidth, left: box.clientWidth});
    }
    var imgs = document.images;
    r.images = imgs.length;
    for (var i = 0; i < imgs.length; i++)
      if (!imgs[i].complete || imgs[i].naturalWidth === 0) r.broken_images.push(imgs[i].getAttribute('src'));
    var tables = document.querySelectorAll('table');
    r.tables = tables.length;
    for (var i = 0; i < tables.length; i++) fits(tables[i]);
    var figs = document.querySelectorAll('figure, img');
    for (var i = 0; i < figs.length; i++) fits(figs[i]);
    var toc = new Set(document.querySelectorAll('nav a[href], .toc a[href], #toc a[href], #contents a[href]'));
    var links = document.querySelectorAll('a[href]');
    for (var i = 0; i < links.length; i++) {
      var a = links[i], h = a.getAttribute('href');
      if (h.charAt(0) === '#') {
        var id = decodeURIComponent(h.slice(1));
        var ok = id === '' || id === 'top' || document.getElementById(id) !== null;
        if (toc.has(a)) { r.toc_entries++; if (!ok) r.toc_missing.push(h); }
        if (!ok) r.missing_anchors.push(h);
      } else if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(h) && h.charAt(0) !== '/') {
        r.relative_links.push(h);
      }
    }
    r.page_height = document.documentElement.scrollHeight;
    // (g) Claims not reproduced: rows of the claims tables (a header cell
    // "judged on") whose verdict cell reads not-reproduced; the first
    // screen's list follows the paragraph "Not reproduced (".
    var all_tables = document.querySelectorAll('table');
    for (var i = 0; i < all_tables.length; i++) {
      var heads = Array.prototype.map.call(all_tables[i].querySelectorAll('th'), function (h) { return h.textContent.trim(); });
      var col = heads.indexOf('verdict');
      if (heads.indexOf('judged on') < 0 || col < 0) continue;
      var trs = all_tables[i].querySelectorAll('tr');
      for (var k = 0; k < trs.length; k++) {
        var td = trs[k].querySelectorAll('td')[col];
        if (td && td.textContent.trim().indexOf('not-reproduced') === 0) r.not_reproduced++;
      }
    }
    var ps = document.querySelectorAll('p');
    for (var i = 0; i < ps.length; i++) {
      if (ps[i].textContent.trim().indexOf('Not reproduced (') !== 0) continue;
      var ul = ps[i].nextElementSibling;
      if (!ul || ul.tagName !== 'UL') continue;
      for (var k = 0; k < ul.children.length; k++) {
        r.first_screen++;
        var b = ul.children[k].getBoundingClientRect();
        if (b.bottom + window.scrollY > 900) r.below_fold.push(ul.children[k].textContent.slice(0, 80));
      }
      break;
    }
  } catch (e) { r.error = String(e); }
  var pre = document.createElement('pre');
  pre.id = 'browser-check';
  pre.textContent = JSON.stringify(r);
  document.body.appendChild(pre);
});
"#;

/// What the script in the page found.
#[derive(Debug, Deserialize)]
struct Findings {
    broken_images: Vec<String>,
    missing_anchors: Vec<String>,
    toc_entries: usize,
    toc_missing: Vec<String>,
    relative_links: Vec<String>,
    too_wide: Vec<Wide>,
    scrolls: Vec<Wide>,
    body_width: f64,
    tables: usize,
    images: usize,
    page_height: f64,
    not_reproduced: usize,
    first_screen: usize,
    below_fold: Vec<String>,
    error: Option<String>,
}

/// The tallest page at a 1280 px window with every fold closed (issue 20).
const MAX_PAGE_HEIGHT: f64 = 60_000.0;

/// A table or figure that does not fit the body.
#[derive(Debug, Deserialize)]
struct Wide {
    what: String,
    width: f64,
    left: f64,
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The Chromium binary, or `None` after a notice (a failure when
/// `REQUIRE_BROWSER=1`).
fn browser() -> Option<PathBuf> {
    let explicit = std::env::var_os("CHROMIUM").map(PathBuf::from);
    let on_path = [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ]
    .iter()
    .flat_map(|name| {
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
            .map(move |dir| dir.join(name))
            .collect::<Vec<_>>()
    })
    .chain([PathBuf::from("/usr/bin/chromium")]);
    if let Some(found) = explicit.into_iter().chain(on_path).find(|p| p.is_file()) {
        return Some(found);
    }
    assert!(
        std::env::var("REQUIRE_BROWSER").as_deref() != Ok("1"),
        "REQUIRE_BROWSER=1 but no Chromium binary was found (tried $CHROMIUM, chromium, \
         chromium-browser, google-chrome on PATH, /usr/bin/chromium): install Debian's \
         `chromium` package (apt-get install -y chromium) or set CHROMIUM=/path/to/chromium"
    );
    // Written to the stream itself, not through eprintln!, so that the
    // test harness does not capture it.
    let _ = writeln!(
        std::io::stderr(),
        "\n**********************************************************************\n\
         * report_browser: NO CHROMIUM FOUND: the report was NOT checked in a  *\n\
         * browser. Install it (apt-get install -y chromium) or set CHROMIUM; *\n\
         * REQUIRE_BROWSER=1 (as in CI) makes this a failure.                 *\n\
         **********************************************************************"
    );
    None
}

/// Undoes the escaping of a serialised text node.
fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&")
}

/// Loads `page` (an HTML file whose relative links point into its own
/// directory) in headless Chromium at 1280 x 900 and returns what the
/// check script found.
fn inspect(browser: &Path, page: &Path) -> Findings {
    let page = page
        .canonicalize()
        .unwrap_or_else(|e| panic!("{}: {e}", page.display()));
    let dir = page.parent().expect("page directory");
    let html = std::fs::read_to_string(&page).unwrap_or_else(|e| panic!("{}: {e}", page.display()));
    let head = html
        .find("<head>")
        .unwrap_or_else(|| panic!("{}: no <head>", page.display()))
        + "<head>".len();
    let end = html
        .find("</head>")
        .unwrap_or_else(|| panic!("{}: no </head>", page.display()));
    let probed = format!(
        "{}\n<base href=\"file://{}/\">{}<script>{CHECK_JS}</script>\n{}",
        &html[..head],
        dir.display(),
        &html[head..end],
        &html[end..]
    );
    let tmp = tempfile::tempdir().expect("tempdir");
    let probe = tmp.path().join("page.html");
    std::fs::write(&probe, probed).expect("write the probed page");
    let dom_path = tmp.path().join("dom.html");
    let err_path = tmp.path().join("stderr.txt");
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--allow-file-access-from-files",
            "--window-size=1280,900",
            "--virtual-time-budget=10000",
            "--dump-dom",
        ])
        .arg(format!(
            "--user-data-dir={}",
            tmp.path().join("profile").display()
        ))
        .arg(format!("file://{}", probe.display()))
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&dom_path).expect("dom file"))
        .stderr(std::fs::File::create(&err_path).expect("stderr file"))
        .process_group(0)
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", browser.display()));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for chromium") {
            break status;
        }
        if start.elapsed() > Duration::from_secs(60) {
            // The browser and the processes it started (its own group).
            // SAFETY: kill(2) with the negated id of the group spawned above.
            unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
            let _ = child.wait();
            panic!(
                "{}: Chromium did not finish within 60 s (killed)",
                page.display()
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let dom = std::fs::read_to_string(&dom_path).unwrap_or_default();
    let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
    let open = "<pre id=\"browser-check\">";
    let Some(at) = dom.find(open) else {
        let tail: String = stderr.lines().rev().take(15).collect::<Vec<_>>().join("\n");
        panic!(
            "{}: no check result in the DOM Chromium dumped (exit {status}; the page did not \
             finish loading, or the script failed); {} bytes of DOM; last lines of its \
             stderr (reversed):\n{tail}",
            page.display(),
            dom.len()
        );
    };
    let json = &dom[at + open.len()..];
    let json = &json[..json.find("</pre>").expect("end of the check result")];
    serde_json::from_str(&unescape(json))
        .unwrap_or_else(|e| panic!("{}: check result {json}: {e}", page.display()))
}

/// Every problem of `f` for the page in `dir`, one line each; relative
/// links are checked here against the files.
fn problems(f: &Findings, dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(e) = &f.error {
        out.push(format!("the check script failed: {e}"));
    }
    for src in &f.broken_images {
        out.push(format!("(a) broken image: {src}"));
    }
    for href in &f.missing_anchors {
        out.push(format!(
            "(b) link {href}: no element has id `{}`",
            &href[1..]
        ));
    }
    for href in &f.relative_links {
        let path = href.split(['#', '?']).next().unwrap_or("");
        if path.is_empty() {
            continue;
        }
        let path = path.replace("%20", " ");
        if !dir.join(&path).exists() {
            out.push(format!(
                "(b) link {href}: {} does not exist",
                dir.join(&path).display()
            ));
        }
    }
    for w in &f.too_wide {
        out.push(format!(
            "(c) {} is {:.0} px wide at x = {:.0} px: wider than the body ({:.0} px)",
            w.what, w.width, w.left, f.body_width
        ));
    }
    for href in &f.toc_missing {
        out.push(format!("(d) table-of-contents entry {href} has no target"));
    }
    for w in &f.scrolls {
        out.push(format!(
            "(e) {} scrolls sideways: {:.0} px of columns in a {:.0} px box",
            w.what, w.width, w.left
        ));
    }
    if f.first_screen != f.not_reproduced {
        out.push(format!(
            "(g) {} claim rows are not reproduced, the first screen lists {}",
            f.not_reproduced, f.first_screen
        ));
    }
    for item in &f.below_fold {
        out.push(format!(
            "(g) a claim not reproduced is listed below the first screen (900 px): {item}"
        ));
    }
    if f.page_height > MAX_PAGE_HEIGHT {
        out.push(format!(
            "(f) the page is {:.0} px tall at 1280 px with every fold closed: at most {MAX_PAGE_HEIGHT:.0}",
            f.page_height
        ));
    }
    out
}

/// Checks the report page `page`; `hint` is added to the failure message.
fn assert_page_passes(browser: &Path, page: &Path, hint: &str) {
    let f = inspect(browser, page);
    let dir = page.parent().expect("page directory");
    assert!(
        f.tables > 0 && f.images > 0,
        "{}: {} tables and {} images: the checks would be vacuous",
        page.display(),
        f.tables,
        f.images
    );
    let found = problems(&f, dir);
    assert!(
        found.is_empty(),
        "{}{hint}: {} problems in a browser (window 1280 px, body {:.0} px):\n{}",
        page.display(),
        found.len(),
        f.body_width,
        found.join("\n")
    );
}

#[test]
fn committed_report_passes_in_a_browser() {
    let Some(browser) = browser() else { return };
    let page = repo().join("report/index.html");
    assert!(page.is_file(), "{} is missing", page.display());
    assert_page_passes(
        &browser,
        &page,
        " (the committed report; if the renderer was fixed since it was made, \
         regenerate the report: cargo run -- experiments/all)",
    );
}

#[test]
fn fresh_report_passes_in_a_browser() {
    let Some(browser) = browser() else { return };
    let dir = tempfile::tempdir().expect("tempdir");
    let experiments = repo().join("experiments");
    let suite = format!(
        "include = [{:?}, {:?}]\n",
        experiments.join("sdof-gap.toml"),
        experiments.join("friction-laws.toml")
    );
    std::fs::write(dir.path().join("s.toml"), suite).expect("write suite");
    let out = Command::new(env!("CARGO_BIN_EXE_contact-harness"))
        .current_dir(dir.path())
        .args(["s.toml", "--out", "out", "--report", "rep"])
        .output()
        .expect("binary runs");
    let page = dir.path().join("rep/index.html");
    assert!(
        page.is_file(),
        "no report written (exit {:?}): {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_page_passes(&browser, &page, " (generated by this test)");
}

/// An SVG image of the given size.
fn svg(width: u32, height: u32) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\">\
         <rect width=\"{width}\" height=\"{height}\" fill=\"#ccc\"/></svg>"
    )
}

#[test]
fn checks_can_fail() {
    let Some(browser) = browser() else { return };
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(dir.path().join("figures")).expect("figures dir");
    std::fs::write(dir.path().join("figures/ok.svg"), svg(400, 200)).expect("svg");
    std::fs::write(dir.path().join("figures/wide.svg"), svg(3000, 200)).expect("svg");
    let long_token = "x".repeat(600);
    let page = format!(
        r##"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<style>body{{max-width:1200px;margin:2em auto;padding:0 1em}} .wrap{{overflow-x:auto;max-width:100%}}</style>
</head>
<body>
<nav><a href="#good">good</a> <a href="#toc-nowhere">missing</a></nav>
<div style="height:1000px">a header taller than the first screen</div>
<p><strong>Not reproduced (2 of 3 measures):</strong></p>
<ul><li>c1 (s, exact): listed, but below the fold</li></ul>
<h2 id="good">Good</h2>
<figure><img src="figures/ok.svg" alt="loads"></figure>
<figure><img src="figures/missing.svg" alt="does not load"></figure>
<p><a href="#nowhere">anchor</a> <a href="figures/ok.svg#x">file</a>
<a href="no-such-file.csv">missing file</a> <a href="https://example.org/">external</a></p>
<div class="wrap"><table id="wide-wrapped"><tr><td style="min-width:3000px">scrolls in its box</td></tr></table></div>
<details><summary>folded</summary><div class="wrap"><table id="wide-folded"><tr><td style="min-width:3000px">folded</td></tr></table></div></details>
<div><table id="wide-in-plain-div"><tr><td style="min-width:3000px">too wide</td></tr></table></div>
<table id="long-token"><tr><td><code>{long_token}</code></td></tr></table>
<figure id="wide-figure"><img src="figures/wide.svg" alt="wide"></figure>
<figure id="wide-box" style="width:3000px"><img src="figures/ok.svg" alt="in a wide box"></figure>
<details><summary>a tall fold, closed</summary><div style="height:100000px">not counted</div></details>
<table id="claims"><tr><th>claim</th><th>judged on</th><th>verdict</th></tr>
<tr><td>c1</td><td>exact</td><td>not-reproduced: a cause</td></tr>
<tr><td>c2</td><td>seed</td><td>not-reproduced (expected reproduced)</td></tr>
<tr><td>c3</td><td>seed</td><td>reproduced</td></tr></table>
<div style="height:61000px">taller than the limit</div>
</body>
</html>
"##
    );
    let path = dir.path().join("index.html");
    std::fs::write(&path, page).expect("write page");
    let f = inspect(&browser, &path);
    let found = problems(&f, dir.path());
    let all = found.join("\n");
    assert_eq!(f.error, None);
    assert_eq!((f.tables, f.images), (5, 4), "{f:?}");
    // (a)
    assert_eq!(f.broken_images, ["figures/missing.svg"], "{all}");
    // (b)
    assert_eq!(f.missing_anchors, ["#toc-nowhere", "#nowhere"], "{all}");
    assert!(all.contains("(b) link no-such-file.csv"), "{all}");
    assert!(!all.contains("figures/ok.svg#x"), "{all}");
    assert!(!all.contains("example.org"), "{all}");
    // (c)
    let wide: Vec<&str> = f.too_wide.iter().map(|w| w.what.as_str()).collect();
    for expected in [
        "table#wide-in-plain-div",
        "table#long-token",
        "img figures/wide.svg",
        "figure#wide-box",
    ] {
        assert!(
            wide.iter().any(|w| w.starts_with(expected)),
            "{expected} not reported as too wide: {wide:?}"
        );
    }
    assert!(
        !wide.iter().any(|w| w.contains("wide-wrapped")),
        "a table scrolling in its own box is not too wide: {wide:?}"
    );
    assert_eq!(wide.len(), 4, "{wide:?}");
    // (e)
    let scrolling: Vec<&str> = f.scrolls.iter().map(|w| w.what.as_str()).collect();
    assert_eq!(scrolling.len(), 1, "{scrolling:?}");
    assert!(
        scrolling[0].starts_with("table#wide-wrapped"),
        "{scrolling:?}"
    );
    // (d)
    assert_eq!(f.toc_entries, 2);
    assert_eq!(f.toc_missing, ["#toc-nowhere"], "{all}");
    assert!(
        all.contains("(d) table-of-contents entry #toc-nowhere"),
        "{all}"
    );
    // (f): the open 61,000 px block counts, the closed 100,000 px fold not.
    assert!(
        f.page_height > MAX_PAGE_HEIGHT && f.page_height < 70_000.0,
        "page {:.0} px",
        f.page_height
    );
    assert!(all.contains("(f) the page is"), "{all}");
    // (g): two rows not reproduced, one listed, and that one below the fold.
    assert_eq!((f.not_reproduced, f.first_screen), (2, 1), "{f:?}");
    assert!(
        all.contains("(g) 2 claim rows are not reproduced, the first screen lists 1"),
        "{all}"
    );
    assert!(
        all.contains("(g) a claim not reproduced is listed below"),
        "{all}"
    );
    assert!(
        (f.body_width - 1200.0).abs() < 1.0,
        "body {:.1} px",
        f.body_width
    );
}
