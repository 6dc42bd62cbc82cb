# shellcheck shell=bash
# The layers' order, for includes.sh and symbols.sh: a layer may use the
# ones of a lower rank; kinds and steps share a rank and use neither.
rank() {
	case $1 in
	base) echo 0 ;; scenario) echo 1 ;; exec) echo 2 ;;
	kinds | steps) echo 3 ;; report) echo 4 ;; cli) echo 5 ;;
	*) echo "?" ;;
	esac
}
