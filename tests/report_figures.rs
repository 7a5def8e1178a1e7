//! Classes of figure defects (issue 20) checked on the committed report's
//! SVGs, so that a defect the renderer or a study reintroduces fails here:
//! - a log axis over a fraction of a decade reads the same number on two
//!   ticks (class 2: the renderer draws such an axis linear);
//! - a journal orbit drawn with unequal axis scales, its clearance circle
//!   an ellipse (class 4: the orbit's vertical axis takes the horizontal
//!   one's pixels per unit).

#[path = "common/svg.rs"]
mod svg;

use svg::{SvgText, figures, texts};

/// The tick labels of each axis: the y axis' are right-aligned and centred
/// on their tick, the x axis' centred below it on one baseline.
fn tick_labels(svg: &str) -> (Vec<String>, Vec<String>) {
    let all = texts(svg);
    let y: Vec<String> = all
        .iter()
        .filter(|t| t.anchor == "end" && t.dy == "0.5ex")
        .map(|t| t.body.clone())
        .collect();
    let below: Vec<&SvgText> = all
        .iter()
        .filter(|t| t.anchor == "middle" && t.dy == "0.76em")
        .collect();
    // The x ticks share the most common baseline of centred text.
    let mut baselines: Vec<&str> = below.iter().map(|t| t.y.as_str()).collect();
    baselines.sort();
    let common = baselines
        .chunk_by(|a, b| a == b)
        .max_by_key(|c| c.len())
        .and_then(|c| c.first().copied());
    let x = below
        .iter()
        .filter(|t| {
            Some(t.y.as_str()) == common && baselines.iter().filter(|b| **b == t.y).count() > 1
        })
        .map(|t| t.body.clone())
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
    let mut bad = Vec::new();
    for (name, svg) in figures() {
        let (x, y) = tick_labels(&svg);
        for (axis, labels) in [("x", x), ("y", y)] {
            let twice = repeated(&labels);
            if !twice.is_empty() {
                bad.push(format!("{name} ({axis} ticks {labels:?} repeat {twice:?})"));
            }
        }
    }
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

/// Pixels per unit of each axis from its first and last numeric tick
/// label (x: the `x` attribute of the labels below the plot; y: the `y`
/// attribute of the right-aligned ones).
fn pixels_per_unit(svg: &str) -> Option<(f64, f64)> {
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    for t in texts(svg) {
        let Ok(value) = t.body.parse::<f64>() else {
            continue;
        };
        if t.anchor == "end" && t.dy == "0.5ex" {
            ys.push((t.y.parse().ok()?, value));
        } else if t.anchor == "middle" && t.dy == "0.76em" {
            xs.push((t.x.parse().ok()?, value));
        }
    }
    let scale = |v: &[(f64, f64)]| -> Option<f64> {
        let (a, b) = (v.first()?, v.last()?);
        (b.1 != a.1).then(|| ((b.0 - a.0) / (b.1 - a.1)).abs())
    };
    Some((scale(&xs)?, scale(&ys)?))
}

#[test]
fn journal_orbits_of_the_committed_report_have_equal_axis_scales() {
    let mut bad = Vec::new();
    let mut read = 0;
    for (name, svg) in figures() {
        if !name.contains("journal-orbit") {
            continue;
        }
        read += 1;
        match pixels_per_unit(&svg) {
            Some((px, py)) if (px / py - 1.0).abs() <= 0.015 => {}
            Some((px, py)) => bad.push(format!(
                "{name}: {px:.1} px per unit along x, {py:.1} along y"
            )),
            None => bad.push(format!("{name}: no numeric ticks on both axes")),
        }
    }
    assert!(read > 0, "no journal-orbit figure in the committed report");
    assert!(
        bad.is_empty(),
        "orbits with unequal scales:\n{}",
        bad.join("\n")
    );
}

/// The detector finds the defect: 100 px per unit along x, 40 along y.
#[test]
fn unequal_axis_scales_are_found() {
    let tick = |anchor: &str, dy: &str, x: u32, y: u32, body: &str| {
        format!(
            "<text x=\"{x}\" y=\"{y}\" dy=\"{dy}\" text-anchor=\"{anchor}\" font-size=\"9.6\">\n{body}\n</text>"
        )
    };
    let svg = [
        tick("end", "0.5ex", 80, 400, "-1"),
        tick("end", "0.5ex", 80, 320, "1"),
        tick("middle", "0.76em", 200, 450, "-1"),
        tick("middle", "0.76em", 400, 450, "1"),
    ]
    .concat();
    assert_eq!(pixels_per_unit(&svg), Some((100.0, 40.0)));
}
