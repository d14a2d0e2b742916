#!/usr/bin/env bash
# Starts the Connect worker of the kafka-connect-parquet image: the properties file of the image,
# with the bootstrap servers and the REST listener overridable from the environment.
set -euo pipefail
config=/opt/kafka/config/connect-parquet.properties
runtime_config=/tmp/connect-parquet.properties
cp "$config" "$runtime_config"
if [[ -n "${CONNECT_BOOTSTRAP_SERVERS:-}" ]]; then
  sed -i "s|^bootstrap.servers=.*|bootstrap.servers=${CONNECT_BOOTSTRAP_SERVERS}|" "$runtime_config"
fi
if [[ -n "${CONNECT_LISTENERS:-}" ]]; then
  sed -i "s|^listeners=.*|listeners=${CONNECT_LISTENERS}|" "$runtime_config"
fi
exec /opt/kafka/bin/connect-distributed.sh "$runtime_config"
