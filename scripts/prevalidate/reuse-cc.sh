#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The patched build dir's compiler: reuse-cc.sh CC ARGS... (reuse.py).
#
# With KSHIM_REUSE set to the dir reuse.py's plan() filled, a compile
# whose object plan() listed copies the base's object and .gcno and the
# depfile plan() wrote; anything else runs CC ARGS. It is a shell script,
# not python, because it runs once per object: python's start-up made
# each copy cost 0.13 s, 41 s of ninja step time per patched build on
# the 2-core machine (17 ms a copy now; docs/measurements.md).
#
# Objects are looked up by their -o name as ninja passes it (relative to
# the build dir, where ninja runs), with each '/' made '_'.
if [ -n "$KSHIM_REUSE" ]; then
	out= depfile= compile= prev=
	for arg in "${@:2}"; do
		case $prev in
		-o) out=$arg ;;
		-MF) depfile=$arg ;;
		esac
		[ "$arg" = -c ] && compile=1
		prev=$arg
	done
	listed=$KSHIM_REUSE/${out//\//_}
	if [ -n "$compile" ] && [ -n "$out" ] && [ "${out#/}" = "$out" ] &&
	   [ -e "$listed.o" ]; then
		cp "$listed.o" "$out" || exit
		if [ -e "$listed.gcno" ]; then
			cp "$listed.gcno" "${out%.o}.gcno" || exit
		fi
		if [ -n "$depfile" ]; then
			cp "$listed.d" "$depfile" || exit
		fi
		exit 0
	fi
fi
exec "$@"
