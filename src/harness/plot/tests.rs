use super::*;
use crate::harness::figure::{Axis, Series};

#[test]
fn figures_without_drawable_data_still_render() {
    let empty = Figure {
        name: "e".into(),
        title: "Nothing to draw".into(),
        x: Axis::log("dt [s]"),
        y: Axis::log("error [m]"),
        series: Vec::new(),
        caption: String::new(),
    };
    assert!(
        render_svg_string(&empty)
            .unwrap()
            .contains("Nothing to draw")
    );
    let bad = Figure {
        series: vec![Series::new(
            "all bad",
            &[0.0, -1.0, f64::NAN],
            &[1.0, 2.0, 3.0],
            Style::Line,
        )],
        ..empty
    };
    let svg = render_svg_string(&bad).unwrap();
    assert!(svg.contains("all bad (no drawable data)"));
}

/// The class of Fig. 108 of issue 20: a log axis over 0.3 % of a decade.
/// It is drawn linear, so its tick labels differ; a log axis over two
/// decades stays log.
#[test]
fn a_log_axis_spans_at_least_a_decade() {
    let figure = |ys: &[f64]| Figure {
        name: "n".into(),
        title: "T".into(),
        x: Axis::log("s [s/m]"),
        y: Axis::log("CPU [s]"),
        series: vec![Series::new(
            "a",
            &[1.0, 10.0, 100.0, 1000.0],
            ys,
            Style::LineMarkers,
        )],
        caption: String::new(),
    };
    let narrow = figure(&[1.530e5, 1.532e5, 1.534e5, 1.531e5]);
    let eff = effective_scales(&narrow);
    assert_eq!((eff.x.scale, eff.y.scale), (Scale::Log, Scale::Linear));
    let wide = figure(&[1.0, 3.0, 30.0, 100.0]);
    assert_eq!(effective_scales(&wide).y.scale, Scale::Log);
    let svg = render_svg_string(&narrow).unwrap();
    let labels = tick_labels(&svg);
    assert!(labels.len() >= 3, "{labels:?}");
    let mut unique = labels.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), labels.len(), "ticks read alike: {labels:?}");
}

/// The y axis' tick labels of an SVG: its right-aligned text.
fn tick_labels(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter(|t| {
            t.split('>')
                .next()
                .is_some_and(|tag| tag.contains("text-anchor=\"end\""))
        })
        .filter_map(|t| Some(t.split('>').nth(1)?.split('<').next()?.trim().to_string()))
        .collect()
}

#[test]
fn x_labels_replace_integer_ticks_and_one_point_segments_are_markers() {
    let figure = Figure {
        name: "h".into(),
        title: "History".into(),
        x: Axis::linear("commit [-]"),
        y: Axis::log("ratio [-]"),
        // Two segments (a NaN breaks the line): two points, then one.
        series: vec![Series::new(
            "s",
            &[0.0, 1.0, 2.0, 2.0],
            &[1.0, 1.1, f64::NAN, 0.9],
            Style::LineMarkers,
        )],
        caption: String::new(),
    };
    let labels: Vec<String> = ["abc1234", "def5678", "0123abc"].map(String::from).into();
    let svg = render_svg_labelled(&figure, &labels).unwrap();
    for l in &labels {
        assert!(svg.contains(l.as_str()), "{l} missing");
    }
    // No polyline of one point (it would draw nothing); the one-point
    // segment is drawn as its marker (three data markers, one in the
    // legend).
    let one_point = svg
        .split("<polyline")
        .skip(1)
        .filter(|p| {
            let points = p.split("points=\"").nth(1).unwrap_or("");
            points
                .split('"')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .count()
                < 2
        })
        .count();
    assert_eq!(one_point, 0, "{svg}");
    assert_eq!(svg.matches("<circle").count(), 4, "{svg}");
    let plain = render_svg_string(&figure).unwrap();
    assert!(!plain.contains("abc1234"));
}

#[test]
fn a_group_shares_one_colour_and_other_series_cycle_on() {
    let x = [0.0, 1.0];
    let figure = Figure {
        name: "g".into(),
        title: "Groups".into(),
        x: Axis::linear("x [m]"),
        y: Axis::linear("y [m]"),
        series: vec![
            Series::new("a", &x, &x, Style::Line).grouped(7),
            Series::new("b", &x, &x, Style::Line),
            Series::new("a (reference)", &x, &x, Style::Dashed).grouped(7),
            Series::new("c", &x, &x, Style::Line).grouped(3),
            Series::new("d", &x, &x, Style::Line),
        ],
        caption: String::new(),
    };
    assert_eq!(colour_slots(&figure), vec![0, 1, 0, 2, 3]);
    let prepared = prepare(&figure);
    assert_eq!(prepared[0].color, prepared[2].color);
    assert_eq!(prepared[0].shape, prepared[2].shape);
    assert_eq!(prepared[3].color, PALETTE[2]);
    assert_eq!(prepared[4].color, PALETTE[3]);
    // Without groups, colours follow the series index as before.
    let plain = Figure {
        series: (0..10)
            .map(|i| Series::new(format!("s{i}"), &x, &x, Style::Line))
            .collect(),
        ..figure
    };
    assert_eq!(colour_slots(&plain), (0..10).collect::<Vec<_>>());
    assert_eq!(prepare(&plain)[9].color, PALETTE[1]);
}

#[test]
fn decimation_keeps_extremes_of_a_long_monotone_series() {
    let n = 100_000;
    let seg: Vec<(f64, f64)> = (0..n)
        .map(|i| (i as f64, (i as f64 * 0.01).sin()))
        .collect();
    let pixels: Vec<(i32, i32)> = seg
        .iter()
        .map(|p| ((p.0 / n as f64 * 700.0) as i32, 0))
        .collect();
    let out = decimate(&seg, &pixels);
    assert!(out.len() <= 4 * 701, "{}", out.len());
    let max = out.iter().map(|p| p.1).fold(f64::MIN, f64::max);
    let min = out.iter().map(|p| p.1).fold(f64::MAX, f64::min);
    assert!(max > 0.99999 && min < -0.99999);
    assert_eq!(out.first(), seg.first());
    assert_eq!(out.last(), seg.last());
}
