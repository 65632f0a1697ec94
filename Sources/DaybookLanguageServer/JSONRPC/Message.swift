// JSON-RPC 2.0 as LSP uses it: request ids, incoming messages, responses, notifications and errors.
import DaybookCore
import Foundation

/// A request id: a number or a string, echoed in the response.
enum RequestID: Codable, Hashable {
    case int(Int)
    case string(String)

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let n = try? c.decode(Int.self) { self = .int(n) } else { self = .string(try c.decode(String.self)) }
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case let .int(n): try c.encode(n)
        case let .string(s): try c.encode(s)
        }
    }
}

/// What every incoming message is read as first; its params are decoded by the handler.
struct IncomingHead: Decodable {
    var jsonrpc: String?
    var id: RequestID?
    var method: String?
    /// Set on a response to a request the server sent (workspace/applyEdit).
    var result: JSONValue?
    var error: JSONValue?
}

/// Whether a message is a JSON object whose `id`, when it has one, is an integer or a string
/// (JSON-RPC allows no other in LSP: `1.5`, `null`, `true` make an invalid request).
struct IncomingShape: Decodable {
    var idIsValid = true

    private enum Key: String, CodingKey { case id }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        guard c.contains(.id) else { return }
        idIsValid = (try? c.decode(Int.self, forKey: .id)) != nil || (try? c.decode(String.self, forKey: .id)) != nil
    }
}

/// The params of a message, decoded into the type its method takes.
struct IncomingParams<P: Decodable>: Decodable {
    var params: P
}

/// A JSON-RPC error object (the codes of the JSON-RPC and LSP specifications).
struct ResponseError: Error, Codable, Equatable {
    var code: Int
    var message: String

    static func parse(_ m: String) -> ResponseError { .init(code: -32700, message: m) }
    static func invalidRequest(_ m: String) -> ResponseError { .init(code: -32600, message: m) }
    static func methodNotFound(_ method: String) -> ResponseError { .init(code: -32601, message: "no method \(method)") }
    static func invalidParams(_ m: String) -> ResponseError { .init(code: -32602, message: m) }
    static func serverNotInitialized() -> ResponseError { .init(code: -32002, message: "the server is not initialized yet") }
    static func invalidRequestAfterShutdown() -> ResponseError { .init(code: -32600, message: "the server is shutting down") }
    /// A request that the diary refuses (a quote that is not in the body, a strict codebook).
    static func requestFailed(_ m: String) -> ResponseError { .init(code: -32803, message: m) }
}

struct Response<R: Encodable>: Encodable {
    var id: RequestID?
    var result: R?
    var error: ResponseError?

    enum CodingKeys: String, CodingKey { case jsonrpc, id, result, error }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode("2.0", forKey: .jsonrpc)
        // `id` is null when the request could not be read far enough to know it.
        try c.encode(id, forKey: .id)
        if let error { try c.encode(error, forKey: .error) } else { try c.encode(result, forKey: .result) }
    }
}

struct OutgoingNotification<P: Encodable>: Encodable {
    var jsonrpc = "2.0"
    var method: String
    var params: P
}

struct OutgoingRequest<P: Encodable>: Encodable {
    var jsonrpc = "2.0"
    var id: RequestID
    var method: String
    var params: P
}

/// No result: encodes as `null`.
struct NoResult: Encodable {
    func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encodeNil()
    }
}
