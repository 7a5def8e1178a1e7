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

/// The numbers of every `points="..."` of the polylines whose tag contains
/// `marker`.
fn polyline_points(svg: &str, marker: &str) -> Vec<Vec<(f64, f64)>> {
    svg.split("<polyline")
        .skip(1)
        .filter(|p| p.split('>').next().is_some_and(|t| t.contains(marker)))
        .map(|p| {
            p.split("points=\"")
                .nth(1)
                .and_then(|r| r.split('"').next())
                .unwrap_or("")
                .split_whitespace()
                .filter_map(|q| {
                    let (a, b) = q.split_once(',')?;
                    Some((a.parse().ok()?, b.parse().ok()?))
                })
                .collect()
        })
        .collect()
}

/// Issue 20, class 5: a one-step spike among 50,000 points (far more than
/// pixel columns) stays in the drawn curve, which keeps at most four
/// points per column.
#[test]
fn a_spike_among_many_points_is_drawn() {
    let n = 50_000;
    let x: Vec<f64> = (0..n).map(f64::from).collect();
    let mut y: Vec<f64> = x.iter().map(|v| (v * 1e-3).sin()).collect();
    y[31_337] = 30.0;
    let figure = Figure {
        name: "spike".into(),
        title: "Spike".into(),
        x: Axis::linear("angle [deg]"),
        y: Axis::linear("torque [N m]"),
        series: vec![Series::new("torque", &x, &y, Style::Line)],
        caption: String::new(),
    };
    let svg = render_svg_string(&figure).unwrap();
    let curve = polyline_points(&svg, "stroke-linejoin");
    assert_eq!(curve.len(), 1);
    assert!(curve[0].len() <= 4 * 800, "{} points", curve[0].len());
    // The top of the curve is the spike: 30 on an axis to 30 + 5 % padding.
    let top = curve[0].iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
    let bottom = curve[0]
        .iter()
        .map(|p| p.1)
        .fold(f64::NEG_INFINITY, f64::max);
    let span = bottom - top;
    // Data from -1 to 30: the spike sits 31 / (31 * 1.1) of the way up
    // from the padded bottom; sin's -1 at 0.05 / 1.1 of it.
    assert!(
        span > 0.85 * 392.0,
        "the spike is drawn {span} px above the lowest point"
    );
}

/// Issue 20, class 7: error bars wider than the plot end at its edges;
/// every text is at least 10 px, the figure 820 px wide with 12 legend
/// entries below the plot, and a 160-character axis description wraps
/// within the figure's height.
#[test]
fn bars_text_and_legend_stay_inside_a_figure_shown_at_its_width() {
    let long = "max_error_v: max |slider velocity - reference| over the samples (reference: the exact kinematics, or the fine solution with reference.method = \"fine\") [m/s]";
    let x = [1.0, 2.0, 3.0];
    let mut series: Vec<Series> = (0..12)
        .map(|i| {
            Series::new(
                format!("case number {i} with a long legend label"),
                &x,
                &[1.0 + f64::from(i), 5.0, 2.0 * f64::from(i)],
                Style::LineMarkers,
            )
        })
        .collect();
    series[0] = series[0].clone().with_x_errors(&[5.0, 0.1, 0.1]);
    let figure = Figure {
        name: "b".into(),
        title: "Bars".into(),
        x: Axis::linear("CPU time [s]"),
        y: Axis::linear(long),
        series,
        caption: String::new(),
    };
    let svg = render_svg_string(&figure).unwrap();
    assert!(svg.starts_with("<svg width=\"820\""), "{}", &svg[..60]);
    let height: f64 = svg
        .split("height=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .and_then(|v| v.parse().ok())
        .unwrap();
    for t in svg.split("<text").skip(1) {
        let tag = t.split('>').next().unwrap();
        let size: f64 = tag
            .split("font-size=\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .and_then(|v| v.parse().ok())
            .unwrap();
        assert!(size >= MIN_TEXT_PX, "{size} px: {tag}");
        let body = t
            .split('>')
            .nth(1)
            .unwrap()
            .split('<')
            .next()
            .unwrap()
            .trim();
        if tag.contains("rotate(270") {
            let y: f64 = tag
                .split(" y=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            let half = 0.3 * size * body.chars().count() as f64;
            assert!(y - half >= 0.0 && y + half <= height, "{body} at {y}");
        }
    }
    // The bar of +-5 about x = 1 on an axis of 0.96 .. 3.04 ends at the
    // plot's edges: the grid's extent.
    let bars = polyline_points(&svg, "stroke=\"#0072B2\" stroke-width=\"1\"");
    assert!(!bars.is_empty());
    let grid: Vec<f64> = svg
        .split("<line")
        .skip(1)
        .filter(|l| l.contains("#EEEEEE") || l.contains("#CCCCCC"))
        .flat_map(|l| {
            ["x1", "x2"].map(|a| {
                l.split(&format!(" {a}=\""))
                    .nth(1)
                    .and_then(|r| r.split('"').next())
                    .and_then(|v| v.parse::<f64>().ok())
                    .unwrap_or(f64::NAN)
            })
        })
        .collect();
    let (lo, hi) = grid
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(*v), b.max(*v))
        });
    for p in bars.iter().flatten() {
        assert!(
            p.0 >= lo - 1.0 && p.0 <= hi + 1.0,
            "bar at {} outside {lo}..{hi}",
            p.0
        );
    }
}

/// A measured point on its analytic reference (the Bossak spectral
/// radius): the marker is written after every polyline, so neither the
/// reference's band nor a curve hides it; the legend's marker stays.
#[test]
fn measured_markers_are_drawn_over_curves_and_bands() {
    let x: Vec<f64> = (0..50).map(f64::from).collect();
    let y: Vec<f64> = x.iter().map(|v| 0.5 + 0.01 * v).collect();
    let figure = Figure {
        name: "m".into(),
        title: "Markers on a reference".into(),
        x: Axis::linear("x [-]"),
        y: Axis::linear("y [-]"),
        series: vec![
            Series::new("analytic", &x, &y, Style::Dashed).grouped(0),
            Series::new("measured", &[10.0, 40.0], &[0.6, 0.9], Style::Markers).grouped(0),
            Series::new("curve", &x, &y, Style::Line).grouped(1),
        ],
        caption: String::new(),
    };
    let svg = render_svg_string(&figure).unwrap();
    let last_polyline = svg.rfind("<polyline").expect("polylines");
    let data_markers: Vec<usize> = svg.match_indices("<circle").map(|(i, _)| i).collect();
    // Two data markers after the last polyline, one in the legend before.
    assert_eq!(data_markers.len(), 3, "{svg}");
    assert_eq!(
        data_markers.iter().filter(|&&i| i > last_polyline).count(),
        2,
        "{svg}"
    );
}
