#!/usr/bin/env bash
# Start a throw-away PostgreSQL cluster for the tests on a local socket (no TCP) and
# print the SQLAlchemy URL to use. Usage:  eval "$(scripts/pg-test-cluster.sh start)"
#                                          scripts/pg-test-cluster.sh stop DIR
#                                          scripts/pg-test-cluster.sh run COMMAND...
# `run` starts a cluster, runs COMMAND with LAZARETTO_TEST_PG set (the suite then runs
# on SQLite and PostgreSQL), stops the cluster and exits with COMMAND's status; when
# LAZARETTO_TEST_PG is already set (a server of your own), it only runs COMMAND.
set -euo pipefail
pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
need_pg() {
  [ -n "$pgbin" ] || { echo "PostgreSQL binaries not found (apt-get install postgresql)" >&2; exit 1; }
}
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
case "${1:-}" in
  start)
    need_pg
    dir=$(mktemp -d /tmp/lazaretto-pg.XXXXXX)
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    as_pg "$pgbin/initdb" -D "$dir/data" -A trust -U postgres >"$dir/initdb.log" 2>&1
    as_pg "$pgbin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
      -o "-k $dir -c listen_addresses='' -p 5439 -c fsync=on -c max_connections=200" start >/dev/null
    echo "export LAZARETTO_TEST_PG='postgresql+psycopg://postgres@/postgres?host=$dir&port=5439'"
    echo "export LAZARETTO_TEST_PG_DIR='$dir'"
    ;;
  stop)
    need_pg
    as_pg "$pgbin/pg_ctl" -D "${2:?cluster folder}/data" -m fast stop >/dev/null || true
    rm -rf "$2"
    ;;
  run)
    shift
    [ -z "${LAZARETTO_TEST_PG:-}" ] || exec "$@"
    vars=$("$0" start)
    eval "$vars"
    trap '"$0" stop "$LAZARETTO_TEST_PG_DIR"' EXIT
    echo "PostgreSQL test cluster: $LAZARETTO_TEST_PG_DIR" >&2
    status=0
    "$@" || status=$?
    exit "$status"
    ;;
  *) echo "usage: $0 start | stop DIR | run COMMAND..." >&2; exit 2 ;;
esac
