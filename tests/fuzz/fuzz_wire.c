// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz the socket LND wire decoders (kernel/wire/wire.c) with the bytes a
 * hostile peer could send. Every input goes to every decoder, whole and
 * after the first 16 and 72 bytes (where the hello and the first message
 * start on a real connection); a message header that decodes is followed
 * by its payload, decoded as a ping payload. Whatever a decoder accepts
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
	size_t wire_len;
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
	u8 out[LNET_WIRE_HELLO_LEN], out2[LNET_WIRE_HELLO_LEN];
	int rc = c->decode(b, n, &o);

	must(c->wire_len <= sizeof(out) && c->size <= sizeof(o));
	must_rc(rc);
	if (rc)
		return;
	must(n >= c->wire_len);
	must(!c->encode(&o, out));
	c->check(&o, b, out);
	must(!c->decode(out, c->wire_len, &o2));
	must(!memcmp(&o, &o2, c->size));
	must(!c->encode(&o2, out2));
	must(!memcmp(out, out2, c->wire_len));
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

static const struct fixed_codec acceptor_codec = {
	LNET_WIRE_ACCEPT_LEN, sizeof(struct lnet_acceptor_req),
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

	must(h->kshm_nips <= LNET_WIRE_HELLO_MAX_IPS);
	/* only the NIDs may change (0@lo is made canonical) */
	must(!memcmp(out, in, 8) && !memcmp(out + 24, in + 24, 32));
}

static const struct fixed_codec hello_codec = {
	LNET_WIRE_HELLO_LEN, sizeof(struct ksock_hello),
	hello_decode, hello_encode, hello_check,
};

static void fuzz_ping(const u8 *b, size_t n)
{
	size_t sz = sizeof(struct lnet_ping_info) +
		    LNET_PING_MAX_NIS * sizeof(struct lnet_ping_ni);
	struct lnet_ping_info *pi = calloc(1, sz), *pi2 = calloc(1, sz);
	size_t len = LNET_WIRE_PING_HDR_LEN + LNET_PING_MAX_NIS * LNET_WIRE_PING_NI_LEN;
	u8 *out = calloc(1, len), *out2 = calloc(1, len);
	int rc, nnis;

	must(pi && pi2 && out && out2);
	nnis = lnet_ping_info_decode(b, n, pi, LNET_PING_MAX_NIS);
	if (nnis >= 0) {
		must(nnis <= LNET_PING_MAX_NIS && (u32)nnis == pi->pi_nnis);
		rc = lnet_ping_info_encode(pi, out, len);
		must(rc == LNET_WIRE_PING_HDR_LEN + nnis * LNET_WIRE_PING_NI_LEN);
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

/* A message header; then its payload when the input holds it. */
static void fuzz_msg(const u8 *b, size_t n)
{
	struct ksock_msg_hdr k, k2;
	struct lnet_hdr h, h2;
	u8 out[LNET_WIRE_MSG_HDR_LEN], out2[LNET_WIRE_MSG_HDR_LEN];
	int rc = lnet_msg_hdr_decode(b, n, &k, &h);

	must_rc(rc);
	if (rc)
		return;
	must(k.ksm_type == KSOCK_MSG_LNET || k.ksm_type == KSOCK_MSG_NOOP);
	must(h.type <= LNET_MSG_HELLO && h.payload_length <= LNET_MTU);
	must(strcmp(lnet_msg_type_name(h.type), "?") != 0);
	must(!lnet_msg_hdr_encode(&k, &h, out));
	must(!memcmp(out, b, LNET_WIRE_KSOCK_HDR_LEN));
	must(!lnet_msg_hdr_decode(out, sizeof(out), &k2, &h2));
	must(!memcmp(&k, &k2, sizeof(k)) && !memcmp(&h, &h2, sizeof(h)));
	must(!lnet_msg_hdr_encode(&k2, &h2, out2));
	must(!memcmp(out, out2, sizeof(out)));
	if (k.ksm_type == KSOCK_MSG_LNET && n > LNET_WIRE_MSG_HDR_LEN)
		fuzz_ping(b + LNET_WIRE_MSG_HDR_LEN,
			  h.payload_length < n - LNET_WIRE_MSG_HDR_LEN ?
			  h.payload_length : n - LNET_WIRE_MSG_HDR_LEN);
}

/* Every decoder on an exact heap copy, so ASan sees any overread. */
static void fuzz_all(const u8 *data, size_t n)
{
	u8 *b = malloc(n ? n : 1);

	must(b != NULL);
	memcpy(b, data, n);
	fuzz_fixed(&acceptor_codec, b, n);
	fuzz_fixed(&hello_codec, b, n);
	fuzz_msg(b, n);
	fuzz_ping(b, n);
	free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 2 * LNET_WIRE_MSG_HDR_LEN + 64 * 1024)
		return 0;
	fuzz_all(data, size);
	if (size > LNET_WIRE_ACCEPT_LEN)
		fuzz_all(data + LNET_WIRE_ACCEPT_LEN, size - LNET_WIRE_ACCEPT_LEN);
	if (size > LNET_WIRE_ACCEPT_LEN + LNET_WIRE_HELLO_LEN)
		fuzz_all(data + LNET_WIRE_ACCEPT_LEN + LNET_WIRE_HELLO_LEN,
			 size - LNET_WIRE_ACCEPT_LEN - LNET_WIRE_HELLO_LEN);
	return 0;
}
