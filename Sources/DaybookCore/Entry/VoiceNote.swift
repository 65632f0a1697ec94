// Voice notes: audio attachments with their duration, and transcripts from the diary's `transcribe:` command.
import Foundation

public enum VoiceNote {
    public static let audioExtensions: Set<String> = ["wav", "ogg", "oga", "opus", "mp3", "m4a", "aac", "flac", "webm"]

    public static func isAudio(_ name: String) -> Bool { audioExtensions.contains((name as NSString).pathExtension.lowercased()) }

    /// The length of a WAV file in seconds, from its `fmt ` and `data` chunks; nil for another
    /// format or a file that does not say (its link then shows no duration).
    public static func duration(of url: URL) -> Double? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        let head = handle.readData(ofLength: 1 << 16)
        let b = [UInt8](head)
        func u32(_ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 | Int(b[i + 3]) << 24 }
        guard b.count >= 12, b[0..<4] == [0x52, 0x49, 0x46, 0x46][...], b[8..<12] == [0x57, 0x41, 0x56, 0x45][...] else { return nil }
        var i = 12
        var byteRate: Int?
        while i + 8 <= b.count {
            let id = String(decoding: b[i..<(i + 4)], as: UTF8.self), size = u32(i + 4)
            if id == "fmt ", i + 16 <= b.count { byteRate = u32(i + 16) }
            if id == "data", let rate = byteRate, rate > 0 {
                // A stream written before its length was known says 0 or 0xFFFFFFFF: the file's size tells then.
                let fileSize = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
                let dataSize = (size == 0 || size == 0xFFFF_FFFF) ? (fileSize ?? 0) - (i + 8) : size
                return Double(max(0, dataSize)) / Double(rate)
            }
            i += 8 + size + (size & 1)
        }
        return nil
    }

    /// `0:03`, `12:40`, `1:02:03`.
    public static func durationText(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }

    /// What follows an audio file's link on its line: ` · audio 0:03` (the duration when known).
    public static func linkSuffix(for url: URL) -> String {
        " · audio" + (duration(of: url).map { " " + durationText($0) } ?? "")
    }

    /// The first line of a transcript's block: the mark that says the text is a transcript, of
    /// which file (`transcribe` looks for it to leave a transcribed file alone).
    static func mark(_ name: String) -> String { "> *Transcript of \(name):*" }

    /// A transcript as a block quote under its mark, so it reads as a transcript and not as
    /// words the writer typed.
    public static func block(name: String, text: String) -> [String] {
        [mark(name)] + text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? ">" : "> " + $0 }
    }

    /// Runs the diary's `transcribe:` command on `audio` (its path as the last argument, through
    /// /bin/sh) and returns what it printed, trimmed. A command that fails, or prints nothing,
    /// is an error naming it and what it said: no entry is made with a transcript missing.
    public static func transcribe(_ audio: URL, command: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", command + " \"$1\"", "daybook-transcribe", audio.path]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        do { try p.run() } catch { throw DaybookError.io("cannot run the transcribe command `\(command)`: \(error.localizedDescription)") }
        // Read both before waiting, so a long transcript cannot fill a pipe and stall it.
        // The semaphore hands the reader's bytes over (a flag polled would not order the write).
        final class Collected: @unchecked Sendable { var data = Data() }
        let errData = Collected(), read = DispatchSemaphore(value: 0)
        Thread { errData.data = err.fileHandleForReading.readDataToEndOfFile(); read.signal() }.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        read.wait()
        let said = String(decoding: errData.data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard p.terminationStatus == 0 else {
            throw DaybookError.io("the transcribe command `\(command)` failed on \(audio.lastPathComponent) (exit \(p.terminationStatus))\(said.isEmpty ? "" : ": " + said)")
        }
        let text = String(decoding: outData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw DaybookError.io("the transcribe command `\(command)` printed no text for \(audio.lastPathComponent)") }
        return text
    }
}

extension VoiceNote {
    /// The transcripts of the audio among `files` (nil for other files, or without a
    /// `transcribe:` command), made before anything is written.
    static func transcripts(of files: [URL], in diary: Diary) throws -> [String?] {
        try files.map { f in try diary.config.transcribe.flatMap { isAudio(f.lastPathComponent) ? try transcribe(f, command: $0) : nil } }
    }

    /// What goes with each attached file's link: an audio file's duration, and its transcript.
    static func notes(names: [String], files: [URL], transcripts: [String?]) -> [Int: Attachments.Note] {
        Dictionary(uniqueKeysWithValues: names.indices.map { i in
            (i, Attachments.Note(suffix: isAudio(names[i]) ? linkSuffix(for: files[i]) : nil,
                                 lines: transcripts[i].map { block(name: names[i], text: $0) } ?? []))
        })
    }
}

extension Change {
    /// Attaches `files` to the entry at `rel`: copies them into its attachment folder and links
    /// them at the end of its body, an audio file with its duration and, when the diary has a
    /// `transcribe:` command, its transcript under the link; one edit of the file. Every
    /// transcript is made before anything is written, so a failing transcriber changes nothing.
    /// The command line's `attach`, `new --audio` and the web app's recorder come here.
    /// Returns the names used and the entry's title.
    public func attach(_ files: [URL], to rel: String) throws -> (names: [String], title: String) {
        let transcripts = try VoiceNote.transcripts(of: files, in: diary)
        var result: (names: [String], title: String) = ([], "")
        try editEntry(rel) { text, entry in
            let names = try Attachments.copy(files, entryPath: rel, in: self)
            let notes = VoiceNote.notes(names: names, files: files, transcripts: transcripts)
            text.setBody(Attachments.appendLinks(names, id: entry.id, to: text.body, notes: notes))
            result = (names, entry.title)
        }
        return result
    }

    /// Transcribes the entry's audio attachments that have no transcript yet (no mark under
    /// their link): the transcript goes under the file's link, or at the end of the body when
    /// the link is gone. Returns the names transcribed (empty: nothing to do) and the title.
    public func transcribe(_ rel: String) throws -> (names: [String], title: String) {
        guard let command = diary.config.transcribe else {
            throw DaybookError.usage("daybook.yml has no `transcribe:` command (a program that prints the text of an audio file, such as whisper.cpp's CLI)")
        }
        let folder = Attachments.folder(ofEntry: rel)
        guard let read = diary.readEntry(rel).entry else { throw DaybookError.input("the entry cannot be read", at: SourceLocation(path: diary.displayPath(rel))) }
        let pending = Attachments.files(ofEntry: rel, in: diary).filter { VoiceNote.isAudio($0) && !read.body.contains(VoiceNote.mark($0)) }
        let texts = try pending.map { try VoiceNote.transcribe(diary.url(folder + "/" + $0), command: command) }
        var title = read.title
        guard !pending.isEmpty else { return ([], title) }
        try editEntry(rel) { text, entry in
            var lines = EntryText.splitLines(text.body).map(EntryText.withoutEnding)
            for (name, t) in zip(pending, texts) {
                var block = [""] + VoiceNote.block(name: name, text: t)
                let target = Attachments.link(name: name, id: entry.id)
                if let i = lines.firstIndex(where: { $0.hasPrefix(target) }) {
                    if i + 1 < lines.count, lines[i + 1] != "" { block.append("") }
                    lines.insert(contentsOf: block, at: i + 1)
                } else {
                    if lines.last == "" { lines.removeLast() }
                    lines += block
                }
            }
            text.setBody(lines.joined(separator: "\n") + "\n")
            title = entry.title
        }
        return (pending, title)
    }
}
