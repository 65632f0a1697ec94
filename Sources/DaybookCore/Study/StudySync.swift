// `study sync`: each participant's diary cloned into the study folder, or moved forward to what
// its remote holds. Read-only: nothing is ever committed in, or pushed to, a participant's diary.
import Foundation

public enum ParticipantSync: Equatable, Sendable {
    /// A new copy.
    case cloned
    /// The copy moved forward by this many commits.
    case updated(Int)
    case upToDate
}

extension Study {
    /// Brings the participant's copy (`participants/<id>/`) up to date with their diary. A first
    /// clone goes to a hidden folder renamed into place once complete, so a failed or interrupted
    /// clone leaves no half copy behind.
    public func sync(_ p: Participant, progress: TransferProgress? = nil) throws -> ParticipantSync {
        let copy = self.copy(of: p)
        let source = self.source(of: p)
        let fm = FileManager.default
        if fm.fileExists(atPath: copy.appendingPathComponent(".git").path) {
            let repo = try Repository.open(copy)
            // study.yml may have moved the participant's diary elsewhere since the last sync.
            if repo.remoteURL("origin") != source { try repo.setRemote("origin", url: source) }
            let n = try repo.pullFastForward(branch: p.branch, progress: progress)
            return n == 0 ? .upToDate : .updated(n)
        }
        if fm.fileExists(atPath: copy.path) {
            throw DaybookError.io("\(Study.participantsFolder)/\(p.id) exists but is not a git repository: move it away and sync again")
        }
        let parent = copy.deletingLastPathComponent()
        try fm.createDirectory(at: parent, withIntermediateDirectories: true)
        let partial = parent.appendingPathComponent(".\(p.id).cloning")
        try? fm.removeItem(at: partial)
        defer { try? fm.removeItem(at: partial) }
        _ = try Repository.clone(source, to: partial, branch: p.branch, progress: progress)
        try fm.moveItem(at: partial, to: copy)
        return .cloned
    }

    /// The participant's copy opened as a diary; an error naming `study sync` when it is not there yet.
    public func diary(of p: Participant, environment: [String: String], workingDirectory: URL) throws -> Diary {
        let copy = self.copy(of: p)
        guard Diary.exists(at: copy) else {
            let why = FileManager.default.fileExists(atPath: copy.path) ? "holds no daybook.yml (not a daybook diary)" : "is missing: run `daybook study sync`"
            throw DaybookError.input("participant \(p.id): \(Study.participantsFolder)/\(p.id) \(why)", at: p.location)
        }
        return try Diary.open(copy, environment: environment, workingDirectory: workingDirectory)
    }
}
