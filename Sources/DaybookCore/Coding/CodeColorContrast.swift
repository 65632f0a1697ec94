// Whether a code's colour can be seen against the white page: WCAG's contrast ratio, and a darker
// shade of the same hue for the underline of its highlights when the colour itself is too pale.
import Foundation

public enum CodeColorContrast {
    /// WCAG 2.2 (1.4.11): a graphic that carries meaning needs 3 : 1 against what is next to it.
    public static let minimum = 3.0

    /// The relative luminance of `#RRGGBB` (an alpha of `#RRGGBBAA` is laid over white first); nil
    /// for anything that is not such a colour.
    static func luminance(_ hex: String) -> Double? {
        guard let rgb = channels(hex) else { return nil }
        func linear(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear(rgb[0]) + 0.7152 * linear(rgb[1]) + 0.0722 * linear(rgb[2])
    }

    /// The channels in 0…1, with an alpha laid over white (what the page shows).
    static func channels(_ hex: String) -> [Double]? {
        guard Codebook.isColor(hex) else { return nil }
        let digits = Array(hex.dropFirst())
        var values: [Double] = []
        for i in stride(from: 0, to: digits.count, by: 2) {
            guard let v = UInt8(String(digits[i...i + 1]), radix: 16) else { return nil }
            values.append(Double(v) / 255)
        }
        let alpha = values.count == 4 ? values[3] : 1
        return values.prefix(3).map { $0 * alpha + (1 - alpha) }
    }

    /// The contrast ratio of the colour against white, from 1 to 21.
    public static func againstWhite(_ hex: String) -> Double? {
        luminance(hex).map { 1.05 / ($0 + 0.05) }
    }

    /// The colour to underline a highlight with: the code's own when it reaches 3 : 1 against
    /// white, else the same hue darkened step by step until it does (lower-case `#rrggbb`).
    public static func underline(_ hex: String) -> String {
        guard var rgb = channels(hex) else { return hex }
        func text(_ c: [Double]) -> String { "#" + c.map { String(format: "%02x", Int(($0 * 255).rounded())) }.joined() }
        var candidate = text(rgb)
        // Scaling the channels keeps the hue; 2 % a step stops at the first shade that reaches 3 : 1.
        while let ratio = againstWhite(candidate), ratio < minimum {
            rgb = rgb.map { $0 * 0.98 }
            candidate = text(rgb)
        }
        return candidate
    }

    /// What `code define` says once, when the colour is too pale to be seen against white; nil when it is fine.
    public static func warning(code: String, color hex: String) -> String? {
        guard let ratio = againstWhite(hex), ratio < minimum else { return nil }
        return String(format: "the colour %@ of `%@` has only %.2f : 1 against white (3 : 1 is needed to see it); its highlights are underlined in %@ instead",
                      hex, code, ratio, underline(hex))
    }

    /// The warning as `code define` gives it: at the code's line of codebook.yml (its key's line,
    /// found in the file as written), nil when the colour is fine.
    public static func diagnostic(code: String, color hex: String, in diary: Diary) -> Diagnostic? {
        guard let message = warning(code: code, color: hex) else { return nil }
        var line: Int?
        if let data = FileManager.default.contents(atPath: diary.codebookFile.path), let text = String(validatingUTF8Data: data) {
            let keys = [code + ":", "\"" + code + "\":", "'" + code + "':"]
            line = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { l in
                let t = l.drop { $0 == " " }
                return keys.contains { t.hasPrefix($0) }
            }.map { $0 + 1 }
        }
        return Diagnostic(.warning, message, at: SourceLocation(path: diary.displayPath(Codebook.fileName), line: line))
    }
}
