#!/bin/bash -eu
# SPDX-License-Identifier: GPL-2.0
#
# ClusterFuzzLite's (and OSS-Fuzz's) build step for kshim's fuzz targets,
# run in the builder image with the usual environment: CC, CFLAGS (the
# sanitizer's flags and -fsanitize=fuzzer-no-link), LIB_FUZZING_ENGINE,
# SRC, WORK, OUT. Every target of fuzz/ goes into $OUT as fuzz_NAME, with
# its seed corpus (fuzz_NAME_seed_corpus.zip), dictionary and .options,
# and the XFS images they start from (kshim-images/, made by
# make_images.sh with Debian's mkfs.xfs: the runner has none).
#
# Checked by hand on the 2-core machine as the runner calls it (fuzz/README.md).

cd "$SRC/kshim"
bd="$WORK/kshim-build"
# The sanitizer and coverage flags come from $CFLAGS; static libraries,
# so that the runner needs no liburcu or CUnit; plain: no -O or -g of
# meson's own over the builder's.
if [ ! -f "$bd/build.ninja" ]; then
	meson setup "$bd" -Dfuzzing=libfuzzer -Db_lundef=false \
		-Dprefer_static=true -Dbuildtype=plain
fi
targets=()
for src in fuzz/*/fuzz_*.c; do
	targets+=("fuzz/$(basename "$src" .c)")
done
ninja -C "$bd" "${targets[@]}"

for src in fuzz/*/fuzz_*.c; do
	dir=$(dirname "$src")
	name=$(basename "$src" .c)
	cp "$bd/fuzz/$name" "$OUT/$name"
	for ext in dict options; do
		for f in "$dir"/*."$ext"; do
			[ -f "$f" ] && cp "$f" "$OUT/$name.$ext"
		done
	done
	(cd "$dir/corpus" && zip -q -r "$OUT/${name}_seed_corpus.zip" .)
done

images=${KSHIM_IMAGES:-$SRC/kshim-images}
if [ ! -d "$images" ]; then
	echo "build.sh: no XFS images in $images: run" \
	     ".clusterfuzzlite/make_images.sh $images where mkfs.xfs 6.1 is" >&2
	exit 1
fi
rm -rf "$OUT/kshim-images"
cp -r "$images" "$OUT/kshim-images"
