#!/bin/sh
# One host of docker/compose.yaml, set up once: its queue manager (TLS listener on all addresses), the
# coordination and command configuration, its agent with a sandbox under /srv/mft, a login for the
# peer's channel and the channel to the peer, and, where LOGGER is set, a database logger and the REST
# server's settings. Run by the setup-<host> service as the image's user before the host's daemons;
# it does only what is not done yet, so it can run at every 'docker compose up'.
#
# The peers hand each other a channel login and the CA certificate of their listener through the
# /exchange volume (two real hosts would copy the same two files by hand: README, "Agents on several
# machines"). Environment: QM, AGENT, HOST (the name the peer reaches this host by), PEER_QM,
# PEER_HOST, COORDINATION_QM, and optionally LOGGER.
set -eu
: "${QM:?}" "${AGENT:?}" "${HOST:?}" "${PEER_QM:?}" "${PEER_HOST:?}" "${COORDINATION_QM:?}"
data=${OPENMFT_DATA:?}
exchange=${EXCHANGE:-/exchange}
sandbox=${SANDBOX_ROOT:-/srv/mft}/$AGENT

if [ ! -d "$data/qmgrs/$QM" ]; then
  mft qmgr create "$QM" --bind 0.0.0.0 --tls-generate --tls-names "$HOST"
  fteSetupCoordination -coordinationQMgr "$COORDINATION_QM"
  fteSetupCommands -connectionQMgr "$QM"
  mkdir -p "$sandbox"
  fteCreateAgent -agentName "$AGENT" -agentQMgr "$QM" --sandbox-dir "$sandbox"
fi

# What the peer needs from this host: a login for its channel, and this listener's CA certificate.
if [ ! -f "$exchange/$PEER_QM-to-$QM.xml" ]; then
  mft qmgr user add "$QM" "channel.$PEER_QM" --role channel --credentials-file "$exchange/$PEER_QM-to-$QM.tmp"
  install -m 600 "$data/qmgrs/$QM/tls/trust.p12" "$exchange/$QM-trust.p12"
  install -m 600 "$data/qmgrs/$QM/tls/trust.p12.pw" "$exchange/$QM-trust.p12.pw"
  mv "$exchange/$PEER_QM-to-$QM.tmp" "$exchange/$PEER_QM-to-$QM.xml"   # last: the peer waits for it
fi

# The channel to the peer, once the peer has handed over its part (waited for up to 10 minutes).
peers="$data/peers"
if [ ! -f "$peers/$QM-to-$PEER_QM.xml" ]; then
  waited=0
  until [ -f "$exchange/$QM-to-$PEER_QM.xml" ]; do
    [ "$waited" -lt 600 ] || { echo "setup-host: $PEER_QM's login for $QM's channel not in $exchange after 600 s" >&2; exit 1; }
    sleep 2; waited=$((waited + 2))
  done
  mkdir -p "$peers" && chmod 700 "$peers"
  for f in "$PEER_QM-trust.p12" "$PEER_QM-trust.p12.pw" "$QM-to-$PEER_QM.xml"; do
    install -m 600 "$exchange/$f" "$peers/$f"
  done
  mft qmgr channel create "$QM" --to "$PEER_QM" --host "$PEER_HOST" --port 1414 \
    --credentials "$peers/$QM-to-$PEER_QM.xml" \
    --trust-store "$peers/$PEER_QM-trust.p12" --trust-store-credentials "$peers/$PEER_QM-trust.p12.pw"
fi

# The logger and the REST server (on the coordination host): HTTPS on all addresses with the
# listener's certificate, which names this host.
if [ -n "${LOGGER:-}" ] && [ ! -f "$data/config/$COORDINATION_QM/loggers/$LOGGER/logger.properties" ]; then
  fteCreateLogger -loggerQMgr "$QM" "$LOGGER"
  rest="$data/config/$COORDINATION_QM/rest.properties"
  {
    echo "httpHost=0.0.0.0"
    echo "openmft.rest.keyStore=$data/qmgrs/$QM/tls/server.p12"
    echo "openmft.rest.keyStoreCredentialsFile=$data/qmgrs/$QM/tls/server.p12.pw"
    echo "openmft.rest.logger=$LOGGER"
  } > "$rest"
fi
echo "setup-host: $QM ($AGENT) is set up"
