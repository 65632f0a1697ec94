// Completion: front-matter keys, tags with counts, codes with descriptions, templates, field options, `#tag` in the body.
import DaybookCore
import Foundation

enum Completion {
    static let knownKeys: [(String, String)] = [
        ("title", "the entry's title"), ("date", "when it happened (ISO 8601 with offset)"),
        ("tags", "list of tags"), ("mood", "integer on the diary's mood scale"),
        ("codes", "the entry's codings"), ("template", "the template it was made from"),
    ]

    static func items(_ doc: Document, at p: Position) -> [CompletionItem] {
        guard let a = doc.analysis, let (context, _) = doc.place, let at = EntryPlace(a, p) else { return [] }
        let range = at.wordRange(a.lines)
        func item(_ label: String, kind: Int, detail: String? = nil, doc: String? = nil, sort: Int = 0, insert: String? = nil) -> CompletionItem {
            CompletionItem(label: label, kind: kind, detail: detail, documentation: doc.map { MarkupContent(value: $0) },
                           sortText: String(format: "%06d", sort) + label, filterText: label,
                           textEdit: TextEdit(range: range, newText: insert ?? label))
        }
        let template = a.value(of: "template").flatMap { try? TemplateLibrary(diary: context.diary).template(named: $0) }
        // Counted once per diary, kept by LiveDiary; asked for once here.
        var index: DiaryIndex { context.entries }
        if !at.inFrontMatter {
            guard at.charBeforeWord(a.lines) == "#" else { return [] }
            return index.tags.enumerated().map { k, t in item(t.name, kind: 12, detail: entries(t.entries), sort: k) }
        }
        if at.typingKey {
            let present = Set((1..<(a.entryText?.closing ?? a.lines.count)).compactMap { n -> String? in
                let l = a.lines.line(n)
                guard let c = l.firstIndex(of: ":"), l.first != " " else { return nil }
                return String(l[..<c])
            })
            var out: [CompletionItem] = []
            var k = 0
            func add(_ key: String, _ detail: String) {
                guard !present.contains(key), !out.contains(where: { $0.label == key }) else { return }
                out.append(item(key, kind: 10, detail: detail, sort: k, insert: key + ": "))
                k += 1
            }
            for (key, what) in knownKeys { add(key, what) }
            for f in template?.fields ?? [] { add(f.name, "field of \(template?.name ?? ""): \(f.kind.rawValue)" + (f.required ? ", required" : "")) }
            for (key, n) in index.keys.sorted(by: { $0.value > $1.value }) { add(key, "in use: " + entries(n)) }
            return out
        }
        switch at.key {
        case "tags":
            return index.tags.enumerated().map { k, t in item(t.name, kind: 12, detail: entries(t.entries), sort: k) }
        case "codes":
            let trimmed = at.before.drop { $0 == " " || $0 == "-" }
            guard trimmed.isEmpty || trimmed.hasPrefix("code:") || !trimmed.contains(":") else { return [] }
            let book = context.codebook, index = index
            return index.codesByUse(book).enumerated().map { k, name in
                let used = index.codes[name]
                let def = book.code(name)
                var detail = used.map { "\($0.codings) coding\($0.codings == 1 ? "" : "s")" } ?? "no codings yet"
                if def == nil { detail += ", not in the codebook" }
                let path = book.path(of: name).map { $0.count > 1 ? "\n\nunder " + $0.dropLast().joined(separator: " › ") : "" } ?? ""
                return item(name, kind: 20, detail: detail, doc: (def?.description ?? "") + path, sort: k)
            }
        case "template":
            return TemplateLibrary(diary: context.diary).allNames.enumerated().map { k, n in item(n, kind: 13, detail: "template", sort: k) }
        case "mood":
            let scale = template.flatMap { context.diary.templateMoodScales.scale(of: $0.name) } ?? context.diary.config.moodMin...context.diary.config.moodMax
            return scale.map { item(String($0), kind: 12, detail: "mood \(scale.lowerBound)–\(scale.upperBound)", sort: $0) }
        case "date":
            let exact = context.diary.clock.nowLocal.description
            return [item(exact, kind: 12, detail: "now (ISO 8601 with offset)", sort: 0),
                    item(String(exact.prefix(16)).replacingOccurrences(of: "T", with: " "), kind: 12, detail: "YYYY-MM-DD HH:MM (diary time zone)", sort: 1),
                    item(String(exact.prefix(10)), kind: 12, detail: "YYYY-MM-DD (00:00)", sort: 2)]
        case let key?:
            guard let field = template?.fields.first(where: { $0.name == key }) else { return [] }
            switch field.kind {
            case .choice, .multi: return field.options.enumerated().map { k, o in item(o, kind: 20, detail: "\(field.kind.rawValue) of \(key)", sort: k) }
            case .bool: return [item("true", kind: 12, sort: 0), item("false", kind: 12, sort: 1)]
            case .scale:
                let lo = Int(field.min ?? 1), hi = max(lo, Int(field.max ?? 5))
                return (lo...hi).map { item(String($0), kind: 12, detail: "\(key) \(lo)–\(hi)", sort: $0) }
            default: return []
            }
        default:
            return []
        }
    }

    static func entries(_ n: Int) -> String { "\(n) entr\(n == 1 ? "y" : "ies")" }
}
