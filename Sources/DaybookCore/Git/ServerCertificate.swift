// A server certificate checked by daybook itself, for the one case libgit2's TLS (mbedTLS here)
// gets wrong: a host given by its IP address, whose certificate names that address (an IP
// subjectAltName) rather than a name. The chain and the address are checked by swift-certificates'
// RFC 5280 verifier against the authorities git's configuration names; nothing is skipped.
import Foundation
import X509

enum ServerCertificate {
    /// Whether `host` is an IPv4 or IPv6 address rather than a name.
    static func isIPAddress(_ host: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return inet_pton(AF_INET, bare, &v4) == 1 || inet_pton(AF_INET6, bare, &v6) == 1
    }

    /// Verifies the DER certificate `der` for the address `ip` against the authorities in `caFile`
    /// (certificates in PEM) and the files of `caPath`; nil when it holds, else why not.
    static func verify(_ der: [UInt8], ip: String, caFile: String?, caPath: String?) -> String? {
        var pems: [String] = []
        if let caFile { pems.append((try? String(contentsOfFile: caFile, encoding: .utf8)) ?? "") }
        if let caPath, let names = try? FileManager.default.contentsOfDirectory(atPath: caPath) {
            pems += names.sorted().compactMap { try? String(contentsOfFile: caPath + "/" + $0, encoding: .utf8) }
        }
        let roots = pems.flatMap(certificates(in:))
        guard !roots.isEmpty else { return "no certificate authority could be read from \(caFile ?? caPath ?? "the configuration")" }
        guard let leaf = try? Certificate(derEncoded: der) else { return "the server's certificate cannot be read" }
        let bare = ip.hasPrefix("[") ? String(ip.dropFirst().dropLast()) : ip
        // The verifier is asynchronous; this runs inside libgit2's synchronous callback, on the
        // thread of a command's transfer (never one of the concurrency pool's, which the detached
        // task needs).
        let box = ResultBox()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            var verifier = Verifier(rootCertificates: CertificateStore(roots)) {
                RFC5280Policy(validationTime: Date())
                ServerIdentityPolicy(serverHostname: nil, serverIP: bare)
            }
            let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore())
            if case let .couldNotValidate(failures) = result {
                box.reason = failures.first.map { "\($0.policyFailureReason)" } ?? "not signed by a configured authority"
            }
            done.signal()
        }
        done.wait()
        return box.reason.map { "the certificate of \(ip) does not hold for that address with the configured authorities: \($0)" }
    }

    private final class ResultBox: @unchecked Sendable { var reason: String? }

    /// The certificates of a PEM text (a bundle of several, or one).
    static func certificates(in pem: String) -> [Certificate] {
        var out: [Certificate] = []
        var rest = Substring(pem)
        while let start = rest.range(of: "-----BEGIN CERTIFICATE-----"), let end = rest.range(of: "-----END CERTIFICATE-----", range: start.upperBound..<rest.endIndex) {
            if let c = try? Certificate(pemEncoded: String(rest[start.lowerBound..<end.upperBound])) { out.append(c) }
            rest = rest[end.upperBound...]
        }
        return out
    }
}
