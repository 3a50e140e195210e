import VshCore
import VshSpoken

/// The checks that look across command files: spoken patterns that clash (some words
/// would match two commands) and patterns that sound too alike (their pronunciations
/// differ by about one sound, so the recogniser may take one for the other).
///
/// Every form is spelt out once into token sequences (words interned as numbers, slots
/// as negative numbers); clashes are looked up by length and first word, sound-alikes
/// through the phone sequences left after deleting one (or two) phones, so that
/// hundreds of files are checked in milliseconds rather than pair by pair.
struct CommandFileChecks {
    /// Who owns a spoken form: a built-in, or a command from a file.
    struct Owner: Equatable {
        var command: String
        /// The file and `say:` line; nil for built-ins.
        var file: String?
        var line: Int

        var described: String { file.map { "'\(command)' (\($0):\(line))" } ?? "the built-in '\(command)'" }
    }

    /// One spoken form, spelt out.
    struct Form {
        var owner: Owner
        /// Index into `CustomCommand.forms` of its command (nil for built-ins).
        var command: Int?
        var index: Int
        var pattern: SpokenPattern
        var expansions: [[Int32]]
        var alive = true
    }

    static let digit: Int32 = -1, number: Int32 = -2
    /// The most spellings kept of one form.
    static let limit = 256

    private(set) var words: [String] = []
    private var ids: [String: Int32] = [:]
    private(set) var forms: [Form] = []
    private let digitWords: Set<Int32>
    private let numberWords: Set<Int32>

    init() {
        var words: [String] = [], ids: [String: Int32] = [:]
        func intern(_ w: String) -> Int32 {
            if let id = ids[w] { return id }
            ids[w] = Int32(words.count)
            words.append(w)
            return ids[w]!
        }
        digitWords = Set(NumberWords.vocabulary(for: .digit).map(intern))
        numberWords = Set(NumberWords.vocabulary(for: .number).map(intern))
        self.words = words
        self.ids = ids
    }

    mutating func intern(_ w: String) -> Int32 {
        if let id = ids[w] { return id }
        ids[w] = Int32(words.count)
        words.append(w)
        return ids[w]!
    }

    /// Adds a form; returns false when its pattern does not parse.
    @discardableResult
    mutating func add(_ pattern: String, owner: Owner, command: Int?, index: Int) -> Bool {
        guard let parsed = try? SpokenPattern.parse(pattern) else { return false }
        let expansions = spell(parsed, limit: Self.limit)
        forms.append(Form(owner: owner, command: command, index: index, pattern: parsed, expansions: expansions))
        return true
    }

    mutating func kill(_ form: Int) { forms[form].alive = false }

    /// Every way of saying `pattern`, at most `limit`; `<digits>` as one to three digits.
    mutating func spell(_ pattern: SpokenPattern, limit: Int) -> [[Int32]] {
        switch pattern {
        case .word(let w): return [[intern(w)]]
        case .slot(.digit): return [[Self.digit]]
        case .slot(.number): return [[Self.number]]
        case .slot(.digits): return [[Self.digit], [Self.digit, Self.digit], [Self.digit, Self.digit, Self.digit]]
        case .optional(let item): return Array((spell(item, limit: limit) + [[]]).prefix(limit))
        case .alternatives(let items):
            var result: [[Int32]] = []
            for item in items where result.count < limit { result += spell(item, limit: limit - result.count) }
            return result
        case .sequence(let items):
            var result: [[Int32]] = [[]]
            for item in items {
                let options = spell(item, limit: limit)
                var next: [[Int32]] = []
                next.reserveCapacity(min(limit, result.count * options.count))
                outer: for prefix in result {
                    for option in options {
                        next.append(prefix + option)
                        if next.count >= limit { break outer }
                    }
                }
                result = next
            }
            return result
        }
    }

    func written(_ tokens: [Int32]) -> String {
        tokens.map { $0 == Self.digit ? "<digit>" : $0 == Self.number ? "<number>" : words[Int($0)] }.joined(separator: " ")
    }

    /// Whether some words match both spellings.
    func overlap(_ a: [Int32], _ b: [Int32]) -> Bool {
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) where x != y {
            if x < 0 && y < 0 { continue }
            let (word, slot) = x >= 0 ? (x, y) : (y, x)
            if slot >= 0 { return false }  // two different words
            if !(slot == Self.digit ? digitWords : numberWords).contains(word) { return false }
        }
        return true
    }

    /// Kills each custom form that a built-in form, or an earlier command's form, already
    /// answers to; one error per `say:` line. Forms are checked in the order they were added.
    mutating func dropClashes() -> [CommandFileProblem] {
        // (length, first word) → spellings; a slot first goes under word -9.
        var index: [Int64: [(form: Int, tokens: [Int32])]] = [:]
        var byLength: [Int: [(form: Int, tokens: [Int32])]] = [:]
        func key(_ n: Int, _ first: Int32) -> Int64 { Int64(n) << 32 | Int64(UInt32(bitPattern: first < 0 ? -9 : first)) }
        var problems: [CommandFileProblem] = []
        var reported = Set<String>()
        for f in forms.indices where forms[f].alive {
            let form = forms[f]
            if form.command != nil {
                var clash: ([Int32], Owner)?
                search: for tokens in form.expansions where !tokens.isEmpty {
                    let candidates = tokens[0] >= 0
                        ? (index[key(tokens.count, tokens[0])] ?? []) + (index[key(tokens.count, -9)] ?? [])
                        : byLength[tokens.count] ?? []
                    for other in candidates where forms[other.form].owner.command != form.owner.command {
                        if overlap(tokens, other.tokens) {
                            clash = (tokens, forms[other.form].owner)
                            break search
                        }
                    }
                }
                if let (tokens, owner) = clash {
                    forms[f].alive = false
                    if reported.insert("\(form.owner.file ?? ""):\(form.owner.line)").inserted {
                        problems.append(CommandFileProblem(
                            .error, file: form.owner.file ?? "", line: form.owner.line,
                            "saying \"\(written(tokens))\" could mean '\(form.owner.command)' or \(owner.described); change the words of one of them"))
                    }
                    continue
                }
            }
            for tokens in form.expansions where !tokens.isEmpty {
                index[key(tokens.count, tokens[0]), default: []].append((f, tokens))
                byLength[tokens.count, default: []].append((f, tokens))
            }
        }
        return problems
    }

    /// Warnings for living forms that sound too alike, where at least one of the pair
    /// comes from a file in `changed`: a pair is reported once, at the later form.
    func soundAlikes(phones: [String: [String]], changed: Set<String>) -> [CommandFileProblem] {
        var phoneIDs: [String: UInt16] = ["#": 0]
        // Phones of each word, by word id; nil for a word without a pronunciation.
        let wordPhones: [[UInt16]?] = words.map { w in
            phones[w].map { $0.map { p in
                if let id = phoneIDs[p] { return id }
                phoneIDs[p] = UInt16(phoneIDs.count)
                return phoneIDs[p]!
            } }
        }
        struct Sound {
            var form: Int
            var tokens: [Int32]
            var phones: [UInt16]
        }
        var sounds: [Sound] = []
        for (f, form) in forms.enumerated() where form.alive {
            for tokens in form.expansions.prefix(32) where !tokens.isEmpty {
                var result: [UInt16] = []
                var known = true
                for t in tokens {
                    if t < 0 {
                        result.append(0)
                    } else if let p = wordPhones[Int(t)] {
                        result += p
                    } else {
                        known = false
                        break
                    }
                }
                if known { sounds.append(Sound(form: f, tokens: tokens, phones: result)) }
            }
        }
        let relevant = { (s: Sound) in self.forms[s.form].owner.file.map(changed.contains) ?? false }
        // Sequences within one edit share a sequence with at most one phone deleted;
        // long ones (where two edits count) share one with at most two deleted. The
        // sequences are hashed (polynomial hashes, so a deletion costs O(1)), sorted,
        // and equal hashes give the candidate pairs, which are then measured.
        let maxLength = sounds.map(\.phones.count).max() ?? 0
        var power: [UInt64] = [1]
        for _ in 0...maxLength { power.append(power.last! &* 1_000_003) }
        var keyed: [(key: UInt64, sound: Int32)] = []
        for (i, sound) in sounds.enumerated() {
            let p = sound.phones, n = p.count, long = n >= 12
            var prefix = [UInt64](repeating: 0, count: n + 1)
            for k in 0..<n { prefix[k + 1] = prefix[k] &* 1_000_003 &+ UInt64(p[k]) &+ 1 }
            func part(_ a: Int, _ b: Int) -> UInt64 { prefix[b] &- prefix[a] &* power[b - a] }
            func add(_ hash: UInt64, _ length: Int, marked: Bool) {
                keyed.append(((hash ^ UInt64(length) << 56) &* 0x9E37_79B9_7F4A_7C15 ^ (marked ? 1 : 0), Int32(i)))
            }
            add(prefix[n], n, marked: false)
            if long { add(prefix[n], n, marked: true) }
            for d in 0..<n {
                let one = part(0, d) &* power[n - 1 - d] &+ part(d + 1, n)
                add(one, n - 1, marked: false)
                guard long else { continue }
                // Marked keys pair long sequences only: zero, one or two phones deleted.
                add(one, n - 1, marked: true)
                for e in (d + 1)..<n {
                    add(part(0, d) &* power[n - 2 - d] &+ part(d + 1, e) &* power[n - 1 - e] &+ part(e + 1, n), n - 2, marked: true)
                }
            }
        }
        keyed.sort { $0.key < $1.key }
        var pairs = Set<Int64>()
        var start = 0
        while start < keyed.count {
            var end = start + 1
            while end < keyed.count, keyed[end].key == keyed[start].key { end += 1 }
            if end - start > 1 {
                for a in start..<end {
                    for b in (a + 1)..<end {
                        let (i, j) = (Int(keyed[a].sound), Int(keyed[b].sound))
                        if i == j { continue }
                        let (x, y) = (sounds[i], sounds[j])
                        if forms[x.form].owner.command == forms[y.form].owner.command { continue }
                        if !relevant(x) && !relevant(y) { continue }
                        pairs.insert(Int64(min(i, j)) << 32 | Int64(max(i, j)))
                    }
                }
            }
            start = end
        }
        var problems: [CommandFileProblem] = []
        var reported = Set<String>()
        for pair in pairs.sorted() {
            var (a, b) = (sounds[Int(pair >> 32)], sounds[Int(pair & 0xffff_ffff)])
            // Report at the later form, unless only the earlier one changed.
            if a.form > b.form { swap(&a, &b) }
            if !relevant(b) { swap(&a, &b) }
            let (mine, other) = (forms[b.form].owner, forms[a.form].owner)
            guard let file = mine.file, a.tokens != b.tokens else { continue }
            let limit = min(a.phones.count, b.phones.count) >= 12 ? 2 : 1
            guard PhoneDistance.within(a.phones, b.phones, limit) else { continue }
            guard reported.insert("\(file):\(mine.line) \(other.command)").inserted else { continue }
            problems.append(CommandFileProblem(
                .warning, file: file, line: mine.line,
                "\"\(written(b.tokens))\" sounds like \"\(written(a.tokens))\" of \(other.described), so the recogniser may take one for the other; choose words that sound more different"))
        }
        return problems
    }
}

/// Edit distance over phones, only as far as a small limit.
enum PhoneDistance {
    /// Whether `a` becomes `b` with at most `limit` insertions, deletions or substitutions.
    static func within(_ a: [UInt16], _ b: [UInt16], _ limit: Int) -> Bool {
        if abs(a.count - b.count) > limit { return false }
        if limit <= 1 {
            if a.count == b.count { return zip(a, b).reduce(0) { $0 + ($1.0 == $1.1 ? 0 : 1) } <= limit }
            let (long, short) = a.count > b.count ? (a, b) : (b, a)
            var i = 0
            while i < short.count, short[i] == long[i] { i += 1 }
            return short[i...] == long[(i + 1)...]
        }
        var row = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var next = [i] + Array(repeating: 0, count: b.count)
            var best = next[0]
            for j in 1...max(1, b.count) where !b.isEmpty {
                next[j] = min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                best = min(best, next[j])
            }
            if best > limit { return false }
            row = next
        }
        return row[b.count] <= limit
    }
}
