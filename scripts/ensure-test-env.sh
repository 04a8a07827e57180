#!/usr/bin/env bash
# Makes this machine ready for `make test`: starts PostgreSQL, Redis and NATS (JetStream) when they
# do not answer on their standard ports, and installs Debian's Chromium for the browser tests.
# Services pointed elsewhere by TEST_DATABASE_URL / TEST_REDIS_URL / TEST_NATS_URL are left alone.
set -uo pipefail

answers() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_for() {
  local port=$1 name=$2
  for _ in $(seq 1 50); do answers "$port" && return 0; sleep 0.2; done
  echo "ensure-test-env: $name did not come up on port $port" >&2
  return 1
}

if [ -z "${TEST_DATABASE_URL:-}" ] && ! answers 5432; then
  echo "ensure-test-env: starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start || true
  wait_for 5432 PostgreSQL
fi

if [ -z "${TEST_REDIS_URL:-}" ] && ! answers 6379; then
  echo "ensure-test-env: starting Redis"
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
  wait_for 6379 Redis
fi

if [ -z "${TEST_NATS_URL:-}" ] && ! answers 4222; then
  echo "ensure-test-env: starting NATS with JetStream"
  mkdir -p /var/lib/nats-server
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- \
    -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log
  wait_for 4222 NATS
fi

if [ -z "${CHROMIUM_PATH:-}" ] && [ ! -x /usr/bin/chromium ]; then
  echo "ensure-test-env: installing Chromium from Debian"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null && apt-get install -y -qq chromium >/dev/null || {
    echo "ensure-test-env: could not install chromium (apt-get install -y chromium)" >&2
    exit 1
  }
fi
exit 0
