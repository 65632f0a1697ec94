// The per-path decisions of a sync merge, on in-memory trees.
import XCTest
@testable import DaybookCore

final class TreeMergeTests: XCTestCase {
    /// Blob ids are the contents themselves here, so trees read as what they hold.
    func merge(_ base: [String: String], _ ours: [String: String], _ theirs: [String: String]) throws -> TreeMerge {
        try TreeMerge(base: base, ours: ours, theirs: theirs, remoteHash: "abc1234") { Data($0.utf8) }
    }

    func changes(_ m: TreeMerge) -> [String: String?] {
        Dictionary(uniqueKeysWithValues: m.changes.map { change in
            (change.path, change.content.map { content -> String in
                switch content {
                case let .blob(id): return id
                case let .data(d): return String(decoding: d, as: UTF8.self)
                }
            })
        })
    }

    func entry(_ title: String, tags: String = "[]", body: String = "text\n") -> String {
        "---\ntitle: \(title)\ndate: 2026-11-20T08:00:00+01:00\ntags: \(tags)\n---\n\(body)"
    }

    let a = "entries/2026/11/2026-11-20-0800-a.md", b = "entries/2026/11/2026-11-20-0900-b.md"

    func testEntriesAddedOnBothSidesMeet() throws {
        let m = try merge(["daybook.yml": "name: x\n"], ["daybook.yml": "name: x\n", a: entry("A")], ["daybook.yml": "name: x\n", b: entry("B")])
        XCTAssertEqual(changes(m), [b: entry("B")])
        XCTAssertEqual(m.conflicts, [])
    }

    func testTagsChangedOnBothSides() throws {
        let m = try merge([a: entry("A", tags: "[start]")], [a: entry("A", tags: "[start, x]")], [a: entry("A", tags: "[field]")])
        XCTAssertEqual(changes(m), [a: entry("A", tags: "[x, field]")])
    }

    func testTheSameBodyLinesChangedOnBothLeaveAConflictCopy() throws {
        let m = try merge([a: entry("A")], [a: entry("A", body: "ours\n")], [a: entry("A", tags: "[t]", body: "theirs\n")])
        let copy = "entries/2026/11/2026-11-20-0800-a.conflict-abc1234.md"
        XCTAssertEqual(changes(m), [a: entry("A", tags: "[t]", body: "ours\n"), copy: entry("A", tags: "[t]", body: "theirs\n")])
        XCTAssertEqual(m.conflicts.map(\.copy), [copy])
    }

    func testAnEditSurvivesTheOtherSideDeletingTheEntryWithItsStrokesAndAttachments() throws {
        let strokes = String(a.dropLast(3)) + ".strokes.json", photo = String(a.dropLast(3)) + "/photo.jpg"
        let base = [a: entry("A"), strokes: "s", photo: "p"]
        // They deleted it all; we edited the entry.
        var m = try merge(base, [a: entry("A", body: "more\n"), strokes: "s", photo: "p"], [:])
        XCTAssertEqual(changes(m), [:])
        // We deleted it all; they edited the entry.
        m = try merge(base, [:], [a: entry("A", body: "more\n"), strokes: "s", photo: "p"])
        XCTAssertEqual(changes(m), [a: entry("A", body: "more\n"), strokes: "s", photo: "p"])
    }

    func testADeletionOnOneSideOfAnUntouchedEntryApplies() throws {
        let m = try merge([a: entry("A"), b: entry("B")], [a: entry("A"), b: entry("B", body: "x\n")], [b: entry("B")])
        XCTAssertEqual(changes(m), [a: nil])
    }

    func testTheSameIdAddedOnBothSidesKeepsBothRenamingTheirs() throws {
        let dir = String(a.dropLast(3))
        let theirs = [a: entry("A", body: "![p](2026-11-20-0800-a/p.png)\n"), dir + "/p.png": "png", dir + ".strokes.json": "t"]
        let m = try merge([:], [a: entry("A", body: "mine\n"), dir + ".strokes.json": "o"], theirs)
        XCTAssertEqual(changes(m), [dir + "-2.md": entry("A", body: "![p](2026-11-20-0800-a-2/p.png)\n"),
                                    dir + "-2/p.png": "png", dir + "-2.strokes.json": "t"])
        XCTAssertEqual(m.renamed.map(\.to), [dir + "-2.md"])
    }

    func testStrokeFilesMergeAsSetsOfStrokes() throws {
        let s = "entries/2026/11/x.strokes.json"
        func file(_ strokes: [String]) -> String {
            "{\n  \"format\": \"daybook-strokes\",\n  \"strokes\": [\n" + strokes.map { "{\"n\": \($0)}" }.joined(separator: ",\n")
                + (strokes.isEmpty ? "" : "\n") + "  ]\n}\n"
        }
        let m = try merge([s: file(["1", "2"])], [s: file(["1", "2", "3"])], [s: file(["2", "4"])])
        XCTAssertEqual(changes(m), [s: file(["2", "3", "4"])])
    }

    func testCodebooksMergeByKey() throws {
        let base = "codes:\n  emotions:\n    codes:\n      relief: {}\n"
        let ours = "codes:\n  emotions:\n    codes:\n      relief: {}\n      anger: {}\n"
        let theirs = "codes:\n  emotions:\n    codes:\n      relief: {}\n  workaround:\n    description: Someone bypasses it\n"
        let m = try merge(["codebook.yml": base], ["codebook.yml": ours], ["codebook.yml": theirs])
        XCTAssertEqual(changes(m), ["codebook.yml": "codes:\n  emotions:\n    codes:\n      relief: {}\n      anger: {}\n  workaround: {description: Someone bypasses it}\n"])
    }

    func testASettingChangedDifferentlyKeepsOursAndSavesTheirs() throws {
        let m = try merge(["daybook.yml": "name: x\ncoder: a\n"], ["daybook.yml": "name: y\ncoder: a\n"], ["daybook.yml": "name: z\ncoder: b\n"])
        XCTAssertEqual(changes(m), ["daybook.yml": "name: y\ncoder: b\n", "daybook.conflict-abc1234.yml": "name: z\ncoder: b\n"])
        XCTAssertEqual(m.conflicts.first?.reason, "both machines changed `name` differently")
    }

    func testOtherFilesTakeTheChangedSideOrKeepBoth() throws {
        let photo = "entries/2026/11/x/photo.jpg"
        XCTAssertEqual(changes(try merge([photo: "1"], [photo: "1"], [photo: "2"])), [photo: "2"])
        let m = try merge([photo: "1"], [photo: "3"], [photo: "2"])
        XCTAssertEqual(changes(m), ["entries/2026/11/x/photo.conflict-abc1234.jpg": "2"])
    }

    func testConflictCopyNames() {
        XCTAssertEqual(TreeMerge.conflictCopyPath("entries/2026/11/x.strokes.json", hash: "h"), "entries/2026/11/x.conflict-h.strokes.json")
        XCTAssertEqual(TreeMerge.conflictCopyPath(".gitignore", hash: "h"), ".gitignore.conflict-h")
        XCTAssertEqual(TreeMerge.conflictCopyPath("codebook.yml", hash: "h"), "codebook.conflict-h.yml")
    }
}
