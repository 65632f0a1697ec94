// Reading a request's JSON body: an object, or a 400 that says what is wrong.
import DaybookCore
import Foundation
import HTTPTypes
import Hummingbird

struct RequestBody {
    let object: [String: Any]

    static func read(_ request: Request, context: DiaryRequestContext) async throws -> RequestBody {
        let bytes = try await RequestBody.bytes(request, context: context)
        guard let value = try? JSONSerialization.jsonObject(with: bytes), let object = value as? [String: Any] else {
            throw HTTPError(.badRequest, message: "the request body must be a JSON object")
        }
        return RequestBody(object: object)
    }

    static func bytes(_ request: Request, context: DiaryRequestContext) async throws -> Data {
        var request = request
        let buffer = try await request.collectBody(upTo: context.maxUploadSize)
        return Data(buffer.readableBytesView)
    }

    func string(_ key: String) throws -> String? {
        guard let v = object[key], !(v is NSNull) else { return nil }
        guard let s = v as? String else { throw HTTPError(.badRequest, message: "`\(key)` must be a string") }
        return s
    }

    func requiredString(_ key: String) throws -> String {
        guard let s = try string(key) else { throw HTTPError(.badRequest, message: "`\(key)` is missing") }
        return s
    }

    func int(_ key: String) throws -> Int? {
        guard let v = object[key], !(v is NSNull) else { return nil }
        guard let n = v as? NSNumber, let i = Int(exactly: n.doubleValue) else {
            throw HTTPError(.badRequest, message: "`\(key)` must be a whole number")
        }
        return i
    }

    func strings(_ key: String) throws -> [String]? {
        guard let v = object[key], !(v is NSNull) else { return nil }
        guard let a = v as? [Any], let s = a as? [String] else { throw HTTPError(.badRequest, message: "`\(key)` must be a list of strings") }
        return s
    }

    /// A mapping of strings to strings (a form's field answers).
    func answers(_ key: String) throws -> [String: String] {
        guard let v = object[key], !(v is NSNull) else { return [:] }
        guard let d = v as? [String: Any] else { throw HTTPError(.badRequest, message: "`\(key)` must be an object") }
        var out: [String: String] = [:]
        for (k, value) in d {
            switch value {
            case let s as String: out[k] = s
            case let list as [String]: out[k] = list.joined(separator: ", ")
            default: throw HTTPError(.badRequest, message: "field `\(k)` must be text or a list of texts, as a form sends it")
            }
        }
        return out
    }
}

/// What a refused change looks like to the page: a message, and the reason at each field.
enum Refusal {
    /// "Nothing to do" is 200 (a coding made again changes nothing), unless `nothingSaved` says
    /// that the request asked for something new and nothing was saved (a new entry's empty body).
    static func response(_ error: DaybookError, fields: [String: String] = [:], nothingSaved: Bool = false) -> Response {
        var o: [(String, JSONValue)] = [("error", .string(error.description))]
        if !fields.isEmpty { o.append(("fields", .object(fields.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))) }
        let status: HTTPResponse.Status = switch error.kind {
        case _ where RequestGuard<DiaryRequestContext>.isLinkRefusal(error): .forbidden
        case .nothing: nothingSaved ? .unprocessableContent : .ok
        case .git, .io: .conflict
        case .usage, .input: .unprocessableContent
        }
        return EntryRoutes.json(.object(o), status: status)
    }
}
