// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz the socket LND wire decoders (kernel/wire/wire.c) with the bytes a
 * hostile peer could send. Every input goes to every decoder, whole and
 * after the first 16 and 72 bytes (where the hello and the first message
 * start on a V3 connection) and 28 and 108 (on a V4 one); a message
 * header that decodes, in either NID form, is followed by its payload,
 * decoded as a ping payload (with or without large entries). Whatever a decoder accepts
 * must encode, decode again to the very same structure, and encode again
 * to the very same bytes. Any breach aborts, which libFuzzer reports.
 */
#include <stdint.h>
#include <stdlib.h>

#include "../../kernel/wire/lnet_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void must(bool ok)
{
	if (!ok)
		abort();
}

/* Only the decoders' own error codes, never anything else. */
static void must_rc(int rc)
{
	must(rc == 0 || rc == -EPROTO || rc == -EMSGSIZE);
}

/*
 * A fixed-length record (acceptor request, hello) as the round trip sees
 * it: its codec behind one signature, and what of the input its encoding
 * must give back unchanged.
 */
struct fixed_codec {
	size_t (*wire_len)(const void *obj);	/* by the decoded version */
	size_t size;				/* of the host-order structure */
	int (*decode)(const u8 *buf, size_t len, void *obj);
	int (*encode)(const void *obj, u8 *buf);
	void (*check)(const void *obj, const u8 *in, const u8 *out);
};

union fixed_obj {
	struct lnet_acceptor_req acr;
	struct ksock_hello hello;
};

static void fuzz_fixed(const struct fixed_codec *c, const u8 *b, size_t n)
{
	union fixed_obj o, o2;
	u8 out[LNET_WIRE_HELLO_MAX_LEN], out2[LNET_WIRE_HELLO_MAX_LEN];
	int rc = c->decode(b, n, &o);
	size_t len;

	must(c->size <= sizeof(o));
	must_rc(rc);
	if (rc)
		return;
	len = c->wire_len(&o);
	must(len && len <= sizeof(out) && n >= len);
	must(!c->encode(&o, out));
	c->check(&o, b, out);
	must(!c->decode(out, len, &o2));
	must(!memcmp(&o, &o2, c->size));
	must(!c->encode(&o2, out2));
	must(!memcmp(out, out2, len));
	/* one byte less is never enough */
	must(c->decode(out, len - 1, &o2) == -EMSGSIZE);
}

static int acceptor_decode(const u8 *buf, size_t len, void *obj)
{
	return lnet_acceptor_req_decode(buf, len, obj);
}

static int acceptor_encode(const void *obj, u8 *buf)
{
	return lnet_acceptor_req_encode(obj, buf);
}

static void acceptor_check(const void *obj, const u8 *in, const u8 *out)
{
	must(!memcmp(out, in, 8));
}

static size_t acceptor_len(const void *obj)
{
	const struct lnet_acceptor_req *r = obj;

	return lnet_acceptor_req_size(r->acr_version);
}

static const struct fixed_codec acceptor_codec = {
	acceptor_len, sizeof(struct lnet_acceptor_req),
	acceptor_decode, acceptor_encode, acceptor_check,
};

static int hello_decode(const u8 *buf, size_t len, void *obj)
{
	return lnet_hello_decode(buf, len, obj);
}

static int hello_encode(const void *obj, u8 *buf)
{
	return lnet_hello_encode(obj, buf);
}

static void hello_check(const void *obj, const u8 *in, const u8 *out)
{
	const struct ksock_hello *h = obj;

	size_t nids = h->kshm_version == KSOCK_PROTO_V4 ? 40 : 16;

	must(h->kshm_nips <= (h->kshm_version == KSOCK_PROTO_V4 ? 0 : LNET_WIRE_HELLO_MAX_IPS));
	/* only the NIDs may change (0@lo is made canonical) */
	must(!memcmp(out, in, 8) && !memcmp(out + 8 + nids, in + 8 + nids, 32));
}

static size_t hello_len(const void *obj)
{
	const struct ksock_hello *h = obj;

	return lnet_hello_size(h->kshm_version);
}

static const struct fixed_codec hello_codec = {
	hello_len, sizeof(struct ksock_hello),
	hello_decode, hello_encode, hello_check,
};

static void fuzz_ping(const u8 *b, size_t n)
{
	size_t sz = sizeof(struct lnet_ping_info) +
		    LNET_PING_MAX_NIS * sizeof(struct lnet_ping_ni);
	struct lnet_ping_info *pi = calloc(1, sz), *pi2 = calloc(1, sz);
	size_t len = LNET_WIRE_PING_HDR_LEN + LNET_PING_MAX_NIS * LNET_WIRE_PING_LARGE_NI_LEN;
	u8 *out = calloc(1, len), *out2 = calloc(1, len);
	int rc, nnis;

	must(pi && pi2 && out && out2);
	nnis = lnet_ping_info_decode(b, n, pi, LNET_PING_MAX_NIS);
	if (nnis >= 0) {
		must(nnis <= LNET_PING_MAX_NIS && (u32)nnis == pi->pi_nnis);
		rc = lnet_ping_info_encode(pi, out, len);
		must(rc > 0 && (u32)rc == lnet_ping_info_wire_len(pi) && (size_t)rc <= n);
		must(lnet_ping_info_decode(out, (size_t)rc, pi2, LNET_PING_MAX_NIS) == nnis);
		must(!memcmp(pi, pi2, sizeof(*pi) + (size_t)nnis * sizeof(pi->pi_ni[0])));
		must(lnet_ping_info_encode(pi2, out2, len) == rc);
		must(!memcmp(out, out2, (size_t)rc));
	} else {
		must_rc(nnis);
	}
	free(out2);
	free(out);
	free(pi2);
	free(pi);
}

/* The message header codec of one NID form. */
struct hdr_codec {
	size_t len;
	int (*decode)(const u8 *buf, size_t len, struct ksock_msg_hdr *k,
		      struct lnet_hdr *h);
	int (*encode)(const struct ksock_msg_hdr *k, const struct lnet_hdr *h, u8 *buf);
};

static const struct hdr_codec hdr4 = {
	LNET_WIRE_MSG_HDR_LEN, lnet_msg_hdr_decode, lnet_msg_hdr_encode,
};

static const struct hdr_codec hdr16 = {
	LNET_WIRE_MSG_HDR16_LEN, lnet_msg_hdr16_decode, lnet_msg_hdr16_encode,
};

/* A message header; then its payload when the input holds it. */
static void fuzz_msg(const struct hdr_codec *c, const u8 *b, size_t n)
{
	struct ksock_msg_hdr k, k2;
	struct lnet_hdr h, h2;
	u8 out[LNET_WIRE_MSG_HDR_MAX_LEN], out2[LNET_WIRE_MSG_HDR_MAX_LEN];
	int rc = c->decode(b, n, &k, &h);

	must_rc(rc);
	if (rc)
		return;
	must(k.ksm_type == KSOCK_MSG_LNET || k.ksm_type == KSOCK_MSG_NOOP);
	must(h.type <= LNET_MSG_HELLO && h.payload_length <= LNET_MTU);
	must(strcmp(lnet_msg_type_name(h.type), "?") != 0);
	must(!c->encode(&k, &h, out));
	must(!memcmp(out, b, LNET_WIRE_KSOCK_HDR_LEN));
	must(!c->decode(out, c->len, &k2, &h2));
	must(!memcmp(&k, &k2, sizeof(k)) && !memcmp(&h, &h2, sizeof(h)));
	must(!c->encode(&k2, &h2, out2));
	must(!memcmp(out, out2, c->len));
	if (k.ksm_type == KSOCK_MSG_LNET && n > c->len)
		fuzz_ping(b + c->len, h.payload_length < n - c->len ?
			  h.payload_length : n - c->len);
}

/* Every decoder on an exact heap copy, so ASan sees any overread. */
static void fuzz_all(const u8 *data, size_t n)
{
	u8 *b = malloc(n ? n : 1);

	must(b != NULL);
	memcpy(b, data, n);
	fuzz_fixed(&acceptor_codec, b, n);
	fuzz_fixed(&hello_codec, b, n);
	fuzz_msg(&hdr4, b, n);
	fuzz_msg(&hdr16, b, n);
	fuzz_ping(b, n);
	free(b);
}

/* Where the hello and the first message start on V3 and V4 connections. */
static const size_t starts[] = {
	LNET_WIRE_ACCEPT_LEN, LNET_WIRE_ACCEPT_LEN + LNET_WIRE_HELLO_LEN,
	LNET_WIRE_ACCEPT16_LEN, LNET_WIRE_ACCEPT16_LEN + LNET_WIRE_HELLO_V4_LEN,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 2 * LNET_WIRE_MSG_HDR16_LEN + 64 * 1024)
		return 0;
	fuzz_all(data, size);
	for (size_t i = 0; i < sizeof(starts) / sizeof(starts[0]); i++)
		if (size > starts[i])
			fuzz_all(data + starts[i], size - starts[i]);
	return 0;
}
