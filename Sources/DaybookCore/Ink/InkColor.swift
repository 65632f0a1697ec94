// A stroke colour: `#RRGGBB` or `#RRGGBBAA`, split into the SVG colour and its opacity.
import Foundation

public struct InkColor: Equatable, Sendable {
    /// `#rrggbb`, lowercase.
    public var rgb: String
    /// 0…1; 1 when the colour gives no alpha.
    public var alpha: Double

    public init?(_ text: String) {
        let hex = text.utf8.dropFirst()
        guard text.hasPrefix("#"), hex.count == 6 || hex.count == 8,
              hex.allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }) else { return nil }
        let lower = text.lowercased()
        rgb = String(lower.prefix(7))
        alpha = hex.count == 8 ? Double(Int(lower.dropFirst(7), radix: 16) ?? 255) / 255 : 1
    }

    /// The colour of a stroke that names none.
    public static let ink = InkColor("#1f2328")!
}
