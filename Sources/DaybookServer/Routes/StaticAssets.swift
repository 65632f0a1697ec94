// The app's style sheets and script, shipped with the program: no network, no CDN, no build step.
// `export.css` is the HTML export's own sheet, so entries look as they do in an exported site.
import DaybookCore
import Foundation
import Hummingbird

enum StaticAssets {
    /// Only these names are served; a request never names a file on disk.
    static let types = ["css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8", "svg": "image/svg+xml"]

    static func add(to router: Router<DiaryRequestContext>) {
        router.get("assets/:name") { _, context -> Response in
            guard let name = context.parameters.get("name"), let data = name == "export.css" ? Data(HTMLEntryView.css.utf8) : asset(name),
                  let type = types[(name as NSString).pathExtension] else { throw HTTPError(.notFound) }
            return Response(status: .ok, headers: [.contentType: type], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
        }
    }

    /// An asset by its plain file name (letters, digits, `-`, `.`), from the bundle built with the program.
    static func asset(_ name: String) -> Data? {
        guard name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }),
              !name.hasPrefix("."), let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Assets") else { return nil }
        return try? Data(contentsOf: url)
    }
}
