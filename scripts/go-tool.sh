# Sourced by scripts/minio.sh and scripts/litestream.sh: one Go program, pinned, built from the Go
# module proxy into Folio's cache folder once (under a lock, since two processes of a test run may
# both ask) and reused while the binary records the pinned version.
#
# The caller sets GO_TOOL_NAME (the binary's name), GO_TOOL_MODULE, GO_TOOL_PACKAGE (what
# `go install` builds) and GO_TOOL_VERSION, and defines log(); this file sets GO_TOOL_HOME
# (${FOLIO_CACHE_DIR:-~/.cache/folio}/NAME) and GO_TOOL_BIN, and defines cmd_path and cmd_install.

GO_TOOL_HOME="${FOLIO_CACHE_DIR:-$HOME/.cache/folio}/$GO_TOOL_NAME"
GO_TOOL_BIN="$GO_TOOL_HOME/bin/$GO_TOOL_NAME"

# The module version recorded in the binary itself, so a stale build is never reused.
go_tool_installed_version() {
	[ -x "$GO_TOOL_BIN" ] || return 1
	go version -m "$GO_TOOL_BIN" 2>/dev/null | awk '$1 == "mod" && $2 == "'"$GO_TOOL_MODULE"'" { print $3 }'
}

# Prints the binary's path; fails if it is not installed at the pinned version.
cmd_path() {
	if [ "$(go_tool_installed_version || true)" = "$GO_TOOL_VERSION" ]; then
		echo "$GO_TOOL_BIN"
	else
		return 1
	fi
}

# shellcheck source=scripts/install-once.sh
. "$(dirname "${BASH_SOURCE[0]}")/install-once.sh"

# Builds the pinned version unless it is there already (once, under a lock); prints the binary's path.
cmd_install() { install_once "$GO_TOOL_HOME/install.lock" cmd_path go_tool_build; }

go_tool_build() {
	command -v go >/dev/null 2>&1 || { log "go is not on PATH; it is needed to build $GO_TOOL_NAME"; return 1; }
	mkdir -p "$GO_TOOL_HOME/bin"
	log "building $GO_TOOL_PACKAGE@$GO_TOOL_VERSION with $(go version | awk '{print $3}') (a cold build takes minutes)"
	local started=$SECONDS tmp_bin
	# Stale build folders of interrupted installs go first; ours goes however we exit.
	rm -rf "$GO_TOOL_HOME"/build.*
	tmp_bin="$(mktemp -d "$GO_TOOL_HOME/build.XXXXXX")"
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp_bin'" EXIT
	# GOTOOLCHAIN=local: build with the Go that is here, never download another toolchain.
	# CGO_ENABLED=0: a static binary, no C compiler needed.
	if ! GOBIN="$tmp_bin" GOTOOLCHAIN=local CGO_ENABLED=0 \
		go install "$GO_TOOL_PACKAGE@$GO_TOOL_VERSION"; then
		rm -rf "$tmp_bin"
		log "go install failed"
		return 1
	fi
	mv -f "$tmp_bin/$GO_TOOL_NAME" "$GO_TOOL_BIN"
	rm -rf "$tmp_bin"
	log "built in $((SECONDS - started))s: $GO_TOOL_BIN"
}
