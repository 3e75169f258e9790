#!/bin/bash
# Regenerates classlist: the classes that OpenMFT's short-lived commands load, from which the build
# dumps the class data sharing archive lib/openmft.jsa of target/openmft (see the pom). Run it after
# a build when the commands' classes changed much (a stale list only makes the archive less useful):
#   mvn -q -pl transfer-xml,agent-core,coordination,client,agent-cli package -DskipTests
#   agent-cli/src/cds/make-classlist.sh
# It runs a small session (a queue manager, two agents, a transfer) in a throw-away data directory.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd -P)
dist=$here/../../target/openmft
work=$(mktemp -d)
trap 'OPENMFT_CLI_JVM_OPTIONS= BFG_JVM_PROPERTIES= "$dist/bin/mft" qmgr stop QMCDS >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
export OPENMFT_DATA=$work/data OPENMFT_CLI_JVM_OPTIONS="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
mkdir -p "$work/in" "$work/out" "$work/lists"
head -c 300000 /dev/urandom > "$work/in/f"
n=0
# Short-lived commands dump their loaded classes; commands that spawn daemons run without (the
# daemons would inherit the option).
listed() { n=$((n + 1)); BFG_JVM_PROPERTIES="-XX:DumpLoadedClassList=$work/lists/$n" "$dist/bin/$@" >/dev/null; }
plain() { "$dist/bin/$@" >/dev/null; }
port=$((20000 + RANDOM % 20000))
listed mft qmgr create QMCDS --port "$port"
listed fteSetupCoordination -coordinationQMgr QMCDS -default
listed fteSetupCommands -connectionQMgr QMCDS
listed fteCreateAgent -agentName CDS1 -agentQMgr QMCDS --sandbox-dir "$work"
listed fteCreateAgent -agentName CDS2 -agentQMgr QMCDS -agentQMgrHost 127.0.0.1 -agentQMgrPort "$port" \
    --sandbox-dir "$work"
plain mft qmgr start QMCDS
plain fteStartAgent CDS1
plain fteStartAgent CDS2
listed ftePingAgent CDS1
listed fteListAgents
listed fteShowAgentDetails CDS2
listed fteCreateTransfer -sa CDS1 -sm QMCDS -da CDS2 -dm QMCDS -w -df "$work/out/f" -de overwrite "$work/in/f"
listed fteCreateTransfer -h
listed fteListMonitors
listed fteStopAgent CDS2
listed fteStopAgent CDS1
# Lines in the order first seen: a class list is read top to bottom.
cat "$work"/lists/* | grep -v '^#' | awk '!seen[$0]++' > "$here/classlist"
echo "$(wc -l < "$here/classlist") classes and lambda forms in $here/classlist"
