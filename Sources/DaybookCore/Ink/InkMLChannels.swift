// How InkML channel values become daybook's channels: units, force range, tilt to azimuth/altitude.
import Foundation

extension InkMLReader {
    /// InkML channel names daybook keeps, and the daybook channel each feeds.
    static let mapping: [String: String] = [
        "X": "x", "Y": "y", "T": "t", "F": "force", "OA": "azimuth", "OE": "altitude", "TX": "azimuth", "TY": "altitude",
    ]

    /// One stroke from decoded rows. Angles are degrees unless `units="rad"`; F is scaled into
    /// 0…1 by its `min`/`max` when given; T in seconds (`units="s"`) becomes milliseconds.
    /// Points whose X or Y is unknown (`?`) or overflowed cannot be drawn and are dropped; the
    /// count comes back so the reader can warn.
    static func stroke(_ rows: [[Double]], channels: [Channel]) -> (stroke: Stroke, dropped: Int) {
        let names = StrokeFile.defaultChannels.filter { n in channels.contains { mapping[$0.name] == n } }
        var points = PointList(channels: names)
        points.values.reserveCapacity(rows.count * names.count)
        let col = { (name: String) in channels.firstIndex { $0.name == name } }
        let (x, y, t, f, oa, oe, tx, ty) = (col("X"), col("Y"), col("T"), col("F"), col("OA"), col("OE"), col("TX"), col("TY"))
        func angle(_ row: [Double], _ i: Int?) -> Double? {
            guard let i, !row[i].isNaN else { return nil }
            let unit = channels[i].units?.lowercased() ?? "deg"
            return unit.hasPrefix("rad") ? row[i] : row[i] * .pi / 180
        }
        var dropped = 0
        for row in rows {
            if let x, let y, !row[x].isFinite || !row[y].isFinite { dropped += 1; continue }
            var values: [String: Double] = [:]
            if let x { values["x"] = row[x] }
            if let y { values["y"] = row[y] }
            if let t {
                let unit = channels[t].units?.lowercased()
                values["t"] = unit == "s" ? row[t] * 1000 : row[t]
            }
            if let f {
                let c = channels[f]
                var v = row[f]
                if let max = c.max, max > (c.min ?? 0) { v = (v - (c.min ?? 0)) / (max - (c.min ?? 0)) }
                values["force"] = v.isNaN ? v : min(1, Swift.max(0, v))
            }
            if let a = angle(row, oa) {
                // Only angles outside 0…2π are wrapped: wrapping every one would change its last bits.
                let full = 2 * Double.pi
                values["azimuth"] = a >= 0 && a <= full ? a : (a.truncatingRemainder(dividingBy: full) + full).truncatingRemainder(dividingBy: full)
            }
            if let e = angle(row, oe) { values["altitude"] = min(.pi / 2, max(0, e)) }
            if values["azimuth"] == nil, values["altitude"] == nil, let ax = angle(row, tx), let ay = angle(row, ty) {
                let (az, alt) = fromTilt(ax, ay)
                values["azimuth"] = az
                values["altitude"] = alt
            }
            points.values.append(contentsOf: names.map { values[$0].flatMap { $0.isFinite ? $0 : nil } ?? .nan })
        }
        return (Stroke(points: points), dropped)
    }

    /// Tilt along x and y (radians from vertical) to azimuth and altitude, as Pointer Events
    /// converts them: a pen held upright has altitude π/2.
    static func fromTilt(_ tx: Double, _ ty: Double) -> (azimuth: Double, altitude: Double) {
        if tx == 0 && ty == 0 { return (0, .pi / 2) }
        let a = tan(tx), b = tan(ty)
        var azimuth = atan2(b, a)
        if azimuth < 0 { azimuth += 2 * .pi }
        return (azimuth, atan(1 / (a * a + b * b).squareRoot()))
    }

    /// Made once: a stroke file may give a start to each of a thousand strokes. (The formatter is
    /// thread-safe.)
    nonisolated(unsafe) private static let readers: [ISO8601DateFormatter] =
        [[.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime]].map { (options: ISO8601DateFormatter.Options) in
            let f = ISO8601DateFormatter()
            f.formatOptions = options
            return f
        }

    /// Milliseconds since 1970 of an ISO 8601 date-time with offset (fractional seconds allowed).
    static func instant(_ s: String) -> Double? {
        for f in readers { if let d = f.date(from: s) { return d.timeIntervalSince1970 * 1000 } }
        return nil
    }

    /// The UTC offset written at the end of an ISO 8601 date-time (`Z`, `+01:00`), in seconds.
    static func utcOffset(_ s: String) -> Int {
        guard !s.hasSuffix("Z"), s.count >= 6 else { return 0 }
        let tail = s.suffix(6)
        guard let sign = tail.first, sign == "+" || sign == "-", let h = Int(tail.dropFirst().prefix(2)), let m = Int(tail.suffix(2)) else { return 0 }
        return (sign == "-" ? -1 : 1) * (h * 3600 + m * 60)
    }

    static func isoString(_ ms: Double, utcOffset: Int = 0) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        f.timeZone = TimeZone(secondsFromGMT: utcOffset) ?? TimeZone(secondsFromGMT: 0)
        return f.string(from: Date(timeIntervalSince1970: ms / 1000))
    }
}
