// The HTML export's page frame and style sheet (screen and print); no script anywhere.
import Foundation

enum HTMLLayout {
    /// The top of a page. `style` is a link to the site's sheet, or the sheet itself for one page.
    static func head(title: String, style: String, links: HTMLLinks, diaryName: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="daybook">
        <title>\(HTMLText.escape(title))</title>
        \(style)
        </head><body id="top">
        <nav class="site"><a href="\(links.index)">\(HTMLText.escape(diaryName))</a></nav>
        <main>

        """
    }

    static let foot = "</main>\n</body></html>\n"

    static func styleLink(root: String) -> String { "<link rel=\"stylesheet\" href=\"\(root)style.css\">" }
    static var inlineStyle: String { "<style>\n" + css + "</style>" }

    static let css = """
    :root { --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --accent: #0969da; }
    * { box-sizing: border-box; }
    body { margin: 0; color: var(--ink); background: #fff; font: 17px/1.6 Georgia, "Times New Roman", serif; }
    main { max-width: 46rem; margin: 0 auto; padding: 1rem 1.5rem 4rem; }
    nav.site { max-width: 46rem; margin: 0 auto; padding: 1rem 1.5rem 0; font: 600 0.95rem system-ui, sans-serif; }
    a { color: var(--accent); }
    h1, h2, h3 { font-family: system-ui, sans-serif; line-height: 1.25; }
    .meta, .legend, figcaption, .entry-list time, .fields { color: var(--muted); font: 0.9rem system-ui, sans-serif; }
    .tag { font: 0.85rem system-ui, sans-serif; text-decoration: none; background: #ddf4ff; border-radius: 1em; padding: 0 0.5em; margin-right: 0.25em; }
    .entry-list { list-style: none; padding: 0; }
    .entry-list li { padding: 0.3rem 0; border-bottom: 1px solid var(--line); }
    .entry-list time { display: inline-block; min-width: 9.5rem; }
    .heatmap { margin: 1rem 0; }
    .heatmap svg { max-width: 100%; height: auto; }
    article.entry > header h1 a { color: inherit; text-decoration: none; }
    .heatmap text { font: 9px system-ui, sans-serif; fill: var(--muted); }
    .swatch { display: inline-block; width: 0.8em; height: 0.8em; border-radius: 2px; margin: 0 1px; vertical-align: middle; border: 1px solid rgba(0,0,0,0.1); }
    article.entry { border-top: 1px solid var(--line); margin-top: 2rem; }
    article.entry > header h1 { margin-bottom: 0.2rem; }
    .fields { display: grid; grid-template-columns: max-content 1fr; gap: 0 1rem; margin: 0.5rem 0; }
    .fields dt { font-weight: 600; }
    .fields dd { margin: 0; }
    mark.coded { background: color-mix(in srgb, var(--code) 22%, transparent); border-bottom: 2px solid var(--code-line, var(--code)); color: inherit; padding: 0 1px; }
    sup.code-label { font: 600 0.7rem system-ui, sans-serif; color: var(--ink); background: #f6f8fa; border: 1px solid var(--line); border-radius: 3px; padding: 0 3px; margin-left: 2px; }
    .codings li, .segments li { margin: 0.4rem 0; }
    .codings blockquote, .segments blockquote { margin: 0.2rem 0 0.2rem 0; padding-left: 0.8rem; border-left: 4px solid var(--code, var(--line)); }
    .attachments img, .body img { max-width: 100%; height: auto; }
    .attachments ul { padding-left: 1.2rem; }
    .broken-link { text-decoration: underline dotted; }
    figure.ink svg { max-width: 100%; height: auto; border: 1px solid var(--line); }
    pre { background: #f6f8fa; padding: 0.8rem; overflow-x: auto; }
    code { font-size: 0.9em; }
    table { border-collapse: collapse; } td, th { border: 1px solid var(--line); padding: 0.2rem 0.5rem; }
    @media print {
      body { font-size: 11pt; }
      nav.site, .heatmap, .legend { display: none; }
      main { max-width: none; padding: 0; }
      a { color: inherit; text-decoration: none; }
      article.entry { break-before: page; border-top: none; margin-top: 0; }
      mark.coded { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
      pre { white-space: pre-wrap; }
    }

    """
}
