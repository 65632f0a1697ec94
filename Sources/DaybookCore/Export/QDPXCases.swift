// REFI-QDA Cases and Variables: a study's participants, their attributes, and the sources that are theirs.
import Foundation

/// One case of a QDPX project: a participant of a study, with their attributes as variable values
/// and the entries (by id, as exported) that are the case's sources.
public struct QDPXCase: Sendable {
    public var name: String
    public var description: String?
    public var variables: [(name: String, value: JSONValue)]
    public var entryIDs: [String]

    public init(name: String, description: String? = nil, variables: [(name: String, value: JSONValue)], entryIDs: [String]) {
        self.name = name
        self.description = description
        self.variables = variables
        self.entryIDs = entryIDs
    }
}

extension REFIXML {
    /// The type of a variable: Integer, Float or Boolean when every case's value is one, else Text.
    static func variableType(_ values: [JSONValue]) -> String {
        let present = values.filter { $0 != .null }
        func all(_ test: (JSONValue) -> Bool) -> Bool { !present.isEmpty && present.allSatisfy(test) }
        if all({ if case .bool = $0 { return true } else { return false } }) { return "Boolean" }
        if all({ if case .int = $0 { return true } else { return false } }) { return "Integer" }
        if all({ switch $0 { case .int, .double: return true; default: return false } }) { return "Float" }
        return "Text"
    }

    /// `<Variables>` then `<Cases>` (the schema's order, between CodeBook and Sources); nil without cases.
    static func cases(_ cases: [QDPXCase]) -> String? {
        guard !cases.isEmpty else { return nil }
        var names: [String] = []
        for c in cases { for v in c.variables where !names.contains(v.name) { names.append(v.name) } }
        let types = Dictionary(uniqueKeysWithValues: names.map { n in (n, variableType(cases.compactMap { c in c.variables.first { $0.name == n }?.value })) })
        var s = ""
        if !names.isEmpty {
            s += "  <Variables>\n" + names.map { n in
                "    <Variable\(attributes([("guid", guid("variable", n)), ("name", n), ("typeOfVariable", types[n])]))/>\n"
            }.joined() + "  </Variables>\n"
        }
        s += "  <Cases>\n"
        for c in cases {
            s += "    <Case\(attributes([("guid", guid("case", c.name)), ("name", c.name)]))>\n"
            if let d = c.description { s += "      <Description>\(escape(d))</Description>\n" }
            for v in c.variables where v.value != .null {
                let element: String
                switch types[v.name] {
                case "Boolean": element = "BooleanValue"
                case "Integer": element = "IntegerValue"
                case "Float": element = "FloatValue"
                default: element = "TextValue"
                }
                let text = v.value.stringValue ?? v.value.serialized(pretty: false)
                s += "      <VariableValue><VariableRef targetGUID=\"\(guid("variable", v.name))\"/><\(element)>\(escape(text))</\(element)></VariableValue>\n"
            }
            for id in c.entryIDs { s += "      <SourceRef targetGUID=\"\(guid("entry", id))\"/>\n" }
            s += "    </Case>\n"
        }
        return s + "  </Cases>\n"
    }
}
