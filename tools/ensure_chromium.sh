#!/bin/sh
# Make sure Debian's Chromium is at /usr/bin/chromium for the browser tests (POSIX sh).
#
# Idempotent: when the browser is already there it exits 0 at once (no apt, no network).
# Otherwise, as root with apt-get available, it installs the `chromium` package (about 45 s,
# 500 MB; chromium-driver is not needed: Playwright drives the browser over CDP). Anywhere
# else it prints ONE line saying what to install and exits 1. It never runs
# `playwright install`: Playwright downloads its own browser builds, which fail here.

CHROMIUM=/usr/bin/chromium

[ -x "$CHROMIUM" ] && exit 0

if [ "$(id -u 2>/dev/null)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "ensure_chromium: $CHROMIUM is missing; installing Debian's chromium package with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    if apt-get update -qq && apt-get install -y -qq chromium >/dev/null; then
        [ -x "$CHROMIUM" ] && exit 0
        echo "ensure_chromium: apt-get installed chromium but $CHROMIUM is still missing" >&2
        exit 1
    fi
    echo "ensure_chromium: apt-get install chromium failed (see the apt output above); the browser tests need $CHROMIUM" >&2
    exit 1
fi

echo "ensure_chromium: the browser tests need $CHROMIUM: install Debian's chromium package (as root: apt-get install chromium)" >&2
exit 1
