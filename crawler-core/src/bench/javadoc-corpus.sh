#!/bin/sh
# Installs the benchmark corpus, the OpenJDK 17 javadoc of Debian's openjdk-17-doc package (about 10,000 HTML
# pages, 270 MB), if it is missing, and prints the directory it lives in. Needs root (or sudo) for apt-get.
set -eu
dir=/usr/share/doc/openjdk-17-jre-headless/api
if [ ! -f "$dir/index.html" ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends openjdk-17-doc >&2
fi
echo "openjdk-17-doc $(dpkg-query -W -f='${Version}' openjdk-17-doc) in $dir" >&2
echo "$dir"
