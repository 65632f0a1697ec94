// The git blob id of some bytes: what a file's content is called in git, used as its version.
import CLibGit2
import Foundation

extension Repository {
    /// The id git gives a blob of these bytes (`git hash-object`), without writing anything.
    public static func blobID(of data: Data) throws -> String {
        var oid = git_oid()
        try data.withUnsafeBytes { raw in
            try check(git_odb_hash(&oid, raw.baseAddress, raw.count, GIT_OBJECT_BLOB), "git_odb_hash")
        }
        return Repository.string(oid)
    }
}
