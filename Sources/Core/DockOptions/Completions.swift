/// Shell completion scripts for a program, written from its declarations: bash (plain, without
/// the bash-completion package's helpers), zsh (`_arguments`) and fish (`complete`).
public enum Completions {
    /// The shells a script can be written for.
    public enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    /// The completion script of `program` for `shell`.
    public static func script(for program: ProgramSpec, shell: Shell) -> String {
        switch shell {
        case .bash: bash(program)
        case .zsh: zsh(program)
        case .fish: fish(program)
        }
    }

    static func header(_ program: ProgramSpec, _ shell: Shell) -> String {
        "# \(program.name)(1) completion for \(shell.rawValue), written by `\(program.name) --completions \(shell.rawValue)` from its option table."
    }

    static func bash(_ program: ProgramSpec) -> String {
        let name = program.name, function = "_" + name.replacing("-", with: "_")
        let globalValued = program.globalOptions.filter(\.takesValue).flatMap { [$0.name] + $0.aliases }
        var lines = [
            header(program, .bash),
            "# Plain bash: it needs none of the bash-completion package's helpers.",
            "\(function)() {",
            "    local cur=${COMP_WORDS[COMP_CWORD]} prev=",
            "    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD-1]}",
            "    local command= i",
            "    for ((i = 1; i < COMP_CWORD; i++)); do",
            "        case ${COMP_WORDS[i]} in",
        ]
        if !globalValued.isEmpty { lines.append("            \(globalValued.joined(separator: "|"))) ((i++)) ;;") }
        lines += [
            "            -*) ;;",
            "            *) command=${COMP_WORDS[i]}; break ;;",
            "        esac",
            "    done",
            "    local options= words= files=false",
            "    case $command in",
            "        '')",
        ]
        lines += bashValueCases(program.globalOptions, indent: "            ")
        lines += [
            "            options='\(program.globalOptions.map(\.name).joined(separator: " "))'",
            "            words='\(program.commands.map(\.name).joined(separator: " "))'",
            "            ;;",
        ]
        for command in program.commands {
            lines.append("        \(command.name))")
            lines += bashValueCases(command.options, indent: "            ")
            lines.append("            options='\((command.options + program.commonOptions).map(\.name).joined(separator: " "))'")
            if !command.words.isEmpty { lines.append("            words='\(command.words.joined(separator: " "))'") }
            lines.append("            ;;")
        }
        lines += [
            "        *) return ;;",
            "    esac",
            "    if $files; then",
            "        compopt -o filenames 2>/dev/null",
            "        COMPREPLY=($(compgen -f -- \"$cur\"))",
            "    elif [[ $cur == -* ]]; then",
            "        COMPREPLY=($(compgen -W \"$options\" -- \"$cur\"))",
            "    else",
            "        COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))",
            "    fi",
            "}",
            "complete -F \(function) \(name)",
            "",
        ]
        return lines.joined(separator: "\n")
    }

    /// `case $prev in ... esac`: after an option that takes a value, its values (or none).
    static func bashValueCases(_ options: [Option], indent: String) -> [String] {
        let valued = options.filter(\.takesValue)
        guard !valued.isEmpty else { return [] }
        var lines = [indent + "case $prev in"]
        for option in valued {
            let names = ([option.name] + option.aliases).joined(separator: "|")
            switch option.value {
            case .file: lines.append(indent + "    \(names)) files=true ;;")
            case .choice(let words):
                lines.append(indent + "    \(names)) COMPREPLY=($(compgen -W '\(words.joined(separator: " "))' -- \"$cur\")); return ;;")
            case .flag, .number, .wholeNumber, .text: lines.append(indent + "    \(names)) COMPREPLY=(); return ;;")
            }
        }
        lines.append(indent + "esac")
        return lines
    }

    static func zshQuote(_ text: String) -> String {
        text.replacing("'", with: "'\\''").replacing("[", with: "\\[").replacing("]", with: "\\]").replacing(":", with: "\\:")
    }

    static func zshSpec(_ option: Option) -> String {
        let text = zshQuote(option.help)
        switch option.value {
        case .flag: return "'\(option.name)[\(text)]'"
        case .file: return "'\(option.name)[\(text)]:file:_files'"
        case .choice(let words): return "'\(option.name)[\(text)]:\(zshQuote(option.placeholder)):(\(words.joined(separator: " ")))'"
        case .number, .wholeNumber, .text: return "'\(option.name)[\(text)]:\(zshQuote(option.placeholder)): '"
        }
    }

    static func zsh(_ program: ProgramSpec) -> String {
        let name = program.name, function = "_" + name.replacing("-", with: "_")
        var lines = [
            "#compdef \(name)", header(program, .zsh), "",
            "\(function)() {",
            "    local curcontext=$curcontext state line",
            "    typeset -A opt_args",
            "    _arguments -C \\",
        ]
        lines += program.globalOptions.map { "        \(zshSpec($0)) \\" }
        lines += [
            "        '1:command:->command' \\",
            "        '*::argument:->argument'",
            "    case $state in",
            "        command)",
            "            local -a commands",
            "            commands=(",
        ]
        lines += program.commands.map { "                '\($0.name):\(zshQuote($0.summary))'" }
        lines += [
            "            )",
            "            _describe -t commands '\(name) command' commands",
            "            ;;",
            "        argument)",
            "            case $line[1] in",
        ]
        for command in program.commands {
            var specs = (command.options + program.commonOptions).map(zshSpec)
            if !command.words.isEmpty { specs.append("'1:\(command.name):(\(command.words.joined(separator: " ")))'") }
            lines.append("                \(command.name))")
            lines.append("                    _arguments \\")
            lines += specs.dropLast().map { "                        \($0) \\" }
            lines.append("                        \(specs.last ?? "")")
            lines.append("                    ;;")
        }
        lines += [
            "            esac",
            "            ;;",
            "    esac",
            "}",
            "",
            "\(function) \"$@\"",
            "",
        ]
        return lines.joined(separator: "\n")
    }

    static func fishQuote(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }

    static func fishArguments(_ option: Option) -> String {
        switch option.value {
        case .flag: ""
        case .file: " -r -F"
        case .choice(let words): " -x -a " + fishQuote(words.joined(separator: " "))
        case .number, .wholeNumber, .text: " -x"
        }
    }

    static func fish(_ program: ProgramSpec) -> String {
        let name = program.name
        var lines = [header(program, .fish), "complete -c \(name) -f"]
        for option in program.globalOptions {
            lines.append(
                "complete -c \(name) -n '__fish_use_subcommand' -l \(option.name.dropFirst(2))\(fishArguments(option)) -d \(fishQuote(option.help))"
            )
        }
        for command in program.commands {
            lines.append("complete -c \(name) -n '__fish_use_subcommand' -a \(command.name) -d \(fishQuote(command.summary))")
        }
        for command in program.commands {
            let condition = "'__fish_seen_subcommand_from \(command.name)'"
            for option in command.options + program.commonOptions {
                lines.append(
                    "complete -c \(name) -n \(condition) -l \(option.name.dropFirst(2))\(fishArguments(option)) -d \(fishQuote(option.help))"
                )
            }
            if !command.words.isEmpty {
                lines.append("complete -c \(name) -n \(condition) -a \(fishQuote(command.words.joined(separator: " ")))")
            }
        }
        lines.append("")
        return lines.joined(separator: "\n")
    }
}
