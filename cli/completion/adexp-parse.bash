# bash completion for adexp-parse: options (read from its --help, so they
# stay in step), the values of --format, --layout and --color, field names
# from the dictionary (adexp-parse --list-fields) for --fields and --rows,
# files elsewhere. Installed as share/bash-completion/completions/adexp-parse.
_adexp_parse()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local exe=${COMP_WORDS[0]}
    COMPREPLY=()
    case $prev in
    --format)
        mapfile -t COMPREPLY < <(compgen -W "json summary adexp view csv tsv sqlite" -- "$cur")
        return ;;
    --layout)
        mapfile -t COMPREPLY < <(compgen -W "line ifps" -- "$cur")
        return ;;
    --color)
        mapfile -t COMPREPLY < <(compgen -W "auto always never" -- "$cur")
        return ;;
    --fields|--rows)
        # a comma-separated list: complete its last entry
        local head=
        [[ $cur == *,* ]] && head=${cur%,*},
        local fields
        fields=$("$exe" --list-fields 2>/dev/null)
        mapfile -t COMPREPLY < <(compgen -P "$head" -W "$fields" -- "${cur##*,}")
        [[ $prev == --fields ]] && compopt -o nospace 2>/dev/null
        return ;;
    -o|--output|--files-from|--dictionary)
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        return ;;
    -j|--jobs|--title|--include|--exclude|--max-*)
        return ;;
    esac
    if [[ $cur == -* ]]; then
        local opts
        opts=$("$exe" --help 2>/dev/null | grep -oE -- '(^|[ ,])--?[a-z0-9][a-z0-9-]*' |
               tr -d ' ,' | sort -u)
        mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
        return
    fi
    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
}
complete -o filenames -F _adexp_parse adexp-parse
