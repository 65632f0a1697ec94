// A set of Strings for the few a front matter holds: its keys, its tags.

/// Strings seen so far: a short list is searched (most front matter has a handful of keys and
/// tags, and hashing each one cost more than comparing it), a long one is hashed (20,000 tags in a
/// list took 20 s when each was looked for in the list).
struct SmallSet {
    private var few: [String] = []
    private var many: Set<String>?
    private static let listLimit = 16

    /// Adds `s`; false when it was there already.
    mutating func insert(_ s: String) -> Bool {
        if many != nil { return many!.insert(s).inserted }
        if few.contains(s) { return false }
        if few.capacity == 0 { few.reserveCapacity(SmallSet.listLimit / 2) } // one allocation for most
        few.append(s)
        if few.count > SmallSet.listLimit { many = Set(few); few = [] }
        return true
    }
}
