// An InkML file as a small element tree, read with FoundationXML's XMLParser.
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One XML element: local name (prefix dropped), attributes, children, text, and its line.
final class InkMLElement {
    let name: String
    let attributes: [String: String]
    let line: Int
    var children: [InkMLElement] = []
    var text = ""

    init(name: String, attributes: [String: String], line: Int) {
        self.name = name
        self.attributes = attributes
        self.line = line
    }

    /// `xml:id` (InkML 1.0) or `id` (earlier drafts).
    var id: String? { attributes["xml:id"] ?? attributes["id"] }

    func children(_ name: String) -> [InkMLElement] { children.filter { $0.name == name } }
    func child(_ name: String) -> InkMLElement? { children.first { $0.name == name } }
}

enum InkMLDocument {
    /// Parses the XML; a malformed file is an error with its line and column. External entities
    /// are never resolved.
    static func parse(_ data: Data, path: String) throws -> InkMLElement {
        let parser = XMLParser(data: data)
        let builder = Builder(parser: parser)
        parser.delegate = builder
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        if !parser.parse() || builder.root == nil {
            let reason = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "not XML"
            throw DaybookError.input("not a readable InkML file: \(reason)",
                                     at: SourceLocation(path: path, line: max(1, parser.lineNumber), column: max(1, parser.columnNumber)))
        }
        if let open = builder.stack.last {
            throw DaybookError.input("the file ends inside <\(open.name)> (from line \(open.line))",
                                     at: SourceLocation(path: path, line: max(1, parser.lineNumber)))
        }
        guard let root = builder.root, root.name == "ink" else {
            throw DaybookError.input("an InkML file has <ink> as its root element (found <\(builder.root?.name ?? "")>)", at: SourceLocation(path: path, line: 1))
        }
        return root
    }

    private final class Builder: NSObject, XMLParserDelegate {
        weak var parser: XMLParser?
        var root: InkMLElement?
        var stack: [InkMLElement] = []

        init(parser: XMLParser) { self.parser = parser }

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            let local = elementName.split(separator: ":").last.map(String.init) ?? elementName
            let e = InkMLElement(name: local, attributes: attributeDict, line: parser.lineNumber)
            if let parent = stack.last { parent.children.append(e) } else if root == nil { root = e }
            stack.append(e)
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            _ = stack.popLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last?.text += string
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            stack.last?.text += String(decoding: CDATABlock, as: UTF8.self)
        }
    }
}
