//! Control-flow graphs of a listing, drawn at build time (`asm=graph`).
//!
//! [`graphs`] cuts each function of a listing (as `engine::asm` filters
//! it: a function label, then indented instructions and local labels)
//! into basic blocks — a block starts at the function, at a label and
//! after a jump — and links them: a conditional jump has two successors
//! (taken and fall-through), an unconditional one its target, a return
//! none. [`svg`] lays a graph out with `layout-rs` (Sugiyama-style
//! ranks, crossing reduction, Brandes–Köpf placement) and writes it as
//! inline SVG whose colours come from the page's stylesheet: classes only,
//! no script, so every theme and the print page style it.

use crate::escape::escape;
use layout::core::base::Orientation;
use layout::core::format::{ClipHandle, RenderBackend};
use layout::core::geometry::Point;
use layout::core::style::StyleAttr;
use layout::std_shapes::shapes::{Arrow, Element, ShapeKind};
use layout::topo::layout::VisualGraph;

/// How one block reaches another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// A conditional jump, taken.
    Taken,
    /// A conditional jump not taken: the next block.
    NotTaken,
    /// An unconditional jump, or falling into the next block.
    Always,
}

impl Flow {
    fn class(self) -> &'static str {
        match self {
            Flow::Taken => "taken",
            Flow::NotTaken => "not-taken",
            Flow::Always => "always",
        }
    }
}

/// A basic block: its lines of the listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BasicBlock {
    /// The lines as the listing shows them (a label first, if any).
    pub lines: Vec<String>,
}

/// One function's graph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Graph {
    /// The function's label, without its colon.
    pub function: String,
    /// The blocks, in listing order (the first is the entry).
    pub blocks: Vec<BasicBlock>,
    /// `(from, to, how)`, indices into `blocks`.
    pub edges: Vec<(usize, usize, Flow)>,
}

/// What an instruction does to the flow.
enum Jump<'a> {
    /// Goes on to the next instruction.
    None,
    /// May jump to the target (or fall through).
    Conditional(Option<&'a str>),
    /// Always jumps to the target (unknown for an indirect jump).
    Always(Option<&'a str>),
    /// Leaves the function (`ret`, `ud2`).
    Leaves,
}

/// What `instruction` (trimmed) does to the flow, x86 and AArch64.
fn jump(instruction: &str) -> Jump<'_> {
    let mut words = instruction.split_whitespace();
    let mnemonic = words.next().unwrap_or("");
    let target = instruction
        .rsplit([',', ' '])
        .find(|w| !w.is_empty())
        .filter(|w| w.starts_with('.') || w.starts_with("LBB"));
    match mnemonic {
        "ret" | "retq" | "ud2" | "hlt" | "br" => Jump::Leaves,
        "jmp" | "jmpq" | "b" => Jump::Always(target),
        m if m.starts_with('j')
            || m.starts_with("b.")
            || matches!(m, "cbz" | "cbnz" | "tbz" | "tbnz") =>
        {
            Jump::Conditional(target)
        }
        _ => Jump::None,
    }
}

/// The control-flow graph of every function of `listing`.
pub fn graphs(listing: &str) -> Vec<Graph> {
    let mut out = Vec::new();
    let mut current: Option<(String, Vec<&str>)> = None;
    for line in listing.lines() {
        if line.trim().is_empty() {
            continue;
        }
        let label = !line.starts_with(' ') && line.ends_with(':');
        if label && !line.starts_with('.') {
            if let Some((name, body)) = current.take() {
                out.push(graph(name, &body));
            }
            current = Some((line.trim_end_matches(':').to_owned(), Vec::new()));
        } else if let Some((_, body)) = current.as_mut() {
            body.push(line);
        }
    }
    if let Some((name, body)) = current {
        out.push(graph(name, &body));
    }
    out
}

/// One function's graph from its body.
fn graph(function: String, body: &[&str]) -> Graph {
    // Cut into blocks: at labels, and after jumps and returns.
    let mut blocks: Vec<BasicBlock> = Vec::new();
    let mut labels: Vec<(String, usize)> = Vec::new();
    let mut open = false;
    for line in body {
        let is_label = !line.starts_with(' ') && line.ends_with(':');
        if is_label || !open {
            blocks.push(BasicBlock { lines: Vec::new() });
            open = true;
        }
        let k = blocks.len() - 1;
        if is_label {
            labels.push((line.trim_end_matches(':').to_owned(), k));
        }
        blocks[k].lines.push((*line).to_owned());
        if !is_label && !matches!(jump(line.trim()), Jump::None) {
            open = false;
        }
    }
    let block_of = |target: Option<&str>| {
        let t = target?;
        labels.iter().find(|(l, _)| l == t).map(|(_, k)| *k)
    };
    let mut edges = Vec::new();
    for (k, b) in blocks.iter().enumerate() {
        let last = b.lines.last().map(|l| l.trim()).unwrap_or("");
        let next = (k + 1 < blocks.len()).then_some(k + 1);
        let is_label = b.lines.len() == 1 && !last.is_empty() && !b.lines[0].starts_with(' ');
        let kind = if is_label { Jump::None } else { jump(last) };
        match kind {
            Jump::None => edges.extend(next.map(|n| (k, n, Flow::Always))),
            Jump::Always(t) => edges.extend(block_of(t).map(|to| (k, to, Flow::Always))),
            Jump::Conditional(t) => {
                edges.extend(block_of(t).map(|to| (k, to, Flow::Taken)));
                edges.extend(next.map(|n| (k, n, Flow::NotTaken)));
            }
            Jump::Leaves => {}
        }
    }
    Graph {
        function,
        blocks,
        edges,
    }
}

/// Width of a character of the graph's monospace font, in pixels (the
/// stylesheet sets 12px; monospace faces are 0.6em wide or less).
const CHAR: f64 = 7.4;
/// Height of a line of text.
const LINE: f64 = 16.0;
/// Room around a block's text.
const PAD: f64 = 8.0;

/// The size of a block's box.
fn block_size(b: &BasicBlock) -> Point {
    let widest = b
        .lines
        .iter()
        .map(|l| l.trim().chars().count())
        .max()
        .unwrap_or(1);
    Point::new(
        widest as f64 * CHAR + 2.0 * PAD,
        b.lines.len() as f64 * LINE + 2.0 * PAD,
    )
}

/// One function's control-flow graph, drawn.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Drawing {
    /// The function's label.
    pub function: String,
    /// The SVG, its ids [`ID_SLOT`] until [`with_id`] gives them the
    /// page's.
    pub svg: String,
}

/// The placeholder a cached drawing holds where [`with_id`] puts the
/// page's id.
pub const ID_SLOT: &str = "companion-cfg-id-slot";

/// A drawing made with [`ID_SLOT`] as its id, given its page's `id`.
pub fn with_id(svg: &str, id: &str) -> String {
    svg.replace(ID_SLOT, &escape(id))
}

/// `graph` laid out and drawn as inline SVG. `id` makes its markers'
/// ids unique on the page (the print page joins every chapter); `title`
/// is its accessible name ("Control-flow graph of divide").
pub fn svg(graph: &Graph, id: &str, title: &str) -> String {
    let mut vg = VisualGraph::new(Orientation::TopToBottom);
    let handles: Vec<_> = graph
        .blocks
        .iter()
        .enumerate()
        .map(|(k, b)| {
            let text = b
                .lines
                .iter()
                .map(|l| l.trim())
                .collect::<Vec<_>>()
                .join("\n");
            vg.add_node(Element::create_with_properties(
                ShapeKind::new_box(&text),
                StyleAttr::simple(),
                Orientation::TopToBottom,
                block_size(b),
                k.to_string(),
            ))
        })
        .collect();
    for (from, to, flow) in &graph.edges {
        vg.add_edge(
            Arrow::simple_with_properties("", flow.class()),
            handles[*from],
            handles[*to],
        );
    }
    let mut canvas = Canvas::default();
    vg.do_it(false, false, false, &mut canvas);
    canvas.finish(id, title)
}

/// A `RenderBackend` that writes classes, not colours.
#[derive(Default)]
struct Canvas {
    body: String,
    width: f64,
    height: f64,
}

impl Canvas {
    fn grow(&mut self, p: Point) {
        self.width = self.width.max(p.x + 4.0);
        self.height = self.height.max(p.y + 4.0);
    }

    fn finish(self, id: &str, title: &str) -> String {
        let id = escape(id);
        let markers: String = ["taken", "not-taken", "always"]
            .iter()
            .map(|k| {
                format!(
                    "<marker id=\"{id}-{k}\" class=\"companion-cfg-head companion-cfg-{k}\" markerWidth=\"8\" markerHeight=\"6\" refX=\"8\" refY=\"3\" orient=\"auto\"><polygon points=\"0 0, 8 3, 0 6\"/></marker>"
                )
            })
            .collect();
        let (w, h) = (self.width.ceil(), self.height.ceil());
        format!(
            "<svg class=\"companion-cfg-svg\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\"><title>{}</title><defs>{markers}</defs>{}</svg>",
            escape(title),
            self.body.replace("MARKER-ID", &id)
        )
    }
}

impl RenderBackend for Canvas {
    fn draw_rect(
        &mut self,
        xy: Point,
        size: Point,
        _look: &StyleAttr,
        _properties: Option<String>,
        _clip: Option<ClipHandle>,
    ) {
        self.grow(Point::new(xy.x + size.x, xy.y + size.y));
        self.body.push_str(&format!(
            "<rect class=\"companion-cfg-block\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"3\"/>",
            xy.x, xy.y, size.x, size.y
        ));
    }

    fn draw_line(
        &mut self,
        start: Point,
        stop: Point,
        _look: &StyleAttr,
        _properties: Option<String>,
    ) {
        self.grow(start);
        self.grow(stop);
        self.body.push_str(&format!(
            "<line class=\"companion-cfg-edge\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"/>",
            start.x, start.y, stop.x, stop.y
        ));
    }

    fn draw_circle(
        &mut self,
        xy: Point,
        size: Point,
        _look: &StyleAttr,
        _properties: Option<String>,
    ) {
        self.grow(Point::new(xy.x + size.x / 2.0, xy.y + size.y / 2.0));
    }

    fn draw_text(&mut self, xy: Point, text: &str, _look: &StyleAttr) {
        // Left-aligned in the box centred at `xy`.
        let lines: Vec<&str> = text.lines().collect();
        let widest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        let left = xy.x - widest as f64 * CHAR / 2.0;
        let top = xy.y - lines.len() as f64 * LINE / 2.0;
        let mut out = String::from("<text class=\"companion-cfg-text\">");
        for (i, line) in lines.iter().enumerate() {
            let class = if line.ends_with(':') && !line.starts_with(' ') {
                " class=\"companion-cfg-label\""
            } else {
                ""
            };
            out.push_str(&format!(
                "<tspan x=\"{left:.1}\" y=\"{:.1}\"{class}>{}</tspan>",
                top + (i as f64 + 0.75) * LINE,
                escape(line)
            ));
        }
        out.push_str("</text>");
        self.body.push_str(&out);
    }

    fn draw_arrow(
        &mut self,
        path: &[(Point, Point)],
        _dashed: bool,
        _head: (bool, bool),
        _look: &StyleAttr,
        properties: Option<String>,
        _text: &str,
    ) {
        let (Some(first), Some(second)) = (path.first(), path.get(1)) else {
            return;
        };
        for (a, b) in path {
            self.grow(*a);
            self.grow(*b);
        }
        let mut d = format!(
            "M {:.1} {:.1} C {:.1} {:.1}, {:.1} {:.1}, {:.1} {:.1}",
            first.0.x,
            first.0.y,
            first.1.x,
            first.1.y,
            second.0.x,
            second.0.y,
            second.1.x,
            second.1.y
        );
        for (a, b) in &path[2..] {
            d.push_str(&format!(" S {:.1} {:.1}, {:.1} {:.1}", a.x, a.y, b.x, b.y));
        }
        let kind = properties.unwrap_or_else(|| "always".into());
        let kind = escape(&kind);
        self.body.push_str(&format!(
            "<path class=\"companion-cfg-edge companion-cfg-{kind}\" d=\"{d}\" marker-end=\"url(#MARKER-ID-{kind})\"/>"
        ));
    }

    fn create_clip(&mut self, _xy: Point, _size: Point, _rounded_px: usize) -> ClipHandle {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    const DIVIDE: &str = "divide:\n    test esi, esi\n    je .LBB0_3\n    mov eax, edi\n    cdq\n    idiv esi\n    ret\n.LBB0_3:\n    lea rdi, [rip + .Lanon.1]\n    call qword ptr [rip + core::panicking::panic_const::panic_const_div_by_zero@GOTPCREL]\n\nother:\n    ret\n";

    #[test]
    fn blocks_start_at_labels_and_after_jumps() {
        let g = graphs(DIVIDE);
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].function, "divide");
        let firsts: Vec<&str> = g[0].blocks.iter().map(|b| b.lines[0].trim()).collect();
        assert_eq!(firsts, ["test esi, esi", "mov eax, edi", ".LBB0_3:"]);
        assert_eq!(
            g[0].edges,
            [(0, 2, Flow::Taken), (0, 1, Flow::NotTaken)],
            "a return has no successor; the panic call falls off the end"
        );
        assert_eq!(g[1].blocks.len(), 1);
        assert!(g[1].edges.is_empty());
    }

    #[test]
    fn loops_fall_through_and_jump_back() {
        let att = "f:\n    movl $10, %ebx\n.L2:\n    call more@PLT\n    subl $1, %ebx\n    jne .L2\n    movl $42, %eax\n    jmp .L9\n.L8:\n    ud2\n.L9:\n    ret\n";
        let g = &graphs(att)[0];
        assert_eq!(g.blocks.len(), 5, "{g:?}");
        assert_eq!(
            g.edges,
            [
                (0, 1, Flow::Always),
                (1, 1, Flow::Taken),
                (1, 2, Flow::NotTaken),
                (2, 4, Flow::Always),
            ]
        );
        // An indirect jump leaves with no known target.
        let g = &graphs("f:\n    jmp rax\n.L1:\n    ret\n")[0];
        assert!(g.edges.is_empty(), "{g:?}");
    }

    #[test]
    fn svg_is_laid_out_themed_and_escaped() {
        let g = &graphs(DIVIDE)[0];
        let svg = svg(g, "cfg-1", "Control-flow graph of <divide>");
        let doc = scraper::Html::parse_fragment(&svg);
        let count = |sel: &str| doc.select(&scraper::Selector::parse(sel).unwrap()).count();
        assert_eq!(count("svg.companion-cfg-svg"), 1);
        assert_eq!(count("rect.companion-cfg-block"), 3);
        assert_eq!(count("path.companion-cfg-taken"), 1);
        assert_eq!(count("path.companion-cfg-not-taken"), 1);
        assert_eq!(count("marker#cfg-1-taken"), 1);
        assert!(svg.contains("<title>Control-flow graph of &lt;divide&gt;</title>"));
        assert!(svg.contains(">idiv esi</tspan>"), "{svg}");
        assert!(
            !svg.contains("fill=") && !svg.contains("stroke="),
            "colours come from CSS"
        );
        // Boxes do not overlap: the layout placed them.
        let rects: Vec<(f64, f64, f64, f64)> = doc
            .select(&scraper::Selector::parse("rect").unwrap())
            .map(|r| {
                let a = |n| r.value().attr(n).unwrap().parse::<f64>().unwrap();
                (a("x"), a("y"), a("width"), a("height"))
            })
            .collect();
        for (i, a) in rects.iter().enumerate() {
            for b in &rects[i + 1..] {
                let apart =
                    a.0 + a.2 <= b.0 || b.0 + b.2 <= a.0 || a.1 + a.3 <= b.1 || b.1 + b.3 <= a.1;
                assert!(apart, "{a:?} overlaps {b:?}");
            }
        }
        // The same graph twice gives the same picture.
        assert_eq!(
            svg,
            super::svg(g, "cfg-1", "Control-flow graph of <divide>")
        );
    }
}
