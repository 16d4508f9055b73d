#!/usr/bin/env bash
# Starts a throwaway PostgreSQL on loopback for the native-database test run and prints its URL.
# Usage: eval "$(bash scripts/startTestPostgres.sh)"   (exports HEARTH_TEST_DATABASE_URL)
set -euo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$bin/initdb" ] || { echo "echo 'PostgreSQL server binaries not found (apt-get install -y postgresql)' >&2; exit 1"; exit 1; }
# A free loopback port unless one is given: a fixed port collides with a server left running.
port=${HEARTH_TEST_PG_PORT:-$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')}
dir=$(mktemp -d /tmp/hearth-pg-XXXXXX)
chown postgres:postgres "$dir" 2>/dev/null || true
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
as_pg "$bin/initdb" -D "$dir/data" -U postgres -A trust --no-sync >/dev/null
as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir -c fsync=off -c max_connections=200" -w start >/dev/null
echo "export HEARTH_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:$port/postgres"
echo "export HEARTH_TEST_PG_DIR=$dir"
