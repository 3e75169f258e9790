#!/bin/sh
# OpenMFT quickstart: builds the distribution, then on an embedded queue manager creates two
# agents, starts them, pings them, and stops everything again. Uses a fresh data directory under
# /tmp unless OPENMFT_DATA is set, and TCP port 14140 unless QUICKSTART_PORT is set.
set -eu
here=$(cd "$(dirname "$0")" && pwd -P)
port=${QUICKSTART_PORT:-14140}
export OPENMFT_DATA="${OPENMFT_DATA:-$(mktemp -d /tmp/openmft-quickstart.XXXXXX)}"
bin="$here/agent-cli/target/openmft/bin"

if [ "${QUICKSTART_SKIP_BUILD:-}" != "true" ]; then
  echo "== Building the distribution (mvn -q -DskipTests package)"
  (cd "$here" && mvn -B -q -DskipTests package)
fi

run() { echo "\$ $*"; "$@"; }
cleanup() {
  "$bin/mft" qmgr stop QM1 >/dev/null 2>&1 || true
}
trap cleanup EXIT

echo "== Data directory: $OPENMFT_DATA"
run "$bin/mft" qmgr create QM1 --port "$port"
run "$bin/fteSetupCoordination" -coordinationQMgr QM1
run "$bin/fteSetupCommands" -connectionQMgr QM1
run "$bin/fteCreateAgent" -agentName AGENT1 -agentQMgr QM1 -agentDesc "quickstart source"
run "$bin/fteCreateAgent" -agentName AGENT2 -agentQMgr QM1 -agentDesc "quickstart destination"
run "$bin/mft" qmgr start QM1
run "$bin/fteStartAgent" AGENT1
run "$bin/fteStartAgent" AGENT2
run "$bin/ftePingAgent" AGENT1
run "$bin/ftePingAgent" AGENT2
run "$bin/fteStopAgent" AGENT1
run "$bin/fteStopAgent" AGENT2
run "$bin/mft" qmgr stop QM1
trap - EXIT
echo "== Quickstart complete. Logs: $OPENMFT_DATA/logs"
