//! Classes of figure defects (issue 20) checked on the committed report's
//! SVGs, so that a defect the renderer or a study reintroduces fails here:
//! - a log axis over a fraction of a decade reads the same number on two
//!   ticks (class 2: the renderer draws such an axis linear).

use std::path::PathBuf;

/// `(anchor, dy, y, text)` of every `<text>` element of an SVG.
fn texts(svg: &str) -> Vec<(String, String, String, String)> {
    let attr = |tag: &str, name: &str| {
        tag.split(&format!(" {name}=\""))
            .nth(1)
            .and_then(|r| r.split('"').next())
            .unwrap_or_default()
            .to_string()
    };
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let (tag, rest) = t.split_once('>')?;
            let body = rest.split('<').next()?.trim().to_string();
            Some((
                attr(tag, "text-anchor"),
                attr(tag, "dy"),
                attr(tag, "y"),
                body,
            ))
        })
        .collect()
}

/// The tick labels of each axis: the y axis' are right-aligned and centred
/// on their tick, the x axis' centred below it on one baseline.
fn tick_labels(svg: &str) -> (Vec<String>, Vec<String>) {
    let all = texts(svg);
    let y: Vec<String> = all
        .iter()
        .filter(|(a, dy, _, _)| a == "end" && dy == "0.5ex")
        .map(|t| t.3.clone())
        .collect();
    let below: Vec<&(String, String, String, String)> = all
        .iter()
        .filter(|(a, dy, _, _)| a == "middle" && dy == "0.76em")
        .collect();
    // The x ticks share the most common baseline of centred text.
    let mut baselines: Vec<&str> = below.iter().map(|t| t.2.as_str()).collect();
    baselines.sort();
    let common = baselines
        .chunk_by(|a, b| a == b)
        .max_by_key(|c| c.len())
        .and_then(|c| c.first().copied());
    let x = below
        .iter()
        .filter(|t| {
            Some(t.2.as_str()) == common && baselines.iter().filter(|b| **b == t.2).count() > 1
        })
        .map(|t| t.3.clone())
        .collect();
    (x, y)
}

fn repeated(labels: &[String]) -> Vec<String> {
    let mut seen: Vec<&String> = Vec::new();
    let mut out = Vec::new();
    for l in labels.iter().filter(|l| !l.is_empty()) {
        if seen.contains(&l) {
            out.push(l.clone());
        }
        seen.push(l);
    }
    out
}

#[test]
fn no_axis_of_the_committed_report_reads_one_number_on_two_ticks() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("report/figures");
    let mut bad = Vec::new();
    let mut read = 0;
    for entry in std::fs::read_dir(&dir).expect("report/figures") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "svg") {
            continue;
        }
        let svg = std::fs::read_to_string(&path).expect("svg");
        read += 1;
        let (x, y) = tick_labels(&svg);
        for (axis, labels) in [("x", x), ("y", y)] {
            let twice = repeated(&labels);
            if !twice.is_empty() {
                bad.push(format!(
                    "{} ({axis} ticks {labels:?} repeat {twice:?})",
                    path.file_name().unwrap_or_default().to_string_lossy()
                ));
            }
        }
    }
    assert!(read > 10, "read only {read} figures");
    assert!(
        bad.is_empty(),
        "axes whose ticks read alike:\n{}",
        bad.join("\n")
    );
}

/// The detector finds the defect: two y ticks reading 1.53e5.
#[test]
fn repeated_tick_labels_are_found() {
    let tick = |anchor: &str, dy: &str, y: u32, body: &str| {
        format!(
            "<text x=\"80\" y=\"{y}\" dy=\"{dy}\" text-anchor=\"{anchor}\" font-size=\"9.6\">\n{body}\n</text>"
        )
    };
    let svg = [
        tick("end", "0.5ex", 100, "1.53e5"),
        tick("end", "0.5ex", 300, "1.53e5"),
        tick("middle", "0.76em", 450, "0"),
        tick("middle", "0.76em", 450, "1"),
        tick("middle", "0.76em", 17, "Title"),
    ]
    .concat();
    let (x, y) = tick_labels(&svg);
    assert_eq!(x, vec!["0".to_string(), "1".to_string()]);
    assert_eq!(repeated(&y), vec!["1.53e5".to_string()]);
    assert!(repeated(&x).is_empty());
}
