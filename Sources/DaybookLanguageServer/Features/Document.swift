// An open document: the editor's text (the truth while it is open), and where it sits in a diary.
import DaybookCore
import Foundation

final class Document {
    let uri: String
    var version: Int?
    var text: String {
        didSet { cached = nil }
    }
    /// The diary the file belongs to and its path there; nil for a file outside any diary, or
    /// one that is not an entry (`entries/YYYY/MM/<id>.md`).
    let place: (context: DiaryContext, rel: String)?

    private var cached: Analysis?

    /// The file as this buffer was made from it: its text when opened (or as the last save
    /// committed it) and the version HEAD had then; a save merges back what was committed since.
    var base: EditBase?
    /// The file as the server last saw it on disk (its stamp and text), to notice a change made
    /// under the open buffer (`daybook tag add`, the web app, sync).
    var diskStamp: FileStamp?
    var diskText: String?
    /// What the file on disk changed since `base` that the buffer does not hold (`tags`, the
    /// body): told once, shown as a diagnostic, offered as a code action until saved or taken.
    var diskChanges: [String] = [] {
        didSet { cached = nil }
    }

    init(uri: String, version: Int?, text: String, place: (DiaryContext, String)?) {
        self.uri = uri
        self.version = version
        self.text = text
        self.place = place
    }

    /// The text checked as `daybook check` checks an entry, once per version of the text.
    struct Analysis {
        var lines: TextLines
        var check: EntryCheck
        /// The text split as the library edits it, nil when the front matter is not closed.
        var entryText: EntryText?
    }

    var analysis: Analysis? {
        guard let (context, rel) = place else { return nil }
        if let cached { return cached }
        let a = Analysis(lines: TextLines(text),
                         check: EntryCheck(text, rel: rel, diary: context.diary, codebook: context.codebook, links: context.entryLinks),
                         entryText: try? EntryText(text, path: rel))
        cached = a
        return a
    }

    /// The codebook may have changed on disk: check again next time.
    func forget() { cached = nil }

    /// Applies one change of `didChange`: a range replaced, or the whole text.
    func apply(_ change: DidChangeParams.Change) {
        guard let range = change.range else { text = change.text; return }
        let lines = TextLines(text)
        let lo = lines.index(of: range.start), hi = lines.index(of: range.end)
        text.replaceSubrange(min(lo, hi)..<max(lo, hi), with: change.text)
    }

    /// The file path of a `file:` URI; nil for any other scheme.
    static func path(ofURI uri: String) -> String? {
        guard let url = URL(string: uri), url.isFileURL else { return nil }
        return url.standardizedFileURL.path
    }
}
