//! Classes of caption and legend defects of issue 20 checked on the
//! committed report's page (report/index.html) and figures
//! (report/figures), each with a test that feeds the defect to its
//! detector:
//! - class 1, captions say what the figure draws: every method of the
//!   study (its timings table) that a legend entry names is named by the
//!   figure's title or caption, so that a caption written for another
//!   figure ("for each friction law" over three integrators) fails;
//! - class 3, references promised are drawn: a caption that says a curve
//!   is dashed has a dashed curve, and one that names SciPy's Radau has a
//!   Radau curve in its legend;
//! - class 6, no figure shows what an earlier one showed: no two figures
//!   draw the same marks (an identical static spring curve in three
//!   studies is drawn once and named elsewhere);
//! - class 7, legibility: no two figures share a title; no template
//!   glitch ("method )"), no "um" for micrometres; every axis label states
//!   its unit in brackets.

use std::collections::HashMap;

#[path = "common/svg.rs"]
mod svg;

use svg::{report, texts, unescape};

/// A figure of the page: its study, SVG file, title and caption (text).
#[derive(Debug, Clone)]
struct PageFigure {
    study: String,
    file: String,
    title: String,
    caption: String,
}

/// The text of an HTML fragment without its tags.
fn strip_tags(s: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for c in s.chars() {
        match c {
            '<' => inside = true,
            '>' => inside = false,
            c if !inside => out.push(c),
            _ => {}
        }
    }
    unescape(&out)
}

/// The figures of a page, in order, each with the study section it is in.
fn page_figures(html: &str) -> Vec<PageFigure> {
    let mut out = Vec::new();
    let mut study = String::new();
    let mut rest = html;
    loop {
        let h2 = rest.find("<h2 id=\"");
        let fig = rest.find("<figure>");
        match (h2, fig) {
            (Some(h), f) if f.is_none_or(|f| h < f) => {
                let after = &rest[h + 8..];
                study = after.split('"').next().unwrap_or_default().to_string();
                rest = after;
            }
            (_, Some(f)) => {
                let after = &rest[f..];
                let end = after.find("</figure>").unwrap_or(after.len());
                let body = &after[..end];
                let file = body
                    .split("<img src=\"")
                    .nth(1)
                    .and_then(|r| r.split('"').next())
                    .unwrap_or_default();
                let title = body
                    .split(" alt=\"")
                    .nth(1)
                    .and_then(|r| r.split('"').next())
                    .unwrap_or_default();
                let caption = body
                    .split("<figcaption>")
                    .nth(1)
                    .and_then(|r| r.split("</figcaption>").next())
                    .unwrap_or_default();
                if !file.is_empty() {
                    out.push(PageFigure {
                        study: study.clone(),
                        file: file.to_string(),
                        title: unescape(title),
                        caption: strip_tags(caption),
                    });
                }
                rest = &after[end..];
            }
            _ => break,
        }
    }
    out
}

/// The legend entries: left-aligned text centred on its line.
fn legend(svg: &str) -> Vec<String> {
    texts(svg)
        .into_iter()
        .filter(|t| t.anchor == "start" && t.dy == "0.5ex")
        .map(|t| t.body)
        .collect()
}

/// The axis labels, each with its wrapped lines joined: the centred text
/// between the tick size and the title size, not rotated (x) and rotated
/// (y). A figure without such text has none.
fn axis_labels(svg: &str) -> Vec<String> {
    let all = texts(svg);
    let sizes: Vec<f64> = all.iter().map(|t| t.size).collect();
    let tick = sizes.iter().copied().fold(f64::INFINITY, f64::min);
    let title = sizes.iter().copied().fold(0.0, f64::max);
    let label = |rotated: bool| -> String {
        all.iter()
            .filter(|t| t.rotated == rotated && t.anchor == "middle")
            .filter(|t| t.size > tick + 0.5 && t.size < title - 0.5)
            .map(|t| t.body.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    };
    [label(false), label(true)]
        .into_iter()
        .filter(|l| !l.is_empty())
        .collect()
}

/// Axes of categories, not quantities: the history's commits.
const CATEGORY_AXES: [&str; 1] = ["commit (short hash)"];

/// The figure's marks: the SVG without its texts.
fn marks(svg: &str) -> String {
    let mut out = String::new();
    let mut rest = svg;
    while let Some(start) = rest.find("<text") {
        out.push_str(&rest[..start]);
        let end = rest[start..]
            .find("</text>")
            .map_or(rest.len(), |e| start + e + 7);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

fn committed() -> Vec<(PageFigure, String)> {
    let html = std::fs::read_to_string(report().join("index.html")).expect("report/index.html");
    let figures = page_figures(&html);
    assert!(figures.len() > 10, "read only {} figures", figures.len());
    figures
        .into_iter()
        .map(|f| {
            let svg = std::fs::read_to_string(report().join(&f.file))
                .unwrap_or_else(|e| panic!("{}: {e}", f.file));
            (f, svg)
        })
        .collect()
}

// ---------------------------------------------------------------- class 1

/// The methods of each study: the method column (`<td><code>m</code>`
/// after the case) of the tables under its "Timings" heading.
fn study_methods(html: &str) -> HashMap<String, Vec<String>> {
    let mut out = HashMap::new();
    for section in html.split("<h2 id=\"").skip(1) {
        let study = section.split('"').next().unwrap_or_default().to_string();
        let Some(timings) = section.split("<h3>Timings</h3>").nth(1) else {
            continue;
        };
        let mut methods: Vec<String> = Vec::new();
        for row in timings.split("<tr><td>").skip(1) {
            let Some(m) = row
                .split_once("</td><td><code>")
                .and_then(|(_, r)| r.split("</code>").next())
            else {
                continue;
            };
            let m = unescape(m);
            if !methods.contains(&m) {
                methods.push(m);
            }
        }
        out.insert(study, methods);
    }
    out
}

/// The methods of `methods` a legend entry of the figure names (a part
/// between `,`, `:`, `(`, `)` or `=`) and neither its title nor its caption
/// does: drawn but not described.
fn undescribed(f: &PageFigure, svg: &str, methods: &[String]) -> Vec<String> {
    let words = format!("{} {}", f.title, f.caption).to_lowercase();
    let mut out: Vec<String> = Vec::new();
    for entry in legend(svg) {
        for part in entry.split([',', ':', '(', ')', '=']).map(str::trim) {
            if methods.iter().any(|m| m == part)
                && !words.contains(&part.to_lowercase())
                && !out.iter().any(|o| o == part)
            {
                out.push(part.to_string());
            }
        }
    }
    out
}

#[test]
fn every_caption_names_the_methods_its_legend_draws() {
    let html = std::fs::read_to_string(report().join("index.html")).expect("report/index.html");
    let methods = study_methods(&html);
    assert!(methods.values().any(|m| m.len() > 2), "{methods:?}");
    let mut bad = Vec::new();
    for (f, svg) in committed() {
        let missing = undescribed(&f, &svg, methods.get(&f.study).map_or(&[], Vec::as_slice));
        if !missing.is_empty() {
            bad.push(format!("{} ({}): {missing:?}", f.file, f.title));
        }
    }
    assert!(
        bad.is_empty(),
        "{} figures draw methods their caption does not name:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

// ---------------------------------------------------------------- class 3

/// What a caption promises and the figure does not draw.
fn unkept_promises(f: &PageFigure, svg: &str) -> Vec<&'static str> {
    let mut out = Vec::new();
    if f.caption.contains("dashed") && !svg.contains("stroke-dasharray") {
        out.push("a dashed curve");
    }
    if f.caption.contains("Radau") && !legend(svg).iter().any(|l| l.contains("Radau")) {
        out.push("the Radau reference");
    }
    out
}

#[test]
fn every_reference_a_caption_promises_is_drawn() {
    let mut bad = Vec::new();
    for (f, svg) in committed() {
        let missing = unkept_promises(&f, &svg);
        if !missing.is_empty() {
            bad.push(format!("{}: {missing:?}", f.file));
        }
    }
    assert!(bad.is_empty(), "promised, not drawn:\n{}", bad.join("\n"));
}

// ---------------------------------------------------------------- class 6

/// Pairs of figures (later, earlier) that draw the same marks.
fn repeated_figures(figures: &[(PageFigure, String)]) -> Vec<(String, String)> {
    let mut seen: HashMap<String, &str> = HashMap::new();
    let mut out = Vec::new();
    for (f, svg) in figures {
        match seen.get(&marks(svg)) {
            Some(first) => out.push((f.file.clone(), first.to_string())),
            None => {
                seen.insert(marks(svg), &f.file);
            }
        }
    }
    out
}

#[test]
fn no_figure_draws_what_an_earlier_one_drew() {
    let repeats = repeated_figures(&committed());
    assert!(repeats.is_empty(), "drawn twice: {repeats:?}");
}

// ---------------------------------------------------------------- class 7

/// Titles shared by two figures.
fn shared_titles(figures: &[(PageFigure, String)]) -> Vec<String> {
    let mut count: HashMap<&str, Vec<&str>> = HashMap::new();
    for (f, _) in figures {
        count.entry(&f.title).or_default().push(&f.study);
    }
    let mut out: Vec<String> = count
        .into_iter()
        .filter(|(_, studies)| studies.len() > 1)
        .map(|(t, studies)| format!("{t:?} in {studies:?}"))
        .collect();
    out.sort();
    out
}

/// Template glitches and ASCII micro signs in a text.
fn glitches(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for empty in ["method )", "case )", "(, ", ", )"] {
        if text.contains(empty) {
            out.push(format!("template glitch {empty:?}"));
        }
    }
    let words: Vec<&str> = text
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .collect();
    if words.contains(&"um") {
        out.push("\"um\" for micrometres".into());
    }
    out
}

/// An axis label without a unit in brackets (`[m]`, `[-]`).
fn without_unit(label: &str) -> bool {
    !(label.contains('[') && label.contains(']'))
}

#[test]
fn titles_are_distinct_texts_clean_and_axes_have_units() {
    let figures = committed();
    let mut bad = shared_titles(&figures);
    for (f, svg) in &figures {
        let all: Vec<String> = [f.title.clone(), f.caption.clone()]
            .into_iter()
            .chain(texts(svg).into_iter().map(|t| t.body))
            .collect();
        for t in &all {
            for g in glitches(t) {
                bad.push(format!("{}: {g} in {t:?}", f.file));
            }
        }
        for label in axis_labels(svg)
            .iter()
            .filter(|l| without_unit(l) && !CATEGORY_AXES.contains(&l.as_str()))
        {
            bad.push(format!("{}: axis label without a unit: {label:?}", f.file));
        }
    }
    assert!(bad.is_empty(), "{} defects:\n{}", bad.len(), bad.join("\n"));
}

// ------------------------------------------------------- the checks fail

fn svg_with(title: &str, legend: &[&str], axes: [&str; 2], dashed: bool) -> String {
    let mut s = String::from(
        r#"<svg width="820" height="495" xmlns="http://www.w3.org/2000/svg">
<text x="63" y="430" dy="0.5ex" text-anchor="end" font-size="10.5">1</text>
<text x="73" y="444" dy="0.76em" text-anchor="middle" font-size="10.5">0</text>
"#,
    );
    s.push_str(&format!(
        r#"<text x="410" y="12" dy="0.76em" text-anchor="middle" font-size="14.5">{title}</text>
<text x="432" y="462" dy="0.76em" text-anchor="middle" font-size="12.1">{}</text>
<text x="12" y="238" dy="0.76em" text-anchor="middle" font-size="12.1" transform="rotate(270, 12, 238)">{}</text>
"#,
        axes[0], axes[1]
    ));
    s.push_str(if dashed {
        r#"<polyline fill="none" stroke-dasharray="8 5" points="0,0 1,1"/>"#
    } else {
        r#"<polyline fill="none" points="0,0 1,1"/>"#
    });
    for l in legend {
        s.push_str(&format!(
            "<text x=\"669\" y=\"395\" dy=\"0.5ex\" text-anchor=\"start\" font-size=\"10.5\">{l}</text>\n"
        ));
    }
    s.push_str("</svg>");
    s
}

fn page_figure(study: &str, file: &str, title: &str, caption: &str) -> PageFigure {
    PageFigure {
        study: study.into(),
        file: file.into(),
        title: title.into(),
        caption: caption.into(),
    }
}

#[test]
fn the_page_parser_reads_studies_titles_and_captions() {
    let html = r#"<h2 id="a">a</h2><figure>
<img src="figures/a-x.svg" alt="Time response, case c (dt = 1 &amp; 2)">
<figcaption><strong>Figure 1. T.</strong> Displacements by <em>rk4</em>.</figcaption>
</figure><h2 id="b">b</h2><figure>
<img src="figures/b-y.svg" alt="Other">
<figcaption>Second.</figcaption>
</figure>"#;
    let f = page_figures(html);
    assert_eq!(f.len(), 2);
    assert_eq!(
        (f[0].study.as_str(), f[0].file.as_str()),
        ("a", "figures/a-x.svg")
    );
    assert_eq!(f[0].title, "Time response, case c (dt = 1 & 2)");
    assert_eq!(f[0].caption, "Figure 1. T. Displacements by rk4.");
    assert_eq!(
        (f[1].study.as_str(), f[1].caption.as_str()),
        ("b", "Second.")
    );
}

#[test]
fn each_defect_is_found() {
    // Class 1: a caption written for the friction laws over three methods
    // of a sharpness case.
    let svg = svg_with(
        "Tip displacement",
        &["tanh, moreau", "tanh, rk4", "tanh, dopri5"],
        ["time t [s]", "u [m]"],
        false,
    );
    let f = page_figure(
        "s",
        "f.svg",
        "Tip displacement",
        "Regenerates the seed's Fig. 4b for each friction law.",
    );
    let methods: Vec<String> = ["moreau", "rk4", "dopri5"].map(String::from).to_vec();
    assert_eq!(undescribed(&f, &svg, &methods), methods);
    let named = page_figure(
        "s",
        "f.svg",
        "Tip displacement, tanh law",
        "Moreau, RK4 and Dopri5.",
    );
    assert!(undescribed(&named, &svg, &methods).is_empty());
    let html = "<h2 id=\"s\">s</h2><h3>Timings</h3><table><tr><td>c</td><td><code>moreau</code></td></tr>\
                <tr><td>c</td><td><code>rk4</code></td></tr><tr><td>d</td><td><code>moreau</code></td></tr>";
    assert_eq!(study_methods(html)["s"], ["moreau", "rk4"]);

    // Class 3: a promised dashed reference and a Radau curve not drawn.
    let f = page_figure(
        "s",
        "f.svg",
        "T",
        "Against SciPy Radau (dashed), the exact solution.",
    );
    assert_eq!(
        unkept_promises(&f, &svg),
        ["a dashed curve", "the Radau reference"]
    );
    let drawn = svg_with("T", &["x, Radau"], ["t [s]", "x [m]"], true);
    assert!(unkept_promises(&f, &drawn).is_empty());

    // Class 6: the same marks under two titles.
    let a = svg_with("Static curve, study a", &["F"], ["x [m]", "F [N]"], false);
    let b = svg_with("Static curve, study b", &["F"], ["x [m]", "F [N]"], false);
    let figures = vec![
        (page_figure("a", "a.svg", "Static curve, study a", ""), a),
        (page_figure("b", "b.svg", "Static curve, study b", ""), b),
    ];
    assert_eq!(
        repeated_figures(&figures),
        [("b.svg".to_string(), "a.svg".to_string())]
    );

    // Class 7: a shared title, glitches, a micrometre as "um", no unit.
    let same = vec![
        (
            page_figure("a", "a.svg", "Frequency response", ""),
            String::new(),
        ),
        (
            page_figure("b", "b.svg", "Frequency response", ""),
            String::new(),
        ),
    ];
    assert_eq!(shared_titles(&same).len(), 1);
    assert_eq!(glitches("(case omega-0.85, method )").len(), 1);
    assert_eq!(glitches("clearance c = 50.0 um").len(), 1);
    assert!(glitches("clearance c = 50 µm, drum radius").is_empty());
    let no_unit = svg_with("T", &[], ["sharpness", "x [m]"], false);
    let labels = axis_labels(&no_unit);
    assert_eq!(labels, ["sharpness", "x [m]"]);
    assert_eq!(labels.iter().filter(|l| without_unit(l)).count(), 1);
}
