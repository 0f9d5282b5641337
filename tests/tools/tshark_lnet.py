#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Summarise `tshark -r CAPTURE -Y lnet -V` (read on stdin) for wire.bats.

Prints one line per LNET message the dissector decoded:
  TYPE SRC -> DST pids SRC_PID/DST_PID payload N [match BITS portal P]
and exits 1 when the dissector reported anything but the one known
complaint: Wireshark 4.0 marks every PUT "Malformed" because it expects
fields after the 96-byte header (see tests/data/wire/README.md; the real
Lustre capture there has the same two marks). Any other "Expert Info" or
"Malformed" line, anywhere in the output, is printed as UNEXPECTED.
"""
import re
import sys

KNOWN_PUT_MARK = re.compile(r"^\[Expert Info \(Error/Malformed\): Capture:\d+ offset:96 "
                            r"\(length:0\) msg_type:1 ib_type:00\]$")
FIELDS = {"Src nid": "src", "Dest nid": "dst", "Src pid": "src_pid",
          "Dest pid": "dst_pid", "Payload length": "payload",
          "Match bits": "match", "ptl index": "portal"}


def parse(lines):
    """(messages, unexpected lines) of the -V text."""
    msgs, bad = [], []
    cur, in_expert = None, False
    for raw in lines:
        line = raw.rstrip("\n")
        text = line.strip()
        indent = len(line) - len(line.lstrip(" "))
        if in_expert and indent > 4:
            continue		# the known mark's own sub-lines
        in_expert = False
        if text.startswith("[Expert Info") and cur is not None and \
                cur["type"] == "PUT" and indent == 4 and KNOWN_PUT_MARK.match(text):
            cur["marks"] = cur.get("marks", 0) + 1
            in_expert = True
            continue
        if "Malformed" in text or "Expert" in text:
            bad.append(text)
            continue
        m = re.match(r"^Lustre Network (\w+)", line)
        if m:
            cur = {"type": m.group(1)}
            msgs.append(cur)
            continue
        if indent == 0:
            cur = None
            continue
        if cur is not None and indent == 4:
            key, _, val = text.partition(": ")
            if key in FIELDS and FIELDS[key] not in cur:
                num = re.search(r"\((\d+)\)$", val)	# "Unknown (0)"
                cur[FIELDS[key]] = num.group(1) if num and not val[0].isdigit() \
                    else val.split(" ")[0]
    return msgs, bad


def describe(m):
    s = "%s %s -> %s pids %s/%s payload %s" % (m["type"], m.get("src"), m.get("dst"),
                                              m.get("src_pid"), m.get("dst_pid"),
                                              m.get("payload"))
    if m["type"] in ("GET", "PUT"):
        s += " match %s portal %s" % (m.get("match"), m.get("portal"))
    if m.get("marks"):
        s += " (known PUT mark)"
    return s


def main():
    msgs, bad = parse(sys.stdin)
    for m in msgs:
        print(describe(m))
    for b in bad:
        print("UNEXPECTED: %s" % b)
    return 1 if bad or not msgs else 0


if __name__ == "__main__":
    sys.exit(main())
