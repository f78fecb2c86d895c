#!/usr/bin/env bash
# Walks docs/operations.md as a newcomer would, as root, in a throwaway prefix: the install block,
# a token and a screening, the upgrade block, the scheduled backup, the restore block and the
# rollback block. The commands are read from the doc's code blocks and run as written, with only
# these stand-ins (so a broken doc step fails the walk):
#   - the doc's paths /opt, /etc, /var/lib and /var/backups …/carrier-screen live under a temp
#     prefix, the service's user is a throwaway one, and SCREEN_ENV_FILE names the prefix's env
#     file (the documented override of /etc/carrier-screen/env); /var/cache/carrier-screen (Node 24)
#     is the real one, shared as the doc says;
#   - there is no systemd: `systemctl` runs a unit file's ExecStart as its User=/Group= with its
#     Environment=/EnvironmentFile=, WorkingDirectory=, UMask= and StateDirectory=; `journalctl -f`
#     waits for "carrier-screen is running" (the operator's Ctrl-C); a timer runs its service once;
#   - `sudo -u USER` is runuser (the walk is root already); the intake port and Redis are the
#     walk's own (a private redis-server on a free port, never the machine's 6379);
#   - `<new release>`/`<old release>` are the clone's HEAD (no second version to move between).
# The upgrade and rollback blocks repeat the install's `npm ci && npm run build` line verbatim; the
# walk runs it once (a fresh `npm ci` into the clone, ~30 s) unless OPS_WALK_FULL=1. The code is the
# repository's last commit (a clone); the doc is the working tree's (OPS_WALK_DOC: another copy).
#
#   sudo bash scripts/ops-walk.sh        # exit 0: every step worked; 77: skipped (not root, a tool missing)
set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DOC="${OPS_WALK_DOC:-$REPO/docs/operations.md}"   # OPS_WALK_DOC: walk another copy (e.g. an older one)
skip() { echo "SKIPPED the docs/operations.md walk: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "not root (it creates a user and runs the service as that user)"
for t in git curl redis-server runuser setpriv useradd userdel install node; do
  command -v "$t" >/dev/null 2>&1 || skip "$t is not installed"
done

P=$(mktemp -d /tmp/cs-ops-walk.XXXXXX)
chmod 755 "$P"
U="csw$(od -An -N3 -tx1 /dev/urandom | tr -d ' \n')"
LOGS="$P/journal"
mkdir -p "$P/opt" "$P/etc/systemd/system" "$P/var/lib" "$P/var/backups" "$LOGS"
export SCREEN_ENV_FILE="$P/etc/carrier-screen/env"
free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
INTAKE_PORT=$(free_port)
REDIS_PORT=$(free_port)
REDIS_PID=
FAILED=0

# A unit's pid file holds "pid start-time" (field 22 of /proc/<pid>/stat): this machine reuses
# pids within minutes (pid_max 32768), so a pid is signalled only while it is still the process
# this walk started, never a stranger that later got its number (a test running beside us).
start_time() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | awk '{print $20}'; }
write_pid() { echo "$2 $(start_time "$2")" >"$LOGS/$1.pid"; }
# The unit's pid, if that process is still running; nothing otherwise.
unit_pid() {
  local pid st
  [ -f "$LOGS/$1.pid" ] || return 1
  read -r pid st <"$LOGS/$1.pid" || return 1
  [ -n "$st" ] && [ "$(start_time "$pid")" = "$st" ] && echo "$pid"
}

cleanup() {
  local u
  local pid
  for u in "$LOGS"/*.pid; do
    [ -f "$u" ] || continue
    pid=$(unit_pid "$(basename "$u" .pid)") && { pkill -KILL -P "$pid"; kill -KILL "$pid"; } 2>/dev/null
  done
  [ -n "$REDIS_PID" ] && kill "$REDIS_PID" 2>/dev/null
  # userdel refuses while a process of the user is still exiting: a few tries.
  for u in 1 2 3 4 5 6 7 8 9 10; do
    id "$U" >/dev/null 2>&1 || break
    userdel "$U" 2>"$P/userdel.err" && break
    sleep 0.5
  done
  id "$U" >/dev/null 2>&1 && echo "could not remove the walk's user $U: $(cat "$P/userdel.err")" >&2
  getent group "$U" >/dev/null && groupdel "$U" 2>/dev/null
  if [ "$FAILED" = 0 ] || [ -z "${OPS_WALK_KEEP:-}" ]; then rm -rf "$P"; else echo "kept $P"; fi
}
trap cleanup EXIT

fail() {
  FAILED=1
  echo "BROKEN: $*" >&2
  for f in "$LOGS"/*.log; do [ -f "$f" ] && { echo "--- $f (last 15 lines)" >&2; tail -n 15 "$f" >&2; }; done
  exit 1
}

# ---------- the doc's code blocks ----------

# block HEADING N LANG: the Nth ```LANG block under the heading line HEADING (exact), before the next heading.
block() {
  awk -v h="$1" -v n="$2" -v lang="$3" '
    $0 == h { inside = 1; seen = 0; next }
    code && $0 == "```" { exit }
    code { print; next }
    /^```/ { fence = !fence; if (inside && fence && $0 == "```" lang && ++seen == n) code = 1; next }
    inside && !fence && /^#+ / { inside = 0 }
  ' "$DOC"
}

# The doc's paths and user, moved to the prefix and the throwaway user.
rewrite() {
  sed -E \
    -e "s#/opt/carrier-screen#$P/opt/carrier-screen#g" \
    -e "s#/etc/carrier-screen#$P/etc/carrier-screen#g" \
    -e "s#/etc/systemd/system#$P/etc/systemd/system#g" \
    -e "s#/var/lib/carrier-screen#$P/var/lib/carrier-screen#g" \
    -e "s#/var/backups/carrier-screen#$P/var/backups/carrier-screen#g" \
    -e "s#(sudo -u|-o|-g|--home [^ ]+) carrier-screen( |\$)#\\1 $U\\2#g" \
    -e "s#-g carrier-screen( |\$)#-g $U\\1#g" \
    -e "s#127\\.0\\.0\\.1:8787#127.0.0.1:$INTAKE_PORT#g"
}

# ---------- stand-ins for sudo, systemd and journald ----------

sudo() {
  if [ "${1:-}" = -u ]; then
    local u=$2
    shift 2
    runuser -u "$u" -- "$@"
  else
    "$@"
  fi
}

unit_get() { sed -n -E "s/^$2=(.*)\$/\\1/p" "$1"; }

# Runs a unit's ExecStart as systemd would: a clean environment, Environment= then
# EnvironmentFile= (the file wins), User/Group, WorkingDirectory, UMask, StateDirectory.
unit_exec() {
  local f=$1 what=$2 name
  name=$(basename "$f" .service)
  local user group wd umask sd sdmode cmd
  user=$(unit_get "$f" User); group=$(unit_get "$f" Group)
  [ "$user" = carrier-screen ] && user=$U
  [ "$group" = carrier-screen ] && group=$U
  wd=$(unit_get "$f" WorkingDirectory | rewrite); umask=$(unit_get "$f" UMask)
  sd=$(unit_get "$f" StateDirectory); sdmode=$(unit_get "$f" StateDirectoryMode)
  cmd=$(unit_get "$f" "$what" | head -n 1 | sed 's/%%/%/g' | rewrite)
  [ -n "$cmd" ] || { echo "$name: no $what" >&2; return 1; }
  if [ -n "$sd" ]; then install -d -m "${sdmode:-0755}" -o "$user" -g "$group" "$P/var/lib/$sd"; fi
  local -a envs=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "SCREEN_ENV_FILE=$SCREEN_ENV_FILE")
  local line ef
  while IFS= read -r line; do envs+=("$line"); done < <(unit_get "$f" Environment | rewrite)
  ef=$(unit_get "$f" EnvironmentFile | rewrite)
  if [ -n "$ef" ]; then
    [ -r "$ef" ] || { echo "$name: EnvironmentFile $ef is missing" >&2; return 1; }
    while IFS= read -r line; do
      case "$line" in ''|'#'*) ;; *=*) envs+=("$line") ;; esac
    done < "$ef"
  fi
  (cd "${wd:-/}" && exec env -i "${envs[@]}" setpriv --reuid="$user" --regid="$group" --init-groups \
    sh -c "umask ${umask:-0022}; exec $cmd")
}

unit_file() {
  local u=$1
  case "$u" in *.*) ;; *) u="$u.service" ;; esac
  echo "$P/etc/systemd/system/$u"
}

unit_start() {
  local f
  f=$(unit_file "$1")
  [ -f "$f" ] || { echo "Failed to start $1: Unit $(basename "$f") not found." >&2; return 5; }
  case "$f" in
    *.timer)  # the timer fires once, now: its service, a oneshot
      local svc="${f%.timer}.service"
      [ -f "$svc" ] || { echo "Failed to start $1: Unit $(basename "$svc") not found." >&2; return 5; }
      unit_exec "$svc" ExecStart >>"$LOGS/$(basename "$svc" .service).log" 2>&1 || return 1
      if grep -q '^ExecStartPost=' "$svc"; then unit_exec "$svc" ExecStartPost >>"$LOGS/$(basename "$svc" .service).log" 2>&1 || return 1; fi
      ;;
    *)
      local name
      name=$(basename "$f" .service)
      unit_pid "$name" >/dev/null && return 0
      stat -c %s "$LOGS/$name.log" >"$LOGS/$name.since" 2>/dev/null || echo 0 >"$LOGS/$name.since"
      unit_exec "$f" ExecStart >>"$LOGS/$name.log" 2>&1 &
      write_pid "$name" $!
      ;;
  esac
}

unit_stop() {
  local f name pid i
  f=$(unit_file "$1")
  [ -f "$f" ] || { echo "Failed to stop $1: Unit $(basename "$f") not loaded." >&2; return 5; }
  name=$(basename "$f" .service)
  [ -f "$LOGS/$name.pid" ] || return 0
  pid=$(unit_pid "$name") || { rm -f "$LOGS/$name.pid"; return 0; }
  # The subshell's node: signal the whole process group started for it.
  pkill -TERM -P "$pid" 2>/dev/null; kill -TERM "$pid" 2>/dev/null
  for i in $(seq 1 75); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done  # TimeoutStopSec=15
  kill -0 "$pid" 2>/dev/null && { echo "$name did not stop within 15 s" >&2; return 1; }
  rm -f "$LOGS/$name.pid"
}

systemctl() {
  local verb=${1:-} now=0 rc=0 u
  shift
  case "$verb" in
    daemon-reload) return 0 ;;
    list-timers|status) echo "(no systemd in this walk: $verb $*)"; return 0 ;;
    enable)
      [ "${1:-}" = --now ] && { now=1; shift; }
      for u in "$@"; do [ -f "$(unit_file "$u")" ] || { echo "Failed to enable unit: Unit file $u does not exist." >&2; return 1; }; done
      if [ $now = 1 ]; then for u in "$@"; do unit_start "$u" || rc=$?; done; fi
      return $rc ;;
    start) for u in "$@"; do unit_start "$u" || rc=$?; done; return $rc ;;
    stop) for u in "$@"; do unit_stop "$u" || rc=$?; done; return $rc ;;
    restart) for u in "$@"; do unit_stop "$u" && unit_start "$u" || rc=$?; done; return $rc ;;
    *) echo "systemctl $verb: not stood in for by this walk" >&2; return 1 ;;
  esac
}

# journalctl -u UNIT [-f]: the unit's output; -f waits for "carrier-screen is running" (or its
# exit), as an operator watches it and presses Ctrl-C.
journalctl() {
  local unit= follow=0
  while [ $# -gt 0 ]; do
    case "$1" in -u) unit=$2; shift ;; -f) follow=1 ;; esac
    shift
  done
  local log="$LOGS/$unit.log" pid i since
  since=$(cat "$LOGS/$unit.since" 2>/dev/null || echo 0)
  # This start's lines only (the operator watches the new ones arrive).
  news() { tail -c +"$((since + 1))" "$log" 2>/dev/null; }
  if [ $follow = 1 ]; then
    for i in $(seq 1 600); do
      # grep reads to the end, never -q: under pipefail a grep that quits at its match can leave
      # tail killed by SIGPIPE, and the pipeline fails though the line is there (1 in 25 here).
      news | grep 'carrier-screen is running' >/dev/null && break
      unit_pid "$unit" >/dev/null || { news | tail -n 20; return 1; }
      sleep 0.2
    done
    news | grep 'carrier-screen is running' >/dev/null || return 1
  fi
  news | grep -E '"level":[4-6]0|carrier-screen is running' | grep -v '"schema migration' | tail -n 6 | cut -c1-200
}

# ---------- running a block ----------

# run_block TITLE: the doc lines on stdin, run one by one in this shell (cd carries over), each
# echoed first; the first that fails stops the walk, naming it.
run_block() {
  local title=$1 line full=
  echo "== docs/operations.md: $title"
  while IFS= read -r line <&3; do
    if [[ "$line" == *\\ ]]; then full+="${line%\\} "; continue; fi
    full+=$line
    line=$full; full=
    [[ "$line" =~ ^[[:space:]]*(#|$) ]] && continue
    echo "doc> $line"
    local run
    run=$(printf '%s\n' "$line" | sed -E -e "s#<(new|old) release>#$HEAD#g" -e 's#<date>#$(date +%F)#g' \
      -e "s#carrier-screen-[0-9]{4}-[0-9]{2}-[0-9]{2}-[0-9]{4}\\.db#\$(cd /var/backups/carrier-screen \&\& ls carrier-screen-*.db | tail -n 1)#g" | rewrite)
    # A line that repeats the install's npm ci verbatim (upgrade, rollback): run once unless OPS_WALK_FULL.
    local npm="sudo env PATH=/var/cache/carrier-screen/node24/bin:\$PATH ELECTRON_SKIP_BINARY_DOWNLOAD=1 sh -c 'npm ci && npm run build'"
    if [[ "$run" == *"$npm"* && -n "${NPM_DONE:-}" && -z "${OPS_WALK_FULL:-}" ]]; then
      echo "     (the install's npm ci line again, same commit: not run again; OPS_WALK_FULL=1 runs it)"
      run=${run//"$npm"/true}
    fi
    eval "$run" </dev/null || fail "$title: $line"
    [[ "$line" == *'npm ci && npm run build'* ]] && NPM_DONE=1
    # After the line that makes the env file, the settings its comment names next, for this walk.
    if [[ "$line" == *'tee -a /etc/carrier-screen/env'* ]]; then
      printf 'REDIS_URL=redis://127.0.0.1:%s\nINTAKE_PORT=%s\n' "$REDIS_PORT" "$INTAKE_PORT" >>"$SCREEN_ENV_FILE"
      echo "     (walk: REDIS_URL and INTAKE_PORT of its own appended)"
    fi
  done 3<&0
}

NODE=/var/cache/carrier-screen/node24/bin/node
cs() { (cd / && runuser -u "$U" -- "$NODE" "$P/opt/carrier-screen/dist/worker/cli.js" "$@"); }
api() { curl -s -o "$P/answer.json" -w '%{http_code}' -H "Authorization: Bearer $TOKEN" "$@" ; }
healthy() {
  local i
  for i in $(seq 1 150); do
    curl -s "http://127.0.0.1:$INTAKE_PORT/healthz" 2>/dev/null | grep '"status":"ok"' >/dev/null && return 0
    sleep 0.2
  done
  fail "$1: /healthz is not ok: $(curl -s "http://127.0.0.1:$INTAKE_PORT/healthz")"
}

# ---------- the walk ----------

echo "walk in $P (user $U, intake port $INTAKE_PORT, redis port $REDIS_PORT)"
git clone -q "$REPO" "$P/clone" || fail "git clone $REPO"
HEAD=$(git -C "$P/clone" rev-parse HEAD)
mkdir -p "$P/redis"
redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --dir "$P/redis" >"$P/redis/log" 2>&1 &
REDIS_PID=$!

INSTALL=$(block '## Running it as a service' 1 sh)
UPGRADE=$(block '## Upgrading' 1 sh)
ROLLBACK=$(block '## Upgrading' 2 sh)
TIMER_INI=$(block '### Scheduled backups (systemd timer)' 1 ini)
TIMER_SH=$(block '### Scheduled backups (systemd timer)' 1 sh)
RESTORE=$(block '## Restore' 1 sh)
for b in INSTALL UPGRADE ROLLBACK TIMER_INI TIMER_SH RESTORE; do
  [ -n "${!b}" ] || fail "docs/operations.md: no $b code block where the walk looks (a heading moved?)"
done

cd "$P/clone" || fail "cd $P/clone"
run_block 'install ("Running it as a service")' <<<"$INSTALL"
healthy install
TOKEN=$(cs token create --role tms --name ops-walk) || fail "token create (run from /, as the service's user)"
[[ "$TOKEN" == cs_tms_* ]] || fail "token create printed no token: $TOKEN"
code=$(api -X POST "http://127.0.0.1:$INTAKE_PORT/screenings?wait=10" -H 'Content-Type: application/json' -d '{"dot_number":"1000003","tender_id":"WALK-1"}')
grep -q '"status":"done"' "$P/answer.json" || fail "screening 1000003: HTTP $code $(cat "$P/answer.json")"
FIRST=$(node -p "require('$P/answer.json').id")
echo "   token created, screening $FIRST done ($(node -p "require('$P/answer.json').action"))"

run_block 'upgrade ("Upgrading")' <<<"$UPGRADE"
healthy upgrade
[ "$(api "http://127.0.0.1:$INTAKE_PORT/screenings/$FIRST")" = 200 ] || fail "after the upgrade the token or $FIRST is gone"
ls "$P"/var/backups/carrier-screen/pre-upgrade-*.db.intake-token >/dev/null || fail "the pre-upgrade backup has no intake-token beside it"

# The timer's unit files, as the ini block's comments name them.
awk -v dir="$P/etc/systemd/system" '/^# \/etc\/systemd\/system\// { n = split($2, a, "/"); f = dir "/" a[n]; next } f { print > f }' <<<"$TIMER_INI"
for f in carrier-screen-backup.service carrier-screen-backup.timer; do
  [ -s "$P/etc/systemd/system/$f" ] || fail "the scheduled-backup block names no /etc/systemd/system/$f"
done
echo "   (walk: the ini block written to $P/etc/systemd/system; the timer fires once at enable)"
run_block 'scheduled backups' <<<"$TIMER_SH"
ls "$P"/var/backups/carrier-screen/carrier-screen-*.db >/dev/null 2>&1 || fail "the timer's backup made no file: $(tail -n 5 "$LOGS/carrier-screen-backup.log")"
ls "$P"/var/backups/carrier-screen/carrier-screen-*.db.callback-secret >/dev/null 2>&1 || fail "the timer's backup has no callback-secret beside it"

code=$(api -X POST "http://127.0.0.1:$INTAKE_PORT/screenings?wait=10" -H 'Content-Type: application/json' -d '{"dot_number":"1000001","tender_id":"WALK-2"}')
grep -q '"status":"done"' "$P/answer.json" || fail "screening 1000001: HTTP $code"
LATER=$(node -p "require('$P/answer.json').id")
echo "   screening $LATER done after the backup (the restore must drop it)"

run_block 'restore ("Restore")' <<<"$RESTORE"
healthy restore
[ "$(api "http://127.0.0.1:$INTAKE_PORT/screenings/$FIRST")" = 200 ] || fail "after the restore the old token or $FIRST is refused"
[ "$(api "http://127.0.0.1:$INTAKE_PORT/screenings/$LATER")" = 404 ] || fail "after the restore $LATER (made after the backup) is still there"
echo "   restored: the old token works, $FIRST is there, $LATER is not"

run_block 'roll back ("Upgrading")' <<<"$ROLLBACK"
healthy 'roll back'
[ "$(api "http://127.0.0.1:$INTAKE_PORT/screenings/$FIRST")" = 200 ] || fail "after the rollback the old token or $FIRST is refused"
systemctl stop carrier-screen || fail "the final stop"
echo "ops walk: every step of docs/operations.md's install, upgrade, backup, restore and rollback worked"
