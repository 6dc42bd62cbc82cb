# bash completion for rdmascn(1): the commands, each command's options,
# device names after -d, scenario files (*.yaml, *.yml) where a command
# takes one, the params of the one on the line after --set (NAME=).
# Plain bash: bash-completion's helpers are used when loaded, never
# needed.  tests/packaging/completion.sh keeps the option lists equal to
# each command's --help.
# compgen's words are split on purpose (IFS is a newline for file names):
# shellcheck disable=SC2207

_rdmascn_files() # [PATTERN...]: files matching a PATTERN, and directories
{
	local IFS=$'\n' p

	compopt -o filenames 2>/dev/null
	if (($# == 0)); then
		COMPREPLY+=($(compgen -f -- "$cur"))
		return
	fi
	for p; do
		COMPREPLY+=($(compgen -f -X "!$p" -- "$cur"))
	done
	COMPREPLY+=($(compgen -d -- "$cur"))
}

# The figures of a run record, as `rdmascn compare --figure x` lists
# them (tests/packaging/completion.sh compares the two).
_rdmascn_figures()
{
	COMPREPLY=($(compgen -W 'latency.min latency.typical latency.avg
		latency.stdev latency.p99 latency.p99.9 latency.max
		throughput.messages throughput.elapsed_ms throughput.MB/s
		throughput.Gb/s throughput.Mpps' -- "$cur"))
}

# The names a scenario's params: declares, each as NAME= for --set: the
# keys of its block mapping (the first indentation under "params:"), or of
# its flow mapping ("params: {a: 1, b: {default: 2}}", over lines too).
# A reading of the YAML good enough for completion, not the loader's.
_rdmascn_params() # FILE
{
	awk '
	/^params:[ \t]*(#.*)?$/ { blk = 1; next }
	blk {
		if ($0 ~ /^[ \t]*(#.*)?$/)
			next
		if ($0 !~ /^[ \t]/)
			exit
		match($0, /^[ \t]*/)
		if (!ind)
			ind = RLENGTH
		if (RLENGTH == ind &&
		    match($0, /^[ \t]*[A-Za-z0-9_]+[ \t]*:/)) {
			key = substr($0, 1, RLENGTH)
			gsub(/[ \t:]/, "", key)
			print key "="
		}
		next
	}
	/^params:[ \t]*\{/ { flow = 1; sub(/^params:[ \t]*/, "") }
	flow {
		for (k = 1; k <= length($0); k++) {
			c = substr($0, k, 1)
			if (q != "") {
				if (c == q)
					q = ""
			} else if (c == "\"" || c == "\047") {
				q = c
			} else if (c == "{" || c == "[") {
				if (++d == 1)
					want = 1
			} else if (c == "}" || c == "]") {
				if (--d == 0)
					exit
			} else if (d == 1 && c == ",") {
				want = 1
				key = ""
			} else if (d == 1 && want && c == ":") {
				gsub(/[ \t]/, "", key)
				if (key ~ /^[A-Za-z0-9_]+$/)
					print key "="
				want = 0
				key = ""
			} else if (d == 1 && want) {
				key = key c
			}
		}
	}' "$1" 2>/dev/null
}

_rdmascn()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=''
	local verbs='run explore validate plan graph schema devices plugins compare report softroce'
	local verb='' i opts

	COMPREPLY=()
	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	# --json=FILE is three words to readline: --json, =, FILE.
	if [[ $cur == = ]]; then
		prev=${COMP_WORDS[COMP_CWORD - 1]}
		cur=
	elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	fi

	# The command is the first word that is not an option: the options
	# before it (-v, -h, -V) take no value.
	for ((i = 1; i < COMP_CWORD; i++)); do
		if [[ ${COMP_WORDS[i]} != -* ]]; then
			verb=${COMP_WORDS[i]}
			break
		fi
	done
	if [[ -z $verb ]]; then
		if [[ $cur == -* ]]; then
			opts='-v --verbose -h --help -V --version'
		else
			opts=$verbs
		fi
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		return 0
	fi

	if [[ $verb == softroce ]]; then
		# After --, a command line of its own.
		for ((i++; i < COMP_CWORD; i++)); do
			[[ ${COMP_WORDS[i]} == -- ]] || continue
			if declare -F _command_offset >/dev/null; then
				_command_offset $((i + 1))
			elif ((i + 1 == COMP_CWORD)); then
				COMPREPLY=($(compgen -c -- "$cur"))
			else
				_rdmascn_files
			fi
			return 0
		done
		case $prev in
		--share|--start|--in|--stop) compopt -o filenames 2>/dev/null
			COMPREPLY=($(compgen -d -- "$cur")); return 0 ;;
		--kernel) _rdmascn_files; return 0 ;;
		--env|--mem|--smp|--timeout) return 0 ;;
		esac
		opts='--pair --start --in --stop --share --no-cwd --env --mem --smp --timeout --kernel --keep
			-v --verbose -h --help --'
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		return 0
	fi

	case $prev in
	-d|--device)
		COMPREPLY=($(compgen -W "$(ls /sys/class/infiniband 2>/dev/null)" \
			-- "$cur"))
		return 0 ;;
	-s|--set|--scenario)
		# report -s FILE: the scenario the record ran.
		if [[ $verb == report ]]; then
			_rdmascn_files '*.yaml' '*.yml'
			return 0
		fi
		# NAME= of the scenario file already on the line.
		for ((i = 1; i < COMP_CWORD; i++)); do
			case ${COMP_WORDS[i]} in
			*.yaml|*.yml) [[ -f ${COMP_WORDS[i]} ]] || continue
				COMPREPLY=($(compgen -W "$(_rdmascn_params \
					"${COMP_WORDS[i]}")" -- "$cur"))
				compopt -o nospace 2>/dev/null
				break ;;
			esac
		done
		return 0 ;;
	--matrix|--jobs|--node|--vary|--budget-cells|--budget-time|--seed|--knee)
		return 0 ;;
	--maximize|--minimize)
		_rdmascn_figures
		return 0 ;;
	--find)
		COMPREPLY=($(compgen -W 'fail gate' -- "$cur"))
		return 0 ;;
	--strategy)
		COMPREPLY=($(compgen -W 'bisect grid anneal' -- "$cur"))
		return 0 ;;
	--out-dir)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -d -- "$cur"))
		return 0 ;;
	--rendezvous)
		# Or HOST[:PORT], which no list holds.
		COMPREPLY=($(compgen -W 'tcp pmix auto' -- "$cur"))
		return 0 ;;
	--color)
		COMPREPLY=($(compgen -W 'auto always never' -- "$cur"))
		return 0 ;;
	--counters)
		COMPREPLY=($(compgen -W 'off errors all' -- "$cur"))
		return 0 ;;
	--junit|--deviations|--samples|--graph-out|--key-file|--shrink-out)
		_rdmascn_files
		return 0 ;;
	-o|--output)
		[[ $verb == graph || $verb == report ]] &&
			{ _rdmascn_files; return 0; } ;;
	-f|--format)
		if [[ $verb == graph ]]; then
			COMPREPLY=($(compgen -W 'dot svg png' -- "$cur"))
			return 0
		fi
		if [[ $verb == report ]]; then
			COMPREPLY=($(compgen -W 'text junit graph' -- "$cur"))
			return 0
		fi
		[[ $verb == compare ]] && { _rdmascn_figures; return 0; } ;;
	--figure)
		[[ $verb == compare ]] && { _rdmascn_figures; return 0; } ;;
	-t|--tolerance)
		[[ $verb == compare ]] && return 0 ;;
	--json)
		# run --json FILE; devices and plugins --json take no value.
		if [[ $verb == run || $verb == explore ]]; then
			_rdmascn_files
			return 0
		fi ;;
	esac

	case $verb in
	run)
		opts='-s --set -d --device -n --dry-run --check-leaks --json
			--junit --matrix --jobs --deviations --strict --samples
			--graph-out --counters --node --rendezvous --key-file
			--insecure -v --verbose -q --quiet --color
			--softroce -h --help' ;;
	explore)
		opts='-s --set --vary --maximize --minimize --find
			--budget-cells --budget-time --strategy --seed --knee --repeat
			--jobs --json --out-dir --graph-out --shrink-out -d
			--device -n --dry-run --deviations --strict --softroce
			-q --quiet --color -h --help' ;;
	validate)
		opts='-s --set -h --help' ;;
	plan)
		opts='-s --set -v --verbose -h --help' ;;
	graph)
		opts='-s --set -f --format -o --output -h --help' ;;
	schema)
		opts='--figures -h --help' ;;
	devices)
		opts='-j --json -d --device -v --verbose --softroce -h --help' ;;
	plugins)
		opts='-j --json -h --help' ;;
	compare)
		opts='-t --tolerance -f --figure -j --json -h --help' ;;
	report)
		opts='-f --format -o --output -s --scenario -h --help' ;;
	*)
		return 0 ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		return 0
	fi
	case $verb in
	run|explore|validate|plan|graph)
		_rdmascn_files '*.yaml' '*.yml' ;;
	compare|report)
		_rdmascn_files '*.json' ;;
	esac
	return 0
}
complete -F _rdmascn rdmascn
