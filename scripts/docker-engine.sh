#!/usr/bin/env bash
# A real Docker Engine (Debian's docker.io) in Swarm mode, for the tests: its own socket, data root
# and exec root under DIR, so it leaves the machine's own Docker, if any, alone. It keeps off the
# host's networking (no bridge, no iptables rules): test containers use the host's network.
#
#   scripts/docker-engine.sh start DIR   installs what is missing (root + apt), starts dockerd and
#                                        Swarm, prints DOCKER_HOST=unix://DIR/docker.sock last
#   scripts/docker-engine.sh stop DIR    removes containers and services, leaves Swarm, stops dockerd
#
# Images come from loopback registries on 127.0.0.0/8, which the engine reaches over plain http
# without configuration.
set -euo pipefail
cmd=${1:-}; DIR=${2:-}
die() { echo "docker-engine: $*" >&2; exit 1; }
[ -n "$cmd" ] && [ -n "$DIR" ] || die "usage: $0 start|stop DIR"
mkdir -p "$DIR"; DIR=$(cd "$DIR" && pwd)
SOCK=$DIR/docker.sock
export DOCKER_HOST=unix://$SOCK DOCKER_CONFIG=$DIR/cli

engine_up() { docker version >/dev/null 2>&1; }

stop() {
  if [ -S "$SOCK" ] && engine_up; then
    services=$(docker service ls -q 2>/dev/null || true); [ -z "$services" ] || docker service rm $services >/dev/null 2>&1 || true
    docker swarm leave --force >/dev/null 2>&1 || true
    ids=$(docker ps -aq); [ -z "$ids" ] || docker rm -f $ids >/dev/null 2>&1 || true
  fi
  if [ -f "$DIR/docker.pid" ]; then
    pid=$(cat "$DIR/docker.pid")
    if kill "$pid" 2>/dev/null; then
      for _ in $(seq 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
      kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$DIR/docker.pid"
  fi
  # Swarm's overlay and ingress mounts sit under the exec root: unmount before the folder goes.
  grep -o " $DIR/[^ ]*" /proc/mounts | sort -r | while read -r m; do umount -l "$m" 2>/dev/null || true; done
}

if [ "$cmd" = stop ]; then stop; exit 0; fi
[ "$cmd" = start ] || die "usage: $0 start|stop DIR"

[ "$(id -u)" = 0 ] || die "the tests start a real Docker Engine: run them as root (or install docker.io and run dockerd yourself)"
pkgs=(docker.io runc tini busybox-static docker-compose debootstrap)
missing=(); for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  command -v apt-get >/dev/null || die "missing ${missing[*]} and no apt-get to install them with"
  echo "docker-engine: apt-get install ${missing[*]}" >&2
  { apt-get update -qq -o DPkg::Lock::Timeout=300 &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 --no-install-recommends "${missing[@]}"; } >"$DIR/apt.log" 2>&1 \
    || { tail -20 "$DIR/apt.log" >&2; die "apt-get install ${missing[*]} failed"; }
fi
DOCKERD=/usr/sbin/dockerd; [ -x "$DOCKERD" ] || DOCKERD=$(command -v dockerd) || die "no dockerd after installing docker.io"

if ! engine_up; then
  echo '{"bridge": "none", "iptables": false, "ip6tables": false, "ip-forward": false, "ip-masq": false}' > "$DIR/daemon.json"
  mkdir -p "$DIR/data" "$DIR/exec"
  nohup "$DOCKERD" --config-file "$DIR/daemon.json" --host "unix://$SOCK" --data-root "$DIR/data" \
    --exec-root "$DIR/exec" --pidfile "$DIR/docker.pid" >"$DIR/dockerd.log" 2>&1 &
  for _ in $(seq 240); do engine_up && break; sleep 0.25; done
  engine_up || { tail -30 "$DIR/dockerd.log" >&2; die "dockerd did not start (log: $DIR/dockerd.log)"; }
fi
if [ "$(docker info -f '{{.Swarm.LocalNodeState}}')" != active ]; then
  docker swarm init --advertise-addr 127.0.0.1 --listen-addr 127.0.0.1:2377 >/dev/null \
    || die "docker swarm init failed (log: $DIR/dockerd.log)"
fi
echo "docker-engine: $(docker version -f 'Engine {{.Server.Version}} (API {{.Server.APIVersion}})') in Swarm mode, data under $DIR" >&2
echo "DOCKER_HOST=unix://$SOCK"
