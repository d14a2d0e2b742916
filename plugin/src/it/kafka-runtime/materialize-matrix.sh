#!/usr/bin/env bash
# Materialises the Kafka runtimes of the worker matrix (PluginIsolationIT, docs/compatibility.md)
# with pom.xml beside this script, one child Maven per version, each into <runtimes>/<version>/.
# A version whose dependencies.txt (written last) is newer than pom.xml is left as it is, so a
# build with every runtime present costs a few file checks.
#
#   materialize-matrix.sh MVN LOCAL_REPO RUNTIMES_DIR VERSION[,VERSION...]
#
# Kafka 3.x logs through reload4j, 4.x through log4j 2 (see pom.xml).
set -euo pipefail

if [ "$#" -ne 4 ]; then
  echo "usage: $0 MVN LOCAL_REPO RUNTIMES_DIR VERSION[,VERSION...]" >&2
  exit 2
fi
mvn=$1
repo=$2
runtimes=$3
helper_pom="$(cd "$(dirname "$0")" && pwd)/pom.xml"

IFS=',' read -r -a versions <<< "$4"
for version in "${versions[@]}"; do
  version=${version// /}
  [ -n "$version" ] || continue
  dir="$runtimes/$version"
  if [ -f "$dir/dependencies.txt" ] && [ "$dir/dependencies.txt" -nt "$helper_pom" ]; then
    continue
  fi
  case $version in
    3.*) logging=reload4j ;;
    *) logging=log4j2 ;;
  esac
  echo "Materialising the jars of Kafka $version into $dir"
  "$mvn" -B -ntp -q -f "$helper_pom" "-Dmaven.repo.local=$repo" "-Dkafka.version=$version" \
    "-Dkafka.logging=$logging" "-Druntime.dir=$dir" clean package
done
