// The outline of one stroke: offset points on both sides, smoothed, closed with round caps.
import Foundation

/// A pressure-sensitive stroke is filled, not stroked: SVG cannot vary a stroke's width. Each
/// point gets a radius from force and tilt; the left and right offsets are joined by quadratic
/// curves through their midpoints (so no segment joint shows), and half circles close both ends.
struct StrokeOutline {
    static let defaultWidth = 2.0

    var xs: [Double] = []
    var ys: [Double] = []
    var radii: [Double] = []

    init(_ s: Stroke) {
        let pts = s.points
        guard let xi = pts.channelIndex("x"), let yi = pts.channelIndex("y") else { return }
        let fi = pts.channelIndex("force"), ai = pts.channelIndex("altitude")
        let half = (s.width ?? StrokeOutline.defaultWidth) / 2
        xs.reserveCapacity(pts.count); ys.reserveCapacity(pts.count); radii.reserveCapacity(pts.count)
        for p in 0..<pts.count {
            let x = pts[p, xi], y = pts[p, yi]
            let r = half * StrokeOutline.scale(tool: s.tool, force: fi.map { pts[p, $0] }, altitude: ai.map { pts[p, $0] })
            if let lx = xs.last, let ly = ys.last, abs(x - lx) < InkRenderer.minimumStep && abs(y - ly) < InkRenderer.minimumStep {
                // The stroke's end is kept exactly: it replaces the nearby point before it.
                if p == pts.count - 1 && xs.count > 1 { xs[xs.count - 1] = x; ys[ys.count - 1] = y; radii[radii.count - 1] = r }
                continue
            }
            radii.append(r)
            xs.append(x); ys.append(y)
        }
        // A light smoothing of the radii, so a noisy force sensor does not make the edge wobble.
        if radii.count > 2 {
            var smooth = radii
            for i in 1..<(radii.count - 1) { smooth[i] = (radii[i - 1] + 2 * radii[i] + radii[i + 1]) / 4 }
            radii = smooth
        }
    }

    /// Width factor: grows with force (unknown force draws the nominal width), narrower as the
    /// pen tilts (the force along the barrel presses the tip by force · sin(altitude)).
    static func scale(tool: Stroke.Tool, force: Double?, altitude: Double?) -> Double {
        if tool == .highlighter { return 1 }
        var f = force ?? .nan
        if f.isNaN { f = 0.5 }
        f = min(1, max(0, f))
        var tilt = 1.0
        if let a = altitude, !a.isNaN { tilt = max(0.35, sin(min(.pi / 2, max(0, a)))) }
        let pressure = tool == .marker ? 0.7 + 0.6 * f : 0.3 + 1.4 * f
        return pressure * tilt
    }

    func write(to out: inout SVGText) {
        let n = xs.count
        guard n > 0 else { return }
        if n == 1 {
            let r = max(radii[0], 0.01)
            out.byte("M"); out.number(xs[0] - r); out.byte(" "); out.number(ys[0])
            arc(&out, r, xs[0] + r, ys[0], large: true)
            arc(&out, r, xs[0] - r, ys[0], large: true)
            out.byte("Z")
            return
        }
        var lx = [Double](repeating: 0, count: n), ly = lx, rx = lx, ry = lx
        for i in 0..<n {
            var dx = xs[min(i + 1, n - 1)] - xs[max(i - 1, 0)]
            var dy = ys[min(i + 1, n - 1)] - ys[max(i - 1, 0)]
            var len = (dx * dx + dy * dy).squareRoot()
            if len < 1e-9, i + 1 < n { dx = xs[i + 1] - xs[i]; dy = ys[i + 1] - ys[i]; len = (dx * dx + dy * dy).squareRoot() }
            if len < 1e-9 { dx = 1; dy = 0; len = 1 }
            let nx = -dy / len * radii[i], ny = dx / len * radii[i]
            lx[i] = xs[i] + nx; ly[i] = ys[i] + ny
            rx[i] = xs[i] - nx; ry[i] = ys[i] - ny
        }
        out.byte("M"); out.number(lx[0]); out.byte(" "); out.number(ly[0])
        side(&out, lx, ly, forward: true)
        arc(&out, radii[n - 1], rx[n - 1], ry[n - 1], large: false)
        side(&out, rx, ry, forward: false)
        arc(&out, radii[0], lx[0], ly[0], large: false)
        out.byte("Z")
    }

    /// One side, through the midpoints of its offset points with each point as the control of a
    /// quadratic curve, so every joint is smooth. Both sides are drawn the same way, each in its
    /// own direction, so the outline is symmetric.
    private func side(_ out: inout SVGText, _ px: [Double], _ py: [Double], forward: Bool) {
        let n = px.count
        let at = { (k: Int) in forward ? k : n - 1 - k }
        out.byte("L"); out.number((px[at(0)] + px[at(1)]) / 2); out.byte(" "); out.number((py[at(0)] + py[at(1)]) / 2)
        if n > 2 {
            for k in 1..<(n - 1) {
                let i = at(k), j = at(k + 1)
                out.byte(k == 1 ? "Q" : " "); out.number(px[i]); out.byte(" "); out.number(py[i]); out.byte(" ")
                out.number((px[i] + px[j]) / 2); out.byte(" "); out.number((py[i] + py[j]) / 2)
            }
        }
        out.byte("L"); out.number(px[at(n - 1)]); out.byte(" "); out.number(py[at(n - 1)])
    }

    /// A half circle around the stroke's end (sweep 0 bulges it forward for both caps).
    private func arc(_ out: inout SVGText, _ r: Double, _ x: Double, _ y: Double, large: Bool) {
        out.byte("A"); out.number(r); out.byte(" "); out.number(r); out.text(large ? " 0 1 0 " : " 0 0 0 ")
        out.number(x); out.byte(" "); out.number(y)
    }
}
