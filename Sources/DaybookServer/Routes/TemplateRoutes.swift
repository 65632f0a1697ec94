// Which of a template's fields the form's answers leave unasked: the form hides them as answers change.
import DaybookCore
import Foundation
import Hummingbird

struct TemplateRoutes {
    let access: DiaryAccess

    func add(to router: Router<DiaryRequestContext>) {
        // The core decides (`Template.fieldsNotAsked`), as it does when the form is saved: the
        // page asks at each change rather than evaluating `when:` in JavaScript a second time.
        router.post("api/templates/:name/not-asked") { request, context -> Response in
            let name = try context.parameters.require("name")
            let body = try await RequestBody.read(request, context: context)
            let answers = try body.answers("fields")
            return try access.with { diary in
                do {
                    let template = try TemplateLibrary(diary: diary).require(name)
                    let skipped = template.fieldsNotAsked(typed: answers)
                    return EntryRoutes.json(.object([("not_asked", .array(template.fields.map(\.name).filter { skipped.contains($0) }.map(JSONValue.string)))]))
                } catch let e as DaybookError {
                    return Refusal.response(e)
                }
            }
        }
    }
}
