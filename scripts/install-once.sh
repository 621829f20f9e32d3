# Sourced by the scripts that cache a tool under ~/.cache/folio (minio.sh, pytools.sh).
#
#   install_once LOCKFILE CHECK BUILD
#
# Prints what CHECK prints when it succeeds (the tool is there at the pinned version); otherwise
# runs BUILD under an exclusive lock on LOCKFILE, so test files that ask at the same time build
# once (the second one finds the first one's result), then prints CHECK's answer.
install_once() {
	local lock="$1" check="$2" build="$3"
	if "$check" >/dev/null; then
		"$check"
		return 0
	fi
	mkdir -p "$(dirname "$lock")"
	exec 9>"$lock"
	flock 9
	if ! "$check" >/dev/null; then
		"$build" || return 1
	fi
	"$check"
}
