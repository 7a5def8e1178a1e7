//! HTML rendering of the report document: one self-contained page (inline
//! CSS, no scripts) that links the SVG figures by relative path.
//!
//! Nothing is wider than the page body: every table sits in a
//! `<div class="table-wrap">` that scrolls horizontally inside its own box
//! when the table is wider, figures are at most the body's width (border
//! included), numbers do not wrap and code spans may break anywhere, so
//! one long token (a path, a method list) does not widen a table or a line.
//! `tests/report_browser.rs` checks this in headless Chromium.

use super::doc::{Block, Document, Inline, RowKind, Table};

const CSS: &str = "\
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}
h1{font-size:1.7em;border-bottom:2px solid #ccc;padding-bottom:.2em}
h2{font-size:1.35em;border-bottom:1px solid #ddd;padding-bottom:.15em;margin-top:2em}
h3{font-size:1.1em;margin-top:1.4em}
code{font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:.92em;background:#f3f3f3;padding:0 .2em;border-radius:3px;overflow-wrap:anywhere}
.table-wrap{overflow-x:auto;max-width:100%;margin:.6em 0 1.2em}
table{border-collapse:collapse;font-size:.9em}
th,td{border:1px solid #ccc;padding:.25em .55em;vertical-align:top}
th{background:#f0f0f0;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.fail td{background:#fbd5d5;color:#8b0000}
tr.flag td{background:#fff1c2}
tr.summary td{background:#f6f6f6;color:#555;font-style:italic}
figure{margin:1em 0 1.6em}
img{max-width:100%;height:auto;box-sizing:border-box}
figure img{border:1px solid #eee;max-width:min(100%,760px)}
figcaption{font-size:.92em;color:#444;margin-top:.3em}
hr{border:0;border-top:1px solid #ccc;margin:2.5em 0 1em}
";

/// Escapes text for HTML element content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

fn inlines(items: &[Inline]) -> String {
    items
        .iter()
        .map(|i| match i {
            Inline::Text(t) => escape(t),
            Inline::Code(t) => format!("<code>{}</code>", escape(t)),
            Inline::Strong(t) => format!("<strong>{}</strong>", escape(t)),
            Inline::Link { text, href } => {
                format!("<a href=\"{}\">{}</a>", escape(href), escape(text))
            }
        })
        .collect()
}

fn table(out: &mut String, t: &Table) {
    out.push_str("<div class=\"table-wrap\">\n<table>\n<thead><tr>");
    for h in &t.header {
        out.push_str(&format!("<th>{}</th>", escape(h)));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for row in &t.rows {
        let class = match row.kind {
            RowKind::Normal => "",
            RowKind::Fail => " class=\"fail\"",
            RowKind::Flag => " class=\"flag\"",
            RowKind::Summary => " class=\"summary\"",
        };
        out.push_str(&format!("<tr{class}>"));
        for (i, cell) in row.cells.iter().enumerate() {
            let num = if t.numeric.get(i).copied().unwrap_or(false) {
                " class=\"num\""
            } else {
                ""
            };
            out.push_str(&format!("<td{num}>{}</td>", inlines(cell)));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n</div>\n");
}

/// Renders `blocks` into `out`.
fn render_blocks(out: &mut String, blocks: &[Block]) {
    for block in blocks {
        match block {
            Block::Heading { level, text, id } => {
                let level = (*level).clamp(1, 6);
                let id = id
                    .as_ref()
                    .map(|i| format!(" id=\"{}\"", escape(i)))
                    .unwrap_or_default();
                out.push_str(&format!("<h{level}{id}>{}</h{level}>\n", escape(text)));
            }
            Block::Paragraph(items) => out.push_str(&format!("<p>{}</p>\n", inlines(items))),
            Block::List(items) => {
                out.push_str("<ul>\n");
                for item in items {
                    out.push_str(&format!("<li>{}</li>\n", inlines(item)));
                }
                out.push_str("</ul>\n");
            }
            Block::Figure { src, alt, caption } => out.push_str(&format!(
                "<figure>\n<img src=\"{}\" alt=\"{}\">\n<figcaption>{}</figcaption>\n</figure>\n",
                escape(src),
                escape(alt),
                inlines(caption)
            )),
            Block::Table(t) => table(out, t),
            Block::Rule => out.push_str("<hr>\n"),
            Block::Anchor(id) => out.push_str(&format!("<span id=\"{}\"></span>\n", escape(id))),
            Block::Details { summary, blocks } => {
                out.push_str(&format!(
                    "<details>\n<summary>{}</summary>\n",
                    inlines(summary)
                ));
                render_blocks(out, blocks);
                out.push_str("</details>\n");
            }
        }
    }
}

/// The complete HTML page.
pub fn render(doc: &Document) -> String {
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>\n{CSS}</style>\n</head>\n<body>\n",
        escape(&doc.title)
    );
    render_blocks(&mut out, &doc.blocks);
    out.push_str("</body>\n</html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::report::doc::code;

    #[test]
    fn tables_scroll_in_their_own_box_and_the_page_has_no_script() {
        let mut doc = Document::default();
        let mut t = Table::new(&[("method", false), ("cpu_s", true)]);
        t.push(RowKind::Normal, vec![vec![code("newmark-lcp")], vec![]]);
        doc.blocks.push(Block::Table(t));
        doc.blocks.push(Block::Figure {
            src: "figures/a.svg".into(),
            alt: "a".into(),
            caption: vec![],
        });
        let page = render(&doc);
        assert!(page.contains("<div class=\"table-wrap\">\n<table>"));
        assert!(page.contains("</table>\n</div>\n"));
        assert!(page.contains(".table-wrap{overflow-x:auto;max-width:100%"));
        assert!(page.contains("img{max-width:100%;height:auto;box-sizing:border-box}"));
        assert!(!page.to_lowercase().contains("<script"));
    }
}
