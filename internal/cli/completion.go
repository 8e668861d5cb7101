package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
)

const completionUsage = `Usage: geoscan completion bash|zsh|fish

Prints a script that completes geoscan's commands, subcommands and flags in
the shell, and the values of the flags that take a fixed few.

  bash   source <(geoscan completion bash)        or save it in /etc/bash_completion.d/geoscan
  zsh    source <(geoscan completion zsh)         or save it as _geoscan in a folder of $fpath
  fish   geoscan completion fish | source         or save it in ~/.config/fish/completions/geoscan.fish
`

func completionCmd(ctx context.Context, e env, args []string) error {
	fs := newFlagSet(e, "completion")
	fs.Usage = func() { fmt.Fprint(fs.Output(), completionUsage) }
	pos, err := parseArgs(fs, args, 1, 1)
	if err != nil {
		return err
	}
	tree := completionTree(ctx)
	switch pos[0] {
	case "bash":
		return writeBashCompletion(e.stdout, tree)
	case "zsh":
		return writeZshCompletion(e.stdout, tree)
	case "fish":
		return writeFishCompletion(e.stdout, tree)
	}
	return fmt.Errorf("%w: completion takes bash, zsh or fish, not %q", errUsage, pos[0])
}

// completionNode is a command path ("", "scan", "scan share create") with
// what may follow it.
type completionNode struct {
	path  string
	subs  []string
	flags []completionFlag
}

type completionFlag struct {
	name   string // without dashes
	usage  string // its first line
	value  bool   // takes a value (not a boolean)
	values []string
}

// flagValues are the values completed after a flag, for flags whose name
// means the same set wherever it appears.
var flagValues = map[string][]string{
	"audience":  {"marketing", "engineering"},
	"language":  {"en", "de", "fr", "es"},
	"ring":      {"search", "visibility", "trust"},
	"frequency": {"monthly", "quarterly"},
}

// completionTree lists every command path of the command table with its
// subcommands, and each command's flags as its own flag set declares them:
// the command is run with a hook that takes the flag set and stops it
// before it parses anything.
func completionTree(ctx context.Context) []completionNode {
	root := completionNode{path: ""}
	var nodes []completionNode
	byPath := map[string]*completionNode{}
	for _, c := range commandTable() {
		root.subs = append(root.subs, c.name)
		paths := []string{c.name}
		for _, s := range c.sub {
			words := strings.Fields(s)
			for i := range words {
				p := c.name + " " + strings.Join(words[:i+1], " ")
				if !slices.Contains(paths, p) {
					paths = append(paths, p)
				}
			}
		}
		for _, p := range paths {
			nodes = append(nodes, completionNode{path: p})
		}
	}
	nodes = append([]completionNode{root}, nodes...)
	for i := range nodes {
		byPath[nodes[i].path] = &nodes[i]
	}
	for i := range nodes {
		n := &nodes[i]
		if n.path == "" {
			continue
		}
		if j := strings.LastIndexByte(n.path, ' '); j > 0 {
			parent := byPath[n.path[:j]]
			parent.subs = append(parent.subs, n.path[j+1:])
		}
	}
	for i := range nodes {
		n := &nodes[i]
		if n.path == "" || len(n.subs) > 0 {
			continue
		}
		n.flags = commandFlags(ctx, strings.Fields(n.path))
	}
	return nodes
}

// commandFlags runs the command of path with the flag hook and returns the
// flags of the flag set it built (none for a command without flags).
func commandFlags(ctx context.Context, path []string) []completionFlag {
	var flags []completionFlag
	quiet := env{getenv: func(string) string { return "" }, stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}
	quiet.inspectFlags = func(fs *flag.FlagSet) {
		fs.VisitAll(func(f *flag.Flag) {
			bf, isBool := f.Value.(interface{ IsBoolFlag() bool })
			usage, _, _ := strings.Cut(f.Usage, "\n")
			flags = append(flags, completionFlag{
				name: f.Name, usage: usage, value: !isBool || !bf.IsBoolFlag(), values: flagValues[f.Name],
			})
		})
	}
	_ = dispatch(ctx, quiet, append(slices.Clone(path), "--help"))
	sort.Slice(flags, func(i, j int) bool { return flags[i].name < flags[j].name })
	return flags
}

func dashes(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// shellQuote quotes s for a POSIX shell (and zsh): single quotes, a quote
// inside written as '\”.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// fishQuote quotes s for fish, whose single quotes take \' and \\.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// knownPaths is "|scan|scan create|…|", which the scripts look a path up
// in.
func knownPaths(tree []completionNode) string {
	var b strings.Builder
	b.WriteString("|")
	for _, n := range tree {
		if n.path != "" {
			b.WriteString(n.path + "|")
		}
	}
	return b.String()
}

// valueFlags are the flags of the tree that take a value, by name, with
// their values where the set is fixed.
func valueFlags(tree []completionNode) (names []string, values map[string][]string) {
	values = map[string][]string{}
	for _, n := range tree {
		for _, f := range n.flags {
			if f.value && !slices.Contains(names, f.name) {
				names = append(names, f.name)
				if f.values != nil {
					values[f.name] = f.values
				}
			}
		}
	}
	sort.Strings(names)
	return names, values
}

func flagWords(n completionNode) string {
	var words []string
	for _, f := range n.flags {
		words = append(words, dashes(f.name))
	}
	return strings.Join(words, " ")
}

func writeBashCompletion(w io.Writer, tree []completionNode) error {
	var b strings.Builder
	b.WriteString("# bash completion for geoscan (geoscan completion bash)\n")
	b.WriteString("_geoscan() {\n")
	b.WriteString("    local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n")
	b.WriteString("    local known=" + shellQuote(knownPaths(tree)) + "\n")
	b.WriteString(`    local path="" cand w i
    for ((i = 1; i < COMP_CWORD; i++)); do
        w="${COMP_WORDS[i]}"
        [[ $w == -* ]] && break
        cand="${path:+$path }$w"
        [[ $known == *"|$cand|"* ]] || break
        path="$cand"
    done
    COMPREPLY=()
    case "$prev" in
`)
	names, values := valueFlags(tree)
	for _, name := range names {
		b.WriteString("    " + dashes(name) + "|-" + name)
		if len(name) == 1 {
			b.WriteString("|--" + name)
		}
		if v, ok := values[name]; ok {
			b.WriteString(")\n        COMPREPLY=($(compgen -W " + shellQuote(strings.Join(v, " ")) + " -- \"$cur\"))\n        return ;;\n")
		} else {
			b.WriteString(")\n        return ;; # the shell's own completion: files\n")
		}
	}
	b.WriteString("    esac\n    local subs=\"\" flags=\"\"\n    case \"$path\" in\n")
	for _, n := range tree {
		b.WriteString("    " + shellQuote(n.path) + ")")
		if len(n.subs) > 0 {
			b.WriteString(" subs=" + shellQuote(strings.Join(n.subs, " ")))
		}
		if len(n.flags) > 0 {
			b.WriteString(" flags=" + shellQuote(flagWords(n)))
		}
		b.WriteString(" ;;\n")
	}
	b.WriteString(`    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$flags" -- "$cur"))
    elif [[ -n $subs ]]; then
        COMPREPLY=($(compgen -W "$subs" -- "$cur"))
    fi
}
complete -o default -F _geoscan geoscan
`)
	_, err := io.WriteString(w, b.String())
	return err
}

func writeZshCompletion(w io.Writer, tree []completionNode) error {
	var b strings.Builder
	b.WriteString("#compdef geoscan\n# zsh completion for geoscan (geoscan completion zsh)\n")
	b.WriteString("_geoscan() {\n")
	b.WriteString("    local known=" + shellQuote(knownPaths(tree)) + "\n")
	b.WriteString(`    local path='' cand w i
    local -a subs flags
    for ((i = 2; i < CURRENT; i++)); do
        w=${words[i]}
        [[ $w == -* ]] && break
        cand=${path:+$path }$w
        [[ $known == *"|$cand|"* ]] || break
        path=$cand
    done
    case ${words[CURRENT-1]} in
`)
	names, values := valueFlags(tree)
	for _, name := range names {
		b.WriteString("    " + dashes(name) + "|-" + name)
		if len(name) == 1 {
			b.WriteString("|--" + name)
		}
		if v, ok := values[name]; ok {
			b.WriteString(")\n        compadd -- " + strings.Join(v, " ") + "\n        return ;;\n")
		} else {
			b.WriteString(")\n        _files\n        return ;;\n")
		}
	}
	b.WriteString("    esac\n    case $path in\n")
	for _, n := range tree {
		b.WriteString("    " + shellQuote(n.path) + ")")
		if len(n.subs) > 0 {
			b.WriteString("\n        subs=(" + strings.Join(n.subs, " ") + ")")
		}
		if len(n.flags) > 0 {
			var fl []string
			for _, f := range n.flags {
				fl = append(fl, shellQuote(strings.ReplaceAll(dashes(f.name), ":", `\:`)+":"+f.usage))
			}
			b.WriteString("\n        flags=(" + strings.Join(fl, " ") + ")")
		}
		b.WriteString(" ;;\n")
	}
	b.WriteString(`    esac
    if [[ ${words[CURRENT]} == -* ]]; then
        _describe -t flags flag flags
    elif (( ${#subs} )); then
        compadd -- $subs
    else
        _files
    fi
}
if [[ $funcstack[1] == _geoscan ]]; then
    _geoscan "$@"
else
    compdef _geoscan geoscan
fi
`)
	_, err := io.WriteString(w, b.String())
	return err
}

func writeFishCompletion(w io.Writer, tree []completionNode) error {
	var b strings.Builder
	b.WriteString("# fish completion for geoscan (geoscan completion fish)\n")
	var paths []string
	for _, n := range tree {
		if n.path != "" {
			paths = append(paths, fishQuote(n.path))
		}
	}
	b.WriteString("set -g __geoscan_paths " + strings.Join(paths, " ") + "\n")
	b.WriteString(`function __geoscan_path
    set -l words (commandline -opc)
    set -e words[1]
    set -l path
    for w in $words
        string match -q -- '-*' $w; and break
        set -l cand (string join ' ' $path $w)
        contains -- $cand $__geoscan_paths; or break
        set path $path $w
    end
    string join ' ' $path
end
function __geoscan_at
    set -l p (__geoscan_path)
    test "$p" = "$argv[1]"
end
complete -c geoscan -f
`)
	for _, n := range tree {
		// A path is words of lower-case letters and hyphens: nothing in
		// it acts inside double quotes.
		cond := `"__geoscan_at ` + fishQuote(n.path) + `"`
		if len(n.subs) > 0 {
			b.WriteString("complete -c geoscan -n " + cond + " -a " + fishQuote(strings.Join(n.subs, " ")) + "\n")
		}
		for _, f := range n.flags {
			b.WriteString("complete -c geoscan -n " + cond)
			if len(f.name) == 1 {
				b.WriteString(" -s " + f.name)
			} else {
				b.WriteString(" -l " + f.name)
			}
			if f.value {
				b.WriteString(" -r")
				if f.values != nil {
					b.WriteString(" -a " + fishQuote(strings.Join(f.values, " ")))
				} else {
					b.WriteString(" -F")
				}
			}
			b.WriteString(" -d " + fishQuote(f.usage) + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
