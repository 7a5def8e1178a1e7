//! Reading the committed report in the report tests: its folder, its SVG
//! figures, and the elements, attributes and texts of an SVG as the
//! renderer writes them (attributes in double quotes, no `<tspan>`, `<`
//! and `&` escaped in texts).

#![allow(dead_code)]

use std::path::PathBuf;

/// The committed report's folder.
pub fn report() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("report")
}

/// Every SVG of the committed report: (file name, text), sorted by name.
pub fn figures() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir(report().join("figures"))
        .expect("report/figures")
        .filter_map(|e| {
            let path = e.ok()?.path();
            (path.extension()? == "svg").then_some(())?;
            let name = path.file_name()?.to_string_lossy().into_owned();
            Some((name, std::fs::read_to_string(&path).ok()?))
        })
        .collect();
    out.sort();
    assert!(out.len() > 10, "read only {} figures", out.len());
    out
}

/// Attribute `name` of a tag (the text after the element's name).
pub fn attr(tag: &str, name: &str) -> Option<String> {
    Some(
        tag.split(&format!(" {name}=\""))
            .nth(1)?
            .split('"')
            .next()?
            .to_string(),
    )
}

/// Attribute `name` of a tag, as a number.
pub fn num(tag: &str, name: &str) -> Option<f64> {
    attr(tag, name)?.parse().ok()
}

/// `(tag, body)` of every element `<name ...>...</name>` or `<name .../>`.
pub fn elements<'a>(svg: &'a str, name: &str) -> Vec<(&'a str, &'a str)> {
    // Each tag keeps its leading space, so that every attribute (the first
    // too) is found as ` name="`.
    svg.split(&format!("<{name}"))
        .skip(1)
        .filter(|t| t.starts_with(char::is_whitespace))
        .filter_map(|t| {
            let (tag, rest) = t.split_once('>')?;
            let body = if tag.ends_with('/') {
                ""
            } else {
                rest.split('<').next()?.trim()
            };
            Some((tag, body))
        })
        .collect()
}

/// Text with the five XML entities replaced by their characters.
pub fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// A `<text>` of an SVG.
#[derive(Debug, Clone)]
pub struct SvgText {
    /// `text-anchor` (empty when not set).
    pub anchor: String,
    /// `dy` (empty when not set).
    pub dy: String,
    /// `x` and `y` as written (empty when not set).
    pub x: String,
    pub y: String,
    /// `font-size` (0 when not set).
    pub size: f64,
    /// Whether the text is rotated.
    pub rotated: bool,
    /// The text, unescaped.
    pub body: String,
}

/// Every `<text>` of an SVG, in order.
pub fn texts(svg: &str) -> Vec<SvgText> {
    elements(svg, "text")
        .into_iter()
        .map(|(tag, body)| SvgText {
            anchor: attr(tag, "text-anchor").unwrap_or_default(),
            dy: attr(tag, "dy").unwrap_or_default(),
            x: attr(tag, "x").unwrap_or_default(),
            y: attr(tag, "y").unwrap_or_default(),
            size: num(tag, "font-size").unwrap_or(0.0),
            rotated: tag.contains("rotate("),
            body: unescape(body),
        })
        .collect()
}
