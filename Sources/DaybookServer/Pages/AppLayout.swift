// The frame of every page of the web app: head, navigation, the app's style sheets and script.
import DaybookCore
import Foundation

enum AppLayout {
    static let escape = HTMLText.escape

    /// A whole page: a skip link to the content first, and the page's one status region (`#live`),
    /// where the script says what happened. `data` become `data-*` attributes of `<body>` for the script (never inline code:
    /// the Content-Security-Policy allows only the app's own script file).
    static func page(title: String, diaryName: String, data: [String: String] = [:], _ content: String) -> String {
        let attributes = data.sorted { $0.key < $1.key }.map { " data-\($0.key)=\"\(escape($0.value))\"" }.joined()
        return """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>\(escape(title)) · \(escape(diaryName))</title>
        <link rel="stylesheet" href="/assets/export.css">
        <link rel="stylesheet" href="/assets/app.css">
        <script src="/assets/app.js" defer></script>
        </head><body\(attributes)>
        <a class="skip" href="#main">Skip to the content</a>
        <nav class="site" aria-label="Diary"><a href="/">\(escape(diaryName))</a> <a href="/new">New entry</a>
        <span class="live" id="live" role="status" aria-live="polite"></span></nav>
        <main id="main" tabindex="-1">
        \(content)
        </main>
        </body></html>

        """
    }
}
