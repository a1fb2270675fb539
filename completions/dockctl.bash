# dockctl(1) completion for bash, written by `dockctl --completions bash` from its option table.
# Plain bash: it needs none of the bash-completion package's helpers.
_dockctl() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=
    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD-1]}
    local command= i
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            --socket|--accessory|--completions) ((i++)) ;;
            -*) ;;
            *) command=${COMP_WORDS[i]}; break ;;
        esac
    done
    local options= words= files=false
    case $command in
        '')
            case $prev in
                --socket) files=true ;;
                --accessory) COMPREPLY=(); return ;;
                --completions) COMPREPLY=($(compgen -W 'bash zsh fish' -- "$cur")); return ;;
            esac
            options='--socket --accessory --json --help --version --completions'
            words='status watch velocity orient stop animate track limits list framing roi select zoom shot preset lost speed replay'
            ;;
        status)
            options='--help --json'
            ;;
        watch)
            options='--help --json'
            ;;
        velocity)
            case $prev in
                --yaw) COMPREPLY=(); return ;;
                --pitch) COMPREPLY=(); return ;;
                --duration) COMPREPLY=(); return ;;
            esac
            options='--yaw --pitch --duration --take-over --no-wait --help --json'
            ;;
        orient)
            case $prev in
                --yaw) COMPREPLY=(); return ;;
                --pitch) COMPREPLY=(); return ;;
                --duration) COMPREPLY=(); return ;;
                --speed) COMPREPLY=(); return ;;
            esac
            options='--yaw --pitch --relative --duration --speed --take-over --no-wait --help --json'
            ;;
        stop)
            options='--take-over --help --json'
            ;;
        animate)
            options='--take-over --no-wait --help --json'
            words='yes no wake kapow'
            ;;
        track)
            options='--help --json'
            words='on off'
            ;;
        limits)
            case $prev in
                --yaw-min) COMPREPLY=(); return ;;
                --yaw-max) COMPREPLY=(); return ;;
                --pitch-min) COMPREPLY=(); return ;;
                --pitch-max) COMPREPLY=(); return ;;
                --max-speed) COMPREPLY=(); return ;;
            esac
            options='--yaw-min --yaw-max --pitch-min --pitch-max --max-speed --help --json'
            ;;
        list)
            options='--help --json'
            ;;
        framing)
            options='--help --json'
            words='automatic center left right'
            ;;
        roi)
            options='--clear --help --json'
            ;;
        select)
            options='--at --help --json'
            ;;
        zoom)
            options='--help --json'
            ;;
        shot)
            options='--help --json'
            words='off head half full group'
            ;;
        preset)
            options='--take-over --no-wait --help --json'
            words='save list recall delete'
            ;;
        lost)
            case $prev in
                --after) COMPREPLY=(); return ;;
                --action) COMPREPLY=(); return ;;
            esac
            options='--after --action --help --json'
            ;;
        speed)
            case $prev in
                --yaw-max-speed) COMPREPLY=(); return ;;
                --yaw-accel) COMPREPLY=(); return ;;
                --yaw-dead-band) COMPREPLY=(); return ;;
                --pitch-max-speed) COMPREPLY=(); return ;;
                --pitch-accel) COMPREPLY=(); return ;;
                --pitch-dead-band) COMPREPLY=(); return ;;
            esac
            options='--yaw-max-speed --yaw-accel --yaw-dead-band --pitch-max-speed --pitch-accel --pitch-dead-band --help --json'
            words='smooth normal fast'
            ;;
        replay)
            case $prev in
                --mot) files=true ;;
                --out) files=true ;;
                --size) COMPREPLY=(); return ;;
                --fps) COMPREPLY=(); return ;;
                --frames) COMPREPLY=(); return ;;
                --fov) COMPREPLY=(); return ;;
                --kind) COMPREPLY=($(compgen -W 'face body object' -- "$cur")); return ;;
                --confident) COMPREPLY=(); return ;;
                --birth-confidence) COMPREPLY=(); return ;;
                --min-confidence) COMPREPLY=(); return ;;
                --min-iou) COMPREPLY=(); return ;;
                --min-iou-coasting) COMPREPLY=(); return ;;
                --min-iou-hidden) COMPREPLY=(); return ;;
                --hidden-after) COMPREPLY=(); return ;;
                --min-iou-weak) COMPREPLY=(); return ;;
                --size-ratio) COMPREPLY=(); return ;;
                --gate) COMPREPLY=(); return ;;
                --coasting-gate) COMPREPLY=(); return ;;
                --coasting-reach) COMPREPLY=(); return ;;
                --distant-reach) COMPREPLY=(); return ;;
                --iou-weight) COMPREPLY=(); return ;;
                --unpaired-cost) COMPREPLY=(); return ;;
                --confirm-hits) COMPREPLY=(); return ;;
                --quick-confirm) COMPREPLY=(); return ;;
                --tentative-timeout) COMPREPLY=(); return ;;
                --coast-after) COMPREPLY=(); return ;;
                --coast-timeout) COMPREPLY=(); return ;;
                --coast-timeout-per-seen) COMPREPLY=(); return ;;
                --vouched-coast-timeout) COMPREPLY=(); return ;;
                --coasting-rate-window) COMPREPLY=(); return ;;
                --max-tracks) COMPREPLY=(); return ;;
                --acceleration-noise) COMPREPLY=(); return ;;
                --acceleration-per-height) COMPREPLY=(); return ;;
                --coasting-acceleration-per-height) COMPREPLY=(); return ;;
                --maneuver-memory) COMPREPLY=(); return ;;
                --maneuver-bias) COMPREPLY=(); return ;;
                --maneuver-hold) COMPREPLY=(); return ;;
                --reidentification-window) COMPREPLY=(); return ;;
                --size-noise) COMPREPLY=(); return ;;
                --box-noise) COMPREPLY=(); return ;;
                --box-noise-floor) COMPREPLY=(); return ;;
            esac
            options='--mot --out --size --fps --frames --fov --kind --include-coasting --time --detector-ids --confident --birth-confidence --min-confidence --min-iou --min-iou-coasting --min-iou-hidden --hidden-after --min-iou-weak --size-ratio --gate --coasting-gate --coasting-reach --distant-reach --iou-weight --unpaired-cost --confirm-hits --quick-confirm --tentative-timeout --coast-after --coast-timeout --coast-timeout-per-seen --vouched-coast-timeout --coasting-rate-window --max-tracks --acceleration-noise --acceleration-per-height --coasting-acceleration-per-height --maneuver-memory --maneuver-bias --maneuver-hold --reidentification-window --size-noise --box-noise --box-noise-floor --help --json'
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
complete -F _dockctl dockctl
