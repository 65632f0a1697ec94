// Defining a code in the codebook as one commit, as `code define` and the language server's quick fix do it.
import Foundation

extension Diary {
    /// Adds `code` to the codebook or changes its category, description or colour, and commits
    /// `code define: CODE (under PARENT › …)`. Returns whether the code existed before and where
    /// it now sits (` (under emotions)`, or empty at the top level); `.nothing` when the codebook
    /// has it like this already.
    @discardableResult
    public func defineCode(_ code: String, parent: String? = nil, description: String? = nil,
                           color: String? = nil) throws -> (existed: Bool, place: String) {
        var book = try Codebook.load(self)
        let existed = book.contains(code)
        guard try book.define(code, parent: parent, description: description, color: color) else {
            throw DaybookError.nothing("daybook: nothing to change: the codebook has `\(code)` like this already")
        }
        let change = try Change(self)
        try change.write(book)
        let place = book.path(of: code).map { $0.count > 1 ? " (under \($0.dropLast().joined(separator: " › ")))" : "" } ?? ""
        try change.commit("code define: \(code)\(place)")
        return (existed, place)
    }
}
