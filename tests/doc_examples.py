#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that a guide's code blocks are the tree's files.

usage: doc_examples.py REPO DOC...

In DOC (Markdown), a fenced code block right after a marker line

    <!-- file: PATH -->      must equal the file REPO/PATH, whole;
    <!-- excerpt: PATH -->   must appear in REPO/PATH as consecutive
                             lines (an excerpt of a longer file).

A DOC without any marker fails too: the check would prove nothing.
Exits 1 with a diff on a mismatch.
"""
import difflib
import os
import re
import sys

MARKER = re.compile(r'^<!-- (file|excerpt): (\S+) -->\s*$')
FENCE = re.compile(r'^(```+|~~~+)')


def blocks(lines):
    """(kind, path, marker line number, block text) per marked block."""
    i = 0
    while i < len(lines):
        m = MARKER.match(lines[i])
        if not m:
            i += 1
            continue
        start = i + 1
        if start >= len(lines) or not FENCE.match(lines[start]):
            yield m.group(1), m.group(2), i + 1, None
            i += 1
            continue
        fence = FENCE.match(lines[start]).group(1)
        end = start + 1
        while end < len(lines) and not lines[end].startswith(fence):
            end += 1
        yield m.group(1), m.group(2), i + 1, ''.join(lines[start + 1:end])
        i = end + 1


def check(repo, doc):
    with open(doc) as f:
        lines = f.readlines()
    bad = n = 0
    for kind, path, line, text in blocks(lines):
        n += 1
        where = '%s:%d' % (doc, line)
        if text is None:
            print('%s: a code block must follow the marker' % where)
            bad += 1
            continue
        try:
            with open(os.path.join(repo, path)) as f:
                content = f.read()
        except OSError as e:
            print('%s: %s' % (where, e))
            bad += 1
            continue
        if kind == 'file' and text != content:
            print('%s: the block is not %s:' % (where, path))
            sys.stdout.writelines(difflib.unified_diff(
                text.splitlines(True), content.splitlines(True),
                'guide', path))
            bad += 1
        elif kind == 'excerpt' and '\n' + text not in '\n' + content:
            print('%s: the block is not an excerpt of %s (lines that '
                  'differ, guide first):' % (where, path))
            have = set(content.splitlines())
            for ln in text.splitlines():
                if ln not in have:
                    print('  ' + ln)
            bad += 1
        else:
            print('%s: %s %s: same' % (where, kind, path))
    if n == 0:
        print('%s: no <!-- file: --> or <!-- excerpt: --> marker' % doc)
        bad += 1
    return bad


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    repo = sys.argv[1]
    bad = sum(check(repo, doc) for doc in sys.argv[2:])
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
