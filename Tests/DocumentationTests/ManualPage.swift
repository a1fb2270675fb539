/// A manual page's scdoc source (docs/man/NAME.scd), read for what it defines.
struct ManualPage {
    /// The source's lines.
    let lines: [Substring]

    /// Reads `docs/man/<name>.scd`.
    init(_ name: String) throws {
        lines = try Repository.text("docs/man/\(name).scd").split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// The lines of a section (`# TITLE`) or subsection (`## TITLE...`), up to the next heading
    /// of the same level or above; `title` matches the heading's first word.
    func section(_ title: String, level: Int = 1) -> [Substring] {
        let marker = String(repeating: "#", count: level) + " "
        guard
            let start = lines.firstIndex(where: {
                $0.hasPrefix(marker) && $0.dropFirst(marker.count).split(separator: " ").first == Substring(title)
            })
        else { return [] }
        let rest = lines[(start + 1)...]
        let end =
            rest.firstIndex { line in
                guard line.hasPrefix("#") else { return false }
                let hashes = line.prefix { $0 == "#" }.count
                return hashes <= level && line.dropFirst(hashes).hasPrefix(" ")
            } ?? lines.endIndex
        return Array(lines[(start + 1)..<end])
    }

    /// The subsections' titles' first words (`## status` ... gives `status`) under a section.
    func subsections(of title: String) -> [String] {
        section(title).filter { $0.hasPrefix("## ") }.compactMap { $0.dropFirst(3).split(separator: " ").first.map(String.init) }
    }

    /// The options a block of lines defines: every `*--name*` on a line that starts with one (a
    /// definition's term), not those mentioned in running text.
    static func definedOptions(_ block: [Substring]) -> Set<String> {
        block.filter { $0.hasPrefix("*--") }.reduce(into: Set<String>()) { found, line in
            found.formUnion(options(in: line))
        }
    }

    /// The options the whole page defines.
    var definedOptions: Set<String> { Self.definedOptions(lines) }

    /// The terms `*Name*...` at the start of the lines of a section (methods, errors, keys).
    func terms(in title: String) -> [String] {
        section(title).filter { $0.hasPrefix("*") && !$0.hasPrefix("*--") }.compactMap { line in
            line.dropFirst().split(separator: "*", maxSplits: 1).first.map(String.init)
        }
    }

    /// A definition's text: the tab-indented lines after its term, joined.
    func definition(of term: String) -> String? {
        guard let start = lines.firstIndex(where: { $0.hasPrefix("*\(term)*") }) else { return nil }
        return lines[(start + 1)...].prefix { $0.hasPrefix("\t") }.map { $0.dropFirst() }.joined(separator: " ")
    }
}
