#!/usr/bin/env bash
# Install Debian's Chromium and ChromeDriver for the browser tests, if missing.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "Chromium is missing and this user cannot install it: run 'apt-get install chromium chromium-driver' as root." >&2
    exit 1
  fi
fi
echo "Installing Debian's chromium for the browser tests..."
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
chromium --version
