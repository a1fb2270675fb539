# dockd-vision(1) completion for bash, written by `dockd-vision --completions bash` from its option table.
# Plain bash: it needs none of the bash-completion package's helpers.
_dockd_vision() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=
    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD-1]}
    local command= i
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            --config|--device|--socket|--accessory|--width|--height|--fps|--format|--detect-width|--fov-deg|--orientation|--mirrored|--faces|--face-model|--bodies|--body-model|--body-model-size|--body-every|--face-scale|--body-scale|--face-min-px|--appearance|--tracking|--threads|--output|--output-format|--output-size|--output-view|--log-level|--completions) ((i++)) ;;
            -*) ;;
            *) command=${COMP_WORDS[i]}; break ;;
        esac
    done
    local options= words= files=false
    case $command in
        '')
            case $prev in
                --config) files=true ;;
                --device) files=true ;;
                --socket) files=true ;;
                --accessory) COMPREPLY=(); return ;;
                --width) COMPREPLY=(); return ;;
                --height) COMPREPLY=(); return ;;
                --fps) COMPREPLY=(); return ;;
                --format) COMPREPLY=($(compgen -W 'auto yuyv nv12 mjpeg' -- "$cur")); return ;;
                --detect-width) COMPREPLY=(); return ;;
                --fov-deg) COMPREPLY=(); return ;;
                --orientation) COMPREPLY=($(compgen -W 'up rotated_clockwise upside_down rotated_counterclockwise' -- "$cur")); return ;;
                --mirrored) COMPREPLY=($(compgen -W 'true false' -- "$cur")); return ;;
                --faces) COMPREPLY=($(compgen -W 'lbp haar yunet none' -- "$cur")); return ;;
                --face-model) files=true ;;
                --bodies) COMPREPLY=($(compgen -W 'hog onnx none' -- "$cur")); return ;;
                --body-model) files=true ;;
                --body-model-size) COMPREPLY=(); return ;;
                --body-every) COMPREPLY=(); return ;;
                --face-scale) COMPREPLY=(); return ;;
                --body-scale) COMPREPLY=(); return ;;
                --face-min-px) COMPREPLY=(); return ;;
                --appearance) COMPREPLY=($(compgen -W 'true false' -- "$cur")); return ;;
                --tracking) COMPREPLY=($(compgen -W 'true false' -- "$cur")); return ;;
                --threads) COMPREPLY=(); return ;;
                --output) files=true ;;
                --output-format) COMPREPLY=($(compgen -W 'same yuyv nv12' -- "$cur")); return ;;
                --output-size) COMPREPLY=(); return ;;
                --output-view) COMPREPLY=($(compgen -W 'full framed' -- "$cur")); return ;;
                --log-level) COMPREPLY=($(compgen -W 'error warning notice info debug' -- "$cur")); return ;;
                --completions) COMPREPLY=($(compgen -W 'bash zsh fish' -- "$cur")); return ;;
            esac
            options='--config --device --socket --accessory --width --height --fps --format --detect-width --fov-deg --orientation --mirrored --faces --face-model --bodies --body-model --body-model-size --body-every --face-scale --body-scale --face-min-px --appearance --tracking --threads --output --output-format --output-size --output-view --log-level --completions --help --version'
            words=''
            ;;
        *) return ;;
    esac
    if $files; then
        compopt -o filenames 2>/dev/null
        COMPREPLY=($(compgen -f -- "$cur"))
    elif [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
    else
        COMPREPLY=($(compgen -W "$words" -- "$cur"))
    fi
}
complete -F _dockd_vision dockd-vision
