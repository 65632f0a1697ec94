// Changing the codebook (define, rename, merge, inductive additions) and writing codebook.yml.
import Foundation

extension Codebook {
    /// Adds a code or changes its parent, description or colour. A missing parent is added at
    /// the top level first. An empty description or colour removes it. Returns whether anything changed.
    @discardableResult
    public mutating func define(_ name: String, parent: String? = nil, description: String? = nil, color: String? = nil) throws -> Bool {
        guard Tag.isValid(name) else { throw DaybookError.usage("`\(name)` is not a code name: use letters, digits, _, - and /") }
        if let color, !color.isEmpty, !Codebook.isColor(color) { throw DaybookError.usage("`\(color)` is not a colour: use #RRGGBB or #RRGGBBAA") }
        let before = self
        var code = remove(name) ?? Code(name: name)
        if let description { code.description = description.isEmpty ? nil : description }
        if let color { code.color = color.isEmpty ? nil : color }
        let newParent = parent ?? before.path(of: name)?.dropLast().last
        if let newParent {
            guard Tag.isValid(newParent) else { throw DaybookError.usage("`\(newParent)` is not a code name") }
            if newParent == name || before.descendants(of: name).contains(newParent) {
                self = before
                throw DaybookError.usage("`\(newParent)` is `\(name)` or below it: a code cannot be its own category")
            }
            if !contains(newParent) { codes.append(Code(name: newParent)) }
        }
        // A code that stays in its category keeps its place among its siblings.
        let place = before.path(of: name).flatMap { p -> Int? in
            p.dropLast().last == newParent ? before.siblings(of: p).firstIndex { $0.name == name } : nil
        }
        insert(code, under: newParent, at: place)
        return self != before
    }

    /// Adds a code at the top level when the codebook does not have it (inductive coding), with
    /// a colour no code has yet (`newCodeColor`), so codes made while coding are told apart in
    /// every highlight instead of all taking the one default colour.
    @discardableResult
    public mutating func addIfMissing(_ name: String) -> Bool {
        if contains(name) { return false }
        codes.append(Code(name: name, color: newCodeColor))
        return true
    }

    /// Colours far apart from each other and readable as a highlight on white and dark pages.
    public static let newCodePalette = ["#0969da", "#d1242f", "#1a7f37", "#8250df", "#bc4c00",
                                        "#1b7c83", "#bf3989", "#9a6700", "#0550ae", "#57606a"]

    /// The first colour of the palette that no code of the codebook has; when all are taken,
    /// the palette again in turn, by the number of codes.
    public var newCodeColor: String {
        var used = Set<String>()
        func walk(_ list: [Code]) { for c in list { if let color = c.color { used.insert(color.lowercased()) }; walk(c.children) } }
        walk(codes)
        return Codebook.newCodePalette.first { !used.contains($0) } ?? Codebook.newCodePalette[allCodes.count % Codebook.newCodePalette.count]
    }

    /// Renames a code, keeping its place, description, colour and children.
    public mutating func rename(_ old: String, to new: String) throws {
        guard Tag.isValid(new) else { throw DaybookError.usage("`\(new)` is not a code name: use letters, digits, _, - and /") }
        if old == new { return }
        if contains(new) { throw DaybookError.usage("the codebook already has `\(new)`: use `daybook code merge \(old) --into \(new)`") }
        Codebook.edit(&codes) { if $0.name == old { $0.name = new } }
    }

    /// Merges codes into `target`: their children move under it and they leave the codebook.
    /// When `target` is not defined yet, it takes the place of the first defined source.
    public mutating func merge(_ sources: [String], into target: String) throws {
        guard Tag.isValid(target) else { throw DaybookError.usage("`\(target)` is not a code name: use letters, digits, _, - and /") }
        let others = sources.filter { $0 != target }
        for s in others where descendants(of: s).contains(target) {
            throw DaybookError.usage("`\(target)` is below `\(s)`: merge the category into a code outside it")
        }
        if !contains(target), let first = others.first(where: contains) {
            try rename(first, to: target)
        }
        var moved: [Code] = []
        for s in others { if let c = remove(s) { moved += c.children } }
        if !contains(target) && !moved.isEmpty { codes.append(Code(name: target)) }
        for child in moved { insert(child, under: target, at: nil) }
    }

    // MARK: Writing

    /// codebook.yml as daybook writes it, in the layout of SPEC §1.2: a category, and a top-level
    /// code with a description or colour, as a block; any other code on one line. Reading and
    /// writing again gives the same bytes, so an edit changes only its own lines.
    public var yaml: String {
        var out = "codes:" + (codes.isEmpty ? " {}\n" : "\n")
        func write(_ code: Code, indent: String) {
            let name = YAMLWriter.scalar(code.name)
            var fields: [(String, String)] = []
            if let d = code.description { fields.append(("description", d)) }
            if let c = code.color { fields.append(("color", c)) }
            if code.children.isEmpty && (indent.count > 2 || fields.isEmpty) {
                let flow = fields.map { "\($0.0): \(YAMLWriter.scalar($0.1, inFlow: true))" }.joined(separator: ", ")
                out += "\(indent)\(name): {\(flow)}\n"
                return
            }
            out += "\(indent)\(name):\n"
            for (k, v) in fields { out += "\(indent)  \(k): \(YAMLWriter.scalar(v))\n" }
            if code.children.isEmpty { return }
            out += "\(indent)  codes:\n"
            for child in code.children { write(child, indent: indent + "    ") }
        }
        for c in codes { write(c, indent: "  ") }
        return out
    }

    // MARK: Tree surgery

    func siblings(of path: [String]) -> [Code] {
        guard let parent = path.dropLast().last else { return codes }
        return code(parent)?.children ?? []
    }

    /// Takes a code (with its children) out of the tree.
    mutating func remove(_ name: String) -> Code? {
        var found: Code?
        func take(_ list: inout [Code]) {
            if let i = list.firstIndex(where: { $0.name == name }) { found = list.remove(at: i); return }
            for i in list.indices { take(&list[i].children) }
        }
        take(&codes)
        return found
    }

    mutating func insert(_ code: Code, under parent: String?, at index: Int?) {
        func put(_ list: inout [Code]) {
            if let i = list.firstIndex(where: { $0.name == code.name }) {
                // Merging a child that the target already has: keep the target's, adopt the grandchildren.
                for c in code.children where !list[i].children.contains(where: { $0.name == c.name }) { list[i].children.append(c) }
                return
            }
            list.insert(code, at: min(index ?? list.count, list.count))
        }
        guard let parent else { put(&codes); return }
        Codebook.edit(&codes) { if $0.name == parent { put(&$0.children) } }
    }

    static func edit(_ list: inout [Code], _ body: (inout Code) -> Void) {
        for i in list.indices {
            body(&list[i])
            edit(&list[i].children, body)
        }
    }
}
