// `export html`: a static site (index with calendar, a page per entry, tag and code pages) or one page.
import Foundation

public struct HTMLExport: ExportFormat {
    public static let name = "html"
    public static let summary = "a static site in the folder -o names (offline, no JavaScript); --single-file: one page"
    public static let destination = ExportDestinationKind.folder
    public init() {}

    public func export(_ entries: [Entry], context: ExportContext, to destination: ExportDestination) throws {
        switch destination {
        case let .stream(out): try singlePage(entries, context: context, to: out)
        case let .path(folder): try StagedFolder.write(folder) { try site(entries, context: context, in: $0) }
        }
    }

    // MARK: A site

    /// Writes the site page by page, so only one page is in memory at a time.
    func site(_ entries: [Entry], context: ExportContext, in folder: URL) throws {
        let name = context.diaryName
        let links = HTMLLinks(singleFile: false)
        context.index(entries)
        try page("style.css", in: folder) { try $0.write(HTMLLayout.css) }
        try context.forEachWithBody(entries) { e in
            let rel = HTMLLinks.page(of: e)
            let here = links.from(page: rel)
            try page(rel, in: folder) { out in
                try out.write(HTMLLayout.head(title: e.title, style: HTMLLayout.styleLink(root: here.root), links: here, diaryName: name))
                try out.write(HTMLEntryArticle(context: context, links: here).html(e))
                try out.write(HTMLLayout.foot)
            }
            try copyAttachments(of: e, context: context, to: folder)
        }
        for (tag, tagged) in byTag(entries) {
            let rel = "tags/" + HTMLText.pageName(tag) + ".html"
            let here = links.from(page: rel)
            try page(rel, in: folder) { out in
                try out.write(HTMLLayout.head(title: "#" + tag, style: HTMLLayout.styleLink(root: here.root), links: here, diaryName: name))
                try out.write(HTMLIndex.tagSection(tag, tagged, links: here))
                try out.write(HTMLLayout.foot)
            }
        }
        for (code, segments) in HTMLIndex.byCode(entries) {
            let rel = "codes/" + HTMLText.pageName(code) + ".html"
            let here = links.from(page: rel)
            try page(rel, in: folder) { out in
                try out.write(HTMLLayout.head(title: code, style: HTMLLayout.styleLink(root: here.root), links: here, diaryName: name))
                try out.write(HTMLIndex.codeSection(code, segments, context: context, links: here))
                try out.write(HTMLLayout.foot)
            }
        }
        if HTMLIndex.pagedByYear(entries, links: links) {
            for (year, those) in HTMLIndex.byYear(entries) {
                let rel = HTMLIndex.yearPage(year)
                let here = links.from(page: rel)
                try page(rel, in: folder) { out in
                    try out.write(HTMLLayout.head(title: "\(year)", style: HTMLLayout.styleLink(root: here.root), links: here, diaryName: name))
                    try out.write("<h1>\(year)</h1>\n<p class=\"meta\">\(those.count) entr\(those.count == 1 ? "y" : "ies")</p>\n")
                    try out.write(HTMLIndex(context: context, links: here).entryList(those))
                    try out.write(HTMLLayout.foot)
                }
            }
        }
        try page("index.html", in: folder) { out in
            try out.write(HTMLLayout.head(title: name, style: HTMLLayout.styleLink(root: ""), links: links, diaryName: name))
            try out.write(HTMLIndex(context: context, links: links).overview(entries, tags: byTag(entries).map(\.0)))
            try out.write(HTMLLayout.foot)
        }
    }

    private func page(_ rel: String, in folder: URL, _ body: (TextSink) throws -> Void) throws {
        let sink = try FileSink(folder.appendingPathComponent(rel), atomic: false)
        try body(sink)
        try sink.finish()
    }

    /// Attachments go beside the entry's page, where the body's `<id>/<name>` links look for them.
    private func copyAttachments(of e: Entry, context: ExportContext, to folder: URL) throws {
        let rel = Attachments.folder(ofEntry: e.path)
        let files = context.attachments(of: e)
        guard !files.isEmpty else { return }
        let target = folder.appendingPathComponent(rel)
        try? FileManager.default.removeItem(at: target)
        do {
            // File by file, so a symbolic link in the folder (never followed) is not copied either.
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            for f in files {
                try FileManager.default.copyItem(at: context.diary.url(rel + "/" + f), to: target.appendingPathComponent(f))
            }
        } catch {
            throw DaybookError.io("cannot copy the attachments: \(error.localizedDescription)", at: SourceLocation(path: target.path))
        }
    }

    // MARK: One page

    func singlePage(_ entries: [Entry], context: ExportContext, to out: TextSink) throws {
        let name = context.diaryName
        let links = HTMLLinks(singleFile: true)
        context.index(entries)
        try out.write(HTMLLayout.head(title: name, style: HTMLLayout.inlineStyle, links: links, diaryName: name))
        let tags = byTag(entries)
        try out.write(HTMLIndex(context: context, links: links).overview(entries, tags: tags.map(\.0)))
        let article = HTMLEntryArticle(context: context, links: links)
        try context.forEachWithBody(entries) { e in try out.write(article.html(e)) }
        for (tag, tagged) in tags { try out.write(HTMLIndex.tagSection(tag, tagged, links: links)) }
        for (code, segments) in HTMLIndex.byCode(entries) {
            try out.write(HTMLIndex.codeSection(code, segments, context: context, links: links))
        }
        try out.write(HTMLLayout.foot)
    }

    /// Every tag with its entries, by name.
    func byTag(_ entries: [Entry]) -> [(String, [Entry])] {
        var map: [String: [Entry]] = [:]
        for e in entries { for t in e.tags { map[t, default: []].append(e) } }
        return map.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
