//! The report as a small document tree, rendered twice (HTML and GitHub
//! markdown) so that both pages carry exactly the same content.

/// A piece of running text.
#[derive(Debug, Clone, PartialEq)]
pub enum Inline {
    /// Plain text (escaped by the renderer).
    Text(String),
    /// Code or a name (`monospace`).
    Code(String),
    /// Emphasised text (a failure, a flag).
    Strong(String),
    /// A link.
    Link {
        /// Link text.
        text: String,
        /// Target (a relative path or `#anchor`).
        href: String,
    },
}

/// Plain text.
pub fn text(s: impl Into<String>) -> Inline {
    Inline::Text(s.into())
}

/// Code text.
pub fn code(s: impl Into<String>) -> Inline {
    Inline::Code(s.into())
}

/// Strong text.
pub fn strong(s: impl Into<String>) -> Inline {
    Inline::Strong(s.into())
}

/// How a table row is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowKind {
    /// An ordinary row.
    Normal,
    /// A failed check (red in HTML).
    Fail,
    /// A flagged benchmark (highlighted in HTML).
    Flag,
    /// A row that stands for several collapsed rows (grey in HTML).
    Summary,
}

/// One table row.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Cells, one per header column.
    pub cells: Vec<Vec<Inline>>,
    /// Presentation.
    pub kind: RowKind,
}

/// A table.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// Column titles.
    pub header: Vec<String>,
    /// Which columns hold numbers (right-aligned).
    pub numeric: Vec<bool>,
    /// The rows.
    pub rows: Vec<Row>,
}

impl Table {
    /// A table with the given columns; `numeric` marks right-aligned ones.
    pub fn new(columns: &[(&str, bool)]) -> Self {
        Self {
            header: columns.iter().map(|(h, _)| h.to_string()).collect(),
            numeric: columns.iter().map(|(_, n)| *n).collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row.
    pub fn push(&mut self, kind: RowKind, cells: Vec<Vec<Inline>>) {
        self.rows.push(Row { cells, kind });
    }
}

/// A block of the document.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// A heading; `id` is the anchor (HTML `id`; GitHub derives the same one
    /// from a heading made of lowercase letters, digits and `-`).
    Heading {
        /// 1 to 4.
        level: u8,
        /// Heading text.
        text: String,
        /// Anchor.
        id: Option<String>,
    },
    /// A paragraph.
    Paragraph(Vec<Inline>),
    /// A bulleted list.
    List(Vec<Vec<Inline>>),
    /// An image with its caption.
    Figure {
        /// Relative path of the image.
        src: String,
        /// Alternative text.
        alt: String,
        /// Caption.
        caption: Vec<Inline>,
    },
    /// A table.
    Table(Table),
    /// A horizontal rule.
    Rule,
    /// An anchor target (`id`) for links, e.g. to a numbered figure.
    Anchor(String),
    /// A collapsed block: `summary` shown, `blocks` on opening.
    Details {
        /// The always visible line.
        summary: Vec<Inline>,
        /// The folded content.
        blocks: Vec<Block>,
    },
}

/// The whole report.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Document {
    /// Page title.
    pub title: String,
    /// Content.
    pub blocks: Vec<Block>,
}

impl Document {
    /// Appends a heading.
    pub fn heading(&mut self, level: u8, text: impl Into<String>, id: Option<&str>) {
        self.blocks.push(Block::Heading {
            level,
            text: text.into(),
            id: id.map(str::to_string),
        });
    }

    /// Appends a paragraph.
    pub fn paragraph(&mut self, inlines: Vec<Inline>) {
        self.blocks.push(Block::Paragraph(inlines));
    }
}

/// A figure as written for the report.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderedFigure {
    /// Path relative to the report directory, e.g. `figures/a-b.svg`.
    pub src: String,
    /// The figure's title.
    pub title: String,
    /// The figure's caption.
    pub caption: String,
    /// Why it could not be drawn (the report says so in its place).
    pub error: Option<String>,
    /// The sentence that stands in its place when it shows nothing
    /// ([`crate::harness::figure::Figure::shows_nothing`]): no SVG is written.
    pub replaced: Option<String>,
    /// (study, figure) of an earlier figure of the run equal to this one
    /// but for its file name (the same static curve in three studies):
    /// not drawn again, the page points to it (issue 20, class 6).
    pub same_as: Option<(usize, usize)>,
}
