// Three-way merge of a stroke file: one stroke per line, so the strokes merge as a set.
import Foundation

public enum StrokeMerge {
    /// A stroke file split around its `"strokes": [` … `]` lines.
    struct Layout {
        var header: [String]
        /// Each stroke line without its separating comma and line ending.
        var strokes: [String]
        var footer: [String]
        var indent: String

        init?(_ text: String) {
            let lines = EntryText.splitLines(text)
            guard let open = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("\"strokes\": [") }),
                  let close = lines[(open + 1)...].firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("]") })
            else { return nil }
            header = Array(lines[...open])
            footer = Array(lines[close...])
            strokes = lines[(open + 1)..<close].map {
                var s = KeyedMerge.withoutEnding($0)
                while s.last?.isWhitespace == true { s.removeLast() }
                if s.hasSuffix(",") { s.removeLast() }
                return s
            }.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            indent = String(strokes.first?.prefix { $0 == " " || $0 == "\t" } ?? "")
        }

        var key: [String] { strokes.map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    /// Strokes either side added survive, strokes either side removed go; the header (canvas,
    /// channels) takes the side that changed it. Nil when the files are not one stroke per line or
    /// both changed the header differently.
    public static func merge(base: String?, ours: String, theirs: String) -> String? {
        guard let o = Layout(ours), let t = Layout(theirs) else { return nil }
        let b = base.flatMap(Layout.init)
        func pick(_ part: (Layout) -> [String]) -> [String]? {
            let bp = b.map(part), op = part(o), tp = part(t)
            if op == tp || bp == tp { return op }
            return bp == op ? tp : nil
        }
        guard let header = pick(\.header), let footer = pick(\.footer) else { return nil }
        let keys = KeyedMerge.setMerge(b?.key ?? [], o.key, t.key)
        let ending = header.last?.hasSuffix("\r\n") == true ? "\r\n" : "\n"
        let lines = keys.enumerated().map { i, s in o.indent + s + (i == keys.count - 1 ? "" : ",") + ending }
        return (header + lines + footer).joined()
    }
}
