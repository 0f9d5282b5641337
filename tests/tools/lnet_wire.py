#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The Lustre socket LND wire format in Python (standard library only),
following the same rules as kernel/wire/wire.c: used by the bats suites to
build hostile and good traffic (hostile.bats) and to decode a capture of
our own nodes independently of tshark (wire.bats).

As a program:
  lnet_wire.py decode FILE.pcap   one line per acceptor request, hello,
                                  message and ping payload of every TCP
                                  connection to port 988; exit 1 (with the
                                  reason on stderr) on anything that does
                                  not decode
  lnet_wire.py streams FILE.pcap DIR
                                  write each reassembled direction of each
                                  connection to DIR (fuzz corpus seeds)
"""
import os
import struct
import sys

ACCEPTOR_PORT = 988
ACCEPTOR_MAGIC = 0xacce7100
ACCEPTOR_VERSION = 1
ACCEPTOR_VERSION_16 = 2
PROTO_MAGIC = 0x45726963
PROTO_TCP_MAGIC = 0xeebc0ded
PROTO_V3 = 3
PROTO_V4 = 4
HELLO_MAX_IPS = 16
MSG_NOOP = 0xc0
MSG_LNET = 0xc1
KSOCK_HDR_LEN = 24
MSG_HDR_LEN = 96
MSG_HDR16_LEN = 120
MTU = 1 << 20
PID_LUSTRE = 12345
PING_MAGIC = 0x70696e67
PING_MAX_NIS = 256
NI_STATUS_UP = 0x15aac0de
NI_STATUS_DOWN = 0xdeadface
FEAT_LARGE_ADDR = 1 << 5
FEAT_PRIMARY_LARGE = 1 << 6
TYPES = {0: "ACK", 1: "PUT", 2: "GET", 3: "REPLY", 4: "HELLO"}
LNDS = {2: "tcp", 5: "o2ib", 9: "lo", 13: "gni", 15: "ptlf", 16: "kfi", 18: "efa"}
IP_LNDS = (2, 5, 18)


class WireError(Exception):
    """A protocol error, like -EPROTO / -EMSGSIZE in wire.c."""


# --- NIDs -------------------------------------------------------------------

def _ip6_str(b):
    """RFC 5952 text of 16 address bytes (as lnet_nid_print() writes it)."""
    import ipaddress
    return str(ipaddress.IPv6Address(bytes(b)))


def nid16_parse(text):
    """'fd00::1@tcp' (or an IPv4 NID) -> the 20-byte wire NID."""
    import ipaddress
    addr, _, net = text.partition("@")
    if ":" not in addr:
        w = nid_parse(text)
        return struct.pack(">BBHI", 0, w >> 48 & 0xff, w >> 32 & 0xffff,
                           w & 0xffffffff) + bytes(12)
    name = net.rstrip("0123456789")
    num = int(net[len(name):] or 0)
    lnd = [k for k, v in LNDS.items() if v == name]
    if not lnd:
        raise ValueError("unknown LND in %r" % text)
    return struct.pack(">BBH", 12, lnd[0], num) + ipaddress.IPv6Address(addr).packed


def nid16_str(b):
    """The text of a 20-byte wire NID; WireError for a form wire.c refuses."""
    size, lnd, num = struct.unpack_from(">BBH", b)
    if size == 0:
        return nid_str((lnd << 16 | num) << 32 | struct.unpack_from(">I", b, 4)[0])
    if size != 12 or lnd not in IP_LNDS:
        raise WireError("NID: address size %d on LND %d" % (size + 4, lnd))
    return "%s@%s%s" % (_ip6_str(b[4:20]), LNDS[lnd], num if num else "")


def nid_parse(text):
    """'10.0.0.1@tcp' -> the 8-byte wire value (IPv4 / numeric / 0@lo)."""
    addr, _, net = text.partition("@")
    name = net.rstrip("0123456789")
    num = int(net[len(name):] or 0)
    lnd = [k for k, v in LNDS.items() if v == name]
    if not lnd:
        raise ValueError("unknown LND in %r" % text)
    if lnd[0] in IP_LNDS:
        a = 0
        for octet in addr.split("."):
            a = a << 8 | int(octet)
    else:
        a = int(addr, 0)
    return (lnd[0] << 16 | num) << 32 | a


def nid_str(w):
    """The canonical text of a wire NID, as lnet_nid_print() writes it."""
    if w == 0:
        return "<none>"
    net, a = w >> 32, w & 0xffffffff
    lnd, num = net >> 16, net & 0xffff
    if lnd == 9:
        return "0@lo"
    name = LNDS.get(lnd & 0xff, "lnd%d-" % lnd)
    if lnd in IP_LNDS:
        addr = ".".join(str(a >> s & 0xff) for s in (24, 16, 8, 0))
    else:
        addr = str(a)
    return "%s@%s%s" % (addr, name, num if num else "")


# --- encoders ---------------------------------------------------------------

def acceptor_req(nid, magic=ACCEPTOR_MAGIC, version=ACCEPTOR_VERSION):
    if version == ACCEPTOR_VERSION_16:
        return struct.pack("<II", magic, version) + nid16_parse(nid)
    return struct.pack("<IIQ", magic, version, nid_parse(nid) if isinstance(nid, str) else nid)


def hello(src, dst, ctype=1, incarnation=0x1234, dst_incarnation=0,
          magic=PROTO_MAGIC, version=PROTO_V3, nips=0, src_pid=PID_LUSTRE, dst_pid=0):
    if version == PROTO_V4:
        return (struct.pack("<II", magic, version) + nid16_parse(src) + nid16_parse(dst) +
                struct.pack("<IIQQiI", src_pid, dst_pid, incarnation, dst_incarnation,
                            ctype, nips))
    return struct.pack("<IIQQIIQQiI", magic, version, nid_parse(src), nid_parse(dst),
                       src_pid, dst_pid, incarnation, dst_incarnation, ctype, nips)


def msg_hdr(dst, src, mtype, payload_length, body=b"", ksm_type=MSG_LNET,
            dest_pid=PID_LUSTRE, src_pid=PID_LUSTRE, version=PROTO_V3):
    """96 bytes (V4: 120, 20-byte NIDs): socket header, LNet header, @body
    (<= 40 bytes) zero-padded."""
    k = struct.pack("<IIQQ", ksm_type, 0, 0, 0)
    if version == PROTO_V4:
        nids = nid16_parse(dst) + nid16_parse(src)
    else:
        nids = struct.pack("<QQ", nid_parse(dst), nid_parse(src))
    h = nids + struct.pack("<IIII", dest_pid, src_pid, mtype, payload_length)
    return k + h + body.ljust(40, b"\0")


def put_body(match_bits, ptl_index, cookie=(0, 0), hdr_data=0, offset=0):
    return struct.pack("<QQQQII", cookie[0], cookie[1], match_bits, hdr_data,
                       ptl_index, offset)


# --- decoders (the rules of wire.c) -----------------------------------------

def _need(b, n, what):
    if len(b) < n:
        raise WireError("%s: %d bytes, need %d" % (what, len(b), n))


def decode_acceptor(b):
    _need(b, 4, "acceptor request")
    magic = struct.unpack_from("<I", b)[0]
    if magic != ACCEPTOR_MAGIC:
        raise WireError("acceptor request: bad magic 0x%08x" % magic)
    _need(b, 8, "acceptor request")
    version = struct.unpack_from("<I", b, 4)[0]
    if version == ACCEPTOR_VERSION_16:
        _need(b, 28, "acceptor request")
        return {"version": version, "nid": nid16_str(b[8:28]), "len": 28}
    if version != ACCEPTOR_VERSION:
        raise WireError("acceptor request: bad version %d" % version)
    _need(b, 16, "acceptor request")
    return {"version": version, "nid": nid_str(struct.unpack_from("<Q", b, 8)[0]),
            "len": 16}


def decode_hello(b):
    _need(b, 4, "hello")
    magic = struct.unpack_from("<I", b)[0]
    if magic != PROTO_MAGIC:
        raise WireError("hello: bad magic 0x%08x" % magic)
    _need(b, 8, "hello")
    version = struct.unpack_from("<I", b, 4)[0]
    if version == PROTO_V4:
        _need(b, 80, "hello")
        f = (PROTO_MAGIC, version, nid16_str(b[8:28]), nid16_str(b[28:48])) + \
            struct.unpack_from("<IIQQiI", b, 48)
        max_ips, length = 0, 80
    elif version == PROTO_V3:
        _need(b, 56, "hello")
        f = struct.unpack_from("<IIQQIIQQiI", b)
        f = f[:2] + (nid_str(f[2]), nid_str(f[3])) + f[4:]
        max_ips, length = HELLO_MAX_IPS, 56
    else:
        raise WireError("hello: bad version %d" % version)
    if not -1 <= f[8] <= 3 or f[9] > max_ips:
        raise WireError("hello: bad kind %d or nips %d" % (f[8], f[9]))
    return {"version": f[1], "src": f[2], "dst": f[3],
            "src_pid": f[4], "dst_pid": f[5], "incarnation": f[6],
            "dst_incarnation": f[7], "kind": f[8], "nips": f[9],
            "len": length + 4 * f[9]}


def decode_msg_hdr(b, version=PROTO_V3):
    """A message header of a connection whose hellos are @version."""
    _need(b, 4, "message header")
    ksm = struct.unpack_from("<I", b)[0]
    if ksm not in (MSG_LNET, MSG_NOOP):
        raise WireError("message header: bad socket message type 0x%x" % ksm)
    if ksm == MSG_NOOP:
        _need(b, KSOCK_HDR_LEN, "NOOP")
        return {"type": "NOOP", "payload_length": 0, "len": KSOCK_HDR_LEN,
                "zc": struct.unpack_from("<QQ", b, 8)}
    if version == PROTO_V4:
        hlen = MSG_HDR16_LEN
        _need(b, hlen, "message header")
        dpid, spid, mtype, plen = struct.unpack_from("<IIII", b, 64)
        dst, src = nid16_str(b[24:44]), nid16_str(b[44:64])
    else:
        hlen = MSG_HDR_LEN
        _need(b, hlen, "message header")
        dst, src, dpid, spid, mtype, plen = struct.unpack_from("<QQIIII", b, 24)
        dst, src = nid_str(dst), nid_str(src)
    if mtype not in TYPES or plen > MTU:
        raise WireError("message header: type %d, payload_length %d" % (mtype, plen))
    if plen and mtype in (0, 2, 4):
        raise WireError("message header: %s with payload %d" % (TYPES[mtype], plen))
    m = {"type": TYPES[mtype], "dst": dst, "src": src,
         "dst_pid": dpid, "src_pid": spid, "payload_length": plen,
         "len": hlen, "zc": struct.unpack_from("<QQ", b, 8)}
    u = b[hlen - 40:hlen]
    if mtype == 0:
        m["cookie"], m["object"], m["match_bits"], m["mlength"] = struct.unpack_from("<QQQI", u)
    elif mtype == 1:
        (m["cookie"], m["object"], m["match_bits"], m["hdr_data"], m["portal"],
         m["offset"]) = struct.unpack_from("<QQQQII", u)
    elif mtype == 2:
        (m["cookie"], m["object"], m["match_bits"], m["portal"], m["src_offset"],
         m["sink_length"]) = struct.unpack_from("<QQQIII", u)
    elif mtype == 3:
        m["cookie"], m["object"] = struct.unpack_from("<QQ", u)
    return m


def decode_ping(b):
    _need(b, 4, "ping payload")
    magic = struct.unpack_from("<I", b)[0]
    order = "<" if magic == PING_MAGIC else ">"
    if struct.unpack_from(order + "I", b)[0] != PING_MAGIC:
        raise WireError("ping payload: bad magic 0x%08x" % magic)
    _need(b, 16, "ping payload")
    _, features, pid, nnis = struct.unpack_from(order + "IIII", b)
    if nnis > PING_MAX_NIS:
        raise WireError("ping payload: %d NIs" % nnis)
    _need(b, 16 + 16 * nnis, "ping payload")
    nis = []
    for i in range(nnis):
        nid, status, size = struct.unpack_from(order + "QII", b, 16 + 16 * i)
        nis.append((nid_str(nid), status, size))
    if features & FEAT_LARGE_ADDR:
        # after the nid4 entries: u32 status + 20-byte NID each, to the
        # total size the first entry gives
        if not nnis:
            raise WireError("ping payload: large entries and no nid4 entry")
        total = nis[0][2] & ~3
        if total < 16 + 16 * nnis:
            raise WireError("ping payload: size %d" % total)
        _need(b, total, "ping payload")
        large = []
        for off in range(16 + 16 * nnis, total, 24):
            if total - off < 24 or b[off + 4] != 12:
                raise WireError("ping payload: bad large entry at %d" % off)
            large.append((nid16_str(b[off + 4:off + 24]),
                          struct.unpack_from(order + "I", b, off)[0], 0))
        if features & FEAT_PRIMARY_LARGE and large:
            nis[1:1] = large[:1]
            large = large[1:]
        nis += large
    return {"features": features, "pid": pid, "nis": nis}


# --- pcap and TCP reassembly ------------------------------------------------

def pcap_frames(data):
    """(frame number, link payload) of a classic pcap (Ethernet or Linux SLL)."""
    if len(data) < 24:
        raise WireError("pcap: too short")
    magic = struct.unpack_from("<I", data)[0]
    if magic in (0xa1b2c3d4, 0xa1b23c4d):
        order = "<"
    elif magic in (0xd4c3b2a1, 0x4d3cb2a1):
        order = ">"
    else:
        raise WireError("pcap: not a classic pcap (magic 0x%08x); write it with -F pcap" % magic)
    link = struct.unpack_from(order + "I", data, 20)[0]
    off, n = 24, 0
    while off + 16 <= len(data):
        incl = struct.unpack_from(order + "I", data, off + 8)[0]
        n += 1
        if off + 16 + incl > len(data):
            raise WireError("pcap: frame %d cut short (%d of %d bytes)" %
                            (n, len(data) - off - 16, incl))
        frame = data[off + 16:off + 16 + incl]
        off += 16 + incl
        if link == 1 and len(frame) >= 14 and frame[12:14] in (b"\x08\x00", b"\x86\xdd"):
            yield n, frame[14:]
        elif link == 113 and len(frame) >= 16 and frame[14:16] in (b"\x08\x00", b"\x86\xdd"):
            yield n, frame[16:]


def tcp_streams(data):
    """{(src, sport, dst, dport): bytes} for every direction, by sequence number."""
    dirs = {}
    for _, ip in pcap_frames(data):
        if len(ip) >= 40 and ip[0] >> 4 == 6 and ip[6] == 6:
            # IPv6, TCP right after the fixed header
            tcp = ip[40:40 + struct.unpack_from(">H", ip, 4)[0]]
            src, dst = "[%s]" % _ip6_str(ip[8:24]), "[%s]" % _ip6_str(ip[24:40])
        elif len(ip) >= 20 and ip[0] >> 4 == 4 and ip[9] == 6:
            ihl, tot = (ip[0] & 15) * 4, struct.unpack_from(">H", ip, 2)[0]
            tcp = ip[ihl:tot]
            src, dst = ".".join(map(str, ip[12:16])), ".".join(map(str, ip[16:20]))
        else:
            continue
        sport, dport, seq = struct.unpack_from(">HHI", tcp)
        thl, flags = (tcp[12] >> 4) * 4, tcp[13]
        key = (src, sport, dst, dport)
        d = dirs.setdefault(key, {"isn": None, "segs": {}})
        if flags & 0x02:
            d["isn"] = (seq + 1) & 0xffffffff
        payload = tcp[thl:]
        if payload and d["isn"] is not None:
            d["segs"][(seq - d["isn"]) & 0xffffffff] = payload
    out = {}
    for key, d in dirs.items():
        buf = bytearray()
        for off in sorted(d["segs"]):
            seg = d["segs"][off]
            if off > len(buf):
                raise WireError("%s:%d -> %s:%d: hole at byte %d" % (key + (len(buf),)))
            buf[off:off + len(seg)] = seg
        out[key] = bytes(buf)
    return out


def is_ping_payload(m, ping_gets):
    """A push (PUT on portal 0 with the ping match bits) or the REPLY to a
    ping GET (its handle is one that a ping GET carried)."""
    if m["type"] == "PUT":
        return m["portal"] == 0 and m["match_bits"] == 1 << 63
    return m["type"] == "REPLY" and (m["cookie"], m["object"]) in ping_gets


def zc_acked_text(c0, c1):
    """What a NOOP's ksm_zc_cookies say: " keepalive" (0, 1), " zc_ack=" the
    cookies acknowledged ((0, c) or (c, c) one, (a, b) a > b two, a < b the
    range a..b), or nothing for (0, 0)."""
    if (c0, c1) == (0, 1):
        return " keepalive"
    if not c1:
        return ""
    if not c0 or c0 == c1:
        acked = [c1]
    elif c0 > c1:
        acked = [c1, c0]
    else:
        acked = list(range(c0, c1 + 1))
    return " zc_ack=" + ",".join(str(c) for c in acked)


def decode_messages(b, who, ping_gets, version=PROTO_V3):
    """Lines for the messages (and their ping payloads) in @b; the return
    handles of ping GETs are added to @ping_gets."""
    lines, off = [], 0
    while off < len(b):
        m = decode_msg_hdr(b[off:], version)
        off += m["len"]
        if off + m["payload_length"] > len(b):
            raise WireError("%s: %s payload cut at %d bytes" % (who, m["type"], len(b) - off))
        payload = b[off:off + m["payload_length"]]
        off += m["payload_length"]
        if m["type"] == "NOOP":
            lines.append("%s NOOP%s" % (who, zc_acked_text(*m["zc"])))
            continue
        extra = "".join((" %s=0x%x" if k == "match_bits" else " %s=%d") % (k, m[k])
                        for k in ("match_bits", "portal", "sink_length", "mlength")
                        if k in m)
        # ksm_zc_cookies: [0] asks for a zero-copy ACK, [1] gives one
        if m["zc"][0]:
            extra += " zc_req=%d" % m["zc"][0]
        if m["zc"][1]:
            extra += " zc_ack=%d" % m["zc"][1]
        lines.append("%s %s %s -> %s pids %d/%d payload %d%s" %
                     (who, m["type"], m["src"], m["dst"], m["src_pid"],
                      m["dst_pid"], m["payload_length"], extra))
        if m["type"] == "GET" and m["portal"] == 0 and m["match_bits"] == 1 << 63:
            ping_gets.add((m["cookie"], m["object"]))
        if payload and is_ping_payload(m, ping_gets):
            p = decode_ping(payload)
            lines.append("%s   ping features 0x%x pid %d nis %s" %
                         (who, p["features"], p["pid"],
                          ",".join("%s:%s" % (n, "up" if s == NI_STATUS_UP else
                                               "down" if s == NI_STATUS_DOWN else hex(s))
                                   for n, s, _ in p["nis"])))
    return lines


def decode_connection(c2s, s2c, who, ping_gets):
    lines = []
    # the versions are told only where they differ from IPv4's (v1, V3)
    if c2s:
        a = decode_acceptor(c2s)
        h = decode_hello(c2s[a["len"]:])
        lines.append("%s acceptor%s %s" % (who, " v2" if a["version"] == 2 else "",
                                           a["nid"]))
        lines.append("%s hello%s %s -> %s kind %d pid %d" %
                     (who, " V4" if h["version"] == 4 else "", h["src"], h["dst"],
                      h["kind"], h["src_pid"]))
        lines += decode_messages(c2s[a["len"] + h["len"]:], who + " >", ping_gets,
                                 h["version"])
    if s2c:
        h = decode_hello(s2c)
        lines.append("%s hello%s %s -> %s kind %d pid %d" %
                     (who, " V4" if h["version"] == 4 else "", h["src"], h["dst"],
                      h["kind"], h["src_pid"]))
        lines += decode_messages(s2c[h["len"]:], who + " <", ping_gets, h["version"])
    return lines


def main(argv):
    if len(argv) < 3 or argv[1] not in ("decode", "streams") or \
            (argv[1] == "streams") != (len(argv) == 4):
        sys.stderr.write(__doc__)
        return 2
    try:
        with open(argv[2], "rb") as f:
            streams = tcp_streams(f.read())
    except (OSError, WireError) as e:
        sys.stderr.write("lnet_wire.py: %s\n" % e)
        return 1
    if argv[1] == "streams":
        for i, (key, b) in enumerate(sorted(streams.items())):
            if b and ACCEPTOR_PORT in (key[1], key[3]):
                with open(os.path.join(argv[3], "stream%d" % i), "wb") as f:
                    f.write(b)
        return 0
    conns = sorted(k for k in streams if k[3] == ACCEPTOR_PORT)
    ping_gets = set()
    try:
        # twice: a ping's REPLY may come back on another connection than
        # its GET went out on; the first pass learns every ping GET
        for show in (False, True):
            for c in conns:
                who = "%s:%d" % (c[0], c[1])
                back = streams.get((c[2], c[3], c[0], c[1]), b"")
                for line in decode_connection(streams[c], back, who, ping_gets):
                    if show:
                        print(line)
    except WireError as e:
        sys.stderr.write("lnet_wire.py: %s\n" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
