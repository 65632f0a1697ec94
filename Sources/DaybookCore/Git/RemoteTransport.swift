// How a remote is reached as git would reach it from the same configuration: the URL after
// `url.<base>.insteadOf` / `pushInsteadOf` and ~/.ssh/config, the certificate authorities, the
// proxy and the credential helpers git's config names for that URL.
import Foundation
import CLibGit2

/// What one transfer to or from a URL uses, read once from git's configuration and the environment.
struct RemoteTransport {
    /// The URL libgit2 connects to.
    var url: String
    /// The URL as configured or given, for messages.
    var configuredURL: String
    /// Certificate authorities: a file of certificates and a folder of them (nil: the system's).
    var caFile: String?
    var caPath: String?
    /// The proxy's URL; nil: none (also when `no_proxy` names the host).
    var proxy: String?
    /// Where the proxy was named (`http.proxy`, `https_proxy`, ...), for messages.
    var proxySource: String?
    /// The credential helpers, in the order git asks them.
    var credentialHelpers: [String] = []
    /// `credential.useHttpPath`: the helpers are told the repository's path too.
    var credentialUseHTTPPath = false
    /// SSH settings from ~/.ssh/config for the host (nil: not an SSH URL).
    var ssh: SSHConfig.Host?

    enum Direction { case fetch, push }

    /// The configuration entries a transport reads.
    static let configPattern = #"^(url\..*\.(insteadof|pushinsteadof)|http\..*|credential\..*|remote\..*\.proxy)$"#

    /// Resolves `url` for `direction` with `repo`'s configuration (its own, the user's, the system's).
    /// `pushURL` is the remote's `pushurl`, when it has one.
    static func resolve(_ url: String, remoteName: String? = nil, pushURL: String? = nil, direction: Direction, repo: Repository,
                        environment: [String: String] = ProcessInfo.processInfo.environment) -> RemoteTransport {
        resolve(url, remoteName: remoteName, pushURL: pushURL, direction: direction,
                config: repo.configEntries(matching: configPattern), environment: environment)
    }

    /// Resolves `url` with the configuration entries `config` (as `Repository.configEntries` gives them).
    static func resolve(_ url: String, remoteName: String? = nil, pushURL: String? = nil, direction: Direction,
                        config: [(String, String)], environment: [String: String] = ProcessInfo.processInfo.environment) -> RemoteTransport {
        let effective = rewrite(url, pushURL: pushURL, direction: direction, config: config)
        var transport = RemoteTransport(url: effective, configuredURL: url)
        let home = environment["HOME"] ?? NSHomeDirectory()
        if let ssh = SSHConfig.target(of: effective) {
            let text = (try? String(contentsOfFile: home + "/.ssh/config", encoding: .utf8)) ?? ""
            let host = SSHConfig.parse(text, home: home).host(ssh.host, home: home)
            if host.configured { transport.url = ssh.url(with: host) }
            transport.ssh = host
            return transport
        }
        guard let target = URLComponents(string: effective), let scheme = target.scheme?.lowercased(),
              scheme == "https" || scheme == "http" else { return transport }
        // Git lets the environment override the configuration for the certificate authorities.
        transport.caFile = nonEmpty(environment["GIT_SSL_CAINFO"]) ?? httpSetting("sslcainfo", for: target, config: config).map { expand($0, home: home) }
        transport.caPath = nonEmpty(environment["GIT_SSL_CAPATH"]) ?? httpSetting("sslcapath", for: target, config: config).map { expand($0, home: home) }
        if transport.caFile == nil && transport.caPath == nil {
            // What OpenSSL (and so curl, and so git) takes for the system's store.
            transport.caFile = nonEmpty(environment["SSL_CERT_FILE"])
            transport.caPath = nonEmpty(environment["SSL_CERT_DIR"])
        }
        if let (url, source) = proxy(for: target, remoteName: remoteName, config: config, environment: environment) {
            transport.proxy = url
            transport.proxySource = source
        }
        for (name, value) in config where name.hasPrefix("credential.") && name.hasSuffix(".helper") || name == "credential.helper" {
            guard name == "credential.helper" || matches(subsection(name, section: "credential", key: "helper"), target) != nil else { continue }
            // An empty value clears the list so far, as in git.
            if value.isEmpty { transport.credentialHelpers.removeAll() } else { transport.credentialHelpers.append(value) }
        }
        for (name, value) in config where name == "credential.usehttppath"
            || (name.hasPrefix("credential.") && name.hasSuffix(".usehttppath") && matches(subsection(name, section: "credential", key: "usehttppath"), target) != nil) {
            transport.credentialUseHTTPPath = ["true", "yes", "on", "1"].contains(value.lowercased())
        }
        return transport
    }

    /// Git's rewriting of a remote's URL: the longest matching `insteadOf` prefix is replaced by its
    /// base; for a push, a `pushurl` gets `insteadOf` only, and a remote without one gets
    /// `pushInsteadOf` when one matches, else `insteadOf`.
    static func rewrite(_ url: String, pushURL: String?, direction: Direction, config: [(String, String)]) -> String {
        func longest(_ key: String, _ url: String) -> String? {
            var best: (prefix: String, base: String)?
            for (name, value) in config where name.hasPrefix("url.") && name.hasSuffix("." + key) {
                let base = String(name.dropFirst(4).dropLast(key.count + 1))
                if url.hasPrefix(value), value.count > (best?.prefix.count ?? -1) { best = (value, base) }
            }
            return best.map { $0.base + url.dropFirst($0.prefix.count) }
        }
        switch direction {
        case .fetch: return longest("insteadof", url) ?? url
        case .push:
            if let pushURL { return longest("insteadof", pushURL) ?? pushURL }
            return longest("pushinsteadof", url) ?? longest("insteadof", url) ?? url
        }
    }

    /// `http.<url>.<key>` for the URL that matches it best (git's rule: the longest matching path,
    /// later settings winning ties), else `http.<key>`.
    static func httpSetting(_ key: String, for target: URLComponents, config: [(String, String)]) -> String? {
        var best: (length: Int, value: String)?
        for (name, value) in config where name.hasPrefix("http.") && name.hasSuffix("." + key) {
            if name == "http." + key {
                if best == nil || best!.length < 0 { best = (-1, value) }
                continue
            }
            guard let length = matches(subsection(name, section: "http", key: key), target) else { continue }
            if length >= (best?.length ?? -1) { best = (length, value) }
        }
        return best?.value
    }

    /// The proxy for a URL: `remote.<name>.proxy`, `http.<url>.proxy`, `http.proxy`, then the
    /// environment (`https_proxy`/`HTTPS_PROXY` for HTTPS, `http_proxy` for HTTP), unless
    /// `no_proxy`/`NO_PROXY` names the host (as curl, and so git, applies it to both). An empty
    /// setting means no proxy. The proxy's URL and the setting that named it.
    static func proxy(for target: URLComponents, remoteName: String?, config: [(String, String)], environment: [String: String]) -> (String, String)? {
        let https = target.scheme?.lowercased() == "https"
        var found: (String, String)?
        if let name = remoteName, let value = config.last(where: { $0.0 == "remote.\(name).proxy" })?.1 {
            found = (value, "remote.\(name).proxy")
        } else if let value = httpSetting("proxy", for: target, config: config) {
            found = (value, "http.proxy")
        } else if let name = (https ? ["https_proxy", "HTTPS_PROXY"] : ["http_proxy"]).first(where: { nonEmpty(environment[$0]) != nil }) {
            found = (environment[name] ?? "", name)
        }
        guard let (value, source) = found, !value.isEmpty else { return nil }
        let host = (target.host ?? "").lowercased()
        let noProxy = nonEmpty(environment["no_proxy"]) ?? nonEmpty(environment["NO_PROXY"]) ?? ""
        for raw in noProxy.split(separator: ",") {
            var pattern = raw.trimmingCharacters(in: .whitespaces).lowercased()
            if pattern == "*" { return nil }
            if !pattern.contains("["), pattern.filter({ $0 == ":" }).count == 1, let colon = pattern.firstIndex(of: ":"),
               Int(pattern[pattern.index(after: colon)...]) != nil {
                // host:port: only that port.
                let port = Int(pattern[pattern.index(after: colon)...])
                if port != (target.port ?? (https ? 443 : 80)) { continue }
                pattern = String(pattern[..<colon])
            }
            if pattern.hasPrefix("*.") { pattern.removeFirst() }
            if pattern.isEmpty { continue }
            if host == pattern || (pattern.hasPrefix(".") ? host.hasSuffix(pattern) : host.hasSuffix("." + pattern)) { return nil }
        }
        return (withScheme(value), source)
    }

    /// A proxy given as `host:port` is an HTTP proxy, as curl reads it.
    private static func withScheme(_ proxy: String) -> String { proxy.contains("://") ? proxy : "http://" + proxy }

    /// The `<url>` of `section.<url>.key`.
    static func subsection(_ name: String, section: String, key: String) -> String {
        String(name.dropFirst(section.count + 1).dropLast(key.count + 1))
    }

    /// Whether a configuration's URL matches the target as git's urlmatch does (scheme, host with
    /// `*` for one label, port, the user when it names one, and a path prefix that ends at a `/`);
    /// the length of the matched path, nil when it does not match.
    static func matches(_ pattern: String, _ target: URLComponents) -> Int? {
        guard let p = URLComponents(string: pattern.contains("://") ? pattern : "https://" + pattern),
              p.scheme?.lowercased() == target.scheme?.lowercased() else { return nil }
        let defaultPort = target.scheme?.lowercased() == "https" ? 443 : 80
        guard (p.port ?? defaultPort) == (target.port ?? defaultPort) else { return nil }
        let ph = (p.host ?? "").lowercased().split(separator: ".", omittingEmptySubsequences: false)
        let th = (target.host ?? "").lowercased().split(separator: ".", omittingEmptySubsequences: false)
        guard ph.count == th.count, zip(ph, th).allSatisfy({ $0 == "*" || $0 == $1 }) else { return nil }
        if let user = p.user, user != target.user { return nil }
        var path = p.path
        while path.hasSuffix("/") { path.removeLast() }
        let targetPath = target.path
        guard path.isEmpty || targetPath == path || targetPath.hasPrefix(path + "/") else { return nil }
        return path.count
    }

    /// Hands the certificate authorities to libgit2 before a transfer (a setting of the whole
    /// process, so set again for each; after one with its own, the system's store is put back).
    func applyCertificateAuthorities() throws {
        if caFile != nil || caPath != nil {
            RemoteTransport.customAuthorities = true
            let code = caFile != nil ? daybook_git_set_ssl_cert_locations(caFile, nil) : daybook_git_set_ssl_cert_locations(nil, caPath)
            guard code == 0 else {
                let which = caFile.map { "the certificate file \($0)" } ?? "the certificate folder \(caPath ?? "")"
                throw DaybookError(.git, "cannot read \(which) (http.sslCAInfo, GIT_SSL_CAINFO or SSL_CERT_FILE): \(Repository.lastErrorMessage())")
            }
        } else if RemoteTransport.customAuthorities {
            RemoteTransport.customAuthorities = false
            let system = ["/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt", "/etc/ssl/cert.pem"]
            if let file = system.first(where: { FileManager.default.fileExists(atPath: $0) }) { _ = daybook_git_set_ssl_cert_locations(file, nil) }
        }
    }

    nonisolated(unsafe) private static var customAuthorities = false

    static func nonEmpty(_ s: String?) -> String? { s.flatMap { $0.isEmpty ? nil : $0 } }

    /// `~/` at the start of a configured path is the home folder, as git reads it.
    static func expand(_ path: String, home: String) -> String { path.hasPrefix("~/") ? home + path.dropFirst(1) : path }
}

extension Repository {
    /// Every entry of the repository's configuration (system, user, repository, in the order git
    /// reads them) whose lower-cased name matches `pattern`, as (name, value); a name's section and
    /// key are lower case, its middle part as written.
    func configEntries(matching pattern: String) -> [(String, String)] {
        var cfg: OpaquePointer?
        guard git_repository_config_snapshot(&cfg, handle) == 0, let cfg else { return [] }
        defer { git_config_free(cfg) }
        return Repository.configEntries(cfg, matching: pattern)
    }

    /// The same from the user's and the system's configuration, where there is no repository yet (a clone).
    static func defaultConfigEntries(matching pattern: String) -> [(String, String)] {
        _ = initialized
        var cfg: OpaquePointer?
        guard git_config_open_default(&cfg) == 0, let cfg else { return [] }
        defer { git_config_free(cfg) }
        return configEntries(cfg, matching: pattern)
    }

    private static func configEntries(_ cfg: OpaquePointer, matching pattern: String) -> [(String, String)] {
        var iterator: OpaquePointer?
        guard git_config_iterator_glob_new(&iterator, cfg, pattern) == 0, let iterator else { return [] }
        defer { git_config_iterator_free(iterator) }
        var entries: [(String, String, Int32)] = []
        var entry: UnsafeMutablePointer<git_config_entry>?
        while git_config_next(&entry, iterator) == 0, let e = entry?.pointee {
            entries.append((String(cString: e.name), e.value.map { String(cString: $0) } ?? "", e.level.rawValue))
        }
        // Lower levels first (system, then global, then the repository's), each in its file's order.
        return entries.enumerated().sorted { ($0.element.2, $0.offset) < ($1.element.2, $1.offset) }.map { ($0.element.0, $0.element.1) }
    }
}
