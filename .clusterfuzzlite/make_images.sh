#!/bin/bash -eu
# SPDX-License-Identifier: GPL-2.0
#
# The XFS images kshim's fuzz targets start from, made with this
# machine's mkfs.xfs (Debian 12's xfsprogs 6.1, what the seed corpora were
# made against) into DIR: each target's replay runner is built in a build
# dir of its own and run over its corpus with KSHIM_MKFS_CACHE=DIR, which
# keeps every image kshim_xfs_mkfs_id() makes (xfs/kshim_xfs_image_cache.c).
# The Dockerfile's Debian stage runs it; build.sh ships DIR beside the
# fuzzers, where a runner without mkfs.xfs finds them.
#
#	.clusterfuzzlite/make_images.sh DIR [BUILDDIR]

out=$(realpath -m "${1:?usage: make_images.sh DIR [BUILDDIR]}")
cd "$(dirname "$0")/.."
bd=${2:-build-images}
[ -f "$bd/build.ninja" ] || meson setup "$bd" > /dev/null
targets=()
for src in fuzz/*/fuzz_*.c; do
	targets+=("fuzz/$(basename "$src" .c)_replay")
done
ninja -C "$bd" "${targets[@]}"
mkdir -p "$out"
for src in fuzz/*/fuzz_*.c; do
	dir=$(dirname "$src")
	KSHIM_MKFS_CACHE=$out "$bd/fuzz/$(basename "$src" .c)_replay" \
		"$dir/corpus" > /dev/null
done
echo "make_images.sh: $(ls "$out" | wc -l) image(s) in $out"
