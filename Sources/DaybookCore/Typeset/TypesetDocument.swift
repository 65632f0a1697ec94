// What the typesetter lays out, as plain Swift values: styled text, blocks, images, drawings.
import Foundation

/// A colour with components 0…1.
struct RGB: Equatable {
    var r: Double, g: Double, b: Double

    static let black = RGB(r: 0, g: 0, b: 0)
    static let gray = RGB(r: 0.4, g: 0.42, b: 0.45)
    static let light = RGB(r: 0.93, g: 0.94, b: 0.95)
    static let link = RGB(r: 0.04, g: 0.35, b: 0.75)

    /// `#rrggbb` (as the codebook and stroke files write colours); nil for anything else.
    init?(hex: String) {
        let digits = hex.hasPrefix("#") ? hex.dropFirst() : Substring(hex)
        guard digits.count >= 6, let v = Int(digits.prefix(6), radix: 16) else { return nil }
        r = Double((v >> 16) & 0xFF) / 255; g = Double((v >> 8) & 0xFF) / 255; b = Double(v & 0xFF) / 255
    }

    init(r: Double, g: Double, b: Double) { self.r = r; self.g = g; self.b = b }

    /// The colour mixed with white: `amount` 0 is the colour, 1 white. A highlight behind text.
    func tint(_ amount: Double) -> RGB {
        RGB(r: r + (1 - r) * amount, g: g + (1 - g) * amount, b: b + (1 - b) * amount)
    }
}

/// Where a link goes: a web address, or a place in the document that an anchor names.
enum TypesetLink: Equatable {
    case uri(String)
    case anchor(String)
}

/// How a run of text looks.
struct TextStyle: Equatable {
    var bold = false, italic = false, mono = false, strike = false, underline = false, superscript = false
    var color: RGB?
    var background: RGB?
    /// Size relative to the block's font.
    var scale: Double?
    var link: TypesetLink?
}

/// A label drawn in the outer margin beside the line where `offset` falls (a code's name).
struct MarginNote: Equatable {
    var offset: Int
    var text: String
    var color: RGB
}

/// Text with a style for each run; offsets are UTF-8 bytes, as Pango counts them.
struct StyledText {
    var text = ""
    var runs: [(range: Range<Int>, style: TextStyle)] = []
    var notes: [MarginNote] = []

    init(_ text: String = "", _ style: TextStyle = TextStyle()) { append(text, style) }

    var isEmpty: Bool { text.isEmpty }

    mutating func append(_ s: String, _ style: TextStyle = TextStyle()) {
        guard !s.isEmpty else { return }
        let start = text.utf8.count
        text += s
        if style != TextStyle() { runs.append((start..<text.utf8.count, style)) }
    }

    mutating func append(_ other: StyledText) {
        let shift = text.utf8.count
        text += other.text
        runs += other.runs.map { ((shift + $0.range.lowerBound)..<(shift + $0.range.upperBound), $0.style) }
        notes += other.notes.map { MarginNote(offset: $0.offset + shift, text: $0.text, color: $0.color) }
    }

    mutating func note(_ text: String, color: RGB) { notes.append(MarginNote(offset: self.text.utf8.count, text: text, color: color)) }
}

/// The typefaces: a text face, a face for headings, a fixed-width face; fontconfig finds another
/// font for any character these lack (CJK, Arabic, Hebrew, emoji).
enum FontRole: Equatable {
    case body, small, mono, heading(Int), title

    var description: String {
        switch self {
        case .body: return "Noto Serif,DejaVu Serif,serif 10.5"
        case .small: return "Noto Sans,DejaVu Sans,sans-serif 8.5"
        case .mono: return "DejaVu Sans Mono,Noto Sans Mono,monospace 8.5"
        case let .heading(level): return "Noto Sans,DejaVu Sans,sans-serif Bold \([17, 14, 12.5, 11.5, 10.5, 10.5][max(0, min(5, level - 1))])"
        case .title: return "Noto Sans,DejaVu Sans,sans-serif Bold 26"
        }
    }
}

/// An image file embedded as it is (PNG decoded by Cairo, JPEG passed through).
struct TypesetImage {
    var path: String
    var caption: String
}

/// Pen strokes as vectors: each a colour, an opacity and points with a radius (half the width
/// the pen's pressure gives there), in the coordinates of `box`.
struct TypesetDrawing {
    struct Stroke {
        var color: RGB
        var alpha: Double
        var xs: [Double], ys: [Double], radii: [Double]
    }
    var box: (x: Double, y: Double, width: Double, height: Double)
    var strokes: [Stroke]
    /// At most this many points a unit (the heatmap keeps its size; strokes fill the width).
    var maxScale = Double.infinity
    /// A thin frame around the drawing, as a page of the notebook.
    var framed = true
    /// Strokes end square, not round (the heatmap's days).
    var squareEnds = false
}

/// One entry in the PDF's outline (bookmarks): `level` 1 is the top.
struct OutlineItem {
    var level: Int
    var title: String
    var anchor: String
}

/// One block of the document, laid out top to bottom; a block taller than what is left of the
/// page goes on line by line (text) or row by row (tables).
struct TypesetBlock {
    enum Content {
        case text(StyledText)
        /// Rows of cells; `align` per column: "r" right, "c" centred, else the text's own side.
        case table(rows: [[StyledText]], header: [Bool], align: [String])
        case rule
        case image(TypesetImage)
        case drawing(TypesetDrawing)
        case pageBreak
        /// A line of the table of contents: the text, then the page the anchor is on, right-aligned; the whole line links there.
        case contentsLine(StyledText, anchor: String)
    }

    var content: Content
    var font: FontRole = .body
    var centered = false
    /// From the left margin, in points.
    var indent = 0.0
    /// A list item's bullet or number, right-aligned before the indent on the first line.
    var marker: StyledText?
    /// How many quote bars stand left of the text.
    var quoteDepth = 0
    /// A background behind the whole block (code).
    var fill: RGB?
    var spaceBefore = 0.0
    var spaceAfter = 5.0
    /// Headings stay on the page of the line after them.
    var keepWithNext = false
    /// A place links, the contents and the outline go to.
    var anchor: String?
    var outline: [OutlineItem] = []
    /// The running header from this block on (the entry's date); "" for none.
    var header: String?
    /// No page number under the page this block starts (the title page).
    var unnumbered = false

    init(_ content: Content, font: FontRole = .body) {
        self.content = content
        self.font = font
    }
}

/// The page sizes `--paper` offers, in points.
public enum Paper: String, CaseIterable, Sendable {
    case a4, letter

    var size: (width: Double, height: Double) {
        switch self {
        case .a4: return (595.276, 841.89)
        case .letter: return (612, 792)
        }
    }
}
