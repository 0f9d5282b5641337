#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""A scripted socket LND peer for hostile.bats (standard library only).

  lnet_client.py [--src IP] [--dst IP] [--port N] [--sport N] CASE

connects from IP (default 10.11.0.2) to the acceptor at --dst (default
10.11.0.1) port 988, plays CASE, and prints what it did:

  bad-acceptor-magic  an acceptor request with magic 0x12345678
  bad-acceptor-version  the right magic, version 2
  wrong-nid           an acceptor request for 10.11.0.9@tcp
  bad-hello-magic     a good acceptor request, then a v1 hello magic
  bad-hello-version   ... then a hello of version 2
  bad-hello-nips      ... then a hello announcing 17 IPs
  bad-hello-kind      ... then a hello of connection kind 7
  truncated-header    a good handshake, then 40 bytes of a message header
                      and a close of our sending side
  oversized-payload   a good handshake, then a PUT header whose
                      payload_length is 16 MiB
  bad-msg-type        a good handshake, then a socket message of type 0xc7
  garbage             200 bytes of seeded random garbage (--seed N)
  garbage-after-hello a good handshake, then 200 bytes of seeded garbage
  ping                a good handshake, then an LNet ping (GET on portal 0)
                      whose REPLY is decoded and printed
  silent              nothing: waits for the acceptor's deadline
  drip                the acceptor request, one byte every 0.3 s
  half-hello          a good acceptor request and 20 bytes of a hello
  flood               --count connections at once, each sending nothing
                      (or --send-request: a good acceptor request), held
                      open: prints how many the acceptor closed at once
                      (within 1 s of their connect), how many later, and
                      how many were still open after --timeout
  hello-other-version a good acceptor request, then a hello of the other
                      version (V3 on IPv6, V4 on IPv4): prints the hello
                      the acceptor answers with, then waits for the close

With IPv6 addresses (--src 2001:db8::2 --dst 2001:db8::1) the handshake is
Lustre's IPv6 one: acceptor request v2 (20-byte NID), hello V4, 120-byte
message headers.

The connection comes from a privileged port (512-1023, as Lustre's), or
with --insecure from a port above 1023 that the system picks.

silent, drip and half-hello print "open S s" (the connection's life, to
a tenth of a second) before "closed".

For the hostile cases it then waits (--timeout S, default 10) for the
peer to close the connection: exit 0 and "closed" when it does, exit 1
when it does not. Every run prints "local IP:PORT" first, so the caller
can find the log line about this very connection.
"""
import argparse
import errno
import os
import random
import select
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lnet_wire as w  # noqa: E402

PING_BITS = 1 << 63


def is_v6(args):
    return ":" in args.src


def version(args):
    """The hello version (and header form) of the address family."""
    return w.PROTO_V4 if is_v6(args) else w.PROTO_V3


def connect_from(args, port):
    s = socket.socket(socket.AF_INET6 if is_v6(args) else socket.AF_INET,
                      socket.SOCK_STREAM)
    try:
        # a port of ours in TIME_WAIT may be bound again (connect tells
        # whether the whole address pair is free)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((args.src, port))
        s.settimeout(args.timeout)
        s.connect((args.dst, args.port))
    except OSError:
        s.close()
        raise
    return s


def connect(args):
    """From a privileged port, as a Lustre node connects (accept=secure
    takes no other), unless --insecure: then from one the system picks.
    The privileged ports are tried from a random one down, so that runs
    close together do not meet each other's TIME_WAIT."""
    if args.insecure:
        s = connect_from(args, 0)
    else:
        start = args.sport or random.SystemRandom().randrange(512, 1024)
        for i in range(512):
            port = 512 + (start - 512 - i) % 512
            try:
                s = connect_from(args, port)
                break
            except OSError as e:
                if e.errno not in (errno.EADDRINUSE, errno.EADDRNOTAVAIL):
                    raise
        else:
            raise OSError(errno.EADDRINUSE, "no privileged port is free")
    addr, port = s.getsockname()[:2]
    print("local %s:%d" % ("[%s]" % addr if is_v6(args) else addr, port))
    return s


def acceptor_req(args, nid):
    v = w.ACCEPTOR_VERSION_16 if is_v6(args) else args.acceptor_version
    return w.acceptor_req(nid, version=v)


def handshake(s, args, kind=1):
    """Acceptor request + hello; read and check the acceptor's hello."""
    me, peer = args.src + "@tcp", args.dst + "@tcp"
    s.sendall(acceptor_req(args, peer) +
              w.hello(me, peer, ctype=kind, incarnation=args.incarnation,
                      version=version(args)))
    h = w.decode_hello(recv_exact(s, 80 if is_v6(args) else 56))
    mirror = {1: 1, 2: 3, 3: 2}[kind]
    if h["src"] != peer or h["dst"] != me or h["kind"] != mirror or \
            h["src_pid"] != w.PID_LUSTRE or h["nips"] != 0:
        raise w.WireError("unexpected hello %r" % h)
    print("hello %s -> %s kind %d" % (h["src"], h["dst"], h["kind"]))
    return h


def recv_exact(s, n):
    b = b""
    while len(b) < n:
        chunk = s.recv(n - len(b))
        if not chunk:
            raise w.WireError("connection closed after %d of %d bytes" % (len(b), n))
        b += chunk
    return b


def wait_closed(s, timeout):
    """True once the peer closes (EOF or reset); whatever it sends is skipped."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        r, _, _ = select.select([s], [], [], max(0, end - time.monotonic()))
        if not r:
            break
        try:
            if not s.recv(65536):
                return True
        except ConnectionResetError:
            return True
    return False


def garbage(seed, n=200):
    g = bytearray(random.Random(seed).randbytes(n))
    return bytes(g)


def hostile(s, args):
    src, dst = args.src + "@tcp", args.dst + "@tcp"
    c = args.case
    if c == "bad-acceptor-magic":
        s.sendall(w.acceptor_req(dst, magic=0x12345678))
    elif c == "bad-acceptor-version":
        s.sendall(w.acceptor_req(dst, version=3))  # 2 is the nid16 form
    elif c == "bad-acceptor-v2-nid":
        r = bytearray(w.acceptor_req(dst, version=w.ACCEPTOR_VERSION_16))
        r[8] = 5  # an address of 9 bytes
        s.sendall(bytes(r))
    elif c == "wrong-nid":
        s.sendall(w.acceptor_req("10.11.0.9@tcp"))
    elif c.startswith("bad-hello-"):
        bad = {"bad-hello-magic": {"magic": w.PROTO_TCP_MAGIC},
               "bad-hello-version": {"version": 2},
               "bad-hello-nips": {"nips": 17},
               "bad-hello-kind": {"ctype": 7}}[c]
        s.sendall(w.acceptor_req(dst) + w.hello(src, dst, **bad))
    elif c == "hello-other-version":
        other = w.PROTO_V3 if is_v6(args) else w.PROTO_V4
        # a V3 hello cannot hold an IPv6 NID: its NIDs are the right
        # family's zero-address stand-ins then, as the acceptor never reads them
        me, peer = (src, dst) if other == w.PROTO_V4 else ("0.0.0.0@tcp", "0.0.0.0@tcp")
        s.sendall(acceptor_req(args, dst) + w.hello(me, peer, version=other))
        h = w.decode_hello(recv_exact(s, 80 if is_v6(args) else 56))
        print("answer version %d from %s kind %d" % (h["version"], h["src"], h["kind"]))
    elif c in ("silent", "drip", "half-hello"):
        return stalled(s, args, dst)
    elif c == "garbage":
        g = garbage(args.seed)
        print("garbage magic 0x%08x version %d" % struct.unpack_from("<II", g))
        s.sendall(g)
    else:
        handshake(s, args)
        if c == "truncated-header":
            s.sendall(w.msg_hdr(dst, src, 1, 0, w.put_body(PING_BITS, 0))[:40])
            s.shutdown(socket.SHUT_WR)
        elif c == "oversized-payload":
            s.sendall(w.msg_hdr(dst, src, 1, 16 << 20, w.put_body(PING_BITS, 0)))
        elif c == "bad-msg-type":
            s.sendall(w.msg_hdr(dst, src, 1, 0, ksm_type=0xc7))
        elif c == "garbage-after-hello":
            g = garbage(args.seed)
            print("garbage type 0x%x" % struct.unpack_from("<I", g))
            s.sendall(g)
        else:
            raise SystemExit("lnet_client.py: unknown case '%s'" % c)
    if wait_closed(s, args.timeout):
        print("closed")
        return 0
    print("still open after %gs" % args.timeout)
    return 1


def stalled(s, args, dst):
    """A handshake that never completes: how long the acceptor keeps it."""
    start = time.monotonic()
    if args.case == "half-hello":
        s.sendall(w.acceptor_req(dst) + w.hello(args.src + "@tcp", dst)[:20])
    if args.case == "drip":
        req, closed = w.acceptor_req(dst), False
        for i in range(len(req)):
            try:
                s.send(req[i:i + 1])
            except OSError:
                closed = True
                break
            if wait_closed(s, 0.3):
                closed = True
                break
    else:
        closed = wait_closed(s, args.timeout)
    if not closed:
        closed = wait_closed(s, args.timeout)
    print("open %.1f s" % (time.monotonic() - start))
    print("closed" if closed else "still open after %gs" % args.timeout)
    return 0 if closed else 1


def flood_reap(open_, counts, wait):
    """Take the connections of open_ the acceptor closed (within wait s):
    counts[0] those closed within 1 s of their connect, counts[1] later."""
    r, _, _ = select.select(list(open_), [], [], wait)
    for fd in r:
        s, t = open_[fd]
        try:
            if s.recv(65536):
                continue
        except BlockingIOError:
            continue
        except ConnectionResetError:
            pass
        counts[0 if time.monotonic() - t < 1.0 else 1] += 1
        del open_[fd]


def flood(args):
    """--count connections held open; when and whether the acceptor closes them."""
    dst = args.dst + "@tcp"
    socks, open_, counts = [], {}, [0, 0]
    for _ in range(args.count):
        s = quiet_connect(args)
        if args.send_request:
            s.sendall(w.acceptor_req(dst))
        s.setblocking(False)
        socks.append(s)
        open_[s.fileno()] = (s, time.monotonic())
        # look while connecting too: a slow loop must not make a close
        # seen late count as late
        flood_reap(open_, counts, 0)
    print("flood %d" % len(socks), flush=True)
    end = time.monotonic() + args.timeout
    while open_ and time.monotonic() < end:
        flood_reap(open_, counts, max(0, end - time.monotonic()))
    at_once, later = counts
    print("closed at once %d" % at_once)
    print("closed later %d" % later)
    print("still open %d" % len(open_))
    for s in socks:
        s.close()
    return 0


def quiet_connect(args):
    """connect() without its "local" line (a flood would print hundreds)."""
    out, sys.stdout = sys.stdout, open(os.devnull, "w")
    try:
        return connect(args)
    finally:
        sys.stdout.close()
        sys.stdout = out


def ping(s, args):
    """GET on the ping portal; print the REPLY's ping payload."""
    src, dst = args.src + "@tcp", args.dst + "@tcp"
    handshake(s, args)
    cookie = (0x1122334455667788, 42)
    body = struct.pack("<QQQIII", cookie[0], cookie[1], PING_BITS, 0, 0, 4096)
    s.sendall(w.msg_hdr(dst, src, 2, 0, body, version=version(args)))
    hlen = w.MSG_HDR16_LEN if is_v6(args) else w.MSG_HDR_LEN
    m = w.decode_msg_hdr(recv_exact(s, hlen), version=version(args))
    if m["type"] != "REPLY" or (m["cookie"], m["object"]) != cookie or \
            m["src"] != dst or m["dst"] != src:
        raise w.WireError("unexpected answer %r" % m)
    p = w.decode_ping(recv_exact(s, m["payload_length"]))
    print("reply %s -> %s pids %d/%d payload %d" % (m["src"], m["dst"], m["src_pid"],
                                                   m["dst_pid"], m["payload_length"]))
    print("ping features 0x%x pid %d" % (p["features"], p["pid"]))
    for nid, status, _ in p["nis"]:
        print("ni %s %s" % (nid, {w.NI_STATUS_UP: "up", w.NI_STATUS_DOWN: "down"}
                                 .get(status, hex(status))))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--src", default="10.11.0.2")
    ap.add_argument("--dst", default="10.11.0.1")
    ap.add_argument("--port", type=int, default=w.ACCEPTOR_PORT)
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("--sport", type=int, choices=range(512, 1024), metavar="512-1023",
                    help="the privileged port tried first (default: a random one)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--insecure", action="store_true",
                    help="connect from an unprivileged port")
    ap.add_argument("--count", type=int, default=300, help="flood: connections")
    ap.add_argument("--send-request", action="store_true",
                    help="flood: send a good acceptor request on each")
    ap.add_argument("--acceptor-version", type=int, default=w.ACCEPTOR_VERSION,
                    help="the acceptor request's form: 1, or 2 (20-byte NID)")
    ap.add_argument("--incarnation", type=lambda v: int(v, 0), default=0x18ed63e900000001)
    ap.add_argument("case")
    args = ap.parse_args()
    try:
        if args.case == "flood":
            return flood(args)
        s = connect(args)
        rc = ping(s, args) if args.case == "ping" else hostile(s, args)
        s.close()
        return rc
    except (OSError, w.WireError) as e:
        print("lnet_client.py: %s: %s" % (args.case, e), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
