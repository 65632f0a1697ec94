// `purge --verify WORD…`: looks for words everywhere a purge must have erased them from.
import Foundation

public enum PurgeVerify {
    /// One place that still holds a word.
    public struct Finding: Equatable {
        public var word: String
        /// `object <id> (<type>)`, or a file's path relative to the diary.
        public var place: String
    }

    public struct Result {
        public var findings: [Finding] = []
        public var objects = 0
        public var files = 0
    }

    /// Every object of the repository (loose and packed, reachable or not, decompressed), every
    /// other file of the repository's folder (references, reflogs, the index, the encrypted
    /// remote's mirror and state), and every file under `.daybook/` (the caches): each searched
    /// for each word, ignoring case. The working tree is not searched: other entries may hold
    /// the words rightly.
    public static func scan(_ words: [String], in diary: Diary) throws -> Result {
        let wanted = words.filter { !$0.isEmpty }.map { w in (word: w, needles: Set([w, w.lowercased(), w.uppercased()]).map { Data($0.utf8) }) }
        var result = Result()
        func look(_ data: Data, _ place: String) {
            let lowered = Data(data.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 })
            for (word, needles) in wanted where needles.contains(where: { data.range(of: $0) != nil || lowered.range(of: $0) != nil }) {
                result.findings.append(Finding(word: word, place: place))
            }
        }
        let repo = try diary.repository()
        try repo.forEachStoredObject { id, type, data in
            result.objects += 1
            look(data, "object \(id) (\(type))")
        }
        let git = repo.gitDirectory.standardizedFileURL
        for folder in [git, diary.stateFolder] {
            guard let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { continue }
            for case let url as URL in walk {
                let path = url.standardizedFileURL.path
                // The objects were read above, decompressed; the raw pack and loose files are
                // compressed, so reading them again would find nothing the objects did not.
                if folder == git && path.hasPrefix(git.path + "/objects/") { continue }
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true,
                      let data = try? Data(contentsOf: url, options: .mappedIfSafe) else { continue }
                result.files += 1
                let root = diary.root.standardizedFileURL.path + "/"
                look(data, path.hasPrefix(root) ? diary.displayPath(String(path.dropFirst(root.count))) : path)
            }
        }
        return result
    }
}
