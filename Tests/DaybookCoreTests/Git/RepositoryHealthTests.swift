// The repository's own soundness (issue 38): HEAD on a branch that exists, every object of HEAD's
// history present; damaged by hand the way a disk, a bad copy or a person damages it.
import XCTest
import CLibGit2
@testable import DaybookCore

final class RepositoryHealthTests: DiaryTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        for (i, name) in ["a", "b"].enumerated() {
            let change = try Change(diary)
            try change.write("---\ntitle: \(name)\n---\nwords \(i)\n", to: "entries/2026/11/2026-11-2\(i)-1000-\(name).md")
            try change.commit("new: \(name)")
        }
    }

    func removeObject(_ id: String) throws {
        try FileManager.default.removeItem(at: tmp.appendingPathComponent(".git/objects/\(id.prefix(2))/\(id.dropFirst(2))"))
    }

    func testASoundRepositoryHasNothingMissing() throws {
        let repo = try diary.repository()
        XCTAssertEqual(try repo.missingObjects(), [])
        XCTAssertNil(repo.headProblem())
    }

    func testAMissingBlobIsNamedByItsPathAndCommit() throws {
        let repo = try diary.repository()
        let head = try XCTUnwrap(repo.headID)
        let path = "entries/2026/11/2026-11-20-1000-a.md"
        let blob = try XCTUnwrap(try repo.blobIDs(commit: head)[path])
        try removeObject(blob)
        let missing = try diary.repository().missingObjects()
        XCTAssertEqual(missing, [MissingObject(kind: .blob, id: blob, path: path, commit: head)])
        // libgit2's error, in daybook's words.
        let e = try XCTUnwrap(diary.repository().explainMissingObject(DaybookError(.git, "git_index_write_tree failed: failed to insert entry: invalid object specified - x.md")))
        XCTAssertEqual(e.location?.path, path)
        XCTAssertTrue(e.message.contains("git fetch"), e.message)
        XCTAssertNil(try diary.repository().explainMissingObject(DaybookError(.git, "git_remote_fetch failed: timed out")))
    }

    func testAMissingTreeOfAnOlderCommitIsFound() throws {
        let repo = try diary.repository()
        let first = try XCTUnwrap(repo.resolve("HEAD~1").id)
        // The month folder's tree as the first commit had it (the second commit has its own).
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        git.arguments = ["git", "-C", tmp.path, "rev-parse", "HEAD~1:entries/2026/11"]
        let out = Pipe()
        git.standardOutput = out
        try git.run()
        git.waitUntilExit()
        let tree = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(tree.count, 40)
        try removeObject(tree)
        let missing = try diary.repository().missingObjects()
        XCTAssertEqual(missing.map(\.kind), [.tree])
        XCTAssertEqual(missing.first?.path, "entries/2026/11")
        XCTAssertEqual(missing.first?.commit, first)
    }

    func testHeadOnAMissingBranchIsAProblemOnlyWhenOthersExist() throws {
        try "ref: refs/heads/gone\n".write(to: tmp.appendingPathComponent(".git/HEAD"), atomically: true, encoding: .utf8)
        let problem = try XCTUnwrap(try diary.repository().headProblem())
        XCTAssertTrue(problem.contains("`gone`") && problem.contains("git checkout main"), problem)
        XCTAssertThrowsError(try Change(diary)) { e in
            XCTAssertEqual((e as? DaybookError)?.location?.path, ".git/HEAD")
        }
        // A new repository, before its first commit, is fine.
        let fresh = tmp.appendingPathComponent("fresh")
        let repo = try Repository.create(fresh, branch: "main")
        XCTAssertNil(repo.headProblem())
    }

    /// Each kind of libgit2 failure gets what daybook was doing and what to do, never the name of a
    /// libgit2 function (issue 39).
    func testLibgit2FailuresAreSaidInDaybooksWords() {
        func say(_ f: String, _ kind: git_error_t, _ code: Int32 = -1) -> String {
            Repository.failure(doing: f, message: "libgit2's words", kind: Int32(kind.rawValue), code: code)
        }
        let os = say("git_index_add_bypath", GIT_ERROR_OS)
        XCTAssertTrue(os.hasPrefix("staging the change in .git/index failed: libgit2's words; the system refused a file"), os)
        XCTAssertTrue(say("git_commit_create", GIT_ERROR_ODB).contains("making the commit failed") && say("git_commit_create", GIT_ERROR_ODB).contains("`daybook check` lists them"))
        XCTAssertTrue(say("git_reference_set_target", GIT_ERROR_REFERENCE, Int32(GIT_ELOCKED.rawValue)).contains("another git program holds the branch"))
        XCTAssertTrue(say("git_reference_set_target", GIT_ERROR_REFERENCE).contains("could not be read or moved"))
        XCTAssertTrue(say("git_remote_fetch", GIT_ERROR_NET).contains("talking to the remote failed"))
        XCTAssertTrue(say("git_revwalk_next", GIT_ERROR_NONE).hasPrefix("reading the history failed"))
        for f in ["git_index_add_bypath", "git_commit_create", "git_remote_fetch", "git_revwalk_next"] {
            XCTAssertFalse(say(f, GIT_ERROR_INDEX).contains("git_"), f)
        }
    }
}
