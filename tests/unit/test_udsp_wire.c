// SPDX-License-Identifier: GPL-2.0-only
/*
 * The UDSP wire form: round trips of the six rule shapes, exact sizes, and
 * hostile buffers (truncated, every header field corrupted), each rejected
 * with -EINVAL and the reason expected.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../kernel/udsp/udsp_wire.h"

#define HDR	((u32)sizeof(struct lnet_ioc_udsp))
#define DESCR	((u32)sizeof(struct lnet_ioc_udsp_descr))

struct shape {
	const char *src, *dst, *rte;
	u32 action, priority;
	u32 size;		/* whole marshalled rule */
};

/* The six shapes; sizes worked out by hand from lnet_udsp.h. */
static const struct shape shapes[] = {
	/* 32 + 3 * 16 + (4 + 12) */
	{ "tcp1", NULL, NULL, LNET_UDSP_ACTION_PRIORITY, 3, 96 },
	/* net list + 4 octet lists of one range each: 5 * 16 */
	{ "10.10.10.[5-8]@tcp1", NULL, NULL, LNET_UDSP_ACTION_PRIORITY, 7, 160 },
	/* o2ib[1-3]: one range */
	{ NULL, "o2ib[1-3]", NULL, LNET_UDSP_ACTION_PRIORITY, 0, 96 },
	/* gni: net list + one number list */
	{ NULL, "[1-3,7]@gni", NULL, LNET_UDSP_ACTION_PRIORITY, 4294967294U,
	  32 + 48 + 16 + 4 + 2 * 12 },
	{ "10.1.1.1@tcp", "10.2.2.2@o2ib", NULL, LNET_UDSP_ACTION_PREFERRED_LIST,
	  0, 32 + 48 + 80 + 80 },
	{ NULL, "tcp2", "192.168.1.[1-9/2]@tcp", LNET_UDSP_ACTION_PREFERRED_LIST,
	  0, 32 + 48 + 16 + 80 },
};

static void parse_expr(const char *s, struct lnet_nidexpr *e)
{
	char err[128] = "";

	memset(e, 0, sizeof(*e));
	if (!s)
		return;
	if (lnet_nidexpr_parse(s, e, err, sizeof(err)))
		fail_msg("cannot parse '%s': %s", s, err);
}

static void make_desc(const struct shape *sh, struct lnet_udsp_desc *d)
{
	memset(d, 0, sizeof(*d));
	d->idx = -1;
	d->action = sh->action;
	d->priority = sh->priority;
	parse_expr(sh->src, &d->src);
	parse_expr(sh->dst, &d->dst);
	parse_expr(sh->rte, &d->rte);
}

/* A heap buffer holding rule @sh; its size in *len. */
static u8 *marshal_shape(const struct shape *sh, u32 *len)
{
	struct lnet_udsp_desc d;
	u8 *buf;
	int n;

	make_desc(sh, &d);
	*len = HDR + lnet_udsp_bulk_size(&d);
	buf = malloc(*len);
	assert_non_null(buf);
	n = lnet_udsp_marshal(&d, buf, *len);
	assert_int_equal(n, *len);
	return buf;
}

static void test_round_trip(void **state)
{
	struct lnet_udsp_desc in, out;
	char err[160];
	size_t i;

	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		struct lnet_ioc_udsp h;
		u8 again[512];
		u32 len;
		u8 *buf = marshal_shape(&shapes[i], &len);

		assert_int_equal(len, shapes[i].size);
		memcpy(&h, buf, sizeof(h));
		assert_int_equal(h.iou_hdr.ioc_len, len);
		assert_int_equal(h.iou_hdr.ioc_version, LNET_IOC_VERSION);
		assert_int_equal(h.iou_bulk_size, len - HDR);
		assert_int_equal(h.iou_idx, -1);
		assert_int_equal(h.iou_action, shapes[i].action);
		assert_int_equal(h.iou_priority, shapes[i].priority);

		make_desc(&shapes[i], &in);
		err[0] = '\0';
		assert_int_equal(lnet_udsp_demarshal(buf, len, &out, err, sizeof(err)), 0);
		assert_string_equal(err, "");
		assert_int_equal(out.idx, -1);
		assert_int_equal(out.action, in.action);
		assert_int_equal(out.priority, in.priority);
		assert_true(lnet_nidexpr_equal(&out.src, &in.src));
		assert_true(lnet_nidexpr_equal(&out.dst, &in.dst));
		assert_true(lnet_nidexpr_equal(&out.rte, &in.rte));
		assert_true(lnet_udsp_desc_same_match(&out, &in));
		/* and the same bytes again */
		assert_int_equal(lnet_udsp_marshal(&out, again, sizeof(again)), len);
		assert_memory_equal(again, buf, len);
		free(buf);
	}
}

static void test_marshal_no_room(void **state)
{
	struct lnet_udsp_desc d;
	u8 buf[512];

	make_desc(&shapes[1], &d);
	assert_int_equal(lnet_udsp_marshal(&d, buf, 159), -ENOSPC);
	assert_int_equal(lnet_udsp_marshal(&d, buf, 160), 160);
	d.idx = 4;
	assert_int_equal(lnet_udsp_marshal(&d, buf, 160), 160);
	assert_int_equal(((struct lnet_ioc_udsp *)buf)->iou_idx, 4);
}

static void set_len(u8 *buf, u32 len)
{
	struct lnet_ioc_udsp h;

	memcpy(&h, buf, sizeof(h));
	h.iou_hdr.ioc_len = len;
	h.iou_bulk_size = len - HDR;
	memcpy(buf, &h, sizeof(h));
}

/*
 * Every prefix of every shape: as sent (ioc_len no longer matches) and
 * with ioc_len and iou_bulk_size made consistent with the cut, so that
 * the descriptor walk itself must notice.
 */
static void test_truncated(void **state)
{
	struct lnet_udsp_desc d;
	size_t i;
	u32 cut;

	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		u32 len;
		u8 *full = marshal_shape(&shapes[i], &len);

		for (cut = 0; cut < len; cut++) {
			u8 *p = malloc(cut ? cut : 1);

			memcpy(p, full, cut);
			assert_int_equal(lnet_udsp_demarshal(p, cut, &d, NULL, 0), -EINVAL);
			if (cut >= HDR) {
				set_len(p, cut);
				assert_int_equal(lnet_udsp_demarshal(p, cut, &d, NULL, 0),
						 -EINVAL);
			}
			free(p);
		}
		free(full);
	}
}

/* Run @mutate on a fresh copy of shape @which; expect -EINVAL and @why. */
static void expect_bad(int which, void (*mutate)(u8 *buf, u32 *len),
		       const char *why)
{
	struct lnet_udsp_desc d;
	char err[256] = "";
	u32 len;
	u8 *buf = marshal_shape(&shapes[which], &len);
	u8 *big = calloc(1, len + 64);

	memcpy(big, buf, len);
	mutate(big, &len);
	assert_int_equal(lnet_udsp_demarshal(big, len, &d, err, sizeof(err)), -EINVAL);
	if (!strstr(err, why))
		fail_msg("reason '%s' does not contain '%s'", err, why);
	/* nothing half-filled is left behind */
	assert_int_equal(d.src.ne_lnd, 0);
	assert_int_equal(d.action, 0);
	free(big);
	free(buf);
}

static struct lnet_ioc_udsp *hdr(u8 *buf)
{
	return (struct lnet_ioc_udsp *)buf;
}

/* The first (src) descriptor header and its lists. */
static struct lnet_ioc_udsp_descr *src_descr(u8 *buf)
{
	return (struct lnet_ioc_udsp_descr *)(buf + HDR);
}

static u32 *src_word(u8 *buf, u32 i)	/* u32 words after the src header */
{
	return (u32 *)(buf + HDR + DESCR) + i;
}

static void m_len_plus(u8 *b, u32 *len) { hdr(b)->iou_hdr.ioc_len++; }
static void m_len_short(u8 *b, u32 *len) { (*len)--; }
static void m_bulk_off(u8 *b, u32 *len) { hdr(b)->iou_bulk_size--; }
static void m_flags(u8 *b, u32 *len) { hdr(b)->iou_flags = 1; }
static void m_reserved(u8 *b, u32 *len) { hdr(b)->iou_reserved = 0x100; }
static void m_idx(u8 *b, u32 *len) { hdr(b)->iou_idx = -2; }
static void m_action0(u8 *b, u32 *len) { hdr(b)->iou_action = 0; }
static void m_action3(u8 *b, u32 *len) { hdr(b)->iou_action = 3; }
static void m_prio_max(u8 *b, u32 *len) { hdr(b)->iou_priority = 0xffffffffU; }
static void m_prio_pref(u8 *b, u32 *len) { hdr(b)->iou_priority = 5; }
static void m_kind(u8 *b, u32 *len) { src_descr(b)->iud_kind = 7; }
static void m_nlists(u8 *b, u32 *len) { src_descr(b)->iud_nlists = 4; }
static void m_pad(u8 *b, u32 *len) { src_descr(b)->iud_pad = 1; }
static void m_dreserved(u8 *b, u32 *len) { src_descr(b)->iud_reserved[1] = 1; }
static void m_size_plus(u8 *b, u32 *len) { src_descr(b)->iud_size++; }
static void m_size_minus(u8 *b, u32 *len) { src_descr(b)->iud_size--; }
static void m_size_huge(u8 *b, u32 *len) { src_descr(b)->iud_size = 0xfffffff0U; }
static void m_count0(u8 *b, u32 *len) { *src_word(b, 0) = 0; }
static void m_count65(u8 *b, u32 *len) { *src_word(b, 0) = 65; }
static void m_count_huge(u8 *b, u32 *len) { *src_word(b, 0) = 0xffffffffU; }
/* 0x15555556 * 12 wraps around 2^32 to 8: must not pass as 8 bytes */
static void m_count_wrap(u8 *b, u32 *len) { *src_word(b, 0) = 0x15555556U; }
static void m_lnd(u8 *b, u32 *len) { src_descr(b)->iud_lnd = 3; }
/* shape 1 src lists: [count, lo, hi, stride] for the net, then octets */
static void m_stride0(u8 *b, u32 *len) { *src_word(b, 4 + 3) = 0; }
static void m_lo_hi(u8 *b, u32 *len) { *src_word(b, 4 + 1) = 200; }
static void m_octet(u8 *b, u32 *len) { *src_word(b, 4 + 2) = 256; }
static void m_netnum(u8 *b, u32 *len) { *src_word(b, 2) = 65536; }
static void m_absent(u8 *b, u32 *len)
{
	/* shape 1 has no dst: set a field of its all-zero header */
	((struct lnet_ioc_udsp_descr *)(b + HDR + DESCR + 80))->iud_kind = 1;
}

static void m_trailing(u8 *b, u32 *len)
{
	*len += 4;
	hdr(b)->iou_hdr.ioc_len += 4;
	hdr(b)->iou_bulk_size += 4;
}

static void test_hostile_header(void **state)
{
	expect_bad(1, m_len_plus, "ioc_len 161 differs from the 160 bytes given");
	expect_bad(1, m_len_short, "ioc_len 160 differs from the 159 bytes given");
	expect_bad(1, m_bulk_off, "iou_bulk_size 127: expected 128");
	expect_bad(1, m_flags, "iou_flags 0x1");
	expect_bad(1, m_reserved, "iou_reserved 0x100: must be 0");
	expect_bad(1, m_idx, "idx -2: expected -1 (append) or 0-65535");
	expect_bad(1, m_action0, "action 0: expected 1 (priority) or 2 (preferred list)");
	expect_bad(1, m_action3, "action 3: expected 1 (priority) or 2 (preferred list)");
	expect_bad(1, m_prio_max, "priority 4294967295 is out of range: expected 0-4294967294");
	expect_bad(4, m_prio_pref, "priority 5 on a preferred-list rule");
	expect_bad(1, m_trailing, "4 bytes after the rte descriptor");
}

static void test_hostile_descr(void **state)
{
	expect_bad(1, m_kind, "src: kind 7 is not one of 0-3");
	expect_bad(1, m_nlists, "src: 4 range lists: kind 1 needs 5");
	expect_bad(1, m_pad, "src: iud_pad/iud_reserved must be 0");
	expect_bad(1, m_dreserved, "src: iud_pad/iud_reserved must be 0");
	expect_bad(1, m_size_plus, "src: iud_size 81: the lists take 80 bytes");
	expect_bad(1, m_size_minus, "src: list 4 is cut off by iud_size 79");
	expect_bad(1, m_size_huge, "src: iud_size 4294967280 exceeds the 112 bytes left");
	expect_bad(1, m_count0, "src: list 0 has 0 ranges: expected 1-64");
	expect_bad(1, m_count65, "src: list 0 has 65 ranges: expected 1-64");
	expect_bad(1, m_count_huge, "src: list 0 has 4294967295 ranges");
	expect_bad(1, m_count_wrap, "src: list 0 has 357913942 ranges");
	expect_bad(1, m_absent, "dst: an absent descriptor must be all zero");
	/* range contents are the NID library's to judge: reasons are its own */
	expect_bad(1, m_lnd, "src: ");
	expect_bad(1, m_stride0, "src: ");
	expect_bad(1, m_lo_hi, "src: ");
	expect_bad(1, m_octet, "src: ");
	expect_bad(1, m_netnum, "src: ");
}

/* Build a src NUM descriptor by hand with @n address ranges. */
static u32 build_num(u8 *buf, u32 n)
{
	struct lnet_ioc_udsp_descr dh = { .iud_lnd = LNET_LND_GNI,
					  .iud_kind = LNET_UDSP_KIND_NUM,
					  .iud_nlists = 2 };
	struct lnet_ioc_udsp h = { .iou_idx = -1,
				   .iou_action = LNET_UDSP_ACTION_PRIORITY };
	u32 off = HDR + DESCR, i, w[3];

	w[0] = 1;
	memcpy(buf + off, w, 4);
	w[0] = w[1] = 0;
	w[2] = 1;
	memcpy(buf + off + 4, w, 12);
	off += 16;
	memcpy(buf + off, &n, 4);
	off += 4;
	for (i = 0; i < n; i++) {
		w[0] = w[1] = 10 * i;
		w[2] = 1;
		memcpy(buf + off, w, 12);
		off += 12;
	}
	dh.iud_size = off - HDR - DESCR;
	memcpy(buf + HDR, &dh, sizeof(dh));
	memset(buf + off, 0, 2 * DESCR);
	off += 2 * DESCR;
	h.iou_hdr.ioc_len = off;
	h.iou_hdr.ioc_version = LNET_IOC_VERSION;
	h.iou_bulk_size = off - HDR;
	memcpy(buf, &h, sizeof(h));
	return off;
}

static void test_total_ranges(void **state)
{
	struct lnet_udsp_desc d;
	u8 buf[2048];
	char err[160] = "";
	u32 len;

	len = build_num(buf, 63);	/* 1 + 63 = 64 ranges: the limit */
	assert_int_equal(lnet_udsp_demarshal(buf, len, &d, err, sizeof(err)), 0);
	assert_int_equal(d.src.ne_nranges, 64);
	assert_int_equal(d.src.ne_count[1], 63);
	assert_int_equal(d.src.ne_r[63].lo, 620);
	len = build_num(buf, 64);	/* 65 */
	assert_int_equal(lnet_udsp_demarshal(buf, len, &d, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "src: more than 64 ranges in all");
}

static void test_short_header(void **state)
{
	struct lnet_udsp_desc d;
	char err[128] = "";
	u8 buf[HDR];

	memset(buf, 0, sizeof(buf));
	assert_int_equal(lnet_udsp_demarshal(buf, HDR - 1, &d, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "31 bytes: a rule needs at least 32");
	assert_int_equal(lnet_udsp_demarshal(buf, 0, &d, NULL, 0), -EINVAL);
}

static int shape_rc(const char *src, const char *dst, const char *rte,
		    u32 action, u32 priority, char *err, size_t errlen)
{
	struct shape sh = { src, dst, rte, action, priority, 0 };
	struct lnet_udsp_desc d;

	make_desc(&sh, &d);
	err[0] = '\0';
	return lnet_udsp_check_shape(&d, err, errlen);
}

#define PRIO	LNET_UDSP_ACTION_PRIORITY
#define PREF	LNET_UDSP_ACTION_PREFERRED_LIST

static void expect_shape(const char *src, const char *dst, const char *rte,
			 u32 action, u32 prio, const char *why)
{
	char err[256];

	assert_int_equal(shape_rc(src, dst, rte, action, prio, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, why);
}

static void test_shapes(void **state)
{
	char err[256];
	size_t i;

	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		assert_int_equal(shape_rc(shapes[i].src, shapes[i].dst, shapes[i].rte,
					  shapes[i].action, shapes[i].priority,
					  err, sizeof(err)), 0);
	expect_shape(NULL, NULL, NULL, PRIO, 1,
		     "nothing to match: give --src, --dst or --rte");
	expect_shape(NULL, NULL, "tcp", PREF, 0,
		     "--rte needs --dst: a router rule is --dst with --rte");
	expect_shape("tcp", NULL, "tcp1", PREF, 0,
		     "--src and --rte cannot be combined: a router rule is --dst with --rte");
	expect_shape("tcp", "tcp1", "tcp2", PREF, 0,
		     "--src, --dst and --rte cannot be combined: use --src with --dst, or --dst with --rte");
	expect_shape("tcp", "tcp1", NULL, PRIO, 2,
		     "a priority applies to one descriptor only: --src with --dst makes a preferred-NID rule, which takes no priority");
	expect_shape(NULL, "tcp1", "tcp", PRIO, 2,
		     "a priority applies to one descriptor only: --dst with --rte makes a preferred-router rule, which takes no priority");
	expect_shape("tcp", NULL, NULL, PREF, 0,
		     "a preferred list needs two descriptors: --src with --dst, or --dst with --rte; one descriptor alone takes a priority");
	expect_shape(NULL, "tcp", NULL, PRIO, LNET_PRIORITY_UNSET,
		     "priority 4294967295 is out of range: expected 0-4294967294");
	expect_shape("10.0.0.1@tcp", "tcp", NULL, PREF, 9,
		     "priority 9 on a preferred-list rule: it takes none (0)");
	expect_shape("tcp", NULL, NULL, 0, 0,
		     "action 0: expected 1 (priority) or 2 (preferred list)");
	/* the limits themselves are fine */
	assert_int_equal(shape_rc("tcp", NULL, NULL, PRIO, 4294967294U, err,
				  sizeof(err)), 0);
	assert_int_equal(shape_rc(NULL, "tcp", NULL, PRIO, 0, err, sizeof(err)), 0);
}

static void test_same_match(void **state)
{
	struct lnet_udsp_desc a, b;

	make_desc(&shapes[1], &a);
	make_desc(&shapes[1], &b);
	assert_true(lnet_udsp_desc_same_match(&a, &b));
	b.priority = 99;
	b.idx = 5;
	assert_true(lnet_udsp_desc_same_match(&a, &b));
	b.action = PREF;
	assert_false(lnet_udsp_desc_same_match(&a, &b));
	make_desc(&shapes[0], &b);
	assert_false(lnet_udsp_desc_same_match(&a, &b));
	make_desc(&shapes[4], &a);
	make_desc(&shapes[4], &b);
	assert_true(lnet_udsp_desc_same_match(&a, &b));
	parse_expr("10.2.2.3@o2ib", &b.dst);
	assert_false(lnet_udsp_desc_same_match(&a, &b));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_marshal_no_room),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_hostile_header),
		cmocka_unit_test(test_hostile_descr),
		cmocka_unit_test(test_total_ranges),
		cmocka_unit_test(test_short_header),
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_same_match),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
