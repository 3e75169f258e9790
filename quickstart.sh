#!/bin/sh
# OpenMFT quickstart: builds the distribution, then on an embedded queue manager creates two
# agents and a database logger, starts them, pings and lists the agents, transfers a directory of
# files between them with fteCreateTransfer -w (MD5-verified; the agents may use only their transfer
# directories and the demo directory, named with --sandbox-dir), prints the outcome and the transfer
# log the logger stored, and stops everything again. Uses a fresh data directory under /tmp
# unless OPENMFT_DATA is set, and TCP port 14140 unless QUICKSTART_PORT is set.
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
  "$bin/mft" logger stop LOG1 >/dev/null 2>&1 || true
  "$bin/mft" qmgr stop QM1 >/dev/null 2>&1 || true
}
trap cleanup EXIT

echo "== Data directory: $OPENMFT_DATA"
run "$bin/mft" qmgr create QM1 --port "$port"
# Started first, as IBM MQ's queue manager is: fteCreateAgent and fteCreateLogger then define their
# queues on it at once, and nothing tries to reach a queue manager that is not there yet.
run "$bin/mft" qmgr start QM1
run "$bin/fteSetupCoordination" -coordinationQMgr QM1
run "$bin/fteSetupCommands" -connectionQMgr QM1
run "$bin/fteCreateAgent" -agentName AGENT1 -agentQMgr QM1 -agentDesc "quickstart source" --sandbox-dir "$OPENMFT_DATA/demo"
run "$bin/fteCreateAgent" -agentName AGENT2 -agentQMgr QM1 -agentDesc "quickstart destination" --sandbox-dir "$OPENMFT_DATA/demo"
run "$bin/mft" qmgr user list QM1
run "$bin/fteStartAgent" AGENT1
run "$bin/fteStartAgent" AGENT2
run "$bin/ftePingAgent" AGENT1
run "$bin/ftePingAgent" AGENT2
run "$bin/fteCreateLogger" LOG1
run "$bin/fteStartLogger" LOG1
run "$bin/fteListAgents" -v

echo "== Transferring files from AGENT1 to AGENT2"
in="$OPENMFT_DATA/demo/in"; out="$OPENMFT_DATA/demo/out"
mkdir -p "$in/reports" "$out"
for i in 1 2 3; do echo "invoice $i: $(date -u)" > "$in/invoice_$i.txt"; done
echo "quarterly figures" > "$in/reports/q3.txt"
head -c 5000000 /dev/urandom > "$in/archive.bin"
echo "\$ fteCreateTransfer -sa AGENT1 -sm QM1 -da AGENT2 -dm QM1 -dd $out -de overwrite -r -jn QUICKSTART -pr 5 -w 120 $in"
result=$("$bin/fteCreateTransfer" -sa AGENT1 -sm QM1 -da AGENT2 -dm QM1 -dd "$out" -de overwrite -r -jn QUICKSTART \
  -pr 5 -w 120 "$in")
echo "$result"
id=$(echo "$result" | sed -n 's/.*The request ID is: \([0-9a-f]*\).*/\1/p')
echo "== Arrived in $out:"
(cd "$out" && find . -type f | sort)
echo "== The transfer log, as the logger stored it"
attempts=0
until "$bin/mft" transfer show "$id" >/dev/null 2>&1 || [ $attempts -ge 50 ]; do
  sleep 0.2; attempts=$((attempts + 1))
done
run "$bin/mft" transfer show "$id"
run "$bin/fteStopLogger" LOG1
run "$bin/fteStopAgent" AGENT1
run "$bin/fteStopAgent" AGENT2
run "$bin/mft" qmgr stop QM1
trap - EXIT
echo "== Quickstart complete. Logs: $OPENMFT_DATA/logs"
