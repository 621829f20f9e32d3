#!/usr/bin/env bash
# The Nu HTML Checker (the W3C's validator, nu.validator:validator from Maven Central), pinned, its
# class path cached under ~/.cache/folio/vnu (like scripts/pytools.sh caches the Python tools).
# Needs Java 11+ and Maven (Debian: default-jre-headless, maven), installed here when missing.
#
#   scripts/vnu.sh install        fetch the jars once per pinned version; prints the class path file
#   scripts/vnu.sh classpath      print the class path file (exit 1 if not installed at the pin)
#   scripts/vnu.sh check FILE…    check HTML files: one JSON report on stdout (exit 0 even with errors)
set -euo pipefail
# shellcheck source=scripts/install-once.sh
. "$(dirname "$0")/install-once.sh"

VERSION=26.5.2
CACHE_DIR="${FOLIO_CACHE_DIR:-$HOME/.cache/folio}"
DIR="$CACHE_DIR/vnu"
CLASSPATH_FILE="$DIR/classpath-$VERSION.txt"

cmd_classpath() {
	[ -s "$CLASSPATH_FILE" ] || return 1
	echo "$CLASSPATH_FILE"
}

build() {
	if ! command -v java >/dev/null || ! command -v mvn >/dev/null; then
		apt-get install -y -q default-jre-headless maven >&2
	fi
	mkdir -p "$DIR"
	cat >"$DIR/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>folio</groupId><artifactId>vnu-classpath</artifactId><version>1</version>
  <dependencies>
    <dependency><groupId>nu.validator</groupId><artifactId>validator</artifactId><version>$VERSION</version></dependency>
  </dependencies>
</project>
POM
	mvn -q -f "$DIR/pom.xml" dependency:build-classpath -Dmdep.outputFile="$CLASSPATH_FILE.tmp" >&2
	mv "$CLASSPATH_FILE.tmp" "$CLASSPATH_FILE"
}

cmd_install() { install_once "$DIR.lock" cmd_classpath build; }

cmd_check() {
	local cp
	cp="$(cmd_install)"
	java -cp "$(cat "$cp")" nu.validator.client.SimpleCommandLineValidator --format json --exit-zero-always "$@" 2>&1
}

case "${1:-}" in
install) cmd_install ;;
classpath) cmd_classpath ;;
check)
	shift
	cmd_check "$@"
	;;
*)
	echo "usage: $0 install|classpath|check FILE…" >&2
	exit 2
	;;
esac
