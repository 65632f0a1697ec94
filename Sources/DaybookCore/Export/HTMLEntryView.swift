// The HTML export's pieces for the pages of `daybook serve`: an entry as the export renders it, the calendar, the style.
import Foundation

/// The web app shows entries exactly as `export html` does (coded segments in codebook colours,
/// strokes, attachments), with links into the app instead of a site's files.
public struct HTMLEntryView {
    let context: ExportContext

    /// `links` resolves the bodies' links (by default against the entry files on disk).
    public init(diary: Diary, unsafeHTML: Bool, links: EntryLinks? = nil) {
        var options = ExportOptions()
        options.unsafeHTML = unsafeHTML
        context = ExportContext(diary: diary, options: options)
        if let links { context.entryLinks = links }
    }

    var links: HTMLLinks { HTMLLinks(singleFile: false, app: true) }

    /// The entry as an `<article>`; its attachments are linked as `ID/NAME`, relative to `/entries/ID`.
    public func article(_ e: Entry) -> String { HTMLEntryArticle(context: context, links: links).html(e) }

    /// One entry as a page that stands alone (`show --html`), rendered as `export html` renders it:
    /// the style inline, and the body's images of attachments embedded as data URLs, so the page
    /// still shows them once it is saved anywhere else.
    public func standalonePage(_ e: Entry) -> String {
        var links = HTMLLinks(singleFile: true)
        links.standaloneDiary = context.diary.root
        return HTMLLayout.head(title: e.title.isEmpty ? e.id : e.title, style: HTMLLayout.inlineStyle, links: links, diaryName: context.diaryName)
            + HTMLEntryArticle(context: context, links: links).html(e) + HTMLLayout.foot
    }

    /// The calendar heatmap of these entries and its legend.
    public func heatmap(_ entries: [Entry]) -> String { heatmap(days: entries.map(\.date.day)) }

    /// The calendar of the days given, one count for each time a day is named.
    public func heatmap(days: [LocalDay]) -> String {
        var perDay: [LocalDay: Int] = [:]
        for d in days { perDay[d, default: 0] += 1 }
        return CalendarHeatmap.svg(entriesPerDay: perDay, mondayFirst: context.diary.config.weekStartsOnMonday)
            + (perDay.isEmpty ? "" : "\n" + CalendarHeatmap.legend)
    }

    public func entryLink(_ e: Entry) -> String { links.entry(e) }
    public func tagLink(_ t: String) -> String { links.tag(t) }
    public func codeLink(_ c: String) -> String { links.code(c) }

    /// The code's colour from the codebook (its own, else its category's, else a default).
    public func codeColor(_ code: String) -> String { context.codeColor(code) }

    public static var css: String { HTMLLayout.css }

    public static func readableDate(_ date: LocalDateTime) -> String { HTMLEntryArticle.readableDate(date) }
}
