//! GitHub-flavoured markdown rendering of the report document: the same
//! content as the HTML page; failed rows carry a **FAIL** cell (markdown
//! tables have no colours).

use super::doc::{Block, Document, Inline, Table};

/// Escapes characters that markdown would interpret in running text.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '#' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// A code span that survives backticks in its content.
fn code_span(s: &str) -> String {
    let s = s.replace(['\n', '\r'], " ");
    let mut fence = "`".to_string();
    while s.contains(&fence) {
        fence.push('`');
    }
    let pad = if s.starts_with('`') || s.ends_with('`') {
        " "
    } else {
        ""
    };
    // Inside a table a `|` ends the cell even in a code span; GitHub accepts `\|`.
    let s = s.replace('|', "\\|");
    format!("{fence}{pad}{s}{pad}{fence}")
}

fn inlines(items: &[Inline]) -> String {
    items
        .iter()
        .map(|i| match i {
            Inline::Text(t) => escape(t),
            Inline::Code(t) => code_span(t),
            Inline::Strong(t) => format!("**{}**", escape(t)),
            Inline::Link { text, href } => {
                format!("[{}]({})", escape(text), href.replace(' ', "%20"))
            }
        })
        .collect()
}

fn table(out: &mut String, t: &Table) {
    out.push_str(&format!(
        "| {} |\n",
        t.header
            .iter()
            .map(|h| escape(h))
            .collect::<Vec<_>>()
            .join(" | ")
    ));
    let align: Vec<&str> = (0..t.header.len())
        .map(|i| {
            if t.numeric.get(i).copied().unwrap_or(false) {
                "---:"
            } else {
                "---"
            }
        })
        .collect();
    out.push_str(&format!("|{}|\n", align.join("|")));
    for row in &t.rows {
        let cells: Vec<String> = row.cells.iter().map(|c| inlines(c)).collect();
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    out.push('\n');
}

/// Renders `blocks` into `out`.
fn render_blocks(out: &mut String, blocks: &[Block]) {
    for block in blocks {
        match block {
            Block::Heading { level, text, .. } => {
                let level = usize::from((*level).clamp(1, 6));
                out.push_str(&format!("{} {}\n\n", "#".repeat(level), escape(text)));
            }
            Block::Paragraph(items) => out.push_str(&format!("{}\n\n", inlines(items))),
            Block::List(items) => {
                for item in items {
                    out.push_str(&format!("- {}\n", inlines(item)));
                }
                out.push('\n');
            }
            Block::Figure { src, alt, caption } => {
                out.push_str(&format!(
                    "![{}]({})\n\n",
                    escape(alt),
                    src.replace(' ', "%20")
                ));
                out.push_str(&format!("{}\n\n", inlines(caption)));
            }
            Block::Table(t) => table(out, t),
            Block::Rule => out.push_str("---\n\n"),
            Block::Anchor(id) => out.push_str(&format!("<a id=\"{id}\"></a>\n\n")),
            Block::Details { summary, blocks } => {
                out.push_str(&format!(
                    "<details>\n<summary>{}</summary>\n\n",
                    inlines(summary)
                ));
                render_blocks(out, blocks);
                out.push_str("</details>\n\n");
            }
        }
    }
}

/// The complete markdown page.
pub fn render(doc: &Document) -> String {
    let mut out = String::new();
    render_blocks(&mut out, &doc.blocks);
    out
}
