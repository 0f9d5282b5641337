// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz the SRPC codec (kernel/selftest/srpc_wire.c) with the bytes a
 * hostile lnet_selftest peer could PUT into a request buffer or a reply
 * buffer: every input is unpacked whole and from each of its first bytes;
 * whatever unpacks (0, or -EPROTO for another version) must pack, and
 * unpack and pack again to the very same bytes. The input also goes
 * through the brw pattern check in each mode and the destination list
 * reader. Any breach aborts, which libFuzzer reports. Seeds: one message
 * of each type from the real lst capture (tests/data/wire/).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernel/selftest/srpc_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void must(bool ok)
{
	if (!ok)
		abort();
}

static void round_trip(const u8 *b, size_t n)
{
	struct srpc_msg m, again;
	u8 out[SRPC_MSG_LEN], out2[SRPC_MSG_LEN];
	int rc = srpc_msg_unpack(b, (u32)n, &m);

	must(rc == 0 || rc == -EPROTO || rc == -EBADMSG || rc == -EMSGSIZE);
	if (rc && rc != -EPROTO)
		return;
	must(m.type < SRPC_MSG_NTYPES);
	must(srpc_msg_pack(&m, out) == 0);
	rc = srpc_msg_unpack(out, SRPC_MSG_LEN, &again);
	must(rc == 0 || rc == -EPROTO);
	must(!again.swabbed && again.type == m.type && again.ses_feats == m.ses_feats);
	must(srpc_msg_pack(&again, out2) == 0);
	must(!memcmp(out, out2, SRPC_MSG_LEN));
	/* the body as packed: nothing after its length */
	for (u32 i = SRPC_HDR_LEN + srpc_msg_body_len(m.type); i < SRPC_MSG_LEN; i++)
		must(!out[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	u64 nid;
	u32 pid;

	round_trip(data, size);
	for (size_t off = 1; off < 8 && off + SRPC_MSG_LEN <= size; off++)
		round_trip(data + off, SRPC_MSG_LEN);
	for (u32 check = 0; check <= LST_BRW_CHECK_DISCARD + 1; check++)
		must(lst_brw_check(data, 0, (u32)size, check) == 0 ||
		     (check == LST_BRW_CHECK_SIMPLE || check == LST_BRW_CHECK_FULL));
	for (u32 i = 0; (i + 1) * LST_DEST_LEN <= size && i < 64; i++) {
		srpc_dest_unpack(data, i, i & 1, &nid, &pid);
		srpc_dest_unpack(data, i, false, &nid, &pid);
	}
	return 0;
}
