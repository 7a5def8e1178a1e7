//! Classes of figure defects of issue 20 checked on the committed report's
//! SVGs (report/figures) and page (report/index.html), each with a test
//! that feeds the defect to its detector:
//! - class 5, aliasing: a slider-crank figure against the crank angle draws
//!   the peak its study reports (the table of peaks) within 3 %;
//! - class 4, chords: no segment of a journal orbit is longer than 0.2
//!   clearance units (a chord across the clearance circle between sparse
//!   samples);
//! - class 3, references: every crank-torque figure draws a dashed
//!   reference, and no dashed reference lies under a later solid curve
//!   that covers it;
//! - class 6: the free crank's energy and drift figures are in the report;
//! - class 7, legibility: every text is at least 10 px as the page shows
//!   it (display width from the page's CSS), lies inside its figure
//!   (width estimated as 0.6 em per character), error bars end inside the
//!   plot, and no slider-crank legend is a raw case id.

#[path = "common/svg.rs"]
mod svg;

use svg::{attr, elements, figures, num, report};

/// The viewBox's width and height.
fn view_box(svg: &str) -> (f64, f64) {
    let tag = svg.split("<svg").nth(1).and_then(|t| t.split('>').next());
    let v: Vec<f64> = tag
        .and_then(|t| attr(t, "viewBox"))
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|v| v.parse().ok())
        .collect();
    match v[..] {
        [_, _, w, h] => (w, h),
        _ => (f64::NAN, f64::NAN),
    }
}

fn points(tag: &str) -> Vec<(f64, f64)> {
    attr(tag, "points")
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|p| {
            let (a, b) = p.split_once(',')?;
            Some((a.parse().ok()?, b.parse().ok()?))
        })
        .collect()
}

/// The curves of a figure (the renderer's sub-pixel polylines): (dashed,
/// points), in drawing order.
fn curves(svg: &str) -> Vec<(bool, Vec<(f64, f64)>)> {
    elements(svg, "polyline")
        .into_iter()
        .filter(|(tag, _)| tag.contains("stroke-linejoin=\"round\""))
        // The light band under a dashed reference is no curve.
        .filter(|(tag, _)| num(tag, "stroke-width").is_some_and(|w| w <= 3.0))
        .map(|(tag, _)| (tag.contains("stroke-dasharray"), points(tag)))
        .collect()
}

/// The linear map from pixel to value of an axis, from its numeric tick
/// labels: y (right-aligned labels), x (centred labels below the plot).
fn axis_map(svg: &str, vertical: bool) -> Option<(f64, f64)> {
    let mut ticks: Vec<(f64, f64)> = Vec::new();
    for (tag, body) in elements(svg, "text") {
        let Ok(value) = body.parse::<f64>() else {
            continue;
        };
        let end = tag.contains("text-anchor=\"end\"") && tag.contains("dy=\"0.5ex\"");
        let below = tag.contains("text-anchor=\"middle\"") && tag.contains("dy=\"0.76em\"");
        if vertical && end {
            ticks.push((num(tag, "y")?, value));
        } else if !vertical && below && !tag.contains("rotate") {
            ticks.push((num(tag, "x")?, value));
        }
    }
    let (a, b) = (ticks.first()?, ticks.last()?);
    (a.0 != b.0).then(|| {
        let slope = (b.1 - a.1) / (b.0 - a.0);
        (slope, a.1 - slope * a.0)
    })
}

/// The largest |value| a figure's solid curves draw.
fn drawn_extreme(svg: &str) -> Option<f64> {
    let (slope, offset) = axis_map(svg, true)?;
    curves(svg)
        .into_iter()
        .filter(|(dashed, _)| !dashed)
        .flat_map(|(_, p)| p)
        .map(|(_, py)| (slope * py + offset).abs())
        .reduce(f64::max)
}

/// The rows `(quantity, group, value)` of the study results of `study` in
/// the page (its section: from its `<h2>` to the next).
fn study_rows(html: &str, study: &str) -> Vec<(String, String, f64)> {
    let Some(start) = html.find(&format!("<h2 id=\"{study}\"")) else {
        return Vec::new();
    };
    let section = &html[start..];
    let section = &section[..section[4..].find("<h2").map_or(section.len(), |e| e + 4)];
    let strip = |c: &str| {
        let mut out = String::new();
        let mut inside = false;
        for ch in c.chars() {
            match ch {
                '<' => inside = true,
                '>' => inside = false,
                _ if !inside => out.push(ch),
                _ => {}
            }
        }
        out.trim().to_string()
    };
    section
        .split("<tr>")
        .skip(1)
        .filter_map(|row| {
            let cells: Vec<String> = row
                .split("<td")
                .skip(1)
                .map(|c| strip(&format!("<td{c}")))
                .collect();
            match &cells[..] {
                [q, _, g, v, ..] => Some((q.clone(), g.clone(), v.parse().ok()?)),
                _ => None,
            }
        })
        .collect()
}

/// Class 5 on one figure: its drawn extreme against the study's peak of
/// `quantity` over the groups whose name contains `filter` (the last
/// revolution's peak when the study reports it, else the whole run's).
fn peak_mismatch(
    svg: &str,
    rows: &[(String, String, f64)],
    quantity: &str,
    filter: &str,
) -> Option<String> {
    let peak = |name: &str| {
        rows.iter()
            .filter(|(q, g, _)| q == name && g.contains(filter))
            .map(|r| r.2)
            .reduce(f64::max)
    };
    let window = format!("last_revolution_peak_{quantity}");
    let whole = format!("peak_{quantity}");
    let (name, expected) = match (peak(&window), peak(&whole)) {
        (Some(v), _) => (window, v),
        (None, Some(v)) => (whole, v),
        (None, None) => return None,
    };
    match drawn_extreme(svg) {
        Some(d) if (d - expected).abs() <= 0.03 * expected.abs() => None,
        Some(d) => Some(format!(
            "draws at most {d:.4e}, the study reports {name} = {expected:.4e}"
        )),
        None => Some("no numeric y ticks or no curve".into()),
    }
}

#[test]
fn crank_angle_figures_draw_the_peaks_their_study_reports() {
    let html = std::fs::read_to_string(report().join("index.html")).expect("index.html");
    let mut bad = Vec::new();
    let mut compared = 0;
    for (name, svg) in figures() {
        let Some(stem) = name.strip_suffix(".svg") else {
            continue;
        };
        for (column, quantity) in [
            ("-slider-a", "slider_a"),
            ("-crank-torque", "torque"),
            ("-contact-force", "contact_force"),
        ] {
            let Some((study, rest)) = stem.split_once(column) else {
                continue;
            };
            if !study.starts_with("slider-crank")
                || !(rest.is_empty() || rest.starts_with("-omega-"))
            {
                continue;
            }
            let rows = study_rows(&html, study);
            let filter = rest.strip_prefix('-').unwrap_or("");
            if let Some(why) = peak_mismatch(&svg, &rows, quantity, filter) {
                bad.push(format!("{name}: {why}"));
            }
            compared +=
                rows.iter()
                    .any(|r| r.0.ends_with(&format!("peak_{quantity}"))) as usize;
        }
    }
    assert!(
        compared >= 6,
        "only {compared} figures with a reported peak"
    );
    assert!(
        bad.is_empty(),
        "figures that miss their peak:\n{}",
        bad.join("\n")
    );
}

/// A figure of a spike sampled away: the curve reaches 100, the study
/// reports 3100 (the committed Fig. of the crank torque).
fn figure_svg(curve: &[(f64, f64)], dashed: bool) -> String {
    let pts: String = curve.iter().map(|(x, y)| format!("{x},{y} ")).collect();
    let dash = if dashed {
        " stroke-dasharray=\"8 5\""
    } else {
        ""
    };
    format!(
        "<svg width=\"820\" height=\"500\" viewBox=\"0 0 820 500\">\
<text x=\"80\" y=\"400\" dy=\"0.5ex\" text-anchor=\"end\" font-size=\"10.5\">0</text>\
<text x=\"80\" y=\"100\" dy=\"0.5ex\" text-anchor=\"end\" font-size=\"10.5\">3000</text>\
<text x=\"100\" y=\"450\" dy=\"0.76em\" text-anchor=\"middle\" font-size=\"10.5\">0</text>\
<text x=\"700\" y=\"450\" dy=\"0.76em\" text-anchor=\"middle\" font-size=\"10.5\">2</text>\
<polyline fill=\"none\" stroke=\"#0072B2\" stroke-width=\"2\"{dash} stroke-linejoin=\"round\" points=\"{pts}\"/></svg>"
    )
}

#[test]
fn a_sampled_away_peak_is_found() {
    let rows = vec![
        (
            "peak_torque".to_string(),
            "omega-523.6_c-0.00005".to_string(),
            3100.0,
        ),
        (
            "peak_torque".to_string(),
            "omega-209.44_c-0.00005".to_string(),
            9000.0,
        ),
    ];
    // 100 N m drawn at pixel 390: 3000 N m is pixel 100.
    let low = figure_svg(&[(100.0, 400.0), (300.0, 390.0), (700.0, 400.0)], false);
    let why = peak_mismatch(&low, &rows, "torque", "omega-523.6").expect("found");
    assert!(why.contains("3.1000e3"), "{why}");
    let full = figure_svg(&[(100.0, 400.0), (300.0, 90.0), (700.0, 400.0)], false);
    assert_eq!(peak_mismatch(&full, &rows, "torque", "omega-523.6"), None);
    // A dashed reference is not the case's curve.
    let dashed = figure_svg(&[(300.0, 90.0)], true).replace("</svg>", "")
        + &figure_svg(&[(1.0, 400.0), (2.0, 390.0)], false)[..];
    assert!(drawn_extreme(&dashed).is_some_and(|v| v < 200.0));
}

/// Class 4: the longest segment of a figure's solid curves in units of the
/// x axis (the clearance, on an orbit with equal scales).
fn longest_segment(svg: &str) -> Option<f64> {
    let (slope, _) = axis_map(svg, false)?;
    curves(svg)
        .into_iter()
        .filter(|(dashed, _)| !dashed)
        .flat_map(|(_, p)| {
            p.windows(2)
                .map(|w| (w[1].0 - w[0].0).hypot(w[1].1 - w[0].1) * slope.abs())
                .collect::<Vec<f64>>()
        })
        .reduce(f64::max)
}

/// The longest chord an orbit may draw [clearance units].
const MAX_CHORD: f64 = 0.2;

#[test]
fn journal_orbits_draw_no_chords_across_the_clearance() {
    let mut bad = Vec::new();
    let mut read = 0;
    for (name, svg) in figures()
        .iter()
        .filter(|(n, _)| n.contains("journal-orbit"))
    {
        read += 1;
        match longest_segment(svg) {
            Some(l) if l <= MAX_CHORD => {}
            Some(l) => bad.push(format!("{name}: a segment of {l:.2} clearance units")),
            None => bad.push(format!("{name}: no x ticks or no curve")),
        }
    }
    assert!(read > 0, "no journal orbit in the report");
    assert!(
        bad.is_empty(),
        "orbits drawn with chords:\n{}",
        bad.join("\n")
    );
}

#[test]
fn a_chord_across_the_circle_is_found() {
    // x ticks 0 and 2 at 100 and 700 px: 300 px per unit.
    let chord = figure_svg(&[(100.0, 200.0), (400.0, 200.0)], false);
    assert!(longest_segment(&chord).is_some_and(|l| (l - 1.0).abs() < 1e-9));
    let dense: Vec<(f64, f64)> = (0..100)
        .map(|i| (100.0 + 3.0 * f64::from(i), 200.0))
        .collect();
    assert!(longest_segment(&figure_svg(&dense, false)).is_some_and(|l| l <= MAX_CHORD));
}

/// Class 3: the dashed curves hidden under a later solid curve: each of
/// their points within 1.5 px of it.
fn hidden_references(svg: &str) -> usize {
    let all = curves(svg);
    let near = |p: (f64, f64), line: &[(f64, f64)]| {
        line.windows(2).any(|w| {
            let (a, b) = (w[0], w[1]);
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let len2 = dx * dx + dy * dy;
            let t = if len2 > 0.0 {
                (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            (a.0 + t * dx - p.0).hypot(a.1 + t * dy - p.1) <= 1.5
        })
    };
    all.iter()
        .enumerate()
        .filter(|(i, (dashed, pts))| {
            *dashed
                && pts.len() >= 2
                && all[i + 1..]
                    .iter()
                    .any(|(d, line)| !d && line.len() >= 2 && pts.iter().all(|p| near(*p, line)))
        })
        .count()
}

#[test]
fn every_crank_torque_figure_draws_its_reference_and_none_is_hidden() {
    let mut bad = Vec::new();
    for (name, svg) in figures() {
        if name.starts_with("slider-crank")
            && name.contains("-crank-torque")
            && !curves(&svg).iter().any(|c| c.0)
        {
            bad.push(format!("{name}: no dashed reference"));
        }
        let hidden = hidden_references(&svg);
        if hidden > 0 {
            bad.push(format!(
                "{name}: {hidden} dashed reference(s) under a later solid curve"
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "references missing or hidden:\n{}",
        bad.join("\n")
    );
}

#[test]
fn a_reference_under_a_curve_is_found() {
    let line = [(100.0, 200.0), (400.0, 300.0), (700.0, 250.0)];
    let under = figure_svg(&line, true).replace("</svg>", "") + &figure_svg(&line, false);
    assert_eq!(hidden_references(&under), 1);
    let over = figure_svg(&line, false).replace("</svg>", "") + &figure_svg(&line, true);
    assert_eq!(hidden_references(&over), 0);
    let apart = figure_svg(&[(100.0, 210.0), (700.0, 260.0)], true).replace("</svg>", "")
        + &figure_svg(&line, false);
    assert_eq!(hidden_references(&apart), 0);
}

#[test]
fn the_free_crank_study_shows_its_energy_and_drift() {
    let html = std::fs::read_to_string(report().join("index.html")).expect("index.html");
    for stem in [
        "slider-crank-free-energy-error",
        "slider-crank-free-constraint-drift",
    ] {
        let file = format!("figures/{stem}.svg");
        assert!(html.contains(&file), "the page shows no {file}");
        assert!(report().join(&file).is_file(), "{file} is missing");
    }
}

/// The width [px] at which the page shows a figure `svg_width` wide: the
/// body's `max-width` of its CSS (images at most 100 % of it).
fn display_width(html: &str, svg_width: f64) -> f64 {
    let body = html
        .split("body{")
        .nth(1)
        .and_then(|r| r.split('}').next())
        .unwrap_or_default();
    let max = body
        .split("max-width:")
        .nth(1)
        .and_then(|r| r.split("px").next())
        .and_then(|v| v.trim().parse::<f64>().ok())
        .unwrap_or(f64::INFINITY);
    svg_width.min(max)
}

/// Class 7: texts below 10 px as shown, and texts leaving the figure.
fn text_defects(svg: &str, display: f64) -> Vec<String> {
    let (w, h) = view_box(svg);
    let scale = display / w;
    let mut out = Vec::new();
    for (tag, body) in elements(svg, "text") {
        let (Some(x), Some(y), Some(size)) = (num(tag, "x"), num(tag, "y"), num(tag, "font-size"))
        else {
            continue;
        };
        if body.is_empty() {
            continue;
        }
        if size * scale < 10.0 - 1e-9 {
            out.push(format!("`{body}` is {:.1} px as shown", size * scale));
        }
        let len = 0.6 * size * body.chars().count() as f64;
        let (lo, hi) = match attr(tag, "text-anchor").as_deref() {
            Some("middle") => (-len / 2.0, len / 2.0),
            Some("end") => (-len, 0.0),
            _ => (0.0, len),
        };
        let (along, limit) = if tag.contains("rotate(270") {
            (y, h)
        } else {
            (x, w)
        };
        // Rotated by 270 degrees the text runs upwards: its start is below.
        let (a, b) = if tag.contains("rotate(270") {
            (along - hi, along - lo)
        } else {
            (along + lo, along + hi)
        };
        if a < -0.5 || b > limit + 0.5 {
            out.push(format!(
                "`{}` runs from {a:.0} to {b:.0} px of 0..{limit:.0}",
                body.chars().take(40).collect::<String>()
            ));
        }
    }
    out
}

#[test]
fn every_text_is_legible_and_inside_its_figure_as_the_page_shows_it() {
    let html = std::fs::read_to_string(report().join("index.html")).expect("index.html");
    let mut bad = Vec::new();
    for (name, svg) in figures() {
        let display = display_width(&html, view_box(&svg).0);
        let defects = text_defects(&svg, display);
        if let Some(first) = defects.first() {
            bad.push(format!("{name} ({} texts): {first}", defects.len()));
        }
    }
    assert!(
        bad.is_empty(),
        "{} figures with text defects:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn small_or_clipped_text_is_found() {
    let text = |x: f64, y: f64, anchor: &str, size: f64, rotate: bool, body: &str| {
        let r = if rotate {
            format!(" transform=\"rotate(270, {x}, {y})\"")
        } else {
            String::new()
        };
        format!(
            "<text x=\"{x}\" y=\"{y}\" dy=\"0.76em\" text-anchor=\"{anchor}\" font-size=\"{size}\"{r}>\n{body}\n</text>"
        )
    };
    let svg =
        |t: &str| format!("<svg width=\"1440\" height=\"500\" viewBox=\"0 0 1440 500\">{t}</svg>");
    let html = "<style>body{font-family:x;max-width:1200px;margin:2em auto}</style>";
    let shown = display_width(html, 1440.0);
    assert_eq!(shown, 1200.0);
    // 9.68 px ticks at 1200 / 1440 are 8.1 px.
    let small = svg(&text(400.0, 200.0, "middle", 9.68, false, "0.5"));
    assert_eq!(text_defects(&small, shown).len(), 1);
    let fine = svg(&text(400.0, 200.0, "middle", 12.1, false, "0.5"));
    assert!(text_defects(&fine, shown).is_empty());
    // A 100-character rotated label centred on a 500 px high figure.
    let long = svg(&text(12.0, 250.0, "middle", 12.1, true, &"m".repeat(100)));
    assert_eq!(text_defects(&long, shown).len(), 1);
    let right = svg(&text(1430.0, 250.0, "start", 12.1, false, "0.004"));
    assert_eq!(text_defects(&right, shown).len(), 1);
}

/// Class 7: the error bars (thin coloured polylines) outside the plot's
/// grid.
fn bars_outside(svg: &str) -> usize {
    let mut grid = (
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    );
    for (tag, _) in elements(svg, "line") {
        if !(tag.contains("#EEEEEE") || tag.contains("#CCCCCC")) {
            continue;
        }
        if let (Some(x1), Some(x2), Some(y1), Some(y2)) = (
            num(tag, "x1"),
            num(tag, "x2"),
            num(tag, "y1"),
            num(tag, "y2"),
        ) {
            grid = (
                grid.0.min(x1.min(x2)),
                grid.1.max(x1.max(x2)),
                grid.2.min(y1.min(y2)),
                grid.3.max(y1.max(y2)),
            );
        }
    }
    if !grid.0.is_finite() {
        return 0;
    }
    elements(svg, "polyline")
        .into_iter()
        .filter(|(tag, _)| {
            num(tag, "stroke-width") == Some(1.0)
                && !tag.contains("stroke-linejoin")
                && !["#000000", "#999999", "#CCCCCC", "#EEEEEE"]
                    .iter()
                    .any(|c| tag.contains(c))
        })
        .filter(|(tag, _)| {
            points(tag).iter().any(|p| {
                p.0 < grid.0 - 1.0 || p.0 > grid.1 + 1.0 || p.1 < grid.2 - 1.0 || p.1 > grid.3 + 1.0
            })
        })
        .count()
}

#[test]
fn error_bars_end_inside_the_plot() {
    let bad: Vec<String> = figures()
        .into_iter()
        .filter_map(|(name, svg)| {
            let n = bars_outside(&svg);
            (n > 0).then(|| format!("{name}: {n} error bar(s) beyond the plot"))
        })
        .collect();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn an_error_bar_off_the_plot_is_found() {
    let grid = "<line stroke=\"#EEEEEE\" x1=\"100\" y1=\"40\" x2=\"100\" y2=\"440\"/><line stroke=\"#EEEEEE\" x1=\"100\" y1=\"440\" x2=\"800\" y2=\"440\"/>";
    let bar = |a: f64, b: f64| {
        format!(
            "<polyline fill=\"none\" stroke=\"#0072B2\" stroke-width=\"1\" points=\"{a},200 {b},200 \"/>"
        )
    };
    let svg = |b: &str| format!("<svg viewBox=\"0 0 820 500\">{grid}{b}</svg>");
    assert_eq!(bars_outside(&svg(&bar(50.0, 300.0))), 1);
    assert_eq!(bars_outside(&svg(&bar(150.0, 300.0))), 0);
}

/// Class 7: a slider-crank legend or title that is a raw case id
/// (`dt-0.00000625_tolerance-0.0000000001`, `omega-209.44_c-0.00005_mu-0`).
fn raw_case_ids(svg: &str) -> Vec<String> {
    elements(svg, "text")
        .into_iter()
        .map(|(_, body)| body)
        .filter(|body| body.split([',', ' ']).any(is_case_id))
        .map(str::to_string)
        .collect()
}

/// `key-value(_key-value)*` with numeric values (keys of letters and
/// underscores, e.g. `alpha_b--0.33`): a case name.
fn is_case_id(word: &str) -> bool {
    let pair = |p: &str| {
        p.split_once('-').is_some_and(|(k, v)| {
            !k.is_empty()
                && k.chars().all(|c| c.is_ascii_alphabetic() || c == '_')
                && v.parse::<f64>().is_ok()
        })
    };
    let mut pieces = Vec::new();
    let mut pending = String::new();
    for part in word.split('_') {
        if !pending.is_empty() {
            pending.push('_');
        }
        pending.push_str(part);
        if part.contains('-') {
            pieces.push(std::mem::take(&mut pending));
        }
    }
    pending.is_empty() && !pieces.is_empty() && pieces.iter().all(|p| pair(p))
}

#[test]
fn slider_crank_legends_name_swept_values_not_case_ids() {
    let bad: Vec<String> = figures()
        .into_iter()
        .filter(|(n, _)| n.starts_with("slider-crank"))
        .filter_map(|(name, svg)| {
            let ids = raw_case_ids(&svg);
            (!ids.is_empty()).then(|| format!("{name}: {ids:?}"))
        })
        .collect();
    assert!(bad.is_empty(), "legends with case ids:\n{}", bad.join("\n"));
}

#[test]
fn a_case_id_in_a_legend_is_found() {
    let svg =
        |body: &str| format!("<svg><text x=\"1\" y=\"1\" font-size=\"11\">\n{body}\n</text></svg>");
    assert_eq!(
        raw_case_ids(&svg("dt-0.00000625_tolerance-0.0000000001, rk4-eliminated")).len(),
        1
    );
    assert_eq!(raw_case_ids(&svg("omega-209.44_c-0.00005_mu-0")).len(), 1);
    assert_eq!(raw_case_ids(&svg("alpha_b--0.3333333333333333")).len(), 1);
    assert!(raw_case_ids(&svg("dt = 6.25 µs, tol = 1e-10, rk4-eliminated")).is_empty());
    assert!(raw_case_ids(&svg("c = 50 µm, µ = 0.1")).is_empty());
}
